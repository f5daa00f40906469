/* pc_scenario_load.c - scenario YAML through libyaml's event parser into
 * a position-carrying node tree; the only file that sees yaml types. */
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "pc_scenario.h"
#include "pc_scenario_impl.h"
#include "pc_xalloc.h"

struct reader {
	yaml_parser_t p;
	yaml_event_t ev;
	const char *path;
	const char *text;
	size_t len;
	struct pc_err *err;
	size_t nodes;
};

static int fail_at(struct reader *r, size_t line, size_t col, const char *what)
{
	pc_err_set(r->err, PC_EPARSE, "%s:%zu:%zu: %s", r->path, line, col,
		   what);
	if (r->err)
		snprintf(r->err->where, sizeof(r->err->where), "%s:%zu:%zu",
			 r->path, line, col);
	return PC_EPARSE;
}

static int fail(struct reader *r, const char *what)
{
	return fail_at(r, r->ev.start_mark.line + 1,
		       r->ev.start_mark.column + 1, what);
}

/* Reader errors (bad UTF-8) carry a byte offset, not a mark. */
static int fail_offset(struct reader *r, size_t off, const char *what)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < off && i < r->len; i++) {
		if (r->text[i] == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)r->text[i] & 0xC0) != 0x80) {
			col++;
		}
	}
	return fail_at(r, line, col, what);
}

static int next(struct reader *r)
{
	char msg[512];

	yaml_event_delete(&r->ev);
	if (!yaml_parser_parse(&r->p, &r->ev)) {
		memset(&r->ev, 0, sizeof(r->ev));
		if (r->p.context)
			snprintf(msg, sizeof(msg), "invalid YAML: %s %s",
				 r->p.problem ? r->p.problem : "error",
				 r->p.context);
		else
			snprintf(msg, sizeof(msg), "invalid YAML: %s",
				 r->p.problem ? r->p.problem : "error");
		if (r->p.error == YAML_READER_ERROR)
			return fail_offset(r, r->p.problem_offset, msg);
		return fail_at(r, r->p.problem_mark.line + 1,
			       r->p.problem_mark.column + 1, msg);
	}
	return 0;
}

static struct pc__ynode *node_new(struct reader *r, enum pc__ynode_kind k)
{
	struct pc__ynode *n = pc_xcalloc(1, sizeof(*n));

	n->kind = k;
	n->line = r->ev.start_mark.line + 1;
	n->col = r->ev.start_mark.column + 1;
	n->el = r->ev.end_mark.line;
	n->ec = r->ev.end_mark.column;
	return n;
}

static void node_push(struct pc__ynode *n, struct pc__ynode *kid)
{
	if (n->n == n->alloc) {
		n->alloc = n->alloc ? 2 * n->alloc : 8;
		n->kids = pc_xreallocarray(n->kids, n->alloc, sizeof(*n->kids));
	}
	n->kids[n->n++] = kid;
}

void pc__ynode_free(struct pc__ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		pc__ynode_free(n->kids[i]);
	free(n->kids);
	free(n->s);
	free(n);
}

/* The anchor and tag checks every node event shares. */
static int check_props(struct reader *r, const yaml_char_t *anchor,
		       const yaml_char_t *tag, bool *update)
{
	*update = false;
	if (anchor)
		return fail(
			r,
			"anchors (&name) and aliases (*name) are not supported in scenario files");
	if (!tag)
		return 0;
	if (!strcmp((const char *)tag, "!update")) {
		*update = true;
		return 0;
	}
	if (!strcmp((const char *)tag, "tag:yaml.org,2002:str"))
		return 0;
	return fail(
		r, "unknown tag (the only tags allowed are !update and !!str)");
}

static int read_node(struct reader *r, size_t depth, struct pc__ynode **out);

static int read_kids(struct reader *r, size_t depth, struct pc__ynode *n,
		     yaml_event_type_t end)
{
	struct pc__ynode *kid;
	int rc;

	for (;;) {
		if ((rc = next(r)))
			return rc;
		if (r->ev.type == end) {
			n->el = r->ev.end_mark.line;
			n->ec = r->ev.end_mark.column;
			return 0;
		}
		if ((rc = read_node(r, depth + 1, &kid)))
			return rc;
		node_push(n, kid);
	}
}

static int read_node(struct reader *r, size_t depth, struct pc__ynode **out)
{
	struct pc__ynode *n;
	bool upd;
	int rc;

	*out = NULL;
	if (++r->nodes > PC_SCENARIO_MAX_NODES)
		return fail(r,
			    "too many YAML nodes (the cap is 100000 per file)");
	if (depth > PC_SCENARIO_MAX_DEPTH)
		return fail(r, "YAML nested too deeply (the cap is 64 levels)");
	switch (r->ev.type) {
	case YAML_ALIAS_EVENT:
		return fail(
			r,
			"anchors (&name) and aliases (*name) are not supported in scenario files");
	case YAML_SCALAR_EVENT:
		if ((rc = check_props(r, r->ev.data.scalar.anchor,
				      r->ev.data.scalar.tag, &upd)))
			return rc;
		if (memchr(r->ev.data.scalar.value, 0,
			   r->ev.data.scalar.length))
			return fail(r,
				    "strings must not contain NUL characters");
		n = node_new(r, PC__Y_SCALAR);
		n->s = pc_xmemdup(r->ev.data.scalar.value,
				  r->ev.data.scalar.length);
		n->quoted = r->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		n->tag_update = upd;
		*out = n;
		return 0;
	case YAML_SEQUENCE_START_EVENT:
		if ((rc = check_props(r, r->ev.data.sequence_start.anchor,
				      r->ev.data.sequence_start.tag, &upd)))
			return rc;
		n = node_new(r, PC__Y_SEQ);
		break;
	case YAML_MAPPING_START_EVENT:
		if ((rc = check_props(r, r->ev.data.mapping_start.anchor,
				      r->ev.data.mapping_start.tag, &upd)))
			return rc;
		n = node_new(r, PC__Y_MAP);
		break;
	default:
		return fail(r, "unexpected YAML event");
	}
	n->tag_update = upd;
	rc = read_kids(r, depth, n,
		       n->kind == PC__Y_SEQ ? YAML_SEQUENCE_END_EVENT
					    : YAML_MAPPING_END_EVENT);
	if (rc) {
		pc__ynode_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

static int read_stream(struct reader *r, struct pc__ynode **out)
{
	int rc;

	do {
		if ((rc = next(r)))
			return rc;
	} while (r->ev.type == YAML_STREAM_START_EVENT ||
		 r->ev.type == YAML_DOCUMENT_START_EVENT);
	if (r->ev.type == YAML_STREAM_END_EVENT)
		return 0;
	if ((rc = read_node(r, 0, out)))
		return rc;
	if ((rc = next(r))) /* DOCUMENT_END */
		return rc;
	if ((rc = next(r)))
		return rc;
	if (r->ev.type != YAML_STREAM_END_EVENT)
		return fail(r,
			    "expected one YAML document, found a second one");
	return 0;
}

int pc__scenario_yaml_read(const char *path, const char *text, size_t len,
			   struct pc__ynode **out, struct pc_err *err)
{
	struct reader r = {
		.path = path, .text = text, .len = len, .err = err
	};
	int rc;

	*out = NULL;
	memset(&r.ev, 0, sizeof(r.ev));
	if (!yaml_parser_initialize(&r.p))
		abort(); /* out of memory */
	yaml_parser_set_input_string(&r.p, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&r.p, YAML_UTF8_ENCODING);
	rc = read_stream(&r, out);
	if (rc) {
		pc__ynode_free(*out);
		*out = NULL;
	}
	yaml_event_delete(&r.ev);
	yaml_parser_delete(&r.p);
	return rc;
}

/* pc_scenario.c - check a scenario file's node tree and build the
 * scenario structs (docs/scenarios.md is the format's reference). */
#include "pc_scenario.h"

#include <sys/stat.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_mock.h"
#include "pc_model_script.h"
#include "pc_scenario_impl.h"
#include "pc_xalloc.h"

struct ctx {
	const char *path;
	const char *text;
	size_t len;
	struct pc_err *err;
	struct pc_scenario_file *f;
};

static int bad(struct ctx *c, const struct pc__ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct ctx *c, const struct pc__ynode *n, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pc_err_set(c->err, PC_EPARSE, "%s:%zu:%zu: %s", c->path, n->line,
		   n->col, what);
	if (c->err)
		snprintf(c->err->where, sizeof(c->err->where), "%s:%zu:%zu",
			 c->path, n->line, n->col);
	return PC_EPARSE;
}

static const char *kind_name(const struct pc__ynode *n)
{
	return n->kind == PC__Y_MAP   ? "a mapping"
	       : n->kind == PC__Y_SEQ ? "a list"
				      : "a scalar";
}

static bool is_null(const struct pc__ynode *n)
{
	return n->kind == PC__Y_SCALAR && !n->quoted &&
	       (!*n->s || !strcmp(n->s, "~") || !strcmp(n->s, "null") ||
		!strcmp(n->s, "Null") || !strcmp(n->s, "NULL"));
}

static int as_bool(const struct pc__ynode *n)
{
	static const char *const t[] = { "true", "True", "TRUE" };
	static const char *const f[] = { "false", "False", "FALSE" };

	if (n->kind != PC__Y_SCALAR || n->quoted)
		return -1;
	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(n->s, t[i]))
			return 1;
		if (!strcmp(n->s, f[i]))
			return 0;
	}
	return -1;
}

static bool as_number(const struct pc__ynode *n, double *out)
{
	char *end;

	if (n->kind != PC__Y_SCALAR || n->quoted || !*n->s ||
	    strspn(n->s, "+-0123456789.eE") != strlen(n->s) ||
	    !strpbrk(n->s, "0123456789"))
		return false;
	errno = 0;
	*out = strtod(n->s, &end);
	return !*end && errno != ERANGE;
}

/* A plain or quoted scalar that is a string (not null/bool/number). */
static bool is_string(const struct pc__ynode *n)
{
	double d;

	return n->kind == PC__Y_SCALAR &&
	       (n->quoted ||
		(!is_null(n) && as_bool(n) < 0 && !as_number(n, &d)));
}

static int want_string(struct ctx *c, const struct pc__ynode *n,
		       const char *what)
{
	if (!is_string(n))
		return bad(c, n, "'%s' must be a string, not %s", what,
			   n->kind == PC__Y_SCALAR ? "a null, boolean or number"
						   : kind_name(n));
	return 0;
}

static int want_map(struct ctx *c, const struct pc__ynode *n, const char *what)
{
	if (n->kind != PC__Y_MAP)
		return bad(c, n, "%s must be a mapping, not %s", what,
			   kind_name(n));
	for (size_t i = 0; i < n->n; i += 2) {
		if (!is_string(n->kids[i]))
			return bad(c, n->kids[i], "keys of %s must be strings",
				   what);
		for (size_t j = 0; j < i; j += 2)
			if (!strcmp(n->kids[j]->s, n->kids[i]->s))
				return bad(c, n->kids[i], "duplicate key '%s'",
					   n->kids[i]->s);
	}
	return 0;
}

static const struct pc__ynode *lookup(const struct pc__ynode *m,
				      const char *key)
{
	for (size_t i = 0; i + 1 < m->n; i += 2)
		if (!strcmp(m->kids[i]->s, key))
			return m->kids[i + 1];
	return NULL;
}

/* Every key of mapping `m` is in the NULL-terminated `keys`. */
static int known_keys(struct ctx *c, const struct pc__ynode *m,
		      const char *what, const char *const *keys)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	for (size_t i = 0; i < m->n; i += 2) {
		size_t k = 0;

		while (keys[k] && strcmp(keys[k], m->kids[i]->s))
			k++;
		if (keys[k])
			continue;
		for (k = 0; keys[k]; k++)
			pc_buf_addf(&b, "%s%s", k ? ", " : "", keys[k]);
		rc = bad(c, m->kids[i],
			 "unknown key '%s' in %s (expected one of: %s)",
			 m->kids[i]->s, what, pc_buf_cstr(&b));
		pc_buf_release(&b);
		return rc;
	}
	return 0;
}

/* YAML node to JSON value (YAML 1.2 core schema for plain scalars). */
static cJSON *to_json(const struct pc__ynode *n)
{
	cJSON *v;
	double d;
	int b;

	if (n->kind == PC__Y_SCALAR) {
		if (n->quoted)
			return cJSON_CreateString(n->s);
		if (is_null(n))
			return cJSON_CreateNull();
		if ((b = as_bool(n)) >= 0)
			return cJSON_CreateBool(b);
		if (as_number(n, &d))
			return cJSON_CreateNumber(d);
		return cJSON_CreateString(n->s);
	}
	v = n->kind == PC__Y_SEQ ? cJSON_CreateArray() : cJSON_CreateObject();
	for (size_t i = 0; i < n->n; i++) {
		if (n->kind == PC__Y_SEQ) {
			cJSON_AddItemToArray(v, to_json(n->kids[i]));
		} else {
			cJSON_AddItemToObject(v, n->kids[i]->s,
					      to_json(n->kids[i + 1]));
			i++;
		}
	}
	return v;
}

/* Byte offset of 0-based (line, column in characters) in the text. */
static size_t mark_to_byte(const struct ctx *c, size_t line, size_t col)
{
	size_t i = 0;

	while (line && i < c->len)
		if (c->text[i++] == '\n')
			line--;
	while (col && i < c->len) {
		i++;
		while (i < c->len && ((unsigned char)c->text[i] & 0xC0) == 0x80)
			i++;
		col--;
	}
	return i;
}

/* ---- expectations ---- */

static struct pc_expect *add_expect(struct ctx *c, struct pc_step *s,
				    const struct pc__ynode *at,
				    const char *label, const char *path)
{
	struct pc_expect *e;

	s->expects = pc_xreallocarray(s->expects, s->nexpects + 1,
				      sizeof(*s->expects));
	e = &s->expects[s->nexpects++];
	memset(e, 0, sizeof(*e));
	e->label = pc_xstrdup(label);
	e->path = pc_xstrdup(path);
	e->line = at->line;
	e->col = at->col;
	if (at->tag_update || (at->kind == PC__Y_SCALAR && at->quoted &&
			       !strcmp(at->s, "@update"))) {
		e->update = true;
		e->upd_start = mark_to_byte(c, at->line - 1, at->col - 1);
		e->upd_end = mark_to_byte(c, at->el, at->ec);
	}
	return e;
}

/* "/re/flags" -> a compiled matcher in e->re. Returns 1 when `n` is not
 * in regex form, 0 when compiled, PC_EPARSE on a bad regex. */
static int try_regex(struct ctx *c, const struct pc__ynode *n,
		     struct pc_match **re)
{
	struct pc_err rerr = PC_ERR_INIT;
	const char *s = n->s, *last;
	char *pat;
	int rc;

	if (!is_string(n) || s[0] != '/' || !(last = strrchr(s + 1, '/')) ||
	    strspn(last + 1, "abcdefghijklmnopqrstuvwxyz") != strlen(last + 1))
		return 1;
	pat = pc_xmemdup(s + 1, (size_t)(last - s - 1));
	rc = pc_match_new(pat, last + 1, re, &rerr);
	free(pat);
	if (rc)
		return bad(c, n, "%s in '%s'", rerr.msg, s);
	return 0;
}

/* A value matcher: /regex/flags, {equals: X}, or any JSON value (EQ, or
 * STRICT when `strict`). `null_absent`: null means "must be absent". */
static int matcher(struct ctx *c, struct pc_step *s, const struct pc__ynode *n,
		   const char *label, const char *path, bool strict,
		   bool null_absent)
{
	struct pc_expect *e = add_expect(c, s, n, label, path);
	const struct pc__ynode *eq;
	int rc;

	if (e->update && n->kind == PC__Y_SCALAR && n->quoted &&
	    !strcmp(n->s, "@update")) {
		e->op = PC_EXPECT_EQ; /* value NULL: anything, then updated */
		return 0;
	}
	if ((rc = try_regex(c, n, &e->re)) <= 0) {
		e->op = PC_EXPECT_REGEX;
		return rc;
	}
	if (n->kind == PC__Y_MAP && n->n == 2 && is_string(n->kids[0]) &&
	    !strcmp(n->kids[0]->s, "equals")) {
		eq = n->kids[1];
		e->op = strict ? PC_EXPECT_STRICT : PC_EXPECT_EQ;
		e->value = to_json(eq);
		return 0;
	}
	if (null_absent && is_null(n)) {
		e->op = PC_EXPECT_ABSENT;
		return 0;
	}
	e->op = strict ? PC_EXPECT_STRICT : PC_EXPECT_EQ;
	e->value = to_json(n);
	return 0;
}

static int number_expect(struct ctx *c, struct pc_step *s,
			 const struct pc__ynode *n, const char *key,
			 const char *limit_key, enum pc_expect_op op)
{
	const struct pc__ynode *v = n;
	struct pc_expect *e;
	double d;

	if (n->kind == PC__Y_MAP) {
		if (n->n != 2 || !is_string(n->kids[0]) ||
		    strcmp(n->kids[0]->s, limit_key))
			return bad(c, n, "'%s' must be a number or {%s: N}",
				   key, limit_key);
		v = n->kids[1];
	}
	if (!as_number(v, &d) || d < 0)
		return bad(c, v, "'%s' must be a number >= 0 (or {%s: N})", key,
			   limit_key);
	e = add_expect(c, s, n, key, "");
	free(e->path);
	e->path = pc_xasprintf("$.%s", key);
	e->op = op;
	e->value = cJSON_CreateNumber(d);
	return 0;
}

static bool rel_path_ok(const char *p)
{
	const char *q = p;

	if (!*p || p[0] == '/')
		return false;
	while (q) {
		if (!strncmp(q, "..", 2) && (q[2] == '/' || !q[2]))
			return false;
		q = strchr(q, '/');
		if (q)
			q++;
	}
	return true;
}

static int files_expect(struct ctx *c, struct pc_step *s,
			const struct pc__ynode *m)
{
	int rc;

	if ((rc = want_map(c, m, "'files'")))
		return rc;
	for (size_t i = 0; i < m->n; i += 2) {
		const struct pc__ynode *k = m->kids[i], *v = m->kids[i + 1];
		char *label = pc_xasprintf("files %s", k->s);
		struct pc_expect *e;

		if (!rel_path_ok(k->s)) {
			free(label);
			return bad(
				c, k,
				"'%s' must be a path relative to the workspace, without '..'",
				k->s);
		}
		e = add_expect(c, s, v, label, k->s);
		free(label);
		e->op = PC_EXPECT_FILE;
		if (v->kind == PC__Y_SCALAR && !v->quoted &&
		    (!strcmp(v->s, "present") || !strcmp(v->s, "absent"))) {
			e->file_state = v->s[0] == 'p' ? PC_FILE_PRESENT
						       : PC_FILE_ABSENT;
			continue;
		}
		if (!is_string(v))
			return bad(
				c, v,
				"a file expectation must be present, absent, the content as a string, or /regex/");
		e->file_state = PC_FILE_CONTENT;
		if ((rc = try_regex(c, v, &e->re)) < 0)
			return rc;
		if (rc > 0)
			e->value = cJSON_CreateString(v->s);
	}
	return 0;
}

static int json_expect(struct ctx *c, struct pc_step *s,
		       const struct pc__ynode *v, bool strict)
{
	int rc;

	if ((rc = want_map(c, v, "'json'")))
		return rc;
	for (size_t i = 0; i < v->n && !rc; i += 2) {
		char *label = pc_xasprintf("json %s", v->kids[i]->s);

		if (!pc__scenario_path_ok(v->kids[i]->s))
			rc = bad(
				c, v->kids[i],
				"'%s' is not a JSON path (expected $.key.key[0] ...)",
				v->kids[i]->s);
		else
			rc = matcher(c, s, v->kids[i + 1], label, v->kids[i]->s,
				     strict, true);
		free(label);
	}
	return rc;
}

static const char *const outcomes[] = { "ok",
					"timeout",
					"exit",
					"spawn_error",
					"empty_stdout",
					"invalid_json",
					"input_too_large",
					"output_too_large",
					NULL };

static const char *const expect_keys[] = { "verdict",
					   "outcome",
					   "reason",
					   "modify",
					   "strict",
					   "notify",
					   "status",
					   "ok",
					   "output",
					   "prompt",
					   "error",
					   "message",
					   "injection",
					   "id",
					   "loaded",
					   "exit_code",
					   "stdout",
					   "stderr",
					   "duration_ms",
					   "stdout_bytes",
					   "stderr_bytes",
					   "leftover_processes",
					   "json",
					   "files",
					   NULL };

static int expect_one(struct ctx *c, struct pc_step *s, const char *k,
		      const struct pc__ynode *v, bool strict)
{
	char *path = pc_xasprintf("$.%s", k);
	struct pc_expect *e;
	int rc = 0, b;

	if (!strcmp(k, "verdict")) {
		if (v->kind != PC__Y_SCALAR ||
		    (strcmp(v->s, "allow") && strcmp(v->s, "deny") &&
		     strcmp(v->s, "@update"))) {
			free(path);
			return bad(c, v, "'verdict' must be allow or deny");
		}
		e = add_expect(c, s, v, "verdict", "$.allow");
		e->is_verdict = true;
		e->op = PC_EXPECT_EQ;
		if (strcmp(v->s, "@update"))
			e->value = cJSON_CreateBool(!strcmp(v->s, "allow"));
	} else if (!strcmp(k, "outcome")) {
		size_t i = 0;

		while (v->kind == PC__Y_SCALAR && outcomes[i] &&
		       strcmp(outcomes[i], v->s))
			i++;
		if (v->kind != PC__Y_SCALAR ||
		    (!outcomes[i] && strcmp(v->s, "@update")))
			rc = bad(
				c, v,
				"'outcome' must be one of ok, timeout, exit, spawn_error, empty_stdout, invalid_json, input_too_large, output_too_large");
		else
			rc = matcher(c, s, v, k, path, false, false);
	} else if (!strcmp(k, "ok") || !strcmp(k, "loaded")) {
		if ((b = as_bool(v)) < 0 &&
		    !(v->quoted && !strcmp(v->s, "@update")))
			rc = bad(c, v, "'%s' must be true or false", k);
		else
			rc = matcher(c, s, v, k, path, false, false);
	} else if (!strcmp(k, "modify")) {
		rc = matcher(c, s, v, k, path, strict, true);
	} else if (!strcmp(k, "exit_code") ||
		   !strcmp(k, "leftover_processes")) {
		double d;

		if (!as_number(v, &d) && !is_null(v))
			rc = bad(c, v, "'%s' must be a number", k);
		else
			rc = matcher(c, s, v, k, path, false, false);
	} else if (!strcmp(k, "duration_ms")) {
		rc = number_expect(c, s, v, k, "under", PC_EXPECT_LT);
	} else if (!strcmp(k, "stdout_bytes") || !strcmp(k, "stderr_bytes")) {
		rc = number_expect(c, s, v, k, "max", PC_EXPECT_LE);
	} else if (!strcmp(k, "json")) {
		rc = json_expect(c, s, v, strict);
	} else if (!strcmp(k, "files")) {
		rc = files_expect(c, s, v);
	} else if (!strcmp(k, "strict")) {
		if (as_bool(v) < 0)
			rc = bad(c, v, "'strict' must be true or false");
	} else {
		/* reason, notify, status, output, ...: strings. */
		if (!is_string(v) && !is_null(v) && v->kind != PC__Y_MAP)
			rc = bad(
				c, v,
				"'%s' must be a string, /regex/flags, {equals: ...} or null",
				k);
		else
			rc = matcher(c, s, v, k, path, false, true);
	}
	free(path);
	return rc;
}

static int read_expect(struct ctx *c, struct pc_step *s,
		       const struct pc__ynode *m)
{
	const struct pc__ynode *st;
	bool strict;
	int rc;

	if ((rc = want_map(c, m, "'expect'")) ||
	    (rc = known_keys(c, m, "'expect'", expect_keys)))
		return rc;
	st = lookup(m, "strict");
	strict = st && as_bool(st) == 1;
	for (size_t i = 0; i < m->n; i += 2)
		if ((rc = expect_one(c, s, m->kids[i]->s, m->kids[i + 1],
				     strict)))
			return rc;
	return 0;
}

/* ---- steps ---- */

static int read_save(struct ctx *c, struct pc_step *s,
		     const struct pc__ynode *m)
{
	int rc;

	if ((rc = want_map(c, m, "'save'")))
		return rc;
	for (size_t i = 0; i < m->n; i += 2) {
		const struct pc__ynode *k = m->kids[i], *v = m->kids[i + 1];
		struct pc_capture *cap;

		if (strspn(k->s,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    strlen(k->s))
			return bad(
				c, k,
				"variable names are letters, digits and '_'");
		if ((rc = want_string(c, v, "save")))
			return rc;
		if (!pc__scenario_path_ok(v->s))
			return bad(
				c, v,
				"'%s' is not a JSON path (expected $.key.key[0] ...)",
				v->s);
		s->captures = pc_xreallocarray(s->captures, s->ncaptures + 1,
					       sizeof(*s->captures));
		cap = &s->captures[s->ncaptures++];
		cap->var = pc_xstrdup(k->s);
		cap->path = pc_xstrdup(v->s);
	}
	return 0;
}

static int read_write(struct ctx *c, struct pc_step *s,
		      const struct pc__ynode *m)
{
	int rc;

	if ((rc = want_map(c, m, "'write'")))
		return rc;
	for (size_t i = 0; i < m->n; i += 2) {
		if (!rel_path_ok(m->kids[i]->s))
			return bad(
				c, m->kids[i],
				"'%s' must be a path relative to the workspace, without '..'",
				m->kids[i]->s);
		if ((rc = want_string(c, m->kids[i + 1], m->kids[i]->s)))
			return rc;
	}
	s->files = to_json(m);
	return 0;
}

static char *resolve(const char *dir, const char *p)
{
	char *j = p[0] == '/' ? pc_xstrdup(p) : pc_fs_join(dir, p);
	char *a = pc_fs_absolute(j);

	free(j);
	return a;
}

static const char *const step_keys[] = { "name",    "fire",   "turn",  "plugin",
					 "input",   "result", "tool",  "expect",
					 "save",    "write",  "files", "enable",
					 "disable", "reload", NULL };

static int read_fire(struct ctx *c, struct pc_step *s,
		     const struct pc__ynode *m)
{
	const struct pc__ynode *v;
	int rc;

	if ((rc = want_string(c, lookup(m, "fire"), "fire")))
		return rc;
	s->kind = PC_STEP_FIRE;
	s->point = pc_xstrdup(lookup(m, "fire")->s);
	if ((v = lookup(m, "plugin"))) {
		if ((rc = want_string(c, v, "plugin")))
			return rc;
		s->plugin = resolve(c->f->dir, v->s);
		if (!pc_fs_is_dir(s->plugin))
			return bad(
				c, v,
				"plugin directory '%s' does not exist (relative paths start at the file's directory)",
				v->s);
	} else {
		s->plugin = pc_xstrdup(c->f->plugins.v[0]);
	}
	if ((v = lookup(m, "input")))
		s->input = to_json(v);
	if ((v = lookup(m, "result")))
		s->result = to_json(v);
	if ((v = lookup(m, "tool"))) {
		if ((rc = want_string(c, v, "tool")))
			return rc;
		s->tool = pc_xstrdup(v->s);
	}
	if ((v = lookup(m, "expect")) && (rc = read_expect(c, s, v)))
		return rc;
	if ((v = lookup(m, "save")) && (rc = read_save(c, s, v)))
		return rc;
	if (!s->name)
		s->name = pc_xasprintf("fire %s", s->point);
	return 0;
}

/* ---- turn steps ---- */

/* An item of a turn's `hooks`: its first word must be one of the 18 hook
 * points, or the item can never match (a typo would only fail the run). */
static int hook_item(struct ctx *c, const struct pc__ynode *item)
{
	char *point = pc_xmemdup(item->s, strcspn(item->s, " "));
	struct pc_err err = PC_ERR_INIT;
	int rc = 0;

	if (pc_hook_point_parse(point) < 0) {
		char *tail;

		if (pc_fire_point_syntax(point, &err) == 0)
			pc_err_set(&err, PC_EUSAGE,
				   "'%s' is not a hook point", point);
		/* the 18 points, not the tool:/command: forms of `fire` */
		if ((tail = strstr(err.msg, ", or use tool:")))
			*tail = '\0';
		rc = bad(c, item,
			 "an item of 'hooks' starts with the hook point (\"<hook> <plugin>[ <tool>][ deny]\"): %s",
			 err.msg);
	}
	free(point);
	return rc;
}

static const char *const turn_expect_keys[] = {
	"hooks", "exact", "events", "completed", "consumed",
	"json",	 "files", "strict", NULL
};

static int turn_expect_one(struct ctx *c, struct pc_step *s, const char *k,
			   const struct pc__ynode *v, bool strict, bool exact)
{
	struct pc_expect *e;
	char *path;
	int rc;

	if (!strcmp(k, "hooks") || !strcmp(k, "events")) {
		bool hooks = k[0] == 'h';

		if (v->kind != PC__Y_SEQ)
			return bad(
				c, v,
				hooks ? "'hooks' must be a list of strings (\"<hook> <plugin>[ <tool>][ deny]\")"
				      : "'events' must be a list of mappings (each a subset of one transcript event, in order)");
		for (size_t i = 0; i < v->n; i++) {
			if (hooks && !is_string(v->kids[i]))
				return bad(
					c, v->kids[i],
					"an item of 'hooks' must be a string (\"<hook> <plugin>[ <tool>][ deny]\")");
			if (hooks && (rc = hook_item(c, v->kids[i])))
				return rc;
			if (!hooks && (rc = want_map(c, v->kids[i],
						     "an item of 'events'")))
				return rc;
		}
		path = pc_xasprintf("$.%s", k);
		e = add_expect(c, s, v, k, path);
		free(path);
		e->op = hooks ? PC_EXPECT_HOOKS : PC_EXPECT_EVENTS;
		e->exact = hooks && exact;
		e->value = to_json(v);
		return 0;
	}
	if (!strcmp(k, "completed") || !strcmp(k, "consumed")) {
		if (as_bool(v) < 0)
			return bad(c, v, "'%s' must be true or false", k);
		path = pc_xasprintf("$.%s", k);
		rc = matcher(c, s, v, k, path, false, false);
		free(path);
		return rc;
	}
	if (!strcmp(k, "exact") || !strcmp(k, "strict")) {
		if (as_bool(v) < 0)
			return bad(c, v, "'%s' must be true or false", k);
		return 0;
	}
	if (!strcmp(k, "json"))
		return json_expect(c, s, v, strict);
	return files_expect(c, s, v);
}

static int read_turn_expect(struct ctx *c, struct pc_step *s,
			    const struct pc__ynode *m)
{
	const struct pc__ynode *st, *ex;
	int rc;

	if ((rc = want_map(c, m, "'expect'")) ||
	    (rc = known_keys(c, m, "a turn step's 'expect'", turn_expect_keys)))
		return rc;
	st = lookup(m, "strict");
	ex = lookup(m, "exact");
	for (size_t i = 0; i < m->n; i += 2)
		if ((rc = turn_expect_one(c, s, m->kids[i]->s, m->kids[i + 1],
					  st && as_bool(st) == 1,
					  ex && as_bool(ex) == 1)))
			return rc;
	return 0;
}

/* The node a pc_mock error path (err->where: "replies[2].tool_calls[0]",
 * "replies[0].contnt") names inside the `model` mapping: the deepest one
 * that exists; a path ending in a key gives the key itself. */
static const struct pc__ynode *model_locate(const struct pc__ynode *m,
					    const char *where)
{
	const char *p = where;

	while (*p) {
		const struct pc__ynode *next = NULL;
		size_t n = strcspn(p, ".[");

		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);

			if (*end != ']')
				break;
			if (m->kind == PC__Y_SEQ && i < m->n)
				next = m->kids[i];
			p = end + 1;
		} else {
			char *key = pc_xmemdup(p, n);

			p += n;
			for (size_t i = 0; m->kind == PC__Y_MAP && i + 1 < m->n;
			     i += 2)
				if (!strcmp(m->kids[i]->s, key))
					next = *p ? m->kids[i + 1] : m->kids[i];
			free(key);
		}
		if (!next)
			break;
		m = next;
		if (*p == '.')
			p++;
	}
	return m;
}

static int read_model(struct ctx *c, struct pc_turn_step *t,
		      const struct pc__ynode *v)
{
	struct pc_err merr = PC_ERR_INIT;
	struct pc_mock *mock = NULL;
	int rc;

	if ((rc = want_map(c, v, "'model'")))
		return rc;
	t->model = to_json(v);
	/* pc_mock's checks: the same errors as a script file's */
	if (pc_mock_new_json(t->model, &mock, &merr))
		return bad(c, model_locate(v, merr.where), "'model': %s",
			   merr.msg);
	pc_mock_free(mock);
	return 0;
}

static int read_model_file(struct ctx *c, struct pc_turn_step *t,
			   const struct pc__ynode *v)
{
	struct pc_err merr = PC_ERR_INIT;
	struct pc_mock *mock = NULL;
	char *path;
	int rc;

	if ((rc = want_string(c, v, "model_file")))
		return rc;
	path = resolve(c->f->dir, v->s);
	if (!pc_fs_is_file(path))
		rc = bad(
			c, v,
			"model_file '%s' does not exist (relative paths start at the file's directory)",
			v->s);
	else if (pc_model_script_load(path, &t->model, &mock, &merr) < 0)
		rc = bad(c, v, "model_file '%s': %s", v->s, merr.msg);
	pc_mock_free(mock);
	free(path);
	return rc;
}

static const char *const turn_keys[] = { "text",   "command",	 "args",
					 "model",  "model_file", "images",
					 "vision", "compact",	 "approval",
					 NULL };

/* `command` and `args` instead of `text`: a plugin command (R7.2-R7.5);
 * the model is optional then (a script-backed command asks none). */
static int read_turn_command(struct ctx *c, struct pc_turn_step *ts,
			     const struct pc__ynode *t)
{
	const struct pc__ynode *v = lookup(t, "command");
	int rc;

	if (lookup(t, "text"))
		return bad(c, t,
			   "a 'turn' has either 'text' or 'command', not both");
	if ((rc = want_string(c, v, "command")))
		return rc;
	ts->command = pc_xstrdup(v->s);
	if ((v = lookup(t, "args"))) {
		if ((rc = want_string(c, v, "args")))
			return rc;
		ts->args = pc_xstrdup(v->s);
	} else {
		ts->args = pc_xstrdup("");
	}
	if (!lookup(t, "model") && !lookup(t, "model_file"))
		ts->model = cJSON_Parse("{\"replies\":[]}");
	return 0;
}

static int read_turn(struct ctx *c, struct pc_step *s,
		     const struct pc__ynode *m)
{
	const struct pc__ynode *t = lookup(m, "turn"), *v;
	struct pc_turn_step *ts = &s->turn;
	double d;
	int rc, b;

	s->kind = PC_STEP_TURN;
	if ((rc = want_map(c, t, "'turn'")) ||
	    (rc = known_keys(c, t, "'turn'", turn_keys)))
		return rc;
	if (lookup(t, "command")) {
		if ((rc = read_turn_command(c, ts, t)))
			return rc;
	} else if (lookup(t, "args")) {
		return bad(c, lookup(t, "args"),
			   "'args' belongs to a 'turn' with a 'command'");
	} else if (!(v = lookup(t, "text"))) {
		return bad(
			c, t,
			"a 'turn' needs 'text' (the user message) or 'command' (a plugin command)");
	} else if ((rc = want_string(c, v, "text"))) {
		return rc;
	} else {
		ts->text = pc_xstrdup(v->s);
	}
	if (ts->model) {
		if (lookup(t, "model") && lookup(t, "model_file"))
			return bad(
				c, t,
				"a 'turn' needs exactly one of 'model' (the mock-model script) or 'model_file'");
	} else if (!lookup(t, "model") == !lookup(t, "model_file"))
		return bad(
			c, t,
			"a 'turn' needs exactly one of 'model' (the mock-model script) or 'model_file'");
	if ((v = lookup(t, "model")) && (rc = read_model(c, ts, v)))
		return rc;
	if ((v = lookup(t, "model_file")) && (rc = read_model_file(c, ts, v)))
		return rc;
	if ((v = lookup(t, "images"))) {
		if (!as_number(v, &d) || d < 0 || d > 64 || d != (int)d)
			return bad(
				c, v,
				"'images' must be a whole number from 0 to 64");
		ts->images = (int)d;
	}
	if ((v = lookup(t, "vision"))) {
		if ((b = as_bool(v)) < 0)
			return bad(c, v, "'vision' must be true or false");
		ts->vision = b == 1;
	}
	if ((v = lookup(t, "compact"))) {
		if ((b = as_bool(v)) < 0)
			return bad(c, v, "'compact' must be true or false");
		ts->compact = b == 1;
	}
	if ((v = lookup(t, "approval"))) {
		if (v->kind != PC__Y_SCALAR || v->quoted ||
		    (strcmp(v->s, "never") && strcmp(v->s, "destructive") &&
		     strcmp(v->s, "always")))
			return bad(
				c, v,
				"'approval' must be never, destructive or always");
		ts->approval = !strcmp(v->s, "never") ? PC_TURN_APPROVAL_NEVER
			       : !strcmp(v->s, "always")
				       ? PC_TURN_APPROVAL_ALWAYS
				       : PC_TURN_APPROVAL_DESTRUCTIVE;
	}
	if ((v = lookup(m, "expect")) && (rc = read_turn_expect(c, s, v)))
		return rc;
	if ((v = lookup(m, "save")) && (rc = read_save(c, s, v)))
		return rc;
	if (!s->name)
		s->name = pc_xstrdup("turn");
	return 0;
}

/* ---- lifecycle steps: enable, disable, reload ---- */

static const char *const life_expect_keys[] = { "events", "json", "strict",
						NULL };

static int read_life(struct ctx *c, struct pc_step *s,
		     const struct pc__ynode *m)
{
	static const char *const ops[] = { "enable", "disable", "reload" };
	const struct pc__ynode *v = NULL, *ex;
	int rc, op;

	s->kind = PC_STEP_LIFE;
	for (op = 0; op < 3 && !(v = lookup(m, ops[op])); op++)
		;
	s->life = (enum pc_life_op)op;
	if (op == PC_LIFE_RELOAD && as_bool(v) != 1)
		return bad(c, v, "'reload' must be true");
	if (op != PC_LIFE_RELOAD) {
		if ((rc = want_string(c, v, ops[op])))
			return rc;
		s->target = pc_xstrdup(v->s);
	}
	if ((ex = lookup(m, "expect"))) {
		const struct pc__ynode *st;

		if ((rc = want_map(c, ex, "'expect'")) ||
		    (rc = known_keys(c, ex, "a lifecycle step's 'expect'",
				     life_expect_keys)))
			return rc;
		st = lookup(ex, "strict");
		for (size_t i = 0; i < ex->n; i += 2)
			if ((rc = turn_expect_one(
				     c, s, ex->kids[i]->s, ex->kids[i + 1],
				     st && as_bool(st) == 1, false)))
				return rc;
	}
	if ((v = lookup(m, "save")) && (rc = read_save(c, s, v)))
		return rc;
	if (!s->name)
		s->name = op == PC_LIFE_RELOAD
				  ? pc_xstrdup("reload")
				  : pc_xasprintf("%s %s", ops[op], s->target);
	return 0;
}

static int read_step(struct ctx *c, struct pc_step *s,
		     const struct pc__ynode *m)
{
	static const char *const only_fire[] = { "plugin", "input",  "result",
						 "tool",   "expect", "save" };
	const struct pc__ynode *v;
	int kinds, rc;
	bool life;

	s->line = m->line;
	s->col = m->col;
	if ((rc = want_map(c, m, "a step")) ||
	    (rc = known_keys(c, m, "a step", step_keys)))
		return rc;
	kinds = !!lookup(m, "fire") + !!lookup(m, "turn") +
		!!lookup(m, "write") + !!lookup(m, "files") +
		!!lookup(m, "enable") + !!lookup(m, "disable") +
		!!lookup(m, "reload");
	if (kinds != 1)
		return bad(
			c, m,
			"a step needs exactly one of 'fire', 'turn', 'write', 'files', 'enable', 'disable' or 'reload'");
	if ((v = lookup(m, "name"))) {
		if ((rc = want_string(c, v, "name")))
			return rc;
		s->name = pc_xstrdup(v->s);
	}
	if (lookup(m, "fire"))
		return read_fire(c, s, m);
	life = lookup(m, "enable") || lookup(m, "disable") ||
	       lookup(m, "reload");
	for (size_t i = 0; i < sizeof(only_fire) / sizeof(only_fire[0]); i++)
		if ((v = lookup(m, only_fire[i])) &&
		    ((!lookup(m, "turn") && !life) || i < 4))
			return bad(c, v, "'%s' belongs to a 'fire'%s step",
				   only_fire[i],
				   i < 4 ? "" : ", 'turn' or lifecycle");
	if (life)
		return read_life(c, s, m);
	if (lookup(m, "turn"))
		return read_turn(c, s, m);
	if ((v = lookup(m, "write"))) {
		s->kind = PC_STEP_WRITE;
		if (!s->name)
			s->name = pc_xstrdup("write files");
		return read_write(c, s, v);
	}
	s->kind = PC_STEP_FILES;
	if (!s->name)
		s->name = pc_xstrdup("check files");
	return files_expect(c, s, lookup(m, "files"));
}

/* ---- scenarios and the file ---- */

static const char *const scenario_keys[] = { "name", "tags", "skip", "steps",
					     NULL };

static int read_scenario(struct ctx *c, struct pc_scenario *sc,
			 const struct pc__ynode *m)
{
	const struct pc__ynode *v;
	int rc;

	sc->line = m->line;
	sc->col = m->col;
	pc_strvec_init(&sc->tags);
	if ((rc = want_map(c, m, "a scenario")) ||
	    (rc = known_keys(c, m, "a scenario", scenario_keys)))
		return rc;
	if (!(v = lookup(m, "name")))
		return bad(c, m, "a scenario needs a 'name'");
	if ((rc = want_string(c, v, "name")))
		return rc;
	sc->name = pc_xstrdup(v->s);
	sc->id = pc_xasprintf("%s/%s", c->f->stem, v->s);
	if ((v = lookup(m, "tags"))) {
		if (v->kind != PC__Y_SEQ)
			return bad(c, v, "'tags' must be a list of strings");
		for (size_t i = 0; i < v->n; i++) {
			if ((rc = want_string(c, v->kids[i], "tags")))
				return rc;
			if (strchr(v->kids[i]->s, ','))
				return bad(c, v->kids[i],
					   "a tag must not contain ','");
			pc_strvec_push(&sc->tags, v->kids[i]->s);
		}
	}
	if ((v = lookup(m, "skip"))) {
		if ((rc = want_string(c, v, "skip")))
			return rc;
		sc->skip = pc_xstrdup(v->s);
	}
	if (!(v = lookup(m, "steps")))
		return bad(c, m, "a scenario needs 'steps'");
	if (v->kind != PC__Y_SEQ || !v->n)
		return bad(c, v, "'steps' must be a non-empty list of steps");
	sc->steps = pc_xcalloc(v->n, sizeof(*sc->steps));
	for (size_t i = 0; i < v->n; i++) {
		sc->nsteps = i + 1;
		if ((rc = read_step(c, &sc->steps[i], v->kids[i])))
			return rc;
	}
	return 0;
}

static int read_string_map(struct ctx *c, const struct pc__ynode *m,
			   const char *what, bool rel_paths, cJSON **out)
{
	int rc;

	if ((rc = want_map(c, m, what)))
		return rc;
	for (size_t i = 0; i < m->n; i += 2) {
		if (rel_paths && !rel_path_ok(m->kids[i]->s))
			return bad(
				c, m->kids[i],
				"'%s' must be a path relative to the workspace, without '..'",
				m->kids[i]->s);
		if ((rc = want_string(c, m->kids[i + 1], m->kids[i]->s)))
			return rc;
	}
	*out = to_json(m);
	return 0;
}

static const char *const host_keys[] = { "scope", "trust", "env", "files",
					 NULL };

static int read_host(struct ctx *c, const struct pc__ynode *m)
{
	struct pc_scenario_host *h = &c->f->host;
	const struct pc__ynode *v;
	int rc;

	if ((rc = want_map(c, m, "'host'")) ||
	    (rc = known_keys(c, m, "'host'", host_keys)))
		return rc;
	if ((v = lookup(m, "scope"))) {
		if (v->kind != PC__Y_SCALAR ||
		    (strcmp(v->s, "plugin_dir") && strcmp(v->s, "global") &&
		     strcmp(v->s, "project")))
			return bad(
				c, v,
				"'scope' must be plugin_dir, global or project");
		free(h->scope);
		h->scope = pc_xstrdup(v->s);
	}
	if ((v = lookup(m, "trust"))) {
		if (as_bool(v) < 0)
			return bad(c, v, "'trust' must be true or false");
		h->trust = as_bool(v) == 1;
	}
	if ((v = lookup(m, "env")) &&
	    (rc = read_string_map(c, v, "'env'", false, &h->env)))
		return rc;
	if ((v = lookup(m, "files")) &&
	    (rc = read_string_map(c, v, "'files'", true, &h->files)))
		return rc;
	return 0;
}

static int read_plugins(struct ctx *c, const struct pc__ynode *v)
{
	const struct pc__ynode *one = v;
	int rc;

	if (v->kind == PC__Y_SEQ && !v->n)
		return bad(c, v,
			   "'plugins' must name at least one plugin directory");
	for (size_t i = 0; v->kind != PC__Y_SEQ || i < v->n; i++) {
		char *dir;

		if (v->kind == PC__Y_SEQ)
			one = v->kids[i];
		if ((rc = want_string(c, one, "plugins")))
			return rc;
		dir = resolve(c->f->dir, one->s);
		if (!pc_fs_is_dir(dir)) {
			rc = bad(
				c, one,
				"plugin directory '%s' does not exist (relative paths start at the file's directory)",
				one->s);
			free(dir);
			return rc;
		}
		pc_strvec_push_nodup(&c->f->plugins, dir);
		if (v->kind != PC__Y_SEQ)
			break;
	}
	return 0;
}

static const char *const top_keys[] = { "plugcheck", "plugins", "host",
					"scenarios", NULL };

static int read_top(struct ctx *c, const struct pc__ynode *root)
{
	struct pc_scenario_file *f = c->f;
	const struct pc__ynode *v;
	double d;
	int rc;

	if ((rc = want_map(c, root, "a scenario file")))
		return rc;
	if (!root->n || strcmp(root->kids[0]->s, "plugcheck"))
		return bad(
			c, root->n ? root->kids[0] : root,
			"a scenario file starts with 'plugcheck: 1' (the format version)");
	v = root->kids[1];
	if (!as_number(v, &d) || d != PC_SCENARIO_VERSION)
		return bad(
			c, v,
			"'plugcheck' must be 1 (the only format version this plugcheck reads)");
	if ((rc = known_keys(c, root, "a scenario file", top_keys)))
		return rc;
	if ((v = lookup(root, "plugins"))) {
		if ((rc = read_plugins(c, v)))
			return rc;
	} else {
		pc_strvec_push(&f->plugins, f->dir);
	}
	if ((v = lookup(root, "host")) && (rc = read_host(c, v)))
		return rc;
	if (!(v = lookup(root, "scenarios")))
		return bad(c, root, "a scenario file needs 'scenarios'");
	if (v->kind != PC__Y_SEQ || !v->n)
		return bad(c, v,
			   "'scenarios' must be a non-empty list of scenarios");
	f->scenarios = pc_xcalloc(v->n, sizeof(*f->scenarios));
	for (size_t i = 0; i < v->n; i++) {
		f->nscenarios = i + 1;
		if ((rc = read_scenario(c, &f->scenarios[i], v->kids[i])))
			return rc;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(f->scenarios[j].name, f->scenarios[i].name))
				return bad(c, lookup(v->kids[i], "name"),
					   "duplicate scenario name '%s'",
					   f->scenarios[i].name);
	}
	return 0;
}

static void set_names(struct pc_scenario_file *f, const char *path)
{
	const char *base = strrchr(path, '/');
	char *copy = pc_xstrdup(path), *slash = strrchr(copy, '/');
	size_t n;

	base = base ? base + 1 : path;
	if (slash)
		*slash = 0;
	f->dir = slash ? pc_fs_absolute(*copy ? copy : "/")
		       : pc_fs_absolute(".");
	free(copy);
	n = strlen(base);
	if (n > 15 && !strcmp(base + n - 15, ".plugcheck.yaml"))
		n -= 15;
	else if (n > 5 && !strcmp(base + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(base + n - 4, ".yml"))
		n -= 4;
	f->stem = pc_xmemdup(base, n);
}

int pc_scenario_load(const char *path, struct pc_scenario_file *f,
		     struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_SCENARIO_MAX_BYTES);
	struct ctx c = { .path = path, .err = err, .f = f };
	struct pc__ynode *root = NULL;
	struct pc_err rerr = PC_ERR_INIT;
	int rc;

	pc_strvec_init(&f->plugins);
	f->path = pc_xstrdup(path);
	f->host.scope = pc_xstrdup("plugin_dir");
	set_names(f, path);
	{
		struct stat st;

		/* only a regular file: a FIFO read as empty and a directory or
		 * a dangling symlink was no file at all (fresh-user trial) */
		if (lstat(path, &st) == 0 && stat(path, &st) < 0) {
			int e = errno;

			pc_buf_release(&b);
			return pc_err_set(err, PC_EPARSE,
					  "%s:1:1: cannot read the scenario file: %s%s",
					  path, strerror(e),
					  e == ENOENT ? " (a dangling symlink)" : "");
		}
		/* a missing path: the read below says "cannot open" */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			pc_buf_release(&b);
			return pc_err_set(err, PC_EPARSE,
					  "%s:1:1: the scenario file is %s, not a regular file; fix: make it a file, or rename it so that it does not end in .yaml",
					  path, pc_fs_kind(st.st_mode));
		}
	}
	rc = pc_fs_read_capped(path, &b, &rerr);
	if (rc == PC_EFBIG) {
		pc_buf_release(&b);
		pc_err_set(
			err, PC_EPARSE,
			"%s:1:1: file is larger than the 1 MiB cap for scenario files",
			path);
		return PC_EPARSE;
	}
	if (rc) {
		pc_buf_release(&b);
		/* rerr already names the file */
		return pc_err_set(err, rc, "%s", rerr.msg);
	}
	c.text = b.data ? b.data : "";
	c.len = b.len;
	rc = pc__scenario_yaml_read(path, c.text, c.len, &root, err);
	if (!rc && !root) {
		pc_err_set(
			err, PC_EPARSE,
			"%s:1:1: the file is empty (a scenario file starts with 'plugcheck: 1')",
			path);
		rc = PC_EPARSE;
	}
	if (!rc)
		rc = read_top(&c, root);
	pc__ynode_free(root);
	pc_buf_release(&b);
	return rc;
}

/* ---- release, tags, JSON paths ---- */

static void step_release(struct pc_step *s)
{
	for (size_t i = 0; i < s->nexpects; i++) {
		free(s->expects[i].label);
		free(s->expects[i].path);
		cJSON_Delete(s->expects[i].value);
		pc_match_free(s->expects[i].re);
	}
	for (size_t i = 0; i < s->ncaptures; i++) {
		free(s->captures[i].var);
		free(s->captures[i].path);
	}
	free(s->expects);
	free(s->captures);
	free(s->name);
	free(s->point);
	free(s->plugin);
	free(s->tool);
	free(s->target);
	cJSON_Delete(s->input);
	cJSON_Delete(s->result);
	cJSON_Delete(s->files);
	free(s->turn.text);
	free(s->turn.command);
	free(s->turn.args);
	cJSON_Delete(s->turn.model);
}

void pc_scenario_file_release(struct pc_scenario_file *f)
{
	for (size_t i = 0; i < f->nscenarios; i++) {
		struct pc_scenario *sc = &f->scenarios[i];

		for (size_t j = 0; j < sc->nsteps; j++)
			step_release(&sc->steps[j]);
		free(sc->steps);
		free(sc->id);
		free(sc->name);
		free(sc->skip);
		pc_strvec_release(&sc->tags);
	}
	free(f->scenarios);
	free(f->path);
	free(f->dir);
	free(f->stem);
	free(f->host.scope);
	cJSON_Delete(f->host.env);
	cJSON_Delete(f->host.files);
	if (f->plugins.v)
		pc_strvec_release(&f->plugins);
	memset(f, 0, sizeof(*f));
}

bool pc_scenario_has_tag(const struct pc_scenario *s, const char *tags)
{
	for (size_t i = 0; i < s->tags.nr; i++) {
		const char *p = tags;
		size_t n = strlen(s->tags.v[i]);

		while (p && *p) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);

			if (len == n && !strncmp(p, s->tags.v[i], n))
				return true;
			p = comma ? comma + 1 : NULL;
		}
	}
	return false;
}

/* One step of a JSON path: ".key", "['key']" or "[N]". Returns the
 * position after it, or NULL when malformed; *key gets a new string (or
 * NULL with *index set). */
static const char *path_step(const char *p, char **key, long *index)
{
	const char *q;

	*key = NULL;
	if (*p == '.') {
		q = p + 1 + strcspn(p + 1, ".[");
		if (q == p + 1)
			return NULL;
		*key = pc_xmemdup(p + 1, (size_t)(q - p - 1));
		return q;
	}
	if (*p != '[')
		return NULL;
	if (p[1] == '\'' || p[1] == '"') {
		q = strchr(p + 2, p[1]);
		if (!q || q[1] != ']')
			return NULL;
		*key = pc_xmemdup(p + 2, (size_t)(q - p - 2));
		return q + 2;
	}
	if (p[1] < '0' || p[1] > '9')
		return NULL;
	*index = strtol(p + 1, (char **)&q, 10);
	return *q == ']' ? q + 1 : NULL;
}

bool pc__scenario_path_ok(const char *path)
{
	const char *p = path;
	char *key;
	long idx;

	if (*p++ != '$')
		return false;
	while (*p) {
		if (!(p = path_step(p, &key, &idx)))
			return false;
		free(key);
	}
	return true;
}

const cJSON *pc__scenario_json_get(const cJSON *doc, const char *path)
{
	const char *p = path;
	char *key;
	long idx = 0;

	if (*p++ != '$')
		return NULL;
	while (*p && doc) {
		if (!(p = path_step(p, &key, &idx)))
			return NULL;
		if (key)
			doc = cJSON_IsObject(doc)
				      ? cJSON_GetObjectItemCaseSensitive(doc,
									 key)
				      : NULL;
		else
			doc = cJSON_IsArray(doc)
				      ? cJSON_GetArrayItem(doc, (int)idx)
				      : NULL;
		free(key);
	}
	return doc;
}

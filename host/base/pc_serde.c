/* pc_serde.c - serde_json's Deserializer structure (errors, sequences,
 * maps), serde_json::Value parsing and the cJSON trees it builds.
 *
 * The names follow serde_json 1.0.150 src/de.rs and src/error.rs; see
 * pc_serde_impl.h for the error model. The crate is built with the
 * features the Catalyst Code host ends up with: std and raw_value (sqlx-core
 * enables raw_value in the host's dependency tree), no preserve_order, no
 * float_roundtrip, no arbitrary_precision, no unbounded_depth.
 */
#include "pc_serde.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_serde_impl.h"
#include "pc_xalloc.h"

/* serde_json::raw::TOKEN: with raw_value, a map whose first key is this
 * is a RawValue in disguise (value/de.rs KeyClassifier). */
static const char raw_token[] = "$serde_json::private::RawValue";

void pc__serde_de_init(struct pc__serde_de *de, const char *text, size_t len)
{
	de->s = (const unsigned char *)(text ? text : "");
	de->len = text ? len : 0;
	de->i = 0;
	de->depth = PC__SERDE_DEPTH;
	pc_buf_init(&de->scratch, PC_BUF_NOCAP);
	de->failed = false;
	de->positioned = false;
	de->line = 0;
	de->col = 0;
	pc_buf_init(&de->msg, PC_BUF_NOCAP);
}

void pc__serde_de_release(struct pc__serde_de *de)
{
	pc_buf_release(&de->scratch);
	pc_buf_release(&de->msg);
}

/* SliceRead::position_of_index: the column counts bytes since the last
 * newline before `idx`, so it is 1-based for the byte before `idx`. */
static void position_of(struct pc__serde_de *de, size_t idx)
{
	size_t k, start = 0, lines = 0;

	for (k = 0; k < idx; k++) {
		if (de->s[k] == '\n') {
			lines++;
			start = k + 1;
		}
	}
	de->line = 1 + lines;
	de->col = idx - start;
	de->positioned = true;
}

static int syntax_at(struct pc__serde_de *de, const char *code, size_t idx)
{
	if (de->failed)
		return -1;
	de->failed = true;
	pc_buf_reset(&de->msg);
	(void)pc_buf_adds(&de->msg, code);
	position_of(de, idx);
	return -1;
}

/* Deserializer::error: caused by a byte already consumed. */
int pc__serde_error(struct pc__serde_de *de, const char *code)
{
	return syntax_at(de, code, de->i);
}

/* Deserializer::peek_error: caused by the byte at the index. */
int pc__serde_peek_error(struct pc__serde_de *de, const char *code)
{
	return syntax_at(de, code, de->i < de->len ? de->i + 1 : de->len);
}

/* serde::de::Error::custom: line 0 until fix_position. */
int pc__serde_custom(struct pc__serde_de *de, const char *fmt, ...)
{
	va_list ap;

	if (de->failed)
		return -1;
	de->failed = true;
	de->positioned = false;
	pc_buf_reset(&de->msg);
	va_start(ap, fmt);
	(void)pc_buf_vaddf(&de->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void pc__serde_fix_position(struct pc__serde_de *de)
{
	if (de->failed && !de->positioned)
		position_of(de, de->i);
}

/* serde_json's JsonUnexpected Display. */
static void unexpected(struct pc_buf *b, const struct pc__serde_unexp *u)
{
	char f[40];

	switch (u->kind) {
	case PC__SERDE_UNEXP_BOOL:
		(void)pc_buf_addf(b, "boolean `%s`", u->b ? "true" : "false");
		break;
	case PC__SERDE_UNEXP_NUM:
		if (u->num.kind == PC__SERDE_U64) {
			(void)pc_buf_addf(b, "integer `%" PRIu64 "`", u->num.u);
		} else if (u->num.kind == PC__SERDE_I64) {
			(void)pc_buf_addf(b, "integer `%" PRId64 "`", u->num.i);
		} else {
			pc__serde_fmt_f64(u->num.f, f, sizeof(f));
			(void)pc_buf_addf(b, "floating point `%s`", f);
		}
		break;
	case PC__SERDE_UNEXP_STR:
		(void)pc_buf_adds(b, "string ");
		pc__serde_debug_str(b, u->s, u->n);
		break;
	case PC__SERDE_UNEXP_UNIT:
		(void)pc_buf_adds(b, "null");
		break;
	case PC__SERDE_UNEXP_SEQ:
		(void)pc_buf_adds(b, "sequence");
		break;
	case PC__SERDE_UNEXP_MAP:
		(void)pc_buf_adds(b, "map");
		break;
	}
}

/* de::Error::invalid_type / invalid_value ("type" / "value"). */
int pc__serde_invalid(struct pc__serde_de *de, const char *what,
		      const struct pc__serde_unexp *u, const char *exp)
{
	if (de->failed)
		return -1;
	pc__serde_custom(de, "invalid %s: ", what);
	unexpected(&de->msg, u);
	(void)pc_buf_addf(&de->msg, ", expected %s", exp);
	return -1;
}

int pc__serde_report(struct pc__serde_de *de, struct pc_err *err,
		     struct pc_buf *full)
{
	struct pc_buf d = PC_BUF_INIT(PC_BUF_NOCAP);

	(void)pc_buf_add(&d, pc_buf_cstr(&de->msg), de->msg.len);
	if (de->positioned)
		(void)pc_buf_addf(&d, " at line %zu column %zu", de->line,
				  de->col);
	if (full)
		(void)pc_buf_add(full, pc_buf_cstr(&d), d.len);
	pc_err_set(err, PC_EPARSE, "%s", pc_buf_cstr(&d));
	pc_buf_release(&d);
	return PC_EPARSE;
}

/* Deserializer::peek_invalid_type: consume the offending value to name
 * it, then report it at the position after it. */
int pc__serde_peek_invalid_type(struct pc__serde_de *de, const char *exp)
{
	struct pc__serde_unexp u = { .kind = PC__SERDE_UNEXP_UNIT };
	int c = de->i < de->len ? de->s[de->i] : 0;
	int r = 0;

	if (c == 'n' || c == 't' || c == 'f') {
		de->i++;
		r = pc__serde_parse_ident(de, c == 'n'	 ? "ull"
					      : c == 't' ? "rue"
							 : "alse");
		u.kind = c == 'n' ? PC__SERDE_UNEXP_UNIT : PC__SERDE_UNEXP_BOOL;
		u.b = c == 't';
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		de->i += c == '-';
		r = pc__serde_parse_integer(de, c != '-', &u.num);
		u.kind = PC__SERDE_UNEXP_NUM;
	} else if (c == '"') {
		de->i++;
		r = pc__serde_parse_str(de);
		u.kind = PC__SERDE_UNEXP_STR;
		u.s = (const unsigned char *)pc_buf_cstr(&de->scratch);
		u.n = de->scratch.len;
	} else if (c == '[' || c == '{') {
		u.kind = c == '[' ? PC__SERDE_UNEXP_SEQ : PC__SERDE_UNEXP_MAP;
	} else {
		return pc__serde_peek_error(de, PC__SERDE_VALUE);
	}
	if (r < 0)
		return -1;
	pc__serde_invalid(de, "type", &u, exp);
	pc__serde_fix_position(de);
	return -1;
}

int pc__serde_object_colon(struct pc__serde_de *de)
{
	int c = pc__serde_whitespace(de);

	if (c == ':') {
		de->i++;
		return 0;
	}
	return pc__serde_peek_error(de, c < 0 ? PC__SERDE_EOF_OBJECT
					      : PC__SERDE_COLON);
}

int pc__serde_end_seq(struct pc__serde_de *de)
{
	int c = pc__serde_whitespace(de);

	if (c == ']') {
		de->i++;
		return 0;
	}
	if (c == ',') {
		de->i++;
		c = pc__serde_whitespace(de);
		return pc__serde_peek_error(de, c == ']' ? PC__SERDE_TRAIL_COMMA
							 : PC__SERDE_TRAILING);
	}
	return pc__serde_peek_error(de, c < 0 ? PC__SERDE_EOF_LIST
					      : PC__SERDE_TRAILING);
}

int pc__serde_end_map(struct pc__serde_de *de)
{
	int c = pc__serde_whitespace(de);

	if (c == '}') {
		de->i++;
		return 0;
	}
	if (c == ',')
		return pc__serde_peek_error(de, PC__SERDE_TRAIL_COMMA);
	return pc__serde_peek_error(de, c < 0 ? PC__SERDE_EOF_OBJECT
					      : PC__SERDE_TRAILING);
}

/* Deserializer::end: only whitespace may follow the value. */
int pc__serde_end(struct pc__serde_de *de)
{
	if (pc__serde_whitespace(de) >= 0)
		return pc__serde_peek_error(de, PC__SERDE_TRAILING);
	return 0;
}

/* SeqAccess::has_next_element: 1 when an element follows, 0 at ']'. */
int pc__serde_next_element(struct pc__serde_de *de, bool *first)
{
	int c = pc__serde_whitespace(de);

	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_LIST);
	if (c == ']')
		return 0;
	if (*first) {
		*first = false;
		return 1;
	}
	if (c != ',')
		return pc__serde_peek_error(de, PC__SERDE_LIST_END);
	de->i++;
	c = pc__serde_whitespace(de);
	if (c == ']')
		return pc__serde_peek_error(de, PC__SERDE_TRAIL_COMMA);
	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
	return 1;
}

/* MapAccess::has_next_key: 1 with the index at the key's '"', 0 at '}'. */
int pc__serde_next_key(struct pc__serde_de *de, bool *first)
{
	int c = pc__serde_whitespace(de);

	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_OBJECT);
	if (c == '}')
		return 0;
	if (*first) {
		*first = false;
		if (c == '"')
			return 1;
		return pc__serde_peek_error(de, PC__SERDE_KEY_STRING);
	}
	if (c != ',')
		return pc__serde_peek_error(de, PC__SERDE_OBJ_END);
	de->i++;
	c = pc__serde_whitespace(de);
	if (c == '"')
		return 1;
	if (c == '}')
		return pc__serde_peek_error(de, PC__SERDE_TRAIL_COMMA);
	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
	return pc__serde_peek_error(de, PC__SERDE_KEY_STRING);
}

/* check_recursion!: the caller restores de->depth afterwards. */
int pc__serde_enter(struct pc__serde_de *de)
{
	if (--de->depth == 0)
		return pc__serde_peek_error(de, PC__SERDE_RECURSION);
	return 0;
}

cJSON *pc__serde_must(cJSON *item)
{
	if (!item) {
		fputs("plugcheck: out of memory\n", stderr);
		abort();
	}
	return item;
}

/* cJSON strings end at NUL, so U+0000 is stored as C0 80 (Java's
 * modified UTF-8); the printer and key_cmp read it back as U+0000. */
static char *encode_nul(const unsigned char *s, size_t n)
{
	char *out = pc_xmalloc(2 * n + 1);
	size_t k, o = 0;

	for (k = 0; k < n; k++) {
		if (s[k]) {
			out[o++] = (char)s[k];
		} else {
			out[o++] = (char)0xC0;
			out[o++] = (char)0x80;
		}
	}
	out[o] = '\0';
	return out;
}

cJSON *pc__serde_new_string(const unsigned char *s, size_t n)
{
	char *enc = encode_nul(s, n);
	cJSON *item = pc__serde_must(cJSON_CreateString(enc));

	free(enc);
	return item;
}

cJSON *pc__serde_new_number(const struct pc__serde_num *n)
{
	char text[64];
	double d;
	cJSON *item;

	if (n->kind == PC__SERDE_U64) {
		snprintf(text, sizeof(text), "%" PRIu64, n->u);
		d = (double)n->u;
	} else if (n->kind == PC__SERDE_I64) {
		snprintf(text, sizeof(text), "%" PRId64, n->i);
		d = (double)n->i;
	} else {
		pc__serde_fmt_f64(n->f, text, sizeof(text));
		d = n->f;
	}
	item = pc__serde_must(cJSON_CreateNumber(d));
	item->valuestring = pc_xstrdup(text);
	return item;
}

static int next_unit(const unsigned char **p)
{
	int c = **p;

	if (c == 0)
		return -1;
	if (c == 0xC0 && (*p)[1] == 0x80) {
		*p += 2;
		return 0;
	}
	(*p)++;
	return c;
}

/* Rust's String order (bytewise), reading C0 80 as U+0000. */
int pc__serde_key_cmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)(a ? a : "");
	const unsigned char *q = (const unsigned char *)(b ? b : "");

	for (;;) {
		int x = next_unit(&p), y = next_unit(&q);

		if (x != y)
			return x < y ? -1 : 1;
		if (x < 0)
			return 0;
	}
}

struct ent {
	cJSON *item;
	size_t idx;
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = pc__serde_key_cmp(x->item->string, y->item->string);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void relink(cJSON *obj, struct ent *e, size_t n)
{
	cJSON *first = NULL, *last = NULL;
	size_t k;

	for (k = 0; k < n; k++) {
		cJSON *it = e[k].item;

		it->next = NULL;
		it->prev = NULL;
		if (k + 1 < n &&
		    !pc__serde_key_cmp(it->string, e[k + 1].item->string)) {
			cJSON_Delete(it);
			continue;
		}
		if (last) {
			last->next = it;
			it->prev = last;
		} else {
			first = it;
		}
		last = it;
	}
	obj->child = first;
	if (first)
		first->prev = last;
}

/* A BTreeMap's view of an object: keys in order, a repeated key keeps
 * its last value. */
void pc__serde_sort_object(cJSON *obj)
{
	struct ent *e;
	size_t n = 0, k = 0;
	cJSON *it;

	for (it = obj->child; it; it = it->next)
		n++;
	if (n < 2)
		return;
	e = pc_xreallocarray(NULL, n, sizeof(*e));
	for (it = obj->child; it; it = it->next, k++) {
		e[k].item = it;
		e[k].idx = k;
	}
	qsort(e, n, sizeof(*e), ent_cmp);
	relink(obj, e, n);
	free(e);
}

void pc__serde_add_member(cJSON *obj, const unsigned char *key, size_t n,
			  cJSON *item)
{
	char *enc = encode_nul(key, n);

	if (!cJSON_AddItemToObject(obj, enc, item))
		pc__serde_must(NULL);
	free(enc);
}

static int parse_top(struct pc__serde_de *de, cJSON **out);

/* The RawValue branch of ValueVisitor::visit_map: the value must be a
 * string, which is parsed again by serde_json::from_str; its error keeps
 * its own position (Error::custom re-reads " at line L column C"). */
static int raw_value(struct pc__serde_de *de, cJSON **out)
{
	struct pc__serde_de in;
	char *text;
	size_t n;
	int c;

	if (pc__serde_object_colon(de) < 0)
		return -1;
	c = pc__serde_whitespace(de);
	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
	if (c != '"')
		return pc__serde_peek_invalid_type(de, "raw value");
	de->i++;
	if (pc__serde_parse_str(de) < 0)
		return -1;
	n = de->scratch.len;
	text = pc_xmemdup(pc_buf_cstr(&de->scratch), n);
	pc__serde_de_init(&in, text, n);
	if (parse_top(&in, out) < 0 && !de->failed) {
		de->failed = true;
		de->positioned = in.positioned;
		de->line = in.line;
		de->col = in.col;
		pc_buf_reset(&de->msg);
		(void)pc_buf_add(&de->msg, pc_buf_cstr(&in.msg), in.msg.len);
	}
	pc__serde_de_release(&in);
	free(text);
	return de->failed ? -1 : 0;
}

static int value_seq(struct pc__serde_de *de, cJSON **out)
{
	cJSON *arr = pc__serde_must(cJSON_CreateArray()), *item;
	bool first = true;
	int r;

	while ((r = pc__serde_next_element(de, &first)) > 0) {
		if (pc__serde_value(de, &item) < 0)
			break;
		cJSON_AddItemToArray(arr, item);
	}
	if (de->failed) {
		cJSON_Delete(arr);
		return -1;
	}
	*out = arr;
	return 0;
}

/* ValueVisitor::visit_map: keys via MapKey (parse_str), values via
 * deserialize_any, inserted into a BTreeMap. */
static int value_map(struct pc__serde_de *de, cJSON **out)
{
	struct pc_buf key = PC_BUF_INIT(PC_BUF_NOCAP);
	bool first = true;
	cJSON *obj, *item;
	int r = pc__serde_next_key(de, &first);

	if (r <= 0) {
		*out = r ? NULL : pc__serde_must(cJSON_CreateObject());
		return r;
	}
	de->i++;
	if (pc__serde_parse_str(de) < 0)
		return -1;
	if (de->scratch.len == sizeof(raw_token) - 1 &&
	    !memcmp(de->scratch.data, raw_token, sizeof(raw_token) - 1))
		return raw_value(de, out);
	obj = pc__serde_must(cJSON_CreateObject());
	for (;;) {
		pc_buf_reset(&key);
		(void)pc_buf_add(&key, pc_buf_cstr(&de->scratch),
				 de->scratch.len);
		if (pc__serde_object_colon(de) < 0 ||
		    pc__serde_value(de, &item) < 0)
			break;
		pc__serde_add_member(obj,
				     (const unsigned char *)pc_buf_cstr(&key),
				     key.len, item);
		if (pc__serde_next_key(de, &first) <= 0)
			break;
		de->i++;
		if (pc__serde_parse_str(de) < 0)
			break;
	}
	pc_buf_release(&key);
	if (de->failed) {
		cJSON_Delete(obj);
		return -1;
	}
	pc__serde_sort_object(obj);
	*out = obj;
	return 0;
}

/* '[' or '{' of deserialize_any: recursion check, visitor, end_seq or
 * end_map (run even when the visitor failed, as serde_json does). */
static int value_nested(struct pc__serde_de *de, int c, cJSON **out)
{
	int r;

	if (pc__serde_enter(de) < 0)
		return -1;
	de->i++;
	r = c == '[' ? value_seq(de, out) : value_map(de, out);
	de->depth++;
	if (c == '[')
		(void)pc__serde_end_seq(de);
	else
		(void)pc__serde_end_map(de);
	if (de->failed && *out) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	return de->failed ? -1 : r;
}

static int value_scalar(struct pc__serde_de *de, int c, cJSON **out)
{
	struct pc__serde_num n;

	if (c == 'n' || c == 't' || c == 'f') {
		de->i++;
		if (pc__serde_parse_ident(de, c == 'n'	 ? "ull"
					      : c == 't' ? "rue"
							 : "alse") < 0)
			return -1;
		*out = pc__serde_must(c == 'n' ? cJSON_CreateNull()
					       : cJSON_CreateBool(c == 't'));
		return 0;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		de->i += c == '-';
		if (pc__serde_parse_integer(de, c != '-', &n) < 0)
			return -1;
		*out = pc__serde_new_number(&n);
		return 0;
	}
	if (c == '"') {
		de->i++;
		if (pc__serde_parse_str(de) < 0)
			return -1;
		*out = pc__serde_new_string(
			(const unsigned char *)pc_buf_cstr(&de->scratch),
			de->scratch.len);
		return 0;
	}
	return pc__serde_peek_error(de, PC__SERDE_VALUE);
}

/* Value::deserialize = deserialize_any(ValueVisitor). */
int pc__serde_value(struct pc__serde_de *de, cJSON **out)
{
	int c = pc__serde_whitespace(de);
	int r;

	*out = NULL;
	if (c < 0)
		return pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
	if (c == '[' || c == '{')
		r = value_nested(de, c, out);
	else
		r = value_scalar(de, c, out);
	if (r < 0)
		pc__serde_fix_position(de);
	return r;
}

/* serde_json::from_str::<Value>: the value, then Deserializer::end. */
static int parse_top(struct pc__serde_de *de, cJSON **out)
{
	if (pc__serde_value(de, out) < 0)
		return -1;
	if (pc__serde_end(de) < 0) {
		cJSON_Delete(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int pc_serde_parse(const char *text, size_t len, cJSON **out,
		   struct pc_err *err)
{
	struct pc__serde_de de;
	cJSON *v = NULL;
	int rc = 0;

	*out = NULL;
	pc__serde_de_init(&de, text, len);
	if (parse_top(&de, &v) < 0)
		rc = pc__serde_report(&de, err, NULL);
	else
		*out = v;
	pc__serde_de_release(&de);
	return rc;
}

/* pc_chatcli_json.c - Go encoding/json as ChatCLI's host (Go 1.19) uses
 * it: the scanner (json.Valid and its error texts), decoding into
 * interface{} and into plugins.Metadata, json.Marshal of decoded values
 * and fmt's %v of a float64. See pc_chatcli.h. Strings are bytes plus a
 * length throughout: a NUL inside a key or a value is kept. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

/* --- the scanner (encoding/json/scanner.go) -------------------------------
 *
 * A state machine over bytes, step by step as Go's: the first error in
 * byte order wins, and the end of the input is stepped as one space, so
 * an input that ends inside an escape or a literal reports that token's
 * error ("invalid character ' ' in string escape code") and only an input
 * that ends between tokens or inside a string is "unexpected end of JSON
 * input". */

#define MAX_DEPTH 10000

enum st {
	S_BEGIN_VALUE,
	S_BEGIN_VALUE_OR_EMPTY,
	S_BEGIN_STRING_OR_EMPTY,
	S_BEGIN_STRING,
	S_END_VALUE,
	S_END_TOP,
	S_IN_STRING,
	S_IN_STRING_ESC,
	S_ESC_U,   /* + 0..3 hex digits seen: S_ESC_U + k */
	S_ESC_U1,
	S_ESC_U12,
	S_ESC_U123,
	S_NEG,
	S_1,
	S_0,
	S_DOT,
	S_DOT0,
	S_E,
	S_ESIGN,
	S_E0,
	S_LIT, /* inside true/false/null: lit, lit_i */
	S_ERROR,
};

enum ps { P_OBJECT_KEY, P_OBJECT_VALUE, P_ARRAY_VALUE };

struct scanner {
	enum st step;
	bool end_top;
	unsigned char *stack; /* parse states */
	size_t depth, alloc;
	const char *lit; /* "true", "false" or "null" */
	size_t lit_i;
	char *err;
};

/* quote_char - the scanner's quoteChar(c): strconv.Quote(string(rune(c)))
 * between single quotes. */
static void quote_char(struct pc_buf *b, unsigned c)
{
	static const char esc[] = "\a\b\f\n\r\t\v";
	static const char let[] = "abfnrtv";
	const char *e;

	if (c == '\'') {
		pc_buf_adds(b, "'\\''");
		return;
	}
	pc_buf_addch(b, '\'');
	if (c && (e = strchr(esc, (int)c)) != NULL) {
		pc_buf_addf(b, "\\%c", let[e - esc]);
	} else if (c == '\\') {
		pc_buf_adds(b, "\\\\");
	} else if (c < 0x20 || c == 0x7f) {
		pc_buf_addf(b, "\\x%02x", c);
	} else if (c < 0x80) {
		pc_buf_addch(b, (char)c);
	} else if (c < 0xa1 || c == 0xad) {
		pc_buf_addf(b, "\\u%04x", c); /* not printable per strconv */
	} else {
		pc__chatcli_add_rune(b, (int32_t)c);
	}
	pc_buf_addch(b, '\'');
}

static void scan_error(struct scanner *s, unsigned c, const char *context)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, "invalid character ");
	quote_char(&b, c);
	pc_buf_addf(&b, " %s", context);
	s->err = pc_buf_detach(&b, NULL);
	s->step = S_ERROR;
}

static bool is_space(unsigned c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_hex(unsigned c)
{
	return pc__chatcli_hex(c) >= 0;
}

static void push(struct scanner *s, unsigned c, enum ps p)
{
	if (s->depth == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		s->stack = pc_xrealloc(s->stack, s->alloc);
	}
	s->stack[s->depth++] = (unsigned char)p;
	if (s->depth > MAX_DEPTH)
		scan_error(s, c, "exceeded max depth");
}

static void step(struct scanner *s, unsigned c);

/* next_member - after a value in a container: ',' goes on to the next
 * member, `close` ends the container. */
static void next_member(struct scanner *s, unsigned c, unsigned close,
			enum ps next, enum st then, const char *context)
{
	if (c == ',') {
		s->stack[s->depth - 1] = (unsigned char)next;
		s->step = then;
	} else if (c == close) {
		s->depth--;
		s->step = S_END_VALUE;
	} else {
		scan_error(s, c, context);
	}
}

static void end_value(struct scanner *s, unsigned c)
{
	if (!s->depth) {
		s->step = S_END_TOP;
		s->end_top = true;
		if (!is_space(c))
			scan_error(s, c, "after top-level value");
		return;
	}
	if (is_space(c)) {
		s->step = S_END_VALUE;
		return;
	}
	switch ((enum ps)s->stack[s->depth - 1]) {
	case P_OBJECT_KEY:
		if (c == ':') {
			s->stack[s->depth - 1] = P_OBJECT_VALUE;
			s->step = S_BEGIN_VALUE;
			return;
		}
		scan_error(s, c, "after object key");
		return;
	case P_OBJECT_VALUE:
		next_member(s, c, '}', P_OBJECT_KEY, S_BEGIN_STRING,
			    "after object key:value pair");
		return;
	case P_ARRAY_VALUE:
		next_member(s, c, ']', P_ARRAY_VALUE, S_BEGIN_VALUE,
			    "after array element");
		return;
	}
}

static void begin_value(struct scanner *s, unsigned c)
{
	if (is_space(c))
		return;
	switch (c) {
	case '{':
		s->step = S_BEGIN_STRING_OR_EMPTY;
		push(s, c, P_OBJECT_KEY);
		return;
	case '[':
		s->step = S_BEGIN_VALUE_OR_EMPTY;
		push(s, c, P_ARRAY_VALUE);
		return;
	case '"':
		s->step = S_IN_STRING;
		return;
	case '-':
		s->step = S_NEG;
		return;
	case '0':
		s->step = S_0;
		return;
	case 't':
	case 'f':
	case 'n':
		s->lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
		s->lit_i = 1;
		s->step = S_LIT;
		return;
	}
	if (c >= '1' && c <= '9') {
		s->step = S_1;
		return;
	}
	scan_error(s, c, "looking for beginning of value");
}

static void step_number(struct scanner *s, unsigned c)
{
	bool digit = c >= '0' && c <= '9';

	switch (s->step) {
	case S_NEG:
		if (c == '0')
			s->step = S_0;
		else if (c >= '1' && c <= '9')
			s->step = S_1;
		else
			scan_error(s, c, "in numeric literal");
		return;
	case S_1:
		if (digit)
			return;
		/* fall through */
	case S_0:
		if (c == '.')
			s->step = S_DOT;
		else if (c == 'e' || c == 'E')
			s->step = S_E;
		else
			end_value(s, c);
		return;
	case S_DOT:
		if (digit)
			s->step = S_DOT0;
		else
			scan_error(s, c, "after decimal point in numeric literal");
		return;
	case S_DOT0:
		if (digit)
			return;
		if (c == 'e' || c == 'E')
			s->step = S_E;
		else
			end_value(s, c);
		return;
	case S_E:
		if (c == '+' || c == '-') {
			s->step = S_ESIGN;
			return;
		}
		/* fall through */
	case S_ESIGN:
		if (digit)
			s->step = S_E0;
		else
			scan_error(s, c, "in exponent of numeric literal");
		return;
	case S_E0:
		if (!digit)
			end_value(s, c);
		return;
	default:
		return;
	}
}

static void step(struct scanner *s, unsigned c)
{
	char ctx[48];

	switch (s->step) {
	case S_BEGIN_VALUE_OR_EMPTY:
		if (is_space(c))
			return;
		if (c == ']') {
			end_value(s, c);
			return;
		}
		begin_value(s, c);
		return;
	case S_BEGIN_VALUE:
		begin_value(s, c);
		return;
	case S_BEGIN_STRING_OR_EMPTY:
		if (is_space(c))
			return;
		if (c == '}') {
			s->stack[s->depth - 1] = P_OBJECT_VALUE;
			end_value(s, c);
			return;
		}
		/* fall through */
	case S_BEGIN_STRING:
		if (is_space(c))
			return;
		if (c == '"')
			s->step = S_IN_STRING;
		else
			scan_error(s, c, "looking for beginning of object key string");
		return;
	case S_END_VALUE:
		end_value(s, c);
		return;
	case S_END_TOP:
		if (!is_space(c))
			scan_error(s, c, "after top-level value");
		return;
	case S_IN_STRING:
		if (c == '"')
			s->step = S_END_VALUE;
		else if (c == '\\')
			s->step = S_IN_STRING_ESC;
		else if (c < 0x20)
			scan_error(s, c, "in string literal");
		return;
	case S_IN_STRING_ESC:
		if (c && strchr("bfnrt\\/\"", (int)c))
			s->step = S_IN_STRING;
		else if (c == 'u')
			s->step = S_ESC_U;
		else
			scan_error(s, c, "in string escape code");
		return;
	case S_ESC_U:
	case S_ESC_U1:
	case S_ESC_U12:
	case S_ESC_U123:
		if (!is_hex(c))
			scan_error(s, c, "in \\u hexadecimal character escape");
		else
			s->step = s->step == S_ESC_U123 ? S_IN_STRING
							 : s->step + 1;
		return;
	case S_LIT:
		if (c == (unsigned char)s->lit[s->lit_i]) {
			if (!s->lit[++s->lit_i])
				s->step = S_END_VALUE;
			return;
		}
		snprintf(ctx, sizeof(ctx), "in literal %s (expecting '%c')",
			 s->lit, s->lit[s->lit_i]);
		scan_error(s, c, ctx);
		return;
	case S_ERROR:
		return;
	default:
		step_number(s, c);
		return;
	}
}

bool pc_chatcli_json_check(const char *p, size_t n, char **errtext)
{
	struct scanner s = { .step = S_BEGIN_VALUE };
	bool ok;

	for (size_t i = 0; i < n && s.step != S_ERROR; i++)
		step(&s, (unsigned char)p[i]);
	if (s.step != S_ERROR && !s.end_top) {
		step(&s, ' ');
		if (s.step != S_ERROR && !s.end_top)
			s.err = pc_xstrdup("unexpected end of JSON input");
	}
	ok = !s.err;
	free(s.stack);
	if (errtext)
		*errtext = s.err;
	else
		free(s.err);
	return ok;
}

/* --- values ---------------------------------------------------------------- */

void pc_chatcli_jv_release(struct pc_chatcli_jv *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		pc_chatcli_jv_release(&v->v[i]);
		if (v->k)
			free(v->k[i].p);
	}
	free(v->v);
	free(v->k);
	free(v->s);
	*v = (struct pc_chatcli_jv)PC_CHATCLI_JV_INIT;
}

void pc_chatcli_jv_copy(struct pc_chatcli_jv *dst,
			const struct pc_chatcli_jv *src)
{
	*dst = *src;
	dst->s = src->s ? pc_xmemdup(src->s, src->n) : NULL;
	dst->v = src->nr ? pc_xcalloc(src->nr, sizeof(*dst->v)) : NULL;
	dst->k = src->k && src->nr ? pc_xcalloc(src->nr, sizeof(*dst->k))
				   : NULL;
	dst->alloc = src->nr;
	for (size_t i = 0; i < src->nr; i++) {
		pc_chatcli_jv_copy(&dst->v[i], &src->v[i]);
		if (dst->k) {
			dst->k[i].p = pc_xmemdup(src->k[i].p, src->k[i].n);
			dst->k[i].n = src->k[i].n;
		}
	}
}

void pc_chatcli_jv_set_string(struct pc_chatcli_jv *v, const char *p,
			      size_t n)
{
	pc_chatcli_jv_release(v);
	v->kind = PC_CHATCLI_JV_STRING;
	v->s = pc_xmemdup(p, n);
	v->n = n;
}

struct pc_chatcli_jv *pc_chatcli_jv_append(struct pc_chatcli_jv *c,
					   const char *key, size_t kn)
{
	struct pc_chatcli_jv *slot;

	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 4;
		c->v = pc_xreallocarray(c->v, c->alloc, sizeof(*c->v));
		if (c->kind == PC_CHATCLI_JV_OBJECT)
			c->k = pc_xreallocarray(c->k, c->alloc, sizeof(*c->k));
	}
	slot = &c->v[c->nr];
	*slot = (struct pc_chatcli_jv)PC_CHATCLI_JV_INIT;
	if (c->kind == PC_CHATCLI_JV_OBJECT) {
		c->k[c->nr].p = pc_xmemdup(key ? key : "", kn);
		c->k[c->nr].n = kn;
	}
	c->nr++;
	return slot;
}

const struct pc_chatcli_jv *pc_chatcli_jv_get(const struct pc_chatcli_jv *o,
					      const char *key, size_t kn)
{
	if (o->kind != PC_CHATCLI_JV_OBJECT)
		return NULL;
	for (size_t i = o->nr; i-- > 0;)
		if (o->k[i].n == kn && !memcmp(o->k[i].p, key, kn))
			return &o->v[i];
	return NULL;
}

const struct pc_chatcli_jv *pc_chatcli_jv_field(const struct pc_chatcli_jv *o,
						const char *field)
{
	const struct pc_chatcli_jv *found = NULL;

	if (!o || o->kind != PC_CHATCLI_JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < o->nr; i++)
		if (pc_chatcli_json_field_match(o->k[i].p, o->k[i].n, field))
			found = &o->v[i];
	return found;
}

/* --- decoding (decode.go) -------------------------------------------------- */

struct dec {
	const unsigned char *p;
	size_t n, i;
};

static void skip_ws(struct dec *d)
{
	while (d->i < d->n && is_space(d->p[d->i]))
		d->i++;
}

/* getu4 - the value of "\uXXXX" at s[0..n), or -1. */
static int32_t getu4(const unsigned char *s, size_t n)
{
	int32_t r = 0;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (size_t k = 2; k < 6; k++) {
		if (!is_hex(s[k]))
			return -1;
		r = r * 16 + pc__chatcli_hex(s[k]);
	}
	return r;
}

/* unquote - Go's unquoteBytes of the valid string literal body s[0..n)
 * (quotes excluded): escapes decoded, a lone or reversed surrogate escape
 * and every invalid UTF-8 byte become U+FFFD. */
static void unquote(const unsigned char *s, size_t n, struct pc_buf *b)
{
	for (size_t r = 0; r < n;) {
		unsigned c = s[r];
		size_t sz;
		int32_t rr;

		if (c < 0x80 && c != '\\') {
			pc_buf_addch(b, (char)c);
			r++;
			continue;
		}
		if (c >= 0x80) {
			rr = pc__chatcli_decode_rune((const char *)s + r, n - r,
						     &sz);
			pc__chatcli_add_rune(b, rr);
			r += sz;
			continue;
		}
		c = s[r + 1];
		if (c != 'u') {
			static const char from[] = "\"\\/'bfnrt",
					  to[] = "\"\\/'\b\f\n\r\t";

			pc_buf_addch(b, to[strchr(from, (int)c) - from]);
			r += 2;
			continue;
		}
		rr = getu4(s + r, n - r);
		r += 6;
		if (rr >= 0xd800 && rr < 0xe000) {
			int32_t r2 = getu4(s + r, n - r);

			if (rr < 0xdc00 && r2 >= 0xdc00 && r2 < 0xe000) {
				rr = 0x10000 + ((rr - 0xd800) << 10) +
				     (r2 - 0xdc00);
				r += 6;
			} else {
				rr = PC__RUNE_ERROR;
			}
		}
		pc__chatcli_add_rune(b, rr);
	}
}

/* string_literal - decode the string at d->i (the opening quote) into
 * (*out, *out_n). */
static void string_literal(struct dec *d, char **out, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t start = ++d->i;

	while (d->p[d->i] != '"')
		d->i += d->p[d->i] == '\\' ? 2 : 1;
	unquote(d->p + start, d->i - start, &b);
	d->i++;
	*out = pc_buf_detach(&b, out_n);
}

static void value(struct dec *d, struct pc_chatcli_jv *v)
{
	unsigned c;

	skip_ws(d);
	c = d->p[d->i];
	if (c == '{' || c == '[') {
		v->kind = c == '{' ? PC_CHATCLI_JV_OBJECT : PC_CHATCLI_JV_ARRAY;
		d->i++;
		for (skip_ws(d); d->p[d->i] != (c == '{' ? '}' : ']');
		     skip_ws(d)) {
			char *k = NULL;
			size_t kn = 0;

			if (c == '{') {
				string_literal(d, &k, &kn);
				skip_ws(d);
				d->i++; /* ':' */
			}
			value(d, pc_chatcli_jv_append(v, k, kn));
			free(k);
			skip_ws(d);
			d->i += d->p[d->i] == ',';
		}
		d->i++;
	} else if (c == '"') {
		v->kind = PC_CHATCLI_JV_STRING;
		string_literal(d, &v->s, &v->n);
	} else if (c == 't' || c == 'f' || c == 'n') {
		v->kind = c == 'n' ? PC_CHATCLI_JV_NULL : PC_CHATCLI_JV_BOOL;
		v->b = c == 't';
		d->i += c == 'f' ? 5 : 4;
	} else {
		size_t start = d->i;

		while (d->i < d->n && d->p[d->i] &&
		       strchr("+-.eE0123456789", d->p[d->i]))
			d->i++;
		v->kind = PC_CHATCLI_JV_NUMBER;
		v->s = pc_xmemdup(d->p + start, d->i - start);
		v->n = d->i - start;
		v->num = strtod(v->s, NULL);
		/* strconv.ParseFloat's ErrRange: overflow only */
		v->range_error = isinf(v->num);
	}
}

int pc_chatcli_json_parse(const char *p, size_t n, struct pc_chatcli_jv *v,
			  char **errtext)
{
	struct dec d = { (const unsigned char *)p, n, 0 };

	*v = (struct pc_chatcli_jv)PC_CHATCLI_JV_INIT;
	if (!pc_chatcli_json_check(p, n, errtext))
		return PC_EPARSE;
	if (errtext)
		*errtext = NULL;
	value(&d, v);
	return 0;
}

/* first_range_error - the first number (document order) that overflows
 * a float64, or NULL. */
static const struct pc_chatcli_jv *first_range_error(
	const struct pc_chatcli_jv *v)
{
	const struct pc_chatcli_jv *e;

	if (v->kind == PC_CHATCLI_JV_NUMBER)
		return v->range_error ? v : NULL;
	for (size_t i = 0; i < v->nr; i++)
		if ((e = first_range_error(&v->v[i])) != NULL)
			return e;
	return NULL;
}

int pc_chatcli_json_unmarshal(const char *p, size_t n,
			      struct pc_chatcli_jv *v, char **errtext)
{
	const struct pc_chatcli_jv *bad;
	int rc = pc_chatcli_json_parse(p, n, v, errtext);

	if (rc)
		return rc;
	if ((bad = first_range_error(v)) != NULL) {
		if (errtext)
			*errtext = pc_xasprintf(
				"json: cannot unmarshal number %s into Go value of type float64",
				bad->s);
		pc_chatcli_jv_release(v);
		return PC_EPARSE;
	}
	return 0;
}

/* --- struct fields (fold.go of Go 1.19) ------------------------------------ */

static bool ascii_letter(unsigned c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* equal_fold_right - Go's equalFoldRight(s, t): s is the ASCII field name
 * with a k or an s, t the key; K U+212A folds to k, ſ U+017F to s. */
static bool equal_fold_right(const char *s, const char *t, size_t tn)
{
	for (; *s; s++) {
		unsigned sb = (unsigned char)*s, tb;
		size_t sz;
		int32_t tr;

		if (!tn)
			return false;
		tb = (unsigned char)*t;
		if (tb < 0x80) {
			if (sb != tb && (!ascii_letter(sb) ||
					 (sb & 0xdf) != (tb & 0xdf)))
				return false;
			t++, tn--;
			continue;
		}
		tr = pc__chatcli_decode_rune(t, tn, &sz);
		if (sb == 's' || sb == 'S') {
			if (tr != 0x17f)
				return false;
		} else if (sb == 'k' || sb == 'K') {
			if (tr != 0x212a)
				return false;
		} else {
			return false;
		}
		t += sz, tn -= sz;
	}
	return !tn;
}

bool pc_chatcli_json_field_match(const char *key, size_t kn,
				 const char *field)
{
	size_t fn = strlen(field);
	bool special = false, non_letter = false;

	if (kn == fn && !memcmp(key, field, fn))
		return true;
	for (const char *f = field; *f; f++) {
		unsigned up = (unsigned char)*f & 0xdf;

		if (up < 'A' || up > 'Z')
			non_letter = true;
		else if (up == 'K' || up == 'S')
			special = true;
	}
	if (special)
		return equal_fold_right(field, key, kn);
	if (kn != fn)
		return false;
	for (size_t i = 0; i < fn; i++) {
		unsigned sb = (unsigned char)field[i],
			 tb = (unsigned char)key[i];

		if (non_letter) { /* asciiEqualFold */
			if (sb != tb && (!ascii_letter(sb) ||
					 (sb & 0xdf) != (tb & 0xdf)))
				return false;
		} else if ((sb & 0xdf) != (tb & 0xdf)) { /* simpleLetter... */
			return false;
		}
	}
	return true;
}

const char *pc_chatcli_jv_kind_name(const struct pc_chatcli_jv *v)
{
	switch (v->kind) {
	case PC_CHATCLI_JV_STRING:
		return "string";
	case PC_CHATCLI_JV_NUMBER:
		return "number";
	case PC_CHATCLI_JV_BOOL:
		return "bool";
	case PC_CHATCLI_JV_ARRAY:
		return "array";
	case PC_CHATCLI_JV_OBJECT:
		return "object";
	default:
		return "null";
	}
}

/* --- Metadata (M3, M4) ----------------------------------------------------- */

int pc_chatcli_meta_decode(const char *p, size_t n, struct pc_chatcli_meta *m,
			   char **errtext)
{
	static const char *const names[] = { "name", "description", "usage",
					     "version" };
	char **fields[] = { &m->name, &m->description, &m->usage, &m->version };
	size_t *lens[] = { &m->name_len, &m->description_len, &m->usage_len,
			   &m->version_len };
	struct pc_chatcli_jv v = PC_CHATCLI_JV_INIT;
	char *type_err = NULL;

	/* Metadata has no float field: a number anywhere is only scanned */
	if (pc_chatcli_json_parse(p, n, &v, errtext))
		return PC_EPARSE;
	if (v.kind != PC_CHATCLI_JV_NULL && v.kind != PC_CHATCLI_JV_OBJECT) {
		*errtext = pc_xasprintf(
			"json: cannot unmarshal %s into Go value of type plugins.Metadata",
			pc_chatcli_jv_kind_name(&v));
		pc_chatcli_jv_release(&v);
		return PC_EPARSE;
	}
	for (size_t i = 0; i < v.nr; i++) {
		const struct pc_chatcli_jv *it = &v.v[i];
		size_t f = 4;

		/* the exact name first, then Go's case folding */
		for (size_t k = 0; k < 4 && f == 4; k++)
			if (v.k[i].n == strlen(names[k]) &&
			    !memcmp(v.k[i].p, names[k], v.k[i].n))
				f = k;
		for (size_t k = 0; k < 4 && f == 4; k++)
			if (pc_chatcli_json_field_match(v.k[i].p, v.k[i].n,
							names[k]))
				f = k;
		if (f == 4 || it->kind == PC_CHATCLI_JV_NULL)
			continue;
		if (it->kind != PC_CHATCLI_JV_STRING) {
			if (!type_err)
				type_err = pc_xasprintf(
					"json: cannot unmarshal %s into Go struct field Metadata.%s of type string",
					pc_chatcli_jv_kind_name(it), names[f]);
			continue;
		}
		free(*fields[f]);
		*fields[f] = pc_xmemdup(it->s, it->n);
		*lens[f] = it->n;
	}
	pc_chatcli_jv_release(&v);
	for (size_t i = 0; i < 4; i++)
		if (!*fields[i])
			*fields[i] = pc_xstrdup("");
	if (type_err) {
		*errtext = type_err;
		return PC_EPARSE;
	}
	return 0;
}

void pc_chatcli_meta_release(struct pc_chatcli_meta *m)
{
	free(m->name);
	free(m->description);
	free(m->usage);
	free(m->version);
	*m = (struct pc_chatcli_meta)PC_CHATCLI_META_INIT;
}

/* --- numbers -------------------------------------------------------------- */

/* shortest - the shortest digits that round-trip `v` (> 0): digits into
 * `dig` (no dot), decimal exponent of the first digit into *exp. */
static void shortest(double v, char *dig, size_t cap, int *exp)
{
	char tmp[40];
	char *e;
	size_t k = 0;

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, v);
		if (strtod(tmp, NULL) == v || prec == 17)
			break;
	}
	e = strchr(tmp, 'e');
	*exp = (int)strtol(e + 1, NULL, 10);
	for (char *c = tmp; c < e && k + 1 < cap; c++)
		if (*c >= '0' && *c <= '9')
			dig[k++] = *c;
	while (k > 1 && dig[k - 1] == '0')
		k--;
	dig[k] = '\0';
}

/* format_float - fmt's %v (`json` false) or json.Marshal's float64
 * encoding (`json` true): strconv.FormatFloat with 'e' or 'f' chosen by
 * the exponent, -1 precision; -0 stays "-0" in both. */
static char *format_float(double v, bool json)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char dig[32];
	int exp, nd;
	bool use_e;

	if (isnan(v) || isinf(v)) { /* fmt's %v; json.Marshal refuses them */
		pc_buf_adds(&b, isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
		return pc_buf_detach(&b, NULL);
	}
	if (v == 0) {
		pc_buf_adds(&b, signbit(v) ? "-0" : "0");
		return pc_buf_detach(&b, NULL);
	}
	if (v < 0)
		pc_buf_addch(&b, '-');
	shortest(fabs(v), dig, sizeof(dig), &exp);
	nd = (int)strlen(dig);
	if (json)
		use_e = fabs(v) < 1e-6 || fabs(v) >= 1e21;
	else
		use_e = exp < -4 || exp >= 6;
	if (use_e) {
		pc_buf_addch(&b, dig[0]);
		if (nd > 1)
			pc_buf_addf(&b, ".%s", dig + 1);
		if (json && exp < 0 && exp > -10)
			pc_buf_addf(&b, "e-%d", -exp);
		else
			pc_buf_addf(&b, "e%c%02d", exp < 0 ? '-' : '+',
				    exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		pc_buf_adds(&b, "0.");
		for (int k = -1; k > exp; k--)
			pc_buf_addch(&b, '0');
		pc_buf_adds(&b, dig);
	} else {
		for (int k = 0; k <= exp || k < nd; k++) {
			if (k == exp + 1)
				pc_buf_addch(&b, '.');
			pc_buf_addch(&b, k < nd ? dig[k] : '0');
		}
	}
	return pc_buf_detach(&b, NULL);
}

char *pc_chatcli_go_float(double v)
{
	return format_float(v, false);
}

/* --- json.Marshal ----------------------------------------------------------- */

void pc_chatcli_go_quote(struct pc_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	pc_buf_addch(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		size_t sz;
		int32_t r;

		if (c < 0x80) {
			if (c == '"' || c == '\\')
				pc_buf_addf(b, "\\%c", c);
			else if (c == '\n')
				pc_buf_adds(b, "\\n");
			else if (c == '\r')
				pc_buf_adds(b, "\\r");
			else if (c == '\t')
				pc_buf_adds(b, "\\t");
			else if (c == '\b') /* Go 1.22's short forms */
				pc_buf_adds(b, "\\b");
			else if (c == '\f')
				pc_buf_adds(b, "\\f");
			else if (c < 0x20 || c == '<' || c == '>' || c == '&')
				pc_buf_addf(b, "\\u00%02x", c);
			else
				pc_buf_addch(b, (char)c);
			i++;
			continue;
		}
		r = pc__chatcli_decode_rune(s + i, n - i, &sz);
		if (r == PC__RUNE_ERROR && sz == 1)
			pc_buf_adds(b, "\\ufffd");
		else if (r == 0x2028 || r == 0x2029)
			pc_buf_addf(b, "\\u%04x", (unsigned)r);
		else
			pc_buf_add(b, s + i, sz);
		i += sz;
	}
	pc_buf_addch(b, '"');
}

struct member {
	const struct pc_chatcli_str *k;
	const struct pc_chatcli_jv *v;
	size_t pos;
};

static int cmp_key(const struct pc_chatcli_str *a,
		   const struct pc_chatcli_str *b)
{
	int c = memcmp(a->p, b->p, a->n < b->n ? a->n : b->n);

	return c ? c : a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
}

static int cmp_members(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = cmp_key(x->k, y->k);

	return c ? c : x->pos < y->pos ? -1 : 1;
}

static void marshal(struct pc_buf *b, const struct pc_chatcli_jv *v);

static void marshal_object(struct pc_buf *b, const struct pc_chatcli_jv *v)
{
	struct member *m = pc_xcalloc(v->nr ? v->nr : 1, sizeof(*m));
	bool first = true;

	for (size_t i = 0; i < v->nr; i++)
		m[i] = (struct member){ &v->k[i], &v->v[i], i };
	/* by key, then position: a later duplicate sorts after and wins */
	qsort(m, v->nr, sizeof(*m), cmp_members);
	pc_buf_addch(b, '{');
	for (size_t i = 0; i < v->nr; i++) {
		if (i + 1 < v->nr && !cmp_key(m[i].k, m[i + 1].k))
			continue;
		if (!first)
			pc_buf_addch(b, ',');
		first = false;
		pc_chatcli_go_quote(b, m[i].k->p, m[i].k->n);
		pc_buf_addch(b, ':');
		marshal(b, m[i].v);
	}
	pc_buf_addch(b, '}');
	free(m);
}

static void marshal(struct pc_buf *b, const struct pc_chatcli_jv *v)
{
	char *f;

	switch (v->kind) {
	case PC_CHATCLI_JV_NULL:
		pc_buf_adds(b, "null");
		break;
	case PC_CHATCLI_JV_BOOL:
		pc_buf_adds(b, v->b ? "true" : "false");
		break;
	case PC_CHATCLI_JV_NUMBER:
		f = format_float(v->num, true);
		pc_buf_adds(b, f);
		free(f);
		break;
	case PC_CHATCLI_JV_STRING:
		pc_chatcli_go_quote(b, v->s, v->n);
		break;
	case PC_CHATCLI_JV_ARRAY:
		pc_buf_addch(b, '[');
		for (size_t i = 0; i < v->nr; i++) {
			if (i)
				pc_buf_addch(b, ',');
			marshal(b, &v->v[i]);
		}
		pc_buf_addch(b, ']');
		break;
	case PC_CHATCLI_JV_OBJECT:
		marshal_object(b, v);
		break;
	}
}

char *pc_chatcli_jv_marshal(const struct pc_chatcli_jv *v, size_t *len)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	marshal(&b, v);
	return pc_buf_detach(&b, len);
}

/* --- plugcheck's own JSON output ------------------------------------------- */

cJSON *pc_chatcli_json_string(const char *p, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *raw;

	pc_buf_addch(&b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		const char *e = c == '"'    ? "\\\""
				: c == '\\' ? "\\\\"
				: c == '\b' ? "\\b"
				: c == '\f' ? "\\f"
				: c == '\n' ? "\\n"
				: c == '\r' ? "\\r"
				: c == '\t' ? "\\t"
					    : NULL;

		if (e)
			pc_buf_adds(&b, e);
		else if (c < 0x20)
			pc_buf_addf(&b, "\\u%04x", c);
		else
			pc_buf_addch(&b, (char)c);
	}
	pc_buf_addch(&b, '"');
	raw = cJSON_CreateRaw(b.data);
	pc_buf_release(&b);
	return raw;
}

/* pc_chatcli_json.c - Go encoding/json as ChatCLI's host uses it: the
 * scanner's validity rules and error texts, Metadata decoding, fmt's %v
 * of a float64 and json.Marshal of a decoded value. See pc_chatcli.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_xalloc.h"

struct scan {
	const unsigned char *p;
	size_t n, i;
	char *err;
};

/* quote_char - Go's scanner quoteChar(c) for the byte c. */
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
		pc_buf_addch(b, (char)(0xc0 | (c >> 6)));
		pc_buf_addch(b, (char)(0x80 | (c & 0x3f)));
	}
	pc_buf_addch(b, '\'');
}

static bool fail(struct scan *s, const char *context)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (s->err)
		return false;
	if (s->i >= s->n) {
		s->err = pc_xstrdup("unexpected end of JSON input");
		return false;
	}
	pc_buf_adds(&b, "invalid character ");
	quote_char(&b, s->p[s->i]);
	pc_buf_addf(&b, " %s", context);
	s->err = pc_buf_detach(&b, NULL);
	return false;
}

static int peek(const struct scan *s)
{
	return s->i < s->n ? s->p[s->i] : -1;
}

static void skip_ws(struct scan *s)
{
	while (s->i < s->n && strchr(" \t\r\n", s->p[s->i]) && s->p[s->i])
		s->i++;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool scan_value(struct scan *s, int depth);

static bool scan_string(struct scan *s)
{
	s->i++; /* the opening quote */
	for (;;) {
		int c = peek(s);

		if (c < 0)
			return fail(s, "");
		if (c == '"') {
			s->i++;
			return true;
		}
		if (c < 0x20)
			return fail(s, "in string literal");
		s->i++;
		if (c != '\\')
			continue;
		c = peek(s);
		if (c < 0)
			return fail(s, "");
		if (!strchr("\"\\/bfnrtu", c) || !c)
			return fail(s, "in string escape code");
		s->i++;
		for (int k = 0; c == 'u' && k < 4; k++, s->i++)
			if (!is_hex(peek(s)))
				return fail(
					s,
					"in \\u hexadecimal character escape");
	}
}

static bool scan_number(struct scan *s)
{
	if (peek(s) == '-') {
		s->i++;
		if (!is_digit(peek(s)))
			return fail(s, "in numeric literal");
	}
	if (peek(s) == '0')
		s->i++;
	else
		while (is_digit(peek(s)))
			s->i++;
	if (peek(s) == '.') {
		s->i++;
		if (!is_digit(peek(s)))
			return fail(s,
				    "after decimal point in numeric literal");
		while (is_digit(peek(s)))
			s->i++;
	}
	if (peek(s) == 'e' || peek(s) == 'E') {
		s->i++;
		if (peek(s) == '+' || peek(s) == '-')
			s->i++;
		if (!is_digit(peek(s)))
			return fail(s, "in exponent of numeric literal");
		while (is_digit(peek(s)))
			s->i++;
	}
	return true;
}

static bool scan_literal(struct scan *s, const char *word)
{
	char ctx[64];

	s->i++;
	for (const char *w = word + 1; *w; w++, s->i++) {
		if (peek(s) != *w) {
			snprintf(ctx, sizeof(ctx),
				 "in literal %s (expecting '%c')", word, *w);
			return fail(s, ctx);
		}
	}
	return true;
}

static bool scan_object(struct scan *s, int depth)
{
	s->i++;
	skip_ws(s);
	if (peek(s) == '}') {
		s->i++;
		return true;
	}
	for (;;) {
		if (peek(s) != '"')
			return fail(
				s,
				"looking for beginning of object key string");
		if (!scan_string(s))
			return false;
		skip_ws(s);
		if (peek(s) != ':')
			return fail(s, "after object key");
		s->i++;
		if (!scan_value(s, depth + 1))
			return false;
		skip_ws(s);
		if (peek(s) == '}') {
			s->i++;
			return true;
		}
		if (peek(s) != ',')
			return fail(s, "after object key:value pair");
		s->i++;
		skip_ws(s);
	}
}

static bool scan_array(struct scan *s, int depth)
{
	s->i++;
	skip_ws(s);
	if (peek(s) == ']') {
		s->i++;
		return true;
	}
	for (;;) {
		if (!scan_value(s, depth + 1))
			return false;
		skip_ws(s);
		if (peek(s) == ']') {
			s->i++;
			return true;
		}
		if (peek(s) != ',')
			return fail(s, "after array element");
		s->i++;
	}
}

static bool scan_value(struct scan *s, int depth)
{
	int c;

	skip_ws(s);
	c = peek(s);
	/* Go's scanner: pushing the 10001st open container fails */
	if (depth >= 10000 && (c == '[' || c == '{'))
		return fail(s, "exceeded max depth");
	switch (c) {
	case '{':
		return scan_object(s, depth);
	case '[':
		return scan_array(s, depth);
	case '"':
		return scan_string(s);
	case 't':
		return scan_literal(s, "true");
	case 'f':
		return scan_literal(s, "false");
	case 'n':
		return scan_literal(s, "null");
	default:
		if (c == '-' || is_digit(c))
			return scan_number(s);
		return fail(s, "looking for beginning of value");
	}
}

bool pc_chatcli_json_check(const char *p, size_t n, char **errtext)
{
	struct scan s = { (const unsigned char *)p, n, 0, NULL };
	bool ok = scan_value(&s, 0);

	if (ok) {
		skip_ws(&s);
		if (s.i < s.n)
			ok = fail(&s, "after top-level value");
	}
	if (errtext)
		*errtext = s.err;
	else
		free(s.err);
	return ok;
}

static cJSON *build(struct scan *s);

/* build_members - the members of the container at s->i ('{' or '['). */
static cJSON *build_members(struct scan *s, bool obj)
{
	cJSON *o = obj ? cJSON_CreateObject() : cJSON_CreateArray();

	s->i++;
	for (skip_ws(s); peek(s) != (obj ? '}' : ']'); skip_ws(s)) {
		cJSON *k = NULL, *v;

		if (obj) {
			size_t k0 = s->i;

			scan_string(s);
			k = cJSON_ParseWithLength((const char *)s->p + k0,
						  s->i - k0);
			skip_ws(s);
			s->i++; /* ':' */
		}
		v = build(s);
		if (!v || (obj && !k)) {
			cJSON_Delete(k);
			cJSON_Delete(v);
			cJSON_Delete(o);
			return NULL;
		}
		if (obj)
			cJSON_AddItemToObject(o, k->valuestring, v);
		else
			cJSON_AddItemToArray(o, v);
		cJSON_Delete(k);
		skip_ws(s);
		s->i += peek(s) == ',';
	}
	s->i++;
	return o;
}

/* build - the tree of the valid JSON value at s->i, with Go's nesting
 * limit (checked before) instead of cJSON's 1000 levels; strings go
 * through cJSON one at a time. NULL for a string cJSON refuses (a lone
 * surrogate). */
static cJSON *build(struct scan *s)
{
	size_t v0;
	char *num;
	double d;
	int c;

	skip_ws(s);
	c = peek(s);
	if (c == '{' || c == '[')
		return build_members(s, c == '{');
	v0 = s->i;
	scan_value(s, 0);
	switch (c) {
	case '"':
		return cJSON_ParseWithLength((const char *)s->p + v0,
					     s->i - v0);
	case 't':
		return cJSON_CreateTrue();
	case 'f':
		return cJSON_CreateFalse();
	case 'n':
		return cJSON_CreateNull();
	default:
		num = pc_xmemdup(s->p + v0, s->i - v0);
		d = strtod(num, NULL);
		free(num);
		return cJSON_CreateNumber(d);
	}
}

cJSON *pc_chatcli_json_parse(const char *p, size_t n, char **errtext)
{
	struct scan s = { (const unsigned char *)p, n, 0, NULL };
	cJSON *v;

	if (!pc_chatcli_json_check(p, n, errtext))
		return NULL;
	v = build(&s);
	if (!v && errtext) /* lone surrogates: Go would substitute U+FFFD */
		*errtext = pc_xstrdup("invalid character in string literal");
	return v;
}

/* first_out_of_range - the first number literal of the valid JSON text
 * `p` that overflows a float64 (strconv.ParseFloat's ErrRange, as
 * strtod's HUGE_VAL), as a new string, or NULL. */
static char *first_out_of_range(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (p[i] == '"') {
			for (i++; i < n && p[i] != '"'; i++)
				i += p[i] == '\\';
			i++;
		} else if (p[i] == '-' || is_digit((unsigned char)p[i])) {
			size_t j = i;
			char *lit;

			while (j < n && p[j] && strchr("+-.eE0123456789", p[j]))
				j++;
			lit = pc_xmemdup(p + i, j - i);
			if (isinf(strtod(lit, NULL)))
				return lit;
			free(lit);
			i = j;
		} else {
			i++;
		}
	}
	return NULL;
}

cJSON *pc_chatcli_json_decode_any(const char *p, size_t n, char **errtext)
{
	cJSON *v = pc_chatcli_json_parse(p, n, errtext);
	char *lit;

	if (!v || !(lit = first_out_of_range(p, n)))
		return v;
	cJSON_Delete(v);
	if (errtext)
		*errtext = pc_xasprintf(
			"json: cannot unmarshal number %s into Go value of type float64",
			lit);
	free(lit);
	return NULL;
}

/* --- Metadata (M3, M4) ------------------------------------------------- */

static const char *kind_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "string";
	if (cJSON_IsNumber(v))
		return "number";
	if (cJSON_IsBool(v))
		return "bool";
	if (cJSON_IsArray(v))
		return "array";
	return "object";
}

static bool ascii_eq_fold(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return false;
	}
	return *a == *b;
}

static char **meta_field(struct pc_chatcli_meta *m, const char *key,
			 const char **fname)
{
	static const char *const names[] = { "name", "description", "usage",
					     "version" };
	char **fields[] = { &m->name, &m->description, &m->usage, &m->version };

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < 4; i++)
			if (pass ? ascii_eq_fold(key, names[i])
				 : !strcmp(key, names[i])) {
				*fname = names[i];
				return fields[i];
			}
	return NULL;
}

static void meta_fill_empty(struct pc_chatcli_meta *m)
{
	char **f[] = { &m->name, &m->description, &m->usage, &m->version };

	for (size_t i = 0; i < 4; i++)
		if (!*f[i])
			*f[i] = pc_xstrdup("");
}

/* leaf - the value at `p` (`n` bytes, one valid JSON value) as Metadata
 * decoding needs it: a string decoded (one string needs no nesting), any
 * other value reduced to an empty node of its kind. NULL for a string
 * cJSON refuses (a lone surrogate). */
static cJSON *leaf(const char *p, size_t n)
{
	switch (*p) {
	case '"':
		return cJSON_ParseWithLength(p, n);
	case 'n':
		return cJSON_CreateNull();
	case 't':
		return cJSON_CreateTrue();
	case 'f':
		return cJSON_CreateFalse();
	case '[':
		return cJSON_CreateArray();
	case '{':
		return cJSON_CreateObject();
	default:
		return cJSON_CreateNumber(0);
	}
}

/* shallow_parse - the valid JSON text `p` with its top-level object's
 * members reduced by leaf(), so a document nested deeper than cJSON's
 * limit (1000; Go's scanner allows 10000) still decodes into Metadata,
 * which reads only the top level. Non-objects go through
 * pc_chatcli_json_parse(). Found while reviewing fuzz_chatcli_json. */
static cJSON *shallow_parse(const char *p, size_t n, char **errtext)
{
	struct scan s = { (const unsigned char *)p, n, 0, NULL };
	cJSON *o;

	if (!pc_chatcli_json_check(p, n, errtext))
		return NULL;
	skip_ws(&s);
	if (peek(&s) != '{')
		return pc_chatcli_json_parse(p, n, errtext);
	o = cJSON_CreateObject();
	s.i++;
	for (skip_ws(&s); peek(&s) == '"'; skip_ws(&s)) {
		size_t k0 = s.i, v0;
		cJSON *k, *v;

		scan_string(&s);
		k = cJSON_ParseWithLength(p + k0, s.i - k0);
		skip_ws(&s);
		s.i++; /* ':' */
		skip_ws(&s);
		v0 = s.i;
		scan_value(&s, 1);
		v = leaf(p + v0, s.i - v0);
		if (!k || !v) {
			cJSON_Delete(k);
			cJSON_Delete(v);
			cJSON_Delete(o);
			*errtext = pc_xstrdup(
				"invalid character in string literal");
			return NULL;
		}
		cJSON_AddItemToObject(o, k->valuestring, v);
		cJSON_Delete(k);
		skip_ws(&s);
		s.i += peek(&s) == ',';
	}
	return o;
}

int pc_chatcli_meta_decode(const char *p, size_t n, struct pc_chatcli_meta *m,
			   char **errtext)
{
	char *type_err = NULL;
	cJSON *v = shallow_parse(p, n, errtext);
	const cJSON *it;

	if (!v)
		return PC_EPARSE;
	if (!cJSON_IsNull(v) && !cJSON_IsObject(v)) {
		*errtext = pc_xasprintf(
			"json: cannot unmarshal %s into Go value of type plugins.Metadata",
			kind_name(v));
		cJSON_Delete(v);
		return PC_EPARSE;
	}
	cJSON_ArrayForEach(it, v)
	{
		const char *fname;
		char **f = meta_field(m, it->string, &fname);

		if (!f || cJSON_IsNull(it))
			continue;
		if (!cJSON_IsString(it)) {
			if (!type_err)
				type_err = pc_xasprintf(
					"json: cannot unmarshal %s into Go struct field Metadata.%s of type string",
					kind_name(it), fname);
			continue;
		}
		free(*f);
		*f = pc_xstrdup(it->valuestring);
	}
	cJSON_Delete(v);
	meta_fill_empty(m);
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

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, v);
		if (strtod(tmp, NULL) == v || prec == 17)
			break;
	}
	{
		char *e = strchr(tmp, 'e');
		size_t k = 0;

		*exp = (int)strtol(e + 1, NULL, 10);
		for (char *c = tmp; c < e && k + 1 < cap; c++)
			if (is_digit(*c))
				dig[k++] = *c;
		while (k > 1 && dig[k - 1] == '0')
			k--;
		dig[k] = '\0';
	}
}

/* format_float - strconv.FormatFloat(v, 'g' or 'f'/'e' by thresholds). */
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
		pc_buf_adds(&b, signbit(v) && !json ? "-0" : "0");
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

/* --- json.Marshal -----------------------------------------------------------
 */

static void marshal_string(struct pc_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	pc_buf_addch(b, '"');
	for (; *p; p++) {
		unsigned c = *p;

		if (c == '"' || c == '\\')
			pc_buf_addf(b, "\\%c", c);
		else if (c == '\n')
			pc_buf_adds(b, "\\n");
		else if (c == '\r')
			pc_buf_adds(b, "\\r");
		else if (c == '\t')
			pc_buf_adds(b, "\\t");
		else if (c == '\b')
			pc_buf_adds(b, "\\b");
		else if (c == '\f')
			pc_buf_adds(b, "\\f");
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			pc_buf_addf(b, "\\u00%02x", c);
		else if (c == 0xe2 && p[1] == 0x80 &&
			 (p[2] == 0xa8 || p[2] == 0xa9)) {
			pc_buf_addf(b, "\\u202%c", p[2] == 0xa8 ? '8' : '9');
			p += 2;
		} else
			pc_buf_addch(b, (char)c);
	}
	pc_buf_addch(b, '"');
}

struct member {
	const cJSON *item;
	size_t pos;
};

static int cmp_members(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->item->string, y->item->string);

	return c ? c : x->pos < y->pos ? -1 : 1;
}

static void marshal(struct pc_buf *b, const cJSON *v);

static void marshal_object(struct pc_buf *b, const cJSON *v)
{
	size_t n = (size_t)cJSON_GetArraySize(v), k = 0;
	struct member *m = pc_xcalloc(n ? n : 1, sizeof(*m));
	const cJSON *it;
	bool first = true;

	cJSON_ArrayForEach(it, v)
	{
		m[k].item = it;
		m[k].pos = k;
		k++;
	}
	/* by key, then position: a later duplicate sorts after and wins */
	qsort(m, n, sizeof(*m), cmp_members);
	pc_buf_addch(b, '{');
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n &&
		    !strcmp(m[i].item->string, m[i + 1].item->string))
			continue;
		if (!first)
			pc_buf_addch(b, ',');
		first = false;
		marshal_string(b, m[i].item->string);
		pc_buf_addch(b, ':');
		marshal(b, m[i].item);
	}
	pc_buf_addch(b, '}');
	free(m);
}

static void marshal(struct pc_buf *b, const cJSON *v)
{
	const cJSON *it;

	if (cJSON_IsNull(v)) {
		pc_buf_adds(b, "null");
	} else if (cJSON_IsBool(v)) {
		pc_buf_adds(b, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsNumber(v)) {
		char *f = format_float(v->valuedouble, true);

		pc_buf_adds(b, f);
		free(f);
	} else if (cJSON_IsString(v)) {
		marshal_string(b, v->valuestring);
	} else if (cJSON_IsArray(v)) {
		pc_buf_addch(b, '[');
		cJSON_ArrayForEach(it, v)
		{
			if (it != v->child)
				pc_buf_addch(b, ',');
			marshal(b, it);
		}
		pc_buf_addch(b, ']');
	} else {
		marshal_object(b, v);
	}
}

char *pc_chatcli_go_marshal(const cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	marshal(&b, v);
	return pc_buf_detach(&b, NULL);
}

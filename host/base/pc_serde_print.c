/* pc_serde_print.c - serde_json::to_vec / to_string_pretty of a Value.
 *
 * serde_json 1.0.150 src/ser.rs: CompactFormatter and PrettyFormatter
 * (two-space indent, ": "), format_escaped_str with its ESCAPE table
 * (\" \\ \b \f \n \r \t, other bytes below 0x20 as \u00xx in lowercase
 * hex, everything else raw), objects in BTreeMap order, and f64 written by
 * zmij 1.0.21 (Buffer::format_finite): the shortest digits that round-trip,
 * laid out as "1.5", "1000000000000000.0", "0.00001", "1e+16", "1.5e-7".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"
#include "pc_serde_impl.h"
#include "pc_xalloc.h"

/* The %.*e text of `v` with `p` significant digits, as digits and a
 * decimal exponent; true when it reads back as `v`. */
static bool digits_of(double v, int p, char *d, int *e)
{
	char t[40];
	size_t k, n = 0;

	snprintf(t, sizeof(t), "%.*e", p - 1, v);
	for (k = 0; t[k] && t[k] != 'e'; k++) {
		if (t[k] != '.')
			d[n++] = t[k];
	}
	d[n] = '\0';
	*e = (int)strtol(t + k + 1, NULL, 10);
	return strtod(t, NULL) == v;
}

/* The next p-digit decimal above d*10^e; true when it reads back as v.
 * Only needed at a power of two, whose rounding interval is lopsided. */
static bool next_up(double v, char *d, int *e)
{
	char t[48];
	size_t n = strlen(d), k = n;

	while (k > 0 && d[k - 1] == '9')
		d[--k] = '0';
	if (k == 0) {
		d[0] = '1';
		(*e)++;
	} else {
		d[k - 1]++;
	}
	snprintf(t, sizeof(t), "%c.%se%d", d[0], d + 1, *e);
	return strtod(t, NULL) == v;
}

/* Shortest round-trip digits of the finite, positive `v` (Schubfach's
 * answer: the fewest digits, and of those the closest to `v`). */
static void shortest(double v, char *d, int *e)
{
	int p, ex;

	for (p = 1; p < 17; p++) {
		if (digits_of(v, p, d, e))
			break;
		if (frexp(v, &ex) == 0.5 && next_up(v, d, e))
			break;
	}
	if (p == 17)
		digits_of(v, 17, d, e);
	p = (int)strlen(d);
	while (p > 1 && d[p - 1] == '0')
		d[--p] = '\0';
}

/* zmij's layout: plain for decimal exponents -5..=15, else d.ddde+X. */
static void layout(char *o, bool neg, const char *d, int e)
{
	int n = (int)strlen(d), k;

	if (neg)
		*o++ = '-';
	if (e < -5 || e > 15) {
		*o++ = d[0];
		if (n > 1)
			*o++ = '.';
		snprintf(o, 24, "%se%c%d", d + 1, e < 0 ? '-' : '+', abs(e));
		return;
	}
	if (e < 0) {
		*o++ = '0';
		*o++ = '.';
		for (k = 0; k < -e - 1; k++)
			*o++ = '0';
		snprintf(o, 24, "%s", d);
		return;
	}
	for (k = 0; k < n || k <= e; k++) {
		if (k == e + 1)
			*o++ = '.';
		*o++ = k < n ? d[k] : '0';
	}
	if (n - 1 <= e) {
		*o++ = '.';
		*o++ = '0';
	}
	*o = '\0';
}

size_t pc__serde_fmt_f64(double v, char *buf, size_t size)
{
	char d[32], t[48];
	int e;

	if (isnan(v))
		return (size_t)snprintf(buf, size, "NaN");
	if (isinf(v))
		return (size_t)snprintf(buf, size, v < 0 ? "-inf" : "inf");
	if (v == 0.0)
		return (size_t)snprintf(buf, size, signbit(v) ? "-0.0" : "0.0");
	shortest(fabs(v), d, &e);
	layout(t, signbit(v) != 0, d, e);
	return (size_t)snprintf(buf, size, "%s", t);
}

struct printer {
	struct pc_buf *out;
	bool pretty;
};

static int put(struct printer *p, const char *s, size_t n)
{
	return pc_buf_add(p->out, s, n);
}

static int puts_(struct printer *p, const char *s)
{
	return pc_buf_add(p->out, s, strlen(s));
}

/* format_escaped_str; C0 80 is the stored form of U+0000. */
static int print_string(struct printer *p, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t k, run = 0;
	char esc[7] = "\\u00";
	int rc = puts_(p, "\"");

	for (k = 0; !rc && s[k]; k++) {
		unsigned char c = s[k];
		const char *e = NULL;

		if (c == '"')
			e = "\\\"";
		else if (c == '\\')
			e = "\\\\";
		else if (c == '\b')
			e = "\\b";
		else if (c == '\f')
			e = "\\f";
		else if (c == '\n')
			e = "\\n";
		else if (c == '\r')
			e = "\\r";
		else if (c == '\t')
			e = "\\t";
		else if (c < 0x20 || (c == 0xC0 && s[k + 1] == 0x80))
			e = esc;
		if (!e)
			continue;
		esc[4] = c == 0xC0 ? '0' : hex[c >> 4];
		esc[5] = c == 0xC0 ? '0' : hex[c & 15];
		rc = put(p, (const char *)s + run, k - run);
		if (!rc)
			rc = puts_(p, e);
		k += c == 0xC0;
		run = k + 1;
	}
	if (!rc)
		rc = put(p, (const char *)s + run, k - run);
	return rc ? rc : puts_(p, "\"");
}

static int print_number(struct printer *p, const cJSON *v)
{
	char t[48];
	double d = v->valuedouble;

	if (v->valuestring)
		return puts_(p, v->valuestring);
	if (!isfinite(d))
		return puts_(p, "null");
	if (d == trunc(d) && fabs(d) <= 9007199254740992.0)
		snprintf(t, sizeof(t), "%lld", (long long)d);
	else
		pc__serde_fmt_f64(d, t, sizeof(t));
	return puts_(p, t);
}

static int newline(struct printer *p, size_t level)
{
	int rc = puts_(p, "\n");

	while (!rc && level--)
		rc = puts_(p, "  ");
	return rc;
}

static int print_value(struct printer *p, const cJSON *v, size_t level);

static int print_array(struct printer *p, const cJSON *v, size_t level)
{
	const cJSON *it;
	int rc = puts_(p, "[");

	for (it = v->child; !rc && it; it = it->next) {
		if (it != v->child)
			rc = puts_(p, ",");
		if (!rc && p->pretty)
			rc = newline(p, level + 1);
		if (!rc)
			rc = print_value(p, it, level + 1);
	}
	if (!rc && p->pretty && v->child)
		rc = newline(p, level);
	return rc ? rc : puts_(p, "]");
}

struct member {
	const cJSON *item;
	size_t idx;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = pc__serde_key_cmp(x->item->string, y->item->string);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The object's members in key order, each repeated key only once, with
 * its last value (BTreeMap::insert); *n gets the count. */
static struct member *members(const cJSON *v, size_t *n)
{
	struct member *e;
	const cJSON *it;
	size_t k = 0, m = 0;

	for (it = v->child; it; it = it->next)
		k++;
	e = pc_xreallocarray(NULL, k ? k : 1, sizeof(*e));
	for (it = v->child; it; it = it->next, m++) {
		e[m].item = it;
		e[m].idx = m;
	}
	qsort(e, k, sizeof(*e), member_cmp);
	for (m = 0, *n = 0; m < k; m++) {
		if (m + 1 < k && !pc__serde_key_cmp(e[m].item->string,
						    e[m + 1].item->string))
			continue;
		e[(*n)++] = e[m];
	}
	return e;
}

static int print_object(struct printer *p, const cJSON *v, size_t level)
{
	size_t n, k;
	struct member *e = members(v, &n);
	int rc = puts_(p, "{");

	for (k = 0; !rc && k < n; k++) {
		if (k)
			rc = puts_(p, ",");
		if (!rc && p->pretty)
			rc = newline(p, level + 1);
		if (!rc)
			rc = print_string(p, e[k].item->string);
		if (!rc)
			rc = puts_(p, p->pretty ? ": " : ":");
		if (!rc)
			rc = print_value(p, e[k].item, level + 1);
	}
	if (!rc && p->pretty && n)
		rc = newline(p, level);
	free(e);
	return rc ? rc : puts_(p, "}");
}

/* cJSON_Raw is written verbatim; an invalid node as null. */
static int print_value(struct printer *p, const cJSON *v, size_t level)
{
	switch (v->type & 0xFF) {
	case cJSON_False:
		return puts_(p, "false");
	case cJSON_True:
		return puts_(p, "true");
	case cJSON_Number:
		return print_number(p, v);
	case cJSON_String:
		return print_string(p, v->valuestring);
	case cJSON_Raw:
		return puts_(p, v->valuestring ? v->valuestring : "null");
	case cJSON_Array:
		return print_array(p, v, level);
	case cJSON_Object:
		return print_object(p, v, level);
	default:
		return puts_(p, "null");
	}
}

int pc_serde_print(const cJSON *v, struct pc_buf *out)
{
	struct printer p = { .out = out, .pretty = false };

	return v ? print_value(&p, v, 0) : puts_(&p, "null");
}

int pc_serde_print_pretty(const cJSON *v, struct pc_buf *out)
{
	struct printer p = { .out = out, .pretty = true };

	return v ? print_value(&p, v, 0) : puts_(&p, "null");
}

char *pc_serde_to_string(const cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (pc_serde_print(v, &b)) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, NULL);
}

cJSON *pc_serde_number_u64(unsigned long long n)
{
	cJSON *item = pc__serde_must(cJSON_CreateNumber((double)n));

	item->valuestring = pc_xasprintf("%llu", n);
	return item;
}

const cJSON *pc_serde_get(const cJSON *obj, const char *key)
{
	const cJSON *it, *found = NULL;

	if (!cJSON_IsObject(obj) || !key)
		return NULL;
	for (it = obj->child; it; it = it->next) {
		if (it->string && !strcmp(it->string, key))
			found = it;
	}
	return found;
}

/* pc_schema_gen.c - build a minimal value that satisfies a schema.
 *
 * Construction is heuristic, acceptance is not: every value a step builds
 * is validated against the schema node it was built for, and a candidate
 * that fails is dropped for the next one (next enum value, next type,
 * next oneOf branch). So a value returned always validates; a schema the
 * heuristics cannot satisfy gives NULL.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_schema.h"
#include "pc_schema_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* Samples for `format` (an annotation, but a realistic first guess). */
static const struct {
	const char *format;
	const char *sample;
} format_samples[] = {
	{ "date", "2024-01-01" },
	{ "date-time", "2024-01-01T00:00:00Z" },
	{ "time", "00:00:00Z" },
	{ "duration", "P1D" },
	{ "email", "user@example.com" },
	{ "idn-email", "user@example.com" },
	{ "hostname", "example.com" },
	{ "idn-hostname", "example.com" },
	{ "ipv4", "192.0.2.1" },
	{ "ipv6", "2001:db8::1" },
	{ "uri", "https://example.com" },
	{ "uri-reference", "https://example.com" },
	{ "iri", "https://example.com" },
	{ "iri-reference", "https://example.com" },
	{ "url", "https://example.com" },
	{ "uuid", "00000000-0000-4000-8000-000000000000" },
	{ "json-pointer", "/a" },
};

/* Strings tried for a `pattern`, after the minLength fillers. */
static const char *const pattern_tries[] = {
	"",	 "a",	       "x",
	"0",	 "abc",	       "example",
	"a@b.c", "2024-01-01", "https://example.com",
};

static cJSON *checked(struct pc__schema_ctx *c, const cJSON *s, cJSON *v)
{
	if (v && !pc__schema_accepts(c, s, v)) {
		cJSON_Delete(v);
		return NULL;
	}
	return v;
}

static const char *format_sample(const cJSON *s)
{
	const cJSON *f = pc_serde_get(s, "format");

	for (size_t i = 0;
	     cJSON_IsString(f) &&
	     i < sizeof(format_samples) / sizeof(format_samples[0]);
	     i++)
		if (!strcmp(format_samples[i].format, f->valuestring))
			return format_samples[i].sample;
	return NULL;
}

static bool string_fits(struct pc__schema_ctx *c, const cJSON *s,
			const char *str)
{
	const cJSON *p = pc_serde_get(s, "pattern");
	double n = (double)pc__schema_strlen(str), b;

	if (pc__schema_count(s, "minLength", &b) && n < b)
		return false;
	if (pc__schema_count(s, "maxLength", &b) && n > b)
		return false;
	return !cJSON_IsString(p) ||
	       pc__schema_re_match(c, p->valuestring, str) == 1;
}

static char *repeat(char ch, size_t n)
{
	char *s = pc_xmalloc(n + 1);

	memset(s, ch, n);
	s[n] = '\0';
	return s;
}

static cJSON *gen_string(struct pc__schema_ctx *c, const cJSON *s)
{
	const char *sample = format_sample(s);
	double min = 0;
	char *fill;
	cJSON *v = NULL;

	if (sample && string_fits(c, s, sample))
		return cJSON_CreateString(sample);
	if (pc__schema_count(s, "minLength", &min) &&
	    min > PC__SCHEMA_MAX_BUILD)
		return NULL;
	for (size_t i = 0; i < 3 && !v; i++) {
		fill = repeat("a0A"[i], (size_t)min);
		if (string_fits(c, s, fill))
			v = cJSON_CreateString(fill);
		free(fill);
	}
	for (size_t i = 0;
	     !v && i < sizeof(pattern_tries) / sizeof(pattern_tries[0]); i++)
		if (string_fits(c, s, pattern_tries[i]))
			v = cJSON_CreateString(pattern_tries[i]);
	return v;
}

/* The first multiple of m from v (upwards or downwards) that is integral
 * when it must be; NAN when 64 tries find none. */
static double align(double v, double m, bool integer, bool up)
{
	double k = up ? ceil(v / m) : floor(v / m), w;

	for (int i = 0; i < 64; i++, k += up ? 1 : -1) {
		w = k * m + 0.0; /* + 0.0 turns -0 into 0 */
		if (!integer || pc__schema_is_integral(w))
			return w;
	}
	return NAN;
}

struct range {
	double lo, hi;
	bool has_lo, has_hi, lo_x, hi_x; /* _x: exclusive */
};

static struct range range_of(const cJSON *s)
{
	struct range r = { 0 };
	double x;

	r.has_lo = pc__schema_num(s, "minimum", &r.lo);
	r.has_hi = pc__schema_num(s, "maximum", &r.hi);
	if (pc__schema_num(s, "exclusiveMinimum", &x) &&
	    (!r.has_lo || x >= r.lo)) {
		r.lo = x;
		r.has_lo = r.lo_x = true;
	}
	if (pc__schema_num(s, "exclusiveMaximum", &x) &&
	    (!r.has_hi || x <= r.hi)) {
		r.hi = x;
		r.has_hi = r.hi_x = true;
	}
	return r;
}

static cJSON *gen_number(const cJSON *s, bool integer)
{
	struct range r = range_of(s);
	bool up = r.has_lo || !r.has_hi;
	double v = 0, m;

	if (r.has_lo && r.lo_x)
		v = integer ? floor(r.lo) + 1 : r.lo + 1;
	else if (r.has_lo)
		v = integer ? ceil(r.lo) : r.lo;
	else if (r.has_hi && (r.hi_x ? r.hi <= 0 : r.hi < 0))
		v = r.hi_x ? (integer ? ceil(r.hi) - 1 : r.hi - 1)
			   : (integer ? floor(r.hi) : r.hi);
	if (!integer && r.has_lo && r.has_hi && (r.hi_x ? v >= r.hi : v > r.hi))
		v = r.lo + (r.hi - r.lo) / 2;
	if (pc__schema_num(s, "multipleOf", &m) && m > 0)
		v = align(v, m, integer, up);
	return isfinite(v) ? cJSON_CreateNumber(v) : NULL;
}

static bool holds(const cJSON *arr, const cJSON *v)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, arr)
	{
		if (pc__schema_equal(x, v))
			return true;
	}
	return false;
}

/* The i-th alternative to `v` (i from 1): the i-th enum value, v + i
 * steps, the string with i appended, the other boolean. */
static cJSON *variant(const cJSON *v, const cJSON *flat, int i)
{
	const cJSON *en = pc_serde_get(flat, "enum");
	char *str;
	cJSON *r;
	double step = 1;

	if (cJSON_IsArray(en))
		return cJSON_Duplicate(cJSON_GetArrayItem(en, i - 1), 1);
	if (cJSON_IsNumber(v)) {
		if (!pc__schema_num(flat, "multipleOf", &step) || step <= 0)
			step = 1;
		return cJSON_CreateNumber(v->valuedouble + i * step);
	}
	if (cJSON_IsString(v)) {
		str = pc_xasprintf("%s%d", v->valuestring, i);
		r = cJSON_CreateString(str);
		free(str);
		return r;
	}
	return cJSON_IsBool(v) && i == 1 ? cJSON_CreateBool(cJSON_IsFalse(v))
					 : NULL;
}

/* For uniqueItems: `v` (consumed) or an alternative `sub` accepts that
 * `arr` does not hold yet; NULL after 32 tries. */
static cJSON *distinct(struct pc__schema_ctx *c, const cJSON *sub,
		       const cJSON *arr, cJSON *v, int depth)
{
	const cJSON *flat;
	cJSON *cand = NULL;

	if (!v || !holds(arr, v))
		return v;
	flat = pc__schema_flatten(c, sub, depth);
	for (int i = 1; i <= 32 && !cand; i++) {
		cand = variant(v, flat, i);
		if (cand &&
		    (holds(arr, cand) || !pc__schema_accepts(c, sub, cand))) {
			cJSON_Delete(cand);
			cand = NULL;
		}
	}
	cJSON_Delete(v);
	return cand;
}

static cJSON *gen_array(struct pc__schema_ctx *c, const cJSON *s, bool full,
			int depth)
{
	const cJSON *items = pc_serde_get(s, "items");
	const cJSON *prefix = pc_serde_get(s, "prefixItems"), *sub;
	bool unique = cJSON_IsTrue(pc_serde_get(s, "uniqueItems"));
	double min = 0, max = INFINITY;
	cJSON *arr, *v;
	size_t n;

	if (cJSON_IsArray(items)) { /* draft-07 tuple form */
		prefix = items;
		items = NULL;
	}
	prefix = cJSON_IsArray(prefix) ? prefix->child : NULL;
	(void)pc__schema_count(s, "minItems", &min);
	(void)pc__schema_count(s, "maxItems", &max);
	if (min > PC__SCHEMA_MAX_BUILD)
		return NULL;
	n = (size_t)min + (full && min == 0 && max >= 1);
	arr = cJSON_CreateArray();
	for (size_t i = 0; i < n && arr; i++) {
		sub = prefix ? prefix : items;
		prefix = prefix ? prefix->next : NULL;
		v = pc__schema_gen(c, sub, full, depth + 1);
		if (unique)
			v = distinct(c, sub, arr, v, depth + 1);
		if (!v && (double)i >= min)
			break;
		if (!v || !cJSON_AddItemToArray(arr, v)) {
			cJSON_Delete(v);
			cJSON_Delete(arr);
			return NULL;
		}
	}
	return arr;
}

/* Add `name` to `obj` built from its property schema (or the
 * additionalProperties schema). */
static bool add_property(struct pc__schema_ctx *c, cJSON *obj, const cJSON *s,
			 const char *name, bool full, int depth)
{
	const cJSON *sub = pc_serde_get(pc_serde_get(s, "properties"), name);

	if (pc_serde_get(obj, name))
		return true;
	if (!sub)
		sub = pc_serde_get(s, "additionalProperties");
	if (pc__schema_is_false(sub))
		return false;
	return pc__schema_put(obj, name, pc__schema_gen(c, sub, full, depth));
}

/* Reach minProperties with optional properties, then "extra1", ... */
static bool fill_min(struct pc__schema_ctx *c, cJSON *obj, const cJSON *s,
		     bool full, int depth)
{
	const cJSON *p = pc_serde_get(s, "properties");
	double min = 0;
	char key[32];

	if (!pc__schema_count(s, "minProperties", &min))
		return true;
	if (min > PC__SCHEMA_MAX_BUILD)
		return false;
	p = cJSON_IsObject(p) ? p->child : NULL;
	for (; p && cJSON_GetArraySize(obj) < (int)min; p = p->next)
		(void)add_property(c, obj, s, p->string, full, depth);
	for (int i = 1; cJSON_GetArraySize(obj) < (int)min; i++) {
		(void)snprintf(key, sizeof(key), "extra%d", i);
		if (!pc_serde_get(obj, key) &&
		    !add_property(c, obj, s, key, full, depth))
			return false;
	}
	return true;
}

static cJSON *gen_object(struct pc__schema_ctx *c, const cJSON *s, bool full,
			 int depth)
{
	const cJSON *props = pc_serde_get(s, "properties"), *x;
	cJSON *obj = cJSON_CreateObject();

	cJSON_ArrayForEach(x, pc_serde_get(s, "required"))
	{
		if (cJSON_IsString(x) &&
		    !add_property(c, obj, s, x->valuestring, full, depth + 1))
			goto out_fail;
	}
	if (!full || !cJSON_IsObject(props))
		props = NULL;
	cJSON_ArrayForEach(x, props)
	{
		(void)add_property(c, obj, s, x->string, full, depth + 1);
	}
	if (!fill_min(c, obj, s, full, depth + 1))
		goto out_fail;
	return obj;
out_fail:
	cJSON_Delete(obj);
	return NULL;
}

/* The types to try, in order: the declared ones, else those the
 * keywords hint at, then every other type. */
static size_t type_order(const cJSON *s, unsigned out[8])
{
	static const struct {
		const char *kw;
		unsigned bit;
	} hints[] = {
		{ "properties", PC__T_OBJECT },
		{ "required", PC__T_OBJECT },
		{ "additionalProperties", PC__T_OBJECT },
		{ "minProperties", PC__T_OBJECT },
		{ "items", PC__T_ARRAY },
		{ "prefixItems", PC__T_ARRAY },
		{ "minItems", PC__T_ARRAY },
		{ "minLength", PC__T_STRING },
		{ "pattern", PC__T_STRING },
		{ "format", PC__T_STRING },
		{ "minimum", PC__T_NUMBER },
		{ "maximum", PC__T_NUMBER },
		{ "multipleOf", PC__T_NUMBER },
		{ "exclusiveMinimum", PC__T_NUMBER },
		{ "exclusiveMaximum", PC__T_NUMBER },
	};
	static const unsigned rest[] = { PC__T_STRING,	PC__T_INTEGER,
					 PC__T_BOOLEAN, PC__T_OBJECT,
					 PC__T_ARRAY,	PC__T_NULL };
	const cJSON *t = pc_serde_get(s, "type"), *x;
	unsigned seen = 0, bit;
	size_t n = 0;

	for (x = cJSON_IsArray(t) ? t->child : t; x;
	     x = cJSON_IsArray(t) ? x->next : NULL) {
		bit = cJSON_IsString(x) ? pc__schema_type_bit(x->valuestring)
					: 0;
		if (bit && !(seen & bit) && n < 8)
			out[n++] = bit;
		seen |= bit;
	}
	if (n)
		return n;
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		bit = pc_serde_get(s, hints[i].kw) ? hints[i].bit : 0;
		if (bit && !(seen & bit) && n < 8)
			out[n++] = bit;
		seen |= bit;
	}
	for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
		if (!(seen & rest[i]) && n < 8)
			out[n++] = rest[i];
	return n;
}

static cJSON *gen_type(struct pc__schema_ctx *c, const cJSON *s, unsigned type,
		       bool full, int depth)
{
	switch (type) {
	case PC__T_NULL:
		return cJSON_CreateNull();
	case PC__T_BOOLEAN:
		return cJSON_CreateFalse();
	case PC__T_INTEGER:
	case PC__T_NUMBER:
		return gen_number(s, type == PC__T_INTEGER);
	case PC__T_STRING:
		return gen_string(c, s);
	case PC__T_ARRAY:
		return gen_array(c, s, full, depth);
	default:
		return gen_object(c, s, full, depth);
	}
}

/* const, then the first valid enum value, then a valid default. NULL
 * with *decided true when const or enum leave no valid value. */
static cJSON *gen_literal(struct pc__schema_ctx *c, const cJSON *s, bool full,
			  bool *decided)
{
	const cJSON *k = pc_serde_get(s, "const"),
		    *en = pc_serde_get(s, "enum");
	const cJSON *d = pc_serde_get(s, "default"), *x;

	*decided = k || cJSON_IsArray(en);
	if (k)
		return checked(c, s, cJSON_Duplicate(k, 1));
	if (!cJSON_IsArray(en))
		en = NULL;
	cJSON_ArrayForEach(x, en)
	{
		if (pc__schema_accepts(c, s, x))
			return cJSON_Duplicate(x, 1);
	}
	/* `full` builds objects and empty arrays from their keywords */
	if (!d ||
	    (full && (cJSON_IsObject(d) || (cJSON_IsArray(d) && !d->child))))
		return NULL;
	return checked(c, s, cJSON_Duplicate(d, 1));
}

static cJSON *gen_branches(struct pc__schema_ctx *c, const cJSON *s,
			   const char *kw, bool full, int depth)
{
	const cJSON *b, *view;
	cJSON *v;

	cJSON_ArrayForEach(b, pc_serde_get(s, kw))
	{
		view = pc__schema_merge(c, s, kw, b);
		v = view ? pc__schema_gen(c, view, full, depth + 1) : NULL;
		if (v && pc__schema_accepts(c, s, v))
			return v;
		cJSON_Delete(v);
		if (c->exhausted)
			return NULL;
	}
	return NULL;
}

/* A recursive $ref (its target already being built) fills no optional
 * parts, or `full` would unroll it down to the depth limit. */
static cJSON *gen_ref(struct pc__schema_ctx *c, const cJSON *s,
		      const cJSON *target, bool full, int depth)
{
	const cJSON *flat = pc__schema_flatten(c, s, depth);
	cJSON *v = NULL;

	for (size_t i = 0; i < c->nexpanding; i++)
		if (c->expanding[i] == target)
			full = false;
	if (flat && c->nexpanding < PC__SCHEMA_MAX_DEPTH + 1) {
		c->expanding[c->nexpanding++] = target;
		v = pc__schema_gen(c, flat, full, depth + 1);
		c->nexpanding--;
	}
	return checked(c, s, v);
}

cJSON *pc__schema_gen(struct pc__schema_ctx *c, const cJSON *s, bool full,
		      int depth)
{
	const cJSON *target = NULL, *flat;
	unsigned types[8];
	bool decided;
	cJSON *v;

	if (depth > PC__SCHEMA_MAX_DEPTH || !pc__schema_step(c) ||
	    pc__schema_is_false(s))
		return NULL;
	if (!cJSON_IsObject(s))
		return cJSON_CreateString("");
	if (pc__schema_ref(c, s, &target) == 1)
		return gen_ref(c, s, target, full, depth);
	if (cJSON_IsArray(pc_serde_get(s, "allOf"))) {
		flat = pc__schema_flatten(c, s, depth);
		v = flat ? pc__schema_gen(c, flat, full, depth + 1) : NULL;
		return checked(c, s, v);
	}
	if (cJSON_IsArray(pc_serde_get(s, "oneOf")))
		return gen_branches(c, s, "oneOf", full, depth);
	if (cJSON_IsArray(pc_serde_get(s, "anyOf")))
		return gen_branches(c, s, "anyOf", full, depth);
	v = gen_literal(c, s, full, &decided);
	if (v || decided)
		return v;
	for (size_t i = 0, n = type_order(s, types); i < n && !v; i++)
		v = checked(c, s, gen_type(c, s, types[i], full, depth));
	return v;
}

cJSON *pc_schema_valid_args(const cJSON *schema, bool full)
{
	struct pc__schema_ctx c;
	cJSON *v;

	pc__schema_ctx_init(&c, schema);
	v = checked(&c, schema, pc__schema_gen(&c, schema, full, 0));
	pc__schema_ctx_release(&c);
	return v;
}

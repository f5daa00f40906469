/* pc_schema_validate.c - does a value satisfy a schema, and if not, the
 * first violation with the JSON pointer of the offending value. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pc_schema.h"
#include "pc_schema_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static bool fail(struct pc__schema_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record the first violation (unless quiet) and return false. */
static bool fail(struct pc__schema_ctx *c, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	if (c->quiet || c->why)
		return false;
	(void)pc_buf_addf(&b, "%s: ", pc__schema_ptr_str(&c->ptr));
	c->why_text = b.len;
	va_start(ap, fmt);
	(void)pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	c->why = pc_buf_detach(&b, NULL);
	return false;
}

/* fail() with "<value> <text> <keyword value>". */
static bool fail_kw(struct pc__schema_ctx *c, const cJSON *v, const char *text,
		    const cJSON *kw)
{
	char *a = pc__schema_render(v), *b = pc__schema_render(kw);

	fail(c, "%s %s %s", a, text, b);
	free(a);
	free(b);
	return false;
}

static bool check_type(struct pc__schema_ctx *c, const cJSON *s, const cJSON *v)
{
	unsigned mask = pc__schema_type_mask(s);
	struct pc_buf names = PC_BUF_INIT(PC_BUF_NOCAP);

	if (pc__schema_type_allows(mask, v))
		return true;
	pc__schema_type_names(mask, &names);
	fail(c, "expected %s, got %s", pc_buf_cstr(&names),
	     pc__schema_type_name(pc__schema_value_type(v)));
	pc_buf_release(&names);
	return false;
}

static bool check_enum(struct pc__schema_ctx *c, const cJSON *s, const cJSON *v)
{
	const cJSON *en = pc_serde_get(s, "enum"),
		    *k = pc_serde_get(s, "const");
	const cJSON *x;

	if (k && !pc__schema_equal(k, v))
		return fail_kw(c, v, "is not the const value", k);
	if (!cJSON_IsArray(en))
		return true;
	cJSON_ArrayForEach(x, en)
	{
		if (pc__schema_equal(x, v))
			return true;
	}
	return fail_kw(c, v, "is not one of", en);
}

static const struct {
	const char *kw;
	int cmp; /* the value must compare to the bound like this: -1, 1 */
	bool strict;
	const char *text;
} bounds[] = {
	{ "minimum", 1, false, "is less than minimum" },
	{ "exclusiveMinimum", 1, true, "is not greater than exclusiveMinimum" },
	{ "maximum", -1, false, "is greater than maximum" },
	{ "exclusiveMaximum", -1, true, "is not less than exclusiveMaximum" },
};

static bool is_multiple(double v, double m)
{
	double q = v / m;

	if (!isfinite(q))
		return false;
	return fabs(q - round(q)) <= 1e-9 * fmax(1.0, fabs(q));
}

static bool check_number(struct pc__schema_ctx *c, const cJSON *s,
			 const cJSON *v)
{
	double d = v->valuedouble, b;

	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		bool ok;

		if (!pc__schema_num(s, bounds[i].kw, &b))
			continue;
		ok = bounds[i].cmp > 0 ? (bounds[i].strict ? d > b : d >= b)
				       : (bounds[i].strict ? d < b : d <= b);
		if (!ok)
			return fail_kw(c, v, bounds[i].text,
				       pc_serde_get(s, bounds[i].kw));
	}
	if (pc__schema_num(s, "multipleOf", &b) && b > 0 && !is_multiple(d, b))
		return fail_kw(c, v, "is not a multiple of",
			       pc_serde_get(s, "multipleOf"));
	return true;
}

static bool check_string(struct pc__schema_ctx *c, const cJSON *s,
			 const cJSON *v)
{
	size_t n = pc__schema_strlen(v->valuestring);
	const cJSON *p = pc_serde_get(s, "pattern");
	char *pat;
	double b;
	int rc;

	if (pc__schema_count(s, "minLength", &b) && (double)n < b)
		return fail(c, "string has %zu %s, fewer than minLength %.0f",
			    n, n == 1 ? "character" : "characters", b);
	if (pc__schema_count(s, "maxLength", &b) && (double)n > b)
		return fail(c, "string has %zu %s, more than maxLength %.0f", n,
			    n == 1 ? "character" : "characters", b);
	if (!cJSON_IsString(p))
		return true;
	rc = pc__schema_re_match(c, p->valuestring, v->valuestring);
	if (rc == 1)
		return true;
	if (rc == 0)
		return fail_kw(c, v, "does not match pattern", p);
	pat = pc__schema_render(p);
	fail(c, "pattern %s %s", pat,
	     rc == -1 ? "is not a valid regex" : "exceeds the match limit");
	free(pat);
	return false;
}

static bool check_items(struct pc__schema_ctx *c, const cJSON *s,
			const cJSON *v, int depth)
{
	const cJSON *items = pc_serde_get(s, "items");
	const cJSON *prefix = pc_serde_get(s, "prefixItems"), *x, *sub;
	size_t i = 0, mark;
	bool ok = true;

	if (cJSON_IsArray(items)) { /* draft-07 tuple form */
		prefix = items;
		items = NULL;
	}
	prefix = cJSON_IsArray(prefix) ? prefix->child : NULL;
	for (x = v->child; x && ok; x = x->next, i++) {
		sub = prefix ? prefix : items;
		prefix = prefix ? prefix->next : NULL;
		if (!sub)
			continue;
		mark = pc__schema_ptr_push_index(&c->ptr, i);
		ok = pc__schema_check(c, sub, x, depth + 1);
		pc__schema_ptr_pop(&c->ptr, mark);
	}
	return ok;
}

static bool check_unique(struct pc__schema_ctx *c, const cJSON *v)
{
	size_t i = 0, j;

	for (const cJSON *x = v->child; x; x = x->next, i++) {
		j = i + 1;
		for (const cJSON *y = x->next; y; y = y->next, j++) {
			if (!pc__schema_step(c))
				return false;
			if (pc__schema_equal(x, y))
				return fail(
					c,
					"items %zu and %zu are equal (uniqueItems)",
					i, j);
		}
	}
	return true;
}

static bool check_array(struct pc__schema_ctx *c, const cJSON *s,
			const cJSON *v, int depth)
{
	size_t n = (size_t)cJSON_GetArraySize(v);
	double b;

	if (pc__schema_count(s, "minItems", &b) && (double)n < b)
		return fail(c, "array has %zu %s, fewer than minItems %.0f", n,
			    n == 1 ? "item" : "items", b);
	if (pc__schema_count(s, "maxItems", &b) && (double)n > b)
		return fail(c, "array has %zu %s, more than maxItems %.0f", n,
			    n == 1 ? "item" : "items", b);
	if (cJSON_IsTrue(pc_serde_get(s, "uniqueItems")) && !check_unique(c, v))
		return false;
	return check_items(c, s, v, depth);
}

static bool check_required(struct pc__schema_ctx *c, const cJSON *s,
			   const cJSON *v)
{
	const cJSON *x;
	size_t n = (size_t)cJSON_GetArraySize(v);
	double b;

	cJSON_ArrayForEach(x, pc_serde_get(s, "required"))
	{
		if (cJSON_IsString(x) && !pc_serde_get(v, x->valuestring))
			return fail(c, "missing required property '%s'",
				    x->valuestring);
	}
	if (pc__schema_count(s, "minProperties", &b) && (double)n < b)
		return fail(c,
			    "object has %zu %s, fewer than minProperties %.0f",
			    n, n == 1 ? "property" : "properties", b);
	if (pc__schema_count(s, "maxProperties", &b) && (double)n > b)
		return fail(c,
			    "object has %zu %s, more than maxProperties %.0f",
			    n, n == 1 ? "property" : "properties", b);
	return true;
}

/* Check `v`, member `key`, against the patternProperties that match the
 * key: -1 on a violation, else how many matched. */
static int check_patterns(struct pc__schema_ctx *c, const cJSON *s,
			  const char *key, const cJSON *v, int depth)
{
	const cJSON *pp = pc_serde_get(s, "patternProperties"), *x;
	int n = 0;

	if (!cJSON_IsObject(pp))
		return 0;
	cJSON_ArrayForEach(x, pp)
	{
		if (pc__schema_re_match(c, x->string, key) != 1)
			continue;
		n++;
		if (!pc__schema_check(c, x, v, depth + 1))
			return -1;
	}
	return n;
}

static bool check_object(struct pc__schema_ctx *c, const cJSON *s,
			 const cJSON *v, int depth)
{
	const cJSON *props = pc_serde_get(s, "properties");
	const cJSON *addl = pc_serde_get(s, "additionalProperties"), *x, *sub;
	size_t mark;
	bool ok;
	int n;

	if (!check_required(c, s, v))
		return false;
	if (!cJSON_IsObject(props))
		props = NULL;
	for (x = v->child; x; x = x->next) {
		sub = pc_serde_get(props, x->string);
		mark = pc__schema_ptr_push(&c->ptr, x->string);
		n = check_patterns(c, s, x->string, x, depth);
		if (n < 0)
			ok = false;
		else if (sub)
			ok = pc__schema_check(c, sub, x, depth + 1);
		else if (n > 0 || !addl)
			ok = true;
		else if (pc__schema_is_false(addl))
			ok = fail(c, "additional property is not allowed");
		else
			ok = pc__schema_check(c, addl, x, depth + 1);
		pc__schema_ptr_pop(&c->ptr, mark);
		if (!ok)
			return false;
	}
	return true;
}

/* The branches of anyOf / oneOf that `v` satisfies, counted up to 2. */
static size_t count_matches(struct pc__schema_ctx *c, const cJSON *list,
			    const cJSON *v, int depth, size_t *first,
			    size_t *second)
{
	const cJSON *b;
	size_t i = 0, n = 0;

	c->quiet++;
	cJSON_ArrayForEach(b, list)
	{
		if (pc__schema_check(c, b, v, depth + 1)) {
			*(n ? second : first) = i;
			if (++n == 2)
				break;
		}
		i++;
	}
	c->quiet--;
	return n;
}

static bool check_combinators(struct pc__schema_ctx *c, const cJSON *s,
			      const cJSON *v, int depth)
{
	const cJSON *all = pc_serde_get(s, "allOf"), *any, *one, *not, *b;
	size_t n, i = 0, j = 0;
	bool hit;

	if (!cJSON_IsArray(all))
		all = NULL;
	cJSON_ArrayForEach(b, all)
	{
		if (!pc__schema_check(c, b, v, depth + 1))
			return false;
	}
	any = pc_serde_get(s, "anyOf");
	if (cJSON_IsArray(any) && !count_matches(c, any, v, depth, &i, &j))
		return fail(c, "value matches no schema in anyOf");
	one = pc_serde_get(s, "oneOf");
	n = cJSON_IsArray(one) ? count_matches(c, one, v, depth, &i, &j) : 1;
	if (n == 0)
		return fail(c, "value matches no schema in oneOf");
	if (n == 2)
		return fail(c, "value matches oneOf schemas %zu and %zu", i, j);
	not = pc_serde_get(s, "not");
	if (!not )
		return true;
	c->quiet++;
	hit = pc__schema_check(c, not, v, depth + 1);
	c->quiet--;
	return hit ? fail(c, "value matches the schema in 'not'") : true;
}

static bool check_ref(struct pc__schema_ctx *c, const cJSON *s, const cJSON *v,
		      int depth)
{
	const cJSON *target = NULL;

	if (pc__schema_ref(c, s, &target) != 1)
		return true;
	return pc__schema_check(c, target, v, depth + 1);
}

bool pc__schema_check(struct pc__schema_ctx *c, const cJSON *schema,
		      const cJSON *v, int depth)
{
	if (depth > PC__SCHEMA_MAX_DEPTH)
		return fail(c, PC__SCHEMA_DEPTH_MSG);
	if (!pc__schema_step(c))
		return fail(c, "schema too complex to evaluate");
	if (pc__schema_is_false(schema))
		return fail(c, "no value is allowed here (schema false)");
	if (!cJSON_IsObject(schema))
		return true;
	if (!check_ref(c, schema, v, depth) || !check_type(c, schema, v) ||
	    !check_enum(c, schema, v))
		return false;
	if (cJSON_IsNumber(v) && !check_number(c, schema, v))
		return false;
	if (cJSON_IsString(v) && !check_string(c, schema, v))
		return false;
	if (cJSON_IsArray(v) && !check_array(c, schema, v, depth))
		return false;
	if (cJSON_IsObject(v) && !check_object(c, schema, v, depth))
		return false;
	return check_combinators(c, schema, v, depth);
}

bool pc__schema_accepts(struct pc__schema_ctx *c, const cJSON *schema,
			const cJSON *v)
{
	size_t mark = c->ptr.len;
	bool ok;

	c->quiet++;
	ok = v && pc__schema_check(c, schema, v, 0);
	c->quiet--;
	pc__schema_ptr_pop(&c->ptr, mark);
	return ok;
}

bool pc_schema_validate(const cJSON *schema, const cJSON *value, char **why)
{
	struct pc__schema_ctx c;
	bool ok;

	if (why)
		*why = NULL;
	pc__schema_ctx_init(&c, schema);
	ok = value && pc__schema_check(&c, schema, value, 0);
	if (!ok && why) {
		if (!value)
			*why = pc_xstrdup("(root): no value");
		else if (c.exhausted || !c.why)
			*why = pc_xstrdup(
				"(root): schema too complex to evaluate");
		else
			*why = c.why;
		if (*why == c.why)
			c.why = NULL;
	}
	pc__schema_ctx_release(&c);
	return ok;
}

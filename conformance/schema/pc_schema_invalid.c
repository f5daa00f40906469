/* pc_schema_invalid.c - arguments a model may send although they violate
 * the schema.
 *
 * Start from a valid value (the full one, so optional properties are there
 * to break too), then change one thing at a time: drop a required
 * property, empty the object, add an unknown property, give a property
 * the wrong type, a value outside its enum or bounds, a string too short,
 * too long or off its pattern, an array too short or too long. Each
 * mutant is validated against the whole schema: one that still passes is
 * dropped, and the first violation found becomes its "why". So every
 * entry is invalid and explains itself in pc_schema_validate's words.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_schema.h"
#include "pc_schema_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

struct ictx {
	struct pc__schema_ctx *c;
	const cJSON *root;
	cJSON *out;
	size_t max, added;
};

/* Where a value sits in the base arguments: member `key` (or element
 * `index` when key is NULL) of `container`, itself placed by `up`. */
struct frame {
	const struct frame *up;
	const cJSON *container;
	const char *key;
	size_t index;
};

/* The base arguments with the value at `f` replaced by `sub` (consumed). */
static cJSON *wrap(const struct frame *f, cJSON *sub)
{
	cJSON *copy;

	for (; f && sub; f = f->up) {
		copy = cJSON_Duplicate(f->container, 1);
		if (!copy) {
			cJSON_Delete(sub);
			return NULL;
		}
		if (!f->key)
			cJSON_ReplaceItemInArray(copy, (int)f->index, sub);
		else if (pc_serde_get(copy, f->key))
			cJSON_ReplaceItemInObjectCaseSensitive(copy, f->key,
							       sub);
		else
			(void)pc__schema_put(copy, f->key, sub);
		sub = copy;
	}
	return sub;
}

static bool listed(const cJSON *out, const cJSON *args)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, out)
	{
		if (pc__schema_equal(pc_serde_get(e, "args"), args))
			return true;
	}
	return false;
}

/* Append {"why", "args"} for the mutant `sub` at `f`, when it is new and
 * the schema rejects it. */
static void emit(struct ictx *ic, const struct frame *f, cJSON *sub)
{
	struct pc__schema_ctx *c = ic->c;
	cJSON *args, *entry;

	if (!sub || ic->added >= ic->max || c->exhausted) {
		cJSON_Delete(sub);
		return;
	}
	args = wrap(f, sub);
	pc_buf_reset(&c->ptr);
	free(c->why);
	c->why = NULL;
	if (!args || pc__schema_check(c, ic->root, args, 0) || !c->why ||
	    c->exhausted || listed(ic->out, args)) {
		cJSON_Delete(args);
		return;
	}
	entry = cJSON_CreateObject();
	if (entry && pc__schema_put(entry, "why", cJSON_CreateString(c->why)) &&
	    pc__schema_put(entry, "args", args) &&
	    cJSON_AddItemToArray(ic->out, entry)) {
		ic->added++;
		return;
	}
	cJSON_Delete(entry);
}

static cJSON *wrong_type(const cJSON *s, const cJSON *v)
{
	unsigned m = pc__schema_type_mask(s);
	char *text;
	cJSON *r;

	if (!m)
		return NULL;
	if (!(m & PC__T_STRING)) { /* the model quoted the value */
		text = v ? pc_serde_to_string(v) : pc_xstrdup("text");
		r = cJSON_CreateString(text);
		free(text);
		return r;
	}
	if (!(m & (PC__T_NUMBER | PC__T_INTEGER)))
		return cJSON_CreateNumber(42);
	if (!(m & PC__T_BOOLEAN))
		return cJSON_CreateTrue();
	if (!(m & PC__T_ARRAY))
		return cJSON_CreateArray();
	if (!(m & PC__T_OBJECT))
		return cJSON_CreateObject();
	return (m & PC__T_NULL) ? NULL : cJSON_CreateNull();
}

static bool in_values(const cJSON *list, const cJSON *v)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, list)
	{
		if (pc__schema_equal(x, v))
			return true;
	}
	return false;
}

/* A value near `first` that `allowed` (an array) does not hold: the
 * upper-cased string, "other", the largest number + 1, the other bool. */
static cJSON *outside(const cJSON *first, const cJSON *allowed)
{
	cJSON *cand[2] = { NULL, NULL };
	char *up;

	if (cJSON_IsString(first)) {
		up = pc_xstrdup(first->valuestring);
		for (char *q = up; *q; q++)
			*q = (char)toupper((unsigned char)*q);
		cand[0] = cJSON_CreateString(up);
		cand[1] = cJSON_CreateString("other");
		free(up);
	} else if (cJSON_IsNumber(first)) {
		double m = first->valuedouble;
		const cJSON *x;

		cJSON_ArrayForEach(x, allowed)
		{
			if (cJSON_IsNumber(x) && x->valuedouble > m)
				m = x->valuedouble;
		}
		cand[0] = cJSON_CreateNumber(floor(m) + 1);
	} else if (cJSON_IsBool(first)) {
		cand[0] = cJSON_CreateBool(cJSON_IsFalse(first));
	}
	for (int i = 0; i < 2; i++) {
		if (cand[i] && !in_values(allowed, cand[i])) {
			cJSON_Delete(cand[1 - i]);
			return cand[i];
		}
		cJSON_Delete(cand[i]);
		cand[i] = NULL;
	}
	return NULL;
}

static void enum_mutants(struct ictx *ic, const cJSON *s, const struct frame *f)
{
	const cJSON *en = pc_serde_get(s, "enum"),
		    *k = pc_serde_get(s, "const");
	cJSON *one;

	if (cJSON_IsArray(en) && en->child)
		emit(ic, f, outside(en->child, en));
	if (!k)
		return;
	one = cJSON_CreateArray();
	if (one && cJSON_AddItemReferenceToArray(one, (cJSON *)k))
		emit(ic, f, outside(k, one));
	cJSON_Delete(one);
}

static void number_mutants(struct ictx *ic, const cJSON *s, const cJSON *v,
			   const struct frame *f)
{
	unsigned m = pc__schema_type_mask(s);
	bool integer = (m & PC__T_INTEGER) && !(m & PC__T_NUMBER);
	double b, base = cJSON_IsNumber(v) ? v->valuedouble : 0;

	if (m ? !(m & (PC__T_INTEGER | PC__T_NUMBER)) : !cJSON_IsNumber(v))
		return;
	if (pc__schema_num(s, "minimum", &b))
		emit(ic, f, cJSON_CreateNumber(integer ? ceil(b) - 1 : b - 1));
	if (pc__schema_num(s, "exclusiveMinimum", &b))
		emit(ic, f, cJSON_CreateNumber(integer ? floor(b) : b));
	if (pc__schema_num(s, "maximum", &b))
		emit(ic, f, cJSON_CreateNumber(integer ? floor(b) + 1 : b + 1));
	if (pc__schema_num(s, "exclusiveMaximum", &b))
		emit(ic, f, cJSON_CreateNumber(integer ? ceil(b) : b));
	if (pc__schema_num(s, "multipleOf", &b) && b > 0 &&
	    !(integer && b == 1))
		emit(ic, f, cJSON_CreateNumber(base + (integer ? 1 : b / 2)));
	if (integer)
		emit(ic, f, cJSON_CreateNumber(base + 0.5));
}

static cJSON *repeated(char ch, double n)
{
	size_t len = (size_t)n;
	char *str = pc_xmalloc(len + 1);
	cJSON *r;

	memset(str, ch, len);
	str[len] = '\0';
	r = cJSON_CreateString(str);
	free(str);
	return r;
}

/* A string of the allowed length that misses the pattern: "!!", "  ",
 * "00", "aa", then "" and a phrase. */
static void pattern_mutant(struct ictx *ic, const cJSON *s,
			   const struct frame *f)
{
	const cJSON *p = pc_serde_get(s, "pattern");
	double n = 1;
	cJSON *cand;

	if (!cJSON_IsString(p))
		return;
	if (!pc__schema_count(s, "minLength", &n) || n < 1 ||
	    n > PC__SCHEMA_MAX_BUILD)
		n = 1;
	for (size_t i = 0; i < 6; i++) {
		cand = i < 4	? repeated("! 0a"[i], n)
		       : i == 4 ? cJSON_CreateString("")
				: cJSON_CreateString("not matching!");
		if (cand && !pc__schema_re_match(ic->c, p->valuestring,
						 cand->valuestring)) {
			emit(ic, f, cand);
			return;
		}
		cJSON_Delete(cand);
	}
}

static void string_mutants(struct ictx *ic, const cJSON *s, const cJSON *v,
			   const struct frame *f)
{
	unsigned m = pc__schema_type_mask(s);
	double b;

	if (m ? !(m & PC__T_STRING) : !cJSON_IsString(v))
		return;
	if (pc__schema_count(s, "minLength", &b) && b > 0 &&
	    b <= PC__SCHEMA_MAX_BUILD)
		emit(ic, f, repeated('a', b - 1));
	if (pc__schema_count(s, "maxLength", &b) && b < PC__SCHEMA_MAX_BUILD)
		emit(ic, f, repeated('a', b + 1));
	pattern_mutant(ic, s, f);
}

static void mutate(struct ictx *ic, const cJSON *schema, const cJSON *v,
		   const struct frame *f, int depth);

static const char *unused_key(const cJSON *s, const cJSON *o, char *buf,
			      size_t size)
{
	const cJSON *props = pc_serde_get(s, "properties");

	(void)snprintf(buf, size, "extra");
	for (int i = 2; pc_serde_get(props, buf) || pc_serde_get(o, buf); i++)
		(void)snprintf(buf, size, "extra%d", i);
	return buf;
}

static void object_mutants(struct ictx *ic, const cJSON *s, const cJSON *o,
			   const struct frame *f, int depth)
{
	const cJSON *x, *sub;
	cJSON *copy;
	char key[32];

	cJSON_ArrayForEach(x, pc_serde_get(s, "required"))
	{
		if (!cJSON_IsString(x) || !pc_serde_get(o, x->valuestring))
			continue;
		copy = cJSON_Duplicate(o, 1);
		cJSON_DeleteItemFromObjectCaseSensitive(copy, x->valuestring);
		emit(ic, f, copy);
	}
	if (o->child)
		emit(ic, f, cJSON_CreateObject());
	if (pc__schema_is_false(pc_serde_get(s, "additionalProperties"))) {
		copy = cJSON_Duplicate(o, 1);
		if (copy)
			(void)pc__schema_put(copy,
					     unused_key(s, o, key, sizeof(key)),
					     cJSON_CreateString("value"));
		emit(ic, f, copy);
	}
	cJSON_ArrayForEach(x, pc_serde_get(s, "properties"))
	{
		struct frame in = { .up = f, .container = o, .key = x->string };

		sub = pc_serde_get(o, x->string);
		if (sub)
			mutate(ic, x, sub, &in, depth + 1);
	}
}

static void array_mutants(struct ictx *ic, const cJSON *s, const cJSON *a,
			  const struct frame *f, int depth)
{
	const cJSON *items = pc_serde_get(s, "items");
	const cJSON *prefix = pc_serde_get(s, "prefixItems");
	struct frame in = { .up = f, .container = a, .index = 0 };
	int n = cJSON_GetArraySize(a);
	cJSON *copy;
	double b;

	if (pc__schema_count(s, "minItems", &b) && b > 0 && b <= n) {
		copy = cJSON_Duplicate(a, 1);
		while (copy && cJSON_GetArraySize(copy) >= (int)b)
			cJSON_DeleteItemFromArray(copy, 0);
		emit(ic, f, copy);
	}
	if (pc__schema_count(s, "maxItems", &b) && n > 0 &&
	    b < PC__SCHEMA_MAX_BUILD) {
		copy = cJSON_Duplicate(a, 1);
		while (copy && cJSON_GetArraySize(copy) <= (int)b)
			cJSON_AddItemToArray(copy,
					     cJSON_Duplicate(a->child, 1));
		emit(ic, f, copy);
	}
	if (cJSON_IsTrue(pc_serde_get(s, "uniqueItems")) && n > 0) {
		copy = cJSON_Duplicate(a, 1);
		if (copy)
			cJSON_AddItemToArray(copy,
					     cJSON_Duplicate(a->child, 1));
		emit(ic, f, copy);
	}
	if (cJSON_IsArray(items))
		prefix = items;
	if (cJSON_IsArray(prefix) && prefix->child)
		items = prefix->child;
	if (a->child && items)
		mutate(ic, items, a->child, &in, depth + 1);
}

/* `schema` with $ref, allOf and the oneOf / anyOf branch that `v`
 * takes folded in, so that its keywords are all in one place. */
static const cJSON *effective(struct pc__schema_ctx *c, const cJSON *schema,
			      const cJSON *v, int depth)
{
	static const char *const kws[] = { "oneOf", "anyOf" };
	const cJSON *s = pc__schema_flatten(c, schema, depth), *b, *view;
	bool again = true;

	for (int d = depth; s && again && d <= PC__SCHEMA_MAX_DEPTH; d++) {
		again = false;
		for (size_t k = 0; k < 2 && !again; k++) {
			const cJSON *list = pc_serde_get(s, kws[k]);

			if (!cJSON_IsArray(list))
				list = NULL;
			cJSON_ArrayForEach(b, list)
			{
				view = pc__schema_merge(c, s, kws[k], b);
				if (view && pc__schema_accepts(c, view, v)) {
					s = pc__schema_flatten(c, view, d);
					again = true;
					break;
				}
			}
		}
	}
	return s;
}

static void mutate(struct ictx *ic, const cJSON *schema, const cJSON *v,
		   const struct frame *f, int depth)
{
	const cJSON *s;

	if (depth > PC__SCHEMA_MAX_DEPTH || ic->added >= ic->max ||
	    !pc__schema_step(ic->c))
		return;
	s = effective(ic->c, schema, v, depth);
	if (!cJSON_IsObject(s))
		return;
	if (f) {
		emit(ic, f, wrong_type(s, v));
		enum_mutants(ic, s, f);
		number_mutants(ic, s, v, f);
		string_mutants(ic, s, v, f);
	}
	if (cJSON_IsObject(v))
		object_mutants(ic, s, v, f, depth);
	if (cJSON_IsArray(v))
		array_mutants(ic, s, v, f, depth);
}

size_t pc_schema_invalid_args(const cJSON *schema, cJSON *out, size_t max)
{
	struct pc__schema_ctx c;
	struct ictx ic = { .c = &c, .root = schema, .out = out, .max = max };
	cJSON *base;

	if (!cJSON_IsArray(out) || !max)
		return 0;
	pc__schema_ctx_init(&c, schema);
	base = pc__schema_gen(&c, schema, true, 0);
	if (!base && !c.exhausted)
		base = pc__schema_gen(&c, schema, false, 0);
	/* the mutants get a budget of their own */
	c.steps = 0;
	c.exhausted = false;
	if (base)
		mutate(&ic, schema, base, NULL, 0);
	else
		emit(&ic, NULL, cJSON_CreateObject());
	cJSON_Delete(base);
	pc__schema_ctx_release(&c);
	return ic.added;
}

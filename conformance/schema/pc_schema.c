/* pc_schema.c - the evaluation context, JSON pointers, types, values,
 * local $ref resolution and merged schema views shared by the module. */
#include "pc_schema.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_schema_impl.h"
#include "pc_serde.h"

/* Messages quote values up to this many bytes. */
#define RENDER_MAX 60
/* Values compared deeper than this are treated as different. */
#define EQUAL_MAX_DEPTH 160

void pc__schema_ctx_init(struct pc__schema_ctx *c, const cJSON *root)
{
	*c = (struct pc__schema_ctx){ .root = root };
	pc_buf_init(&c->ptr, PC_BUF_NOCAP);
}

void pc__schema_ctx_release(struct pc__schema_ctx *c)
{
	pc_buf_release(&c->ptr);
	free(c->why);
	pc__schema_re_free(c->re);
	cJSON_Delete(c->keep);
	*c = (struct pc__schema_ctx){ 0 };
}

bool pc__schema_step(struct pc__schema_ctx *c)
{
	if (c->steps >= PC__SCHEMA_MAX_STEPS) {
		c->exhausted = true;
		return false;
	}
	c->steps++;
	return true;
}

size_t pc__schema_ptr_push(struct pc_buf *b, const char *token)
{
	size_t len = b->len;

	(void)pc_buf_addch(b, '/');
	for (const char *p = token; *p; p++) {
		if (*p == '~')
			(void)pc_buf_adds(b, "~0");
		else if (*p == '/')
			(void)pc_buf_adds(b, "~1");
		else
			(void)pc_buf_addch(b, *p);
	}
	return len;
}

size_t pc__schema_ptr_push_index(struct pc_buf *b, size_t i)
{
	size_t len = b->len;

	(void)pc_buf_addf(b, "/%zu", i);
	return len;
}

void pc__schema_ptr_pop(struct pc_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->data[len] = '\0';
	}
}

const char *pc__schema_ptr_str(const struct pc_buf *b)
{
	return b->len ? b->data : "(root)";
}

static const struct {
	const char *name;
	unsigned bit;
} type_table[] = {
	/* the order in which type sets are named */
	{ "object", PC__T_OBJECT }, { "array", PC__T_ARRAY },
	{ "string", PC__T_STRING }, { "integer", PC__T_INTEGER },
	{ "number", PC__T_NUMBER }, { "boolean", PC__T_BOOLEAN },
	{ "null", PC__T_NULL },
};

#define NTYPES (sizeof(type_table) / sizeof(type_table[0]))

unsigned pc__schema_type_bit(const char *name)
{
	for (size_t i = 0; name && i < NTYPES; i++)
		if (!strcmp(type_table[i].name, name))
			return type_table[i].bit;
	return 0;
}

const char *pc__schema_type_name(unsigned bit)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (type_table[i].bit == bit)
			return type_table[i].name;
	return "unknown";
}

static unsigned mask_of(const cJSON *t)
{
	unsigned m = 0;
	const cJSON *e;

	if (cJSON_IsString(t))
		return pc__schema_type_bit(t->valuestring);
	if (!cJSON_IsArray(t))
		return 0;
	cJSON_ArrayForEach(e, t)
	{
		if (cJSON_IsString(e))
			m |= pc__schema_type_bit(e->valuestring);
	}
	return m;
}

unsigned pc__schema_type_mask(const cJSON *schema)
{
	return mask_of(pc_serde_get(schema, "type"));
}

bool pc__schema_is_integral(double d)
{
	return isfinite(d) && floor(d) == d;
}

unsigned pc__schema_value_type(const cJSON *v)
{
	if (cJSON_IsNull(v))
		return PC__T_NULL;
	if (cJSON_IsBool(v))
		return PC__T_BOOLEAN;
	if (cJSON_IsNumber(v))
		return pc__schema_is_integral(v->valuedouble) ? PC__T_INTEGER
							      : PC__T_NUMBER;
	if (cJSON_IsString(v))
		return PC__T_STRING;
	if (cJSON_IsArray(v))
		return PC__T_ARRAY;
	if (cJSON_IsObject(v))
		return PC__T_OBJECT;
	return 0;
}

bool pc__schema_type_allows(unsigned mask, const cJSON *v)
{
	unsigned t = pc__schema_value_type(v);

	if (!mask)
		return true;
	if (t == PC__T_INTEGER)
		return mask & (PC__T_INTEGER | PC__T_NUMBER);
	return mask & t;
}

void pc__schema_type_names(unsigned mask, struct pc_buf *out)
{
	size_t n = 0, total = 0;

	for (size_t i = 0; i < NTYPES; i++)
		total += (mask & type_table[i].bit) != 0;
	for (size_t i = 0; i < NTYPES; i++) {
		if (!(mask & type_table[i].bit))
			continue;
		if (n)
			(void)pc_buf_adds(out, n + 1 == total ? " or " : ", ");
		(void)pc_buf_adds(out, type_table[i].name);
		n++;
	}
}

static bool equal_members(const cJSON *a, const cJSON *b, int depth);

static bool equal_at(const cJSON *a, const cJSON *b, int depth)
{
	int ta = a->type & 0xFF, tb = b->type & 0xFF;

	if (depth > EQUAL_MAX_DEPTH || ta != tb)
		return false;
	switch (ta) {
	case cJSON_Number:
		return a->valuedouble == b->valuedouble;
	case cJSON_String:
	case cJSON_Raw:
		return a->valuestring && b->valuestring &&
		       !strcmp(a->valuestring, b->valuestring);
	case cJSON_Array:
	case cJSON_Object:
		return equal_members(a, b, depth);
	default:
		return true;
	}
}

static bool equal_members(const cJSON *a, const cJSON *b, int depth)
{
	const cJSON *x = a->child, *y = b->child;

	if (cJSON_IsArray(a)) {
		for (; x && y; x = x->next, y = y->next)
			if (!equal_at(x, y, depth + 1))
				return false;
		return !x && !y;
	}
	for (; x && y; x = x->next, y = y->next)
		;
	if (x || y)
		return false;
	for (x = a->child; x; x = x->next) {
		y = pc_serde_get(b, x->string);
		if (!y || !equal_at(x, y, depth + 1))
			return false;
	}
	return true;
}

bool pc__schema_equal(const cJSON *a, const cJSON *b)
{
	return a && b && equal_at(a, b, 0);
}

char *pc__schema_render(const cJSON *v)
{
	char *s = pc_serde_to_string(v);
	size_t n = strlen(s);

	if (n <= RENDER_MAX)
		return s;
	n = RENDER_MAX;
	while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(s + n, "...", 4);
	return s;
}

size_t pc__schema_strlen(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

bool pc__schema_num(const cJSON *schema, const char *kw, double *out)
{
	const cJSON *n = pc_serde_get(schema, kw);

	if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble))
		return false;
	*out = n->valuedouble;
	return true;
}

bool pc__schema_count(const cJSON *schema, const char *kw, double *out)
{
	return pc__schema_num(schema, kw, out) && *out >= 0 &&
	       pc__schema_is_integral(*out);
}

bool pc__schema_is_false(const cJSON *schema)
{
	return cJSON_IsFalse(schema);
}

bool pc__schema_put(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		return false;
	if (!cJSON_AddItemToObject(obj, key, item)) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

/* Does the pointer token `tok` (RFC 6901 escapes) name `key`? */
static bool token_is(const char *tok, const char *key)
{
	for (; *tok; tok++, key++) {
		char ch = *tok;

		if (ch == '~' && (tok[1] == '0' || tok[1] == '1'))
			ch = *++tok == '0' ? '~' : '/';
		if (*key != ch)
			return false;
	}
	return *key == '\0';
}

int pc__schema_ref(const struct pc__schema_ctx *c, const cJSON *schema,
		   const cJSON **target)
{
	const cJSON *r = pc_serde_get(schema, "$ref"), *defs, *e;
	const char *name;

	if (!r)
		return 0;
	if (!cJSON_IsString(r))
		return -1;
	if (!strncmp(r->valuestring, "#/$defs/", 8)) {
		defs = pc_serde_get(c->root, "$defs");
		name = r->valuestring + 8;
	} else if (!strncmp(r->valuestring, "#/definitions/", 14)) {
		defs = pc_serde_get(c->root, "definitions");
		name = r->valuestring + 14;
	} else {
		return -1;
	}
	if (strchr(name, '/'))
		return -1;
	if (!cJSON_IsObject(defs))
		return -2;
	cJSON_ArrayForEach(e, defs)
	{
		if (token_is(name, e->string)) {
			*target = e;
			return 1;
		}
	}
	return -2;
}

static const char *const lower_kws[] = { "minimum", "exclusiveMinimum",
					 "minLength", "minItems",
					 "minProperties" };
static const char *const upper_kws[] = { "maximum", "exclusiveMaximum",
					 "maxLength", "maxItems",
					 "maxProperties" };
/* Annotations and containers whose first value a view keeps. */
static const char *const note_kws[] = {
	"description", "title",	  "default", "examples", "format",
	"$comment",    "$schema", "$id",     "$defs",	 "definitions",
};

#define IN(list, k) in_list(list, sizeof(list) / sizeof(list[0]), k)

static bool in_list(const char *const *list, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], k))
			return true;
	return false;
}

/* A reference shares the item's contents and never frees them. */
static bool add_ref(cJSON *obj, const char *key, const cJSON *item)
{
	return cJSON_AddItemReferenceToObject(obj, key, (cJSON *)item);
}

static bool add_ref_item(cJSON *arr, const cJSON *item)
{
	return cJSON_AddItemReferenceToArray(arr, (cJSON *)item);
}

static cJSON *all_of(const cJSON *x, const cJSON *y)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

	if (!pc__schema_put(o, "allOf", a) || !add_ref_item(a, x) ||
	    !add_ref_item(a, y)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *merge_props(const cJSON *e, const cJSON *s)
{
	cJSON *m = cJSON_CreateObject();
	const cJSON *x, *y;
	bool ok = cJSON_IsObject(e) && cJSON_IsObject(s);

	for (x = ok ? e->child : NULL; x && ok; x = x->next) {
		y = pc_serde_get(s, x->string);
		if (y && !pc__schema_equal(x, y))
			ok = pc__schema_put(m, x->string, all_of(x, y));
		else
			ok = add_ref(m, x->string, x);
	}
	for (x = ok ? s->child : NULL; x && ok; x = x->next)
		if (!pc_serde_get(e, x->string))
			ok = add_ref(m, x->string, x);
	if (!ok) {
		cJSON_Delete(m);
		return NULL;
	}
	return m;
}

static bool has_string(const cJSON *arr, const char *s)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, arr)
	{
		if (cJSON_IsString(x) && !strcmp(x->valuestring, s))
			return true;
	}
	return false;
}

static cJSON *merge_required(const cJSON *e, const cJSON *s)
{
	cJSON *m = cJSON_CreateArray();
	const cJSON *x;
	bool ok = cJSON_IsArray(e) && cJSON_IsArray(s);

	for (x = ok ? e->child : NULL; x && ok; x = x->next)
		ok = add_ref_item(m, x);
	for (x = ok ? s->child : NULL; x && ok; x = x->next)
		if (!cJSON_IsString(x) || !has_string(e, x->valuestring))
			ok = add_ref_item(m, x);
	if (!ok) {
		cJSON_Delete(m);
		return NULL;
	}
	return m;
}

/* The type names of `e` still in `r`, in `e`'s order, then integer. */
static cJSON *type_node(const cJSON *e, unsigned r)
{
	cJSON *m = cJSON_CreateArray(), *one;
	const cJSON *x = cJSON_IsString(e) ? e : e->child;
	unsigned done = 0, bit;

	for (; x; x = cJSON_IsString(e) ? NULL : x->next) {
		bit = cJSON_IsString(x) ? pc__schema_type_bit(x->valuestring)
					: 0;
		if ((bit & r) && !(bit & done))
			cJSON_AddItemToArray(
				m, cJSON_CreateString(x->valuestring));
		done |= bit & r;
	}
	if ((r & PC__T_INTEGER) && !(done & PC__T_INTEGER))
		cJSON_AddItemToArray(m, cJSON_CreateString("integer"));
	if (cJSON_GetArraySize(m) == 1) {
		one = cJSON_DetachItemFromArray(m, 0);
		cJSON_Delete(m);
		return one;
	}
	return m;
}

static cJSON *merge_type(const cJSON *e, const cJSON *s)
{
	unsigned me = mask_of(e), ms = mask_of(s), r;

	if (!ms)
		return cJSON_Duplicate(e, 1);
	if (!me)
		return cJSON_Duplicate(s, 1);
	r = me & ms;
	if ((me & PC__T_NUMBER) && (ms & PC__T_INTEGER))
		r |= PC__T_INTEGER;
	if ((ms & PC__T_NUMBER) && (me & PC__T_INTEGER))
		r |= PC__T_INTEGER;
	return r ? type_node(e, r) : NULL;
}

/* Keep `e` alive (views may reference its contents) but out of `view`. */
static void retire(struct pc__schema_ctx *c, cJSON *view, cJSON *e)
{
	cJSON_AddItemToArray(c->keep, cJSON_DetachItemViaPointer(view, e));
}

static bool stricter(const char *key, const cJSON *e, const cJSON *s)
{
	if (!cJSON_IsNumber(e) || !cJSON_IsNumber(s))
		return false;
	if (IN(lower_kws, key))
		return s->valuedouble > e->valuedouble;
	return s->valuedouble < e->valuedouble;
}

static bool merge_member(struct pc__schema_ctx *c, cJSON *view, const char *key,
			 const cJSON *s)
{
	cJSON *e = cJSON_GetObjectItemCaseSensitive(view, key), *n;

	if (!e)
		return add_ref(view, key, s);
	if (pc__schema_equal(e, s) || IN(note_kws, key))
		return true;
	if (!strcmp(key, "properties"))
		n = merge_props(e, s);
	else if (!strcmp(key, "required"))
		n = merge_required(e, s);
	else if (!strcmp(key, "type"))
		n = merge_type(e, s);
	else if (IN(lower_kws, key) || IN(upper_kws, key))
		n = stricter(key, e, s) ? cJSON_Duplicate(s, 1) : NULL;
	else
		return false;
	if (!n)
		return IN(lower_kws, key) || IN(upper_kws, key);
	retire(c, view, e);
	return pc__schema_put(view, key, n);
}

static cJSON *view_new(struct pc__schema_ctx *c)
{
	cJSON *v;

	if (!c->keep)
		c->keep = cJSON_CreateArray();
	if (c->nviews >= PC__SCHEMA_MAX_VIEWS || !c->keep) {
		c->exhausted = true;
		return NULL;
	}
	v = cJSON_CreateObject();
	if (v)
		cJSON_AddItemToArray(c->keep, v);
	c->nviews++;
	return v;
}

static bool view_add(struct pc__schema_ctx *c, cJSON *view, const cJSON *b,
		     const char *skip)
{
	const cJSON *x, *members = cJSON_IsObject(b) ? b : NULL;

	if (pc__schema_is_false(b))
		return false;
	cJSON_ArrayForEach(x, members)
	{
		if ((!skip || strcmp(x->string, skip)) &&
		    !merge_member(c, view, x->string, x))
			return false;
	}
	return true;
}

const cJSON *pc__schema_merge(struct pc__schema_ctx *c, const cJSON *a,
			      const char *skip, const cJSON *b)
{
	cJSON *v = view_new(c);

	if (!v || !view_add(c, v, a, skip) || !view_add(c, v, b, NULL))
		return NULL;
	return v;
}

static const cJSON *merge_all(struct pc__schema_ctx *c, const cJSON *s,
			      const cJSON *all)
{
	cJSON *v = view_new(c);
	const cJSON *b;

	if (!v || !view_add(c, v, s, "allOf"))
		return NULL;
	cJSON_ArrayForEach(b, all)
	{
		if (!view_add(c, v, b, NULL))
			return NULL;
	}
	return v;
}

const cJSON *pc__schema_flatten(struct pc__schema_ctx *c, const cJSON *schema,
				int depth)
{
	const cJSON *cur = schema, *target = NULL, *all;

	for (int d = depth; d <= PC__SCHEMA_MAX_DEPTH; d++) {
		if (!pc__schema_step(c))
			return NULL;
		all = pc_serde_get(cur, "allOf");
		if (pc__schema_ref(c, cur, &target) == 1)
			cur = pc__schema_merge(c, cur, "$ref", target);
		else if (cJSON_IsArray(all))
			cur = merge_all(c, cur, all);
		else
			return cur;
		if (!cur)
			return NULL;
	}
	return NULL;
}

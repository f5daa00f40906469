/* pc_schema_problems.c - what makes a tool's `parameters` an invalid or
 * unusable JSON Schema. Each message is "<pointer>: <text>", the pointer
 * naming the offending keyword inside the schema document. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pc_schema.h"
#include "pc_schema_impl.h"
#include "pc_serde.h"

#define MAX_PROBLEMS 200

struct pctx {
	struct pc__schema_ctx *c;
	struct pc_strvec *out;
	size_t added;
	struct pc_buf ptr; /* pointer of the schema node being checked */
};

enum kind {
	K_STRING,
	K_COUNT,
	K_NUMBER,
	K_POSITIVE,
	K_BOOL,
	K_SCHEMA,
	K_SCHEMAS,
	K_SCHEMA_MAP,
	K_PATTERN_MAP,
	K_ITEMS,
	K_TYPE,
	K_REQUIRED,
	K_ENUM,
	K_PATTERN,
	K_REF,
};

static const struct {
	const char *kw;
	enum kind kind;
} keywords[] = {
	{ "$ref", K_REF },
	{ "type", K_TYPE },
	{ "properties", K_SCHEMA_MAP },
	{ "required", K_REQUIRED },
	{ "additionalProperties", K_SCHEMA },
	{ "patternProperties", K_PATTERN_MAP },
	{ "minProperties", K_COUNT },
	{ "maxProperties", K_COUNT },
	{ "items", K_ITEMS },
	{ "prefixItems", K_SCHEMAS },
	{ "minItems", K_COUNT },
	{ "maxItems", K_COUNT },
	{ "uniqueItems", K_BOOL },
	{ "enum", K_ENUM },
	{ "minimum", K_NUMBER },
	{ "maximum", K_NUMBER },
	{ "exclusiveMinimum", K_NUMBER },
	{ "exclusiveMaximum", K_NUMBER },
	{ "multipleOf", K_POSITIVE },
	{ "minLength", K_COUNT },
	{ "maxLength", K_COUNT },
	{ "pattern", K_PATTERN },
	{ "allOf", K_SCHEMAS },
	{ "anyOf", K_SCHEMAS },
	{ "oneOf", K_SCHEMAS },
	{ "not", K_SCHEMA },
	{ "$defs", K_SCHEMA_MAP },
	{ "definitions", K_SCHEMA_MAP },
	{ "description", K_STRING },
	{ "title", K_STRING },
	{ "format", K_STRING },
};

static void problem(struct pctx *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append "<where>: <a><b>", up to MAX_PROBLEMS and one last notice. */
static void emit(struct pctx *p, const char *where, const char *a,
		 const char *b)
{
	if (p->added > MAX_PROBLEMS)
		return;
	if (p->added++ == MAX_PROBLEMS)
		pc_strvec_pushf(p->out,
				"(root): too many problems, stopping after %d",
				MAX_PROBLEMS);
	else
		pc_strvec_pushf(p->out, "%s: %s%s", where, a, b);
}

static void problem(struct pctx *p, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	(void)pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	emit(p, pc__schema_ptr_str(&p->ptr), pc_buf_cstr(&b), "");
	pc_buf_release(&b);
}

static void check_node(struct pctx *p, const cJSON *s, int depth);

/* check_node() on member `key` (or element `i` when key is NULL). */
static void check_sub(struct pctx *p, const char *key, size_t i, const cJSON *s,
		      int depth)
{
	size_t mark = key ? pc__schema_ptr_push(&p->ptr, key)
			  : pc__schema_ptr_push_index(&p->ptr, i);

	check_node(p, s, depth + 1);
	pc__schema_ptr_pop(&p->ptr, mark);
}

static void check_schemas(struct pctx *p, const char *kw, const cJSON *v,
			  int depth)
{
	size_t i = 0;
	const cJSON *x;

	if (!cJSON_IsArray(v) || !v->child) {
		problem(p, "'%s' must be a non-empty array of schemas", kw);
		return;
	}
	cJSON_ArrayForEach(x, v)
	{
		check_sub(p, NULL, i++, x, depth);
	}
}

static void check_type(struct pctx *p, const cJSON *v)
{
	unsigned seen = 0, bit;
	size_t i = 0, mark;
	const cJSON *x;

	if (cJSON_IsString(v) && !pc__schema_type_bit(v->valuestring))
		problem(p, "unknown type '%s'", v->valuestring);
	if (cJSON_IsString(v))
		return;
	if (!cJSON_IsArray(v) || !v->child) {
		problem(p,
			"'type' must be a string or a non-empty array of strings");
		return;
	}
	for (x = v->child; x; x = x->next, i++) {
		mark = pc__schema_ptr_push_index(&p->ptr, i);
		bit = cJSON_IsString(x) ? pc__schema_type_bit(x->valuestring)
					: 0;
		if (!cJSON_IsString(x))
			problem(p, "type names must be strings");
		else if (!bit)
			problem(p, "unknown type '%s'", x->valuestring);
		else if (seen & bit)
			problem(p, "duplicate type '%s'", x->valuestring);
		seen |= bit;
		pc__schema_ptr_pop(&p->ptr, mark);
	}
}

static bool strings_only(const cJSON *v)
{
	const cJSON *x;

	if (!cJSON_IsArray(v))
		return false;
	cJSON_ArrayForEach(x, v)
	{
		if (!cJSON_IsString(x))
			return false;
	}
	return true;
}

static void check_required(struct pctx *p, const cJSON *s, const cJSON *v)
{
	const cJSON *props = pc_serde_get(s, "properties"), *x, *y;
	bool known = cJSON_IsObject(props) ||
		     (pc__schema_type_mask(s) & PC__T_OBJECT);
	size_t i = 0, mark;

	if (!strings_only(v)) {
		problem(p, "'required' must be an array of strings");
		return;
	}
	for (x = v->child; x; x = x->next, i++) {
		mark = pc__schema_ptr_push_index(&p->ptr, i);
		for (y = v->child; y != x; y = y->next)
			if (!strcmp(x->valuestring, y->valuestring))
				break;
		if (y != x)
			problem(p, "duplicate required property '%s'",
				x->valuestring);
		else if (known && !pc_serde_get(props, x->valuestring))
			problem(p,
				"required property '%s' is not in 'properties'",
				x->valuestring);
		pc__schema_ptr_pop(&p->ptr, mark);
	}
}

static void check_enum(struct pctx *p, const cJSON *s, const cJSON *v)
{
	unsigned mask = pc__schema_type_mask(s);
	struct pc_buf names = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t i = 0, mark;
	const cJSON *x;
	char *r;

	if (!cJSON_IsArray(v) || !v->child) {
		problem(p, cJSON_IsArray(v) ? "'enum' must not be empty"
					    : "'enum' must be an array");
		return;
	}
	pc__schema_type_names(mask, &names);
	for (x = v->child; x; x = x->next, i++) {
		if (pc__schema_type_allows(mask, x))
			continue;
		mark = pc__schema_ptr_push_index(&p->ptr, i);
		r = pc__schema_render(x);
		problem(p, "enum value %s is not of type %s", r,
			pc_buf_cstr(&names));
		free(r);
		pc__schema_ptr_pop(&p->ptr, mark);
	}
	pc_buf_release(&names);
}

static void check_pattern(struct pctx *p, const char *pattern)
{
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!pattern)
		problem(p, "'pattern' must be a string");
	else if (pc__schema_re_check(pattern, &msg))
		problem(p, "invalid regex: %s", pc_buf_cstr(&msg));
	pc_buf_release(&msg);
}

static void check_ref(struct pctx *p, const cJSON *s, const cJSON *v)
{
	const cJSON *t = NULL;
	int rc = pc__schema_ref(p->c, s, &t), hops = 0;

	if (!cJSON_IsString(v)) {
		problem(p, "'$ref' must be a string");
		return;
	}
	if (rc == -1)
		problem(p,
			"unsupported $ref '%s' (only '#/$defs/NAME' and '#/definitions/NAME')",
			v->valuestring);
	else if (rc == -2)
		problem(p, "unresolved $ref '%s'", v->valuestring);
	while (rc == 1 && hops++ <= PC__SCHEMA_MAX_DEPTH)
		rc = pc__schema_ref(p->c, t, &t);
	if (rc == 1)
		problem(p, "$ref '%s' is a cycle of references",
			v->valuestring);
}

static bool is_schema(const cJSON *v)
{
	return cJSON_IsObject(v) || cJSON_IsBool(v);
}

static void check_members(struct pctx *p, const char *kw, const cJSON *v,
			  bool keys_are_patterns, int depth)
{
	const cJSON *x;
	size_t mark;

	if (!cJSON_IsObject(v)) {
		problem(p, "'%s' must be an object", kw);
		return;
	}
	cJSON_ArrayForEach(x, v)
	{
		if (keys_are_patterns) {
			mark = pc__schema_ptr_push(&p->ptr, x->string);
			check_pattern(p, x->string);
			pc__schema_ptr_pop(&p->ptr, mark);
		}
		check_sub(p, x->string, 0, x, depth);
	}
}

static void check_items(struct pctx *p, const cJSON *v, int depth)
{
	size_t i = 0;
	const cJSON *x;

	if (is_schema(v)) {
		check_node(p, v, depth + 1);
		return;
	}
	if (!cJSON_IsArray(v)) {
		problem(p, "'items' must be a schema or an array of schemas");
		return;
	}
	cJSON_ArrayForEach(x, v)
	{
		check_sub(p, NULL, i++, x, depth);
	}
}

static const char *const scalar_what[] = {
	[K_STRING] = "a string", [K_COUNT] = "a non-negative integer",
	[K_NUMBER] = "a number", [K_POSITIVE] = "a number greater than 0",
	[K_BOOL] = "a boolean",
};

static bool scalar_ok(const cJSON *s, const char *kw, enum kind kind)
{
	const cJSON *v = pc_serde_get(s, kw);
	double d;

	switch (kind) {
	case K_STRING:
		return cJSON_IsString(v);
	case K_COUNT:
		return pc__schema_count(s, kw, &d);
	case K_NUMBER:
		return pc__schema_num(s, kw, &d);
	case K_POSITIVE:
		return pc__schema_num(s, kw, &d) && d > 0;
	default:
		return cJSON_IsBool(v);
	}
}

static void check_kind(struct pctx *p, const cJSON *s, const char *kw,
		       enum kind kind, int depth)
{
	const cJSON *v = pc_serde_get(s, kw);

	switch (kind) {
	case K_STRING:
	case K_COUNT:
	case K_NUMBER:
	case K_POSITIVE:
	case K_BOOL:
		if (!scalar_ok(s, kw, kind))
			problem(p, "'%s' must be %s", kw, scalar_what[kind]);
		break;
	case K_SCHEMA:
		if (is_schema(v))
			check_node(p, v, depth + 1);
		else
			problem(p,
				"'%s' must be a schema (an object or a boolean)",
				kw);
		break;
	case K_SCHEMAS:
		check_schemas(p, kw, v, depth);
		break;
	case K_SCHEMA_MAP:
	case K_PATTERN_MAP:
		check_members(p, kw, v, kind == K_PATTERN_MAP, depth);
		break;
	case K_ITEMS:
		check_items(p, v, depth);
		break;
	case K_TYPE:
		check_type(p, v);
		break;
	case K_REQUIRED:
		check_required(p, s, v);
		break;
	case K_ENUM:
		check_enum(p, s, v);
		break;
	case K_PATTERN:
		check_pattern(p, cJSON_IsString(v) ? v->valuestring : NULL);
		break;
	case K_REF:
		check_ref(p, s, v);
		break;
	}
}

static const struct {
	const char *lo, *hi;
	bool strict; /* lo == hi leaves no value */
} pairs[] = {
	{ "minLength", "maxLength", false },
	{ "minItems", "maxItems", false },
	{ "minProperties", "maxProperties", false },
	{ "minimum", "maximum", false },
	{ "minimum", "exclusiveMaximum", true },
	{ "exclusiveMinimum", "maximum", true },
	{ "exclusiveMinimum", "exclusiveMaximum", true },
};

static void check_ranges(struct pctx *p, const cJSON *s)
{
	const cJSON *lo, *hi;
	char *a, *b;
	size_t mark;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		lo = pc_serde_get(s, pairs[i].lo);
		hi = pc_serde_get(s, pairs[i].hi);
		if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
		    (pairs[i].strict ? lo->valuedouble < hi->valuedouble
				     : lo->valuedouble <= hi->valuedouble))
			continue;
		a = pc__schema_render(lo);
		b = pc__schema_render(hi);
		mark = pc__schema_ptr_push(&p->ptr, pairs[i].lo);
		problem(p, "'%s' %s is %s '%s' %s", pairs[i].lo, a,
			pairs[i].strict ? "not less than" : "greater than",
			pairs[i].hi, b);
		pc__schema_ptr_pop(&p->ptr, mark);
		free(a);
		free(b);
	}
}

/* The default must satisfy its own schema: models copy it. */
static void check_default(struct pctx *p, const cJSON *s)
{
	struct pc__schema_ctx *c = p->c;
	const cJSON *d = pc_serde_get(s, "default");

	if (!d || c->exhausted)
		return;
	pc_buf_reset(&c->ptr);
	(void)pc_buf_add(&c->ptr, p->ptr.data, p->ptr.len);
	(void)pc__schema_ptr_push(&c->ptr, "default");
	free(c->why);
	c->why = NULL;
	if (pc__schema_check(c, s, d, 0) || c->exhausted || !c->why)
		return;
	c->why[c->why_text - 2] = '\0';
	emit(p, c->why,
	     "default does not match the schema: ", c->why + c->why_text);
}

static void check_node(struct pctx *p, const cJSON *s, int depth)
{
	if (depth > PC__SCHEMA_MAX_DEPTH) {
		problem(p, PC__SCHEMA_DEPTH_MSG);
		return;
	}
	if (!pc__schema_step(p->c))
		return;
	if (!is_schema(s)) {
		problem(p, "schema must be an object or a boolean");
		return;
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		size_t mark;

		if (!pc_serde_get(s, keywords[i].kw))
			continue;
		mark = pc__schema_ptr_push(&p->ptr, keywords[i].kw);
		check_kind(p, s, keywords[i].kw, keywords[i].kind, depth);
		pc__schema_ptr_pop(&p->ptr, mark);
	}
	check_ranges(p, s);
	check_default(p, s);
}

/* Tool parameters are an object schema: the model is asked for an
 * object of named arguments. */
static void check_root(struct pctx *p, const cJSON *s)
{
	const cJSON *t = pc_serde_get(s, "type");
	size_t mark;

	if (!cJSON_IsObject(s)) {
		problem(p, "schema must be an object");
		return;
	}
	if (!t) {
		problem(p, "top-level 'type' is missing, must be 'object'");
	} else if (!cJSON_IsString(t) || strcmp(t->valuestring, "object")) {
		mark = pc__schema_ptr_push(&p->ptr, "type");
		problem(p, "top-level type must be 'object'");
		pc__schema_ptr_pop(&p->ptr, mark);
	}
}

size_t pc_schema_problems(const cJSON *schema, struct pc_strvec *out)
{
	struct pc__schema_ctx c;
	struct pctx p = { .c = &c, .out = out };

	if (!out)
		return 0;
	pc__schema_ctx_init(&c, schema);
	pc_buf_init(&p.ptr, PC_BUF_NOCAP);
	check_root(&p, schema);
	if (cJSON_IsObject(schema))
		check_node(&p, schema, 0);
	if (c.exhausted)
		emit(&p, "(root)", "schema too complex to evaluate", "");
	pc_buf_release(&p.ptr);
	pc__schema_ctx_release(&c);
	return p.added;
}

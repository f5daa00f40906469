/* pc_cause_json.c - causes in plugin.json's keys, in what model providers
 * refuse, and in a hook's modify (pc_cause.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_cause.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define MAX_NAME  64 /* longest tool name any provider family takes */
#define MAX_DEPTH 64 /* subschemas walked, as pc_schema.h */

/* ---- near keys ---- */

/* `s` lower-cased without '_', '-', ' ', '.', at most 63 bytes. */
static void normalise(const char *s, char *out)
{
	size_t k = 0;

	for (; *s && k < 63; s++) {
		char c = *s;

		if (c == '_' || c == '-' || c == ' ' || c == '.')
			continue;
		out[k++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	out[k] = '\0';
}

/* Optimal string alignment distance: edits plus swaps of neighbours. */
static size_t osa(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[64][64];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* Other names authors give a field (normalised), and the field. */
static const struct {
	const char *alias, *field;
} aliases[] = {
	{ "command", "script" },
	{ "cmd", "script" },
	{ "run", "script" },
	{ "exec", "script" },
	{ "executable", "script" },
	{ "handler", "script" },
	{ "entrypoint", "script" },
	{ "inputschema", "parameters" },
	{ "schema", "parameters" },
	{ "arguments", "parameters" },
	{ "params", "parameters" },
	{ "readonly", "kind" },
	{ "permissions", "capabilities" },
	{ "args", "pass_args" },
	{ "args", "parameters" },
};

/* How near `nk` (normalised key) is to field `f`: 0 the same, 1..2 an
 * edit distance, 3 a prefix; (size_t)-1 not near. */
static size_t nearness(const char *nk, const char *f)
{
	char nf[64];
	size_t d, lk = strlen(nk), lf;

	normalise(f, nf);
	lf = strlen(nf);
	if (!strcmp(nk, nf))
		return 0;
	d = osa(nk, nf);
	if (d <= (lf <= 5 ? 1u : 2u) && lk >= 3)
		return d;
	if (lk >= 4 && lk < lf && !strncmp(nf, nk, lk))
		return 3;
	/* timeout_sec, timeout_seconds, timeoutSeconds */
	if (strstr(nk, "timeout") && strstr(nf, "timeout"))
		return 3;
	return (size_t)-1;
}

const char *pc_cause_near_key(const char *key, const char *const *known,
			      size_t n)
{
	char nk[64];
	const char *best = NULL;
	size_t bd = (size_t)-1;

	if (!*key || strlen(key) >= 63)
		return NULL;
	normalise(key, nk);
	if (!*nk)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = nearness(nk, known[i]);

		if (d < bd) {
			bd = d;
			best = known[i];
		}
	}
	if (best)
		return best;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcmp(nk, aliases[i].alias))
			continue;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(known[k], aliases[i].field))
				return known[k];
	}
	return NULL;
}

/* ---- tool names ---- */

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* The distinct characters of `name` that `ok` refuses, as "'.', ' '". */
static void refused_chars(const char *name, bool (*ok)(char), struct pc_buf *b)
{
	char seen[256] = { 0 };

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (ok((char)*p) || seen[*p])
			continue;
		seen[*p] = 1;
		if (*p < 0x20 || *p >= 0x7f)
			pc_buf_addf(b, "%s\\x%02x", b->len ? ", " : "", *p);
		else
			pc_buf_addf(b, "%s'%c'", b->len ? ", " : "", *p);
	}
}

static bool openai_char(char c)
{
	return alnum(c) || c == '_' || c == '-';
}

static bool gemini_char(char c)
{
	return openai_char(c) || c == '.' || c == ':';
}

char *pc_cause_tool_name(const char *name)
{
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf oa = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf ge = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t len = strlen(name);

	refused_chars(name, openai_char, &oa);
	refused_chars(name, gemini_char, &ge);
	if (len > MAX_NAME)
		pc_buf_addf(
			&out,
			"it is %zu characters long and OpenAI, Anthropic and Gemini take at most 64",
			len);
	if (ge.len)
		pc_buf_addf(
			&out,
			"%sOpenAI, Anthropic and Gemini refuse %s in a tool name",
			out.len ? "; " : "", pc_buf_cstr(&ge));
	else if (oa.len)
		pc_buf_addf(
			&out,
			"%sOpenAI and Anthropic refuse %s in a tool name (they take only letters, digits, '_' and '-'; Gemini takes it)",
			out.len ? "; " : "", pc_buf_cstr(&oa));
	if (*name && !(alnum(*name) && !(*name >= '0' && *name <= '9')) &&
	    *name != '_')
		pc_buf_addf(
			&out,
			"%sGemini refuses a name that does not start with a letter or '_'",
			out.len ? "; " : "");
	pc_buf_release(&oa);
	pc_buf_release(&ge);
	if (!out.len) {
		pc_buf_release(&out);
		return NULL;
	}
	return pc_buf_detach(&out, NULL);
}

/* ---- schemas ---- */

/* A JSON pointer token appended to `ptr` (escaped ~0 ~1). */
static char *ptr_join(const char *ptr, const char *token)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, ptr);
	pc_buf_adds(&b, "/");
	for (const char *p = token; *p; p++) {
		if (*p == '~')
			pc_buf_adds(&b, "~0");
		else if (*p == '/')
			pc_buf_adds(&b, "~1");
		else
			pc_buf_add(&b, p, 1);
	}
	return pc_buf_detach(&b, NULL);
}

static void problem(struct pc_strvec *msgs, struct pc_strvec *ptrs,
		    const char *ptr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct pc_strvec *msgs, struct pc_strvec *ptrs,
		    const char *ptr, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc_strvec_pushf(msgs, "%s: %s", *ptr ? ptr : "(root)", pc_buf_cstr(&b));
	pc_strvec_push(ptrs, ptr);
	pc_buf_release(&b);
}

static bool type_has(const cJSON *s, const char *name)
{
	const cJSON *t = pc_serde_get(s, "type"), *e;

	if (cJSON_IsString(t))
		return !strcmp(t->valuestring, name);
	cJSON_ArrayForEach(e, t) if (cJSON_IsString(e) &&
				     !strcmp(e->valuestring, name)) return true;
	return false;
}

/* The subschemas of `s` the keywords hold, walked depth first. */
typedef void (*schema_fn)(void *ctx, const cJSON *s, const char *ptr,
			  unsigned depth);

static void each_sub(const cJSON *s, const char *ptr, unsigned depth,
		     schema_fn fn, void *ctx)
{
	static const char *const maps[] = { "properties", "$defs",
					    "definitions",
					    "patternProperties" };
	static const char *const lists[] = { "anyOf", "oneOf", "allOf",
					     "prefixItems" };
	static const char *const one[] = { "items", "additionalProperties",
					   "not" };
	const cJSON *e;

	if (depth >= MAX_DEPTH)
		return;
	for (size_t k = 0; k < sizeof(maps) / sizeof(*maps); k++) {
		char *base = ptr_join(ptr, maps[k]);

		cJSON_ArrayForEach(e, pc_serde_get(s, maps[k]))
		{
			char *p = ptr_join(base, e->string);

			if (cJSON_IsObject(e))
				fn(ctx, e, p, depth + 1);
			free(p);
		}
		free(base);
	}
	for (size_t k = 0; k < sizeof(lists) / sizeof(*lists); k++) {
		char *base = ptr_join(ptr, lists[k]);
		size_t i = 0;

		cJSON_ArrayForEach(e, pc_serde_get(s, lists[k]))
		{
			char idx[24], *p;

			snprintf(idx, sizeof(idx), "%zu", i++);
			p = ptr_join(base, idx);
			if (cJSON_IsObject(e))
				fn(ctx, e, p, depth + 1);
			free(p);
		}
		free(base);
	}
	for (size_t k = 0; k < sizeof(one) / sizeof(*one); k++) {
		const cJSON *sub = pc_serde_get(s, one[k]);
		char *p;

		if (!cJSON_IsObject(sub))
			continue;
		p = ptr_join(ptr, one[k]);
		fn(ctx, sub, p, depth + 1);
		free(p);
	}
}

struct found {
	struct pc_strvec *msgs, *ptrs;
	size_t before;
};

static void arrays_without_items(void *ctx, const cJSON *s, const char *ptr,
				 unsigned depth)
{
	struct found *f = ctx;

	if (type_has(s, "array") && !pc_serde_get(s, "items"))
		problem(f->msgs, f->ptrs, ptr,
			"an array schema without \"items\": OpenAI refuses it (\"array schema missing items\")");
	each_sub(s, ptr, depth, arrays_without_items, ctx);
}

static bool anthropic_key(const char *k)
{
	size_t n = strlen(k);

	if (!n || n > MAX_NAME)
		return false;
	for (; *k; k++)
		if (!alnum(*k) && *k != '_' && *k != '.' && *k != '-')
			return false;
	return true;
}

size_t pc_cause_schema_refused(const cJSON *params, struct pc_strvec *msgs,
			       struct pc_strvec *ptrs)
{
	/* the keywords refused at the top level, and by whom */
	static const struct {
		const char *key, *why;
	} top[] = {
		{ "oneOf",
		  "OpenAI and Anthropic refuse it there (nest it under a property)" },
		{ "anyOf",
		  "OpenAI and Anthropic refuse it there (nest it under a property)" },
		{ "allOf",
		  "OpenAI and Anthropic refuse it there (nest it under a property)" },
		{ "enum", "OpenAI refuses it there" },
		{ "not", "OpenAI refuses it there" },
	};
	struct found f = { msgs, ptrs, msgs->nr };
	const cJSON *t = pc_serde_get(params, "type"), *e;

	if (!cJSON_IsObject(params))
		return 0;
	if (!cJSON_IsString(t) || strcmp(t->valuestring, "object")) {
		char *v = t ? pc_serde_to_string(t) : pc_xstrdup("missing");

		problem(msgs, ptrs, t ? "/type" : "",
			"\"type\" is %s, not \"object\": OpenAI and Anthropic refuse parameters whose top level is not \"type\": \"object\"",
			v);
		free(v);
	}
	for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++)
		if (pc_serde_get(params, top[k].key)) {
			char *p = ptr_join("", top[k].key);

			problem(msgs, ptrs, p, "%s at the top level: %s",
				top[k].key, top[k].why);
			free(p);
		}
	cJSON_ArrayForEach(
		e, pc_serde_get(params,
				"properties")) if (!anthropic_key(e->string))
	{
		char *p = ptr_join("/properties", e->string);

		problem(msgs, ptrs, p,
			"the property name \"%s\": Anthropic takes only letters, digits, '_', '.' and '-' (1 to 64) at the top level",
			e->string);
		free(p);
	}
	arrays_without_items(&f, params, "", 0);
	return msgs->nr - f.before;
}

/* Gemini's Schema: a subset of the OpenAPI 3.0 schema object. */
static const char *const gemini_fields[] = {
	"type",
	"format",
	"title",
	"description",
	"nullable",
	"enum",
	"items",
	"minItems",
	"maxItems",
	"properties",
	"required",
	"minProperties",
	"maxProperties",
	"minLength",
	"maxLength",
	"pattern",
	"example",
	"anyOf",
	"propertyOrdering",
	"default",
	"minimum",
	"maximum",
};

static bool gemini_field(const char *k)
{
	for (size_t i = 0; i < sizeof(gemini_fields) / sizeof(*gemini_fields);
	     i++)
		if (!strcmp(gemini_fields[i], k))
			return true;
	return false;
}

static void gemini(void *ctx, const cJSON *s, const char *ptr, unsigned depth)
{
	struct found *f = ctx;
	const cJSON *e, *props = pc_serde_get(s, "properties");
	size_t i = 0;

	cJSON_ArrayForEach(e, s)
	{
		char *p;

		/* beside properties it is widespread ("additionalProperties":
		 * false); the object made only of it is the fault */
		if (gemini_field(e->string) ||
		    (!strcmp(e->string, "additionalProperties") &&
		     cJSON_IsObject(props) && props->child))
			continue;
		p = ptr_join(ptr, e->string);
		problem(f->msgs, f->ptrs, p,
			"Gemini does not know \"%s\" (its function parameters take only an OpenAPI 3.0 subset)",
			e->string);
		free(p);
	}
	if (cJSON_IsArray(pc_serde_get(s, "type"))) {
		char *p = ptr_join(ptr, "type");

		problem(f->msgs, f->ptrs, p,
			"\"type\" is a list: Gemini takes one type name (use \"nullable\": true for null)");
		free(p);
	}
	cJSON_ArrayForEach(e, pc_serde_get(s, "enum"))
	{
		char *p, idx[24];

		if (cJSON_IsString(e)) {
			i++;
			continue;
		}
		snprintf(idx, sizeof(idx), "%zu", i);
		p = ptr_join(ptr, "enum");
		problem(f->msgs, f->ptrs, p,
			"enum value %s is not a string: Gemini takes only string enum values",
			idx);
		free(p);
		break;
	}
	if (depth > 0 && type_has(s, "object") &&
	    (!cJSON_IsObject(props) || !props->child))
		problem(f->msgs, f->ptrs, ptr,
			"an object type without properties%s: Gemini refuses it (\"should be non-empty for OBJECT type\")",
			pc_serde_get(s, "additionalProperties")
				? " (a map made only of additionalProperties)"
				: "");
	/* Gemini reads only properties, items and anyOf as subschemas */
	cJSON_ArrayForEach(e, props)
	{
		char *base = ptr_join(ptr, "properties"),
		     *p = ptr_join(base, e->string);

		if (cJSON_IsObject(e) && depth < MAX_DEPTH)
			gemini(ctx, e, p, depth + 1);
		free(p);
		free(base);
	}
	if (cJSON_IsObject(pc_serde_get(s, "items")) && depth < MAX_DEPTH) {
		char *p = ptr_join(ptr, "items");

		gemini(ctx, pc_serde_get(s, "items"), p, depth + 1);
		free(p);
	}
	i = 0;
	cJSON_ArrayForEach(e, pc_serde_get(s, "anyOf"))
	{
		char idx[24], *base = ptr_join(ptr, "anyOf"), *p;

		snprintf(idx, sizeof(idx), "%zu", i++);
		p = ptr_join(base, idx);
		if (cJSON_IsObject(e) && depth < MAX_DEPTH)
			gemini(ctx, e, p, depth + 1);
		free(p);
		free(base);
	}
}

size_t pc_cause_schema_gemini(const cJSON *params, struct pc_strvec *msgs,
			      struct pc_strvec *ptrs)
{
	struct found f = { msgs, ptrs, msgs->nr };

	if (!cJSON_IsObject(params))
		return 0;
	gemini(&f, params, "", 0);
	return msgs->nr - f.before;
}

/* ---- modify ---- */

const char *const *pc_cause_builtin_params(const char *name)
{
	/* core/src/tooling/schema.rs at the spec's HEAD */
	static const char *const bash[] = { "command", "timeout", NULL };
	static const char *const write_file[] = { "path", "content", NULL };
	static const char *const edit[] = { "path", "edits", NULL };
	static const char *const read_file[] = { "path", "offset", "limit",
						 "line_numbers", NULL };
	static const char *const grep[] = { "pattern",	   "path",
					    "paths",	   "glob",
					    "type",	   "case_insensitive",
					    "output_mode", "head_limit",
					    "offset",	   "context",
					    "after",	   "before",
					    "invert",	   "fixed_string",
					    "word",	   NULL };
	static const char *const glob[] = { "pattern", NULL };
	static const struct {
		const char *name;
		const char *const *params;
	} tools[] = { { "bash", bash }, { "write_file", write_file },
		      { "edit", edit }, { "read_file", read_file },
		      { "grep", grep }, { "glob", glob } };

	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools); i++)
		if (!strcmp(tools[i].name, name))
			return tools[i].params;
	return NULL;
}

size_t pc_cause_modify_unknown(const cJSON *modify, const char *const *names,
			       const cJSON *params, struct pc_strvec *out)
{
	const cJSON *props = pc_serde_get(params, "properties"), *e;
	size_t before = out->nr;

	if (!cJSON_IsObject(modify))
		return 0;
	cJSON_ArrayForEach(e, modify)
	{
		bool known = pc_serde_get(props, e->string) != NULL;

		for (size_t i = 0; names && names[i] && !known; i++)
			known = !strcmp(names[i], e->string);
		if (!known)
			pc_strvec_push(out, e->string);
	}
	return out->nr - before;
}

size_t pc_cause_modify_nested(const cJSON *modify, const cJSON *args,
			      struct pc_strvec *out)
{
	const cJSON *e;
	size_t before = out->nr;

	if (!cJSON_IsObject(modify) || !cJSON_IsObject(args))
		return 0;
	cJSON_ArrayForEach(e, modify)
	{
		const cJSON *old = pc_serde_get(args, e->string), *m;
		struct pc_buf lost = PC_BUF_INIT(PC_BUF_NOCAP);

		if (!cJSON_IsObject(e) || !cJSON_IsObject(old))
			continue;
		cJSON_ArrayForEach(m, old) if (!pc_serde_get(e, m->string))
			pc_buf_addf(&lost, "%s%s", lost.len ? ", " : "",
				    m->string);
		if (lost.len)
			pc_strvec_pushf(out, "%s (drops %s)", e->string,
					pc_buf_cstr(&lost));
		pc_buf_release(&lost);
	}
	return out->nr - before;
}

const char *pc_cause_modify_changed(const cJSON *modify, const cJSON *args)
{
	const cJSON *e;

	if (!cJSON_IsObject(modify) || !cJSON_IsObject(args))
		return NULL;
	cJSON_ArrayForEach(e, modify)
	{
		const cJSON *old = pc_serde_get(args, e->string);

		if (!old || !cJSON_Compare(old, e, 1))
			return e->string;
	}
	return NULL;
}

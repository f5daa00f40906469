#define _GNU_SOURCE /* memmem */
/* pc_chatcli_causes.c - see pc_chatcli_causes.h. */
#include "pc_chatcli_causes.h"

#include <sys/resource.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_buf.h"
#include "pc_xalloc.h"

#define SHOWN_MAX     3
#define SHOWN_BYTES   80
#define STK_LIM_3_4   ((size_t)6 << 20) /* _STK_LIM / 4 * 3 */
#define LIST_MAX_ARGS 64

/* --- stderr ------------------------------------------------------------ */

/* The bytes of [off, end) inside [lo, hi). */
static size_t overlap(size_t off, size_t end, size_t lo, size_t hi)
{
	size_t a = off > lo ? off : lo, b = end < hi ? end : hi;

	return b > a ? b - a : 0;
}

/* How many bytes of stderr line `s` the model gets of call `c`. */
static size_t line_bytes(const struct pc_chatcli_call *c,
			 const struct pc_chatcli_span *s)
{
	size_t end = s->off + s->len + (s->nl ? 1 : 0), n = c->merged_len;
	bool pass = !c->compression || !strcmp(c->compression, "passthrough");

	if (c->error || (pass && n <= PC_CHATCLI_TRUNC_CAP))
		return end - s->off;
	if (pass)
		return overlap(s->off, end, 0, PC_CHATCLI_TRUNC_HEAD) +
		       overlap(s->off, end, n - PC_CHATCLI_TRUNC_TAIL, n);
	/* a compressor rewrote the text: the line counts if it is there */
	if (s->len && c->output &&
	    memmem(c->output, c->output_len, c->merged + s->off, s->len))
		return end - s->off;
	return 0;
}

static void add_visible(struct pc_buf *b, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch < 0x20 || ch == 0x7f)
			pc_buf_addf(b, "\\x%02x", ch);
		else
			pc_buf_addch(b, (char)ch);
	}
}

void pc_chatcli_stderr_use(const struct pc_chatcli_call *c,
			   struct pc_chatcli_stderr_use *u)
{
	size_t line = 1, pos = 0;

	for (size_t i = 0; i < c->n_err_lines; i++) {
		const struct pc_chatcli_span *s = &c->err_lines[i];
		size_t got = line_bytes(c, s);
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (; pos < s->off && pos < c->merged_len; pos++)
			line += c->merged[pos] == '\n';
		if (!got)
			continue;
		u->lines++;
		u->bytes += got;
		if (!u->first)
			u->first = pc_xmemdup(c->merged + s->off, s->len);
		if (u->shown.nr >= SHOWN_MAX)
			continue;
		pc_buf_addf(&b, "line %zu: ", line);
		add_visible(&b, c->merged + s->off,
			    s->len > SHOWN_BYTES ? SHOWN_BYTES : s->len);
		if (s->len > SHOWN_BYTES)
			pc_buf_adds(&b, "...");
		pc_strvec_push(&u->shown, pc_buf_cstr(&b));
		pc_buf_release(&b);
	}
}

void pc_chatcli_stderr_use_release(struct pc_chatcli_stderr_use *u)
{
	pc_strvec_release(&u->shown);
	free(u->first);
	*u = (struct pc_chatcli_stderr_use)PC_CHATCLI_STDERR_USE_INIT;
}

/* --- secrets ----------------------------------------------------------- */

static bool part_in(const char *p, size_t n, const char *const *set)
{
	for (size_t i = 0; set[i]; i++)
		if (strlen(set[i]) == n && !strncasecmp(p, set[i], n))
			return true;
	return false;
}

bool pc_chatcli_secret_name(const char *name, size_t n)
{
	static const char *const secret[] = {
		"KEY",	    "APIKEY", "TOKEN",	    "SECRET",	  "SECRETS",
		"PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS",
		"PRIVATE",  "AUTH",   NULL
	};
	static const char *const not_last[] = { "FILE", "PATH", "DIR",	"URL",
						"URI",	"HOST", "PORT", "ID",
						"NAME", "USER", "TYPE", "MODE",
						NULL };
	bool hit = false;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && name[i] != '_')
			continue;
		if (i > start) {
			bool last = i == n;

			if (last && part_in(name + start, i - start, not_last))
				return false;
			hit = hit || part_in(name + start, i - start, secret);
		}
		start = i + 1;
	}
	return hit;
}

/* The name and value of "NAME=value", or false. */
static bool split_env(const char *kv, size_t *name_len, const char **value)
{
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv)
		return false;
	*name_len = (size_t)(eq - kv);
	*value = eq + 1;
	return true;
}

static bool has_name(const struct pc_strvec *env, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < env->nr; i++)
		if (!strncmp(env->v[i], name, n) && env->v[i][n] == '=')
			return true;
	return false;
}

void pc_chatcli_seed_canaries(struct pc_strvec *env, const char *nonce)
{
	static const char *const names[] = {
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY",	     "GOOGLEAI_API_KEY",
		"XAI_API_KEY",	  "PLUGCHECK_CANARY_SECRET",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!has_name(env, names[i]))
			pc_strvec_pushf(env, "%s=plugcheck-canary-%s-%s",
					names[i], names[i], nonce);
}

/* The secret of environment entry `kv`: its value, or NULL when the name
 * is not secret-shaped or the value too short to look for. */
static const char *secret_value(const char *kv, size_t *name_len)
{
	const char *v;

	if (!split_env(kv, name_len, &v) ||
	    !pc_chatcli_secret_name(kv, *name_len) ||
	    strlen(v) < PC_CHATCLI_SECRET_MIN)
		return NULL;
	return v;
}

size_t pc_chatcli_printed_secrets(char *const *envp, const char *text, size_t n,
				  struct pc_strvec *names)
{
	size_t added = 0;

	for (size_t i = 0; envp && envp[i]; i++) {
		size_t nl;
		const char *v = secret_value(envp[i], &nl);
		char *name;

		if (!v || !memmem(text, n, v, strlen(v)))
			continue;
		name = pc_xmemdup(envp[i], nl);
		if (!pc_strvec_has(names, name)) {
			pc_strvec_push(names, name);
			added++;
		}
		free(name);
	}
	return added;
}

char *pc_chatcli_redact(char *const *envp, const char *text)
{
	char *cur = pc_xstrdup(text);

	for (size_t i = 0; envp && envp[i]; i++) {
		size_t nl, vl;
		const char *v = secret_value(envp[i], &nl), *hit, *from;
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		if (!v || !strstr(cur, v))
			continue;
		vl = strlen(v);
		for (from = cur; (hit = strstr(from, v)); from = hit + vl) {
			pc_buf_add(&b, from, (size_t)(hit - from));
			pc_buf_addf(&b, "[value of %.*s]", (int)nl, envp[i]);
		}
		pc_buf_adds(&b, from);
		free(cur);
		cur = pc_buf_detach(&b, NULL);
	}
	return cur;
}

/* --- E2BIG ----------------------------------------------------------- */

static const char *str_field(const struct pc_chatcli_jv *o, const char *k)
{
	const struct pc_chatcli_jv *v = pc_chatcli_jv_field(o, k);

	return v && v->kind == PC_CHATCLI_JV_STRING ? v->s : NULL;
}

/* The declared maxLength, or -1. */
static long long max_length(const struct pc_chatcli_jv *o)
{
	const struct pc_chatcli_jv *v = pc_chatcli_jv_field(o, "maxLength");

	if (!v)
		v = pc_chatcli_jv_field(o, "max_length");
	if (!v || v->kind != PC_CHATCLI_JV_NUMBER || v->num < 0)
		return -1;
	return v->num > 1e15 ? (long long)1e15 : (long long)v->num;
}

/* A type a model fills with text: absent, or not a number or boolean. */
static bool text_type(const char *t)
{
	static const char *const no[] = { "bool",    "boolean", "int",
					  "integer", "number",	"float",
					  "double",  "int64",	"float64",
					  NULL };

	return !t || !part_in(t, strlen(t), no);
}

/* JSON Schema's "type": "string", or a list holding it. */
static bool schema_string(const struct pc_chatcli_jv *prop)
{
	const struct pc_chatcli_jv *t = pc_chatcli_jv_field(prop, "type");

	if (t && t->kind == PC_CHATCLI_JV_STRING)
		return !strcmp(t->s, "string");
	for (size_t i = 0; t && t->kind == PC_CHATCLI_JV_ARRAY && i < t->nr;
	     i++)
		if (t->v[i].kind == PC_CHATCLI_JV_STRING &&
		    !strcmp(t->v[i].s, "string"))
			return true;
	return false;
}

static void add(struct pc_chatcli_long_args *out, const char *name,
		const char *sub, long long max, bool whole)
{
	struct pc_chatcli_long_arg *a;

	if ((max >= 0 && max < PC_CHATCLI_ARG_STRLEN_MAX) ||
	    out->nr >= LIST_MAX_ARGS)
		return;
	out->v = pc_xreallocarray(out->v, out->nr + 1, sizeof(*out->v));
	a = &out->v[out->nr++];
	a->name = pc_xstrdup(name);
	a->subcommand = sub ? pc_xstrdup(sub) : NULL;
	a->max_len = max;
	a->whole_json = whole;
}

static void host_shape(const struct pc_chatcli_jv *subs,
		       struct pc_chatcli_long_args *out)
{
	for (size_t i = 0; subs->kind == PC_CHATCLI_JV_ARRAY && i < subs->nr;
	     i++) {
		const struct pc_chatcli_jv *flags =
			pc_chatcli_jv_field(&subs->v[i], "flags");
		const char *sub = str_field(&subs->v[i], "name");

		for (size_t k = 0;
		     flags && flags->kind == PC_CHATCLI_JV_ARRAY &&
		     k < flags->nr;
		     k++) {
			const struct pc_chatcli_jv *fl = &flags->v[k];
			const char *nm = str_field(fl, "name");

			if (nm && *nm && text_type(str_field(fl, "type")))
				add(out, nm, sub, max_length(fl), false);
		}
	}
}

static void properties(const struct pc_chatcli_jv *props,
		       struct pc_chatcli_long_args *out)
{
	for (size_t i = 0; props->kind == PC_CHATCLI_JV_OBJECT && i < props->nr;
	     i++)
		if (schema_string(&props->v[i]))
			add(out, props->k[i].p, NULL, max_length(&props->v[i]),
			    true);
}

size_t pc_chatcli_long_args(const char *schema, size_t n,
			    struct pc_chatcli_long_args *out)
{
	static const char *const nests[] = { "parameters", "input_schema",
					     "inputSchema" };
	struct pc_chatcli_jv s = PC_CHATCLI_JV_INIT;
	const struct pc_chatcli_jv *v;
	size_t before = out->nr;

	if (!schema || pc_chatcli_json_parse(schema, n, &s, NULL))
		return 0;
	if ((v = pc_chatcli_jv_field(&s, "subcommands")))
		host_shape(v, out);
	if ((v = pc_chatcli_jv_get(&s, "properties", 10)))
		properties(v, out);
	for (size_t i = 0; i < sizeof(nests) / sizeof(*nests); i++) {
		v = pc_chatcli_jv_get(&s, nests[i], strlen(nests[i]));
		if (v && (v = pc_chatcli_jv_get(v, "properties", 10)))
			properties(v, out);
	}
	/* the docs' {"parameters": [{name, type, ...}]} (DOC3) */
	v = pc_chatcli_jv_get(&s, "parameters", 10);
	for (size_t i = 0; v && v->kind == PC_CHATCLI_JV_ARRAY && i < v->nr;
	     i++) {
		const char *nm = str_field(&v->v[i], "name");

		if (nm && *nm && text_type(str_field(&v->v[i], "type")))
			add(out, nm, NULL, max_length(&v->v[i]), true);
	}
	pc_chatcli_jv_release(&s);
	return out->nr - before;
}

void pc_chatcli_long_args_release(struct pc_chatcli_long_args *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		free(a->v[i].name);
		free(a->v[i].subcommand);
	}
	free(a->v);
	*a = (struct pc_chatcli_long_args)PC_CHATCLI_LONG_ARGS_INIT;
}

size_t pc_chatcli_arg_max(size_t stack_limit)
{
	struct rlimit rl;
	size_t limit;

	if (!stack_limit) {
		stack_limit = SIZE_MAX;
		if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY)
			stack_limit = (size_t)rl.rlim_cur;
	}
	limit = stack_limit / 4 < STK_LIM_3_4 ? stack_limit / 4 : STK_LIM_3_4;
	return limit > PC_CHATCLI_ARG_STRLEN_MAX ? limit
						 : PC_CHATCLI_ARG_STRLEN_MAX;
}

size_t pc_chatcli_env_bytes(char *const *envp)
{
	size_t n = 0;

	for (size_t i = 0; envp && envp[i]; i++)
		n += strlen(envp[i]) + 1 + sizeof(char *);
	return n;
}

/* pc_lint_cause.c - static causes of faults in a loaded plugin: tool
 * names and parameters model providers refuse (PC-TOOL-020, 021, 022),
 * shell scripts with CRLF line endings (PC-SCRIPT-010) or a `read` that
 * fails on the host's stdin (PC-IO-010). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_cause.h"
#include "pc_fs.h"
#include "pc_lint_impl.h"
#include "pc_xalloc.h"

#define MAX_LISTED 4 /* problems named in one finding */

struct pc_finding *pc__lint_find(struct pc_lint *l, const char *id,
				 const char *file, const char *where,
				 struct pc_loc at, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_finding *f;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc_findings_add(&l->findings, id, file, "%s", pc_buf_cstr(&b));
	pc_buf_release(&b);
	f = &l->findings.v[l->findings.nr - 1];
	free(f->where);
	f->where = pc_xstrdup(where ? where : "");
	f->line = at.line;
	f->column = at.column;
	return f;
}

static bool is_list_keyword(const char *k)
{
	return !strcmp(k, "anyOf") || !strcmp(k, "oneOf") ||
	       !strcmp(k, "allOf") || !strcmp(k, "prefixItems") ||
	       !strcmp(k, "enum") || !strcmp(k, "items");
}

/* The place in plugin.json of JSON pointer `ptr` into tool i's
 * parameters (the keyword's key; "" the parameters key itself). */
static struct pc_loc param_at(const struct pc_lint *l, size_t i,
			      const char *ptr)
{
	struct pc_strvec steps = PC_STRVEC_INIT;
	struct pc_loc at;
	char idx[24];

	snprintf(idx, sizeof(idx), "#%zu", i);
	pc_strvec_push(&steps, "tools");
	pc_strvec_push(&steps, idx);
	pc_strvec_push(&steps, "parameters");
	for (const char *p = ptr; *p == '/';) {
		const char *q = strchr(p + 1, '/');
		size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);
		struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);

		for (size_t k = 0; k < len; k++) {
			if (p[1 + k] == '~' && k + 1 < len) {
				pc_buf_adds(&t, p[2 + k] == '1' ? "/" : "~");
				k++;
			} else {
				pc_buf_add(&t, p + 1 + k, 1);
			}
		}
		if (t.len && strspn(pc_buf_cstr(&t), "0123456789") == t.len &&
		    is_list_keyword(steps.v[steps.nr - 1]))
			pc_strvec_pushf(&steps, "#%s", pc_buf_cstr(&t));
		else
			pc_strvec_push(&steps, pc_buf_cstr(&t));
		pc_buf_release(&t);
		p += len + 1;
	}
	/* the deepest step that is there (an index into an array of
	 * subschemas, "anyOf/0", is not a key: its array's key) */
	at = pc__lint_loc(l, true, (const char *const *)steps.v);
	pc_strvec_release(&steps);
	return at;
}

/* The messages of `msgs` joined, at most MAX_LISTED and a count. */
static char *listed(const struct pc_strvec *msgs)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < msgs->nr && i < MAX_LISTED; i++)
		pc_buf_addf(&b, "%s%s", i ? "; " : "", msgs->v[i]);
	if (msgs->nr > MAX_LISTED)
		pc_buf_addf(&b, "; and %zu more", msgs->nr - MAX_LISTED);
	return pc_buf_detach(&b, NULL);
}

void pc__lint_providers(struct pc_lint *l)
{
	static const struct {
		size_t (*fn)(const cJSON *, struct pc_strvec *,
			     struct pc_strvec *);
		const char *id;
	} schemas[] = { { pc_cause_schema_refused, "PC-TOOL-021" },
			{ pc_cause_schema_gemini, "PC-TOOL-022" } };
	const struct pc_plugin *p = l->plugin;

	for (size_t i = 0; i < p->ntools; i++) {
		const struct pc_tool_cfg *t = &p->tools[i];
		char *where = pc_xasprintf("tool %s", t->name);
		char idx[24], *why = pc_cause_tool_name(t->name), *list;
		const char *name_path[] = { "tools", idx, "name", NULL };
		struct pc_strvec msgs = PC_STRVEC_INIT, ptrs = PC_STRVEC_INIT;

		snprintf(idx, sizeof(idx), "#%zu", i);
		if (why)
			pc__lint_find(
				l, "PC-TOOL-020", "plugin.json", where,
				pc__lint_loc(l, false, name_path),
				"tool '%s': %s; the host sends every tool with every model request, so each request to such a provider fails while the plugin is enabled",
				t->name, why);
		free(why);
		for (size_t k = 0; k < 2 && !t->parameters_replaced; k++) {
			if (!schemas[k].fn(t->parameters, &msgs, &ptrs))
				continue;
			list = listed(&msgs);
			pc__lint_find(l, schemas[k].id, "plugin.json", where,
				      param_at(l, i, ptrs.v[0]),
				      "tool '%s' parameters: %s", t->name,
				      list);
			free(list);
			pc_strvec_release(&msgs);
			pc_strvec_release(&ptrs);
		}
		free(where);
	}
}

/* ---- shell scripts ---- */

static bool is_bash_run(const char *path)
{
	const char *dot = strrchr(path, '/');

	dot = strrchr(dot ? dot : path, '.');
	return dot && (!strcmp(dot, ".sh") || !strcmp(dot, ".bash") ||
		       !strcmp(dot, ".SH") || !strcmp(dot, ".BASH"));
}

static const char *rel_of(const struct pc_plugin *p, const char *abs)
{
	size_t n = strlen(p->source_path);

	return !strncmp(abs, p->source_path, n) && abs[n] == '/' ? abs + n + 1
								 : abs;
}

static void shell_script(struct pc_lint *l, const char *abs)
{
	struct pc_buf b = PC_BUF_INIT(1048576);
	const char *rel = rel_of(l->plugin, abs);
	char *where = pc_xasprintf("script %s", rel);
	bool bash_run = is_bash_run(abs);
	struct pc_loc at;
	unsigned errexit;
	enum pc_cause_read r;

	if (pc_fs_is_dir(abs) || pc_fs_read_capped(abs, &b, NULL) < 0 ||
	    !b.len || memchr(b.data, '\0', b.len) ||
	    !pc_cause_is_shell(abs, b.data, b.len))
		goto out;
	at = pc_cause_crlf(b.data, b.len);
	/* a directly run script whose #! line ends in CR is PC-SCRIPT-002 */
	if (at.line && (bash_run || at.line > 1))
		pc__lint_find(
			l, "PC-SCRIPT-010", rel, where, at,
			"'%s' has CRLF line endings (from line %u): %s reads the CR as the last character of each line, so commands fail (\"$'\\r': command not found\") or get arguments ending in \\r",
			rel, at.line,
			bash_run ? "bash, which the host runs it with,"
				 : "its shell");
	r = pc_cause_shell_read(b.data, b.len, !bash_run, &at, &errexit);
	if (r == PC_CAUSE_READ_LOOP)
		pc__lint_find(
			l, "PC-IO-010", rel, where, at,
			"'%s' line %u reads its stdin in a `while read` loop: the host writes its JSON without a trailing newline, so read returns 1 at the end of it and the loop body never sees the input",
			rel, at.line);
	else if (r == PC_CAUSE_READ_TEST)
		pc__lint_find(
			l, "PC-IO-010", rel, where, at,
			"'%s' line %u tests the status of `read` on its stdin: the host writes its JSON without a trailing newline, so read returns 1 although it stored the text, and the failure branch runs",
			rel, at.line);
	else if (r == PC_CAUSE_READ_ERREXIT)
		pc__lint_find(
			l, "PC-IO-010", rel, where, at,
			"'%s' line %u reads its stdin with `read` under set -e (line %u): the host writes its JSON without a trailing newline, so read returns 1 and the script exits 1 there",
			rel, at.line, errexit);
out:
	pc_buf_release(&b);
	free(where);
}

void pc__lint_shell(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;
	struct pc_strvec seen = PC_STRVEC_INIT;
	const char *s[4];

	for (int i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			pc_strvec_push(&seen, p->hooks[i].script);
	for (size_t i = 0; i < p->ntools; i++)
		pc_strvec_push(&seen, p->tools[i].script);
	for (size_t i = 0; i < p->ncommands; i++)
		if (p->commands[i].script)
			pc_strvec_push(&seen, p->commands[i].script);
	if (p->memory)
		pc_strvec_push(&seen, p->memory->script);
	if (p->oauth) {
		s[0] = p->oauth->script;
		s[1] = p->oauth->login_script;
		s[2] = p->oauth->complete_script;
		s[3] = p->oauth->token_script;
		for (size_t i = 0; i < 4; i++)
			if (s[i])
				pc_strvec_push(&seen, s[i]);
	}
	for (size_t i = 0; i < seen.nr; i++) {
		size_t k;

		for (k = 0; k < i && strcmp(seen.v[k], seen.v[i]); k++)
			;
		if (k == i)
			shell_script(l, seen.v[i]);
	}
	pc_strvec_release(&seen);
}

/* pc_lint_locate.c - where in plugin.json (or in a script) a finding's
 * cause is: the line and column every finding carries when one exists. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pc_lint_impl.h"
#include "pc_locate.h"
#include "pc_report.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define MAX_STEPS 8

struct pc_loc pc__lint_loc(const struct pc_lint *l, bool key,
			   const char *const *steps)
{
	if (!l->doc)
		return (struct pc_loc){ 0, 0 };
	return pc_json_doc_near(l->doc, steps, key);
}

void pc__lint_at_steps(const struct pc_lint *l, struct pc_finding *f, bool key,
		       const char *const *steps)
{
	struct pc_loc loc;

	free(f->file);
	f->file = pc_xstrdup("plugin.json");
	if (!l->doc)
		return;
	loc = pc__lint_loc(l, key, steps);
	f->line = loc.line;
	f->column = loc.column;
}

void pc__lint_at(const struct pc_lint *l, struct pc_finding *f, bool key,
		 const char *step, ...)
{
	const char *steps[MAX_STEPS + 1];
	size_t n = 0;
	va_list ap;

	va_start(ap, step);
	for (const char *s = step; s && n < MAX_STEPS;
	     s = va_arg(ap, const char *))
		steps[n++] = s;
	va_end(ap);
	steps[n] = NULL;
	pc__lint_at_steps(l, f, key, steps);
}

struct pc_finding *pc__lint_last(struct pc_lint *l)
{
	return &l->findings.v[l->findings.nr - 1];
}

const char *pc__lint_rel(const struct pc_lint *l, const char *abs)
{
	const char *dir = l->plugin ? l->plugin->source_path : NULL;
	size_t n = dir ? strlen(dir) : 0;

	if (dir && !strncmp(abs, dir, n) && abs[n] == '/')
		return abs + n + 1;
	return abs;
}

const char *pc__lint_command_index(const struct pc_lint *l, size_t i,
				   char buf[24])
{
	const cJSON *c;
	size_t k = 0, seen = 0;

	snprintf(buf, 24, "#%zu", i);
	cJSON_ArrayForEach(c, pc_serde_get(l->plugin->manifest, "commands"))
	{
		const cJSON *nm = pc_serde_get(c, "name");
		const char *s = cJSON_IsString(nm) ? nm->valuestring : "";
		size_t start, len = pc_rust_trim(s, strlen(s), &start);

		if (len && s[start] == '/') { /* one leading '/' is dropped */
			start++;
			len--;
		}
		if (len && seen++ == i) {
			snprintf(buf, 24, "#%zu", k);
			break;
		}
		k++;
	}
	return buf;
}

/* The index of the first tool named `name`, as "#N" in `buf`; NULL when
 * none is. */
static const char *tool_index(const struct pc_plugin *p, const char *name,
			      char buf[24])
{
	for (size_t i = 0; i < p->ntools; i++)
		if (!strcmp(p->tools[i].name, name)) {
			snprintf(buf, 24, "#%zu", i);
			return buf;
		}
	return NULL;
}

static const char *command_index(const struct pc_lint *l, const char *name,
				 char buf[24])
{
	const struct pc_plugin *p = l->plugin;

	for (size_t i = 0; i < p->ncommands; i++)
		if (!strcmp(p->commands[i].name, name))
			return pc__lint_command_index(l, i, buf);
	return NULL;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The hook point of a where "hook POINT" or "hook POINT: DETAIL" (the
 * guard search names its input after the point) into `buf`; NULL when
 * it names no point. */
static const char *hook_of(const char *w, char buf[32])
{
	size_t n;

	if (!starts(w, "hook "))
		return NULL;
	w += 5;
	n = strcspn(w, ":");
	if (n >= 32 || (w[n] && w[n + 1] != ' '))
		return NULL;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return pc_hook_point_parse(buf) >= 0 ? buf : NULL;
}

void pc_lint_locate(const struct pc_lint *l, struct pc_finding *f)
{
	const char *w = f->where ? f->where : "", *point;
	char ix[24], pt[32];

	if (!l->plugin || !l->doc || f->line || strcmp(f->file, "plugin.json"))
		return;
	if ((point = hook_of(w, pt)))
		pc__lint_at(l, f, true, "hooks", point, NULL);
	else if (starts(w, "tool ") && tool_index(l->plugin, w + 5, ix))
		pc__lint_at(l, f, false, "tools", ix, NULL);
	else if (starts(w, "command ") && command_index(l, w + 8, ix))
		pc__lint_at(l, f, false, "commands", ix, NULL);
	else if (starts(w, "memory") && l->plugin->memory)
		pc__lint_at(l, f, true, "memory_provider", NULL);
	else if (starts(w, "oauth") && l->plugin->oauth)
		pc__lint_at(l, f, true, "oauth", NULL);
}

void pc_lint_locate_report(const struct pc_lint *l, struct pc_report *r)
{
	for (size_t i = 0; i < r->ncases; i++)
		for (size_t k = 0; k < r->cases[i].findings.nr; k++)
			pc_lint_locate(l, &r->cases[i].findings.v[k]);
}

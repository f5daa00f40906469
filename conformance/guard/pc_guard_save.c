/* pc_guard_save.c - every bypass as a regression scenario (`plugcheck
 * guard ... --save FILE`): a fire step that expects the deny, or - for a
 * workspace file reached through a tool the point never sees - a turn
 * step whose file must stay as it was. Command bypasses are never turned
 * into turns: a turn would run them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_scenario.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static void json(struct pc_buf *b, const cJSON *v)
{
	pc_serde_print(v, b);
}

static void jstr(struct pc_buf *b, const char *s)
{
	cJSON *v = cJSON_CreateString(s);

	json(b, v);
	cJSON_Delete(v);
}

/* `point` sees calls of `tool` (R4.6). */
static bool sees(int point, const char *tool)
{
	if (point == PC_HOOK_PRE_TOOL)
		return strcmp(tool, "finish") != 0;
	if (point == PC_HOOK_PRE_BASH)
		return !strcmp(tool, "bash");
	if (point == PC_HOOK_PRE_WRITE)
		return !strcmp(tool, "write_file") || !strcmp(tool, "edit");
	return !strcmp(tool, "read_file") || !strcmp(tool, "grep") ||
	       !strcmp(tool, "glob");
}

static bool in_workspace(const char *p)
{
	return p[0] && p[0] != '/' && p[0] != '~' && !strstr(p, "..");
}

static void fire_step(struct pc_buf *b, const char *point,
		      const struct pc_guard_try *t)
{
	pc_buf_adds(b, "      - fire: ");
	jstr(b, point);
	pc_buf_adds(b, "\n        tool: ");
	jstr(b, t->tool);
	pc_buf_addf(b, "\n        input: %s\n", t->args);
	pc_buf_adds(b, "        expect:\n          verdict: deny\n");
}

static void turn_step(struct pc_buf *b, const struct pc_guard_try *t,
		      const struct pc_guard_seed *sd)
{
	pc_buf_adds(b, "      - write:\n          ");
	jstr(b, sd->text);
	pc_buf_adds(b, ": ");
	jstr(b, sd->shape == PC_GUARD_READ ? PC_GUARD_MARK "\n" : PC_GUARD_OLD "\n");
	pc_buf_adds(b, "\n          plugcheck-guard.tmp: ");
	jstr(b, PC_GUARD_MARK "\n");
	pc_buf_adds(b, "\n      - turn:\n          text: \"plugcheck guard: make this tool call\"\n"
		       "          model:\n            replies:\n"
		       "              - tool_calls: [{ name: ");
	jstr(b, t->tool);
	pc_buf_addf(b, ", arguments: %s }]\n", t->args);
	pc_buf_adds(b, "              - content: done\n        expect:\n"
		       "          json: { \"$.tool_results[0].ok\": false }\n");
	if (sd->shape == PC_GUARD_WRITE) {
		pc_buf_adds(b, "          files: { ");
		jstr(b, sd->text);
		pc_buf_adds(b, ": ");
		jstr(b, PC_GUARD_OLD "\n");
		pc_buf_adds(b, " }\n");
	}
}

/* `to` relative to directory `from` (both absolute). New string. */
static char *relative(const char *from, const char *to)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t i = 0, cut = 0;

	for (; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			cut = i;
	if (!from[i] && (to[i] == '/' || !to[i]))
		cut = i;
	else if (!to[i] && from[i] == '/')
		cut = i;
	for (const char *p = from + cut; *p; p++)
		if (*p == '/' && p[1])
			pc_buf_adds(&b, "../");
	if (to[cut] == '/')
		pc_buf_adds(&b, to + cut + 1);
	else
		pc_buf_adds(&b, to + cut);
	if (!b.len)
		pc_buf_adds(&b, ".");
	else if (b.data[b.len - 1] == '/')
		b.data[--b.len] = '\0';
	return pc_buf_detach(&b, NULL);
}

static char *plugin_entry(const char *file, const char *plugin_dir)
{
	char *abs = pc_fs_absolute(file), *slash = strrchr(abs, '/');
	char *dir, *pd = pc_fs_realpath(plugin_dir), *rel;

	*slash = '\0';
	dir = pc_fs_realpath(*abs ? abs : "/");
	rel = dir && pd ? relative(dir, pd) : pc_fs_absolute(plugin_dir);
	free(abs);
	free(dir);
	free(pd);
	return rel;
}

static int scenario(struct pc_buf *b, const struct pc_guard_result *r,
		    const struct pc_guard_try *t, int n)
{
	const struct pc_guard_seed *sd = &r->seeds[t->seed];
	bool seen = sees(r->hook, t->tool) && strcmp(t->decided_by, "-");
	struct pc_buf name = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_addf(&name, "bypass %d (%s): %s ", n, t->family, t->tool);
	for (const char *p = t->text; *p && name.len < 120; p++)
		pc_buf_addch(&name, *p == '\n' || *p == '\t' ? ' ' : *p);
	pc_buf_adds(b, "  - name: ");
	jstr(b, pc_buf_cstr(&name));
	pc_buf_adds(b, "\n    tags: [guard, bypass]\n    steps:\n");
	if (seen)
		fire_step(b, r->point, t);
	else if (sd->shape != PC_GUARD_CMD && in_workspace(sd->text))
		turn_step(b, t, sd);
	else
		fire_step(b, "pre_tool", t);
	pc_buf_release(&name);
	return 1;
}

/* `s` names this run's HOME or workspace: by path, or out of the
 * workspace and back in by its name (../NAME/). */
static bool names_run_dirs(const struct pc_guard_result *r, const char *s)
{
	const char *base = r->workspace ? strrchr(r->workspace, '/') : NULL;
	char *back = base && base[1] ? pc_xasprintf("../%s/", base + 1) : NULL;
	bool yes = (r->workspace && *r->workspace && strstr(s, r->workspace)) ||
		   (r->home && strlen(r->home) > 1 && strstr(s, r->home)) ||
		   (back && strstr(s, back));

	free(back);
	return yes;
}

int pc_guard_save(const char *file, const struct pc_guard_result *r,
		  const char *plugin_dir, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_scenario_file f = PC_SCENARIO_FILE_INIT;
	struct pc_err lerr = PC_ERR_INIT;
	char *plug = plugin_entry(file, plugin_dir);
	int n = 0, skipped = 0, rc;

	pc_buf_adds(&b, "# Bypasses found by `plugcheck guard`: each expects the deny, so it\n"
			"# fails until the guard is fixed (docs/guard.md).\nplugcheck: 1\nplugins: [");
	jstr(&b, plug);
	pc_buf_adds(&b, "]\nscenarios:\n");
	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];

		if (t->role != PC_GUARD_T_VARIANT || t->verdict != PC_GUARD_ALLOW)
			continue;
		/* this run's throwaway HOME and workspace are not another
		 * run's: such an input would not be the same call there */
		if (names_run_dirs(r, t->args) ||
		    names_run_dirs(r, r->seeds[t->seed].text)) {
			skipped++;
			continue;
		}
		n += scenario(&b, r, t, n + 1);
	}
	if (skipped)
		pc_buf_addf(&b, "# %d more bypass(es) not saved: they name this run's temporary HOME or\n"
				"# workspace, which a scenario run does not have (plugcheck guard shows them).\n",
			    skipped);
	free(plug);
	if (!n) {
		pc_buf_release(&b);
		return 0;
	}
	if (pc_fs_write(file, b.data, b.len, err) < 0) {
		pc_buf_release(&b);
		return PC_EIO;
	}
	pc_buf_release(&b);
	rc = pc_scenario_load(file, &f, &lerr);
	pc_scenario_file_release(&f);
	if (rc) {
		unlink(file);
		return pc_err_set(err, PC_EPARSE,
				  "the regression file did not load back (a plugcheck bug): %s",
				  lerr.msg);
	}
	return n;
}

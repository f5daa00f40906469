/* pc_lint_sub.c - PC-SUB-*: what a plugin means to take away from the
 * main agent but the model still reaches through a subagent (spec
 * catalyst-code.md R2.18, R2.19, R4.6; subagent.rs dispatch_subagent_tool
 * runs the agent's built-ins and never consults disable_tools or
 * overrides, while the hooks fire there too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_lint_impl.h"
#include "pc_locate.h"
#include "pc_xalloc.h"

#define ALL_AGENTS "any built-in agent"

/* Which built-in agents have each tool (subagent.rs builtin_agents; the
 * intercom bridge adds contact_supervisor and intercom to all of them). */
static const struct {
	const char *tool, *agents;
} reach[] = {
	{ "bash", ALL_AGENTS },
	{ "contact_supervisor", ALL_AGENTS },
	{ "edit", "agent delegate, reviewer or worker" },
	{ "fetch", "agent researcher" },
	{ "glob", ALL_AGENTS },
	{ "grep", ALL_AGENTS },
	{ "intercom", ALL_AGENTS },
	{ "list_dir", ALL_AGENTS },
	{ "memory", "agent context-builder, researcher or scout" },
	{ "read_file", ALL_AGENTS },
	{ "web_search", "agent researcher" },
	{ "write_file",
	  "agent context-builder, delegate, researcher, reviewer, scout or "
	  "worker" },
};

static const char *agents_with(const char *tool)
{
	for (size_t i = 0; i < sizeof(reach) / sizeof(reach[0]); i++)
		if (!strcmp(reach[i].tool, tool))
			return reach[i].agents;
	return NULL;
}

static bool overrides(const struct pc_plugin *p, const char *name)
{
	for (size_t i = 0; i < p->ntools; i++)
		if (p->tools[i].override_builtin &&
		    !strcmp(p->tools[i].name, name))
			return true;
	return false;
}

/* The ways this plugin leaves the model into subagent.rs execute: the
 * core tool `subagent`, and `spawn` once load_tools enables it; "" when
 * the plugin disables or overrides both. */
static const char *open_paths(const struct pc_plugin *p)
{
	bool sub = !pc_strvec_has(&p->disable_tools, "subagent") &&
		   !overrides(p, "subagent");
	bool spawn = !pc_strvec_has(&p->disable_tools, "spawn") &&
		     !pc_strvec_has(&p->disable_tools, "load_tools") &&
		     !overrides(p, "spawn");

	if (sub && spawn)
		return "call `subagent` (or load and call `spawn`)";
	if (sub)
		return "call `subagent`";
	if (spawn)
		return "load `spawn` with load_tools and call it";
	return "";
}

/* Point the newest finding of `l` at the JSON member `path` of
 * plugin.json (`manifest`, may be NULL when it could not be read). */
static void locate(struct pc_lint *l, const struct pc_buf *manifest,
		   const char *const *path, bool key)
{
	struct pc_finding *f = &l->findings.v[l->findings.nr - 1];
	struct pc_loc loc;

	if (manifest->data && pc_json_locate(manifest->data, manifest->len,
					     path, 0, key, &loc) == 0) {
		f->line = loc.line;
		f->column = loc.column;
	}
}

/* The hook that sees `tool` in a subagent too, when the plugin has one:
 * its specific pre hook, else pre_tool; NULL when none. */
static const char *guard_hook(const struct pc_plugin *p, const char *tool)
{
	static const struct {
		const char *tool;
		enum pc_hook_point point;
	} specific[] = {
		{ "bash", PC_HOOK_PRE_BASH },
		{ "write_file", PC_HOOK_PRE_WRITE },
		{ "edit", PC_HOOK_PRE_WRITE },
		{ "read_file", PC_HOOK_PRE_READ },
		{ "grep", PC_HOOK_PRE_READ },
		{ "glob", PC_HOOK_PRE_READ },
	};

	for (size_t i = 0; i < sizeof(specific) / sizeof(*specific); i++)
		if (!strcmp(specific[i].tool, tool) &&
		    p->hooks[specific[i].point].present)
			return pc_hook_point_name(specific[i].point);
	return p->hooks[PC_HOOK_PRE_TOOL].present ? "pre_tool" : NULL;
}

/* ", unless its pre_bash hook refuses it there (...)" when the plugin has
 * a hook that may already guard `tool`, else "". New. */
static char *unless(const struct pc_plugin *p, const char *tool)
{
	const char *h = guard_hook(p, tool);

	return h ? pc_xasprintf(
			   ", unless its %s hook refuses it there (hooks fire inside subagents)",
			   h)
		 : pc_xstrdup("");
}

void pc__lint_subagents(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;
	const char *how = open_paths(p), *who;
	char *mf = pc_fs_join(p->dir, "plugin.json"), idx[24], *but;
	struct pc_buf text = PC_BUF_INIT(PC_MAX_IO_BYTES * 8);

	if (!*how)
		goto out;
	if (pc_fs_read_capped(mf, &text, NULL) < 0)
		pc_buf_release(&text);
	for (size_t i = 0; i < p->disable_tools.nr; i++) {
		const char *path[] = { "disable_tools", idx, NULL };

		if (!(who = agents_with(p->disable_tools.v[i])))
			continue;
		snprintf(idx, sizeof(idx), "#%zu", i);
		but = unless(p, p->disable_tools.v[i]);
		pc_findings_add(
			&l->findings, "PC-SUB-001", "plugin.json",
			"disable_tools removes '%s' from the main agent only (R2.18): the model can still %s, and a subagent of %s runs the built-in %s%s",
			p->disable_tools.v[i], how, who, p->disable_tools.v[i],
			but);
		free(but);
		locate(l, &text, path, false);
	}
	for (size_t i = 0; i < p->ntools; i++) {
		const struct pc_tool_cfg *t = &p->tools[i];
		const char *path[] = { "tools", idx, "override", NULL };

		if (!t->override_builtin || !(who = agents_with(t->name)) ||
		    pc_strvec_has(&p->disable_tools, t->name))
			continue;
		snprintf(idx, sizeof(idx), "#%zu", i);
		but = unless(p, t->name);
		pc_findings_add(
			&l->findings, "PC-SUB-002", "plugin.json",
			"tool '%s' replaces the built-in for the main agent only (R2.18): the model can %s, and a subagent of %s runs the built-in %s, not %s%s",
			t->name, how, who, t->name, t->script_rel, but);
		free(but);
		locate(l, &text, path, true);
	}
out:
	pc_buf_release(&text);
	free(mf);
}

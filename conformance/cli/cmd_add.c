/* cmd_add.c - `plugcheck add hook|tool|command NAME PATH`: one more part
 * for an existing Catalyst Code plugin, editing only the spans of
 * plugin.json it changes (pc_scaffold_add), in the file's line ending,
 * and only if the host accepts plugin.json as it stands
 * (pc_cli_scaffold_run, R1.11). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_cli_scaffold.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const struct pc_opt opts[] = {
	{ .name = "lang", .kind = PC_OPT_VALUE, .metavar = "LANG",
	  .help = "sh, python or c (default: the plugin's: Makefile c, .py\n"
		  "python)",
	  .values = "sh|python|c" },
	{ .name = "readonly", .kind = PC_OPT_FLAG,
	  .help = "tools: readonly (default destructive)" },
	{ .name = "prompt", .kind = PC_OPT_FLAG,
	  .help = "commands: a prompt template instead of a script" },
	{ .name = "override", .kind = PC_OPT_FLAG,
	  .help = "tools: allow a built-in tool's name" },
	{ .name = "force", .kind = PC_OPT_FLAG,
	  .help = "overwrite existing files" },
};

static int run_add(const struct pc_args *a)
{
	struct pc_cli_parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .lang = pc_args_value(a, "lang") };
	enum pc_scaffold_kind kind;
	bool readonly = pc_args_flag(a, "readonly");
	bool prompt = pc_args_flag(a, "prompt");
	char *msg = NULL;

	ps.override = pc_args_flag(a, "override");
	o.force = pc_args_flag(a, "force");
	if (!strcmp(a->pos[0], "hook"))
		kind = PC_SCAFFOLD_HOOK;
	else if (!strcmp(a->pos[0], "tool"))
		kind = PC_SCAFFOLD_TOOL;
	else if (!strcmp(a->pos[0], "command"))
		kind = PC_SCAFFOLD_COMMAND;
	else
		return pc_cli_scaffold_usage(
			"add",
			pc_xasprintf("'%s' is not a part: use hook, tool or command",
				     a->pos[0]));
	if ((readonly && kind != PC_SCAFFOLD_TOOL) ||
	    (prompt && kind != PC_SCAFFOLD_COMMAND))
		return pc_cli_scaffold_usage(
			"add", pc_xstrdup(
			"--readonly is for tools, --prompt for commands"));
	if (pc_cli_scaffold_add_part(&ps, kind, a->pos[1], &msg))
		return pc_cli_scaffold_usage("add", msg);
	ps.v[0].readonly = readonly;
	ps.v[0].prompt = prompt;
	if (pc_cli_scaffold_check_tools(&ps, &msg))
		return pc_cli_scaffold_usage("add", msg);
	o.name = "";
	o.dir = a->pos[2];
	o.parts = ps.v;
	o.nparts = 1;
	return pc_cli_scaffold_run(&o, true);
}

const struct pc_cmd pc_cmd_add = {
	.name = "add",
	.summary = "add a hook, tool or command to a plugin",
	.synopsis = { "hook|tool|command NAME PATH [options]", NULL },
	.description = {
		"Add one part to the Catalyst Code plugin in PATH: its script, a\n"
		"scenario file in tests/, and its entry in plugin.json together with the\n"
		"capabilities it implies. Only those spans of plugin.json change; every\n"
		"other byte is kept. New lines take plugin.json's line ending: CRLF when\n"
		"more of its lines end in CRLF than in LF alone, else LF.\n\n"
		"A plugin.json the host rejects as it stands (bad JSON, a repeated\n"
		"key, a wrong type, missing capabilities, a bad entry: R1.11, R2.1-R2.8,\n"
		"R3.4; lint's PC-LOAD-001) is refused and nothing is written; --force\n"
		"only overwrites existing files. Script files are not looked at: a\n"
		"missing one (a C plugin before make) does not stop add.\n",
		NULL },
	.exits = "Exit: 0 added, 1 not added (exists, plugin.json rejected), 2 usage\n"
		 "error.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 3,
	.max_pos = 3,
	.run = run_add,
};

/* cmd_add.c - `plugcheck add hook|tool|command NAME PATH`: one more part
 * for an existing Catalyst Code plugin, editing only the spans of
 * plugin.json it changes (pc_scaffold_add), in the file's line ending,
 * and only if the host accepts plugin.json as it stands
 * (pc_cli_scaffold_run, R1.11). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cli_scaffold.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const char add_usage[] =
	"usage: plugcheck add hook POINT PATH\n"
	"       plugcheck add tool NAME [--readonly] [--override] PATH\n"
	"       plugcheck add command NAME [--prompt] PATH\n"
	"         [--lang sh|python|c] [--force]\n\n"
	"Add one part to the Catalyst Code plugin in PATH: its script, a\n"
	"scenario file in tests/, and its entry in plugin.json together with the\n"
	"capabilities it implies. Only those spans of plugin.json change; every\n"
	"other byte is kept. New lines take plugin.json's line ending: CRLF when\n"
	"more of its lines end in CRLF than in LF alone, else LF. The language\n"
	"defaults to the plugin's (Makefile: c, .py: python).\n\n"
	"A plugin.json the host rejects as it stands (bad JSON, a repeated\n"
	"key, a wrong type, missing capabilities, a bad entry: R1.11, R2.1-R2.8,\n"
	"R3.4; lint's PC-LOAD-001) is refused and nothing is written; --force\n"
	"only overwrites existing files. Script files are not looked at: a\n"
	"missing one (a C plugin before make) does not stop add.\n\n"
	"Exit: 0 added, 1 not added (exists, plugin.json rejected), 2 usage\n"
	"error.\n";

enum { O_LANG = 256, O_RO, O_PROMPT, O_OVR, O_FORCE };

static const struct option add_opts[] = {
	{ "lang", required_argument, NULL, O_LANG },
	{ "readonly", no_argument, NULL, O_RO },
	{ "prompt", no_argument, NULL, O_PROMPT },
	{ "override", no_argument, NULL, O_OVR },
	{ "force", no_argument, NULL, O_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int run_add(int argc, char **argv)
{
	struct pc_cli_parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .lang = NULL };
	enum pc_scaffold_kind kind;
	bool readonly = false, prompt = false;
	char *msg = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", add_opts, NULL)) != -1) {
		switch (c) {
		case O_LANG:
			o.lang = optarg;
			break;
		case O_RO:
			readonly = true;
			break;
		case O_PROMPT:
			prompt = true;
			break;
		case O_OVR:
			ps.override = true;
			break;
		case O_FORCE:
			o.force = true;
			break;
		case 'h':
			fputs(add_usage, stdout);
			return PC_EXIT_OK;
		default:
			fputs(add_usage, stderr);
			return PC_EXIT_USAGE;
		}
	}
	if (optind + 3 != argc) {
		fputs(add_usage, stderr);
		return PC_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "hook"))
		kind = PC_SCAFFOLD_HOOK;
	else if (!strcmp(argv[optind], "tool"))
		kind = PC_SCAFFOLD_TOOL;
	else if (!strcmp(argv[optind], "command"))
		kind = PC_SCAFFOLD_COMMAND;
	else
		return pc_cli_scaffold_usage(pc_xstrdup("add: use hook, tool or command"));
	if ((readonly && kind != PC_SCAFFOLD_TOOL) ||
	    (prompt && kind != PC_SCAFFOLD_COMMAND))
		return pc_cli_scaffold_usage(pc_xstrdup(
			"--readonly is for tools, --prompt for commands"));
	if (pc_cli_scaffold_add_part(&ps, kind, argv[optind + 1], &msg))
		return pc_cli_scaffold_usage(msg);
	ps.v[0].readonly = readonly;
	ps.v[0].prompt = prompt;
	if (pc_cli_scaffold_check_tools(&ps, &msg))
		return pc_cli_scaffold_usage(msg);
	o.name = "";
	o.dir = argv[optind + 2];
	o.parts = ps.v;
	o.nparts = 1;
	return pc_cli_scaffold_run(&o, true);
}

const struct pc_cmd pc_cmd_add = {
	.name = "add",
	.summary = "add a hook, tool or command to a plugin",
	.usage = add_usage,
	.run = run_add,
};

/* cmd_new.c - `plugcheck new NAME`: scaffold a Catalyst Code plugin
 * directory or a ChatCLI executable plugin that passes plugcheck as
 * generated. Names are checked with the host's own rules
 * (pc_cli_scaffold.h); the files are rendered by scaffold/ (pc_scaffold.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cli_scaffold.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const char new_usage[] =
	"usage: plugcheck new NAME [--host catalyst|chatcli] [--lang sh|python|c]\n"
	"         [--hook POINT]... [--tool NAME [--readonly]]...\n"
	"         [--command NAME [--prompt]]... [--oauth PROVIDER_ID]\n"
	"         [--memory] [--system-prompt] [--override] [--dir DIR] [--force]\n\n"
	"Write a plugin that passes `plugcheck check` as it is, with tests, a\n"
	"README and CI files for GitHub and GitLab (C comes with a Makefile).\n"
	"Existing files are never overwritten without --force.\n\n"
	"--host catalyst (default): plugin.json with the capabilities the host\n"
	"infers, one script per part and tests/*.plugcheck.yaml scenarios for\n"
	"`plugcheck run`.\n"
	"  --hook POINT     one of the 18 hook points (repeatable)\n"
	"  --tool NAME      a custom tool; --readonly right after it marks it\n"
	"                   readonly (default destructive)\n"
	"  --command NAME   a slash command; --prompt right after it makes it a\n"
	"                   prompt template instead of a script\n"
	"  --oauth ID       an OAuth provider (token written atomically, locked)\n"
	"  --memory         a memory provider (the actions the host sends)\n"
	"  --system-prompt  a static system prompt fragment\n"
	"  --override       allow tool names of the host's built-in tools\n\n"
	"--host chatcli: bin/NAME answering --metadata and --schema and parsing\n"
	"the argv the host builds from the model's call; tests/run.sh signs a\n"
	"copy with a throwaway key, runs `plugcheck check` and `fire call`; the\n"
	"README and CI show `plugcheck keygen`/`sign` (--override allows the\n"
	"name of a ChatCLI builtin).\n\n"
	"  --dir DIR        write into DIR (default ./NAME)\n"
	"  --force          overwrite existing files\n\n"
	"Exit: 0 written, 1 nothing written (a file exists, a template is\n"
	"missing), 2 usage error or a name the host rejects.\n";

enum {
	O_HOST = 256,
	O_LANG,
	O_HOOK,
	O_TOOL,
	O_RO,
	O_CMD,
	O_PROMPT,
	O_OAUTH,
	O_MEM,
	O_SYS,
	O_OVR,
	O_DIR,
	O_FORCE
};

static const struct option new_opts[] = {
	{ "host", required_argument, NULL, O_HOST },
	{ "lang", required_argument, NULL, O_LANG },
	{ "hook", required_argument, NULL, O_HOOK },
	{ "tool", required_argument, NULL, O_TOOL },
	{ "readonly", no_argument, NULL, O_RO },
	{ "command", required_argument, NULL, O_CMD },
	{ "prompt", no_argument, NULL, O_PROMPT },
	{ "oauth", required_argument, NULL, O_OAUTH },
	{ "memory", no_argument, NULL, O_MEM },
	{ "system-prompt", no_argument, NULL, O_SYS },
	{ "override", no_argument, NULL, O_OVR },
	{ "dir", required_argument, NULL, O_DIR },
	{ "force", no_argument, NULL, O_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int add_part(struct pc_cli_parts *ps, enum pc_scaffold_kind kind,
		    const char *name)
{
	char *msg = NULL;

	return pc_cli_scaffold_add_part(ps, kind, name, &msg) ? pc_cli_scaffold_usage(msg)
							      : 0;
}

/* One option; returns 0, -1 after --help, or an exit code. */
static int parse_opt(int c, struct pc_cli_parts *ps, struct pc_scaffold_opts *o,
		     const char **host)
{
	struct pc_scaffold_part *last = ps->n ? &ps->v[ps->n - 1] : NULL;

	switch (c) {
	case O_HOST:
		*host = optarg;
		return 0;
	case O_LANG:
		o->lang = optarg;
		return 0;
	case O_HOOK:
		return add_part(ps, PC_SCAFFOLD_HOOK, optarg);
	case O_TOOL:
		return add_part(ps, PC_SCAFFOLD_TOOL, optarg);
	case O_CMD:
		return add_part(ps, PC_SCAFFOLD_COMMAND, optarg);
	case O_OAUTH:
		return add_part(ps, PC_SCAFFOLD_OAUTH, optarg);
	case O_MEM:
		return add_part(ps, PC_SCAFFOLD_MEMORY, NULL);
	case O_SYS:
		o->system_prompt = true;
		return 0;
	case O_OVR:
		ps->override = true;
		return 0;
	case O_DIR:
		o->dir = optarg;
		return 0;
	case O_FORCE:
		o->force = true;
		return 0;
	case O_RO:
		if (!last || last->kind != PC_SCAFFOLD_TOOL)
			return pc_cli_scaffold_usage(
				pc_xstrdup("--readonly must follow a --tool"));
		last->readonly = true;
		return 0;
	case O_PROMPT:
		if (!last || last->kind != PC_SCAFFOLD_COMMAND)
			return pc_cli_scaffold_usage(
				pc_xstrdup("--prompt must follow a --command"));
		last->prompt = true;
		return 0;
	case 'h':
		fputs(new_usage, stdout);
		return -1;
	default:
		return PC_EXIT_USAGE;
	}
}

static void next_steps(const struct pc_scaffold_opts *o)
{
	printf("\nNext steps:\n  cd %s\n", o->dir);
	if (!strcmp(o->lang, "c"))
		printf("  make                                  # build bin/ from src/\n");
	if (o->host == PC_SCAFFOLD_CHATCLI) {
		printf("  sh tests/run.sh                       # sign a copy, check it, fire calls\n"
		       "  plugcheck keygen                      # once: your signing key\n"
		       "  plugcheck sign bin/%s --key ~/.chatcli/plugin-keys/plugin-signing.key\n"
		       "Then edit the subcommands and the --metadata/--schema texts together.\n",
		       o->name);
		return;
	}
	printf("  plugcheck check .                     # what the host will do\n"
	       "  plugcheck run tests/*.plugcheck.yaml  # the generated scenarios\n"
	       "  plugcheck add hook|tool|command NAME .  # grow it later\n"
	       "Then edit the scripts' decide/run functions and the descriptions.\n");
}

static int run_new(int argc, char **argv)
{
	struct pc_cli_parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .lang = "sh" };
	const char *host = "catalyst";
	char *dir = NULL, *msg = NULL;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", new_opts, NULL)) != -1)
		if ((rc = parse_opt(c, &ps, &o, &host)))
			return rc < 0 ? PC_EXIT_OK
				      : (fputs(new_usage, stderr), rc);
	if (optind + 1 != argc) {
		fputs(new_usage, stderr);
		return PC_EXIT_USAGE;
	}
	if (!strcmp(host, "chatcli"))
		o.host = PC_SCAFFOLD_CHATCLI;
	else if (strcmp(host, "catalyst"))
		return pc_cli_scaffold_usage(pc_xasprintf(
			"--host '%s': use catalyst or chatcli", host));
	if (o.host == PC_SCAFFOLD_CHATCLI && (ps.n || o.system_prompt))
		return pc_cli_scaffold_usage(pc_xstrdup(
			"a ChatCLI plugin is one executable: --hook, --tool, --command, --oauth, --memory and --system-prompt are for --host catalyst"));
	if (strcmp(o.lang, "sh") && strcmp(o.lang, "python") &&
	    strcmp(o.lang, "c"))
		return pc_cli_scaffold_usage(pc_xasprintf(
			"--lang '%s': use sh, python or c", o.lang));
	o.name = argv[optind];
	if (pc_cli_scaffold_plugin_name(o.host, o.name, ps.override, &msg) ||
	    pc_cli_scaffold_check_tools(&ps, &msg))
		return pc_cli_scaffold_usage(msg);
	if (!o.dir)
		o.dir = dir = pc_xasprintf("./%s", o.name);
	o.parts = ps.v;
	o.nparts = ps.n;
	rc = pc_cli_scaffold_run(&o, false);
	if (!rc)
		next_steps(&o);
	free(dir);
	return rc;
}

const struct pc_cmd pc_cmd_new = {
	.name = "new",
	.summary = "write a new plugin that passes plugcheck",
	.usage = new_usage,
	.run = run_new,
};

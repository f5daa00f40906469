#define _GNU_SOURCE /* realpath */
/* cmd_new.c - `plugcheck new NAME`: scaffold a Catalyst Code plugin
 * directory or a ChatCLI executable plugin that passes plugcheck as
 * generated. Names are checked with the host's own rules
 * (pc_cli_scaffold.h); the files are rendered by scaffold/ (pc_scaffold.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_buf.h"
#include "pc_cli_scaffold.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const struct pc_opt opts[] = {
	{ .name = "host", .kind = PC_OPT_VALUE, .metavar = "HOST",
	  .help = "catalyst (default: plugin.json, one script per part and\n"
		  "tests/*.plugcheck.yaml scenarios) or chatcli (bin/NAME\n"
		  "answering --metadata and --schema; tests/run.sh signs a\n"
		  "copy with a throwaway key and checks it)",
	  .values = "catalyst|chatcli" },
	{ .name = "lang", .kind = PC_OPT_VALUE, .metavar = "LANG",
	  .help = "sh (default), python or c (C comes with a Makefile)",
	  .values = "sh|python|c" },
	{ .name = "hook", .kind = PC_OPT_ORDER, .metavar = "POINT",
	  .help = "one of the 18 hook points (repeatable)" },
	{ .name = "tool", .kind = PC_OPT_ORDER, .metavar = "NAME",
	  .help = "a custom tool (repeatable)" },
	{ .name = "readonly", .kind = PC_OPT_ORDER,
	  .help = "right after --tool: the tool is readonly (default\n"
		  "destructive)" },
	{ .name = "command", .kind = PC_OPT_ORDER, .metavar = "NAME",
	  .help = "a slash command (repeatable)" },
	{ .name = "prompt", .kind = PC_OPT_ORDER,
	  .help = "right after --command: a prompt template instead of a\n"
		  "script" },
	{ .name = "oauth", .kind = PC_OPT_ORDER, .metavar = "ID",
	  .help = "an OAuth provider (token written atomically, locked)" },
	{ .name = "memory", .kind = PC_OPT_ORDER,
	  .help = "a memory provider (the actions the host sends)" },
	{ .name = "system-prompt", .kind = PC_OPT_FLAG,
	  .help = "a static system prompt fragment" },
	{ .name = "override", .kind = PC_OPT_FLAG,
	  .help = "allow tool names of the host's built-in tools (ChatCLI:\n"
		  "the name of a builtin)" },
	{ .name = "dir", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "write into DIR (default ./NAME)" },
	{ .name = "force", .kind = PC_OPT_FLAG,
	  .help = "overwrite existing files" },
};

static int add_part(struct pc_cli_parts *ps, enum pc_scaffold_kind kind,
		    const char *name)
{
	char *msg = NULL;

	return pc_cli_scaffold_add_part(ps, kind, name, &msg)
		       ? pc_cli_scaffold_usage("new", msg)
		       : 0;
}

/* The parts, in the order given (--readonly and --prompt qualify the
 * part just before them). Returns 0 or an exit code. */
static int take_parts(const struct pc_args *a, struct pc_cli_parts *ps)
{
	for (size_t i = 0; i < a->nuses; i++) {
		const char *n = a->uses[i].opt->name, *v = a->uses[i].value;
		struct pc_scaffold_part *last = ps->n ? &ps->v[ps->n - 1] : NULL;
		int rc = 0;

		if (!strcmp(n, "hook"))
			rc = add_part(ps, PC_SCAFFOLD_HOOK, v);
		else if (!strcmp(n, "tool"))
			rc = add_part(ps, PC_SCAFFOLD_TOOL, v);
		else if (!strcmp(n, "command"))
			rc = add_part(ps, PC_SCAFFOLD_COMMAND, v);
		else if (!strcmp(n, "oauth"))
			rc = add_part(ps, PC_SCAFFOLD_OAUTH, v);
		else if (!strcmp(n, "memory"))
			rc = add_part(ps, PC_SCAFFOLD_MEMORY, NULL);
		else if (!strcmp(n, "readonly") &&
			 (!last || last->kind != PC_SCAFFOLD_TOOL))
			rc = pc_cli_scaffold_usage(
				"new",
				pc_xstrdup("--readonly must follow a --tool"));
		else if (!strcmp(n, "readonly"))
			last->readonly = true;
		else if (!strcmp(n, "prompt") &&
			 (!last || last->kind != PC_SCAFFOLD_COMMAND))
			rc = pc_cli_scaffold_usage(
				"new",
				pc_xstrdup("--prompt must follow a --command"));
		else if (!strcmp(n, "prompt"))
			last->prompt = true;
		if (rc)
			return rc;
	}
	return 0;
}

/* How the next steps call plugcheck: "plugcheck" when that is this binary
 * on PATH, else this binary's absolute path (a build tree's), so that
 * every printed line runs as it is. Returns a new shell word. */
static char *plugcheck_word(void)
{
	char *self = realpath("/proc/self/exe", NULL), *found = NULL, *w;
	const char *path = getenv("PATH");

	while (self && path && *path && !found) {
		size_t n = strcspn(path, ":");
		char *cand = pc_xasprintf("%.*s/plugcheck", (int)n, path);

		found = realpath(cand, NULL);
		if (found && strcmp(found, self)) {
			free(found);
			found = NULL;
		}
		free(cand);
		path += n + (path[n] == ':');
	}
	w = found || !self ? pc_xstrdup("plugcheck") : pc_scaffold_shell_word(self);
	free(found);
	free(self);
	return w;
}

/* One next step: a command, then its comment in a column. */
static void step(const char *comment, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void step(const char *comment, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (comment)
		printf("  %-37s # %s\n", pc_buf_cstr(&b), comment);
	else
		printf("  %s\n", pc_buf_cstr(&b));
	pc_buf_release(&b);
}

/* The next steps, each line a command that runs as printed from where
 * `new` ran (tests/e2e/test_new_steps_*.py run them, and the CI files'
 * commands, for every part and language). */
static void next_steps(const struct pc_scaffold_opts *o)
{
	char *pc = plugcheck_word(), *dir = pc_scaffold_shell_word(o->dir);

	printf("\nNext steps:\n");
	step(NULL, "cd %s%s", o->dir[0] == '-' ? "./" : "", dir);
	if (!strcmp(o->lang, "c"))
		step("build bin/ from src/", "make");
	if (o->host == PC_SCAFFOLD_CHATCLI) {
		step("sign a copy, check it, fire calls",
		     "PLUGCHECK=%s sh tests/run.sh", pc);
		step("once: your signing key", "%s keygen", pc);
		step(NULL, "%s sign bin/%s --key ~/.chatcli/plugin-keys/plugin-signing.key",
		     pc, o->name);
		printf("Then edit the subcommands and the --metadata/--schema texts together.\n");
	} else {
		step("what the host will do, and tests/", "%s check .", pc);
		if (o->nparts)
			step("the scenarios alone", "%s run tests/*.plugcheck.yaml",
			     pc);
		printf("Then edit the %sdescriptions; grow the plugin with\n"
		       "`%s add hook POINT .`, `add tool NAME .` or `add command NAME .`.\n",
		       o->nparts ? "scripts' decide/run functions and the " : "",
		       pc);
	}
	free(dir);
	free(pc);
}

static int run_new(const struct pc_args *a)
{
	struct pc_cli_parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .lang = "sh" };
	const char *host = pc_args_value(a, "host");
	char *dir = NULL, *msg = NULL;
	int rc;

	if ((rc = take_parts(a, &ps)))
		return rc;
	ps.override = pc_args_flag(a, "override");
	o.system_prompt = pc_args_flag(a, "system-prompt");
	o.force = pc_args_flag(a, "force");
	o.dir = pc_args_value(a, "dir");
	if (pc_args_value(a, "lang"))
		o.lang = pc_args_value(a, "lang");
	if (host && !strcmp(host, "chatcli"))
		o.host = PC_SCAFFOLD_CHATCLI;
	if (o.host == PC_SCAFFOLD_CHATCLI && (ps.n || o.system_prompt))
		return pc_cli_scaffold_usage("new", pc_xstrdup(
			"a ChatCLI plugin is one executable: --hook, --tool, --command, --oauth, --memory and --system-prompt are for --host catalyst"));
	o.name = a->pos[0];
	if (pc_cli_scaffold_plugin_name(o.host, o.name, ps.override, &msg) ||
	    pc_cli_scaffold_check_tools(&ps, &msg))
		return pc_cli_scaffold_usage("new", msg);
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
	.synopsis = { "NAME [options]", NULL },
	.description = {
		"Write a plugin that passes `plugcheck check` as it is, with tests, a\n"
		"README and CI files for GitHub and GitLab. Existing files are never\n"
		"overwritten without --force.\n",
		NULL },
	.exits = "Exit: 0 written, 1 nothing written (a file exists, a template is\n"
		 "missing), 2 usage error or a name the host rejects.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = run_new,
};

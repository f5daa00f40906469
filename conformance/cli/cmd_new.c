/* cmd_new.c - `plugcheck new NAME` and `plugcheck add KIND NAME PATH`:
 * scaffold a plugin, or one more part of one, that passes plugcheck.
 * Names are checked with the host's own rules (pc_manifest.h); the files
 * are rendered by scaffold/ (pc_scaffold.h). Both commands share the part
 * parsing below, so they live in one file. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_manifest.h"
#include "pc_scaffold.h"
#include "pc_xalloc.h"

static const char new_usage[] =
	"usage: plugcheck new NAME [--host catalyst] [--lang sh|python|c]\n"
	"         [--hook POINT]... [--tool NAME [--readonly]]...\n"
	"         [--command NAME [--prompt]]... [--oauth PROVIDER_ID]\n"
	"         [--memory] [--system-prompt] [--override] [--dir DIR] [--force]\n\n"
	"Write a Catalyst Code plugin that passes `plugcheck check` as it is:\n"
	"plugin.json with the capabilities the host infers, one script per part\n"
	"(sh by default; C comes with a Makefile), tests/*.plugcheck.yaml\n"
	"scenarios for `plugcheck run`, a README and CI files for GitHub and\n"
	"GitLab. Existing files are never overwritten without --force.\n\n"
	"  --hook POINT     one of the 18 hook points (repeatable)\n"
	"  --tool NAME      a custom tool; --readonly right after it marks it\n"
	"                   readonly (default destructive)\n"
	"  --command NAME   a slash command; --prompt right after it makes it a\n"
	"                   prompt template instead of a script\n"
	"  --oauth ID       an OAuth provider (python only)\n"
	"  --memory         a memory provider (python only)\n"
	"  --system-prompt  a static system prompt fragment\n"
	"  --override       allow tool names of the host's built-in tools\n"
	"  --dir DIR        write into DIR (default ./NAME)\n"
	"  --force          overwrite existing files\n\n"
	"Exit: 0 written, 1 nothing written (a file exists, a template is\n"
	"missing), 2 usage error or a name the host rejects.\n";

static const char add_usage[] =
	"usage: plugcheck add hook POINT PATH\n"
	"       plugcheck add tool NAME [--readonly] [--override] PATH\n"
	"       plugcheck add command NAME [--prompt] PATH\n"
	"         [--lang sh|python|c] [--force]\n\n"
	"Add one part to the plugin in PATH: its script, a scenario file in\n"
	"tests/, and its entry in plugin.json together with the capabilities it\n"
	"implies. Only those spans of plugin.json change; every other byte is\n"
	"kept. The language defaults to the plugin's (Makefile: c, .py: python).\n\n"
	"Exit: 0 added, 1 not added (exists, bad plugin.json), 2 usage error.\n";

#define MAX_PARTS 64

struct parts {
	struct pc_scaffold_part v[MAX_PARTS];
	size_t n;
	bool override;
};

static bool carries_args(const char *point)
{
	static const char *const data[] = {
		"pre_bash",  "pre_write",   "pre_read",	 "pre_tool",
		"post_bash", "post_write",  "post_read", "post_tool",
		"pre_input", "pre_context", "pre_turn",	 "session_stop",
	};

	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		if (!strcmp(point, data[i]))
			return true;
	return false;
}

/* File-name-safe names: the generated paths embed them. */
static bool is_simple(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-",
			    *s))
			return false;
	return true;
}

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("plugcheck: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PC_EXIT_USAGE;
}

static int add_part(struct parts *ps, enum pc_scaffold_kind kind,
		    const char *name)
{
	struct pc_scaffold_part *p;
	int pt;

	if (ps->n == MAX_PARTS)
		return bad("too many parts (at most %s)", "64");
	p = &ps->v[ps->n];
	*p = (struct pc_scaffold_part){ .kind = kind, .name = name };
	if (kind == PC_SCAFFOLD_HOOK) {
		pt = pc_hook_point_parse(name);
		if (pt < 0)
			return bad(
				"'%s' is not a hook point (see `plugcheck new --help`)",
				name);
		p->blocking = pc_hook_is_blocking((enum pc_hook_point)pt);
		p->timeout_ms =
			pc_hook_default_timeout_ms((enum pc_hook_point)pt);
		p->pass_args = carries_args(name);
	} else if (kind == PC_SCAFFOLD_COMMAND) {
		if (*name == '/')
			p->name = ++name;
		if (pc_is_reserved_command(name))
			return bad(
				"command '%s' collides with a reserved builtin slash command (R2.8)",
				name);
	}
	if (name && !is_simple(name))
		return bad(
			"'%s': use letters, digits, '_' and '-' only (the name becomes a file name)",
			name);
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].kind == kind && name && ps->v[i].name &&
		    !strcmp(ps->v[i].name, name))
			return bad("'%s' is given twice", name);
	ps->n++;
	return 0;
}

static int check_tools(struct parts *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].kind == PC_SCAFFOLD_TOOL &&
		    pc_is_builtin_tool(ps->v[i].name) &&
		    !(ps->v[i].override = ps->override))
			return bad(
				"tool '%s' is a built-in tool name; the host would hide it (R2.15): rename it, or pass --override to replace the built-in",
				ps->v[i].name);
	return 0;
}

/* R2.5 plus what the generated files can quote safely. */
static int check_plugin_name(const char *name)
{
	if (!*name)
		return bad("%splugin name is empty", "");
	if (!strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/') ||
	    strchr(name, '\\'))
		return bad("plugin name contains a path separator: \"%s\"",
			   name);
	for (const char *s = name; *s; s++)
		if ((unsigned char)*s < 0x20 || strchr("\"'`$", *s))
			return bad(
				"plugin name '%s' cannot be quoted in the generated scripts",
				name);
	return 0;
}

/* Load the result with the host's loader: the declared capabilities must
 * be exactly the inferred ones. C plugins load only after `make`. */
static void verify(const char *dir, const char *lang)
{
	struct pc_manifest_env env = { .home = getenv("HOME"),
				       .codex_home = getenv("CODEX_HOME") };
	struct pc_plugin *p = NULL;
	struct pc_err err = { 0 };

	if (!strcmp(lang, "c"))
		return;
	if (pc_manifest_load(dir, &env, &p, &err)) {
		fprintf(stderr,
			"plugcheck: warning: the host rejects '%s': %s\n", dir,
			err.msg);
		return;
	}
	if (p->required.nr != p->capabilities.nr)
		fprintf(stderr,
			"plugcheck: warning: '%s' declares capabilities the host does not require\n",
			dir);
	pc_plugin_free(p);
}

static void print_written(const char *dir, const struct pc_strvec *w)
{
	for (size_t i = 0; i < w->nr; i++)
		printf("  wrote %s/%s\n", dir, w->v[i]);
}

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

/* One option of new/add; returns 0, or an exit code. */
static int parse_opt(int c, struct parts *ps, struct pc_scaffold_opts *o,
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
			return bad("%s--readonly must follow a --tool", "");
		last->readonly = true;
		return 0;
	case O_PROMPT:
		if (!last || last->kind != PC_SCAFFOLD_COMMAND)
			return bad("%s--prompt must follow a --command", "");
		last->prompt = true;
		return 0;
	case 'h':
		fputs(o->name ? add_usage : new_usage, stdout);
		return -1;
	default:
		return PC_EXIT_USAGE;
	}
}

static int scaffold(struct pc_scaffold_opts *o, bool add)
{
	struct pc_strvec written = PC_STRVEC_INIT;
	struct pc_err err = { 0 };
	char *tdir = pc_scaffold_templates_dir(&err);
	int rc;

	if (!tdir) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_FINDINGS;
	}
	o->templates = tdir;
	rc = add ? pc_scaffold_add(o, &written, &err)
		 : pc_scaffold_new(o, &written, &err);
	print_written(o->dir, &written);
	if (rc)
		fprintf(stderr, "plugcheck: %s\n", err.msg);
	pc_strvec_release(&written);
	free(tdir);
	return rc ? (rc == PC_EINVAL && !add ? PC_EXIT_FINDINGS
					     : PC_EXIT_FINDINGS)
		  : PC_EXIT_OK;
}

static void next_steps(const struct pc_scaffold_opts *o)
{
	printf("\nNext steps:\n  cd %s\n", o->dir);
	if (!strcmp(o->lang, "c"))
		printf("  make                                  # build bin/ from src/\n");
	printf("  plugcheck check .                     # what the host will do\n"
	       "  plugcheck run tests/*.plugcheck.yaml  # the generated scenarios\n"
	       "  plugcheck add hook|tool|command NAME .  # grow it later\n"
	       "Then edit the scripts' decide/run functions and the descriptions.\n");
}

static int run_new(int argc, char **argv)
{
	struct parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .lang = "sh" };
	const char *host = "catalyst";
	char *dir = NULL;
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
	if (strcmp(host, "catalyst"))
		return bad(
			"--host '%s': only catalyst has a template in this build (the chatcli template needs `plugcheck keygen`/`sign`)",
			host);
	o.name = argv[optind];
	if ((rc = check_plugin_name(o.name)) || (rc = check_tools(&ps)))
		return rc;
	if (!o.dir)
		o.dir = dir = pc_xasprintf("./%s", o.name);
	o.parts = ps.v;
	o.nparts = ps.n;
	rc = scaffold(&o, false);
	if (!rc) {
		verify(o.dir, o.lang);
		next_steps(&o);
	}
	free(dir);
	return rc;
}

static int run_add(int argc, char **argv)
{
	struct parts ps = { .n = 0 };
	struct pc_scaffold_opts o = { .name = "", .lang = NULL };
	const char *host = "catalyst";
	enum pc_scaffold_kind kind;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", new_opts, NULL)) != -1) {
		if (c == O_RO || c == O_PROMPT)
			continue; /* applied to the part below */
		if ((rc = parse_opt(c, &ps, &o, &host)))
			return rc < 0 ? PC_EXIT_OK
				      : (fputs(add_usage, stderr), rc);
	}
	if (optind + 3 != argc || ps.n) {
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
		return bad("add: '%s' is not hook, tool or command",
			   argv[optind]);
	if ((rc = add_part(&ps, kind, argv[optind + 1])) ||
	    (rc = check_tools(&ps)))
		return rc;
	for (int i = 1; i < argc; i++) {
		ps.v[0].readonly |= !strcmp(argv[i], "--readonly");
		ps.v[0].prompt |= !strcmp(argv[i], "--prompt");
	}
	if ((ps.v[0].readonly && kind != PC_SCAFFOLD_TOOL) ||
	    (ps.v[0].prompt && kind != PC_SCAFFOLD_COMMAND))
		return bad("%s--readonly is for tools, --prompt for commands",
			   "");
	o.dir = argv[optind + 2];
	o.parts = ps.v;
	o.nparts = 1;
	rc = scaffold(&o, true);
	if (!rc)
		verify(o.dir, o.lang ? o.lang : "");
	return rc;
}

const struct pc_cmd pc_cmd_new = {
	.name = "new",
	.summary = "write a new plugin that passes plugcheck",
	.usage = new_usage,
	.run = run_new,
};

const struct pc_cmd pc_cmd_add = {
	.name = "add",
	.summary = "add a hook, tool or command to a plugin",
	.usage = add_usage,
	.run = run_add,
};

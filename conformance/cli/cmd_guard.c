/* cmd_guard.c - `plugcheck guard POINT PATH`: the guard search for one
 * blocking pre hook, with everything it tried (pc_guard.h,
 * docs/guard.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_config.h"
#include "pc_exit.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_guard.h"
#include "pc_lint.h"
#include "pc_sandbox.h"
#include "pc_xalloc.h"

extern char **environ;

static const struct pc_opt opts[] = {
	{ .name = "seed", .kind = PC_OPT_LIST, .metavar = "TEXT",
	  .help = "search from this seed instead of the built-in corpus and\n"
		  "the plugin's own seeds: a command (pre_bash, pre_tool on\n"
		  "bash) or a path (pre_write, pre_read); repeatable",
	  .conflicts = "seeds" },
	{ .name = "seeds", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "the same, one seed per line of FILE (# comments and\n"
		  "empty lines skipped)" },
	{ .name = "tool", .kind = PC_OPT_VALUE, .metavar = "NAME",
	  .values = "bash|write_file|edit|read_file",
	  .help = "pre_tool: search the calls of this tool only (default:\n"
		  "commands, writes and reads)" },
	{ .name = "families", .kind = PC_OPT_VALUE, .metavar = "LIST",
	  .help = "try only these rewrite families (comma-separated:\n"
		  "tool, flags, long, quote, wrap, chain, target, spelling,\n"
		  "abspath, prefix, space, endopts; docs/guard.md)" },
	{ .name = "budget", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "inputs to try at most (default 200)", .min = 1,
	  .max = 100000 },
	{ .name = "save", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "write every bypass to scenario FILE as a regression\n"
		  "scenario that expects the deny (replaces FILE)" },
	{ .name = "no-turns", .kind = PC_OPT_FLAG,
	  .help = "do not show tool bypasses with scripted turns" },
	{ .name = "list", .kind = PC_OPT_FLAG,
	  .help = "fire nothing: list the seeds and every rewrite the\n"
		  "search would try (each seed counted as denied)" },
	{ .name = "jobs", .short_name = 'j', .kind = PC_OPT_VALUE,
	  .metavar = "N", .help = "fire in N worker processes (default 1)",
	  .min = 1, .max = 64 },
	CLI_OPT_FORMAT("human|json"),
	CLI_OPT_SANDBOX("every plugin process"),
};

/* --seeds FILE: one per line. */
static int read_seeds(const char *file, struct pc_strvec *out)
{
	size_t len;
	char *text = pc_cli_read_arg_file("seeds", file, &len), *line, *save;

	if (!text)
		return PC_EXIT_USAGE;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (n && line[0] != '#')
			pc_strvec_push(out, line);
	}
	free(text);
	if (!out->nr) {
		fprintf(stderr, "plugcheck: --seeds: '%s' has no seed (one per line)\n",
			file);
		return PC_EXIT_USAGE;
	}
	return 0;
}

static void progress(void *ctx, const char *label)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kplugcheck: guard %.100s", label);
	fflush(stderr);
}

/* The throwaway directories of one search: HOME, the workspace (by a
 * path without symlinks), TMPDIR, and the turns' workspaces. */
struct dirs {
	char *root, *home, *ws, *tmp;
	struct pc_strvec env;
};

static int make_dirs(struct dirs *d)
{
	char *ws;

	*d = (struct dirs){ .env = PC_STRVEC_INIT };
	if (!(d->root = pc_fs_mkdtemp("guard")))
		return -1;
	d->home = pc_fs_join(d->root, "home");
	ws = pc_fs_join(d->root, "workspace");
	d->tmp = pc_fs_join(d->root, "tmp");
	pc_fs_mkdir_p(d->home, NULL);
	pc_fs_mkdir_p(ws, NULL);
	pc_fs_mkdir_p(d->tmp, NULL);
	d->ws = pc_fs_realpath(ws);
	free(ws);
	if (!d->ws)
		return -1;
	for (size_t i = 0; environ[i]; i++)
		if (!strncmp(environ[i], "PATH=", 5) || !strncmp(environ[i], "USER=", 5))
			pc_strvec_push(&d->env, environ[i]);
	pc_strvec_pushf(&d->env, "HOME=%s", d->home);
	pc_strvec_pushf(&d->env, "TMPDIR=%s", d->tmp);
	return 0;
}

static void drop_dirs(struct dirs *d)
{
	if (d->root)
		pc_fs_rm_rf(d->root);
	free(d->root);
	free(d->home);
	free(d->ws);
	free(d->tmp);
	pc_strvec_release(&d->env);
}

static int usage_checks(const struct pc_args *a, int hook)
{
	struct pc_err err = PC_ERR_INIT;

	if (hook < 0 || !pc_guard_is_point(hook))
		return pc_cli_usage_error("guard",
					  "'%s': the guard search runs at pre_bash, pre_write, pre_read and pre_tool",
					  a->pos[0]);
	if (pc_args_value(a, "tool") && hook != PC_HOOK_PRE_TOOL)
		return pc_cli_usage_error("guard", "--tool is for pre_tool (%s sees one tool's calls)",
					  a->pos[0]);
	if (pc_guard_families_check(pc_args_value(a, "families"), &err))
		return pc_cli_usage_error("guard", "--families: %s", err.msg);
	return 0;
}

/* The findings' places in plugin.json (the hook's key), as check gives
 * them. */
static void locate(const char *path, const struct pc_manifest_env *menv,
		   struct pc_report *rep)
{
	struct pc_lint l = PC_LINT_INIT;

	pc_lint_plugin(path, menv, getenv("PATH"), &l);
	pc_lint_locate_report(&l, rep);
	pc_lint_release(&l);
}

static int show(const struct pc_args *a, const struct pc_guard_result *r,
		struct pc_report *rep, const char *path)
{
	const char *fmt = pc_args_value(a, "format");
	struct pc_err err = PC_ERR_INIT;
	const char *save = pc_args_value(a, "save");
	int n;

	if (fmt && !strcmp(fmt, "json"))
		pc_cli_print_json(pc_guard_json(r, rep));
	else
		pc_guard_print(stdout, r, rep, pc_cli_color());
	if (save && !r->incomplete) {
		n = pc_guard_save(save, r, path, &err);
		if (n < 0) {
			fprintf(stderr, "plugcheck: --save: %s\n", err.msg);
			return PC_EXIT_INTERNAL;
		}
		fprintf(stderr, n ? "plugcheck: saved %d bypass(es) as regression scenarios in %s\n"
				  : "plugcheck: no bypass to save%.0d (%s not written)\n",
			n, save);
	}
	if (r->incomplete)
		return PC_EXIT_INTERNAL;
	return pc_report_exit_code(rep);
}

/* What the search needs from the command line, read in the parent. */
struct guard_job {
	const struct pc_args *a;
	const char *path;
	int hook;
	struct pc_config cfg;
	struct pc_strvec seeds;
	struct pc_sandbox sb;
};

static void fill_opts(struct guard_job *j, struct pc_plugin *p,
		      const struct dirs *d, struct pc_guard_opts *o)
{
	const struct pc_args *a = j->a;

	o->plugin = p;
	o->hook = j->hook;
	o->tool = pc_args_value(a, "tool");
	o->envp = d->env.v;
	o->workspace = d->ws;
	o->session = "";
	o->tmp = d->tmp;
	o->confine = pc_args_flag(a, "sandbox") ? &j->sb.confine : NULL;
	o->seeds = j->seeds.nr ? &j->seeds : NULL;
	o->config_commands = &j->cfg.guard_commands;
	o->config_paths = &j->cfg.guard_paths;
	o->families = pc_args_value(a, "families");
	o->budget = pc_args_uint(a, "budget", 0);
	o->jobs = pc_args_uint(a, "jobs", 1);
	o->turns = !pc_args_flag(a, "no-turns");
	o->plan_only = pc_args_flag(a, "list");
	o->stop = pc_cli_stop_flag();
	if (isatty(2))
		o->progress = progress;
}

/* The search and its report, in the worker (pc_cli_isolated): its
 * throwaway HOME and workspace are under the worker's temporary root,
 * so whatever a plugin does to the worker, they and every process
 * naming them go. */
static int search(void *ctx)
{
	struct guard_job *j = ctx;
	struct pc_guard_opts o = PC_GUARD_OPTS_INIT;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;
	struct pc_report rep = PC_REPORT_INIT;
	struct pc_manifest_env menv = pc_cli_manifest_env();
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;
	struct dirs d = { .env = PC_STRVEC_INIT };
	char *cls = NULL;
	int rc = PC_EXIT_INTERNAL;

	if (make_dirs(&d) < 0) {
		fprintf(stderr, "plugcheck: cannot create a temporary directory (TMPDIR)\n");
		goto out;
	}
	menv.home = d.home;
	if (pc_manifest_load(j->path, &menv, &p, &err) < 0) {
		fprintf(stderr, "plugcheck: %s: the host rejects the plugin: %s\n", j->path,
			err.msg);
		rc = PC_EXIT_NOLOAD;
		goto out;
	}
	fill_opts(j, p, &d, &o);
	if ((rc = pc_guard_run(&o, &r, &err))) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = rc == PC_EUSAGE ? PC_EXIT_USAGE : PC_EXIT_INTERNAL;
		goto out;
	}
	if (o.progress)
		fputs("\r\033[K", stderr);
	cls = pc_xasprintf("plugcheck.guard.%s", j->a->pos[0]);
	rep.path = pc_xstrdup(j->path);
	rep.name = pc_xstrdup(p->name);
	rep.loaded = true;
	pc_guard_report(&r, p, &rep, cls);
	locate(j->path, &menv, &rep);
	pc_report_finish(&rep);
	rc = show(j->a, &r, &rep, j->path);
out:
	free(cls);
	pc_report_release(&rep);
	pc_guard_result_release(&r);
	pc_plugin_free(p);
	drop_dirs(&d);
	return rc;
}

static int run_guard(const struct pc_args *a)
{
	struct guard_job j = { a, a->pos[1], pc_hook_point_parse(a->pos[0]),
			       PC_CONFIG_INIT, PC_STRVEC_INIT, PC_SANDBOX_INIT };
	struct pc_err err = PC_ERR_INIT;
	int rc;

	if ((rc = usage_checks(a, j.hook)))
		return rc;
	pc_args_list(a, "seed", &j.seeds);
	for (size_t i = 0; i < j.seeds.nr; i++)
		if (!j.seeds.v[i][0]) {
			rc = pc_cli_usage_error("guard", "--seed: an empty seed (give a command or a path)");
			goto out;
		}
	if ((pc_args_value(a, "seeds") && (rc = read_seeds(pc_args_value(a, "seeds"), &j.seeds))) ||
	    (rc = pc_cli_load_config(j.path, &j.cfg)))
		goto out;
	if (pc_args_flag(a, "sandbox") && pc_sandbox_open(&j.sb, environ, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	/* in a worker: `kill -9 $PPID` in a hook reaches it, not us */
	rc = pc_cli_isolated("guard", search, &j);
out:
	pc_sandbox_release(&j.sb);
	pc_strvec_release(&j.seeds);
	pc_config_release(&j.cfg);
	return rc;
}

const struct pc_cmd pc_cmd_guard = {
	.name = "guard",
	.summary = "search a blocking pre hook for bypasses",
	.synopsis = { "POINT PATH [options]" },
	.description = {
		"The guard search for the blocking hook at POINT (pre_bash, pre_write,\n"
		"pre_read or pre_tool) of the Catalyst Code plugin in PATH: fire the\n"
		"built-in corpus of dangerous actions, the plugin's own `expect: deny`\n"
		"fire steps and its .plugcheck.yaml guard_seeds, and benign look-alikes;\n"
		"then rewrite every seed it denies into equivalent inputs (options\n"
		"respelt, quotes, wrappers, chains, other paths, other tools) and show\n"
		"each one that gets through every hook of the plugin on its path. Every\n"
		"input goes to the hooks as JSON; none is run by a shell. A search, not\n"
		"a proof of safety: see docs/guard.md.\n" },
	.exits = "Exit: 0 no bypass and no error, 1 a bypass or another error finding,\n"
		 "2 usage, 3 the plugin could not be loaded, 70 interrupted.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 2,
	.max_pos = 2,
	.run = run_guard,
};

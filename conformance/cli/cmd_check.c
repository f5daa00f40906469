/* cmd_check.c - `plugcheck [check] PATH`: the conformance suite (the
 * Catalyst Code entry; ChatCLI's is in cli_chatcli.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_config.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_report.h"
#include "pc_runner.h"
#include "pc_sandbox.h"
#include "pc_suite.h"

extern char **environ;

static const struct pc_opt opts[] = {
	CLI_OPT_REPORT_FORMAT("human|json|junit|tap|sarif|github|html"),
	CLI_OPT_OUTPUT,
	CLI_OPT_HTML,
	CLI_OPT_STRICT,
	CLI_OPT_IGNORE,
	{ .name = "repeat", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "latency firings per hook (default 5)", .min = 0,
	  .max = 1000, .contracts = PC_C_CATALYST },
	{ .name = "guard-budget", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "inputs the guard search tries per blocking pre hook\n"
		  "(default 200; docs/guard.md)",
	  .min = 1, .max = 100000, .contracts = PC_C_CATALYST },
	{ .name = "jobs", .short_name = 'j', .kind = PC_OPT_VALUE,
	  .metavar = "N",
	  .help = "fire entry points in N worker processes (default 1;\n"
		  "the report is the same, in the same order)",
	  .min = 1, .max = 64, .contracts = PC_C_CATALYST,
	  .why_not = ", whose probes and calls run one at a time" },
	CLI_OPT_SANDBOX("every plugin process"),
	CLI_OPT_HOST,
	CLI_OPT_KEYS,
};

static void progress(void *ctx, const char *label)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kplugcheck: %s", label);
	fflush(stderr);
}

int pc_cli_load_config(const char *dir, struct pc_config *cfg)
{
	struct pc_err err = PC_ERR_INIT;
	char *path = pc_fs_join(dir, ".plugcheck.yaml");
	int rc = pc_config_load(path, cfg, &err);

	free(path);
	if (rc) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_USAGE;
	}
	return 0;
}

/* PATH/.plugcheck.yaml: `ignore`, `strict` and `guard_seeds` (a
 * malformed file is a usage error naming its line). */
static int load_config(const char *dir, struct pc_config *cfg,
		       struct pc_strvec *ignore, bool *strict)
{
	int rc = pc_cli_load_config(dir, cfg);

	if (rc)
		return rc;
	for (size_t i = 0; i < cfg->ignore.nr; i++)
		pc_strvec_push(ignore, cfg->ignore.v[i]);
	*strict = *strict || cfg->strict;
	return 0;
}

int pc_catalyst_check(const struct pc_args *a)
{
	const char *path = a->pos[0];
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_suite_opts so = { 0 };
	struct pc_run_opts ro = PC_RUN_OPTS_INIT;
	struct pc_report r = PC_REPORT_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_config cfg = PC_CONFIG_INIT;
	struct pc_cli_out out;
	int rc;

	so.strict = pc_args_flag(a, "strict");
	pc_args_list(a, "ignore", &r.ignore);
	if ((rc = load_config(path, &cfg, &r.ignore, &so.strict)) ||
	    (rc = pc_cli_out_open(a, &out)))
		goto done;
	if (pc_args_flag(a, "sandbox") && pc_sandbox_open(&sb, environ, &err)) {
		/* never fall back to running the plugin unsandboxed */
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_cli_out_close(&out);
		rc = PC_EXIT_USAGE;
		goto done;
	}
	so.sandbox = pc_args_flag(a, "sandbox") ? &sb : NULL;
	so.path = path;
	so.envp = environ;
	so.menv = &env;
	so.repeat = pc_args_uint(a, "repeat", 0);
	so.jobs = pc_args_uint(a, "jobs", 1);
	so.guard_commands = &cfg.guard_commands;
	so.guard_paths = &cfg.guard_paths;
	so.guard_budget = pc_args_uint(a, "guard-budget", 0);
	so.stop = pc_cli_stop_flag();
	if (isatty(2))
		so.progress = progress;
	if (pc_suite_run(&so, &r, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_cli_out_close(&out);
		rc = PC_EXIT_INTERNAL;
		goto done;
	}
	/* Then the plugin's own scenarios, PATH/tests/ (docs/scenarios.md),
	 * as cases of the same report. */
	ro.sandbox = so.sandbox;
	ro.jobs = so.jobs;
	ro.stop = so.stop;
	if (r.loaded && !r.incomplete)
		pc_runner_check_tests(path, &ro, &r);
	if (so.progress)
		fputs("\r\033[K", stderr);
	rc = pc_cli_out_report(&out, &r);
	if (r.incomplete && !pc_cli_interrupted())
		fputs("plugcheck: internal error: the report is incomplete "
		      "(see its plugcheck.internal cases)\n",
		      stderr);
done:
	pc_report_release(&r);
	pc_config_release(&cfg);
	pc_sandbox_release(&sb);
	return rc;
}

const struct pc_cmd pc_cmd_check = {
	.name = "check",
	.summary = "run the conformance suite on a plugin (the default)",
	.synopsis = { "PATH [options]", "EXE|DIR [options]" },
	.description = {
		"Load the Catalyst Code plugin in PATH as the host does, run every static\n"
		"check, fire every declared entry point through the reference host, run\n"
		"the plugin's own scenarios (PATH/tests/*.plugcheck.yaml), and report\n"
		"what the host will do to it and what will break. `plugcheck PATH` is\n"
		"the same. Every blocking pre_bash, pre_write, pre_read and pre_tool hook\n"
		"gets the guard search (`plugcheck guard`). PATH/.plugcheck.yaml may hold\n"
		"`ignore: [IDS]`, `strict: true` and `guard_seeds: {commands: [...],\n"
		"paths: [...]}`; `plugcheck rules` lists every check id and\n"
		"`plugcheck explain ID` explains one. Each finding starts with its\n"
		"place, FILE:LINE:COL, as compilers print it.\n",
		"The ChatCLI conformance suite: everything lint does, plus the probes'\n"
		"determinism and side effects and representative model calls generated\n"
		"from the schema (JSON form with cmd, text form).\n" },
	.exits = "Exit: 0 clean, 1 errors found (or warnings with --strict), 2 usage\n"
		 "(or --sandbox cannot work here), 3 the plugin could not be loaded at all,\n"
		 "70 interrupted, an internal error or a report that could not be\n"
		 "written (the report is marked incomplete).\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.by_contract = true,
	.path_pos = 0,
	.entry = PC_CONTRACT_CHECK,
};

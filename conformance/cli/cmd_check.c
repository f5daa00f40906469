/* cmd_check.c - `plugcheck [check] PATH`: the conformance suite. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_chatcli_cli.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_config.h"
#include "pc_exit.h"
#include "pc_finding.h"
#include "pc_fs.h"
#include "pc_report.h"
#include "pc_runner.h"
#include "pc_suite.h"

extern char **environ;

static const char usage[] =
	"usage: plugcheck check PATH [options]\n"
	"       plugcheck PATH [options]\n\n"
	"Load the Catalyst Code plugin in PATH as the host does, run every static\n"
	"check, fire every declared entry point through the reference host, and\n"
	"report what the host will do to it and what will break.\n\n"
	"  --format FMT    human (default), json, junit or tap\n"
	"  --output FILE   write the report (in --format) to FILE; the human\n"
	"                  summary still goes to standard output\n"
	"  --strict        warnings fail the run too\n"
	"  --ignore ID     suppress a rule id (repeatable; shown as suppressed)\n"
	"  --repeat N      latency firings per hook (default 5)\n"
	"  -j, --jobs N    fire entry points in N worker processes (default 1;\n"
	"                  the report is the same, in the same order)\n"
	"  --sandbox       run every plugin process under bubblewrap with only\n"
	"                  its declared capabilities; report what it tries\n"
	"                  beyond them (PC-SBX-*; needs bwrap and strace)\n"
	"  -h, --help      show this help\n\n"
	"PATH/.plugcheck.yaml may hold `ignore: [IDS]` and `strict: true`.\n"
	"`plugcheck rules` lists every check id.\n\n"
	"Exit: 0 clean, 1 errors found (or warnings with --strict), 2 usage\n"
	"(or --sandbox cannot work here), 3 the plugin could not be loaded at all,\n"
	"70 interrupted or an internal error (the report is marked incomplete).\n";

static void progress(void *ctx, const char *label)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kplugcheck: %s", label);
	fflush(stderr);
}

static bool atoi_ok(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > 1000)
		return false;
	*out = (unsigned)v;
	return true;
}

struct check_opts {
	int fmt;
	const char *output;
	bool strict;
	unsigned repeat;
	unsigned jobs;
	struct pc_strvec ignore;
	const char *path;
	bool sandbox;
};

static int parse(int argc, char **argv, struct check_opts *c)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "sandbox", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return -1;
		} else if (ch == 'f') {
			if ((c->fmt = pc_report_format_parse(optarg)) < 0)
				return pc_cli_bad_value("check", "format", optarg,
							"human, json, junit or tap");
		} else if (ch == 'o') {
			c->output = pc_cli_output_path(optarg);
		} else if (ch == 's') {
			c->strict = true;
		} else if (ch == 'S') {
			c->sandbox = true;
		} else if (ch == 'i' && pc_rule_find(optarg)) {
			pc_strvec_push(&c->ignore, optarg);
		} else if (ch == 'r') {
			if (!atoi_ok(optarg, &c->repeat))
				return pc_cli_bad_value("check", "repeat", optarg,
							"a whole number 0..1000");
		} else if (ch == 'j') {
			if (!atoi_ok(optarg, &c->jobs) || c->jobs < 1 || c->jobs > 64)
				return pc_cli_bad_value("check", "jobs", optarg,
							"a whole number 1..64");
		} else {
			if (ch == 'i')
				fprintf(stderr, "plugcheck: unknown rule id '%s' (see `plugcheck rules`)\n",
					optarg);
			fputs(usage, stderr);
			return PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	c->path = argv[optind];
	return 0;
}

static int write_output(const struct pc_report *r, const struct check_opts *c,
			struct pc_cli_out *out)
{
	int rc;

	if (!c->output)
		return pc_report_write(r, (enum pc_report_format)c->fmt, stdout,
				       c->fmt == PC_REPORT_HUMAN && pc_cli_color());
	rc = pc_report_write(r, (enum pc_report_format)c->fmt,
			     pc_cli_out_file(out), false);
	if (pc_cli_out_close(out))
		rc = PC_EIO;
	if (!rc)
		rc = pc_report_write(r, PC_REPORT_HUMAN, stdout, pc_cli_color());
	return rc;
}

static int load_config(struct check_opts *c)
{
	struct pc_config cfg = PC_CONFIG_INIT;
	struct pc_err err = PC_ERR_INIT;
	char *path = pc_fs_join(c->path, ".plugcheck.yaml");
	int rc = pc_config_load(path, &cfg, &err);

	free(path);
	if (rc) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_config_release(&cfg);
		return PC_EXIT_USAGE;
	}
	for (size_t i = 0; i < cfg.ignore.nr; i++)
		pc_strvec_push(&c->ignore, cfg.ignore.v[i]);
	c->strict = c->strict || cfg.strict;
	pc_config_release(&cfg);
	return 0;
}

static int run_catalyst(int argc, char **argv)
{
	struct check_opts c = { .fmt = PC_REPORT_HUMAN, .ignore = PC_STRVEC_INIT };
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_suite_opts so = { 0 };
	struct pc_report r = PC_REPORT_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_cli_out out = PC_CLI_OUT_INIT;
	cJSON *scn = NULL;
	int rc = parse(argc, argv, &c);

	if (rc || (rc = load_config(&c))) {
		pc_strvec_release(&c.ignore);
		return rc < 0 ? PC_EXIT_OK : rc;
	}
	/* fail before the run, not after it; and keep it open, so that a
	 * plugin cannot keep the report from being written */
	if ((rc = pc_cli_out_open(&out, c.output))) {
		pc_strvec_release(&c.ignore);
		return rc;
	}
	if (c.sandbox && pc_sandbox_open(&sb, environ, &err)) {
		/* never fall back to running the plugin unsandboxed */
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_cli_out_close(&out);
		pc_strvec_release(&c.ignore);
		return PC_EXIT_USAGE;
	}
	so.sandbox = c.sandbox ? &sb : NULL;
	so.path = c.path;
	so.envp = environ;
	so.menv = &env;
	so.strict = c.strict;
	so.ignore = &c.ignore;
	so.repeat = c.repeat;
	so.jobs = c.jobs;
	so.stop = pc_cli_stop_flag();
	if (isatty(2)) {
		so.progress = progress;
	}
	rc = pc_suite_run(&so, &r, &err);
	/* Then the plugin's own scenarios, PATH/tests/ (docs/scenarios.md). */
	if (!rc && r.loaded && !r.incomplete &&
	    pc_runner_check_tests(c.path, so.sandbox, &r, &scn, &err) < 0) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_report_release(&r);
		pc_strvec_release(&c.ignore);
		pc_sandbox_release(&sb);
		pc_cli_out_close(&out);
		return PC_EXIT_USAGE;
	}
	if (so.progress)
		fputs("\r\033[K", stderr);
	if (rc) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_INTERNAL;
	} else if (write_output(&r, &c, &out)) {
		rc = PC_EXIT_INTERNAL;
	} else {
		rc = !r.loaded ? PC_EXIT_NOLOAD
		     : pc_report_failed(&r) ? PC_EXIT_FINDINGS
					    : PC_EXIT_OK;
		if (scn && (c.fmt == PC_REPORT_HUMAN || c.output))
			pc_runner_print(stdout, scn, 1);
		if (scn && pc_runner_failed(scn) && rc == PC_EXIT_OK)
			rc = PC_EXIT_FINDINGS;
		if (r.incomplete && !pc_cli_interrupted())
			fputs("plugcheck: internal error: the report is incomplete "
			      "(see its plugcheck.internal cases)\n",
			      stderr);
		if (r.incomplete)
			rc = PC_EXIT_INTERNAL;
	}
	pc_cli_out_close(&out); /* after an error: closed, nothing written */
	cJSON_Delete(scn);
	pc_report_release(&r);
	pc_strvec_release(&c.ignore);
	pc_sandbox_release(&sb);
	return rc;
}

/* run - ChatCLI plugins (and --host) are routed to cli_chatcli.c; the
 * Catalyst path is unchanged. */
static int run(int argc, char **argv)
{
	int rc = pc_chatcli_cli_route(&argc, argv, "check");

	return rc >= 0 ? rc : run_catalyst(argc, argv);
}

const struct pc_cmd pc_cmd_check = {
	.name = "check",
	.summary = "run the conformance suite on a plugin (the default)",
	.usage = usage,
	.run = run,
};

/* cmd_install_check.c - `plugcheck install-check PATH|ZIP`: install the
 * plugin as the host's /plugin-install does, then check the copy. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_chatcli_cli.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_finding.h"
#include "pc_install_check.h"
#include "pc_report.h"

extern char **environ;

static const char usage[] =
	"usage: plugcheck install-check PATH|ZIP [options]\n\n"
	"Install the Catalyst Code plugin in the directory PATH, or in the\n"
	"release zip ZIP, into a temporary HOME and workspace exactly as the\n"
	"host's /plugin-install does (validation, the copy and its exclusions,\n"
	"symlinks, execute bits, the source sidecar, the trust store), then load\n"
	"the installed copy and run the conformance suite on it. PC-INST-*\n"
	"findings say what the install changed compared with the source.\n\n"
	"  --scope S       global (default) or workspace (any spelling the host\n"
	"                  accepts: user, project, local, -g, -w, ...)\n"
	"  --with DIR      install the plugin in DIR globally first (repeatable;\n"
	"                  shows name collisions)\n"
	"  --format FMT    human (default), json, junit or tap\n"
	"  --strict        warnings fail the run too\n"
	"  --ignore ID     suppress a rule id (repeatable)\n"
	"  --repeat N      latency firings per hook (default 5)\n"
	"  -h, --help      show this help\n\n"
	"A git directory or URL without plugin.json is a ChatCLI plugin: see\n"
	"`plugcheck install-check --host chatcli --help`.\n\n"
	"Exit: 0 clean, 1 errors found (or warnings with --strict), 2 usage,\n"
	"3 the plugin could not be loaded at all, 70 interrupted.\n";

struct ic_opts {
	int fmt;
	bool strict;
	unsigned repeat;
	struct pc_strvec ignore, with;
	struct pc_install_check_opts io;
};

static int bad(const char *msg)
{
	if (msg)
		fprintf(stderr, "plugcheck: %s\n", msg);
	fputs(usage, stderr);
	return PC_EXIT_USAGE;
}

static int parse(int argc, char **argv, struct ic_opts *c)
{
	static const struct option opts[] = {
		{ "scope", required_argument, NULL, 'S' },
		{ "with", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "strict", no_argument, NULL, 's' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_err err = PC_ERR_INIT;
	char *end;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return -1;
		} else if (ch == 'S') {
			if (pc_install_scope_parse(optarg, &c->io.scope, &err))
				return bad(err.msg);
		} else if (ch == 'w') {
			pc_strvec_push(&c->with, optarg);
		} else if (ch == 'f' &&
			   (c->fmt = pc_report_format_parse(optarg)) >= 0) {
			continue;
		} else if (ch == 's') {
			c->strict = true;
		} else if (ch == 'i' && pc_rule_find(optarg)) {
			pc_strvec_push(&c->ignore, optarg);
		} else if (ch == 'r' &&
			   (c->repeat = (unsigned)strtoul(optarg, &end, 10),
			    *optarg && !*end && c->repeat <= 1000)) {
			continue;
		} else {
			return bad(NULL);
		}
	}
	if (optind != argc - 1)
		return bad(NULL);
	c->io.source = argv[optind];
	return 0;
}

static int run(int argc, char **argv)
{
	struct ic_opts c = { .fmt = PC_REPORT_HUMAN,
			     .ignore = PC_STRVEC_INIT,
			     .with = PC_STRVEC_INIT };
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_report r = PC_REPORT_INIT;
	struct pc_err err = PC_ERR_INIT;
	int rc = pc_chatcli_install_route(&argc, argv);

	if (rc >= 0)
		return rc;
	rc = parse(argc, argv, &c);
	if (rc)
		goto out;
	c.io.with = &c.with;
	c.io.suite.envp = environ;
	c.io.suite.menv = &env;
	c.io.suite.strict = c.strict;
	c.io.suite.ignore = &c.ignore;
	c.io.suite.repeat = c.repeat;
	c.io.suite.stop = pc_cli_stop_flag();
	if (pc_install_check_run(&c.io, &r, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = err.code == PC_EIO ? PC_EXIT_INTERNAL : PC_EXIT_USAGE;
	} else if (pc_report_write(&r, (enum pc_report_format)c.fmt, stdout,
				   c.fmt == PC_REPORT_HUMAN &&
					   pc_cli_color())) {
		rc = PC_EXIT_INTERNAL;
	} else {
		rc = !r.loaded		    ? PC_EXIT_NOLOAD
		     : pc_report_failed(&r) ? PC_EXIT_FINDINGS
					    : PC_EXIT_OK;
		if (r.incomplete) /* interrupted (README "Ctrl-C") */
			rc = PC_EXIT_INTERNAL;
	}
	pc_report_release(&r);
out:
	pc_strvec_release(&c.ignore);
	pc_strvec_release(&c.with);
	return rc < 0 ? PC_EXIT_OK : rc;
}

const struct pc_cmd pc_cmd_install_check = {
	.name = "install-check",
	.summary =
		"install a plugin (directory or release zip) as the host does and check the copy",
	.usage = usage,
	.run = run,
};

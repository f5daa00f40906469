/* cli_chatcli_install.c - `plugcheck install-check GIT_DIR|URL` for
 * ChatCLI plugins (docs/chatcli.md, pc_chatcli_icheck.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_chatcli_icheck.h"
#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const char usage[] =
	"usage: plugcheck install-check GIT_DIR|URL [--host chatcli] [--go PATH]\n"
	"                               [--format human|json|junit|tap] [--strict] [--ignore ID]\n\n"
	"Install a ChatCLI plugin as `/plugin install URL` does, into a throwaway\n"
	"$HOME/.chatcli/plugins: git clone --depth=1 (a .../tree/BRANCH/DIR URL\n"
	"clones the repository and builds DIR), the binary name the host derives,\n"
	"`go build -o PLUGINS/NAME .` and chmod 0755. Then replay the reloads the\n"
	"host's watcher runs (500 ms debounce, Chmod ignored) with their cost, the\n"
	"signing fix, and run the ChatCLI check on the result. A tree the host\n"
	"cannot build (no Go) is reported, then installed by hand (make when there\n"
	"is a Makefile, cp of each top-level #! or ELF file, chmod +x a second\n"
	"later) so the plugin itself is still checked.\n\n"
	"  --host chatcli  force the ChatCLI reading of the source (default: a URL,\n"
	"                  or a git directory without plugin.json)\n"
	"  --go PATH       the go command to build with (default: go from PATH;\n"
	"                  without one, a Go tree is not built)\n"
	"  --format FMT    human (default), json, junit or tap\n"
	"  --strict        warnings fail the run too\n"
	"  --ignore ID     suppress a rule id (repeatable)\n"
	"  -h, --help      show this help\n\n"
	"CHATCLI_ALLOW_UNSIGNED_PLUGINS=true is honoured as the host does.\n"
	"Exit: 0 clean, 1 errors (or warnings with --strict), 2 usage,\n"
	"3 nothing could be installed, 70 interrupted.\n";

struct icopts {
	int fmt;
	bool strict;
	struct pc_strvec ignore;
	struct pc_chatcli_icheck_opts io;
};

static int bad(void)
{
	fputs(usage, stderr);
	return PC_EXIT_USAGE;
}

/* parse - returns -1 to go on, else an exit code. */
static int parse(int argc, char **argv, struct icopts *c)
{
	static const struct option opts[] = {
		{ "go", required_argument, NULL, 'g' },
		{ "format", required_argument, NULL, 'f' },
		{ "strict", no_argument, NULL, 's' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return PC_EXIT_OK;
		} else if (ch == 'g') {
			c->io.go = optarg;
		} else if (ch == 'f' &&
			   (c->fmt = pc_report_format_parse(optarg)) >= 0) {
			continue;
		} else if (ch == 's') {
			c->strict = true;
		} else if (ch == 'i' && pc_rule_find(optarg)) {
			pc_strvec_push(&c->ignore, optarg);
		} else {
			return bad();
		}
	}
	if (optind != argc - 1)
		return bad();
	c->io.source = argv[optind];
	return -1;
}

static int run(int argc, char **argv)
{
	struct icopts c = { .fmt = PC_REPORT_HUMAN, .ignore = PC_STRVEC_INIT };
	struct pc_report r = PC_REPORT_INIT;
	struct pc_strvec log = PC_STRVEC_INIT;
	struct pc_err err = PC_ERR_INIT;
	int rc = parse(argc, argv, &c);

	if (rc >= 0)
		goto out;
	c.io.allow_unsigned = pc_chatcli_unsigned_allowed(
		getenv("CHATCLI_ALLOW_UNSIGNED_PLUGINS"));
	r.strict = c.strict;
	for (size_t i = 0; i < c.ignore.nr; i++)
		pc_strvec_push(&r.suppressed_ids, c.ignore.v[i]);
	c.io.stop = pc_cli_stop_flag();
	if (pc_chatcli_icheck_run(&c.io, &r, &log, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_INTERNAL;
		goto out;
	}
	if (c.fmt == PC_REPORT_HUMAN) {
		for (size_t i = 0; i < log.nr; i++)
			puts(log.v[i]);
		putchar('\n');
	}
	if (pc_report_write(&r, (enum pc_report_format)c.fmt, stdout,
			    c.fmt == PC_REPORT_HUMAN && pc_cli_color()))
		rc = PC_EXIT_INTERNAL;
	else
		rc = r.incomplete	    ? PC_EXIT_INTERNAL /* Ctrl-C */
		     : !r.name		    ? PC_EXIT_NOLOAD
		     : pc_report_failed(&r) ? PC_EXIT_FINDINGS
					    : PC_EXIT_OK;
out:
	pc_report_release(&r);
	pc_strvec_release(&log);
	pc_strvec_release(&c.ignore);
	return rc;
}

int pc_chatcli_install_route(int *argc, char **argv)
{
	const char *host = NULL, *src = NULL;
	int w = 1, n = *argc;

	for (int i = 1; i < n; i++) {
		const char *a = argv[i];

		if (pc_cli_host_opt(argv, n, &i, &host))
			continue;
		argv[w++] = argv[i];
		if (a[0] == '-' && a[1] && !strchr(a, '=') &&
		    strcmp(a, "--strict") && strcmp(a, "--help") &&
		    strcmp(a, "-h") && i + 1 < n)
			argv[w++] = argv[++i];
		else if (a[0] != '-' && !src)
			src = a;
	}
	*argc = w;
	argv[w] = NULL;
	if (host && strcmp(host, "chatcli") && strcmp(host, "catalyst")) {
		fprintf(stderr,
			"plugcheck: --host must be chatcli or catalyst\n");
		return PC_EXIT_USAGE;
	}
	if (host ? !strcmp(host, "catalyst")
		 : !src || !pc_chatcli_icheck_is_source(src))
		return -1;
	return run(*argc, argv);
}

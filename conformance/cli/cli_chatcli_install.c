/* cli_chatcli_install.c - `plugcheck install-check GIT_DIR|URL` for
 * ChatCLI plugins (docs/chatcli.md, pc_chatcli_icheck.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_report.h"
#include "pc_chatcli_icheck.h"
#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static int chatcli_install_check(void *ctx)
{
	const struct pc_args *a = ctx;
	struct pc_chatcli_icheck_opts io = { 0 };
	struct pc_report r = PC_REPORT_INIT;
	struct pc_strvec log = PC_STRVEC_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_cli_out out;
	int rc;

	if ((rc = pc_cli_out_open(a, &out)))
		return rc;
	io.source = a->pos[0];
	io.go = pc_args_value(a, "go");
	io.allow_unsigned = pc_chatcli_unsigned_allowed(
		getenv("CHATCLI_ALLOW_UNSIGNED_PLUGINS"));
	r.strict = pc_args_flag(a, "strict");
	pc_args_list(a, "ignore", &r.ignore);
	io.stop = pc_cli_stop_flag();
	if (pc_chatcli_icheck_run(&io, &r, &log, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_cli_out_close(&out);
		rc = PC_EXIT_INTERNAL;
		goto out;
	}
	if ((out.fmt == PC_REPORT_HUMAN || out.fmt == PC_REPORT_GITHUB) &&
	    !out.report.f) {
		for (size_t i = 0; i < log.nr; i++)
			puts(log.v[i]);
		putchar('\n');
	}
	rc = pc_cli_out_report(&out, &r);
out:
	pc_report_release(&r);
	pc_strvec_release(&log);
	return rc;
}

/* In a worker (pc_cli_isolated), as check: the plugin's probes and the
 * install's git and go runs cannot kill or freeze plugcheck. */
int pc_chatcli_install_check(const struct pc_args *a)
{
	return pc_cli_isolated("install-check", chatcli_install_check,
			       (void *)a);
}

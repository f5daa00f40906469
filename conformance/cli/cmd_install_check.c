/* cmd_install_check.c - `plugcheck install-check PATH|ZIP`: install the
 * plugin as the host's /plugin-install does, then check the copy (the
 * Catalyst Code entry; ChatCLI's git install is cli_chatcli_install.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_install.h"
#include "pc_install_check.h"
#include "pc_report.h"

extern char **environ;

static const struct pc_opt opts[] = {
	{ .name = "scope", .kind = PC_OPT_VALUE, .metavar = "S",
	  .help = "global (default) or workspace (any spelling the host\n"
		  "accepts: user, project, local, -g, -w, ...)",
	  .contracts = PC_C_CATALYST },
	{ .name = "with", .kind = PC_OPT_LIST, .metavar = "DIR",
	  .help = "install the plugin in DIR globally first (repeatable;\n"
		  "shows name collisions)",
	  .contracts = PC_C_CATALYST },
	CLI_OPT_REPORT_FORMAT("human|json|junit|tap|sarif|github"),
	CLI_OPT_OUTPUT,
	CLI_OPT_STRICT,
	CLI_OPT_IGNORE,
	{ .name = "repeat", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "latency firings per hook (default 5)", .min = 0,
	  .max = 1000, .contracts = PC_C_CATALYST },
	{ .name = "go", .kind = PC_OPT_VALUE, .metavar = "PATH",
	  .help = "the go command to build with (default: go from PATH;\n"
		  "without one, a Go tree is not built)",
	  .contracts = PC_C_CHATCLI },
	CLI_OPT_HOST,
};

int pc_catalyst_install_check(const struct pc_args *a)
{
	struct pc_install_check_opts io = { 0 };
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_strvec ignore = PC_STRVEC_INIT, with = PC_STRVEC_INIT;
	struct pc_report r = PC_REPORT_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_cli_out out;
	int rc;

	/* the host's own parse and message (plugins.rs:899-907) */
	if (pc_args_value(a, "scope") &&
	    pc_install_scope_parse(pc_args_value(a, "scope"), &io.scope, &err))
		return pc_cli_usage_error("install-check", "--scope: %s", err.msg);
	if ((rc = pc_cli_out_open(a, &out)))
		return rc;
	io.source = a->pos[0];
	pc_args_list(a, "with", &with);
	pc_args_list(a, "ignore", &ignore);
	io.with = &with;
	io.suite.envp = environ;
	io.suite.menv = &env;
	io.suite.strict = pc_args_flag(a, "strict");
	io.suite.ignore = &ignore;
	io.suite.repeat = pc_args_uint(a, "repeat", 0);
	io.suite.stop = pc_cli_stop_flag();
	if (pc_install_check_run(&io, &r, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_cli_out_close(&out);
		rc = err.code == PC_EIO ? PC_EXIT_INTERNAL : PC_EXIT_USAGE;
	} else {
		r.strict = io.suite.strict;
		for (size_t i = 0; i < ignore.nr; i++)
			pc_strvec_push(&r.ignore, ignore.v[i]);
		rc = pc_cli_out_report(&out, &r);
	}
	pc_report_release(&r);
	pc_strvec_release(&ignore);
	pc_strvec_release(&with);
	return rc;
}

const struct pc_cmd pc_cmd_install_check = {
	.name = "install-check",
	.summary =
		"install a plugin (directory or release zip) as the host does and check the copy",
	.synopsis = { "PATH|ZIP [options]", "GIT_DIR|URL [options]" },
	.description = {
		"Install the Catalyst Code plugin in the directory PATH, or in the\n"
		"release zip ZIP, into a temporary HOME and workspace exactly as the\n"
		"host's /plugin-install does (validation, the copy and its exclusions,\n"
		"symlinks, execute bits, the source sidecar, the trust store), then load\n"
		"the installed copy and run the conformance suite on it. PC-INST-*\n"
		"findings say what the install changed compared with the source.\n",
		"Install a ChatCLI plugin as `/plugin install URL` does, into a throwaway\n"
		"$HOME/.chatcli/plugins: git clone --depth=1 (a .../tree/BRANCH/DIR URL\n"
		"clones the repository and builds DIR), the binary name the host derives,\n"
		"`go build -o PLUGINS/NAME .` and chmod 0755. Then replay the reloads the\n"
		"host's watcher runs (500 ms debounce, Chmod ignored) with their cost, the\n"
		"signing fix, and run the ChatCLI check on the result. A tree the host\n"
		"cannot build (no Go) is reported, then installed by hand (make when there\n"
		"is a Makefile, cp of each top-level #! or ELF file, chmod +x a second\n"
		"later) so the plugin itself is still checked.\n"
		"CHATCLI_ALLOW_UNSIGNED_PLUGINS=true is honoured as the host does.\n" },
	.exits = "Exit: 0 clean, 1 errors found (or warnings with --strict), 2 usage,\n"
		 "3 the plugin could not be loaded at all (nothing installed), 70\n"
		 "interrupted or a report that could not be written.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.by_contract = true,
	.path_pos = 0,
	.entry = PC_CONTRACT_INSTALL_CHECK,
};

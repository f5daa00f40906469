/* main.c - plugcheck's entry point: signals, global options, one parse of
 * the command line against the command table, dispatch (by contract for
 * the commands that serve both), and the check that stdout was written. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_proc.h"

const struct pc_cmd *const pc_cmds[] = {
	&pc_cmd_add,
	&pc_cmd_check,
	&pc_cmd_explain,
	&pc_cmd_fire,
	&pc_cmd_guard,
	&pc_cmd_install_check,
	&pc_cmd_keygen,
	&pc_cmd_lint,
	&pc_cmd_mock_model,
	&pc_cmd_new,
	&pc_cmd_rules,
	&pc_cmd_run,
	&pc_cmd_sign,
	&pc_cmd_trust,
	&pc_cmd_turn,
	&pc_cmd_verify,
};
const size_t pc_ncmds = sizeof(pc_cmds) / sizeof(pc_cmds[0]);

const struct pc_cmd *pc_cmd_find(const char *name)
{
	for (size_t i = 0; i < pc_ncmds; i++)
		if (!strcmp(pc_cmds[i]->name, name))
			return pc_cmds[i];
	return NULL;
}

const struct pc_exit_doc pc_exit_docs[] = {
	{ PC_EXIT_OK, "clean (check), loaded (lint), allowed or succeeded\n"
		      "(fire), written (new, add)" },
	{ PC_EXIT_FINDINGS, "errors found (warnings too with --strict), a\n"
			    "denial or a failed call" },
	{ PC_EXIT_USAGE, "usage error (a malformed .plugcheck.yaml too, and\n"
			 "--sandbox where bwrap or strace cannot work)" },
	{ PC_EXIT_NOLOAD, "the plugin could not be loaded at all" },
	{ PC_EXIT_INTERNAL, "internal error, a report that could not be\n"
			    "written, or the run was interrupted (the report\n"
			    "is then marked incomplete)" },
};
const size_t pc_nexit_docs = sizeof(pc_exit_docs) / sizeof(pc_exit_docs[0]);

static void usage(FILE *f)
{
	int w = 0;

	for (size_t i = 0; i < pc_ncmds; i++)
		if ((int)strlen(pc_cmds[i]->name) > w)
			w = (int)strlen(pc_cmds[i]->name);
	fputs("usage: plugcheck <command> [options] ...\n"
	      "       plugcheck PATH [options]   (plugcheck check PATH)\n"
	      "       plugcheck --version | --help | --man\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < pc_ncmds; i++)
		fprintf(f, "  %-*s %s\n", w, pc_cmds[i]->name, pc_cmds[i]->summary);
	fputs("\nExit codes:\n", f);
	for (size_t i = 0; i < pc_nexit_docs; i++) {
		fprintf(f, "  %-3d ", pc_exit_docs[i].code);
		for (const char *p = pc_exit_docs[i].meaning; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fputs("      ", f);
		}
		fputc('\n', f);
	}
	fputs("\n`plugcheck COMMAND --help` shows a command's options;\n"
	      "`plugcheck explain ID` explains the id a finding names.\n"
	      "`plugcheck --man` prints the manual page (plugcheck(1)).\n",
	      f);
}

/* interrupted - README "Ctrl-C": whatever the command printed was cut
 * short, so the exit is 70 and stderr says so. */
static int interrupted(int rc)
{
	if (!pc_cli_interrupted() || rc == PC_EXIT_USAGE)
		return rc;
	fputs("plugcheck: interrupted: the plugin tree was killed; the output "
	      "above is incomplete\n",
	      stderr);
	return PC_EXIT_INTERNAL;
}

/* The contract of a contract command, and its options checked against
 * it: an option of the other contract is a usage error naming why. */
static int pick(const struct pc_cmd *cmd, struct pc_args *a)
{
	const char *host = pc_args_value(a, "host");
	struct stat st;
	const char *path = cmd->path_pos < a->npos ? a->pos[cmd->path_pos]
						   : NULL;

	a->contract = pc_contract_pick(cmd, host, path);
	if (!a->contract)
		return pc_cli_usage_error(cmd->name, "--host: invalid value '%s' (expected catalyst or chatcli)",
					  host);
	/* A PATH that names nothing is a typo to point out, not a plugin to
	 * report on (issue 20); ChatCLI's install-check also takes URLs. */
	if (path && !a->help &&
	    !(a->contract == &pc_contract_chatcli &&
	      cmd->entry == PC_CONTRACT_INSTALL_CHECK) &&
	    stat(path, &st) && (errno == ENOENT || errno == ENOTDIR))
		return pc_cli_usage_error(cmd->name, "'%s' does not exist", path);
	for (size_t i = 0; i < a->nuses; i++) {
		const struct pc_opt *o = a->uses[i].opt;
		char flag[80], drop[64];

		if (!o->contracts || (o->contracts & a->contract->bit))
			continue;
		if (o->short_name) {
			snprintf(flag, sizeof(flag), "-%c/--%s", o->short_name,
				 o->name);
			snprintf(drop, sizeof(drop), "-%c", o->short_name);
		} else {
			snprintf(flag, sizeof(flag), "--%s", o->name);
			snprintf(drop, sizeof(drop), "--%s", o->name);
		}
		return pc_cli_usage_error(
			cmd->name,
			"%s is for %s plugins only; '%s' is a %s plugin%s; fix: drop %s",
			flag,
			a->contract == &pc_contract_catalyst ? "ChatCLI"
							     : "Catalyst Code",
			path ? path : "PATH", a->contract->title,
			o->why_not ? o->why_not : "", drop);
	}
	return 0;
}

/* Run `cmd` on argv[0..argc) (argv[0] is its name). */
static int dispatch(const struct pc_cmd *cmd, int argc, char **argv)
{
	struct pc_args a = PC_ARGS_INIT;
	int rc = pc_args_parse(cmd, argc, argv, &a);

	if (!rc && cmd->by_contract && !a.help)
		rc = pick(cmd, &a);
	if (!rc && a.help) {
		if (cmd->by_contract && pc_args_value(&a, "host"))
			a.contract = pc_contract_pick(cmd, pc_args_value(&a, "host"),
						      NULL);
		pc_cmd_help(cmd, a.contract, stdout);
	} else if (!rc) {
		rc = cmd->by_contract ? a.contract->run[cmd->entry](&a)
				      : cmd->run(&a);
	}
	pc_args_release(&a);
	return rc;
}

/* Everything a command printed must have reached stdout: a full disk or
 * a closed pipe is an error, not a silent exit 0 (git's run_builtin). */
static int flushed(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	pc_cli_stdout_failed(errno);
	return rc == PC_EXIT_USAGE ? rc : PC_EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };
	const struct pc_cmd *cmd;
	struct stat st;

	/* first: what the emulated hosts would have started with, before
	 * plugcheck ignores SIGPIPE and traps its interrupts (issue 18) */
	pc_proc_sigs_note_start();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	/* SIGINT, SIGTERM, SIGHUP, SIGQUIT for every command: kill the
	 * plugin trees and the worker processes, and let the command finish:
	 * the exchange in progress ends as killed, temporary files are
	 * removed, and the exit is 70 (interrupted() below). */
	pc_cli_trap_interrupts();
	if (argc < 2) {
		fputs("plugcheck: missing command: give one, or a plugin PATH to check\n"
		      "Run `plugcheck --help` for usage.\n",
		      stderr);
		return PC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		puts("plugcheck " PC_VERSION);
		return flushed(PC_EXIT_OK);
	}
	if (!strcmp(argv[1], "--man")) {
		pc_cmd_man(stdout);
		return flushed(PC_EXIT_OK);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return flushed(PC_EXIT_OK);
	}
	cmd = pc_cmd_find(argv[1]);
	if (cmd)
		return flushed(interrupted(dispatch(cmd, argc - 1, argv + 1)));
	if (stat(argv[1], &st) == 0 || strchr(argv[1], '/')) {
		argv[0] = (char *)"check";
		return flushed(interrupted(dispatch(&pc_cmd_check, argc, argv)));
	}
	fprintf(stderr,
		"plugcheck: '%s' is not a command, nor a plugin path that exists\n"
		"Run `plugcheck --help` for usage.\n",
		argv[1]);
	return PC_EXIT_USAGE;
}

/* main.c - plugcheck's entry point: signals, global options, dispatch. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_proc.h"

const struct pc_cmd *const pc_cmds[] = {
	&pc_cmd_add,
	&pc_cmd_check,
	&pc_cmd_fire,
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

static void usage(FILE *f)
{
	int w = 0;

	for (size_t i = 0; i < pc_ncmds; i++)
		if ((int)strlen(pc_cmds[i]->name) > w)
			w = (int)strlen(pc_cmds[i]->name);
	fputs("usage: plugcheck <command> [options] ...\n"
	      "       plugcheck --version | --help\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < pc_ncmds; i++)
		fprintf(f, "  %-*s %s\n", w, pc_cmds[i]->name, pc_cmds[i]->summary);
	fputs("\nExit codes:\n"
	      "  0   clean / loaded / allowed\n"
	      "  1   errors found (warnings too with --strict), a denial or a\n"
	      "      failed call\n"
	      "  2   usage error\n"
	      "  3   the plugin could not be loaded at all\n"
	      "  70  internal error, or the run was interrupted (the report is\n"
	      "      then marked incomplete)\n\n"
	      "`plugcheck PATH` is `plugcheck check PATH`; `plugcheck COMMAND\n"
	      "--help` shows a command's options.\n",
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
	 * plugin trees (they lead their own process groups) and let the
	 * command finish: the exchange in progress ends as killed, temporary
	 * files are removed, and the exit is 70 (interrupted() below). */
	pc_cli_trap_interrupts();
	if (argc < 2) {
		usage(stderr);
		return PC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		puts("plugcheck " PC_VERSION);
		return PC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return PC_EXIT_OK;
	}
	cmd = pc_cmd_find(argv[1]);
	if (cmd)
		return interrupted(cmd->run(argc - 1, argv + 1));
	if (stat(argv[1], &st) == 0 || strchr(argv[1], '/')) {
		argv[0] = (char *)"check";
		return interrupted(pc_cmd_check.run(argc, argv));
	}
	fprintf(stderr, "plugcheck: '%s' is not a command or a path\n", argv[1]);
	usage(stderr);
	return PC_EXIT_USAGE;
}

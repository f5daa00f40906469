/* pc_cli.h - helpers shared by the subcommands (output, host set-up). */
#ifndef PC_CLI_H
#define PC_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "pc_host.h"
#include "pc_manifest.h"

enum pc_format { PC_FMT_HUMAN, PC_FMT_JSON };

/* pc_cli_format - parse "human" or "json"; -1 otherwise. */
int pc_cli_format(const char *s);
struct pc_args;
struct pc_report;
struct pc_config;

/* pc_cli_load_config - PATH/.plugcheck.yaml into `cfg` (PC_CONFIG_INIT;
 * the caller releases it): 0, or 2 (usage) after printing the located
 * error ("plugcheck: FILE:LINE:COL: ...") to stderr. A missing file is
 * no error. */
int pc_cli_load_config(const char *dir, struct pc_config *cfg);

/* Where a report goes: --output FILE (or `-`, standard output) in
 * --format FMT. */
struct pc_cli_out {
	const char *cmd;  /* borrowed: the command name */
	const char *path; /* borrowed; NULL: standard output */
	int fd;		  /* the --output file, held open; -1: none */
	FILE *f;	  /* where its report is rendered (in memory), or NULL */
	char *buf;	  /* f's bytes (open_memstream) */
	size_t len;
	int fmt;	  /* enum pc_report_format */
};

/* pc_cli_out_open - take --format and --output of `a`, and open --output
 * before anything runs and hold it open (a regular file is truncated), so
 * a plugin cannot keep the report from being written: a directory, a
 * socket, a FIFO that no process reads (which would block), or a path
 * that cannot be created is refused with "plugcheck: cannot write
 * --output 'F': REASON; fix: ..." on stderr; returns 0, or 2 (usage)
 * then. A FIFO with a reader and character devices (/dev/null) are
 * taken; the report is rendered in memory and written whole at the end,
 * a reader that takes nothing for 30 s failing the write. */
int pc_cli_out_open(const struct pc_args *a, struct pc_cli_out *o);
/* pc_cli_out_report - finish `r` (pc_report_finish) and write it in o->fmt
 * to --output or stdout; with --output the human summary goes to stdout
 * too. Every write is checked: a failed one prints "plugcheck: cannot
 * write 'FILE': REASON" (or "standard output") and returns 70. Else the
 * report's exit code (pc_report_exit_code). Closes --output. */
int pc_cli_out_report(struct pc_cli_out *o, struct pc_report *r);
/* pc_cli_out_close - close --output on a path that writes no report. */
void pc_cli_out_close(struct pc_cli_out *o);
/* pc_cli_read_arg_file - the whole FILE of option --OPT (at most 64 MiB)
 * as a new string, its length in bytes in *len (may be NULL; the text
 * may hold NULs); NULL after printing "plugcheck: --OPT: REASON". */
char *pc_cli_read_arg_file(const char *opt, const char *file, size_t *len);
/* pc_cli_print_json - pretty-print `v` with a trailing newline to stdout
 * and delete it. */
void pc_cli_print_json(cJSON *v);
/* pc_cli_manifest_env - the host facts taken from plugcheck's own
 * environment (HOME, CODEX_HOME). */
struct pc_manifest_env pc_cli_manifest_env(void);
/* pc_cli_color - colour on stdout: a TTY and NO_COLOR unset. */
bool pc_cli_color(void);
/* pc_cli_kill_children - SIGKILL every child of plugcheck's main thread
 * and the process group each child leads (plugins lead their own groups,
 * so a terminal's Ctrl-C never reaches them). Async-signal-safe: only
 * open, read, kill and close. */
void pc_cli_kill_children(void);
/* pc_cli_trap_interrupts - install plugcheck's SIGINT, SIGTERM, SIGHUP
 * and SIGQUIT handler, once, from main() for every command (README
 * "Ctrl-C"): on the signal it sets the stop flag and kills the plugin
 * tree (pc_cli_kill_children), so the work in progress ends at once; the
 * command then stops and reports what it has, marked incomplete, and
 * main() exits PC_EXIT_INTERNAL (70). */
void pc_cli_trap_interrupts(void);
/* pc_cli_stop_flag - the flag that handler sets (never NULL; 0 until a
 * signal arrives), for pc_suite_opts.stop and the other `stop` options. */
volatile sig_atomic_t *pc_cli_stop_flag(void);
/* pc_cli_interrupted - true once pc_cli_trap_interrupts' handler ran. */
bool pc_cli_interrupted(void);

#endif

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
/* pc_cli_bad_value - report an option value that does not parse:
 * "plugcheck CMD: --OPT: invalid value 'VAL' (expected EXPECT)" and a hint
 * to `--help` on stderr. Returns PC_EXIT_USAGE (2) for the caller to
 * return. */
int pc_cli_bad_value(const char *cmd, const char *opt, const char *val,
		     const char *expect);
/* pc_cli_output_path - NULL when PATH is "-" (standard output), else
 * PATH: `--output -` means stdout, as in most Unix tools. */
const char *pc_cli_output_path(const char *path);
/* An --output report file, opened before the run and written after it
 * (cli_output.c). */
struct pc_cli_out {
	int fd;		  /* -1: no --output (the report goes to stdout) */
	const char *path; /* borrowed */
	FILE *mem;	  /* where the report is rendered first */
	char *buf;	  /* its bytes (open_memstream) */
	size_t len;
};

#define PC_CLI_OUT_INIT { .fd = -1, .path = NULL, .mem = NULL, .buf = NULL, .len = 0 }

/* pc_cli_out_open - open `path` (NULL: none) for the report now: created,
 * or truncated when it is a regular file; a FIFO or device is kept as it
 * is. Without blocking: a directory or a FIFO without a reader is an
 * error. Returns 0, or PC_EXIT_USAGE after printing "plugcheck: --output
 * 'PATH' is a directory; fix: ..." (or the FIFO or errno reason). */
int pc_cli_out_open(struct pc_cli_out *o, const char *path);
/* pc_cli_out_file - where to render the report: the file's buffer, or
 * stdout without --output. */
FILE *pc_cli_out_file(struct pc_cli_out *o);
/* pc_cli_out_close - write what was rendered to the file (a reader of a
 * FIFO that takes nothing for 30 s ends it) and close it. Returns 0, or
 * -1 after printing the reason. Nothing to do without --output. */
int pc_cli_out_close(struct pc_cli_out *o);
/* pc_cli_host_opt - when argv[*i] is `--host VALUE` or `--host=VALUE`,
 * point *host at VALUE (borrowed from argv), step *i past it and return
 * true; else false. `n` is argc. */
bool pc_cli_host_opt(char **argv, int n, int *i, const char **host);
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

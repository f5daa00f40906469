/* pc_cli.h - helpers shared by the subcommands (output, host set-up). */
#ifndef PC_CLI_H
#define PC_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "pc_host.h"
#include "pc_manifest.h"

struct pc_report;

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

/* One report file (--output FILE, --html FILE): opened at the start and
 * held, rendered in memory, written whole at the end. */
struct pc_cli_file {
	const char *path; /* borrowed; NULL: none (standard output) */
	int fd;		  /* held open; -1: none */
	FILE *f;	  /* where it is rendered (in memory), or NULL */
	char *buf;	  /* f's bytes (open_memstream) */
	size_t len;
};

/* Where a report goes: --output FILE (or `-`, standard output) in
 * --format FMT, and with --html FILE the page (docs/report.md) too. */
struct pc_cli_out {
	const char *cmd;	   /* borrowed: the command name */
	struct pc_cli_file report; /* --output */
	struct pc_cli_file html;   /* --html */
	int fmt;		   /* enum pc_report_format */
};

/* pc_cli_out_open - take --format, --output and --html of `a`, and open
 * the files before anything runs and hold them open (a regular file is truncated), so
 * a plugin cannot keep the report from being written: a directory, a
 * socket, a FIFO that no process reads (which would block), or a path
 * that cannot be created is refused with "plugcheck: cannot write
 * --output 'F': REASON; fix: ..." on stderr; returns 0, or 2 (usage)
 * then. A FIFO with a reader and character devices (/dev/null) are
 * taken; the report is rendered in memory and written whole at the end,
 * a reader that takes nothing for 30 s failing the write. */
int pc_cli_out_open(const struct pc_args *a, struct pc_cli_out *o);
/* pc_cli_lint_write - write the lint report `r` (finished) to stdout in
 * --format `fmt` (NULL: pc_cli_default_format): json through `json` (its
 * own shape, docs/cli.md), human through `human` (lint's form,
 * pc_cli_lint_human for Catalyst Code), github as annotations then that
 * human form (or the report's, when `human` is NULL), sarif as every
 * report. Returns 0, or -1
 * after saying that stdout could not be written. */
int pc_cli_lint_write(const struct pc_report *r, const char *fmt,
		      cJSON *(*json)(const struct pc_report *r),
		      void (*human)(const struct pc_report *r, FILE *out));
/* pc_cli_lint_human - lint's human form to `out` (colours only on a
 * terminal stdout): the host's verdict, the capabilities, the host's
 * log, each finding with its place first. */
void pc_cli_lint_human(const struct pc_report *r, FILE *out);
/* pc_cli_default_format - the report format when --format is not given:
 * PC_REPORT_GITHUB when GITHUB_ACTIONS is "true" (a GitHub Actions step,
 * which turns the annotations into file and line marks), else
 * PC_REPORT_HUMAN. It is what standard output gets - the report, or the
 * summary printed beside --output; a file named by --output without
 * --format gets the human form. */
int pc_cli_default_format(void);
/* pc_cli_out_report - finish `r` (pc_report_finish), write the page to
 * --html when given (pc_cli_out_write_html), and `r` in o->fmt to
 * --output or stdout; with --output the human summary goes to stdout
 * too. Every write is checked: a failed one prints "plugcheck: cannot
 * write 'FILE': REASON" (or "standard output") and returns 70. Else the
 * report's exit code (pc_report_exit_code). Closes --output. */
int pc_cli_out_report(struct pc_cli_out *o, struct pc_report *r);
/* pc_cli_out_write_html - render the finished `r` as the page into
 * --html FILE (nothing without --html) and close it: 0, or 70 after
 * "plugcheck: cannot write 'FILE': REASON". For commands that print
 * their own --format (turn). */
int pc_cli_out_write_html(struct pc_cli_out *o, const struct pc_report *r);
/* pc_cli_out_flush - for commands that render their own --format into
 * o->report.f (turn): write it whole to --output and close it; without
 * --output flush stdout. 0, or 70 after saying what failed. */
int pc_cli_out_flush(struct pc_cli_out *o);
/* pc_cli_out_close - close --output and --html on a path that writes no
 * report. */
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
/* pc_cli_stdout_failed - say "plugcheck: cannot write standard output:
 * REASON" (strerror of `err`, EIO for 0) on stderr, once per process
 * however many writes failed; returns PC_EXIT_INTERNAL (70). */
int pc_cli_stdout_failed(int err);
/* pc_cli_isolated - run `body(ctx)` in a worker process of the pool
 * (pc_pool.h) and return its exit code: the plugins it runs find the
 * worker as their parent, never the plugcheck process, so `kill -9
 * $PPID` or `kill -STOP $PPID` in a plugin can neither kill nor freeze
 * `fire`, `turn` or `guard` (issue 21). What the body prints goes to the same
 * stdout and stderr; memory it changes stays in the worker. A stopped
 * worker is resumed (a note on stderr; a body's 0 becomes 1, as the real
 * host would have frozen there); a worker
 * killed or signalled, or one that cannot start, gives a line on stderr
 * naming `what` and what happened, and PC_EXIT_INTERNAL (70). Every
 * process the worker left is killed before it returns. Ctrl-C stops the
 * body through pc_cli_stop_flag(). */
int pc_cli_isolated(const char *what, int (*body)(void *ctx), void *ctx);

#endif

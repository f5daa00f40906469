/* pc_proc.h - run one plugin process the way the emulated host does, then
 * sweep whatever it left behind.
 *
 * Caller protocol:
 *   1. struct pc_proc_opts o = PC_PROC_OPTS_INIT; fill argv, env, stdin,
 *      timeouts, caps and flags.
 *   2. struct pc_proc_result r = PC_PROC_RESULT_INIT(o.stdout_max,
 *      o.stderr_max);
 *   3. pc_proc_run(&o, &r, &err);
 *   4. read the facts in r; pc_proc_result_release(&r);
 *      pc_proc_opts_release(&o).
 *
 * Catalyst Code semantics (spec catalyst-code.md §5), selected by
 * PC_PROC_STDIN_FIRST:
 *   - R5.5 stdin phase: write all of `stdin_data`, then close the pipe,
 *     WITHOUT draining stdout/stderr meanwhile, under its own deadline
 *     `stdin_timeout_ms`. EPIPE (the plugin exits or closes stdin early) is
 *     ignored and recorded in stdin_closed_early. If the deadline passes
 *     the direct child gets SIGKILL and the outcome is
 *     PC_PROC_STDIN_TIMEOUT.
 *   - R5.6 wait phase: one deadline `timeout_ms` from the end of the stdin
 *     phase; wait for exit AND EOF on both pipes, reading in 16 KiB chunks.
 *     A background process that holds a pipe open makes it time out.
 *   - R5.7 caps: as soon as a stream's total would pass its cap
 *     (stdout_max / stderr_max bytes) reading stops, the direct child gets
 *     SIGKILL, and the outcome is PC_PROC_STDOUT_OVERFLOW or
 *     PC_PROC_STDERR_OVERFLOW. Exactly `max` bytes is accepted.
 *   - R5.9 on timeout the direct child only gets SIGKILL.
 * Without the flag, stdin is written while draining (no separate phase).
 *
 * ChatCLI semantics (spec chatcli.md X6, X7), selected by
 * PC_PROC_DRAIN_AFTER_KILL: at the `timeout_ms` deadline the direct child
 * only gets SIGKILL and reading goes on until EOF on both pipes (a
 * background process holding a pipe stretches the call, as Go's os/exec
 * does), for at most `drain_max_ms` more; the outcome is then
 * PC_PROC_TIMEOUT, with the child's own wait status (SIGKILL, or the exit
 * it made before the deadline) in has_status/exit_code/term_signal, and
 * drain_capped set when plugcheck's cap, not EOF, ended the call. wall_ms
 * is how long the host would have blocked (or the cap).
 * `on_output`, when set, sees every chunk read from stdout (fd 1) or
 * stderr (fd 2) in arrival order, and a zero-length call at each EOF; it
 * lets a caller merge the streams line by line as ChatCLI does (X7).
 *
 * Whatever the outcome, after the verdict is recorded pc_proc_run() kills
 * (SIGKILL) every process still alive in the child's process group and any
 * descendant re-parented to plugcheck (it makes itself a child subreaper),
 * reaps them all, and counts them in `leftover_processes`. No process
 * outlives the call. The child leads a session and a process group of its
 * own (no controlling terminal), with the signal state of `sigs`
 * (default dispositions and an empty mask without it, STYLE §E 27).
 *
 * Blocks at most stdin_timeout_ms + timeout_ms + about 100 ms of sweep.
 * Never prints; never exits.
 *
 * Details that match the host's code rather than intuition:
 *   - Program lookup. An argv[0] containing '/' is executed as is. A bare
 *     name is searched the way the host's std::process::Command does once
 *     it cleared the environment (it then forks and calls execvp with
 *     `environ` set to the child's): along the PATH found in `env` (the
 *     first "PATH=" entry), or "/bin:/usr/bin" when there is none; an
 *     empty element means the working directory; EACCES on one entry is
 *     remembered and the search goes on; and a file the kernel refuses
 *     with ENOEXEC (no shebang) is run as `/bin/sh <file> <args...>`, as
 *     glibc's execvp does; an entry of PATH_MAX bytes or more is skipped
 *     and, like glibc, followed by a try in the working directory.
 *     spawn_errno is what that search ends with.
 *   - Empty stdin under PC_PROC_STDIN_FIRST: the host skips its stdin
 *     phase (`if !stdin.is_empty()`) but tokio's Child::wait() drops the
 *     stdin handle first thing, so the plugin sees EOF at the start of
 *     the wait phase. pc_proc closes the write end at that point too.
 *   - The host's stdin deadline is max(timeout_ms, 1000) ms; pc_proc takes
 *     stdin_timeout_ms as given, so Catalyst callers pass that value.
 *   - stdin write errors other than EPIPE also just end the writing, as
 *     the host ignores every write error (`let _ = write_all(..)`).
 *   - One deviation, for the sweep's sake: the host does NOT give the
 *     plugin its own process group (R5.9); pc_proc does, so getpgrp() in
 *     the plugin differs, and terminal signals to plugcheck's group do not
 *     reach it.
 *   - A second one, for the terminal's sake (issue 21): both hosts leave
 *     the plugin in their session, with their controlling terminal (Go's
 *     os/exec and Rust's Command create no session); pc_proc makes it a
 *     session leader without one (POSIX_SPAWN_SETSID). A plugin run from
 *     plugcheck in a terminal cannot open /dev/tty (ENXIO), write escapes
 *     or read keystrokes through it, or make itself the terminal's
 *     foreground process group so that Ctrl-C no longer reaches
 *     plugcheck; getsid() differs. It still can open the terminal's
 *     device by its name (/dev/pts/N) if it finds it - without a session
 *     of that terminal it cannot take its foreground (TIOCSPGRP) or
 *     inject input (TIOCSTI). The session's id is the child's pid, so the
 *     sweep's rule (a), its process group, is unchanged.
 *
 * Signals (issue 18). A child inherits across exec every disposition its
 * parent ignores and its parent's signal mask; handlers become the
 * default. Each host passes its own start state through its runtime's
 * rules, so a host started with SIGHUP ignored (nohup, some CI runners)
 * passes the ignored SIGHUP to every plugin: pc_proc_sigs_catalyst() and
 * pc_proc_sigs_chatcli() compute what each host passes from the state
 * plugcheck itself started with (pc_proc_sigs_note_start), and `sigs`
 * hands it to the child: posix_spawn resets every other signal to the
 * default (POSIX_SPAWN_SETSIGDEF) and sets the mask (SETSIGMASK). It can
 * only reset, so a signal the child must start ignoring that plugcheck
 * handles itself (its SIGINT/SIGTERM/SIGHUP/SIGQUIT traps) is ignored by
 * plugcheck for the spawn: blocked first, so one arriving meanwhile is
 * delivered right after (Linux keeps a blocked signal pending even while
 * it is ignored); one already pending is not swapped (the child then
 * starts with it at the default; plugcheck is being interrupted), and one
 * arriving in the microsecond between that check and the swap is lost.
 * SIGCHLD is never passed ignored (plugcheck needs it). The result's
 * `sigs` says what the child got. glibc's posix_spawn always leaves its
 * two internal signals (32, 33) ignored, see below.
 *
 * The file that runs (issue 21). The host checks a script's path when it
 * loads the plugin (R2.9) and runs it by path later, so a script swapped
 * for a symlink in between runs whatever the link names. With `exec_fd`
 * (the caller opened and checked the script just before the run) pc_proc
 * runs that file, not the path again: an ELF binary through
 * /proc/<plugcheck's pid>/fd/N (argv unchanged; no descriptor reaches
 * the child), a "#!" script by starting its interpreter the way the
 * kernel would (argv [interpreter, its one argument if any, argv[0],
 * argv[1], ...], the parse of binfmt_script) after the same execute
 * permission check - the interpreter then opens argv[0] by its path,
 * which is the host's own window and no wider. Errors stay the kernel's
 * (EACCES, ENOEXEC, ENOENT for a missing interpreter).
 *   - glibc's posix_spawn leaves its two internal signals (32 and 33)
 *     ignored in every child. The host's posix_spawnp path (argv[0] with a
 *     '/') does the same; its fork + execvp path (a bare name) does not.
 *
 * The sweep rule (which processes are "the plugin's"):
 *   (a) every process in the process group whose id is the child's pid;
 *   (b) every child of plugcheck that was not its child just before the
 *       spawn (orphans re-parent to plugcheck because it makes itself a
 *       child subreaper, PR_SET_CHILD_SUBREAPER, on its first call in
 *       each process - fork() clears it; this catches double-fork and
 *       setsid escapees);
 *   (c) every descendant of (a) or (b).
 * Rounds of "find the marked, SIGKILL them, kill the group, reap the
 * marked that are plugcheck's children" repeat until a round finds
 * nothing marked (at most 1000 rounds: a fork storm cannot hold the call).
 * leftover_processes counts the marked processes other than the direct
 * child that were alive (not zombies, not already exiting) when first
 * seen - the first round runs right after the verdict.
 *
 * How the sweep finds them. The child's status is read with
 * waitid(WNOWAIT), so it stays a zombie that keeps its pid and group id
 * from being reused. Then:
 *   - Fast path, when the child ended before the verdict, plugcheck has a
 *     single thread, and the kernel signals a process group through a
 *     pidfd (PIDFD_SIGNAL_PROCESS_GROUP, Linux >= 6.9): the child is
 *     reaped at once and a signal 0 through its pidfd asks whether its
 *     group still has a member. The pidfd names that group and not a later
 *     one that reuses the number, and an empty group can gain no member
 *     (setpgid needs one), so if it is empty rule (a) is empty for good.
 *     Rules (b) and (c) then need no scan of /proc:
 *     /proc/thread-self/children lists plugcheck's children (it is also
 *     how the snapshot before the spawn is taken) and
 *     /proc/<pid>/task/<tid>/children their descendants. A live plugin
 *     process always has a chain of live parents up to a new child of
 *     plugcheck, so a round that finds no new child ends the sweep.
 *   - Otherwise (something is left in the group, the child was killed,
 *     plugcheck has more threads, or an older kernel) each round reads
 *     /proc/<pid>/stat of every process on the machine and marks by rule.
 *     The group is killed with kill(-pgid) while the child's zombie holds
 *     the number, or through the pidfd once it was reaped; then rule (a)
 *     marks by group id only if the group is still non-empty after the
 *     scan (so it was all along, and the number was its).
 * Without /proc only the group kill and the direct child's reap remain.
 *
 * Caller requirements:
 *   - SIGCHLD must not be ignored (SIG_IGN would auto-reap the child and
 *     lose its status: has_status stays false).
 *   - While pc_proc_run() runs, no other thread of the caller may create
 *     child processes or call wait(-1)/waitpid(-1): rule (b) would sweep
 *     those children, and a wait(-1) could steal the plugin's statuses.
 *   - SIGPIPE: the CLI's main() ignores it, but pc_proc does not rely on
 *     that; it blocks SIGPIPE around each stdin write and swallows the one
 *     a failed write raised.
 *   - The call may block past the bound above only while a SIGKILLed
 *     process sits in an uninterruptible sleep (the sweep waits for it).
 *
 * Wrapped runs (`wrap`, used by plugcheck --sandbox, pc_sandbox.h): the
 * direct child is `wrap` followed by `argv` - a wrapper (bubblewrap) that
 * runs the plugin as its one child and exits with the plugin's status. The
 * differences from a plain run:
 *   - argv[0] is looked up first, as the spawn would (a path: ENOENT,
 *     ENOTDIR, EACCES when it is not an executable regular file, ENOEXEC
 *     when it starts with neither "#!" nor an ELF header; a bare name: the
 *     PATH walk above, checking with access(X_OK)); a failure is the same
 *     PC_PROC_SPAWN_ERROR a plain run reports, and nothing is spawned.
 *     A relative path is taken from `cwd` (or plugcheck's directory).
 *   - When the verdict kills the direct child (timeout, cap), its own
 *     children (the plugin proper) get SIGKILL too, as the host kills its
 *     direct child (R5.9); they are not counted as leftovers.
 *   - Processes whose executable is `wrap_helper` (the wrapper's tracer)
 *     are swept like the others but never counted as leftovers; with
 *     `wrap_helper` set, neither is a process whose executable is already
 *     gone (/proc/<pid>/exe: ENOENT), i.e. one in the middle of exiting.
 *   - A wrapper that runs the plugin in a PID namespace of its own
 *     (bubblewrap --unshare-pid) has a reaper there, pid 1 of that
 *     namespace (NSpid in /proc/<pid>/status): it is part of the wrapper,
 *     never a leftover, and the plugin proper a verdict kills is its
 *     child. The reaper is not killed with it - that would end the
 *     namespace, and every other process of the plugin with it, before
 *     the sweep could see and count them; the sweep kills it.
 * The wrapper, not pc_proc, decides what the plugin sees; exit statuses
 * are the wrapper's (bubblewrap reports a death by signal N as exit
 * 128 + N; pc_sandbox_observe() restores the real one).
 */
#ifndef PC_PROC_H
#define PC_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_strvec.h"

enum pc_proc_flags {
	/* Catalyst R5.5: a separate stdin phase before any draining. */
	PC_PROC_STDIN_FIRST = 1 << 0,
	/* stdin is /dev/null (at EOF) instead of a pipe; stdin_data unused. */
	PC_PROC_STDIN_DEVNULL = 1 << 1,
	/* ChatCLI X6: kill the child at the deadline, keep reading to EOF. */
	PC_PROC_DRAIN_AFTER_KILL = 1 << 2,
};

/* pc_proc_output_fn - called from pc_proc_run() with each chunk read from
 * `fd` (1 stdout, 2 stderr), `n` > 0, or n == 0 once at that pipe's EOF.
 * `p` is borrowed for the call only. Must not call pc_proc_run(). */
typedef void (*pc_proc_output_fn)(void *ctx, int fd, const char *p, size_t n);

/* The signal state a child starts with (issue 18): which signals it
 * starts ignoring and which blocked. Plain value type. */
struct pc_proc_sigs {
	sigset_t ignored; /* SIG_IGN at exec */
	sigset_t blocked; /* the signal mask at exec */
};

struct pc_proc_opts {
	struct pc_strvec argv;	 /* argv[0]: a path, or a name searched in
				    the child's PATH (see "Program lookup") */
	struct pc_strvec env;	 /* the child's whole environment */
	const char *cwd;	 /* borrowed; NULL inherits plugcheck's */
	const void *stdin_data;	 /* borrowed bytes written to stdin */
	size_t stdin_len;
	int64_t timeout_ms;	 /* wait-phase deadline, ms (0: immediate) */
	int64_t stdin_timeout_ms; /* stdin-phase deadline, ms */
	size_t stdout_max;	 /* cap in bytes; passing it fails the call */
	size_t stderr_max;
	unsigned flags;		 /* enum pc_proc_flags */
	int64_t drain_max_ms;	 /* PC_PROC_DRAIN_AFTER_KILL: reading past
				    the deadline stops after this many ms */
	pc_proc_output_fn on_output; /* NULL, or sees every chunk read */
	void *output_ctx;	 /* borrowed; passed to on_output */
	const struct pc_strvec *wrap; /* borrowed; NULL, or the argv prefix
				    of a wrapper (wrap->v[0] an absolute
				    path) that runs argv: "Wrapped runs" */
	const char *wrap_helper; /* borrowed; NULL, or the canonical path of
				    the wrapper's helper executable */
	const struct pc_proc_sigs *sigs; /* borrowed; NULL: every signal
				    default, none blocked; else what the
				    child starts with ("Signals") */
	int exec_fd;		 /* -1, or an fd (borrowed, readable or
				    O_PATH) of the file argv[0] names, as
				    the caller checked it: that file is run
				    ("The file that runs"); ignored for
				    wrapped runs */
};

#define PC_PROC_OPTS_INIT                                                      \
	{ .argv = PC_STRVEC_INIT, .env = PC_STRVEC_INIT, .cwd = NULL,          \
	  .stdin_data = NULL, .stdin_len = 0, .timeout_ms = 30000,             \
	  .stdin_timeout_ms = 30000, .stdout_max = 1048576,                    \
	  .stderr_max = 1048576, .flags = 0, .drain_max_ms = 0,               \
	  .on_output = NULL, .output_ctx = NULL, .wrap = NULL,                 \
	  .wrap_helper = NULL, .sigs = NULL, .exec_fd = -1 }

enum pc_proc_outcome {
	PC_PROC_EXITED = 0,	  /* exited or was killed by a signal on its own,
				     both pipes at EOF */
	PC_PROC_SPAWN_ERROR,	  /* could not be started: spawn_errno */
	PC_PROC_STDIN_TIMEOUT,	  /* stdin phase passed its deadline */
	PC_PROC_TIMEOUT,	  /* wait phase passed its deadline */
	PC_PROC_STDOUT_OVERFLOW,  /* stdout passed stdout_max */
	PC_PROC_STDERR_OVERFLOW,  /* stderr passed stderr_max */
	PC_PROC_READ_ERROR,	  /* a read failed: read_errno */
};

struct pc_proc_result {
	enum pc_proc_outcome outcome;
	int spawn_errno;	/* PC_PROC_SPAWN_ERROR: errno of posix_spawn */
	int read_errno;		/* PC_PROC_READ_ERROR */
	bool has_status;	/* the child ended on its own before the
				   verdict and its wait status is known
				   (false when pc_proc killed it) */
	int exit_code;		/* has_status && term_signal == 0 */
	int term_signal;	/* 0, or the signal that ended the child */
	bool core_dumped;
	bool stdin_closed_early; /* EPIPE before all stdin was written */
	size_t stdin_written;	/* bytes the child accepted */
	bool exited_before_eof;	/* child exited while a pipe stayed open
				   (a background process held it) */
	struct pc_buf out;	/* stdout bytes read (at most stdout_max) */
	struct pc_buf err;	/* stderr bytes read */
	int64_t stdin_ms;	/* spawn until the stdin write end was
				   closed (or the verdict, if first); 0-ish
				   for PC_PROC_STDIN_DEVNULL */
	int64_t wall_ms;	/* spawn to verdict */
	int pid;		/* the direct child's pid (0 if not spawned) */
	int leftover_processes;	/* processes alive after the verdict that
				   plugcheck had to kill */
	bool drain_capped;	/* PC_PROC_DRAIN_AFTER_KILL: a pipe was still
				   open when drain_max_ms ran out */
	struct pc_proc_sigs sigs; /* what the child started with (the
				   signals of o->sigs it could be given;
				   glibc's internal 32 and 33 not
				   included); empty when not spawned */
};

#define PC_PROC_RESULT_INIT(omax, emax)                                        \
	{ .outcome = PC_PROC_EXITED, .out = PC_BUF_INIT(omax),                 \
	  .err = PC_BUF_INIT(emax) }

/* pc_proc_run - spawn `o->argv` and run it to a verdict as described above.
 * `o` is borrowed; `r` must come from PC_PROC_RESULT_INIT and is filled.
 * Returns 0 whenever a verdict was reached - a spawn failure, a timeout, a
 * non-zero exit or an overflow are facts in *r, not errors. Returns
 * PC_EINVAL for an empty argv, PC_EIO when plugcheck's own pipe/poll calls
 * fail (errno in err); once the child was spawned it is killed and swept
 * on that path too, and *r holds what was seen so far. */
int pc_proc_run(const struct pc_proc_opts *o, struct pc_proc_result *r,
		struct pc_err *err);

/* ---- signals ("Signals" above) ---- */

/* pc_proc_sigs_note_start - remember the signal state this process
 * started with (ignored dispositions, mask): what the emulated host, had
 * it been started the way plugcheck was, would have. main() calls it
 * first, before it ignores SIGPIPE and traps its interrupts. */
void pc_proc_sigs_note_start(void);
/* pc_proc_sigs_start - that state (the current one when it was never
 * noted). */
void pc_proc_sigs_start(struct pc_proc_sigs *s);
/* pc_proc_sigs_catalyst - what a Catalyst Code plugin starts with (Rust
 * std::process::Command >= 1.66): the start state with SIGPIPE (and
 * SIGCHLD) back to the default; the mask as it was. */
void pc_proc_sigs_catalyst(struct pc_proc_sigs *s);
/* pc_proc_sigs_chatcli - what a ChatCLI plugin starts with (Go os/exec,
 * signal.Notify on SIGINT and SIGTERM): of the start state's ignored
 * signals only SIGHUP, SIGCONT, SIGTSTP, SIGTTIN and SIGTTOU stay
 * ignored; the mask as it was. */
void pc_proc_sigs_chatcli(struct pc_proc_sigs *s);

/* pc_proc_sigs_names - append to `out` the name of every signal in `set`,
 * in number order: "SIGHUP", "SIGRTMIN+2" (for messages and reports). */
void pc_proc_sigs_names(const sigset_t *set, struct pc_strvec *out);

/* pc_proc_kill_orphans - SIGKILL every child of the calling thread (read
 * from /proc/thread-self/children) and the process group each one leads,
 * reap them, and repeat until a round finds none, at most 100 rounds: what
 * a killed worker's plugins leave re-parented to plugcheck, a child
 * subreaper. For the parent of `check -j` / `run -j` workers after an
 * interrupt, when no other child of that thread may survive. Not
 * async-signal-safe (it allocates). Without /proc it does nothing. */
void pc_proc_kill_orphans(void);

/* pc_proc_spawn_fn - told the pid of each direct child pc_proc_run()
 * starts, right after the spawn (the child leads its own process group,
 * whose id is that pid). Must not call pc_proc_run(). */
typedef void (*pc_proc_spawn_fn)(void *ctx, int pid);
/* pc_proc_set_spawn_hook - call `fn` (NULL: nothing) with `ctx` at every
 * spawn of this process from now on (a worker tells its parent, so that
 * the parent can kill what a dying worker leaves; pc_pool.h). */
void pc_proc_set_spawn_hook(pc_proc_spawn_fn fn, void *ctx);

/* pc_proc_result_release - free the buffers of `r`. */
void pc_proc_result_release(struct pc_proc_result *r);
/* pc_proc_opts_release - free argv and env of `o`. */
void pc_proc_opts_release(struct pc_proc_opts *o);

/* pc_proc_outcome_name - "exited", "spawn_error", "stdin_timeout",
 * "timeout", "stdout_overflow", "stderr_overflow", "read_error". */
const char *pc_proc_outcome_name(enum pc_proc_outcome o);

#endif

/* pc_sandbox.h - run plugin processes under bubblewrap with only the
 * capabilities their manifest declares, and observe what they try beyond
 * them (plugcheck --sandbox; issue 8; docs/sandbox.md).
 *
 * Catalyst Code never enforces capabilities (spec catalyst-code.md R3.5:
 * they are declarative, R3.1 lists them); the sandbox does, for code
 * nobody has reviewed, and turns each attempt past them into a fact:
 *   - no network (a private network namespace holding only loopback)
 *     unless the effective capabilities (R3.3) include `access_network`;
 *   - the whole file system read-only, except: HOME of the plugin's
 *     environment (the caller makes it a throwaway directory), $TMPDIR
 *     (the same path, showing the sandbox's own private directory), a
 *     private /tmp, a minimal private /dev, and the workspace when
 *     `write_workspace` is declared (read-only otherwise);
 *   - the plugin directory read-only;
 *   - a PID namespace with its own /proc: the plugin can neither see nor
 *     signal plugcheck or anything else outside (issue 21).
 * Each run is traced from outside the sandbox by strace (-D, so the tracer
 * is no ancestor of the plugin and the process tree stays the host's):
 * connect/sendto/sendmsg with an AF_INET or AF_INET6 address are network
 * attempts, and a file-modifying call that fails with EROFS is a write the
 * sandbox refused. The trace log lives in a private directory the sandbox
 * does not show.
 *
 * Caller protocol:
 *   1. struct pc_sandbox sb = PC_SANDBOX_INIT;
 *      pc_sandbox_open(&sb, envp, &err)  - finds bwrap and strace, proves
 *      they work here, makes the private directory;
 *   2. hand &sb.confine to the host (pc_host.confine): per run it calls
 *      pc_confine_run(), i.e. pc_sandbox_wrap() for pc_proc_opts.wrap,
 *      pc_proc_run(), then pc_sandbox_observe() on the result (the
 *      functions below are that interface's implementation, and usable
 *      directly);
 *   3. pc_sandbox_release(&sb).
 * Runs in one process must not overlap (one trace log per process, so
 * forked workers may share `sb`). Nothing here prints or exits.
 */
#ifndef PC_SANDBOX_H
#define PC_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_buf.h"
#include "pc_confine.h"
#include "pc_err.h"
#include "pc_proc.h"
#include "pc_strvec.h"

struct pc_sandbox {
	char *bwrap;  /* canonical path of bubblewrap */
	char *strace; /* canonical path of strace (pc_proc wrap_helper) */
	char *dir;    /* private directory: the trace logs, trace-<pid>
			 (pc_runner's worker processes share `sb`) */
	char *tmp;    /* dir/tmp: what the plugin sees at $TMPDIR */
	/* what the host is given (pc_host.confine): pc_sandbox_wrap and
	 * pc_sandbox_observe behind pc_confine.h, ctx = this struct, so an
	 * opened sandbox must not be copied or moved */
	struct pc_confine confine;
};

#define PC_SANDBOX_INIT { NULL, NULL, NULL, NULL, { NULL, NULL, NULL } }

/* pc_sandbox_open - find bubblewrap ($PLUGCHECK_BWRAP, else `bwrap` on the
 * PATH in `envp`) and strace ($PLUGCHECK_STRACE, else `strace` on PATH),
 * check that they can build a sandbox on this machine (a traced
 * `bwrap ... true` must exit 0), and make the private directory.
 * `envp` is plugcheck's environment (borrowed). Errors, each with a
 * message naming the problem and the fix: PC_ENOENT (a tool is missing),
 * PC_ESPAWN (the trial sandbox failed: no user namespaces, ptrace
 * forbidden; its stderr is quoted), PC_EIO (no temporary directory). */
int pc_sandbox_open(struct pc_sandbox *sb, char *const *envp,
		    struct pc_err *err);

/* pc_sandbox_release - remove the private directory, free everything. */
void pc_sandbox_release(struct pc_sandbox *sb);

/* pc_sandbox_wrap - append to `wrap` the argv prefix that runs one plugin
 * command under `sp`: strace, a shell that gives bubblewrap /dev/null
 * and its messages file (so that bubblewrap's PID-1 reaper holds none of
 * the plugin's pipes), bwrap ending with "--", and a shell that gives
 * the command its pipes back before it execs it (docs/sandbox.md). Paths
 * that do not exist are left out; `sp->more_ro` are bound read-only too.
 * Truncates the trace log and the messages file. */
void pc_sandbox_wrap(const struct pc_sandbox *sb,
		     const struct pc_confine_spec *sp, struct pc_strvec *wrap);

/* pc_sandbox_observe - read the trace log of the run whose direct child
 * was `monitor_pid` (pc_proc_result.pid) into `obs`, and restore in `r`
 * the plugin's own death by signal that bubblewrap reported as exit
 * 128 + N (R4.3 step 6 statuses stay the host's). Sets obs->active.
 * When the log cannot be read (PC_ENOENT, PC_EIO; the lists stay empty)
 * or is longer than plugcheck reads (16 MiB; only its start is parsed,
 * returns 0), obs->trace_error says so: the lists are then not the whole
 * story and callers must not present them as "nothing beyond". Returns 0
 * or the read error (err filled when not NULL). */
int pc_sandbox_observe(const struct pc_sandbox *sb,
		       const struct pc_confine_spec *sp, int monitor_pid,
		       struct pc_proc_result *r, struct pc_confine_obs *obs,
		       struct pc_err *err);

/* pc_sandbox_parse - the parser behind pc_sandbox_observe over `len`
 * bytes of strace -f -y output (for tests). Lines up to the plugin's
 * execve (the first execve by a pid other than `monitor_pid`) are
 * bubblewrap's setup and are skipped. */
void pc_sandbox_parse(const char *text, size_t len,
		      const struct pc_confine_spec *sp, int monitor_pid,
		      struct pc_confine_obs *obs);

#endif

/* pc_confine.h - all the emulated host knows of plugcheck's own sandbox
 * (plugcheck --sandbox; issues 8, 15, 21): a wrapper around every process
 * the host starts for a plugin - its scripts, and the built-in tools a
 * plugin can steer (the turn's `bash`) - with two operations: "wrap the
 * argv" before pc_proc_run() and "observe after the run".
 *
 * The host fills a struct pc_confine_spec per run (where it runs, what the
 * plugin's capabilities allow, R3.1, R3.3), asks `wrap` for the argv
 * prefix and the helper executable and hands both to pc_proc through its
 * `wrap` / `wrap_helper` options, then lets `observe` read what the run
 * tried beyond the spec into a struct pc_confine_obs and fix up the facts
 * the wrapper changed (a death by signal it reports as an exit code).
 * The implementation lives in host/sandbox/ (pc_sandbox.h, bubblewrap and
 * strace); host/ never includes it. Nothing here prints or exits.
 */
#ifndef PC_CONFINE_H
#define PC_CONFINE_H

#include <stdbool.h>

#include "pc_proc.h"
#include "pc_strvec.h"

/* What one run may do and where it runs. All borrowed. */
struct pc_confine_spec {
	const char *workspace;	    /* writable only with write_workspace */
	const char *plugin_dir;	    /* read-only (NULL: none) */
	const char *const *more_ro; /* NULL, or a NULL-terminated list of
				       more read-only directories (the
				       plugin directories a built-in tool
				       must not change) */
	const char *home;	    /* $HOME of the plugin's env, or NULL */
	const char *tmpdir;	    /* $TMPDIR of the plugin's env, or NULL */
	const char *cwd;	    /* the plugin's working directory */
	bool network;		    /* `access_network` is declared */
	bool write_workspace;	    /* `write_workspace` is declared */
};

/* At most this many entries in each list of struct pc_confine_obs. */
#define PC_CONFINE_MAX_OBS 16

/* What one run tried beyond its spec, deduplicated, each list capped at
 * PC_CONFINE_MAX_OBS entries. */
struct pc_confine_obs {
	struct pc_strvec net;	     /* "127.0.0.1:9", "[2001:db8::1]:443" */
	struct pc_strvec ws_writes;  /* workspace paths, without
					write_workspace */
	struct pc_strvec out_writes; /* paths outside the workspace and the
					writable directories */
	int term_signal;	     /* the plugin died by this signal; 0:
					it exited, or unknown */
	bool core_dumped;
	bool active;	   /* the run was confined (set by
			      observe) */
	char *trace_error; /* NULL, or (owned) why the lists above
			      may miss what the run tried */
};

#define PC_CONFINE_OBS_INIT                                               \
	{                                                                 \
		PC_STRVEC_INIT, PC_STRVEC_INIT, PC_STRVEC_INIT, 0, false, \
			false, NULL                                       \
	}

/* pc_confine_wrap_fn - append to `wrap` the argv prefix (its first element
 * an absolute path) that runs one command under `sp`, and set *helper to
 * the canonical path of the wrapper's helper executable (pc_proc_opts
 * wrap_helper; NULL for none). `sp` and `ctx` are borrowed. */
typedef void (*pc_confine_wrap_fn)(void *ctx, const struct pc_confine_spec *sp,
				   struct pc_strvec *wrap, const char **helper);

/* pc_confine_observe_fn - after pc_proc_run() of a wrapped run whose
 * result is `r` (r->pid the wrapper): fill `obs` (set obs->active) and
 * restore in `r` what the wrapper changed. Returns 0 or a PC_E* code when
 * what the run tried cannot be known (obs->trace_error then says why). */
typedef int (*pc_confine_observe_fn)(void *ctx,
				     const struct pc_confine_spec *sp,
				     struct pc_proc_result *r,
				     struct pc_confine_obs *obs);

/* A confinement: both operations and their context (borrowed by the
 * host; it must outlive every pc_host that points at it). */
struct pc_confine {
	void *ctx;
	pc_confine_wrap_fn wrap;
	pc_confine_observe_fn observe;
};

/* pc_confine_run - pc_proc_run(o, r, err) under `c` with `sp`: o->wrap and
 * o->wrap_helper are set for the call (and put back), then `observe` runs
 * when the wrapper was started. `obs` may be NULL (what the run tried is
 * then not kept). Returns what pc_proc_run returns. Blocks as pc_proc_run. */
int pc_confine_run(const struct pc_confine *c, const struct pc_confine_spec *sp,
		   struct pc_proc_opts *o, struct pc_proc_result *r,
		   struct pc_confine_obs *obs, struct pc_err *err);

/* pc_confine_obs_release - free what `obs` holds and reset it to
 * PC_CONFINE_OBS_INIT. */
void pc_confine_obs_release(struct pc_confine_obs *obs);

#endif

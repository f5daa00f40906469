/* pc_suite.h - the built-in conformance suite behind `plugcheck check`.
 *
 * pc_suite_run() learns, in one run, what the Catalyst Code host will do
 * to a plugin and what in it will break, fail open or surprise:
 *   1. the host's load verdict for the plugin directory, and how it loads
 *      as a global plugin, as an untrusted project plugin and as a trusted
 *      one (spec §1, R1.7);
 *   2. the static checks of pc_lint (manifest, scripts, capabilities);
 *   3. every declared entry point fired through the reference host with
 *      realistic inputs (hooks, tools with schema-generated arguments,
 *      commands, the memory round trip, each OAuth action);
 *   4. robustness probes (inputs near the 1 MiB cap, non-ASCII input in
 *      the host's C locale, repeated firings for latency, leftovers);
 *   5. the guard search of every blocking pre_bash, pre_write, pre_read
 *      and pre_tool hook (pc_guard.h): does it deny the dangerous seeds,
 *      and which rewrites of them get through;
 * and records findings (stable ids, see `plugcheck rules`) and one report
 * case per check and per firing.
 *
 * Every firing runs with a throwaway HOME and workspace that are removed
 * afterwards, the workspace being the script's working directory (as
 * when the host is started in the workspace, R4.5, R5.4); plugin
 * processes are swept after every call (pc_proc.h). The firings run in
 * worker processes (pc_pool.h), so a plugin that kills or stops its
 * parent is a finding (PC-PROC-004), never a lost report.
 * Blocks for the sum of the firings; each is bounded by its own timeout
 * (OAuth login/complete probes are capped at PC_SUITE_OAUTH_CAP_MS), and
 * at most PC_SUITE_MAX_FIRED tools and commands are fired.
 */
#ifndef PC_SUITE_H
#define PC_SUITE_H

#include <signal.h>
#include <stdbool.h>

#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_report.h"
#include "pc_sandbox.h"
#include "pc_strvec.h"

#define PC_SUITE_OAUTH_CAP_MS 15000u
/* At most this many tools and this many script commands are fired; the
 * rest are reported as one skipped case (static checks still cover all). */
#define PC_SUITE_MAX_FIRED 32u
#define PC_SUITE_MAX_FIRED_S "32"

struct pc_suite_opts {
	const char *path;		    /* the plugin directory */
	char *const *envp;		    /* plugcheck's environment (PATH,
					       TMPDIR, USER are taken from it) */
	const struct pc_manifest_env *menv; /* for the plugin-dir load */
	bool strict;			    /* warnings fail the run */
	const struct pc_strvec *ignore;	    /* rule ids to suppress, or NULL */
	unsigned repeat;		    /* latency firings per hook (0: 5) */
	/* jobs - worker processes firing entry points at once (0 or 1:
	 * all in plugcheck's own process). The report is the same, in the
	 * same order, whatever the value; only times differ. */
	unsigned jobs;
	/* progress - called before each step with a short label; may be
	 * NULL. */
	void (*progress)(void *ctx, const char *label);
	void *progress_ctx;
	/* stop - when it becomes non-zero (a signal handler sets it) the
	 * suite stops after the current firing and marks the report
	 * incomplete. May be NULL. */
	volatile sig_atomic_t *stop;
	/* sandbox - NULL, or every plugin script runs under it with the
	 * plugin's capabilities, and what a script tries beyond them is
	 * reported (PC-SBX-*; plugcheck check --sandbox). Borrowed. */
	const struct pc_sandbox *sandbox;
	/* the guard search of every blocking pre hook (pc_guard.h): the
	 * plugin's .plugcheck.yaml guard_seeds (may be NULL) and the budget
	 * of inputs per point (0: PC_GUARD_BUDGET) */
	const struct pc_strvec *guard_commands;
	const struct pc_strvec *guard_paths;
	unsigned guard_budget;
};

/* pc_suite_static - what `plugcheck lint` reports: the loads and the
 * static cases of pc_suite_run(), without running any plugin script.
 * Same returns as pc_suite_run(). */
int pc_suite_static(const struct pc_suite_opts *o, struct pc_report *r,
		    struct pc_err *err);

/* pc_suite_run - run the suite on o->path into `r` (PC_REPORT_INIT; the
 * caller releases it with pc_report_release). Returns 0 whenever a report
 * was produced (a plugin the host rejects is a report with loaded=false
 * and finding PC-LOAD-001); PC_EIO when plugcheck itself could not work
 * (no temporary directory), with err set. */
int pc_suite_run(const struct pc_suite_opts *o, struct pc_report *r,
		 struct pc_err *err);

#endif

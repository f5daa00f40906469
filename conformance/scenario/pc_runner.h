/* pc_runner.h - run loaded scenarios through the reference host and judge
 * their expectations, into the one result type (pc_report.h).
 *
 * Every fire step goes through the firing engine (pc_fire.h) with the
 * plugin loaded once per scenario run; turn and lifecycle steps through
 * the host's turn loop (pc_turn.h) with a scripted model (pc_mock.h).
 * Each scenario run gets a fresh temporary workspace (seeded with the
 * file's host.files), which is also the working directory of every
 * script (R5.4), and a fresh HOME, both removed afterwards; the emulated
 * host's environment is PATH, HOME, TMPDIR and USER plus the file's
 * host.env. Steps run in order; after a failed step the rest are
 * reported as skipped.
 *
 * Results: one report group per scenario (pc_group: id, file, name,
 * runs, passes, times, --update values) and one case per step (class
 * "plugcheck.scenario.<file stem>", name "<scenario> / <n>. <step>", the
 * step's actual document as system_out). A failed step has a finding
 * PC-SCN-001 naming every unmet expectation; a skipped scenario is one
 * skipped case named as the scenario.
 *
 * Scenarios run in worker processes (pc_pool.h, -j N, N = 1 included):
 * a plugin that kills or stops its parent is a finding (PC-PROC-004) of
 * its scenario, the other scenarios run and the report is written.
 * Nothing here prints or exits.
 */
#ifndef PC_RUNNER_H
#define PC_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "pc_err.h"
#include "pc_report.h"
#include "pc_scenario.h"

struct pc_sandbox;

struct pc_run_item {
	const struct pc_scenario_file *file; /* borrowed */
	const struct pc_scenario *scenario;  /* borrowed, inside file */
};

struct pc_run_opts {
	unsigned repeat; /* runs per scenario (0 or 1: once) */
	bool update;	 /* collect actual values for !update expectations */
	unsigned jobs;	 /* worker processes (0 or 1: one) */
	/* NULL, or every plugin script runs under this sandbox (borrowed;
	 * plugcheck run/check --sandbox, pc_sandbox.h) */
	const struct pc_sandbox *sandbox;
	/* NULL, or a flag a signal handler sets (README "Ctrl-C"): no
	 * scenario starts after it is set, and the one it cut short (its
	 * plugin was killed) is not judged; both are skipped with a message
	 * starting "interrupted:". */
	volatile sig_atomic_t *stop;
	/* progress - called with each scenario's id as it starts; may be
	 * NULL. */
	void (*progress)(void *ctx, const char *label);
	void *progress_ctx;
};

#define PC_RUN_OPTS_INIT                                                 \
	{ .repeat = 1, .update = false, .jobs = 1, .sandbox = NULL,      \
	  .stop = NULL, .progress = NULL, .progress_ctx = NULL }

/* pc_runner_validate - check every fire step of every scenario of `f`
 * against its plugin as loaded by the host: the point must name a
 * registered hook, a declared tool or command, an OAuth block or a memory
 * provider (pc_fire_resolve). Returns 0, or PC_EPARSE with
 * "FILE:LINE:COL: step 'NAME': REASON" in err. A plugin the host rejects
 * is not an error here (the step shows the host's verdict), but a point
 * no plugin can have is (a misspelled hook point: pc_fire_point_syntax). */
int pc_runner_validate(const struct pc_scenario_file *f, struct pc_err *err);

/* pc_runner_run - run the `n` items into `r`, in item order (groups and
 * cases appended). Blocks for as long as the scenarios take (each
 * exchange is bounded by its entry point's timeout, pc_fire.h). Returns
 * 0, or PC_EIO when no worker process could be started (the items are
 * then reported as lost: PC-INT-001, r->incomplete). */
int pc_runner_run(const struct pc_run_item *items, size_t n,
		  const struct pc_run_opts *o, struct pc_report *r,
		  struct pc_err *err);

/* pc_runner_baseline - apply a baseline of scenario ids known to fail
 * (`ids`, borrowed) to the scenarios of `r`: a listed failing scenario's
 * cases become expected failures (XFAIL: reported, not failing); a listed
 * scenario that passes gets a finding PC-SCN-003 (it fails the run, so
 * baselines cannot go stale). Call before pc_report_finish's final
 * verdict; it finishes `r` itself to know what failed. */
void pc_runner_baseline(struct pc_report *r, const struct pc_strvec *ids);

/* pc_runner_apply_updates - rewrite, in the scenario files, every
 * expectation marked !update / "@update" with the actual value the
 * groups of `r` recorded (as `!update <JSON>`). Returns the number of
 * values written (>= 0), or PC_EIO with the file named in err. */
int pc_runner_apply_updates(const struct pc_report *r, struct pc_err *err);

/* pc_runner_add_invalid - a case for scenario file `path` that did not
 * load, with finding PC-SCN-002 carrying its located error (err->msg,
 * "PATH:LINE:COL: ..."; line and column are parsed from it). */
void pc_runner_add_invalid(struct pc_report *r, const char *path,
			   const struct pc_err *err);

/* pc_runner_check_tests - `plugcheck check PATH`'s part: every
 * `*.plugcheck.yaml` under PATH/tests/ (recursively, sorted) loaded and
 * run (with `o`) into `r`. A file that does not load is a case with
 * finding PC-SCN-002 (the others still run). Returns how many files were
 * found (0: none). */
size_t pc_runner_check_tests(const char *plugin_dir,
			     const struct pc_run_opts *o, struct pc_report *r);

#endif

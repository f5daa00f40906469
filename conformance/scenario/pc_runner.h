/* pc_runner.h - run loaded scenarios through the reference host
 * (pc_fire.h for every fire step) and judge their expectations.
 *
 * Each scenario run gets a fresh temporary workspace (seeded with the
 * file's host.files) and a fresh HOME, both removed afterwards; the
 * emulated host's environment is PATH, HOME, TMPDIR and USER plus the
 * file's host.env. Steps run in order; after a failed step the rest are
 * reported as skipped.
 *
 * Results are JSON values (documented in docs/scenarios.md, "JSON
 * report"), so that worker processes can hand them to the parent: with
 * jobs > 1, pc_runner_run() forks that many worker PROCESSES (never
 * threads: pc_proc's sweep rule allows one run at a time per process),
 * each running every jobs-th scenario; the parent itself never spawns a
 * plugin meanwhile. A worker that dies makes its scenarios fail, never
 * vanish.
 *
 * Nothing here prints or exits (workers end with _exit in the child).
 */
#ifndef PC_RUNNER_H
#define PC_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

struct pc_sandbox;

#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_report.h"
#include "pc_scenario.h"

struct pc_run_item {
	const struct pc_scenario_file *file; /* borrowed */
	const struct pc_scenario *scenario;  /* borrowed, inside file */
};

struct pc_run_opts {
	unsigned repeat; /* runs per scenario (0 or 1: once) */
	bool update;	 /* collect actual values for !update expectations */
	unsigned jobs;	 /* worker processes (0 or 1: run in-process) */
	/* NULL, or every plugin script runs under this sandbox (borrowed;
	 * plugcheck run/check --sandbox, pc_sandbox.h) */
	const struct pc_sandbox *sandbox;
	/* NULL, or a flag a signal handler sets (README "Ctrl-C"): no
	 * scenario starts after it is set, and the one it cut short (its
	 * plugin was killed) is not judged; both get status "skip" with a
	 * message starting "interrupted:". */
	volatile sig_atomic_t *stop;
};

#define PC_RUN_OPTS_INIT                                \
	{                                               \
		.repeat = 1, .update = false, .jobs = 1, \
		.sandbox = NULL, .stop = NULL             \
	}

/* pc_runner_run - run the `n` items; returns a new JSON array (caller
 * deletes) with one result object per item, in item order:
 *   {"id","file","name","status":"pass"|"fail"|"skip","message",
 *    "time_ms","runs","passes","p95_ms","steps":[{"name","status",
 *    "message","exchange","time_ms"}],"updates":[{"file","start","end",
 *    "text"}]}
 * Blocks for as long as the scenarios take (each exchange is bounded by
 * its entry point's timeout, pc_fire.h). */
cJSON *pc_runner_run(const struct pc_run_item *items, size_t n,
		     const struct pc_run_opts *o);

/* pc_runner_apply_updates - rewrite, in the scenario files, every
 * expectation marked !update / "@update" with the actual value the
 * results recorded (as `!update <JSON>`). Returns the number of values
 * written (>= 0), or PC_EIO with the file named in err. */
int pc_runner_apply_updates(const cJSON *results, struct pc_err *err);

/* pc_runner_add_cases - one report case per step of every result
 * (classname "plugcheck.scenario.<file stem>", name "<scenario> / <n>.
 * <step>"), with the captured exchange as system_out; a skipped
 * scenario gives one skipped case. Copies what it needs. */
void pc_runner_add_cases(const cJSON *results, struct pc_report *r);

/* pc_runner_check_tests - `plugcheck check PATH`'s hook: load every
 * `*.plugcheck.yaml` under PATH/tests/ (recursively, sorted), run them
 * in-process (under `sandbox` unless NULL) and add their cases to `r`. *results gets the results array
 * (caller deletes), NULL when there is no such file. Returns 0, or
 * PC_EPARSE with the first file's located error in err (nothing runs
 * then). */
int pc_runner_check_tests(const char *plugin_dir,
			  const struct pc_sandbox *sandbox, struct pc_report *r,
			  cJSON **results, struct pc_err *err);

/* pc_runner_failed - how many results have status "fail". */
size_t pc_runner_failed(const cJSON *results);

/* pc_runner_print - the human form of `results` to `out`: one line per
 * scenario (PASS/FAIL/SKIP/XFAIL id, time, pass rate and p95 when
 * repeat > 1), every failed step's message, and a summary line. */
void pc_runner_print(FILE *out, const cJSON *results, unsigned repeat);

/* pc_runner_status - the "status" string of one result. */
const char *pc_runner_status(const cJSON *result);

#endif

/* pc_runner_impl.h - private to conformance/scenario/: the state of one
 * scenario run and the judging helpers the runner's files share. */
#ifndef PC_RUNNER_IMPL_H
#define PC_RUNNER_IMPL_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_host.h"
#include "pc_runner.h"
#include "pc_scenario_impl.h"
#include "pc_turn.h"

/* One run of one scenario. */
struct run {
	const struct pc_scenario_file *file;
	const struct pc_run_opts *o;
	char *ws, *home;
	struct pc_strvec env;
	cJSON *vars;
	cJSON *updates;	   /* --update values of this run, or NULL */
	struct pc_buf msg; /* the current step's failure text */
	unsigned nsession;
	/* fire steps: each plugin directory loaded once per run */
	struct pc_strvec fire_paths;
	struct pc_plugin **fire_plugins; /* NULL: the host rejects it */
	char **fire_errors;		 /* its load error, or NULL */
	/* turn steps: set up by the first one (turn_setup) */
	bool turn_up;
	struct pc_host host;
	struct pc_turn turn;
	struct pc_plugin **plugins;
	size_t nplugins;
	/* the step being run (NULL for the host's files) and the bytes its
	 * templates expanded to so far (PC_SCENARIO_MAX_EXPAND) */
	const struct pc_step *step;
	size_t expanded;
	/* the structured parts of the step being run (pc_report.h): a fire
	 * step's exchange, a turn step's timeline; moved to its case */
	struct pc_case rec;
};

/* `s` with every {{ vars.NAME }} replaced (a new string); NULL, with the
 * message in r->msg, when a variable is undefined or the step's
 * templates expand past PC_SCENARIO_MAX_EXPAND bytes (a located
 * FILE:LINE:COL error). */
char *pc__run_render(struct run *r, const char *s);
/* A copy of `v` with templates rendered in every string; NULL on error. */
cJSON *pc__run_render_json(struct run *r, const cJSON *v);
/* The rendered text of an input value: a string as is, anything else as
 * compact JSON (a new string); NULL on a template error. */
char *pc__run_json_text(struct run *r, const cJSON *v);
/* Judge every expectation of step `s` against its actual document `doc`
 * (NULL for files steps); failures are appended to r->msg. */
bool pc__run_check_all(struct run *r, const struct pc_step *s,
		       const cJSON *doc);
/* Save the step's captures from `doc` into r->vars; *ok cleared (and
 * r->msg told) for a path that is not there. */
void pc__run_save_vars(struct run *r, const struct pc_step *s,
		       const cJSON *doc, bool *ok);

/* pc__run_step - run step `s` and judge it; *doc gets its actual
 * document (caller deletes; NULL for write and files steps, or when the
 * step could not run). False when it failed, the reason in r->msg. */
bool pc__run_step(struct run *r, const struct pc_step *s, cJSON **doc);
/* pc__run_seed - write the file's host.files into the workspace; 0, or
 * -1 with the reason in r->msg. */
int pc__run_seed(struct run *r);
/* pc__run_teardown - end the run's turns (session_shutdown) and free its
 * plugins. */
void pc__run_teardown(struct run *r);

#endif

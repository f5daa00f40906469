/* pc_scenario.h - scenario files (`*.plugcheck.yaml`, docs/scenarios.md):
 * what a plugin author writes once and runs in CI.
 *
 * pc_scenario_load() reads one file with libyaml (hidden in
 * pc_scenario_load.c) into a struct pc_scenario_file: the plugins under
 * test, the host settings, and the scenarios with their steps and
 * expectations. Everything is checked at load time - unknown keys, wrong
 * types, bad regexes (compiled here, once), anchors/aliases, files over
 * PC_SCENARIO_MAX_BYTES, invalid UTF-8 - and the first problem is
 * reported as "FILE:LINE:COLUMN: what was expected" (1-based, libyaml
 * marks). A file that loads has no scenario the runner could skip
 * silently.
 *
 * Ownership: the file struct owns everything in it (cJSON values,
 * matchers, strings); free it with pc_scenario_file_release(). Nothing
 * here prints, exits or runs a plugin.
 */
#ifndef PC_SCENARIO_H
#define PC_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_match.h"
#include "pc_strvec.h"
#include "pc_turn.h"

/* Scenario files larger than this are refused (bytes). */
#define PC_SCENARIO_MAX_BYTES ((size_t)1 << 20)
/* At most this many YAML nodes, and this nesting depth, per file. */
#define PC_SCENARIO_MAX_NODES 100000
#define PC_SCENARIO_MAX_DEPTH 64
/* The {{ vars.NAME }} templates of one step expand to at most this many
 * bytes together (a saved value used twice per step doubles each step: a
 * template bomb); past it the step fails with a FILE:LINE:COL error. */
#define PC_SCENARIO_MAX_EXPAND ((size_t)16 << 20)
/* The only format version this plugcheck reads (`plugcheck: 1`). */
#define PC_SCENARIO_VERSION 1

/* How an expectation compares the actual value at its path. */
enum pc_expect_op {
	PC_EXPECT_EQ,	  /* scalars equal; objects: subset; arrays: equal
			     length, each element matched the same way */
	PC_EXPECT_STRICT, /* JSON-equal, nothing extra (`strict: true`) */
	PC_EXPECT_REGEX,  /* a string the regex finds a match in */
	PC_EXPECT_LT,	  /* a number strictly below `value` */
	PC_EXPECT_LE,	  /* a number at most `value` */
	PC_EXPECT_ABSENT, /* the path does not exist (null also counts) */
	PC_EXPECT_FILE,	  /* workspace file `path`: see file_* below */
	PC_EXPECT_HOOKS,  /* turn `hooks`: `value` (strings) is a
			     subsequence of the actual list, or the whole
			     list with `exact` */
	PC_EXPECT_EVENTS, /* turn `events`: each object of `value`
			     subset-matches a later transcript event */
};

enum pc_file_state { PC_FILE_PRESENT, PC_FILE_ABSENT, PC_FILE_CONTENT };

struct pc_expect {
	char *label; /* as written: "reason", "json $.a.b", "files x" */
	char *path;  /* JSON path into the step's actual document
			("$.reason"), or the workspace-relative file */
	enum pc_expect_op op;
	cJSON *value; /* EQ/STRICT/LT/LE; strings may hold {{ vars.x }} */
	struct pc_match *re; /* REGEX, and FILE content given as a regex */
	enum pc_file_state file_state; /* FILE */
	bool is_verdict; /* value is "allow"/"deny", compared to $.allow */
	bool update;	 /* marked `!update` or "@update" (--update) */
	bool exact;	 /* HOOKS: the whole list, in order (`exact: true`) */
	size_t upd_start, upd_end; /* byte range of the value in the file */
	size_t line, col;	   /* where the expectation is written */
};

enum pc_step_kind {
	PC_STEP_FIRE,
	PC_STEP_WRITE,
	PC_STEP_FILES,
	PC_STEP_TURN,
	PC_STEP_LIFE, /* enable / disable / reload between turns */
};

/* The plugin-management command of a lifecycle step (R1.13-R1.15,
 * R10.3, spec §11), sent between the scenario's turns. */
enum pc_life_op { PC_LIFE_ENABLE, PC_LIFE_DISABLE, PC_LIFE_RELOAD };

/* A `turn` step: one pc_turn_run() through the file's plugins with a
 * scripted model (pc_mock.h); the conversation carries over between the
 * turn steps of one scenario run. */
struct pc_turn_step {
	char *text;    /* the user message; may hold {{ vars.x }}; NULL
			  when `command` is given */
	char *command; /* a plugin command run instead (R7.2-R7.5), or
			  NULL; may hold {{ vars.x }} */
	char *args;    /* the command's argument text ("" by default) */
	cJSON *model;  /* the mock-model script (`model`, or the parsed
			  `model_file`), checked with pc_mock_new_json */
	int images;    /* images attached (0..64) */
	bool vision;   /* vision handoff enabled (pre_turn) */
	bool compact;  /* compact before the first request (pre_compact) */
	enum pc_turn_approval approval; /* R6.4, default never */
};

struct pc_capture {
	char *var;  /* name used as {{ vars.NAME }} */
	char *path; /* JSON path into the step's actual document */
};

struct pc_step {
	enum pc_step_kind kind;
	char *name;		  /* display name: given, or "fire pre_bash" */
	char *point;		  /* FIRE: "pre_bash", "tool:NAME", ... */
	char *plugin;		  /* FIRE: absolute plugin directory */
	cJSON *input;		  /* FIRE: args (string for command: points), or
				     NULL for the point's default */
	cJSON *result;		  /* FIRE: post-hook tool result, or NULL */
	char *tool;		  /* FIRE: tool name for tool hooks, or NULL */
	cJSON *files;		  /* WRITE: object path -> content */
	struct pc_turn_step turn; /* TURN */
	enum pc_life_op life;	  /* LIFE */
	char *target;		  /* LIFE: the plugin name (enable, disable) */
	struct pc_expect *expects;
	size_t nexpects;
	struct pc_capture *captures;
	size_t ncaptures;
	size_t line, col;
};

struct pc_scenario {
	char *id; /* "<file stem>/<name>": the baseline and filter id */
	char *name;
	struct pc_strvec tags;
	char *skip; /* reason to skip, or NULL */
	struct pc_step *steps;
	size_t nsteps;
	size_t line, col;
};

/* Host settings shared by every scenario of a file. */
struct pc_scenario_host {
	char *scope;  /* "plugin_dir" (default), "global", "project" */
	bool trust;   /* project plugins trusted (R1.7-R1.9) */
	cJSON *env;   /* object NAME -> string, added to the host env */
	cJSON *files; /* object path -> content: workspace fixture */
};

struct pc_scenario_file {
	char *path; /* as given */
	char *dir;  /* absolute directory holding the file */
	char *stem; /* base name without .plugcheck.yaml / .yaml */
	struct pc_strvec plugins; /* absolute plugin directories, >= 1 */
	struct pc_scenario_host host;
	struct pc_scenario *scenarios;
	size_t nscenarios;
};

#define PC_SCENARIO_FILE_INIT \
	{                     \
		0             \
	}

/* pc_scenario_load - read and check `path` into `f` (PC_SCENARIO_FILE_INIT).
 * Returns 0; PC_EPARSE with "PATH:LINE:COL: what was expected" in
 * err->msg for any problem with the file's contents (err->where holds
 * "PATH:LINE:COL"); PC_EIO / PC_ENOENT with "cannot read 'PATH': ..." when
 * it cannot be read. The caller releases `f` in every case. */
int pc_scenario_load(const char *path, struct pc_scenario_file *f,
		     struct pc_err *err);

/* pc_scenario_file_release - free everything `f` owns; `f` is left as
 * PC_SCENARIO_FILE_INIT. */
void pc_scenario_file_release(struct pc_scenario_file *f);

/* pc_scenario_has_tag - true when `s` carries any tag of the
 * comma-separated list `tags`. */
bool pc_scenario_has_tag(const struct pc_scenario *s, const char *tags);

#endif

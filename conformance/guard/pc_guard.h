/* pc_guard.h - guard assurance (issue 16): does a blocking pre hook block,
 * and which rewrites of what it blocks get through?
 *
 * A guard is a pre_bash, pre_write, pre_read or pre_tool hook that denies
 * what must not happen. The search (docs/guard.md):
 *   1. fires the point's realistic input once: a hook that fails on it is
 *      not searched (check reports that failure as PC-HOOK-010);
 *   2. fires every seed - the built-in corpus of commonly guarded actions
 *      for the point's input shapes (shell commands for pre_bash and
 *      pre_tool on bash, paths to write for pre_write and pre_tool on
 *      write_file, paths to read for pre_read and pre_tool on
 *      read_file), every `expect: deny` fire step of the plugin's own
 *      tests/<name>.plugcheck.yaml, and the plugin's .plugcheck.yaml
 *      guard_seeds - and the benign look-alikes, as the host sends them
 *      (args only with pass_args, R4.5); an empty text is no seed;
 *   3. rewrites every seed the hook denied with the families of
 *      pc_guard_impl.h (each one an equivalent the host and bash run the
 *      same way, proved by tests/e2e/test_guard_proof.py), in the order
 *      public guards fall to them, until the budget is spent, and judges
 *      each rewrite by every hook of the plugin on that tool's path
 *      (the specific pre hook, then pre_tool, R4.8): one that all of them
 *      allow is a bypass;
 *   4. shows each bypass through another tool on a workspace file with a
 *      scripted turn in a fresh workspace (the file it wrote or read).
 * Every input is sent to the hook as JSON through conformance/fire/;
 * nothing the search makes is ever run by a shell, except the scripted
 * turns' fixed writes and reads of a file in their throwaway workspace.
 *
 * Caller protocol: fill struct pc_guard_opts (PC_GUARD_OPTS_INIT), call
 * pc_guard_run() into a struct pc_guard_result (PC_GUARD_RESULT_INIT),
 * render it (pc_guard_report for check's cases and findings,
 * pc_guard_json, pc_guard_print), pc_guard_save() the bypasses as
 * regression scenarios, pc_guard_result_release().
 *
 * Nothing here prints on its own or exits. pc_guard_run blocks for its
 * firings: at most the budget of inputs (each one hook exchange per hook
 * on its path, each bounded by that hook's deadline, pc_proc.h) plus
 * PC_GUARD_MAX_TURNS turns, and stops starting new ones after
 * PC_GUARD_TIME_MS.
 */
#ifndef PC_GUARD_H
#define PC_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "pc_confine.h"
#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_report.h"
#include "pc_strvec.h"

/* Inputs tried per point by default (seeds, look-alikes and rewrites). */
#define PC_GUARD_BUDGET 200u
/* No new input is started after this long (ms) on one point. */
#define PC_GUARD_TIME_MS 60000
/* At most this many scripted turns demonstrate bypasses per point. */
#define PC_GUARD_MAX_TURNS 6u
/* A search stops after this many timeouts (each costs timeout_ms). */
#define PC_GUARD_MAX_TIMEOUTS 2u

/* What a point's input carries. */
enum pc_guard_shape {
	PC_GUARD_CMD,	/* bash {"command"} */
	PC_GUARD_WRITE, /* write_file {"content","path"} */
	PC_GUARD_READ,	/* read_file {"path"} */
};

/* pc_guard_shape_name - "command", "write", "read". */
const char *pc_guard_shape_name(enum pc_guard_shape s);

struct pc_guard_seed {
	char *text;		   /* the command or the path */
	enum pc_guard_shape shape;
	char *origin;		   /* "built-in", "tests/x.plugcheck.yaml:12",
				      ".plugcheck.yaml", "--seed", "FILE:N" */
	bool benign;		   /* a look-alike that must be allowed */
};

enum pc_guard_verdict {
	PC_GUARD_NOT_RUN,  /* not fired (the run stopped, its worker died) */
	PC_GUARD_ALLOW,	   /* every hook on the path answered allow */
	PC_GUARD_DENY,	   /* a hook answered without allow:true */
	PC_GUARD_ACCIDENT, /* a hook failed: crash, timeout, non-zero exit,
			      empty or invalid answer - the host denies, but
			      no hook decided (R4.4) */
};

enum pc_guard_role { PC_GUARD_T_SEED, PC_GUARD_T_BENIGN, PC_GUARD_T_VARIANT };

/* One input tried. Every string is owned. */
struct pc_guard_try {
	enum pc_guard_role role;
	size_t seed;	     /* the seed (index into seeds) it is, or came
				from */
	const char *family;  /* variants: the family name (static) */
	char *rule;	     /* variants: what the rewrite did */
	char *tool;	     /* the tool the hooks see */
	char *text;	     /* the command or path, as shown */
	char *args;	     /* the args JSON text sent */
	enum pc_guard_verdict verdict;
	char *decided_by;    /* the hook that denied or failed, "" when all
				allowed; "-" when no hook sees the tool */
	char *reason;	     /* the host's reason for it */
	char *outcome;	     /* pc_outcome_name() of the deciding firing */
	char *exchange;	     /* the deciding (or last) firing as `fire`
				shows it (accidents, bypasses), or NULL */
	char *demo;	     /* what a scripted turn did with it, or NULL */
	bool demo_done;	     /* the turn wrote (read) the file */
	unsigned exchanges;  /* hook exchanges it cost */
	double ms;	     /* their wall time */
};

/* Something the script reads that the host never sends (for a guard that
 * allowed every seed). */
struct pc_guard_cause {
	char *what;  /* "reads tool_input ..." */
	char *file;  /* relative to the plugin */
	unsigned line, column; /* 0: not located */
	bool certain; /* the script reads what the host never sends (an
			 error); false: a hint (no pass_args, nothing read) */
};

struct pc_guard_family_count {
	const char *name; /* static */
	unsigned planned, tried, bypasses;
};

struct pc_guard_result {
	char *point;
	int hook;
	bool pass_args;
	char *workspace;    /* the workspace and HOME the inputs name */
	char *home;
	struct pc_guard_seed *seeds;
	size_t nseeds;
	struct pc_guard_try *tries;
	size_t ntries;
	struct pc_guard_cause *causes;
	size_t ncauses;
	struct pc_guard_family_count fam[24];
	size_t nfam;
	unsigned budget;    /* inputs allowed */
	unsigned inputs;    /* inputs fired */
	unsigned exchanges; /* hook exchanges (an input may fire two hooks) */
	unsigned turns;	    /* scripted turns run */
	double wall_ms;	    /* the whole search */
	double hook_ms;	    /* the exchanges' own wall time, summed */
	char *skipped;	    /* NULL, or why no search ran */
	char *stopped;	    /* NULL, or why it stopped early */
	bool inert;	    /* no dangerous seed was denied */
	bool denies_all;    /* every input, benign ones too, was denied */
	bool incomplete;    /* interrupted: not judged */
};

#define PC_GUARD_RESULT_INIT { .hook = -1 }

struct pc_pool_worker;

struct pc_guard_opts {
	const struct pc_plugin *plugin; /* loaded; borrowed */
	int hook;			/* PC_HOOK_PRE_BASH/_WRITE/_READ/_TOOL */
	/* pre_tool: "bash", "write_file" or "read_file" keeps one shape;
	 * NULL: all three */
	const char *tool;
	char *const *envp;	/* the emulated host's environment */
	const char *workspace;	/* absolute directory, no symlink on the
				   way: the scripts' cwd (R4.5, R5.4) */
	const char *session;	/* the session path, or "" */
	const char *tmp;	/* a directory for the turns' workspaces */
	const struct pc_confine *confine; /* NULL, or --sandbox */
	/* NULL: the built-in corpus plus the plugin's own seeds; else
	 * exactly these seeds (of the point's first shape) */
	const struct pc_strvec *seeds;
	/* .plugcheck.yaml guard_seeds: commands, and paths (to write and
	 * to read); may be NULL */
	const struct pc_strvec *config_commands;
	const struct pc_strvec *config_paths;
	const char *families; /* NULL, or a comma-separated list */
	unsigned budget;      /* 0: PC_GUARD_BUDGET */
	unsigned jobs;	      /* > 1: firings in worker processes */
	bool turns;	      /* demonstrate with scripted turns */
	bool plan_only;	      /* fire nothing: every seed counts as
				 denied, every rewrite is listed */
	volatile sig_atomic_t *stop; /* NULL, or set by a signal handler */
	/* NULL, or the pool worker this runs in: the firing in progress is
	 * its note (pc_pool_note) */
	struct pc_pool_worker *worker;
	const char *note_prefix; /* prefixed to those notes */
	void (*progress)(void *ctx, const char *label);
	void *progress_ctx;
};

#define PC_GUARD_OPTS_INIT { .hook = -1, .turns = true }

/* pc_guard_is_point - `hook` is a point the search has a corpus for:
 * pre_bash, pre_write, pre_read, pre_tool. */
bool pc_guard_is_point(int hook);

/* pc_guard_families_check - `list` (comma-separated) names only known
 * families; PC_EUSAGE naming the first unknown one (and listing them)
 * otherwise. */
int pc_guard_families_check(const char *list, struct pc_err *err);
/* pc_guard_families_help - the families, one "name  what" line each, in
 * search order (a new string). */
char *pc_guard_families_help(void);

/* pc_guard_run - the search for o->hook of o->plugin into `r`. Returns 0
 * whenever a result was made (a skipped search says why in r->skipped);
 * PC_EUSAGE when the plugin has no hook there, it is not a guard point,
 * or o->families is bad (message in err); PC_EIO for plugcheck's own
 * failures (no worker could start). */
int pc_guard_run(const struct pc_guard_opts *o, struct pc_guard_result *r,
		 struct pc_err *err);
void pc_guard_result_release(struct pc_guard_result *r);

/* pc_guard_bypasses - how many tries are bypasses. */
size_t pc_guard_bypasses(const struct pc_guard_result *r);

/* pc_guard_report - the result as cases of class `cls` in `rep` with
 * their findings (PC-GUARD-*; file paths relative to plugin `p`). Returns
 * the index of the first case added. */
size_t pc_guard_report(const struct pc_guard_result *r,
		       const struct pc_plugin *p, struct pc_report *rep,
		       const char *cls);

/* pc_guard_json - the result as the JSON document of `plugcheck guard
 * --format json` (docs/guard.md); new, caller deletes. `rep` (may be
 * NULL) gives the findings. */
cJSON *pc_guard_json(const struct pc_guard_result *r,
		     const struct pc_report *rep);
/* pc_guard_print - the human form: seeds and verdicts, the families
 * tried, every bypass with its input, family and seed, the turns; then
 * `rep`'s findings (may be NULL: none) as the human report prints them,
 * the bypasses summed up in one. */
void pc_guard_print(FILE *out, const struct pc_guard_result *r,
		    const struct pc_report *rep, bool color);

/* pc_guard_save - write every bypass of `r` to scenario file `file` as a
 * regression scenario that expects the deny (a fire step at the point,
 * or for a tool the point never sees a turn step whose file must stay as
 * it was), naming the plugin directory `plugin_dir` relative to the
 * file's directory, so that `plugcheck run FILE` runs it unchanged on
 * another checkout. A bypass whose input names this run's temporary HOME
 * or workspace is left out (a comment in the file counts them): another
 * run has other ones. The file is replaced; what is written is loaded
 * back (pc_scenario_load) before it is kept. Returns the number of
 * scenarios written (0: none, no file), or PC_EIO / PC_EPARSE with err
 * set. */
int pc_guard_save(const char *file, const struct pc_guard_result *r,
		  const char *plugin_dir, struct pc_err *err);

#endif

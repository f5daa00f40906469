/* pc_suite_impl.h - private to conformance/suite: the state of one run.
 *
 * The parent process loads the plugin, makes the static cases and hands
 * the firing units (one hook point, one tool, one command, the memory
 * round trip, the OAuth actions, the skipped rest) to worker processes
 * (pc_pool.h). In a worker, `r` is the unit's own report, and every case
 * it finishes is sent to the parent at once, so that a worker the plugin
 * kills keeps what it did.
 */
#ifndef PC_SUITE_IMPL_H
#define PC_SUITE_IMPL_H

#include "pc_fire.h"
#include "pc_host.h"
#include "pc_locate.h"
#include "pc_pool.h"
#include "pc_suite.h"

struct pc__suite {
	const struct pc_suite_opts *o;
	struct pc_report *r;	  /* the run's report, or (in a worker) the
				     unit's */
	struct pc_report *run;	  /* the run's report (parent) */
	struct pc_plugin *p;	  /* loaded from the plugin directory */
	struct pc_strvec env;	  /* the emulated host's environment */
	char *tmp;		  /* root of this run's temporary files */
	char *home, *ws, *session;
	char *mem_timeout;	  /* the memory action that timed out, or
				     NULL: later actions are skipped */
	struct pc_pool_worker *w; /* in a worker: where cases go */
	size_t sent;		  /* cases of `r` already sent */
	bool *done;		  /* per case of `r`: ended (sent in order,
				     once every earlier one is) */
	size_t ndone;
	bool quiet;		  /* a worker: the parent shows progress */
};

/* True when the run was asked to stop (the report is then incomplete). */
bool pc__suite_stopped(struct pc__suite *s);
/* Announce a step to the progress callback. */
void pc__suite_progress(struct pc__suite *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* pc__suite_begin - a new case of class `cls` named `name` for what is
 * about to run (in a worker, also the pool's note). Returns its index. */
size_t pc__suite_begin(struct pc__suite *s, const char *cls,
		       const char *name);
/* pc__suite_find - add a finding to case `c`, once per (id, where) in the
 * report; none after an interrupt (plugcheck itself killed the plugin).
 * Returns it (file "plugin.json"; the caller may set file, line and
 * column; valid until the case gets another finding), or NULL when none
 * was added. */
struct pc_finding *pc__suite_find(struct pc__suite *s, size_t c, const char *id,
				  const char *where, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* pc__suite_place - set finding `f` (may be NULL) to be about `file`
 * (relative to the plugin) at `at`. */
void pc__suite_place(struct pc_finding *f, const char *file, struct pc_loc at);
/* pc__suite_end - case `c` is done: `f` (may be NULL) gives its
 * system_out (the exchange as `plugcheck fire` shows it), its structured
 * exchange (pc_fire_xchg), time and system_err (host log); after an interrupt it is skipped as not judged.
 * In a worker the finished cases go to the parent. */
void pc__suite_end(struct pc__suite *s, size_t c, const struct pc_fire *f);
/* pc__suite_end_text - pc__suite_end(s, c, NULL) with `out` (copied) as
 * the case's system_out: for a case of several firings. */
void pc__suite_end_text(struct pc__suite *s, size_t c, const char *out);
/* pc__suite_skip - a skipped case with the reason `why`. */
void pc__suite_skip(struct pc__suite *s, const char *cls, const char *name,
		    const char *why);

/* Start a host with the run's environment, workspace (also its cwd,
 * R5.4) and session. */
void pc__suite_host(struct pc__suite *s, struct pc_host *h);
/* pc__suite_fire - fire `pt` with `in` through a fresh host whose cwd is
 * `cwd` (NULL: the workspace) into `f` (PC_FIRE_INIT; caller releases). */
void pc__suite_fire(struct pc__suite *s, const struct pc_fire_point *pt,
		    const struct pc_fire_input *in, const char *cwd,
		    struct pc_fire *f);
/* PC-SBX-*: what the script of `x` tried beyond its capabilities under
 * --sandbox (nothing without it), as findings of case `c`. */
void pc__suite_sandbox(struct pc__suite *s, size_t c, const char *where,
		       const struct pc_exchange *x);
/* PC-PROC-001 and PC-SBX-*: what a finished exchange left behind. */
void pc__suite_leftovers(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_exchange *x);
/* The value of NAME in the run's environment, or NULL. */
const char *pc__suite_getenv(const struct pc__suite *s, const char *name);
/* Lossy-decoded, trimmed stdout of `x` parsed as JSON, or NULL. */
cJSON *pc__suite_answer(const struct pc_exchange *x);
/* pc__suite_same - two firings of one point gave the same verdict
 * (outcome, allow/ok, reason or output): a script that does not depend
 * on anything but its input. */
bool pc__suite_same(const struct pc_fire *a, const struct pc_fire *b);
/* pc__suite_cwd_check - PC-ENV-003 on case `c`: `f` fired in the
 * workspace, whether it passed or failed there; fire `pt` again there
 * and in the plugin directory, and when the workspace answers agree with
 * each other but not with the plugin directory's (another verdict, or a
 * failure in one of the two), the script depends on its working
 * directory (R5.4). Nothing when `f` timed out (a refiring would cost a
 * whole timeout each). */
void pc__suite_cwd_check(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_fire_point *pt,
			 const struct pc_fire_input *in,
			 const struct pc_fire *f);

/* pc__suite_fire_hook - one firing of hook point `pt` with `in` (args
 * NULL: none; tool NULL: the point's default) as a new case `label`,
 * judged (failure, answer, causes, leftovers; `probe`: a failure is
 * PC-IO-002); the verdict stays in `f` (PC_FIRE_INIT; the caller ends the
 * case and releases f). Returns the case. */
size_t pc__suite_fire_hook(struct pc__suite *s, const struct pc_fire_point *pt,
			   const char *label, const struct pc_fire_input *in,
			   bool probe, struct pc_fire *f);

/* ---- the causes of what a firing showed (pc_suite_cause.c) ---- */

/* The script that serves `pt` (canonical path, borrowed from the plugin;
 * NULL for a prompt-backed command). */
const char *pc__suite_script(const struct pc__suite *s,
			     const struct pc_fire_point *pt);
/* pc__suite_rel - `abs` relative to the plugin directory (borrowed from
 * abs; abs itself when outside it). */
const char *pc__suite_rel(const struct pc__suite *s, const char *abs);
/* pc__suite_answer_bytes - what the script of firing `f` printed, judged
 * byte by byte on case `c`: a byte order mark before the answer
 * (PC-OUT-001), bytes that are not UTF-8 (PC-OUT-002), text before or
 * after a JSON answer (PC-OUT-003 where the host needs JSON: hooks,
 * memory, OAuth; PC-OUT-004 for tools and commands whose embedded JSON
 * is a protocol answer - ok, output, result or error - whose raw text
 * then reaches the model). Findings are placed on the line of `script` (the
 * canonical path; may be NULL) that printed the cause, when one is found.
 * Only exchanges whose stdout the host read (exit 0) are judged. */
void pc__suite_answer_bytes(struct pc__suite *s, size_t c, const char *where,
			    const struct pc_fire *f, const char *script);

/* One hook firing as pc__suite_hook_causes judges it; borrowed. */
struct pc__suite_shot {
	int point;
	const char *where;     /* "hook pre_bash" */
	const char *tool;      /* the tool name the hook saw ("" none) */
	const char *args_text; /* the args JSON text, or NULL */
	const char *script;    /* the hook's canonical script path */
};

/* pc__suite_hook_causes - on case `c`, from the parsed `answer` of a hook
 * that ran to a valid JSON answer and the host's result `r`: a reason the
 * host discards at that point (PC-HOOK-023); at tool hooks that allowed,
 * a modify setting keys the tool has no parameter for (PC-HOOK-020),
 * replacing a nested object whole (PC-HOOK-021), or changing what the
 * user approved (PC-HOOK-022). */
void pc__suite_hook_causes(struct pc__suite *s, size_t c,
			   const struct pc__suite_shot *h,
			   const struct pc_hook_result *r, const cJSON *answer);
/* pc__suite_cwd_found - PC-ENV-003 on case `c` for a script whose answer
 * depends on its working directory (`there`: the answer in the plugin
 * directory; `contrast`: the sentence comparing the two answers): fires
 * `pt` with `in` once per relative file the script's text names that
 * exists in the plugin directory (at most 4), each from a directory
 * holding only that file, and names the first that reproduces the
 * plugin directory's answer, with its line. */
void pc__suite_cwd_found(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_fire_point *pt,
			 const struct pc_fire_input *in,
			 const struct pc_fire *there, const char *contrast);
/* pc__suite_hook_inputs - fire hook point `pt` (which answered its
 * realistic input) with a small corpus of ordinary inputs of its kind
 * (quotes, spaces, empty strings, newlines, `rm`, shell metacharacters);
 * the inputs it fails on (crash, timeout, empty or invalid output - not a
 * deliberate deny) become cases and one PC-HOOK-024 (blocking) or
 * PC-HOOK-025 (advisory) finding naming them, placed in the script at
 * the line its crash report names. A firing slower than 2 s
 * ends the corpus, so a slow hook costs at most one more. */
void pc__suite_hook_inputs(struct pc__suite *s, const struct pc_fire_point *pt);
/* pc__suite_tool_inputs - the same for tool `pt` whose arguments
 * `valid` (an object) passed: each string parameter (at most 3) given
 * ordinary awkward strings the schema allows; crashes are PC-TOOL-023. */
void pc__suite_tool_inputs(struct pc__suite *s, const struct pc_fire_point *pt,
			   const cJSON *valid);
/* pc__suite_tool_hooks - when the plugin has a pre_tool hook, fire it as
 * the host does before a call of each of the plugin's tools (the first 3;
 * pre_tool fires for plugin tools too, R4.6) with that tool's full valid
 * arguments, and judge its modify against that tool's schema. */
void pc__suite_tool_hooks(struct pc__suite *s, const struct pc_fire_point *pt);

/* pc__suite_fresh_dirs - empty the run's HOME, workspace (hello.txt
 * written again) and TMPDIR, keeping their paths. Called at the start of
 * every unit so that no unit sees what another left, and the report does
 * not depend on the order or the worker that ran them. Best effort: a
 * directory that cannot be made fails the firings that need it. */
void pc__suite_fresh_dirs(struct pc__suite *s);

/* Create the temporary directory (s->tmp, home, ws, session) under
 * `parent` (NULL: $TMPDIR) and the environment (s->env, which must be
 * empty). PC_EIO with err set when no temporary directory can be made. */
int pc__suite_dirs(struct pc__suite *s, const char *parent,
		   struct pc_err *err);

/* The units: one present hook point `i` (realistic input, latency,
 * probes); tool `i` (< PC_SUITE_MAX_FIRED; valid and invalid arguments);
 * command `i` (< PC_SUITE_MAX_FIRED; empty and two-word arguments); the
 * skipped cases for the tools and commands past PC_SUITE_MAX_FIRED; the
 * memory round trip; the OAuth actions. */
void pc__suite_hook(struct pc__suite *s, int i);
void pc__suite_tool(struct pc__suite *s, size_t i);
void pc__suite_tools_skipped(struct pc__suite *s);
void pc__suite_command(struct pc__suite *s, size_t i);
void pc__suite_commands_skipped(struct pc__suite *s);
void pc__suite_memory(struct pc__suite *s);
void pc__suite_oauth(struct pc__suite *s);
/* pc__suite_guard - the guard search of hook point `i` (pc_guard.h) as
 * cases of class plugcheck.guard.<point>: the last part of the unit of a
 * blocking pre_bash, pre_write, pre_read or pre_tool hook whose realistic
 * input got an answer. */
void pc__suite_guard(struct pc__suite *s, int i);

/* pc__suite_units - every unit, in `jobs` worker processes (pc_pool.h),
 * merged in order into s->r. What a plugin does to its worker (kills or
 * stops it: PC-PROC-004) and a worker plugcheck lost (PC-INT-001) become
 * cases. */
void pc__suite_units(struct pc__suite *s, unsigned jobs);

#endif

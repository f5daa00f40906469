/* pc_report.h - the one result type of plugcheck, and its renderers.
 *
 * A struct pc_report is what one run learned: the host's load verdicts
 * for the plugin, the cases - one per static rule, per firing, per
 * scenario step, per install step - and the findings, each OWNED BY ONE
 * CASE. `check`, `lint`, `run`, `install-check` and the ChatCLI suite all
 * build one (and `turn`, kind "turn"); every renderer (human, JSON,
 * JUnit, TAP, HTML) and the exit code are functions of it, so they cannot
 * disagree. A case may also carry its exchange, latency samples and
 * timeline as data (below), which the HTML page shows.
 *
 * Caller protocol:
 *   1. struct pc_report r = PC_REPORT_INIT; fill path, name, loads...;
 *   2. add cases (pc_report_add_case) and give them findings
 *      (pc_report_find; pc_report_find_static for a finding that belongs
 *      to no firing: it goes to the case "<ID> <title>" of its class);
 *      mark cases skipped (pc_report_skip) or expected to fail (xfail);
 *   3. pc_report_finish(&r): applies the ignore list (r.ignore) and
 *      --strict once, and computes every case's status, message and rule,
 *      and the counts. It may be called again after more cases are added.
 *   4. render with pc_report_write(); the exit status is
 *      pc_report_exit_code(); then pc_report_release().
 *
 * The rules, computed once by pc_report_finish:
 *   - a finding is suppressed iff its rule id is in r->ignore;
 *   - a finding FAILS iff it is unsuppressed and of severity error, or of
 *     severity warning with r->strict;
 *   - a case is SKIP when skipped (its findings still count), else FAIL
 *     when one of its findings fails, XFAIL instead when it is marked
 *     xfail, else PASS; an xfail case whose findings do not fail is PASS
 *     (the caller decides what a stale expectation means);
 *   - the run fails iff some case is FAIL; exit code: 70 incomplete, 3 not
 *     loaded at all (no name: nothing could be read), 1 failed, else 0.
 *
 * Worker processes (pc_pool.h) hand cases to the parent as fragments: a
 * JSON text made by pc_report_fragment() and merged in the parent with
 * pc_report_merge(), in unit order, so the merged report is the one a
 * single process would have built.
 *
 * Ownership: the report owns every string and array in it. Renderers
 * borrow it, write to a FILE* and never exit; nothing here prints on its
 * own or exits.
 */
#ifndef PC_REPORT_H
#define PC_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "pc_finding.h"
#include "pc_host.h"
#include "pc_strvec.h"
#include "pc_turn.h"

enum pc_case_status { PC_CASE_PASS, PC_CASE_FAIL, PC_CASE_SKIP, PC_CASE_XFAIL };

/* PC_CASE_INTERNAL - the classname of a case for a part of the run
 * plugcheck itself lost (its finding is PC-INT-001); such a case marks the
 * report incomplete, and the human and TAP summaries name it. */
#define PC_CASE_INTERNAL "plugcheck.internal"

/* PC_REPORT_NO_CASE - the case index pc_report_find_static() picks for
 * itself. */
#define PC_REPORT_NO_CASE ((size_t)-1)

/* ---- structured exchanges (the HTML page, docs/report.md) ----
 *
 * A case made from a firing may carry what crossed the pipes as data, not
 * only as the system_out text: the bytes sent and received (bounded
 * excerpts), the process facts, the host's verdict and the `plugcheck
 * fire` command that reproduces it; a hook's realistic-input case its
 * latency samples; a turn (or a scenario's turn step) its timeline. Each
 * is optional (NULL / 0: not known); every renderer may ignore them, and
 * fragments carry them. */

/* PC_EXCERPT_HEAD, PC_EXCERPT_TAIL - the bytes of one stream a report
 * keeps: the first HEAD and the last TAIL; a stream of at most HEAD +
 * TAIL bytes is kept whole. */
#define PC_EXCERPT_HEAD 4096u
#define PC_EXCERPT_TAIL 1024u
/* PC_REPORT_TEXT_MAX - bytes kept of one label or detail text of a
 * timeline mark (pc_report_bounded). */
#define PC_REPORT_TEXT_MAX 4096u

/* The bytes of one stream, bounded: data[0, head) is its start and, when
 * total > len, data[head, len) its end (total - len bytes between were
 * dropped). Raw bytes: NULs and invalid UTF-8 kept; data is NUL-terminated
 * after len for convenience, or NULL when len is 0. */
struct pc_excerpt {
	char *data;
	size_t len, head;
	size_t total; /* bytes the stream had */
};

/* One exchange with a plugin process. Strings owned; host text (reasons,
 * outputs) in the stored form of pc_serde.h (a NUL as C0 80). */
struct pc_xchg {
	char *point;	   /* "pre_bash", "tool:NAME", ... */
	char *command;	   /* the shell command that reproduces it
			      (`plugcheck fire POINT PATH ...`), or NULL */
	char *argv;	   /* the command line the host spawned, joined
			      by spaces */
	struct pc_excerpt in, out, err; /* stdin sent, stdout, stderr */
	struct pc_excerpt events; /* the protocol events the host emitted,
				     one JSON line each */
	bool spawned;	   /* false: not started (input over its cap, or
			      the script was swapped, R2.9) */
	bool has_status;   /* the process ended on its own */
	int exit_code;	   /* has_status and signal 0 */
	int signal;	   /* 0, or the signal that ended it */
	char *process;	   /* pc_proc_outcome_name ("exited", "timeout",
			      ...) */
	long long duration_ms; /* spawn to verdict */
	int leftover;	   /* processes still running after the verdict
			      (killed) */
	char *verdict;	   /* the host's verdict in one line
			      (pc_fire_verdict), or NULL */
	bool passed;	   /* allowed / ok */
};

/* A hook's latency: the realistic-input firings measured by `check`
 * (PC-PROC-002). */
struct pc_latency {
	long long *ms;	   /* owned: each firing's duration, in firing
			      order */
	size_t n;
	long long timeout_ms; /* the hook's budget (timeout_ms) */
	long long p50_ms, p95_ms; /* as the check computed them */
};

enum pc_mark_kind {
	PC_MARK_TURN,	 /* a user turn starts */
	PC_MARK_REQUEST, /* a model request */
	PC_MARK_HOOK,	 /* a hook firing */
	PC_MARK_TOOL,	 /* a tool call or its result */
	PC_MARK_EVENT	 /* anything else the host emitted */
};

/* One entry of a turn's timeline, in the host's order. Strings owned
 * (each at most PC_REPORT_TEXT_MAX bytes and a note, pc_report_bounded). */
struct pc_mark {
	enum pc_mark_kind kind;
	char *label;	/* "pre_bash guard bash", "request 1 to mock-model
			   (2 messages)", ... */
	char *verdict;	/* hook: "allow"/"deny"; tool result: "ok"/
			   "failed"; else NULL */
	char *outcome;	/* hook: pc_outcome_name ("ok", "timeout"), or
			   NULL */
	char *detail;	/* reason, output, arguments, message, or NULL */
	char *before, *after; /* a hook's modify: the value it changes
				 before and after the merge (pretty JSON),
				 or NULL */
	struct pc_xchg *x; /* a hook firing's exchange (owned), or NULL */
};

/* One JUnit test case / TAP test point. */
struct pc_case {
	char *classname;  /* "plugcheck.static", "plugcheck.hook.pre_bash",
			     "plugcheck.scenario.<stem>", ... */
	char *name;	  /* what was checked or fired */
	double time_s;	  /* seconds spent */
	char *system_out; /* the captured exchange, or NULL */
	char *system_err; /* host log lines, or NULL */
	struct pc_findings findings; /* owned: what this case found */
	char *skip;	  /* NULL, or why it was not run or not judged */
	bool xfail;	  /* expected to fail (run --baseline) */
	size_t group;	  /* 0, or 1 + the index of its scenario in
			     r->groups */
	struct pc_xchg *x; /* owned: the exchange it fired, or NULL */
	struct pc_latency *latency; /* owned: a hook's latency, or NULL */
	struct pc_mark *marks; /* owned: a turn's timeline, in order */
	size_t nmarks;
	/* computed by pc_report_finish(): */
	enum pc_case_status status;
	char *message;	  /* FAIL/XFAIL: "ID: message; ID: message" of its
			     failing findings; SKIP: the skip reason; else
			     NULL */
	const struct pc_rule *rule; /* FAIL/XFAIL: the rule of its first
				       failing finding, else NULL */
	const char *fix;  /* FAIL/XFAIL: that finding's fix (pc_finding_fix;
			     borrowed), else NULL */
};

/* One scenario of a `run` (or of check's PATH/tests/): its cases are its
 * steps. */
struct pc_group {
	char *id, *file, *name;
	double time_ms;	    /* mean time of a run of it */
	double p95_ms;
	unsigned runs, passes; /* --repeat */
	char *skip;	    /* NULL, or why it was not run */
	bool xfail;	    /* listed in --baseline */
	cJSON *updates;	    /* owned: [{"file","start","end","text"}] for
			       --update, or NULL */
};

/* How the host loads the plugin in one setting (R1.7). */
struct pc_load {
	char *as;	  /* "plugin_dir", "global", "project", "project_trusted" */
	bool loaded;
	char *detail;	  /* the host error or skip log line, or "" */
	char *name;	  /* ChatCLI: the name the plugin registers
			     ("@alpha"), when it answered; else NULL */
	char *version;	  /* its version, with name; else NULL */
};

/* What pc_report_finish() counts; every renderer uses these. */
struct pc_report_counts {
	size_t errors, warnings, notes; /* unsuppressed findings */
	size_t suppressed;		/* suppressed findings */
	size_t findings;		/* all findings */
	size_t failed, skipped, xfailed; /* cases */
	size_t internal;		/* failed PC_CASE_INTERNAL cases */
	bool failed_run;		/* some case is FAIL */
};

struct pc_report {
	char *path;	      /* the plugin directory (or scenario list) */
	char *name;	      /* manifest name, or NULL when unreadable */
	char *version;
	bool loaded;	      /* loads as a plugin directory */
	char *host_error;     /* byte-identical load error, or NULL */
	struct pc_strvec capabilities;
	struct pc_strvec host_log; /* the host's stderr lines while loading */
	struct pc_load *loads;
	size_t nloads;
	struct pc_case *cases;
	size_t ncases;
	struct pc_group *groups;
	size_t ngroups;
	struct pc_strvec ignore; /* rule ids to suppress (--ignore,
				    .plugcheck.yaml) */
	const char *contract; /* "catalyst" (NULL means it) or "chatcli";
				 static, not freed */
	const char *kind;     /* NULL (a plugin report), "run" (a scenario
				 run: the JSON form is docs/scenarios.md's)
				 or "turn" (a `turn` session: only its HTML
				 form is used); static */
	bool strict;	      /* warnings fail */
	bool incomplete;      /* interrupted, or part of the run was lost:
				 what is here is all there is */
	double duration_s;
	size_t next_seq;      /* private: the next finding's seq */
	struct pc_report_counts counts; /* computed by pc_report_finish */
};

#define PC_REPORT_INIT { 0 }

enum pc_report_format {
	PC_REPORT_HUMAN,
	PC_REPORT_JSON,
	PC_REPORT_JUNIT,
	PC_REPORT_TAP,
	PC_REPORT_HTML,
	PC_REPORT_SARIF,  /* SARIF 2.1.0 (pc_report_sarif.c, docs/sarif.md) */
	PC_REPORT_GITHUB  /* GitHub workflow-command annotations, then the
			     human form (pc_report_github.c) */
};

/* pc_report_format_parse - "human", "json", "junit", "tap", "html",
 * "sarif", "github"; -1 else. */
int pc_report_format_parse(const char *s);

/* pc_report_add_case - append a passing case; copies the strings (NULL
 * kept for system_out). Returns its index (stable; pointers into
 * r->cases are not, across appends). */
size_t pc_report_add_case(struct pc_report *r, const char *classname,
			  const char *name, const char *system_out,
			  double time_s);
/* pc_report_skip - mark case `c` skipped with the reason `why` (copied;
 * NULL or "" becomes "skipped (no reason was given)": a skipped case's
 * message is never null or empty). */
void pc_report_skip(struct pc_report *r, size_t c, const char *why);
/* pc_report_set_err - set case `c`'s system_err (copied; NULL clears). */
void pc_report_set_err(struct pc_report *r, size_t c, const char *text);

/* pc_excerpt_set - keep the `n` bytes of `bytes` (NULL: none) in `e`
 * (released first; PC_EXCERPT_HEAD and _TAIL as above). */
void pc_excerpt_set(struct pc_excerpt *e, const char *bytes, size_t n);
/* pc_excerpt_release - free `e`'s bytes; `e` is left empty. */
void pc_excerpt_release(struct pc_excerpt *e);
/* pc_xchg_new - a new empty exchange record (exit_code 0, no strings);
 * pc_xchg_free frees it and everything it owns (NULL: no-op). */
struct pc_xchg *pc_xchg_new(void);
void pc_xchg_free(struct pc_xchg *x);
/* pc_xchg_from_exchange - a new record of the host exchange `x`
 * (borrowed): argv, the bounded stdin/stdout/stderr/events, the process
 * facts. point, command and verdict are left NULL for the caller. */
struct pc_xchg *pc_xchg_from_exchange(const struct pc_exchange *x);
/* pc_report_bounded - a copy of `s` (NULL: NULL) cut to at most `max`
 * bytes at a UTF-8 boundary, with " ... (N bytes in all)" appended when
 * it was cut. New string. */
char *pc_report_bounded(const char *s, size_t max);
/* pc_report_set_xchg - give case `c` the exchange `x` (taken: owned by
 * the case; a previous one is freed). */
void pc_report_set_xchg(struct pc_report *r, size_t c, struct pc_xchg *x);
/* pc_report_set_latency - give case `c` the `n` latency samples `ms`
 * (copied; ms) with the budget and the percentiles the check used. */
void pc_report_set_latency(struct pc_report *r, size_t c, const long long *ms,
			   size_t n, long long timeout_ms, long long p50_ms,
			   long long p95_ms);
/* pc_report_add_mark - append a timeline mark of `kind` with `label`
 * (copied, bounded) to case `c`; the other fields are NULL for the caller
 * to set (owned by the case: malloc'd strings, pc_report_bounded). Returns
 * the mark (valid until the next mark is added to that case). */
struct pc_mark *pc_report_add_mark(struct pc_report *r, size_t c,
				   enum pc_mark_kind kind, const char *label);

/* pc_case_add_mark - pc_report_add_mark on a case that is not (yet) in a
 * report (a scenario step's holder). */
struct pc_mark *pc_case_add_mark(struct pc_case *k, enum pc_mark_kind kind,
				 const char *label);
/* pc_case_take_structured - move the exchange, latency and marks of
 * `from` (a holder, not in a report) to case `c` of `r`, replacing its
 * own; `from` is left without them. */
void pc_report_take_structured(struct pc_report *r, size_t c,
			       struct pc_case *from);
/* pc_case_release_structured - free a holder's exchange, latency and
 * marks. */
void pc_case_release_structured(struct pc_case *k);

/* ---- a turn's timeline (pc_report_turn.c) ----
 *
 * The host's turn engine tells a recorder every hook firing
 * (pc_turn_opts.on_hook = pc_turn_rec_hook, on_hook_ctx = the struct
 * pc_turn_rec); pc_report_turn_marks then turns a part of the transcript
 * into timeline marks, each hook firing with its exchange and, when its
 * modify was merged, the value before and after. */
struct pc_turn_rec_fire {
	size_t event;	     /* its "hook" event in the transcript */
	struct pc_xchg *x;   /* owned until taken by a mark */
	char *before, *after; /* owned until taken; NULL: no merge */
	char *modify;	     /* its modify (compact JSON), or NULL */
};

struct pc_turn_rec {
	struct pc_turn_rec_fire *v;
	size_t n;
};

#define PC_TURN_REC_INIT { NULL, 0 }

/* pc_turn_rec_hook - the recorder (pc_turn_hook_fn; ctx a struct
 * pc_turn_rec): keeps the firing's bounded exchange and, for a modify the
 * host merges (tool pre hooks, pre_input, pre_turn: shallow, R4.10; post
 * hooks: output, ok and diff, R4.9), the value before and after as
 * pretty JSON (at most 4 x PC_REPORT_TEXT_MAX bytes each). */
void pc_turn_rec_hook(void *ctx, const struct pc_turn_firing *f);
/* pc_turn_rec_release - free what no mark took; `rec` is left empty. */
void pc_turn_rec_release(struct pc_turn_rec *rec);
/* pc_report_turn_marks - append to case `k` one mark per event of
 * `transcript` (docs/turn.md) from index `first` on, in order: turns,
 * requests, hook firings (verdict, outcome, reason, and what `rec`
 * recorded for that event, moved into the mark), tool calls and results,
 * and the other events. Returns how many hook marks were added. */
size_t pc_report_turn_marks(struct pc_case *k, const cJSON *transcript,
			    size_t first, struct pc_turn_rec *rec);

/* pc_report_find - add a finding of rule `id` (must exist: PC_BUG
 * otherwise) to case `c` (< r->ncases), with the file it concerns
 * (relative to the plugin; NULL: "") and the entry point `where` (NULL:
 * ""). Returns the finding (owned by the case; valid until the next
 * finding is added to that case) so a caller can set line and column. */
struct pc_finding *pc_report_find(struct pc_report *r, size_t c,
				  const char *id, const char *file,
				  const char *where, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* pc_report_find_static - pc_report_find into the case named
 * "<ID> <title>" of class `classname` (made, passing, if missing). */
struct pc_finding *pc_report_find_static(struct pc_report *r,
					 const char *classname, const char *id,
					 const char *file, const char *where,
					 const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* pc_report_vfind, pc_report_vfind_static - the same with a va_list, for
 * callers' own printf-like wrappers. */
struct pc_finding *pc_report_vfind(struct pc_report *r, size_t c,
				   const char *id, const char *file,
				   const char *where, const char *fmt,
				   va_list ap) __attribute__((format(printf, 6, 0)));
struct pc_finding *pc_report_vfind_static(struct pc_report *r,
					  const char *classname,
					  const char *id, const char *file,
					  const char *where, const char *fmt,
					  va_list ap)
	__attribute__((format(printf, 6, 0)));
/* pc_report_static_case - the index of the case "<ID> <title>" of class
 * `classname`, appended (passing, no findings) when missing. */
size_t pc_report_static_case(struct pc_report *r, const char *classname,
			     const struct pc_rule *rule);
/* pc_report_has - a finding with rule `id` and entry point `where` (NULL:
 * any) exists in some case. */
bool pc_report_has(const struct pc_report *r, const char *id,
		   const char *where);
/* pc_report_take_findings - move every finding of `f` into case `c`,
 * each numbered in order; `f` is left empty. */
void pc_report_take_findings(struct pc_report *r, size_t c,
			     struct pc_findings *f);

/* pc_report_append - move every case (with its findings, renumbered in
 * order) and group of `src` to the end of `dst`; `src` keeps its other
 * fields and no cases. */
void pc_report_append(struct pc_report *dst, struct pc_report *src);

/* pc_report_add_group - append a scenario group (strings copied; NULL
 * kept as "") and return its index + 1 (the value for pc_case.group). */
size_t pc_report_add_group(struct pc_report *r, const char *id,
			   const char *file, const char *name);
/* pc_report_add_load - append a load verdict; copies the strings (a NULL
 * detail becomes ""). */
void pc_report_add_load(struct pc_report *r, const char *as, bool loaded,
			const char *detail);
/* pc_report_load_names - give the load just added (the last one) the
 * name and version the plugin registers (copied; NULL kept): a ChatCLI
 * plugins directory names each of its plugins. */
void pc_report_load_names(struct pc_report *r, const char *name,
			  const char *version);

/* pc_report_rename_path - replace the path `from` by `to` wherever it
 * ends a path component (what follows is not a letter, digit or . _ - ~)
 * in the host's error and log, the load details, and every case's name,
 * exchange, log, skip reason and finding messages: install-check names
 * the copy it extracted from a zip as "ZIP:ENTRY" and its throwaway HOME
 * as "~" instead of plugcheck's temporary directories. Call it before
 * pc_report_finish (case messages are computed there). */
void pc_report_rename_path(struct pc_report *r, const char *from,
			   const char *to);

/* pc_report_finish - apply the ignore list and the strictness and compute
 * every case's status, message and rule and r->counts (see the rules
 * above). Idempotent. */
void pc_report_finish(struct pc_report *r);
/* pc_report_failed - r->counts.failed_run (after pc_report_finish). */
bool pc_report_failed(const struct pc_report *r);
/* pc_report_exit_code - the exit status of a run that produced `r` (after
 * pc_report_finish): 70 incomplete, 3 not loaded and no name (the plugin
 * could not be loaded at all), 1 failed, 0 passed (the values of
 * cli/pc_exit.h). */
int pc_report_exit_code(const struct pc_report *r);
/* pc_report_group_status - "pass", "fail", "skip" or "xfail" for group
 * `g` (1-based, as pc_case.group), from its cases (after finish). */
const char *pc_report_group_status(const struct pc_report *r, size_t g);

/* pc_report_findings - every finding of every case in the order found
 * (seq); a new array of borrowed pointers, caller frees the array only.
 * *n gets its length. */
const struct pc_finding **pc_report_findings(const struct pc_report *r,
					     size_t *n);

/* pc_report_finding_path - the path of finding `f`'s file as a reader
 * of the report can open it, a new string (NULL when `f` names no file):
 * its file joined to r->path (relative to the plugin directory, which
 * r->path names as given on the command line; "./" dropped), or the file
 * itself when it is absolute or `r` is a scenario run (r->kind "run",
 * whose files are the scenario paths as given); for a ChatCLI report
 * whose path is the plugin executable (it ends in the file's name), that
 * path. The human, GitHub and
 * SARIF forms print it; the JSON "file" stays relative to the plugin. */
char *pc_report_finding_path(const struct pc_report *r,
			     const struct pc_finding *f);
/* pc_report_finding_place - "PATH:LINE:COL" (compilers' form; ":COL" or
 * ":LINE:COL" left out when unknown) of finding `f`, PATH as
 * pc_report_finding_path; a new string, or NULL when `f` names no file. */
char *pc_report_finding_place(const struct pc_report *r,
			      const struct pc_finding *f);
/* pc_report_human_finding - finding `f` of `r` as the human report prints
 * it: "PLACE: severity ID [spec] where: message" and its "fix: ... (see
 * `plugcheck explain ID`)" line (ANSI colours with `color`). For commands
 * that print their own layout around findings (`plugcheck guard`). */
void pc_report_human_finding(const struct pc_report *r,
			     const struct pc_finding *f, FILE *out, bool color);

/* pc_report_github_annotations - the GitHub Actions workflow command of
 * every unsuppressed finding of `r` (finished), one line each, in the
 * order found: "::error|warning|notice file=PATH,line=L,col=C,title=ID:
 * TITLE::MESSAGE" with the runner's escaping (pc_report_github.c). The
 * github format is these, then the human form through
 * pc_report_github_text. */
void pc_report_github_annotations(const struct pc_report *r, FILE *out);
/* pc_report_github_text - write `len` bytes of `text` (a human report)
 * to `out`, each line the runner would read as a workflow command
 * (starting with "::" or "##[" after blanks) prefixed with "| ". */
void pc_report_github_text(FILE *out, const char *text, size_t len);

/* pc_report_fragment - the cases [from, to) (with their findings, their
 * exchanges, latencies and marks, and the groups they refer to) and r->incomplete as a new JSON text, caller
 * frees; for pc_report_merge in another process. */
char *pc_report_fragment(const struct pc_report *r, size_t from, size_t to);
/* pc_report_merge - append the cases of fragment `text` (`len` bytes, not
 * necessarily NUL-terminated) to `r`, numbering the findings after r's
 * own in the order the sender found them (which need not be their cases'
 * order). With `once`, a finding whose (id, where) `r` already has is
 * dropped (the suite's once-per-entry-point rule). Returns 0, or
 * PC_EPARSE for a malformed fragment - not exactly one JSON value, or a
 * group, case or finding without what the report needs - and nothing is
 * added then. */
int pc_report_merge(struct pc_report *r, const char *text, size_t len,
		    bool once);

/* pc_report_release - free everything `r` owns and leave it empty (as
 * PC_REPORT_INIT, ready for reuse). */
void pc_report_release(struct pc_report *r);

/* PC_REPORT_HTML_BUDGET - the HTML page's size bound: exchanges,
 * timelines, latency charts and findings are written while the page is
 * smaller; past it each is replaced by a one-line note. With every text
 * cut to PC_REPORT_TEXT_MAX and every stream to its excerpt, a page is at
 * most this plus what one case adds plus one summary line per case
 * (docs/report.md). */
#define PC_REPORT_HTML_BUDGET ((size_t)8 << 20)

/* pc_report_write - render `r` (finished) in `fmt` to `out` and flush it.
 * `color` only affects the human form (ANSI colours). Text is written as
 * valid UTF-8 (invalid bytes become U+FFFD) and escaped for the format.
 * Returns 0, PC_EINVAL for an unknown `fmt`, or PC_EIO when writing
 * failed (errno as the failed write left it; or the JSON text would pass
 * 1 GiB, nothing written then). Does not block beyond the writes. */
int pc_report_write(const struct pc_report *r, enum pc_report_format fmt,
		    FILE *out, bool color);

#endif

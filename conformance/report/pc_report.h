/* pc_report.h - the one result type of plugcheck, and its renderers.
 *
 * A struct pc_report is what one run learned: the host's load verdicts
 * for the plugin, the cases - one per static rule, per firing, per
 * scenario step, per install step - and the findings, each OWNED BY ONE
 * CASE. `check`, `lint`, `run`, `install-check` and the ChatCLI suite all
 * build one; every renderer (human, JSON, JUnit, TAP) and the exit code
 * are functions of it, so they cannot disagree.
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
#include "pc_strvec.h"

enum pc_case_status { PC_CASE_PASS, PC_CASE_FAIL, PC_CASE_SKIP, PC_CASE_XFAIL };

/* PC_CASE_INTERNAL - the classname of a case for a part of the run
 * plugcheck itself lost (its finding is PC-INT-001); such a case marks the
 * report incomplete, and the human and TAP summaries name it. */
#define PC_CASE_INTERNAL "plugcheck.internal"

/* PC_REPORT_NO_CASE - the case index pc_report_find_static() picks for
 * itself. */
#define PC_REPORT_NO_CASE ((size_t)-1)

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
	/* computed by pc_report_finish(): */
	enum pc_case_status status;
	char *message;	  /* FAIL/XFAIL: "ID: message; ID: message" of its
			     failing findings; SKIP: the skip reason; else
			     NULL */
	const struct pc_rule *rule; /* FAIL/XFAIL: the rule of its first
				       failing finding, else NULL */
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
	const char *kind;     /* NULL (a plugin report) or "run" (a scenario
				 run: the JSON form is docs/scenarios.md's);
				 static */
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
	PC_REPORT_TAP
};

/* pc_report_format_parse - "human", "json", "junit", "tap"; -1 else. */
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

/* pc_report_fragment - the cases [from, to) (with their findings and the
 * groups they refer to) and r->incomplete as a new JSON text, caller
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

/* pc_report_write - render `r` (finished) in `fmt` to `out` and flush it.
 * `color` only affects the human form (ANSI colours). Text is written as
 * valid UTF-8 (invalid bytes become U+FFFD) and escaped for the format.
 * Returns 0, PC_EINVAL for an unknown `fmt`, or PC_EIO when writing
 * failed (errno as the failed write left it; or the JSON text would pass
 * 1 GiB, nothing written then). Does not block beyond the writes. */
int pc_report_write(const struct pc_report *r, enum pc_report_format fmt,
		    FILE *out, bool color);

#endif

/* pc_report.h - the result of a conformance run, and its renderers.
 *
 * A struct pc_report is what `plugcheck check` learned about one plugin:
 * the host's load verdicts, the findings (each with a stable rule id,
 * possibly suppressed), and the cases - one per static check and one per
 * fired entry point - that JUnit and TAP list. The renderers turn it into
 * the human summary, JSON (docs/check-json.md, schema
 * docs/check.schema.json), JUnit XML or TAP 13.
 *
 * Ownership: the report owns every string and array in it; build it with
 * the pc_report_* helpers and free it with pc_report_release(). Renderers
 * borrow it, write to a FILE* and never exit.
 */
#ifndef PC_REPORT_H
#define PC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pc_finding.h"
#include "pc_strvec.h"

enum pc_case_status { PC_CASE_PASS, PC_CASE_FAIL, PC_CASE_SKIP };

/* PC_CASE_INTERNAL - the classname of a case plugcheck itself failed
 * (e.g. a `check -j` worker that died lost its unit): such a failed case
 * marks the report incomplete for a reason other than an interrupt, and
 * the human and TAP summaries name it. */
#define PC_CASE_INTERNAL "plugcheck.internal"

/* One JUnit test case / TAP test point. */
struct pc_case {
	char *classname;  /* "plugcheck.static", "plugcheck.hook.pre_bash",
			     "plugcheck.tool.word_count", ... */
	char *name;	  /* what was checked or fired */
	double time_s;	  /* seconds spent */
	enum pc_case_status status;
	char *message;	  /* failure or skip message, or NULL */
	char *system_out; /* the captured exchange (stdin/stdout/stderr,
			     exit, verdict), or NULL */
	char *system_err; /* host log lines, or NULL */
	char *rule;	  /* the rule id a failure stands for ("PC-HOOK-002"),
			     or NULL: then a message "PC-XXX-NNN: ..." names
			     it, else JUnit/TAP say "plugcheck" */
};

/* How the host loads the plugin in one setting (R1.7). */
struct pc_load {
	char *as;	  /* "plugin_dir", "global", "project", "project_trusted" */
	bool loaded;
	char *detail;	  /* the host error or skip log line, or "" */
};

struct pc_report {
	char *path;	      /* the plugin directory as given */
	char *name;	      /* manifest name, or NULL when unreadable */
	char *version;
	bool loaded;	      /* loads as a plugin directory */
	char *host_error;     /* byte-identical load error, or NULL */
	struct pc_strvec capabilities;
	struct pc_load *loads;
	size_t nloads;
	struct pc_findings findings;
	struct pc_strvec suppressed_ids; /* `--ignore` / .plugcheck.yaml */
	struct pc_case *cases;
	size_t ncases;
	const char *contract; /* "catalyst" (NULL means it) or "chatcli";
				 static, not freed */
	bool strict;	      /* warnings fail */
	bool incomplete;      /* interrupted, or a PC_CASE_INTERNAL case lost
				 part of the run: what is here is all there is */
	double duration_s;
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

/* pc_report_add_case - append a case; copies every string (NULLs kept);
 * system_err and rule start NULL. Returns the new case (owned by r, valid
 * until the next pc_report_add_case); set its system_err or rule to a
 * malloc'd string (pc_xstrdup) and pc_report_release() frees it. */
struct pc_case *pc_report_add_case(struct pc_report *r, const char *classname,
				   const char *name, enum pc_case_status st,
				   const char *message, const char *out,
				   double time_s);
/* pc_report_add_load - append a load verdict; copies the strings (a NULL
 * detail becomes ""). */
void pc_report_add_load(struct pc_report *r, const char *as, bool loaded,
			const char *detail);
/* pc_report_release - free everything `r` owns and leave it empty (as
 * PC_REPORT_INIT, ready for reuse). */
void pc_report_release(struct pc_report *r);

/* pc_report_failed - the run fails: an unsuppressed error finding, or an
 * unsuppressed warning when r->strict. A finding is suppressed when its
 * `suppressed` flag is set or its id is in r->suppressed_ids; every
 * renderer uses the same rule. */
bool pc_report_failed(const struct pc_report *r);

/* pc_report_write - render `r` in `fmt` to `out` and flush it. `color`
 * only affects the human form (ANSI colours). Text is written as valid
 * UTF-8 (invalid bytes become U+FFFD) and escaped for the format. Returns
 * 0, PC_EINVAL for an unknown `fmt`, or PC_EIO when writing failed (or
 * the JSON text would pass 1 GiB; nothing is written then). Does
 * not block beyond the writes to `out`. */
int pc_report_write(const struct pc_report *r, enum pc_report_format fmt,
		    FILE *out, bool color);

#endif

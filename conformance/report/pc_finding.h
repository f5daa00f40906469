/* pc_finding.h - findings: one occurrence of a rule (pc_rule.h).
 *
 * A finding is the rule plus a message naming the facts, the file it is
 * about (relative to the plugin) with a 1-based line and column when one
 * is known, and the entry point it was seen at ("hook pre_bash",
 * "tool t"). A struct pc_findings is a growable list; in a report every
 * finding is owned by exactly one case (pc_report.h), and `seq` keeps
 * the order they were found in across cases.
 *
 * Ownership: a struct pc_findings owns its findings and their strings.
 */
#ifndef PC_FINDING_H
#define PC_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_rule.h"

struct pc_finding {
	const struct pc_rule *rule;
	char *message;	 /* what happened, naming the file */
	char *file;	 /* relative to the plugin, or "" */
	unsigned line;	 /* 1-based line in `file`, or 0: unknown */
	unsigned column; /* 1-based column (bytes), or 0: unknown */
	char *where;	 /* the entry point ("hook pre_bash", "tool t"), or "" */
	char *fix;	 /* NULL: the rule's fix; else this finding's own (a
			    load error's, PC-LOAD-001: pc_rule_load_fix) */
	bool suppressed; /* its id is in the report's ignore list (set by
			    pc_report_finish) */
	size_t seq;	 /* report-wide order found (pc_report_find) */
};

struct pc_findings {
	struct pc_finding *v;
	size_t nr, alloc;
};

#define PC_FINDINGS_INIT { NULL, 0, 0 }

/* pc_finding_fix - the fix to show for `f`: its own, else its rule's
 * (borrowed). */
const char *pc_finding_fix(const struct pc_finding *f);
/* pc_finding_set_fix - give `f` a fix of its own (`fix` copied; NULL goes
 * back to the rule's). */
void pc_finding_set_fix(struct pc_finding *f, const char *fix);
/* pc_finding_visible - `s` (may be NULL: "") as a new string in which
 * each NUL of host text (stored form C0 80, pc_serde.h) is the four
 * characters \x00, as reports show it. Findings' messages get it. */
char *pc_finding_visible(const char *s);
/* pc_findings_add - record rule `id` (must exist in the rule table:
 * PC_BUG otherwise) with a printf message; `file` may be NULL (""). */
void pc_findings_add(struct pc_findings *f, const char *id, const char *file,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* pc_findings_add_at - pc_findings_add with file "plugin.json" and the
 * entry point `where`. */
void pc_findings_add_at(struct pc_findings *f, const char *id,
			const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* pc_findings_push - append a copy of `src` (every string copied; its
 * `seq` and `suppressed` kept). Returns the new finding (owned by f,
 * valid until the next append). */
struct pc_finding *pc_findings_push(struct pc_findings *f,
				    const struct pc_finding *src);
/* pc_findings_has - a finding with rule `id` exists. */
bool pc_findings_has(const struct pc_findings *f, const char *id);
/* pc_findings_release - free every finding; `f` is left empty. */
void pc_findings_release(struct pc_findings *f);
/* pc_findings_count - how many unsuppressed findings have severity `s`. */
size_t pc_findings_count(const struct pc_findings *f, enum pc_severity s);
/* pc_finding_json - a new JSON object {"id","severity","message","fix",
 * "rule","file","line","column","where","suppressed"} (docs/check-json.md;
 * line and column null when unknown); strings are made valid UTF-8
 * (U+FFFD); caller deletes. */
cJSON *pc_finding_json(const struct pc_finding *f);
/* pc_findings_json - a new JSON array of pc_finding_json() objects, in
 * list order; caller deletes. */
cJSON *pc_findings_json(const struct pc_findings *f);

#endif

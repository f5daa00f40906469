/* pc_finding.h - findings and the rule table (stable ids).
 *
 * Every check plugcheck makes has a rule: a stable id ("PC-HOOK-003"), a
 * severity, a one-line title, the fix, and the spec rule it rests on. A
 * finding is one occurrence: the rule plus a message naming the file and
 * the facts. The ids never change meaning once published; retired ids are
 * not reused. `plugcheck rules` prints the table.
 *
 * Ownership: a struct pc_findings owns its findings and their strings.
 */
#ifndef PC_FINDING_H
#define PC_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum pc_severity { PC_SEV_NOTE, PC_SEV_WARNING, PC_SEV_ERROR };

struct pc_rule {
	const char *id;
	enum pc_severity severity;
	const char *title;
	const char *fix;
	const char *spec; /* e.g. "R2.11" */
};

struct pc_finding {
	const struct pc_rule *rule;
	char *message;	 /* what happened, naming the file */
	char *file;	 /* relative to the plugin, or "" */
	char *where;	 /* the entry point ("hook pre_bash", "tool t"), or "" */
	bool suppressed; /* listed by --ignore or .plugcheck.yaml */
};

struct pc_findings {
	struct pc_finding *v;
	size_t nr, alloc;
};

#define PC_FINDINGS_INIT { NULL, 0, 0 }

/* The rule table, sorted by id; pc_nrules entries. */
extern const struct pc_rule pc_rules[];
extern const size_t pc_nrules;

/* pc_rule_find - the rule with `id`, or NULL. */
const struct pc_rule *pc_rule_find(const char *id);
/* pc_severity_name - "note", "warning", "error". */
const char *pc_severity_name(enum pc_severity s);

/* pc_findings_add - record rule `id` (must exist: PC_BUG otherwise) with a
 * printf message; `file` may be NULL. */
void pc_findings_add(struct pc_findings *f, const char *id, const char *file,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* pc_findings_add_at - pc_findings_add with the entry point `where`. */
void pc_findings_add_at(struct pc_findings *f, const char *id,
			const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* pc_findings_has - a finding with rule `id` exists. */
bool pc_findings_has(const struct pc_findings *f, const char *id);
void pc_findings_release(struct pc_findings *f);
/* pc_findings_count - how many findings have severity `s`. */
size_t pc_findings_count(const struct pc_findings *f, enum pc_severity s);
/* pc_findings_json - a new JSON array of {"id","severity","message",
 * "fix","rule","file","where","suppressed"}; caller deletes. */
cJSON *pc_findings_json(const struct pc_findings *f);

#endif

/* pc_rule.h - the rule table (stable ids).
 *
 * Every check plugcheck makes has a rule: a stable id ("PC-HOOK-003"), a
 * severity, a one-line title, the fix, and the contract rule it rests on
 * (the R…/§… ids of spec/catalyst-code.md, the letters+digits of
 * spec/chatcli.md). The ids never change meaning once published; retired
 * ids are not reused. `plugcheck rules` prints the table; findings
 * (pc_finding.h) point into it.
 *
 * The table is static data: nothing here allocates.
 */
#ifndef PC_RULE_H
#define PC_RULE_H

#include <stddef.h>

enum pc_severity { PC_SEV_NOTE, PC_SEV_WARNING, PC_SEV_ERROR };

struct pc_rule {
	const char *id;
	enum pc_severity severity;
	const char *title;
	const char *fix;
	const char *spec; /* e.g. "R2.11" */
};

/* The rule table, sorted by id; pc_nrules entries. */
extern const struct pc_rule pc_rules[];
extern const size_t pc_nrules;

/* pc_rule_find - the rule with `id` (borrowed), or NULL. */
const struct pc_rule *pc_rule_find(const char *id);
/* pc_severity_name - "note", "warning", "error" (static strings). */
const char *pc_severity_name(enum pc_severity s);

#endif

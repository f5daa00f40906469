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

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* What `plugcheck explain ID` and docs/rules/ID.md say about a rule
 * (pc_rule_docs.c): the explanation table, one entry per rule id, kept
 * beside pc_rules[] (a unit test checks that the two name the same ids).
 * Examples are files: each starts with a line "== NAME ==" (NAME a path
 * such as plugin.json or hooks/pre_bash.sh, or a pseudo file such as
 * "shell" for commands to type), then the file's text. */
struct pc_rule_doc {
	const char *id;
	/* what the host does: the contract clause the rule cites (spec) in
	 * this project's words, with the behaviour of the host's code;
	 * paragraphs separated by an empty line */
	const char *host;
	const char *failing; /* a minimal plugin that gets the finding */
	const char *fixed;   /* the same plugin, fixed as the rule's fix says */
};

/* The explanation table, sorted by id; pc_nrule_docs entries. */
extern const struct pc_rule_doc pc_rule_docs[];
extern const size_t pc_nrule_docs;

/* pc_rule_doc_find - the explanation of rule `id` (borrowed), or NULL. */
const struct pc_rule_doc *pc_rule_doc_find(const char *id);

/* A load error of the host (PC-LOAD-001, R1.11) with a fix of its own:
 * `pattern` is the host's message with '*' for the variable parts (each
 * matches any text, the shortest that lets the rest match; a text with
 * no '*' must be the whole message), `fix` may name the parts as $1..$9,
 * `spec` the contract rule the message comes from. */
struct pc_load_fix {
	const char *pattern;
	const char *fix;
	const char *spec;
};

/* The load errors with their fixes, in the order they are tried (the
 * host's load order, R2.9); pc_nload_fixes entries. */
extern const struct pc_load_fix pc_load_fixes[];
extern const size_t pc_nload_fixes;

/* pc_rule_load_fix - the fix for the host's load error `message` (the
 * error itself, without the "failed to load plugin in ..." prefix): a
 * new string, caller frees; NULL when no entry of pc_load_fixes matches
 * (the rule's fix applies then). *entry (may be NULL) gets the entry. */
char *pc_rule_load_fix(const char *message, const struct pc_load_fix **entry);

enum pc_explain_format {
	PC_EXPLAIN_TEXT,     /* for a terminal: headings, text wrapped at 78
				columns, examples indented */
	PC_EXPLAIN_MARKDOWN  /* docs/rules/ID.md */
};

/* pc_rule_explain - write the explanation of `rule` in `fmt` to `out`:
 * its id, severity, title and contract rule, what the host does, a
 * failing example, the fix (for PC-LOAD-001 also every load error of
 * pc_load_fixes with its own fix), the fixed example, and where the page
 * is (`url`: the docs/rules/ID.md page's address, or NULL). Write errors
 * are left in ferror(out). */
void pc_rule_explain(const struct pc_rule *rule, enum pc_explain_format fmt,
		     const char *url, FILE *out);

/* pc_rule_explained - pc_rule_explain of `rule` in `fmt`, with its page's
 * address (pc_rule_doc_url), as a new string; caller frees. */
char *pc_rule_explained(const struct pc_rule *rule,
			enum pc_explain_format fmt);

/* pc_rule_doc_url - the address of rule `id`'s page, docs/rules/ID.md in
 * the repository (PC_REPO_URL at build time); a new string, caller
 * frees. */
char *pc_rule_doc_url(const char *id);

/* pc_rule_find - the rule with `id` (borrowed), or NULL. */
const struct pc_rule *pc_rule_find(const char *id);
/* pc_severity_name - "note", "warning", "error" (static strings). */
const char *pc_severity_name(enum pc_severity s);

#endif

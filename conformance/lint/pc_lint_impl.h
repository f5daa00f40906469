/* pc_lint_impl.h - private to conformance/lint/. */
#ifndef PC_LINT_IMPL_H
#define PC_LINT_IMPL_H

#include "pc_lint.h"
#include "pc_locate.h"

/* The notes about what each declared entry point will meet at run time
 * (PC-DOC-*, PC-HOOK-004/005, PC-IO-003, PC-TOOL-005), from the manifest
 * alone. */
void pc__lint_notes(struct pc_lint *l);
/* PC-ENV-002: environment variables the scripts read that the host never
 * passes (R5.3), from the scripts' text. */
void pc__lint_env_reads(struct pc_lint *l);

/* PC-MAN-010, -011, -012 from plugin.json's bytes in `dir` (also when
 * the host rejects it), and PC-LOAD-001's line and column; keeps the
 * bytes in l->text for the locations of the other checks. */
void pc__lint_manifest_keys(struct pc_lint *l, const char *dir);
/* PC-TOOL-020, -021, -022: tool names and parameters model providers
 * refuse. */
void pc__lint_providers(struct pc_lint *l);
/* PC-SCRIPT-010, PC-IO-010: the shell scripts' CRLF endings and reads of
 * stdin. */
void pc__lint_shell(struct pc_lint *l);
/* pc__lint_find - a finding of rule `id` about `file` at entry point
 * `where` (NULL: ""), at `at` (line 0: unknown). Returns it (valid until
 * the next finding is added). */
struct pc_finding *pc__lint_find(struct pc_lint *l, const char *id,
				 const char *file, const char *where,
				 struct pc_loc at, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The line and column in plugin.json of the member `path` reaches
 * (pc_json_locate: its key with `key`, else its value); {0, 0} when it
 * is not there. */
struct pc_loc pc__lint_json_at(const struct pc_lint *l,
			       const char *const *path, bool key);

#endif

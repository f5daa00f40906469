/* pc_lint_impl.h - private to conformance/lint/. */
#ifndef PC_LINT_IMPL_H
#define PC_LINT_IMPL_H

#include <stdbool.h>

#include "pc_lint.h"

/* The notes about what each declared entry point will meet at run time
 * (PC-DOC-*, PC-HOOK-004/005, PC-IO-003, PC-TOOL-005), from the manifest
 * alone. */
void pc__lint_notes(struct pc_lint *l);
/* PC-ENV-002: environment variables the scripts read that the host never
 * passes (R5.3), from the scripts' text. */
void pc__lint_env_reads(struct pc_lint *l);
/* PC-SUB-001/002: a disable_tools entry or an override of a built-in that
 * the built-in agents have, while the plugin leaves `subagent` (or
 * `spawn`) open: subagents run the built-in (R2.18). Located at the
 * entry or the override key in plugin.json. */
void pc__lint_subagents(struct pc_lint *l);
/* PC-OAUTH-011: the token script rotates refresh tokens with an in-place
 * write and no lock (pc_lint_token_script), located at the write. */
void pc__lint_oauth_token(struct pc_lint *l);

/* pc__lint_at - point `f` (its file becomes plugin.json) at the member
 * the NULL-terminated steps `step`, ... reach in plugin.json (pc_locate.h
 * steps; repeated keys: the last, which the host keeps): its key (`key`)
 * or its value; a member that is not there gives the nearest enclosing
 * one. Nothing when plugin.json was not read. */
void pc__lint_at(const struct pc_lint *l, struct pc_finding *f, bool key,
		 const char *step, ...);
/* pc__lint_at_steps - pc__lint_at with the steps as a NULL-terminated
 * array. */
void pc__lint_at_steps(const struct pc_lint *l, struct pc_finding *f,
		       bool key, const char *const *steps);
/* pc__lint_last - the finding added last. */
struct pc_finding *pc__lint_last(struct pc_lint *l);
/* pc__lint_rel - the path of script `abs` (canonical) relative to the
 * plugin directory, or `abs` when it is not inside (borrowed from abs). */
const char *pc__lint_rel(const struct pc_lint *l, const char *abs);
/* pc__lint_command_index - the index in plugin.json's "commands" of the
 * host's command `i` (the host skips entries whose name is blank, R2.7),
 * as "#N" in `buf`. */
const char *pc__lint_command_index(const struct pc_lint *l, size_t i,
				   char buf[24]);

#endif

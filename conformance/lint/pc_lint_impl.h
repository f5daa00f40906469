/* pc_lint_impl.h - private to conformance/lint/. */
#ifndef PC_LINT_IMPL_H
#define PC_LINT_IMPL_H

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

#endif

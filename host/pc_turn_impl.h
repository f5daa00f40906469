/* pc_turn_impl.h - private to host/: the parts of the turn engine shared
 * between pc_turn.c (the loop and hooks) and pc_turn_tools.c (tools). */
#ifndef PC_TURN_IMPL_H
#define PC_TURN_IMPL_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_turn.h"

/* One tool outcome (the host's tools::Outcome). */
struct pc__turn_outcome {
	bool ok;
	char *output; /* owned */
	char *diff;   /* owned, NULL: none */
};

/* pc__turn_sorted - the enabled plugins of `o` sorted by name; the array
 * is new (caller frees), the plugins are borrowed. */
struct pc_plugin **pc__turn_sorted(const struct pc_turn_opts *o, size_t *n);

/* pc__turn_builtin - run built-in tool `name` with `args` in the
 * workspace of `o` and fill `out`. Returns false when plugcheck does not
 * implement `name` (out then holds the host's "unknown tool" text). */
bool pc__turn_builtin(const struct pc_turn_opts *o, const char *name,
		      const cJSON *args, struct pc__turn_outcome *out);

/* ---- the file tools' shared parts (pc_turn_tools.c), used by the
 * tools of pc_turn_files.c ---- */

/* pc__turn_set - fill `oc` (takes `text`). */
void pc__turn_set(struct pc__turn_outcome *oc, bool ok, char *text);
/* pc__turn_resolve - a tool path: a relative one joins the workspace, an
 * absolute one is kept; NULL for one with ".." (plugcheck never lets a
 * built-in climb out of the workspace by "..", unlike the host under
 * approval never). New string. */
char *pc__turn_resolve(const struct pc_turn_opts *o, const char *in);
/* pc__turn_any_cap - some enabled plugin of `o` declares `cap`. */
bool pc__turn_any_cap(const struct pc_turn_opts *o, const char *cap);
/* pc__turn_confined_rel - under --sandbox, `in` as a workspace-relative
 * path ("." for the workspace), or NULL (*why says why) when it names
 * something outside the workspace. New string. */
char *pc__turn_confined_rel(const struct pc_turn_opts *o, const char *in,
			    const char **why);
/* pc__turn_read_ws - the workspace file `in` (resolved as `p`) into `b`
 * (beneath the workspace without following a symlink under --sandbox).
 * Returns 0 or a negative PC_E* code. */
int pc__turn_read_ws(const struct pc_turn_opts *o, const char *in,
		     const char *p, struct pc_buf *b);
/* pc__turn_confined_write - write `text` to workspace file `in` under
 * --sandbox (write_workspace needed, no symlink followed). NULL when it
 * was written, else the failure text naming `tool` (new string). */
char *pc__turn_confined_write(const struct pc_turn_opts *o, const char *in,
			      const char *text, const char *tool);
/* pc__turn_put - write `text` to `in` as write_file does (confined under
 * --sandbox): NULL, or the failure text naming `tool` (new string). */
char *pc__turn_put(const struct pc_turn_opts *o, const char *in,
		   const char *text, const char *tool);
/* pc__turn_edit - the edit tool: {path, edits:[{search, replace,
 * replace_all}]}. */
void pc__turn_edit(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc);

/* The tools of pc_turn_files.c (tools.rs shapes and texts): patch
 * {path, patch: unified diff}, rename {from, to}, bulk_write {files:
 * [{path, content}]}, bulk_edit {edits: [{path, edits}]}. None of them
 * fires pre_write (R4.6, R12.1.2): only pre_tool sees them. */
void pc__turn_patch(const struct pc_turn_opts *o, const cJSON *a,
		    struct pc__turn_outcome *oc);
void pc__turn_rename(const struct pc_turn_opts *o, const cJSON *a,
		     struct pc__turn_outcome *oc);
void pc__turn_bulk_write(const struct pc_turn_opts *o, const cJSON *a,
			 struct pc__turn_outcome *oc);
void pc__turn_bulk_edit(const struct pc_turn_opts *o, const cJSON *a,
			struct pc__turn_outcome *oc);

/* pc__turn_is_destructive - the built-in approval class (policy.rs):
 * unknown names are destructive. */
bool pc__turn_is_destructive(const char *name);

/* pc__turn_plugin_tool - the plugin tool that a call to `name` dispatches
 * to (R2.15, R2.16, R6.3), or NULL; *owner gets its plugin. */
const struct pc_tool_cfg *pc__turn_plugin_tool(struct pc_plugin **ps, size_t n,
					       const char *name,
					       struct pc_plugin **owner);

/* pc__turn_system_prompt - the main system prompt the host builds from
 * the enabled plugins `ps` (`n`, in name order) and the workspace of `o`:
 * the base text plus the R10.1 injection. New string. */
char *pc__turn_system_prompt(const struct pc_turn_opts *o,
			     struct pc_plugin *const *ps, size_t n);

/* pc__turn_message - serde_json::from_value::<Message>(m) then its
 * serialization (message.rs): the message as the host holds it - the role
 * tag (or its variant index) checked, unknown keys dropped, null Options
 * left out, assistant content coerced to a string, tool-call ids, types
 * and names defaulted to "" and arguments to a string ("{}" when absent).
 * NULL when serde would refuse it. New; caller deletes. */
cJSON *pc__turn_message(const cJSON *m);
/* pc__turn_messages - Vec<Message> of the array `v`, each element as
 * pc__turn_message, or NULL when `v` is not an array or any element is
 * refused. New; caller deletes. */
cJSON *pc__turn_messages(const cJSON *v);

/* pc__turn_prompt_part - the R10.1 part "# Plugin: <name> (v<version>)\n
 * <system_prompt.trim()>" of `p` (Unicode White_Space trimmed, as Rust's
 * str::trim), or NULL when the trimmed text is empty. New string. */
char *pc__turn_prompt_part(const struct pc_plugin *p);

/* pc__turn_note_stale - append a stale_system_prompt event to t for each
 * plugin of `o` whose R10.1 part disagrees with t's persisted system
 * prompt: present while the plugin is disabled, or absent while it is
 * enabled (R10.3). No-op without a persisted system message. */
void pc__turn_note_stale(struct pc_turn *t, const struct pc_turn_opts *o);

#endif

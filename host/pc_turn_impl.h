/* pc_turn_impl.h - private to host/: the parts of the turn engine shared
 * between pc_turn.c (the loop and hooks) and pc_turn_tools.c (tools). */
#ifndef PC_TURN_IMPL_H
#define PC_TURN_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_turn.h"

/* One tool outcome (the host's tools::Outcome). */
struct pc__turn_outcome {
	bool ok;
	char *output; /* owned */
	char *diff;   /* owned, NULL: none */
};

/* The state of one running agent loop: the main agent's turn, or a
 * subagent run inside it (subagent.rs run_agent_inner), whose hook,
 * request and approval events carry its run id. */
struct pc__turn_run {
	struct pc_turn *t;
	const struct pc_turn_opts *o;
	struct pc_plugin **ps; /* enabled plugins in name order */
	size_t n;
	const char *run_id; /* NULL: the main agent; else the subagent run */
	unsigned depth;	    /* subagent nesting: 0 for the main agent's
			       `subagent` call, +1 per nested call */
};

/* pc__turn_event - append a new event {"type": type} to r's transcript
 * and return it (borrowed) for the caller to fill. */
cJSON *pc__turn_event(struct pc__turn_run *r, const char *type);
/* pc__turn_event_msg - an event {"type": type, "message": msg}. */
void pc__turn_event_msg(struct pc__turn_run *r, const char *type,
			const char *msg);
/* pc__turn_log_line - a "log" event: a stderr line of the host. */
void pc__turn_log_line(struct pc__turn_run *r, const char *line);

/* pc__turn_specific - the tool-specific hook point of tool `name`
 * (pre_bash/pre_write/pre_read, or their post_ forms with `post`):
 * bash, write_file and edit, read_file, grep and glob (R4.6);
 * PC_HOOK_COUNT for every other name. */
enum pc_hook_point pc__turn_specific(const char *name, bool post);

/* pc__turn_pre_hooks - R4.8 run_pre_hooks of `point` for tool `tool`
 * over r's enabled plugins in name order: each sees `args` (modified in
 * place by the earlier ones, R4.10); a reason becomes a note in `notes`.
 * Returns NULL to proceed, else the new deny text "tool call '<tool>'
 * denied by plugin '<P>' hook '<H>': <reason>" (later plugins not run). */
char *pc__turn_pre_hooks(struct pc__turn_run *r, enum pc_hook_point point,
			 const char *tool, cJSON *args,
			 struct pc_strvec *notes);
/* pc__turn_post_hooks - R4.9 run_post_hooks of `point`: every plugin
 * sees the current result `oc` and may replace its output, ok and diff;
 * reasons become notes. */
void pc__turn_post_hooks(struct pc__turn_run *r, enum pc_hook_point point,
			 const char *tool, const cJSON *args,
			 struct pc__turn_outcome *oc, struct pc_strvec *notes);
/* pc__turn_add_notes - append the hook notes to oc->output as the host
 * does: "\n\nPlugin hooks:\n- " + notes joined by "\n- " (R4.8); no-op
 * without notes. */
void pc__turn_add_notes(struct pc__turn_outcome *oc,
			const struct pc_strvec *notes);
/* pc__turn_bulk_gates - the pre hooks of each inner call of a `bulk`
 * call's `args` (R4.6): a denial is recorded in `denied` under the
 * call's index ("0", "1", ...), a modify replaces the inner args. With
 * `allowed` (a subagent's tool names) an inner name not in it is denied
 * without hooks, as subagent.rs does. */
void pc__turn_bulk_gates(struct pc__turn_run *r, cJSON *args, cJSON *denied,
			 const struct pc_strvec *allowed,
			 struct pc_strvec *notes);
/* pc__turn_run_bulk - execute_bulk over the gated `args`. */
void pc__turn_run_bulk(struct pc__turn_run *r, const cJSON *args,
		       const cJSON *denied, struct pc__turn_outcome *oc);
/* pc__turn_parse_arguments - serde_json::from_str of a tool call's
 * argument string `as`; 0 and a new value in *args, or < 0. */
int pc__turn_parse_arguments(const char *as, cJSON **args);
/* pc__turn_outcome_release - free the strings of `oc`. */
void pc__turn_outcome_release(struct pc__turn_outcome *oc);
/* pc__turn_text_message - a new message {"role": role, "content": text}. */
cJSON *pc__turn_text_message(const char *role, const char *text);
/* pc__turn_base_prompt - the base system prompt (before the R10.1
 * injection) for workspace `ws`: the main agent's (`main`), or the one
 * a subagent's build_system_prompt gives (no plugin part, R2.18). New. */
char *pc__turn_base_prompt(const char *ws, bool main);

/* pc__turn_builtin_def - the tool definition of built-in `name` as
 * plugcheck offers it, or NULL when plugcheck does not implement it. New. */
cJSON *pc__turn_builtin_def(const char *name);

/* pc__turn_subagent - the host's `subagent` tool (subagent.rs execute)
 * called with `args` at nesting `depth` from loop `r`: the depth guard
 * (CATALYST_CODE_SUBAGENT_MAX_DEPTH, default 2), a bare {prompt} as the
 * delegate agent, a single {agent, task} run of a built-in agent as a
 * nested agent loop with the same model callback - its own tool list
 * (the agent's built-ins only: no plugin tool, override or disable_tools,
 * R2.18), and every tool call through the approval gate (built-in kinds),
 * the specific pre hook, pre_tool (not for finish), bulk gates, the
 * built-in, the specific post hook and post_tool (also for finish) - and
 * the host's refusals for everything else. Fills `oc` with the run's
 * outcome. */
void pc__turn_subagent(struct pc__turn_run *r, const cJSON *args,
		       unsigned depth, struct pc__turn_outcome *oc);

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

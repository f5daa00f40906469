/* pc_turn.h - whole agent turns through the reference host: the hook
 * points of one Catalyst Code main-agent turn fired in the host's order
 * (spec catalyst-code.md R4.6-R4.12, §6.3-§6.5, §7.5, R10.1,
 * R2.15-R2.19), with a model supplied as a callback and the built-in tools
 * run for real in the workspace directory.
 *
 * A turn (pc_turn_run) is, exactly as turn_loop.rs/run_turn orders it:
 *   session_start -> pre_input (deny aborts: error event, done;
 *   modify.text replaces the text, 1 MiB cap) -> turn_start -> [system
 *   prompt built with the R10.1 injection when the conversation is empty]
 *   -> pre_turn (only with images and vision on; modify.model handoff)
 *   -> pre_compact (only when opts.compact) -> per model request:
 *   pre_agent_start (transient system fragment, 100 KiB caps) ->
 *   pre_context (message replacement, 500 messages / 8 MiB caps) -> model
 *   -> per tool call: malformed-arguments refusal, offered-list gate
 *   (R2.19 text), approval gate (R6.4), specific pre hook (pre_bash,
 *   pre_write, pre_read) -> pre_tool (not for finish) -> bulk inner
 *   gates -> execute -> specific post hook -> post_tool (not for finish)
 *   -> notes appended "\n\nPlugin hooks:\n- " (R4.8) -> next request; a
 *   reply without tool calls or a `finish` ends the loop -> turn_end ->
 *   session_stop. pc_turn_shutdown fires session_shutdown.
 *
 * Caller protocol:
 *   1. struct pc_turn t = PC_TURN_INIT; fill a struct pc_turn_opts
 *      (PC_TURN_OPTS_INIT) with the host, the plugins and the model;
 *   2. pc_turn_run(&t, &o, text, &err) once per user message (the
 *      conversation carries over between turns);
 *   3. pc_turn_shutdown(&t, &o); read t.transcript; pc_turn_release(&t).
 *
 * Every event the host would emit is appended to t.transcript (a cJSON
 * array owned by t, documented in docs/turn.md). Nothing here prints or
 * exits; a call blocks for the hooks' and tools' own deadlines.
 *
 * The `subagent` tool runs a built-in agent as a nested loop with the
 * same model callback (pc_turn_sub.c, subagent.rs): after the main loop's
 * gates and pre_tool on `subagent`, the child's own tool calls go through
 * its agent's built-in tools only (R2.18: no plugin tool, override or
 * disable_tools) with the specific pre hook, pre_tool (not for finish),
 * the specific post hook and post_tool (also for finish); its events
 * (subagent_start, subagent_message, subagent_tool_call,
 * subagent_tool_result, subagent_done, and hook, request, assistant and
 * approval events carrying its run_id) go to the same transcript.
 *
 * Differences from the real host (deliberate, documented in docs/turn.md):
 * built-in tools are a small subset (bash, read_file, write_file, edit,
 * grep, glob, list_dir, finish, bulk, subagent) with simplified output;
 * `bulk` is offered without load_tools; no parallel read-only wave, no
 * digest cache, no permission rules, no auto-reflect, no token
 * accounting; subagents run the built-in agents in single mode only.
 */
#ifndef PC_TURN_H
#define PC_TURN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_host.h"
#include "pc_manifest.h"

/* pc_turn_model_fn - answer one model request. `messages` (the OpenAI chat
 * list after pre_context) and `tools` (the offered definitions) are
 * borrowed for the call. On success store a new assistant message object
 * ({"role":"assistant","content":...,"tool_calls":[...]}) in *reply and
 * return 0; *reply NULL (or a negative return with `err` filled) is a
 * model failure, which ends the turn with an error event. */
typedef int (*pc_turn_model_fn)(void *ctx, const cJSON *messages,
				const cJSON *tools, cJSON **reply,
				struct pc_err *err);

/* One hook firing of a turn, as the host ran it, for a recorder
 * (pc_turn_opts.on_hook; plugcheck's own, the host has none). Everything
 * is borrowed for the call. */
struct pc_turn_firing {
	size_t event;		       /* the index of its "hook" event in
					  t->transcript */
	enum pc_hook_point point;
	const char *plugin;	       /* its plugin's name */
	const char *tool;	       /* tool hooks: the tool, else "" */
	const cJSON *args;	       /* what the hook was given, before its
					  own modify is merged; NULL: none */
	const cJSON *result;	       /* post hooks: the tool result */
	const struct pc_hook_result *hr; /* its verdict */
	const struct pc_exchange *x;   /* everything that crossed the pipes */
};

/* pc_turn_hook_fn - called after each hook firing's event is appended,
 * before the host acts on the verdict. Must not change the turn. */
typedef void (*pc_turn_hook_fn)(void *ctx, const struct pc_turn_firing *f);

/* R6.4 approval modes. */
enum pc_turn_approval {
	PC_TURN_APPROVAL_NEVER = 0,   /* no prompts (plugcheck's default) */
	PC_TURN_APPROVAL_DESTRUCTIVE, /* prompt for destructive kinds */
	PC_TURN_APPROVAL_ALWAYS,      /* prompt for every call */
};

struct pc_turn_opts {
	struct pc_host *host;		  /* borrowed; host->workspace is the
					     directory built-in tools act on */
	struct pc_plugin *const *plugins; /* borrowed, any order: the engine
					     dispatches in name order (R4.7);
					     disabled plugins are skipped */
	size_t nplugins;
	pc_turn_model_fn model;		/* required */
	void *model_ctx;		/* borrowed, passed to model */
	const char *model_name;		/* NULL: "mock-model" */
	int images;			/* images attached to the turn */
	bool vision;			/* vision handoff enabled */
	bool compact;			/* compact before the first request */
	enum pc_turn_approval approval; /* default NEVER */
	bool user_denies;		/* a required prompt is refused */
	int64_t bash_timeout_ms;	/* 0: 120000 */
	int max_requests;		/* 0: 25 model requests per turn */
	pc_turn_hook_fn on_hook;	/* NULL, or told every hook firing
					   (plugcheck's recorder: the page's
					   timeline, docs/report.md) */
	void *on_hook_ctx;
};

#define PC_TURN_OPTS_INIT                                                    \
	{                                                                    \
		.host = NULL, .plugins = NULL, .nplugins = 0, .model = NULL, \
		.model_ctx = NULL, .model_name = NULL, .images = 0,          \
		.vision = false, .compact = false,                           \
		.approval = PC_TURN_APPROVAL_NEVER, .user_denies = false,    \
		.bash_timeout_ms = 0, .max_requests = 0, .on_hook = NULL,    \
		.on_hook_ctx = NULL                                          \
	}

struct pc_turn {
	cJSON *transcript;   /* array of events (docs/turn.md); owned */
	cJSON *conversation; /* persisted messages; owned */
	char *model;	     /* this turn's model: opts.model_name at each
				turn start; pre_turn, or the host's own
				vision fallback, may switch it for the turn */
	int turns;	     /* turns run */
	unsigned subagent_runs; /* subagent run ids handed out ("run-1", ...) */
	bool completed;	     /* the last turn ended normally (not denied,
				no model error, not out of requests) */
};

#define PC_TURN_INIT                                                     \
	{                                                                \
		.transcript = NULL, .conversation = NULL, .model = NULL, \
		.turns = 0, .subagent_runs = 0, .completed = false       \
	}

/* pc_turn_release - free everything `t` owns; `t` is left PC_TURN_INIT. */
void pc_turn_release(struct pc_turn *t);

/* pc_turn_run - run one turn for user `text` (borrowed) as described
 * above, appending events to t->transcript. Returns 0 whenever the turn
 * ran (a denial or model failure is an event and t->completed false);
 * PC_EINVAL when `o` lacks host or model. Blocks for the plugin scripts'
 * timeouts and opts.bash_timeout_ms per bash call. */
int pc_turn_run(struct pc_turn *t, const struct pc_turn_opts *o,
		const char *text, struct pc_err *err);

/* pc_turn_shutdown - fire session_shutdown (R4.6: once, at core EOF). */
void pc_turn_shutdown(struct pc_turn *t, const struct pc_turn_opts *o);

/* pc_turn_tool_defs - the tool list the model is offered (R2.15-R2.19,
 * R6.3): the built-ins plugcheck runs minus overridden names, plus each
 * enabled plugin's tools in name order (collisions dropped with the
 * host's log line appended to `log` when not NULL), minus the union of
 * disable_tools. Returns a new array; caller frees with cJSON_Delete. */
cJSON *pc_turn_tool_defs(const struct pc_turn_opts *o, struct pc_strvec *log);

/* pc_turn_hook_list - the firings of t->transcript as strings "<hook>
 * <plugin>[ <tool>][ deny]", in order: the compact form tests assert.
 * Returns a new array of strings; caller frees. */
cJSON *pc_turn_hook_list(const struct pc_turn *t);

/* ---- plugin lifecycle between turns (pc_turn_life.c) ----
 *
 * The plugin-management protocol commands a client can send between two
 * turns, with what each changes in the next turn (spec catalyst-code.md
 * R1.13-R1.15, R10.3, §11):
 *   - pc_turn_set_enabled (enable_plugin / disable_plugin): only the
 *     in-memory flag flips. A disabled plugin fires no hook, offers no
 *     tool, override or command, removes nothing through disable_tools
 *     (R1.15) - from the next firing on. The system prompt already in the
 *     conversation is NOT rebuilt (R10.3): a disabled plugin's
 *     system_prompt stays, an enabled one's is missing, until a rebuild.
 *   - pc_turn_reload (reload_plugins): the caller rescans
 *     (pc_turn_rescan_dirs or its own scan); plugins disabled before stay
 *     disabled by name, new ones come up enabled (R1.14); the events
 *     plugins_list, plugin_commands and info "plugins reloaded: ..." are
 *     emitted, then the system prompt is rebuilt when it changed.
 * pc_turn_run notes a system prompt that no longer matches the enabled
 * plugins with a `stale_system_prompt` event (plugcheck's own marker, rule
 * PC-LIFE-001), so authors see the R10.3 trap. */

/* What one scan of the plugin roots found: the registry after a reload. */
struct pc_turn_rescan {
	struct pc_plugin **plugins; /* owned; loaded plugins, unique names */
	size_t nplugins;
	struct pc_strvec skipped; /* names of trust-skipped plugins (R1.7) */
	struct pc_strvec errors;  /* R1.11 messages, without "[plugins] " */
	struct pc_strvec log;	  /* the host's stderr lines of the scan */
};

#define PC_TURN_RESCAN_INIT                                                \
	{                                                                  \
		.plugins = NULL, .nplugins = 0, .skipped = PC_STRVEC_INIT, \
		.errors = PC_STRVEC_INIT, .log = PC_STRVEC_INIT            \
	}

/* pc_turn_rescan_release - free the plugins still in `rs` (set
 * rs->plugins to NULL first to keep them) and the lists. */
void pc_turn_rescan_release(struct pc_turn_rescan *rs);

/* pc_turn_rescan_dirs - the scan of a reload over the plugin directories
 * `dirs` (`n` paths, borrowed), in order: a directory without plugin.json
 * is silently absent (R1.4); a load failure is logged "[plugins] failed to
 * load plugin in ..." and collected in errors (R1.11); a later plugin
 * replaces an earlier one with the same manifest name (R1.5). With
 * `skip_all` (an untrusted project root) every candidate is skipped as
 * the host skips it: its loosely read name (R1.7.7) goes to skipped and
 * the R1.7.6 line to log. `menv` is borrowed (NULL: no HOME, no
 * CODEX_HOME). Fills `rs`
 * (PC_TURN_RESCAN_INIT); never fails. */
void pc_turn_rescan_dirs(char *const *dirs, size_t n,
			 const struct pc_manifest_env *menv, bool skip_all,
			 struct pc_turn_rescan *rs);

/* pc_turn_set_enabled - enable_plugin (`enabled` true) or disable_plugin
 * for the plugin named `name` among o->plugins (enabled or not; R1.13):
 * flips its flag and appends {"type":"plugin_enabled"|"plugin_disabled",
 * "name"} to t->transcript. Nothing is persisted and the system prompt is
 * kept (R10.3). Returns 0; PC_ENOENT with "plugin '<name>' not found" (the
 * host's text) in err, after appending {"type":"plugin_error","name",
 * "message"}, when no plugin has that name. */
int pc_turn_set_enabled(struct pc_turn *t, const struct pc_turn_opts *o,
			const char *name, bool enabled, struct pc_err *err);

/* pc_turn_reload - reload_plugins (R1.14, §11) once the caller rescanned
 * into `rs`: each plugin of `old` (the registry before: o->plugins) that
 * was disabled is disabled in rs->plugins when its name is still there;
 * appends rs->log as log events, then plugins_list (every plugin, by
 * name: commands, description, disable_tools, enabled,
 * has_memory_provider, has_oauth, has_system_prompt, hooks (sorted), name,
 * path, scope, tools, version), plugin_commands (R7.1) and {"type":"info",
 * "message":"plugins reloaded: <n> loaded, <k> skipped, <e> errors"}; then
 * the system-prompt refresh (R10.3): when t->conversation starts with a
 * system message that differs from the prompt built from rs->plugins it
 * is replaced, and {"type":"system_prompt","rebuilt":true|false} is
 * appended (only when a conversation exists). `old` and `rs` are
 * borrowed; afterwards the caller runs the next turns with rs->plugins.
 * Returns 0; PC_EINVAL when old->host is NULL. */
int pc_turn_reload(struct pc_turn *t, const struct pc_turn_opts *old,
		   struct pc_turn_rescan *rs, struct pc_err *err);

/* pc_turn_command - the plugin_command protocol command `name` (one
 * leading '/' stripped; R7.2) with argument text `args`: looked up among
 * the enabled plugins in name order, first declaration first. Unknown:
 * error event "unknown plugin command '<name>'". Script-backed: run (R7.3,
 * R7.4) and an info or error event with its text. Prompt-backed: render
 * (R7.5, R7.6), info "/<name>[ <args>] — starting agent turn" and
 * pc_turn_run with the rendered prompt (or the error event). Borrows all.
 * Returns 0, or PC_ENOENT (err filled) for an unknown command. */
int pc_turn_command(struct pc_turn *t, const struct pc_turn_opts *o,
		    const char *name, const char *args, struct pc_err *err);

/* pc_turn_plugins_json - the `plugins` array of a plugins_list event for
 * the plugins of `o` (enabled or not), sorted by name. New array. */
cJSON *pc_turn_plugins_json(const struct pc_turn_opts *o);

#endif

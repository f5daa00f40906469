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
 * Differences from the real host (deliberate, documented in docs/turn.md):
 * built-in tools are a small subset (bash, read_file, write_file, edit,
 * grep, glob, list_dir, finish, bulk) with simplified output; `bulk` is
 * offered without load_tools; no parallel read-only wave, no digest cache,
 * no permission rules, no auto-reflect, no token accounting.
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
};

#define PC_TURN_OPTS_INIT                                                    \
	{                                                                    \
		.host = NULL, .plugins = NULL, .nplugins = 0, .model = NULL, \
		.model_ctx = NULL, .model_name = NULL, .images = 0,          \
		.vision = false, .compact = false,                           \
		.approval = PC_TURN_APPROVAL_NEVER, .user_denies = false,    \
		.bash_timeout_ms = 0, .max_requests = 0                      \
	}

struct pc_turn {
	cJSON *transcript;   /* array of events (docs/turn.md); owned */
	cJSON *conversation; /* persisted messages; owned */
	char *model;	     /* current model (pre_turn may switch it) */
	int turns;	     /* turns run */
	bool completed;	     /* the last turn ended normally (not denied,
				no model error, not out of requests) */
};

#define PC_TURN_INIT                                                     \
	{                                                                \
		.transcript = NULL, .conversation = NULL, .model = NULL, \
		.turns = 0, .completed = false                           \
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

#endif

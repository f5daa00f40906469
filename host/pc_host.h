/* pc_host.h - the reference host's runtime: how the Catalyst Code host
 * runs one plugin script and what it makes of the answer.
 *
 * A struct pc_host holds what the emulated host process knows: its own
 * environment (by default plugcheck's), the workspace string, the session
 * file path, and the cached Python interpreter. Each pc_host_run_* call
 * runs one exchange exactly as the host would (spec catalyst-code.md §4-§9)
 * and reports both the host's verdict and the raw facts (stdin sent,
 * stdout/stderr received, exit status, timing, leftover processes) in a
 * struct pc_exchange, so the CLI can show everything.
 *
 * Caller protocol:
 *   1. struct pc_host h = PC_HOST_INIT; pc_host_init(&h, envp, workspace,
 *      session_path);
 *   2. pc_host_run_hook() / pc_host_run_tool() / ... any number of times,
 *      each with its own result and exchange, released after use;
 *   3. pc_host_release(&h).
 * Nothing here prints or exits; every call blocks at most the script's
 * stdin deadline plus its timeout plus the sweep (pc_proc.h).
 */
#ifndef PC_HOST_H
#define PC_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_proc.h"
#include "pc_confine.h"
#include "pc_strvec.h"

struct pc_host {
	struct pc_strvec env;	  /* the emulated host's own environment */
	char *workspace;	  /* verbatim (R4.5): may be relative */
	char *session_path;	  /* full session file path, or "" */
	char *python;		  /* R5.2: probed once (and kept for the process,
				     keyed by env), cached; NULL before */
	uint64_t timestamp;	  /* 0: real time; else fixed (tests) */
	char *cwd;		  /* the core process's working directory,
				     which every script inherits (R5.4);
				     NULL: plugcheck's own */
	/* borrowed; NULL, or every process the host starts for a plugin
	 * (its scripts, and a turn's built-in `bash`) runs under this
	 * confinement with the plugin's capabilities (plugcheck --sandbox,
	 * pc_confine.h; the plugin's HOME and TMPDIR must then be throwaway
	 * directories) */
	const struct pc_confine *confine;
};

#define PC_HOST_INIT                                                           \
	{ .env = PC_STRVEC_INIT, .workspace = NULL, .session_path = NULL,      \
	  .python = NULL, .timestamp = 0, .cwd = NULL, .confine = NULL }

/* The closed set of outcome classes of one exchange (the `outcome` field
 * of `plugcheck fire --format json`). */
enum pc_outcome {
	PC_OUT_OK = 0,		/* the script answered; see the verdict */
	PC_OUT_TIMEOUT,		/* wait or stdin deadline passed */
	PC_OUT_EXIT,		/* non-zero exit or death by signal */
	PC_OUT_SPAWN_ERROR,	/* could not start (or a read failed) */
	PC_OUT_EMPTY_STDOUT,	/* trimmed stdout empty */
	PC_OUT_INVALID_JSON,	/* stdout does not parse where JSON is needed */
	PC_OUT_INPUT_TOO_LARGE,	/* stdin JSON over 1 MiB: not spawned */
	PC_OUT_OUTPUT_TOO_LARGE, /* stdout or stderr over 1 MiB */
};

/* The raw facts of one exchange. */
struct pc_exchange {
	struct pc_buf stdin_json;  /* what the host wrote (or would have) */
	struct pc_strvec argv;	   /* the command line the host spawned */
	bool spawned;		   /* false when the input cap refused it */
	struct pc_proc_result proc; /* stdout/stderr/exit/timing facts */
	struct pc_strvec events;   /* protocol events the host emitted, as
				      JSON lines ({"type":"info",...}) */
	struct pc_strvec log;	   /* stderr lines the host logged */
	struct pc_confine_obs sandbox; /* under h->confine: what the script
					  tried beyond its capabilities */
	char *swapped;		   /* NULL, or (owned) where the script's
				      path led at the run when it had been
				      replaced by a symlink out of the
				      plugin directory after the load-time
				      check (R2.9): the file the host would
				      run. plugcheck did not run it (not
				      spawned, spawn error ELOOP) */
};

void pc_exchange_init(struct pc_exchange *x);
void pc_exchange_release(struct pc_exchange *x);

/* A hook's HookResult (R4.3). */
struct pc_hook_result {
	enum pc_outcome outcome;
	bool allow;
	char *reason;	  /* never NULL */
	cJSON *modify;	  /* NULL: none */
	char *notify;	  /* NULL: none */
	char *status;	  /* NULL: none ("" clears) */
};

/* The Outcome of a tool or script command (R6.2, R7.4). */
struct pc_call_result {
	enum pc_outcome outcome;
	bool ok;
	char *output;	  /* exactly what the model / user sees */
};

/* pc_host_init - set up `h` from `envp` (NULL-terminated "K=V" strings,
 * copied), the workspace string and the session file path (both copied;
 * session_path may be ""). Never fails. */
void pc_host_init(struct pc_host *h, char *const *envp, const char *workspace,
		  const char *session_path);
void pc_host_release(struct pc_host *h);
/* pc_host_set_cwd - the working directory of the emulated core process
 * (copied; NULL: plugcheck's own). The host never sets a script's working
 * directory (R5.4): scripts inherit the core's, which is the workspace
 * when the host is started in it with the default workspace (R4.5). */
void pc_host_set_cwd(struct pc_host *h, const char *dir);
/* pc_host_getenv - the emulated host's value of `name`, or NULL. */
const char *pc_host_getenv(const struct pc_host *h, const char *name);
/* pc_host_env_var - std::env::var(name).ok(): as pc_host_getenv, but NULL
 * also when the value is not valid UTF-8 - the host then acts as if the
 * variable were unset (it copies PATH, HOME, ... to a plugin only through
 * env::var, R5.3; CATALYST_CODE_SHELL, env_passthrough and the headless
 * probe read it too, R5.2, R8.5). Borrowed. */
const char *pc_host_env_var(const struct pc_host *h, const char *name);

/* pc_host_run_hook - execute_hook (R4.3) for `point` of plugin `p`:
 * builds the context (R4.5: args only when pass_args and `args` != NULL;
 * `result` != NULL adds the post-hook "result" object), runs the script,
 * applies the policy table (R4.2, R4.4) and fills `r` with the exact
 * allow/reason/modify/notify/status, `x` with the facts and the
 * info/plugin_status events (R4.3.11). `tool` is "" for non-tool hooks.
 * Borrows everything; r and x are owned by the caller (release with
 * pc_hook_result_release / pc_exchange_release). Returns 0, or PC_EINVAL
 * when the plugin has no hook at `point`, PC_EIO for plugcheck's own
 * failures. */
int pc_host_run_hook(struct pc_host *h, const struct pc_plugin *p,
		     enum pc_hook_point point, const char *tool,
		     const cJSON *args, const cJSON *result,
		     struct pc_hook_result *r, struct pc_exchange *x,
		     struct pc_err *err);
void pc_hook_result_release(struct pc_hook_result *r);

/* pc_host_run_tool - execute_plugin_tool (R6.1, R6.2) of tool `t` with the
 * tool-call arguments `args` (any JSON; borrowed). Fills `r` and `x`.
 * Returns 0 or PC_EIO. */
int pc_host_run_tool(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_tool_cfg *t, const cJSON *args,
		     struct pc_call_result *r, struct pc_exchange *x,
		     struct pc_err *err);
void pc_call_result_release(struct pc_call_result *r);

/* pc_host_run_command - a script-backed command (R7.3, R7.4) with the raw
 * argument text `args`; `r->output` is the info/error event text.
 * For a prompt-backed command use pc_host_render_prompt. Returns 0,
 * PC_EINVAL for a prompt-backed `c`, or PC_EIO. */
int pc_host_run_command(struct pc_host *h, const struct pc_plugin *p,
			const struct pc_command_cfg *c, const char *args,
			struct pc_call_result *r, struct pc_exchange *x,
			struct pc_err *err);

/* pc_host_render_prompt - R7.5/R7.6: read the prompt file fresh (as
 * read_to_string: a file that is not UTF-8 any more fails at this call
 * with `prompt_file "<abs>" for command '<name>' could not be read: stream
 * did not contain valid UTF-8`, though the load only checked its size),
 * render the template sequentially, apply the 256 KiB cap and the
 * empty-prompt rule. On success r->ok is true and r->output is the prompt
 * text; else r->ok is false and r->output is the host's error event text.
 * Returns 0. */
int pc_host_render_prompt(struct pc_host *h, const struct pc_plugin *p,
			  const struct pc_command_cfg *c, const char *args,
			  struct pc_call_result *r);
/* pc_host_render_prompt_sent - pc_host_render_prompt for the command name
 * `sent` as the client sent it (R7.2): the lookup stripped one leading
 * '/', but the dispatcher's empty-prompt message uses the name as sent
 * ("//go requires a request. Usage: //go <research request>" for "/go");
 * {{command}} and the other messages use c->name. */
int pc_host_render_prompt_sent(struct pc_host *h, const struct pc_plugin *p,
			       const struct pc_command_cfg *c,
			       const char *sent, const char *args,
			       struct pc_call_result *r);

/* The session id as a command sees it: the file name only (R7.3). */
const char *pc_host_session_file_name(const struct pc_host *h);

/* A memory-provider result (R9.5). */
struct pc_memory_result {
	enum pc_outcome outcome;
	bool ok;
	char *output, *injection, *id; /* never NULL */
	cJSON *entries;		       /* array, never NULL */
};

/* pc_host_run_memory - execute_memory_provider (R9.2, R9.4, R9.5) with
 * `action` and `args` (an object; borrowed). session_id is "" for the
 * host-initiated actions (inject, save, list, forget, compact_append) and
 * the full session path for anything else (the model's memory tool, R9.3).
 * Returns 0, PC_EINVAL when the plugin has no memory provider, PC_EIO. */
int pc_host_run_memory(struct pc_host *h, const struct pc_plugin *p,
		       const char *action, const cJSON *args,
		       struct pc_memory_result *r, struct pc_exchange *x,
		       struct pc_err *err);
void pc_memory_result_release(struct pc_memory_result *r);

/* One OAuth action's outcome (R8.3-R8.10). */
struct pc_oauth_result {
	enum pc_outcome outcome;
	bool ok;	  /* the host's success for this action */
	char *message;	  /* the host's error text, or "" */
	cJSON *response;  /* the parsed response, or NULL */
	char *flow;	  /* login: "existing", "auto", "manual", "web",
			     "headless" - what the host does next */
};

/* pc_host_run_oauth - run one OAuth `action` ("login", "complete",
 * "token", "clear") through the script the host would pick (R8.4), with
 * the base stdin of R8.2 plus `extra` (an object whose keys are added,
 * e.g. code/pending/redirect_uri/headless; borrowed, may be NULL). For
 * login without `extra` the headless flag comes from the emulated
 * environment (R8.5). Returns 0, PC_EINVAL when the plugin has no OAuth
 * block or no script for the action, PC_EIO. */
int pc_host_run_oauth(struct pc_host *h, const struct pc_plugin *p,
		      const char *action, const cJSON *extra,
		      struct pc_oauth_result *r, struct pc_exchange *x,
		      struct pc_err *err);
void pc_oauth_result_release(struct pc_oauth_result *r);

/* pc_host_oauth_headless - likely_headless (R8.5, oauth.rs:74-96) over the
 * emulated host's environment: CATALYST_CODE_NO_BROWSER (else NO_BROWSER)
 * truthy or falsey decides; else SSH_CONNECTION/SSH_TTY set; else empty
 * DISPLAY and WAYLAND_DISPLAY. */
bool pc_host_oauth_headless(const struct pc_host *h);

/* pc_outcome_name - "ok", "timeout", "exit", "spawn_error",
 * "empty_stdout", "invalid_json", "input_too_large", "output_too_large". */
const char *pc_outcome_name(enum pc_outcome o);

/* pc_apply_modify - R4.10: shallow-merge object `modify` into object
 * `args` in place (each key replaced or added; null sets null); a no-op
 * unless both are objects. Borrows modify (copies what it needs). */
void pc_apply_modify(cJSON *args, const cJSON *modify);

#endif

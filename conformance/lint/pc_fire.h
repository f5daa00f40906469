/* pc_fire.h - one exchange at a named point, through the reference host,
 * with every fact kept for display (the engine of `plugcheck fire`, and of
 * the conformance suite's firings).
 *
 * Points: a hook point name, "tool:NAME", "command:NAME", "oauth:ACTION",
 * "memory:ACTION". Inputs are text as the user typed them; defaults are
 * realistic values of what the host sends at that point (spec R4.6).
 */
#ifndef PC_FIRE_H
#define PC_FIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_oauth_login.h"

struct pc_fire_opts {
	const char *point;	  /* borrowed */
	const char *path;	  /* plugin directory, borrowed */
	char *args_text;	  /* owned by the caller; NULL: default */
	const char *result_text;  /* post-hook result JSON, or NULL */
	const char *tool;	  /* tool name for tool hooks, or NULL */
	const char *workspace;	  /* required */
	const char *session;	  /* NULL: <TMPDIR>/<nanos>.jsonl */
	uint64_t timestamp;	  /* 0: now */
	char *const *envp;	  /* the emulated host's environment */
	const struct pc_manifest_env *menv;
	/* oauth:login --flow and oauth:code (pc_oauth_login.h): */
	bool oauth_flow;	  /* oauth:login runs the whole /login */
	int64_t wait_ms;	  /* redirect wait cap; 0: default */
	const char *pending_text; /* oauth:code: the login's `pending` JSON */
	const char *state_file;	  /* oauth:code reads, login --flow writes */
	pc_oauth_prompt_fn on_prompt; /* the oauth_prompt event, at once */
	void *prompt_ctx;
	/* NULL, or the script runs under this sandbox (pc_sandbox.h); the
	 * caller makes HOME in envp a throwaway directory */
	const struct pc_sandbox *sandbox;
};

#define PC_FIRE_OPTS_INIT { 0 }

enum pc_fire_kind {
	PC_FIRE_HOOK,
	PC_FIRE_TOOL,
	PC_FIRE_COMMAND,
	PC_FIRE_PROMPT,
	PC_FIRE_OAUTH,
	PC_FIRE_MEMORY,
	PC_FIRE_OAUTH_FLOW /* oauth:login --flow, oauth:code: see `login` */
};

struct pc_fire {
	enum pc_fire_kind kind;
	struct pc_plugin *plugin;
	char *host_error;	  /* set when the plugin does not load */
	struct pc_host host;
	struct pc_exchange x;
	struct pc_hook_result hook;
	struct pc_call_result call;
	struct pc_memory_result mem;
	struct pc_oauth_result oauth;
	struct pc_oauth_login login; /* PC_FIRE_OAUTH_FLOW */
	const char *name;	  /* hook/tool/command/action name */
	bool passed;		  /* allowed / ok */
};

#define PC_FIRE_INIT { .kind = PC_FIRE_HOOK, .host = PC_HOST_INIT }

/* pc_fire_run - load the plugin, build the input and run the exchange.
 * Returns 0 (see f->passed); PC_EUSAGE for a bad point or bad --args JSON
 * (message in err); PC_EMANIFEST when the host rejects the plugin
 * (f->host_error); PC_EIO for plugcheck's own failures. Blocks for at most
 * the entry point's stdin deadline + timeout + the sweep. */
int pc_fire_run(const struct pc_fire_opts *o, struct pc_fire *f,
		struct pc_err *err);
void pc_fire_release(struct pc_fire *f);

/* pc_fire_json - the stable JSON form (docs/cli.md); caller deletes. */
cJSON *pc_fire_json(const struct pc_fire_opts *o, const struct pc_fire *f);
/* pc_fire_print - the human form. */
void pc_fire_print(FILE *out, const struct pc_fire_opts *o,
		   const struct pc_fire *f, bool color);

/* pc_fire_print_rejected - the human form when the host rejects the
 * plugin (pc_fire_run returned PC_EMANIFEST): the host's error, then the
 * lines it logged while loading ("host log ..."), text as raw bytes. */
void pc_fire_print_rejected(FILE *out, const struct pc_fire_opts *o,
			    const struct pc_fire *f);

/* pc_fire_default_args - realistic `args` JSON text the host sends at hook
 * point `point` (spec R4.6), or NULL for points that never get args. */
const char *pc_fire_default_args(int point);
/* pc_fire_default_tool - the tool name a tool hook at `point` sees by
 * default ("bash", "write_file", "read_file"), "" for other points. */
const char *pc_fire_default_tool(int point);

/* pc_fire_show - print `b` under `label`, at most 4 KiB, control bytes
 * as \xNN, noting what was cut. */
void pc_fire_show(FILE *out, const char *label, const struct pc_buf *b);

#endif

/* pc_fire.h - the one firing engine: one exchange at a named point of an
 * already-loaded plugin, through the reference host, with every fact kept
 * for display. `check`, `fire`, `run` and `guard` all fire through it, so
 * they build the host's inputs the same way and show the same facts.
 *
 * Points: a hook point name ("pre_bash"), "tool:NAME", "command:NAME"
 * (one leading '/' of NAME is ignored, R7.2), "oauth:ACTION" (login,
 * complete, token, clear; and "code" and login with oauth_flow for the
 * whole /login and /oauth-code, pc_oauth_login.h), "memory:ACTION" (any
 * action string, R9.3).
 *
 * Caller protocol:
 *   1. load the plugin (pc_manifest_load) and set up a host (pc_host_init;
 *      its cwd is the script's working directory, R5.4);
 *   2. pc_fire_resolve() the point once (errors name what is wrong);
 *   3. pc_fire_exchange() any number of times with inputs (struct
 *      pc_fire_input; NULL fields are the point's realistic defaults, the
 *      values the host sends there, R4.6), each into its own struct
 *      pc_fire, released with pc_fire_release();
 *   4. render with pc_fire_json(), pc_fire_print() or pc_fire_text().
 * pc_fire_run() does all of it for one exchange (the `plugcheck fire`
 * command and scenario fire steps).
 *
 * Nothing here prints on its own or exits. An exchange blocks for at most
 * the entry point's stdin deadline + timeout + the sweep (pc_proc.h);
 * OAuth flows also for their redirect wait (wait_ms).
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
#include "pc_report.h"

enum pc_fire_kind {
	PC_FIRE_HOOK,
	PC_FIRE_TOOL,
	PC_FIRE_COMMAND,
	PC_FIRE_PROMPT,
	PC_FIRE_OAUTH,
	PC_FIRE_MEMORY,
	PC_FIRE_OAUTH_FLOW /* oauth:login with oauth_flow, oauth:code */
};

/* A point resolved against one loaded plugin. The cfg pointers borrow
 * from that plugin; the strings are owned. */
struct pc_fire_point {
	enum pc_fire_kind kind;
	int hook;				/* PC_FIRE_HOOK: the point */
	const struct pc_tool_cfg *tool;		/* PC_FIRE_TOOL */
	const struct pc_command_cfg *command;	/* PC_FIRE_COMMAND, _PROMPT */
	char *action;				/* OAuth and memory actions */
	char *text;				/* the point as given */
};

#define PC_FIRE_POINT_INIT { .kind = PC_FIRE_HOOK, .hook = -1 }

/* pc_fire_point_syntax - check `point` without a plugin: a known hook
 * point, or one of the prefixes above with a non-empty name, or an OAuth
 * action the host has. Returns 0, or PC_EUSAGE with a message naming what
 * is wrong (an unknown hook point lists the 18 points and the nearest
 * one). */
int pc_fire_point_syntax(const char *point, struct pc_err *err);

/* pc_fire_resolve - pc_fire_point_syntax, then resolve `point` against
 * plugin `p` (borrowed; must outlive *pt): the hook must be registered,
 * the tool and command declared (the first declaration, R6.3, R7.2), the
 * OAuth block or memory provider present. `oauth_flow` makes oauth:login
 * the whole /login. Fills *pt (PC_FIRE_POINT_INIT; release with
 * pc_fire_point_release). Returns 0 or PC_EUSAGE with the reason in err. */
int pc_fire_resolve(const struct pc_plugin *p, const char *point,
		    bool oauth_flow, struct pc_fire_point *pt,
		    struct pc_err *err);
void pc_fire_point_release(struct pc_fire_point *pt);

/* The inputs of one exchange; every pointer borrowed, NULL or 0 for the
 * point's default. */
struct pc_fire_input {
	const char *args;	  /* text as the user typed it: JSON for hooks
				     (the args), tools (the call arguments),
				     memory (args), OAuth (extra stdin keys),
				     oauth:code ({"code":...}); the raw
				     argument text for commands */
	const cJSON *args_json;	  /* instead of `args`: a JSON value */
	const char *result;	  /* post hooks: the tool result JSON */
	const char *tool;	  /* tool hooks: the tool name they see */
	int64_t wait_ms;	  /* OAuth flows: the redirect wait cap */
	const char *pending_text; /* oauth:code: the login's `pending` JSON */
	const char *state_file;	  /* oauth:code reads, login flow writes */
	pc_oauth_prompt_fn on_prompt; /* the oauth_prompt event, at once */
	void *prompt_ctx;
};

/* One exchange and everything it showed. */
struct pc_fire {
	enum pc_fire_kind kind;
	char *point;		  /* the point as given (owned) */
	char *path;		  /* the plugin directory as given (owned) */
	const struct pc_plugin *plugin; /* borrowed (pc_fire_run: owned) */
	char *host_error;	  /* pc_fire_run: the host rejects the plugin */
	struct pc_exchange x;
	struct pc_hook_result hook;
	struct pc_call_result call;
	struct pc_memory_result mem;
	struct pc_oauth_result oauth;
	struct pc_oauth_login login; /* PC_FIRE_OAUTH_FLOW */
	const char *name;	  /* hook/tool/command/action name (borrowed) */
	bool passed;		  /* allowed / ok */
	/* the inputs as given to pc_fire_exchange (owned; NULL: the
	 * point's default), for pc_fire_command */
	char *in_args, *in_result, *in_tool;
	/* private to pc_fire_run: */
	struct pc_plugin *own_plugin;
	struct pc_host host;
	bool own_host;
	struct pc_fire_point pt;
};

#define PC_FIRE_INIT                                                       \
	{ .kind = PC_FIRE_HOOK, .host = PC_HOST_INIT,                      \
	  .pt = PC_FIRE_POINT_INIT }

/* pc_fire_exchange - build the host's input for `pt` from `in` and run it
 * through host `h` (borrowed: its environment, workspace, session, cwd
 * and sandbox apply). Fills `f` (PC_FIRE_INIT; release with
 * pc_fire_release): the exchange facts and the host's verdict. Returns 0
 * (see f->passed); PC_EUSAGE when `in` does not parse (message in err);
 * PC_EIO for plugcheck's own failures. */
int pc_fire_exchange(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_fire_point *pt,
		     const struct pc_fire_input *in, struct pc_fire *f,
		     struct pc_err *err);

/* What one exchange of a burst showed (pc_fire_burst). */
struct pc_fire_summary {
	bool ran;    /* the exchange ran (pc_fire_exchange returned 0) */
	bool passed; /* its f->passed */
	cJSON *json; /* its pc_fire_json(), or NULL when it sent nothing */
	char *text;  /* its pc_fire_text(), or NULL */
};

/* pc_fire_burst - `n` exchanges of `pt` with `in` at once, as a host that
 * runs several calls of one entry point concurrently does (R8.8: every
 * caller that finds the OAuth token cache stale runs `token`, nothing
 * serialises them): each through pc_fire_exchange on a copy of host `h`
 * in a process of its own forked from this one (the spawn hook and the
 * caller's signal handlers reset there), all released together. Blocks
 * until every one ended, or `timeout_ms` (then the rest are killed with
 * SIGKILL; their plugin processes are this process's orphans). Fills
 * out[0..n) (release each with pc_fire_summary_release). Returns 0, or
 * PC_EIO when not all of them could be started (out says which ran). The
 * caller must not hold a lock a forked child could need. */
int pc_fire_burst(struct pc_host *h, const struct pc_plugin *p,
		  const struct pc_fire_point *pt,
		  const struct pc_fire_input *in, size_t n, int64_t timeout_ms,
		  struct pc_fire_summary *out, struct pc_err *err);
void pc_fire_summary_release(struct pc_fire_summary *s);

/* Everything `plugcheck fire` needs for one exchange. */
struct pc_fire_opts {
	const char *point;	  /* borrowed */
	const char *path;	  /* plugin directory, borrowed */
	struct pc_fire_input in;
	bool oauth_flow;	  /* oauth:login runs the whole /login */
	const char *workspace;	  /* required; also the script's cwd when
				     it is an existing directory (else
				     plugcheck's own) */
	const char *session;	  /* NULL: <TMPDIR>/<nanos>.jsonl */
	uint64_t timestamp;	  /* 0: now */
	char *const *envp;	  /* the emulated host's environment */
	const struct pc_manifest_env *menv;
	/* NULL, or the script runs under this sandbox (pc_sandbox.h); the
	 * caller makes HOME in envp a throwaway directory */
	const struct pc_sandbox *sandbox;
};

#define PC_FIRE_OPTS_INIT { 0 }

/* pc_fire_run - load the plugin at o->path, set up a host with
 * o->workspace as workspace and cwd, resolve o->point and run one
 * exchange into `f`. Returns 0 (see f->passed); PC_EUSAGE for a bad point
 * or input (message in err); PC_EMANIFEST when the host rejects the
 * plugin (f->host_error); PC_EIO for plugcheck's own failures. */
int pc_fire_run(const struct pc_fire_opts *o, struct pc_fire *f,
		struct pc_err *err);
void pc_fire_release(struct pc_fire *f);

/* pc_fire_json - the stable JSON form (docs/cli.md); caller deletes. */
cJSON *pc_fire_json(const struct pc_fire *f);
/* pc_fire_print - the human form `plugcheck fire` prints. */
void pc_fire_print(FILE *out, const struct pc_fire *f, bool color);
/* pc_fire_print_rejected - the human form when the host rejects the
 * plugin (pc_fire_run returned PC_EMANIFEST): "PATH: the host rejects the
 * plugin: ERROR", then the lines it logged while loading ("host log ..."),
 * text as raw bytes (R1.11, R1.12). */
void pc_fire_print_rejected(FILE *out, const struct pc_fire *f);
/* pc_fire_text - the human form without colour as a new string (caller
 * frees): what check's cases carry as system_out; a NUL byte of the
 * exchange is written as the four characters \x00. */
char *pc_fire_text(const struct pc_fire *f);
/* pc_fire_log_text - the host's log lines of the firing (f->x.log), one
 * per line, as a new string (caller frees; "" when there are none). Host
 * text is written as the bytes it stands for, a NUL as \x00. */
char *pc_fire_log_text(const struct pc_fire *f);
/* pc_fire_verdict - one line: "allow (ok) reason: ...", "ok (ok): out",
 * "failed (timeout): ..." (a new string, caller frees). */
char *pc_fire_verdict(const struct pc_fire *f);

/* PC_FIRE_COMMAND_ARGS_MAX - the longest args text pc_fire_command puts
 * on the command line itself (bytes); longer ones go through
 * --args-file. */
#define PC_FIRE_COMMAND_ARGS_MAX 4096u

/* pc_fire_command - the shell command that fires the exchange `f` again:
 * "plugcheck fire POINT PATH" with --tool, --args (or, for args over
 * PC_FIRE_COMMAND_ARGS_MAX bytes, "--args-file ARGS.json" and a comment
 * saying they are the stdin's args) and --result as given, and
 * --sandbox when `sandbox`; every word shell-quoted. New string. */
char *pc_fire_command(const struct pc_fire *f, bool sandbox);
/* pc_fire_xchg - the report's record of `f` (pc_report.h): the exchange
 * facts (pc_xchg_from_exchange), the point, pc_fire_verdict and
 * pc_fire_command(f, sandbox). New; the caller owns it (or gives it to a
 * case with pc_report_set_xchg). */
struct pc_xchg *pc_fire_xchg(const struct pc_fire *f, bool sandbox);

/* pc_fire_default_args - realistic `args` JSON text the host sends at hook
 * point `point` (spec R4.6), or NULL for points that never get args. */
const char *pc_fire_default_args(int point);
/* pc_fire_default_tool - the tool name a tool hook at `point` sees by
 * default ("bash", "write_file", "read_file"), "" for other points. */
const char *pc_fire_default_tool(int point);
/* pc_fire_default_result - the tool result a post hook gets by default
 * (R4.5): {"diff":null,"ok":true,"output":"hello\n"}. */
const char *pc_fire_default_result(void);
/* pc_fire_is_post - `point` is post_bash, post_write, post_read or
 * post_tool (they get a `result`, R4.5). */
bool pc_fire_is_post(int point);

/* pc_fire_sigs_json - the `signals` fact of docs/cli.md for `sigs` (the
 * signal state a plugin started with, issue 18): {"ignored": [names],
 * "blocked": [names]}, or null for NULL (nothing ran). New item. */
cJSON *pc_fire_sigs_json(const struct pc_proc_sigs *sigs);
/* pc_fire_print_sigs - the same for people, one line:
 * "signals  ignored: SIGHUP; blocked: none". */
void pc_fire_print_sigs(FILE *out, const struct pc_proc_sigs *sigs);

/* pc_fire_show - print `b` under `label`, at most 4 KiB, control bytes
 * as \xNN, noting what was cut. */
void pc_fire_show(FILE *out, const char *label, const struct pc_buf *b);

#endif

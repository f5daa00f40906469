/* cmd_fire.c - `plugcheck fire POINT PATH`: replay one exchange with the
 * reference host and show everything (spec §4-§9; the Catalyst Code
 * entry; `fire call EXE` for ChatCLI is in cli_chatcli.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_sandbox.h"
#include "pc_scenario_save.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

extern char **environ;

static const struct pc_opt opts[] = {
	{ .name = "args", .kind = PC_OPT_VALUE, .metavar = "JSON",
	  .help = "hook args / tool-call arguments / memory args / extra\n"
		  "OAuth stdin fields; for command: points the raw argument\n"
		  "text; for `fire call`, the tool call's args as the model\n"
		  "wrote them",
	  .conflicts = "args-file" },
	{ .name = "args-file", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "the same, read from FILE (use it above 128 KiB)" },
	{ .name = "result", .kind = PC_OPT_VALUE, .metavar = "JSON",
	  .help = "post hooks: the tool result {\"diff\",\"ok\",\"output\"}",
	  .contracts = PC_C_CATALYST },
	{ .name = "tool", .kind = PC_OPT_VALUE, .metavar = "NAME",
	  .help = "the tool name a tool hook sees (default by point)",
	  .contracts = PC_C_CATALYST },
	{ .name = "workspace", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "the workspace, and the script's working directory as\n"
		  "when the host is started in it (R4.5, R5.4; default: a\n"
		  "fresh temporary directory)" },
	{ .name = "session", .kind = PC_OPT_VALUE, .metavar = "PATH",
	  .help = "the session file path (default: <tmp>/<ns>.jsonl)",
	  .contracts = PC_C_CATALYST },
	{ .name = "timestamp", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "fix the `timestamp` fields, N >= 1 (default: now)",
	  .min = 1, .max = 0x7fffffffffffffff,
	  .expect = "Unix seconds, a whole number >= 1",
	  .contracts = PC_C_CATALYST },
	CLI_OPT_FORMAT("human|json"),
	{ .name = "save", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "append this exchange to scenario FILE as a scenario,\n"
		  "observed values as expectations",
	  .contracts = PC_C_CATALYST },
	CLI_OPT_SANDBOX("the script"),
	{ .name = "flow", .kind = PC_OPT_FLAG,
	  .help = "oauth:login: run the host's whole /login (web loopback\n"
		  "redirect, manual, auto, existing); the oauth_prompt event\n"
		  "goes to stderr at once as one JSON line (R8.5)",
	  .contracts = PC_C_CATALYST },
	{ .name = "wait-ms", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "the web flow's redirect wait cap (default 120000; the\n"
		  "host waits 300000, the most allowed)",
	  .min = 1, .max = PC_OAUTH_HOST_WAIT_MS, .contracts = PC_C_CATALYST },
	{ .name = "state-file", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "the pending login: written by oauth:login --flow when a\n"
		  "code is awaited, read by oauth:code (removed once the\n"
		  "exchange succeeds)",
	  .contracts = PC_C_CATALYST },
	{ .name = "pending", .kind = PC_OPT_VALUE, .metavar = "JSON",
	  .help = "oauth:code: the login's `pending` value (R8.6)",
	  .contracts = PC_C_CATALYST },
	{ .name = "call", .kind = PC_OPT_VALUE, .metavar = "REPLY",
	  .help = "the model's whole reply, from which the host's parser\n"
		  "takes the first call (chatcli.md A1-A3)",
	  .contracts = PC_C_CHATCLI, .conflicts = "args" },
	{ .name = "call-file", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "the same, read from FILE", .contracts = PC_C_CHATCLI,
	  .conflicts = "call" },
	{ .name = "remote", .kind = PC_OPT_FLAG,
	  .help = "run the call as `chatcli server` does for a client of\n"
		  "`chatcli connect`, and show what the client receives (R1-R3)",
	  .contracts = PC_C_CHATCLI },
	{ .name = "role", .kind = PC_OPT_VALUE, .metavar = "ROLE",
	  .values = "admin|user|readonly",
	  .help = "with --remote: the client's role (default admin: no\n"
		  "authentication or the shared token)",
	  .contracts = PC_C_CHATCLI },
	CLI_OPT_HOST,
};

/* --args-file FILE: the whole file, at most 64 MiB (a new string). */
char *pc_cli_read_arg_file(const char *opt, const char *file, size_t *len)
{
	struct pc_buf b = PC_BUF_INIT((size_t)64 << 20);
	struct pc_err err = PC_ERR_INIT;

	if (pc_fs_read_capped(file, &b, &err) < 0) {
		fprintf(stderr, "plugcheck: --%s: %s\n", opt, err.msg);
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, len);
}

static int save(const char *file, const struct pc_fire_opts *o,
		const struct pc_fire *f)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *doc = pc_fire_json(f);
	int rc;

	if (f->kind == PC_FIRE_HOOK)
		cJSON_AddStringToObject(doc, "verdict",
					f->hook.allow ? "allow" : "deny");
	rc = pc_scenario_save_fire(file, o, doc, &err);
	cJSON_Delete(doc);
	if (rc < 0)
		fprintf(stderr, "plugcheck: --save: %s\n", err.msg);
	else
		fprintf(stderr, "plugcheck: saved the exchange as a scenario in %s\n",
			file);
	return rc;
}

/* print_prompt - the oauth_prompt event, on stderr at once, so a test or
 * a person can open the URL while the flow waits. */
static void print_prompt(void *ctx, const char *event_json)
{
	(void)ctx;
	fprintf(stderr, "%s\n", event_json);
	fflush(stderr);
}

/* The exchange and the exit status of a finished pc_fire_run. */
static int show(const struct pc_args *a, const struct pc_fire_opts *o,
		struct pc_fire *f, int rc, const struct pc_err *err)
{
	const char *fmt = pc_args_value(a, "format");
	bool json = fmt && !strcmp(fmt, "json");

	if (rc == PC_EUSAGE)
		return pc_cli_usage_error("fire", "%s", err->msg);
	if (rc == PC_EMANIFEST) {
		if (json)
			pc_cli_print_json(pc_fire_json(f));
		else
			pc_fire_print_rejected(stdout, f);
		return PC_EXIT_NOLOAD;
	}
	if (rc) {
		fprintf(stderr, "plugcheck: %s\n", err->msg);
		return PC_EXIT_INTERNAL;
	}
	if (json)
		pc_cli_print_json(pc_fire_json(f));
	else
		pc_fire_print(stdout, f, pc_cli_color());
	if (pc_args_value(a, "save") && save(pc_args_value(a, "save"), o, f) < 0)
		return PC_EXIT_USAGE;
	return f->passed ? PC_EXIT_OK : PC_EXIT_FINDINGS;
}

/* The exchange and its rendering, in the worker (pc_cli_isolated). */
struct fire_job {
	const struct pc_args *a;
	struct pc_fire_opts *o;
	struct pc_fire *f;
	struct pc_err *err;
};

static int fire_job_run(void *ctx)
{
	struct fire_job *j = ctx;
	int rc = pc_fire_run(j->o, j->f, j->err);

	rc = show(j->a, j->o, j->f, rc, j->err);
	pc_fire_release(j->f);
	return rc;
}

int pc_catalyst_fire(const struct pc_args *a)
{
	struct pc_fire_opts o = PC_FIRE_OPTS_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_strvec senv = PC_STRVEC_INIT;
	char *tmp_ws = NULL, *tmp_home = NULL, *args = NULL;
	bool sandbox = pc_args_flag(a, "sandbox");
	int rc;

	o.point = a->pos[0];
	o.path = a->pos[1];
	if (pc_args_value(a, "args-file") &&
	    !(args = pc_cli_read_arg_file("args-file",
					  pc_args_value(a, "args-file"), NULL)))
		return PC_EXIT_USAGE;
	o.in.args = args ? args : pc_args_value(a, "args");
	o.in.result = pc_args_value(a, "result");
	o.in.tool = pc_args_value(a, "tool");
	o.in.wait_ms = pc_args_uint(a, "wait-ms", 0);
	o.in.pending_text = pc_args_value(a, "pending");
	o.in.state_file = pc_args_value(a, "state-file");
	o.in.on_prompt = print_prompt;
	o.oauth_flow = pc_args_flag(a, "flow");
	o.session = pc_args_value(a, "session");
	o.workspace = pc_args_value(a, "workspace");
	if (pc_args_value(a, "timestamp"))
		o.timestamp = strtoull(pc_args_value(a, "timestamp"), NULL, 10);
	if (sandbox) {
		/* never fall back to running the plugin unsandboxed */
		if (pc_sandbox_open(&sb, environ, &err) ||
		    !(tmp_home = pc_fs_mkdtemp("home"))) {
			fprintf(stderr, "plugcheck: %s\n",
				err.code ? err.msg
					 : "--sandbox: cannot create a temporary directory");
			rc = PC_EXIT_USAGE;
			goto out;
		}
		pc_strvec_env_with_home(&senv, environ, tmp_home);
		env.home = tmp_home;
		o.sandbox = &sb;
	}
	if (!o.workspace)
		o.workspace = tmp_ws = pc_fs_mkdtemp("ws");
	o.envp = sandbox ? senv.v : environ;
	o.menv = &env;
	{
		struct fire_job job = { a, &o, &f, &err };

		rc = pc_cli_isolated("fire", fire_job_run, &job);
	}
out:
	free(args);
	if (tmp_ws)
		pc_fs_rm_rf(tmp_ws);
	if (tmp_home)
		pc_fs_rm_rf(tmp_home);
	free(tmp_ws);
	free(tmp_home);
	pc_strvec_release(&senv);
	pc_sandbox_release(&sb);
	return rc;
}

const struct pc_cmd pc_cmd_fire = {
	.name = "fire",
	.summary = "run one hook, tool, command, OAuth or memory exchange",
	.synopsis = { "POINT PATH [options]", "call EXE [options]" },
	.description = {
		"Run one exchange between the Catalyst Code host and the plugin in PATH,\n"
		"exactly as the host would, and show what was sent, what came back and\n"
		"the host's verdict. POINT is a hook point (pre_bash, post_tool,\n"
		"session_start, ...), tool:NAME, command:NAME, oauth:ACTION (login,\n"
		"complete, token, clear; code after a manual login) or memory:ACTION\n"
		"(inject, save, list, forget, compact_append, or any action the model's\n"
		"memory tool may send).\n",
		"Run one model call as ChatCLI does: --args TEXT is the tool call's args\n"
		"value as the model wrote it (after attribute decoding); --call REPLY is\n"
		"the model's whole reply, e.g. '<tool_call name=\"@x\" args=\"run --n 1\" />'.\n"
		"The args become argv (A4-A8), the plugin runs with stdin at EOF and the\n"
		"full environment (CHATCLI_AGENT_PLUGIN_TIMEOUT applies), and the merged\n"
		"stdout/stderr, after the host's compression and truncation, is what the\n"
		"model receives. --remote runs the call as `chatcli server` does for a\n"
		"client of `chatcli connect` with --role, and shows what the client gets.\n" },
	.exits = "Exit: 0 allowed / ok, 1 denied or failed, 2 usage, 3 not loadable,\n"
		 "70 interrupted (the exchange was killed).\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 2,
	.max_pos = 2,
	.by_contract = true,
	.path_pos = 1,
	.entry = PC_CONTRACT_FIRE,
};

/* cmd_fire.c - `plugcheck fire POINT PATH`: replay one exchange with the
 * reference host and show everything (spec §4-§9). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pc_chatcli_cli.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_scenario_save.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

extern char **environ;

/* --save FILE (docs/scenarios.md); NULL: not asked. */
static const char *save_file;

static const char usage[] =
	"usage: plugcheck fire POINT PATH [options]\n\n"
	"Run one exchange between the Catalyst Code host and the plugin in PATH,\n"
	"exactly as the host would, and show what was sent, what came back and\n"
	"the host's verdict.\n\n"
	"POINT is a hook point (pre_bash, post_tool, session_start, ...),\n"
	"tool:NAME, command:NAME, oauth:ACTION (login, complete, token, clear)\n"
	"or memory:ACTION (inject, save, list, forget, compact_append, or any\n"
	"action the model's memory tool may send).\n\n"
	"  --args JSON        hook args / tool-call arguments / memory args /\n"
	"                     extra OAuth stdin fields; for command: points the\n"
	"                     raw argument text\n"
	"  --args-file FILE   the same, read from FILE\n"
	"  --result JSON      post hooks: the tool result {\"diff\",\"ok\",\"output\"}\n"
	"  --tool NAME        the tool name a tool hook sees (default by point)\n"
	"  --workspace DIR    the workspace string (default: a fresh temp dir)\n"
	"  --session PATH     the session file path (default: <tmp>/<ns>.jsonl)\n"
	"  --timestamp N      fix the `timestamp` fields, N >= 1 (default: now)\n"
	"  --format FMT       human (default) or json\n"
	"  --save FILE        append this exchange to scenario FILE as a\n"
	"                     scenario, observed values as expectations\n"
	"  --sandbox          run the script under bubblewrap with only its\n"
	"                     declared capabilities and a throwaway HOME, and\n"
	"                     show what it tried beyond them (docs/sandbox.md)\n\n"
	"OAuth flows (spec R8.5, R8.6):\n"
	"  --flow             oauth:login: run the host's whole /login (web\n"
	"                     loopback redirect, manual, auto, existing) instead\n"
	"                     of one action; the oauth_prompt event is printed on\n"
	"                     stderr at once as one JSON line\n"
	"  --wait-ms N        the web flow's redirect wait cap (default 120000;\n"
	"                     the host waits 300000, the most allowed)\n"
	"  --state-file FILE  the pending login: written by oauth:login --flow\n"
	"                     when a code is awaited, read by oauth:code\n"
	"                     (removed once the exchange succeeds)\n"
	"  --pending JSON     oauth:code: the login's `pending` value instead\n"
	"                     (oauth:code takes --args '{\"code\":\"...\"}')\n"
	"  -h, --help         show this help\n\n"
	"Exit: 0 allowed / ok, 1 denied or failed, 2 usage, 3 not loadable,\n"
	"70 interrupted (the exchange was killed).\n";

static bool use_sandbox; /* --sandbox */

static int read_args(const char *file, char **out)
{
	struct pc_buf b = PC_BUF_INIT((size_t)64 << 20);
	struct pc_err err = PC_ERR_INIT;

	if (pc_fs_read_capped(file, &b, &err) < 0) {
		fprintf(stderr, "plugcheck: --args-file: %s\n", err.msg);
		pc_buf_release(&b);
		return -1;
	}
	*out = pc_buf_detach(&b, NULL);
	return 0;
}

static int save(const struct pc_fire_opts *o, const struct pc_fire *f)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *doc = pc_fire_json(o, f);
	int rc;

	if (f->kind == PC_FIRE_HOOK)
		cJSON_AddStringToObject(doc, "verdict",
					f->hook.allow ? "allow" : "deny");
	rc = pc_scenario_save_fire(save_file, o, doc, &err);
	cJSON_Delete(doc);
	if (rc < 0)
		fprintf(stderr, "plugcheck: --save: %s\n", err.msg);
	else
		fprintf(stderr, "plugcheck: saved the exchange as a scenario in %s\n",
			save_file);
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

static int parse_opts(int argc, char **argv, struct pc_fire_opts *o, int *fmt)
{
	static const struct option opts[] = {
		{ "args", required_argument, NULL, 'a' },
		{ "args-file", required_argument, NULL, 'A' },
		{ "result", required_argument, NULL, 'r' },
		{ "tool", required_argument, NULL, 't' },
		{ "workspace", required_argument, NULL, 'w' },
		{ "session", required_argument, NULL, 's' },
		{ "timestamp", required_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'f' },
		{ "save", required_argument, NULL, 'S' },
		{ "flow", no_argument, NULL, 'F' },
		{ "wait-ms", required_argument, NULL, 'W' },
		{ "pending", required_argument, NULL, 'P' },
		{ "state-file", required_argument, NULL, 'E' },
		{ "sandbox", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			free(o->args_text);
			o->args_text = pc_xstrdup(optarg);
			break;
		case 'A':
			free(o->args_text);
			if (read_args(optarg, &o->args_text) < 0)
				return PC_EXIT_USAGE;
			break;
		case 'r':
			o->result_text = optarg;
			break;
		case 't':
			o->tool = optarg;
			break;
		case 'w':
			o->workspace = optarg;
			break;
		case 's':
			o->session = optarg;
			break;
		case 'T': {
			char *end;

			errno = 0;
			o->timestamp = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || *optarg == '-' ||
			    !o->timestamp) /* 0 stands for "now" */
				return pc_cli_bad_value("fire", "timestamp", optarg,
							"Unix seconds, a whole number >= 1");
			break;
		}
		case 'S':
			save_file = optarg;
			break;
		case 'F':
			o->oauth_flow = true;
			break;
		case 'W': {
			char *end;
			long long w = strtoll(optarg, &end, 10);

			if (*end || end == optarg || w <= 0 ||
			    w > PC_OAUTH_HOST_WAIT_MS) {
				fprintf(stderr, "plugcheck: --wait-ms takes 1..%d\n",
					PC_OAUTH_HOST_WAIT_MS);
				return PC_EXIT_USAGE;
			}
			o->wait_ms = w;
			break;
		}
		case 'P':
			o->pending_text = optarg;
			break;
		case 'E':
			o->state_file = optarg;
			break;
		case 'X':
			use_sandbox = true;
			break;
		case 'f':
			if ((*fmt = pc_cli_format(optarg)) >= 0)
				break;
			return pc_cli_bad_value("fire", "format", optarg,
						"human or json");
		default:
			fputs(usage, stderr);
			return PC_EXIT_USAGE;
		case 'h':
			fputs(usage, stdout);
			return -1;
		}
	}
	if (optind != argc - 2) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	o->point = argv[optind];
	o->path = argv[optind + 1];
	return 0;
}

static int run_catalyst(int argc, char **argv)
{
	struct pc_fire_opts o = PC_FIRE_OPTS_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_env env = pc_cli_manifest_env();
	char *tmp_ws = NULL, *tmp_home = NULL;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_strvec senv = PC_STRVEC_INIT;
	int fmt = PC_FMT_HUMAN, rc = parse_opts(argc, argv, &o, &fmt);

	if (rc) {
		free(o.args_text);
		return rc < 0 ? PC_EXIT_OK : rc;
	}
	if (use_sandbox) {
		/* never fall back to running the plugin unsandboxed */
		if (pc_sandbox_open(&sb, environ, &err) ||
		    !(tmp_home = pc_fs_mkdtemp("home"))) {
			fprintf(stderr, "plugcheck: %s\n",
				err.code ? err.msg
					 : "--sandbox: cannot create a temporary directory");
			free(o.args_text);
			pc_sandbox_release(&sb);
			return PC_EXIT_USAGE;
		}
		pc_strvec_env_with_home(&senv, environ, tmp_home);
		env.home = tmp_home;
		o.sandbox = &sb;
	}
	if (!o.workspace) {
		tmp_ws = pc_fs_mkdtemp("ws");
		o.workspace = tmp_ws;
	}
	o.envp = use_sandbox ? senv.v : environ;
	o.menv = &env;
	o.on_prompt = print_prompt;
	rc = pc_fire_run(&o, &f, &err);
	if (rc == PC_EUSAGE) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_USAGE;
	} else if (rc == PC_EMANIFEST) {
		if (fmt == PC_FMT_JSON)
			pc_cli_print_json(pc_fire_json(&o, &f));
		else
			pc_fire_print_rejected(stdout, &o, &f);
		rc = PC_EXIT_NOLOAD;
	} else if (rc) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_INTERNAL;
	} else {
		if (fmt == PC_FMT_JSON)
			pc_cli_print_json(pc_fire_json(&o, &f));
		else
			pc_fire_print(stdout, &o, &f, pc_cli_color());
		rc = f.passed ? PC_EXIT_OK : PC_EXIT_FINDINGS;
		if (save_file && save(&o, &f) < 0)
			rc = PC_EXIT_USAGE;
	}
	pc_fire_release(&f);
	free(o.args_text);
	if (tmp_ws) {
		pc_fs_rm_rf(tmp_ws);
		free(tmp_ws);
	}
	if (tmp_home) {
		pc_fs_rm_rf(tmp_home);
		free(tmp_home);
	}
	pc_strvec_release(&senv);
	pc_sandbox_release(&sb);
	return rc;
}

/* run - `fire call EXE` is a ChatCLI model call (cli_chatcli.c). */
static int run(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "call"))
		return pc_chatcli_fire_call(argc, argv);
	return run_catalyst(argc, argv);
}

const struct pc_cmd pc_cmd_fire = {
	.name = "fire",
	.summary = "run one hook, tool, command, OAuth or memory exchange",
	.usage = usage,
	.run = run,
};

/* cmd_turn.c - `plugcheck turn SCRIPT PATH...`: whole agent turns through
 * the reference host with the scripted model (pc_turn.h, pc_mock.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_mock.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

extern char **environ;

static const char usage[] =
	"usage: plugcheck turn SCRIPT.json PATH... [options]\n\n"
	"Load each plugin directory PATH as the host does and run whole agent\n"
	"turns through the reference host, the model answering from the\n"
	"scripted model SCRIPT.json (see docs/turn.md). Prints the transcript:\n"
	"every hook firing with its plugin and verdict, the events the host\n"
	"emits, the messages each request carries and the tool results.\n\n"
	"  --text TEXT        a user message; repeat for several turns\n"
	"                     (default: one turn saying \"hello\")\n"
	"  --command NAME     run prompt-backed command NAME as the turn\n"
	"  --args TEXT        the command's argument text\n"
	"  --workspace DIR    where built-in tools act (default: a temp dir)\n"
	"  --images N         attach N images to each turn\n"
	"  --vision           enable the vision handoff (pre_turn)\n"
	"  --compact          compact before the first request (pre_compact)\n"
	"  --approval MODE    never (default), destructive or always\n"
	"  --deny-approvals   the simulated user refuses every prompt\n"
	"  --format FMT       human (default) or json\n"
	"  -h, --help         show this help\n\n"
	"Exit: 0 every turn completed and every scripted reply was used,\n"
	"1 otherwise, 2 usage, 3 a plugin could not be loaded.\n";

struct turn_cli {
	struct pc_strvec texts;
	const char *command, *cmd_args, *workspace;
	struct pc_turn_opts o;
	int fmt;
};

static int approval_mode(const char *s, enum pc_turn_approval *m)
{
	if (!strcmp(s, "never"))
		*m = PC_TURN_APPROVAL_NEVER;
	else if (!strcmp(s, "destructive"))
		*m = PC_TURN_APPROVAL_DESTRUCTIVE;
	else if (!strcmp(s, "always"))
		*m = PC_TURN_APPROVAL_ALWAYS;
	else
		return -1;
	return 0;
}

static int parse_opts(int argc, char **argv, struct turn_cli *c)
{
	static const struct option opts[] = {
		{ "text", required_argument, NULL, 't' },
		{ "command", required_argument, NULL, 'c' },
		{ "args", required_argument, NULL, 'a' },
		{ "workspace", required_argument, NULL, 'w' },
		{ "images", required_argument, NULL, 'i' },
		{ "vision", no_argument, NULL, 'v' },
		{ "compact", no_argument, NULL, 'k' },
		{ "approval", required_argument, NULL, 'p' },
		{ "deny-approvals", no_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	char *end;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 't':
			pc_strvec_push(&c->texts, optarg);
			break;
		case 'c':
			c->command = optarg;
			break;
		case 'a':
			c->cmd_args = optarg;
			break;
		case 'w':
			c->workspace = optarg;
			break;
		case 'i':
			c->o.images = (int)strtol(optarg, &end, 10);
			if (*end || c->o.images < 0 || c->o.images > 64)
				goto bad;
			break;
		case 'v':
			c->o.vision = true;
			break;
		case 'k':
			c->o.compact = true;
			break;
		case 'p':
			if (approval_mode(optarg, &c->o.approval))
				goto bad;
			break;
		case 'd':
			c->o.user_denies = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				c->fmt = PC_FMT_JSON;
			else if (strcmp(optarg, "human"))
				goto bad;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			goto bad;
		}
	}
	if (argc - optind >= 2)
		return 0;
bad:
	fputs(usage, stderr);
	return PC_EXIT_USAGE;
}

static int model_fn(void *ctx, const cJSON *messages, const cJSON *tools,
		    cJSON **reply, struct pc_err *err)
{
	int status = 0;
	int rc = pc_mock_reply(ctx, messages, tools, reply, &status, err);

	if (rc == 0 && !*reply)
		return pc_err_set(err, PC_EIO,
				  "model request failed: HTTP status %d",
				  status);
	return rc;
}

static int load_all(char **paths, int n, struct pc_plugin ***out)
{
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_plugin **ps = pc_xcalloc((size_t)n + 1, sizeof(*ps));

	for (int i = 0; i < n; i++) {
		struct pc_err err = PC_ERR_INIT;

		if (pc_manifest_load(paths[i], &env, &ps[i], &err) < 0) {
			fprintf(stderr, "%s: the host rejects the plugin: %s\n",
				paths[i], err.msg);
			for (int k = 0; k < i; k++)
				pc_plugin_free(ps[k]);
			free(ps);
			return -1;
		}
	}
	*out = ps;
	return 0;
}

/* The prompt-backed command turn (R7.5): render, announce, run. */
static void command_turn(struct turn_cli *c, struct pc_turn *t,
			 struct pc_err *err)
{
	const char *args = c->cmd_args ? c->cmd_args : "";

	for (size_t i = 0; i < c->o.nplugins; i++) {
		struct pc_plugin *p = c->o.plugins[i];

		for (size_t k = 0; k < p->ncommands; k++) {
			struct pc_call_result r = { 0 };
			cJSON *e;
			char *msg;

			if (strcmp(p->commands[k].name, c->command) ||
			    !p->commands[k].agent_turn)
				continue;
			pc_host_render_prompt(c->o.host, p, &p->commands[k],
					      args, &r);
			if (!t->transcript)
				t->transcript = cJSON_CreateArray();
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "type",
						r.ok ? "info" : "error");
			msg = r.ok ? pc_xasprintf(
					     "/%s%s%s \xe2\x80\x94 starting agent turn",
					     c->command, *args ? " " : "", args)
				   : pc_xstrdup(r.output);
			cJSON_AddStringToObject(e, "message", msg);
			cJSON_AddItemToArray(t->transcript, e);
			free(msg);
			if (r.ok)
				pc_turn_run(t, &c->o, r.output, err);
			pc_call_result_release(&r);
			return;
		}
	}
	fprintf(stderr, "plugcheck: unknown plugin command '%s'\n", c->command);
}

static const char *s_of(const cJSON *e, const char *key)
{
	const cJSON *v = pc_serde_get(e, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static void print_event(const cJSON *e)
{
	const char *type = s_of(e, "type");

	if (!strcmp(type, "hook"))
		printf("  hook %-16s %-12s %-10s %s%s%s\n", s_of(e, "hook"),
		       s_of(e, "plugin"), s_of(e, "tool"), s_of(e, "verdict"),
		       *s_of(e, "reason") ? ": " : "", s_of(e, "reason"));
	else if (!strcmp(type, "turn"))
		printf("turn %d: %s\n",
		       (int)pc_serde_get(e, "index")->valuedouble,
		       s_of(e, "text"));
	else if (!strcmp(type, "request"))
		printf("  request %d to %s with %d message(s)\n",
		       (int)pc_serde_get(e, "index")->valuedouble,
		       s_of(e, "model"),
		       cJSON_GetArraySize(pc_serde_get(e, "messages")));
	else if (!strcmp(type, "assistant"))
		printf("  assistant: %s\n",
		       s_of(pc_serde_get(e, "message"), "content"));
	else if (!strcmp(type, "tool_call"))
		printf("  call %s %s\n", s_of(e, "name"), s_of(e, "arguments"));
	else if (!strcmp(type, "tool_result"))
		printf("  result %s (%s):\n    %s\n", s_of(e, "name"),
		       cJSON_IsTrue(pc_serde_get(e, "ok")) ? "ok" : "failed",
		       s_of(e, "output"));
	else if (!strcmp(type, "plugin_status"))
		printf("  plugin_status [%s] %s\n", s_of(e, "plugin"),
		       s_of(e, "text"));
	else if (!strcmp(type, "log"))
		printf("  stderr %s\n", s_of(e, "line"));
	else if (*s_of(e, "message"))
		printf("  %s %s\n", type, s_of(e, "message"));
	else
		printf("  %s\n", type);
}

static int report(struct turn_cli *c, struct pc_turn *t, struct pc_mock *m)
{
	char *why = NULL;
	bool consumed = pc_mock_consumed(m, &why);
	bool ok = consumed && t->completed;
	const cJSON *e;

	if (c->fmt == PC_FMT_JSON) {
		cJSON *j = cJSON_CreateObject(), *names = cJSON_CreateArray();

		for (size_t i = 0; i < c->o.nplugins; i++)
			cJSON_AddItemToArray(
				names,
				cJSON_CreateString(c->o.plugins[i]->name));
		cJSON_AddItemToObject(j, "plugins", names);
		cJSON_AddStringToObject(j, "workspace", c->o.host->workspace);
		cJSON_AddBoolToObject(j, "completed", t->completed);
		cJSON_AddBoolToObject(j, "consumed", consumed);
		if (why)
			cJSON_AddStringToObject(j, "unconsumed", why);
		else
			cJSON_AddNullToObject(j, "unconsumed");
		cJSON_AddItemToObject(j, "hooks", pc_turn_hook_list(t));
		cJSON_AddItemToObject(j, "events",
				      cJSON_Duplicate(t->transcript, 1));
		cJSON_AddItemToObject(j, "requests",
				      cJSON_Duplicate(pc_mock_requests(m), 1));
		pc_cli_print_json(j);
	} else {
		cJSON_ArrayForEach(e, t->transcript)
		{
			print_event(e);
		}
		printf("%s%s\n",
		       ok ? "turn completed; every scripted reply was used"
			  : (t->completed ? "turn completed; "
					  : "turn did not complete; "),
		       ok ? "" : (why ? why : "every scripted reply was used"));
	}
	free(why);
	return ok ? PC_EXIT_OK : PC_EXIT_FINDINGS;
}

static int run(int argc, char **argv)
{
	struct turn_cli c = { .texts = PC_STRVEC_INIT,
			      .o = PC_TURN_OPTS_INIT,
			      .fmt = PC_FMT_HUMAN };
	struct pc_host host = PC_HOST_INIT;
	struct pc_turn t = PC_TURN_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_buf script = PC_BUF_INIT((size_t)64 << 20);
	struct pc_plugin **ps = NULL;
	struct pc_mock *m = NULL;
	char *tmp_ws = NULL, *session;
	int rc = parse_opts(argc, argv, &c);

	if (rc) {
		pc_strvec_release(&c.texts);
		return rc < 0 ? PC_EXIT_OK : rc;
	}
	if (pc_fs_read_capped(argv[optind], &script, &err) < 0) {
		/* the error names the file already */
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	if (pc_mock_new_text(script.data ? script.data : "", script.len, &m,
			     &err) < 0) {
		fprintf(stderr, "plugcheck: %s: %s\n", argv[optind], err.msg);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	if (load_all(argv + optind + 1, argc - optind - 1, &ps) < 0) {
		rc = PC_EXIT_NOLOAD;
		goto out;
	}
	if (!c.workspace)
		c.workspace = tmp_ws = pc_fs_mkdtemp("ws");
	session = pc_fs_join(c.workspace, ".plugcheck-session.jsonl");
	pc_host_init(&host, environ, c.workspace, session);
	free(session);
	c.o.host = &host;
	c.o.plugins = ps;
	c.o.nplugins = (size_t)(argc - optind - 1);
	c.o.model = model_fn;
	c.o.model_ctx = m;
	if (c.command)
		command_turn(&c, &t, &err);
	if (!c.texts.nr && !c.command)
		pc_strvec_push(&c.texts, "hello");
	for (size_t i = 0; i < c.texts.nr; i++)
		pc_turn_run(&t, &c.o, c.texts.v[i], &err);
	pc_turn_shutdown(&t, &c.o);
	rc = report(&c, &t, m);
out:
	pc_turn_release(&t);
	pc_host_release(&host);
	for (int i = 0; ps && i < argc - optind - 1; i++)
		pc_plugin_free(ps[i]);
	free(ps);
	pc_mock_free(m);
	pc_buf_release(&script);
	pc_strvec_release(&c.texts);
	if (tmp_ws) {
		pc_fs_rm_rf(tmp_ws);
		free(tmp_ws);
	}
	return rc;
}

const struct pc_cmd pc_cmd_turn = {
	.name = "turn",
	.summary = "run whole agent turns with a scripted model",
	.usage = usage,
	.run = run,
};

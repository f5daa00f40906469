/* cmd_turn.c - `plugcheck turn SCRIPT PATH...`: whole agent turns through
 * the reference host with the scripted model (pc_turn.h, pc_mock.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_finding.h"
#include "pc_fs.h"
#include "pc_mock.h"
#include "pc_model_script.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

extern char **environ;

static const struct pc_opt opts[] = {
	{ .name = "text", .kind = PC_OPT_ORDER, .metavar = "TEXT",
	  .help = "a user message; repeat for several turns (default: one\n"
		  "turn saying \"hello\")" },
	{ .name = "command", .kind = PC_OPT_ORDER, .metavar = "NAME",
	  .help = "run plugin command NAME (a prompt-backed one runs as a\n"
		  "turn)" },
	{ .name = "args", .kind = PC_OPT_VALUE, .metavar = "TEXT",
	  .help = "the commands' argument text" },
	{ .name = "disable", .kind = PC_OPT_ORDER, .metavar = "NAME",
	  .help = "/plugin-disable NAME at this point" },
	{ .name = "enable", .kind = PC_OPT_ORDER, .metavar = "NAME",
	  .help = "/plugin-enable NAME at this point" },
	{ .name = "reload", .kind = PC_OPT_ORDER,
	  .help = "/plugin-reload at this point (the PATHs are read again;\n"
		  "see docs/turn.md); --text, --command, --disable, --enable\n"
		  "and --reload run in the order given" },
	{ .name = "workspace", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "where built-in tools act, and the scripts' working\n"
		  "directory (R5.4; default: a temporary directory)" },
	{ .name = "images", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "attach N images to each turn", .min = 0, .max = 64 },
	{ .name = "vision", .kind = PC_OPT_FLAG,
	  .help = "enable the vision handoff (pre_turn)" },
	{ .name = "compact", .kind = PC_OPT_FLAG,
	  .help = "compact before the first request (pre_compact)" },
	{ .name = "approval", .kind = PC_OPT_VALUE, .metavar = "MODE",
	  .help = "never (default), destructive or always",
	  .values = "never|destructive|always" },
	{ .name = "deny-approvals", .kind = PC_OPT_FLAG,
	  .help = "the simulated user refuses every prompt" },
	CLI_OPT_FORMAT("human|json"),
};

/* One step of the session, in command-line order. */
enum step_kind {
	STEP_TEXT,
	STEP_COMMAND,
	STEP_ENABLE,
	STEP_DISABLE,
	STEP_RELOAD
};

struct step {
	enum step_kind kind;
	const char *arg; /* text, command or plugin name; NULL for reload */
};

struct turn_cli {
	struct step *steps;
	size_t nsteps;
	bool turned; /* a --text or --command was given */
	const char *cmd_args, *workspace;
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

static void add_step(struct turn_cli *c, enum step_kind kind, const char *arg)
{
	c->steps = pc_xreallocarray(c->steps, c->nsteps + 1, sizeof(*c->steps));
	c->steps[c->nsteps].kind = kind;
	c->steps[c->nsteps++].arg = arg;
	if (kind == STEP_TEXT || kind == STEP_COMMAND)
		c->turned = true;
}

/* The options of `a` into `c`; the ORDER options become steps in the
 * order given. */
static void take_opts(const struct pc_args *a, struct turn_cli *c)
{
	const char *fmt = pc_args_value(a, "format");

	for (size_t i = 0; i < a->nuses; i++) {
		const char *n = a->uses[i].opt->name, *v = a->uses[i].value;

		if (!strcmp(n, "text"))
			add_step(c, STEP_TEXT, v);
		else if (!strcmp(n, "command"))
			add_step(c, STEP_COMMAND, v);
		else if (!strcmp(n, "disable"))
			add_step(c, STEP_DISABLE, v);
		else if (!strcmp(n, "enable"))
			add_step(c, STEP_ENABLE, v);
		else if (!strcmp(n, "reload"))
			add_step(c, STEP_RELOAD, NULL);
	}
	c->cmd_args = pc_args_value(a, "args");
	c->workspace = pc_args_value(a, "workspace");
	c->o.images = (int)pc_args_uint(a, "images", 0);
	c->o.vision = pc_args_flag(a, "vision");
	c->o.compact = pc_args_flag(a, "compact");
	if (pc_args_value(a, "approval"))
		approval_mode(pc_args_value(a, "approval"), &c->o.approval);
	c->o.user_denies = pc_args_flag(a, "deny-approvals");
	c->fmt = fmt && !strcmp(fmt, "json") ? PC_FMT_JSON : PC_FMT_HUMAN;
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

static const char *s_of(const cJSON *e, const char *key)
{
	const cJSON *v = pc_serde_get(e, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static void print_list(const cJSON *e, const char *type)
{
	bool plugins = !strcmp(type, "plugins_list");
	const cJSON *p;

	printf("  %s:", type);
	cJSON_ArrayForEach(p, pc_serde_get(e, plugins ? "plugins" : "commands"))
	{
		if (plugins)
			printf(" %s (%s)", s_of(p, "name"),
			       cJSON_IsTrue(pc_serde_get(p, "enabled"))
				       ? "enabled"
				       : "disabled");
		else
			printf(" /%s (%s)", s_of(p, "name"), s_of(p, "plugin"));
	}
	printf("\n");
}

/* The lifecycle events (pc_turn_life.c); false for other types. */
static bool print_life(const cJSON *e, const char *type)
{
	if (!strcmp(type, "plugin_enabled") || !strcmp(type, "plugin_disabled"))
		printf("%s %s\n", type, s_of(e, "name"));
	else if (!strcmp(type, "plugin_error"))
		printf("plugin_error %s: %s\n", s_of(e, "name"),
		       s_of(e, "message"));
	else if (!strcmp(type, "plugins_list") ||
		 !strcmp(type, "plugin_commands"))
		print_list(e, type);
	else if (!strcmp(type, "system_prompt"))
		printf("  system prompt %s\n",
		       cJSON_IsTrue(pc_serde_get(e, "rebuilt")) ? "rebuilt"
								: "unchanged");
	else
		return false;
	return true;
}

/* A hook firing: point, plugin, tool, verdict and reason, and the
 * modify it returned (what the host merges into the call, R4.10). */
static void print_hook(const cJSON *e)
{
	const cJSON *modify = pc_serde_get(e, "modify");

	printf("  hook %-16s %-12s %-10s %s%s%s\n", s_of(e, "hook"),
	       s_of(e, "plugin"), s_of(e, "tool"), s_of(e, "verdict"),
	       *s_of(e, "reason") ? ": " : "", s_of(e, "reason"));
	if (modify) {
		char *m = pc_serde_to_string(modify);

		printf("    modify %s\n", m);
		free(m);
	}
}

static void print_event(const cJSON *e)
{
	const char *type = s_of(e, "type");

	if (print_life(e, type))
		return;
	if (!strcmp(type, "hook"))
		print_hook(e);
	else if (!strcmp(type, "approval"))
		printf("  approval %s: %s\n", s_of(e, "tool"),
		       cJSON_IsTrue(pc_serde_get(e, "approved"))
			       ? "granted"
			       : "refused (the user said no)");
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

/* PC-LIFE-001 for each plugin and state the transcript saw a stale
 * system prompt for (R10.3), once each. */
static void life_findings(const struct pc_turn *t, struct pc_findings *f)
{
	struct pc_strvec seen = PC_STRVEC_INIT;
	const cJSON *e;

	cJSON_ArrayForEach(e, t->transcript)
	{
		char *key, *where;
		bool dup = false;

		if (strcmp(s_of(e, "type"), "stale_system_prompt"))
			continue;
		key = pc_xasprintf("%s %d", s_of(e, "plugin"),
				   cJSON_IsTrue(pc_serde_get(e, "enabled")));
		for (size_t i = 0; i < seen.nr && !dup; i++)
			dup = !strcmp(seen.v[i], key);
		if (dup) {
			free(key);
			continue;
		}
		pc_strvec_push_nodup(&seen, key);
		where = pc_xasprintf("plugin %s", s_of(e, "plugin"));
		pc_findings_add_at(f, "PC-LIFE-001", where, "%s",
				   s_of(e, "message"));
		free(where);
	}
	pc_strvec_release(&seen);
}

/* A plugin_error (an enable/disable of a name no plugin has). */
static bool has_plugin_error(const struct pc_turn *t)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, t->transcript)
	{
		if (!strcmp(s_of(e, "type"), "plugin_error"))
			return true;
	}
	return false;
}

static void report_json(struct turn_cli *c, struct pc_turn *t,
			struct pc_mock *m, const struct pc_findings *f)
{
	cJSON *j = cJSON_CreateObject(), *names = cJSON_CreateArray();
	char *why = NULL;
	bool consumed = pc_mock_consumed(m, &why);

	for (size_t i = 0; i < c->o.nplugins; i++)
		cJSON_AddItemToArray(names,
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
	cJSON_AddItemToObject(j, "events", cJSON_Duplicate(t->transcript, 1));
	cJSON_AddItemToObject(j, "requests",
			      cJSON_Duplicate(pc_mock_requests(m), 1));
	cJSON_AddItemToObject(j, "findings", pc_findings_json(f));
	pc_cli_print_json(j);
	free(why);
}

static int report(struct turn_cli *c, struct pc_turn *t, struct pc_mock *m)
{
	struct pc_findings f = PC_FINDINGS_INIT;
	char *why = NULL;
	bool consumed = pc_mock_consumed(m, &why);
	bool ok = consumed && t->completed && !has_plugin_error(t);
	const cJSON *e;

	life_findings(t, &f);
	if (c->fmt == PC_FMT_JSON) {
		report_json(c, t, m, &f);
	} else {
		cJSON_ArrayForEach(e, t->transcript)
		{
			print_event(e);
		}
		for (size_t i = 0; i < f.nr; i++)
			printf("%s %s at %s: %s\n  fix: %s\n",
			       pc_severity_name(f.v[i].rule->severity),
			       f.v[i].rule->id, f.v[i].where, f.v[i].message,
			       f.v[i].rule->fix);
		if (has_plugin_error(t))
			printf("a plugin named by --enable or --disable does not exist\n");
		if (pc_cli_interrupted())
			printf("turn interrupted: plugcheck was stopped and killed the plugin; not judged\n");
		else
			printf("%s%s\n",
			       consumed && t->completed
				       ? "turn completed; every scripted reply was used"
				       : (t->completed ? "turn completed; "
						       : "turn did not complete; "),
			       consumed && t->completed
				       ? ""
				       : (why ? why : "every scripted reply was used"));
	}
	free(why);
	pc_findings_release(&f);
	return ok ? PC_EXIT_OK : PC_EXIT_FINDINGS;
}

/* /plugin-reload: the PATHs are scanned again (pc_turn_rescan_dirs) and
 * replace the registry. */
static void reload(struct turn_cli *c, struct pc_turn *t, char **paths,
		   size_t npaths, struct pc_plugin ***ps)
{
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;
	struct pc_err err = PC_ERR_INIT;

	pc_turn_rescan_dirs(paths, npaths, &env, false, &rs);
	pc_turn_reload(t, &c->o, &rs, &err);
	for (size_t i = 0; i < c->o.nplugins; i++)
		pc_plugin_free((*ps)[i]);
	free(*ps);
	*ps = rs.plugins;
	c->o.plugins = rs.plugins;
	c->o.nplugins = rs.nplugins;
	rs.plugins = NULL;
	rs.nplugins = 0;
	pc_turn_rescan_release(&rs);
}

static void run_steps(struct turn_cli *c, struct pc_turn *t, char **paths,
		      size_t npaths, struct pc_plugin ***ps)
{
	struct pc_err err = PC_ERR_INIT;

	for (size_t i = 0; i < c->nsteps && !pc_cli_interrupted(); i++) {
		const struct step *s = &c->steps[i];

		pc_err_clear(&err);
		switch (s->kind) {
		case STEP_TEXT:
			pc_turn_run(t, &c->o, s->arg, &err);
			break;
		case STEP_COMMAND:
			pc_turn_command(t, &c->o, s->arg,
					c->cmd_args ? c->cmd_args : "", &err);
			break;
		case STEP_ENABLE:
		case STEP_DISABLE:
			pc_turn_set_enabled(t, &c->o, s->arg,
					    s->kind == STEP_ENABLE, &err);
			break;
		case STEP_RELOAD:
			reload(c, t, paths, npaths, ps);
			break;
		}
	}
	if (!c->turned && !pc_cli_interrupted())
		pc_turn_run(t, &c->o, "hello", &err);
}

static int run(const struct pc_args *a)
{
	struct turn_cli c = { .o = PC_TURN_OPTS_INIT, .fmt = PC_FMT_HUMAN };
	struct pc_host host = PC_HOST_INIT;
	struct pc_turn t = PC_TURN_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin **ps = NULL;
	struct pc_mock *m = NULL;
	char *tmp_ws = NULL, *session;
	char **paths = a->pos + 1;
	int npaths = (int)a->npos - 1, rc;

	take_opts(a, &c);
	/* the one script loader: turn, mock-model serve, model_file */
	if (pc_model_script_load(a->pos[0], NULL, &m, &err) < 0) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	if (c.workspace && !pc_fs_is_dir(c.workspace)) {
		rc = pc_cli_usage_error("turn", "--workspace: '%s' is not a directory",
					c.workspace);
		goto out;
	}
	if (load_all(paths, npaths, &ps) < 0) {
		rc = PC_EXIT_NOLOAD;
		goto out;
	}
	if (!c.workspace)
		c.workspace = tmp_ws = pc_fs_mkdtemp("ws");
	session = pc_fs_join(c.workspace, ".plugcheck-session.jsonl");
	pc_host_init(&host, environ, c.workspace, session);
	pc_host_set_cwd(&host, c.workspace); /* R5.4, as check and run */
	free(session);
	c.o.host = &host;
	c.o.plugins = ps;
	c.o.nplugins = (size_t)npaths;
	c.o.model = pc_mock_turn_model;
	c.o.model_ctx = m;
	run_steps(&c, &t, paths, (size_t)npaths, &ps);
	pc_turn_shutdown(&t, &c.o);
	rc = report(&c, &t, m);
out:
	pc_turn_release(&t);
	pc_host_release(&host);
	for (size_t i = 0; ps && i < c.o.nplugins; i++)
		pc_plugin_free(ps[i]);
	free(ps);
	pc_mock_free(m);
	free(c.steps);
	if (tmp_ws) {
		pc_fs_rm_rf(tmp_ws);
		free(tmp_ws);
	}
	return rc;
}

const struct pc_cmd pc_cmd_turn = {
	.name = "turn",
	.summary = "run whole agent turns with a scripted model",
	.synopsis = { "SCRIPT.json PATH... [options]", NULL },
	.description = {
		"Load each plugin directory PATH as the host does and run whole agent\n"
		"turns through the reference host, the model answering from the\n"
		"scripted model SCRIPT.json (see docs/turn.md). Prints the transcript:\n"
		"every hook firing with its plugin and verdict, the events the host\n"
		"emits, the messages each request carries and the tool results.\n",
		NULL },
	.exits = "Exit: 0 every turn completed and every scripted reply was used,\n"
		 "1 otherwise, 2 usage, 3 a plugin could not be loaded, 70 interrupted.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 2,
	.max_pos = SIZE_MAX,
	.run = run,
};

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
#include "pc_report.h"
#include "pc_model_script.h"
#include "pc_serde.h"
#include "pc_time.h"
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
	CLI_OPT_FORMAT("human|json|html"),
	CLI_OPT_OUTPUT,
	CLI_OPT_HTML,
};

#define FMT_HTML (PC_FMT_JSON + 1) /* turn's third --format */

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
	int64_t t0_us; /* when the session started */
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
	c->fmt = !fmt			   ? PC_FMT_HUMAN
		 : !strcmp(fmt, "json") ? PC_FMT_JSON
		 : !strcmp(fmt, "html") ? FMT_HTML
					: PC_FMT_HUMAN;
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

static void print_list(FILE *out, const cJSON *e, const char *type)
{
	bool plugins = !strcmp(type, "plugins_list");
	const cJSON *p;

	fprintf(out, "  %s:", type);
	cJSON_ArrayForEach(p, pc_serde_get(e, plugins ? "plugins" : "commands"))
	{
		if (plugins)
			fprintf(out, " %s (%s)", s_of(p, "name"),
			       cJSON_IsTrue(pc_serde_get(p, "enabled"))
				       ? "enabled"
				       : "disabled");
		else
			fprintf(out, " /%s (%s)", s_of(p, "name"), s_of(p, "plugin"));
	}
	fprintf(out, "\n");
}

/* The lifecycle events (pc_turn_life.c); false for other types. */
static bool print_life(FILE *out, const cJSON *e, const char *type)
{
	if (!strcmp(type, "plugin_enabled") || !strcmp(type, "plugin_disabled"))
		fprintf(out, "%s %s\n", type, s_of(e, "name"));
	else if (!strcmp(type, "plugin_error"))
		fprintf(out, "plugin_error %s: %s\n", s_of(e, "name"),
		       s_of(e, "message"));
	else if (!strcmp(type, "plugins_list") ||
		 !strcmp(type, "plugin_commands"))
		print_list(out, e, type);
	else if (!strcmp(type, "system_prompt"))
		fprintf(out, "  system prompt %s\n",
		       cJSON_IsTrue(pc_serde_get(e, "rebuilt")) ? "rebuilt"
								: "unchanged");
	else
		return false;
	return true;
}

/* The events of a subagent run (pc_turn_sub.c); false for other types. */
static bool print_sub(FILE *out, const cJSON *e, const char *type)
{
	const char *id = s_of(e, "run_id");

	if (!strcmp(type, "subagent_start"))
		fprintf(out, "  subagent %s %s (depth %d): %s\n", id, s_of(e, "agent"),
		       (int)pc_serde_get(e, "depth")->valuedouble,
		       s_of(e, "task"));
	else if (!strcmp(type, "subagent_message")) {
		/* the assistant's prose is its `assistant` event already */
		if (strcmp(s_of(e, "role"), "assistant"))
			fprintf(out, "  [%s] %s: %s\n", id, s_of(e, "role"),
			       s_of(e, "content"));
	}
	else if (!strcmp(type, "subagent_tool_call"))
		fprintf(out, "  [%s] call %s\n", id, s_of(e, "name"));
	else if (!strcmp(type, "subagent_tool_result"))
		fprintf(out, "  [%s] result %s (%s):\n    %s\n", id, s_of(e, "name"),
		       cJSON_IsTrue(pc_serde_get(e, "ok")) ? "ok" : "failed",
		       s_of(e, "result"));
	else if (!strcmp(type, "subagent_done"))
		fprintf(out, "  subagent %s %s: %s\n", id, s_of(e, "state"),
		       s_of(e, "summary"));
	else
		return false;
	return true;
}

/* A hook firing: point, plugin, tool, verdict and reason, and the
 * modify it returned (what the host merges into the call, R4.10). */
static void print_hook(FILE *out, const cJSON *e)
{
	const cJSON *modify = pc_serde_get(e, "modify");

	fprintf(out, "  hook %-16s %-12s %-10s %s%s%s\n", s_of(e, "hook"),
	       s_of(e, "plugin"), s_of(e, "tool"), s_of(e, "verdict"),
	       *s_of(e, "reason") ? ": " : "", s_of(e, "reason"));
	if (modify) {
		char *m = pc_serde_to_string(modify);

		fprintf(out, "    modify %s\n", m);
		free(m);
	}
}

static void print_event(FILE *out, const cJSON *e)
{
	const char *type = s_of(e, "type");

	if (print_life(out, e, type) || print_sub(out, e, type))
		return;
	/* a hook, request or approval inside a subagent run */
	if (*s_of(e, "run_id"))
		fprintf(out, "  [%s]", s_of(e, "run_id"));
	if (!strcmp(type, "hook"))
		print_hook(out, e);
	else if (!strcmp(type, "approval"))
		fprintf(out, "  approval %s: %s\n", s_of(e, "tool"),
		       cJSON_IsTrue(pc_serde_get(e, "approved"))
			       ? "granted"
			       : "refused (the user said no)");
	else if (!strcmp(type, "turn"))
		fprintf(out, "turn %d: %s\n",
		       (int)pc_serde_get(e, "index")->valuedouble,
		       s_of(e, "text"));
	else if (!strcmp(type, "request"))
		fprintf(out, "  request %d to %s with %d message(s)\n",
		       (int)pc_serde_get(e, "index")->valuedouble,
		       s_of(e, "model"),
		       cJSON_GetArraySize(pc_serde_get(e, "messages")));
	else if (!strcmp(type, "assistant"))
		fprintf(out, "  assistant: %s\n",
		       s_of(pc_serde_get(e, "message"), "content"));
	else if (!strcmp(type, "tool_call"))
		fprintf(out, "  call %s %s\n", s_of(e, "name"), s_of(e, "arguments"));
	else if (!strcmp(type, "tool_result"))
		fprintf(out, "  result %s (%s):\n    %s\n", s_of(e, "name"),
		       cJSON_IsTrue(pc_serde_get(e, "ok")) ? "ok" : "failed",
		       s_of(e, "output"));
	else if (!strcmp(type, "plugin_status"))
		fprintf(out, "  plugin_status [%s] %s\n", s_of(e, "plugin"),
		       s_of(e, "text"));
	else if (!strcmp(type, "log"))
		fprintf(out, "  stderr %s\n", s_of(e, "line"));
	else if (*s_of(e, "message"))
		fprintf(out, "  %s %s\n", type, s_of(e, "message"));
	else
		fprintf(out, "  %s\n", type);
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

static void report_json(FILE *out, struct turn_cli *c, struct pc_turn *t,
			struct pc_mock *m, const struct pc_findings *f)
{
	cJSON *j = cJSON_CreateObject(), *names = cJSON_CreateArray();
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
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
	pc_serde_print_pretty(j, &b);
	fwrite(pc_buf_cstr(&b), 1, b.len, out);
	fputc('\n', out);
	pc_buf_release(&b);
	cJSON_Delete(j);
	free(why);
}

/* The last line of the human form: how the session ended. A new string;
 * *ok gets whether it went as scripted. */
static char *ending(struct pc_turn *t, struct pc_mock *m, bool *ok)
{
	char *why = NULL, *s;
	bool consumed = pc_mock_consumed(m, &why);

	*ok = consumed && t->completed && !has_plugin_error(t);
	if (pc_cli_interrupted())
		s = pc_xstrdup("turn interrupted: plugcheck was stopped and killed the plugin; not judged");
	else if (consumed && t->completed)
		s = pc_xstrdup("turn completed; every scripted reply was used");
	else
		s = pc_xasprintf("%s%s",
				 t->completed ? "turn completed; "
					      : "turn did not complete; ",
				 why ? why : "every scripted reply was used");
	free(why);
	return s;
}

static void report_human(FILE *out, struct pc_turn *t, struct pc_mock *m,
			 const struct pc_findings *f)
{
	const cJSON *e;
	bool ok;
	char *last = ending(t, m, &ok);

	cJSON_ArrayForEach(e, t->transcript)
	{
		print_event(out, e);
	}
	for (size_t i = 0; i < f->nr; i++)
		fprintf(out, "%s %s at %s: %s\n  fix: %s (see `plugcheck explain %s`)\n",
			pc_severity_name(f->v[i].rule->severity),
			f->v[i].rule->id, f->v[i].where, f->v[i].message,
			pc_finding_fix(&f->v[i]), f->v[i].rule->id);
	if (has_plugin_error(t))
		fprintf(out, "a plugin named by --enable or --disable does not exist\n");
	fprintf(out, "%s\n", last);
	free(last);
}

/* The session as the one result type (kind "turn"), for --format html
 * and --html: one case with the whole timeline in the host's order, its
 * PC-LIFE-001 notes and, when the session did not go as scripted (what
 * makes the exit status 1), PC-TURN-001. */
static void build_report(const struct turn_cli *c, char **paths,
			 size_t npaths, struct pc_turn *t, struct pc_mock *m,
			 struct pc_turn_rec *rec, const struct pc_findings *f,
			 struct pc_report *r)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_findings copy = PC_FINDINGS_INIT;
	char *name, *last;
	size_t k;
	bool ok;

	r->kind = "turn";
	for (size_t i = 0; i < npaths; i++)
		pc_buf_addf(&b, "%s%s", i ? " " : "", paths[i]);
	r->path = pc_buf_detach(&b, NULL);
	for (size_t i = 0; i < c->o.nplugins; i++) {
		const struct pc_plugin *p = c->o.plugins[i];
		char *d = pc_xasprintf("%s %s (%s)", p->name,
				       p->version ? p->version : "", p->dir);

		pc_buf_addf(&b, "%s%s", i ? ", " : "", p->name);
		pc_report_add_load(r, "plugin_dir", true, d);
		free(d);
	}
	r->name = pc_buf_detach(&b, NULL);
	r->loaded = true;
	name = pc_xasprintf("the session: %d turn(s)", t->turns);
	k = pc_report_add_case(r, "plugcheck.turn", name, NULL,
			       (double)(pc_time_now_us() - c->t0_us) / 1e6);
	r->duration_s = r->cases[k].time_s;
	free(name);
	pc_report_turn_marks(&r->cases[k], t->transcript, 0, rec);
	for (size_t i = 0; i < f->nr; i++)
		pc_findings_push(&copy, &f->v[i]);
	pc_report_take_findings(r, k, &copy);
	last = ending(t, m, &ok);
	if (has_plugin_error(t))
		pc_report_find(r, k, "PC-TURN-001", "", "turn", "a plugin named by --enable or --disable does not exist");
	else if (!ok)
		pc_report_find(r, k, "PC-TURN-001", "", "turn", "%s", last);
	free(last);
	r->incomplete = pc_cli_interrupted();
	pc_report_finish(r);
}

/* Print the session in c->fmt to --output (or stdout), the page to
 * --html; with --output the human form goes to stdout too. */
static int report(struct turn_cli *c, char **paths, size_t npaths,
		  struct pc_turn *t, struct pc_mock *m, struct pc_turn_rec *rec,
		  struct pc_cli_out *out)
{
	struct pc_findings f = PC_FINDINGS_INIT;
	struct pc_report r = PC_REPORT_INIT;
	FILE *dst = out->report.f ? out->report.f : stdout;
	bool ok;
	char *last = ending(t, m, &ok);
	int rc;

	free(last);
	life_findings(t, &f);
	build_report(c, paths, npaths, t, m, rec, &f, &r);
	rc = pc_cli_out_write_html(out, &r);
	if (c->fmt == PC_FMT_JSON)
		report_json(dst, c, t, m, &f);
	else if (c->fmt == FMT_HTML)
		pc_report_write(&r, PC_REPORT_HTML, dst, false);
	else
		report_human(dst, t, m, &f);
	if (!rc)
		rc = pc_cli_out_flush(out);
	if (!rc && dst != stdout)
		report_human(stdout, t, m, &f);
	pc_report_release(&r);
	pc_findings_release(&f);
	if (rc)
		return rc;
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

/* The turns and their report, in the worker (pc_cli_isolated): a plugin
 * that kills or stops its parent reaches the worker, not plugcheck. */
struct turn_job {
	struct turn_cli *c;
	struct pc_turn *t;
	char **paths;
	size_t npaths;
	struct pc_plugin ***ps;
	struct pc_mock *m;
	struct pc_turn_rec *rec;
	struct pc_cli_out *out;
};

static int turn_job_run(void *ctx)
{
	struct turn_job *j = ctx;

	run_steps(j->c, j->t, j->paths, j->npaths, j->ps);
	pc_turn_shutdown(j->t, &j->c->o);
	return report(j->c, j->paths, j->npaths, j->t, j->m, j->rec, j->out);
}

static int run(const struct pc_args *a)
{
	struct turn_cli c = { .o = PC_TURN_OPTS_INIT, .fmt = PC_FMT_HUMAN };
	struct pc_host host = PC_HOST_INIT;
	struct pc_turn t = PC_TURN_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin **ps = NULL;
	struct pc_mock *m = NULL;
	struct pc_turn_rec rec = PC_TURN_REC_INIT;
	struct pc_cli_out out;
	char *tmp_ws = NULL, *session;
	char **paths = a->pos + 1;
	int npaths = (int)a->npos - 1, rc;

	take_opts(a, &c);
	c.t0_us = pc_time_now_us();
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
	if ((rc = pc_cli_out_open(a, &out)))
		goto out;
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
	c.o.on_hook = pc_turn_rec_hook; /* the page's timeline */
	c.o.on_hook_ctx = &rec;
	{
		struct turn_job job = { &c, &t, paths, (size_t)npaths, &ps, m,
					&rec, &out };

		rc = pc_cli_isolated("turn", turn_job_run, &job);
	}
	pc_cli_out_close(&out);
out:
	pc_turn_rec_release(&rec);
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

/* pc_fire.c - build one exchange's input, run it, keep the facts. */
#include "pc_fire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

/* Realistic default args and tool names per hook point (spec R4.6). */
const char *pc_fire_default_args(int point)
{
	switch (point) {
	case PC_HOOK_PRE_BASH:
	case PC_HOOK_POST_BASH:
	case PC_HOOK_PRE_TOOL:
	case PC_HOOK_POST_TOOL:
		return "{\"command\":\"echo hello\"}";
	case PC_HOOK_PRE_WRITE:
	case PC_HOOK_POST_WRITE:
		return "{\"content\":\"hello\\n\",\"path\":\"hello.txt\"}";
	case PC_HOOK_PRE_READ:
	case PC_HOOK_POST_READ:
		return "{\"path\":\"hello.txt\"}";
	case PC_HOOK_PRE_INPUT:
		return "{\"text\":\"hello\"}";
	case PC_HOOK_PRE_CONTEXT:
		return "{\"messages\":[{\"content\":\"You are Catalyst Code.\",\"role\":\"system\"},{\"content\":\"hello\",\"role\":\"user\"}]}";
	case PC_HOOK_PRE_TURN:
		return "{\"enabled\":true,\"has_images\":true,\"image_count\":1,\"model\":\"text-model\",\"models\":[{\"cost_rank\":1,\"id\":\"text-model\",\"provider\":\"p\",\"vision\":false},{\"cost_rank\":2,\"id\":\"vision-model\",\"provider\":\"p\",\"vision\":true}],\"provider\":\"p\",\"recommended_vision_model\":\"vision-model\",\"vision_model\":null}";
	case PC_HOOK_SESSION_STOP:
		return "{\"human_corrections\":{\"undo_count\":0},\"memory_recall\":{},\"session\":{\"cached_tokens\":0,\"model\":\"text-model\",\"tokens_in\":10,\"tokens_out\":5,\"turns\":1},\"skill_utilization\":{\"skill_md_reads\":0},\"turn\":null}";
	default:
		return NULL; /* lifecycle hooks never get args */
	}
}

const char *pc_fire_default_tool(int point)
{
	switch (point) {
	case PC_HOOK_PRE_BASH:
	case PC_HOOK_POST_BASH:
	case PC_HOOK_PRE_TOOL:
	case PC_HOOK_POST_TOOL:
		return "bash";
	case PC_HOOK_PRE_WRITE:
	case PC_HOOK_POST_WRITE:
		return "write_file";
	case PC_HOOK_PRE_READ:
	case PC_HOOK_POST_READ:
		return "read_file";
	default:
		return "";
	}
}

static bool is_post(int point)
{
	return point == PC_HOOK_POST_BASH || point == PC_HOOK_POST_WRITE ||
	       point == PC_HOOK_POST_READ || point == PC_HOOK_POST_TOOL;
}

static int parse_json(const char *what, const char *text, cJSON **out,
		      struct pc_err *err)
{
	struct pc_err perr = PC_ERR_INIT;

	if (pc_serde_parse(text, strlen(text), out, &perr) < 0)
		return pc_err_set(err, PC_EUSAGE, "%s is not JSON: %s", what,
				  perr.msg);
	return 0;
}

static int fire_hook(const struct pc_fire_opts *o, struct pc_fire *f,
		     int point, struct pc_err *err)
{
	const char *text = o->args_text ? o->args_text : pc_fire_default_args(point);
	cJSON *args = NULL, *result = NULL;
	int rc = 0;

	f->kind = PC_FIRE_HOOK;
	f->name = pc_hook_point_name((enum pc_hook_point)point);
	if (text && (rc = parse_json("--args", text, &args, err)))
		return rc;
	if (is_post(point) &&
	    (rc = parse_json("--result",
			     o->result_text ? o->result_text
					    : "{\"diff\":null,\"ok\":true,\"output\":\"hello\\n\"}",
			     &result, err))) {
		cJSON_Delete(args);
		return rc;
	}
	rc = pc_host_run_hook(&f->host, f->plugin, (enum pc_hook_point)point,
			      o->tool ? o->tool : pc_fire_default_tool(point), args,
			      result, &f->hook, &f->x, err);
	if (rc == PC_EINVAL)
		rc = PC_EUSAGE;
	f->passed = !rc && f->hook.allow && f->hook.outcome == PC_OUT_OK;
	cJSON_Delete(args);
	cJSON_Delete(result);
	return rc;
}

static int fire_tool(const struct pc_fire_opts *o, struct pc_fire *f,
		     const char *name, struct pc_err *err)
{
	const struct pc_tool_cfg *t = NULL;
	cJSON *args = NULL;
	int rc;

	for (size_t i = 0; i < f->plugin->ntools && !t; i++)
		if (!strcmp(f->plugin->tools[i].name, name))
			t = &f->plugin->tools[i];
	if (!t)
		return pc_err_set(err, PC_EUSAGE, "plugin '%s' has no tool '%s'",
				  f->plugin->name, name);
	f->kind = PC_FIRE_TOOL;
	f->name = t->name;
	if ((rc = parse_json("--args", o->args_text ? o->args_text : "{}",
			     &args, err)))
		return rc;
	rc = pc_host_run_tool(&f->host, f->plugin, t, args, &f->call, &f->x,
			      err);
	f->passed = !rc && f->call.ok;
	cJSON_Delete(args);
	return rc;
}

static int fire_command(const struct pc_fire_opts *o, struct pc_fire *f,
			const char *name, struct pc_err *err)
{
	const struct pc_command_cfg *c = NULL;
	const char *n = name[0] == '/' ? name + 1 : name;
	const char *args = o->args_text ? o->args_text : "";
	int rc;

	for (size_t i = 0; i < f->plugin->ncommands && !c; i++)
		if (!strcmp(f->plugin->commands[i].name, n))
			c = &f->plugin->commands[i];
	if (!c)
		return pc_err_set(err, PC_EUSAGE, "unknown plugin command '%s'",
				  name);
	f->name = c->name;
	if (c->agent_turn) {
		f->kind = PC_FIRE_PROMPT;
		rc = pc_host_render_prompt_sent(&f->host, f->plugin, c, name,
						args, &f->call);
	} else {
		f->kind = PC_FIRE_COMMAND;
		rc = pc_host_run_command(&f->host, f->plugin, c, args, &f->call,
					 &f->x, err);
	}
	f->passed = !rc && f->call.ok;
	return rc;
}

/* read_pending - oauth:code's stored pending state: --state-file (absent
 * file: none), else --pending (the login's `pending` value), else none. */
static int read_pending(const struct pc_fire_opts *o, const struct pc_fire *f,
			struct pc_oauth_pending *pd, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT((size_t)16 << 20);
	struct pc_err lerr = PC_ERR_INIT;
	cJSON *v = NULL;
	int rc = 0;

	if (o->state_file) {
		if (!pc_fs_is_file(o->state_file))
			return 0;
		if (pc_fs_read_capped(o->state_file, &b, &lerr) < 0) {
			pc_buf_release(&b);
			return pc_err_set(err, PC_EUSAGE, "--state-file: %s",
					  lerr.msg);
		}
		if (!(rc = parse_json("--state-file", pc_buf_cstr(&b), &v, err)) &&
		    pc_oauth_pending_from_json(v, pd, &lerr) < 0)
			rc = pc_err_set(err, PC_EUSAGE, "--state-file: %s",
					lerr.msg);
	} else if (o->pending_text &&
		   !(rc = parse_json("--pending", o->pending_text, &v, err))) {
		pd->provider_id = pc_xstrdup(f->plugin->oauth->provider_id);
		pd->state = pc_xstrdup("");
		pd->pending = v;
		v = NULL;
	}
	cJSON_Delete(v);
	pc_buf_release(&b);
	return rc;
}

/* save_pending - keep --state-file in step with the host's stored
 * pending state: written while a code is awaited (or restored after a
 * failed exchange), removed once /oauth-code took it. */
static int save_pending(const struct pc_fire_opts *o, const struct pc_fire *f,
			bool is_code, struct pc_err *err)
{
	cJSON *v;
	char *s;
	int rc;

	if (!o->state_file)
		return 0;
	if (!f->login.pending.provider_id) {
		if (is_code && f->login.state == PC_OAUTH_LOGIN_DONE &&
		    unlink(o->state_file) < 0 && errno != ENOENT)
			return pc_err_set_errno(err, PC_EIO, errno, "%s",
						o->state_file);
		return 0;
	}
	v = pc_oauth_pending_json(&f->login.pending);
	s = pc_serde_to_string(v);
	rc = pc_fs_write(o->state_file, s, strlen(s), err);
	free(s);
	cJSON_Delete(v);
	return rc < 0 ? PC_EIO : 0;
}

/* fire_oauth_flow - oauth:login --flow (the whole /login) and oauth:code
 * (/oauth-code), through pc_oauth_login.h. */
static int fire_oauth_flow(const struct pc_fire_opts *o, struct pc_fire *f,
			   const char *action, struct pc_err *err)
{
	struct pc_oauth_login_opts lo = { .wait_ms = o->wait_ms,
					  .on_prompt = o->on_prompt,
					  .prompt_ctx = o->prompt_ctx };
	struct pc_oauth_pending pd = { 0 };
	bool is_code = !strcmp(action, "code");
	const cJSON *code;
	cJSON *args = NULL;
	int rc;

	f->kind = PC_FIRE_OAUTH_FLOW;
	pc_oauth_login_init(&f->login);
	if (!f->plugin->oauth)
		return pc_err_set(err, PC_EUSAGE,
				  "plugin '%s' declares no oauth provider",
				  f->plugin->name);
	if (!is_code) {
		rc = pc_host_oauth_login(&f->host, f->plugin, &lo, &f->login,
					 err);
	} else {
		if (!o->args_text ||
		    (rc = parse_json("--args", o->args_text, &args, err)) ||
		    !cJSON_IsString(code = pc_serde_get(args, "code"))) {
			cJSON_Delete(args);
			return pc_err_set(err, PC_EUSAGE,
					  "oauth:code needs --args '{\"code\":\"...\"}'");
		}
		rc = read_pending(o, f, &pd, err);
		if (!rc)
			rc = pc_host_oauth_code(&f->host, f->plugin, &pd,
						code->valuestring, &f->login,
						err);
		cJSON_Delete(args);
		pc_oauth_pending_release(&pd);
	}
	if (!rc)
		rc = save_pending(o, f, is_code, err);
	f->passed = !rc && f->login.state != PC_OAUTH_LOGIN_FAILED;
	return rc == PC_EINVAL ? PC_EUSAGE : rc;
}

static int fire_provider(const struct pc_fire_opts *o, struct pc_fire *f,
			 bool oauth, const char *action, struct pc_err *err)
{
	cJSON *args = NULL;
	int rc;

	f->name = action;
	if (oauth && (!strcmp(action, "code") ||
		      (o->oauth_flow && !strcmp(action, "login"))))
		return fire_oauth_flow(o, f, action, err);
	if (o->args_text && (rc = parse_json("--args", o->args_text, &args, err)))
		return rc;
	if (oauth) {
		f->kind = PC_FIRE_OAUTH;
		rc = pc_host_run_oauth(&f->host, f->plugin, action, args,
				       &f->oauth, &f->x, err);
		f->passed = !rc && f->oauth.ok;
	} else {
		f->kind = PC_FIRE_MEMORY;
		if (!args)
			args = cJSON_CreateObject();
		rc = pc_host_run_memory(&f->host, f->plugin, action, args,
					&f->mem, &f->x, err);
		f->passed = !rc && f->mem.ok;
	}
	cJSON_Delete(args);
	return rc == PC_EINVAL ? PC_EUSAGE : rc;
}

static char *default_session(void)
{
	const char *tmp = getenv("TMPDIR");
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return pc_xasprintf("%s/plugcheck-sessions/%llu%09ld.jsonl",
			    tmp && *tmp ? tmp : "/tmp",
			    (unsigned long long)ts.tv_sec, ts.tv_nsec);
}

int pc_fire_run(const struct pc_fire_opts *o, struct pc_fire *f,
		struct pc_err *err)
{
	struct pc_err lerr = PC_ERR_INIT;
	struct pc_manifest_report rep = { 0 };
	char *session = o->session ? pc_xstrdup(o->session) : default_session();
	const char *colon = strchr(o->point, ':');
	int point = pc_hook_point_parse(o->point), rc;

	pc_exchange_init(&f->x);
	pc_host_init(&f->host, o->envp, o->workspace, session);
	f->host.timestamp = o->timestamp;
	f->host.sandbox = o->sandbox;
	free(session);
	if (point < 0 && !colon)
		return pc_err_set(err, PC_EUSAGE,
				  "'%s' is not a hook point, tool:NAME, command:NAME, oauth:ACTION or memory:ACTION",
				  o->point);
	/* the host's stderr while loading comes first in host_log (R1.11,
	 * R1.12), then what the exchange logs */
	rep.log = &f->x.log;
	rep.error = &f->host_error;
	if (pc_manifest_load_report(o->path, o->menv, &f->plugin, &rep,
				    &lerr) < 0)
		return PC_EMANIFEST;
	if (point >= 0)
		return fire_hook(o, f, point, err);
	if (!strncmp(o->point, "tool:", 5))
		return fire_tool(o, f, colon + 1, err);
	if (!strncmp(o->point, "command:", 8))
		return fire_command(o, f, colon + 1, err);
	if (!strncmp(o->point, "oauth:", 6) || !strncmp(o->point, "memory:", 7)) {
		rc = fire_provider(o, f, o->point[0] == 'o', colon + 1, err);
		return rc;
	}
	return pc_err_set(err, PC_EUSAGE, "unknown point kind in '%s'", o->point);
}

void pc_fire_release(struct pc_fire *f)
{
	pc_hook_result_release(&f->hook);
	pc_call_result_release(&f->call);
	if (f->kind == PC_FIRE_MEMORY)
		pc_memory_result_release(&f->mem);
	pc_oauth_result_release(&f->oauth);
	if (f->kind == PC_FIRE_OAUTH_FLOW)
		pc_oauth_login_release(&f->login);
	pc_exchange_release(&f->x);
	pc_host_release(&f->host);
	pc_plugin_free(f->plugin);
	free(f->host_error);
	f->plugin = NULL;
	f->host_error = NULL;
}

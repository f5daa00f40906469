/* pc_fire.c - resolve a point, build one exchange's input, run it, keep
 * the facts. */
#include "pc_fire.h"

#include "pc_sandbox.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pc_buf.h"
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

const char *pc_fire_default_result(void)
{
	return "{\"diff\":null,\"ok\":true,\"output\":\"hello\\n\"}";
}

bool pc_fire_is_post(int point)
{
	return point == PC_HOOK_POST_BASH || point == PC_HOOK_POST_WRITE ||
	       point == PC_HOOK_POST_READ || point == PC_HOOK_POST_TOOL;
}

/* ---- points ---- */

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Edit distance of two short names (hook point suggestions), ignoring
 * ASCII case: "PRE_BASH" is nearest to "pre_bash". */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t d = prev[j - 1] +
				   (lower(a[i - 1]) != lower(b[j - 1]));

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			cur[j] = d;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(*prev));
	}
	return prev[lb];
}

static int unknown_hook(const char *point, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *best = NULL;
	size_t bd = 3;
	int rc;

	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		const char *n = pc_hook_point_name((enum pc_hook_point)i);
		size_t d = distance(point, n);

		pc_buf_addf(&b, "%s%s", i ? ", " : "", n);
		if (d < bd) {
			bd = d;
			best = n;
		}
	}
	if (best)
		rc = pc_err_set(err, PC_EUSAGE,
				"'%s' is not a hook point (did you mean '%s'?); the 18 points are %s, or use tool:NAME, command:NAME, oauth:ACTION, memory:ACTION",
				point, best, pc_buf_cstr(&b));
	else
		rc = pc_err_set(err, PC_EUSAGE,
				"'%s' is not a hook point, tool:NAME, command:NAME, oauth:ACTION or memory:ACTION; the 18 points are %s",
				point, pc_buf_cstr(&b));
	pc_buf_release(&b);
	return rc;
}

static const char *const oauth_actions[] = { "login", "complete", "token",
					     "clear", "code" };

int pc_fire_point_syntax(const char *point, struct pc_err *err)
{
	const char *colon = strchr(point, ':');
	const char *name = colon ? colon + 1 : NULL;

	if (!colon)
		return pc_hook_point_parse(point) >= 0 ? 0
						       : unknown_hook(point, err);
	if (strncmp(point, "tool:", 5) && strncmp(point, "command:", 8) &&
	    strncmp(point, "oauth:", 6) && strncmp(point, "memory:", 7))
		return pc_err_set(err, PC_EUSAGE,
				  "'%s': the kind before ':' must be tool, command, oauth or memory",
				  point);
	if (!*name || (!strncmp(point, "command:", 8) && !strcmp(name, "/")))
		return pc_err_set(err, PC_EUSAGE, "'%s' names nothing after ':'",
				  point);
	if (!strncmp(point, "oauth:", 6)) {
		for (size_t i = 0; i < sizeof(oauth_actions) / sizeof(*oauth_actions);
		     i++)
			if (!strcmp(name, oauth_actions[i]))
				return 0;
		return pc_err_set(err, PC_EUSAGE,
				  "'%s': the OAuth actions are login, complete, token, clear (and code for /oauth-code)",
				  point);
	}
	return 0;
}

void pc_fire_point_release(struct pc_fire_point *pt)
{
	free(pt->action);
	free(pt->text);
	*pt = (struct pc_fire_point)PC_FIRE_POINT_INIT;
}

static int resolve_named(const struct pc_plugin *p, const char *point,
			 bool oauth_flow, struct pc_fire_point *pt,
			 struct pc_err *err)
{
	const char *name = strchr(point, ':') + 1;

	if (!strncmp(point, "tool:", 5)) {
		for (size_t i = 0; i < p->ntools && !pt->tool; i++)
			if (!strcmp(p->tools[i].name, name))
				pt->tool = &p->tools[i];
		pt->kind = PC_FIRE_TOOL;
		return pt->tool ? 0
				: pc_err_set(err, PC_EUSAGE,
					     "plugin '%s' has no tool '%s'",
					     p->name, name);
	}
	if (!strncmp(point, "command:", 8)) {
		const char *n = name[0] == '/' ? name + 1 : name;

		for (size_t i = 0; i < p->ncommands && !pt->command; i++)
			if (!strcmp(p->commands[i].name, n))
				pt->command = &p->commands[i];
		if (!pt->command)
			return pc_err_set(err, PC_EUSAGE,
					  "unknown plugin command '%s'", name);
		pt->kind = pt->command->agent_turn ? PC_FIRE_PROMPT
						   : PC_FIRE_COMMAND;
		return 0;
	}
	pt->action = pc_xstrdup(name);
	if (!strncmp(point, "memory:", 7)) {
		pt->kind = PC_FIRE_MEMORY;
		return p->memory ? 0
				 : pc_err_set(err, PC_EUSAGE,
					      "plugin '%s' declares no memory_provider",
					      p->name);
	}
	if (!p->oauth)
		return pc_err_set(err, PC_EUSAGE,
				  "plugin '%s' declares no oauth provider",
				  p->name);
	pt->kind = !strcmp(name, "code") ||
			   (oauth_flow && !strcmp(name, "login"))
		       ? PC_FIRE_OAUTH_FLOW
		       : PC_FIRE_OAUTH;
	return 0;
}

int pc_fire_resolve(const struct pc_plugin *p, const char *point,
		    bool oauth_flow, struct pc_fire_point *pt,
		    struct pc_err *err)
{
	int rc = pc_fire_point_syntax(point, err);

	*pt = (struct pc_fire_point)PC_FIRE_POINT_INIT;
	if (rc)
		return rc;
	pt->text = pc_xstrdup(point);
	if (strchr(point, ':'))
		rc = resolve_named(p, point, oauth_flow, pt, err);
	else if (!p->hooks[(pt->hook = pc_hook_point_parse(point))].present)
		rc = pc_err_set(err, PC_EUSAGE,
				"plugin '%s' registers no hook at '%s'", p->name,
				point);
	if (rc)
		pc_fire_point_release(pt);
	return rc;
}

/* ---- inputs ---- */

static int parse_json(const char *what, const char *text, cJSON **out,
		      struct pc_err *err)
{
	struct pc_err perr = PC_ERR_INIT;

	if (pc_serde_parse(text, strlen(text), out, &perr) < 0)
		return pc_err_set(err, PC_EUSAGE, "%s is not JSON: %s", what,
				  perr.msg);
	return 0;
}

/* The input's JSON value (a copy, caller deletes), `def` when none was
 * given (NULL def: *out stays NULL). */
static int input_json(const struct pc_fire_input *in, const char *def,
		      cJSON **out, struct pc_err *err)
{
	*out = NULL;
	if (in->args_json) {
		*out = cJSON_Duplicate(in->args_json, 1);
		return 0;
	}
	if (in->args)
		return parse_json("--args", in->args, out, err);
	return def ? parse_json("the default args", def, out, err) : 0;
}

static int fire_hook(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_fire_point *pt,
		     const struct pc_fire_input *in, struct pc_fire *f,
		     struct pc_err *err)
{
	cJSON *args = NULL, *result = NULL;
	int rc;

	f->name = pc_hook_point_name((enum pc_hook_point)pt->hook);
	if ((rc = input_json(in, pc_fire_default_args(pt->hook), &args, err)))
		return rc;
	if (pc_fire_is_post(pt->hook) &&
	    (rc = parse_json("--result",
			     in->result ? in->result : pc_fire_default_result(),
			     &result, err))) {
		cJSON_Delete(args);
		return rc;
	}
	rc = pc_host_run_hook(h, p, (enum pc_hook_point)pt->hook,
			      in->tool ? in->tool : pc_fire_default_tool(pt->hook),
			      args, result, &f->hook, &f->x, err);
	if (rc == PC_EINVAL)
		rc = pc_err_set(err, PC_EUSAGE,
				"plugin '%s' registers no hook at '%s'", p->name,
				f->name);
	f->passed = !rc && f->hook.allow && f->hook.outcome == PC_OUT_OK;
	cJSON_Delete(args);
	cJSON_Delete(result);
	return rc;
}

static int fire_tool(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_fire_point *pt,
		     const struct pc_fire_input *in, struct pc_fire *f,
		     struct pc_err *err)
{
	cJSON *args = NULL;
	int rc;

	f->name = pt->tool->name;
	if ((rc = input_json(in, "{}", &args, err)))
		return rc;
	rc = pc_host_run_tool(h, p, pt->tool, args, &f->call, &f->x, err);
	f->passed = !rc && f->call.ok;
	cJSON_Delete(args);
	return rc;
}

static int fire_command(struct pc_host *h, const struct pc_plugin *p,
			const struct pc_fire_point *pt,
			const struct pc_fire_input *in, struct pc_fire *f,
			struct pc_err *err)
{
	const char *args = in->args ? in->args : "";
	int rc;

	f->name = pt->command->name;
	/* the name as sent ("/go" for command:/go): the host's empty-prompt
	 * message uses it (R7.2) */
	const char *sent = pt->text && strchr(pt->text, ':')
				   ? strchr(pt->text, ':') + 1
				   : pt->command->name;

	if (pt->kind == PC_FIRE_PROMPT)
		rc = pc_host_render_prompt_sent(h, p, pt->command, sent, args,
						&f->call);
	else
		rc = pc_host_run_command(h, p, pt->command, args, &f->call,
					 &f->x, err);
	f->passed = !rc && f->call.ok;
	return rc;
}

/* read_pending - oauth:code's stored pending state: the state file
 * (absent: none), else the `pending` value given, else none. */
static int read_pending(const struct pc_fire_input *in,
			const struct pc_plugin *p, struct pc_oauth_pending *pd,
			struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT((size_t)16 << 20);
	struct pc_err lerr = PC_ERR_INIT;
	cJSON *v = NULL;
	int rc = 0;

	if (in->state_file) {
		if (!pc_fs_is_file(in->state_file))
			return 0;
		if (pc_fs_read_capped(in->state_file, &b, &lerr) < 0) {
			pc_buf_release(&b);
			return pc_err_set(err, PC_EUSAGE, "--state-file: %s",
					  lerr.msg);
		}
		if (!(rc = parse_json("--state-file", pc_buf_cstr(&b), &v, err)) &&
		    pc_oauth_pending_from_json(v, pd, &lerr) < 0)
			rc = pc_err_set(err, PC_EUSAGE, "--state-file: %s",
					lerr.msg);
	} else if (in->pending_text &&
		   !(rc = parse_json("--pending", in->pending_text, &v, err))) {
		pd->provider_id = pc_xstrdup(p->oauth->provider_id);
		pd->state = pc_xstrdup("");
		pd->pending = v;
		v = NULL;
	}
	cJSON_Delete(v);
	pc_buf_release(&b);
	return rc;
}

/* save_pending - keep the state file in step with the host's stored
 * pending state: written while a code is awaited (or restored after a
 * failed exchange), removed once /oauth-code took it. */
static int save_pending(const struct pc_fire_input *in,
			const struct pc_fire *f, bool is_code,
			struct pc_err *err)
{
	cJSON *v;
	char *s;
	int rc;

	if (!in->state_file)
		return 0;
	if (!f->login.pending.provider_id) {
		if (is_code && f->login.state == PC_OAUTH_LOGIN_DONE &&
		    unlink(in->state_file) < 0 && errno != ENOENT)
			return pc_err_set_errno(err, PC_EIO, errno, "%s",
						in->state_file);
		return 0;
	}
	v = pc_oauth_pending_json(&f->login.pending);
	s = pc_serde_to_string(v);
	rc = pc_fs_write(in->state_file, s, strlen(s), err);
	free(s);
	cJSON_Delete(v);
	return rc < 0 ? PC_EIO : 0;
}

/* fire_oauth_flow - oauth:login with oauth_flow (the whole /login) and
 * oauth:code (/oauth-code), through pc_oauth_login.h. */
static int fire_oauth_flow(struct pc_host *h, const struct pc_plugin *p,
			   const struct pc_fire_point *pt,
			   const struct pc_fire_input *in, struct pc_fire *f,
			   struct pc_err *err)
{
	struct pc_oauth_login_opts lo = { .wait_ms = in->wait_ms,
					  .on_prompt = in->on_prompt,
					  .prompt_ctx = in->prompt_ctx };
	struct pc_oauth_pending pd = { 0 };
	bool is_code = !strcmp(pt->action, "code");
	const cJSON *code;
	cJSON *args = NULL;
	int rc;

	pc_oauth_login_init(&f->login);
	if (!is_code) {
		rc = pc_host_oauth_login(h, p, &lo, &f->login, err);
	} else {
		if (input_json(in, NULL, &args, err) || !args ||
		    !cJSON_IsString(code = pc_serde_get(args, "code"))) {
			cJSON_Delete(args);
			return pc_err_set(err, PC_EUSAGE,
					  "oauth:code needs --args '{\"code\":\"...\"}'");
		}
		rc = read_pending(in, p, &pd, err);
		if (!rc)
			rc = pc_host_oauth_code(h, p, &pd, code->valuestring,
						&f->login, err);
		cJSON_Delete(args);
		pc_oauth_pending_release(&pd);
	}
	if (!rc)
		rc = save_pending(in, f, is_code, err);
	f->passed = !rc && f->login.state != PC_OAUTH_LOGIN_FAILED;
	return rc == PC_EINVAL ? PC_EUSAGE : rc;
}

static int fire_provider(struct pc_host *h, const struct pc_plugin *p,
			 const struct pc_fire_point *pt,
			 const struct pc_fire_input *in, struct pc_fire *f,
			 struct pc_err *err)
{
	cJSON *args = NULL;
	int rc;

	f->name = pt->action;
	if (pt->kind == PC_FIRE_OAUTH_FLOW)
		return fire_oauth_flow(h, p, pt, in, f, err);
	if ((rc = input_json(in, pt->kind == PC_FIRE_MEMORY ? "{}" : NULL,
			     &args, err)))
		return rc;
	if (pt->kind == PC_FIRE_OAUTH) {
		rc = pc_host_run_oauth(h, p, pt->action, args, &f->oauth, &f->x,
				       err);
		f->passed = !rc && f->oauth.ok;
	} else {
		rc = pc_host_run_memory(h, p, pt->action, args, &f->mem, &f->x,
					err);
		f->passed = !rc && f->mem.ok;
	}
	cJSON_Delete(args);
	return rc == PC_EINVAL ? PC_EUSAGE : rc;
}

int pc_fire_exchange(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_fire_point *pt,
		     const struct pc_fire_input *in, struct pc_fire *f,
		     struct pc_err *err)
{
	static const struct pc_fire_input none = { 0 };

	if (!in)
		in = &none;
	pc_exchange_init(&f->x);
	f->kind = pt->kind;
	f->plugin = p;
	if (!f->point)
		f->point = pc_xstrdup(pt->text ? pt->text : "");
	if (!f->path)
		f->path = pc_xstrdup(p->dir ? p->dir : "");
	free(f->in_args);
	free(f->in_result);
	free(f->in_tool);
	f->in_args = in->args_json ? pc_serde_to_string(in->args_json)
		     : in->args	   ? pc_xstrdup(in->args)
				   : NULL;
	f->in_result = in->result ? pc_xstrdup(in->result) : NULL;
	f->in_tool = in->tool ? pc_xstrdup(in->tool) : NULL;
	switch (pt->kind) {
	case PC_FIRE_HOOK:
		return fire_hook(h, p, pt, in, f, err);
	case PC_FIRE_TOOL:
		return fire_tool(h, p, pt, in, f, err);
	case PC_FIRE_COMMAND:
	case PC_FIRE_PROMPT:
		return fire_command(h, p, pt, in, f, err);
	default:
		return fire_provider(h, p, pt, in, f, err);
	}
}

/* ---- the whole `fire` path ---- */

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
	struct pc_strvec loadlog = PC_STRVEC_INIT;
	struct pc_manifest_report rep = { .log = &loadlog,
					  .error = &f->host_error };
	char *session = o->session ? pc_xstrdup(o->session) : default_session();
	struct pc_strvec later;
	int rc;

	pc_exchange_init(&f->x);
	f->point = pc_xstrdup(o->point);
	f->path = pc_xstrdup(o->path);
	pc_host_init(&f->host, o->envp, o->workspace, session);
	f->own_host = true;
	f->host.timestamp = o->timestamp;
	f->host.confine = o->sandbox ? &o->sandbox->confine : NULL;
	/* the host started in its workspace (R4.5, R5.4); a workspace string
	 * that names no directory cannot be a working directory: the core
	 * then runs where plugcheck does */
	if (pc_fs_is_dir(o->workspace))
		pc_host_set_cwd(&f->host, o->workspace);
	free(session);
	if ((rc = pc_fire_point_syntax(o->point, err)))
		return rc;
	/* the host's stderr while loading comes first in host_log (R1.11,
	 * R1.12), then what the exchange logs */
	if (pc_manifest_load_report(o->path, o->menv, &f->own_plugin, &rep,
				    &lerr) < 0) {
		pc_strvec_release(&f->x.log);
		f->x.log = loadlog;
		return PC_EMANIFEST;
	}
	f->plugin = f->own_plugin;
	if ((rc = pc_fire_resolve(f->own_plugin, o->point, o->oauth_flow,
				  &f->pt, err))) {
		pc_strvec_release(&loadlog);
		return rc;
	}
	pc_exchange_release(&f->x);
	rc = pc_fire_exchange(&f->host, f->own_plugin, &f->pt, &o->in, f, err);
	later = f->x.log;
	for (size_t i = 0; i < later.nr; i++)
		pc_strvec_push(&loadlog, later.v[i]);
	pc_strvec_release(&later);
	f->x.log = loadlog;
	return rc;
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
	if (f->own_host)
		pc_host_release(&f->host);
	pc_fire_point_release(&f->pt);
	pc_plugin_free(f->own_plugin);
	free(f->host_error);
	free(f->point);
	free(f->path);
	free(f->in_args);
	free(f->in_result);
	free(f->in_tool);
	*f = (struct pc_fire)PC_FIRE_INIT;
}

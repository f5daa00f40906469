/* pc_oauth.c - one OAuth action as the host runs it (spec §8). */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_host.h"
#include "pc_host_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static const char *str_or(const cJSON *v, const char *def)
{
	return cJSON_IsString(v) ? v->valuestring : def;
}

/* likely_headless (R8.5) over the emulated host's environment. */
static bool headless(const struct pc_host *h)
{
	static const char *const vars[] = { "CATALYST_CODE_NO_BROWSER",
					    "NO_BROWSER" };
	const char *d, *w;

	for (size_t i = 0; i < 2; i++) {
		const char *v = pc_host_env_var(h, vars[i]);
		char low[16] = { 0 };
		size_t start, n;

		if (!v)
			continue;
		n = pc_rust_trim(v, strlen(v), &start);
		for (size_t k = 0; k < n && k < sizeof(low) - 1; k++)
			low[k] = (char)tolower((unsigned char)v[start + k]);
		if (n >= sizeof(low))
			return true;
		return !(!*low || !strcmp(low, "0") || !strcmp(low, "false") ||
			 !strcmp(low, "no") || !strcmp(low, "off"));
	}
	if (pc_host_env_var(h, "SSH_CONNECTION") || pc_host_env_var(h, "SSH_TTY"))
		return true;
	d = pc_host_env_var(h, "DISPLAY");
	w = pc_host_env_var(h, "WAYLAND_DISPLAY");
	return (!d || !*d) && (!w || !*w);
}

bool pc_host_oauth_headless(const struct pc_host *h)
{
	return headless(h);
}

/* bind_loopback(0): a real ephemeral port, held for the call. */
static int bind_loopback(int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 4) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

static char *flow_of(const cJSON *resp)
{
	const char *f = str_or(pc_serde_get(resp, "flow"), "");
	size_t start, n = pc_rust_trim(f, strlen(f), &start);
	char *s = pc_xmemdup(f + start, n);

	for (char *c = s; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}

static bool ok_is_false(const cJSON *resp)
{
	return cJSON_IsFalse(pc_serde_get(resp, "ok"));
}

/* oauth_login's handling of the login response, for one firing. */
static void judge_login(struct pc_oauth_result *r, bool is_headless,
			struct pc_exchange *x)
{
	const cJSON *v = r->response;
	char *flow = flow_of(v);
	const cJSON *url = pc_serde_get(v, "url");
	cJSON *ev;

	if (ok_is_false(v)) {
		r->message = pc_xasprintf("OAuth login failed: %s",
					  str_or(pc_serde_get(v, "error"),
						 "unknown error"));
		goto out;
	}
	if (!strcmp(flow, "already_authenticated") ||
	    !strcmp(flow, "already-authenticated") ||
	    !strcmp(flow, "existing") || !strcmp(flow, "authenticated")) {
		r->ok = true;
		r->flow = pc_xstrdup("existing");
		goto out;
	}
	if (!cJSON_IsString(url)) {
		r->message = pc_xstrdup("login script did not return a url");
		goto out;
	}
	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "type", "oauth_prompt");
	cJSON_AddStringToObject(ev, "url", url->valuestring);
	if (cJSON_IsString(pc_serde_get(v, "code")))
		cJSON_AddStringToObject(ev, "code",
					pc_serde_get(v, "code")->valuestring);
	else
		cJSON_AddNullToObject(ev, "code");
	cJSON_AddStringToObject(
		ev, "message",
		str_or(pc_serde_get(v, "message"),
		       is_headless ? "Open the URL, approve, then paste the code via /oauth-code."
				   : "Open the URL to log in."));
	pc_strvec_push_nodup(&x->events, pc_serde_to_string(ev));
	cJSON_Delete(ev);
	r->ok = true;
	if (cJSON_IsTrue(pc_serde_get(v, "auto_complete")) ||
	    !strcmp(flow, "poll") || !strcmp(flow, "auto") ||
	    !strcmp(flow, "device_code") || !strcmp(flow, "device-code"))
		r->flow = pc_xstrdup("auto");
	else if (is_headless)
		r->flow = pc_xstrdup("headless");
	else if (!strcmp(flow, "manual"))
		r->flow = pc_xstrdup("manual");
	else
		r->flow = pc_xstrdup("web");
out:
	free(flow);
}

static void judge_action(struct pc_oauth_result *r, const char *action,
			 const struct pc_plugin *p, bool is_headless,
			 struct pc_exchange *x)
{
	const cJSON *v = r->response;
	const cJSON *tok = pc_serde_get(v, "access_token");

	if (!strcmp(action, "login")) {
		judge_login(r, is_headless, x);
	} else if (!strcmp(action, "complete")) {
		r->ok = cJSON_IsTrue(pc_serde_get(v, "ok"));
		if (!r->ok)
			r->message = pc_xasprintf("OAuth complete failed: %s",
						  str_or(pc_serde_get(v, "error"),
							 "unknown error"));
	} else if (!strcmp(action, "token")) {
		r->ok = cJSON_IsString(tok) && *tok->valuestring;
		if (!r->ok) {
			r->message = pc_xasprintf("[plugins] oauth token script for '%s' returned no access_token (re-login may be required)",
						  p->oauth->provider_id);
			pc_strvec_push(&x->log, r->message);
		}
	} else {
		r->ok = true; /* clear: the result is ignored (R8.10) */
	}
}

static const char *script_for(const struct pc_oauth_cfg *o, const char *action)
{
	if (!strcmp(action, "login") && o->login_script)
		return o->login_script;
	if (!strcmp(action, "complete") && o->complete_script)
		return o->complete_script;
	if (!strcmp(action, "token") && o->token_script)
		return o->token_script;
	return o->script;
}

/* After the run: the runner's own failures (R8.3), then the action's
 * interpretation. */
static void judge(struct pc_oauth_result *r, const char *action,
		  const struct pc_plugin *p, bool is_headless,
		  uint64_t timeout_ms, const char *script,
		  struct pc_exchange *x)
{
	struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_err perr = PC_ERR_INIT;

	if (x->proc.outcome == PC_PROC_STDIN_TIMEOUT) {
		r->outcome = PC_OUT_TIMEOUT;
		r->message = pc_xasprintf("oauth script did not consume stdin within %llums",
					  (unsigned long long)(timeout_ms > 1000 ? timeout_ms : 1000));
	} else if (x->proc.outcome == PC_PROC_SPAWN_ERROR) {
		/* not wrapped in "wait error": the spawn fails before the wait */
		pc__host_verdict(x, script, "oauth script", &e);
		r->outcome = PC_OUT_SPAWN_ERROR;
		r->message = pc_buf_detach(&e, NULL);
	} else {
		r->outcome = pc__host_judge(x, script, "oauth script",
					    "oauth script", timeout_ms,
					    &r->message, &out);
	}
	if (!r->message && pc_serde_parse(pc_buf_cstr(&out), out.len,
					  &r->response, &perr) < 0) {
		r->outcome = PC_OUT_INVALID_JSON;
		r->message = pc_xasprintf("oauth script returned invalid JSON: %s",
					  perr.msg);
	}
	pc_buf_release(&out);
	pc_buf_release(&e);
	if (!r->message) {
		judge_action(r, action, p, is_headless, x);
	} else if (!strcmp(action, "token")) {
		char *m = pc_xasprintf("[plugins] oauth token script for '%s' failed: %s",
				       p->oauth->provider_id, r->message);

		free(r->message);
		r->message = m;
		pc_strvec_push(&x->log, m);
	}
}

static void base_ctx(struct pc_host *h, const struct pc_plugin *p,
		     const char *action, const cJSON *extra, bool is_headless,
		     int port, struct pc_buf *out)
{
	cJSON *ctx = cJSON_CreateObject();
	const cJSON *kv;

	cJSON_AddStringToObject(ctx, "action", action);
	cJSON_AddStringToObject(ctx, "provider_id", p->oauth->provider_id);
	cJSON_AddStringToObject(ctx, "token_path", p->oauth->token_path);
	cJSON_AddStringToObject(ctx, "workspace", h->workspace);
	cJSON_AddItemToObject(ctx, "timestamp",
			      pc_serde_number_u64(pc__host_now(h)));
	if (!strcmp(action, "login") && !extra) {
		cJSON_AddBoolToObject(ctx, "headless", is_headless);
		if (!is_headless) {
			char *uri = pc_xasprintf("http://localhost:%d/callback",
						 port);

			cJSON_AddStringToObject(ctx, "redirect_uri", uri);
			free(uri);
		}
	}
	if (!strcmp(action, "complete") && !pc_serde_get(extra, "code"))
		cJSON_AddStringToObject(ctx, "code", "");
	cJSON_ArrayForEach(kv, extra)
	{
		cJSON_DeleteItemFromObjectCaseSensitive(ctx, kv->string);
		cJSON_AddItemToObject(ctx, kv->string, cJSON_Duplicate(kv, 1));
	}
	pc_serde_print(ctx, out);
	cJSON_Delete(ctx);
}

int pc_host_run_oauth(struct pc_host *h, const struct pc_plugin *p,
		      const char *action, const cJSON *extra,
		      struct pc_oauth_result *r, struct pc_exchange *x,
		      struct pc_err *err)
{
	struct pc_strvec env = PC_STRVEC_INIT;
	const struct pc_oauth_cfg *o = p->oauth;
	const char *script;
	uint64_t timeout;
	bool is_headless = headless(h);
	int port = 0, sock = -1, rc;

	memset(r, 0, sizeof(*r));
	if (!o)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' declares no oauth provider", p->name);
	script = script_for(o, action);
	if (!script)
		return pc_err_set(err, PC_EINVAL,
				  "'%s' has no %s script", o->provider_id, action);
	timeout = (!strcmp(action, "login") || !strcmp(action, "complete"))
			  ? o->login_timeout_ms
			  : o->token_timeout_ms;
	if (!strcmp(action, "login") && !extra && !is_headless &&
	    (sock = bind_loopback(&port)) < 0)
		return pc_rust_err_io(err, PC_EIO, errno,
				      "could not bind localhost OAuth callback");
	base_ctx(h, p, action, extra, is_headless, port, &x->stdin_json);
	for (size_t i = 0; i < o->env_passthrough.nr; i++) {
		const char *v = pc_host_env_var(h, o->env_passthrough.v[i]);

		if (v)
			pc_strvec_pushf(&env, "%s=%s", o->env_passthrough.v[i], v);
	}
	rc = 0;
	if (x->stdin_json.len > PC_MAX_IO_BYTES) {
		pc__host_argv(h, script, &x->argv);
		r->outcome = PC_OUT_INPUT_TOO_LARGE;
		r->message = pc_xstrdup("oauth script input exceeds the 1048576 byte limit");
	} else if (!(rc = pc__host_run(h, p, script, timeout, &env, x, err))) {
		judge(r, action, p, is_headless, timeout, script, x);
	}
	if (!rc && !strcmp(action, "login") && r->message) {
		char *m = pc_xasprintf("OAuth login failed: %s", r->message);

		free(r->message);
		r->message = m;
	}
	if (!r->message)
		r->message = pc_xstrdup("");
	if (sock >= 0)
		close(sock);
	pc_strvec_release(&env);
	return rc;
}

void pc_oauth_result_release(struct pc_oauth_result *r)
{
	free(r->message);
	cJSON_Delete(r->response);
	free(r->flow);
	memset(r, 0, sizeof(*r));
}

/* pc_suite_provider.c - the memory round trip and the OAuth actions. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_lint.h"
#include "pc_mock.h"
#include "pc_mock_http.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

#define NONCE "plugcheck-probe-7f3a9c"

struct mem_step {
	const char *action;
	const char *args;
};

/* One memory action into `f`, as a case left open for the caller's
 * findings (mem_done ends it). Returns the case, or PC_REPORT_NO_CASE when
 * the action was skipped. */
static size_t mem_fire(struct pc__suite *s, const char *action,
		       const char *args_text, struct pc_fire *f, bool judge)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { .args = args_text };
	char *label = pc_xasprintf("%s %s", action, args_text), *point;
	size_t c;

	if (s->mem_timeout) {
		/* A provider that never answers would cost a full timeout per
		 * action (nine of them); one is enough to know. */
		char *why = pc_xasprintf("skipped: the provider timed out on '%s'",
					 s->mem_timeout);

		f->kind = PC_FIRE_MEMORY;
		f->mem.outcome = PC_OUT_TIMEOUT;
		f->mem.output = pc_xstrdup(why);
		f->mem.injection = pc_xstrdup("");
		f->mem.id = pc_xstrdup("");
		f->mem.entries = cJSON_CreateArray();
		pc__suite_skip(s, "plugcheck.memory", label, why);
		free(why);
		free(label);
		return PC_REPORT_NO_CASE;
	}
	point = pc_xasprintf("memory:%s", action);
	pc_fire_resolve(s->p, point, false, &pt, NULL);
	free(point);
	pc__suite_progress(s, "memory %s", action);
	c = pc__suite_begin(s, "plugcheck.memory", label);
	pc__suite_fire(s, &pt, &in, NULL, f);
	if (judge && !f->mem.ok)
		pc__suite_find(s, c, "PC-MEM-001", "memory_provider",
			       "action '%s' failed: %s", action, f->mem.output);
	if (f->x.proc.leftover_processes > 0)
		pc__suite_find(s, c, "PC-PROC-001", "memory_provider",
			       "%d process(es) still running after '%s'",
			       f->x.proc.leftover_processes, action);
	pc__suite_sandbox(s, c, "memory_provider", &f->x);
	if (f->mem.outcome == PC_OUT_TIMEOUT && !s->mem_timeout)
		s->mem_timeout = pc_xstrdup(action);
	pc_fire_point_release(&pt);
	free(label);
	return c;
}

/* End memory case `c` (if any) and release `f`. */
static void mem_done(struct pc__suite *s, size_t c, struct pc_fire *f)
{
	if (c != PC_REPORT_NO_CASE)
		pc__suite_end(s, c, f);
	pc_fire_release(f);
}

/* A finding about what memory case `c` showed. */
static void mem_find(struct pc__suite *s, size_t c, const char *msg)
{
	if (c != PC_REPORT_NO_CASE)
		pc__suite_find(s, c, "PC-MEM-003", "memory_provider", "%s", msg);
}

static bool entries_have(const struct pc_memory_result *r, const char *needle)
{
	char *e = pc_serde_to_string(r->entries);
	bool found = strstr(e, needle) != NULL;

	free(e);
	return found;
}

/* R9.3: save -> list -> inject -> forget -> list, separate processes. */
static bool round_trip(struct pc__suite *s)
{
	struct pc_fire f = PC_FIRE_INIT;
	const struct pc_memory_result *r = &f.mem;
	char *args, *id, *msg;
	size_t c;
	bool ok;

	c = mem_fire(s, "save",
		     "{\"content\":\"" NONCE " remembers the answer 42\",\"description\":\"\",\"name\":\"" NONCE " remembers the [1700000000]\",\"scope\":\"workspace\",\"type\":\"note\"}",
		     &f, true);
	ok = r->ok;
	id = pc_xstrdup(r->id);
	if (r->ok && !*r->id)
		mem_find(s, c, "save answered without an id: the host then reports memory_saved with an empty id and /forget has nothing to name");
	mem_done(s, c, &f);
	c = mem_fire(s, "list", "{}", &f, true);
	ok = ok && r->ok;
	if (r->ok && ok && !entries_have(r, NONCE))
		mem_find(s, c, "list after save does not show the saved content");
	mem_done(s, c, &f);
	c = mem_fire(s, "inject", "{}", &f, true);
	ok = ok && r->ok;
	if (r->ok && ok && !strstr(r->injection, NONCE))
		mem_find(s, c, "inject after save does not include the saved content");
	mem_done(s, c, &f);
	args = pc_xasprintf("{\"id\":\"%s\"}", id);
	c = mem_fire(s, "forget", args, &f, true);
	free(args);
	mem_done(s, c, &f);
	c = mem_fire(s, "list", "{}", &f, true);
	msg = pc_xasprintf("list after forget '%s' still shows the saved content", id);
	if (r->ok && ok && entries_have(r, NONCE))
		mem_find(s, c, msg);
	free(msg);
	mem_done(s, c, &f);
	c = mem_fire(s, "compact_append",
		     "{\"cap_bytes\":16384,\"content\":\"- " NONCE " fact\",\"description\":\"auto-extracted durable facts (accumulated on compaction)\",\"name\":\"session-extract\",\"type\":\"session\"}",
		     &f, true);
	mem_done(s, c, &f);
	free(id);
	return ok;
}

void pc__suite_memory(struct pc__suite *s)
{
	static const char *const documented[] = { "standing_prompt", "write",
						  "search" };
	struct pc_fire f = PC_FIRE_INIT;
	bool any = false;

	if (!s->p->memory)
		return;
	pc__suite_fresh_dirs(s);
	if (round_trip(s) || pc__suite_stopped(s))
		return;
	for (size_t i = 0; i < 3 && !pc__suite_stopped(s); i++) {
		size_t c = mem_fire(s, documented[i], "{}", &f, false);

		any = any || f.mem.ok;
		if (i == 2 && any && c != PC_REPORT_NO_CASE)
			pc__suite_find(s, c, "PC-MEM-002", "memory_provider",
				       "standing_prompt/write/search succeed while the actions the host sends fail");
		mem_done(s, c, &f);
	}
}

static void oauth_fire(struct pc__suite *s, const char *action,
		       const char *extra)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { .args = extra };
	struct pc_fire f = PC_FIRE_INIT;
	char *where = pc_xasprintf("oauth %s", action);
	char *point = pc_xasprintf("oauth:%s", action);
	size_t c;

	pc_fire_resolve(s->p, point, false, &pt, NULL);
	pc__suite_progress(s, "oauth %s", action);
	c = pc__suite_begin(s, "plugcheck.oauth", action);
	pc__suite_fire(s, &pt, &in, NULL, &f);
	if (f.oauth.outcome != PC_OUT_OK)
		pc__suite_find(s, c, f.oauth.outcome == PC_OUT_OUTPUT_TOO_LARGE
					     ? "PC-IO-001"
					     : "PC-OAUTH-001",
			       where, "%s",
			       f.oauth.message ? f.oauth.message : "");
	else if (!strcmp(action, "login") && !f.oauth.ok && f.oauth.message &&
		 strstr(f.oauth.message, "did not return a url"))
		pc__suite_find(s, c, "PC-OAUTH-002", where, "%s",
			       f.oauth.message);
	if (f.x.proc.leftover_processes > 0)
		pc__suite_find(s, c, "PC-PROC-001", where,
			       "%d process(es) still running after the answer",
			       f.x.proc.leftover_processes);
	pc__suite_sandbox(s, c, where, &f.x);
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	pc_fire_point_release(&pt);
	free(where);
	free(point);
}

/* ---- the token race (issue 17; R8.8, R8.11) ----
 *
 * The host runs `token` for every caller that finds its cached token
 * stale (resolve_oauth_creds releases the cache lock before the script
 * runs and keeps no in-flight record; turns, model discovery, /usage and
 * status all call it), so two can run at once. A script that spends a
 * single-use refresh token without a lock loses the login then. The
 * probe logs the plugin in against plugcheck's mock authorization server
 * (single-use refresh tokens with reuse detection, access tokens that
 * expire at once), fires `token` alone, then RACE_RUNS of them at once
 * (the server holds their refresh grants until all arrived, so start-up
 * jitter cannot hide the race), then once more - the next request. */

#define RACE_RUNS    2
#define RACE_HOLD_MS 2000u
#define MOCK_CODE    "mock-auth-code" /* what the mock's authorize issues */

/* env_passthrough names that look like a server address: the probe
 * points them at the mock authorization server. */
static bool url_name(const char *n)
{
	static const char *const parts[] = { "URL",	 "URI",	   "BASE",
					     "ENDPOINT", "ISSUER", "SERVER",
					     "HOST" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		for (const char *p = n; *p; p++)
			if (!strncasecmp(p, parts[i], strlen(parts[i])))
				return true;
	return false;
}

/* Fire OAuth point `point` into *f with args text `args` (may be NULL). */
static void race_fire(struct pc__suite *s, const char *point, bool flow,
		      const char *args, const char *state_file,
		      struct pc_fire *f)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { .args = args,
				    .state_file = state_file,
				    .wait_ms = 1000 };

	pc_fire_resolve(s->p, point, flow, &pt, NULL);
	pc__suite_fire(s, &pt, &in, NULL, f);
	pc_fire_point_release(&pt);
}

/* /login as the host runs it headless, and /oauth-code with the mock's
 * code when the flow waits for one. NULL when logged in, else why not. */
static char *race_login(struct pc__suite *s)
{
	char *state = pc_fs_join(s->tmp, "oauth-pending.json"), *why = NULL;
	struct pc_fire f = PC_FIRE_INIT;

	race_fire(s, "oauth:login", true, NULL, state, &f);
	if (f.login.state == PC_OAUTH_LOGIN_AWAITING) {
		pc_fire_release(&f);
		f = (struct pc_fire)PC_FIRE_INIT;
		race_fire(s, "oauth:code", false,
			  "{\"code\":\"" MOCK_CODE "\"}", state, &f);
	}
	if (f.login.state != PC_OAUTH_LOGIN_DONE)
		why = pc_xasprintf(
			"the login against plugcheck's mock authorization server did not finish (%s)",
			f.login.message && *f.login.message ? f.login.message
							    : "no answer");
	else if (!pc_fs_is_file(s->p->oauth->token_path))
		why = pc_xstrdup("the login wrote no token file at token_path");
	pc_fire_release(&f);
	free(state);
	return why;
}

/* The host's text for a token run that gave no credentials. */
static const char *race_message(const struct pc_fire_summary *r)
{
	const cJSON *m = pc_serde_get(r->json, "message");

	if (!r->json)
		return "plugcheck lost the run";
	return cJSON_IsString(m) && *m->valuestring ? m->valuestring
						    : "no access_token";
}

/* The spent refresh tokens that were presented again since grant
 * `from` of log `rl`, as "mock-refresh-1, ..."; *n counts them. */
static char *reused(const cJSON *rl, int from, int *n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	*n = 0;
	for (int i = from; i < cJSON_GetArraySize(rl); i++) {
		const cJSON *g = cJSON_GetArrayItem(rl, i);

		if (strcmp(pc_serde_get(g, "result")->valuestring, "reused"))
			continue;
		pc_buf_addf(&b, "%s%s", (*n)++ ? ", " : "",
			    pc_serde_get(g, "refresh_token")->valuestring);
	}
	return pc_buf_detach(&b, NULL);
}

/* The plugin-relative path of the (canonical) script `abs`. New. */
static char *rel_script(const struct pc__suite *s, const char *abs)
{
	size_t n = strlen(s->p->source_path);

	if (!strncmp(abs, s->p->source_path, n) && abs[n] == '/')
		return pc_xstrdup(abs + n + 1);
	return pc_xstrdup(abs);
}

/* The finding, from the runs at once and the run after them. */
static void race_judge(struct pc__suite *s, size_t c, const cJSON *rl, int from,
		       const struct pc_fire_summary *runs,
		       const struct pc_fire *next)
{
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_loc at;
	struct pc_finding *f;
	char *tokens;
	int nreused, failed = 0;
	const char *first = NULL;

	for (int i = 0; i < RACE_RUNS; i++)
		if (!runs[i].passed) {
			failed++;
			first = first ? first : race_message(&runs[i]);
		}
	tokens = reused(rl, from, &nreused);
	if (!nreused && !failed && next->oauth.ok)
		goto out;
	pc_buf_addf(
		&msg,
		"%d token actions at once (the host runs one for each caller whose cached token is stale, and nothing serialises them)",
		RACE_RUNS);
	if (nreused)
		pc_buf_addf(
			&msg,
			" doubled a rotation: both read the same single-use refresh token, %s was spent by one and presented again by another, so the authorization server refused it and revoked the login (reuse detection)",
			tokens);
	if (failed)
		pc_buf_addf(&msg, "; %d of %d failed: %s", failed, RACE_RUNS,
			    first);
	if (!next->oauth.ok)
		pc_buf_addf(
			&msg,
			"; the login is lost: the next token action failed too (%s), the user has to log in again",
			next->oauth.message && *next->oauth.message
				? next->oauth.message
				: "no access_token");
	f = pc__suite_find(s, c, "PC-OAUTH-010", "oauth token", "%s",
			   pc_buf_cstr(&msg));
	if (f && pc_lint_token_script(s->p->oauth->token_script
					      ? s->p->oauth->token_script
					      : s->p->oauth->script,
				      &at)) {
		f->line = at.line;
		f->column = at.column;
		free(f->file);
		f->file = rel_script(s, s->p->oauth->token_script
						? s->p->oauth->token_script
						: s->p->oauth->script);
	}
out:
	free(tokens);
	pc_buf_release(&msg);
}

/* The burst and the run after it, against a logged-in plugin. */
static void race_runs(struct pc__suite *s, size_t c, struct pc_mock_http *srv,
		      const struct pc_fire *alone)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { 0 };
	struct pc_fire_summary runs[RACE_RUNS];
	struct pc_fire next = PC_FIRE_INIT;
	struct pc_host h;
	cJSON *rl = pc_mock_http_refreshes(srv);
	int from = cJSON_GetArraySize(rl);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *v, *g;

	cJSON_Delete(rl);
	pc_fire_resolve(s->p, "oauth:token", false, &pt, NULL);
	pc_mock_http_rendezvous(srv, RACE_RUNS, RACE_HOLD_MS);
	pc__suite_host(s, &h);
	pc_fire_burst(&h, s->p, &pt, &in, RACE_RUNS,
		      (int64_t)s->p->oauth->token_timeout_ms + RACE_HOLD_MS +
			      10000,
		      runs, NULL);
	pc_host_release(&h);
	pc_mock_http_rendezvous(srv, 0, 0);
	pc__suite_fire(s, &pt, &in, NULL, &next);
	rl = pc_mock_http_refreshes(srv);
	race_judge(s, c, rl, from, runs, &next);
	v = pc_fire_verdict(alone);
	pc_buf_addf(&out, "token alone: %s\n", v);
	free(v);
	for (int i = 0; i < RACE_RUNS; i++) {
		pc_buf_addf(&out, "\ntoken at once (%d of %d):\n%s", i + 1,
			    RACE_RUNS,
			    runs[i].text ? runs[i].text : "(lost)\n");
		pc_fire_summary_release(&runs[i]);
	}
	v = pc_fire_verdict(&next);
	g = pc_serde_to_string(rl);
	pc_buf_addf(
		&out,
		"\ntoken after them: %s\nrefresh grants at the mock authorization server: %s\n",
		v, g);
	free(v);
	free(g);
	pc__suite_end_text(s, c, pc_buf_cstr(&out));
	cJSON_Delete(rl);
	pc_buf_release(&out);
	pc_fire_release(&next);
	pc_fire_point_release(&pt);
}

static void token_race(struct pc__suite *s)
{
	struct pc_oauth_cfg *o = s->p->oauth;
	struct pc_mock_http_opts mo = PC_MOCK_HTTP_OPTS_INIT;
	struct pc_mock *m = NULL;
	struct pc_mock_http *srv = NULL;
	struct pc_fire alone = PC_FIRE_INIT;
	bool fired = false;
	size_t env_nr = s->env.nr, c;
	const char *name = "token at once (refresh-token rotation)";
	char *why = NULL;
	bool any = false;
	cJSON *rl;

	if (!(o->script || o->login_script) ||
	    !(o->script || o->complete_script) || pc__suite_stopped(s))
		return;
	for (size_t i = 0; i < o->env_passthrough.nr; i++)
		any = any || url_name(o->env_passthrough.v[i]);
	if (!any)
		return; /* nothing plugcheck can point at its server */
	pc__suite_fresh_dirs(s);
	pc__suite_progress(s, "oauth token at once");
	c = pc__suite_begin(s, "plugcheck.oauth", name);
	mo.single_use_refresh = true;
	mo.expire_at_once = true;
	if (pc_mock_new_text("{}", 2, &m, NULL) < 0 ||
	    pc_mock_http_start(m, &mo, &srv, NULL) < 0) {
		pc_report_skip(
			s->r, c,
			"plugcheck could not start its mock authorization server");
		pc__suite_end(s, c, NULL);
		goto out;
	}
	for (size_t i = 0; i < o->env_passthrough.nr; i++)
		if (url_name(o->env_passthrough.v[i]))
			pc_strvec_pushf(&s->env, "%s=http://127.0.0.1:%u",
					o->env_passthrough.v[i],
					pc_mock_http_port(srv));
	pc_strvec_push(&s->env, "CATALYST_CODE_NO_BROWSER=1");
	if (!(why = race_login(s))) {
		race_fire(s, "oauth:token", false, NULL, NULL, &alone);
		fired = true;
		rl = pc_mock_http_refreshes(srv);
		if (!alone.oauth.ok)
			why = pc_xasprintf(
				"token fails alone after the login (%s)",
				alone.oauth.message);
		else if (cJSON_GetArraySize(rl) == 0)
			why = pc_xstrdup(
				"token did not refresh (nothing to race)");
		cJSON_Delete(rl);
	}
	if (why) {
		char *t = pc_xasprintf("not tried: %s", why);

		pc_report_skip(s->r, c, t);
		free(t);
		pc__suite_end(s, c, fired ? &alone : NULL);
	} else {
		race_runs(s, c, srv, &alone);
	}
out:
	while (s->env.nr > env_nr)
		free(s->env.v[--s->env.nr]);
	s->env.v[s->env.nr] = NULL;
	pc_mock_http_stop(srv);
	pc_mock_free(m);
	pc_fire_release(&alone);
	free(why);
}

void pc__suite_oauth(struct pc__suite *s)
{
	struct pc_oauth_cfg *o = s->p->oauth;
	uint64_t saved;

	if (!o)
		return;
	pc__suite_fresh_dirs(s);
	saved = o->login_timeout_ms;
	if (o->login_timeout_ms > PC_SUITE_OAUTH_CAP_MS)
		o->login_timeout_ms = PC_SUITE_OAUTH_CAP_MS;
	oauth_fire(s, "token", NULL);
	if ((o->script || o->login_script) && !pc__suite_stopped(s))
		oauth_fire(s, "login", NULL);
	if ((o->script || o->complete_script) && !pc__suite_stopped(s))
		oauth_fire(s, "complete", "{\"code\":\"plugcheck-invalid-code\"}");
	if (o->script && !pc__suite_stopped(s))
		oauth_fire(s, "clear", NULL);
	token_race(s);
	o->login_timeout_ms = saved;
}

/* test_mock_http.c - the mock model's HTTP server through a real client
 * (libcurl), SSE parsing included, and an OAuth round trip through the
 * reference host (spec catalyst-code.md §8). All traffic goes to
 * 127.0.0.1; every transfer has a 10 s timeout. */
#include <curl/curl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_mock.h"
#include "pc_mock_http.h"
#include "pc_oauth_cache.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

struct fx {
	struct pc_mock *m;
	struct pc_mock_http *s;
};

struct resp {
	long status;
	struct pc_buf body;
	struct pc_buf headers;
};

static size_t sink(char *p, size_t size, size_t n, void *cls)
{
	return pc_buf_add(cls, p, size * n) == 0 ? size * n : 0;
}

/* http - one request to the server; `hdrs` is NULL-terminated
 * "Name: value" lines. */
static void http(const struct fx *f, const char *method, const char *path,
		 const char *body, const char *const *hdrs, struct resp *r)
{
	CURL *c = curl_easy_init();
	struct curl_slist *l = NULL;
	char *url = pc_xasprintf("http://127.0.0.1:%u%s",
				 pc_mock_http_port(f->s), path);

	assert_non_null(c);
	pc_buf_init(&r->body, PC_BUF_NOCAP);
	pc_buf_init(&r->headers, PC_BUF_NOCAP);
	for (; hdrs && *hdrs; hdrs++)
		l = curl_slist_append(l, *hdrs);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROXY, "");
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	if (body)
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, l);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &r->body);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, sink);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &r->headers);
	assert_int_equal(curl_easy_perform(c), CURLE_OK);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_slist_free_all(l);
	curl_easy_cleanup(c);
	free(url);
}

static void resp_release(struct resp *r)
{
	pc_buf_release(&r->body);
	pc_buf_release(&r->headers);
}

static cJSON *json_of(const struct resp *r)
{
	cJSON *v = NULL;

	assert_int_equal(pc_serde_parse(r->body.data, r->body.len, &v, NULL),
			 0);
	return v;
}

static const char *str_at(const cJSON *v, const char *k1, const char *k2)
{
	const cJSON *x = pc_serde_get(pc_serde_get(v, k1), k2);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

static void serve(struct fx *f, const char *script,
		  const struct pc_mock_http_opts *o)
{
	struct pc_mock_http_opts def = PC_MOCK_HTTP_OPTS_INIT;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_mock_new_text(script, strlen(script), &f->m, &err),
			 0);
	assert_int_equal(pc_mock_http_start(f->m, o ? o : &def, &f->s, &err),
			 0);
	assert_true(pc_mock_http_port(f->s) > 0);
}

static void unserve(struct fx *f)
{
	pc_mock_http_stop(f->s);
	pc_mock_free(f->m);
}

static const char chat_body[] =
	"{\"model\":\"m1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
static const char stream_body[] =
	"{\"model\":\"m1\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

static void models_lists_the_model_id(void **state)
{
	struct fx f;
	struct resp r;
	cJSON *v;

	(void)state;
	serve(&f, "{\"replies\":[]}", NULL);
	http(&f, "GET", "/v1/models", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	v = json_of(&r);
	assert_string_equal(pc_serde_get(v, "object")->valuestring, "list");
	assert_string_equal(
		pc_serde_get(cJSON_GetArrayItem(pc_serde_get(v, "data"), 0),
			     "id")
			->valuestring,
		"plugcheck-mock");
	cJSON_Delete(v);
	resp_release(&r);
	unserve(&f);
}

static void chat_answers_and_records_headers(void **state)
{
	static const char *const hdrs[] = { "X-Test: one",
					    "Content-Type: application/json",
					    NULL };
	struct fx f;
	struct resp r;
	cJSON *v, *log;
	const cJSON *msg, *call, *e;

	(void)state;
	serve(&f,
	      "{\"replies\":[{\"tool_calls\":[{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}]}]}",
	      NULL);
	http(&f, "POST", "/v1/chat/completions", chat_body, hdrs, &r);
	assert_int_equal(r.status, 200);
	v = json_of(&r);
	assert_string_equal(pc_serde_get(v, "object")->valuestring,
			    "chat.completion");
	assert_string_equal(pc_serde_get(v, "model")->valuestring, "m1");
	e = cJSON_GetArrayItem(pc_serde_get(v, "choices"), 0);
	assert_string_equal(pc_serde_get(e, "finish_reason")->valuestring,
			    "tool_calls");
	msg = pc_serde_get(e, "message");
	call = cJSON_GetArrayItem(pc_serde_get(msg, "tool_calls"), 0);
	assert_string_equal(str_at(call, "function", "name"), "bash");
	assert_string_equal(str_at(call, "function", "arguments"),
			    "{\"command\":\"ls\"}");
	cJSON_Delete(v);
	log = pc_mock_http_requests(f.s);
	assert_int_equal(cJSON_GetArraySize(log), 1);
	e = cJSON_GetArrayItem(log, 0);
	assert_string_equal(pc_serde_get(e, "method")->valuestring, "POST");
	assert_string_equal(pc_serde_get(e, "path")->valuestring,
			    "/v1/chat/completions");
	assert_string_equal(str_at(e, "headers", "x-test"), "one");
	assert_string_equal(pc_serde_get(e, "body")->valuestring, chat_body);
	cJSON_Delete(log);
	/* the transcript carries the same facts (pc_mock_record_extra) */
	e = cJSON_GetArrayItem(pc_mock_requests(f.m), 0);
	assert_string_equal(str_at(e, "headers", "x-test"), "one");
	assert_string_equal(pc_serde_get(e, "path")->valuestring,
			    "/v1/chat/completions");
	resp_release(&r);
	unserve(&f);
}

/* sse_parse - the `data:` payloads of an event stream, in order. */
static void sse_parse(const char *text, struct pc_strvec *out)
{
	const char *p = text;

	while (*p) {
		const char *end = strstr(p, "\n\n");

		assert_non_null(end);
		assert_memory_equal(p, "data: ", 6);
		pc_strvec_push_nodup(out,
				     pc_xmemdup(p + 6, (size_t)(end - p - 6)));
		p = end + 2;
	}
}

static void stream_reassembles_content_and_tool_calls(void **state)
{
	struct fx f;
	struct resp r;
	struct pc_strvec ev = PC_STRVEC_INIT;
	struct pc_buf content = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf args = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *finish = NULL;
	char *name = NULL;

	(void)state;
	serve(&f,
	      "{\"replies\":[{\"content\":\"h\\u00e9llo streaming world\",\"chunk_size\":4,"
	      "\"tool_calls\":[{\"name\":\"read_file\",\"arguments\":{\"path\":\"a/b/c.txt\"}}]}]}",
	      NULL);
	http(&f, "POST", "/v1/chat/completions", stream_body, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.headers.data, "text/event-stream"));
	sse_parse(pc_buf_cstr(&r.body), &ev);
	assert_true(ev.nr > 4);
	assert_string_equal(ev.v[ev.nr - 1], "[DONE]");
	for (size_t i = 0; i + 1 < ev.nr; i++) {
		cJSON *v = NULL;
		const cJSON *ch, *d, *tc, *x;

		assert_int_equal(
			pc_serde_parse(ev.v[i], strlen(ev.v[i]), &v, NULL), 0);
		assert_string_equal(pc_serde_get(v, "object")->valuestring,
				    "chat.completion.chunk");
		ch = cJSON_GetArrayItem(pc_serde_get(v, "choices"), 0);
		d = pc_serde_get(ch, "delta");
		x = pc_serde_get(d, "content");
		if (cJSON_IsString(x)) {
			assert_true(strlen(x->valuestring) <= 4);
			pc_buf_adds(&content, x->valuestring);
		}
		tc = cJSON_GetArrayItem(pc_serde_get(d, "tool_calls"), 0);
		if (str_at(tc, "function", "name")) {
			name = pc_xstrdup(str_at(tc, "function", "name"));
			assert_string_equal(pc_serde_get(tc, "id")->valuestring,
					    "call_0_0");
		}
		if (str_at(tc, "function", "arguments"))
			pc_buf_adds(&args, str_at(tc, "function", "arguments"));
		if (cJSON_IsString(pc_serde_get(ch, "finish_reason")))
			finish = i == ev.nr - 2 ? "tool_calls" : "early";
		cJSON_Delete(v);
	}
	assert_string_equal(pc_buf_cstr(&content),
			    "h\xc3\xa9llo streaming world");
	assert_string_equal(name, "read_file");
	assert_string_equal(pc_buf_cstr(&args), "{\"path\":\"a/b/c.txt\"}");
	assert_string_equal(finish, "tool_calls");
	free(name);
	pc_buf_release(&content);
	pc_buf_release(&args);
	pc_strvec_release(&ev);
	resp_release(&r);
	unserve(&f);
}

static void faults_answer_their_status(void **state)
{
	struct fx f;
	struct resp r;
	cJSON *v;
	const cJSON *msg;

	(void)state;
	serve(&f,
	      "{\"replies\":[{\"fault\":\"http_429\"},{\"fault\":\"http_500\"},"
	      "{\"fault\":\"http_503\"},{\"fault\":\"empty\"}]}",
	      NULL);
	http(&f, "POST", "/v1/chat/completions", chat_body, NULL, &r);
	assert_int_equal(r.status, 429);
	assert_non_null(strstr(r.headers.data, "Retry-After: 0"));
	resp_release(&r);
	http(&f, "POST", "/v1/chat/completions", chat_body, NULL, &r);
	assert_int_equal(r.status, 500);
	resp_release(&r);
	http(&f, "POST", "/v1/chat/completions", chat_body, NULL, &r);
	assert_int_equal(r.status, 503);
	v = json_of(&r);
	assert_non_null(str_at(v, "error", "message"));
	cJSON_Delete(v);
	resp_release(&r);
	http(&f, "POST", "/v1/chat/completions", chat_body, NULL, &r);
	assert_int_equal(r.status, 200);
	v = json_of(&r);
	msg = pc_serde_get(cJSON_GetArrayItem(pc_serde_get(v, "choices"), 0),
			   "message");
	assert_true(cJSON_IsNull(pc_serde_get(msg, "content")) ||
		    !strcmp(pc_serde_get(msg, "content")->valuestring, ""));
	assert_null(pc_serde_get(msg, "tool_calls"));
	cJSON_Delete(v);
	resp_release(&r);
	assert_true(pc_mock_consumed(f.m, NULL));
	unserve(&f);
}

static void bad_requests_and_the_budget(void **state)
{
	struct pc_mock_http_opts o = PC_MOCK_HTTP_OPTS_INIT;
	struct fx f;
	struct resp r;

	(void)state;
	o.max_requests = 3;
	serve(&f, "{\"replies\":[]}", &o);
	assert_false(pc_mock_http_wait(f.s, 10));
	http(&f, "POST", "/v1/chat/completions", "{not json", NULL, &r);
	assert_int_equal(r.status, 400);
	resp_release(&r);
	http(&f, "GET", "/nope", NULL, NULL, &r);
	assert_int_equal(r.status, 404);
	resp_release(&r);
	http(&f, "GET", "/v1/chat/completions", NULL, NULL, &r);
	assert_int_equal(r.status, 405);
	resp_release(&r);
	assert_true(pc_mock_http_wait(f.s, 5000));
	http(&f, "GET", "/v1/models", NULL, NULL, &r);
	assert_int_equal(r.status, 503);
	resp_release(&r);
	assert_int_equal(pc_mock_http_count(f.s), 4);
	unserve(&f);
}

static void authorize_redirects_to_loopback_only(void **state)
{
	struct fx f;
	struct resp r;

	(void)state;
	serve(&f, "{\"replies\":[]}", NULL);
	http(&f, "GET",
	     "/oauth/authorize?redirect_uri=http%3A%2F%2Flocalhost%3A5%2Fcallback&state=a%20b",
	     NULL, NULL, &r);
	assert_int_equal(r.status, 302);
	assert_non_null(strstr(
		r.headers.data,
		"Location: http://localhost:5/callback?code=mock-auth-code&state=a%20b"));
	resp_release(&r);
	http(&f, "GET",
	     "/oauth/authorize?redirect_uri=http%3A%2F%2Fevil.example%2F", NULL,
	     NULL, &r);
	assert_int_equal(r.status, 400);
	resp_release(&r);
	unserve(&f);
}

/* The whole OAuth round trip: login (device/poll) -> complete with the
 * pending value forwarded -> token through the host's cache -> a model
 * request with the host's headers -> clear. */
static struct pc_plugin *load_fixture(const char *home)
{
	struct pc_manifest_env env = { .home = home, .codex_home = NULL };
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_manifest_load(FIXTURES_DIR "/plugins/oauth-mock",
					  &env, &p, &err),
			 0);
	return p;
}

static void oauth_action(struct pc_host *h, const struct pc_plugin *p,
			 const char *action, const cJSON *extra,
			 struct pc_oauth_result *r)
{
	struct pc_exchange x;

	pc_exchange_init(&x);
	assert_int_equal(pc_host_run_oauth(h, p, action, extra, r, &x, NULL),
			 0);
	if (!r->ok)
		fail_msg("%s: %s / %s", action, r->message,
			 pc_buf_cstr(&x.proc.err));
	pc_exchange_release(&x);
}

static void request_with(struct fx *f, const struct pc_strvec *hv,
			 struct resp *r)
{
	struct pc_strvec lines = PC_STRVEC_INIT;

	for (size_t i = 0; i + 1 < hv->nr; i += 2)
		pc_strvec_pushf(&lines, "%s: %s", hv->v[i], hv->v[i + 1]);
	http(f, "POST", "/v1/chat/completions", chat_body,
	     (const char *const *)lines.v, r);
	pc_strvec_release(&lines);
}

static void oauth_round_trip_sends_the_exact_header(void **state)
{
	struct pc_mock_http_opts o = PC_MOCK_HTTP_OPTS_INIT;
	struct pc_oauth_cache cache = PC_OAUTH_CACHE_INIT;
	const struct pc_oauth_creds *cr;
	struct pc_oauth_result lr, cr_res;
	struct pc_strvec env = PC_STRVEC_INIT, hv = PC_STRVEC_INIT;
	struct pc_host h = PC_HOST_INIT;
	struct pc_exchange x;
	struct pc_plugin *p;
	struct fx f;
	struct resp r;
	cJSON *extra, *log;
	const cJSON *e;
	char *home = pc_fs_mkdtemp("mockhttp");

	(void)state;
	o.require_auth = true;
	o.device_pending_polls = 2;
	serve(&f, "{\"replies\":[{\"content\":\"authorized\"}]}", &o);
	pc_strvec_pushf(&env, "PATH=%s", getenv("PATH"));
	pc_strvec_pushf(&env, "HOME=%s", home);
	pc_strvec_push(&env, "CATALYST_CODE_NO_BROWSER=1");
	pc_strvec_pushf(&env, "MOCK_OAUTH_BASE_URL=http://127.0.0.1:%u",
			pc_mock_http_port(f.s));
	pc_host_init(&h, env.v, home, "");
	h.timestamp = 1700000000;
	p = load_fixture(home);

	oauth_action(&h, p, "login", NULL, &lr);
	assert_string_equal(lr.flow, "auto");
	extra = cJSON_CreateObject();
	cJSON_AddStringToObject(extra, "code", "");
	cJSON_AddItemToObject(
		extra, "pending",
		cJSON_Duplicate(pc_serde_get(lr.response, "pending"), 1));
	oauth_action(&h, p, "complete", extra, &cr_res);
	pc_oauth_cache_invalidate(&cache, "mockprov"); /* R8.6 */

	pc_exchange_init(&x);
	assert_int_equal(pc_oauth_cache_resolve(&cache, &h, p, &x, &cr, NULL),
			 0);
	assert_true(x.spawned);
	assert_non_null(cr);
	assert_string_equal(cr->token, "mock-access-1");
	assert_int_equal(cr->expires_at, 1700000000 + 3600);
	pc_exchange_release(&x);
	pc_exchange_init(&x); /* a cache hit: no second spawn */
	assert_int_equal(pc_oauth_cache_resolve(&cache, &h, p, &x, &cr, NULL),
			 0);
	assert_false(x.spawned);
	pc_exchange_release(&x);

	pc_oauth_request_headers(p->oauth, cr, &hv);
	request_with(&f, &hv, &r);
	assert_int_equal(r.status, 200);
	resp_release(&r);
	log = pc_mock_http_requests(f.s);
	/* device, 3 token polls (2 pending), the chat request */
	assert_int_equal(cJSON_GetArraySize(log), 5);
	e = cJSON_GetArrayItem(log, 4);
	assert_string_equal(str_at(e, "headers", "authorization"),
			    "Bearer mock-access-1");
	assert_string_equal(str_at(e, "headers", "x-org"), "plugin-org");
	assert_string_equal(str_at(e, "headers", "x-static"), "static-1");
	assert_string_equal(str_at(e, "headers", "x-mock-plugin"),
			    "oauth-mock");
	cJSON_Delete(log);

	/* clear (R8.10): the host deletes token_path, runs clear, drops the
	 * cache entry; the next resolve runs token again and gets nothing */
	unlink(p->oauth->token_path);
	pc_oauth_result_release(&cr_res);
	oauth_action(&h, p, "clear", NULL, &cr_res);
	pc_oauth_cache_invalidate(&cache, "mockprov");
	pc_exchange_init(&x);
	assert_int_equal(pc_oauth_cache_resolve(&cache, &h, p, &x, &cr, NULL),
			 0);
	assert_true(x.spawned);
	assert_null(cr);
	assert_int_equal(x.log.nr, 1);
	assert_string_equal(
		x.log.v[0],
		"[plugins] oauth token script for 'mockprov' returned no access_token (re-login may be required)");
	pc_exchange_release(&x);

	cJSON_Delete(extra);
	pc_oauth_result_release(&lr);
	pc_oauth_result_release(&cr_res);
	pc_oauth_cache_release(&cache);
	pc_strvec_release(&hv);
	pc_strvec_release(&env);
	pc_plugin_free(p);
	pc_host_release(&h);
	pc_fs_rm_rf(home);
	free(home);
	unserve(&f);
}

/* --- single-use refresh tokens (OAuth 2.1 rotation, reuse detection) --- */

static cJSON *post_form(const struct fx *f, const char *body, long *status)
{
	struct resp r;
	cJSON *v;

	http(f, "POST", "/oauth/token", body, NULL, &r);
	*status = r.status;
	v = json_of(&r);
	resp_release(&r);
	return v;
}

/* A login (device flow) and its refresh token; its access token expires
 * in `ttl` seconds. New string. */
static char *login_ttl(const struct fx *f, int ttl)
{
	struct resp r;
	cJSON *v;
	char *body, *rt;
	long st;

	http(f, "POST", "/oauth/device", "client_id=t", NULL, &r);
	v = json_of(&r);
	body = pc_xasprintf("grant_type=device_code&device_code=%s",
			    pc_serde_get(v, "device_code")->valuestring);
	cJSON_Delete(v);
	resp_release(&r);
	v = post_form(f, body, &st);
	assert_int_equal(st, 200);
	assert_int_equal(pc_serde_get(v, "expires_in")->valueint, ttl);
	rt = pc_xstrdup(pc_serde_get(v, "refresh_token")->valuestring);
	cJSON_Delete(v);
	free(body);
	return rt;
}

static long refresh(const struct fx *f, const char *rt, char **next)
{
	char *body =
		pc_xasprintf("grant_type=refresh_token&refresh_token=%s", rt);
	long st;
	cJSON *v = post_form(f, body, &st);
	const cJSON *n = pc_serde_get(v, "refresh_token");

	if (next)
		*next = cJSON_IsString(n) ? pc_xstrdup(n->valuestring) : NULL;
	cJSON_Delete(v);
	free(body);
	return st;
}

static void single_use_refresh_detects_reuse(void **state)
{
	struct pc_mock_http_opts o = PC_MOCK_HTTP_OPTS_INIT;
	struct fx f;
	char *rt1, *rt2, *other, *n = NULL;
	cJSON *log;
	const char *want[] = { "rotated", "reused", "revoked", "unknown",
			       "rotated" };

	(void)state;
	o.single_use_refresh = true;
	o.expire_at_once = true;
	serve(&f, "{}", &o);
	rt1 = login_ttl(&f, 0);
	other = login_ttl(&f, 0); /* another login: its own family */
	assert_int_equal(refresh(&f, rt1, &rt2), 200);
	assert_string_not_equal(rt1, rt2);
	assert_int_equal(refresh(&f, rt1, NULL), 400); /* spent: revokes */
	assert_int_equal(refresh(&f, rt2, NULL), 400); /* its family */
	assert_int_equal(refresh(&f, "mock-refresh-99", NULL), 400);
	assert_int_equal(refresh(&f, other, &n), 200);
	log = pc_mock_http_refreshes(f.s);
	assert_int_equal(cJSON_GetArraySize(log), 5);
	for (int i = 0; i < 5; i++)
		assert_string_equal(
			pc_serde_get(cJSON_GetArrayItem(log, i), "result")
				->valuestring,
			want[i]);
	assert_string_equal(
		pc_serde_get(cJSON_GetArrayItem(log, 0), "issued")->valuestring,
		rt2);
	assert_true(cJSON_IsNull(
		pc_serde_get(cJSON_GetArrayItem(log, 1), "issued")));
	cJSON_Delete(log);
	free(rt1);
	free(rt2);
	free(other);
	free(n);
	unserve(&f);
}

struct held {
	const struct fx *f;
	char *rt;
	long status;
};

static void *refresh_thread(void *p)
{
	struct held *h = p;

	h->status = refresh(h->f, h->rt, NULL);
	return NULL;
}

/* Two refresh grants wait for each other, then both are answered: far
 * sooner than the hold (10 s, 5x the 2 s bound); one alone is answered
 * when its hold (300 ms) ends, never before. */
static void rendezvous_holds_refresh_grants(void **state)
{
	struct pc_mock_http_opts o = PC_MOCK_HTTP_OPTS_INIT;
	struct fx f;
	struct held a, b;
	pthread_t ta, tb;
	int64_t t0;

	(void)state;
	o.single_use_refresh = true;
	serve(&f, "{}", &o);
	a = (struct held){ &f, login_ttl(&f, 3600), 0 };
	b = (struct held){ &f, login_ttl(&f, 3600), 0 };
	pc_mock_http_rendezvous(f.s, 2, 10000);
	t0 = pc_time_now_ms();
	assert_int_equal(pthread_create(&ta, NULL, refresh_thread, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, refresh_thread, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_true(pc_time_now_ms() - t0 < 2000);
	assert_int_equal(a.status, 200);
	assert_int_equal(b.status, 200);
	free(a.rt);
	a.rt = login_ttl(&f, 3600);
	pc_mock_http_rendezvous(f.s, 2, 300);
	t0 = pc_time_now_ms();
	assert_int_equal(refresh(&f, a.rt, NULL), 200);
	assert_true(pc_time_now_ms() - t0 >= 300);
	pc_mock_http_rendezvous(f.s, 0, 0);
	free(a.rt);
	free(b.rt);
	unserve(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(models_lists_the_model_id),
		cmocka_unit_test(chat_answers_and_records_headers),
		cmocka_unit_test(stream_reassembles_content_and_tool_calls),
		cmocka_unit_test(faults_answer_their_status),
		cmocka_unit_test(bad_requests_and_the_budget),
		cmocka_unit_test(authorize_redirects_to_loopback_only),
		cmocka_unit_test(oauth_round_trip_sends_the_exact_header),
		cmocka_unit_test(single_use_refresh_detects_reuse),
		cmocka_unit_test(rendezvous_holds_refresh_grants),
	};
	int rc;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}

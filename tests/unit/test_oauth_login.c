/* test_oauth_login.c - the host's loopback redirect reading and its state
 * rules (oauth.rs handle_redirect_stream, spec R8.5), the pending state's
 * JSON form, and one whole web /login in process: a wrong-state request
 * answered and ignored, then the redirect, then complete with the code. */
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_oauth_login.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* verdict - parse `req`; *code_out gets the code or NULL. */
static enum pc_redirect_verdict verdict(const char *req, const char *state,
					char **code_out)
{
	return pc_oauth_redirect_parse(req, strlen(req), state, code_out);
}

static void expect_code(const char *req, const char *state, const char *want)
{
	char *code = NULL;

	assert_int_equal(verdict(req, state, &code), PC_REDIRECT_CODE);
	assert_non_null(code);
	assert_string_equal(code, want);
	free(code);
}

static void expect(const char *req, const char *state,
		   enum pc_redirect_verdict want)
{
	char *code = (char *)"unset";

	assert_int_equal(verdict(req, state, &code), want);
	assert_null(code);
}

static void state_must_match_when_given(void **unused)
{
	(void)unused;
	expect_code("GET /callback?code=abc&state=s1 HTTP/1.1\r\n\r\n", "s1",
		    "abc");
	/* wrong, missing or differently encoded-but-unequal state: ignored */
	expect("GET /callback?code=abc&state=s2 HTTP/1.1\r\n", "s1",
	       PC_REDIRECT_IGNORED);
	expect("GET /callback?code=abc HTTP/1.1\r\n", "s1",
	       PC_REDIRECT_IGNORED);
	expect("GET /callback?code=abc&State=s1 HTTP/1.1\r\n", "s1",
	       PC_REDIRECT_IGNORED);
	/* matching state without a code: "no code in redirect" */
	expect("GET /callback?state=s1 HTTP/1.1\r\n", "s1",
	       PC_REDIRECT_NO_CODE);
	expect("GET /callback?state=s1&codex=1 HTTP/1.1\r\n", "s1",
	       PC_REDIRECT_NO_CODE);
	/* the state is compared after percent-decoding */
	expect_code("GET /cb?state=a%20b+c&code=x HTTP/1.1\r\n", "a b c", "x");
}

static void empty_state_means_no_check(void **unused)
{
	(void)unused;
	expect_code("GET /callback?code=abc&state=whatever HTTP/1.1\r\n", "",
		    "abc");
	expect_code("GET /callback?code=abc HTTP/1.1\r\n", "", "abc");
	/* any query without a code ends the wait */
	expect("GET /favicon.ico?v=1 HTTP/1.1\r\n", "", PC_REDIRECT_NO_CODE);
	/* no query at all: ignored */
	expect("GET /favicon.ico HTTP/1.1\r\n", "", PC_REDIRECT_IGNORED);
	expect("", "", PC_REDIRECT_IGNORED);
	expect("\r\n", "", PC_REDIRECT_IGNORED);
	expect("GET", "", PC_REDIRECT_IGNORED);
}

static void request_line_is_read_as_the_host_reads_it(void **unused)
{
	(void)unused;
	/* only the first line counts */
	expect("GET /x HTTP/1.1\r\nReferer: /y?code=1\r\n", "",
	       PC_REDIRECT_IGNORED);
	/* the second ' ' token, even with a doubled space */
	expect("GET  /callback?code=abc HTTP/1.1\r\n", "", PC_REDIRECT_IGNORED);
	/* the text between the first and the second '?' */
	expect_code("GET /cb?code=abc?state=zz HTTP/1.1\r\n", "", "abc");
	/* a later duplicate key wins; '=' splits at the first one */
	expect_code("GET /cb?code=1&code=2=3 HTTP/1.1\r\n", "", "2=3");
	/* a key with no '=' has an empty value */
	expect_code("GET /cb?code HTTP/1.1\r\n", "", "");
	/* percent-decoding: %XX, '+', broken escapes kept, lossy UTF-8 */
	expect_code("GET /cb?code=%41%2b+%zz%4 HTTP/1.1\r\n", "", "A+ %zz%4");
	expect_code("GET /cb?code=%C3%A9%FF HTTP/1.1\r\n", "",
		    "\xc3\xa9\xef\xbf\xbd");
	/* a bare '\n' ends the line too */
	expect_code("GET /cb?code=q HTTP/1.0\nHost: x\n", "", "q");
	/* lines() keeps a bare '\r' that ends the text (Rust >= 1.77) */
	expect_code("GET /cb?code=q\r", "", "q\r");
	expect_code("GET /cb?code=q\r\n", "", "q");
	/* "%00" is a NUL the host passes on (host text: C0 80) */
	expect_code("GET /cb?code=a%00b HTTP/1.1\r\n", "", "a\xc0\x80"
							      "b");
}

static void verdict_and_state_names(void **unused)
{
	(void)unused;
	assert_string_equal(pc_oauth_redirect_verdict_name(PC_REDIRECT_IGNORED),
			    "ignored");
	assert_string_equal(pc_oauth_redirect_verdict_name(PC_REDIRECT_CODE),
			    "code");
	assert_string_equal(pc_oauth_redirect_verdict_name(PC_REDIRECT_NO_CODE),
			    "no_code");
	assert_string_equal(pc_oauth_login_state_name(PC_OAUTH_LOGIN_AWAITING),
			    "awaiting_code");
}

static void pending_state_round_trips(void **unused)
{
	struct pc_oauth_pending pd = { 0 }, back = { 0 };
	struct pc_err err = PC_ERR_INIT;
	cJSON *v = NULL, *j;
	char *s;
	const char *text =
		"{\"pending\":null,\"provider_id\":\"p\",\"state\":\"s\"}";

	(void)unused;
	assert_int_equal(pc_serde_parse(text, strlen(text), &v, NULL), 0);
	assert_int_equal(pc_oauth_pending_from_json(v, &pd, &err), 0);
	assert_non_null(pd.pending); /* an explicit null is kept */
	j = pc_oauth_pending_json(&pd);
	s = pc_serde_to_string(j);
	assert_string_equal(s, text);
	free(s);
	cJSON_Delete(j);
	cJSON_Delete(v);
	/* an absent pending stays absent */
	text = "{\"provider_id\":\"p\"}";
	assert_int_equal(pc_serde_parse(text, strlen(text), &v, NULL), 0);
	assert_int_equal(pc_oauth_pending_from_json(v, &back, &err), 0);
	assert_null(back.pending);
	assert_string_equal(back.state, "");
	cJSON_Delete(v);
	v = cJSON_CreateString("x");
	assert_int_equal(pc_oauth_pending_from_json(v, &back, &err), PC_EINVAL);
	cJSON_Delete(v);
	pc_oauth_pending_release(&pd);
	pc_oauth_pending_release(&back);
}

/* ---- a whole web /login in process ---- */

static const char script[] =
	"#!/bin/sh\n"
	"in=$(cat)\n"
	"case \"$in\" in\n"
	"*'\"action\":\"login\"'*) printf '%s\\n' "
	"'{\"ok\":true,\"url\":\"http://127.0.0.1:1/authorize\",\"state\":\"s t\",\"pending\":null}' ;;\n"
	"*'\"code\":\"a+b c\"'*) printf '{\"ok\":true}\\n' ;;\n"
	"*) printf '{\"ok\":false,\"error\":\"bad code\"}\\n' ;;\n"
	"esac\n";

struct client {
	int port;
	pthread_t thread;
	char answers[2][1024];
};

/* get - one loopback request; the answer into `out`. */
static void get(int port, const char *req, char *out, size_t cap)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t n = 0;
	ssize_t r;

	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	out[0] = '\0';
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (write(fd, req, strlen(req)) < 0) {
		close(fd);
		return;
	}
	while (n + 1 < cap && (r = read(fd, out + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(fd);
}

static void *client_main(void *arg)
{
	struct client *c = arg;

	get(c->port, "GET /callback?code=evil&state=wrong HTTP/1.1\r\n\r\n",
	    c->answers[0], sizeof(c->answers[0]));
	get(c->port, "GET /callback?code=a%2Bb+c&state=s%20t HTTP/1.1\r\n\r\n",
	    c->answers[1], sizeof(c->answers[1]));
	return NULL;
}

struct prompt_ctx {
	struct pc_oauth_login *l;
	struct client *c;
	int prompts;
};

static void on_prompt(void *ctx, const char *event_json)
{
	struct prompt_ctx *p = ctx;
	const char *port = strrchr(p->l->redirect_uri, ':');

	assert_string_equal(
		event_json,
		"{\"code\":null,\"message\":\"Open the URL to log in.\",\"type\":\"oauth_prompt\",\"url\":\"http://127.0.0.1:1/authorize\"}");
	p->prompts++;
	p->c->port = (int)strtol(port + 1, NULL, 10);
	assert_int_equal(pthread_create(&p->c->thread, NULL, client_main, p->c),
			 0);
}

static void web_login_ignores_wrong_state_then_completes(void **unused)
{
	char *dir = pc_fs_mkdtemp("oauth-login");
	char *ws = pc_fs_mkdtemp("oauth-ws");
	char *sp = pc_fs_join(dir, "oauth.sh"),
	     *mp = pc_fs_join(dir, "plugin.json");
	const char *path = getenv("PATH");
	char *penv = pc_xasprintf("PATH=%s", path ? path : "/usr/bin:/bin");
	char *envp[] = { penv, (char *)"CATALYST_CODE_NO_BROWSER=0",
			 (char *)"HOME=/nonexistent", NULL };
	const char manifest[] =
		"{\"name\":\"weblogin\",\"version\":\"1.0.0\",\"oauth\":{\"provider_id\":\"w\","
		"\"base_url\":\"http://127.0.0.1/v1\",\"script\":\"oauth.sh\"}}";
	struct pc_manifest_env menv = { .home = "/nonexistent" };
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;
	struct pc_host h = PC_HOST_INIT;
	struct pc_oauth_login l;
	struct client c = { 0 };
	struct prompt_ctx pctx = { .l = &l, .c = &c };
	struct pc_oauth_login_opts o = { .wait_ms = 20000,
					 .on_prompt = on_prompt,
					 .prompt_ctx = &pctx,
					 .no_ipv6 = true };
	const char *in;

	(void)unused;
	assert_int_equal(pc_fs_write(sp, script, strlen(script), &err), 0);
	assert_int_equal(chmod(sp, 0755), 0);
	assert_int_equal(pc_fs_write(mp, manifest, strlen(manifest), &err), 0);
	assert_int_equal(pc_manifest_load(dir, &menv, &p, &err), 0);
	pc_host_init(&h, envp, ws, "");
	pc_oauth_login_init(&l);
	assert_int_equal(pc_host_oauth_login(&h, p, &o, &l, &err), 0);
	assert_int_equal(pthread_join(c.thread, NULL), 0);
	assert_int_equal(pctx.prompts, 1);
	assert_string_equal(l.message, "");
	assert_int_equal(l.state, PC_OAUTH_LOGIN_DONE);
	assert_string_equal(l.flow, "web");
	/* both requests were answered with the host's page */
	for (int i = 0; i < 2; i++) {
		assert_true(!strncmp(c.answers[i], "HTTP/1.1 200 OK\r\n", 17));
		assert_non_null(strstr(
			c.answers[i], "\r\n\r\n" PC_OAUTH_LOGIN_COMPLETE_HTML));
	}
	assert_int_equal(l.nredirects, 2);
	assert_int_equal(l.redirects[0].verdict, PC_REDIRECT_IGNORED);
	assert_string_equal(l.redirects[0].request_line,
			    "GET /callback?code=evil&state=wrong HTTP/1.1");
	assert_int_equal(l.redirects[1].verdict, PC_REDIRECT_CODE);
	assert_int_equal(l.nsteps, 2);
	in = pc_buf_cstr(&l.steps[1].x.stdin_json);
	assert_non_null(strstr(in, "\"code\":\"a+b c\""));
	assert_non_null(strstr(in, "\"pending\":null"));
	assert_non_null(strstr(in, l.redirect_uri));
	pc_oauth_login_release(&l);
	pc_host_release(&h);
	pc_plugin_free(p);
	pc_fs_rm_rf(dir);
	pc_fs_rm_rf(ws);
	free(dir);
	free(ws);
	free(sp);
	free(mp);
	free(penv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(state_must_match_when_given),
		cmocka_unit_test(empty_state_means_no_check),
		cmocka_unit_test(request_line_is_read_as_the_host_reads_it),
		cmocka_unit_test(verdict_and_state_names),
		cmocka_unit_test(pending_state_round_trips),
		cmocka_unit_test(web_login_ignores_wrong_state_then_completes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

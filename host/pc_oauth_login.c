/* pc_oauth_login.c - the host's whole /login and /oauth-code for a plugin
 * OAuth provider, with the loopback redirect wait (spec R8.5, R8.6). */
#define _GNU_SOURCE /* accept4, SOCK_CLOEXEC */
#include "pc_oauth_login.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

static const char no_pending_msg[] =
	"No pending OAuth login. Run /login first — the no-browser flow "
	"prints a URL; paste its code here with /oauth-code <code>.";
static const char awaiting_msg[] =
	"OAuth login awaiting a code. Open the URL above on any device, "
	"approve, then paste the code via /oauth-code <code>.";

/* ---- the redirect parser (oauth.rs handle_redirect_stream) ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* percent_decode of `n` bytes into a new valid UTF-8 string. */
static char *percent_decode(const char *s, size_t n)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *r;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 &&
		    hexval(s[i + 2]) >= 0) {
			pc_buf_addch(&raw, (char)(hexval(s[i + 1]) * 16 +
						  hexval(s[i + 2])));
			i += 2;
		} else {
			pc_buf_addch(&raw, s[i] == '+' ? ' ' : s[i]);
		}
	}
	pc_rust_lossy_utf8(&out, raw.data ? raw.data : "", raw.len);
	pc_buf_release(&raw);
	/* "%00" decodes to a NUL the host passes on: keep it as host text */
	r = pc_serde_text_new(pc_buf_cstr(&out), out.len);
	pc_buf_release(&out);
	return r;
}

/* The [start, end) of the `idx`th piece of s[0..n) split on `sep`, as
 * str::split(sep).nth(idx). Returns false when there is no such piece. */
static bool nth_piece(const char *s, size_t n, char sep, int idx, size_t *start,
		      size_t *end)
{
	size_t b = 0;

	for (int k = 0;; k++) {
		const char *e = memchr(s + b, sep, n - b);
		size_t stop = e ? (size_t)(e - s) : n;

		if (k == idx) {
			*start = b;
			*end = stop;
			return true;
		}
		if (!e)
			return false;
		b = stop + 1;
	}
}

/* The length of str::lines().next() of s[0..n): up to the first '\n',
 * less a '\r' before it; a bare '\r' at the very end stays (Rust >= 1.77
 * lines() keeps it, and the host needs Rust 1.85). */
static size_t first_line(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);
	size_t len = nl ? (size_t)(nl - s) : n;

	if (nl && len && s[len - 1] == '\r')
		len--;
	return len;
}

enum pc_redirect_verdict pc_oauth_redirect_parse(const char *req, size_t n,
						 const char *state, char **code)
{
	struct pc_buf text = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *line;
	size_t len, ps, pe, qs, qe;
	char *got_code = NULL, *got_state = NULL;
	enum pc_redirect_verdict v = PC_REDIRECT_IGNORED;

	*code = NULL;
	pc_rust_lossy_utf8(&text, req ? req : "", req ? n : 0);
	line = pc_buf_cstr(&text);
	len = text.len;
	if (!len)
		goto out; /* lines() yields nothing */
	len = first_line(line, len);
	if (!nth_piece(line, len, ' ', 1, &ps, &pe) ||
	    !nth_piece(line + ps, pe - ps, '?', 1, &qs, &qe))
		goto out;
	qs += ps;
	qe += ps;
	for (size_t b = qs; b <= qe;) {
		const char *amp = memchr(line + b, '&', qe - b);
		size_t stop = amp ? (size_t)(amp - line) : qe;
		const char *eq = memchr(line + b, '=', stop - b);
		size_t klen = eq ? (size_t)(eq - (line + b)) : stop - b;
		size_t vb = eq ? (size_t)(eq - line) + 1 : stop;

		if (klen == 4 && !memcmp(line + b, "code", 4)) {
			free(got_code);
			got_code = percent_decode(line + vb, stop - vb);
		} else if (klen == 5 && !memcmp(line + b, "state", 5)) {
			free(got_state);
			got_state = percent_decode(line + vb, stop - vb);
		}
		b = stop + 1;
	}
	/* Empty `state` = no CSRF check (the plugin chose not to use one). */
	if (!*state || (got_state && !strcmp(got_state, state))) {
		v = got_code ? PC_REDIRECT_CODE : PC_REDIRECT_NO_CODE;
		if (got_code) {
			*code = got_code;
			got_code = NULL;
		}
	}
out:
	free(got_code);
	free(got_state);
	pc_buf_release(&text);
	return v;
}

const char *pc_oauth_redirect_verdict_name(enum pc_redirect_verdict v)
{
	switch (v) {
	case PC_REDIRECT_CODE:
		return "code";
	case PC_REDIRECT_NO_CODE:
		return "no_code";
	default:
		return "ignored";
	}
}

const char *pc_oauth_login_state_name(enum pc_oauth_login_state s)
{
	switch (s) {
	case PC_OAUTH_LOGIN_DONE:
		return "done";
	case PC_OAUTH_LOGIN_AWAITING:
		return "awaiting_code";
	default:
		return "failed";
	}
}

/* ---- results ---- */

void pc_oauth_login_init(struct pc_oauth_login *l)
{
	memset(l, 0, sizeof(*l));
	pc_strvec_init(&l->events);
	l->message = pc_xstrdup("");
}

void pc_oauth_pending_release(struct pc_oauth_pending *pd)
{
	free(pd->provider_id);
	free(pd->state);
	cJSON_Delete(pd->pending);
	memset(pd, 0, sizeof(*pd));
}

void pc_oauth_login_release(struct pc_oauth_login *l)
{
	for (size_t i = 0; i < l->nsteps; i++) {
		free(l->steps[i].action);
		pc_oauth_result_release(&l->steps[i].r);
		pc_exchange_release(&l->steps[i].x);
	}
	for (size_t i = 0; i < l->nredirects; i++)
		free(l->redirects[i].request_line);
	free(l->steps);
	free(l->redirects);
	free(l->flow);
	free(l->message);
	free(l->redirect_uri);
	pc_strvec_release(&l->events);
	pc_oauth_pending_release(&l->pending);
	memset(l, 0, sizeof(*l));
}

static void set_pending(struct pc_oauth_pending *dst, const char *provider_id,
			const char *state, const cJSON *pending)
{
	pc_oauth_pending_release(dst);
	dst->provider_id = pc_xstrdup(provider_id);
	dst->state = pc_xstrdup(state ? state : "");
	dst->pending = pending ? cJSON_Duplicate(pending, 1) : NULL;
}

cJSON *pc_oauth_pending_json(const struct pc_oauth_pending *pd)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "provider_id",
				pd->provider_id ? pd->provider_id : "");
	cJSON_AddStringToObject(v, "state", pd->state ? pd->state : "");
	if (pd->pending)
		cJSON_AddItemToObject(v, "pending",
				      cJSON_Duplicate(pd->pending, 1));
	return v;
}

int pc_oauth_pending_from_json(const cJSON *v, struct pc_oauth_pending *pd,
			       struct pc_err *err)
{
	const cJSON *id = pc_serde_get(v, "provider_id");
	const cJSON *st = pc_serde_get(v, "state");

	if (!cJSON_IsObject(v) || !cJSON_IsString(id))
		return pc_err_set(
			err, PC_EINVAL,
			"a pending state is an object with a string provider_id");
	set_pending(pd, id->valuestring,
		    cJSON_IsString(st) ? st->valuestring : "",
		    pc_serde_get(v, "pending"));
	return 0;
}

/* event - append {"message":msg,"type":type} to l->events. */
static void event(struct pc_oauth_login *l, const char *type, const char *msg)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddStringToObject(e, "message", msg);
	pc_strvec_push_nodup(&l->events, pc_serde_to_string(e));
	cJSON_Delete(e);
}

/* fail - the dispatcher's error event: `prefix` + `e`. */
static void fail(struct pc_oauth_login *l, const char *prefix, const char *e)
{
	free(l->message);
	l->message = pc_xasprintf("%s%s", prefix, e);
	l->state = PC_OAUTH_LOGIN_FAILED;
	event(l, "error", l->message);
}

static struct pc_oauth_step *new_step(struct pc_oauth_login *l,
				      const char *action)
{
	struct pc_oauth_step *s;

	l->steps = pc_xreallocarray(l->steps, l->nsteps + 1, sizeof(*l->steps));
	s = &l->steps[l->nsteps++];
	memset(s, 0, sizeof(*s));
	s->action = pc_xstrdup(action);
	pc_exchange_init(&s->x);
	return s;
}

/* run_complete - run_oauth_complete (R8.6). On the host's failure *emsg
 * gets its text (new string). Returns 0 or PC_EIO. */
static int run_complete(struct pc_host *h, const struct pc_plugin *p,
			const char *code, const cJSON *pending,
			const char *redirect_uri, struct pc_oauth_login *l,
			char **emsg, struct pc_err *err)
{
	cJSON *extra = cJSON_CreateObject();
	struct pc_oauth_step *s = new_step(l, "complete");
	struct pc_err lerr = PC_ERR_INIT;
	int rc;

	*emsg = NULL;
	cJSON_AddStringToObject(extra, "code", code);
	if (redirect_uri)
		cJSON_AddStringToObject(extra, "redirect_uri", redirect_uri);
	if (pending)
		cJSON_AddItemToObject(extra, "pending",
				      cJSON_Duplicate(pending, 1));
	rc = pc_host_run_oauth(h, p, "complete", extra, &s->r, &s->x, &lerr);
	cJSON_Delete(extra);
	if (rc == PC_EINVAL) {
		/* "'<id>' has no complete script" (R8.4) */
		*emsg = pc_xstrdup(lerr.msg);
		return 0;
	}
	if (rc) {
		*err = lerr;
		return rc;
	}
	if (!s->r.ok)
		*emsg = pc_xstrdup(s->r.message ? s->r.message : "");
	return 0;
}

/* ---- the loopback listener (oauth.rs bind_loopback, await_redirect_dual) */

static int listen_on(int family, int port, int *bound, int *sys_errno)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1,
	    fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	}
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &len) < 0) {
		*sys_errno = errno;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*bound = ntohs(family == AF_INET
			       ? ((struct sockaddr_in *)&ss)->sin_port
			       : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return fd;
}

static void add_redirect(struct pc_oauth_login *l, const char *req, size_t n,
			 enum pc_redirect_verdict v)
{
	struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *s;
	size_t len;

	pc_rust_lossy_utf8(&t, req, n);
	s = pc_buf_cstr(&t);
	len = first_line(s, t.len);
	l->redirects = pc_xreallocarray(l->redirects, l->nredirects + 1,
					sizeof(*l->redirects));
	l->redirects[l->nredirects].request_line = pc_serde_text_new(s, len);
	l->redirects[l->nredirects++].verdict = v;
	pc_buf_release(&t);
}

/* answer - the host's reply to every loopback request, written before the
 * request is looked at (success_url is None for plugin flows). */
static void answer(int c)
{
	static const char body[] = PC_OAUTH_LOGIN_COMPLETE_HTML;
	struct timeval tv = { .tv_sec = 2 };
	char *resp = pc_xasprintf(
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
		"Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
		sizeof(body) - 1, body);
	size_t off = 0, n = strlen(resp);

	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	while (off < n) {
		ssize_t w = send(c, resp + off, n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(resp);
}

/* handle - one accepted connection: wait (bounded) for its bytes, one
 * read, answer, judge. Returns 1 when the wait deadline passed. */
static int handle(int c, int64_t deadline, const char *state,
		  struct pc_oauth_login *l, enum pc_redirect_verdict *v,
		  char **code)
{
	char buf[PC_OAUTH_REDIRECT_READ];
	struct pollfd pfd = { .fd = c, .events = POLLIN };
	ssize_t n;
	int r;

	do {
		int left = pc_time_left_ms(deadline);

		if (left <= 0)
			return 1;
		r = poll(&pfd, 1, left);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return 1;
	do
		n = read(c, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = 0; /* the host reads with unwrap_or(0) */
	answer(c);
	*v = pc_oauth_redirect_parse(buf, (size_t)n, state, code);
	add_redirect(l, buf, (size_t)n, *v);
	return 0;
}

/* await_redirect - wait at most wait_ms for the redirect; *code on
 * success, else *emsg (new string) with the host's error text. */
static void await_redirect(const int fds[2], const char *state, int64_t wait_ms,
			   struct pc_oauth_login *l, char **code, char **emsg)
{
	int64_t deadline = pc_time_now_ms() + wait_ms;
	struct pollfd pfd[2];
	nfds_t nfd = 0;

	*code = *emsg = NULL;
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = fds[i],
						      .events = POLLIN };
	for (;;) {
		int left = pc_time_left_ms(deadline), r;

		if (left <= 0)
			break;
		r = poll(pfd, nfd, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);

			pc_rust_io_error(&e, errno);
			*emsg = pc_buf_detach(&e, NULL);
			return;
		}
		if (r == 0)
			break;
		for (nfds_t i = 0; i < nfd; i++) {
			enum pc_redirect_verdict v = PC_REDIRECT_IGNORED;
			int c, timed_out;

			if (!(pfd[i].revents & POLLIN))
				continue;
			c = accept4(pfd[i].fd, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue; /* EAGAIN, ECONNABORTED, EINTR */
			timed_out = handle(c, deadline, state, l, &v, code);
			close(c);
			if (timed_out)
				goto timeout;
			if (v == PC_REDIRECT_CODE)
				return;
			if (v == PC_REDIRECT_NO_CODE) {
				*emsg = pc_xstrdup("no code in redirect");
				return;
			}
		}
	}
timeout:
	*emsg = pc_xstrdup("timed out waiting for the browser redirect");
}

/* ---- /login ---- */

static int64_t wait_cap(const struct pc_oauth_login_opts *o)
{
	int64_t w = o && o->wait_ms > 0 ? o->wait_ms : PC_OAUTH_DEFAULT_WAIT_MS;

	return w > PC_OAUTH_HOST_WAIT_MS ? PC_OAUTH_HOST_WAIT_MS : w;
}

/* announce - hand the login's oauth_prompt event on, before anything else
 * happens. */
static void announce(struct pc_oauth_login *l, const struct pc_exchange *x,
		     const struct pc_oauth_login_opts *o)
{
	for (size_t i = 0; i < x->events.nr; i++) {
		if (!strstr(x->events.v[i], "\"type\":\"oauth_prompt\""))
			continue;
		pc_strvec_push(&l->events, x->events.v[i]);
		if (o && o->on_prompt)
			o->on_prompt(o->prompt_ctx, x->events.v[i]);
	}
}

/* after_login - oauth_login from the login answer on (R8.5). */
static int after_login(struct pc_host *h, const struct pc_plugin *p,
		       const struct pc_oauth_login_opts *o, bool hl,
		       const int fds[2], struct pc_oauth_login *l,
		       struct pc_err *err)
{
	const struct pc_oauth_step *s = &l->steps[0];
	const cJSON *st = pc_serde_get(s->r.response, "state");
	const cJSON *pending = pc_serde_get(s->r.response, "pending");
	char *code = NULL, *emsg = NULL;
	int rc = 0;

	l->flow = pc_xstrdup(s->r.flow);
	if (!strcmp(l->flow, "existing")) {
		l->state = PC_OAUTH_LOGIN_DONE;
		return 0;
	}
	announce(l, &s->x, o);
	if (!strcmp(l->flow, "headless") || !strcmp(l->flow, "manual")) {
		set_pending(&l->pending, p->oauth->provider_id,
			    hl || !cJSON_IsString(st) ? "" : st->valuestring,
			    pending);
		l->state = PC_OAUTH_LOGIN_AWAITING;
		event(l, "info", awaiting_msg);
		return 0;
	}
	if (!strcmp(l->flow, "web")) {
		await_redirect(fds, cJSON_IsString(st) ? st->valuestring : "",
			       wait_cap(o), l, &code, &emsg);
		if (emsg) {
			fail(l, "OAuth login failed: ", emsg);
			free(emsg);
			return 0;
		}
	}
	rc = run_complete(h, p, code ? code : "", pending, l->redirect_uri, l,
			  &emsg, err);
	if (!rc && emsg)
		fail(l, "OAuth login failed: ", emsg);
	else if (!rc)
		l->state = PC_OAUTH_LOGIN_DONE;
	free(code);
	free(emsg);
	return rc;
}

int pc_host_oauth_login(struct pc_host *h, const struct pc_plugin *p,
			const struct pc_oauth_login_opts *o,
			struct pc_oauth_login *l, struct pc_err *err)
{
	const struct pc_oauth_cfg *oc = p->oauth;
	bool hl = pc_host_oauth_headless(h);
	int fds[2] = { -1, -1 }, port = 0, e = 0, rc;
	cJSON *extra;
	struct pc_oauth_step *s;
	char *m;

	if (!oc)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' declares no oauth provider",
				  p->name);
	if (!oc->login_script && !oc->script) {
		m = pc_xasprintf(
			"'%s' has no plugin OAuth login — install a plugin that declares oauth.provider_id=\"%s\", or paste an API key via /login",
			oc->provider_id, oc->provider_id);
		fail(l, "", m);
		free(m);
		return 0;
	}
	m = pc_xasprintf("starting OAuth login for %s…",
			 oc->label ? oc->label : oc->provider_id);
	event(l, "info", m);
	free(m);
	if (!hl) {
		if ((fds[0] = listen_on(AF_INET, 0, &port, &e)) < 0) {
			struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

			pc_buf_adds(
				&b,
				"could not bind localhost OAuth callback: ");
			pc_rust_io_error(&b, e);
			fail(l, "OAuth login failed: ", pc_buf_cstr(&b));
			pc_buf_release(&b);
			return 0;
		}
		if (!(o && o->no_ipv6))
			fds[1] = listen_on(AF_INET6, port, &port, &e);
		l->redirect_uri =
			pc_xasprintf("http://localhost:%d/callback", port);
	}
	extra = cJSON_CreateObject();
	cJSON_AddBoolToObject(extra, "headless", hl);
	if (!hl)
		cJSON_AddStringToObject(extra, "redirect_uri", l->redirect_uri);
	s = new_step(l, "login");
	rc = pc_host_run_oauth(h, p, "login", extra, &s->r, &s->x, err);
	cJSON_Delete(extra);
	if (!rc && !s->r.ok)
		fail(l, "", s->r.message); /* already the dispatcher's text */
	else if (!rc)
		rc = after_login(h, p, o, hl, fds, l, err);
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}

/* ---- /oauth-code ---- */

int pc_host_oauth_code(struct pc_host *h, const struct pc_plugin *p,
		       const struct pc_oauth_pending *pd, const char *code,
		       struct pc_oauth_login *l, struct pc_err *err)
{
	char *emsg = NULL;
	int rc;

	if (!p->oauth)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' declares no oauth provider",
				  p->name);
	if (!pd || !pd->provider_id) {
		fail(l, "", no_pending_msg);
		return 0;
	}
	if (strcmp(pd->provider_id, p->oauth->provider_id)) {
		char *m = pc_xasprintf(
			"no plugin OAuth provider for '%s' — pending login discarded",
			pd->provider_id);

		fail(l, "", m);
		free(m);
		return 0;
	}
	rc = run_complete(h, p, code, pd->pending, NULL, l, &emsg, err);
	if (!rc && emsg) {
		char *m = pc_xasprintf(
			"%s (pending login restored — try /oauth-code again with the correct code)",
			emsg);

		fail(l, "OAuth code exchange failed: ", m);
		set_pending(&l->pending, pd->provider_id, pd->state,
			    pd->pending);
		free(m);
	} else if (!rc) {
		l->state = PC_OAUTH_LOGIN_DONE;
	}
	free(emsg);
	return rc;
}

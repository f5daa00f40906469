/* pc_mock_http_oauth.c - a mock OAuth authorization server (device flow,
 * authorization code with a loopback redirect, refresh), so an OAuth
 * plugin can be pointed at the mock model through its own configuration
 * (spec catalyst-code.md §8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_mock_http_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define AUTH_CODE      "mock-auth-code"
#define DEVICE_PREFIX  "mock-device-"
#define REFRESH_PREFIX "mock-refresh-"
#define GRANT_DEVICE   "urn:ietf:params:oauth:grant-type:device_code"

/* form_decode - application/x-www-form-urlencoded text of `n` bytes into
 * a new object (a repeated name keeps the last value). */
static cJSON *form_decode(const char *s, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	struct pc_buf k = PC_BUF_INIT(PC_BUF_NOCAP),
		      v = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf *cur = &k;

	for (size_t i = 0; i <= n; i++) {
		char c = i < n ? s[i] : '&';

		if (c == '&') {
			if (k.len) {
				cJSON_DeleteItemFromObjectCaseSensitive(
					o, pc_buf_cstr(&k));
				cJSON_AddStringToObject(o, pc_buf_cstr(&k),
							pc_buf_cstr(&v));
			}
			pc_buf_reset(&k);
			pc_buf_reset(&v);
			cur = &k;
		} else if (c == '=' && cur == &k) {
			cur = &v;
		} else if (c == '%' && i + 2 < n && pc__mock_hexval(s[i + 1]) >= 0 &&
			   pc__mock_hexval(s[i + 2]) >= 0) {
			pc_buf_addch(cur, (char)(pc__mock_hexval(s[i + 1]) * 16 +
						 pc__mock_hexval(s[i + 2])));
			i += 2;
		} else {
			pc_buf_addch(cur, c == '+' ? ' ' : c);
		}
	}
	pc_buf_release(&k);
	pc_buf_release(&v);
	return o;
}

/* params - the body's parameters: JSON when it parses as an object, else
 * form-encoded. New object. */
static cJSON *params(const struct pc__mock_req *r)
{
	cJSON *v = NULL;

	if (pc_serde_parse(r->body, r->body_len, &v, NULL) == 0 &&
	    cJSON_IsObject(v))
		return v;
	cJSON_Delete(v);
	return form_decode(r->body, r->body_len);
}

static const char *param(const cJSON *p, const char *key)
{
	const cJSON *v = pc_serde_get(p, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void oauth_error(struct pc__mock_ans *a, unsigned status,
			const char *code, const char *desc)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "error", code);
	cJSON_AddStringToObject(v, "error_description", desc);
	pc__mock_json_answer(a, status, v);
}

/* issue - new tokens for login `family` (0: a new login); returns the
 * refresh token's number. */
static unsigned issue(struct pc__mock_state *st, struct pc__mock_ans *a,
		      unsigned family)
{
	cJSON *v = cJSON_CreateObject(), *rt;
	char tok[48], ref[48];

	st->issued++;
	snprintf(tok, sizeof(tok), "mock-access-%u", st->issued);
	snprintf(ref, sizeof(ref), REFRESH_PREFIX "%u", st->issued);
	pc_strvec_push(&st->tokens, tok);
	cJSON_AddStringToObject(v, "access_token", tok);
	cJSON_AddStringToObject(v, "token_type", "Bearer");
	cJSON_AddNumberToObject(v, "expires_in",
				st->opts.expire_at_once ? 0 : 3600);
	cJSON_AddStringToObject(v, "refresh_token", ref);
	pc__mock_json_answer(a, 200, v);
	if (!st->rtokens)
		st->rtokens = cJSON_CreateObject();
	rt = cJSON_AddObjectToObject(st->rtokens, ref);
	cJSON_AddNumberToObject(rt, "family", family ? family : ++st->families);
	cJSON_AddBoolToObject(rt, "used", false);
	return st->issued;
}

static bool revoked(const struct pc__mock_state *st, double family)
{
	const cJSON *f;

	cJSON_ArrayForEach(f, st->revoked)
	{
		if (f->valuedouble == family)
			return true;
	}
	return false;
}

static void log_refresh(struct pc__mock_state *st, const char *rt,
			const char *result, unsigned issued)
{
	cJSON *e = cJSON_CreateObject();
	char ref[48];

	if (!st->refreshes)
		st->refreshes = cJSON_CreateArray();
	cJSON_AddStringToObject(e, "refresh_token", rt ? rt : "");
	cJSON_AddStringToObject(e, "result", result);
	snprintf(ref, sizeof(ref), REFRESH_PREFIX "%u", issued);
	if (issued)
		cJSON_AddStringToObject(e, "issued", ref);
	else
		cJSON_AddNullToObject(e, "issued");
	cJSON_AddItemToArray(st->refreshes, e);
}

/* A refresh_token grant with single-use refresh tokens (OAuth 2.1
 * rotation with reuse detection). */
static void refresh_once(struct pc__mock_state *st, const char *rt,
			 struct pc__mock_ans *a)
{
	cJSON *t =
		rt ? cJSON_GetObjectItemCaseSensitive(st->rtokens, rt) : NULL;
	cJSON *used = cJSON_GetObjectItemCaseSensitive(t, "used");
	double family = cJSON_GetNumberValue(
		cJSON_GetObjectItemCaseSensitive(t, "family"));

	if (!t) {
		oauth_error(a, 400, "invalid_grant", "unknown refresh_token");
		log_refresh(st, rt, "unknown", 0);
	} else if (revoked(st, family)) {
		oauth_error(a, 400, "invalid_grant",
			    "refresh_token revoked: log in again");
		log_refresh(st, rt, "revoked", 0);
	} else if (cJSON_IsTrue(used)) {
		if (!st->revoked)
			st->revoked = cJSON_CreateArray();
		cJSON_AddItemToArray(st->revoked, cJSON_CreateNumber(family));
		oauth_error(a, 400, "invalid_grant",
			    "refresh_token already used: the login is revoked");
		log_refresh(st, rt, "reused", 0);
	} else {
		cJSON_ReplaceItemInObjectCaseSensitive(t, "used",
						       cJSON_CreateTrue());
		log_refresh(st, rt, "rotated", issue(st, a, (unsigned)family));
	}
}

static void device(struct pc__mock_state *st, struct pc__mock_ans *a)
{
	cJSON *v = cJSON_CreateObject();
	char buf[128];

	st->devices++;
	st->pending_left = st->opts.device_pending_polls;
	snprintf(buf, sizeof(buf), DEVICE_PREFIX "%u", st->devices);
	cJSON_AddStringToObject(v, "device_code", buf);
	snprintf(buf, sizeof(buf), "MOCK-%04u", st->devices);
	cJSON_AddStringToObject(v, "user_code", buf);
	snprintf(buf, sizeof(buf), "http://127.0.0.1:%u/oauth/authorize",
		 st->port);
	cJSON_AddStringToObject(v, "verification_uri", buf);
	cJSON_AddNumberToObject(v, "interval", 0);
	cJSON_AddNumberToObject(v, "expires_in", 300);
	pc__mock_json_answer(a, 200, v);
}

static void token(struct pc__mock_state *st, const struct pc__mock_req *r,
		  struct pc__mock_ans *a)
{
	cJSON *p = params(r);
	const char *grant = param(p, "grant_type");
	const char *dc = param(p, "device_code");
	const char *code = param(p, "code");
	const char *rt = param(p, "refresh_token");

	if (!grant) {
		oauth_error(a, 400, "invalid_request", "missing grant_type");
	} else if (!strcmp(grant, GRANT_DEVICE) ||
		   !strcmp(grant, "device_code")) {
		if (!dc || strncmp(dc, DEVICE_PREFIX, strlen(DEVICE_PREFIX)))
			oauth_error(a, 400, "invalid_grant",
				    "unknown device_code");
		else if (st->pending_left && st->pending_left--)
			oauth_error(a, 400, "authorization_pending",
				    "the user has not approved yet");
		else
			issue(st, a, 0);
	} else if (!strcmp(grant, "authorization_code")) {
		if (!code || strcmp(code, AUTH_CODE))
			oauth_error(a, 400, "invalid_grant", "unknown code");
		else
			issue(st, a, 0);
	} else if (!strcmp(grant, "refresh_token") &&
		   st->opts.single_use_refresh) {
		refresh_once(st, rt, a);
	} else if (!strcmp(grant, "refresh_token")) {
		if (!rt ||
		    strncmp(rt, REFRESH_PREFIX, strlen(REFRESH_PREFIX))) {
			oauth_error(a, 400, "invalid_grant",
				    "unknown refresh_token");
			log_refresh(st, rt, "unknown", 0);
		} else {
			log_refresh(st, rt, "rotated", issue(st, a, 0));
		}
	} else {
		oauth_error(a, 400, "unsupported_grant_type", grant);
	}
	cJSON_Delete(p);
}

static bool loopback_uri(const char *u)
{
	static const char *const ok[] = {
		"http://localhost:", "http://127.0.0.1:", "http://[::1]:"
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strncmp(u, ok[i], strlen(ok[i])))
			return true;
	return false;
}

static void add_escaped(struct pc_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || strchr("-._~", c))
			pc_buf_addch(b, (char)c);
		else
			pc_buf_addf(b, "%%%02X", c);
	}
}

/* authorize - approve at once and redirect back to the loopback
 * redirect_uri, as the host's web flow expects (R8.5). */
static void authorize(const struct pc__mock_req *r, struct pc__mock_ans *a)
{
	const char *uri = param(r->query, "redirect_uri");
	const char *state = param(r->query, "state");
	struct pc_buf loc = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!uri || !loopback_uri(uri)) {
		oauth_error(
			a, 400, "invalid_request",
			"redirect_uri must be http://localhost:PORT/..., http://127.0.0.1:PORT/... or http://[::1]:PORT/...");
		return;
	}
	pc_buf_adds(&loc, uri);
	pc_buf_adds(&loc,
		    strchr(uri, '?') ? "&code=" AUTH_CODE : "?code=" AUTH_CODE);
	if (state) {
		pc_buf_adds(&loc, "&state=");
		add_escaped(&loc, state);
	}
	a->status = 302;
	a->content_type = "text/plain";
	pc_buf_adds(&a->body, "redirecting\n");
	pc_strvec_push(&a->headers, "Location");
	pc_strvec_push(&a->headers, pc_buf_cstr(&loc));
	pc_buf_release(&loc);
}

bool pc__mock_oauth(struct pc__mock_state *st, const struct pc__mock_req *r,
		    struct pc__mock_ans *a)
{
	bool post = !strcmp(r->method, "POST");

	if (!strcmp(r->path, "/oauth/device") && post)
		device(st, a);
	else if (!strcmp(r->path, "/oauth/token") && post)
		token(st, r, a);
	else if (!strcmp(r->path, "/oauth/authorize") &&
		 !strcmp(r->method, "GET"))
		authorize(r, a);
	else if (!strncmp(r->path, "/oauth/", 7))
		oauth_error(a, 404, "invalid_request", "no such endpoint");
	else
		return false;
	return true;
}

bool pc__mock_is_refresh(const struct pc__mock_req *r)
{
	cJSON *p;
	const char *g;
	bool yes;

	if (strcmp(r->path, "/oauth/token") || strcmp(r->method, "POST"))
		return false;
	p = params(r);
	g = param(p, "grant_type");
	yes = g && !strcmp(g, "refresh_token");
	cJSON_Delete(p);
	return yes;
}

bool pc__mock_authorized(const struct pc__mock_state *st,
			 const struct pc__mock_req *r)
{
	const cJSON *h = pc_serde_get(r->headers, "authorization");
	const char *v;

	if (!cJSON_IsString(h) || strncmp(h->valuestring, "Bearer ", 7))
		return false;
	v = h->valuestring + 7;
	for (size_t i = 0; i < st->tokens.nr; i++)
		if (!strcmp(st->tokens.v[i], v))
			return true;
	return false;
}

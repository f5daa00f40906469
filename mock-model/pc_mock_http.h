/* pc_mock_http.h - the scripted model (pc_mock.h) served over HTTP as an
 * OpenAI-compatible chat-completions API, plus a mock OAuth authorization
 * server, on 127.0.0.1 only (issue 4; spec catalyst-code.md §8).
 *
 * Endpoints (all answers are JSON unless said otherwise):
 *   POST /v1/chat/completions  the next scripted reply (pc_mock_reply) as a
 *        chat.completion, or with "stream": true as Server-Sent Events:
 *        `data: {chat.completion.chunk}` lines (role, content and
 *        reasoning_content deltas of the reply's "chunk_size" bytes, default
 *        16; tool-call deltas: id/name first, then arguments in pieces; a
 *        final chunk with finish_reason) and `data: [DONE]`. A scripted
 *        HTTP fault answers with its status (429 carries Retry-After: 0)
 *        and an OpenAI error object.
 *   GET  /v1/models            {"object":"list","data":[{"id":<model>,...}]}
 *   POST /oauth/device         a device authorization (RFC 8628 shape):
 *        device_code, user_code, verification_uri, interval, expires_in
 *   GET  /oauth/authorize      302 to the (loopback-only) redirect_uri with
 *        code and the given state
 *   POST /oauth/token          grant_type device_code (device_code=...),
 *        authorization_code (code=...) or refresh_token, form-encoded or
 *        JSON; answers access_token "mock-access-<n>", token_type Bearer,
 *        expires_in 3600 (0 with `expire_at_once`), refresh_token
 *        "mock-refresh-<n>" (single-use with `single_use_refresh`); the
 *        first `device_pending_polls` device_code polls answer 400
 *        {"error":"authorization_pending"}.
 * With `require_auth`, /v1/... answer 401 unless the request carries
 * `Authorization: Bearer <a token this server issued>`.
 *
 * Completions carry `created` (Unix seconds) and `usage` (token counts
 * estimated at 4 bytes a token plus 4 per message: pc__mock_usage). Every
 * error is an OpenAI error object {"error":{"message","type","param":
 * null,"code"}} with `code` a string ("rate_limit_exceeded",
 * "invalid_api_key") or null.
 *
 * The server does its own HTTP/1.1 framing (pc_mock_http_wire.c): one
 * thread per connection (at most 64; more get 503), keep-alive,
 * Content-Length or chunked request bodies, Expect: 100-continue. A
 * request it cannot take gets one JSON error answer and the connection
 * closes: 400 (malformed request line, field or Content-Length), 413 (a
 * declared body over `max_body`, before any of it is read), 417, 431
 * (a head over 64 KiB), 501, 505.
 *
 * Every request (any path) is recorded as {"method","path","query",
 * "headers":{lower-case name: value, repeats joined by ", "},"body",
 * "status"}; chat requests are also attached to the pc_mock transcript
 * with pc_mock_record_extra ("method", "path", "headers", "body").
 *
 * Caller protocol:
 *   1. struct pc_mock_http_opts o = PC_MOCK_HTTP_OPTS_INIT; adjust;
 *   2. pc_mock_http_start(model, &o, &srv, &err) - serves from a background
 *      thread; pc_mock_http_port(srv) tells the port;
 *   3. any number of pc_mock_http_requests()/pc_mock_http_wait() calls;
 *   4. pc_mock_http_stop(srv) - stops the thread, closes every socket and
 *      frees srv; `model` is borrowed throughout and still the caller's.
 * The model must not be used by the caller between 2 and 4 except through
 * this API (the server serialises every request under one lock).
 * Nothing here prints or exits; no call blocks longer than documented.
 */
#ifndef PC_MOCK_HTTP_H
#define PC_MOCK_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_err.h"

struct pc_mock;
struct pc_mock_http;

struct pc_mock_http_opts {
	/* TCP port on 127.0.0.1; 0 picks a free one. Never another address. */
	unsigned port;
	/* Stop answering after this many requests (later ones get 503 and
	 * pc_mock_http_wait returns); 0: no budget. */
	unsigned max_requests;
	/* A connection idle this long is closed, in seconds (default 10). */
	unsigned conn_timeout_s;
	/* A request body over this many bytes is answered 413 (default
	 * 8 MiB). */
	size_t max_body;
	/* The model id of /v1/models and of every completion (default
	 * "plugcheck-mock"); borrowed, must outlive the server. */
	const char *model_id;
	/* 401 on /v1/... without a Bearer token issued by /oauth/token. */
	bool require_auth;
	/* device_code polls answered "authorization_pending" first. */
	unsigned device_pending_polls;
	/* When not NULL, the request log (pc_mock_http_requests) is rewritten
	 * to this file after every request (write to FILE.tmp, then rename);
	 * borrowed, must outlive the server. */
	const char *record_path;
	/* Refresh tokens are single-use, as OAuth 2.1 rotation asks: a
	 * refresh_token grant spends the token it presents; a spent one
	 * presented again is answered 400 invalid_grant and revokes every
	 * refresh token of the same login (reuse detection: the next refresh
	 * fails too, the user must log in again). Each connection then has a
	 * thread of its own, so pc_mock_http_rendezvous() can hold grants. */
	bool single_use_refresh;
	/* Issued access tokens carry expires_in 0 (expired at once), so a
	 * client refreshes at every use. */
	bool expire_at_once;
};

#define PC_MOCK_HTTP_OPTS_INIT                                             \
	{                                                                  \
		.port = 0, .max_requests = 0, .conn_timeout_s = 10,        \
		.max_body = (size_t)8 << 20, .model_id = "plugcheck-mock", \
		.require_auth = false, .device_pending_polls = 0,          \
		.record_path = NULL, .single_use_refresh = false,          \
		.expire_at_once = false                                    \
	}

/* pc_mock_http_start - bind 127.0.0.1:opts->port and serve `m` (borrowed,
 * must outlive the server) from a background thread. On success *out
 * gets a new server (stop and free it with pc_mock_http_stop) and returns
 * 0. Errors: PC_EINVAL for a port over 65535; PC_EIO when the port cannot
 * be bound or the accept thread not started (err says why). Does not block. */
int pc_mock_http_start(struct pc_mock *m, const struct pc_mock_http_opts *opts,
		       struct pc_mock_http **out, struct pc_err *err);

/* pc_mock_http_stop - stop serving (open connections are closed), join
 * the thread and free `s`; NULL is a no-op. Blocks at most until the
 * request being answered, if any, is done (answers are computed in
 * memory, so well under a second). */
void pc_mock_http_stop(struct pc_mock_http *s);

/* pc_mock_http_port - the bound TCP port (the real one when 0 was
 * asked for). */
unsigned pc_mock_http_port(const struct pc_mock_http *s);

/* pc_mock_http_requests - a new copy of the request log (an array of
 * the objects described above, oldest first); caller frees with
 * cJSON_Delete. Safe to call while the server runs. */
cJSON *pc_mock_http_requests(struct pc_mock_http *s);

/* pc_mock_http_count - how many requests were received so far. */
unsigned pc_mock_http_count(struct pc_mock_http *s);

/* pc_mock_http_rendezvous - with single_use_refresh: from now on hold
 * each refresh_token grant until `n` of them wait at once (then all are
 * answered) or `hold_ms` passed since it arrived (then it is answered
 * alone). Two clients that read the same refresh token are thus seen to
 * present it together, however far apart they started. n <= 1: no hold.
 * Without single_use_refresh it does nothing. */
void pc_mock_http_rendezvous(struct pc_mock_http *s, unsigned n,
			     unsigned hold_ms);

/* pc_mock_http_refreshes - a new copy of the refresh_token grants so far,
 * oldest first: {"refresh_token": presented, "result": "rotated" |
 * "reused" (already spent: the login is revoked) | "revoked" | "unknown",
 * "issued": the new refresh token or null}. Caller frees. */
cJSON *pc_mock_http_refreshes(struct pc_mock_http *s);

/* pc_mock_http_wait - block until opts.max_requests requests were
 * received, or `timeout_ms` milliseconds passed (CLOCK_MONOTONIC).
 * Returns true when the budget is used up (always false without one). */
bool pc_mock_http_wait(struct pc_mock_http *s, int timeout_ms);

#endif

/* pc_mock_http_impl.h - private to mock-model/pc_mock_http*.c: one HTTP
 * request and its answer, independent of libmicrohttpd, so the endpoint
 * handlers are plain functions over data. */
#ifndef PC_MOCK_HTTP_IMPL_H
#define PC_MOCK_HTTP_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_mock_http.h"
#include "pc_strvec.h"

/* What the handlers see of a request (all borrowed). */
struct pc__mock_req {
	const char *method, *path;
	const cJSON *query;   /* object: GET arguments */
	const cJSON *headers; /* object: lower-case name -> value */
	const char *body;     /* NUL-terminated, may be "" */
	size_t body_len;
};

/* What a handler answers. */
struct pc__mock_ans {
	unsigned status;
	const char *content_type; /* static string */
	struct pc_buf body;	  /* the whole body, unless `sse` is used */
	struct pc_strvec headers; /* name, value, name, value, ... */
	struct pc_strvec sse;	  /* SSE events, sent one per chunk; when
				     non-empty the body is streamed */
};

/* Server state shared by the handlers; every handler runs under the
 * server's lock, so it may touch everything here. */
struct pc__mock_state {
	struct pc_mock *model;
	struct pc_mock_http_opts opts;
	unsigned port;
	unsigned chat_requests;	 /* ids of completions */
	unsigned issued;	 /* tokens issued */
	unsigned devices;	 /* device codes issued */
	unsigned pending_left;	 /* authorization_pending answers left */
	struct pc_strvec tokens; /* access tokens issued */
	cJSON *rtokens;		 /* single_use_refresh: refresh token ->
				    {"family": login number, "used": bool} */
	cJSON *revoked;		 /* families revoked by a reuse */
	unsigned families;	 /* logins (grants other than refresh) */
	cJSON *refreshes;	 /* the refresh grants
				    (pc_mock_http_refreshes) */
};

/* pc__mock_json_answer - set `a` to `status` with `v` (taken) printed as
 * the JSON body. */
void pc__mock_json_answer(struct pc__mock_ans *a, unsigned status, cJSON *v);
/* pc__mock_error_answer - an OpenAI error object {"error":{"message",
 * "type","code"}} with `status`. */
void pc__mock_error_answer(struct pc__mock_ans *a, unsigned status,
			   const char *type, const char *msg);

/* pc__mock_sse_events - the SSE events of a streamed completion of
 * `reply` (borrowed, the pc_mock_reply shape), appended to `out`. */
void pc__mock_sse_events(const cJSON *reply, const char *id, const char *model,
			 size_t chunk_size, bool include_usage,
			 struct pc_strvec *out);

/* pc__mock_oauth - answer the /oauth/ endpoints; false when `r->path` is
 * not one of them. */
bool pc__mock_oauth(struct pc__mock_state *st, const struct pc__mock_req *r,
		    struct pc__mock_ans *a);
/* pc__mock_is_refresh - `r` is a refresh_token grant (POST /oauth/token,
 * form-encoded or JSON). */
bool pc__mock_is_refresh(const struct pc__mock_req *r);
/* pc__mock_authorized - whether `r` carries a Bearer token issued here. */
bool pc__mock_authorized(const struct pc__mock_state *st,
			 const struct pc__mock_req *r);

#endif

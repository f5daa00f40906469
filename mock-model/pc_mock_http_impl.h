/* pc_mock_http_impl.h - private to mock-model/pc_mock_http*.c: one HTTP
 * request and its answer, independent of the wire, so the endpoint
 * handlers are plain functions over data. */
#ifndef PC_MOCK_HTTP_IMPL_H
#define PC_MOCK_HTTP_IMPL_H

#include <stdatomic.h>
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
	long long started;	 /* Unix seconds: /v1/models "created" */
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

/* ---- the wire (pc_mock_http_wire.c): HTTP/1.1 framing on one socket ---- */

struct pc__wire_limits {
	size_t max_head;	  /* request line + fields, bytes (431 past it) */
	size_t max_body;	  /* body bytes (413 past it) */
	int timeout_ms;		  /* each wait for the peer */
	const atomic_int *stop;	  /* set: give up waiting at once */
};

/* One client connection: its socket and the bytes read but not used. */
struct pc__wire_conn {
	int fd;
	struct pc_buf in; /* capped at max_head + max_body + 64 KiB */
};

/* One request as read off the wire. */
struct pc__wire_req {
	char *method, *path; /* path percent-decoded, without the query */
	cJSON *headers;	     /* lower-case name -> value (", "-joined) */
	cJSON *query;	     /* decoded query arguments */
	struct pc_buf body;
	int minor;	 /* HTTP/1.<minor> */
	bool keep_alive; /* the connection may carry another request */
	bool head;	 /* HEAD: no body in the answer */
	bool too_big;	 /* a body over max_body: not read; answer 413 and
			    close */
};

/* pc__wire_read - the next request of `c` into *r (zeroed by the caller;
 * release with pc__wire_req_release in every case). Returns 0; 1 when no
 * request came (EOF, idle past timeout_ms, stop); or the HTTP status to
 * answer before closing - 400 (malformed request line, header field,
 * Content-Length, chunked body; both Content-Length and
 * Transfer-Encoding), 408, 417 (an Expect other than 100-continue), 431,
 * 501 (a transfer coding other than chunked), 505 - with *why saying
 * what was wrong. A Content-Length over max_body (or past 64 bits) is 0
 * with r->too_big set and nothing of the body read. Sends "100
 * Continue" when the client asked for it and the body is acceptable. */
int pc__wire_read(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		  struct pc__wire_req *r, const char **why);
void pc__wire_req_release(struct pc__wire_req *r);
/* pc__wire_send - write answer `a` to request `r` (NULL: an error before
 * a request was read) with one status line, Content-Length (or chunked
 * for SSE to HTTP/1.1 clients), and Connection: keep-alive or close.
 * Returns 0, or -1 when the peer is gone or stops reading. */
int pc__wire_send(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		  const struct pc__wire_req *r, const struct pc__mock_ans *a,
		  bool keep_alive);
/* pc__wire_close - a lingering close of c->fd (at most 2 s, 16 MiB
 * drained) and release of c->in. */
void pc__wire_close(struct pc__wire_conn *c);

/* pc__mock_hexval - the value of hex digit `ch`, or -1. */
int pc__mock_hexval(int ch);

/* pc__mock_json_answer - set `a` to `status` with `v` (taken) printed as
 * the JSON body. */
void pc__mock_json_answer(struct pc__mock_ans *a, unsigned status, cJSON *v);
/* pc__mock_error_answer - an OpenAI error object {"error":{"message",
 * "type","param":null,"code"}} with `status`: `code` is a string as
 * OpenAI sends ("invalid_api_key", "rate_limit_exceeded") or NULL for
 * null. */
void pc__mock_error_answer(struct pc__mock_ans *a, unsigned status,
			   const char *type, const char *code,
			   const char *msg);

/* What a completion says about itself besides the message. */
struct pc__mock_completion {
	const char *id, *model;
	long long created;   /* Unix seconds when it was made */
	const cJSON *usage;  /* {prompt,completion,total}_tokens; for SSE,
				NULL: no usage chunk */
};

/* pc__mock_sse_events - the SSE events of a streamed completion of
 * `reply` (borrowed, the pc_mock_reply shape), appended to `out`; a usage
 * chunk last when m->usage is set (stream_options.include_usage). */
void pc__mock_sse_events(const cJSON *reply,
			 const struct pc__mock_completion *m,
			 size_t chunk_size, struct pc_strvec *out);

/* pc__mock_usage - the usage object of a completion: token counts
 * estimated from bytes (4 to a token, rounded up, as OpenAI's rule of
 * thumb; 4 more per message), prompt from the request's messages and
 * tools, completion from the reply's content, reasoning and tool calls.
 * Deterministic for the same request and reply. New object. */
cJSON *pc__mock_usage(const cJSON *messages, const cJSON *tools,
		      const cJSON *reply);

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

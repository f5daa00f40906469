/* pc_mock_http.c - the scripted model over HTTP, on libmicrohttpd. */
#include "pc_mock_http.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pc_mock.h"
#include "pc_mock_http_impl.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

struct pc_mock_http {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	pthread_cond_t done_cv;
	struct pc__mock_state st;
	cJSON *log;	    /* the request log */
	unsigned received;  /* requests started */
	unsigned completed; /* requests whose answer was sent or dropped */
	/* pc_mock_http_rendezvous: refresh grants held until rv_n wait */
	pthread_cond_t rv_cv;
	unsigned rv_n, rv_hold_ms;
	unsigned rv_waiting; /* in the current round */
	unsigned rv_round;   /* bumped when a round is released */
};

/* One connection's request while its body arrives. */
struct conn {
	struct pc_buf body;
	bool too_big;
};

/* The body of a streamed answer, handed out one event per call. */
struct stream {
	struct pc_strvec events;
	size_t i, off;
};

void pc__mock_json_answer(struct pc__mock_ans *a, unsigned status, cJSON *v)
{
	a->status = status;
	a->content_type = "application/json";
	pc_buf_reset(&a->body);
	pc_serde_print(v, &a->body);
	cJSON_Delete(v);
}

void pc__mock_error_answer(struct pc__mock_ans *a, unsigned status,
			   const char *type, const char *msg)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *e = cJSON_AddObjectToObject(v, "error");

	cJSON_AddStringToObject(e, "message", msg);
	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddNumberToObject(e, "code", status);
	pc__mock_json_answer(a, status, v);
}

static cJSON *models(const struct pc__mock_state *st)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "object", "list");
	cJSON_AddStringToObject(m, "id", st->opts.model_id);
	cJSON_AddStringToObject(m, "object", "model");
	cJSON_AddNumberToObject(m, "created", 0);
	cJSON_AddStringToObject(m, "owned_by", "plugcheck");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(v, "data"), m);
	return v;
}

static size_t chunk_size_of(const struct pc_mock *m)
{
	int n = pc_mock_chunk_size(m);

	return n > 0 ? (size_t)n : 16;
}

static void fault(struct pc__mock_ans *a, int status)
{
	char msg[96];

	snprintf(msg, sizeof(msg),
		 "plugcheck mock-model: scripted HTTP %d fault", status);
	pc__mock_error_answer(
		a, (unsigned)status,
		status == 429 ? "rate_limit_error" : "server_error", msg);
	if (status == 429) {
		pc_strvec_push(&a->headers, "Retry-After");
		pc_strvec_push(&a->headers, "0");
	}
}

/* The message as the client sees it: the reply without our own knobs. */
static cJSON *client_message(const cJSON *reply)
{
	cJSON *msg = cJSON_Duplicate(reply, 1);

	cJSON_DeleteItemFromObjectCaseSensitive(msg, "chunk_size");
	return msg;
}

static void completion(struct pc__mock_ans *a, const cJSON *reply,
		       const char *id, const char *model)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *ch = cJSON_CreateObject();
	cJSON *u;
	bool tools = cJSON_GetArraySize(pc_serde_get(reply, "tool_calls")) > 0;

	cJSON_AddStringToObject(v, "id", id);
	cJSON_AddStringToObject(v, "object", "chat.completion");
	cJSON_AddNumberToObject(v, "created", 0);
	cJSON_AddStringToObject(v, "model", model);
	cJSON_AddNumberToObject(ch, "index", 0);
	cJSON_AddItemToObject(ch, "message", client_message(reply));
	cJSON_AddStringToObject(ch, "finish_reason",
				tools ? "tool_calls" : "stop");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(v, "choices"), ch);
	u = cJSON_AddObjectToObject(v, "usage");
	cJSON_AddNumberToObject(u, "prompt_tokens", 0);
	cJSON_AddNumberToObject(u, "completion_tokens", 0);
	cJSON_AddNumberToObject(u, "total_tokens", 0);
	pc__mock_json_answer(a, 200, v);
}

/* POST /v1/chat/completions. Returns whether pc_mock recorded it. */
static bool chat(struct pc__mock_state *st, const struct pc__mock_req *r,
		 struct pc__mock_ans *a)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *body = NULL, *reply = NULL;
	const cJSON *model, *so;
	const char *model_id;
	char id[48];
	int status = 0;

	if (pc_serde_parse(r->body, r->body_len, &body, &err) < 0) {
		char *m = pc_xasprintf("request body is not JSON: %s", err.msg);

		pc__mock_error_answer(a, 400, "invalid_request_error", m);
		free(m);
		return false;
	}
	if (pc_mock_reply(st->model, pc_serde_get(body, "messages"),
			  pc_serde_get(body, "tools"), &reply, &status,
			  &err) < 0) {
		pc__mock_error_answer(a, 400, "invalid_request_error", err.msg);
		cJSON_Delete(body);
		return false;
	}
	st->chat_requests++;
	model = pc_serde_get(body, "model");
	model_id =
		cJSON_IsString(model) ? model->valuestring : st->opts.model_id;
	snprintf(id, sizeof(id), "chatcmpl-mock-%u", st->chat_requests);
	if (!reply) {
		fault(a, status ? status : 500);
	} else if (cJSON_IsTrue(pc_serde_get(body, "stream"))) {
		so = pc_serde_get(body, "stream_options");
		a->status = 200;
		a->content_type = "text/event-stream";
		pc_strvec_push(&a->headers, "Cache-Control");
		pc_strvec_push(&a->headers, "no-cache");
		pc__mock_sse_events(
			reply, id, model_id, chunk_size_of(st->model),
			cJSON_IsTrue(pc_serde_get(so, "include_usage")),
			&a->sse);
	} else {
		completion(a, reply, id, model_id);
	}
	cJSON_Delete(reply);
	cJSON_Delete(body);
	return true;
}

static void dispatch(struct pc__mock_state *st, const struct pc__mock_req *r,
		     struct pc__mock_ans *a, bool *recorded)
{
	bool post = !strcmp(r->method, "POST"), get = !strcmp(r->method, "GET");

	*recorded = false;
	if (pc__mock_oauth(st, r, a))
		return;
	if (!strncmp(r->path, "/v1/", 4) && st->opts.require_auth &&
	    !pc__mock_authorized(st, r)) {
		pc__mock_error_answer(a, 401, "invalid_request_error",
				      "missing or unknown Bearer token");
	} else if (!strcmp(r->path, "/v1/chat/completions") && post) {
		*recorded = chat(st, r, a);
	} else if (!strcmp(r->path, "/v1/models") && get) {
		pc__mock_json_answer(a, 200, models(st));
	} else if (!strcmp(r->path, "/v1/chat/completions") ||
		   !strcmp(r->path, "/v1/models")) {
		pc__mock_error_answer(a, 405, "invalid_request_error",
				      "method not allowed");
	} else {
		pc__mock_error_answer(a, 404, "invalid_request_error",
				      "no such endpoint");
	}
}

static enum MHD_Result add_kv(void *cls, enum MHD_ValueKind kind,
			      const char *key, const char *value)
{
	cJSON *obj = cls;
	char *low = pc_xstrdup(key);
	const cJSON *old;

	(void)kind;
	if (kind == MHD_HEADER_KIND)
		for (char *c = low; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
	old = pc_serde_get(obj, low);
	if (old && kind == MHD_HEADER_KIND) {
		char *j = pc_xasprintf("%s, %s", old->valuestring,
				       value ? value : "");

		cJSON_ReplaceItemInObjectCaseSensitive(obj, low,
						       cJSON_CreateString(j));
		free(j);
	} else {
		cJSON_DeleteItemFromObjectCaseSensitive(obj, low);
		cJSON_AddStringToObject(obj, low, value ? value : "");
	}
	free(low);
	return MHD_YES;
}

static void write_record(const struct pc_mock_http *s)
{
	const char *path = s->st.opts.record_path;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *tmp;
	FILE *f;

	if (!path)
		return;
	pc_serde_print_pretty(s->log, &b);
	pc_buf_addch(&b, '\n');
	tmp = pc_xasprintf("%s.tmp", path);
	f = fopen(tmp, "w");
	if (f) {
		bool ok = fwrite(b.data, 1, b.len, f) == b.len;

		if (fclose(f) == 0 && ok)
			rename(tmp, path);
	}
	free(tmp);
	pc_buf_release(&b);
}

static void record(struct pc_mock_http *s, const struct pc__mock_req *r,
		   const struct pc__mock_ans *a, bool in_transcript)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "method", r->method);
	cJSON_AddStringToObject(e, "path", r->path);
	cJSON_AddItemToObject(e, "query", cJSON_Duplicate(r->query, 1));
	cJSON_AddItemToObject(e, "headers", cJSON_Duplicate(r->headers, 1));
	cJSON_AddStringToObject(e, "body", r->body);
	cJSON_AddNumberToObject(e, "status", a->status);
	cJSON_AddItemToArray(s->log, e);
	if (in_transcript) {
		pc_mock_record_extra(s->st.model, "method",
				     cJSON_CreateString(r->method));
		pc_mock_record_extra(s->st.model, "path",
				     cJSON_CreateString(r->path));
		pc_mock_record_extra(s->st.model, "headers",
				     cJSON_Duplicate(r->headers, 1));
		pc_mock_record_extra(s->st.model, "body",
				     cJSON_CreateString(r->body));
	}
	write_record(s);
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *st = cls;
	const char *ev;
	size_t n;

	(void)pos;
	if (st->i >= st->events.nr)
		return MHD_CONTENT_READER_END_OF_STREAM;
	ev = st->events.v[st->i];
	n = strlen(ev + st->off);
	if (n > max)
		n = max;
	memcpy(buf, ev + st->off, n);
	st->off += n;
	if (!ev[st->off]) {
		st->i++;
		st->off = 0;
	}
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	struct stream *st = cls;

	pc_strvec_release(&st->events);
	free(st);
}

static enum MHD_Result send_answer(struct MHD_Connection *c,
				   struct pc__mock_ans *a)
{
	struct MHD_Response *resp;
	enum MHD_Result rc;

	if (a->sse.nr) {
		struct stream *st = pc_xcalloc(1, sizeof(*st));

		st->events = a->sse;
		pc_strvec_init(&a->sse);
		resp = MHD_create_response_from_callback(
			MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
	} else {
		resp = MHD_create_response_from_buffer(
			a->body.len, a->body.len ? a->body.data : (void *)"",
			MHD_RESPMEM_MUST_COPY);
	}
	if (!resp)
		return MHD_NO;
	if (a->content_type)
		MHD_add_response_header(resp, "Content-Type", a->content_type);
	for (size_t i = 0; i + 1 < a->headers.nr; i += 2)
		MHD_add_response_header(resp, a->headers.v[i],
					a->headers.v[i + 1]);
	rc = MHD_queue_response(c, a->status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static struct timespec deadline_in(unsigned ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* A refresh grant waits for the others of its round (its connection has
 * a thread of its own: single_use_refresh starts the daemon so). */
static void rendezvous(struct pc_mock_http *s, const struct pc__mock_req *r)
{
	struct timespec ts;
	unsigned round;

	pthread_mutex_lock(&s->lock);
	if (s->rv_n <= 1 || !s->st.opts.single_use_refresh ||
	    !pc__mock_is_refresh(r)) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	ts = deadline_in(s->rv_hold_ms);
	round = s->rv_round;
	if (++s->rv_waiting >= s->rv_n) {
		s->rv_waiting = 0;
		s->rv_round++;
		pthread_cond_broadcast(&s->rv_cv);
	} else {
		while (round == s->rv_round)
			if (pthread_cond_timedwait(&s->rv_cv, &s->lock, &ts))
				break;
		if (round == s->rv_round) /* held long enough: alone */
			s->rv_waiting--;
	}
	pthread_mutex_unlock(&s->lock);
}

static enum MHD_Result answer(struct pc_mock_http *s, struct MHD_Connection *c,
			      const char *url, const char *method,
			      struct conn *cn)
{
	struct pc__mock_ans a = { .status = 500 };
	struct pc__mock_req r = { .method = method, .path = url };
	cJSON *query = cJSON_CreateObject(), *headers = cJSON_CreateObject();
	bool recorded = false;
	enum MHD_Result rc;

	pc_buf_init(&a.body, PC_BUF_NOCAP);
	pc_strvec_init(&a.headers);
	pc_strvec_init(&a.sse);
	MHD_get_connection_values(c, MHD_HEADER_KIND, add_kv, headers);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_kv, query);
	r.query = query;
	r.headers = headers;
	r.body = pc_buf_cstr(&cn->body);
	r.body_len = cn->body.len;
	rendezvous(s, &r);
	pthread_mutex_lock(&s->lock);
	if (s->st.opts.max_requests && s->received > s->st.opts.max_requests) {
		char *m = pc_xasprintf(
			"plugcheck mock-model: the budget of %u requests is used up",
			s->st.opts.max_requests);

		pc__mock_error_answer(&a, 503, "server_error", m);
		free(m);
	} else if (cn->too_big) {
		pc__mock_error_answer(&a, 413, "invalid_request_error",
				      "request body too large");
	} else {
		dispatch(&s->st, &r, &a, &recorded);
	}
	record(s, &r, &a, recorded);
	pthread_mutex_unlock(&s->lock);
	rc = send_answer(c, &a);
	cJSON_Delete(query);
	cJSON_Delete(headers);
	pc_buf_release(&a.body);
	pc_strvec_release(&a.headers);
	pc_strvec_release(&a.sse);
	return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct pc_mock_http *s = cls;
	struct conn *cn = *con_cls;

	(void)version;
	if (!cn) {
		cn = pc_xcalloc(1, sizeof(*cn));
		pc_buf_init(&cn->body, s->st.opts.max_body);
		*con_cls = cn;
		pthread_mutex_lock(&s->lock);
		s->received++;
		pthread_mutex_unlock(&s->lock);
		return MHD_YES;
	}
	if (*upload_size) {
		if (pc_buf_add(&cn->body, upload, *upload_size) < 0)
			cn->too_big = true;
		*upload_size = 0;
		return MHD_YES;
	}
	return answer(s, c, url, method, cn);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct pc_mock_http *s = cls;
	struct conn *cn = *con_cls;

	(void)c;
	(void)toe;
	if (!cn)
		return;
	pc_buf_release(&cn->body);
	free(cn);
	*con_cls = NULL;
	pthread_mutex_lock(&s->lock);
	s->completed++;
	if (s->st.opts.max_requests && s->completed >= s->st.opts.max_requests)
		pthread_cond_broadcast(&s->done_cv);
	pthread_mutex_unlock(&s->lock);
}

static void init_sync(struct pc_mock_http *s)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->done_cv, &ca);
	pthread_cond_init(&s->rv_cv, &ca);
	pthread_condattr_destroy(&ca);
}

static void free_server(struct pc_mock_http *s)
{
	pthread_cond_destroy(&s->done_cv);
	pthread_cond_destroy(&s->rv_cv);
	pthread_mutex_destroy(&s->lock);
	pc_strvec_release(&s->st.tokens);
	cJSON_Delete(s->st.rtokens);
	cJSON_Delete(s->st.revoked);
	cJSON_Delete(s->st.refreshes);
	cJSON_Delete(s->log);
	free(s);
}

int pc_mock_http_start(struct pc_mock *m, const struct pc_mock_http_opts *opts,
		       struct pc_mock_http **out, struct pc_err *err)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct pc_mock_http *s;
	const union MHD_DaemonInfo *info;

	*out = NULL;
	if (opts->port > 65535)
		return pc_err_set(err, PC_EINVAL, "port %u is out of range",
				  opts->port);
	s = pc_xcalloc(1, sizeof(*s));
	init_sync(s);
	s->st.model = m;
	s->st.opts = *opts;
	if (!s->st.opts.model_id)
		s->st.opts.model_id = "plugcheck-mock";
	if (!s->st.opts.conn_timeout_s)
		s->st.opts.conn_timeout_s = 10;
	if (!s->st.opts.max_body)
		s->st.opts.max_body = (size_t)8 << 20;
	pc_strvec_init(&s->st.tokens);
	s->log = cJSON_CreateArray();
	/* 127.0.0.1 only: the listening socket is bound to loopback here,
	 * never to INADDR_ANY or another interface. */
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)opts->port);
	errno = 0;
	s->daemon = MHD_start_daemon(
		(opts->single_use_refresh ? MHD_USE_THREAD_PER_CONNECTION
					  : MHD_USE_AUTO) |
			MHD_USE_INTERNAL_POLLING_THREAD,
		(uint16_t)opts->port, NULL, NULL, on_request, s,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a,
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)s->st.opts.conn_timeout_s,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64, MHD_OPTION_END);
	if (!s->daemon) {
		int e = errno;

		free_server(s);
		return pc_err_set_errno(err, PC_EIO, e ? e : EADDRINUSE,
					"cannot serve on 127.0.0.1:%u",
					opts->port);
	}
	info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
	s->st.port = info ? info->port : opts->port;
	*out = s;
	return 0;
}

void pc_mock_http_stop(struct pc_mock_http *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->daemon);
	free_server(s);
}

unsigned pc_mock_http_port(const struct pc_mock_http *s)
{
	return s->st.port;
}

cJSON *pc_mock_http_requests(struct pc_mock_http *s)
{
	cJSON *copy;

	pthread_mutex_lock(&s->lock);
	copy = cJSON_Duplicate(s->log, 1);
	pthread_mutex_unlock(&s->lock);
	return copy;
}

unsigned pc_mock_http_count(struct pc_mock_http *s)
{
	unsigned n;

	pthread_mutex_lock(&s->lock);
	n = s->received;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void pc_mock_http_rendezvous(struct pc_mock_http *s, unsigned n,
			     unsigned hold_ms)
{
	pthread_mutex_lock(&s->lock);
	s->rv_n = n;
	s->rv_hold_ms = hold_ms;
	s->rv_waiting = 0;
	s->rv_round++;
	pthread_cond_broadcast(&s->rv_cv);
	pthread_mutex_unlock(&s->lock);
}

cJSON *pc_mock_http_refreshes(struct pc_mock_http *s)
{
	cJSON *copy;

	pthread_mutex_lock(&s->lock);
	copy = s->st.refreshes ? cJSON_Duplicate(s->st.refreshes, 1)
			       : cJSON_CreateArray();
	pthread_mutex_unlock(&s->lock);
	return copy;
}

bool pc_mock_http_wait(struct pc_mock_http *s, int timeout_ms)
{
	struct timespec ts;
	bool done;

	ts = deadline_in(timeout_ms < 0 ? 0 : (unsigned)timeout_ms);
	pthread_mutex_lock(&s->lock);
	while (!(done = s->st.opts.max_requests &&
			s->completed >= s->st.opts.max_requests))
		if (pthread_cond_timedwait(&s->done_cv, &s->lock, &ts))
			break;
	pthread_mutex_unlock(&s->lock);
	return done;
}

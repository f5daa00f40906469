#define _GNU_SOURCE /* accept4, pipe2 */
/* pc_mock_http.c - the scripted model over HTTP: the endpoints, the
 * request log, and the server (a listening socket on 127.0.0.1, an accept
 * thread, one thread per connection; the framing is pc_mock_http_wire.c). */
#include "pc_mock_http.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pc_mock.h"
#include "pc_mock_http_impl.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

/* At most this many connections at once; more are answered 503. */
#define MAX_CONNS 64
/* The request line and header fields, bytes (431 past it). */
#define MAX_HEAD ((size_t)64 << 10)

struct pc_mock_http {
	pthread_mutex_t lock;
	pthread_cond_t done_cv; /* completed reached the budget; conns 0 */
	struct pc__mock_state st;
	cJSON *log;	    /* the request log */
	unsigned received;  /* requests started */
	unsigned completed; /* requests whose answer was sent or dropped */
	int listen_fd;
	int wake[2];	    /* the accept thread's wake-up pipe */
	pthread_t acceptor;
	atomic_int stop;    /* set by pc_mock_http_stop */
	unsigned conns;	    /* connection threads alive */
	/* pc_mock_http_rendezvous: refresh grants held until rv_n wait */
	pthread_cond_t rv_cv;
	unsigned rv_n, rv_hold_ms;
	unsigned rv_waiting; /* in the current round */
	unsigned rv_round;   /* bumped when a round is released */
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
			   const char *type, const char *code,
			   const char *msg)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *e = cJSON_AddObjectToObject(v, "error");

	cJSON_AddStringToObject(e, "message", msg);
	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddNullToObject(e, "param");
	if (code)
		cJSON_AddStringToObject(e, "code", code);
	else
		cJSON_AddNullToObject(e, "code");
	pc__mock_json_answer(a, status, v);
}

static cJSON *models(const struct pc__mock_state *st)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "object", "list");
	cJSON_AddStringToObject(m, "id", st->opts.model_id);
	cJSON_AddStringToObject(m, "object", "model");
	cJSON_AddNumberToObject(m, "created", (double)st->started);
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
		status == 429 ? "rate_limit_error" : "server_error",
		status == 429 ? "rate_limit_exceeded" : NULL, msg);
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

static int tokens(size_t bytes)
{
	return (int)((bytes + 3) / 4);
}

static size_t json_bytes(const cJSON *v)
{
	char *t = v ? pc_serde_to_string(v) : NULL;
	size_t n = t ? strlen(t) : 0;

	free(t);
	return n;
}

cJSON *pc__mock_usage(const cJSON *messages, const cJSON *tools,
		      const cJSON *reply)
{
	cJSON *u = cJSON_CreateObject();
	const cJSON *m, *c;
	int prompt = 0, done = 0;

	cJSON_ArrayForEach(m, messages)
	{
		c = pc_serde_get(m, "content");
		prompt += 4 + tokens(cJSON_IsString(c) ? strlen(c->valuestring)
						       : json_bytes(c));
		prompt += tokens(json_bytes(pc_serde_get(m, "tool_calls")));
	}
	prompt += tokens(json_bytes(tools));
	c = pc_serde_get(reply, "content");
	if (cJSON_IsString(c))
		done += tokens(strlen(c->valuestring));
	c = pc_serde_get(reply, "reasoning_content");
	if (cJSON_IsString(c))
		done += tokens(strlen(c->valuestring));
	cJSON_ArrayForEach(c, pc_serde_get(reply, "tool_calls"))
		done += tokens(json_bytes(pc_serde_get(c, "function")));
	cJSON_AddNumberToObject(u, "prompt_tokens", prompt);
	cJSON_AddNumberToObject(u, "completion_tokens", done);
	cJSON_AddNumberToObject(u, "total_tokens", prompt + done);
	return u;
}

static void completion(struct pc__mock_ans *a, const cJSON *reply,
		       const struct pc__mock_completion *m)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *ch = cJSON_CreateObject();
	bool tools = cJSON_GetArraySize(pc_serde_get(reply, "tool_calls")) > 0;

	cJSON_AddStringToObject(v, "id", m->id);
	cJSON_AddStringToObject(v, "object", "chat.completion");
	cJSON_AddNumberToObject(v, "created", (double)m->created);
	cJSON_AddStringToObject(v, "model", m->model);
	cJSON_AddNumberToObject(ch, "index", 0);
	cJSON_AddItemToObject(ch, "message", client_message(reply));
	cJSON_AddStringToObject(ch, "finish_reason",
				tools ? "tool_calls" : "stop");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(v, "choices"), ch);
	cJSON_AddItemToObject(v, "usage", cJSON_Duplicate(m->usage, 1));
	pc__mock_json_answer(a, 200, v);
}

/* POST /v1/chat/completions. Returns whether pc_mock recorded it. */
static bool chat(struct pc__mock_state *st, const struct pc__mock_req *r,
		 struct pc__mock_ans *a)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *body = NULL, *reply = NULL, *usage;
	const cJSON *model, *so;
	struct pc__mock_completion m = { .created = (long long)time(NULL) };
	char id[48];
	int status = 0;

	if (pc_serde_parse(r->body, r->body_len, &body, &err) < 0) {
		char *msg = pc_xasprintf("request body is not JSON: %s",
					 err.msg);

		pc__mock_error_answer(a, 400, "invalid_request_error", NULL,
				      msg);
		free(msg);
		return false;
	}
	if (pc_mock_reply(st->model, pc_serde_get(body, "messages"),
			  pc_serde_get(body, "tools"), &reply, &status,
			  &err) < 0) {
		pc__mock_error_answer(a, 400, "invalid_request_error", NULL,
				      err.msg);
		cJSON_Delete(body);
		return false;
	}
	st->chat_requests++;
	model = pc_serde_get(body, "model");
	m.model =
		cJSON_IsString(model) ? model->valuestring : st->opts.model_id;
	snprintf(id, sizeof(id), "chatcmpl-mock-%u", st->chat_requests);
	m.id = id;
	usage = pc__mock_usage(pc_serde_get(body, "messages"),
			       pc_serde_get(body, "tools"), reply);
	m.usage = usage;
	if (!reply) {
		fault(a, status ? status : 500);
	} else if (cJSON_IsTrue(pc_serde_get(body, "stream"))) {
		so = pc_serde_get(body, "stream_options");
		a->status = 200;
		a->content_type = "text/event-stream";
		pc_strvec_push(&a->headers, "Cache-Control");
		pc_strvec_push(&a->headers, "no-cache");
		if (!cJSON_IsTrue(pc_serde_get(so, "include_usage")))
			m.usage = NULL;
		pc__mock_sse_events(reply, &m, chunk_size_of(st->model),
				    &a->sse);
	} else {
		completion(a, reply, &m);
	}
	cJSON_Delete(usage);
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
				      "invalid_api_key",
				      "missing or unknown Bearer token");
	} else if (!strcmp(r->path, "/v1/chat/completions") && post) {
		*recorded = chat(st, r, a);
	} else if (!strcmp(r->path, "/v1/models") && get) {
		pc__mock_json_answer(a, 200, models(st));
	} else if (!strcmp(r->path, "/v1/chat/completions") ||
		   !strcmp(r->path, "/v1/models")) {
		pc__mock_error_answer(a, 405, "invalid_request_error", NULL,
				      "method not allowed");
	} else {
		pc__mock_error_answer(a, 404, "invalid_request_error", NULL,
				      "no such endpoint");
	}
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
 * a thread of its own: serve_conn). */
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

/* One request: count it, answer it under the lock (the budget, a body
 * over the limit, the endpoints), record it, send the answer. Returns
 * whether the connection may carry another request. */
static bool answer(struct pc_mock_http *s, struct pc__wire_conn *c,
		   const struct pc__wire_limits *l, struct pc__wire_req *w)
{
	struct pc__mock_ans a = { .status = 500 };
	struct pc__mock_req r = { .method = w->method,
				  .path = w->path,
				  .query = w->query,
				  .headers = w->headers,
				  .body = pc_buf_cstr(&w->body),
				  .body_len = w->body.len };
	bool recorded = false, keep = w->keep_alive;

	pc_buf_init(&a.body, PC_BUF_NOCAP);
	pc_strvec_init(&a.headers);
	pc_strvec_init(&a.sse);
	rendezvous(s, &r);
	pthread_mutex_lock(&s->lock);
	s->received++;
	if (s->st.opts.max_requests && s->received > s->st.opts.max_requests) {
		char *m = pc_xasprintf(
			"plugcheck mock-model: the budget of %u requests is used up",
			s->st.opts.max_requests);

		pc__mock_error_answer(&a, 503, "server_error", NULL, m);
		free(m);
	} else if (w->too_big) {
		char *m = pc_xasprintf(
			"request body too large: the limit is %zu bytes",
			s->st.opts.max_body);

		pc__mock_error_answer(&a, 413, "invalid_request_error", NULL,
				      m);
		free(m);
	} else {
		dispatch(&s->st, &r, &a, &recorded);
	}
	record(s, &r, &a, recorded);
	pthread_mutex_unlock(&s->lock);
	if (pc__wire_send(c, l, w, &a, keep && !s->stop) < 0)
		keep = false;
	pc_buf_release(&a.body);
	pc_strvec_release(&a.headers);
	pc_strvec_release(&a.sse);
	pthread_mutex_lock(&s->lock);
	s->completed++;
	if (s->st.opts.max_requests && s->completed >= s->st.opts.max_requests)
		pthread_cond_broadcast(&s->done_cv);
	pthread_mutex_unlock(&s->lock);
	return keep && !s->stop;
}

/* A request the wire refused (malformed, too large a head, ...): its
 * JSON error, then the connection closes. Not a request of the API, so
 * neither counted nor recorded. */
static void refuse(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		   int status, const char *why)
{
	struct pc__mock_ans a = { .status = (unsigned)status };

	pc_buf_init(&a.body, PC_BUF_NOCAP);
	pc_strvec_init(&a.headers);
	pc_strvec_init(&a.sse);
	pc__mock_error_answer(&a, (unsigned)status, "invalid_request_error",
			      NULL, why);
	pc__wire_send(c, l, NULL, &a, false);
	pc_buf_release(&a.body);
	pc_strvec_release(&a.headers);
}

struct conn_arg {
	struct pc_mock_http *s;
	int fd;
};

static void *serve_conn(void *p)
{
	struct conn_arg *ca = p;
	struct pc_mock_http *s = ca->s;
	const struct pc__wire_limits l = {
		.max_head = MAX_HEAD,
		.max_body = s->st.opts.max_body,
		.timeout_ms = (int)s->st.opts.conn_timeout_s * 1000,
		.stop = &s->stop,
	};
	struct pc__wire_conn c = { .fd = ca->fd };
	bool more = true;

	free(ca);
	pc_buf_init(&c.in, MAX_HEAD + l.max_body + ((size_t)64 << 10));
	while (more) {
		struct pc__wire_req w = { 0 };
		const char *why = "";
		int rc = pc__wire_read(&c, &l, &w, &why);

		if (rc == 1)
			more = false;
		else if (rc) {
			refuse(&c, &l, rc, why);
			more = false;
		} else {
			more = answer(s, &c, &l, &w);
		}
		pc__wire_req_release(&w);
	}
	pc__wire_close(&c);
	pthread_mutex_lock(&s->lock);
	s->conns--;
	pthread_cond_broadcast(&s->done_cv);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Over MAX_CONNS: a short 503 and close, without a thread. */
static void busy(int fd)
{
	static const char msg[] =
		"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
		"Content-Length: 120\r\nConnection: close\r\n\r\n"
		"{\"error\":{\"code\":null,\"message\":\"plugcheck mock-model: too many connections at once\",\"param\":null,\"type\":\"server_error\"}}";

	if (send(fd, msg, sizeof(msg) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		(void)0; /* the client is gone: nothing to tell */
	close(fd);
}

static void *accept_loop(void *p)
{
	struct pc_mock_http *s = p;

	while (!s->stop) {
		struct pollfd pf[2] = { { .fd = s->listen_fd, .events = POLLIN },
					{ .fd = s->wake[0], .events = POLLIN } };
		struct conn_arg *ca;
		pthread_attr_t at;
		pthread_t t;
		int fd;

		if (poll(pf, 2, 1000) <= 0 || !(pf[0].revents & POLLIN))
			continue;
		fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		pthread_mutex_lock(&s->lock);
		if (s->conns >= MAX_CONNS || s->stop) {
			pthread_mutex_unlock(&s->lock);
			busy(fd);
			continue;
		}
		s->conns++;
		pthread_mutex_unlock(&s->lock);
		ca = pc_xcalloc(1, sizeof(*ca));
		ca->s = s;
		ca->fd = fd;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &at, serve_conn, ca)) {
			free(ca);
			close(fd);
			pthread_mutex_lock(&s->lock);
			s->conns--;
			pthread_mutex_unlock(&s->lock);
		}
		pthread_attr_destroy(&at);
	}
	return NULL;
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
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->wake[0] >= 0)
		close(s->wake[0]);
	if (s->wake[1] >= 0)
		close(s->wake[1]);
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

/* The listening socket on 127.0.0.1 only: never INADDR_ANY or another
 * interface. Returns the fd or -1 (errno set). */
static int listen_on(unsigned port, unsigned *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, e;

	if (fd < 0)
		return -1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

int pc_mock_http_start(struct pc_mock *m, const struct pc_mock_http_opts *opts,
		       struct pc_mock_http **out, struct pc_err *err)
{
	struct pc_mock_http *s;
	int e;

	*out = NULL;
	if (opts->port > 65535)
		return pc_err_set(err, PC_EINVAL, "port %u is out of range",
				  opts->port);
	s = pc_xcalloc(1, sizeof(*s));
	s->listen_fd = s->wake[0] = s->wake[1] = -1;
	init_sync(s);
	s->st.model = m;
	s->st.opts = *opts;
	s->st.started = (long long)time(NULL);
	if (!s->st.opts.model_id)
		s->st.opts.model_id = "plugcheck-mock";
	if (!s->st.opts.conn_timeout_s)
		s->st.opts.conn_timeout_s = 10;
	if (!s->st.opts.max_body)
		s->st.opts.max_body = (size_t)8 << 20;
	pc_strvec_init(&s->st.tokens);
	s->log = cJSON_CreateArray();
	s->listen_fd = listen_on(opts->port, &s->st.port);
	if (s->listen_fd < 0 || pipe2(s->wake, O_CLOEXEC) ||
	    pthread_create(&s->acceptor, NULL, accept_loop, s)) {
		e = errno;
		free_server(s);
		return pc_err_set_errno(err, PC_EIO, e ? e : EADDRINUSE,
					"cannot serve on 127.0.0.1:%u",
					opts->port);
	}
	*out = s;
	return 0;
}

void pc_mock_http_stop(struct pc_mock_http *s)
{
	if (!s)
		return;
	s->stop = 1;
	if (write(s->wake[1], "x", 1) < 0)
		(void)0; /* the acceptor also wakes within a second */
	pthread_join(s->acceptor, NULL);
	/* every connection thread sees `stop` within a poll tick */
	pthread_mutex_lock(&s->lock);
	while (s->conns)
		pthread_cond_wait(&s->done_cv, &s->lock);
	pthread_mutex_unlock(&s->lock);
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

#define _GNU_SOURCE /* strcasestr */
/* pc_mock_http_wire.c - HTTP/1.1 framing of the mock server on one socket
 * (RFC 9112): request line, header fields, Content-Length or chunked
 * bodies, Expect: 100-continue, keep-alive, and responses with one status
 * line each. Every malformed request gets a JSON error of its own rather
 * than a library's HTML page, and a declared body over the limit is
 * refused (413) before a byte of it is read. */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pc_mock_http_impl.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define TICK_MS 100

/* Wait until fd is ready for `events`, the deadline passes or *stop is
 * set. Returns 1 ready, 0 timeout or stop, -1 error. */
static int wait_fd(int fd, short events, int64_t deadline,
		   const atomic_int *stop)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline - pc_time_now_ms();
		int n;

		if ((stop && *stop) || left <= 0)
			return 0;
		n = poll(&p, 1, left < TICK_MS ? (int)left : TICK_MS);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* Read more into c->in. Returns bytes read, 0 at EOF, -1 on timeout,
 * stop or error. */
static ssize_t fill(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		    size_t want)
{
	char buf[16384];
	ssize_t n;
	int64_t deadline = pc_time_now_ms() + l->timeout_ms;

	if (want > sizeof(buf))
		want = sizeof(buf);
	if (!want)
		want = 1;
	for (;;) {
		if (wait_fd(c->fd, POLLIN, deadline, l->stop) <= 0)
			return -1;
		n = recv(c->fd, buf, want, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (pc_buf_add(&c->in, buf, (size_t)n) < 0)
			return -1; /* more than a request may hold */
		return n;
	}
}

/* Drop the first n bytes of c->in. */
static void consume(struct pc__wire_conn *c, size_t n)
{
	memmove(c->in.data, c->in.data + n, c->in.len - n);
	c->in.len -= n;
	c->in.data[c->in.len] = '\0';
}

int pc__mock_hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Percent-decoding (and '+' as a space in a query), as a new string. */
static char *unescape(const char *s, size_t n, bool plus)
{
	char *out = pc_xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && pc__mock_hexval(s[i + 1]) >= 0 &&
		    pc__mock_hexval(s[i + 2]) >= 0) {
			*o++ = (char)(pc__mock_hexval(s[i + 1]) * 16 + pc__mock_hexval(s[i + 2]));
			i += 2;
		} else {
			*o++ = plus && s[i] == '+' ? ' ' : s[i];
		}
	}
	*o = '\0';
	return out;
}

static void parse_query(const char *q, cJSON *out)
{
	while (*q) {
		size_t n = strcspn(q, "&"), k = strcspn(q, "=&");
		char *key = unescape(q, k, true);
		char *val = k < n ? unescape(q + k + 1, n - k - 1, true)
				  : pc_xstrdup("");

		if (*key) {
			cJSON_DeleteItemFromObjectCaseSensitive(out, key);
			cJSON_AddStringToObject(out, key, val);
		}
		free(key);
		free(val);
		q += n + (q[n] == '&');
	}
}

static bool is_tchar(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* One header field into r->headers (lower-case name; repeats joined by
 * ", "). Returns 0, or -1 for a malformed line. */
static int add_field(struct pc__wire_req *r, const char *line, size_t n)
{
	size_t k = 0, v, e = n;
	char *name, *val;
	const cJSON *old;

	while (k < n && is_tchar((unsigned char)line[k]))
		k++;
	if (!k || k >= n || line[k] != ':')
		return -1;
	v = k + 1;
	while (v < e && (line[v] == ' ' || line[v] == '\t'))
		v++;
	while (e > v && (line[e - 1] == ' ' || line[e - 1] == '\t'))
		e--;
	for (size_t i = v; i < e; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			return -1;
	name = pc_xmemdup(line, k);
	for (char *p = name; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	val = pc_xmemdup(line + v, e - v);
	old = cJSON_GetObjectItemCaseSensitive(r->headers, name);
	if (old) {
		char *j = pc_xasprintf("%s, %s", old->valuestring, val);

		cJSON_ReplaceItemInObjectCaseSensitive(r->headers, name,
						       cJSON_CreateString(j));
		free(j);
	} else {
		cJSON_AddStringToObject(r->headers, name, val);
	}
	free(name);
	free(val);
	return 0;
}

/* The request line "METHOD SP TARGET SP HTTP/1.x". Returns 0 or an HTTP
 * status. */
static int request_line(struct pc__wire_req *r, const char *line, size_t n,
			const char **why)
{
	const char *sp1 = memchr(line, ' ', n), *sp2, *q;
	size_t m;

	*why = "malformed request line (want: METHOD /path HTTP/1.1)";
	if (!sp1 || sp1 == line)
		return 400;
	for (const char *p = line; p < sp1; p++)
		if (!is_tchar((unsigned char)*p))
			return 400;
	sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - line));
	if (!sp2 || sp2 == sp1 + 1 || sp1[1] != '/')
		return 400;
	m = n - (size_t)(sp2 + 1 - line);
	if (m != 8 || strncmp(sp2 + 1, "HTTP/1.", 7) ||
	    (sp2[8] != '0' && sp2[8] != '1')) {
		if (m == 8 && !strncmp(sp2 + 1, "HTTP/", 5)) {
			*why = "only HTTP/1.0 and HTTP/1.1 are served";
			return 505;
		}
		return 400;
	}
	for (const char *p = sp1 + 1; p < sp2; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return 400;
	r->minor = sp2[8] - '0';
	r->method = pc_xmemdup(line, (size_t)(sp1 - line));
	q = memchr(sp1 + 1, '?', (size_t)(sp2 - sp1 - 1));
	r->path = unescape(sp1 + 1, (size_t)((q ? q : sp2) - sp1 - 1), false);
	if (q) {
		char *raw = pc_xmemdup(q + 1, (size_t)(sp2 - q - 1));

		parse_query(raw, r->query);
		free(raw);
	}
	return 0;
}

/* Content-Length: 1*DIGIT, every copy the same (a list joined by ", "
 * from repeated fields, or given as one). Returns 0 with *len, -1 when
 * malformed, 1 when it does not fit 64 bits. */
static int content_length(const char *v, uint64_t *len)
{
	bool first = true;

	while (*v) {
		uint64_t x = 0;
		size_t d = strspn(v, "0123456789");

		if (!d)
			return -1;
		for (size_t i = 0; i < d; i++) {
			if (x > (UINT64_MAX - 9) / 10)
				return 1;
			x = x * 10 + (uint64_t)(v[i] - '0');
		}
		if (!first && x != *len)
			return -1;
		*len = x;
		first = false;
		v += d;
		v += strspn(v, " \t");
		if (*v == ',')
			v += 1 + strspn(v + 1, " \t");
		else if (*v)
			return -1;
	}
	return first ? -1 : 0;
}

/* Read the head (request line and fields) out of c->in. Returns 0, 1 when
 * no request came (EOF, idle), or an HTTP status. */
static int read_head(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		     struct pc__wire_req *r, const char **why)
{
	char *end;
	size_t n, head;
	ssize_t got;

	for (;;) {
		/* RFC 9112 2.2: empty lines before a request are ignored */
		n = 0;
		while (n < c->in.len &&
		       (c->in.data[n] == '\r' || c->in.data[n] == '\n'))
			n++;
		if (n)
			consume(c, n);
		if (c->in.len && (end = strstr(c->in.data, "\n\r\n")))
			break;
		if (c->in.len && (end = strstr(c->in.data, "\n\n")))
			break;
		if (c->in.len > l->max_head) {
			*why = "the request head is over the limit";
			return 431;
		}
		got = fill(c, l, l->max_head + 4 - c->in.len);
		if (got <= 0) {
			*why = "the request head did not arrive in time";
			return c->in.len ? 408 : 1;
		}
	}
	head = (size_t)(end - c->in.data) + (end[1] == '\r' ? 3 : 2);
	if (head > l->max_head + 4) {
		*why = "the request head is over the limit";
		return 431;
	}
	{
		char *text = pc_xmemdup(c->in.data, head), *line = text;
		int status = 0;

		consume(c, head);
		for (bool first = true; *line && !status; first = false) {
			size_t len = strcspn(line, "\n"), ll = len;

			if (ll && line[ll - 1] == '\r')
				ll--;
			if (!ll)
				break;
			if (first) {
				status = request_line(r, line, ll, why);
			} else if (line[0] == ' ' || line[0] == '\t') {
				*why = "obsolete line folding in a header field";
				status = 400;
			} else if (add_field(r, line, ll)) {
				*why = "malformed header field";
				status = 400;
			}
			line += len + (line[len] == '\n');
		}
		free(text);
		return status;
	}
}

/* A chunked body (RFC 9112 7.1), at most l->max_body bytes. Returns 0,
 * an HTTP status, or 413 through r->too_big. */
static int read_chunked(struct pc__wire_conn *c,
			const struct pc__wire_limits *l,
			struct pc__wire_req *r, const char **why)
{
	for (;;) {
		char *nl;
		uint64_t size = 0;
		size_t i = 0, need;

		while (!(nl = memchr(c->in.data ? c->in.data : "", '\n',
				     c->in.len))) {
			if (c->in.len > 4096 || fill(c, l, 4096) <= 0) {
				*why = "malformed or incomplete chunked body";
				return 400;
			}
		}
		while (pc__mock_hexval(c->in.data[i]) >= 0) {
			if (size >> 60) {
				r->too_big = true;
				return 0;
			}
			size = size * 16 + (uint64_t)pc__mock_hexval(c->in.data[i++]);
		}
		if (!i || (c->in.data[i] != ';' && c->in.data[i] != '\r' &&
			   c->in.data[i] != '\n')) {
			*why = "malformed chunk size";
			return 400;
		}
		consume(c, (size_t)(nl - c->in.data) + 1);
		if (size == 0)
			break;
		if (r->body.len + size > l->max_body) {
			r->too_big = true;
			return 0;
		}
		need = (size_t)size + 2;
		while (c->in.len < need)
			if (fill(c, l, need - c->in.len) <= 0) {
				*why = "the request body did not arrive in time";
				return 408;
			}
		pc_buf_add(&r->body, c->in.data, (size_t)size);
		consume(c, need);
	}
	/* trailer fields, up to the empty line */
	for (;;) {
		char *nl;

		while (!(nl = memchr(c->in.data ? c->in.data : "", '\n',
				     c->in.len)))
			if (c->in.len > l->max_head || fill(c, l, 4096) <= 0) {
				*why = "malformed chunked trailer";
				return 400;
			}
		if (nl == c->in.data || (nl == c->in.data + 1 && c->in.data[0] == '\r')) {
			consume(c, (size_t)(nl - c->in.data) + 1);
			return 0;
		}
		consume(c, (size_t)(nl - c->in.data) + 1);
	}
}

static int send_all(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		    const char *p, size_t n)
{
	int64_t deadline = pc_time_now_ms() + l->timeout_ms;

	while (n) {
		ssize_t w;

		if (wait_fd(c->fd, POLLOUT, deadline, NULL) <= 0)
			return -1;
		w = send(c->fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int pc__wire_read(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		  struct pc__wire_req *r, const char **why)
{
	const cJSON *cl, *te, *expect, *conn;
	uint64_t len = 0;
	int rc;

	r->headers = cJSON_CreateObject();
	r->query = cJSON_CreateObject();
	pc_buf_init(&r->body, l->max_body);
	pc_buf_adds(&r->body, "");
	if ((rc = read_head(c, l, r, why)))
		return rc;
	cl = cJSON_GetObjectItemCaseSensitive(r->headers, "content-length");
	te = cJSON_GetObjectItemCaseSensitive(r->headers, "transfer-encoding");
	expect = cJSON_GetObjectItemCaseSensitive(r->headers, "expect");
	conn = cJSON_GetObjectItemCaseSensitive(r->headers, "connection");
	r->keep_alive = r->minor == 1 ? !(conn && strcasestr(conn->valuestring,
							     "close"))
				      : conn && strcasestr(conn->valuestring,
							   "keep-alive");
	r->head = !strcmp(r->method, "HEAD");
	if (cl && te) {
		*why = "both Content-Length and Transfer-Encoding";
		return 400;
	}
	if (te && (r->minor == 0 || strcasecmp(te->valuestring, "chunked"))) {
		*why = "only Transfer-Encoding: chunked is understood";
		return r->minor == 0 ? 400 : 501;
	}
	if (cl && (rc = content_length(cl->valuestring, &len)) < 0) {
		*why = "Content-Length is not a non-negative decimal number";
		return 400;
	}
	if (expect && strcasecmp(expect->valuestring, "100-continue")) {
		*why = "only Expect: 100-continue is understood";
		return 417;
	}
	if ((cl && (rc == 1 || len > l->max_body))) {
		/* refused before reading: the rest of the connection is the
		 * body we will not read, so it closes after the answer */
		r->too_big = true;
		r->keep_alive = false;
		return 0;
	}
	if (expect && (len || te) &&
	    send_all(c, l, "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0)
		return 1;
	if (te) {
		rc = read_chunked(c, l, r, why);
		if (rc || r->too_big)
			r->keep_alive = false;
		return rc;
	}
	while (c->in.len < len)
		if (fill(c, l, (size_t)len - c->in.len) <= 0) {
			*why = "the request body did not arrive in time";
			return 408;
		}
	pc_buf_add(&r->body, c->in.data, (size_t)len);
	consume(c, (size_t)len);
	return 0;
}

void pc__wire_req_release(struct pc__wire_req *r)
{
	free(r->method);
	free(r->path);
	cJSON_Delete(r->headers);
	cJSON_Delete(r->query);
	pc_buf_release(&r->body);
	memset(r, 0, sizeof(*r));
}

static const char *reason(unsigned status)
{
	static const struct {
		unsigned s;
		const char *r;
	} t[] = { { 100, "Continue" },
		  { 200, "OK" },
		  { 302, "Found" },
		  { 400, "Bad Request" },
		  { 401, "Unauthorized" },
		  { 404, "Not Found" },
		  { 405, "Method Not Allowed" },
		  { 408, "Request Timeout" },
		  { 413, "Content Too Large" },
		  { 417, "Expectation Failed" },
		  { 429, "Too Many Requests" },
		  { 431, "Request Header Fields Too Large" },
		  { 500, "Internal Server Error" },
		  { 501, "Not Implemented" },
		  { 503, "Service Unavailable" },
		  { 505, "HTTP Version Not Supported" } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].s == status)
			return t[i].r;
	return "Unknown";
}

int pc__wire_send(struct pc__wire_conn *c, const struct pc__wire_limits *l,
		  const struct pc__wire_req *r, const struct pc__mock_ans *a,
		  bool keep_alive)
{
	struct pc_buf h = PC_BUF_INIT(PC_BUF_NOCAP);
	bool head = r && r->head, chunked = a->sse.nr && r && r->minor == 1;
	int rc;

	if (a->sse.nr && !chunked)
		keep_alive = false; /* HTTP/1.0: the end of the stream is EOF */
	pc_buf_addf(&h, "HTTP/1.1 %u %s\r\n", a->status, reason(a->status));
	if (a->content_type)
		pc_buf_addf(&h, "Content-Type: %s\r\n", a->content_type);
	for (size_t i = 0; i + 1 < a->headers.nr; i += 2)
		pc_buf_addf(&h, "%s: %s\r\n", a->headers.v[i],
			    a->headers.v[i + 1]);
	if (chunked)
		pc_buf_adds(&h, "Transfer-Encoding: chunked\r\n");
	else if (!a->sse.nr)
		pc_buf_addf(&h, "Content-Length: %zu\r\n", a->body.len);
	pc_buf_addf(&h, "Connection: %s\r\n\r\n",
		    keep_alive ? "keep-alive" : "close");
	if (!head && !a->sse.nr)
		pc_buf_add(&h, a->body.data ? a->body.data : "", a->body.len);
	rc = send_all(c, l, h.data, h.len);
	for (size_t i = 0; !rc && !head && i < a->sse.nr; i++) {
		size_t n = strlen(a->sse.v[i]);

		pc_buf_reset(&h);
		if (chunked)
			pc_buf_addf(&h, "%zx\r\n%s\r\n", n, a->sse.v[i]);
		else
			pc_buf_adds(&h, a->sse.v[i]);
		rc = send_all(c, l, h.data, h.len);
	}
	if (!rc && !head && chunked)
		rc = send_all(c, l, "0\r\n\r\n", 5);
	pc_buf_release(&h);
	return rc;
}

void pc__wire_close(struct pc__wire_conn *c)
{
	char buf[16384];
	int64_t deadline = pc_time_now_ms() + 2000;
	size_t drained = 0;

	/* A lingering close (RFC 9112 9.6): stop sending, then read what the
	 * client is still sending for a while, so that its unread bytes do
	 * not turn into a reset that destroys the answer in flight. */
	shutdown(c->fd, SHUT_WR);
	while (drained < ((size_t)16 << 20) &&
	       wait_fd(c->fd, POLLIN, deadline, NULL) > 0) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), 0);

		if (n <= 0)
			break;
		drained += (size_t)n;
	}
	close(c->fd);
	c->fd = -1;
	pc_buf_release(&c->in);
}

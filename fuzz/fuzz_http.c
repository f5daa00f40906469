/* fuzz_http.c - the mock server's HTTP/1.1 framing (pc_mock_http_wire.c)
 * on whatever bytes a client sends: every request of the input is read
 * off a socket pair until none is left; each must end in a request, "no
 * request", or one of the statuses pc__wire_read documents, and never
 * read past the limits. Small limits reach the 413 and 431 paths. */
#include <sys/socket.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "pc_mock_http_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int allowed[] = { 0, 1, 400, 408, 417, 431, 501, 505 };
	const struct pc__wire_limits l = { .max_head = 1024,
					   .max_body = 4096,
					   .timeout_ms = 1000,
					   .stop = NULL };
	struct pc__wire_conn c;
	int sv[2];

	if (size > 60000 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 0;
	if (write(sv[1], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	shutdown(sv[1], SHUT_WR);
	c.fd = sv[0];
	pc_buf_init(&c.in, l.max_head + l.max_body + ((size_t)64 << 10));
	for (int n = 0; n < 1000; n++) {
		struct pc__wire_req r = { 0 };
		const char *why = NULL;
		int rc = pc__wire_read(&c, &l, &r, &why), ok = 0;
		bool more = !rc && r.keep_alive;

		for (size_t i = 0; i < sizeof(allowed) / sizeof(*allowed); i++)
			ok |= rc == allowed[i];
		if (!ok || (rc > 1 && (!why || !*why)) ||
		    r.body.len > l.max_body ||
		    (rc == 0 && (!r.method || !r.path || r.path[0] != '/')))
			__builtin_trap();
		pc__wire_req_release(&r);
		if (!more)
			break;
	}
	close(sv[1]);
	pc__wire_close(&c);
	return 0;
}

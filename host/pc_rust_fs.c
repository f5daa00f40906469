/* pc_rust_fs.c - std::fs::read_to_string as the host's Rust runs it, with
 * its io::Error texts (pc_rust.h). */
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "pc_err.h"
#include "pc_rust.h"

/* O_NONBLOCK only so that plugcheck never hangs where the host would:
 * opening a FIFO then succeeds at once, and a device with nothing to read
 * says EAGAIN. A regular file or a directory reads exactly as without. */
static int refuse_blocking(int fd, struct pc_buf *msg)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		pc_buf_adds(msg, "plugcheck does not read it: it is a FIFO, and the host would block on it until a writer comes (not reproduced)");
		return PC_EFBIG;
	}
	return 0;
}

int pc_rust_read_to_string(const char *path, struct pc_buf *out,
			   struct pc_buf *msg)
{
	size_t start = out->len;
	char chunk[16384];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = 0;

	if (fd < 0) {
		pc_rust_io_error(msg, errno);
		return PC_EIO;
	}
	if ((rc = refuse_blocking(fd, msg)))
		goto out;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			pc_buf_adds(msg, "plugcheck stops reading: the host would block here waiting for more input (not reproduced)");
			rc = PC_EFBIG;
			goto out;
		}
		if (n < 0) {
			pc_rust_io_error(msg, errno);
			rc = PC_EIO;
			goto out;
		}
		if (n == 0)
			break;
		if (pc_buf_add(out, chunk, (size_t)n) < 0) {
			pc_buf_addf(msg, "plugcheck stops reading after %zu bytes: the host would read on (not reproduced)",
				    out->max);
			rc = PC_EFBIG;
			goto out;
		}
	}
	if (!pc_rust_is_utf8(out->data ? out->data + start : "", out->len - start)) {
		pc_buf_adds(msg, PC_RUST_IO_INVALID_UTF8);
		rc = PC_EIO;
	}
out:
	if (rc && out->data) {
		out->len = start;
		out->data[start] = '\0';
	}
	close(fd);
	return rc;
}

/* cli_output.c - the --output report file of check and run (issue 21):
 * opened before the run, so that a plugin that makes plugcheck's working
 * directory mode 000 cannot keep the report from being written, and so
 * that a directory, or a FIFO nobody reads, is a clear error up front
 * instead of exit 70 (or a hang) after the run. */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_fs.h"

#define STALL_MS 30000 /* a reader of a FIFO --output may pause this long */

int pc_cli_out_open(struct pc_cli_out *o, const char *path)
{
	struct stat st;
	int e;

	*o = (struct pc_cli_out)PC_CLI_OUT_INIT;
	if (!path)
		return 0;
	/* O_NONBLOCK: a FIFO without a reader fails (ENXIO) at once */
	o->fd = open(path,
		     O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		     0666);
	e = errno;
	if (o->fd < 0 && e == EISDIR)
		fprintf(stderr,
			"plugcheck: --output '%s' is a directory; fix: name a file, e.g. '%s/report'\n",
			path, path);
	else if (o->fd < 0 && e == ENXIO)
		fprintf(stderr,
			"plugcheck: --output '%s' is a FIFO that no process reads, so writing the report would block; fix: name a regular file, or start its reader first\n",
			path);
	else if (o->fd < 0)
		fprintf(stderr, "plugcheck: cannot write --output '%s': %s\n",
			path, strerror(e));
	if (o->fd < 0)
		return PC_EXIT_USAGE;
	if (fstat(o->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    ftruncate(o->fd, 0) < 0) {
		fprintf(stderr, "plugcheck: cannot write --output '%s': %s\n",
			path, strerror(errno));
		close(o->fd);
		o->fd = -1;
		return PC_EXIT_USAGE;
	}
	o->path = path;
	o->mem = open_memstream(&o->buf, &o->len);
	return 0;
}

FILE *pc_cli_out_file(struct pc_cli_out *o)
{
	return o->mem ? o->mem : stdout;
}

/* write_bounded - all of `p` to the non-blocking `fd`, a reader that does
 * not take any byte for STALL_MS ending it. */
static int write_bounded(int fd, const char *p, size_t n)
{
	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t w = write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN)
			return -1;
		if (poll(&pfd, 1, STALL_MS) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
	return 0;
}

int pc_cli_out_close(struct pc_cli_out *o)
{
	int rc = 0;

	if (o->fd < 0)
		return 0;
	if (o->mem && fclose(o->mem) != 0)
		rc = -1;
	o->mem = NULL;
	if (!rc && write_bounded(o->fd, o->buf ? o->buf : "", o->len) < 0)
		rc = -1;
	if (rc)
		fprintf(stderr, "plugcheck: cannot write --output '%s': %s\n",
			o->path,
			errno == ETIMEDOUT ? "its reader stopped reading"
					   : strerror(errno));
	if (close(o->fd) < 0 && !rc) {
		fprintf(stderr, "plugcheck: cannot write --output '%s': %s\n",
			o->path, strerror(errno));
		rc = -1;
	}
	free(o->buf);
	*o = (struct pc_cli_out)PC_CLI_OUT_INIT;
	return rc;
}

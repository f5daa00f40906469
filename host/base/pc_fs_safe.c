/* pc_fs_safe.c - file access that a plugin cannot turn against plugcheck
 * (issue 21): workspace files opened beneath a root without following a
 * symlink the plugin planted, and reads that a FIFO cannot hang. */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define CHUNK 16384

/* bad_rel - "" when `rel` is a relative path without "..", else why not. */
static const char *bad_rel(const char *rel)
{
	const char *p = rel;

	if (!*rel)
		return "an empty path";
	if (*rel == '/')
		return "an absolute path";
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2))
			return "a '..' component";
		p += n;
		p += strspn(p, "/");
	}
	return "";
}

/* beneath_err - the error of a failed lookup of `rel` under `root`. */
static int beneath_err(struct pc_err *err, int e, const char *root,
		       const char *rel)
{
	if (e == ELOOP || e == EXDEV)
		return pc_err_set_errno(
			err, PC_EIO, e,
			"cannot open '%s' in '%s': a symlink on the way, which plugcheck never follows out of the directory",
			rel, root);
	return pc_err_set_errno(err, e == ENOENT ? PC_ENOENT : PC_EIO, e,
				"cannot open '%s' in '%s'", rel, root);
}

/* walk - the O_NOFOLLOW fallback of openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS): every directory on the way opened with
 * O_NOFOLLOW from the last one (made first with PC_FS_MKDIRS), the last
 * component too. -1 with errno. */
static int walk(int rootfd, const char *rel, int oflags, mode_t mode,
		unsigned flags)
{
	char *copy = pc_xstrdup(rel), *p = copy, *slash;
	int cur = dup(rootfd), next, saved;

	while (cur >= 0 && (slash = strchr(p, '/'))) {
		*slash = '\0';
		if (*p && strcmp(p, ".")) {
			if ((flags & PC_FS_MKDIRS) &&
			    mkdirat(cur, p, 0755) < 0 && errno != EEXIST)
				goto fail;
			next = openat(cur, p,
				      O_PATH | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
			if (next < 0 && errno == ENOTDIR) {
				struct stat st;

				if (fstatat(cur, p, &st, AT_SYMLINK_NOFOLLOW) ==
					    0 &&
				    S_ISLNK(st.st_mode))
					errno = ELOOP;
			}
			if (next < 0)
				goto fail;
			close(cur);
			cur = next;
		}
		p = slash + 1;
		p += strspn(p, "/");
	}
	if (cur < 0) {
		free(copy);
		return -1;
	}
	next = openat(cur, *p ? p : ".", oflags | O_NOFOLLOW | O_CLOEXEC, mode);
	saved = errno;
	close(cur);
	free(copy);
	errno = saved;
	return next;
fail:
	saved = errno;
	close(cur);
	free(copy);
	errno = saved;
	return -1;
}

/* mkdirs - PC_FS_MKDIRS for openat2: make the parents of `rel` (the
 * walk never follows a symlink; what it cannot make, the open reports). */
static void mkdirs(int rootfd, const char *rel)
{
	char *copy = pc_xstrdup(rel), *slash = strrchr(copy, '/');
	int fd;

	if (slash) {
		slash[1] = '\0'; /* "a/b/": both made, then "." opened */
		fd = walk(rootfd, copy, O_PATH | O_DIRECTORY, 0, PC_FS_MKDIRS);
		if (fd >= 0)
			close(fd);
	}
	free(copy);
}

int pc_fs_beneath_open(const char *root, const char *rel, int oflags,
		       mode_t mode, unsigned flags, struct pc_err *err)
{
	const char *why = bad_rel(rel);
	struct open_how how = { 0 };
	int rootfd, fd = -1, e;

	if (*why)
		return pc_err_set(
			err, PC_EINVAL,
			"cannot open '%s' in '%s': %s is not allowed there",
			rel, root, why);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return pc_err_set_errno(err,
					errno == ENOENT ? PC_ENOENT : PC_EIO,
					errno, "cannot open '%s'", root);
	if (!(flags & PC_FS_NO_OPENAT2)) {
		if (flags & PC_FS_MKDIRS)
			mkdirs(rootfd, rel);
		how.flags = (unsigned long long)(oflags | O_CLOEXEC);
		how.mode = (oflags & O_CREAT) ? mode : 0;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			      RESOLVE_NO_MAGICLINKS;
		do
			fd = (int)syscall(SYS_openat2, rootfd, rel, &how,
					  sizeof(how));
		while (fd < 0 && errno == EAGAIN);
	}
	if (fd < 0 && ((flags & PC_FS_NO_OPENAT2) || errno == ENOSYS ||
		       errno == EPERM)) /* EPERM: a seccomp filter */
		fd = walk(rootfd, rel, oflags, mode, flags);
	e = errno;
	close(rootfd);
	if (fd < 0)
		return beneath_err(err, e, root, rel);
	return fd;
}

/* regular - fd is a regular file; else close it and fill `err`. */
static int regular(int fd, const char *root, const char *rel,
		   struct pc_err *err)
{
	struct stat st = { 0 };

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	close(fd);
	return pc_err_set(
		err, PC_EIO,
		"cannot use '%s' in '%s': it is not a regular file (%s); plugcheck reads and writes only regular files there",
		rel, root, pc_fs_kind(st.st_mode));
}

int pc_fs_beneath_write(const char *root, const char *rel, const void *p,
			size_t n, unsigned flags, struct pc_err *err)
{
	/* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of
	 * blocking the open; with one, regular() refuses it */
	int fd = pc_fs_beneath_open(root, rel, O_WRONLY | O_CREAT | O_NONBLOCK,
				    0644, flags, err);
	const char *s = p;

	if (fd < 0 && err && err->sys_errno == ENXIO) /* a FIFO, no reader */
		return pc_err_set(
			err, PC_EIO,
			"cannot use '%s' in '%s': it is not a regular file (a FIFO); plugcheck reads and writes only regular files there",
			rel, root);
	if (fd < 0)
		return fd;
	if (regular(fd, root, rel, err))
		return PC_EIO;
	if (ftruncate(fd, 0) < 0)
		goto fail;
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto fail;
		s += w;
		n -= (size_t)w;
	}
	if (close(fd) < 0)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot write '%s' in '%s'", rel, root);
	return 0;
fail:
	pc_err_set_errno(err, PC_EIO, errno, "cannot write '%s' in '%s'", rel,
			 root);
	close(fd);
	return PC_EIO;
}

/* read_all - append everything `fd` gives to `out` (a regular file or a
 * non-blocking stream polled until `deadline`, ms; 0: none). Returns 0,
 * PC_EFBIG, PC_ETIMEDOUT or PC_EIO with errno. */
static int read_all(int fd, struct pc_buf *out, int64_t deadline)
{
	char chunk[CHUNK];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int left = deadline ? pc_time_left_ms(deadline) : -1;

		if (deadline && poll(&pfd, 1, left) == 0)
			return PC_ETIMEDOUT;
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return PC_EIO;
		if (n == 0)
			return 0;
		if (pc_buf_add(out, chunk, (size_t)n) < 0)
			return PC_EFBIG;
	}
}

int pc_fs_beneath_read(const char *root, const char *rel, struct pc_buf *out,
		       struct pc_err *err)
{
	int fd = pc_fs_beneath_open(root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY,
				    0, 0, err);
	int rc;

	if (fd < 0)
		return fd;
	if (regular(fd, root, rel, err))
		return PC_EIO;
	rc = read_all(fd, out, 0);
	if (rc == PC_EFBIG)
		pc_err_set(err, rc, "'%s' in '%s' is larger than %zu bytes",
			   rel, root, out->max);
	else if (rc)
		pc_err_set_errno(err, rc, errno, "cannot read '%s' in '%s'",
				 rel, root);
	close(fd);
	return rc;
}

int pc_fs_beneath_lstat(const char *root, const char *rel, struct stat *st,
			struct pc_err *err)
{
	char *copy = pc_xstrdup(rel), *slash = strrchr(copy, '/');
	const char *last = slash ? slash + 1 : copy;
	int dir, rc = 0;

	if (slash)
		*slash = '\0';
	dir = slash ? pc_fs_beneath_open(root, *copy ? copy : ".",
					 O_PATH | O_DIRECTORY, 0, 0, err)
		    : pc_fs_beneath_open(root, ".", O_PATH | O_DIRECTORY, 0, 0,
					 err);
	if (dir < 0) {
		free(copy);
		return dir;
	}
	if (fstatat(dir, *last ? last : ".", st, AT_SYMLINK_NOFOLLOW) < 0)
		rc = pc_err_set_errno(err, errno == ENOENT ? PC_ENOENT : PC_EIO,
				      errno, "cannot stat '%s' in '%s'", rel,
				      root);
	close(dir);
	free(copy);
	return rc;
}

int pc_fs_read_stream(const char *path, struct pc_buf *out, int64_t timeout_ms,
		      struct pc_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int rc;

	if (fd < 0) {
		int e = errno;

		return pc_err_set_errno(err, e == ENOENT ? PC_ENOENT : PC_EIO,
					e, "cannot open '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		rc = pc_err_set_errno(err, PC_EIO, errno, "cannot read '%s'",
				      path);
		close(fd);
		return rc;
	}
	rc = read_all(fd, out,
		      S_ISREG(st.st_mode) ? 0 : pc_time_now_ms() + timeout_ms);
	if (rc == PC_ETIMEDOUT)
		pc_err_set(
			err, rc,
			"reading '%s' (%s) did not end within %lld ms: a read without a deadline blocks there until a writer closes it",
			path, pc_fs_kind(st.st_mode), (long long)timeout_ms);
	else if (rc == PC_EFBIG)
		pc_err_set(err, rc, "'%s' is larger than %zu bytes", path,
			   out->max);
	else if (rc)
		pc_err_set_errno(err, rc, errno, "cannot read '%s'", path);
	close(fd);
	return rc;
}

const char *pc_fs_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symlink";
	default:
		return "not a regular file";
	}
}

#define _GNU_SOURCE
#include "pc_fs.h"

#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_strvec.h"
#include "pc_xalloc.h"

int pc_fs_read_capped(const char *path, struct pc_buf *out, struct pc_err *err)
{
	char chunk[16384];
	/* a FIFO nobody writes must not hang the open (issue 21); reads
	 * then block as usual, which ends at once without a writer (EOF) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		return pc_err_set_errno(err, e == ENOENT ? PC_ENOENT : PC_EIO,
					e, "cannot open '%s'", path);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			return pc_err_set_errno(err, PC_EIO, e,
						"cannot read '%s'", path);
		}
		if (n == 0)
			break;
		if (pc_buf_add(out, chunk, (size_t)n) < 0) {
			close(fd);
			return pc_err_set(err, PC_EFBIG,
					  "'%s' is larger than %zu bytes", path,
					  out->max);
		}
	}
	close(fd);
	return 0;
}

int pc_fs_write(const char *path, const void *p, size_t n, struct pc_err *err)
{
	const char *s = p;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create '%s'", path);
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;

			close(fd);
			return pc_err_set_errno(err, PC_EIO, e,
						"cannot write '%s'", path);
		}
		s += w;
		n -= (size_t)w;
	}
	if (close(fd) < 0)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot write '%s'", path);
	return 0;
}

int pc_fs_append_line(const char *path, const char *line,
		      struct pc_err *err)
{
	size_t n = strlen(line);
	char *buf = pc_xmalloc(n + 1);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	int rc = 0;

	memcpy(buf, line, n);
	buf[n] = '\n';
	if (fd < 0 || write(fd, buf, n + 1) != (ssize_t)(n + 1))
		rc = pc_err_set_errno(err, PC_EIO, errno, "cannot append to '%s'",
				      path);
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

void pc_fs_rm_rf_listed(const char *list)
{
	struct pc_buf b = PC_BUF_INIT((size_t)1 << 20);
	char *line, *nl;

	if (pc_fs_read_capped(list, &b, NULL) == 0) {
		pc_buf_cstr(&b); /* NUL-terminates b.data */
		for (line = b.data; line && (nl = strchr(line, '\n'));
		     line = nl + 1) {
			*nl = '\0';
			if (*line)
				pc_fs_rm_rf(line);
		}
	}
	pc_buf_release(&b);
}

char *pc_fs_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la && a[la - 1] == '/')
		return pc_xasprintf("%s%s", a, b);
	return pc_xasprintf("%s/%s", a, b);
}

char *pc_fs_realpath(const char *p)
{
	char *r = realpath(p, NULL);

	if (!r)
		return NULL;
	return r;
}

char *pc_fs_absolute(const char *p)
{
	struct pc_strvec parts = PC_STRVEC_INIT;
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *joined, *tok, *save = NULL;

	if (p[0] == '/') {
		joined = pc_xstrdup(p);
	} else {
		char *cwd = getcwd(NULL, 0);

		joined = pc_fs_join(cwd ? cwd : "/", p);
		free(cwd);
	}
	for (tok = strtok_r(joined, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (parts.nr) {
				free(parts.v[--parts.nr]);
				parts.v[parts.nr] = NULL;
			}
			continue;
		}
		pc_strvec_push(&parts, tok);
	}
	for (size_t i = 0; i < parts.nr; i++)
		pc_buf_addf(&out, "/%s", parts.v[i]);
	if (!parts.nr)
		pc_buf_adds(&out, "/");
	pc_strvec_release(&parts);
	free(joined);
	return pc_buf_detach(&out, NULL);
}

char *pc_fs_relative(const char *dir, const char *path)
{
	char *a = pc_fs_absolute(dir), *b = pc_fs_absolute(path);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t common = 0;

	/* the longest common prefix ending at a component boundary */
	for (size_t i = 0;; i++) {
		bool end_a = !a[i] || a[i] == '/', end_b = !b[i] || b[i] == '/';

		if (end_a && end_b)
			common = i;
		if (!a[i] || !b[i] || a[i] != b[i])
			break;
	}
	pc_buf_adds(&out, "");
	for (const char *p = a + common; *p; p++)
		if (*p == '/' && p[1])
			pc_buf_adds(&out, out.len ? "/.." : "..");
	if (b[common] && b[common + (b[common] == '/')])
		pc_buf_addf(&out, "%s%s", out.len ? "/" : "",
			    b + common + (b[common] == '/'));
	if (!out.len)
		pc_buf_adds(&out, ".");
	free(a);
	free(b);
	return pc_buf_detach(&out, NULL);
}

bool pc_fs_is_under(const char *path, const char *dir)
{
	char *a = pc_fs_absolute(path), *b = pc_fs_absolute(dir);
	size_t n = strlen(b);
	bool in = !strncmp(a, b, n) &&
		  (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));

	free(a);
	free(b);
	return in;
}

int pc_fs_mkdir_p(const char *path, struct pc_err *err)
{
	char *copy = pc_xstrdup(path);

	for (char *s = copy + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST) {
			int e = errno;

			free(copy);
			return pc_err_set_errno(err, PC_EIO, e,
						"cannot create '%s'", path);
		}
		*s = '/';
	}
	free(copy);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create '%s'", path);
	return 0;
}

bool pc_fs_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool pc_fs_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *pc_fs_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

static char *tmp_root; /* pc_fs_set_tmp_root; NULL: pc_fs_tmpdir() */

void pc_fs_set_tmp_root(const char *dir)
{
	free(tmp_root);
	tmp_root = dir ? pc_xstrdup(dir) : NULL;
}

char *pc_fs_mkdtemp(const char *tag)
{
	const char *tmp = tmp_root ? tmp_root : pc_fs_tmpdir();
	char *tmpl;

	tmpl = pc_xasprintf("%s/plugcheck-%s-XXXXXX", tmp, tag);
	if (!mkdtemp(tmpl)) {
		int e = errno;

		free(tmpl);
		errno = e;
		return NULL;
	}
	return tmpl;
}

/* test_fs.c - the pc_fs helpers a hostile plugin aims at (issue 21):
 * pc_fs_rm_rf over modes and depths a plugin can make, the beneath-a-root
 * helpers against planted symlinks and FIFOs, pc_fs_read_stream's
 * deadline. Runs as root too: the mode tests then drop to uid 65534 in a
 * child process, since root is not stopped by a mode-000 directory. */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_fs.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define NOBODY 65534

static bool exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

/* chain - `depth` nested directories "d" under `root`, made with mkdirat
 * from the one before (the whole path is far past PATH_MAX), each given
 * `mode` once its child exists. No cmocka asserts: it runs in a child. */
static bool chain(const char *root, int depth, mode_t mode)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY), next;
	int *fds = calloc((size_t)depth, sizeof(*fds));
	int made = 0;
	bool ok = fd >= 0;

	for (; ok && made < depth; made++) {
		ok = mkdirat(fd, "d", 0755) == 0 &&
		     (next = openat(fd, "d", O_RDONLY | O_DIRECTORY)) >= 0;
		if (!ok)
			break;
		fds[made] = fd;
		fd = next;
	}
	if (ok) {
		next = openat(fd, "leaf", O_CREAT | O_WRONLY, 0600);
		ok = next >= 0;
		close(next);
	}
	if (fd >= 0)
		close(fd);
	for (int i = made - 1; i >= 0; i--) {
		fchmodat(fds[i], "d", mode, 0);
		close(fds[i]);
	}
	free(fds);
	return ok && made == depth;
}

/* as_user - run `fn(dir)` as uid/gid NOBODY in a child when plugcheck's
 * tests run as root (a mode-000 directory stops only other users), else
 * in this process; `dir` is a fresh directory that user owns. True when
 * fn returned true. */
static bool as_user(bool (*fn)(const char *dir))
{
	char *dir = pc_fs_mkdtemp("test-fs");
	int status = 0;
	bool ok;
	pid_t pid;

	assert_non_null(dir);
	if (geteuid() != 0) {
		ok = fn(dir);
		pc_fs_rm_rf(dir);
		free(dir);
		return ok;
	}
	assert_int_equal(chown(dir, NOBODY, NOBODY), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(2);
		_exit(fn(dir) ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	pc_fs_rm_rf(dir);
	free(dir);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A tree a plugin left: a mode-000 directory holding files and a
 * subdirectory, a 0500 one, a 0000 file, and the root itself 000. */
/* mk - `rel` under `root`: a directory (`dir`) or a one-byte file, then
 * given `mode` (no cmocka asserts: it runs in a child). */
static void mk(const char *root, const char *rel, bool dir, mode_t mode)
{
	char *p = pc_fs_join(root, rel);

	if (dir)
		pc_fs_mkdir_p(p, NULL);
	else
		pc_fs_write(p, "x", 1, NULL);
	chmod(p, mode);
	free(p);
}

static bool rm_modes(const char *dir)
{
	char *root = pc_fs_join(dir, "t");
	bool ok;

	mkdir(root, 0755);
	mk(root, "locked/sub", true, 0755);
	mk(root, "locked/sub/f", false, 0);
	mk(root, "locked/sub", true, 0);
	mk(root, "locked", true, 0);
	mk(root, "readonly", true, 0755);
	mk(root, "readonly/f", false, 0644);
	mk(root, "readonly", true, 0500);
	chmod(root, 0);
	ok = pc_fs_rm_rf(root) == 0 && !exists(root);
	free(root);
	return ok;
}

static void fs_rm_rf_removes_mode_000_trees(void **state)
{
	(void)state;
	assert_true(as_user(rm_modes));
}

/* 3,000 levels: the path is about 6,000 bytes, past PATH_MAX; every
 * directory but the root is mode 000. */
static bool rm_deep(const char *dir)
{
	char *root = pc_fs_join(dir, "deep");
	bool ok;

	mkdir(root, 0755);
	ok = chain(root, 3000, 0) && pc_fs_rm_rf(root) == 0 && !exists(root);
	free(root);
	return ok;
}

static void fs_rm_rf_removes_a_chain_past_path_max(void **state)
{
	(void)state;
	assert_true(3000 * 2 > PATH_MAX);
	assert_true(as_user(rm_deep));
}

static void fs_rm_rf_does_not_follow_symlinks(void **state)
{
	char *dir = pc_fs_mkdtemp("test-fs"), *victim, *root, *link, *keep;

	(void)state;
	victim = pc_fs_join(dir, "victim");
	root = pc_fs_join(dir, "root");
	link = pc_fs_join(root, "ln");
	keep = pc_fs_join(victim, "keep");
	mkdir(victim, 0755);
	mkdir(root, 0755);
	pc_fs_write(keep, "k", 1, NULL);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(pc_fs_rm_rf(root), 0);
	assert_false(exists(root));
	assert_true(exists(keep));
	assert_int_equal(pc_fs_rm_rf(link), 0); /* gone: nothing, 0 */
	assert_int_equal(pc_fs_rm_rf(dir), 0);
	free(victim);
	free(root);
	free(link);
	free(keep);
	free(dir);
}

/* ---- beneath ---- */

struct tree {
	char *dir, *ws, *victim;
};

static void tree_make(struct tree *t)
{
	char *p;

	t->dir = pc_fs_mkdtemp("test-fs");
	t->ws = pc_fs_join(t->dir, "ws");
	t->victim = pc_fs_join(t->dir, "victim");
	mkdir(t->ws, 0755);
	mkdir(t->victim, 0755);
	p = pc_fs_join(t->ws, "sub");
	mkdir(p, 0755);
	free(p);
	p = pc_fs_join(t->ws, "planted");
	assert_int_equal(symlink(t->victim, p), 0); /* a directory link */
	free(p);
	p = pc_fs_join(t->ws, "inside");
	assert_int_equal(symlink("sub", p), 0); /* even one that stays in */
	free(p);
	p = pc_xasprintf("%s/victim/secret", t->dir);
	pc_fs_write(p, "secret", 6, NULL);
	free(p);
	p = pc_fs_join(t->ws, "secret");
	assert_int_equal(symlink("../victim/secret", p), 0);
	free(p);
}

static void tree_free(struct tree *t)
{
	pc_fs_rm_rf(t->dir);
	free(t->dir);
	free(t->ws);
	free(t->victim);
}

static void beneath_refuses_symlinks(unsigned flags)
{
	struct tree t;
	struct pc_err err = PC_ERR_INIT;
	struct pc_buf b = PC_BUF_INIT(1024);
	char *p;

	tree_make(&t);
	assert_int_equal(
		pc_fs_beneath_write(t.ws, "planted/x", "x", 1, flags, &err),
		PC_EIO);
	assert_int_equal(err.sys_errno, ELOOP);
	assert_non_null(strstr(err.msg, "'planted/x'"));
	assert_non_null(strstr(err.msg, "symlink"));
	assert_int_equal(pc_fs_beneath_write(t.ws, "planted/new/x", "x", 1,
					     flags | PC_FS_MKDIRS, &err),
			 PC_EIO);
	assert_int_equal(
		pc_fs_beneath_write(t.ws, "inside/x", "x", 1, flags, &err),
		PC_EIO);
	assert_int_equal(
		pc_fs_beneath_write(t.ws, "secret", "pwned", 5, flags, &err),
		PC_EIO);
	assert_int_equal(pc_fs_beneath_read(t.ws, "secret", &b, &err), PC_EIO);
	assert_int_equal(b.len, 0);
	assert_int_equal(
		pc_fs_beneath_write(t.ws, "../victim/y", "y", 1, flags, &err),
		PC_EINVAL);
	assert_int_equal(
		pc_fs_beneath_write(t.ws, "/etc/passwd", "y", 1, flags, &err),
		PC_EINVAL);
	p = pc_fs_join(t.victim, "x");
	assert_false(exists(p));
	free(p);
	p = pc_xasprintf("%s/new", t.victim);
	assert_false(exists(p));
	free(p);
	/* what is legitimately there works, parents made on request */
	assert_int_equal(pc_fs_beneath_write(t.ws, "a/b/c.txt", "abc", 3,
					     flags | PC_FS_MKDIRS, &err),
			 0);
	assert_int_equal(pc_fs_beneath_read(t.ws, "a/b/c.txt", &b, &err), 0);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.data, "abc", 3);
	pc_buf_release(&b);
	tree_free(&t);
}

static void fs_beneath_refuses_planted_symlinks(void **state)
{
	(void)state;
	beneath_refuses_symlinks(0);
}

static void fs_beneath_walk_refuses_planted_symlinks(void **state)
{
	(void)state;
	beneath_refuses_symlinks(PC_FS_NO_OPENAT2);
}

static void fs_beneath_refuses_fifos_and_dirs_at_once(void **state)
{
	struct tree t;
	struct pc_err err = PC_ERR_INIT;
	struct pc_buf b = PC_BUF_INIT(1024);
	int64_t t0 = pc_time_now_ms();
	char *p;

	(void)state;
	tree_make(&t);
	p = pc_fs_join(t.ws, "fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	free(p);
	assert_int_equal(pc_fs_beneath_write(t.ws, "fifo", "x", 1, 0, &err),
			 PC_EIO); /* no reader: ENXIO, without blocking */
	assert_int_equal(pc_fs_beneath_read(t.ws, "fifo", &b, &err), PC_EIO);
	assert_non_null(strstr(err.msg, "not a regular file (a FIFO)"));
	assert_int_equal(pc_fs_beneath_write(t.ws, "sub", "x", 1, 0, &err),
			 PC_EIO);
	assert_int_equal(pc_fs_beneath_read(t.ws, "sub", &b, &err), PC_EIO);
	assert_non_null(strstr(err.msg, "a directory"));
	assert_true(pc_time_now_ms() - t0 < 5000);
	pc_buf_release(&b);
	tree_free(&t);
}

static void fs_beneath_lstat_sees_a_final_symlink(void **state)
{
	struct tree t;
	struct stat st;
	struct pc_err err = PC_ERR_INIT;

	(void)state;
	tree_make(&t);
	assert_int_equal(pc_fs_beneath_lstat(t.ws, "planted", &st, &err), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(pc_fs_beneath_lstat(t.ws, "sub", &st, &err), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(pc_fs_beneath_lstat(t.ws, "planted/secret", &st, &err),
			 PC_EIO);
	assert_int_equal(pc_fs_beneath_lstat(t.ws, "nope", &st, &err),
			 PC_ENOENT);
	tree_free(&t);
}

/* ---- streams ---- */

static void fs_read_stream_times_out_on_a_fifo_without_writer(void **state)
{
	char *dir = pc_fs_mkdtemp("test-fs"), *p = pc_fs_join(dir, "fifo");
	struct pc_buf b = PC_BUF_INIT(1024);
	struct pc_err err = PC_ERR_INIT;
	int64_t t0;

	(void)state;
	assert_int_equal(mkfifo(p, 0644), 0);
	t0 = pc_time_now_ms();
	assert_int_equal(pc_fs_read_stream(p, &b, 300, &err), PC_ETIMEDOUT);
	assert_true(pc_time_now_ms() - t0 >= 290);
	assert_true(pc_time_now_ms() - t0 < 3000);
	assert_non_null(strstr(err.msg, "(a FIFO) did not end within 300 ms"));
	pc_buf_release(&b);
	pc_fs_rm_rf(dir);
	free(p);
	free(dir);
}

static void fs_read_stream_reads_a_fifo_to_eof(void **state)
{
	char *dir = pc_fs_mkdtemp("test-fs"), *p = pc_fs_join(dir, "fifo");
	struct pc_buf b = PC_BUF_INIT(1024);
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(mkfifo(p, 0644), 0);
	pid = fork();
	if (pid == 0) {
		int fd = open(p, O_WRONLY);

		(void)!write(fd, "abc", 3);
		usleep(100 * 1000);
		(void)!write(fd, "def", 3);
		_exit(0);
	}
	assert_int_equal(pc_fs_read_stream(p, &b, 10000, NULL), 0);
	assert_int_equal(b.len, 6);
	assert_memory_equal(b.data, "abcdef", 6);
	waitpid(pid, &status, 0);
	pc_buf_reset(&b);
	assert_int_equal(pc_fs_read_stream("/dev/zero", &b, 10000, NULL),
			 PC_EFBIG);
	pc_buf_release(&b);
	pc_fs_rm_rf(dir);
	free(p);
	free(dir);
}

static void rel_is(const char *dir, const char *path, const char *want)
{
	char *r = pc_fs_relative(dir, path);

	assert_string_equal(r, want);
	free(r);
}

/* fire --save writes plugins: relative to the scenario file (issue 20) */
static void fs_relative_paths(void **state)
{
	(void)state;
	rel_is("/a/b", "/a/b", ".");
	rel_is("/a/b", "/a/b/c/d", "c/d");
	rel_is("/a/b/tests", "/a/b", "..");
	rel_is("/a/b", "/a/c", "../c");
	rel_is("/a/b", "/a/bc", "../bc");
	rel_is("/a/bc", "/a/b", "../b");
	rel_is("/", "/x", "x");
	rel_is("/x/y", "/", "../..");
	rel_is("/a/./b/../b/", "/a//c", "../c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fs_relative_paths),
		cmocka_unit_test(fs_rm_rf_removes_mode_000_trees),
		cmocka_unit_test(fs_rm_rf_removes_a_chain_past_path_max),
		cmocka_unit_test(fs_rm_rf_does_not_follow_symlinks),
		cmocka_unit_test(fs_beneath_refuses_planted_symlinks),
		cmocka_unit_test(fs_beneath_walk_refuses_planted_symlinks),
		cmocka_unit_test(fs_beneath_refuses_fifos_and_dirs_at_once),
		cmocka_unit_test(fs_beneath_lstat_sees_a_final_symlink),
		cmocka_unit_test(
			fs_read_stream_times_out_on_a_fifo_without_writer),
		cmocka_unit_test(fs_read_stream_reads_a_fifo_to_eof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

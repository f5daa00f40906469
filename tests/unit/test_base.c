/* test_base.c - pc_buf, pc_strvec, pc_fs path helpers and pc_err. */
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
#include "pc_strvec.h"

#define CAP 16

static void fill(struct pc_buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(pc_buf_addch(b, (char)('a' + i % 26)), 0);
}

static void buf_accepts_up_to_cap_minus_one(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);

	(void)state;
	fill(&b, CAP - 1);
	assert_int_equal(b.len, CAP - 1);
	assert_int_equal(strlen(b.data), CAP - 1);
	assert_int_equal(pc_buf_addch(&b, 'z'), 0);
	assert_int_equal(b.len, CAP);
	pc_buf_release(&b);
}

static void buf_accepts_exactly_cap_in_one_add(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);
	char block[CAP];

	(void)state;
	memset(block, 'x', sizeof(block));
	assert_int_equal(pc_buf_add(&b, block, CAP), 0);
	assert_int_equal(b.len, CAP);
	assert_int_equal(b.data[CAP], '\0');
	pc_buf_release(&b);
}

static void buf_add_refuses_past_max(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);
	char block[CAP + 1];

	(void)state;
	memset(block, 'x', sizeof(block));
	assert_int_equal(pc_buf_add(&b, block, CAP + 1), PC_EFBIG);
	assert_int_equal(b.len, 0);
	assert_string_equal(pc_buf_cstr(&b), "");
	fill(&b, CAP);
	assert_int_equal(pc_buf_addch(&b, 'z'), PC_EFBIG);
	assert_int_equal(pc_buf_adds(&b, "zz"), PC_EFBIG);
	assert_int_equal(pc_buf_addf(&b, "%d", 7), PC_EFBIG);
	assert_int_equal(b.len, CAP);
	assert_memory_equal(b.data, "abcdefghijklmnop", CAP);
	assert_int_equal(b.data[CAP], '\0');
	pc_buf_release(&b);
}

static void buf_add_of_huge_size_does_not_wrap(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);

	(void)state;
	fill(&b, 4);
	assert_int_equal(pc_buf_add(&b, "", SIZE_MAX), PC_EFBIG);
	assert_int_equal(pc_buf_add(&b, "", SIZE_MAX - 2), PC_EFBIG);
	assert_int_equal(b.len, 4);
	pc_buf_release(&b);
}

static void buf_addf_keeps_contents_when_too_long(void **state)
{
	struct pc_buf b = PC_BUF_INIT(300);
	char big[400];

	(void)state;
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(pc_buf_adds(&b, "head:"), 0);
	assert_int_equal(pc_buf_addf(&b, "%s", big), PC_EFBIG);
	assert_string_equal(pc_buf_cstr(&b), "head:");
	/* longer than pc_buf_vaddf's 256-byte fast path, within the cap */
	assert_int_equal(pc_buf_addf(&b, "%.290s", big), 0);
	assert_int_equal(b.len, 295);
	pc_buf_release(&b);
}

static void buf_holds_nul_bytes_and_detaches(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);
	size_t len = 99;
	char *p;

	(void)state;
	assert_null(b.data);
	assert_string_equal(pc_buf_cstr(&b), "");
	assert_int_equal(pc_buf_add(&b, "a\0b", 3), 0);
	assert_int_equal(b.len, 3);
	p = pc_buf_detach(&b, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(p, "a\0b", 4);
	free(p);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.max, CAP);
	p = pc_buf_detach(&b, NULL);
	assert_string_equal(p, "");
	free(p);
}

static void buf_reset_keeps_allocation(void **state)
{
	struct pc_buf b = PC_BUF_INIT(CAP);
	char *data;

	(void)state;
	fill(&b, CAP);
	data = b.data;
	pc_buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_ptr_equal(b.data, data);
	assert_string_equal(pc_buf_cstr(&b), "");
	fill(&b, CAP);
	pc_buf_release(&b);
}

/* The first NAME=, as the child's getenv() sees it; a longer name that
 * starts with NAME is not NAME. */
static void strvec_env_get_finds_the_first(void **state)
{
	char *env[] = { "PATHX=no", "PATH=/a", "HOME=/h", "PATH=/b", NULL };

	(void)state;
	assert_string_equal(pc_strvec_env_get(env, "PATH"), "/a");
	assert_string_equal(pc_strvec_env_get(env, "HOME"), "/h");
	assert_null(pc_strvec_env_get(env, "PAT"));
	assert_null(pc_strvec_env_get(env, "TMPDIR"));
	assert_null(pc_strvec_env_get(NULL, "PATH"));
}

static void strvec_env_with_home_replaces_every_home(void **state)
{
	char *env[] = { "HOME=/a", "PATH=/p", "HOMEX=keep", "HOME=/b", NULL };
	struct pc_strvec v = PC_STRVEC_INIT;

	(void)state;
	pc_strvec_env_with_home(&v, env, "/tmp/h");
	assert_int_equal(v.nr, 3);
	assert_string_equal(v.v[0], "PATH=/p");
	assert_string_equal(v.v[1], "HOMEX=keep");
	assert_string_equal(v.v[2], "HOME=/tmp/h");
	assert_null(v.v[3]);
	pc_strvec_release(&v);
}

static void strvec_is_null_terminated_and_owns_copies(void **state)
{
	struct pc_strvec sv = PC_STRVEC_INIT;
	char word[] = "copy";

	(void)state;
	assert_non_null(sv.v);
	assert_null(sv.v[0]);
	assert_int_equal(sv.nr, 0);
	pc_strvec_push(&sv, word);
	word[0] = 'X';
	pc_strvec_push_nodup(&sv, strdup("taken"));
	pc_strvec_pushf(&sv, "%s=%d", "N", 42);
	for (int i = 0; i < 20; i++)
		pc_strvec_pushf(&sv, "e%d", i);
	assert_int_equal(sv.nr, 23);
	assert_string_equal(sv.v[0], "copy");
	assert_string_equal(sv.v[1], "taken");
	assert_string_equal(sv.v[2], "N=42");
	assert_string_equal(sv.v[22], "e19");
	assert_null(sv.v[23]);
	pc_strvec_release(&sv);
	assert_int_equal(sv.nr, 0);
	assert_non_null(sv.v);
	assert_null(sv.v[0]);
	pc_strvec_release(&sv);
}

static void strvec_pushf_of_long_text(void **state)
{
	struct pc_strvec sv = PC_STRVEC_INIT;
	char big[5000];

	(void)state;
	memset(big, 'k', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pc_strvec_pushf(&sv, "<%s>", big);
	assert_int_equal(strlen(sv.v[0]), sizeof(big) + 1);
	pc_strvec_release(&sv);
}

static void expect_join(const char *a, const char *b, const char *want)
{
	char *got = pc_fs_join(a, b);

	assert_string_equal(got, want);
	free(got);
}

static void fs_join_adds_one_slash(void **state)
{
	(void)state;
	expect_join("a", "b", "a/b");
	expect_join("a/", "b", "a/b");
	expect_join("/", "b", "/b");
	expect_join("/x/y", "plugin.json", "/x/y/plugin.json");
	expect_join("a", "b/c", "a/b/c");
}

static void expect_abs(const char *p, const char *want)
{
	char *got = pc_fs_absolute(p);

	assert_string_equal(got, want);
	free(got);
}

static void fs_absolute_folds_lexically(void **state)
{
	(void)state;
	expect_abs("/", "/");
	expect_abs("/a/b", "/a/b");
	expect_abs("//a///b/", "/a/b");
	expect_abs("/a/./b/.", "/a/b");
	expect_abs("/a/b/../c", "/a/c");
	expect_abs("/..", "/");
	expect_abs("/a/../..", "/");
}

static void fs_absolute_joins_relative_to_cwd(void **state)
{
	char *cwd = getcwd(NULL, 0), *want;

	(void)state;
	assert_non_null(cwd);
	want = pc_fs_join(cwd, "x/y");
	expect_abs("x/y", want);
	expect_abs("./x/./y", want);
	expect_abs("x/z/../y", want);
	free(want);
	expect_abs(".", strcmp(cwd, "/") ? cwd : "/");
	free(cwd);
}

/* A symlink is not resolved: absolute() is lexical only. */
/* The lists workers leave for their parent (check -j, run -j): whole
 * lines are removed; a cut last line (no newline) is not. */
static void fs_rm_rf_listed_removes_whole_lines(void **state)
{
	char *tmp = pc_fs_mkdtemp("test"), *a, *b, *cut, *list;
	struct pc_buf got = PC_BUF_INIT(4096);
	char want[4096];
	int fd;

	(void)state;
	assert_non_null(tmp);
	a = pc_fs_join(tmp, "a");
	b = pc_fs_join(tmp, "b");
	cut = pc_fs_join(tmp, "cut");
	list = pc_fs_join(tmp, "list");
	assert_int_equal(pc_fs_mkdir_p(a, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(b, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(cut, NULL), 0);
	assert_int_equal(pc_fs_append_line(list, a, NULL), 0);
	assert_int_equal(pc_fs_append_line(list, b, NULL), 0);
	assert_int_equal(pc_fs_read_capped(list, &got, NULL), 0);
	snprintf(want, sizeof(want), "%s\n%s\n", a, b);
	assert_string_equal(pc_buf_cstr(&got), want);
	fd = open(list, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, cut, strlen(cut)), (ssize_t)strlen(cut));
	close(fd);
	pc_fs_rm_rf_listed(list);
	assert_false(pc_fs_is_dir(a));
	assert_false(pc_fs_is_dir(b));
	assert_true(pc_fs_is_dir(cut));
	pc_fs_rm_rf_listed("/nonexistent/list"); /* nothing, no crash */
	assert_int_equal(pc_fs_append_line("/nonexistent/list", "x", NULL),
			 PC_EIO);
	pc_fs_rm_rf(tmp);
	pc_buf_release(&got);
	free(tmp);
	free(a);
	free(b);
	free(cut);
	free(list);
}

static void fs_absolute_does_not_resolve_symlinks(void **state)
{
	char *tmp = pc_fs_mkdtemp("test-base");
	char *link, *got;

	(void)state;
	assert_non_null(tmp);
	link = pc_fs_join(tmp, "ln");
	assert_int_equal(symlink("/usr", link), 0);
	got = pc_fs_absolute(link);
	assert_string_equal(got, link);
	free(got);
	pc_fs_rm_rf(tmp);
	free(link);
	free(tmp);
}

static void err_set_formats_and_returns_code(void **state)
{
	struct pc_err err = PC_ERR_INIT;

	(void)state;
	err.sys_errno = 5;
	snprintf(err.where, sizeof(err.where), "f.yaml:1:2");
	assert_int_equal(pc_err_set(&err, PC_EINVAL, "bad '%s'", "x"),
			 PC_EINVAL);
	assert_int_equal(err.code, PC_EINVAL);
	assert_int_equal(err.sys_errno, 0);
	assert_string_equal(err.where, "");
	assert_string_equal(err.msg, "bad 'x'");
	assert_int_equal(pc_err_set(NULL, PC_EIO, "ignored"), PC_EIO);
}

static void err_set_errno_appends_strerror(void **state)
{
	struct pc_err err = PC_ERR_INIT;
	char want[256];

	(void)state;
	snprintf(want, sizeof(want), "cannot open '/nope': %s",
		 strerror(ENOENT));
	assert_int_equal(pc_err_set_errno(&err, PC_ENOENT, ENOENT,
					  "cannot open '%s'", "/nope"),
			 PC_ENOENT);
	assert_int_equal(err.code, PC_ENOENT);
	assert_int_equal(err.sys_errno, ENOENT);
	assert_string_equal(err.msg, want);
	assert_int_equal(pc_err_set_errno(NULL, PC_EIO, EIO, "x"), PC_EIO);
	pc_err_clear(&err);
	assert_int_equal(err.code, 0);
	assert_int_equal(err.sys_errno, 0);
	assert_string_equal(err.msg, "");
	pc_err_clear(NULL);
}

static void err_msg_is_truncated_not_overflowed(void **state)
{
	struct pc_err err = PC_ERR_INIT;
	char big[3000];

	(void)state;
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pc_err_set(&err, PC_EPARSE, "%s", big);
	assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
	pc_err_set_errno(&err, PC_EIO, EIO, "%s", big);
	assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
}

static void strerror_names_every_code(void **state)
{
	static const struct {
		int code;
		const char *text;
	} t[] = {
		{ PC_OK, "success" },
		{ PC_EINVAL, "invalid argument" },
		{ PC_ENOMEM, "out of memory" },
		{ PC_EIO, "input/output error" },
		{ PC_EFBIG, "size limit exceeded" },
		{ PC_ENOENT, "no such file or directory" },
		{ PC_ESPAWN, "cannot start process" },
		{ PC_ETIMEDOUT, "timed out" },
		{ PC_EPARSE, "parse error" },
		{ PC_EMANIFEST, "manifest rejected" },
		{ PC_EUSAGE, "usage error" },
		{ -999, "unknown error" },
		{ 1, "unknown error" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(pc_strerror(t[i].code), t[i].text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buf_accepts_up_to_cap_minus_one),
		cmocka_unit_test(buf_accepts_exactly_cap_in_one_add),
		cmocka_unit_test(buf_add_refuses_past_max),
		cmocka_unit_test(buf_add_of_huge_size_does_not_wrap),
		cmocka_unit_test(buf_addf_keeps_contents_when_too_long),
		cmocka_unit_test(buf_holds_nul_bytes_and_detaches),
		cmocka_unit_test(buf_reset_keeps_allocation),
		cmocka_unit_test(strvec_is_null_terminated_and_owns_copies),
		cmocka_unit_test(strvec_env_get_finds_the_first),
		cmocka_unit_test(strvec_env_with_home_replaces_every_home),
		cmocka_unit_test(strvec_pushf_of_long_text),
		cmocka_unit_test(fs_join_adds_one_slash),
		cmocka_unit_test(fs_absolute_folds_lexically),
		cmocka_unit_test(fs_absolute_joins_relative_to_cwd),
		cmocka_unit_test(fs_absolute_does_not_resolve_symlinks),
		cmocka_unit_test(fs_rm_rf_listed_removes_whole_lines),
		cmocka_unit_test(err_set_formats_and_returns_code),
		cmocka_unit_test(err_set_errno_appends_strerror),
		cmocka_unit_test(err_msg_is_truncated_not_overflowed),
		cmocka_unit_test(strerror_names_every_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

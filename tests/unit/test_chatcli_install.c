/* test_chatcli_install.c - /plugin install from git (I2-I5) and the
 * plugins-directory watcher (D9) of the ChatCLI reference host. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_chatcli.h"
#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_xalloc.h"

static void url(const char *raw, const char *clone, const char *branch,
		const char *sub)
{
	struct pc_chatcli_git_url u = PC_CHATCLI_GIT_URL_INIT;

	pc_chatcli_git_url_parse(raw, &u);
	assert_string_equal(u.clone_url, clone);
	assert_string_equal(u.branch, branch);
	assert_string_equal(u.subdir, sub);
	pc_chatcli_git_url_release(&u);
}

/* I2, the spec's verified vectors. */
static void test_git_url(void **state)
{
	(void)state;
	url("https://github.com/o/r", "https://github.com/o/r", "", "");
	url("https://github.com/o/r.git", "https://github.com/o/r.git", "", "");
	url("https://github.com/o/r/tree/main/plugins/x",
	    "https://github.com/o/r.git", "main", "plugins/x");
	url("https://github.com/o/r/tree/main/plugins/x///",
	    "https://github.com/o/r.git", "main", "plugins/x");
	url("https://github.com/o/r/tree/dev", "https://github.com/o/r.git",
	    "dev", "");
	/* a branch with '/' is split at its first '/' */
	url("https://github.com/o/r/tree/feature/x/sub",
	    "https://github.com/o/r.git", "feature", "x/sub");
	/* the GitLab form is caught by "/tree/" first */
	url("https://gitlab.com/o/r/-/tree/main/p",
	    "https://gitlab.com/o/r/-.git", "main", "p");
	url("file:///srv/repo/tree/main/a", "file:///srv/repo.git", "main",
	    "a");
}

static void name(const char *dir, const char *want)
{
	char *n = pc_chatcli_install_name(dir);

	assert_string_equal(n, want);
	free(n);
}

/* I4 */
static void test_install_name(void **state)
{
	(void)state;
	name("/tmp/chatcli-plugin-1805802648", "chatcli-plugin-1805802648");
	name("/tmp/x/plugins/hello", "hello");
	name("/tmp/x/hello.git", "hello");
	name("/tmp/x/hello.git.git", "hello.git");
	name("/tmp/x/hello/", "hello");
}

/* D9: every qualifying event re-arms a 500 ms timer; Chmod does not. */
static void test_debounce(void **state)
{
	struct pc_chatcli_debounce d = PC_CHATCLI_DEBOUNCE_INIT;
	int64_t at = 0;

	(void)state;
	assert_false(pc_chatcli_debounce_fire(&d, 100000, &at));
	assert_true(pc_chatcli_debounce_event(&d, PC_CHATCLI_FS_CREATE, 0));
	assert_true(pc_chatcli_debounce_event(&d, PC_CHATCLI_FS_WRITE, 300));
	assert_false(pc_chatcli_debounce_event(&d, PC_CHATCLI_FS_CHMOD, 700));
	assert_false(pc_chatcli_debounce_fire(&d, 799, &at));
	assert_true(pc_chatcli_debounce_fire(&d, 800, &at));
	assert_int_equal(at, 800);
	assert_false(pc_chatcli_debounce_fire(&d, 100000, &at));
	assert_false(pc_chatcli_debounce_event(&d, PC_CHATCLI_FS_CHMOD, 900));
	assert_false(pc_chatcli_debounce_fire(&d, 100000, &at));
	assert_true(pc_chatcli_fsop_qualifies(PC_CHATCLI_FS_REMOVE));
	assert_true(pc_chatcli_fsop_qualifies(PC_CHATCLI_FS_RENAME));
	assert_true(pc_chatcli_fsop_qualifies(PC_CHATCLI_FS_CHMOD |
					      PC_CHATCLI_FS_WRITE));
	assert_false(pc_chatcli_fsop_qualifies(0));
}

static unsigned drain(int fd, const char *want_name)
{
	struct pc_chatcli_fsevent *v = NULL;
	size_t n = 0;
	unsigned ops = pc_chatcli_watch_drain(fd, &v, &n);

	for (size_t i = 0; want_name && i < n; i++)
		assert_string_equal(v[i].name, want_name);
	pc_chatcli_fsevents_free(v, n);
	return ops;
}

/* D9: what cp, chmod, mv and rm look like to the host's watcher. */
static void test_watch_ops(void **state)
{
	char *dir = pc_fs_mkdtemp("ccwatch");
	char *a = pc_fs_join(dir, "a"), *b = pc_fs_join(dir, "b");
	char buf[64];
	int fd;

	(void)state;
	fd = pc_chatcli_watch_open(dir, NULL);
	assert_true(fd >= 0);
	assert_int_equal(drain(fd, "a"), 0);
	assert_int_equal(pc_fs_write(a, "x", 1, NULL), 0);
	assert_int_equal(drain(fd, "a"),
			 PC_CHATCLI_FS_CREATE | PC_CHATCLI_FS_WRITE);
	assert_int_equal(chmod(a, 0755), 0);
	assert_int_equal(drain(fd, "a"), PC_CHATCLI_FS_CHMOD);
	assert_int_equal(rename(a, b), 0);
	assert_int_equal(drain(fd, NULL),
			 PC_CHATCLI_FS_RENAME | PC_CHATCLI_FS_CREATE);
	assert_int_equal(unlink(b), 0);
	assert_int_equal(drain(fd, "b"), PC_CHATCLI_FS_REMOVE);
	assert_string_equal(
		pc_chatcli_fsops_str(PC_CHATCLI_FS_CREATE | PC_CHATCLI_FS_CHMOD,
				     buf, sizeof(buf)),
		"CREATE|CHMOD");
	close(fd);
	pc_fs_rm_rf(dir);
	free(a);
	free(b);
	free(dir);
}

static void sh(const char *script, const char *dir)
{
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	extern char **environ;

	pc_strvec_push(&o.argv, "/bin/sh");
	pc_strvec_push(&o.argv, "-ec");
	pc_strvec_push(&o.argv, script);
	for (char **e = environ; *e; e++)
		pc_strvec_push(&o.env, *e);
	o.cwd = dir;
	o.flags = PC_PROC_STDIN_DEVNULL;
	assert_int_equal(pc_proc_run(&o, &r, NULL), 0);
	if (r.exit_code)
		fprintf(stderr, "%s\n", pc_buf_cstr(&r.err));
	assert_int_equal(r.exit_code, 0);
	pc_proc_result_release(&r);
	pc_proc_opts_release(&o);
}

/* I3-I5 without go: clone, the temporary-directory name, the subdir
 * check, and a clone that fails. */
static void test_install_stages(void **state)
{
	char *tmp = pc_fs_mkdtemp("ccinst");
	char *plugins = pc_fs_join(tmp, "plugins");
	char *src, *tree;
	struct pc_chatcli_install_opts o = { 0 };
	struct pc_chatcli_install r = PC_CHATCLI_INSTALL_INIT;

	(void)state;
	pc_fs_mkdir_p(plugins, NULL);
	sh("mkdir -p repo/sub && cd repo && git init -q -b main && "
	   "echo x > sub/f && git add sub/f && "
	   "git -c user.email=t@t -c user.name=t commit -qm i",
	   tmp);
	src = pc_fs_join(tmp, "repo");
	o.source = src;
	o.plugins_dir = plugins;
	o.tmp_dir = tmp;
	o.no_build = true;
	assert_int_equal(pc_chatcli_install(&o, &r, NULL), 0);
	assert_int_equal(r.stage, PC_CHATCLI_INSTALL_BUILD);
	assert_true(r.build_skipped);
	assert_false(r.go_tree);
	assert_string_equal(r.error,
			    "exec: \"go\": executable file not found in $PATH");
	assert_int_equal(strncmp(r.name, "chatcli-plugin-", 15), 0);
	assert_true(strspn(r.name + 15, "0123456789") == strlen(r.name + 15));
	pc_fs_rm_rf(r.clone_dir);
	pc_chatcli_install_release(&r);

	tree = pc_xasprintf("file://%s/repo/tree/main/nope", tmp);
	sh("git clone -q --bare repo repo.git", tmp);
	o.source = tree;
	assert_int_equal(pc_chatcli_install(&o, &r, NULL), 0);
	assert_int_equal(r.stage, PC_CHATCLI_INSTALL_SUBDIR);
	assert_string_equal(r.error,
			    "subdirectory 'nope' not found in repository");
	pc_fs_rm_rf(r.clone_dir);
	pc_chatcli_install_release(&r);
	free(tree);

	tree = pc_xasprintf("file://%s/repo/tree/main/sub", tmp);
	o.source = tree;
	assert_int_equal(pc_chatcli_install(&o, &r, NULL), 0);
	assert_int_equal(r.stage, PC_CHATCLI_INSTALL_BUILD);
	assert_string_equal(r.name, "sub");
	pc_fs_rm_rf(r.clone_dir);
	pc_chatcli_install_release(&r);
	free(tree);

	tree = pc_xasprintf("%s/missing", tmp);
	o.source = tree;
	assert_int_equal(pc_chatcli_install(&o, &r, NULL), 0);
	assert_int_equal(r.stage, PC_CHATCLI_INSTALL_CLONE);
	assert_string_equal(r.error, "exit status 128");
	pc_fs_rm_rf(r.clone_dir);
	pc_chatcli_install_release(&r);
	free(tree);

	pc_fs_rm_rf(tmp);
	free(src);
	free(plugins);
	free(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_url),
		cmocka_unit_test(test_install_name),
		cmocka_unit_test(test_debounce),
		cmocka_unit_test(test_watch_ops),
		cmocka_unit_test(test_install_stages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

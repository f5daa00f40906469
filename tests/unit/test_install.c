/* test_install.c - the host's install steps (pc_install.c, spec §11):
 * scope parsing, the copy and its exclusions, symlinks, collisions, the
 * trust store entry, and the workspace install loading without trust. */
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

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_install.h"
#include "pc_registry.h"
#include "pc_xalloc.h"

static void put(const char *dir, const char *rel, const char *text, int mode)
{
	char *p = pc_fs_join(dir, rel), *slash = strrchr(p, '/');

	*slash = '\0';
	pc_fs_mkdir_p(p, NULL);
	*slash = '/';
	assert_int_equal(pc_fs_write(p, text, strlen(text), NULL), 0);
	chmod(p, (mode_t)mode);
	free(p);
}

static bool exists(const char *dir, const char *rel)
{
	char *p = pc_fs_join(dir, rel);
	struct stat st;
	bool yes = lstat(p, &st) == 0;

	free(p);
	return yes;
}

static void scope_parse(void **state)
{
	static const char *const g[] = { "", " GLOBAL ", "user", "-g",
					 "--global" };
	static const char *const w[] = { "workspace", "Project", "local",
					 "-w" };
	enum pc_install_scope s;
	struct pc_err err = PC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(pc_install_scope_parse(g[i], &s, NULL), 0);
		assert_int_equal(s, PC_INSTALL_GLOBAL);
	}
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(pc_install_scope_parse(w[i], &s, NULL), 0);
		assert_int_equal(s, PC_INSTALL_WORKSPACE);
	}
	assert_int_equal(pc_install_scope_parse("team", &s, &err), PC_EINVAL);
	assert_string_equal(
		err.msg,
		"unknown plugin scope 'team' (use 'global' or 'workspace')");
}

static void skipped_names(void **state)
{
	(void)state;
	assert_true(pc_install_is_skipped(".env"));
	assert_true(pc_install_is_skipped(".env.local"));
	assert_false(pc_install_is_skipped(".env.example"));
	assert_false(pc_install_is_skipped(".envrc"));
	assert_true(pc_install_is_skipped("node_modules"));
	assert_true(pc_install_is_skipped("build"));
	assert_false(pc_install_is_skipped("builds"));
}

static void copy_excludes_at_every_depth(void **state)
{
	char *t = pc_fs_mkdtemp("test-install"), *src = pc_fs_join(t, "src");
	char *dst = pc_fs_join(t, "dst"), target[64];
	struct pc_strvec log = PC_STRVEC_INIT;
	struct stat st;
	ssize_t n;

	(void)state;
	put(src, "hooks/a.sh", "#!/bin/sh\n", 0750);
	put(src, "lib/.env", "X=1\n", 0644);
	put(src, "lib/.env.example", "X=\n", 0644);
	put(src, "lib/dist/x.js", "x\n", 0644);
	put(src, "node_modules/m/i.js", "m\n", 0644);
	{
		char *l = pc_fs_join(src, "lib/link");

		assert_int_equal(symlink("../hooks/a.sh", l), 0);
		free(l);
	}
	assert_int_equal(pc_install_copy_dir(src, dst, &log, NULL), 0);
	assert_true(exists(dst, "hooks/a.sh"));
	assert_true(exists(dst, "lib/.env.example"));
	assert_false(exists(dst, "lib/.env"));
	assert_false(exists(dst, "lib/dist"));
	assert_false(exists(dst, "node_modules"));
	{
		char *a = pc_fs_join(dst, "hooks/a.sh"),
		     *l = pc_fs_join(dst, "lib/link");

		assert_int_equal(stat(a, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0750);
		n = readlink(l, target, sizeof(target) - 1);
		assert_true(n > 0);
		target[n] = '\0';
		assert_string_equal(target, "../hooks/a.sh");
		free(a);
		free(l);
	}
	assert_int_equal(log.nr, 0);
	pc_strvec_release(&log);
	pc_fs_rm_rf(t);
	free(t);
	free(src);
	free(dst);
}

/* copy_dir's errors are `<what> <path:?>: <io::Error>`: the Rust text
 * once, never followed by a second strerror. */
static void copy_errors_are_rusts(void **state)
{
	char *t = pc_fs_mkdtemp("test-install"), *src = pc_fs_join(t, "src");
	char *dst = pc_fs_join(t, "dst"), *want;
	struct pc_err err = PC_ERR_INIT;

	(void)state;
	put(src, "a.txt", "a\n", 0644);
	put(t, "dst", "a file\n", 0644);
	assert_int_equal(pc_install_copy_dir(src, dst, NULL, &err), PC_EIO);
	want = pc_xasprintf("mkdir \"%s\": File exists (os error 17)", dst);
	assert_string_equal(err.msg, want);
	assert_int_equal(err.sys_errno, 17);
	free(want);
	pc_fs_rm_rf(t);
	free(t);
	free(src);
	free(dst);
}

static const char manifest[] =
	"{\"name\":\"demo\",\"version\":\"1\",\"description\":\"d\","
	"\"hooks\":{\"pre_bash\":{\"script\":\"hooks/a.sh\"}}}";

static void workspace_install_records_trust(void **state)
{
	char *t = pc_fs_mkdtemp("test-install"), *src = pc_fs_join(t, "src");
	char *home = pc_fs_join(t, "home"), *ws = pc_fs_join(t, "ws");
	struct pc_manifest_env menv = { NULL, NULL };
	struct pc_install_opts o = { .source = src,
				     .scope = PC_INSTALL_WORKSPACE,
				     .menv = &menv };
	struct pc_install_result res = PC_INSTALL_RESULT_INIT;
	struct pc_registry_opts ro = { .menv = &menv };
	struct pc_registry reg = PC_REGISTRY_INIT;
	struct pc_buf store = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_err err = PC_ERR_INIT;
	char *want, *cws, *cdest, *sp;

	(void)state;
	pc_fs_mkdir_p(home, NULL);
	pc_fs_mkdir_p(ws, NULL);
	menv.home = home;
	o.home = ro.home = home;
	o.workspace = ro.workspace = ws;
	put(src, "plugin.json", manifest, 0644);
	put(src, "hooks/a.sh", "#!/bin/sh\n", 0755);
	assert_int_equal(pc_install_run(&o, &res, &err), 0);
	assert_non_null(res.plugin);
	cws = pc_fs_realpath(ws);
	cdest = pc_fs_realpath(res.dest);
	sp = pc_xasprintf("%s/.config/catalyst-code/plugin-trust.json", home);
	assert_int_equal(pc_fs_read_capped(sp, &store, NULL), 0);
	want = pc_xasprintf(
		"{\n  \"projects\": {},\n  \"installed\": {\n    \"%s\": [\n      \"%s\"\n    ]\n  }\n}",
		cws, cdest);
	assert_string_equal(pc_buf_cstr(&store), want);
	/* The next scan loads it without --trust-project-plugins (R1.7.4). */
	pc_registry_scan(&ro, &reg);
	assert_non_null(pc_registry_find(&reg, "demo"));
	assert_int_equal(reg.skipped.nr, 0);
	/* A second install of the same name is refused with the host's text. */
	pc_install_result_release(&res);
	o.registered = &reg;
	assert_int_equal(pc_install_run(&o, &res, &err), PC_EINVAL);
	assert_string_equal(
		err.msg,
		"plugin 'demo' is already installed; remove it first or use a different name");
	pc_install_result_release(&res);
	pc_registry_release(&reg);
	pc_buf_release(&store);
	pc_fs_rm_rf(t);
	free(want);
	free(sp);
	free(cws);
	free(cdest);
	free(t);
	free(src);
	free(home);
	free(ws);
}

static void source_errors(void **state)
{
	char *t = pc_fs_mkdtemp("test-install"), *src = pc_fs_join(t, "src");
	struct pc_install_opts o = { .source = src, .home = t, .workspace = t };
	struct pc_install_result res = PC_INSTALL_RESULT_INIT;
	struct pc_err err = PC_ERR_INIT;
	char *want;

	(void)state;
	assert_int_equal(pc_install_run(&o, &res, &err), PC_EINVAL);
	want = pc_xasprintf("\"%s\" is not a directory", src);
	assert_string_equal(err.msg, want);
	free(want);
	pc_fs_mkdir_p(src, NULL);
	assert_int_equal(pc_install_run(&o, &res, &err), PC_EINVAL);
	want = pc_xasprintf("no plugin.json found in \"%s\"", src);
	assert_string_equal(err.msg, want);
	free(want);
	put(src, "plugin.json", manifest, 0644);
	put(src, "hooks/a.sh", "#!/bin/sh\n", 0644);
	assert_int_equal(pc_install_run(&o, &res, &err), PC_EMANIFEST);
	assert_non_null(strstr(err.msg, "is not executable"));
	pc_install_result_release(&res);
	pc_fs_rm_rf(t);
	free(t);
	free(src);
}

static void source_meta_layout(void **state)
{
	char *t = pc_fs_mkdtemp("test-install");
	char *p = pc_fs_join(t, PC_INSTALL_SOURCE_META);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	(void)state;
	assert_int_equal(
		pc_install_write_source_meta(t, "o", "r", "v1", 42, NULL), 0);
	assert_int_equal(pc_fs_read_capped(p, &b, NULL), 0);
	assert_string_equal(
		pc_buf_cstr(&b),
		"{\n  \"kind\": \"github_release\",\n  \"owner\": \"o\",\n  \"repo\": \"r\",\n  \"tag\": \"v1\",\n  \"url\": \"https://github.com/o/r\",\n  \"installed_at\": 42\n}\n");
	pc_buf_release(&b);
	pc_fs_rm_rf(t);
	free(t);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scope_parse),
		cmocka_unit_test(skipped_names),
		cmocka_unit_test(copy_excludes_at_every_depth),
		cmocka_unit_test(copy_errors_are_rusts),
		cmocka_unit_test(workspace_install_records_trust),
		cmocka_unit_test(source_errors),
		cmocka_unit_test(source_meta_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sandbox.c - plugcheck --sandbox below the CLI: the strace log
 * parser (pc_sandbox_parse), pc_sandbox_open's refusals, and pc_proc's
 * wrapped runs (spawn errors found before spawning, the plugin proper not
 * counted as a leftover). The real bubblewrap runs are end-to-end tests
 * (tests/e2e/test_sandbox.py). Capabilities: spec catalyst-code.md R3.1,
 * R3.5; process rules R4.3 step 6, R5.9. */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
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

#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_sandbox.h"
#include "pc_xalloc.h"

static const struct pc_confine_spec spec = {
	.workspace = "/ws",
	.plugin_dir = "/plug",
	.home = "/h/home",
	.cwd = "/cwd",
};

/* 100 is bubblewrap (the direct child), 101 the plugin. */
static const char setup[] =
	"100 execve(\"/usr/bin/bwrap\", [\"bwrap\"], 0x7ff /* 3 vars */) = 0\n"
	"101 sendto(4</socket:[1]>, [{nlmsg_len=40}], 40, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 40\n"
	"101 connect(3, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr(\"1.1.1.1\")}, 16) = 0\n"
	"101 mkdir(\"/newroot/etc\", 0755) = -1 EROFS (Read-only file system)\n"
	"101 execve(\"/plug/h\", [\"/plug/h\"], 0x7ff /* 4 vars */) = 0\n";

static void parse(const char *body, struct pc_confine_obs *obs)
{
	char *text = pc_xasprintf("%s%s", setup, body);

	pc_sandbox_parse(text, strlen(text), &spec, 100, obs);
	free(text);
}

static void assert_list(const struct pc_strvec *v, const char *const *want,
			size_t n)
{
	assert_int_equal(v->nr, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v->v[i], want[i]);
}

/* R3.1 access_network: AF_INET/AF_INET6 destinations of connect, sendto
 * and sendmsg; local sockets and bubblewrap's own setup are not counted. */
static void sandbox_parse_network(void **state)
{
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
	static const char *const want[] = { "127.0.0.1:9", "[2001:db8::1]:443",
					    "10.0.0.2:53", "192.0.2.7:80" };

	(void)state;
	parse("101 connect(3<socket:[2]>, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 ECONNREFUSED (Connection refused)\n"
	      "102 connect(4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"2001:db8::1\", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH (Network is unreachable)\n"
	      "102 connect(5, {sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}, 110) = -1 ENOENT (No such file or directory)\n"
	      "101 connect(3, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 ECONNREFUSED (Connection refused)\n"
	      "103 sendto(6, \"x\", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"10.0.0.2\")}, 16) = -1 ENETUNREACH (Network is unreachable)\n"
	      "103 sendto(6, \"x\", 1, MSG_NOSIGNAL, NULL, 0) = 1\n"
	      "103 sendmsg(7, {msg_name={sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"192.0.2.7\")}, msg_namelen=16, msg_iov=NULL, msg_iovlen=0, msg_controllen=0, msg_flags=0}, 0 <unfinished ...>\n"
	      "101 +++ exited with 0 +++\n"
	      "103 <... sendmsg resumed>) = -1 ENETUNREACH (Network is unreachable)\n",
	      &obs);
	assert_list(&obs.net, want, 4);
	assert_int_equal(obs.ws_writes.nr, 0);
	assert_int_equal(obs.out_writes.nr, 0);
	assert_int_equal(obs.term_signal, 0);
	pc_confine_obs_release(&obs);
}

/* With access_network declared a connection is no attempt past it. */
static void sandbox_parse_network_when_declared(void **state)
{
	struct pc_confine_spec sp = spec;
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
	char *text = pc_xasprintf("%s%s", setup,
				  "101 connect(3, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 ECONNREFUSED (Connection refused)\n");

	(void)state;
	sp.network = true;
	pc_sandbox_parse(text, strlen(text), &sp, 100, &obs);
	assert_int_equal(obs.net.nr, 0);
	free(text);
	pc_confine_obs_release(&obs);
}

/* Writes the sandbox refused (EROFS), resolved against the fd argument
 * strace -y prints, or the working directory; split by the workspace. */
static void sandbox_parse_writes(void **state)
{
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
	static const char *const ws[] = { "/ws/a.txt", "/ws/sub" };
	static const char *const out[] = { "/h/escaped", "/etc/x", "/plug/b",
					   "/cwd/rel", "/plug/y" };

	(void)state;
	parse("101 openat(AT_FDCWD</ws>, \"a.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)\n"
	      "101 openat(AT_FDCWD</ws>, \"b.txt\", O_RDONLY) = 3</ws/b.txt>\n"
	      "101 openat(AT_FDCWD</ws>, \"c.txt\", O_WRONLY) = -1 EACCES (Permission denied)\n"
	      "101 openat(AT_FDCWD</h/home>, \"../escaped\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)\n"
	      "101 mkdir(\"/etc/x\", 0755) = -1 EROFS (Read-only file system)\n"
	      "101 mkdirat(3</ws>, \"./sub/\", 0777) = -1 EROFS (Read-only file system)\n"
	      "101 renameat2(AT_FDCWD</ws>, \"a\", 4</plug>, \"b\", 0) = -1 EROFS (Read-only file system)\n"
	      "101 unlink(\"rel\") = -1 EROFS (Read-only file system)\n"
	      "101 openat(AT_FDCWD</plug>, \"y\", O_WRONLY|O_CREAT <unfinished ...>\n"
	      "102 connect(4, {sa_family=AF_UNIX, sun_path=\"/x\"}, 110) = -1 ENOENT (No such file or directory)\n"
	      "101 <... openat resumed>, 0666) = -1 EROFS (Read-only file system)\n"
	      "101 openat(AT_FDCWD</ws>, \"a.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)\n"
	      "101 mkdir(\"/plug/__pycache__\", 0777) = -1 EROFS (Read-only file system)\n"
	      "101 openat(AT_FDCWD</usr/lib/python3>, \"__pycache__/os.cpython-311.pyc.1\", O_WRONLY|O_CREAT|O_EXCL, 0644) = -1 EROFS (Read-only file system)\n",
	      &obs);
	assert_list(&obs.ws_writes, ws, 2);
	assert_list(&obs.out_writes, out, 5);
	assert_int_equal(obs.net.nr, 0);
	pc_confine_obs_release(&obs);
}

/* strace prints non-ASCII and control bytes of paths as escapes (seen:
 * "/tmp/caf\303\251 dir/x\ny" and the same in -y's <...>): they are
 * decoded before a path is judged, or a workspace under a non-ASCII name
 * would count as "outside" (a review of the change found it). */
static void sandbox_parse_decodes_escapes(void **state)
{
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
	static const char *const ws[] = { "/ws/caf\xc3\xa9/d\xc3\xa9j\xc3\xa0\n.txt",
					  "/ws/A\t\"q\"\\" };
	static const char *const out[] = { "/etc/caf\xc3\xa9" };

	(void)state;
	parse("101 openat(AT_FDCWD</ws/caf\\303\\251>, \"d\\303\\251j\\303\\240\\n.txt\", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)\n"
	      "101 mkdir(\"/ws/\\x41\\t\\\"q\\\"\\\\\", 0755) = -1 EROFS (Read-only file system)\n"
	      "101 mkdir(\"/etc/caf\\303\\251\", 0755) = -1 EROFS (Read-only file system)\n",
	      &obs);
	assert_list(&obs.ws_writes, ws, 2);
	assert_list(&obs.out_writes, out, 1);
	pc_confine_obs_release(&obs);
}

/* Each list keeps at most PC_CONFINE_MAX_OBS entries: N-1, N, N+1. */
static void sandbox_parse_caps_the_lists(void **state)
{
	(void)state;
	for (int n = PC_CONFINE_MAX_OBS - 1; n <= PC_CONFINE_MAX_OBS + 1; n++) {
		struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (int i = 0; i < n; i++)
			pc_buf_addf(&b, "101 connect(3, {sa_family=AF_INET, sin_port=htons(%d), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 ECONNREFUSED (Connection refused)\n",
				    i + 1);
		parse(pc_buf_cstr(&b), &obs);
		assert_int_equal(obs.net.nr, n < PC_CONFINE_MAX_OBS
						     ? (size_t)n
						     : (size_t)PC_CONFINE_MAX_OBS);
		assert_string_equal(obs.net.v[0], "127.0.0.1:1");
		pc_buf_release(&b);
		pc_confine_obs_release(&obs);
	}
}

/* R4.3 step 6: the plugin's own death by signal, which bubblewrap turns into
 * exit 128 + N; other processes' deaths do not count. */
static void sandbox_parse_signal(void **state)
{
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;

	(void)state;
	parse("102 +++ killed by SIGKILL +++\n"
	      "101 +++ killed by SIGSEGV (core dumped) +++\n",
	      &obs);
	assert_int_equal(obs.term_signal, 11);
	assert_true(obs.core_dumped);
	pc_confine_obs_release(&obs);
	parse("102 +++ killed by SIGTERM +++\n101 +++ exited with 3 +++\n",
	      &obs);
	assert_int_equal(obs.term_signal, 0);
	pc_confine_obs_release(&obs);
}

/* Never a silent unsandboxed run: a missing tool is an error that names
 * it and the fix. */
static void sandbox_open_refuses_missing_tools(void **state)
{
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_err err = PC_ERR_INIT;
	char *env1[] = { (char *)"PATH=/nonexistent-dir", NULL };
	char *env2[] = { (char *)"PATH=/usr/bin:/bin",
			 (char *)"PLUGCHECK_BWRAP=/nonexistent/bwrap", NULL };

	(void)state;
	assert_int_equal(pc_sandbox_open(&sb, env1, &err), PC_ENOENT);
	assert_string_equal(err.msg,
			    "--sandbox: bubblewrap (bwrap) is not on PATH; fix: install it (Debian: apt-get install bubblewrap) or set PLUGCHECK_BWRAP to its path");
	assert_null(sb.dir);
	assert_int_equal(pc_sandbox_open(&sb, env2, &err), PC_ENOENT);
	assert_string_equal(err.msg,
			    "--sandbox: PLUGCHECK_BWRAP='/nonexistent/bwrap' is not an executable file; fix: point it at bubblewrap's bwrap, or unset it and install bubblewrap (Debian: apt-get install bubblewrap)");
	assert_null(sb.dir);
}

/* The command line: the capabilities decide --unshare-net and whether
 * the workspace is bound writable; HOME's parent is shown read-only, and
 * "/" is never bound writable. */
static void sandbox_wrap_follows_the_capabilities(void **state)
{
	char *dir = pc_fs_mkdtemp("test-wrap");
	char *home = pc_fs_join(dir, "run/home"), *ws = pc_fs_join(dir, "run/ws");
	char *run = pc_fs_join(dir, "run"), *tmp = pc_fs_join(dir, "tmp");
	struct pc_sandbox sb = { .bwrap = (char *)"/usr/bin/bwrap",
				 .strace = (char *)"/usr/bin/strace",
				 .dir = dir, .tmp = tmp };
	struct pc_confine_spec sp = { .workspace = ws, .plugin_dir = dir,
				      .home = home, .tmpdir = "/", .cwd = ws };
	struct pc_confine_spec sp2 = { .plugin_dir = "/usr", .tmpdir = "/tmp",
				       .cwd = ws, .network = true };
	struct pc_strvec w2 = PC_STRVEC_INIT;
	struct pc_buf want = PC_BUF_INIT(PC_BUF_NOCAP);

	(void)state;
	assert_int_equal(pc_fs_mkdir_p(home, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(ws, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(tmp, NULL), 0);
	for (int caps = 0; caps < 4; caps++) {
		struct pc_strvec w = PC_STRVEC_INIT;
		struct pc_buf got = PC_BUF_INIT(PC_BUF_NOCAP);
		size_t i = 0;

		sp.network = caps & 1;
		sp.write_workspace = caps & 2;
		pc_sandbox_wrap(&sb, &sp, &w);
		assert_string_equal(w.v[0], "/usr/bin/strace");
		/* bubblewrap's reaper gets /dev/null, the command the pipes
		 * back (pc_sandbox_wrap) */
		assert_string_equal(w.v[w.nr - 5], "--");
		assert_string_equal(w.v[w.nr - 4], "/bin/sh");
		assert_string_equal(w.v[w.nr - 3], "-c");
		assert_non_null(strstr(w.v[w.nr - 2], "exec 0<&3 1>&4 2>&5"));
		assert_string_equal(w.v[w.nr - 1], "sh");
		while (strcmp(w.v[i], "/usr/bin/bwrap"))
			i++;
		assert_string_equal(w.v[i - 4], "/bin/sh");
		assert_non_null(strstr(w.v[i - 2], "exec 3<&0 4>&1 5>&2"));
		for (; i < w.nr - 4; i++)
			pc_buf_addf(&got, "%s ", w.v[i]);
		pc_buf_reset(&want);
		/* a PID namespace with its own /proc (issue 21); binds
		 * sorted by length, parents first: the plugin dir (ro),
		 * HOME's parent (ro), the workspace, HOME (rw); the working
		 * directory (the workspace) is shown already */
		pc_buf_addf(&want,
			    "/usr/bin/bwrap --unshare-pid --unshare-ipc %s--ro-bind / / --proc /proc --dev /dev --tmpfs /tmp "
			    "--ro-bind %s %s --ro-bind %s %s %s %s %s --bind %s %s --chdir %s -- ",
			    sp.network ? "" : "--unshare-net ", dir, dir, run, run,
			    sp.write_workspace ? "--bind" : "--ro-bind", ws, ws,
			    home, home, ws);
		assert_string_equal(pc_buf_cstr(&got), pc_buf_cstr(&want));
		pc_buf_release(&got);
		pc_strvec_release(&w);
	}
	/* TMPDIR=/tmp shows the sandbox's own directory there: the working
	 * directory under /tmp must still be bound */
	pc_sandbox_wrap(&sb, &sp2, &w2);
	pc_buf_reset(&want);
	for (size_t i = 0; i < w2.nr; i++)
		pc_buf_addf(&want, "%s ", w2.v[i]);
	{
		char *t = pc_xasprintf(" --bind %s /tmp ", tmp);
		char *tail = pc_xasprintf(" --ro-bind %s %s --chdir %s -- ",
					  ws, ws, ws);

		assert_non_null(strstr(pc_buf_cstr(&want), t));
		assert_non_null(strstr(pc_buf_cstr(&want), tail));
		free(t);
		free(tail);
	}
	pc_strvec_release(&w2);
	pc_buf_release(&want);
	pc_fs_rm_rf(dir);
	free(home);
	free(ws);
	free(run);
	free(tmp);
	free(dir);
}

/* --- pc_proc's wrapped runs, with /bin/sh as a stand-in wrapper that runs
 * the plugin as its one child --------------------------------------------- */

struct fx {
	struct pc_proc_opts o;
	struct pc_proc_result r;
	struct pc_strvec wrap;
	char *tmp;
};

static int setup_fx(void **state)
{
	struct fx *fx = pc_xcalloc(1, sizeof(*fx));

	fx->o = (struct pc_proc_opts)PC_PROC_OPTS_INIT;
	fx->r = (struct pc_proc_result)PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	fx->wrap = (struct pc_strvec)PC_STRVEC_INIT;
	pc_strvec_push(&fx->wrap, "/bin/sh");
	pc_strvec_push(&fx->wrap, "-c");
	pc_strvec_push(&fx->wrap, "\"$@\"; exit $?");
	pc_strvec_push(&fx->wrap, "sh");
	fx->o.wrap = &fx->wrap;
	fx->o.flags = PC_PROC_STDIN_FIRST;
	fx->o.timeout_ms = 10000;
	pc_strvec_push(&fx->o.env, "PATH=/usr/bin:/bin");
	fx->tmp = pc_fs_mkdtemp("test-sandbox");
	assert_non_null(fx->tmp);
	*state = fx;
	return 0;
}

static int teardown_fx(void **state)
{
	struct fx *fx = *state;

	pc_proc_result_release(&fx->r);
	pc_proc_opts_release(&fx->o);
	pc_strvec_release(&fx->wrap);
	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx);
	return 0;
}

static void run_argv(struct fx *fx, const char *a0, const char *a1)
{
	pc_proc_result_release(&fx->r);
	fx->r = (struct pc_proc_result)PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, a0);
	if (a1)
		pc_strvec_push(&fx->o.argv, a1);
	assert_int_equal(pc_proc_run(&fx->o, &fx->r, NULL), 0);
}

static char *file_in(struct fx *fx, const char *name, const char *body,
		     mode_t mode)
{
	char *p = pc_fs_join(fx->tmp, name);

	assert_int_equal(pc_fs_write(p, body, strlen(body), NULL), 0);
	assert_int_equal(chmod(p, mode), 0);
	return p;
}

/* The spawn errors a plain run reports, found before anything runs. */
static void wrap_spawn_errors_come_first(void **state)
{
	struct fx *fx = *state;
	char *noexec = file_in(fx, "noexec", "#!/bin/sh\n", 0644);
	char *noshebang = file_in(fx, "noshebang", "echo hi\n", 0755);
	char *empty = file_in(fx, "empty", "", 0755);
	char *script = file_in(fx, "ok", "#!/bin/sh\necho ok\n", 0755);
	const struct {
		const char *argv0;
		int err;
	} cases[] = {
		{ "/nonexistent/plugin", ENOENT },
		{ fx->tmp, EACCES },
		{ noexec, EACCES },
		{ noshebang, ENOEXEC },
		{ empty, ENOEXEC },
		{ "no-such-program-plugcheck", ENOENT },
		{ "", ENOENT },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		run_argv(fx, cases[i].argv0, NULL);
		assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
		assert_int_equal(fx->r.spawn_errno, cases[i].err);
		assert_int_equal(fx->r.pid, 0);
	}
	run_argv(fx, script, NULL);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "ok\n");
	run_argv(fx, "sh", "-c"); /* a bare name found on PATH */
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	free(noexec);
	free(noshebang);
	free(empty);
	free(script);
}

/* R5.9: at the deadline the plugin proper (the wrapper's child) is killed
 * as the host kills its direct child; it is no leftover. */
static void wrap_timeout_kills_the_plugin(void **state)
{
	struct fx *fx = *state;

	fx->o.timeout_ms = 200;
	run_argv(fx, FAKE_PLUGIN, "hang");
	assert_int_equal(fx->r.outcome, PC_PROC_TIMEOUT);
	assert_int_equal(fx->r.leftover_processes, 0);
}

/* What the plugin itself leaves behind is still counted, except
 * processes running the wrapper's helper executable. */
static void wrap_leftovers_and_helpers(void **state)
{
	struct fx *fx = *state;
	char *pidfile = pc_fs_join(fx->tmp, "pid");
	char *helper = pc_fs_realpath(FAKE_PLUGIN);

	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, FAKE_PLUGIN);
	pc_strvec_push(&fx->o.argv, "bg-detached");
	pc_strvec_push(&fx->o.argv, pidfile);
	assert_int_equal(pc_proc_run(&fx->o, &fx->r, NULL), 0);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.leftover_processes, 1);
	pc_proc_result_release(&fx->r);
	fx->r = (struct pc_proc_result)PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	fx->o.wrap_helper = helper;
	assert_int_equal(pc_proc_run(&fx->o, &fx->r, NULL), 0);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.leftover_processes, 0);
	fx->o.wrap_helper = NULL;
	free(helper);
	free(pidfile);
}

/* A helper (the tracer) that outlives the wrapper and holds a pipe is
 * killed shortly after the wrapper exits, so it cannot hold the call open
 * until the deadline; here the helper stand-in holds stdout for 30 s. */
static void wrap_helpers_are_released(void **state)
{
	struct fx *fx = *state;
	char *helper = pc_fs_realpath(FAKE_PLUGIN);

	fx->o.timeout_ms = 20000;
	fx->o.wrap_helper = helper;
	run_argv(fx, FAKE_PLUGIN, "bg-holds-stdout");
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.wall_ms < 5000);
	assert_int_equal(fx->r.leftover_processes, 0);
	fx->o.wrap_helper = NULL;
	free(helper);
}

/* A trace that cannot be read, or only in part, is said so: the lists
 * are then not "nothing beyond the declared capabilities" (a review found
 * fire printing exactly that with no trace at all). */
static void observe_says_when_the_trace_is_incomplete(void **state)
{
	char *dir = pc_fs_mkdtemp("test-sbx-obs"), *log;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_confine_spec sp = { .workspace = "/nonexistent-ws" };
	struct pc_confine_obs obs = PC_CONFINE_OBS_INIT;
	struct pc_proc_result r;
	struct pc_err err = PC_ERR_INIT;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	memset(&r, 0, sizeof(r));
	sb.dir = dir;
	assert_int_equal(pc_sandbox_observe(&sb, &sp, 1, &r, &obs, &err),
			 PC_ENOENT);
	assert_true(obs.active);
	assert_non_null(obs.trace_error);
	assert_non_null(strstr(obs.trace_error,
			       "the sandbox trace could not be read ("));
	pc_confine_obs_release(&obs);

	/* 16 MiB + 1 bytes: the start is parsed, the rest said to be lost */
	log = pc_xasprintf("%s/trace-%d", dir, (int)getpid());
	f = fopen(log, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < (16u << 20) + 1; i++)
		fputc('\n', f);
	fclose(f);
	assert_int_equal(pc_sandbox_observe(&sb, &sp, 1, &r, &obs, NULL), 0);
	assert_string_equal(obs.trace_error,
			    "the sandbox trace is over 16777216 bytes: only its start was read, so later attempts are not reported");
	pc_confine_obs_release(&obs);

	/* exactly 16 MiB: whole, no trace_error */
	assert_int_equal(truncate(log, 16u << 20), 0);
	assert_int_equal(pc_sandbox_observe(&sb, &sp, 1, &r, &obs, NULL), 0);
	assert_true(obs.active);
	assert_null(obs.trace_error);
	pc_confine_obs_release(&obs);
	pc_fs_rm_rf(dir);
	free(log);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sandbox_parse_network),
		cmocka_unit_test(sandbox_parse_network_when_declared),
		cmocka_unit_test(sandbox_parse_writes),
		cmocka_unit_test(sandbox_parse_decodes_escapes),
		cmocka_unit_test(sandbox_parse_caps_the_lists),
		cmocka_unit_test(sandbox_parse_signal),
		cmocka_unit_test(sandbox_open_refuses_missing_tools),
		cmocka_unit_test(sandbox_wrap_follows_the_capabilities),
		cmocka_unit_test_setup_teardown(wrap_spawn_errors_come_first,
						setup_fx, teardown_fx),
		cmocka_unit_test(observe_says_when_the_trace_is_incomplete),
		cmocka_unit_test_setup_teardown(wrap_timeout_kills_the_plugin,
						setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(wrap_leftovers_and_helpers,
						setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(wrap_helpers_are_released,
						setup_fx, teardown_fx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

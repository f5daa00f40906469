/* test_proc.c - pc_proc against the real fake_plugin through real pipes.
 *
 * Every test's teardown also checks that no child of this process is left
 * (no zombie, no leftover): the sweep must leave nothing behind. Timing
 * assertions are bounds with at least 5x slack, never exact durations. */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
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
#include "pc_proc.h"
#include "pc_xalloc.h"

#define MIB	   ((size_t)1 << 20)
#define SLOW_MS	   5000 /* upper bound for anything that should be quick */
#define JSON_ALLOW "{\"allow\":true}\n"

struct fx {
	struct pc_proc_opts o;
	struct pc_proc_result r;
	char tmp[64]; /* a scratch directory */
	char *stdin_bytes;
};

static int count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* count_children - processes (zombies included) whose parent is us. */
static int count_children(void)
{
	char path[PATH_MAX], buf[512];
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		FILE *f;
		char *p;
		int ppid;

		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid())
			n++;
	}
	closedir(d);
	return n;
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->o = (struct pc_proc_opts)PC_PROC_OPTS_INIT;
	pc_strvec_push(&fx->o.env, "PATH=/usr/bin:/bin");
	fx->o.timeout_ms = SLOW_MS;
	fx->o.stdin_timeout_ms = SLOW_MS;
	snprintf(fx->tmp, sizeof(fx->tmp), "/tmp/pc_proc_XXXXXX");
	assert_non_null(mkdtemp(fx->tmp));
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	char path[PATH_MAX];
	DIR *d = opendir(fx->tmp);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", fx->tmp, de->d_name);
		if (de->d_name[0] != '.')
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(fx->tmp);
	pc_proc_result_release(&fx->r);
	pc_proc_opts_release(&fx->o);
	free(fx->stdin_bytes);
	free(fx);
	assert_int_equal(count_children(), 0);
	return 0;
}

static void fake(struct fx *fx, const char *behaviour, const char *arg)
{
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, FAKE_PLUGIN);
	pc_strvec_push(&fx->o.argv, behaviour);
	if (arg)
		pc_strvec_push(&fx->o.argv, arg);
}

static void give_stdin(struct fx *fx, size_t n)
{
	free(fx->stdin_bytes);
	fx->stdin_bytes = malloc(n ? n : 1);
	assert_non_null(fx->stdin_bytes);
	memset(fx->stdin_bytes, 'x', n);
	fx->o.stdin_data = fx->stdin_bytes;
	fx->o.stdin_len = n;
}

/* run - pc_proc_run into a fresh fx->r; the call itself must succeed. */
static void run(struct fx *fx)
{
	struct pc_err err = PC_ERR_INIT;
	int rc;

	pc_proc_result_release(&fx->r);
	fx->r = (struct pc_proc_result)PC_PROC_RESULT_INIT(fx->o.stdout_max,
							   fx->o.stderr_max);
	rc = pc_proc_run(&fx->o, &fx->r, &err);
	if (rc)
		print_error("pc_proc_run: %s\n", err.msg);
	assert_int_equal(rc, 0);
}

static void assert_gone(pid_t pid)
{
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

/* --- capture, status, spawn errors ------------------------------------- */

static void proc_captures_stdout_exactly(void **state)
{
	struct fx *fx = *state;

	fake(fx, "echo-json", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.exit_code, 0);
	assert_int_equal(fx->r.term_signal, 0);
	assert_int_equal(fx->r.out.len, strlen(JSON_ALLOW));
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.err.len, 0);
	assert_true(fx->r.pid > 0);
	assert_int_equal(fx->r.leftover_processes, 0);
	assert_false(fx->r.exited_before_eof);

	fake(fx, "bad-json", NULL);
	run(fx);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "{\"allow\":tru\n");
}

static void proc_reports_exit_code_and_stderr(void **state)
{
	struct fx *fx = *state;

	fake(fx, "exit-7", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.exit_code, 7);
	assert_int_equal(fx->r.term_signal, 0);
	assert_string_equal(pc_buf_cstr(&fx->r.err),
			    "fake_plugin: exiting with 7\n");
	assert_int_equal(fx->r.out.len, 0);
}

static void proc_reports_death_by_signal(void **state)
{
	struct fx *fx = *state;

	fake(fx, "crash-segv", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.term_signal, SIGSEGV);
	assert_false(fx->r.core_dumped); /* RLIMIT_CORE 0 */
}

static void proc_spawn_missing_is_enoent(void **state)
{
	struct fx *fx = *state;

	pc_strvec_push(&fx->o.argv, "/nonexistent/dir/plugin");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, ENOENT);
	assert_int_equal(fx->r.pid, 0);
	assert_false(fx->r.has_status);

	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, "no-such-plugin-pc-proc");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, ENOENT);
}

static void proc_spawn_not_executable_is_eacces(void **state)
{
	struct fx *fx = *state;
	char path[128];

	snprintf(path, sizeof(path), "%s/plug", fx->tmp);
	write_file(path, "#!/bin/sh\necho hi\n", 0644);
	pc_strvec_push(&fx->o.argv, path);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, EACCES);

	/* in a PATH search EACCES wins over a later ENOENT (execvp) */
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, "plug");
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=%s:/nonexistent", fx->tmp);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, EACCES);
}

/* --- program lookup ------------------------------------------------------ */

static void proc_path_lookup_uses_child_path(void **state)
{
	struct fx *fx = *state;
	char dir[PATH_MAX];
	const char *slash = strrchr(FAKE_PLUGIN, '/');

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - FAKE_PLUGIN),
		 FAKE_PLUGIN);
	pc_strvec_push(&fx->o.argv, slash + 1);
	pc_strvec_push(&fx->o.argv, "echo-json");
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=/nonexistent:%s", dir);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);

	/* plugcheck's own PATH is never consulted */
	pc_strvec_release(&fx->o.env);
	pc_strvec_push(&fx->o.env, "PATH=/nonexistent");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, ENOENT);
}

/* posix_spawn, counted: test_proc links with --wrap=posix_spawn. */
int __real_posix_spawn(pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[],
		       char *const envp[]);
int __wrap_posix_spawn(pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[],
		       char *const envp[]);
static unsigned spawns;

int __wrap_posix_spawn(pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[],
		       char *const envp[])
{
	spawns++;
	return __real_posix_spawn(pid, path, fa, attr, argv, envp);
}

/* Issue 9: a PATH entry without the program starts no process. Each
 * candidate used to be tried with posix_spawn, and a failed one still
 * clones and exits a child: 7 extra processes per firing of a `bash`
 * hook on a PATH like ~/.cargo/bin:~/.pyenv/shims:...:/usr/bin. */
static void proc_path_lookup_spawns_only_existing_candidates(void **state)
{
	struct fx *fx = *state;
	char dir[PATH_MAX], plug[PATH_MAX + 8];
	const char *slash = strrchr(FAKE_PLUGIN, '/');
	struct pc_buf path = PC_BUF_INIT(PC_BUF_NOCAP);

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - FAKE_PLUGIN),
		 FAKE_PLUGIN);
	pc_buf_adds(&path, "PATH=");
	for (int i = 0; i < 20; i++)
		pc_buf_addf(&path, "/nonexistent%d:", i);
	pc_buf_addf(&path, "%s", dir);
	pc_strvec_push(&fx->o.argv, slash + 1);
	pc_strvec_push(&fx->o.argv, "echo-json");
	pc_strvec_release(&fx->o.env);
	pc_strvec_push(&fx->o.env, pc_buf_cstr(&path));
	spawns = 0;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(spawns, 1);

	/* a candidate that exists is still exec'd for the kernel's errno:
	 * not executable (EACCES), then the next directory's */
	snprintf(plug, sizeof(plug), "%s/%s", fx->tmp, slash + 1);
	write_file(plug, "#!/bin/sh\necho hi\n", 0644);
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=/nonexistent:%s:/nonexistent2:%s",
			fx->tmp, dir);
	spawns = 0;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(spawns, 2);

	/* only the existing one, not executable: EACCES after one spawn */
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=/nonexistent:%s:/nonexistent2",
			fx->tmp);
	spawns = 0;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, EACCES);
	assert_int_equal(spawns, 1);
	pc_buf_release(&path);
}

/* The PATH search answers what glibc's execvp answers (the host's
 * Command does fork + execvp): for each PATH below, the errno (or 0 for
 * "ran") of pc_proc_run is compared with a real execvp of "plug" from
 * the same directory with the same environment (0: ran a "plug" that
 * exits 42, 1043: ran ./plug, which exits 43). Edge cases: relative and
 * empty entries, a directory named like the program, a file that is not
 * executable first, a symlink loop, a dangling symlink, an entry that is
 * a file, an entry longer than PATH_MAX, names of NAME_MAX-1..NAME_MAX+1
 * bytes. */
static int execvp_errno(const char *dir, const char *path, const char *file)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)file, NULL };

		if (chdir(dir) < 0 || setenv("PATH", path, 1) < 0)
			_exit(200);
		execvp(file, argv);
		_exit(errno);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st) == 42 ? 0
	       : WEXITSTATUS(st) == 43 ? 1043
				       : WEXITSTATUS(st);
}

static int pc_errno(struct fx *fx, const char *dir, const char *path,
		    const char *file)
{
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, file);
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=%s", path);
	fx->o.cwd = dir;
	run(fx);
	fx->o.cwd = NULL;
	if (fx->r.outcome == PC_PROC_SPAWN_ERROR)
		return fx->r.spawn_errno;
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	return fx->r.exit_code == 42 ? 0 : 1000 + fx->r.exit_code;
}

/* `tmpl` with each '@' replaced by `dir` (a new string). */
static char *expand(const char *tmpl, const char *dir)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *s;

	for (const char *c = tmpl; *c; c++)
		if (*c == '@')
			pc_buf_adds(&b, dir);
		else
			pc_buf_addch(&b, *c);
	s = pc_xstrdup(pc_buf_cstr(&b));
	pc_buf_release(&b);
	return s;
}

static void proc_path_lookup_matches_execvp(void **state)
{
	struct fx *fx = *state;
	static const char ok[] = "#!/bin/sh\nexit 42\n";
	static const char cwd[] = "#!/bin/sh\nexit 43\n";
	static const struct {
		const char *path; /* '@': the directory */
		int want;	  /* execvp's answer, checked too */
	} cases[] = {
		{ "rel", 0 },
		{ "rel/", 0 },
		{ "", 1043 },
		{ ":/nonexistent", 1043 },
		{ "/nonexistent:", 1043 },
		{ "/nonexistent::/nonexistent", 1043 },
		{ ".", 1043 },
		{ "@/isdir:@/ok", 0 },
		{ "@/isdir", EACCES },
		{ "@/noexec:@/ok", 0 },
		{ "@/noexec:/nonexistent", EACCES },
		{ "@/loop:@/ok", ELOOP },
		{ "@/dangling:@/ok", 0 },
		{ "@/ok/plug:@/ok", 0 },
		{ "/nonexistent", ENOENT },
	};
	char *d = pc_xasprintf("%s/pathcmp", fx->tmp), *x, *p, *okdir;
	char *longdir = pc_xcalloc(PATH_MAX + 100, 1), name[NAME_MAX + 2];

	assert_int_equal(mkdir(d, 0755), 0);
#define AT(rel) (free(x), x = pc_xasprintf("%s/%s", d, rel))
	x = NULL;
	assert_int_equal(mkdir(AT("ok"), 0755), 0);
	write_file(AT("ok/plug"), ok, 0755);
	write_file(AT("plug"), cwd, 0755);
	assert_int_equal(mkdir(AT("rel"), 0755), 0);
	write_file(AT("rel/plug"), ok, 0755);
	assert_int_equal(mkdir(AT("isdir"), 0755), 0);
	assert_int_equal(mkdir(AT("isdir/plug"), 0755), 0);
	assert_int_equal(mkdir(AT("noexec"), 0755), 0);
	write_file(AT("noexec/plug"), ok, 0644);
	assert_int_equal(mkdir(AT("loop"), 0755), 0);
	assert_int_equal(symlink("plug2", AT("loop/plug")), 0);
	assert_int_equal(symlink("plug", AT("loop/plug2")), 0);
	assert_int_equal(mkdir(AT("dangling"), 0755), 0);
	assert_int_equal(symlink("/nonexistent/plug", AT("dangling/plug")), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int want, got;

		p = expand(cases[i].path, d);
		want = execvp_errno(d, p, "plug");
		got = pc_errno(fx, d, p, "plug");
		if (want != got || want != cases[i].want)
			fail_msg("PATH=%s: execvp %d, pc_proc %d, table %d", p,
				 want, got, cases[i].want);
		free(p);
	}
	/* Entries of PATH_MAX-1, PATH_MAX, PATH_MAX+1 bytes, then one that
	 * has the program. glibc skips an entry of PATH_MAX bytes or more,
	 * and its next round starts at the ':' - an empty entry: ./plug runs
	 * (a trial found plugcheck answering ENAMETOOLONG there). A shorter
	 * one is tried: ENAMETOOLONG ends the search. */
	for (int n = PATH_MAX - 1; n <= PATH_MAX + 1; n++) {
		static const char *const rest[] = { "@/ok", "/nonexistent" };

		memset(longdir, 'x', (size_t)n);
		longdir[0] = '/';
		longdir[n] = '\0';
		for (size_t k = 0; k < 2; k++) {
			char *tail = expand(rest[k], d);
			int want, got;

			p = pc_xasprintf("%s:%s", longdir, tail);
			want = execvp_errno(d, p, "plug");
			got = pc_errno(fx, d, p, "plug");
			if (want != got || want != (n < PATH_MAX ? ENAMETOOLONG : 1043))
				fail_msg("PATH=<%d bytes>:%s: execvp %d, pc_proc %d",
					 n, tail, want, got);
			free(p);
			free(tail);
		}
	}
	/* program names of NAME_MAX-1, NAME_MAX, NAME_MAX+1 bytes */
	okdir = pc_xasprintf("%s/ok", d);
	for (int n = NAME_MAX - 1; n <= NAME_MAX + 1; n++) {
		int want, got;

		memset(name, 'n', (size_t)n);
		name[n] = '\0';
		if (n <= NAME_MAX) {
			p = pc_xasprintf("%s/%s", okdir, name);
			write_file(p, ok, 0755);
			free(p);
		}
		want = execvp_errno(d, okdir, name);
		got = pc_errno(fx, d, okdir, name);
		if (want != got)
			fail_msg("name of %d bytes: execvp %d, pc_proc %d", n, want,
				 got);
	}
#undef AT
	free(x);
	free(okdir);
	free(longdir);
	pc_fs_rm_rf(d);
	free(d);
}

static void proc_path_lookup_defaults_without_path(void **state)
{
	struct fx *fx = *state;

	pc_strvec_release(&fx->o.env); /* no PATH: glibc's /bin:/usr/bin */
	pc_strvec_push(&fx->o.argv, "true");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.exit_code, 0);
}

static void proc_path_lookup_runs_shebangless_file_with_sh(void **state)
{
	struct fx *fx = *state;
	char path[128], want[256];

	snprintf(path, sizeof(path), "%s/plug", fx->tmp);
	write_file(path, "echo \"sh-ran $0 $1\"\n", 0755);
	pc_strvec_push(&fx->o.argv, "plug");
	pc_strvec_push(&fx->o.argv, "x");
	pc_strvec_release(&fx->o.env);
	pc_strvec_pushf(&fx->o.env, "PATH=%s", fx->tmp);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	snprintf(want, sizeof(want), "sh-ran %s x\n", path);
	assert_string_equal(pc_buf_cstr(&fx->r.out), want);

	/* a path is exec'd directly, like the host's posix_spawnp: ENOEXEC */
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, path);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, ENOEXEC);
}

/* --- stdin ---------------------------------------------------------------- */

static void proc_delivers_all_stdin(void **state)
{
	struct fx *fx = *state;
	static const unsigned modes[] = { PC_PROC_STDIN_FIRST, 0 };

	fake(fx, "read-all-then-print", NULL);
	give_stdin(fx, MIB);
	for (size_t i = 0; i < 2; i++) {
		fx->o.flags = modes[i];
		run(fx);
		assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
		assert_string_equal(pc_buf_cstr(&fx->r.out), "1048576\n");
		assert_int_equal(fx->r.stdin_written, MIB);
		assert_false(fx->r.stdin_closed_early);
	}
}

static void proc_empty_stdin_is_closed_at_once(void **state)
{
	struct fx *fx = *state;

	/* tokio's Child::wait() drops stdin: `cat` must see EOF */
	fake(fx, "cat", NULL);
	fx->o.flags = PC_PROC_STDIN_FIRST;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.out.len, 0);

	fx->o.flags = PC_PROC_STDIN_DEVNULL;
	give_stdin(fx, 100); /* ignored */
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.out.len, 0);
	assert_int_equal(fx->r.stdin_written, 0);
}

static void proc_cat_echoes_stdin(void **state)
{
	struct fx *fx = *state;

	fake(fx, "cat", NULL);
	fx->o.stdin_data = "{\"event\":\"x\"}";
	fx->o.stdin_len = 13;
	fx->o.flags = PC_PROC_STDIN_FIRST;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "{\"event\":\"x\"}");
}

static void proc_stdin_phase_times_out(void **state)
{
	struct fx *fx = *state;

	fake(fx, "no-read-hang", NULL);
	give_stdin(fx, 4 * MIB);
	fx->o.flags = PC_PROC_STDIN_FIRST;
	fx->o.stdin_timeout_ms = 300;
	fx->o.timeout_ms = 30000; /* must not be reached */
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_STDIN_TIMEOUT);
	assert_true(fx->r.stdin_written < 4 * MIB);
	assert_false(fx->r.has_status);
	assert_true(fx->r.wall_ms >= 300 && fx->r.wall_ms < SLOW_MS);
	assert_true(fx->r.stdin_ms >= 300);
	assert_gone(fx->r.pid);
}

static void proc_no_read_exit_closes_stdin_early(void **state)
{
	struct fx *fx = *state;

	fake(fx, "no-read-exit", NULL);
	give_stdin(fx, 4 * MIB);
	fx->o.flags = PC_PROC_STDIN_FIRST;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.stdin_closed_early);
	assert_true(fx->r.stdin_written < 4 * MIB);
	assert_int_equal(fx->r.exit_code, 0);
	assert_true(fx->r.wall_ms < SLOW_MS);
}

/* R5.5: the host writes all stdin before draining, so a plugin that writes
 * more than a pipe buffer first deadlocks until the stdin deadline. */
static void proc_write_before_read_stalls_only_stdin_first(void **state)
{
	struct fx *fx = *state;

	fake(fx, "write-before-read", "200000");
	give_stdin(fx, 100 * 1024);
	fx->o.flags = PC_PROC_STDIN_FIRST;
	fx->o.stdin_timeout_ms = 300;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_STDIN_TIMEOUT);
	assert_int_equal(fx->r.out.len, 0);

	fx->o.flags = 0;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.out.len, 200000);
	assert_int_equal(fx->r.stdin_written, 100 * 1024);
}

/* --- caps ------------------------------------------------------------------
 */

static void check_cap(struct fx *fx, const char *behaviour, bool is_err)
{
	const size_t n = MIB;
	const size_t sizes[] = { n - 1, n, n + 1 };
	char arg[32];

	fx->o.stdout_max = n;
	fx->o.stderr_max = n;
	for (size_t i = 0; i < 3; i++) {
		const struct pc_buf *b;

		snprintf(arg, sizeof(arg), "%zu", sizes[i]);
		fake(fx, behaviour, arg);
		run(fx);
		b = is_err ? &fx->r.err : &fx->r.out;
		if (sizes[i] <= n) {
			assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
			assert_int_equal(b->len, sizes[i]);
			continue;
		}
		assert_int_equal(fx->r.outcome,
				 is_err ? PC_PROC_STDERR_OVERFLOW
					: PC_PROC_STDOUT_OVERFLOW);
		assert_true(b->len <= n);
		assert_gone(fx->r.pid);
	}
}

static void proc_stdout_cap_accepts_exactly_max(void **state)
{
	check_cap(*state, "print-bytes", false);
}

static void proc_stderr_cap_accepts_exactly_max(void **state)
{
	check_cap(*state, "print-stderr-bytes", true);
}

static void proc_floods_overflow(void **state)
{
	struct fx *fx = *state;

	fake(fx, "flood-stdout", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_STDOUT_OVERFLOW);
	assert_true(fx->r.out.len <= MIB);
	assert_true(fx->r.wall_ms < SLOW_MS);

	fake(fx, "flood-stderr", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_STDERR_OVERFLOW);
	assert_true(fx->r.err.len <= MIB);
}

/* --- timeouts ---------------------------------------------------------------
 */

static void proc_hang_times_out(void **state)
{
	struct fx *fx = *state;
	static const char *const hangs[] = { "hang", "hang-ignore-term" };

	fx->o.timeout_ms = 200;
	for (size_t i = 0; i < 2; i++) {
		fake(fx, hangs[i], NULL);
		run(fx);
		assert_int_equal(fx->r.outcome, PC_PROC_TIMEOUT);
		assert_false(fx->r.has_status);
		assert_false(fx->r.exited_before_eof);
		assert_true(fx->r.wall_ms >= 200 && fx->r.wall_ms < SLOW_MS);
		assert_int_equal(fx->r.leftover_processes, 0);
		assert_gone(fx->r.pid);
	}
}

static void proc_slow_drip_is_collected(void **state)
{
	struct fx *fx = *state;

	fake(fx, "slow-drip", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "....." JSON_ALLOW);
}

/* --- the sweep
 * ---------------------------------------------------------------- */

static void proc_bg_holds_stdout_times_out_and_is_swept(void **state)
{
	struct fx *fx = *state;

	fake(fx, "bg-holds-stdout", NULL);
	fx->o.timeout_ms = 1500; /* the plugin exits long before (5x margin) */
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_TIMEOUT);
	assert_true(fx->r.exited_before_eof);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.exit_code, 0);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.leftover_processes, 1);
	assert_true(fx->r.wall_ms < SLOW_MS);
	assert_int_equal(kill(-fx->r.pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

/* PC_PROC_DRAIN_AFTER_KILL (ChatCLI X6): the child is killed at the
 * deadline, reading goes on to EOF, and the drain cap ends it here since
 * the background child sleeps 30 s. */
static void proc_drain_after_kill_reads_on_until_cap(void **state)
{
	struct fx *fx = *state;

	fake(fx, "bg-holds-stdout", NULL);
	fx->o.timeout_ms = 1500; /* the plugin has long exited (5x margin) */
	fx->o.drain_max_ms = 300;
	fx->o.flags |= PC_PROC_DRAIN_AFTER_KILL;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_TIMEOUT);
	assert_true(fx->r.drain_capped);
	assert_true(fx->r.exited_before_eof);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.exit_code, 0);
	assert_true(fx->r.wall_ms >= 1800 && fx->r.wall_ms < SLOW_MS);
	assert_int_equal(fx->r.leftover_processes, 1);
}

/* The killed child's own status is kept (Go reports "signal: killed"), and
 * without a pipe holder the call ends at EOF, not at the cap. */
static void proc_drain_after_kill_keeps_sigkill_status(void **state)
{
	struct fx *fx = *state;

	fake(fx, "hang", NULL);
	fx->o.timeout_ms = 200;
	fx->o.drain_max_ms = SLOW_MS;
	fx->o.flags |= PC_PROC_DRAIN_AFTER_KILL;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_TIMEOUT);
	assert_false(fx->r.drain_capped);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.term_signal, SIGKILL);
	assert_true(fx->r.wall_ms < SLOW_MS);
}

struct seen {
	char order[64];
	size_t nr;
	int eofs;
};

static void record_chunk(void *ctx, int fd, const char *p, size_t n)
{
	struct seen *s = ctx;

	(void)p;
	if (!n)
		s->eofs++;
	else if (s->nr + 1 < sizeof(s->order))
		s->order[s->nr++] = fd == 1 ? 'o' : 'e';
}

static void proc_on_output_sees_chunks_and_eofs(void **state)
{
	struct fx *fx = *state;
	struct seen s = { { 0 }, 0, 0 };

	fake(fx, "exit-3", NULL);
	fx->o.on_output = record_chunk;
	fx->o.output_ctx = &s;
	run(fx);
	assert_int_equal(fx->r.exit_code, 3);
	assert_int_equal(s.eofs, 2);
	assert_non_null(strchr(s.order, 'e'));
}

static pid_t read_pidfile(const char *path)
{
	char buf[32] = { 0 };
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	return (pid_t)strtol(buf, NULL, 10);
}

static void proc_bg_detached_is_swept(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	pid_t escapee;

	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "bg-detached", pidfile);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.leftover_processes, 1);
	escapee = read_pidfile(pidfile);
	assert_true(escapee > 0 && escapee != fx->r.pid);
	assert_gone(escapee);
}

/* A child that this process had before the run is not the plugin's. */
static void proc_sweep_spares_unrelated_children(void **state)
{
	struct fx *fx = *state;
	char *argv[] = { (char *)FAKE_PLUGIN, (char *)"hang", NULL };
	char *envp[] = { NULL };
	pid_t mine;
	int status = 0;

	assert_int_equal(
		posix_spawn(&mine, FAKE_PLUGIN, NULL, NULL, argv, envp), 0);
	fake(fx, "bg-detached", "/dev/null");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.leftover_processes, 1);
	assert_int_equal(kill(mine, 0), 0);
	assert_int_equal(waitpid(mine, &status, WNOHANG), 0);
	kill(mine, SIGKILL);
	assert_int_equal(waitpid(mine, &status, 0), mine);
}

/* read_pids - up to `max` pids from PATH (space separated); how many. */
static int read_pids(const char *path, pid_t *v, int max)
{
	char buf[128] = { 0 }, *p = buf, *end;
	int fd = open(path, O_RDONLY), n = 0;

	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	while (n < max) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		v[n++] = (pid_t)pid;
		p = end;
	}
	return n;
}

/* The host's verdict is "exited" (the child ended, both pipes at EOF), yet
 * a child stayed in the process group: rule (a) still counts and kills
 * it. */
static void proc_group_member_after_clean_exit_is_swept(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	pid_t member;

	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "bg-in-group", pidfile);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.has_status);
	assert_int_equal(fx->r.exit_code, 0);
	assert_false(fx->r.exited_before_eof);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.leftover_processes, 1);
	assert_int_equal(read_pids(pidfile, &member, 1), 1);
	assert_true(member > 0 && member != fx->r.pid);
	assert_gone(member);
}

/* Rule (c): the setsid escapee's own child is the plugin's too, found as
 * its descendant (it is not plugcheck's child when the sweep starts). */
static void proc_escapee_descendants_are_swept(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	pid_t pids[2];

	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "bg-detached-pair", pidfile);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.leftover_processes, 2);
	assert_int_equal(read_pids(pidfile, pids, 2), 2);
	assert_gone(pids[0]);
	assert_gone(pids[1]);
}

/* An escapee that already died is reaped (teardown: no child left) but not
 * counted: it was not alive when the sweep saw it. */
static void proc_dead_escapee_is_reaped_not_counted(void **state)
{
	struct fx *fx = *state;

	fake(fx, "zombie-escapee", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), JSON_ALLOW);
	assert_int_equal(fx->r.leftover_processes, 0);
}

/* Processes that fork while the sweep kills them: rounds go on until one
 * finds nothing (teardown: nothing re-parented to us is left). */
static void proc_fork_storm_is_swept(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	pid_t leader;

	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "fork-storm", pidfile);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_true(fx->r.leftover_processes >= 1);
	assert_true(fx->r.wall_ms < SLOW_MS);
	assert_int_equal(read_pids(pidfile, &leader, 1), 1);
	assert_gone(leader);
}

/* The plugin leads a session of its own (issue 21), so a process outside
 * it - here the child of a helper this process started before the run,
 * in plugcheck's session - cannot join the plugin's process group
 * (setpgid across sessions is EPERM): rule (a) sweeps only what the
 * plugin's own session put there. */
static void proc_outsider_cannot_join_the_group(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	char *argv[] = { (char *)FAKE_PLUGIN, (char *)"join-group", pidfile,
			 NULL };
	char *envp[] = { NULL };
	pid_t helper;
	int status = 0;

	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	assert_int_equal(
		posix_spawn(&helper, FAKE_PLUGIN, NULL, NULL, argv, envp), 0);
	fake(fx, "await-joiner", pidfile);
	fx->o.timeout_ms = 5 * SLOW_MS; /* it waits 5 s for the joiner */
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.exit_code, 3); /* nobody joined */
	assert_int_equal(fx->r.leftover_processes, 0);
	assert_int_equal(waitpid(helper, &status, 0), helper);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 101); /* its setpgid failed */
}

static void *block_on_pipe(void *arg)
{
	char c;

	while (read(*(int *)arg, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* With a second thread this process's children are not all in
 * /proc/thread-self/children: the sweep scans /proc instead, with the
 * same result. */
static void proc_sweep_from_a_threaded_caller(void **state)
{
	struct fx *fx = *state;
	char *argv[] = { (char *)FAKE_PLUGIN, (char *)"hang", NULL };
	char *envp[] = { NULL };
	char pidfile[128];
	pid_t mine, pids[2];
	pthread_t th;
	int p[2], status = 0;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(pthread_create(&th, NULL, block_on_pipe, &p[0]), 0);
	assert_int_equal(
		posix_spawn(&mine, FAKE_PLUGIN, NULL, NULL, argv, envp), 0);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "bg-detached-pair", pidfile);
	run(fx);
	close(p[1]);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(p[0]);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(fx->r.leftover_processes, 2);
	assert_int_equal(read_pids(pidfile, pids, 2), 2);
	assert_gone(pids[0]);
	assert_gone(pids[1]);
	assert_int_equal(waitpid(mine, &status, WNOHANG), 0);
	kill(mine, SIGKILL);
	assert_int_equal(waitpid(mine, &status, 0), mine);
}

/* A process forked after pc_proc_run() ran here (plugcheck run -j
 * workers) is not a child subreaper yet - fork() clears that - so its own
 * first run must make it one, or escapees re-parent past it to us. The
 * child reports with its exit status: 0 when the escapee was counted and
 * is gone. */
static void proc_sweep_in_a_forked_process(void **state)
{
	struct fx *fx = *state;
	char pidfile[128];
	int status = 0;
	pid_t worker;

	fake(fx, "echo-json", NULL);
	run(fx); /* this process is a subreaper now */
	snprintf(pidfile, sizeof(pidfile), "%s/pid", fx->tmp);
	fake(fx, "bg-detached", pidfile);
	worker = fork();
	assert_true(worker >= 0);
	if (worker == 0) {
		struct pc_proc_result r = PC_PROC_RESULT_INIT(MIB, MIB);
		struct pc_err err = PC_ERR_INIT;
		int rc = pc_proc_run(&fx->o, &r, &err);
		pid_t escapee = 0;

		if (rc == 0 && r.leftover_processes == 1)
			escapee = read_pidfile(pidfile);
		_exit(escapee > 0 && kill(escapee, 0) < 0 && errno == ESRCH
			      ? 0
			      : 1);
	}
	assert_int_equal(waitpid(worker, &status, 0), worker);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* --- environment
 * ---------------------------------------------------------------- */

static void proc_env_is_exactly_what_was_passed(void **state)
{
	struct fx *fx = *state;

	pc_strvec_release(&fx->o.env);
	pc_strvec_push(&fx->o.env, "A=1");
	pc_strvec_push(&fx->o.env, "B=two words");
	pc_strvec_push(&fx->o.env, "PATH=/nonexistent");
	fake(fx, "env", NULL);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out),
			    "A=1\nB=two words\nPATH=/nonexistent\n");

	pc_strvec_release(&fx->o.env);
	run(fx);
	assert_int_equal(fx->r.out.len, 0);
}

static void proc_cwd_is_honoured(void **state)
{
	struct fx *fx = *state;
	char real[PATH_MAX], want[PATH_MAX + 2];

	assert_non_null(realpath(fx->tmp, real));
	fx->o.cwd = real;
	fake(fx, "cwd", NULL);
	run(fx);
	snprintf(want, sizeof(want), "%s\n", real);
	assert_string_equal(pc_buf_cstr(&fx->r.out), want);
}

/* status_mask - the hex mask after `key` in /proc/<pid>/status text. */
static unsigned long long status_mask(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	assert_non_null(p);
	return strtoull(p + strlen(key), NULL, 16);
}

/* STYLE §E 27: plugcheck ignores SIGPIPE and may block signals; the plugin
 * must start with default dispositions and an empty mask. glibc's
 * posix_spawn leaves its two internal signals (32, 33) ignored in every
 * child - the host's own posix_spawnp does the same - so only the
 * classic signals 1-31 are checked for SigIgn. */
static void proc_child_signal_state_is_clean(void **state)
{
	struct fx *fx = *state;
	sigset_t usr1, old;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
	fake(fx, "sigstate", NULL);
	run(fx);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(status_mask(pc_buf_cstr(&fx->r.out), "SigBlk:"), 0);
	assert_int_equal(status_mask(pc_buf_cstr(&fx->r.out), "SigIgn:") &
				 0x7fffffffULL,
			 0);
}

/* --- resources and API
 * ------------------------------------------------------------- */

static void proc_leaks_no_fds(void **state)
{
	struct fx *fx = *state;
	int before;

	fake(fx, "echo-json", NULL);
	run(fx); /* warm up lazily opened descriptors */
	before = count_dir("/proc/self/fd");
	fx->o.timeout_ms = 50;
	fx->o.stdout_max = 1000;
	for (int i = 0; i < 50; i++) {
		if (i % 10 == 9)
			fake(fx, "hang", NULL);
		else if (i % 3 == 0)
			fake(fx, "print-bytes", "2000");
		else if (i % 3 == 1)
			fake(fx, "exit-3", NULL);
		else
			fake(fx, "no-such-behaviour", NULL);
		fx->o.flags = i % 2 ? PC_PROC_STDIN_FIRST : 0;
		give_stdin(fx, (size_t)i * 100);
		run(fx);
	}
	assert_int_equal(count_dir("/proc/self/fd"), before);
}

static void proc_rejects_empty_argv(void **state)
{
	struct fx *fx = *state;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_proc_run(&fx->o, &fx->r, &err), PC_EINVAL);
	assert_int_equal(err.code, PC_EINVAL);
}

static void proc_outcome_names_are_stable(void **state)
{
	(void)state;
	assert_string_equal(pc_proc_outcome_name(PC_PROC_EXITED), "exited");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_SPAWN_ERROR),
			    "spawn_error");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_STDIN_TIMEOUT),
			    "stdin_timeout");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_TIMEOUT), "timeout");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_STDOUT_OVERFLOW),
			    "stdout_overflow");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_STDERR_OVERFLOW),
			    "stderr_overflow");
	assert_string_equal(pc_proc_outcome_name(PC_PROC_READ_ERROR),
			    "read_error");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(proc_captures_stdout_exactly),
		T(proc_reports_exit_code_and_stderr),
		T(proc_reports_death_by_signal),
		T(proc_spawn_missing_is_enoent),
		T(proc_spawn_not_executable_is_eacces),
		T(proc_path_lookup_uses_child_path),
		T(proc_path_lookup_spawns_only_existing_candidates),
	T(proc_path_lookup_matches_execvp),
	T(proc_path_lookup_defaults_without_path),
		T(proc_path_lookup_runs_shebangless_file_with_sh),
		T(proc_delivers_all_stdin),
		T(proc_empty_stdin_is_closed_at_once),
		T(proc_cat_echoes_stdin),
		T(proc_stdin_phase_times_out),
		T(proc_no_read_exit_closes_stdin_early),
		T(proc_write_before_read_stalls_only_stdin_first),
		T(proc_stdout_cap_accepts_exactly_max),
		T(proc_stderr_cap_accepts_exactly_max),
		T(proc_floods_overflow),
		T(proc_hang_times_out),
		T(proc_slow_drip_is_collected),
		T(proc_bg_holds_stdout_times_out_and_is_swept),
		T(proc_bg_detached_is_swept),
		T(proc_drain_after_kill_reads_on_until_cap),
		T(proc_drain_after_kill_keeps_sigkill_status),
		T(proc_on_output_sees_chunks_and_eofs),
		T(proc_sweep_spares_unrelated_children),
		T(proc_group_member_after_clean_exit_is_swept),
		T(proc_escapee_descendants_are_swept),
		T(proc_dead_escapee_is_reaped_not_counted),
		T(proc_fork_storm_is_swept),
		T(proc_outsider_cannot_join_the_group),
		T(proc_sweep_from_a_threaded_caller),
		T(proc_sweep_in_a_forked_process),
		T(proc_env_is_exactly_what_was_passed),
		T(proc_cwd_is_honoured),
		T(proc_child_signal_state_is_clean),
		T(proc_leaks_no_fds),
		T(proc_rejects_empty_argv),
		T(proc_outcome_names_are_stable),
	};
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigaction(SIGPIPE, &ign, NULL); /* as the CLI's main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}

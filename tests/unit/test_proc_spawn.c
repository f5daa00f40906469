/* test_proc_spawn.c - what a plugin starts with under pc_proc (issues 18,
 * 21): its own session without a controlling terminal, the signal state
 * each host passes on (`sigs`), and the file that runs (`exec_fd`, the
 * kernel's "#!" parse). Real fake_plugin, real pipes; every test's
 * teardown checks that no child is left. */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
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
#include "pc_proc_impl.h"
#include "pc_xalloc.h"

#define SLOW_MS 5000

struct fx {
	struct pc_proc_opts o;
	struct pc_proc_result r;
	char *tmp;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	fx->o = (struct pc_proc_opts)PC_PROC_OPTS_INIT;
	pc_strvec_push(&fx->o.env, "PATH=/usr/bin:/bin");
	fx->o.timeout_ms = SLOW_MS;
	fx->o.stdin_timeout_ms = SLOW_MS;
	fx->o.flags = PC_PROC_STDIN_DEVNULL;
	fx->tmp = pc_fs_mkdtemp("test-spawn");
	assert_non_null(fx->tmp);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	pc_proc_result_release(&fx->r);
	pc_proc_opts_release(&fx->o);
	free(fx);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* no child left */
	assert_int_equal(errno, ECHILD);
	return 0;
}

static void run(struct fx *fx)
{
	struct pc_err err = PC_ERR_INIT;

	pc_proc_result_release(&fx->r);
	fx->r = (struct pc_proc_result)PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	assert_int_equal(pc_proc_run(&fx->o, &fx->r, &err), 0);
}

static void argv_of(struct fx *fx, const char *a0, const char *a1)
{
	pc_strvec_release(&fx->o.argv);
	pc_strvec_push(&fx->o.argv, a0);
	if (a1)
		pc_strvec_push(&fx->o.argv, a1);
}

static unsigned long long mask_of(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	assert_non_null(p);
	return strtoull(p + strlen(key), NULL, 16);
}

static unsigned long long bit(int sig)
{
	return 1ULL << (sig - 1);
}

/* A session of its own: the session and group ids are the child's pid,
 * and /dev/tty cannot be opened (no controlling terminal), whatever
 * plugcheck's own terminal. */
static void spawn_child_leads_a_session_without_tty(void **state)
{
	struct fx *fx = *state;
	int pid, pgid, sid, tty;

	argv_of(fx, FAKE_PLUGIN, "session");
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_int_equal(sscanf(pc_buf_cstr(&fx->r.out),
				"pid=%d pgid=%d sid=%d tty=%d", &pid, &pgid,
				&sid, &tty),
			 4);
	assert_int_equal(pid, fx->r.pid);
	assert_int_equal(pgid, pid);
	assert_int_equal(sid, pid);
	assert_int_equal(tty, ENXIO);
	assert_int_not_equal(getsid(0), sid);
}

static volatile sig_atomic_t quits;

static void on_quit(int sig)
{
	(void)sig;
	quits++;
}

/* The ignored and blocked signals of `sigs` reach the child, even one
 * plugcheck handles itself (its SIGQUIT trap here), while a signal
 * plugcheck ignores for itself (SIGTERM) and is not asked for is reset;
 * plugcheck's own handler and mask are back afterwards. */
static void spawn_sigs_reach_the_child(void **state)
{
	struct fx *fx = *state;
	struct sigaction sa = { .sa_handler = on_quit },
			 ign = { .sa_handler = SIG_IGN };
	struct sigaction old_quit, old_term, now;
	struct pc_proc_sigs sigs;
	sigset_t mask_before, mask_after;
	const char *out;

	sigaction(SIGQUIT, &sa, &old_quit);
	sigaction(SIGTERM, &ign, &old_term);
	sigemptyset(&sigs.ignored);
	sigemptyset(&sigs.blocked);
	sigaddset(&sigs.ignored, SIGHUP);
	sigaddset(&sigs.ignored, SIGQUIT);
	sigaddset(&sigs.ignored, SIGCHLD); /* never passed */
	sigaddset(&sigs.blocked, SIGUSR1);
	fx->o.sigs = &sigs;
	pthread_sigmask(SIG_BLOCK, NULL, &mask_before);
	argv_of(fx, FAKE_PLUGIN, "sigstate");
	run(fx);
	out = pc_buf_cstr(&fx->r.out);
	assert_int_equal(mask_of(out, "SigIgn:") & 0x7fffffffULL,
			 bit(SIGHUP) | bit(SIGQUIT));
	assert_int_equal(mask_of(out, "SigBlk:"), bit(SIGUSR1));
	assert_int_equal(sigismember(&fx->r.sigs.ignored, SIGHUP), 1);
	assert_int_equal(sigismember(&fx->r.sigs.ignored, SIGQUIT), 1);
	assert_int_equal(sigismember(&fx->r.sigs.ignored, SIGCHLD), 0);
	assert_int_equal(sigismember(&fx->r.sigs.blocked, SIGUSR1), 1);
	sigaction(SIGQUIT, NULL, &now);
	assert_ptr_equal(now.sa_handler, on_quit);
	pthread_sigmask(SIG_BLOCK, NULL, &mask_after);
	assert_int_equal(sigismember(&mask_after, SIGQUIT),
			 sigismember(&mask_before, SIGQUIT));
	raise(SIGQUIT); /* still plugcheck's handler */
	assert_int_equal(quits, 1);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	quits = 0;
}

/* A signal already pending when the spawn swaps dispositions is not
 * discarded: the child gets it at the default instead, and plugcheck's
 * handler runs once the mask is back. */
static void spawn_sigs_keep_a_pending_interrupt(void **state)
{
	struct fx *fx = *state;
	struct sigaction sa = { .sa_handler = on_quit }, old;
	struct pc_proc_sigs sigs;
	sigset_t q, oldmask;

	sigaction(SIGQUIT, &sa, &old);
	sigemptyset(&q);
	sigaddset(&q, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &q, &oldmask);
	raise(SIGQUIT);
	sigemptyset(&sigs.ignored);
	sigemptyset(&sigs.blocked);
	sigaddset(&sigs.ignored, SIGQUIT);
	fx->o.sigs = &sigs;
	argv_of(fx, FAKE_PLUGIN, "sigstate");
	run(fx);
	assert_int_equal(
		mask_of(pc_buf_cstr(&fx->r.out), "SigIgn:") & bit(SIGQUIT), 0);
	assert_int_equal(sigismember(&fx->r.sigs.ignored, SIGQUIT), 0);
	assert_int_equal(quits, 0);
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	assert_int_equal(quits, 1);
	sigaction(SIGQUIT, &old, NULL);
	quits = 0;
}

/* What each host passes on from the state plugcheck started with: Rust's
 * Command resets SIGPIPE only; Go keeps only SIGHUP (when it is not
 * Notify'd) and the job-control signals ignored. Both keep the mask. */
static void spawn_sigs_of_each_host(void **state)
{
	static const int ign[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE,
				   SIGTSTP, SIGTTOU, SIGUSR2 };
	struct sigaction old[sizeof(ign) / sizeof(*ign)];
	struct sigaction is_ign = { .sa_handler = SIG_IGN };
	struct pc_proc_sigs c, g;
	sigset_t usr1, oldmask;

	(void)state;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &oldmask);
	for (size_t i = 0; i < sizeof(ign) / sizeof(*ign); i++)
		sigaction(ign[i], &is_ign, &old[i]);
	pc_proc_sigs_note_start();
	for (size_t i = 0; i < sizeof(ign) / sizeof(*ign); i++)
		sigaction(ign[i], &old[i], NULL);
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	pc_proc_sigs_catalyst(&c);
	pc_proc_sigs_chatcli(&g);
	for (size_t i = 0; i < sizeof(ign) / sizeof(*ign); i++) {
		int s = ign[i];

		assert_int_equal(sigismember(&c.ignored, s), s != SIGPIPE);
		assert_int_equal(sigismember(&g.ignored, s),
				 s == SIGHUP || s == SIGTSTP || s == SIGTTOU);
	}
	assert_int_equal(sigismember(&c.blocked, SIGUSR1), 1);
	assert_int_equal(sigismember(&g.blocked, SIGUSR1), 1);
	assert_int_equal(sigismember(&c.ignored, SIGTERM), 0);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	assert_int_equal(pc_fs_write(path, text, strlen(text), NULL), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* exec_fd: the checked binary runs, not what its path names by now. */
static void spawn_exec_fd_runs_the_checked_binary(void **state)
{
	struct fx *fx = *state;
	char *bin = pc_fs_join(fx->tmp, "plugin"), *evil;
	struct pc_buf b = PC_BUF_INIT(64 << 20);
	int fd;

	assert_int_equal(pc_fs_read_capped(FAKE_PLUGIN, &b, NULL), 0);
	assert_int_equal(pc_fs_write(bin, b.data, b.len, NULL), 0);
	assert_int_equal(chmod(bin, 0755), 0);
	pc_buf_release(&b);
	fd = open(bin, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	evil = pc_fs_join(fx->tmp, "evil");
	write_file(evil, "#!/bin/sh\necho evil\n", 0755);
	assert_int_equal(unlink(bin), 0);
	assert_int_equal(symlink(evil, bin), 0); /* the swap */
	argv_of(fx, bin, "echo-json");
	fx->o.exec_fd = fd;
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_EXITED);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "{\"allow\":true}\n");
	fx->o.exec_fd = -1; /* the path alone runs the swapped file */
	run(fx);
	assert_string_equal(pc_buf_cstr(&fx->r.out), "evil\n");
	close(fd);
	free(bin);
	free(evil);
}

/* errno_of - the spawn errno of an executable script `path` holding
 * `text`, run from its descriptor. */
static int errno_of(struct fx *fx, const char *path, const char *text)
{
	int fd;

	write_file(path, text, 0755);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	fx->o.exec_fd = fd;
	run(fx);
	close(fd);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	return fx->r.spawn_errno;
}

/* exec_fd of a "#!" script: the interpreter gets the argv the kernel
 * builds, after the kernel's checks (execute permission, a named
 * interpreter that exists). */
static void spawn_exec_fd_runs_a_script_as_the_kernel(void **state)
{
	struct fx *fx = *state;
	char *s = pc_fs_join(fx->tmp, "s"), *want;
	int fd;

	write_file(s, "#!/bin/sh -e\necho \"$0 $1\"\n", 0755);
	fd = open(s, O_RDONLY | O_CLOEXEC);
	argv_of(fx, s, "arg1");
	fx->o.exec_fd = fd;
	run(fx);
	want = pc_xasprintf("%s arg1\n", s);
	assert_string_equal(pc_buf_cstr(&fx->r.out), want);
	chmod(s, 0644);
	run(fx);
	assert_int_equal(fx->r.outcome, PC_PROC_SPAWN_ERROR);
	assert_int_equal(fx->r.spawn_errno, EACCES);
	close(fd);
	assert_int_equal(errno_of(fx, s, "#!/nonexistent/interp\n"), ENOENT);
	assert_int_equal(errno_of(fx, s, "#!   \n"), ENOEXEC);
	assert_int_equal(errno_of(fx, s, "plain text\n"), ENOEXEC);
	fx->o.exec_fd = -1;
	free(want);
	free(s);
}

static void check_shebang(const char *text, int rc, const char *interp,
			  const char *arg)
{
	char *i, *a;

	assert_int_equal(pc__proc_shebang(text, strlen(text), &i, &a), rc);
	if (interp)
		assert_string_equal(i, interp);
	else
		assert_null(i);
	if (arg)
		assert_string_equal(a, arg);
	else
		assert_null(a);
	free(i);
	free(a);
}

/* binfmt_script: the name ends at a blank, the one argument is the rest of
 * the line without its outer blanks; a line cut by the 256-byte buffer is
 * fine as long as the name is whole. */
static void spawn_shebang_parse_is_the_kernels(void **state)
{
	char big[400], *i, *a;

	(void)state;
	check_shebang("#!/bin/sh\necho", 0, "/bin/sh", NULL);
	check_shebang("#! /usr/bin/env  -S sh -e \t\nx", 0, "/usr/bin/env",
		      "-S sh -e");
	check_shebang("#!/bin/sh", 0, "/bin/sh", NULL);
	check_shebang("#!\t\n", ENOEXEC, NULL, NULL);
	check_shebang("#!", ENOEXEC, NULL, NULL);
	check_shebang("echo hi\n", -1, NULL, NULL);
	check_shebang("#", -1, NULL, NULL);
	/* a 300-byte name is cut by the buffer: not run */
	memset(big, 'a', sizeof(big));
	memcpy(big, "#!/", 3);
	big[sizeof(big) - 1] = '\0';
	check_shebang(big, ENOEXEC, NULL, NULL);
	/* a name then a long argument: the argument is cut, not refused */
	memcpy(big, "#!/bin/sh ", 10);
	assert_int_equal(pc__proc_shebang(big, strlen(big), &i, &a), 0);
	assert_string_equal(i, "/bin/sh");
	assert_int_equal(strlen(a), 256 - 10 - 1); /* the kernel's 255th byte
						     ends the line */
	free(i);
	free(a);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(spawn_child_leads_a_session_without_tty),
		T(spawn_sigs_reach_the_child),
		T(spawn_sigs_keep_a_pending_interrupt),
		cmocka_unit_test(spawn_sigs_of_each_host),
		T(spawn_exec_fd_runs_the_checked_binary),
		T(spawn_exec_fd_runs_a_script_as_the_kernel),
		cmocka_unit_test(spawn_shebang_parse_is_the_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

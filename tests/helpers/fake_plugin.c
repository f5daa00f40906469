/* fake_plugin - a self-describing misbehaving plugin; argv[1] picks the
 * behaviour (STYLE §G 40), argv[2] is its argument where it takes one:
 *
 *   echo-json               print {"allow":true}
 *   bad-json                print JSON that does not parse
 *   cat                     copy stdin to stdout
 *   read-all-then-print     read stdin to EOF, print its byte count
 *   exit-N                  message on stderr, exit status N
 *   hang, hang-ignore-term  sleep forever (the second ignores SIGTERM)
 *   flood-stdout/-stderr    write until killed
 *   print-bytes N           exactly N bytes of 'a' on stdout
 *   print-stderr-bytes N    the same on stderr
 *   no-read-exit            exit 0 at once, stdin unread
 *   no-read-hang            sleep forever, stdin unread
 *   write-before-read N     N bytes on stdout, then read stdin, print count
 *   slow-drip               five dots 20 ms apart, then JSON
 *   crash-segv              die of SIGSEGV (no core file)
 *   bg-holds-stdout         a child sleeps 30 s holding stdout; print JSON
 *   bg-detached PIDFILE     a setsid grandchild with closed stdio sleeps
 *                           30 s after writing its pid to PIDFILE
 *   bg-in-group PIDFILE     a child that stays in the process group writes
 *                           its pid to PIDFILE, closes its stdio and
 *                           sleeps 30 s; print JSON
 *   bg-detached-pair PIDFILE  like bg-detached, but the setsid grandchild
 *                           first forks a child of its own that sleeps
 *                           too; PIDFILE gets both pids
 *   zombie-escapee          a child leaves the session and exits at once;
 *                           exit without reaping it
 *   fork-storm PIDFILE      a setsid grandchild writes its pid, closes its
 *                           stdio and forks 100 children, each of which
 *                           forks once more; all of them sleep
 *   await-joiner PIDFILE    write our pid to PIDFILE, wait (up to 5 s) for
 *                           PIDFILE.joined, print JSON; exit 3 if it never
 *                           comes
 *   join-group PIDFILE      not a plugin: a child waits for a pid in
 *                           PIDFILE, joins that process group, writes its
 *                           pid to PIDFILE.joined and sleeps; exit with
 *                           the signal that ended that child (or 100 +
 *                           its exit status)
 *   env, cwd                print environ (one per line) / getcwd
 *   cat-cwd                 copy stdin to stdout, then print a line
 *                           "cwd=<getcwd()>" (a hook that shows both what
 *                           the host sent and where it ran)
 *   kill-parent SIG [PIDFILE]  read stdin to EOF, write our pid to PIDFILE,
 *                           send signal number SIG to our parent (the
 *                           process that spawned us), then sleep 30 s:
 *                           only a sweep ends it. Reading stdin first
 *                           means the spawner has finished the spawn
 *                           (pc_proc writes stdin only after it).
 *   escapee-hang PIDFILE    a child leaves the session (setsid), closes
 *                           its stdio and sleeps 30 s; we sleep for
 *                           ever; PIDFILE gets "<our pid> <child pid>"
 *   stop-parent             read stdin to EOF, SIGSTOP our parent, print
 *                           {"ok":true} and exit 0
 *   ancestors               print the pid of each ancestor, parent first,
 *                           one per line, up to pid 1: what a plugin finds
 *                           by walking up /proc/PID/stat
 *   sigstate                print SigBlk and SigIgn from /proc/self/status
 *   session                 print "pid=P pgid=G sid=S tty=E": getpgrp(),
 *                           getsid(0) and the errno of opening /dev/tty
 *                           (0 when it opened)
 *
 * Unknown behaviours exit 2.
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Under the asan preset this binary is instrumented too: keep LeakSanitizer
 * and ASan's SEGV report out of the exit statuses the tests check. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0:handle_segv=0";
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return 1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int say(int fd, const char *s)
{
	return write_all(fd, s, strlen(s));
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static size_t size_arg(const char *arg)
{
	return arg ? (size_t)strtoull(arg, NULL, 10) : 0;
}

static int repeat_byte(int fd, char c, size_t n)
{
	char buf[8192];

	memset(buf, c, sizeof(buf));
	while (n > 0) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);

		if (write_all(fd, buf, k))
			return 1;
		n -= k;
	}
	return 0;
}

/* copy_stdin - read stdin to EOF, copying it to `out` unless out < 0. */
static size_t copy_stdin(int out)
{
	char buf[8192];
	size_t total = 0;
	ssize_t n;

	while ((n = read(0, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		total += (size_t)n;
		if (out >= 0 && write_all(out, buf, (size_t)n))
			break;
	}
	return total;
}

static int print_count(size_t n)
{
	printf("%zu\n", n);
	return fflush(stdout) != 0;
}

static int hang(void)
{
	for (;;)
		pause();
	return 0; /* not reached */
}

static int echo_json(void)
{
	return say(1, "{\"allow\":true}\n");
}

static int bad_json(void)
{
	return say(1, "{\"allow\":tru\n");
}

static int cat(void)
{
	copy_stdin(1);
	return 0;
}

static int read_all_then_print(void)
{
	return print_count(copy_stdin(-1));
}

static int hang_ignore_term(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	sigaction(SIGTERM, &sa, NULL);
	return hang();
}

static int flood(int fd)
{
	static const char line[] = "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n";

	while (write_all(fd, line, sizeof(line) - 1) == 0)
		;
	return 1;
}

static int flood_stdout(void)
{
	return flood(1);
}

static int flood_stderr(void)
{
	return flood(2);
}

static int no_read_exit(void)
{
	return 0;
}

static int slow_drip(void)
{
	for (int i = 0; i < 5; i++) {
		say(1, ".");
		nap_ms(20);
	}
	return echo_json();
}

static int crash_segv(void)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
	raise(SIGSEGV);
	return 1;
}

static int bg_holds_stdout(void)
{
	if (fork() == 0) {
		nap_ms(30000);
		_exit(0);
	}
	return echo_json();
}

static int env(void)
{
	for (char **e = environ; *e; e++)
		if (say(1, *e) || say(1, "\n"))
			return 1;
	return 0;
}

static void write_pid_file(const char *path, const char *text);

static int cwd(void)
{
	char buf[PATH_MAX];

	if (!getcwd(buf, sizeof(buf)))
		return 1;
	return say(1, buf) || say(1, "\n");
}

static int cat_cwd(void)
{
	copy_stdin(1);
	return say(1, "\ncwd=") || cwd();
}

/* parent_of - the ppid field of /proc/PID/stat, or -1. */
static long parent_of(long pid)
{
	char path[64], buf[512], *p;
	long ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 1, " %*c %ld", &ppid) != 1)
		ppid = -1;
	fclose(f);
	return ppid;
}

static int ancestors(void)
{
	for (long pid = (long)getppid(); pid > 0; pid = parent_of(pid)) {
		printf("%ld\n", pid);
		if (pid == 1)
			break;
	}
	return fflush(stdout) != 0;
}

static const char *arg2; /* argv[3], for the behaviours that take two */

static int kill_parent(const char *arg)
{
	int sig = (int)strtol(arg, NULL, 10);
	char pid[32];

	copy_stdin(-1);
	if (arg2) {
		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		write_pid_file(arg2, pid);
	}
	if (kill(getppid(), sig) < 0)
		return 1;
	nap_ms(30000);
	return 0;
}

static int stop_parent(void)
{
	copy_stdin(-1);
	if (kill(getppid(), SIGSTOP) < 0)
		return 1;
	return say(1, "{\"ok\":true}\n");
}

static int sigstate(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigBlk:", 7) ||
		    !strncmp(line, "SigIgn:", 7))
			say(1, line);
	fclose(f);
	return 0;
}

static int session(void)
{
	char buf[160];
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int e = fd < 0 ? errno : 0;

	if (fd >= 0)
		close(fd);
	snprintf(buf, sizeof(buf), "pid=%d pgid=%d sid=%d tty=%d\n",
		 (int)getpid(), (int)getpgrp(), (int)getsid(0), e);
	return say(1, buf);
}

static int print_bytes(const char *arg)
{
	return repeat_byte(1, 'a', size_arg(arg));
}

static int print_stderr_bytes(const char *arg)
{
	return repeat_byte(2, 'a', size_arg(arg));
}

static int write_before_read(const char *arg)
{
	if (repeat_byte(1, 'w', size_arg(arg)))
		return 1;
	copy_stdin(-1);
	return 0;
}

/* bg_detached - double fork; the grandchild leaves the session and the
 * process group, records its pid, closes its stdio and lingers. */
static int bg_detached(const char *pidfile)
{
	pid_t a = fork();

	if (a == 0) {
		if (fork() == 0) {
			int fd;

			setsid();
			fd = open(pidfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd >= 0) {
				dprintf(fd, "%ld\n", (long)getpid());
				close(fd);
			}
			for (int i = 0; i < 3; i++)
				close(i);
			nap_ms(30000);
		}
		_exit(0);
	}
	while (waitpid(a, NULL, 0) < 0 && errno == EINTR)
		;
	return echo_json();
}

/* write_pid_file - `text` to PATH through a rename, so that a reader
 * polling PATH never sees it half written. */
static void write_pid_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	say(fd, text);
	close(fd);
	rename(tmp, path);
}

static void close_stdio(void)
{
	for (int i = 0; i < 3; i++)
		close(i);
}

/* bg_in_group - the child stays in our process group; the pipes reach EOF
 * (the host's verdict: exited) once it closed its stdio, and by then
 * PIDFILE holds its pid. */
static int bg_in_group(const char *pidfile)
{
	if (fork() == 0) {
		char pid[32];

		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		write_pid_file(pidfile, pid);
		close_stdio();
		nap_ms(30000);
		_exit(0);
	}
	return echo_json();
}

/* bg_detached_pair - bg-detached with two escapees: the setsid grandchild
 * and its own child, found as a descendant, not as plugcheck's child. */
static int bg_detached_pair(const char *pidfile)
{
	pid_t a = fork();

	if (a == 0) {
		if (fork() == 0) {
			char pids[64];
			pid_t b;

			setsid();
			b = fork();
			if (b == 0) {
				close_stdio();
				nap_ms(30000);
				_exit(0);
			}
			snprintf(pids, sizeof(pids), "%ld %ld\n",
				 (long)getpid(), (long)b);
			write_pid_file(pidfile, pids);
			close_stdio();
			nap_ms(30000);
		}
		_exit(0);
	}
	while (waitpid(a, NULL, 0) < 0 && errno == EINTR)
		;
	return echo_json();
}

static int zombie_escapee(void)
{
	siginfo_t si;
	pid_t a = fork();

	if (a == 0) {
		setsid();
		_exit(0);
	}
	/* wait until it is a zombie, without reaping it */
	while (waitid(P_PID, (id_t)a, &si, WEXITED | WNOWAIT) < 0 &&
	       errno == EINTR)
		;
	return echo_json();
}

/* fork_storm - the direct child exits while a setsid grandchild is still
 * forking: the sweep meets processes that fork while being killed. */
static int fork_storm(const char *pidfile)
{
	if (fork() == 0) {
		char pid[32];

		setsid();
		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		write_pid_file(pidfile, pid);
		close_stdio();
		for (int i = 0; i < 100; i++) {
			if (fork() == 0) {
				fork();
				hang();
			}
		}
		hang();
	}
	return echo_json();
}

/* escapee_hang - a plugin still running while its setsid child lives on:
 * the child is the plugin's only by descent. */
static int escapee_hang(const char *pidfile)
{
	long plugin = (long)getpid();

	if (fork() == 0) {
		char pids[64];

		setsid();
		snprintf(pids, sizeof(pids), "%ld %ld\n", plugin,
			 (long)getpid());
		write_pid_file(pidfile, pids);
		close_stdio();
		nap_ms(30000);
		_exit(0);
	}
	return hang();
}

/* wait_for_file - poll for PATH for up to 5 s; its bytes go to `buf`. */
static bool wait_for_file(const char *path, char *buf, size_t n)
{
	for (int i = 0; i < 2500; i++, nap_ms(2)) {
		int fd = open(path, O_RDONLY);
		ssize_t got;

		if (fd < 0)
			continue;
		got = read(fd, buf, n - 1);
		close(fd);
		if (got > 0) {
			buf[got] = '\0';
			return true;
		}
	}
	return false;
}

static int await_joiner(const char *pidfile)
{
	char path[PATH_MAX], pid[32];

	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	write_pid_file(pidfile, pid);
	snprintf(path, sizeof(path), "%s.joined", pidfile);
	if (!wait_for_file(path, pid, sizeof(pid)))
		return 3;
	return echo_json();
}

/* join_group - an outsider to the plugin, in plugcheck's session, that
 * joins the plugin's process group: rule (a) makes it the plugin's. */
static int join_group(const char *pidfile)
{
	int status;
	pid_t j = fork();

	if (j == 0) {
		char path[PATH_MAX], buf[32];

		close_stdio();
		if (!wait_for_file(pidfile, buf, sizeof(buf)) ||
		    setpgid(0, (pid_t)strtol(buf, NULL, 10)) < 0)
			_exit(1);
		snprintf(path, sizeof(path), "%s.joined", pidfile);
		snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		write_pid_file(path, buf);
		nap_ms(30000);
		_exit(0);
	}
	while (waitpid(j, &status, 0) < 0)
		if (errno != EINTR)
			return 2;
	return WIFSIGNALED(status) ? WTERMSIG(status)
				   : 100 + WEXITSTATUS(status);
}

static const struct behaviour {
	const char *name;
	int (*run)(void);
	int (*run_arg)(const char *arg);
} behaviours[] = {
	{ "echo-json", echo_json, NULL },
	{ "bad-json", bad_json, NULL },
	{ "cat", cat, NULL },
	{ "read-all-then-print", read_all_then_print, NULL },
	{ "hang", hang, NULL },
	{ "hang-ignore-term", hang_ignore_term, NULL },
	{ "flood-stdout", flood_stdout, NULL },
	{ "flood-stderr", flood_stderr, NULL },
	{ "no-read-exit", no_read_exit, NULL },
	{ "no-read-hang", hang, NULL },
	{ "slow-drip", slow_drip, NULL },
	{ "crash-segv", crash_segv, NULL },
	{ "bg-holds-stdout", bg_holds_stdout, NULL },
	{ "env", env, NULL },
	{ "cwd", cwd, NULL },
	{ "sigstate", sigstate, NULL },
	{ "cat-cwd", cat_cwd, NULL },
	{ "kill-parent", NULL, kill_parent },
	{ "stop-parent", stop_parent, NULL },
	{ "ancestors", ancestors, NULL },
	{ "session", session, NULL },
	{ "print-bytes", NULL, print_bytes },
	{ "print-stderr-bytes", NULL, print_stderr_bytes },
	{ "write-before-read", NULL, write_before_read },
	{ "bg-detached", NULL, bg_detached },
	{ "bg-in-group", NULL, bg_in_group },
	{ "bg-detached-pair", NULL, bg_detached_pair },
	{ "zombie-escapee", zombie_escapee, NULL },
	{ "fork-storm", NULL, fork_storm },
	{ "escapee-hang", NULL, escapee_hang },
	{ "await-joiner", NULL, await_joiner },
	{ "join-group", NULL, join_group },
};

int main(int argc, char **argv)
{
	const char *arg = argc > 2 ? argv[2] : NULL;

	arg2 = argc > 3 ? argv[3] : NULL;

	if (argc < 2)
		return 2;
	if (!strncmp(argv[1], "exit-", 5)) {
		int code = (int)strtol(argv[1] + 5, NULL, 10);

		dprintf(2, "fake_plugin: exiting with %d\n", code);
		return code;
	}
	for (size_t i = 0; i < sizeof(behaviours) / sizeof(*behaviours); i++) {
		const struct behaviour *b = &behaviours[i];

		if (strcmp(argv[1], b->name))
			continue;
		if (b->run)
			return b->run();
		return arg ? b->run_arg(arg) : 2;
	}
	return 2;
}

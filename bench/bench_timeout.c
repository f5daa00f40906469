/* bench_timeout.c - how far past its deadline the reference host gives up
 * on a hook that never answers, against a minimal C baseline doing the
 * same in the same run (issue 9, item 3).
 *
 * The hook (`#!/bin/sh`, reads all of stdin, then `exec sleep 1000`) has
 * timeout_ms 200. The host run: pc_host_run_hook(), timed from the call to
 * its return. The baseline: posix_spawn the same argv and environment,
 * write the same stdin, close it, poll stdout/stderr until 200 ms after
 * the spawn, SIGKILL the child, drain and reap it. Overshoot is the
 * elapsed time minus 200 ms. Runs alternate host and baseline; the table
 * shows p50, p99 and max of each in ms, and the machine's load average
 * before and after. Nothing asserts on time.
 *
 * Usage: bench_timeout [-n RUNS]   (default 100)
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_time.h"

extern char **environ;

#define TIMEOUT_MS 200

static const char manifest[] =
	"{\"name\":\"bench\",\"version\":\"1\",\"hooks\":"
	"{\"pre_bash\":{\"script\":\"hooks/hang\",\"timeout_ms\":200}}}\n";
static const char hook[] = "#!/bin/sh\ncat >/dev/null\nexec sleep 1000\n";

static void die(const char *what)
{
	fprintf(stderr, "bench_timeout: %s\n", what);
	exit(1);
}

/* Milliseconds past the deadline of one host firing; keeps argv, env and
 * stdin of the first for the baseline. */
static double host_once(struct pc_host *h, struct pc_plugin *p,
			struct pc_strvec *argv, struct pc_buf *in)
{
	struct pc_hook_result r;
	struct pc_exchange x;
	int64_t t0 = pc_time_now_us(), t;

	pc_exchange_init(&x);
	if (pc_host_run_hook(h, p, PC_HOOK_PRE_BASH, "", NULL, NULL, &r, &x,
			     NULL) < 0)
		die("pc_host_run_hook failed");
	t = pc_time_now_us() - t0;
	if (r.outcome != PC_OUT_TIMEOUT)
		die("the hook did not time out");
	if (argv && !argv->nr) {
		for (size_t i = 0; i < x.argv.nr; i++)
			pc_strvec_push(argv, x.argv.v[i]);
		pc_buf_add(in, x.stdin_json.data, x.stdin_json.len);
	}
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	return (double)t / 1000.0 - TIMEOUT_MS;
}

static double base_once(const struct pc_strvec *argv,
			const struct pc_strvec *env, const struct pc_buf *in)
{
	posix_spawn_file_actions_t fa;
	int i0[2], o[2], e[2], open_fds = 2, status;
	int64_t t0 = pc_time_now_us(), deadline;
	struct pollfd pf[2];
	pid_t pid;
	bool killed = false;

	if (pipe2(i0, O_CLOEXEC) < 0 || pipe2(o, O_CLOEXEC) < 0 ||
	    pipe2(e, O_CLOEXEC) < 0)
		die("pipe2 failed");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, i0[0], 0);
	posix_spawn_file_actions_adddup2(&fa, o[1], 1);
	posix_spawn_file_actions_adddup2(&fa, e[1], 2);
	if (posix_spawn(&pid, argv->v[0], &fa, NULL, argv->v, env->v))
		die("posix_spawn failed");
	posix_spawn_file_actions_destroy(&fa);
	deadline = pc_time_now_us() + TIMEOUT_MS * 1000;
	close(i0[0]);
	close(o[1]);
	close(e[1]);
	if (write(i0[1], in->data, in->len) != (ssize_t)in->len)
		die("short write");
	close(i0[1]);
	pf[0] = (struct pollfd){ .fd = o[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = e[0], .events = POLLIN };
	while (open_fds) {
		int64_t left = deadline - pc_time_now_us();
		char buf[4096];

		if (left <= 0 && !killed) {
			kill(pid, SIGKILL);
			killed = true;
		}
		if (poll(pf, 2, killed ? -1 : (int)((left + 999) / 1000)) < 0 &&
		    errno != EINTR)
			die("poll failed");
		for (int k = 0; k < 2; k++)
			if (pf[k].fd >= 0 && pf[k].revents &&
			    read(pf[k].fd, buf, sizeof(buf)) <= 0) {
				close(pf[k].fd);
				pf[k].fd = -1;
				open_fds--;
			}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return (double)(pc_time_now_us() - t0) / 1000.0 - TIMEOUT_MS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v[n]. */
static double pct(const double *v, int n, int p)
{
	int k = (p * n + 99) / 100;

	return v[k < 1 ? 0 : k - 1];
}

static void row(const char *label, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("%-9s %6d %9.2f %9.2f %9.2f\n", label, n, pct(v, n, 50),
	       pct(v, n, 99), v[n - 1]);
}

static void load(const char *when)
{
	char line[128] = "?";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f && fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	if (f)
		fclose(f);
	printf("load average %s: %s\n", when, line);
}

int main(int argc, char **argv)
{
	struct pc_host h = PC_HOST_INIT;
	struct pc_manifest_env menv = { .home = getenv("HOME") };
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin *p;
	struct pc_strvec av = PC_STRVEC_INIT, env = PC_STRVEC_INIT;
	struct pc_buf in = PC_BUF_INIT(PC_BUF_NOCAP);
	static const char *const keep[] = { "PATH", "HOME", "TMPDIR", "USER" };
	char *tmp = pc_fs_mkdtemp("bench"), *hooks, *f;
	double *hv, *bv;
	int n = 100, c;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		n = c == 'n' ? (int)strtol(optarg, NULL, 10) : 0;
		if (n < 1 || n > 100000)
			die("usage: bench_timeout [-n RUNS]");
	}
	signal(SIGPIPE, SIG_IGN);
	if (!tmp)
		die("no temporary directory");
	hooks = pc_fs_join(tmp, "hooks");
	pc_fs_mkdir_p(hooks, NULL);
	f = pc_fs_join(tmp, "plugin.json");
	pc_fs_write(f, manifest, strlen(manifest), NULL);
	free(f);
	f = pc_fs_join(hooks, "hang");
	if (pc_fs_write(f, hook, strlen(hook), NULL) < 0 || chmod(f, 0755) < 0)
		die("cannot write the hook");
	free(f);
	if (pc_manifest_load(tmp, &menv, &p, &err) < 0)
		die(err.msg);
	pc_host_init(&h, environ, tmp, "");
	h.timestamp = 1700000000;
	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
		if (pc_host_getenv(&h, keep[i]))
			pc_strvec_pushf(&env, "%s=%s", keep[i],
					pc_host_getenv(&h, keep[i]));
	hv = calloc((size_t)n, sizeof(*hv));
	bv = calloc((size_t)n, sizeof(*bv));
	if (!hv || !bv)
		die("out of memory");
	host_once(&h, p, &av, &in); /* warm-up; keeps argv and stdin */
	load("before");
	for (int i = 0; i < n; i++) {
		hv[i] = host_once(&h, p, NULL, NULL);
		bv[i] = base_once(&av, &env, &in);
	}
	load("after");
	printf("timeout %d ms, overshoot in ms (elapsed - timeout)\n", TIMEOUT_MS);
	printf("%-9s %6s %9s %9s %9s\n", "", "runs", "p50", "p99", "max");
	row("host", hv, n);
	row("baseline", bv, n);
	/* sorted by row(); the lines bench/report.py gathers */
	printf("figure: timeout 200 ms overshoot p50, host vs bare C\t%.2f ms\t%.2f ms\t%.2f\t-\n",
	       pct(hv, n, 50), pct(bv, n, 50), pct(hv, n, 50) / pct(bv, n, 50));
	printf("figure: timeout 200 ms overshoot p99, host vs bare C\t%.2f ms\t%.2f ms\t%.2f\t<= 15 ms\n",
	       pct(hv, n, 99), pct(bv, n, 99), pct(hv, n, 99) / pct(bv, n, 99));
	free(hv);
	free(bv);
	pc_strvec_release(&av);
	pc_strvec_release(&env);
	pc_buf_release(&in);
	pc_plugin_free(p);
	pc_host_release(&h);
	pc_fs_rm_rf(tmp);
	free(tmp);
	free(hooks);
	return 0;
}

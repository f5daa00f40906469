/* bench_fire.c - the cost of firing a trivial hook through the reference
 * host, against a minimal C baseline that does the same process work, and
 * against a Python harness doing the same loop with subprocess.run.
 *
 * For three hooks (a compiled executable, a /bin/sh script and a Python
 * script run by the host's python3, all of which read all of stdin and
 * print {"allow":true}) it times N firings through
 * pc_host_run_hook() - manifest loaded once, results released each time -
 * and N firings of a baseline that posix_spawns the same argv with the
 * same environment, writes the same stdin bytes (the serialized context),
 * closes stdin, drains stdout/stderr and waits, and N firings by
 * bench/pyharness.py (subprocess.run with the same argv, env and input,
 * timed inside Python so the interpreter's start is not counted). Each
 * loop runs `reps` times, interleaved; the table shows the medians and the
 * ratios host/baseline and python/baseline. Nothing here asserts on time:
 * the figures are for docs/performance.md.
 *
 * Usage: bench_fire [-n N] [-p NPY] [-r REPS] [-H PYHARNESS]
 *   N firings of the compiled and sh hooks (default 1000), NPY of the
 *   Python hook (default 100: each starts an interpreter), REPS runs
 *   (default 5); -H 0 skips the Python harness.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/utsname.h>
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

#include <cjson/cJSON.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_time.h"
#include "pc_xalloc.h"

extern char **environ;

#define MAX_REPS 99

static const char manifest[] =
	"{\"name\":\"bench\",\"version\":\"1\",\"hooks\":"
	"{\"pre_bash\":{\"script\":\"hooks/allow\"}}}\n";

static const char sh_hook[] = "#!/bin/sh\n"
			      "while IFS= read -r _l; do :; done\n"
			      "printf '%s\\n' '{\"allow\":true}'\n";

static const char py_manifest[] =
	"{\"name\":\"bench\",\"version\":\"1\",\"hooks\":"
	"{\"pre_bash\":{\"script\":\"hooks/allow.py\"}}}\n";

static const char py_hook[] = "import sys\n"
			      "sys.stdin.buffer.read()\n"
			      "sys.stdout.write('{\"allow\":true}\\n')\n";

/* One hook under test: its plugin, and what the baseline replays. */
struct subject {
	const char *label;
	struct pc_plugin *plugin;
	struct pc_strvec argv; /* exactly what the host spawned */
	struct pc_strvec env;  /* the host's cleared environment (R5.3) */
	struct pc_buf stdin_json;
	long n; /* firings per run */
	double host_ms[MAX_REPS], base_ms[MAX_REPS], py_ms[MAX_REPS];
};

static void die(const char *what)
{
	fprintf(stderr, "bench_fire: %s\n", what);
	exit(1);
}

static void write_plugin_as(const char *dir, const char *mf, const char *name,
			    const void *hook, size_t n)
{
	char *hooks = pc_fs_join(dir, "hooks");
	char *mpath = pc_fs_join(dir, "plugin.json");
	char *hpath = pc_fs_join(hooks, name);

	if (pc_fs_mkdir_p(hooks, NULL) < 0 ||
	    pc_fs_write(mpath, mf, strlen(mf), NULL) < 0 ||
	    pc_fs_write(hpath, hook, n, NULL) < 0 || chmod(hpath, 0755) < 0)
		die("cannot write the temporary plugin");
	free(hooks);
	free(mpath);
	free(hpath);
}

static void write_plugin(const char *dir, const void *hook, size_t n)
{
	write_plugin_as(dir, manifest, "allow", hook, n);
}

/* The compiled hook is copied into the plugin: a symlink would resolve
 * outside it and the host would reject the script (R2.10). */
static void write_compiled_plugin(const char *dir)
{
	struct pc_buf exe = PC_BUF_INIT((size_t)64 << 20);

	if (pc_fs_read_capped(TRIVIAL_HOOK, &exe, NULL) < 0)
		die("cannot read " TRIVIAL_HOOK);
	write_plugin(dir, exe.data, exe.len);
	pc_buf_release(&exe);
}

/* A hook result must be a plain allow, or the timing means nothing. */
static void check_allow(const struct pc_hook_result *r)
{
	if (r->outcome != PC_OUT_OK || !r->allow)
		die("the trivial hook did not allow");
}

static void fire_once(struct pc_host *h, struct subject *s, bool keep)
{
	struct pc_hook_result r;
	struct pc_exchange x;

	pc_exchange_init(&x);
	if (pc_host_run_hook(h, s->plugin, PC_HOOK_PRE_BASH, "", NULL, NULL, &r,
			     &x, NULL) < 0)
		die("pc_host_run_hook failed");
	check_allow(&r);
	if (keep) {
		for (size_t i = 0; i < x.argv.nr; i++)
			pc_strvec_push(&s->argv, x.argv.v[i]);
		pc_buf_add(&s->stdin_json, x.stdin_json.data, x.stdin_json.len);
	}
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
}

static void setup(struct pc_host *h, struct subject *s, const char *dir)
{
	static const char *const keep[] = { "PATH", "HOME", "TMPDIR", "USER" };
	struct pc_manifest_env menv = { .home = getenv("HOME") };
	struct pc_err err = PC_ERR_INIT;

	if (pc_manifest_load(dir, &menv, &s->plugin, &err) < 0)
		die(err.msg);
	pc_strvec_init(&s->argv);
	pc_strvec_init(&s->env);
	pc_buf_init(&s->stdin_json, PC_BUF_NOCAP);
	fire_once(h, s, true);
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (pc_host_getenv(h, keep[i]))
			pc_strvec_pushf(&s->env, "%s=%s", keep[i],
					pc_host_getenv(h, keep[i]));
}

/* Read what is there; false at EOF. Output goes to `out` (may be NULL). */
static bool drain(int fd, struct pc_buf *out)
{
	char buf[16384];
	ssize_t n;

	do {
		n = read(fd, buf, sizeof(buf));
	} while (n < 0 && errno == EINTR);
	if (n > 0 && out)
		pc_buf_add(out, buf, (size_t)n);
	return n > 0;
}

static pid_t spawn(const struct subject *s, int in[2], int out[2], int err[2])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(err, O_CLOEXEC) < 0)
		die("pipe2 failed");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	rc = strchr(s->argv.v[0], '/')
		     ? posix_spawn(&pid, s->argv.v[0], &fa, NULL, s->argv.v,
				   s->env.v)
		     : posix_spawnp(&pid, s->argv.v[0], &fa, NULL, s->argv.v,
				    s->env.v);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		die("posix_spawn failed");
	close(in[0]);
	close(out[1]);
	close(err[1]);
	return pid;
}

/* The baseline: spawn, write all of stdin and close it, drain both
 * pipes to EOF, wait. What any correct runner must do at least. */
static void baseline_once(const struct subject *s, struct pc_buf *out)
{
	int in[2], o[2], e[2], status;
	pid_t pid = spawn(s, in, o, e);
	struct pollfd pf[2] = { { .fd = o[0], .events = POLLIN },
				{ .fd = e[0], .events = POLLIN } };
	int open_fds = 2;

	if (write(in[1], s->stdin_json.data, s->stdin_json.len) !=
	    (ssize_t)s->stdin_json.len)
		die("short write to the hook's stdin");
	close(in[1]);
	while (open_fds) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			die("poll failed");
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			if (!drain(pf[i].fd, i ? NULL : out)) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the baseline hook failed");
}

static double time_host(struct pc_host *h, struct subject *s, long n)
{
	int64_t t0 = pc_time_now_us();

	for (long i = 0; i < n; i++)
		fire_once(h, s, false);
	return (double)(pc_time_now_us() - t0) / 1000.0;
}

static double time_baseline(struct subject *s, long n)
{
	struct pc_buf out = PC_BUF_INIT(PC_MAX_IO_BYTES);
	int64_t t0 = pc_time_now_us();

	for (long i = 0; i < n; i++) {
		pc_buf_reset(&out);
		baseline_once(s, &out);
		if (strcmp(pc_buf_cstr(&out), "{\"allow\":true}\n"))
			die("the baseline hook did not allow");
	}
	pc_buf_release(&out);
	return (double)(pc_time_now_us() - t0) / 1000.0;
}

/* The Python harness: argv, env and stdin go to a file it reads; it
 * prints the milliseconds its loop took (interpreter start excluded). */
static double time_python(const struct subject *s, const char *harness,
			  const char *tmp, long n)
{
	char *spec = pc_fs_join(tmp, "harness.json");
	cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "argv");
	cJSON *e = cJSON_AddArrayToObject(o, "env");
	char *text, nbuf[32], line[128] = "";
	char *av[] = { (char *)"python3", (char *)harness, spec, nbuf, NULL };
	posix_spawn_file_actions_t fa;
	int out[2], status;
	ssize_t got = 0, k;
	pid_t pid;
	double ms;

	for (size_t i = 0; i < s->argv.nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(s->argv.v[i]));
	for (size_t i = 0; i < s->env.nr; i++)
		cJSON_AddItemToArray(e, cJSON_CreateString(s->env.v[i]));
	cJSON_AddStringToObject(o, "stdin", pc_buf_cstr(&s->stdin_json));
	text = cJSON_PrintUnformatted(o);
	if (!text || pc_fs_write(spec, text, strlen(text), NULL) < 0)
		die("cannot write the harness spec");
	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	if (pipe2(out, O_CLOEXEC) < 0)
		die("pipe2 failed");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (posix_spawnp(&pid, "python3", &fa, NULL, av, environ))
		die("cannot start the Python harness");
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	while ((k = read(out[0], line + got, sizeof(line) - 1 - (size_t)got)) > 0 ||
	       (k < 0 && errno == EINTR))
		got += k > 0 ? k : 0;
	close(out[0]);
	line[got] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) ||
	    sscanf(line, "%lf", &ms) != 1)
		die("the Python harness failed");
	cJSON_Delete(o);
	free(text);
	free(spec);
	return ms;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void print_machine(void)
{
	char line[512], model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");
	struct utsname u;

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	if (uname(&u) < 0)
		die("uname failed");
	printf("machine: nproc %ld, %s, %s %s %s\n",
	       sysconf(_SC_NPROCESSORS_ONLN), model, u.sysname, u.release,
	       u.machine);
}

static void print_row(struct subject *s, int reps, bool py)
{
	double h = median(s->host_ms, reps), b = median(s->base_ms, reps);
	double n = (double)s->n, p = py ? median(s->py_ms, reps) : 0;

	printf("%-9s %6ld %10.1f %10.1f %10.1f %7.3f", s->label, s->n,
	       h * 1000.0 / n, b * 1000.0 / n, p * 1000.0 / n, h / b);
	if (py)
		printf(" %7.3f", p / b);
	printf("\n");
}

/* The lines bench/report.py gathers into the one table of bench/run:
 * "figure: NAME<TAB>MEASURED<TAB>BASELINE<TAB>RATIO<TAB>TARGET". */
static void print_figures(struct subject *s, int reps, bool py)
{
	double h = median(s->host_ms, reps), b = median(s->base_ms, reps);
	double n = (double)s->n;

	printf("figure: fire %s hook, host vs bare C\t%.0f us\t%.0f us\t%.3f\t%s\n",
	       s->label, h * 1000.0 / n, b * 1000.0 / n, h / b,
	       strcmp(s->label, "compiled") ? "-" : "<= 1.10");
	if (py) {
		double p = median(s->py_ms, reps);

		printf("figure: fire %s hook, Python subprocess.run vs bare C\t%.0f us\t%.0f us\t%.3f\t-\n",
		       s->label, p * 1000.0 / n, b * 1000.0 / n, p / b);
	}
}

static void usage(void)
{
	fputs("usage: bench_fire [-n N] [-p NPY] [-r REPS] [-H PYHARNESS|0]\n",
	      stderr);
	exit(2);
}

static void parse_args(int argc, char **argv, long *n, long *npy, int *reps,
		       const char **harness)
{
	int c;

	while ((c = getopt(argc, argv, "n:p:r:H:h")) != -1) {
		char *end = (char *)"";

		if (c == 'n')
			*n = strtol(optarg, &end, 10);
		else if (c == 'p')
			*npy = strtol(optarg, &end, 10);
		else if (c == 'r')
			*reps = (int)strtol(optarg, &end, 10);
		else if (c == 'H')
			*harness = strcmp(optarg, "0") ? optarg : NULL;
		else
			usage();
		if (*end || *n < 1 || *npy < 1 || *reps < 1 || *reps > MAX_REPS)
			usage();
	}
	if (optind != argc)
		usage();
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };
	struct subject subj[3] = { { .label = "compiled" }, { .label = "sh" },
				   { .label = "python" } };
	struct pc_host h = PC_HOST_INIT;
	long n = 1000, npy = 100;
	int reps = 5;
	const char *harness = PYHARNESS;
	char *tmp = pc_fs_mkdtemp("bench"), *dir[3];

	parse_args(argc, argv, &n, &npy, &reps, &harness);
	sigaction(SIGPIPE, &sa, NULL);
	if (!tmp)
		die("cannot create a temporary directory");
	dir[0] = pc_fs_join(tmp, "compiled");
	dir[1] = pc_fs_join(tmp, "sh");
	dir[2] = pc_fs_join(tmp, "python");
	write_compiled_plugin(dir[0]);
	write_plugin(dir[1], sh_hook, strlen(sh_hook));
	write_plugin_as(dir[2], py_manifest, "allow.py", py_hook,
			strlen(py_hook));
	pc_host_init(&h, environ, tmp, "");
	h.timestamp = 1700000000; /* the same stdin bytes every time */
	for (int k = 0; k < 3; k++) {
		subj[k].n = k == 2 ? npy : n;
		setup(&h, &subj[k], dir[k]);
	}
	for (int r = 0; r < reps; r++) {
		for (int k = 0; k < 3; k++) {
			subj[k].host_ms[r] = time_host(&h, &subj[k], subj[k].n);
			subj[k].base_ms[r] = time_baseline(&subj[k], subj[k].n);
			if (harness)
				subj[k].py_ms[r] = time_python(&subj[k], harness,
							       tmp, subj[k].n);
		}
	}
	print_machine();
	printf("median of %d runs; us per firing; ratios against the C baseline\n",
	       reps);
	printf("%-9s %6s %10s %10s %10s %7s%s\n", "hook", "fires", "host us",
	       "base us", "python us", "host/b", harness ? " pyth/b" : "");
	for (int k = 0; k < 3; k++)
		print_row(&subj[k], reps, harness != NULL);
	for (int k = 0; k < 3; k++) {
		print_figures(&subj[k], reps, harness != NULL);
		pc_plugin_free(subj[k].plugin);
		pc_strvec_release(&subj[k].argv);
		pc_strvec_release(&subj[k].env);
		pc_buf_release(&subj[k].stdin_json);
		free(dir[k]);
	}
	pc_host_release(&h);
	pc_fs_rm_rf(tmp);
	free(tmp);
	return 0;
}

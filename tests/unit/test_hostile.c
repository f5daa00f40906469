/* test_hostile.c - in-process leak checks of the host library against
 * hostile plugins (issue 8): after firings through pc_proc_run() (with
 * tests/helpers/fake_plugin) and through the hook API (pc_host_run_hook()
 * on plugins of tests/hostile/), the number of open descriptors in
 * /proc/self/fd is what it was before, no child of this process is left
 * (zombies included), the plugin's process group is empty, and no
 * process on the machine carries the firing's marker.
 *
 * Behaviours: floods stdout (R5.7 cap), a child holds stdout after the
 * answer (R5.6 wait for EOF, then timeout), never exits (R5.6, R5.9
 * timeout), exits before reading its stdin (R5.5 EPIPE ignored).
 *
 * Timing: the plugins' timeouts are 200-500 ms; every assertion is about
 * outcomes and counts, not durations. The hostile plugins' own 500 ms
 * timeout can pass before `yes` fills 1 MiB or before a starved shell
 * exits on a loaded machine, so those two hook cases also accept a
 * timeout: what they check is that nothing leaks either way.
 */
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_proc.h"
#include "test_util.h"

#define MIB    ((size_t)1 << 20)
#define ROUNDS 3 /* firings per behaviour after the warm-up */

struct fx {
	char *tmp;	       /* scratch directory: workspace, HOME, TMPDIR */
	char marker[PATH_MAX]; /* TMPDIR=<tmp>/t: every firing carries it */
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

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char *t;

	assert_non_null(fx);
	fx->tmp = pc_fs_mkdtemp("hostile");
	assert_non_null(fx->tmp);
	t = pc_fs_join(fx->tmp, "t");
	assert_int_equal(pc_fs_mkdir_p(t, NULL), 0);
	snprintf(fx->marker, sizeof(fx->marker), "TMPDIR=%s", t);
	free(t);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx);
	return 0;
}

/* assert_clean - nothing of the firing survives it. */
static void assert_clean(const struct fx *fx, int pid)
{
	assert_true(pid > 0);
	assert_int_equal(kill(-pid, 0), -1); /* the plugin's group is gone */
	assert_int_equal(errno, ESRCH);
	assert_int_equal(tu_count_children(), 0);
	assert_int_equal(tu_count_marked(fx->marker, false), 0);
}

/* --- pc_proc ------------------------------------------------------------- */

struct proc_case {
	const char *behaviour;
	unsigned flags;
	size_t stdin_len;
	int64_t timeout_ms;
	enum pc_proc_outcome want;
};

static void fire_proc(const struct fx *fx, const struct proc_case *c,
		      const char *stdin_bytes)
{
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(MIB, MIB);
	struct pc_err err = PC_ERR_INIT;

	pc_strvec_push(&o.argv, FAKE_PLUGIN);
	pc_strvec_push(&o.argv, c->behaviour);
	pc_strvec_push(&o.env, "PATH=/usr/bin:/bin");
	pc_strvec_push(&o.env, fx->marker);
	o.cwd = fx->tmp;
	o.flags = c->flags;
	o.stdin_data = stdin_bytes;
	o.stdin_len = c->stdin_len;
	o.timeout_ms = c->timeout_ms;
	o.stdin_timeout_ms = 1000;
	assert_int_equal(pc_proc_run(&o, &r, &err), 0);
	assert_int_equal(r.outcome, c->want);
	assert_clean(fx, r.pid);
	pc_proc_result_release(&r);
	pc_proc_opts_release(&o);
}

static void run_proc_case(void **state, const struct proc_case *c)
{
	struct fx *fx = *state;
	char *bytes = malloc(MIB);
	int before;

	assert_non_null(bytes);
	memset(bytes, 'x', MIB);
	fire_proc(fx, c, bytes); /* warm up lazily opened descriptors */
	before = count_dir("/proc/self/fd");
	for (int i = 0; i < ROUNDS; i++)
		fire_proc(fx, c, bytes);
	assert_int_equal(count_dir("/proc/self/fd"), before);
	free(bytes);
}

static void proc_flood_stdout_leaks_nothing(void **state)
{
	static const struct proc_case c = { "flood-stdout", 0, 0, 10000,
					    PC_PROC_STDOUT_OVERFLOW };

	run_proc_case(state, &c);
}

static void proc_child_holding_stdout_leaks_nothing(void **state)
{
	static const struct proc_case c = { "bg-holds-stdout", 0, 0, 300,
					    PC_PROC_TIMEOUT };

	run_proc_case(state, &c);
}

static void proc_never_exits_leaks_nothing(void **state)
{
	static const struct proc_case c = { "hang", PC_PROC_STDIN_FIRST, 10,
					    200, PC_PROC_TIMEOUT };

	run_proc_case(state, &c);
}

static void proc_exit_before_stdin_leaks_nothing(void **state)
{
	static const struct proc_case c = { "no-read-exit", PC_PROC_STDIN_FIRST,
					    MIB, 10000, PC_PROC_EXITED };

	run_proc_case(state, &c);
}

/* --- the hook API on tests/hostile/ --------------------------------------- */

/* OUT(o) - the bit of outcome `o` in a set of acceptable outcomes */
#define OUT(o) (1u << (o))

static void fire_hook(const struct fx *fx, const struct pc_plugin *p,
		      enum pc_hook_point point, const cJSON *args,
		      unsigned want)
{
	char *home = pc_fs_join(fx->tmp, "home");
	char path[] = "PATH=/usr/bin:/bin";
	char home_env[PATH_MAX + 8];
	char marker[PATH_MAX];
	char *envp[] = { path, home_env, marker, NULL };
	struct pc_host h = PC_HOST_INIT;
	struct pc_hook_result r;
	struct pc_exchange x;
	struct pc_err err = PC_ERR_INIT;

	snprintf(home_env, sizeof(home_env), "HOME=%s", home);
	snprintf(marker, sizeof(marker), "%s", fx->marker);
	pc_host_init(&h, envp, fx->tmp, "");
	memset(&r, 0, sizeof(r));
	pc_exchange_init(&x);
	assert_int_equal(
		pc_host_run_hook(&h, p, point, "", args, NULL, &r, &x, &err),
		0);
	if (!(want & OUT(r.outcome)))
		fail_msg("unexpected outcome %d", (int)r.outcome);
	assert_true(x.spawned);
	assert_clean(fx, x.proc.pid);
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	pc_host_release(&h);
	free(home);
}

static void run_hook_case(void **state, const char *name,
			  enum pc_hook_point point, const cJSON *args,
			  unsigned want)
{
	struct fx *fx = *state;
	struct pc_manifest_env env = { "/nonexistent-home", NULL };
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;
	char *dir = pc_fs_join(HOSTILE_DIR, name);
	int before;

	if (pc_manifest_load(dir, &env, &p, &err))
		fail_msg("%s: %s", dir, err.msg);
	fire_hook(fx, p, point, args, want); /* warm up */
	before = count_dir("/proc/self/fd");
	for (int i = 0; i < ROUNDS; i++)
		fire_hook(fx, p, point, args, want);
	assert_int_equal(count_dir("/proc/self/fd"), before);
	pc_plugin_free(p);
	free(dir);
}

static cJSON *bash_args(void)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddStringToObject(a, "command", "ls");
	return a;
}

static void hook_flood_stdout_leaks_nothing(void **state)
{
	cJSON *a = bash_args();

	run_hook_case(state, "flood-stdout", PC_HOOK_PRE_BASH, a,
		      OUT(PC_OUT_OUTPUT_TOO_LARGE) | OUT(PC_OUT_TIMEOUT));
	cJSON_Delete(a);
}

static void hook_child_holding_stdout_leaks_nothing(void **state)
{
	cJSON *a = bash_args();

	run_hook_case(state, "child-holds-stdout", PC_HOOK_PRE_BASH, a,
		      OUT(PC_OUT_TIMEOUT));
	cJSON_Delete(a);
}

static void hook_never_exits_leaks_nothing(void **state)
{
	cJSON *a = bash_args();

	run_hook_case(state, "never-exits", PC_HOOK_PRE_BASH, a,
		      OUT(PC_OUT_TIMEOUT));
	cJSON_Delete(a);
}

/* pre_write with pass_args and 900 KiB of content: stdin stays under the
 * 1 MiB input cap but far over a pipe buffer, and the plugin exits first. */
static void hook_exit_before_stdin_leaks_nothing(void **state)
{
	cJSON *a = cJSON_CreateObject();
	char *content = malloc(900 * 1024 + 1);

	assert_non_null(content);
	memset(content, 'x', 900 * 1024);
	content[900 * 1024] = '\0';
	cJSON_AddStringToObject(a, "path", "a.txt");
	cJSON_AddStringToObject(a, "content", content);
	free(content);
	run_hook_case(state, "exits-before-stdin", PC_HOOK_PRE_WRITE, a,
		      OUT(PC_OUT_OK) | OUT(PC_OUT_TIMEOUT));
	cJSON_Delete(a);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(proc_flood_stdout_leaks_nothing),
		T(proc_child_holding_stdout_leaks_nothing),
		T(proc_never_exits_leaks_nothing),
		T(proc_exit_before_stdin_leaks_nothing),
		T(hook_flood_stdout_leaks_nothing),
		T(hook_child_holding_stdout_leaks_nothing),
		T(hook_never_exits_leaks_nothing),
		T(hook_exit_before_stdin_leaks_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

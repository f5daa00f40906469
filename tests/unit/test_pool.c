/* test_pool.c - the one worker pool (pc_pool.h): parts merged in unit
 * order whatever finishes first, units handed out on demand, workers out
 * of a plugin's reach, and what a plugin does to the worker that spawned
 * it - the fake plugin (tests/helpers/fake_plugin) run through
 * pc_proc_run() as a suite unit runs a script - SIGKILL (PC_POOL_KILLED),
 * SIGSTOP (PC_POOL_STOPPED, and the unit still completes), a catchable
 * signal (PC_POOL_SIGNALLED with the signal and its sender); the other
 * units still run, this process survives, and no process is left: no
 * child of ours, no process carrying the run's marker. Then an interrupt
 * (the stop flag, with and without pc_pool_kill_all(): PC_POOL_INTERRUPTED
 * for running and unstarted units, and the plugins' setsid escapees
 * killed too), a worker_init that fails (PC_POOL_FAILED), and the
 * caller's child-subreaper state, which pc_proc's sweep relies on.
 *
 * Workers are forks of this process inside a cmocka test: they must not
 * call cmocka, so run() only reports, as parts, and the parent asserts.
 * Timing: nothing asserts a duration but "well before the plugin's own
 * 60 s sleep"; waits for processes to vanish poll for up to 10 s.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/stat.h>
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_pool.h"
#include "pc_proc.h"
#include "pc_time.h"
#include "pc_xalloc.h"
#include "test_util.h"

#define MAX_UNITS 16
#define MAX_PARTS 64
#define BIG_PART  (300 * 1024) /* several socket buffers' worth */
#define HANG_MS	  60000	       /* a hanging plugin's own timeout */

enum unit_kind {
	U_PARTS,       /* nap, then three parts (one big when asked) */
	U_KILL,	       /* a plugin that sends `arg` to its parent, then
			  sleeps: only a sweep ends it */
	U_STOP,	       /* a plugin that SIGSTOPs its parent and exits */
	U_HANG,	       /* a plugin that never answers (HANG_MS) */
	U_ESCAPE,      /* U_HANG, and its setsid child lives on (pid.N:
			  "<plugin> <child>") */
	U_WAIT_MARKED, /* wait until `arg` marked processes run */
	U_WAIT_FILE,   /* wait (up to 10 s) for fx->tmp/flag */
	U_TOUCH,       /* create fx->tmp/flag */
	U_ANCESTORS,   /* a plugin that walks up its parents */
};

struct rec {
	size_t unit;
	char text[256];
	size_t len;
};

struct evrec {
	size_t unit;
	struct pc_pool_event ev;
	char label[64];
};

struct fx {
	char *tmp;
	char marker[PATH_MAX]; /* PC_POOL_TEST=<tmp>: in every plugin's env */
	size_t n;
	enum unit_kind kind[MAX_UNITS];
	int arg[MAX_UNITS];
	long nap_ms[MAX_UNITS];
	bool big;	 /* U_PARTS: the second part is BIG_PART bytes */
	bool init_fails; /* worker_init returns 1 */
	/* the parent's side */
	volatile sig_atomic_t stop;
	ssize_t stop_at_merge;	   /* set stop when this unit is merged */
	ssize_t kill_all_at_merge; /* pc_pool_kill_all() then */
	bool kill_all_cleared;	   /* and the marked processes vanished */
	struct rec parts[MAX_PARTS];
	size_t nparts;
	bool big_ok;
	struct evrec evs[MAX_UNITS * 2];
	size_t nevs;
	size_t started[MAX_UNITS];
	size_t nstarted;
};

/* --- processes ------------------------------------------------------------ */

static int count_marked(const char *marker)
{
	return tu_count_marked(marker, false);
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Poll (up to 10 s, SIGKILL is asynchronous) until no process carries
 * the marker. */
static bool marked_vanish(const char *marker)
{
	for (int i = 0; i < 1000; i++, nap_ms(10))
		if (count_marked(marker) == 0)
			return true;
	return false;
}

/* Poll (up to 10 s) until `pid` is gone or a zombie (its parent, init,
 * reaps it in its own time). */
static bool pid_vanishes(long pid)
{
	for (int i = 0; i < 1000; i++, nap_ms(10)) {
		long ppid;
		char st;

		if (!tu_proc_stat(pid, &st, &ppid) || st == 'Z')
			return true;
	}
	return false;
}

/* Where unit `u`'s plugin writes its pid(s) (a new string). */
static char *pid_path(const struct fx *fx, size_t u)
{
	return pc_xasprintf("%s/pid.%zu", fx->tmp, u);
}

static long read_pid(const struct fx *fx, size_t unit)
{
	char *path = pid_path(fx, unit);
	char buf[32];
	size_t len;
	long pid = 0;

	if (tu_read_small(path, buf, sizeof(buf), &len))
		pid = strtol(buf, NULL, 10);
	free(path);
	return pid;
}

/* --- the worker's side -------------------------------------------------- */

static void sendf(struct pc_pool_worker *w, size_t unit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One part "u<unit> <text> pid=<worker pid>". */
static void sendf(struct pc_pool_worker *w, size_t unit, const char *fmt, ...)
{
	char text[200], part[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(part, sizeof(part), "u%zu %s pid=%ld", unit, text,
		 (long)getpid());
	pc_pool_send(w, part, strlen(part));
}

/* Run the fake plugin in `mode` through pc_proc_run, as a suite unit
 * runs a script; its outcome name, its stdout into out (may be NULL). */
static const char *fake(const struct fx *fx, const char *mode, const char *arg,
			const char *arg2, char *out, size_t cap)
{
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(1 << 16, 1 << 16);
	struct pc_err err = PC_ERR_INIT;
	const char *what;

	pc_strvec_push(&o.argv, FAKE_PLUGIN);
	pc_strvec_push(&o.argv, mode);
	if (arg)
		pc_strvec_push(&o.argv, arg);
	if (arg2)
		pc_strvec_push(&o.argv, arg2);
	pc_strvec_push(&o.env, "PATH=/usr/bin:/bin");
	pc_strvec_push(&o.env, fx->marker);
	o.cwd = fx->tmp;
	o.timeout_ms = HANG_MS;
	o.stdin_timeout_ms = HANG_MS;
	what = pc_proc_run(&o, &r, &err) ? "error"
					 : pc_proc_outcome_name(r.outcome);
	if (out)
		snprintf(out, cap, "%s", pc_buf_cstr(&r.out));
	pc_proc_result_release(&r);
	pc_proc_opts_release(&o);
	return what;
}

static bool wait_file(const char *path)
{
	for (int i = 0; i < 1000; i++, nap_ms(10))
		if (pc_fs_is_file(path))
			return true;
	return false;
}

static void run_parts(const struct fx *fx, struct pc_pool_worker *w, size_t i)
{
	nap_ms(fx->nap_ms[i]);
	sendf(w, i, "p0");
	if (fx->big) {
		char *big = pc_xcalloc(BIG_PART + 1, 1);

		for (size_t k = 0; k < BIG_PART; k++)
			big[k] = (char)('a' + (i + k) % 26);
		pc_pool_send(w, big, BIG_PART);
		free(big);
	} else {
		sendf(w, i, "p1");
	}
	sendf(w, i, "p2");
}

static void run_unit(void *ctx, struct pc_pool_worker *w, size_t i)
{
	const struct fx *fx = ctx;
	char note[32], arg[16], out[200], *path, *pidfile = pid_path(fx, i);

	snprintf(note, sizeof(note), "firing %zu", i);
	pc_pool_note(w, note);
	snprintf(arg, sizeof(arg), "%d", fx->arg[i]);
	switch (fx->kind[i]) {
	case U_PARTS:
		run_parts(fx, w, i);
		break;
	case U_KILL:
		sendf(w, i, "before");
		sendf(w, i, "after %s",
		      fake(fx, "kill-parent", arg, pidfile, NULL, 0));
		break;
	case U_STOP:
		sendf(w, i, "before");
		sendf(w, i, "after %s",
		      fake(fx, "stop-parent", NULL, NULL, out, sizeof(out)));
		break;
	case U_HANG:
		sendf(w, i, "after %s", fake(fx, "hang", NULL, NULL, NULL, 0));
		break;
	case U_ESCAPE:
		sendf(w, i, "after %s",
		      fake(fx, "escapee-hang", pidfile, NULL, NULL, 0));
		break;
	case U_WAIT_MARKED:
		for (int k = 0;
		     k < 1000 && count_marked(fx->marker) < fx->arg[i]; k++)
			nap_ms(10);
		nap_ms(200); /* their spawn reached the parent long before */
		sendf(w, i, "saw %d", count_marked(fx->marker));
		break;
	case U_WAIT_FILE:
		path = pc_fs_join(fx->tmp, "flag");
		sendf(w, i, "%s", wait_file(path) ? "found" : "timeout");
		free(path);
		break;
	case U_TOUCH:
		path = pc_fs_join(fx->tmp, "flag");
		pc_fs_write(path, "x", 1, NULL);
		sendf(w, i, "touched");
		free(path);
		break;
	case U_ANCESTORS:
		fake(fx, "ancestors", NULL, NULL, out, sizeof(out));
		for (char *p = out; (p = strchr(p, '\n'));)
			*p = ' ';
		sendf(w, i, "ancestors %s", out);
		break;
	}
	free(pidfile);
}

static int worker_init(void *ctx, struct pc_pool_worker *w)
{
	const struct fx *fx = ctx;

	(void)w;
	return fx->init_fails;
}

/* --- the parent's side -------------------------------------------------- */

static bool escape_pids(const struct fx *fx, size_t u, long pids[2]);

/* The plugin (not the escapee) of every U_ESCAPE unit vanishes. */
static bool plugins_vanish(const struct fx *fx)
{
	for (size_t u = 0; u < fx->n; u++) {
		long pids[2];

		if (fx->kind[u] == U_ESCAPE &&
		    (!escape_pids(fx, u, pids) || !pid_vanishes(pids[0])))
			return false;
	}
	return true;
}

static void started(void *ctx, size_t unit)
{
	struct fx *fx = ctx;

	if (fx->nstarted < MAX_UNITS)
		fx->started[fx->nstarted++] = unit;
}

static void merge(void *ctx, size_t unit, const char *part, size_t len)
{
	struct fx *fx = ctx;
	struct rec *r;

	if (fx->nparts == MAX_PARTS)
		return;
	r = &fx->parts[fx->nparts++];
	r->unit = unit;
	r->len = len;
	snprintf(r->text, sizeof(r->text), "%.*s",
		 (int)(len < sizeof(r->text) ? len : sizeof(r->text) - 1),
		 part);
	if (len == BIG_PART) {
		fx->big_ok = true;
		for (size_t k = 0; k < len; k++)
			fx->big_ok &= part[k] == (char)('a' + (unit + k) % 26);
	}
	if ((ssize_t)unit == fx->stop_at_merge)
		fx->stop = 1;
	if ((ssize_t)unit == fx->kill_all_at_merge) {
		pc_pool_kill_all();
		fx->kill_all_cleared = plugins_vanish(fx);
	}
}

static void event(void *ctx, size_t unit, const struct pc_pool_event *ev)
{
	struct fx *fx = ctx;
	struct evrec *e;

	if (fx->nevs == sizeof(fx->evs) / sizeof(*fx->evs))
		return;
	e = &fx->evs[fx->nevs++];
	e->unit = unit;
	e->ev = *ev;
	snprintf(e->label, sizeof(e->label), "%s", ev->label ? ev->label : "");
	e->ev.label = NULL;
}

static int setup(void **state)
{
	struct fx *fx = pc_xcalloc(1, sizeof(*fx));

	fx->tmp = pc_fs_mkdtemp("pool");
	assert_non_null(fx->tmp);
	snprintf(fx->marker, sizeof(fx->marker), "PC_POOL_TEST=%s", fx->tmp);
	fx->stop_at_merge = fx->kill_all_at_merge = -1;
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

static void reset(struct fx *fx)
{
	char *tmp = fx->tmp, marker[PATH_MAX];

	memcpy(marker, fx->marker, sizeof(marker));
	memset(fx, 0, sizeof(*fx));
	fx->tmp = tmp;
	memcpy(fx->marker, marker, sizeof(marker));
	fx->stop_at_merge = fx->kill_all_at_merge = -1;
}

/* Run fx's units in `jobs` workers; pc_pool_run's result. Afterwards no
 * child of ours is left and (within 10 s) no marked process. */
static int run_pool(struct fx *fx, unsigned jobs)
{
	static const struct pc_pool_ops ops = { .worker_init = worker_init,
						.run = run_unit,
						.started = started,
						.merge = merge,
						.event = event };
	struct pc_pool_opts o = { .jobs = jobs,
				  .nunits = fx->n,
				  .ops = &ops,
				  .ctx = fx,
				  .stop = &fx->stop };
	struct pc_err err = PC_ERR_INIT;
	int rc = pc_pool_run(&o, &err);

	assert_int_equal(tu_count_children(), 0);
	if (!marked_vanish(fx->marker)) {
		int n = tu_count_marked(fx->marker, true);

		fail_msg("%d process(es) of the run left behind", n);
	}
	return rc;
}

/* The parts of unit `u`, in order, joined by '|' (big parts as "BIG"). */
static char *parts_of(const struct fx *fx, size_t u)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < fx->nparts; i++) {
		const struct rec *r = &fx->parts[i];
		char *sp;

		if (r->unit != u)
			continue;
		if (b.len)
			pc_buf_addch(&b, '|');
		if (r->len == BIG_PART) {
			pc_buf_adds(&b, "BIG");
			continue;
		}
		/* without " pid=N" */
		sp = strstr(r->text, " pid=");
		pc_buf_add(&b, r->text, sp ? (size_t)(sp - r->text) : r->len);
	}
	return pc_buf_detach(&b, NULL);
}

static long worker_of(const struct fx *fx, size_t u)
{
	for (size_t i = 0; i < fx->nparts; i++) {
		const char *p = strstr(fx->parts[i].text, " pid=");

		if (fx->parts[i].unit == u && p)
			return strtol(p + 5, NULL, 10);
	}
	return 0;
}

static void assert_parts(const struct fx *fx, size_t u, const char *want)
{
	char *got = parts_of(fx, u);

	if (strcmp(got, want))
		fail_msg("unit %zu: parts '%s', want '%s'", u, got, want);
	free(got);
}

/* Exactly one event: of unit `u`, of `kind`, while the unit ran (its
 * note as label). */
static const struct pc_pool_event *
assert_one_event(const struct fx *fx, size_t u, enum pc_pool_event_kind kind)
{
	char label[32];

	snprintf(label, sizeof(label), "firing %zu", u);
	assert_int_equal(fx->nevs, 1);
	assert_int_equal(fx->evs[0].unit, u);
	assert_int_equal(fx->evs[0].ev.kind, kind);
	assert_true(fx->evs[0].ev.started);
	assert_string_equal(fx->evs[0].label, label);
	return &fx->evs[0].ev;
}

/* The events of units first.., all PC_POOL_INTERRUPTED: the first
 * `running` of them cut short, the others never started. */
static void assert_interrupted(const struct fx *fx, size_t first,
			       size_t running)
{
	assert_int_equal(fx->nevs, fx->n - first);
	for (size_t i = 0; i < fx->nevs; i++) {
		assert_int_equal(fx->evs[i].unit, first + i);
		assert_int_equal(fx->evs[i].ev.kind, PC_POOL_INTERRUPTED);
		assert_int_equal(fx->evs[i].ev.started, i < running);
		assert_parts(fx, first + i, "");
	}
}

static void assert_normal_units(const struct fx *fx, size_t except)
{
	for (size_t u = 0; u < fx->n; u++) {
		char *want;

		if (u == except)
			continue;
		want = pc_xasprintf("u%zu p0|u%zu p1|u%zu p2", u, u, u);
		assert_parts(fx, u, want);
		free(want);
	}
}

/* --- tests ---------------------------------------------------------------- */

/* Later units finish first (each naps less than the one before), yet the
 * parent merges unit 0's parts, then unit 1's, ..., each unit's parts in
 * the order sent; a big part arrives whole. */
static void merged_in_unit_order_whatever_finishes_first(void **state)
{
	static const unsigned jobs[] = { 1, 2, 4 };
	struct fx *fx = *state;

	for (size_t j = 0; j < sizeof(jobs) / sizeof(*jobs); j++) {
		reset(fx);
		fx->n = 8;
		for (size_t u = 0; u < fx->n; u++)
			fx->nap_ms[u] = (long)(fx->n - u) * 25;
		assert_int_equal(run_pool(fx, jobs[j]), 0);
		assert_int_equal(fx->nevs, 0);
		assert_int_equal(fx->nstarted, fx->n);
		assert_int_equal(fx->nparts, 3 * fx->n);
		for (size_t i = 0; i < fx->nparts; i++)
			assert_int_equal(fx->parts[i].unit, i / 3);
		assert_normal_units(fx, SIZE_MAX);
		/* one big part in the middle of each unit */
		reset(fx);
		fx->n = 3;
		fx->big = true;
		fx->nap_ms[0] = 100;
		assert_int_equal(run_pool(fx, jobs[j]), 0);
		for (size_t u = 0; u < fx->n; u++) {
			char *want = pc_xasprintf("u%zu p0|BIG|u%zu p2", u, u);

			assert_parts(fx, u, want);
			free(want);
		}
		assert_true(fx->big_ok);
	}
}

/* Units are handed to whichever worker is idle: unit 0 waits for a file
 * that unit 5 creates, so units 1..5 must all run on the other worker
 * (with a fixed striping, unit 2 would wait behind unit 0 for ever). */
static void units_handed_out_on_demand(void **state)
{
	struct fx *fx = *state;

	fx->n = 6;
	fx->kind[0] = U_WAIT_FILE;
	for (size_t u = 1; u < 5; u++)
		fx->kind[u] = U_PARTS;
	fx->kind[5] = U_TOUCH;
	assert_int_equal(run_pool(fx, 2), 0);
	assert_parts(fx, 0, "u0 found");
	assert_parts(fx, 5, "u5 touched");
	for (size_t u = 2; u < 6; u++)
		assert_int_equal(worker_of(fx, u), worker_of(fx, 1));
	assert_int_not_equal(worker_of(fx, 0), worker_of(fx, 1));
	assert_int_equal(fx->nevs, 0);
}

/* A plugin walking up from its parent meets its worker and then init (or
 * a subreaper above us), never this process: the double fork. */
static void workers_are_out_of_a_plugins_reach(void **state)
{
	struct fx *fx = *state;
	char me[32], *text;
	long worker;

	fx->n = 1;
	fx->kind[0] = U_ANCESTORS;
	assert_int_equal(run_pool(fx, 1), 0);
	assert_int_equal(fx->nparts, 1);
	text = fx->parts[0].text;
	worker = worker_of(fx, 0);
	assert_true(worker > 0);
	/* "u0 ancestors <worker> ... pid=<worker>" */
	assert_int_equal(strtol(text + strlen("u0 ancestors "), NULL, 10),
			 worker);
	snprintf(me, sizeof(me), " %ld ", (long)getpid());
	if (strstr(text, me))
		fail_msg("a plugin reaches us: '%s' (we are %ld)", text,
			 (long)getpid());
	/* the worker's parent is not us either */
	assert_int_not_equal(
		strtol(strchr(text + strlen("u0 ancestors "), ' '), NULL, 10),
		getpid());
}

/* `kill -9 $PPID` in a unit's plugin: the worker vanishes without a word
 * (PC_POOL_KILLED), the unit keeps what it sent, the other units run,
 * and the plugin (still sleeping) is killed. */
static void plugin_sigkills_its_worker(void **state)
{
	struct fx *fx = *state;
	long plugin;

	fx->n = 5;
	fx->kind[2] = U_KILL;
	fx->arg[2] = SIGKILL;
	assert_int_equal(run_pool(fx, 2), 0);
	assert_normal_units(fx, 2);
	assert_parts(fx, 2, "u2 before");
	assert_one_event(fx, 2, PC_POOL_KILLED);
	plugin = read_pid(fx, 2);
	assert_true(plugin > 0);
	assert_true(pid_vanishes(plugin));
	assert_true(pid_vanishes(worker_of(fx, 2)));
}

/* `kill -TERM $PPID` (or another catchable signal): the worker dies of
 * it as the host would, after saying which signal and who sent it. */
static void plugin_signals_its_worker(void **state)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGUSR1 };
	struct fx *fx = *state;
	const struct pc_pool_event *ev;

	for (size_t s = 0; s < sizeof(sigs) / sizeof(*sigs); s++) {
		reset(fx);
		fx->n = 4;
		fx->kind[1] = U_KILL;
		fx->arg[1] = sigs[s];
		assert_int_equal(run_pool(fx, 2), 0);
		assert_normal_units(fx, 1);
		assert_parts(fx, 1, "u1 before");
		ev = assert_one_event(fx, 1, PC_POOL_SIGNALLED);
		assert_int_equal(ev->signo, sigs[s]);
		assert_int_equal(ev->sender, read_pid(fx, 1));
		assert_true(pid_vanishes(read_pid(fx, 1)));
	}
}

/* `kill -STOP $PPID`: the parent finds the worker stopped, resumes it
 * and says so once (PC_POOL_STOPPED); the unit completes. */
static void plugin_stops_its_worker(void **state)
{
	struct fx *fx = *state;

	fx->n = 3;
	fx->kind[1] = U_STOP;
	assert_int_equal(run_pool(fx, 2), 0);
	assert_normal_units(fx, 1);
	assert_parts(fx, 1, "u1 before|u1 after exited");
	assert_int_equal(assert_one_event(fx, 1, PC_POOL_STOPPED)->signo,
			 SIGSTOP);
}

/* Both plugin pids of unit `u`'s pid file vanish (within 10 s). */
static bool escape_pids(const struct fx *fx, size_t u, long pids[2])
{
	char *path = pid_path(fx, u);
	char buf[64];
	size_t len;
	bool ok = tu_read_small(path, buf, sizeof(buf), &len) &&
		  sscanf(buf, "%ld %ld", &pids[0], &pids[1]) == 2;

	free(path);
	return ok;
}

/* The CLI's interrupt handler sets the stop flag and calls
 * pc_pool_kill_all(): the plugins' process groups die at once and every
 * worker is told to stop (SIGUSR2 from the pool's process); each running
 * worker then finishes its unit - its firing ended when its plugin was
 * killed, and pc_proc swept what the plugin left in sessions of its own
 * (setsid escapees, out of every process group pc_pool knows) - so the
 * run ends well before the plugins' own 60 s, the running units come back
 * with what they saw, and the waiting one never starts
 * (PC_POOL_INTERRUPTED, not started). */
static void interrupt_kills_plugins_and_their_escapees(void **state)
{
	struct fx *fx = *state;
	int64_t t0 = pc_time_now_ms();
	long pids[2][2];

	fx->n = 4;
	fx->kind[0] = U_WAIT_MARKED; /* merged first: units merge in order */
	fx->arg[0] = 4;		     /* two plugins, two escapees */
	fx->kind[1] = U_ESCAPE;
	fx->kind[2] = U_ESCAPE;
	fx->stop_at_merge = 0;
	fx->kill_all_at_merge = 0;
	assert_int_equal(run_pool(fx, 3), 0);
	assert_true(pc_time_now_ms() - t0 < HANG_MS / 2);
	assert_parts(fx, 0, "u0 saw 4");
	assert_true(fx->kill_all_cleared);
	assert_parts(fx, 1, "u1 after exited");
	assert_parts(fx, 2, "u2 after exited");
	assert_int_equal(fx->nevs, 1);
	assert_int_equal(fx->evs[0].unit, 3);
	assert_int_equal(fx->evs[0].ev.kind, PC_POOL_INTERRUPTED);
	assert_false(fx->evs[0].ev.started);
	for (size_t u = 1; u <= 2; u++) {
		assert_true(escape_pids(fx, u, pids[u - 1]));
		assert_true(pid_vanishes(pids[u - 1][0]));
		assert_true(pid_vanishes(pids[u - 1][1]));
	}
	pc_pool_kill_all(); /* no pool runs: nothing to do */
}

/* The stop flag alone (no pc_pool_kill_all): the running units are cut
 * short, their plugins and what those left killed, the unstarted ones
 * never start; each is PC_POOL_INTERRUPTED, started or not. */
static void stop_flag_interrupts_running_and_unstarted(void **state)
{
	struct fx *fx = *state;
	int64_t t0 = pc_time_now_ms();

	fx->n = 6;
	fx->kind[0] = U_WAIT_MARKED;
	fx->arg[0] = 4;
	for (size_t u = 1; u < fx->n; u++)
		fx->kind[u] = U_ESCAPE;
	fx->stop_at_merge = 0;
	assert_int_equal(run_pool(fx, 3), 0);
	assert_true(pc_time_now_ms() - t0 < HANG_MS / 2);
	assert_parts(fx, 0, "u0 saw 4");
	assert_int_equal(fx->nstarted, 3);
	assert_interrupted(fx, 1, 2);
}

/* A worker whose worker_init fails runs no unit: every unit is
 * PC_POOL_FAILED, not blamed on a plugin as a killed worker
 * (PC_POOL_KILLED) would be, and the run reports that no worker could
 * start. */
static void failed_worker_init_is_failed(void **state)
{
	static const struct pc_pool_ops ops = { .worker_init = worker_init,
						.run = run_unit,
						.merge = merge,
						.event = event };
	struct fx *fx = *state;
	struct pc_pool_opts o = {
		.jobs = 2, .nunits = 3, .ops = &ops, .ctx = fx
	};
	struct pc_err err = PC_ERR_INIT;

	fx->n = 3;
	fx->init_fails = true;
	assert_int_equal(pc_pool_run(&o, &err), PC_EIO);
	assert_non_null(strstr(err.msg, "cannot start a worker process"));
	assert_int_equal(tu_count_children(), 0);
	assert_int_equal(fx->nparts, 0);
	assert_int_equal(fx->nevs, fx->n);
	for (size_t i = 0; i < fx->nevs; i++) {
		assert_int_equal(fx->evs[i].unit, i);
		assert_int_equal(fx->evs[i].ev.kind, PC_POOL_FAILED);
	}
}

static void no_units_no_workers(void **state)
{
	struct fx *fx = *state;

	fx->n = 0;
	assert_int_equal(run_pool(fx, 4), 0);
	assert_int_equal(fx->nstarted, 0);
	assert_int_equal(fx->nevs, 0);
}

/* pc_proc makes its caller a child subreaper on its first run, so that a
 * plugin's double-fork escapees re-parent to it and are swept; the pool
 * turns that off while it forks its workers and must turn it back on: a
 * plugin fired after a pool in the same process is swept as before. */
static void pool_keeps_the_callers_subreaper(void **state)
{
	struct fx *fx = *state;
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(1 << 16, 1 << 16);
	struct pc_err err = PC_ERR_INIT;
	char *pidfile = pc_fs_join(fx->tmp, "escapee");
	int on = -1;
	long pid = 0;
	char buf[32];
	size_t len;

	pc_strvec_push(&o.argv, FAKE_PLUGIN);
	pc_strvec_push(&o.argv, "bg-detached");
	pc_strvec_push(&o.argv, pidfile);
	pc_strvec_push(&o.env, "PATH=/usr/bin:/bin");
	pc_strvec_push(&o.env, fx->marker);
	o.timeout_ms = 10000;
	/* a first run makes us a subreaper */
	assert_int_equal(pc_proc_run(&o, &r, &err), 0);
	pc_proc_result_release(&r);
	assert_true(marked_vanish(fx->marker));
	assert_int_equal(prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0), 0);
	assert_int_equal(on, 1);
	fx->n = 2;
	assert_int_equal(run_pool(fx, 2), 0);
	assert_int_equal(prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0), 0);
	assert_int_equal(on, 1);
	/* and the sweep after a pool still finds a setsid escapee */
	unlink(pidfile);
	r = (struct pc_proc_result)PC_PROC_RESULT_INIT(1 << 16, 1 << 16);
	assert_int_equal(pc_proc_run(&o, &r, &err), 0);
	if (tu_read_small(pidfile, buf, sizeof(buf), &len))
		pid = strtol(buf, NULL, 10);
	assert_true(pid > 0);
	if (!pid_vanishes(pid)) {
		kill((pid_t)pid, SIGKILL); /* leave nothing behind */
		fail_msg("the escapee %ld of a plugin fired after a pool "
			 "was not swept",
			 pid);
	}
	assert_true(r.leftover_processes >= 1);
	pc_proc_result_release(&r);
	pc_proc_opts_release(&o);
	free(pidfile);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			merged_in_unit_order_whatever_finishes_first, setup,
			teardown),
		cmocka_unit_test_setup_teardown(units_handed_out_on_demand,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			workers_are_out_of_a_plugins_reach, setup, teardown),
		cmocka_unit_test_setup_teardown(plugin_sigkills_its_worker,
						setup, teardown),
		cmocka_unit_test_setup_teardown(plugin_signals_its_worker,
						setup, teardown),
		cmocka_unit_test_setup_teardown(plugin_stops_its_worker, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			interrupt_kills_plugins_and_their_escapees, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			stop_flag_interrupts_running_and_unstarted, setup,
			teardown),
		cmocka_unit_test_setup_teardown(failed_worker_init_is_failed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(no_units_no_workers, setup,
						teardown),
		/* last: it leaves this process a subreaper */
		cmocka_unit_test_setup_teardown(
			pool_keeps_the_callers_subreaper, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

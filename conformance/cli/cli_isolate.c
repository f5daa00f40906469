/* cli_isolate.c - run a command's exchanges in a worker process out of a
 * plugin's reach (pc_cli_isolated, pc_cli.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_pool.h"

struct isolated {
	const char *what;
	const char *dir; /* the worker's own temporary directories go here */
	int (*body)(void *ctx);
	void *ctx;
	int rc;	     /* the body's exit code, once the worker sent it */
	bool got_rc;
	bool stopped; /* a plugin stopped the worker (resumed) */
};

/* worker_init - plugcheck's own temporary directories of the worker go
 * into is->dir, which the pool removes, with every process whose
 * environment names it (a throwaway HOME inside it), when the worker
 * ends however it ends. */
static int worker_init(void *ctx, struct pc_pool_worker *w)
{
	struct isolated *is = ctx;

	if (is->dir) {
		pc_fs_set_tmp_root(is->dir);
		pc_pool_mark(w, is->dir);
	}
	return 0;
}

static void run(void *ctx, struct pc_pool_worker *w, size_t unit)
{
	struct isolated *is = ctx;
	int32_t rc;

	(void)unit;
	rc = is->body(is->ctx);
	/* what the body printed reaches the terminal before the parent
	 * goes on; a failed write is the body's failure */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		rc = pc_cli_stdout_failed(errno);
	}
	fflush(stderr);
	pc_pool_send(w, (const char *)&rc, sizeof(rc));
}

static void merge(void *ctx, size_t unit, const char *part, size_t len)
{
	struct isolated *is = ctx;
	int32_t rc;

	(void)unit;
	if (len != sizeof(rc))
		return;
	memcpy(&rc, part, sizeof(rc));
	is->rc = rc;
	is->got_rc = true;
}

static void event(void *ctx, size_t unit, const struct pc_pool_event *ev)
{
	struct isolated *is = ctx;

	(void)unit;
	switch (ev->kind) {
	case PC_POOL_STOPPED:
		fprintf(stderr,
			"plugcheck: %s: a plugin process stopped its parent (as with `kill -STOP $PPID`): the real host would freeze there; plugcheck resumed it\n",
			is->what);
		is->stopped = true;
		break;
	case PC_POOL_SIGNALLED:
		fprintf(stderr,
			"plugcheck: %s: a plugin process sent SIG%s to its parent (pid %d sent it): the real host would die there; the exchange was cut short\n",
			is->what,
			sigabbrev_np(ev->signo) ? sigabbrev_np(ev->signo) : "?",
			ev->sender);
		is->got_rc = false;
		break;
	case PC_POOL_KILLED:
		fprintf(stderr,
			"plugcheck: %s: the process running the plugin was killed (as with `kill -9 $PPID`): the real host would die there; the exchange was cut short\n",
			is->what);
		is->got_rc = false;
		break;
	case PC_POOL_FAILED:
		fprintf(stderr,
			"plugcheck: %s: cannot start the worker process that runs the plugin\n",
			is->what);
		is->got_rc = false;
		break;
	case PC_POOL_INTERRUPTED:
		break;
	}
}

int pc_cli_isolated(const char *what, int (*body)(void *ctx), void *ctx)
{
	static const struct pc_pool_ops ops = { .worker_init = worker_init,
						.run = run,
						.merge = merge,
						.event = event };
	char *dir = pc_fs_mkdtemp("worker");
	struct isolated is = { what, dir, body, ctx, PC_EXIT_INTERNAL, false,
			       false };
	struct pc_pool_opts o = { .jobs = 1,
				  .nunits = 1,
				  .ops = &ops,
				  .ctx = &is,
				  .stop = pc_cli_stop_flag() };
	struct pc_err err = PC_ERR_INIT;

	int rc;

	fflush(stdout); /* a worker must not print the parent's buffer again */
	fflush(stderr);
	rc = pc_pool_run(&o, &err);
	if (dir) {
		pc_fs_rm_rf(dir);
		free(dir);
	}
	if (rc && !is.got_rc) {
		fprintf(stderr, "plugcheck: %s: %s\n", what, err.msg);
		return PC_EXIT_INTERNAL;
	}
	if (!is.got_rc)
		return PC_EXIT_INTERNAL;
	/* the real host would have frozen: not a clean exchange */
	return is.stopped && is.rc == PC_EXIT_OK ? PC_EXIT_FINDINGS : is.rc;
}

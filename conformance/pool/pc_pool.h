/* pc_pool.h - the one worker pool: units of work (a hook point, a tool, a
 * scenario...) run in worker processes, handed out on demand, their
 * results merged in the parent strictly in unit order. `check -j N` and
 * `run -j N` use it, N = 1 included.
 *
 * Why processes, even for one worker: the process that owns the report
 * must be out of a plugin's reach. A plugin that runs `kill -9 $PPID`,
 * `kill -STOP $PPID` or walks up its parents from /proc finds its worker
 * and what is above the worker, never the parent that holds the report:
 * every worker is started by a double fork, so its parent is init (or a
 * subreaper above plugcheck), not plugcheck. What the plugin did to its
 * worker becomes an event of the unit (pc_pool_event), the worker is
 * replaced, the other units run, and the report is written.
 *
 * Protocol:
 *   1. fill struct pc_pool_ops with the callbacks and call pc_pool_run();
 *   2. in each worker, worker_init() runs once, then run() for each unit
 *      handed to it; run() reports its result as parts (pc_pool_send),
 *      each merged separately so that a worker that dies keeps what it
 *      sent, and says what it is doing (pc_pool_note) so that a death can
 *      be blamed on the firing in progress;
 *   3. in the parent, for unit 0, 1, 2, ... in order: merge() per part,
 *      then event() if the unit ended otherwise than by finishing.
 *
 * Nothing here prints. Workers never return from fork: they _exit().
 * The caller's SIGCHLD must not be ignored (the parent reaps the first
 * fork of every worker). While pc_pool_run() runs the parent spawns no
 * plugin process itself.
 */
#ifndef PC_POOL_H
#define PC_POOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "pc_err.h"

struct pc_pool_worker;

enum pc_pool_event_kind {
	/* the worker stopped (SIGSTOP/SIGTSTP...) and was resumed with
	 * SIGCONT; the unit went on */
	PC_POOL_STOPPED,
	/* the worker got a catchable signal from another process (signo,
	 * sender) and died of it, as a host would; the unit is over */
	PC_POOL_SIGNALLED,
	/* the worker vanished without a word: SIGKILL, or a crash; the unit
	 * is over */
	PC_POOL_KILLED,
	/* the worker could not be started, or sent a malformed message */
	PC_POOL_FAILED,
	/* the run was stopped (pc_pool_opts.stop): the unit was cut short or
	 * never started (started false) */
	PC_POOL_INTERRUPTED,
};

struct pc_pool_event {
	enum pc_pool_event_kind kind;
	int signo;	   /* PC_POOL_SIGNALLED, PC_POOL_STOPPED: the signal */
	int sender;	   /* PC_POOL_SIGNALLED: the sending pid, or 0 */
	const char *label; /* the last pc_pool_note() of the unit, or NULL */
	bool started;	   /* the unit had started */
};

struct pc_pool_ops {
	/* worker_init - in a new worker, before it is handed a unit;
	 * non-zero makes the worker exit: it counts as one that could not
	 * be started (when none can, every unit is PC_POOL_FAILED). May be
	 * NULL. */
	int (*worker_init)(void *ctx, struct pc_pool_worker *w);
	/* run - in a worker: do unit `unit`, sending its result with
	 * pc_pool_send(). */
	void (*run)(void *ctx, struct pc_pool_worker *w, size_t unit);
	/* started - in the parent when unit `unit` is handed out (for a
	 * progress line). May be NULL. */
	void (*started)(void *ctx, size_t unit);
	/* merge - in the parent, in unit order: one part of unit `unit`
	 * (`len` bytes, borrowed for the call). */
	void (*merge)(void *ctx, size_t unit, const char *part, size_t len);
	/* event - in the parent, in unit order, after the unit's parts, when
	 * something happened to it (see enum pc_pool_event_kind). */
	void (*event)(void *ctx, size_t unit, const struct pc_pool_event *ev);
};

struct pc_pool_opts {
	unsigned jobs;	/* worker processes at once (0 is 1) */
	size_t nunits;
	const struct pc_pool_ops *ops;
	void *ctx;	/* passed to every callback; in workers, the copy of
			   the parent's memory at the fork */
	/* NULL, or a flag a signal handler sets (README "Ctrl-C"): no unit
	 * starts after it is set; running ones are cut short (their workers
	 * and plugin trees are killed) and reported PC_POOL_INTERRUPTED. */
	volatile sig_atomic_t *stop;
	/* NULL, or a directory every plugin process of the run has in its
	 * environment (its throwaway HOME or TMPDIR is inside it): what a
	 * dead worker's plugins left - re-parented to init, in sessions of
	 * their own - is found by it and killed. */
	const char *marker;
};

/* pc_pool_run - run o->nunits units in up to o->jobs workers (never more
 * than there are units). Blocks until every unit is merged or reported;
 * every worker, every process of a live worker's tree (what its plugins
 * left, setsid escapees included), of a dead worker's announced plugins'
 * groups and sessions, and every process its mark (pc_pool_mark) or
 * o->marker finds is killed before it returns, and the workers are gone
 * (reaped by init). The caller's child-subreaper setting is off while it
 * runs (so that workers re-parent to init) and restored after. Returns
 * 0, or PC_EIO when no worker could be started at all (err set; every
 * unit was reported PC_POOL_FAILED). */
int pc_pool_run(const struct pc_pool_opts *o, struct pc_err *err);

/* pc_pool_send - in a worker: one part of the current unit's result
 * (`len` bytes, copied). Blocks while the parent reads. */
void pc_pool_send(struct pc_pool_worker *w, const char *part, size_t len);
/* pc_pool_note - in a worker: what the current unit does now (a short
 * label, e.g. the firing's case name), named if the worker dies. */
void pc_pool_note(struct pc_pool_worker *w, const char *label);

/* pc_pool_mark - in a worker: every plugin process of this worker has a
 * value starting with `prefix` in its environment (its HOME); when the
 * worker ends, the parent kills every process so marked, and removes
 * `prefix` when it is a directory (the worker's own temporary one). */
void pc_pool_mark(struct pc_pool_worker *w, const char *prefix);

/* pc_pool_kill_all - for the CLI's interrupt handler: SIGKILL the process
 * groups of the plugins the workers announced, and tell every worker to
 * stop (SIGUSR2 from the pool's process: the worker sets its copy of the
 * stop flag, finishes its unit - the firing in progress ends at once -
 * and sweeps what the plugin left while it still can). Units cut short
 * come back with their "interrupted" cases; a worker that has not
 * answered within 10 s is killed. Async-signal-safe; a no-op when no
 * pool runs. */
void pc_pool_kill_all(void);

#endif

/* pc_suite_jobs.c - `plugcheck check -j N`: the firing steps in N worker
 * processes, merged into the report in the order -j 1 gives.
 *
 * The work is cut into units whose firings depend on each other only
 * within the unit: one hook point (realistic input, latency, probes), one
 * tool, one command, the memory round trip, the OAuth actions. N workers
 * are forked once; the parent hands each idle worker the next unit's
 * index over a socket pair. A worker runs the unit with its own temporary
 * HOME, workspace and TMPDIR (the same layout as the run's own, emptied at
 * the start of every unit by pc__suite_fresh_dirs, as the sequential run
 * empties its own), records its cases and findings in a report of its
 * own and answers with the index and that report, serialized. The
 * parent merges finished units strictly in unit order, applying the same
 * once-per-(id, where) rule for findings that pc__suite_find applies, so
 * cases, findings and their order are those of the sequential run; only
 * times (and temporary paths) differ.
 *
 * Why not a fork per unit: on the paravirtualised 2-vCPU machines of
 * docs/performance.md a fork of plugcheck costs about 100 page faults and
 * 6 ms of CPU, a fifth of what a trivial unit costs, and that alone made
 * `-j 2` slower than `-j 1` (issue 9). A worker is like the sequential
 * run's single process: process-wide caches (the python3 probe, R5.2)
 * live once per worker.
 *
 * A worker that dies (a crash, Ctrl-C) loses only the unit it was running:
 * that unit becomes an internal failure case, and a fresh worker takes
 * the units left unless the run was stopped.
 *
 * Processes: plugcheck becomes a child subreaper here, so the plugins of
 * a worker killed by Ctrl-C re-parent to it; once every worker is gone it
 * kills whatever is still its child (and its process group).
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <dirent.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

enum unit_kind {
	U_HOOK,
	U_TOOL,
	U_TOOLS_SKIPPED, /* no process: done by the parent when merged */
	U_COMMAND,
	U_COMMANDS_SKIPPED,
	U_MEMORY,
	U_OAUTH,
};

enum unit_state { U_WAITING, U_RUNNING, U_DONE, U_MERGED };

struct unit {
	enum unit_kind kind;
	size_t index; /* hook point, tool or command index */
	enum unit_state state;
	int status; /* once U_DONE: 0, or the waitpid status of the worker
		       that died running it */
	struct pc_buf result; /* once U_DONE with status 0: what the worker
				 serialized */
};

struct worker {
	pid_t pid; /* 0: no worker in this slot */
	int fd;	   /* the parent's end of the socket pair, or -1 */
	size_t unit;
	bool busy;
};

/* ---- the result file: a worker's findings, cases and ranges ---- */

#define NO_STR UINT32_MAX

static void put_u32(struct pc_buf *b, uint32_t v)
{
	pc_buf_add(b, &v, sizeof(v));
}

static void put_str(struct pc_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(b, s ? (uint32_t)n : NO_STR);
	pc_buf_add(b, s, n);
}

static void serialize(const struct pc__suite *c, struct pc_buf *b)
{
	const struct pc_findings *f = &c->r->findings;

	pc_buf_addch(b, (char)c->r->incomplete);
	put_u32(b, (uint32_t)f->nr);
	for (size_t i = 0; i < f->nr; i++) {
		put_str(b, f->v[i].rule->id);
		put_str(b, f->v[i].where);
		put_str(b, f->v[i].message);
	}
	put_u32(b, (uint32_t)c->r->ncases);
	for (size_t i = 0; i < c->r->ncases; i++) {
		const struct pc_case *k = &c->r->cases[i];

		put_str(b, k->classname);
		put_str(b, k->name);
		pc_buf_addch(b, (char)k->status);
		put_str(b, k->message);
		put_str(b, k->system_out);
		put_str(b, k->system_err);
		put_str(b, k->rule);
		pc_buf_add(b, &k->time_s, sizeof(k->time_s));
		/* units make one range per case, never a rule range */
		put_u32(b, (uint32_t)c->ranges[i].from);
		put_u32(b, (uint32_t)c->ranges[i].to);
	}
}

struct reader {
	const char *p, *end;
	bool bad;
};

static bool take(struct reader *r, void *out, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

static uint32_t get_u32(struct reader *r)
{
	uint32_t v;

	take(r, &v, sizeof(v));
	return v;
}

/* A malloc'd string, or NULL (a NULL was written, or the file is bad). */
static char *get_str(struct reader *r)
{
	uint32_t n = get_u32(r);
	char *s;

	if (r->bad || n == NO_STR)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	s = pc_xmalloc((size_t)n + 1);
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	return s;
}

static bool has_finding(const struct pc_findings *f, const char *id,
			const char *where)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id) && !strcmp(f->v[i].where, where))
			return true;
	return false;
}

/* Merge one unit's result into the run. A finding the run already has
 * (same id and where) is dropped, as pc__suite_find would have, and the
 * cases' finding ranges are moved to the kept findings' new indexes.
 * Returns false when the file is malformed (nothing half-merged stays
 * wrong: cases already added keep their ranges). */
static bool merge(struct pc__suite *s, const struct pc_buf *file)
{
	struct reader r = { file->data, file->data + file->len, false };
	struct pc_findings *f = &s->r->findings;
	size_t base = f->nr, nf, nc, *kept_before;
	char incomplete = 0;

	take(&r, &incomplete, 1);
	nf = get_u32(&r);
	if (r.bad || nf > file->len)
		return false;
	kept_before = pc_xcalloc(nf + 1, sizeof(*kept_before));
	for (size_t i = 0; i < nf && !r.bad; i++) {
		char *id = get_str(&r), *where = get_str(&r), *msg = get_str(&r);

		kept_before[i + 1] = kept_before[i];
		if (id && where && msg && pc_rule_find(id) &&
		    !has_finding(f, id, where)) {
			pc_findings_add_at(f, id, where, "%s", msg);
			kept_before[i + 1]++;
		} else if (!id || !where || !msg || !pc_rule_find(id)) {
			r.bad = true;
		}
		free(id);
		free(where);
		free(msg);
	}
	nc = r.bad ? 0 : get_u32(&r);
	for (size_t i = 0; i < nc && !r.bad; i++) {
		char *cls = get_str(&r), *name = get_str(&r), *msg, *out;
		char *serr, *rule;
		char status = 0;
		double t = 0;
		uint32_t from, to;
		struct pc_case *k;

		take(&r, &status, 1);
		msg = get_str(&r);
		out = get_str(&r);
		serr = get_str(&r);
		rule = get_str(&r);
		take(&r, &t, sizeof(t));
		from = get_u32(&r);
		to = get_u32(&r);
		if (r.bad || !cls || !name || from > to || to > nf ||
		    status < PC_CASE_PASS || status > PC_CASE_SKIP) {
			r.bad = true;
		} else {
			k = pc_report_add_case(s->r, cls, name,
					       (enum pc_case_status)status, msg,
					       out, t);
			k->system_err = serr;
			k->rule = rule;
			serr = rule = NULL;
			pc__suite_range(s, base + kept_before[from],
					base + kept_before[to], NULL);
		}
		free(cls);
		free(name);
		free(msg);
		free(out);
		free(serr);
		free(rule);
	}
	free(kept_before);
	if (incomplete)
		s->r->incomplete = true;
	return !r.bad;
}

/* ---- workers ---- */

static void run_unit(struct pc__suite *c, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		pc__suite_hook(c, (int)u->index);
		break;
	case U_TOOL:
		pc__suite_tool(c, u->index);
		break;
	case U_COMMAND:
		pc__suite_command(c, u->index);
		break;
	case U_MEMORY:
		pc__suite_memory(c);
		break;
	case U_OAUTH:
		pc__suite_oauth(c);
		break;
	case U_TOOLS_SKIPPED:
	case U_COMMANDS_SKIPPED:
		break;
	}
}

/* Write all of `n` bytes; false when the parent is gone. */
static bool send_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = send(fd, c, n, 0);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

/* A worker (never returns). Its HOME, workspace and TMPDIR are made once
 * (each unit empties them first, pc__suite_fresh_dirs); jobs/<pid>.dir
 * names them for sweep_dirs, since a worker that
 * Ctrl-C kills cannot remove them. Then: read a unit index from `fd`, run
 * the unit into a report of its own, answer with the index, the result's
 * length (uint64_t) and the result; exit 0 at end of input. A worker
 * that was itself interrupted (SIGINT/SIGTERM/SIGHUP/SIGQUIT from a
 * plugin, not from the parent) sends its result, passes SIGTERM on to the
 * parent and exits: the run stops as -j 1 would have. */
static void worker(const struct pc__suite *s, const struct unit *u, int fd)
{
	struct pc_suite_opts o = *s->o;
	struct pc__suite c = { .o = &o, .p = s->p, .env = PC_STRVEC_INIT };
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *where;
	uint32_t i;
	int rc = 0;
	pid_t parent;

	o.progress = NULL; /* the parent shows which units run */
	parent = getppid();
	if (pc__suite_dirs(&c, NULL))
		_exit(1);
	where = pc_xasprintf("%s/jobs/%d.dir", s->tmp, (int)getpid());
	pc_fs_append_line(where, c.tmp, NULL);
	for (;;) {
		struct pc_report r = PC_REPORT_INIT;
		ssize_t n = recv(fd, &i, sizeof(i), MSG_WAITALL);
		uint64_t len;

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(i))
			break;
		r.strict = s->r->strict;
		c.r = &r;
		run_unit(&c, &u[i]);
		pc_buf_reset(&b);
		serialize(&c, &b);
		len = b.len;
		pc_report_release(&r);
		free(c.ranges);
		c.ranges = NULL;
		c.nranges = 0;
		free(c.mem_timeout);
		c.mem_timeout = NULL;
		if (!send_all(fd, &i, sizeof(i)) ||
		    !send_all(fd, &len, sizeof(len)) ||
		    !send_all(fd, b.data, b.len)) {
			rc = 1;
			break;
		}
		/* Interrupted, yet not by the parent (which kills its workers
		 * when it is): a plugin signalled its parent - this worker -
		 * as `kill -TERM $PPID` does. With -j 1 that signal reaches
		 * plugcheck itself and stops the run, so pass it on, after
		 * the result that holds the cut firing. */
		if (o.stop && *o.stop) {
			if (getppid() == parent)
				kill(parent, SIGTERM);
			break;
		}
	}
	pc_fs_rm_rf(c.tmp);
	unlink(where);
	_exit(rc);
}

/* What unit `u` fires, as the progress line and an internal case name it:
 * "hook pre_bash", "tool NAME", "command NAME", "memory", "oauth" (a new
 * string). */
static char *unit_name(const struct pc__suite *s, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		return pc_xasprintf("hook %s",
				    pc_hook_point_name((enum pc_hook_point)u->index));
	case U_TOOL:
		return pc_xasprintf("tool %s", s->p->tools[u->index].name);
	case U_COMMAND:
		return pc_xasprintf("command %s", s->p->commands[u->index].name);
	case U_MEMORY:
		return pc_xstrdup("memory");
	case U_OAUTH:
		return pc_xstrdup("oauth");
	default:
		return pc_xstrdup("skipped entry points");
	}
}

static void progress(struct pc__suite *s, const struct unit *u)
{
	char *name = unit_name(s, u);

	pc__suite_progress(s, "%s", name);
	free(name);
}

/* Fork a worker into slot `w` of `all` (`n` slots). The child closes
 * the other workers' sockets, or a worker would never see end of input.
 * False when the system refuses a socket or a process. */
static bool fork_worker(const struct pc__suite *s, const struct unit *u,
			struct worker *all, unsigned n, struct worker *w)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (unsigned j = 0; j < n; j++)
			if (all[j].fd >= 0)
				close(all[j].fd);
		close(sv[0]);
		worker(s, u, sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return false;
	}
	*w = (struct worker){ .pid = pid, .fd = sv[0] };
	return true;
}

/* Hand unit `i` to the idle worker `w`. MSG_NOSIGNAL: a worker that just
 * died must not take plugcheck with it (its end of file comes next). */
static void hand(struct pc__suite *s, struct unit *u, size_t i,
		 struct worker *w)
{
	uint32_t v = (uint32_t)i;

	progress(s, &u[i]);
	u[i].state = U_RUNNING;
	w->unit = i;
	w->busy = true;
	while (send(w->fd, &v, sizeof(v), MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

static bool recv_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t r = recv(fd, c, n, MSG_WAITALL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		c += r;
		n -= (size_t)r;
	}
	return true;
}

/* Append exactly `n` bytes from `fd` to `b`; false at a short read. */
static bool recv_into(int fd, struct pc_buf *b, size_t n)
{
	char chunk[65536];

	while (n) {
		size_t want = n < sizeof(chunk) ? n : sizeof(chunk);

		if (!recv_all(fd, chunk, want) || pc_buf_add(b, chunk, want))
			return false;
		n -= want;
	}
	return true;
}

/* Worker `w` answered or died: its unit is done with its result, or lost
 * with the status of the dead worker. */
static void answer(struct unit *u, struct worker *w)
{
	struct unit *x = &u[w->unit];
	uint32_t v;
	uint64_t len;
	int st = 0;

	if (recv_all(w->fd, &v, sizeof(v)) && v == w->unit &&
	    recv_all(w->fd, &len, sizeof(len)) && len < PC_BUF_NOCAP) {
		pc_buf_reset(&x->result);
		if (recv_into(w->fd, &x->result, (size_t)len)) {
			x->state = U_DONE;
			x->status = 0;
			w->busy = false;
			return;
		}
	}
	close(w->fd);
	w->fd = -1;
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		st = 1 << 8; /* it left without a whole answer: exit 1 */
	if (w->busy) {
		x->state = U_DONE;
		x->status = st;
	}
	w->busy = false;
}

/* How long the parent waits for an answer before it looks for stopped
 * workers (milliseconds). */
#define RESUME_MS 1000

/* A worker a plugin stopped (`kill -STOP $PPID`, or SIGTSTP sent to it
 * alone) would never answer, and the run would wait for ever: with -j 1
 * plugcheck itself would be stopped, with -j the parent can resume it.
 * WNOWAIT: the stop stays reportable; nothing else waits for it. */
static void resume_if_stopped(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (pid > 0 &&
	    waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == pid && si.si_code == CLD_STOPPED)
		kill(pid, SIGCONT);
}

/* A unit that left no readable result: its worker crashed or was killed. */
static void lost(struct pc__suite *s, const struct unit *u)
{
	char *name, *msg;

	s->r->incomplete = true;
	if (s->o->stop && *s->o->stop)
		return; /* interrupted: the report just stops here */
	/* Named as the progress line names it; the message says what kills
	 * a worker besides a crash: a plugin process that kills its parent. */
	name = unit_name(s, u);
	msg = WIFSIGNALED(u->status)
		      ? pc_xasprintf("plugcheck: the worker process died of signal %d; "
				     "these cases are lost (a plugin process that "
				     "kills its parent, e.g. `kill -9 $PPID`, kills "
				     "the worker)",
				     WTERMSIG(u->status))
		      : pc_xasprintf("plugcheck: the worker process exited %d without a result",
				     WEXITSTATUS(u->status));
	pc_report_add_case(s->r, PC_CASE_INTERNAL, name, PC_CASE_FAIL, msg,
			   NULL, 0.0);
	pc__suite_range(s, s->r->findings.nr, s->r->findings.nr, NULL);
	free(name);
	free(msg);
}

static void merge_unit(struct pc__suite *s, struct unit *u)
{
	u->state = U_MERGED;
	if (u->kind == U_TOOLS_SKIPPED)
		pc__suite_tools_skipped(s);
	else if (u->kind == U_COMMANDS_SKIPPED)
		pc__suite_commands_skipped(s);
	else if (u->status || !merge(s, &u->result))
		lost(s, u);
	pc_buf_release(&u->result);
}

/* Remove the temporary directories of workers killed before they could
 * (each named in jobs/<pid>.dir; a worker that ends removes its own). */
static void sweep_dirs(const char *jobs)
{
	DIR *d = opendir(jobs);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *where;

		if (n < 5 || strcmp(e->d_name + n - 4, ".dir"))
			continue;
		where = pc_fs_join(jobs, e->d_name);
		pc_fs_rm_rf_listed(where);
		free(where);
	}
	if (d)
		closedir(d);
}

static size_t make_units(const struct pc__suite *s, struct unit *u)
{
	const struct pc_plugin *p = s->p;
	size_t n = 0;

	for (size_t i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			u[n++] = (struct unit){ .kind = U_HOOK, .index = i };
	for (size_t i = 0; i < p->ntools && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ .kind = U_TOOL, .index = i };
	u[n++] = (struct unit){ .kind = U_TOOLS_SKIPPED, .state = U_DONE };
	for (size_t i = 0; i < p->ncommands && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ .kind = U_COMMAND, .index = i };
	u[n++] = (struct unit){ .kind = U_COMMANDS_SKIPPED, .state = U_DONE };
	if (p->memory)
		u[n++] = (struct unit){ .kind = U_MEMORY };
	if (p->oauth)
		u[n++] = (struct unit){ .kind = U_OAUTH };
	for (size_t i = 0; i < n; i++)
		pc_buf_init(&u[i].result, PC_BUF_NOCAP);
	return n;
}

void pc__suite_parallel(struct pc__suite *s, unsigned jobs)
{
	struct unit *u = pc_xcalloc(PC_HOOK_COUNT + 2 * PC_SUITE_MAX_FIRED + 4,
				    sizeof(*u));
	size_t n = make_units(s, u), next = 0, merged = 0, waiting = 0;
	struct worker *w;
	char *dir = pc_fs_join(s->tmp, "jobs");
	int rc;

	for (size_t i = 0; i < n; i++)
		waiting += u[i].state == U_WAITING;
	if (jobs > waiting)
		jobs = (unsigned)waiting;
	w = pc_xcalloc(jobs + 1, sizeof(*w));
	for (unsigned k = 0; k < jobs; k++)
		w[k].fd = -1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pc_fs_mkdir_p(dir, NULL) < 0)
		jobs = 0; /* cannot work: the report says incomplete */
	for (;;) {
		struct pollfd pf[64];
		unsigned busy = 0, at[64];

		while (merged < n && u[merged].state == U_DONE)
			merge_unit(s, &u[merged++]);
		/* Not pc__suite_stopped(): a lost unit marks the report
		 * incomplete, yet the units left still run. */
		for (unsigned k = 0; k < jobs && !(s->o->stop && *s->o->stop);
		     k++) {
			while (next < n && u[next].state != U_WAITING)
				next++;
			if (next == n)
				break;
			if (!w[k].pid && !fork_worker(s, u, w, jobs, &w[k]))
				continue;
			if (!w[k].busy)
				hand(s, u, next, &w[k]);
		}
		for (unsigned k = 0; k < jobs; k++)
			if (w[k].busy) {
				pf[busy] = (struct pollfd){ .fd = w[k].fd,
							    .events = POLLIN };
				at[busy++] = k;
			}
		if (!busy)
			break;
		rc = poll(pf, busy, RESUME_MS);
		if (rc < 0)
			continue; /* EINTR: Ctrl-C killed the workers */
		if (rc == 0) {
			for (unsigned j = 0; j < busy; j++)
				resume_if_stopped(w[at[j]].pid);
			continue;
		}
		for (unsigned j = 0; j < busy; j++)
			if (pf[j].revents)
				answer(u, &w[at[j]]);
	}
	/* End of input for the idle workers; reap them all. */
	for (unsigned k = 0; k < jobs; k++) {
		if (w[k].fd >= 0)
			close(w[k].fd);
		while (w[k].pid && waitpid(w[k].pid, NULL, 0) < 0 &&
		       errno == EINTR)
			;
	}
	if (merged < n)
		s->r->incomplete = true;
	pc_proc_kill_orphans();
	sweep_dirs(dir);
	pc_fs_rm_rf(dir);
	for (size_t i = 0; i < n; i++)
		pc_buf_release(&u[i].result);
	free(dir);
	free(w);
	free(u);
}

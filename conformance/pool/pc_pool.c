/* pc_pool.c - worker processes started by a double fork, fed one unit at
 * a time over a socket pair, their parts merged in unit order.
 *
 * Wire format, worker to parent (one stream socket): messages of a type
 * byte, a uint32 length and the payload: 'R' ready (payload: the worker's
 * pid), 'P' a part of the current unit, 'N' a note (label), 'S' a plugin
 * spawned (payload: its pid, which is also its process group id), 'M' the
 * environment prefix that marks its plugins (pc_pool_mark; it may come
 * before 'R'), 'D' the unit is done. Parent to worker: a uint32 unit index; end of file tells
 * the worker to exit. A second channel, a pipe written only by the
 * worker's signal handler, carries {signo, sender pid} when the worker
 * dies of a catchable signal (it cannot share the socket: the handler may
 * interrupt a half-written message).
 */
#define _GNU_SOURCE
#include "pc_pool.h"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define MAX_JOBS 64
#define MAX_PLUGINS 8 /* plugin pids remembered per worker */
#define POLL_MS 1000  /* how often stopped workers are looked for */
#define STOP_GRACE_MS 10000 /* how long interrupted workers may take */

/* ---- what pc_pool_kill_all may touch from a signal handler ---- */

static volatile pid_t kill_list[MAX_JOBS * (MAX_PLUGINS + 1)];

static void kill_list_set(unsigned slot, unsigned k, pid_t pid)
{
	kill_list[slot * (MAX_PLUGINS + 1) + k] = pid;
}

void pc_pool_kill_all(void)
{
	for (size_t i = 0; i < sizeof(kill_list) / sizeof(*kill_list); i++) {
		pid_t p = kill_list[i];

		if (p <= 0)
			continue;
		if (i % (MAX_PLUGINS + 1)) {
			kill(-p, SIGKILL); /* a plugin's process group */
			kill(p, SIGKILL);
		} else {
			kill(p, SIGUSR2); /* a worker: stop and sweep */
		}
	}
}

/* ---- the worker side ---- */

struct pc_pool_worker {
	int fd;
};

static int sig_fd = -1;		     /* the worker's end of the signal pipe */
static volatile pid_t cur_plugin;    /* the last plugin spawned */
static struct pc_pool_worker *self; /* for the spawn hook */
static pid_t pool_pid;		     /* the process that runs the pool */
static volatile sig_atomic_t *worker_stop; /* the worker's stop flag */

static bool send_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = send(fd, c, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

static void send_msg(struct pc_pool_worker *w, char type, const void *p,
		     size_t n)
{
	uint32_t len = (uint32_t)n;

	if (!send_all(w->fd, &type, 1) || !send_all(w->fd, &len, sizeof(len)) ||
	    !send_all(w->fd, p, n))
		_exit(1); /* the parent is gone */
}

void pc_pool_send(struct pc_pool_worker *w, const char *part, size_t len)
{
	send_msg(w, 'P', part, len);
}

void pc_pool_note(struct pc_pool_worker *w, const char *label)
{
	send_msg(w, 'N', label, strlen(label));
}

void pc_pool_mark(struct pc_pool_worker *w, const char *prefix)
{
	send_msg(w, 'M', prefix, strlen(prefix));
}

static void on_spawn(void *ctx, int pid)
{
	int32_t v = pid;

	(void)ctx;
	cur_plugin = pid;
	send_msg(self, 'S', &v, sizeof(v));
}

/* A catchable signal from another process (a plugin's `kill -TERM
 * $PPID`): the host would die of it, so the worker does, after saying
 * which signal and who sent it, and after killing the plugin in flight
 * (its own subreaper children then go to init; the parent kills their
 * process groups). */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int32_t msg[2] = { sig, si ? (int32_t)si->si_pid : 0 };
	ssize_t n;

	(void)uc;
	/* the pool's own "stop" (pc_pool_kill_all), or the terminal's
	 * Ctrl-C / hangup (sent by the kernel to plugcheck's process group,
	 * which workers share): end the firing in progress, let pc_proc
	 * sweep, finish the unit as interrupted */
	if (si && (si->si_pid == pool_pid || si->si_code == SI_KERNEL)) {
		if (worker_stop)
			*worker_stop = 1;
		if (cur_plugin > 0)
			kill(-cur_plugin, SIGKILL);
		return;
	}
	n = write(sig_fd, msg, sizeof(msg));
	(void)n;
	if (cur_plugin > 0)
		kill(-cur_plugin, SIGKILL);
	_exit(0);
}

static void worker_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2, SIGALRM };
	struct sigaction sa = { .sa_sigaction = on_signal,
				.sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
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

static void worker_main(const struct pc_pool_opts *o, int fd, int sfd)
{
	struct pc_pool_worker w = { .fd = fd };
	int32_t pid = (int32_t)getpid();
	uint32_t unit;

	self = &w;
	sig_fd = sfd;
	worker_stop = o->stop;
	worker_signals();
	pc_proc_set_spawn_hook(on_spawn, NULL);
	/* ready only once set up: a worker that cannot set itself up is one
	 * the pool could not start (PC_POOL_FAILED when none can), never one
	 * that died with a unit (PC_POOL_KILLED, blamed on the plugin) */
	if (o->ops->worker_init && o->ops->worker_init(o->ctx, &w))
		_exit(2);
	send_msg(&w, 'R', &pid, sizeof(pid));
	while (recv_all(fd, &unit, sizeof(unit))) {
		o->ops->run(o->ctx, &w, unit);
		cur_plugin = 0;
		send_msg(&w, 'D', NULL, 0);
	}
	_exit(0);
}

/* ---- the parent side ---- */

struct part {
	char *data;
	size_t len;
};

enum unit_state { U_WAITING, U_RUNNING, U_DONE };

struct unit {
	enum unit_state state;
	struct part *parts;
	size_t nparts;
	struct pc_pool_event *events;
	size_t nevents;
	char *label;
};

struct slot {
	pid_t pid;	/* 0: empty */
	int fd, sfd;	/* socket and signal pipe, or -1 */
	bool busy;
	size_t unit;
	pid_t plugins[MAX_PLUGINS];
	unsigned nplugins;
	bool stopped;	/* seen stopped and resumed; reported once */
	char *mark;	/* pc_pool_mark's prefix, or NULL */
};

struct pool {
	const struct pc_pool_opts *o;
	struct unit *u;
	struct slot s[MAX_JOBS];
	unsigned jobs;
	size_t next, merged;
	int64_t last_look; /* when stopped workers were last looked for */
};

static void add_event(struct unit *u, const struct pc_pool_event *ev)
{
	u->events = pc_xreallocarray(u->events, u->nevents + 1,
				     sizeof(*u->events));
	u->events[u->nevents] = *ev;
	/* a copy: a resumed worker's next note replaces u->label */
	u->events[u->nevents].label = u->label ? pc_xstrdup(u->label) : NULL;
	u->nevents++;
}

/* Start a worker in slot `k` by a double fork; false when the system
 * refuses. The middle process exits at once, so the worker's parent is
 * init (or a subreaper above plugcheck), never plugcheck. */
static bool start(struct pool *p, unsigned k)
{
	struct slot *s = &p->s[k];
	int sv[2], sp[2], st;
	pid_t mid;
	char type = 0, *mark = NULL;
	uint32_t len;
	int32_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	if (pipe2(sp, O_CLOEXEC) < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	fflush(NULL);
	mid = fork();
	if (mid == 0) {
		for (unsigned j = 0; j < p->jobs; j++) {
			if (p->s[j].fd >= 0)
				close(p->s[j].fd);
			if (p->s[j].sfd >= 0)
				close(p->s[j].sfd);
		}
		close(sv[0]);
		close(sp[0]);
		if (fork() == 0)
			worker_main(p->o, sv[1], sp[1]);
		_exit(0);
	}
	close(sv[1]);
	close(sp[1]);
	while (mid > 0 && waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	/* the worker's setup may mark its plugins ('M') before it is ready */
	while (mid > 0 && recv_all(sv[0], &type, 1) && type == 'M' &&
	       recv_all(sv[0], &len, sizeof(len)) && len < 65536) {
		free(mark);
		mark = pc_xmalloc((size_t)len + 1);
		if (!recv_all(sv[0], mark, len))
			break;
		mark[len] = 0;
	}
	if (mid < 0 || type != 'R' || !recv_all(sv[0], &len, sizeof(len)) ||
	    len != sizeof(pid) || !recv_all(sv[0], &pid, sizeof(pid)) ||
	    pid <= 0) {
		close(sv[0]);
		close(sp[0]);
		if (mark && pc_fs_is_dir(mark))
			pc_fs_rm_rf(mark);
		free(mark);
		return false;
	}
	*s = (struct slot){ .pid = pid, .fd = sv[0], .sfd = sp[0], .mark = mark };
	kill_list_set(k, 0, pid);
	return true;
}

static void forget_plugins(struct slot *s, unsigned k)
{
	for (unsigned i = 0; i < MAX_PLUGINS; i++)
		kill_list_set(k, i + 1, 0);
	s->nplugins = 0;
}

/* Does process `pid`'s environment hold a value starting with `marker`
 * (its HOME or TMPDIR inside the run's directory)? */
static bool marked(long pid, const char *marker)
{
	char path[64], buf[65536];
	size_t m = strlen(marker);
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < r;) {
		const char *eq = memchr(buf + i, '=', (size_t)(r - i));
		size_t len = strnlen(buf + i, (size_t)(r - i));

		if (eq && (size_t)(eq - (buf + i)) < len &&
		    (size_t)(buf + i + len - eq - 1) >= m &&
		    !strncmp(eq + 1, marker, m))
			return true;
		i += (ssize_t)len + 1;
	}
	return false;
}

/* Kill every process (not this one) whose environment carries `marker`:
 * plugin processes that outlived their worker. Rounds until none is left
 * (at most 100). */
static void kill_marked(const char *marker)
{
	for (int round = 0; marker && round < 100; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int found = 0;

		if (!d)
			return;
		while ((e = readdir(d))) {
			long pid = strtol(e->d_name, NULL, 10);

			if (pid > 1 && pid != (long)getpid() && marked(pid, marker)) {
				kill((pid_t)pid, SIGKILL);
				found++;
			}
		}
		closedir(d);
		if (!found)
			return;
		usleep(1000);
	}
}

/* One process as /proc/PID/stat shows it. */
struct ps {
	pid_t pid, ppid;
	int pgrp, sid;
	char state; /* 'R', 'S', 'T', 'Z', ... */
};

/* read_stat - /proc/PID/stat of `pid` into *p; false when there is none
 * (the workers are not our children: no waitpid). The command name may
 * hold spaces and ')': the fields are read after its last ')'. */
static bool read_stat(long pid, struct ps *p)
{
	char path[64], buf[512], *cp;
	int ppid = 0, pgrp = 0, sid = 0, fd;
	char st = 0;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = 0;
	cp = strrchr(buf, ')');
	if (!cp || sscanf(cp + 1, " %c %d %d %d", &st, &ppid, &pgrp, &sid) != 4)
		return false;
	*p = (struct ps){ (pid_t)pid, (pid_t)ppid, pgrp, sid, st };
	return true;
}

/* Every process on the machine (a new array, caller frees; *n its
 * length), or NULL without /proc. */
static struct ps *scan_procs(size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct ps *v = NULL, p;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10);

		if (pid <= 0 || !read_stat(pid, &p))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = pc_xreallocarray(v, cap, sizeof(*v));
		}
		v[(*n)++] = p;
	}
	closedir(d);
	return v;
}

/* Kill every process in one of the sessions or process groups `pids`
 * lead (a dead worker's plugins were re-parented to init). */
static void kill_orphans(const pid_t *pids, unsigned n)
{
	struct ps *v;
	size_t nv;

	for (unsigned i = 0; i < n; i++)
		kill(-pids[i], SIGKILL);
	if (!n || !(v = scan_procs(&nv)))
		return;
	for (size_t k = 0; k < nv; k++)
		for (unsigned i = 0; i < n; i++)
			if (v[k].pgrp == pids[i] || v[k].sid == pids[i])
				kill(v[k].pid, SIGKILL);
	free(v);
}

/* The state letter of process `pid`, or 0 when there is none. */
static char proc_state(pid_t pid)
{
	struct ps p;

	return read_stat(pid, &p) ? p.state : 0;
}

static bool member(const pid_t *set, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

/* Kill every live descendant of the live worker `pid`, in rounds until
 * one finds none (at most 100: a fork storm cannot hold the pool). A
 * worker is a child subreaper (pc_proc makes it one), so while it lives
 * everything its plugins started - setsid escapees included, which no
 * process group or session of theirs holds - is in its tree. */
static void kill_tree(pid_t pid)
{
	for (int round = 0; round < 100; round++) {
		size_t nv, nt = 1, live = 0, added;
		struct ps *v = scan_procs(&nv);
		pid_t *tree = pc_xcalloc(nv + 1, sizeof(*tree));

		tree[0] = pid;
		do {
			added = 0;
			for (size_t j = 0; j < nv; j++) {
				if (member(tree, nt, v[j].pid) ||
				    !member(tree, nt, v[j].ppid))
					continue;
				tree[nt++] = v[j].pid;
				added++;
				if (v[j].state != 'Z') {
					kill(v[j].pid, SIGKILL);
					live++;
				}
			}
		} while (added);
		free(tree);
		free(v);
		if (!live)
			return;
	}
}

/* Wait until `pid`, not plugcheck's child, has exited and been reaped by
 * its parent (init), at most about 3 s: no process may outlive the run. */
static void wait_gone(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };

		poll(&pf, 1, 2000);
		close(fd);
	}
	for (int i = 0; i < 200 && kill(pid, 0) == 0; i++)
		usleep(5000);
}

/* The worker in slot `k` is gone (or must go): kill it and what it left,
 * and end its unit with `ev`. */
static void bury(struct pool *p, unsigned k, struct pc_pool_event *ev)
{
	struct slot *s = &p->s[k];

	/* a live worker (stopped: it starts nothing more) still holds what
	 * its plugins left; a dead one's went to init (kill_marked below) */
	if (proc_state(s->pid) && proc_state(s->pid) != 'Z') {
		kill(s->pid, SIGSTOP);
		kill_tree(s->pid);
	}
	kill(s->pid, SIGKILL);
	wait_gone(s->pid);
	kill_orphans(s->plugins, s->nplugins);
	kill_marked(s->mark);
	if (s->mark && pc_fs_is_dir(s->mark))
		pc_fs_rm_rf(s->mark); /* the worker's own directory */
	free(s->mark);
	forget_plugins(s, k);
	kill_list_set(k, 0, 0);
	close(s->fd);
	close(s->sfd);
	if (s->busy) {
		ev->started = true;
		add_event(&p->u[s->unit], ev);
		p->u[s->unit].state = U_DONE;
	}
	*s = (struct slot){ .fd = -1, .sfd = -1 };
}

/* Why the worker in slot `k` vanished: its signal pipe tells a catchable
 * signal; silence is SIGKILL or a crash. */
static void died(struct pool *p, unsigned k)
{
	struct pc_pool_event ev = { .kind = PC_POOL_KILLED };
	int32_t msg[2];
	struct pollfd pf = { .fd = p->s[k].sfd, .events = POLLIN };

	if (p->o->stop && *p->o->stop)
		ev.kind = PC_POOL_INTERRUPTED;
	else if (poll(&pf, 1, 100) == 1 &&
		 read(p->s[k].sfd, msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
		ev.kind = PC_POOL_SIGNALLED;
		ev.signo = msg[0];
		ev.sender = msg[1];
	}
	bury(p, k, &ev);
}

/* One message from the worker in slot `k`. */
static void message(struct pool *p, unsigned k)
{
	struct slot *s = &p->s[k];
	struct unit *u = &p->u[s->unit];
	char type;
	uint32_t len;
	char *data = NULL;

	if (!recv_all(s->fd, &type, 1) || !recv_all(s->fd, &len, sizeof(len)) ||
	    len > (1u << 30) || !(data = malloc((size_t)len + 1)) ||
	    !recv_all(s->fd, data, len)) {
		free(data);
		died(p, k);
		return;
	}
	data[len] = 0;
	if (type == 'P') {
		u->parts = pc_xreallocarray(u->parts, u->nparts + 1,
					    sizeof(*u->parts));
		u->parts[u->nparts++] = (struct part){ data, len };
		return;
	}
	if (type == 'N') {
		free(u->label);
		u->label = data;
		return;
	}
	if (type == 'M') {
		free(s->mark);
		s->mark = data;
		return;
	}
	if (type == 'S' && len == sizeof(int32_t)) {
		int32_t pid;

		memcpy(&pid, data, sizeof(pid));
		if (s->nplugins == MAX_PLUGINS) {
			memmove(s->plugins, s->plugins + 1,
				(MAX_PLUGINS - 1) * sizeof(*s->plugins));
			s->nplugins--;
		}
		s->plugins[s->nplugins++] = pid;
		for (unsigned i = 0; i < s->nplugins; i++)
			kill_list_set(k, i + 1, s->plugins[i]);
	} else if (type == 'D') {
		u->state = U_DONE;
		s->busy = false;
		forget_plugins(s, k);
	} else {
		struct pc_pool_event ev = { .kind = PC_POOL_FAILED };

		free(data);
		bury(p, k, &ev);
		return;
	}
	free(data);
}

static bool stopped(const struct pool *p)
{
	return p->o->stop && *p->o->stop;
}

static void hand(struct pool *p, unsigned k, size_t i)
{
	uint32_t v = (uint32_t)i;
	struct slot *s = &p->s[k];

	p->u[i].state = U_RUNNING;
	s->busy = true;
	s->unit = i;
	s->stopped = false;
	if (p->o->ops->started)
		p->o->ops->started(p->o->ctx, i);
	if (!send_all(s->fd, &v, sizeof(v)))
		died(p, k);
}

/* A worker a plugin stopped (`kill -STOP $PPID`) would never answer:
 * resume it, and say so once for its unit. The state is read from
 * /proc/PID/stat: the worker is not plugcheck's child. */
static void resume_stopped(struct pool *p, unsigned k)
{
	struct slot *s = &p->s[k];
	char st = proc_state(s->pid);

	if (st != 'T' && st != 't')
		return;
	kill(s->pid, SIGCONT);
	if (!s->stopped && s->busy) {
		struct pc_pool_event ev = { .kind = PC_POOL_STOPPED,
					    .signo = SIGSTOP,
					    .started = true };

		add_event(&p->u[s->unit], &ev);
	}
	s->stopped = true;
}

static void merge_ready(struct pool *p)
{
	while (p->merged < p->o->nunits && p->u[p->merged].state == U_DONE) {
		struct unit *u = &p->u[p->merged];

		for (size_t i = 0; i < u->nparts; i++) {
			p->o->ops->merge(p->o->ctx, p->merged, u->parts[i].data,
					 u->parts[i].len);
			free(u->parts[i].data);
		}
		for (size_t i = 0; i < u->nevents; i++) {
			p->o->ops->event(p->o->ctx, p->merged, &u->events[i]);
			free((char *)u->events[i].label);
		}
		free(u->parts);
		free(u->events);
		free(u->label);
		memset(u, 0, sizeof(*u));
		u->state = U_DONE;
		p->merged++;
	}
}

/* Hand waiting units to idle workers, starting workers as needed. False
 * when a unit is waiting but no worker can be had at all. */
static bool feed(struct pool *p)
{
	for (unsigned k = 0; k < p->jobs && !stopped(p); k++) {
		while (p->next < p->o->nunits &&
		       p->u[p->next].state != U_WAITING)
			p->next++;
		if (p->next == p->o->nunits)
			return true;
		if (!p->s[k].pid && !start(p, k))
			continue;
		if (!p->s[k].busy)
			hand(p, k, p->next);
	}
	for (unsigned k = 0; k < p->jobs; k++)
		if (p->s[k].pid)
			return true;
	return p->next == p->o->nunits || stopped(p);
}

/* Every unit not done: interrupted (running: cut short) or failed. */
static void end_all(struct pool *p, enum pc_pool_event_kind kind)
{
	for (unsigned k = 0; k < p->jobs; k++)
		if (p->s[k].pid) {
			struct pc_pool_event ev = { .kind = kind };

			bury(p, k, &ev);
		}
	for (size_t i = 0; i < p->o->nunits; i++)
		if (p->u[i].state == U_WAITING) {
			struct pc_pool_event ev = { .kind = kind };

			add_event(&p->u[i], &ev);
			p->u[i].state = U_DONE;
		}
}

static void wait_round(struct pool *p)
{
	struct pollfd pf[MAX_JOBS];
	unsigned at[MAX_JOBS], n = 0;
	int rc;

	for (unsigned k = 0; k < p->jobs; k++)
		if (p->s[k].pid && p->s[k].busy) {
			pf[n] = (struct pollfd){ .fd = p->s[k].fd,
						 .events = POLLIN };
			at[n++] = k;
		}
	if (!n)
		return;
	rc = poll(pf, n, POLL_MS);
	if (rc < 0)
		return; /* EINTR: look at the stop flag */
	for (unsigned j = 0; j < n; j++)
		if (rc > 0 && pf[j].revents)
			message(p, at[j]);
	/* a busy pool must not hide a stopped worker */
	if (pc_time_now_ms() - p->last_look >= POLL_MS) {
		p->last_look = pc_time_now_ms();
		for (unsigned j = 0; j < n; j++)
			if (p->s[at[j]].pid && p->s[at[j]].busy)
				resume_stopped(p, at[j]);
	}
}

static bool busy(const struct pool *p)
{
	for (unsigned k = 0; k < p->jobs; k++)
		if (p->s[k].pid && p->s[k].busy)
			return true;
	return false;
}

int pc_pool_run(const struct pc_pool_opts *o, struct pc_err *err)
{
	struct pool p = { .o = o };
	int64_t stop_at = 0;
	bool any = false;
	int subreaper = 0;
	pid_t outer_pid;

	p.jobs = o->jobs ? o->jobs : 1;
	if (p.jobs > MAX_JOBS)
		p.jobs = MAX_JOBS;
	if (p.jobs > o->nunits)
		p.jobs = (unsigned)(o->nunits ? o->nunits : 1);
	for (unsigned k = 0; k < MAX_JOBS; k++)
		p.s[k] = (struct slot){ .fd = -1, .sfd = -1 };
	p.u = pc_xcalloc(o->nunits + 1, sizeof(*p.u));
	p.last_look = pc_time_now_ms();
	/* a pool run inside a worker (`plugcheck guard -j N` in its
	 * isolated worker) gives the outer pool's pid back at the end: the
	 * worker's signal handler tells that pool's stop by it */
	outer_pid = pool_pid;
	pool_pid = getpid();
	/* the workers must re-parent to init, not here; pc_proc's sweep in
	 * this process relies on the caller's setting, so it is restored */
	if (prctl(PR_GET_CHILD_SUBREAPER, &subreaper, 0, 0, 0) < 0)
		subreaper = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	while (p.merged < o->nunits) {
		if (stopped(&p) && !stop_at)
			stop_at = pc_time_now_ms() + STOP_GRACE_MS;
		if (stopped(&p) && (!busy(&p) || pc_time_now_ms() >= stop_at)) {
			end_all(&p, PC_POOL_INTERRUPTED);
		} else if (stopped(&p)) {
			wait_round(&p); /* the workers finish their units */
		} else if (!feed(&p)) {
			end_all(&p, PC_POOL_FAILED);
		} else {
			for (unsigned k = 0; k < p.jobs; k++)
				any = any || p.s[k].pid;
			wait_round(&p);
		}
		merge_ready(&p);
	}
	/* every unit is merged: the workers left are idle */
	for (unsigned k = 0; k < p.jobs; k++)
		if (p.s[k].pid) {
			struct pc_pool_event ev = { .kind = PC_POOL_FAILED };

			p.s[k].busy = false;
			bury(&p, k, &ev);
		}
	kill_marked(o->marker); /* escapees of workers that died */
	free(p.u);
	if (subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	pool_pid = outer_pid;
	if (!any && o->nunits)
		return pc_err_set(err, PC_EIO,
				  "cannot start a worker process (fork or socketpair failed)");
	return 0;
}

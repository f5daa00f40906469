/* pc_proc.c - run one plugin the way Catalyst Code's plugin_run() does
 * (core/src/plugins.rs, read_plugin_stream_bounded / bounded_plugin_output /
 * plugin_run), then sweep whatever it left behind. See pc_proc.h. */
#define _GNU_SOURCE
#include "pc_proc.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_proc_impl.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define READ_CHUNK   (16 * 1024)     /* the host's read size */
#define DEFAULT_PATH "/bin:/usr/bin" /* what glibc execvp uses without PATH */
#define EXIT_POLL_MS 10		     /* waitid polling when pidfd is missing */
#define SWEEP_ROUNDS 1000	     /* safety belt; a sweep needs ~3 */
#define PF_EXITING   0x4	     /* task flag in /proc/<pid>/stat */
#define HELPER_GRACE_MS 100	     /* wrapped: the tracer's time to finish */

#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1U << 2) /* Linux 6.9 */
#endif

struct pidvec {
	pid_t *v;
	size_t nr, alloc;
};

struct proc_ent {
	pid_t pid, ppid, pgid;
	bool alive;   /* not a zombie (a leader that called pthread_exit()
			 reads 'Z' while its other threads live on) */
	bool exiting; /* running its exit (PF_EXITING): not a leftover */
	bool mark;    /* belongs to the plugin */
};

struct proc_tab {
	struct proc_ent *v;
	size_t nr, alloc;
};

struct spawn_ctx {
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
};

struct run {
	const struct pc_proc_opts *o;
	struct pc_proc_result *r;
	pid_t pid;
	int pidfd;
	int fd_in, fd_out, fd_err; /* our ends; -1 once closed */
	bool exited;		   /* the direct child is a zombie */
	bool verdict;		   /* r->outcome is final */
	size_t in_off;
	int64_t t_spawn, t_in_closed;
	struct pidvec before; /* plugcheck's children before the spawn */
	/* plugcheck has one thread: `before` came from
	 * /proc/thread-self/children, and the sweep may read it too */
	bool lone;
	/* the direct child was reaped before the sweep: its group is then
	 * signalled through the pidfd only */
	bool reaped;
	/* wrapped runs: the wrapper's children killed with it at the
	 * verdict (the plugin proper); not leftovers */
	struct pidvec inner;
};

static const char *const outcome_names[] = {
	[PC_PROC_EXITED] = "exited",
	[PC_PROC_SPAWN_ERROR] = "spawn_error",
	[PC_PROC_STDIN_TIMEOUT] = "stdin_timeout",
	[PC_PROC_TIMEOUT] = "timeout",
	[PC_PROC_STDOUT_OVERFLOW] = "stdout_overflow",
	[PC_PROC_STDERR_OVERFLOW] = "stderr_overflow",
	[PC_PROC_READ_ERROR] = "read_error",
};

const char *pc_proc_outcome_name(enum pc_proc_outcome o)
{
	if ((size_t)o >= sizeof(outcome_names) / sizeof(*outcome_names))
		return "unknown";
	return outcome_names[o];
}

void pc_proc_result_release(struct pc_proc_result *r)
{
	pc_buf_release(&r->out);
	pc_buf_release(&r->err);
}

void pc_proc_opts_release(struct pc_proc_opts *o)
{
	pc_strvec_release(&o->argv);
	pc_strvec_release(&o->env);
}

static void pidvec_push(struct pidvec *pv, pid_t pid)
{
	if (pv->nr == pv->alloc) {
		pv->alloc = pv->alloc ? 2 * pv->alloc : 16;
		pv->v = pc_xreallocarray(pv->v, pv->alloc, sizeof(*pv->v));
	}
	pv->v[pv->nr++] = pid;
}

static bool pidvec_has(const struct pidvec *pv, pid_t pid)
{
	for (size_t i = 0; i < pv->nr; i++)
		if (pv->v[i] == pid)
			return true;
	return false;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* --- /proc ------------------------------------------------------------ */

/* read_small - the start of a small /proc file into `buf` (NUL-ended);
 * its length, or <= 0 when it cannot be read. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* read_proc_ent - fill `e` from /proc/<pid>/stat; false if it is gone. */
static bool read_proc_ent(pid_t pid, struct proc_ent *e)
{
	char path[64], buf[1024], state;
	const char *p;
	unsigned flags;
	int ppid, pgid, threads;
	bool zombie;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = read_small(path, buf, sizeof(buf));
	if (n <= 0)
		return false;
	/* comm may hold spaces and ')': the fields start after the last ')';
	 * state ppid pgrp session tty tpgid flags, 10 skipped, num_threads */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1,
			 " %c %d %d %*d %*d %*d %u %*u %*u %*u %*u %*u %*u"
			 " %*d %*d %*d %*d %d",
			 &state, &ppid, &pgid, &flags, &threads) != 5)
		return false;
	e->pid = pid;
	e->ppid = ppid;
	e->pgid = pgid;
	zombie = state == 'Z' || state == 'X';
	e->alive = !zombie || threads > 1;
	e->exiting = !zombie && (flags & PF_EXITING);
	e->mark = false;
	return true;
}

static struct proc_ent *tab_slot(struct proc_tab *t)
{
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->v = pc_xreallocarray(t->v, t->alloc, sizeof(*t->v));
	}
	return &t->v[t->nr];
}

static int cmp_ent(const void *a, const void *b)
{
	const struct proc_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* scan_procs - fill `t` with every process, sorted by pid. -1: no /proc. */
static int scan_procs(struct proc_tab *t)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return -1;
	t->nr = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (read_proc_ent((pid_t)strtol(de->d_name, NULL, 10),
				  tab_slot(t)))
			t->nr++;
	}
	closedir(d);
	qsort(t->v, t->nr, sizeof(*t->v), cmp_ent);
	return 0;
}

static struct proc_ent *find_ent(struct proc_tab *t, pid_t pid)
{
	struct proc_ent key = { .pid = pid };

	return bsearch(&key, t->v, t->nr, sizeof(*t->v), cmp_ent);
}

/* is_direct - `pid` is the direct child, not yet reaped (once it is, a
 * plugin process may get the same number). */
static bool is_direct(const struct run *run, pid_t pid)
{
	return !run->reaped && pid == run->pid;
}

/* is_seed - rule (a) (only while `group_ok`: see scan_sweep()) or (b). */
static bool is_seed(const struct proc_ent *e, const struct run *run, pid_t self,
		    bool group_ok)
{
	if (e->pid == self)
		return false;
	if (group_ok && e->pgid == run->pid)
		return true;
	return e->ppid == self && !pidvec_has(&run->before, e->pid);
}

/* mark_plugin - the sweep rule of pc_proc.h: the child's process group,
 * plus plugcheck's children that were not its children before the spawn,
 * plus every descendant of those. */
static void mark_plugin(struct proc_tab *t, const struct run *run, pid_t self,
			bool group_ok)
{
	bool changed;

	for (size_t i = 0; i < t->nr; i++)
		t->v[i].mark = is_seed(&t->v[i], run, self, group_ok);
	do {
		changed = false;
		for (size_t i = 0; i < t->nr; i++) {
			struct proc_ent *e = &t->v[i], *parent;

			if (e->mark || e->pid == self)
				continue;
			parent = find_ent(t, e->ppid);
			if (parent && parent->mark) {
				e->mark = true;
				changed = true;
			}
		}
	} while (changed);
}

/* read_pids - append the pids listed in a /proc .../children file (each
 * followed by a space). -1 when it cannot be opened or read. */
static int read_pids(const char *path, struct pidvec *out)
{
	char buf[4096];
	long cur = 0;
	bool in_num = false;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		do
			n = read(fd, buf, sizeof(buf));
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				cur = cur * 10 + (buf[i] - '0');
				in_num = true;
			} else if (in_num) {
				pidvec_push(out, (pid_t)cur);
				cur = 0;
				in_num = false;
			}
		}
	}
	if (in_num)
		pidvec_push(out, (pid_t)cur);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* self_children - plugcheck's children, from /proc/thread-self/children.
 * That file lists the children of the calling thread only, so this works
 * only while plugcheck has a single thread - the caller, busy in
 * pc_proc_run(), so no other thread can appear before it returns. procfs
 * gives /proc/self/task a link count of 2 + the number of threads (one
 * stat(), where reading num_threads from /proc/self/stat costs a file
 * read and a parse per firing); any other count reads as "more threads".
 * -1 when plugcheck has more threads or the kernel lacks the file
 * (CONFIG_PROC_CHILDREN). */
static int self_children(struct pidvec *out)
{
	struct stat st;

	if (stat("/proc/self/task", &st) < 0 || st.st_nlink != 3)
		return -1;
	out->nr = 0;
	return read_pids("/proc/thread-self/children", out);
}

/* task_children - append the children of every thread of `pid`. */
static void task_children(pid_t pid, struct pidvec *out)
{
	char path[96];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return; /* gone */
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children",
			 (int)pid, de->d_name);
		read_pids(path, out);
	}
	closedir(d);
}

static bool tab_has(const struct proc_tab *t, pid_t pid)
{
	for (size_t i = 0; i < t->nr; i++)
		if (t->v[i].pid == pid)
			return true;
	return false;
}

/* tab_add - append `pid`, marked, unless listed or gone. A child of
 * plugcheck (`self` != 0) cannot be gone before it is reaped: if its stat
 * is hidden (hidepid), it is still killed and reaped, just not counted. */
static void tab_add(struct proc_tab *t, pid_t pid, pid_t self)
{
	struct proc_ent *e;

	if (tab_has(t, pid))
		return;
	e = tab_slot(t);
	if (!read_proc_ent(pid, e)) {
		if (!self)
			return;
		*e = (struct proc_ent){ .pid = pid, .ppid = self };
	}
	e->mark = true;
	t->nr++;
}

/* collect_tree - rules (b) and (c) without scanning /proc: plugcheck's new
 * children, then their descendants (parents before children). Used only
 * once the process group is known to be empty, so rule (a) adds nothing.
 * -1 when /proc/thread-self/children cannot be read. */
static int collect_tree(const struct run *run, struct proc_tab *t,
			struct pidvec *kids, pid_t self)
{
	t->nr = 0;
	kids->nr = 0;
	if (read_pids("/proc/thread-self/children", kids) < 0)
		return -1;
	for (size_t i = 0; i < kids->nr; i++)
		if (!pidvec_has(&run->before, kids->v[i]))
			tab_add(t, kids->v[i], self);
	for (size_t i = 0; i < t->nr; i++) {
		kids->nr = 0;
		task_children(t->v[i].pid, kids);
		for (size_t k = 0; k < kids->nr; k++)
			tab_add(t, kids->v[k], 0);
	}
	return 0;
}

/* snapshot_children - plugcheck's children before the spawn: cheaply from
 * the children file when it has one thread, else by a scan of /proc. */
static void snapshot_children(struct run *run)
{
	struct proc_tab t = { 0 };
	pid_t self = getpid();

	run->lone = self_children(&run->before) == 0;
	if (run->lone)
		return;
	run->before.nr = 0;
	if (scan_procs(&t) == 0)
		for (size_t i = 0; i < t.nr; i++)
			if (t.v[i].ppid == self)
				pidvec_push(&run->before, t.v[i].pid);
	free(t.v);
}

/* --- spawning ---------------------------------------------------------- */

/* become_subreaper - once per process: fork() clears the attribute, so a
 * process forked after a run here (plugcheck run -j workers) must set it
 * again, or its plugins' orphans would re-parent past it. */
static void become_subreaper(void)
{
	static pid_t done;
	pid_t self = getpid();

	if (done != self && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
		done = self;
}

/* fd_above_stdio - move `fd` off 0-2 so the dup2 file actions cannot
 * clobber each other when plugcheck runs with a closed stdin. */
static int fd_above_stdio(int fd)
{
	int nfd, saved;

	if (fd < 0 || fd > 2)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	saved = errno;
	close(fd);
	errno = saved;
	return nfd;
}

/* make_pipe - a CLOEXEC pipe; our end is non-blocking. -1 with errno. */
static int make_pipe(int *ours, int *theirs, bool we_read)
{
	int p[2], saved;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	p[0] = fd_above_stdio(p[0]);
	p[1] = fd_above_stdio(p[1]);
	if (p[0] < 0 || p[1] < 0)
		goto out_close;
	if (fcntl(p[!we_read], F_SETFL,
		  fcntl(p[!we_read], F_GETFL) | O_NONBLOCK) == 0) {
		*ours = p[!we_read];
		*theirs = p[we_read];
		return 0;
	}
out_close:
	saved = errno;
	close_fd(&p[0]);
	close_fd(&p[1]);
	errno = saved;
	return -1;
}

static int open_stdio(struct run *run, int child[3], struct pc_err *err)
{
	if (run->o->flags & PC_PROC_STDIN_DEVNULL) {
		child[0] =
			fd_above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
		if (child[0] < 0)
			return pc_err_set_errno(err, PC_EIO, errno,
						"cannot open '/dev/null'");
	} else if (make_pipe(&run->fd_in, &child[0], false) < 0) {
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create stdin pipe");
	}
	if (make_pipe(&run->fd_out, &child[1], true) < 0 ||
	    make_pipe(&run->fd_err, &child[2], true) < 0)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create output pipe");
	return 0;
}

static int spawn_ctx_init(struct spawn_ctx *sc, const int child[3],
			  const struct pc_proc_opts *o)
{
	sigset_t mask, def;
	int rc;

	rc = posix_spawnattr_init(&sc->attr);
	if (rc)
		return rc;
	rc = posix_spawn_file_actions_init(&sc->fa);
	if (rc)
		goto out_destroy_attr;
	pc__proc_sig_attrs(o, &def, &mask);
	/* a session of its own: a new process group (the sweep's), and no
	 * controlling terminal ("A second one" in pc_proc.h) */
	rc = posix_spawnattr_setflags(&sc->attr,
				      (short)(POSIX_SPAWN_SETSID |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF));
	if (!rc)
		rc = posix_spawnattr_setsigmask(&sc->attr, &mask);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&sc->attr, &def);
	for (int i = 0; i < 3 && !rc; i++)
		rc = posix_spawn_file_actions_adddup2(&sc->fa, child[i], i);
	if (!rc && o->cwd)
		rc = posix_spawn_file_actions_addchdir_np(&sc->fa, o->cwd);
	if (!rc)
		rc = posix_spawn_file_actions_addclosefrom_np(&sc->fa, 3);
	if (!rc)
		return 0;
	posix_spawn_file_actions_destroy(&sc->fa);
out_destroy_attr:
	posix_spawnattr_destroy(&sc->attr);
	return rc;
}

static void spawn_ctx_release(struct spawn_ctx *sc)
{
	posix_spawn_file_actions_destroy(&sc->fa);
	posix_spawnattr_destroy(&sc->attr);
}

static int spawn_at(struct run *run, struct spawn_ctx *sc, const char *path,
		    char *const argv[])
{
	return posix_spawn(&run->pid, path, &sc->fa, &sc->attr, argv,
			   run->o->env.v);
}

/* spawn_as_script - glibc execvp's answer to ENOEXEC during a PATH search:
 * run the file with /bin/sh (maybe_script_execute in execvpe.c). */
static int spawn_as_script(struct run *run, struct spawn_ctx *sc,
			   const char *path)
{
	const struct pc_strvec *argv = &run->o->argv;
	char **sh_argv = pc_xcalloc(argv->nr + 2, sizeof(*sh_argv));
	int rc;

	sh_argv[0] = (char *)"/bin/sh";
	sh_argv[1] = (char *)path;
	for (size_t i = 1; i < argv->nr; i++)
		sh_argv[i + 1] = argv->v[i];
	rc = spawn_at(run, sc, "/bin/sh", sh_argv);
	free(sh_argv);
	return rc;
}

static const char *child_path(const struct pc_strvec *env)
{
	for (size_t i = 0; i < env->nr; i++)
		if (!strncmp(env->v[i], "PATH=", 5))
			return env->v[i] + 5;
	return DEFAULT_PATH;
}

/* path_entry_max - glibc execvp's bound on one PATH entry: one of this
 * many bytes or more (only possible when PATH is at least PATH_MAX long)
 * is not tried, since it would not fit its stack buffer. Its next round
 * then starts at the ':' that ended the entry - an empty entry, i.e. the
 * current directory - not after it: measured on Debian 12,
 * PATH=<4096 bytes>:/usr/bin runs ./prog when there is one, and a last
 * such entry ends the search. spawn_search and precheck do the same
 * (a fresh-user trial found ENAMETOOLONG instead). */
static size_t path_entry_max(const char *path)
{
	return strnlen(path, PATH_MAX - 1) + 1;
}

/* absent - 0 when `path` (relative to `cwd`, the child's working
 * directory) names something exec could try, else the errno its lookup
 * gives. stat() resolves a path exactly as execve() does before it looks
 * at the file, so a candidate it cannot find would fail execve() with the
 * same errno: spawn_search() skips those without starting a process (a
 * failed posix_spawn still clones and exits one child). Only candidates
 * that exist are spawned, so their errno (EACCES, ENOEXEC, ...) stays the
 * kernel's own. */
static int absent(const char *path, const char *cwd)
{
	char *full = NULL;
	struct stat st;
	int rc = 0;

	if (path[0] != '/' && cwd)
		path = full = pc_xasprintf("%s/%s", cwd, path);
	if (stat(path, &st) < 0)
		rc = errno;
	free(full);
	return rc;
}

/* path_walk - glibc execvp's PATH walk for the bare program name `file`
 * over the CHILD's PATH (`env`; glibc's default without one): each
 * candidate "DIR/file" ("file" for an empty entry, relative to the
 * child's cwd) goes to try_one(ctx, cand), which answers 0 (found: the
 * walk ends with 0) or the errno execve would give for it. As execvp:
 * ENOENT, ESTALE, ENOTDIR, ENODEV and ETIMEDOUT go on to the next entry,
 * EACCES goes on but is remembered, any other errno ends the walk with
 * it; entries too long for execvp's buffer are passed over
 * (path_entry_max). Returns 0, or the errno execvp would leave (EACCES
 * when a candidate gave it, else the last one's). */
static int path_walk(const char *file, const struct pc_strvec *env,
		     int (*try_one)(void *ctx, const char *cand), void *ctx)
{
	const char *p = child_path(env), *end;
	bool eacces = false;
	int rc = ENOENT;

	if (!*file)
		return ENOENT;
	if (strlen(file) > NAME_MAX)
		return ENAMETOOLONG;
	for (size_t max = path_entry_max(p);; p = end + 1) {
		char *cand;

		end = strchrnul(p, ':');
		if ((size_t)(end - p) >= max) {
			if (!*end)
				break;
			end--; /* next round: the ':' itself, the cwd */
			continue;
		}
		cand = end == p ? pc_xstrdup(file)
				: pc_xasprintf("%.*s/%s", (int)(end - p), p,
					       file);
		rc = try_one(ctx, cand);
		free(cand);
		if (rc == 0)
			return 0;
		if (rc == EACCES)
			eacces = true;
		else if (rc != ENOENT && rc != ESTALE && rc != ENOTDIR &&
			 rc != ENODEV && rc != ETIMEDOUT)
			return rc;
		if (!*end)
			break;
	}
	return eacces ? EACCES : rc;
}

struct search_ctx {
	struct run *run;
	struct spawn_ctx *sc;
};

/* A candidate of spawn_search: skipped when absent(), else spawned (a
 * file without "#!" or ELF header through /bin/sh, as execvp does). */
static int try_spawn(void *ctx, const char *cand)
{
	struct search_ctx *c = ctx;
	int rc = absent(cand, c->run->o->cwd);

	if (!rc) {
		rc = spawn_at(c->run, c->sc, cand, c->run->o->argv.v);
		if (rc == ENOEXEC)
			rc = spawn_as_script(c->run, c->sc, cand);
	}
	return rc;
}

/* spawn_search - what the host's Command does for a bare program name once
 * the environment was cleared: fork + execvp with `environ` set to the
 * child's, i.e. glibc's PATH walk over the CHILD's PATH. Returns 0 or the
 * errno execvp would leave. */
static int spawn_search(struct run *run, struct spawn_ctx *sc)
{
	struct search_ctx c = { run, sc };

	return path_walk(run->o->argv.v[0], &run->o->env, try_spawn, &c);
}

/* --- wrapped runs -------------------------------------------------------- */

/* check_exec - what exec of `path` would answer, without running it: 0,
 * or ENOENT/ENOTDIR/EACCES/ENOEXEC. `relaxed`: a file with no "#!" or ELF
 * header is fine (execvp runs it with /bin/sh). */
static int check_exec(const char *path, const char *cwd, bool relaxed)
{
	char *full = NULL, head[4];
	struct stat st;
	int fd, rc = 0;
	ssize_t n;

	if (path[0] != '/' && cwd)
		path = full = pc_xasprintf("%s/%s", cwd, path);
	if (stat(path, &st) < 0)
		rc = errno;
	else if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		rc = EACCES;
	else if (!relaxed) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, head, sizeof(head));
		if (fd >= 0)
			close(fd);
		if (n >= 0 && (n < 2 || memcmp(head, "#!", 2)) &&
		    (n < 4 || memcmp(head, "\177ELF", 4)))
			rc = ENOEXEC;
	}
	free(full);
	return rc;
}

/* A candidate of precheck: found when check_exec() would exec it; any
 * other answer than EACCES counts as not there (the walk goes on). */
static int try_check(void *ctx, const char *cand)
{
	int rc = check_exec(cand, ((const struct run *)ctx)->o->cwd, true);

	return rc == 0 || rc == EACCES ? rc : ENOENT;
}

/* precheck - the lookup of "Wrapped runs" in pc_proc.h: 0, or the errno
 * the spawn of argv[0] would fail with. */
static int precheck(const struct run *run)
{
	const char *file = run->o->argv.v[0];

	if (strchr(file, '/'))
		return check_exec(file, run->o->cwd, false);
	return path_walk(file, &run->o->env, try_check, (void *)run);
}

/* spawn_wrapped - spawn `wrap` + argv once precheck() found argv[0]. */
static int spawn_wrapped(struct run *run, struct spawn_ctx *sc)
{
	const struct pc_strvec *w = run->o->wrap;
	const struct pc_strvec *a = &run->o->argv;
	char **argv;
	int rc = precheck(run);

	if (rc)
		return rc;
	argv = pc_xcalloc(w->nr + a->nr + 1, sizeof(*argv));
	for (size_t i = 0; i < w->nr; i++)
		argv[i] = w->v[i];
	for (size_t i = 0; i < a->nr; i++)
		argv[w->nr + i] = a->v[i];
	rc = spawn_at(run, sc, w->v[0], argv);
	free(argv);
	return rc;
}

static pc_proc_spawn_fn spawn_hook;
static void *spawn_hook_ctx;

void pc_proc_set_spawn_hook(pc_proc_spawn_fn fn, void *ctx)
{
	spawn_hook = fn;
	spawn_hook_ctx = ctx;
}

/* spawn_checked - run the file `exec_fd` holds ("The file that runs" in
 * pc_proc.h): a "#!" script through its interpreter, as the kernel would,
 * anything else through the descriptor's /proc link. */
static int spawn_checked(struct run *run, struct spawn_ctx *sc)
{
	const struct pc_strvec *a = &run->o->argv;
	char link[64], head[256], *interp, *arg, **argv;
	ssize_t n;
	size_t k = 0;
	int rc;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)getpid(),
		 run->o->exec_fd);
	do
		n = pread(run->o->exec_fd, head, sizeof(head), 0);
	while (n < 0 && errno == EINTR);
	rc = n < 0 ? -1 : pc__proc_shebang(head, (size_t)n, &interp, &arg);
	if (rc < 0) { /* not a script, or an O_PATH descriptor */
		rc = spawn_at(run, sc, link, a->v);
		if (rc == ENOENT && access("/proc/self/fd", F_OK) < 0)
			rc = spawn_at(run, sc, a->v[0], a->v); /* no /proc */
		return rc;
	}
	if (rc) /* ENOEXEC */
		return rc;
	if (access(link, X_OK) < 0) {
		rc = errno;
		goto out;
	}
	argv = pc_xcalloc(a->nr + 3, sizeof(*argv));
	argv[k++] = interp;
	if (arg)
		argv[k++] = arg;
	for (size_t i = 0; i < a->nr; i++)
		argv[k++] = a->v[i];
	rc = spawn_at(run, sc, interp, argv);
	free(argv);
out:
	free(interp);
	free(arg);
	return rc;
}

/* spawn - start the child; 0, or PC_EIO when the spawn attributes cannot
 * even be built. A failed exec is a fact (PC_PROC_SPAWN_ERROR), not an
 * error. Always closes the child's ends of the pipes. */
static int spawn(struct run *run, int child[3], struct pc_err *err)
{
	struct pc__proc_swap *sw;
	struct spawn_ctx sc;
	int rc;

	rc = spawn_ctx_init(&sc, child, run->o);
	if (rc) {
		rc = pc_err_set_errno(err, PC_EIO, rc,
				      "cannot prepare spawn of '%s'",
				      run->o->argv.v[0]);
		goto out_close_child;
	}
	run->t_spawn = pc_time_now_ms();
	if (run->fd_in < 0)
		run->t_in_closed = run->t_spawn; /* /dev/null: nothing to do */
	sw = pc_xmalloc(sizeof(*sw));
	pc__proc_sig_swap_in(run->o, sw, &run->r->sigs);
	if (run->o->wrap)
		rc = spawn_wrapped(run, &sc);
	else if (run->o->exec_fd >= 0)
		rc = spawn_checked(run, &sc);
	else if (strchr(run->o->argv.v[0], '/'))
		rc = spawn_at(run, &sc, run->o->argv.v[0], run->o->argv.v);
	else
		rc = spawn_search(run, &sc);
	pc__proc_sig_swap_out(sw);
	free(sw);
	spawn_ctx_release(&sc);
	if (rc) {
		sigemptyset(&run->r->sigs.ignored);
		sigemptyset(&run->r->sigs.blocked);
		run->pid = 0;
		run->r->outcome = PC_PROC_SPAWN_ERROR;
		run->r->spawn_errno = rc;
		run->verdict = true;
	} else if (spawn_hook) {
		spawn_hook(spawn_hook_ctx, (int)run->pid);
	}
	rc = 0;
out_close_child:
	for (int i = 0; i < 3; i++)
		close_fd(&child[i]);
	return rc;
}

/* --- the child's exit --------------------------------------------------- */

/* check_exit - note the child's status WITHOUT reaping it: the zombie keeps
 * its pid, and so its process group id, from being reused until the
 * sweep is over. */
static void check_exit(struct run *run, int flags)
{
	struct pc_proc_result *r = run->r;
	siginfo_t si;
	int rc;

	memset(&si, 0, sizeof(si));
	do
		rc = waitid(P_PID, (id_t)run->pid, &si,
			    WEXITED | WNOWAIT | flags);
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		/* ECHILD: SIGCHLD is ignored and the kernel reaped it */
		run->exited = true;
		return;
	}
	if (si.si_pid == 0)
		return;
	run->exited = true;
	if (run->verdict)
		return; /* exited after the verdict: the host never saw it */
	r->has_status = true;
	if (si.si_code == CLD_EXITED) {
		r->exit_code = si.si_status;
	} else {
		r->term_signal = si.si_status;
		r->core_dumped = si.si_code == CLD_DUMPED;
	}
}

/* --- stdin -------------------------------------------------------------- */

/* write_nosigpipe - write(2) that cannot kill plugcheck with SIGPIPE even
 * if the caller did not ignore it: block it, and swallow the one this
 * write raised (the sigtimedwait trick; SIGPIPE is thread-directed). */
static ssize_t write_nosigpipe(int fd, const void *p, size_t n)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old, pending;
	bool was_pending;
	ssize_t w;
	int saved;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	w = write(fd, p, n);
	saved = errno;
	if (w < 0 && saved == EPIPE && !was_pending)
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 &&
		       errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return w;
}

static void close_stdin(struct run *run)
{
	if (run->fd_in < 0)
		return;
	close_fd(&run->fd_in);
	run->t_in_closed = pc_time_now_ms();
}

/* feed_stdin - write what the pipe takes. Returns true when stdin is done
 * (all written, or EPIPE / another error, which the host ignores: `let _ =
 * child_stdin.write_all(..)`) and closed; false on EAGAIN. */
static bool feed_stdin(struct run *run)
{
	const struct pc_proc_opts *o = run->o;
	const char *data = o->stdin_data;

	while (run->in_off < o->stdin_len) {
		ssize_t n = write_nosigpipe(run->fd_in, data + run->in_off,
					    o->stdin_len - run->in_off);

		if (n >= 0) {
			run->in_off += (size_t)n;
			run->r->stdin_written = run->in_off;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return false;
		if (errno == EPIPE)
			run->r->stdin_closed_early = true;
		break;
	}
	close_stdin(run);
	return true;
}

/* stdin_phase - R5.5: write everything, polling only the write end, under
 * its own deadline; then close it. Output is NOT drained meanwhile. */
static int stdin_phase(struct run *run, struct pc_err *err)
{
	int64_t deadline = pc_time_now_ms() + run->o->stdin_timeout_ms;
	struct pollfd pfd = { .fd = run->fd_in, .events = POLLOUT };

	/* like tokio::time::timeout, try the write before the clock */
	while (!feed_stdin(run)) {
		if (pc_time_now_ms() >= deadline) {
			run->r->outcome = PC_PROC_STDIN_TIMEOUT;
			run->verdict = true;
			return 0;
		}
		if (poll(&pfd, 1, pc_time_left_ms(deadline)) < 0 &&
		    errno != EINTR)
			return pc_err_set_errno(err, PC_EIO, errno,
						"cannot poll plugin stdin");
	}
	return 0;
}

/* --- the wait phase ----------------------------------------------------- */

static void set_verdict(struct run *run, enum pc_proc_outcome outcome)
{
	run->r->outcome = outcome;
	run->verdict = true;
}

/* drain - one read of up to 16 KiB from stdout (is_err false) or stderr.
 * Going past the cap is the host's "plugin stdout exceeds the 1048576
 * byte limit" read error: the verdict is an overflow. */
static void drain(struct run *run, bool is_err)
{
	int *fd = is_err ? &run->fd_err : &run->fd_out;
	struct pc_buf *b = is_err ? &run->r->err : &run->r->out;
	size_t max = is_err ? run->o->stderr_max : run->o->stdout_max;
	char chunk[READ_CHUNK];
	ssize_t n;

	do
		n = read(*fd, chunk, sizeof(chunk));
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return;
	if (n < 0) {
		run->r->read_errno = errno;
		set_verdict(run, PC_PROC_READ_ERROR);
	} else if (n == 0) {
		close_fd(fd);
		if (run->o->on_output)
			run->o->on_output(run->o->output_ctx, is_err ? 2 : 1,
					  chunk, 0);
	} else if (b->len + (size_t)n > max ||
		   pc_buf_add(b, chunk, (size_t)n) < 0) {
		set_verdict(run, is_err ? PC_PROC_STDERR_OVERFLOW
					: PC_PROC_STDOUT_OVERFLOW);
	} else if (run->o->on_output) {
		run->o->on_output(run->o->output_ctx, is_err ? 2 : 1, chunk,
				  (size_t)n);
	}
}

enum { SLOT_OUT, SLOT_ERR, SLOT_PID, SLOT_IN, NSLOTS };

static int poll_round(struct run *run, int timeout_ms, struct pollfd pfd[])
{
	int rc;

	pfd[SLOT_OUT] = (struct pollfd){ .fd = run->fd_out, .events = POLLIN };
	pfd[SLOT_ERR] = (struct pollfd){ .fd = run->fd_err, .events = POLLIN };
	pfd[SLOT_PID] = (struct pollfd){ .fd = run->exited ? -1 : run->pidfd,
					 .events = POLLIN };
	pfd[SLOT_IN] = (struct pollfd){ .fd = run->fd_in, .events = POLLOUT };
	if (run->pidfd < 0 && !run->exited && timeout_ms > EXIT_POLL_MS)
		timeout_ms = EXIT_POLL_MS;
	rc = poll(pfd, NSLOTS, timeout_ms);
	if (rc < 0 && errno == EINTR) {
		for (int i = 0; i < NSLOTS; i++)
			pfd[i].revents = 0;
		rc = 0;
	}
	return rc;
}

static void handle_round(struct run *run, const struct pollfd pfd[])
{
	if (pfd[SLOT_OUT].revents)
		drain(run, false);
	if (pfd[SLOT_ERR].revents && !run->verdict)
		drain(run, true);
	if (pfd[SLOT_IN].revents)
		feed_stdin(run);
	if (!run->exited && (run->pidfd < 0 || pfd[SLOT_PID].revents))
		check_exit(run, WNOHANG);
}

/* helper_exe - 1: `pid` runs the wrapper's helper executable (the
 * tracer); 0: another one; -1: its executable is gone (it is exiting). */
static int helper_exe(const struct run *run, pid_t pid)
{
	char path[64], exe[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return errno == ENOENT ? -1 : 0;
	exe[n] = '\0';
	return !strcmp(exe, run->o->wrap_helper);
}

/* ns_init - `pid` is pid 1 of a PID namespace below plugcheck's: the last
 * number of its NSpid line is 1 and there are more than one. A wrapper
 * that runs the plugin in a namespace of its own has its reaper there. */
static bool ns_init(pid_t pid)
{
	char path[64], buf[2048], *line;
	long last = 0;
	int fields = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	line = strstr(buf, "\nNSpid:");
	if (!line)
		return false;
	for (char *p = line + 7, *e; *p && *p != '\n'; p = e) {
		long v = strtol(p, &e, 10);

		if (e == p)
			break;
		last = v;
		fields++;
	}
	return fields > 1 && last == 1;
}

/* is_helper - the tracer, or a process already exiting (its memory gone:
 * the tracer once its tracees are); only with wrap_helper. */
static bool is_helper(const struct run *run, pid_t pid)
{
	return run->o->wrap_helper && helper_exe(run, pid) != 0;
}

/* release_helpers - SIGKILL the wrapper's helpers among plugcheck's new
 * children once the wrapper exited: the tracer keeps the plugin's stderr
 * open for its own messages as long as any tracee lives, and a daemon the
 * plugin left with no pipes must not hold the call open (the host sees
 * EOF). Its tracees go on untraced until the sweep. */
static void release_helpers(struct run *run)
{
	struct pidvec kids = { 0 };

	if (read_pids("/proc/thread-self/children", &kids) == 0 && run->lone)
		for (size_t i = 0; i < kids.nr; i++)
			if (!pidvec_has(&run->before, kids.v[i]) &&
			    helper_exe(run, kids.v[i]) == 1)
				kill(kids.v[i], SIGKILL);
	free(kids.v);
}

/* wait_phase - R5.6: one deadline over exit AND EOF on both pipes. Without
 * PC_PROC_STDIN_FIRST, stdin is fed from the same loop. */
static int wait_phase(struct run *run, struct pc_err *err)
{
	int64_t deadline = pc_time_now_ms() + run->o->timeout_ms;
	int64_t helpers = 0; /* wrapped: when to release the helpers */
	bool draining = false; /* PC_PROC_DRAIN_AFTER_KILL, past the deadline */
	struct pollfd pfd[NSLOTS];

	for (;;) {
		int64_t until = helpers > 0 && helpers < deadline ? helpers
								 : deadline;

		if (poll_round(run, pc_time_left_ms(until), pfd) < 0)
			return pc_err_set_errno(err, PC_EIO, errno,
						"cannot poll plugin pipes");
		handle_round(run, pfd);
		if (run->verdict)
			return 0;
		if (run->o->wrap_helper && run->exited && helpers >= 0) {
			/* a grace for the tracer to log the last exits */
			if (!helpers)
				helpers = pc_time_now_ms() + HELPER_GRACE_MS;
			else if (pc_time_now_ms() >= helpers) {
				release_helpers(run);
				helpers = -1;
			}
		}
		if (run->exited && run->fd_out < 0 && run->fd_err < 0) {
			set_verdict(run, draining ? PC_PROC_TIMEOUT
						  : PC_PROC_EXITED);
			return 0;
		}
		if (pc_time_now_ms() < deadline)
			continue;
		if (!draining && (run->o->flags & PC_PROC_DRAIN_AFTER_KILL)) {
			/* Go's exec.CommandContext: kill the child only,
			 * then the host still reads both pipes to EOF */
			run->r->exited_before_eof = run->exited;
			if (!run->exited)
				kill(run->pid, SIGKILL);
			draining = true;
			deadline = pc_time_now_ms() + run->o->drain_max_ms;
			continue;
		}
		if (!draining)
			run->r->exited_before_eof = run->exited;
		run->r->drain_capped = draining;
		set_verdict(run, PC_PROC_TIMEOUT);
		return 0;
	}
}

/* --- the sweep ---------------------------------------------------------- */

/* is_wrapper_part - a process of the wrapper, not one the plugin left:
 * the plugin proper killed with it, its helper, its namespace reaper. */
static bool is_wrapper_part(const struct run *run, pid_t pid)
{
	return pidvec_has(&run->inner, pid) || is_helper(run, pid) ||
	       (run->o->wrap && ns_init(pid));
}

/* kill_marked - SIGKILL every marked process (a zombie just ignores it);
 * count the ones alive at their first sighting as leftovers. Returns how
 * many are alive. */
static size_t kill_marked(struct run *run, struct proc_tab *t,
			  struct pidvec *seen)
{
	size_t live = 0;

	for (size_t i = 0; i < t->nr; i++) {
		const struct proc_ent *e = &t->v[i];

		if (!e->mark)
			continue;
		kill(e->pid, SIGKILL);
		if (!e->alive)
			continue;
		live++;
		if (is_direct(run, e->pid) || pidvec_has(seen, e->pid))
			continue;
		pidvec_push(seen, e->pid);
		if (!e->exiting && !is_wrapper_part(run, e->pid))
			run->r->leftover_processes++;
	}
	return live;
}

/* reap_marked - reap the marked processes that are plugcheck's children,
 * except an unreaped direct child (a zombie until the end). They were
 * SIGKILLed, so the blocking wait is short; their own children re-parent
 * to plugcheck, to be found in the next round. */
static size_t reap_marked(struct run *run, struct proc_tab *t, pid_t self)
{
	size_t reaped = 0;

	for (size_t i = 0; i < t->nr; i++) {
		const struct proc_ent *e = &t->v[i];
		pid_t w;

		if (!e->mark || e->ppid != self || is_direct(run, e->pid))
			continue;
		do
			w = waitpid(e->pid, NULL, 0);
		while (w < 0 && errno == EINTR);
		reaped += w == e->pid;
	}
	if (!run->exited)
		check_exit(run, 0); /* wait for the zombie, then its orphans
				       have re-parented to plugcheck */
	return reaped;
}

/* group_kill - send `sig` to the child's process group: with kill(-pid)
 * while the direct child is not reaped (its zombie holds the number);
 * once it is, through its pidfd, which names that group and no later one
 * with the same number. -1 with ESRCH: the group is empty - for good,
 * since joining a group (setpgid) needs a member in it. */
static int group_kill(const struct run *run, int sig)
{
	if (run->reaped)
		return (int)syscall(SYS_pidfd_send_signal, run->pidfd, sig,
				    NULL, PIDFD_SIGNAL_PROCESS_GROUP);
	return kill(-run->pid, sig);
}

static bool group_empty(const struct run *run)
{
	return group_kill(run, 0) < 0 && errno == ESRCH;
}

/* reap_early - reap the dead direct child now, so that group_empty() can
 * tell whether anything else is in its group (a zombie stays a member).
 * Only when the pidfd can signal the group (Linux >= 6.9: the probe sees
 * the zombie; older kernels answer EINVAL) and plugcheck has one thread
 * (then the sweep can use the children files). */
static void reap_early(struct run *run)
{
	pid_t w;

	if (!run->lone || !run->exited || run->pidfd < 0 ||
	    syscall(SYS_pidfd_send_signal, run->pidfd, 0, NULL,
		    PIDFD_SIGNAL_PROCESS_GROUP) != 0)
		return;
	do
		w = waitpid(run->pid, NULL, WNOHANG);
	while (w < 0 && errno == EINTR);
	run->reaped = w == run->pid;
}

/* scan_sweep - rounds of "scan /proc, SIGKILL the marked, kill the group,
 * reap the marked that are plugcheck's children" until a round finds
 * nothing. After reap_early() the group's number may be reused once the
 * group is empty, so rule (a) counts only if the group is still non-empty
 * after the scan (then it was all along, and the number was its). */
static void scan_sweep(struct run *run, struct proc_tab *t, struct pidvec *seen)
{
	pid_t self = getpid();

	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		size_t busy;

		if (scan_procs(t) < 0)
			break;
		mark_plugin(t, run, self, !run->reaped || !group_empty(run));
		busy = kill_marked(run, t, seen);
		group_kill(run, SIGKILL);
		busy += reap_marked(run, t, self);
		if (!busy)
			break;
	}
}

/* tree_sweep - the same rounds over collect_tree(), once the group is
 * empty: until plugcheck has no new child left. Each round reaps at least
 * that child; a live plugin process always has a chain of live parents up
 * to one of them. false: the children file failed, use scan_sweep(). */
static bool tree_sweep(struct run *run, struct proc_tab *t, struct pidvec *seen)
{
	struct pidvec kids = { 0 };
	pid_t self = getpid();
	int rc = 0;

	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		rc = collect_tree(run, t, &kids, self);
		if (rc < 0 || !t->nr)
			break;
		kill_marked(run, t, seen);
		reap_marked(run, t, self);
	}
	free(kids.v);
	return rc == 0;
}

static void sweep(struct run *run)
{
	struct proc_tab t = { 0 };
	struct pidvec seen = { 0 };

	if (run->pid <= 1)
		return; /* never kill(-0) or kill(-1): that is everyone */
	reap_early(run);
	if (!run->reaped || !group_empty(run) || !tree_sweep(run, &t, &seen))
		scan_sweep(run, &t, &seen);
	group_kill(run, SIGKILL); /* also the whole sweep without /proc */
	if (!run->exited)
		kill(run->pid, SIGKILL);
	if (!run->reaped)
		while (waitpid(run->pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(t.v);
	free(seen.v);
}

void pc_proc_kill_orphans(void)
{
	for (int round = 0; round < 100; round++) {
		struct pidvec kids = { 0 };

		if (read_pids("/proc/thread-self/children", &kids) < 0 ||
		    !kids.nr) {
			free(kids.v);
			return;
		}
		for (size_t i = 0; i < kids.nr; i++) {
			pid_t pid = kids.v[i];

			if (pid <= 1)
				continue;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		free(kids.v);
	}
}

/* --- pc_proc_run -------------------------------------------------------- */

static int run_phases(struct run *run, struct pc_err *err)
{
	int rc;

	run->pidfd = (int)syscall(SYS_pidfd_open, run->pid, 0);
	if (run->o->flags & PC_PROC_STDIN_FIRST) {
		/* with empty stdin the host skips this phase; tokio's
		 * Child::wait() then drops (closes) stdin at once */
		if (run->fd_in >= 0 && run->o->stdin_len > 0) {
			rc = stdin_phase(run, err);
			if (rc || run->verdict)
				return rc;
		}
		close_stdin(run);
	} else if (run->fd_in >= 0) {
		feed_stdin(run);
	}
	return wait_phase(run, err);
}

/* kill_plugin_proper - the verdict kills the wrapper: the plugin proper,
 * its child (or its namespace reaper's child), gets SIGKILL too, as the
 * host kills its direct child (R5.9); both are noted in `inner`, which are
 * no leftovers. The reaper itself is left to the sweep: killing it would
 * end its namespace, and the plugin's other processes in it, unseen. */
static void kill_plugin_proper(struct run *run)
{
	struct pidvec kids = { 0 };
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)run->pid,
		 (int)run->pid);
	read_pids(path, &kids);
	for (size_t i = 0; i < kids.nr; i++) {
		pid_t k = kids.v[i];
		size_t from;

		pidvec_push(&run->inner, k);
		if (!ns_init(k)) {
			kill(k, SIGKILL);
			continue;
		}
		from = run->inner.nr;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)k,
			 (int)k);
		read_pids(path, &run->inner);
		for (size_t j = from; j < run->inner.nr; j++)
			kill(run->inner.v[j], SIGKILL);
	}
	free(kids.v);
}

static void finish(struct run *run)
{
	int64_t now = pc_time_now_ms();

	if (!run->exited && run->o->wrap)
		kill_plugin_proper(run);
	if (!run->exited) {
		kill(run->pid, SIGKILL); /* the host's kill_on_drop */
		/* wait for the zombie (SIGKILL cannot be caught), so that the
		 * sweep can take its fast path: a timed-out hook otherwise
		 * cost a scan of every process on the machine */
		check_exit(run, 0);
	}
	run->r->wall_ms = now - run->t_spawn;
	run->r->stdin_ms =
		(run->t_in_closed >= 0 ? run->t_in_closed : now) - run->t_spawn;
	close_fd(&run->fd_in);
	close_fd(&run->fd_out);
	close_fd(&run->fd_err);
	sweep(run);
	close_fd(&run->pidfd);
}

int pc_proc_run(const struct pc_proc_opts *o, struct pc_proc_result *r,
		struct pc_err *err)
{
	struct run run = { .o = o,
			   .r = r,
			   .pidfd = -1,
			   .fd_in = -1,
			   .fd_out = -1,
			   .fd_err = -1,
			   .t_in_closed = -1 };
	int child[3] = { -1, -1, -1 };
	int rc;

	if (!o->argv.nr)
		return pc_err_set(err, PC_EINVAL,
				  "cannot run a plugin with an empty argv");
	if (o->wrap && (!o->wrap->nr || o->wrap->v[0][0] != '/'))
		return pc_err_set(err, PC_EINVAL,
				  "a wrapper needs an absolute program path");
	become_subreaper();
	snapshot_children(&run);
	rc = open_stdio(&run, child, err);
	if (!rc)
		rc = spawn(&run, child, err);
	if (!rc && !run.verdict) {
		r->pid = run.pid;
		rc = run_phases(&run, err);
		finish(&run); /* kills, closes our ends, sweeps, reaps */
	} else if (run.verdict) {
		r->wall_ms = pc_time_now_ms() - run.t_spawn;
	}
	for (int i = 0; i < 3; i++)
		close_fd(&child[i]);
	close_fd(&run.fd_in);
	close_fd(&run.fd_out);
	close_fd(&run.fd_err);
	free(run.before.v);
	free(run.inner.v);
	return rc;
}

/* pc_sandbox.c - bubblewrap + strace around plugin runs. See pc_sandbox.h
 * and docs/sandbox.md for why strace -D and not a seccomp supervisor. */
#define _GNU_SOURCE
#include "pc_sandbox.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_xalloc.h"

#define LOG_MAX	  (16u << 20) /* trace bytes read per run */
#define PROBE_MS  20000	      /* the trial sandbox */
#define MAX_PENDING 64	      /* "<unfinished ...>" lines kept at once */

/* The traced calls. '?' lets strace skip names this architecture lacks. */
static const char trace_set[] =
	"trace=execve,connect,sendto,sendmsg,sendmmsg,"
	"?open,openat,?openat2,?creat,?mkdir,mkdirat,?mknod,mknodat,"
	"?unlink,unlinkat,?rmdir,?rename,renameat,?renameat2,?link,linkat,"
	"?symlink,symlinkat,truncate,?chmod,fchmodat,?chown,?lchown,fchownat,"
	"utimensat,setxattr,lsetxattr,removexattr,lremovexattr";

/* Calls whose interesting path is the last one (the new name). */
static const char *const two_path[] = { "rename",  "renameat", "renameat2",
					"link",	   "linkat",   "symlink",
					"symlinkat" };

static const char *const write_calls[] = {
	"open",	     "openat",	  "openat2",   "creat",	    "mkdir",
	"mkdirat",   "mknod",	  "mknodat",   "unlink",    "unlinkat",
	"rmdir",     "rename",	  "renameat",  "renameat2", "link",
	"linkat",    "symlink",	  "symlinkat", "truncate",  "chmod",
	"fchmodat",  "chown",	  "lchown",    "fchownat",  "utimensat",
	"setxattr",  "lsetxattr", "removexattr", "lremovexattr",
};

static const struct {
	const char *name;
	int num;
} signals[] = {
	{ "SIGHUP", SIGHUP },	{ "SIGINT", SIGINT },	{ "SIGQUIT", SIGQUIT },
	{ "SIGILL", SIGILL },	{ "SIGTRAP", SIGTRAP }, { "SIGABRT", SIGABRT },
	{ "SIGBUS", SIGBUS },	{ "SIGFPE", SIGFPE },	{ "SIGKILL", SIGKILL },
	{ "SIGUSR1", SIGUSR1 }, { "SIGSEGV", SIGSEGV }, { "SIGUSR2", SIGUSR2 },
	{ "SIGPIPE", SIGPIPE }, { "SIGALRM", SIGALRM }, { "SIGTERM", SIGTERM },
	{ "SIGXCPU", SIGXCPU }, { "SIGXFSZ", SIGXFSZ }, { "SIGSYS", SIGSYS },
};

/* --- finding the tools ---------------------------------------------------- */

/* find_tool - the canonical path of `override` when set, else of `name`
 * on `path`; NULL when there is none that is executable. */
static char *find_tool(const char *override, const char *name,
		       const char *path)
{
	const char *p, *end;

	if (override && *override)
		return access(override, X_OK) == 0 ? pc_fs_realpath(override)
						   : NULL;
	for (p = path ? path : "/usr/bin:/bin";; p = end + 1) {
		char *cand;

		end = strchrnul(p, ':');
		if (end > p) {
			cand = pc_xasprintf("%.*s/%s", (int)(end - p), p, name);
			if (pc_fs_is_file(cand) && access(cand, X_OK) == 0) {
				char *real = pc_fs_realpath(cand);

				free(cand);
				return real;
			}
			free(cand);
		}
		if (!*end)
			return NULL;
	}
}

/* log_path - this process's trace log. */
static char *log_path(const struct pc_sandbox *sb)
{
	return pc_xasprintf("%s/trace-%d", sb->dir, (int)getpid());
}

/* err_path - where bubblewrap's own messages go in this process's runs
 * (its stderr cannot be the plugin's: see pc_sandbox_wrap). */
static char *err_path(const struct pc_sandbox *sb)
{
	return pc_xasprintf("%s/bwrap-%d", sb->dir, (int)getpid());
}

/* The shells around bubblewrap. With a PID namespace bubblewrap keeps a
 * reaper as its pid 1 that holds its own stdin, stdout and stderr for as
 * long as anything lives in the namespace: were those the plugin's pipes,
 * a daemon without any pipe would hold the call open (the host sees EOF
 * once the plugin's own processes close them, R5.6). So the first shell
 * moves the pipes to fds 3-5 and gives bubblewrap /dev/null (stderr: the
 * message file, $0), and the second, run by bubblewrap as the command,
 * puts them back on 0-2 and closes 3-5 before it execs the plugin. Both
 * exec, so the pids stay those the host's would be. */
static const char outer_sh[] =
	"exec 3<&0 4>&1 5>&2 0</dev/null 1>/dev/null 2>>\"$0\"; exec \"$@\"";
static const char inner_sh[] =
	"exec 0<&3 1>&4 2>&5 3<&- 4>&- 5>&-; exec \"$@\"";

/* probe - a traced trial sandbox like the real ones must exit 0. */
static int probe(struct pc_sandbox *sb, struct pc_err *err)
{
	struct pc_confine_spec sp = { .workspace = sb->dir,
				      .plugin_dir = sb->dir,
				      .cwd = "/" };
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(65536, 65536);
	struct pc_strvec wrap = PC_STRVEC_INIT;
	const char *why;
	char *elog;
	int rc = 0;

	pc_sandbox_wrap(sb, &sp, &wrap);
	for (size_t i = 0; i < wrap.nr; i++)
		pc_strvec_push(&o.argv, wrap.v[i]);
	pc_strvec_push(&o.argv, "/bin/sh");
	pc_strvec_push(&o.argv, "-c");
	pc_strvec_push(&o.argv, "exit 0");
	pc_strvec_push(&o.env, "PATH=/usr/bin:/bin");
	o.timeout_ms = PROBE_MS;
	o.flags = PC_PROC_STDIN_DEVNULL;
	if (pc_proc_run(&o, &r, NULL) == 0 && r.outcome == PC_PROC_EXITED &&
	    r.has_status && !r.term_signal && r.exit_code == 0)
		goto out;
	elog = err_path(sb);
	pc_fs_read_capped(elog, &r.err, NULL); /* bubblewrap's own words */
	free(elog);
	pc_buf_addch(&r.err, '\0');
	why = r.err.len > 1 ? r.err.data : pc_proc_outcome_name(r.outcome);
	rc = pc_err_set(err, PC_ESPAWN,
			"--sandbox: bubblewrap cannot build a sandbox on this machine (%s %s): %.300s; fix: allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0), or run plugcheck as root or in a container started with --privileged or a seccomp profile that allows unshare, mount and ptrace",
			sb->bwrap, sb->strace, why);
out:
	pc_strvec_release(&wrap);
	pc_proc_result_release(&r);
	pc_proc_opts_release(&o);
	return rc;
}

static void confine_wrap(void *ctx, const struct pc_confine_spec *sp,
			 struct pc_strvec *wrap, const char **helper)
{
	const struct pc_sandbox *sb = ctx;

	pc_sandbox_wrap(sb, sp, wrap);
	*helper = sb->strace;
}

static int confine_observe(void *ctx, const struct pc_confine_spec *sp,
			   struct pc_proc_result *r, struct pc_confine_obs *obs)
{
	return pc_sandbox_observe(ctx, sp, r->pid, r, obs, NULL);
}

int pc_sandbox_open(struct pc_sandbox *sb, char *const *envp,
		    struct pc_err *err)
{
	const char *path = pc_strvec_env_get(envp, "PATH");
	const char *ob = pc_strvec_env_get(envp, "PLUGCHECK_BWRAP");
	const char *os = pc_strvec_env_get(envp, "PLUGCHECK_STRACE");

	sb->bwrap = find_tool(ob, "bwrap", path);
	if (!sb->bwrap)
		return pc_err_set(err, PC_ENOENT,
				  ob && *ob ? "--sandbox: PLUGCHECK_BWRAP='%s' is not an executable file; fix: point it at bubblewrap's bwrap, or unset it and install bubblewrap (Debian: apt-get install bubblewrap)"
					    : "--sandbox: bubblewrap (bwrap) is not on PATH%s; fix: install it (Debian: apt-get install bubblewrap) or set PLUGCHECK_BWRAP to its path",
				  ob && *ob ? ob : "");
	sb->strace = find_tool(os, "strace", path);
	if (!sb->strace) {
		pc_sandbox_release(sb);
		return pc_err_set(err, PC_ENOENT,
				  os && *os ? "--sandbox: PLUGCHECK_STRACE='%s' is not an executable file; fix: point it at strace, or unset it and install strace (Debian: apt-get install strace)"
					    : "--sandbox: strace is not on PATH%s (the sandbox uses it to see what a plugin tries); fix: install it (Debian: apt-get install strace) or set PLUGCHECK_STRACE to its path",
				  os && *os ? os : "");
	}
	sb->dir = pc_fs_mkdtemp("sandbox");
	if (!sb->dir) {
		pc_sandbox_release(sb);
		return pc_err_set_errno(err, PC_EIO, errno,
					"--sandbox: cannot create a temporary directory");
	}
	sb->tmp = pc_fs_join(sb->dir, "tmp");
	if (pc_fs_mkdir_p(sb->tmp, NULL)) {
		pc_sandbox_release(sb);
		return pc_err_set_errno(err, PC_EIO, errno,
					"--sandbox: cannot create a temporary directory");
	}
	if (probe(sb, err)) {
		pc_sandbox_release(sb);
		return PC_ESPAWN;
	}
	sb->confine = (struct pc_confine){ .ctx = sb,
					   .wrap = confine_wrap,
					   .observe = confine_observe };
	return 0;
}

void pc_sandbox_release(struct pc_sandbox *sb)
{
	if (sb->dir)
		pc_fs_rm_rf(sb->dir);
	free(sb->bwrap);
	free(sb->strace);
	free(sb->dir);
	free(sb->tmp);
	*sb = (struct pc_sandbox)PC_SANDBOX_INIT;
}

/* under - `path` is `dir` or inside it, component by component (a NULL
 * or empty `dir` holds nothing). */
static bool under(const char *path, const char *dir)
{
	return dir && *dir && pc_fs_is_under(path, dir);
}


/* --- the command line ----------------------------------------------------- */

struct bind {
	const char *opt; /* "--bind" or "--ro-bind" */
	char *src;	 /* canonical */
	char *path;	 /* where the plugin sees it */
};

static int cmp_bind(const void *a, const void *b)
{
	const struct bind *x = a, *y = b;
	size_t lx = strlen(x->path), ly = strlen(y->path);

	/* parents first, so a nested bind wins inside its parent */
	return (lx > ly) - (lx < ly);
}

/* add_bind - `src` (NULL: `path` itself) on `path`, both directories.
 * A `path` that does not exist is fine only under /tmp (the tmpfs, where
 * bubblewrap can make it). Never "/". */
static void add_bind(struct bind *v, size_t *n, const char *opt,
		     const char *src, const char *path)
{
	char *real, *rsrc;

	if (!path || path[0] != '/')
		return;
	real = pc_fs_realpath(path);
	if (!real && !strncmp(path, "/tmp/", 5))
		real = pc_fs_absolute(path); /* folded, not resolved */
	rsrc = src ? pc_fs_realpath(src) : real ? pc_xstrdup(real) : NULL;
	if (!real || !rsrc || !pc_fs_is_dir(rsrc) || !strcmp(real, "/") ||
	    !strcmp(rsrc, "/")) {
		free(real);
		free(rsrc);
		return;
	}
	v[*n].opt = opt;
	v[*n].src = rsrc;
	v[(*n)++].path = real;
}

void pc_sandbox_wrap(const struct pc_sandbox *sb,
		     const struct pc_confine_spec *sp, struct pc_strvec *wrap)
{
	struct bind *b;
	size_t nb = 0, nmore = 0;
	char *log;
	int fd;

	while (sp->more_ro && sp->more_ro[nmore])
		nmore++;
	b = pc_xcalloc(8 + nmore, sizeof(*b));
	log = err_path(sb);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	free(log);
	log = log_path(sb);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	pc_strvec_push(wrap, sb->strace);
	/* -D: the tracer is no ancestor of the plugin; -y: paths of fds;
	 * -q: no attach messages on the plugin's stderr; signals stay in
	 * the trace, as "+++ killed by SIG..." is logged only for them */
	pc_strvec_push(wrap, "-D");
	pc_strvec_push(wrap, "-f");
	pc_strvec_push(wrap, "-q");
	pc_strvec_push(wrap, "-y");
	pc_strvec_push(wrap, "--seccomp-bpf");
	pc_strvec_push(wrap, "-s");
	pc_strvec_push(wrap, "4096");
	pc_strvec_push(wrap, "-e");
	pc_strvec_push(wrap, trace_set);
	pc_strvec_push(wrap, "-o");
	pc_strvec_push_nodup(wrap, log);
	pc_strvec_push(wrap, "/bin/sh");
	pc_strvec_push(wrap, "-c");
	pc_strvec_push(wrap, outer_sh);
	pc_strvec_push_nodup(wrap, err_path(sb));
	pc_strvec_push(wrap, sb->bwrap);
	/* a PID namespace, and a /proc of its own: the plugin can neither
	 * see nor signal plugcheck or anything else outside (issue 21).
	 * No --die-with-parent: with a PID namespace it would end the
	 * namespace, and so every background process of the plugin, as soon
	 * as the plugin exits - the host lets them live (R5.9) and waits for
	 * the pipes they hold (R5.6); pc_proc's sweep kills them instead */
	pc_strvec_push(wrap, "--unshare-pid");
	pc_strvec_push(wrap, "--unshare-ipc");
	if (!sp->network)
		pc_strvec_push(wrap, "--unshare-net");
	/* /sys and the rest come read-only with the root */
	pc_strvec_push(wrap, "--ro-bind");
	pc_strvec_push(wrap, "/");
	pc_strvec_push(wrap, "/");
	pc_strvec_push(wrap, "--proc");
	pc_strvec_push(wrap, "/proc");
	pc_strvec_push(wrap, "--dev");
	pc_strvec_push(wrap, "/dev");
	pc_strvec_push(wrap, "--tmpfs");
	pc_strvec_push(wrap, "/tmp");
	if (sp->home && !strncmp(sp->home, "/tmp/", 5)) {
		/* HOME's parent would be a directory bubblewrap makes in the
		 * private /tmp, silently taking writes next to HOME: show the
		 * real one, read-only */
		char *parent = pc_fs_absolute(sp->home), *slash;

		slash = strrchr(parent, '/');
		*slash = '\0';
		if (strcmp(parent, "/tmp"))
			add_bind(b, &nb, "--ro-bind", NULL, parent);
		free(parent);
	}
	add_bind(b, &nb, "--bind", NULL, sp->home);
	/* TMPDIR: the same path, but the sandbox's own private directory */
	add_bind(b, &nb, "--bind", sb->tmp, sp->tmpdir);
	add_bind(b, &nb, sp->write_workspace ? "--bind" : "--ro-bind", NULL,
		 sp->workspace);
	add_bind(b, &nb, "--ro-bind", NULL, sp->plugin_dir);
	for (size_t i = 0; i < nmore; i++)
		add_bind(b, &nb, "--ro-bind", NULL, sp->more_ro[i]);
	if (sp->cwd && !strncmp(sp->cwd, "/tmp/", 5)) {
		/* under the tmpfs: show it, unless a bind above shows it
		 * already (a read-only bind must not cover a writable one) */
		char *cwd = pc_fs_realpath(sp->cwd);
		bool shown = false;

		for (size_t i = 0; cwd && i < nb; i++) /* the real one */
			shown = shown || (under(cwd, b[i].path) &&
					  !strcmp(b[i].src, b[i].path));
		if (cwd && !shown)
			add_bind(b, &nb, "--ro-bind", NULL, cwd);
		free(cwd);
	}
	qsort(b, nb, sizeof(*b), cmp_bind);
	for (size_t i = 0; i < nb; i++) {
		pc_strvec_push(wrap, b[i].opt);
		pc_strvec_push(wrap, b[i].src);
		pc_strvec_push(wrap, b[i].path);
		free(b[i].src);
		free(b[i].path);
	}
	free(b);
	if (sp->cwd) {
		pc_strvec_push(wrap, "--chdir");
		pc_strvec_push(wrap, sp->cwd);
	}
	pc_strvec_push(wrap, "--");
	pc_strvec_push(wrap, "/bin/sh");
	pc_strvec_push(wrap, "-c");
	pc_strvec_push(wrap, inner_sh);
	pc_strvec_push(wrap, "sh");
}

/* --- the trace ------------------------------------------------------------ */

static void add_obs(struct pc_strvec *v, char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s)) {
			free(s);
			return;
		}
	if (v->nr < PC_CONFINE_MAX_OBS)
		pc_strvec_push_nodup(v, s);
	else
		free(s);
}

/* unescape_one - append to `b` the byte strace's escape at `p` (just
 * after a backslash) stands for - \NNN octal (how it prints non-ASCII
 * and control bytes), \xHH, \n \t \r \v \f \a \b, or the character
 * itself (\\, \", ...) - and return the first character after it. */
static const char *unescape_one(struct pc_buf *b, const char *p)
{
	static const char from[] = "ntrvfab", to[] = "\n\t\r\v\f\a\b";
	const char *k;
	unsigned v = 0;
	int n = 0;

	if (*p >= '0' && *p <= '7') {
		for (; n < 3 && *p >= '0' && *p <= '7'; n++, p++)
			v = v * 8 + (unsigned)(*p - '0');
		pc_buf_addch(b, (char)v);
		return p;
	}
	if (*p == 'x' && isxdigit((unsigned char)p[1])) {
		for (p++; n < 2 && isxdigit((unsigned char)*p); n++, p++)
			v = v * 16 + (unsigned)(isdigit((unsigned char)*p)
							? *p - '0'
							: (*p | 0x20) - 'a' + 10);
		pc_buf_addch(b, (char)v);
		return p;
	}
	if (*p && (k = strchr(from, *p)))
		pc_buf_addch(b, to[k - from]);
	else if (*p)
		pc_buf_addch(b, *p);
	return *p ? p + 1 : p;
}

/* quoted - the string argument starting after the opening '"' at `p`,
 * strace's escapes decoded (paths with non-ASCII bytes are printed as
 * octal escapes); *end is set past the closing '"'. NULL when the string
 * is not closed (strace -s cut it). New string. */
static char *quoted(const char *p, const char **end)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	while (*p && *p != '"') {
		if (*p == '\\')
			p = unescape_one(&b, p + 1);
		else
			pc_buf_addch(&b, *p++);
	}
	if (*p != '"') {
		pc_buf_release(&b);
		return NULL;
	}
	*end = p + 1;
	return pc_buf_detach(&b, NULL);
}

/* dir_of - the directory an fd argument names: "AT_FDCWD</d>" or
 * "3</d>" (strace -y, escapes as in quoted()); `fallback` when strace
 * could not tell. */
static char *dir_of(const char *arg, const char *fallback)
{
	const char *lt = strchr(arg, '<'), *gt, *p;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!lt || lt[1] != '/' || !(gt = strchr(lt, '>')) ||
	    (size_t)(gt - lt) >= (size_t)PATH_MAX)
		return pc_xstrdup(fallback ? fallback : "/");
	for (p = lt + 1; p < gt;) {
		if (*p == '\\')
			p = unescape_one(&b, p + 1);
		else
			pc_buf_addch(&b, *p++);
	}
	return pc_buf_detach(&b, NULL);
}


static bool is_one_of(const char *name, size_t n, const char *const *set,
		      size_t nset)
{
	for (size_t i = 0; i < nset; i++)
		if (strlen(set[i]) == n && !memcmp(set[i], name, n))
			return true;
	return false;
}

/* prev_arg - the start of the argument before the one at `q` (a '"'),
 * or NULL when `q` is the first. */
static const char *prev_arg(const char *args, const char *q)
{
	const char *c = q;

	if (c - args < 2 || c[-2] != ',' || c[-1] != ' ')
		return NULL;
	c -= 2;
	while (c > args && c[-1] != ',')
		c--;
	while (*c == ' ')
		c++;
	return c;
}

/* judge_write - a file call refused with EROFS: record its path, the
 * first string argument (the last for renames and links), resolved
 * against the fd argument before it (*at calls) or the working directory.
 * `args` is the text after '('. */
static void judge_write(const char *name, size_t n, const char *args,
			const struct pc_confine_spec *sp,
			struct pc_confine_obs *obs)
{
	bool last = is_one_of(name, n, two_path,
			      sizeof(two_path) / sizeof(*two_path));
	bool at = (n > 2 && !memcmp(name + n - 2, "at", 2) &&
		   (n != 5 || memcmp(name, "creat", 5))) ||
		  (n > 3 && !memcmp(name + n - 3, "at2", 3));
	const char *p = args, *q, *end, *fdarg = NULL;
	char *path = NULL, *dir, *full, *ws;

	while ((q = strchr(p, '"'))) {
		char *s = quoted(q + 1, &end);

		if (!s)
			break;
		free(path);
		path = s;
		fdarg = at ? prev_arg(args, q) : NULL;
		p = end;
		if (!last)
			break;
	}
	if (!path)
		return;
	if (path[0] == '/') {
		full = path;
	} else {
		dir = dir_of(fdarg ? fdarg : "", sp->cwd);
		full = pc_xasprintf("%s/%s", dir, path);
		free(dir);
		free(path);
	}
	path = full;
	full = pc_fs_absolute(path); /* "." and ".." folded lexically */
	free(path);
	if (strstr(full, "/__pycache__/") || (strlen(full) >= 12 &&
	    !strcmp(full + strlen(full) - 12, "/__pycache__"))) {
		/* Python caching bytecode next to a read-only module: the
		 * interpreter's habit, not the plugin's doing */
		free(full);
		return;
	}
	ws = sp->workspace ? pc_fs_realpath(sp->workspace) : NULL;
	if ((ws && under(full, ws)) || under(full, sp->workspace))
		add_obs(&obs->ws_writes, full);
	else
		add_obs(&obs->out_writes, full);
	free(ws);
}

/* judge_net - a network call: record an AF_INET/AF_INET6 destination. */
static void judge_net(const char *args, struct pc_confine_obs *obs)
{
	const char *fam = strstr(args, "sa_family=AF_INET"), *a, *port;
	bool six;
	char *addr, *e;
	const char *end;

	if (!fam)
		return;
	six = fam[17] == '6';
	if (!six && fam[17] != ',' && fam[17] != '}')
		return;
	port = strstr(fam, "port=htons(");
	a = six ? strstr(fam, "inet_pton(AF_INET6, \"")
		: strstr(fam, "inet_addr(\"");
	if (!a)
		return;
	a = strchr(a, '"') + 1;
	addr = quoted(a, &end);
	if (!addr)
		return;
	e = pc_xasprintf(six ? "[%s]:%ld" : "%s:%ld", addr,
			 port ? strtol(port + 11, NULL, 10) : 0L);
	free(addr);
	add_obs(&obs->net, e);
}

static int signal_num(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++)
		if (strlen(signals[i].name) == n &&
		    !memcmp(signals[i].name, name, n))
			return signals[i].num;
	return 0;
}

struct parse {
	const struct pc_confine_spec *sp;
	struct pc_confine_obs *obs;
	long monitor, plugin; /* pids; plugin 0 until its execve */
	struct {
		long pid;
		char *text;
	} pend[MAX_PENDING];
};

/* one_call - "name(args) = result" of pid `pid`, whole. */
static void one_call(struct parse *ps, long pid, const char *call)
{
	const char *paren = strchr(call, '('), *res;
	size_t n;

	if (!paren)
		return;
	n = (size_t)(paren - call);
	if (!ps->plugin) {
		if (n == 6 && !memcmp(call, "execve", 6) && pid != ps->monitor)
			ps->plugin = pid;
		return; /* bubblewrap's own setup */
	}
	if ((n == 7 && !memcmp(call, "connect", 7)) ||
	    (n == 6 && !memcmp(call, "sendto", 6)) ||
	    (n == 7 && !memcmp(call, "sendmsg", 7)) ||
	    (n == 8 && !memcmp(call, "sendmmsg", 8))) {
		if (!ps->sp->network) /* else not an attempt past it */
			judge_net(paren, ps->obs);
		return;
	}
	res = strstr(paren, ") = -1 EROFS ");
	if (res && is_one_of(call, n, write_calls,
			     sizeof(write_calls) / sizeof(*write_calls)))
		judge_write(call, n, paren + 1, ps->sp, ps->obs);
}

/* exit_line - "+++ killed by SIGSEGV (core dumped) +++" of the plugin. */
static void exit_line(struct parse *ps, long pid, const char *rest)
{
	const char *sig;
	size_t n = 0;

	if (!ps->plugin || pid != ps->plugin ||
	    strncmp(rest, "+++ killed by ", 14))
		return;
	sig = rest + 14;
	while (sig[n] >= 'A' && sig[n] <= 'Z')
		n++;
	while (sig[n] && sig[n] != ' ' && sig[n] != '+')
		n++;
	ps->obs->term_signal = signal_num(sig, n);
	ps->obs->core_dumped = strstr(sig, "(core dumped)") != NULL;
}

static void pend_put(struct parse *ps, long pid, const char *text, size_t n)
{
	for (size_t i = 0; i < MAX_PENDING; i++)
		if (!ps->pend[i].text) {
			ps->pend[i].pid = pid;
			ps->pend[i].text = pc_xmemdup(text, n);
			return;
		}
}

static char *pend_take(struct parse *ps, long pid)
{
	for (size_t i = 0; i < MAX_PENDING; i++)
		if (ps->pend[i].text && ps->pend[i].pid == pid) {
			char *t = ps->pend[i].text;

			ps->pend[i].text = NULL;
			return t;
		}
	return NULL;
}

static void one_line(struct parse *ps, const char *line, size_t len)
{
	static const char unf[] = " <unfinished ...>";
	char *text = pc_xmemdup(line, len), *rest, *res;
	long pid = strtol(text, &rest, 10);

	if (rest == text)
		goto out;
	while (*rest == ' ')
		rest++;
	if (!strncmp(rest, "+++ ", 4)) {
		exit_line(ps, pid, rest);
	} else if (!strncmp(rest, "<... ", 5)) {
		char *head = pend_take(ps, pid);

		res = strstr(rest, " resumed>");
		if (head && res) {
			char *whole = pc_xasprintf("%s%s", head, res + 9);

			one_call(ps, pid, whole);
			free(whole);
		}
		free(head);
	} else if (len > sizeof(unf) &&
		   !strcmp(text + strlen(text) - (sizeof(unf) - 1), unf)) {
		pend_put(ps, pid, rest, strlen(rest) - (sizeof(unf) - 1));
	} else {
		one_call(ps, pid, rest);
	}
out:
	free(text);
}

void pc_sandbox_parse(const char *text, size_t len,
		      const struct pc_confine_spec *sp, int monitor_pid,
		      struct pc_confine_obs *obs)
{
	struct parse ps = { .sp = sp, .obs = obs, .monitor = monitor_pid };
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		one_line(&ps, p, n);
		p += n + 1;
	}
	for (size_t i = 0; i < MAX_PENDING; i++)
		free(ps.pend[i].text);
}

int pc_sandbox_observe(const struct pc_sandbox *sb,
		       const struct pc_confine_spec *sp, int monitor_pid,
		       struct pc_proc_result *r, struct pc_confine_obs *obs,
		       struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(LOG_MAX);
	struct pc_err e = PC_ERR_INIT;
	char *log = log_path(sb);
	int rc = pc_fs_read_capped(log, &b, &e);

	free(log);
	obs->active = true;
	if (rc == PC_EFBIG) {
		/* the first LOG_MAX bytes were read: use them, and say so */
		rc = 0;
		free(obs->trace_error);
		obs->trace_error = pc_xasprintf(
			"the sandbox trace is over %u bytes: only its start was read, so later attempts are not reported",
			LOG_MAX);
	}
	if (rc) {
		free(obs->trace_error);
		obs->trace_error = pc_xasprintf(
			"the sandbox trace could not be read (%s): what the plugin tried is unknown",
			e.msg);
		if (err)
			*err = e;
		pc_buf_release(&b);
		return rc;
	}
	pc_sandbox_parse(b.data ? b.data : "", b.len, sp, monitor_pid, obs);
	pc_buf_release(&b);
	if (obs->term_signal && r->has_status && !r->term_signal &&
	    r->exit_code == 128 + obs->term_signal) {
		r->term_signal = obs->term_signal;
		r->exit_code = 0;
		r->core_dumped = obs->core_dumped;
	}
	return 0;
}

/* pc_chatcli_icheck.c - install-check for ChatCLI (pc_chatcli_icheck.h):
 * the host's /plugin install, the watcher's reloads on a virtual clock,
 * the manual install of trees the host cannot build, then the suite. */
#include "pc_chatcli_icheck.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_chatcli.h"
#include "pc_chatcli_suite.h"
#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_time.h"
#include "pc_xalloc.h"

extern char **environ;

#define CLASS	 "plugcheck.install"
#define KEY_NAME "plugcheck-install-check"
#define LOOP_MAX 3 /* reloads in a row caused by reloads: a loop */

struct ic {
	const struct pc_chatcli_icheck_opts *o;
	struct pc_report *r;
	struct pc_strvec *log;
	char *scratch, *home, *plugins, *keys, *tmp, *cwd, *signdir;
	struct pc_strvec env;	 /* plugcheck's, HOME = the throwaway one */
	struct pc_strvec placed; /* file names put in the plugins dir */
	/* the watcher replay */
	int fd;
	struct pc_chatcli_debounce db;
	int64_t now; /* virtual ms */
	int reloads, chain;
	int64_t cost_max, cost_sum;
	struct pc_strvec loop_files;
	bool looped;
	struct pc_chatcli_dir last;
};

static void logf_(struct ic *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void logf_(struct ic *c, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc_strvec_push(c->log, pc_buf_cstr(&b));
	pc_buf_release(&b);
}

/* A case named `name` with `out` as system_out (may be NULL); `skip`
 * (may be NULL) says why it did not run. */
static size_t add_case(struct ic *c, const char *name, const char *skip,
		       const char *out)
{
	size_t k = pc_report_add_case(c->r, CLASS, name, out, 0.0);

	if (skip)
		pc_report_skip(c->r, k, skip);
	return k;
}

/* A case named `name` that fails with finding `id` about `file`. */
static void fail_case(struct ic *c, const char *name, const char *id,
		      const char *file, const char *out, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void fail_case(struct ic *c, const char *name, const char *id,
		      const char *file, const char *out, const char *fmt, ...)
{
	size_t k = add_case(c, name, NULL, out);
	va_list ap;

	va_start(ap, fmt);
	pc_report_vfind(c->r, k, id, file, NULL, fmt, ap);
	va_end(ap);
}

/* A finding that belongs to no step: the case "<ID> <title>". */
static void loose(struct ic *c, const char *id, const char *file,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void loose(struct ic *c, const char *id, const char *file,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pc_report_vfind_static(c->r, CLASS, id, file, NULL, fmt, ap);
	va_end(ap);
}

/* first_line - the line of git's or go's output that says what went
 * wrong: the first "fatal:" or "error:" line (git prints progress first),
 * else the first non-empty line; at most 300 bytes. */
static char *first_line(const char *s)
{
	const char *p = s;
	size_t n;
	char *line;

	for (; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0'))
		if (!strncmp(p, "fatal:", 6) || !strncmp(p, "error:", 6))
			break;
	if (!*p)
		p = s;
	while (*p == '\n')
		p++;
	n = strcspn(p, "\n");
	/* "go: errors parsing go.mod:" says why on the next line */
	if (n && p[n - 1] == ':' && p[n] == '\n')
		n += 1 + strcspn(p + n + 1, "\n");
	line = pc_xmemdup(p, n > 300 ? 300 : n);
	for (char *q = line; *q; q++)
		if (*q == '\n')
			*q = ' ';
	return line;
}

/* --- the watcher replay (D9, D10) ---------------------------------------- */

static bool has(const struct pc_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static struct pc_chatcli_entry *entry(const struct pc_chatcli_dir *d,
				      const char *file)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->v[i].file, file))
			return &d->v[i];
	return NULL;
}

/* verdict - what the last reload made of `file`; *loaded (may be NULL)
 * says whether it is registered. Returns a new string. */
static char *verdict(const struct ic *c, const char *file, bool *loaded)
{
	const struct pc_chatcli_entry *e = entry(&c->last, file);
	bool ok = e && !e->sig_error && e->registered;

	if (loaded)
		*loaded = ok;
	if (!e)
		return pc_xstrdup("absent");
	if (e->sig_error)
		return pc_xasprintf("rejected: %s", e->sig_error);
	if (!e->probe.loaded)
		return pc_xasprintf("rejected: %s",
				    e->probe.host_error ? e->probe.host_error
							: "?");
	if (!e->registered)
		return pc_xasprintf("replaced by %s", e->replaced_by);
	return pc_xasprintf("loaded as \"%s\"", e->probe.meta.name);
}

/* sim_events - drain the watch and feed the debounce at the virtual now;
 * `by_reload`: the events come from a reload's probes. */
static void sim_events(struct ic *c, bool by_reload)
{
	struct pc_chatcli_fsevent *v = NULL;
	size_t n = 0;
	bool any = false;

	pc_chatcli_watch_drain(c->fd, &v, &n);
	for (size_t i = 0; i < n; i++) {
		char ops[64];
		bool q = pc_chatcli_debounce_event(&c->db, v[i].ops, c->now);

		if (i && v[i].ops == v[i - 1].ops &&
		    !strcmp(v[i].name, v[i - 1].name))
			continue;
		logf_(c, "  %6lld ms  %-13s %s%s", (long long)c->now,
		      pc_chatcli_fsops_str(v[i].ops, ops, sizeof(ops)),
		      v[i].name,
		      q ? (by_reload ? "  (caused by the reload)" : "")
			: "  (ignored: Chmod)");
		if (q && by_reload && !has(&c->loop_files, v[i].name))
			pc_strvec_push(&c->loop_files, v[i].name);
		any |= q;
	}
	if (by_reload)
		c->chain = any ? c->chain + 1 : 0;
	pc_chatcli_fsevents_free(v, n);
}

static void sim_reload(struct ic *c, const char *why)
{
	struct pc_chatcli_disc_opts d = { 0 };
	int64_t t0 = pc_time_now_ms(), cost;

	d.keys_dir = c->keys;
	d.allow_unsigned = c->o->allow_unsigned;
	d.env = &c->env;
	d.cwd = c->cwd;
	d.probe_timeout_ms = c->o->probe_timeout_ms;
	pc_chatcli_dir_release(&c->last);
	pc_chatcli_discover(c->plugins, &d, &c->last, NULL);
	cost = pc_time_now_ms() - t0;
	c->reloads++;
	c->cost_sum += cost;
	if (cost > c->cost_max)
		c->cost_max = cost;
	logf_(c, "  %6lld ms  reload (%s): %lld ms with the manager lock held",
	      (long long)c->now, why, (long long)cost);
	for (size_t i = 0; i < c->placed.nr; i++) {
		char *v = verdict(c, c->placed.v[i], NULL);

		logf_(c, "             %s: %s", c->placed.v[i], v);
		free(v);
	}
	sim_events(c, true);
}

/* sim_advance - let virtual time pass to `until`, running the reloads the
 * debounce fires on the way. */
static void sim_advance(struct ic *c, int64_t until)
{
	int64_t at;

	while (pc_chatcli_debounce_fire(&c->db, until, &at)) {
		if (at > c->now)
			c->now = at;
		if (c->chain >= LOOP_MAX) {
			c->looped = true;
			logf_(c,
			      "  %6lld ms  ... every reload schedules another: stopped after %d",
			      (long long)c->now, c->chain);
			c->db.armed = false;
			break;
		}
		sim_reload(c, "watcher, 500 ms after the last event");
	}
	if (until > c->now)
		c->now = until;
}

/* --- signing helpers (G4, G6.B) --------------------------------------------
 */

static char *sign_key(struct ic *c)
{
	return pc_fs_join(c->signdir, "plugin-signing.key");
}

static void trust(struct ic *c, bool on)
{
	char *pub = pc_fs_join(c->signdir, "plugin-signing.pub");
	char *path = pc_fs_join(c->keys, KEY_NAME ".pub");

	if (on)
		pc_chatcli_trust(pub, c->keys, KEY_NAME, NULL, NULL);
	else
		unlink(path);
	free(pub);
	free(path);
}

static void sign(struct ic *c, const char *file, bool on)
{
	char *p = pc_fs_join(c->plugins, file), *sig, *key = sign_key(c);

	sig = pc_xasprintf("%s.sig", p);
	if (on)
		pc_chatcli_sign(p, key, NULL, NULL);
	else
		unlink(sig);
	free(sig);
	free(key);
	free(p);
}

/* --- the host's install (I2-I5) -------------------------------------------
 */

static void report_install(struct ic *c, const struct pc_chatcli_install *in)
{
	const char *stage = in->stage == PC_CHATCLI_INSTALL_CLONE ? "clone"
			    : in->stage == PC_CHATCLI_INSTALL_SUBDIR
				    ? "subdirectory"
				    : "build";
	char *line = first_line(in->output);

	logf_(c,
	      "  clone:  git clone --depth=1%s%s %s <tmp>/%s -> %s (%lld ms)",
	      *in->url.branch ? " --branch " : "", in->url.branch,
	      in->url.clone_url, strrchr(in->clone_dir, '/') + 1,
	      in->stage == PC_CHATCLI_INSTALL_CLONE ? in->error : "ok",
	      (long long)in->clone_ms);
	if (in->stage == PC_CHATCLI_INSTALL_CLONE) {
		logf_(c, "          %s", line);
		fail_case(c, "clone", "PC-CHAT-073", NULL, in->output,
			  "git clone of '%s' fails: %s: %s", in->url.clone_url,
			  in->error, line);
		free(line);
		return;
	}
	add_case(c, "clone", NULL, NULL);
	if (in->stage == PC_CHATCLI_INSTALL_SUBDIR) {
		fail_case(c, stage, "PC-CHAT-073", NULL, NULL, "%s", in->error);
		logf_(c, "  %s", in->error);
	} else {
		logf_(c, "  name:   %s%s", in->name,
		      *in->url.subdir
			      ? " (the last segment of the /tree/ path)"
			      : " (the host's temporary clone directory: a plain URL)");
	}
	free(line);
}

/* judge_build - the build step's outcome; returns true when the binary
 * was installed. */
static bool judge_build(struct ic *c, const struct pc_chatcli_install *in)
{
	char *line = first_line(in->output);
	bool done = in->stage == PC_CHATCLI_INSTALL_DONE;

	logf_(c, "  build:  go build -o $HOME/.chatcli/plugins/%s . -> %s%s",
	      in->name, done ? "ok" : in->error,
	      in->build_skipped ? " (not run: go is not available)" : "");
	if (*line)
		logf_(c, "          %s", line);
	if (done) {
		add_case(c, "build", NULL, in->output);
	} else if (in->build_skipped && in->go_tree) {
		add_case(
			c, "build",
			"go is not available: the Go tree was not built (install Go, or pass --go PATH)",
			NULL);
	} else {
		fail_case(
			c, "build", "PC-CHAT-072", NULL, in->output,
			"/plugin install runs `go build -o PLUGINS/%s .` in %s, which fails: %s%s%s%s",
			in->name,
			*in->url.subdir ? in->url.subdir
					: "the repository root",
			in->error,
			in->go_tree ? "" : " (the tree has no .go files there)",
			*line ? ": " : "", line);
	}
	free(line);
	return done;
}

/* --- the manual install of a tree the host cannot build -------------------
 */

static bool is_candidate(const char *path)
{
	char head[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head));

	if (fd >= 0)
		close(fd);
	return (n >= 2 && head[0] == '#' && head[1] == '!') ||
	       (n == 4 && !memcmp(head,
				  "\x7f"
				  "ELF",
				  4));
}

/* cp_file - `cp SRC DST` for a new DST: mode of SRC, minus the umask. */
static int cp_file(const char *src, const char *dst, mode_t mode)
{
	struct pc_buf b = PC_BUF_INIT(256u << 20);
	int fd, rc = -1;

	if (pc_fs_read_capped(src, &b, NULL) == 0 &&
	    (fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       mode & 0777)) >= 0) {
		rc = b.len && write(fd, b.data, b.len) != (ssize_t)b.len ? -1
									 : 0;
		close(fd);
	}
	pc_buf_release(&b);
	return rc;
}

static void run_make(struct ic *c, const char *dir)
{
	struct pc_proc_opts po = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(1u << 20, 1u << 20);
	bool ok;

	pc_strvec_push(&po.argv, "make");
	for (char **e = environ; *e; e++)
		pc_strvec_push(&po.env, *e);
	po.cwd = dir;
	po.flags = PC_PROC_STDIN_DEVNULL;
	po.timeout_ms = c->o->build_timeout_ms;
	ok = !pc_proc_run(&po, &r, NULL) && r.outcome == PC_PROC_EXITED &&
	     r.has_status && !r.exit_code && !r.term_signal;
	logf_(c, "  make:   %s (%lld ms)", ok ? "ok" : "failed",
	      (long long)r.wall_ms);
	/* a user's fallback, not the host's: make's result is shown, not
	 * judged */
	add_case(c, ok ? "manual install: make" : "manual install: make (failed)",
		 NULL, pc_buf_cstr(&r.err));
	pc_proc_result_release(&r);
	pc_proc_opts_release(&po);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* place - cp each candidate of `dir` into the plugins dir with its .sig;
 * returns how many; *nox collects those without an execute bit. */
static size_t place(struct ic *c, const char *dir, struct pc_strvec *nox)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct pc_strvec names = PC_STRVEC_INIT;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			pc_strvec_push(&names, de->d_name);
	if (d)
		closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++) {
		char *src = pc_fs_join(dir, names.v[i]);
		char *dst = pc_fs_join(c->plugins, names.v[i]);
		struct stat st;

		if (lstat(src, &st) == 0 && S_ISREG(st.st_mode) &&
		    is_candidate(src) && cp_file(src, dst, st.st_mode) == 0) {
			pc_strvec_push(&c->placed, names.v[i]);
			logf_(c,
			      "  cp:     %s -> $HOME/.chatcli/plugins/ (mode %04o as checked out)",
			      names.v[i], (unsigned)(st.st_mode & 0777));
			if (!(st.st_mode & 0111))
				pc_strvec_push(nox, names.v[i]);
			sign(c, names.v[i], true);
		}
		free(src);
		free(dst);
	}
	pc_strvec_release(&names);
	return c->placed.nr;
}

/* manual - what a user does when /plugin install cannot build the tree:
 * make, cp (with a .sig made by a trusted key, so only the mode matters),
 * chmod +x a second later (D9: no reload follows a Chmod). */
static void manual(struct ic *c, const char *dir)
{
	struct pc_strvec nox = PC_STRVEC_INIT;
	char *mk = pc_fs_join(dir, "Makefile");

	logf_(c, "manual install (what a user falls back to; not the host's):");
	if (pc_fs_is_file(mk))
		run_make(c, dir);
	trust(c, true);
	c->now = 0;
	if (!place(c, dir, &nox)) {
		logf_(c,
		      "  nothing to place: no top-level file starts with #! or is an ELF executable");
		add_case(c, "manual install: cp",
			 "nothing to place: no top-level file starts with #! or is an ELF executable",
			 NULL);
		goto out;
	}
	/* docs/cli.md lists this case as pass / fail: it was only there
	 * when it failed (found in a fresh-user trial) */
	add_case(c, "manual install: cp", NULL, NULL);
	logf_(c,
	      "reloads (virtual clock; Write/Create/Remove/Rename arm a 500 ms debounce, Chmod does not):");
	sim_events(c, false);
	sim_advance(c, 1000);
	for (size_t i = 0; i < nox.nr; i++) {
		char *p = pc_fs_join(c->plugins, nox.v[i]);

		logf_(c, "  %6lld ms  chmod +x %s", (long long)c->now,
		      nox.v[i]);
		chmod(p, 0755);
		free(p);
	}
	sim_events(c, false);
	sim_advance(c, 2000);
	for (size_t i = 0; i < nox.nr; i++) {
		bool ok;
		char *v = verdict(c, nox.v[i], &ok);

		if (!ok)
			fail_case(
				c, "cp, then chmod +x 1 s later", "PC-CHAT-080",
				nox.v[i], NULL,
				"'%s'%s: `cp %s ~/.chatcli/plugins/` then `chmod +x` 1000 ms later leaves it %s%s",
				nox.v[i],
				strstr(v, "not executable")
					? " is committed without an execute bit"
					: "",
				nox.v[i], v,
				strstr(v, "not executable")
					? " (the reload at 500 ms ran before the chmod, and a chmod triggers none)"
					: "");
		else
			add_case(c, "cp, then chmod +x 1 s later", NULL, NULL);
		free(v);
	}
	sim_reload(c, "/plugin reload");
	for (size_t i = 0; i < c->placed.nr; i++)
		sign(c, c->placed.v[i], false);
out:
	trust(c, false);
	sim_events(c, false);
	sim_advance(c, c->now + 1000);
	free(mk);
	pc_strvec_release(&nox);
}

/* --- the host install's reloads and the signing fix ------------------------
 */

static void fix_case(struct ic *c, const char *file, bool trust_first)
{
	const char *name = trust_first
				   ? "signing fix: trust the key, then sign"
				   : "signing fix: sign, then trust the key";
	bool ok;
	char *v;

	logf_(c, "  %s:", name + strlen("signing fix: "));
	for (int step = 0; step < 2; step++) {
		bool do_trust = (step == 0) == trust_first;

		logf_(c, "  %6lld ms  %s", (long long)c->now,
		      do_trust
			      ? "plugcheck trust KEY.pub (into trusted-keys/, which is not watched)"
			      : "plugcheck sign PLUGIN --key KEY");
		if (do_trust)
			trust(c, true);
		else
			sign(c, file, true);
		sim_events(c, false);
		if (!step)
			sim_advance(c, c->now + 1000);
	}
	sim_events(c, false);
	sim_advance(c, c->now + 1000);
	v = verdict(c, file, &ok);
	logf_(c, "             -> %s%s", v,
	      ok ? ""
		 : " until the next reload (trusted keys are not watched)");
	add_case(c, name, NULL, v);
	free(v);
	sign(c, file, false);
	trust(c, false);
	sim_events(c, false);
	sim_advance(c, c->now + 1000);
}

static void host_reloads(struct ic *c, const struct pc_chatcli_install *in)
{
	struct pc_chatcli_entry *e;
	bool ok;
	char *v;

	pc_strvec_push(&c->placed, in->name);
	logf_(c,
	      "reloads (virtual clock; Write/Create/Remove/Rename arm a 500 ms debounce, Chmod does not):");
	c->now = 0;
	sim_events(c, false);
	sim_reload(c, "/plugin install");
	sim_advance(c, 1000);
	v = verdict(c, in->name, &ok);
	if (!ok && strstr(v, "plugin signature file not found"))
		loose(
			c, "PC-CHAT-070", in->name,
			"/plugin install puts '%s' in the plugins directory unsigned: both reloads that follow skip it (plugin signature file not found)",
			in->name);
	else
		loose(
			c, "PC-CHAT-070", in->name,
			"/plugin install puts '%s' in the plugins directory unsigned: it loads only because CHATCLI_ALLOW_UNSIGNED_PLUGINS=true",
			in->name);
	free(v);
	e = entry(&c->last, in->name);
	if (!e || c->o->allow_unsigned || !e->sig_error)
		return;
	pc_chatcli_probe(e->path, &c->env, c->cwd, c->o->probe_timeout_ms,
			 &e->probe, NULL);
	if (!e->probe.loaded)
		return;
	fix_case(c, in->name, true);
	fix_case(c, in->name, false);
}

/* --- the run ----------------------------------------------------------------
 */

bool pc_chatcli_icheck_is_source(const char *src)
{
	char *p;
	bool yes = false;

	if (strstr(src, "://") || !strncmp(src, "git@", 4) ||
	    strstr(src, "/tree/"))
		return true;
	p = pc_fs_join(src, "plugin.json");
	if (!pc_fs_is_dir(src) || pc_fs_is_file(p)) {
		free(p);
		return false;
	}
	free(p);
	p = pc_fs_join(src, ".git");
	yes = access(p, F_OK) == 0;
	free(p);
	if (!yes) {
		char *head = pc_fs_join(src, "HEAD"),
		     *obj = pc_fs_join(src, "objects");

		yes = pc_fs_is_file(head) && pc_fs_is_dir(obj);
		free(head);
		free(obj);
	}
	return yes;
}

static int setup(struct ic *c, struct pc_err *err)
{
	char *dot;

	c->scratch = pc_fs_mkdtemp("chatcli-install");
	if (!c->scratch)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create a scratch directory");
	c->home = pc_fs_join(c->scratch, "home");
	dot = pc_fs_join(c->home, ".chatcli");
	c->plugins = pc_fs_join(dot, "plugins");
	c->keys = pc_fs_join(dot, "trusted-keys");
	free(dot);
	c->tmp = pc_fs_join(c->scratch, "tmp");
	c->cwd = pc_fs_join(c->scratch, "cwd");
	c->signdir = pc_fs_join(c->scratch, "signing");
	pc_fs_mkdir_p(c->plugins, NULL);
	chmod(c->plugins, 0700);
	pc_fs_mkdir_p(c->keys, NULL);
	pc_fs_mkdir_p(c->tmp, NULL);
	pc_fs_mkdir_p(c->cwd, NULL);
	if (pc_chatcli_keygen(c->signdir, err))
		return PC_EIO;
	pc_strvec_env_with_home(&c->env, environ, c->home);
	c->fd = pc_chatcli_watch_open(c->plugins, err);
	return c->fd < 0 ? PC_EIO : 0;
}

static void teardown(struct ic *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->scratch)
		pc_fs_rm_rf(c->scratch);
	free(c->scratch);
	free(c->home);
	free(c->plugins);
	free(c->keys);
	free(c->tmp);
	free(c->cwd);
	free(c->signdir);
	pc_strvec_release(&c->env);
	pc_strvec_release(&c->placed);
	pc_strvec_release(&c->loop_files);
	pc_chatcli_dir_release(&c->last);
}

/* drop_unsigned - the suite's PC-CHAT-050 for `file` says what PC-CHAT-070
 * says about the install: drop it from every case of `r`. */
static void drop_unsigned(struct pc_report *r, const char *file)
{
	for (size_t k = 0; k < r->ncases; k++) {
		struct pc_findings *f = &r->cases[k].findings;
		size_t w = 0;

		for (size_t i = 0; i < f->nr; i++) {
			struct pc_finding *x = &f->v[i];

			if (!strcmp(x->rule->id, "PC-CHAT-050") && x->file &&
			    !strcmp(x->file, file)) {
				free(x->message);
				free(x->file);
				free(x->where);
				continue;
			}
			f->v[w++] = *x;
		}
		f->nr = w;
	}
}

static void summary(struct ic *c)
{
	if (c->reloads)
		logf_(c,
		      "reload cost: %d reloads, %lld ms at most and %lld ms in all with the manager lock held (--metadata and --schema of every plugin, at every reload)",
		      c->reloads, (long long)c->cost_max,
		      (long long)c->cost_sum);
	if (c->looped) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (size_t i = 0; i < c->loop_files.nr; i++)
			pc_buf_addf(&b, "%s%s", i ? ", " : "",
				    c->loop_files.v[i]);
		loose(
			c, "PC-CHAT-081", NULL,
			"--metadata/--schema change the plugins directory (%s): every reload schedules another one 500 ms later, for ever",
			pc_buf_cstr(&b));
		pc_buf_release(&b);
	}
}

static void check(struct ic *c, bool host_installed, const char *name)
{
	struct pc_chatcli_suite_opts so = { 0 };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report tmp = PC_REPORT_INIT;

	so.keys_dir = c->keys;
	so.allow_unsigned = c->o->allow_unsigned;
	so.run_calls = true;
	so.probe_timeout_ms = c->o->probe_timeout_ms;
	pc_chatcli_suite_run(c->plugins, &so, &d, &tmp, NULL);
	if (host_installed && pc_report_has(c->r, "PC-CHAT-070", NULL))
		drop_unsigned(&tmp, name);
	/* the suite's own verdicts are the install's */
	c->r->contract = tmp.contract;
	for (size_t i = 0; i < tmp.nloads; i++)
		pc_report_add_load(c->r, tmp.loads[i].as, tmp.loads[i].loaded,
				   tmp.loads[i].detail);
	if (!c->r->name && tmp.name) {
		c->r->name = pc_xstrdup(tmp.name);
		c->r->version = tmp.version ? pc_xstrdup(tmp.version) : NULL;
		c->r->loaded = tmp.loaded;
		free(c->r->host_error);
		c->r->host_error = tmp.host_error ? pc_xstrdup(tmp.host_error)
						  : NULL;
	}
	pc_report_append(c->r, &tmp);
	pc_report_release(&tmp);
	pc_chatcli_dir_release(&d);
}

int pc_chatcli_icheck_run(const struct pc_chatcli_icheck_opts *o,
			  struct pc_report *r, struct pc_strvec *log,
			  struct pc_err *err)
{
	struct pc_chatcli_icheck_opts def = *o;
	struct ic c = { .o = &def, .r = r, .log = log, .fd = -1 };
	struct pc_chatcli_install_opts io = { 0 };
	struct pc_chatcli_install in = PC_CHATCLI_INSTALL_INIT;
	char *go = NULL;
	bool installed = false, gotmp;
	int rc;

	if (!def.build_timeout_ms)
		def.build_timeout_ms = 600000;
	if (!def.probe_timeout_ms)
		def.probe_timeout_ms = 10000;
	c.env = (struct pc_strvec)PC_STRVEC_INIT;
	c.placed = (struct pc_strvec)PC_STRVEC_INIT;
	c.loop_files = (struct pc_strvec)PC_STRVEC_INIT;
	rc = setup(&c, err);
	if (rc)
		goto out;
	go = def.go ? (access(def.go, X_OK) == 0 ? pc_xstrdup(def.go) : NULL)
		    : pc_chatcli_find_program("go", NULL);
	io.source = def.source;
	io.plugins_dir = c.plugins;
	io.tmp_dir = c.tmp;
	io.go = def.go;
	io.no_build = !go;
	io.clone_timeout_ms = io.build_timeout_ms = def.build_timeout_ms;
	logf_(&c, "install: /plugin install %s", def.source);
	/* go's own work dirs inside ours, so a go build Ctrl-C kills leaves
	 * no $TMPDIR/go-build* behind (a user's GOTMPDIR is kept) */
	gotmp = !getenv("GOTMPDIR") && setenv("GOTMPDIR", c.tmp, 1) == 0;
	rc = pc_chatcli_install(&io, &in, err);
	if (gotmp)
		unsetenv("GOTMPDIR");
	if (rc)
		goto out;
	if (def.stop && *def.stop) {
		r->incomplete = true;
		logf_(&c, "  interrupted: plugcheck was stopped during the install");
		add_case(&c, "install",
			 "interrupted: plugcheck was stopped during the install and killed git/go; not judged",
			 NULL);
		free(r->path);
		r->path = pc_xstrdup(def.source);
		goto out;
	}
	report_install(&c, &in);
	if (in.stage >= PC_CHATCLI_INSTALL_BUILD)
		installed = judge_build(&c, &in);
	if (installed) {
		if (!*in.url.subdir)
			loose(
				&c, "PC-CHAT-071", in.name,
				"/plugin install %s names the binary '%s' after its temporary clone directory: every install gets a new random name, and a reinstall adds a second file registering the same name",
				def.source, in.name);
		host_reloads(&c, &in);
	} else if (in.stage == PC_CHATCLI_INSTALL_BUILD && !in.go_tree) {
		manual(&c, in.build_dir);
	}
	summary(&c);
	if (c.placed.nr)
		check(&c, installed, in.name);
	free(r->path);
	r->path = pc_xstrdup(def.source);
	if (!c.placed.nr) {
		r->loaded = false;
		free(r->name);
		r->name = NULL;
	}
out:
	if (in.clone_dir)
		pc_fs_rm_rf(in.clone_dir);
	pc_chatcli_install_release(&in);
	free(go);
	teardown(&c);
	return rc;
}

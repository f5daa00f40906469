/* pc_runner_run.c - scenarios into report cases, in worker processes
 * (pc_pool.h); baselines, --update, invalid files, check's tests/. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_pool.h"
#include "pc_runner_impl.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

/* One step's outcome, before it becomes a case. */
struct step_res {
	char *name;
	enum { S_PASS, S_FAIL, S_SKIP } status;
	char *message;	/* why it failed or was skipped */
	char *exchange; /* the actual document, pretty JSON, or NULL */
	double time_ms;
	size_t line, col;
	struct pc_case rec; /* its exchange or timeline (struct run's) */
};

struct steps {
	struct step_res *v;
	size_t n;
};

static void steps_release(struct steps *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->v[i].name);
		free(st->v[i].message);
		free(st->v[i].exchange);
		pc_case_release_structured(&st->v[i].rec);
	}
	free(st->v);
	st->v = NULL;
	st->n = 0;
}

static void build_env(struct run *r)
{
	const char *path = getenv("PATH"), *tmp = getenv("TMPDIR"),
		   *user = getenv("USER");

	pc_strvec_init(&r->env);
	pc_strvec_pushf(&r->env, "PATH=%s", path ? path : "/usr/bin:/bin");
	pc_strvec_pushf(&r->env, "HOME=%s", r->home);
	pc_strvec_pushf(&r->env, "TMPDIR=%s", tmp && *tmp ? tmp : "/tmp");
	if (user)
		pc_strvec_pushf(&r->env, "USER=%s", user);
	for (const cJSON *k = r->file->host.env ? r->file->host.env->child
						: NULL;
	     k; k = k->next)
		pc_strvec_pushf(&r->env, "%s=%s", k->string, k->valuestring);
}

static void push_step(struct steps *st, const struct pc_step *s, size_t i,
		      int status, const char *msg)
{
	struct step_res *x;

	st->v = pc_xreallocarray(st->v, st->n + 1, sizeof(*st->v));
	x = &st->v[st->n++];
	memset(x, 0, sizeof(*x));
	x->name = pc_xasprintf("%zu. %s", i + 1, s ? s->name : "setup");
	x->status = status;
	x->message = pc_xstrdup(msg ? msg : "");
	x->line = s ? s->line : 0;
	x->col = s ? s->col : 0;
}

/* Scenario runs make their workspace and HOME under `root`, which the
 * parent removes at the end whatever happens to the worker. */
static char *run_dir(const char *root, const char *what)
{
	static unsigned n;
	char *d = pc_xasprintf("%s/%d-%u-%s", root, (int)getpid(), n++, what);

	if (pc_fs_mkdir_p(d, NULL) < 0) {
		free(d);
		return NULL;
	}
	return d;
}

/* One run of `sc`: its steps into *st; true when every step passed. */
static bool run_once(const struct pc_run_item *it, const struct pc_run_opts *o,
		     const char *root, cJSON *updates, struct steps *st)
{
	const struct pc_scenario *sc = it->scenario;
	struct run r = { .file = it->file, .o = o, .updates = updates,
			 .host = PC_HOST_INIT, .turn = PC_TURN_INIT,
			 .fire_paths = PC_STRVEC_INIT };
	bool failed = false;

	pc_buf_init(&r.msg, PC_BUF_NOCAP);
	r.vars = cJSON_CreateObject();
	r.ws = run_dir(root, "ws");
	r.home = run_dir(root, "home");
	if (!r.ws || !r.home) {
		push_step(st, NULL, 0, S_FAIL,
			  "cannot create a temporary workspace or HOME");
		failed = true;
	} else {
		build_env(&r);
		if (pc__run_seed(&r) < 0) {
			push_step(st, NULL, 0, S_FAIL, pc_buf_cstr(&r.msg));
			failed = true;
		}
		for (size_t i = 0; i < sc->nsteps; i++) {
			int64_t t0 = pc_time_now_us();
			cJSON *doc = NULL;
			bool ok;

			if (failed) {
				push_step(st, &sc->steps[i], i, S_SKIP,
					  "an earlier step failed");
				continue;
			}
			ok = pc__run_step(&r, &sc->steps[i], &doc);
			push_step(st, &sc->steps[i], i, ok ? S_PASS : S_FAIL,
				  ok ? "" : pc_buf_cstr(&r.msg));
			st->v[st->n - 1].time_ms =
				(double)(pc_time_now_us() - t0) / 1000.0;
			if (doc) {
				struct pc_buf x = PC_BUF_INIT(PC_BUF_NOCAP);

				/* the style of every JSON plugcheck prints:
				 * two-space indent, sorted keys */
				pc_serde_print_pretty(doc, &x);
				st->v[st->n - 1].exchange = pc_buf_detach(&x, NULL);
			}
			cJSON_Delete(doc);
			st->v[st->n - 1].rec = r.rec;
			memset(&r.rec, 0, sizeof(r.rec));
			failed = !ok;
		}
		pc__run_teardown(&r);
		pc_case_release_structured(&r.rec);
		pc_strvec_release(&r.env);
	}
	if (r.ws)
		pc_fs_rm_rf(r.ws);
	if (r.home)
		pc_fs_rm_rf(r.home);
	free(r.ws);
	free(r.home);
	cJSON_Delete(r.vars);
	pc_buf_release(&r.msg);
	return !failed;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static char *scenario_class(const struct pc_scenario_file *f)
{
	return pc_xasprintf("plugcheck.scenario.%s", f->stem);
}

static const char cut_during[] =
	"interrupted: plugcheck was stopped during this scenario and killed "
	"the plugin; not judged";
static const char cut_before[] =
	"interrupted: plugcheck was stopped before this scenario; not run";

/* A scenario that did not run (or was not judged): its group and one
 * skipped case named as the scenario. */
static size_t skipped_group(struct pc_report *rep, const struct pc_run_item *it,
			    const char *why)
{
	size_t g = pc_report_add_group(rep, it->scenario->id, it->file->path,
				       it->scenario->name);
	char *cls = scenario_class(it->file);
	size_t c = pc_report_add_case(rep, cls, it->scenario->name, NULL, 0.0);

	rep->groups[g - 1].skip = pc_xstrdup(why);
	rep->cases[c].group = g;
	pc_report_skip(rep, c, why);
	free(cls);
	return g;
}

/* The steps of one run as the cases of group `g`. */
static void add_steps(struct pc_report *rep, const struct pc_run_item *it,
		      size_t g, struct steps *st)
{
	char *cls = scenario_class(it->file);

	for (size_t i = 0; i < st->n; i++) {
		struct step_res *x = &st->v[i];
		char *name = pc_xasprintf("%s / %s", it->scenario->name, x->name);
		size_t c = pc_report_add_case(rep, cls, name, x->exchange,
					      x->time_ms / 1000.0);

		rep->cases[c].group = g;
		pc_report_take_structured(rep, c, &x->rec);
		if (x->status == S_SKIP) {
			pc_report_skip(rep, c, x->message);
		} else if (x->status == S_FAIL) {
			struct pc_finding *f = pc_report_find(
				rep, c, "PC-SCN-001", it->file->path,
				it->scenario->id, "%s", x->message);

			f->line = (unsigned)x->line;
			f->column = (unsigned)x->col;
		}
		free(name);
	}
	free(cls);
}

static void run_scenario(const struct pc_run_item *it,
			 const struct pc_run_opts *o, const char *root,
			 struct pc_report *rep)
{
	const struct pc_scenario *sc = it->scenario;
	unsigned n = o->repeat ? o->repeat : 1, passes = 0;
	struct steps keep = { 0 }, cur = { 0 };
	double *ms, total = 0;
	cJSON *updates;
	size_t g;
	bool have_fail = false;

	if (sc->skip) {
		skipped_group(rep, it, sc->skip);
		return;
	}
	ms = pc_xcalloc(n, sizeof(*ms));
	updates = cJSON_CreateArray();
	for (unsigned i = 0; i < n; i++) {
		int64_t t0 = pc_time_now_us();
		bool ok = run_once(it, o, root, i ? NULL : updates, &cur);

		ms[i] = (double)(pc_time_now_us() - t0) / 1000.0;
		total += ms[i];
		passes += ok;
		/* keep the first failing run's steps, else the last run's */
		if (!have_fail) {
			steps_release(&keep);
			keep = cur;
			have_fail = !ok;
		} else {
			steps_release(&cur);
		}
		cur = (struct steps){ 0 };
	}
	qsort(ms, n, sizeof(*ms), cmp_double);
	if (o->stop && *o->stop) {
		rep->incomplete = true;
		skipped_group(rep, it, cut_during);
	} else {
		g = pc_report_add_group(rep, sc->id, it->file->path, sc->name);
		rep->groups[g - 1].runs = n;
		rep->groups[g - 1].passes = passes;
		rep->groups[g - 1].time_ms = total / n;
		rep->groups[g - 1].p95_ms = ms[((size_t)n * 95 + 99) / 100 - 1];
		rep->groups[g - 1].updates = updates;
		updates = NULL;
		add_steps(rep, it, g, &keep);
	}
	steps_release(&keep);
	cJSON_Delete(updates);
	free(ms);
}

/* ---- the pool ---- */

struct job {
	const struct pc_run_item *items;
	const struct pc_run_opts *o;
	struct pc_report *rep;
	char *root;
};

static int worker_init(void *ctx, struct pc_pool_worker *w)
{
	struct job *j = ctx;
	char *mark = pc_xasprintf("%s/%d-", j->root, (int)getpid());

	pc_pool_mark(w, mark); /* the HOME of every scenario run (run_dir) */
	free(mark);
	return 0;
}

static void run_unit(void *ctx, struct pc_pool_worker *w, size_t i)
{
	struct job *j = ctx;
	struct pc_report r = PC_REPORT_INIT;
	char *frag, *note = pc_xasprintf("scenario %s", j->items[i].scenario->id);

	pc_pool_note(w, note);
	free(note);
	run_scenario(&j->items[i], j->o, j->root, &r);
	frag = pc_report_fragment(&r, 0, r.ncases);
	pc_pool_send(w, frag, strlen(frag));
	free(frag);
	pc_report_release(&r);
}

static void started(void *ctx, size_t i)
{
	struct job *j = ctx;

	if (j->o->progress)
		j->o->progress(j->o->progress_ctx, j->items[i].scenario->id);
}

static void merge(void *ctx, size_t i, const char *part, size_t len)
{
	struct job *j = ctx;

	(void)i;
	if (pc_report_merge(j->rep, part, len, false) < 0) {
		size_t c = pc_report_add_case(j->rep, PC_CASE_INTERNAL,
					      "a malformed result", NULL, 0.0);

		pc_report_find(j->rep, c, "PC-INT-001", NULL, NULL,
			       "plugcheck: a worker sent a result that does not parse");
	}
}

/* The group of item `it` in `rep`: the last one with its id and file, or
 * a new one. */
static size_t group_of(struct pc_report *rep, const struct pc_run_item *it)
{
	for (size_t g = rep->ngroups; g > 0; g--)
		if (!strcmp(rep->groups[g - 1].id, it->scenario->id) &&
		    !strcmp(rep->groups[g - 1].file, it->file->path))
			return g;
	return pc_report_add_group(rep, it->scenario->id, it->file->path,
				   it->scenario->name);
}

static void event(void *ctx, size_t i, const struct pc_pool_event *ev)
{
	struct job *j = ctx;
	const struct pc_run_item *it = &j->items[i];
	struct pc_report *rep = j->rep;
	char *cls, *msg = NULL;
	size_t g, c;

	if (ev->kind == PC_POOL_INTERRUPTED) {
		rep->incomplete = true;
		skipped_group(rep, it, ev->started ? cut_during : cut_before);
		return;
	}
	if (ev->kind == PC_POOL_STOPPED)
		msg = pc_xasprintf("a plugin process stopped its parent (as with `kill -STOP $PPID`) during this scenario: the real host would freeze there; plugcheck resumed its worker");
	else if (ev->kind == PC_POOL_SIGNALLED)
		msg = pc_xasprintf("a plugin process (pid %d) sent signal %d to its parent during this scenario: the real host dies of it; the rest of the scenario did not run",
				   ev->sender, ev->signo);
	else if (ev->kind == PC_POOL_KILLED)
		msg = pc_xasprintf("plugcheck's worker, the plugin's parent as the host is, was killed without a word (SIGKILL, as `kill -9 $PPID` sends, or a crash) during this scenario: the real host would die; the rest of the scenario did not run");
	g = group_of(rep, it);
	cls = scenario_class(it->file);
	if (ev->kind == PC_POOL_FAILED) {
		free(cls);
		cls = pc_xstrdup(PC_CASE_INTERNAL);
	}
	c = pc_report_add_case(rep, cls, it->scenario->name, NULL, 0.0);
	rep->cases[c].group = g;
	if (ev->kind == PC_POOL_FAILED)
		pc_report_find(rep, c, "PC-INT-001", it->file->path,
			       it->scenario->id,
			       "plugcheck: the worker process running this scenario could not be started or failed; it did not run");
	else
		pc_report_find(rep, c, "PC-PROC-004", it->file->path,
			       it->scenario->id, "%s", msg);
	free(msg);
	free(cls);
}

int pc_runner_run(const struct pc_run_item *items, size_t n,
		  const struct pc_run_opts *o, struct pc_report *r,
		  struct pc_err *err)
{
	static const struct pc_pool_ops ops = { .worker_init = worker_init,
						.run = run_unit,
						.started = started,
						.merge = merge,
						.event = event };
	struct job j = { .items = items, .o = o, .rep = r };
	struct pc_pool_opts po = { .jobs = o->jobs, .nunits = n, .ops = &ops,
				   .ctx = &j, .stop = o->stop };
	/* j.root is made below: the marker is set then */
	int rc;

	if (!n)
		return 0;
	if (!(j.root = pc_fs_mkdtemp("run")))
		return pc_err_set(err, PC_EIO,
				  "cannot create a temporary directory in %s (TMPDIR)",
				  pc_fs_tmpdir());
	po.marker = j.root;
	rc = pc_pool_run(&po, err);
	pc_fs_rm_rf(j.root);
	free(j.root);
	return rc;
}

/* ---- baselines ---- */

static bool listed(const struct pc_strvec *ids, const char *id)
{
	for (size_t i = 0; i < ids->nr; i++)
		if (!strcmp(ids->v[i], id))
			return true;
	return false;
}

void pc_runner_baseline(struct pc_report *r, const struct pc_strvec *ids)
{
	pc_report_finish(r);
	for (size_t g = 1; g <= r->ngroups; g++) {
		const char *st = pc_report_group_status(r, g);
		struct pc_group *x = &r->groups[g - 1];
		size_t last = 0;
		bool any = false;

		if (!listed(ids, x->id))
			continue;
		x->xfail = true;
		for (size_t i = 0; i < r->ncases; i++)
			if (r->cases[i].group == g) {
				r->cases[i].xfail = !strcmp(st, "fail");
				last = i;
				any = true;
			}
		if (any && !strcmp(st, "pass"))
			pc_report_find(r, last, "PC-SCN-003", x->file, x->id,
				       "'%s' is listed in the baseline as failing, but it passes now: remove it from the baseline",
				       x->id);
	}
	pc_report_finish(r);
}

/* ---- --update ---- */

static int cmp_update(const void *a, const void *b)
{
	double x = cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)a, "start")
			   ->valuedouble;
	double y = cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)b, "start")
			   ->valuedouble;

	return (x < y) - (x > y); /* descending */
}

static int update_file(const char *file, cJSON **ups, size_t n,
		       struct pc_err *err)
{
	struct pc_buf in = PC_BUF_INIT(PC_SCENARIO_MAX_BYTES);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t prev = (size_t)-1;
	char *text;
	int rc;

	if ((rc = pc_fs_read_capped(file, &in, err)) < 0)
		goto done;
	qsort(ups, n, sizeof(*ups), cmp_update);
	pc_buf_add(&out, in.data, in.len);
	for (size_t i = 0; i < n; i++) {
		size_t s = (size_t)cJSON_GetObjectItemCaseSensitive(ups[i],
								    "start")
				   ->valuedouble;
		size_t e =
			(size_t)cJSON_GetObjectItemCaseSensitive(ups[i], "end")
				->valuedouble;
		struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);

		if (s == prev || e > out.len || s > e)
			continue; /* the same expectation from another run */
		prev = s;
		pc_buf_add(&t, out.data, s);
		pc_buf_addf(&t, "!update %s",
			    cJSON_GetObjectItemCaseSensitive(ups[i], "text")
				    ->valuestring);
		pc_buf_add(&t, out.data + e, out.len - e);
		pc_buf_release(&out);
		out = t;
	}
	text = out.data ? out.data : "";
	rc = pc_fs_write(file, text, out.len, err);
done:
	pc_buf_release(&in);
	pc_buf_release(&out);
	return rc;
}

static bool valid_update(const cJSON *u)
{
	return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(u, "file")) &&
	       cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(u, "start")) &&
	       cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(u, "end")) &&
	       cJSON_IsString(cJSON_GetObjectItemCaseSensitive(u, "text"));
}

int pc_runner_apply_updates(const struct pc_report *r, struct pc_err *err)
{
	cJSON **ups = NULL;
	size_t n = 0;
	int written = 0, rc = 0;

	for (size_t g = 0; g < r->ngroups; g++)
		for (cJSON *u = r->groups[g].updates ? r->groups[g].updates->child
						     : NULL;
		     u; u = u->next)
			if (valid_update(u)) {
				ups = pc_xreallocarray(ups, n + 1, sizeof(*ups));
				ups[n++] = u;
			}
	/* Group by file: handle each file once. */
	for (size_t i = 0; i < n && !rc; i++) {
		const char *file =
			cJSON_GetObjectItemCaseSensitive(ups[i], "file")->valuestring;
		cJSON **mine = NULL;
		size_t m = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(cJSON_GetObjectItemCaseSensitive(ups[j], "file")
					       ->valuestring,
				       file);
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			if (!strcmp(cJSON_GetObjectItemCaseSensitive(ups[j], "file")
					    ->valuestring,
				    file)) {
				mine = pc_xreallocarray(mine, m + 1, sizeof(*mine));
				mine[m++] = ups[j];
			}
		rc = update_file(file, mine, m, err);
		written += (int)m;
		free(mine);
	}
	free(ups);
	return rc ? rc : written;
}

/* ---- invalid files, validation, check's tests/ ---- */

void pc_runner_add_invalid(struct pc_report *r, const char *path,
			   const struct pc_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *stem = pc_xstrdup(base), *dot, *cls;
	unsigned line = 0, col = 0;
	size_t n = strlen(path), c;
	struct pc_finding *f;

	if ((dot = strstr(stem, ".plugcheck.yaml")) || (dot = strstr(stem, ".yaml")))
		*dot = 0;
	cls = pc_xasprintf("plugcheck.scenario.%s", stem);
	/* "PATH:LINE:COL: ..." */
	if (!strncmp(err->msg, path, n) && err->msg[n] == ':')
		sscanf(err->msg + n + 1, "%u:%u", &line, &col);
	c = pc_report_add_case(r, cls, "the scenario file loads", NULL, 0.0);
	f = pc_report_find(r, c, "PC-SCN-002", path, NULL, "%s", err->msg);
	f->line = line;
	f->column = col;
	free(cls);
	free(stem);
}

int pc_runner_validate(const struct pc_scenario_file *f, struct pc_err *err)
{
	struct pc_err lerr = PC_ERR_INIT;
	int rc = 0;

	for (size_t i = 0; i < f->nscenarios && !rc; i++)
		for (size_t k = 0; k < f->scenarios[i].nsteps && !rc; k++) {
			const struct pc_step *s = &f->scenarios[i].steps[k];
			struct pc_fire_point pt = PC_FIRE_POINT_INIT;
			struct pc_manifest_env menv = { getenv("HOME"),
							getenv("CODEX_HOME") };
			struct pc_plugin *p = NULL;

			if (s->kind != PC_STEP_FIRE)
				continue;
			/* a misspelled point is wrong whatever the plugin */
			if (pc_fire_point_syntax(s->point, &lerr) == 0 &&
			    pc_manifest_load(s->plugin, &menv, &p, NULL) < 0)
				continue; /* the step shows the host's verdict */
			if (lerr.code ||
			    pc_fire_resolve(p, s->point, false, &pt, &lerr))
				rc = pc_err_set(err, PC_EPARSE,
						"%s:%zu:%zu: step '%s': %s",
						f->path, s->line, s->col,
						s->name, lerr.msg);
			pc_fire_point_release(&pt);
			pc_plugin_free(p);
		}
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_tests(const char *dir, struct pc_strvec *out, int depth)
{
	DIR *d = depth < 16 ? opendir(dir) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		p = pc_fs_join(dir, e->d_name);
		/* whatever it is: a FIFO, a directory or a dangling symlink
		 * with the name becomes a located error, never a silent skip */
		if (n > 15 && !strcmp(e->d_name + n - 15, ".plugcheck.yaml"))
			pc_strvec_push(out, p);
		else if (pc_fs_is_dir(p))
			find_tests(p, out, depth + 1);
		free(p);
	}
	if (d)
		closedir(d);
}

/* The findings of cases [c0, ...) name their scenario files relative to
 * the plugin, as every other finding of a check report does. */
static void relative_files(struct pc_report *r, size_t c0, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (size_t i = c0; i < r->ncases; i++)
		for (size_t k = 0; k < r->cases[i].findings.nr; k++) {
			struct pc_finding *f = &r->cases[i].findings.v[k];
			const char *rel = f->file + n;

			if (strncmp(f->file, dir, n) || *rel != '/')
				continue;
			while (*rel == '/')
				rel++;
			memmove(f->file, rel, strlen(rel) + 1);
		}
}

size_t pc_runner_check_tests(const char *plugin_dir,
			     const struct pc_run_opts *o, struct pc_report *r)
{
	struct pc_strvec paths = PC_STRVEC_INIT;
	struct pc_scenario_file *files;
	struct pc_run_item *items = NULL;
	char *dir = pc_fs_join(plugin_dir, "tests");
	struct pc_err err = PC_ERR_INIT;
	size_t n = 0, nfiles, c0;
	bool *ok;

	find_tests(dir, &paths, 0);
	free(dir);
	c0 = r->ncases;
	if (!(nfiles = paths.nr)) {
		pc_strvec_release(&paths);
		return 0;
	}
	qsort(paths.v, paths.nr, sizeof(*paths.v), cmp_str);
	files = pc_xcalloc(paths.nr, sizeof(*files));
	ok = pc_xcalloc(paths.nr, sizeof(*ok));
	for (size_t i = 0; i < paths.nr; i++) {
		err = (struct pc_err)PC_ERR_INIT;
		ok[i] = pc_scenario_load(paths.v[i], &files[i], &err) == 0 &&
			pc_runner_validate(&files[i], &err) == 0;
		if (!ok[i])
			pc_runner_add_invalid(r, paths.v[i], &err);
	}
	for (size_t i = 0; i < paths.nr; i++)
		for (size_t j = 0; ok[i] && j < files[i].nscenarios; j++) {
			items = pc_xreallocarray(items, n + 1, sizeof(*items));
			items[n].file = &files[i];
			items[n++].scenario = &files[i].scenarios[j];
		}
	err = (struct pc_err)PC_ERR_INIT;
	if (pc_runner_run(items, n, o, r, &err) < 0)
		r->incomplete = true;
	for (size_t i = 0; i < paths.nr; i++)
		pc_scenario_file_release(&files[i]);
	free(files);
	free(ok);
	free(items);
	pc_strvec_release(&paths);
	relative_files(r, c0, plugin_dir);
	return nfiles;
}

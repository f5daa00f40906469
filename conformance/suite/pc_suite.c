/* pc_suite.c - orchestration of `plugcheck check`: loads, static cases,
 * the firing units, and the case helpers every unit uses. */
#include "pc_sandbox.h"
#include "pc_suite.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_lint.h"
#include "pc_registry.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_time.h"
#include "pc_xalloc.h"

bool pc__suite_stopped(struct pc__suite *s)
{
	if (s->o->stop && *s->o->stop)
		s->r->incomplete = true;
	return s->o->stop && *s->o->stop;
}

void pc__suite_progress(struct pc__suite *s, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	if (!s->o->progress || s->quiet)
		return;
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s->o->progress(s->o->progress_ctx, pc_buf_cstr(&b));
	pc_buf_release(&b);
}

size_t pc__suite_begin(struct pc__suite *s, const char *cls, const char *name)
{
	if (s->w) {
		char *note = pc_xasprintf("%s: %s", cls, name);

		pc_pool_note(s->w, note);
		free(note);
	}
	return pc_report_add_case(s->r, cls, name, NULL, 0.0);
}

struct pc_finding *pc__suite_find(struct pc__suite *s, size_t c, const char *id,
				  const char *where, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_finding *f;
	va_list ap;

	/* After an interrupt plugcheck itself killed the plugin tree: what
	 * the firing in progress saw (signal 9, no output) is not the
	 * plugin's doing and must not be blamed on it. */
	if (pc__suite_stopped(s) || pc_report_has(s->r, id, where))
		return NULL;
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	f = pc_report_find(s->r, c, id, "plugin.json", where, "%s",
			   pc_buf_cstr(&b));
	pc_buf_release(&b);
	return f;
}

/* Case `c` is over; in a worker, send every case up to the first one
 * still open. */
static void case_done(struct pc__suite *s, size_t c)
{
	size_t upto = s->sent;
	char *frag;

	if (!s->w)
		return;
	if (c >= s->ndone) {
		s->done = pc_xreallocarray(s->done, s->r->ncases + 1,
					   sizeof(*s->done));
		memset(s->done + s->ndone, 0,
		       (s->r->ncases + 1 - s->ndone) * sizeof(*s->done));
		s->ndone = s->r->ncases + 1;
	}
	s->done[c] = true;
	while (upto < s->r->ncases && upto < s->ndone && s->done[upto])
		upto++;
	if (upto == s->sent)
		return;
	frag = pc_report_fragment(s->r, s->sent, upto);
	pc_pool_send(s->w, frag, strlen(frag));
	free(frag);
	s->sent = upto;
}

void pc__suite_end(struct pc__suite *s, size_t c, const struct pc_fire *f)
{
	if (f) {
		char *out = pc_fire_text(f);

		free(s->r->cases[c].system_out);
		s->r->cases[c].system_out = out;
		s->r->cases[c].time_s = (double)f->x.proc.wall_ms / 1000.0;
		pc_report_set_xchg(s->r, c,
				   pc_fire_xchg(f, s->o->sandbox != NULL));
		if (f->x.log.nr) {
			char *log = pc_fire_log_text(f);

			pc_report_set_err(s->r, c, log);
			free(log);
		}
	}
	if (pc__suite_stopped(s))
		pc_report_skip(s->r, c,
			       "interrupted: plugcheck was stopped during this "
			       "firing and killed the plugin; not judged");
	case_done(s, c);
}

void pc__suite_end_text(struct pc__suite *s, size_t c, const char *out)
{
	free(s->r->cases[c].system_out);
	s->r->cases[c].system_out = pc_xstrdup(out);
	pc__suite_end(s, c, NULL);
}

void pc__suite_skip(struct pc__suite *s, const char *cls, const char *name,
		    const char *why)
{
	size_t c = pc_report_add_case(s->r, cls, name, NULL, 0.0);

	pc_report_skip(s->r, c, why);
	case_done(s, c);
}

void pc__suite_host(struct pc__suite *s, struct pc_host *h)
{
	pc_host_init(h, s->env.v, s->ws, s->session);
	pc_host_set_cwd(h, s->ws);
	h->confine = s->o->sandbox ? &s->o->sandbox->confine : NULL;
}

void pc__suite_fire(struct pc__suite *s, const struct pc_fire_point *pt,
		    const struct pc_fire_input *in, const char *cwd,
		    struct pc_fire *f)
{
	struct pc_host h;

	pc__suite_host(s, &h);
	if (cwd)
		pc_host_set_cwd(&h, cwd);
	pc_fire_exchange(&h, s->p, pt, in, f, NULL);
	pc_host_release(&h);
}

static char *joined(const struct pc_strvec *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < v->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? ", " : "", v->v[i]);
	return pc_buf_detach(&b, NULL);
}

void pc__suite_sandbox(struct pc__suite *s, size_t c, const char *where,
		       const struct pc_exchange *x)
{
	static const struct {
		const char *id, *verb, *rest;
	} kinds[] = {
		{ "PC-SBX-001", "connected to",
		  ", but the capabilities do not include access_network (the sandbox refused it)" },
		{ "PC-SBX-002", "wrote",
		  ", but the capabilities do not include write_workspace (the sandbox refused it)" },
		{ "PC-SBX-003", "wrote",
		  ", outside the workspace, HOME and TMPDIR (the sandbox refused it)" },
	};
	const struct pc_strvec *lists[] = { &x->sandbox.net,
					    &x->sandbox.ws_writes,
					    &x->sandbox.out_writes };

	if (x->swapped)
		pc__suite_find(s, c, "PC-SCRIPT-005", where,
			       "the script '%s' had been replaced by a symlink to '%s', outside the plugin directory, when the host ran it: the host checks the path only at load (R2.9) and would run that file; plugcheck did not",
			       x->argv.nr ? x->argv.v[x->argv.nr - 1] : "",
			       x->swapped);
	for (size_t i = 0; i < 3; i++) {
		char *list;

		if (!lists[i]->nr)
			continue;
		list = joined(lists[i]);
		pc__suite_find(s, c, kinds[i].id, where, "%s %s%s", kinds[i].verb,
			       list, kinds[i].rest);
		free(list);
	}
}

void pc__suite_leftovers(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_exchange *x)
{
	if (x->proc.leftover_processes > 0 && !x->proc.exited_before_eof)
		pc__suite_find(s, c, "PC-PROC-001", where,
			       "%d process(es) still running after the answer",
			       x->proc.leftover_processes);
	pc__suite_sandbox(s, c, where, x);
}

cJSON *pc__suite_answer(const struct pc_exchange *x)
{
	struct pc_buf lossy = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v = NULL;
	size_t start, n;

	pc_rust_lossy_utf8(&lossy, x->proc.out.data ? x->proc.out.data : "",
			   x->proc.out.len);
	n = pc_rust_trim(pc_buf_cstr(&lossy), lossy.len, &start);
	pc_serde_parse(pc_buf_cstr(&lossy) + start, n, &v, NULL);
	pc_buf_release(&lossy);
	return v;
}

const char *pc__suite_getenv(const struct pc__suite *s, const char *name)
{
	return pc_strvec_env_get(s->env.v, name);
}

static const char *verdict_text(const struct pc_fire *f)
{
	switch (f->kind) {
	case PC_FIRE_HOOK:
		return f->hook.reason ? f->hook.reason : "";
	case PC_FIRE_MEMORY:
		return f->mem.output ? f->mem.output : "";
	case PC_FIRE_OAUTH:
		return f->oauth.message ? f->oauth.message : "";
	default:
		return f->call.output ? f->call.output : "";
	}
}

static int outcome_of(const struct pc_fire *f)
{
	switch (f->kind) {
	case PC_FIRE_HOOK:
		return (int)f->hook.outcome;
	case PC_FIRE_MEMORY:
		return (int)f->mem.outcome;
	case PC_FIRE_OAUTH:
		return (int)f->oauth.outcome;
	default:
		return (int)f->call.outcome;
	}
}

bool pc__suite_same(const struct pc_fire *a, const struct pc_fire *b)
{
	return a->passed == b->passed && outcome_of(a) == outcome_of(b) &&
	       !strcmp(verdict_text(a), verdict_text(b));
}

void pc__suite_cwd_check(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_fire_point *pt,
			 const struct pc_fire_input *in,
			 const struct pc_fire *f)
{
	struct pc_fire again = PC_FIRE_INIT, there = PC_FIRE_INIT;
	const char *dir = s->p->source_path ? s->p->source_path : s->p->dir;

	/* each refiring of a script that timed out costs its whole timeout,
	 * and a timeout says nothing about what it read */
	if (pc__suite_stopped(s) || !dir || outcome_of(f) == PC_OUT_TIMEOUT)
		return;
	pc__suite_fire(s, pt, in, NULL, &again);
	if (!pc__suite_stopped(s) && pc__suite_same(f, &again)) {
		pc__suite_fire(s, pt, in, dir, &there);
		if (!pc__suite_stopped(s) && !pc__suite_same(f, &there)) {
			char *contrast = pc_xasprintf(
				"with the plugin directory as its working directory it %s%s%s, in the workspace it %s%s%s",
				there.passed ? "passes" : "fails",
				*verdict_text(&there) ? ": " : "",
				verdict_text(&there),
				f->passed ? "passes" : "fails",
				*verdict_text(f) ? ": " : "", verdict_text(f));

			pc__suite_cwd_found(s, c, where, pt, in, &there,
					    contrast);
			free(contrast);
		}
	}
	pc_fire_release(&again);
	pc_fire_release(&there);
}

/* R1.7: how the host loads the plugin from a global root, and from a
 * project root with and without trust. The roots hold a symlink to it. */
static void load_as(struct pc__suite *s, const char *as, bool global,
		    bool trust)
{
	char *root = pc_xasprintf("%s/load-%s", s->tmp, as);
	char *home = pc_xasprintf("%s/home", root), *ws = pc_xasprintf("%s/ws", root);
	char *dir = global ? pc_xasprintf("%s/.catalyst-code/plugins", home)
			   : pc_xasprintf("%s/.catalyst-code/plugins", ws);
	char *abs = pc_fs_realpath(s->o->path);
	char *link = pc_fs_join(dir, "plugin");
	struct pc_manifest_env menv = { home, NULL };
	struct pc_registry_opts ro = { .home = home, .workspace = ws,
				       .trust_project = trust, .menv = &menv };
	struct pc_registry reg = PC_REGISTRY_INIT;

	pc_fs_mkdir_p(dir, NULL);
	pc_fs_mkdir_p(ws, NULL);
	if (abs && symlink(abs, link) == 0) {
		pc_registry_scan(&ro, &reg);
		pc_report_add_load(s->r, as, reg.nr > 0,
				   reg.log.nr ? reg.log.v[reg.log.nr - 1] : "");
	}
	pc_registry_release(&reg);
	free(root);
	free(home);
	free(ws);
	free(dir);
	free(abs);
	free(link);
}

/* R1.5: a same-named global plugin is installed. Trusted, the project
 * copy replaces it (the project root is scanned last); untrusted, it is
 * skipped and the global one keeps loading. `loaded` is the trusted
 * outcome, `detail` the untrusted scan's skip line. */
static void load_over_global(struct pc__suite *s)
{
	char *root = pc_xasprintf("%s/load-over-global", s->tmp);
	char *home = pc_xasprintf("%s/home", root), *ws = pc_xasprintf("%s/ws", root);
	char *gdir = pc_xasprintf("%s/.catalyst-code/plugins/global-copy", home);
	char *pdir = pc_xasprintf("%s/.catalyst-code/plugins", ws);
	char *abs = pc_fs_realpath(s->o->path), *link = pc_fs_join(pdir, "plugin");
	char *mf = pc_fs_join(gdir, "plugin.json");
	cJSON *stub = cJSON_CreateObject();
	char *text;
	struct pc_manifest_env menv = { home, NULL };
	struct pc_registry_opts ro = { .home = home, .workspace = ws,
				       .menv = &menv };
	struct pc_registry plain = PC_REGISTRY_INIT, trusted = PC_REGISTRY_INIT;
	struct pc_plugin *w;

	cJSON_AddStringToObject(stub, "name", s->p->name);
	cJSON_AddStringToObject(stub, "version", "0.0.0");
	cJSON_AddStringToObject(stub, "description", "a same-named global plugin");
	text = pc_serde_to_string(stub);
	pc_fs_mkdir_p(gdir, NULL);
	pc_fs_mkdir_p(pdir, NULL);
	pc_fs_write(mf, text, strlen(text), NULL);
	if (abs && symlink(abs, link) == 0) {
		pc_registry_scan(&ro, &plain);
		ro.trust_project = true;
		pc_registry_scan(&ro, &trusted);
		w = pc_registry_find(&trusted, s->p->name);
		pc_report_add_load(s->r, "project_over_global",
				   w && !strcmp(w->source_path, abs),
				   plain.skipped.nr && plain.log.nr
					   ? plain.log.v[plain.log.nr - 1]
					   : "");
	}
	pc_registry_release(&plain);
	pc_registry_release(&trusted);
	cJSON_Delete(stub);
	free(text);
	free(mf);
	free(root);
	free(home);
	free(ws);
	free(gdir);
	free(pdir);
	free(abs);
	free(link);
}

/* Like HOME, TMPDIR is a throwaway directory inside the suite's own, so
 * whatever a plugin leaves in $TMPDIR goes when the run ends. */
static void setup_env(struct pc__suite *s)
{
	static const char *const keep[] = { "PATH=", "USER=" };
	char *tmp = pc_fs_join(s->tmp, "tmp");

	for (size_t i = 0; s->o->envp && s->o->envp[i]; i++)
		for (size_t k = 0; k < 2; k++)
			if (!strncmp(s->o->envp[i], keep[k], strlen(keep[k])))
				pc_strvec_push(&s->env, s->o->envp[i]);
	pc_strvec_pushf(&s->env, "HOME=%s", s->home);
	pc_fs_mkdir_p(tmp, NULL);
	pc_strvec_pushf(&s->env, "TMPDIR=%s", tmp);
	free(tmp);
	pc_strvec_push(&s->env, "CATALYST_CODE_NO_BROWSER=1");
}

/* The workspace holds one file, hello.txt, at the start of every unit. */
static void seed_workspace(const struct pc__suite *s)
{
	char *f = pc_fs_join(s->ws, "hello.txt");

	pc_fs_write(f, "hello\n", 6, NULL);
	free(f);
}

void pc__suite_fresh_dirs(struct pc__suite *s)
{
	char *tmp = pc_fs_join(s->tmp, "tmp");
	const char *const dirs[] = { s->home, s->ws, tmp };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		pc_fs_rm_rf(dirs[i]);
		pc_fs_mkdir_p(dirs[i], NULL);
	}
	seed_workspace(s);
	free(tmp);
}

int pc__suite_dirs(struct pc__suite *s, const char *parent, struct pc_err *err)
{
	if (parent) {
		s->tmp = pc_xasprintf("%s/w%d", parent, (int)getpid());
		if (pc_fs_mkdir_p(s->tmp, err) < 0)
			return PC_EIO;
	} else if (!(s->tmp = pc_fs_mkdtemp("check"))) {
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create a temporary directory in %s "
					"(TMPDIR; set it to a writable directory)",
					pc_fs_tmpdir());
	}
	s->home = pc_fs_join(s->tmp, "home");
	s->ws = pc_fs_join(s->tmp, "workspace");
	s->session = pc_xasprintf("%s/.catalyst-code/sessions/1700000000000000000.jsonl",
				  s->home);
	pc_fs_mkdir_p(s->home, NULL);
	pc_fs_mkdir_p(s->ws, NULL);
	seed_workspace(s);
	setup_env(s);
	return 0;
}

/* The static cases: one per rule pc_lint may raise, holding its findings
 * (a finding of another rule gets a case of its own). */
static void static_cases(struct pc__suite *s, struct pc_lint *l)
{
	for (size_t i = 0; i < pc_lint_nrules; i++)
		pc_report_static_case(s->r, "plugcheck.static",
				      pc_rule_find(pc_lint_rules[i]));
	for (size_t i = 0; i < l->findings.nr; i++) {
		size_t c = pc_report_static_case(s->r, "plugcheck.static",
						 l->findings.v[i].rule);
		struct pc_finding *f =
			pc_findings_push(&s->r->cases[c].findings,
					 &l->findings.v[i]);

		f->seq = s->r->next_seq++;
	}
	pc_findings_release(&l->findings);
}

static void load_plugin(struct pc__suite *s, struct pc_lint *l)
{
	struct pc_report *r = s->r;

	pc__suite_progress(s, "loading %s", s->o->path);
	pc_lint_plugin(s->o->path, s->o->menv, pc__suite_getenv(s, "PATH"), l);
	r->loaded = l->plugin != NULL;
	r->host_error = l->host_error ? pc_finding_visible(l->host_error) : NULL;
	for (size_t i = 0; i < l->host_log.nr; i++)
		pc_strvec_push(&r->host_log, l->host_log.v[i]);
	pc_report_add_load(r, "plugin_dir", r->loaded,
			   l->host_log.nr ? l->host_log.v[l->host_log.nr - 1]
					  : "");
	if (!l->plugin)
		return;
	r->name = pc_xstrdup(l->plugin->name);
	r->version = pc_xstrdup(l->plugin->version);
	for (size_t i = 0; i < l->plugin->capabilities.nr; i++)
		pc_strvec_push(&r->capabilities, l->plugin->capabilities.v[i]);
	s->p = l->plugin;
	load_as(s, "global", true, false);
	load_as(s, "project", false, false);
	load_as(s, "project_trusted", false, true);
	load_over_global(s);
}

/* suite - the load and static cases, then with `fire` every firing unit
 * (check) or none (lint's static path). */
static int suite(const struct pc_suite_opts *o, struct pc_report *r,
		 bool fire, struct pc_err *err)
{
	struct pc__suite s = { .o = o, .r = r, .run = r, .env = PC_STRVEC_INIT };
	struct pc_lint l = PC_LINT_INIT;
	int64_t t0 = pc_time_now_ms();
	int rc;

	if ((rc = pc__suite_dirs(&s, NULL, err)))
		return rc;
	r->path = pc_xstrdup(o->path);
	r->strict = o->strict;
	load_plugin(&s, &l);
	static_cases(&s, &l);
	if (fire && l.plugin && !pc__suite_stopped(&s))
		pc__suite_units(&s, o->jobs);
	/* a firing's finding points at its entry point in plugin.json */
	pc_lint_locate_report(&l, r);
	if (fire)
		r->duration_s = (double)(pc_time_now_ms() - t0) / 1000.0;
	pc_lint_release(&l);
	pc_fs_rm_rf(s.tmp);
	free(s.tmp);
	free(s.home);
	free(s.ws);
	free(s.session);
	free(s.mem_timeout);
	free(s.done);
	pc_strvec_release(&s.env);
	return 0;
}

int pc_suite_static(const struct pc_suite_opts *o, struct pc_report *r,
		    struct pc_err *err)
{
	return suite(o, r, false, err);
}

int pc_suite_run(const struct pc_suite_opts *o, struct pc_report *r,
		 struct pc_err *err)
{
	return suite(o, r, true, err);
}

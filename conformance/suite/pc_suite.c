/* pc_suite.c - orchestration of `plugcheck check`: loads, cases, findings. */
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
	return s->r->incomplete;
}

void pc__suite_progress(struct pc__suite *s, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	if (!s->o->progress)
		return;
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s->o->progress(s->o->progress_ctx, pc_buf_cstr(&b));
	pc_buf_release(&b);
}

void pc__suite_find(struct pc__suite *s, const char *id, const char *where,
		    const char *fmt, ...)
{
	struct pc_findings *f = &s->r->findings;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	/* After an interrupt plugcheck itself killed the plugin tree: what
	 * the firing in progress saw (signal 9, no output) is not the
	 * plugin's doing and must not be blamed on it. */
	if (pc__suite_stopped(s))
		return;
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id) && !strcmp(f->v[i].where, where))
			return;
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc_findings_add_at(f, id, where, "%s", pc_buf_cstr(&b));
	pc_buf_release(&b);
}

void pc__suite_host(struct pc__suite *s, struct pc_host *h)
{
	pc_host_init(h, s->env.v, s->ws, s->session);
	h->sandbox = s->o->sandbox;
}

static char *joined(const struct pc_strvec *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < v->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? ", " : "", v->v[i]);
	return pc_buf_detach(&b, NULL);
}

void pc__suite_sandbox(struct pc__suite *s, const char *where,
		       const struct pc_exchange *x)
{
	const struct pc_sandbox_obs *o = &x->sandbox;
	char *list;

	if (o->net.nr) {
		list = joined(&o->net);
		pc__suite_find(s, "PC-SBX-001", where,
			       "connected to %s, but the capabilities do not include access_network (the sandbox refused it)",
			       list);
		free(list);
	}
	if (o->ws_writes.nr) {
		list = joined(&o->ws_writes);
		pc__suite_find(s, "PC-SBX-002", where,
			       "wrote %s, but the capabilities do not include write_workspace (the sandbox refused it)",
			       list);
		free(list);
	}
	if (o->out_writes.nr) {
		list = joined(&o->out_writes);
		pc__suite_find(s, "PC-SBX-003", where,
			       "wrote %s, outside the workspace, HOME and TMPDIR (the sandbox refused it)",
			       list);
		free(list);
	}
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

/* The report keeps the exchange as a C string: a NUL byte (captured, or
 * in host text) is shown as the four characters \x00 - as the JUnit form
 * shows every other control byte - instead of ending the text there. */
static void add_visible(struct pc_buf *b, const char *bytes, size_t n)
{
	for (size_t i = 0, run = 0; i <= n; i++) {
		if (i < n && bytes[i])
			continue;
		pc_buf_add(b, bytes + run, i - run);
		if (i < n)
			pc_buf_adds(b, "\\x00");
		run = i + 1;
	}
}

/* Host text (pc_serde.h stored form) through add_visible. */
static void add_text_visible(struct pc_buf *b, const char *text)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_text_raw(&raw, text);
	add_visible(b, pc_buf_cstr(&raw), raw.len);
	pc_buf_release(&raw);
}

static void show(struct pc_buf *b, const char *label, const struct pc_buf *d)
{
	struct pc_buf lossy = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t max = 2048, n = d->len < max ? d->len : max;

	pc_buf_addf(b, "%s (%zu bytes):\n", label, d->len);
	pc_rust_lossy_utf8(&lossy, pc_buf_cstr(d), n);
	add_visible(b, pc_buf_cstr(&lossy), lossy.len);
	pc_buf_release(&lossy);
	if (n < d->len)
		pc_buf_addf(b, "\n... %zu more bytes", d->len - n);
	pc_buf_adds(b, "\n");
}

static char *exchange_text(const struct pc_exchange *x, const char *verdict)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const struct pc_proc_result *p = &x->proc;

	pc_buf_adds(&b, "argv:");
	for (size_t i = 0; i < x->argv.nr; i++)
		pc_buf_addf(&b, " %s", x->argv.v[i]);
	pc_buf_adds(&b, "\n");
	show(&b, "stdin", &x->stdin_json);
	if (x->spawned) {
		show(&b, "stdout", &p->out);
		show(&b, "stderr", &p->err);
		pc_buf_addf(&b, "process: %s", pc_proc_outcome_name(p->outcome));
		if (p->has_status) {
			pc_buf_adds(&b, ", ");
			pc_rust_exit_status(&b, p->term_signal != 0,
					    p->term_signal ? p->term_signal
							   : p->exit_code,
					    p->core_dumped);
		}
		pc_buf_addf(&b, ", %lld ms, %d leftover process(es)\n",
			    (long long)p->wall_ms, p->leftover_processes);
	} else {
		pc_buf_adds(&b, "not spawned\n");
	}
	if (x->sandbox.trace_error) /* PC-SBX-* of this firing may be missing */
		pc_buf_addf(&b, "sandbox incomplete: %s\n",
			    x->sandbox.trace_error);
	pc_buf_adds(&b, "verdict: ");
	add_text_visible(&b, verdict);
	pc_buf_adds(&b, "\n");
	return pc_buf_detach(&b, NULL);
}

void pc__suite_case(struct pc__suite *s, const char *classname,
		    const char *name, size_t from,
		    const struct pc_exchange *x, const char *verdict)
{
	char *out = x ? exchange_text(x, verdict) : NULL;
	double t = x ? (double)x->proc.wall_ms / 1000.0 : 0.0;
	bool cut = pc__suite_stopped(s);
	struct pc_case *c;

	c = pc_report_add_case(s->r, classname, name,
			       cut ? PC_CASE_SKIP : PC_CASE_PASS,
			       cut ? "interrupted: plugcheck was stopped during "
				     "this firing and killed the plugin; not judged"
				   : NULL,
			       out ? out : verdict, t);
	free(out);
	if (x && x->log.nr) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (size_t i = 0; i < x->log.nr; i++) {
			add_text_visible(&b, x->log.v[i]);
			pc_buf_adds(&b, "\n");
		}
		c->system_err = pc_buf_detach(&b, NULL);
	}
	pc__suite_range(s, from, s->r->findings.nr, NULL);
}

void pc__suite_range(struct pc__suite *s, size_t from, size_t to,
		     const char *rule_id)
{
	s->ranges = pc_xreallocarray(s->ranges, s->nranges + 1,
				     sizeof(*s->ranges));
	s->ranges[s->nranges] = (struct pc__range){ from, to, rule_id };
	s->nranges++;
}

void pc__suite_skip(struct pc__suite *s, const char *classname,
		    const char *name, const char *why)
{
	pc_report_add_case(s->r, classname, name, PC_CASE_SKIP, why, NULL, 0.0);
	pc__suite_range(s, s->r->findings.nr, s->r->findings.nr, NULL);
}

void pc__suite_rule_case(struct pc__suite *s, const struct pc_rule *rule)
{
	char *name = pc_xasprintf("%s %s", rule->id, rule->title);

	pc_report_add_case(s->r, "plugcheck.static", name, PC_CASE_PASS, NULL,
			   NULL, 0.0);
	free(name);
	pc__suite_range(s, 0, 0, rule->id);
}

const char *pc__suite_getenv(const struct pc__suite *s, const char *name)
{
	return pc_strvec_env_get(s->env.v, name);
}

/* After suppression: a case fails when one of its findings fails the run. */
static void finalize_cases(struct pc__suite *s)
{
	struct pc_findings *f = &s->r->findings;

	for (size_t i = 0; i < s->nranges && i < s->r->ncases; i++) {
		struct pc_case *c = &s->r->cases[i];
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		const char *id = s->ranges[i].rule_id;
		size_t from = id ? 0 : s->ranges[i].from;
		size_t to = id ? f->nr : s->ranges[i].to;

		for (size_t k = from; k < to; k++) {
			enum pc_severity sev = f->v[k].rule->severity;

			if ((id && strcmp(f->v[k].rule->id, id)) ||
			    f->v[k].suppressed ||
			    !(sev == PC_SEV_ERROR ||
			      (sev == PC_SEV_WARNING && s->r->strict)))
				continue;
			pc_buf_addf(&b, "%s%s: %s", b.len ? "; " : "",
				    f->v[k].rule->id, f->v[k].message);
		}
		if (b.len) {
			c->status = PC_CASE_FAIL;
			free(c->message);
			c->message = pc_buf_detach(&b, NULL);
		}
		pc_buf_release(&b);
	}
}

static bool covered(const struct pc__suite *s, size_t k)
{
	const struct pc_finding *f = &s->r->findings.v[k];

	for (size_t i = 0; i < s->nranges; i++) {
		const struct pc__range *g = &s->ranges[i];

		if (g->rule_id ? !strcmp(g->rule_id, f->rule->id)
			       : (k >= g->from && k < g->to))
			return true;
	}
	return false;
}

/* A finding that fails the run but belongs to no case (e.g. the latency
 * verdict, reached after its firings' cases) gets a case of its own, so
 * JUnit and TAP show every reason for a failing exit status. */
static void orphan_cases(struct pc__suite *s)
{
	size_t n = s->r->findings.nr;

	for (size_t k = 0; k < n; k++) {
		const struct pc_finding *f = &s->r->findings.v[k];
		enum pc_severity sev = f->rule->severity;
		char *name;

		if (f->suppressed || covered(s, k) ||
		    !(sev == PC_SEV_ERROR ||
		      (sev == PC_SEV_WARNING && s->r->strict)))
			continue;
		name = pc_xasprintf("%s %s%s%s", f->rule->id, f->rule->title,
				    *f->where ? " at " : "", f->where);
		pc_report_add_case(s->r, "plugcheck.findings", name,
				   PC_CASE_PASS, NULL, NULL, 0.0);
		free(name);
		pc__suite_range(s, k, k + 1, NULL);
	}
}

static void suppress(struct pc__suite *s)
{
	struct pc_findings *f = &s->r->findings;
	const struct pc_strvec *ig = s->o->ignore;

	for (size_t i = 0; ig && i < ig->nr; i++) {
		pc_strvec_push(&s->r->suppressed_ids, ig->v[i]);
		for (size_t k = 0; k < f->nr; k++)
			if (!strcmp(f->v[k].rule->id, ig->v[i]))
				f->v[k].suppressed = true;
	}
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
	struct pc_registry_opts ro = { .home = home, .workspace = ws,
				       .trust_project = trust,
				       .menv = s->o->menv };
	struct pc_registry reg = PC_REGISTRY_INIT;
	struct pc_manifest_env menv = { home, NULL };

	ro.menv = &menv;
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

static int make_dirs(struct pc__suite *s, struct pc_err *err)
{
	s->tmp = pc_fs_mkdtemp("check");
	if (!s->tmp)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create a temporary directory in %s "
					"(TMPDIR; set it to a writable directory)",
					pc_fs_tmpdir());
	s->home = pc_fs_join(s->tmp, "home");
	s->ws = pc_fs_join(s->tmp, "workspace");
	s->session = pc_xasprintf("%s/.catalyst-code/sessions/1700000000000000000.jsonl",
				  s->home);
	pc_fs_mkdir_p(s->home, NULL);
	pc_fs_mkdir_p(s->ws, NULL);
	seed_workspace(s);
	return 0;
}

int pc__suite_dirs(struct pc__suite *s, struct pc_err *err)
{
	int rc = make_dirs(s, err);

	if (!rc)
		setup_env(s);
	return rc;
}

static void run_loaded(struct pc__suite *s)
{
	pc__suite_static(s);
	if (s->o->jobs > 1) {
		if (!pc__suite_stopped(s))
			pc__suite_parallel(s, s->o->jobs);
		return;
	}
	if (!pc__suite_stopped(s))
		pc__suite_hooks(s);
	if (!pc__suite_stopped(s))
		pc__suite_tools(s);
	if (!pc__suite_stopped(s))
		pc__suite_commands(s);
	if (!pc__suite_stopped(s))
		pc__suite_memory(s);
	if (!pc__suite_stopped(s))
		pc__suite_oauth(s);
}

int pc_suite_run(const struct pc_suite_opts *o, struct pc_report *r,
		 struct pc_err *err)
{
	struct pc__suite s = { .o = o, .r = r, .env = PC_STRVEC_INIT };
	struct pc_lint l = PC_LINT_INIT;
	int64_t t0 = pc_time_now_ms();
	int rc;

	if ((rc = pc__suite_dirs(&s, err)))
		return rc;
	r->path = pc_xstrdup(o->path);
	r->strict = o->strict;
	pc__suite_progress(&s, "loading %s", o->path);
	pc_lint_plugin(o->path, o->menv, pc__suite_getenv(&s, "PATH"), &l);
	r->loaded = l.plugin != NULL;
	r->host_error = l.host_error ? pc_xstrdup(l.host_error) : NULL;
	pc_report_add_load(r, "plugin_dir", r->loaded,
			   l.host_log.nr ? l.host_log.v[l.host_log.nr - 1] : "");
	r->findings = l.findings;
	l.findings = (struct pc_findings)PC_FINDINGS_INIT;
	if (l.plugin) {
		r->name = pc_xstrdup(l.plugin->name);
		r->version = pc_xstrdup(l.plugin->version);
		for (size_t i = 0; i < l.plugin->capabilities.nr; i++)
			pc_strvec_push(&r->capabilities, l.plugin->capabilities.v[i]);
		s.p = l.plugin;
		load_as(&s, "global", true, false);
		load_as(&s, "project", false, false);
		load_as(&s, "project_trusted", false, true);
		load_over_global(&s);
		run_loaded(&s);
	} else {
		pc__suite_case(&s, "plugcheck.load", "host loads the plugin", 0,
			       NULL, r->host_error);
	}
	suppress(&s);
	orphan_cases(&s);
	finalize_cases(&s);
	r->duration_s = (double)(pc_time_now_ms() - t0) / 1000.0;
	pc_lint_release(&l);
	pc_fs_rm_rf(s.tmp);
	free(s.tmp);
	free(s.home);
	free(s.ws);
	free(s.session);
	free(s.ranges);
	free(s.mem_timeout);
	pc_strvec_release(&s.env);
	return 0;
}

/* pc_runner.c - one scenario at a time through pc_fire; the expectation
 * checks; worker processes for -j. */
#include "pc_sandbox.h"
#include "pc_runner.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_mock.h"
#include "pc_registry.h"
#include "pc_scenario_impl.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

/* Workspace files read by a `files` expectation are capped (bytes). */
#define FILE_CHECK_MAX ((size_t)16 << 20)

struct run {
	const struct pc_scenario_file *file;
	const struct pc_run_opts *o;
	char *ws, *home;
	struct pc_strvec env;
	cJSON *vars;
	cJSON *updates;
	struct pc_buf msg; /* the current step's failure text */
	unsigned nsession;
	/* turn steps: set up by the first one (turn_setup) */
	bool turn_up;
	struct pc_host host;
	struct pc_turn turn;
	struct pc_plugin **plugins;
	size_t nplugins;
	/* the step being run (NULL for the host's files) and the bytes its
	 * templates expanded to so far (PC_SCENARIO_MAX_EXPAND) */
	const struct pc_step *step;
	size_t expanded;
};

/* ---- templates ---- */

/* too_big - the located error of a template bomb (issue 21): the step's
 * templates would expand past PC_SCENARIO_MAX_EXPAND bytes. */
static char *too_big(struct run *r, struct pc_buf *b, const char *name)
{
	pc_buf_addf(&r->msg,
		    "%s:%zu:%zu: the templates of this step expand past %zu bytes%s%s%s (a saved value used again and again grows without bound); fix: save a smaller part of the document",
		    r->file->path, r->step ? r->step->line : 1,
		    r->step ? r->step->col : 1, PC_SCENARIO_MAX_EXPAND,
		    name ? " at {{ vars." : "", name ? name : "",
		    name ? " }}" : "");
	pc_buf_release(b);
	return NULL;
}

/* `s` with every {{ vars.NAME }} replaced (a value is inserted as it is,
 * never expanded again, so expansion has no depth); NULL (message in
 * r->msg) when a variable is undefined or the step's expansions pass
 * PC_SCENARIO_MAX_EXPAND bytes. */
static char *render(struct run *r, const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p = s, *open;

	while ((open = strstr(p, "{{"))) {
		const char *q = open + 2, *close = strstr(q, "}}");
		const cJSON *v;
		char *name;
		size_t n;

		if (!close)
			break;
		pc_buf_add(&b, p, (size_t)(open - p));
		q += strspn(q, " ");
		if (strncmp(q, "vars.", 5)) {
			pc_buf_add(&b, open, (size_t)(close + 2 - open));
			p = close + 2;
			continue;
		}
		q += 5;
		n = strcspn(q, " }");
		name = pc_xmemdup(q, n);
		v = cJSON_GetObjectItemCaseSensitive(r->vars, name);
		if (!v) {
			pc_buf_addf(
				&r->msg,
				"undefined variable '%s' (save it in an earlier step)",
				name);
			free(name);
			pc_buf_release(&b);
			return NULL;
		}
		if (cJSON_IsString(v)) {
			if (r->expanded + b.len + strlen(v->valuestring) >
			    PC_SCENARIO_MAX_EXPAND) {
				too_big(r, &b, name);
				free(name);
				return NULL;
			}
			pc_buf_adds(&b, v->valuestring);
		} else {
			char *t = cJSON_PrintUnformatted(v);
			bool big = !t || r->expanded + b.len + strlen(t) >
						 PC_SCENARIO_MAX_EXPAND;

			if (!big)
				pc_buf_adds(&b, t);
			free(t);
			if (big) {
				too_big(r, &b, name);
				free(name);
				return NULL;
			}
		}
		free(name);
		p = close + 2;
	}
	if (r->expanded + b.len + strlen(p) > PC_SCENARIO_MAX_EXPAND)
		return too_big(r, &b, NULL);
	pc_buf_adds(&b, p);
	r->expanded += b.len;
	return pc_buf_detach(&b, NULL);
}

/* A copy of `v` with templates rendered in every string; NULL on error. */
static cJSON *render_json(struct run *r, const cJSON *v)
{
	cJSON *c = cJSON_Duplicate(v, 1);
	cJSON *stack[PC_SCENARIO_MAX_DEPTH + 2];
	size_t sp = 0;

	if (!c)
		return NULL;
	stack[sp++] = c;
	while (sp) {
		cJSON *n = stack[--sp];

		if (cJSON_IsString(n)) {
			char *t = render(r, n->valuestring);

			if (!t) {
				cJSON_Delete(c);
				return NULL;
			}
			cJSON_SetValuestring(n, t);
			free(t);
		}
		for (cJSON *k = n->child; k; k = k->next)
			if (sp < PC_SCENARIO_MAX_DEPTH + 2)
				stack[sp++] = k;
	}
	return c;
}

/* ---- expectations ---- */

static char *show(const cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *s;

	if (!v)
		return pc_xstrdup("(absent)");
	if (pc_serde_print(v, &b) < 0) {
		pc_buf_release(&b);
		return pc_xstrdup("(unprintable)");
	}
	s = pc_buf_detach(&b, NULL);
	if (strlen(s) > 400)
		memcpy(s + 396, "...", 4);
	return s;
}

static bool num_eq(const cJSON *a, const cJSON *b)
{
	double d = a->valuedouble - b->valuedouble;
	double m = a->valuedouble < 0 ? -a->valuedouble : a->valuedouble;

	if (d < 0)
		d = -d;
	return d <= 1e-9 * (m > 1.0 ? m : 1.0);
}

/* Subset match of `want` in `got`; on mismatch appends the JSON path of
 * the first difference to `where` and returns false. */
static bool subset(const cJSON *want, const cJSON *got, struct pc_buf *where,
		   const cJSON **w_out, const cJSON **g_out)
{
	*w_out = want;
	*g_out = got;
	if (!got)
		return false;
	if (cJSON_IsObject(want)) {
		if (!cJSON_IsObject(got))
			return false;
		for (const cJSON *k = want->child; k; k = k->next) {
			size_t len = where->len;

			pc_buf_addf(where, ".%s", k->string);
			if (!subset(k,
				    cJSON_GetObjectItemCaseSensitive(got,
								     k->string),
				    where, w_out, g_out))
				return false;
			where->len = len;
			where->data[len] = 0;
		}
		return true;
	}
	if (cJSON_IsArray(want)) {
		int i = 0;

		if (!cJSON_IsArray(got) ||
		    cJSON_GetArraySize(want) != cJSON_GetArraySize(got))
			return false;
		for (const cJSON *k = want->child; k; k = k->next, i++) {
			size_t len = where->len;

			pc_buf_addf(where, "[%d]", i);
			if (!subset(k, cJSON_GetArrayItem(got, i), where, w_out,
				    g_out))
				return false;
			where->len = len;
			where->data[len] = 0;
		}
		return true;
	}
	if (cJSON_IsNumber(want))
		return cJSON_IsNumber(got) && num_eq(want, got);
	return cJSON_Compare(want, got, 1);
}

static void mismatch(struct run *r, const struct pc_expect *e, const char *path,
		     const char *want, const cJSON *got)
{
	char *g = show(got);

	pc_buf_addf(
		&r->msg,
		"%sexpect.%s (line %zu) at %s:\n      expected: %s\n      actual:   %s",
		r->msg.len ? "\n    " : "", e->label, e->line, path, want, g);
	free(g);
}

static void record_update(struct run *r, const struct pc_expect *e,
			  const cJSON *got)
{
	cJSON *u = cJSON_CreateObject();
	char *text;

	if (e->is_verdict)
		text = pc_xstrdup(cJSON_IsTrue(got) ? "allow" : "deny");
	else
		text = show(got);
	cJSON_AddStringToObject(u, "file", r->file->path);
	cJSON_AddNumberToObject(u, "start", (double)e->upd_start);
	cJSON_AddNumberToObject(u, "end", (double)e->upd_end);
	cJSON_AddItemToObject(u, "text", cJSON_CreateString(text));
	/* "!update" keeps it updatable; JSON is valid YAML flow. */
	free(text);
	cJSON_AddItemToArray(r->updates, u);
}

/* check_file - a `files` expectation, looked at beneath the workspace
 * without following a symlink a plugin planted, and read only when it is
 * a regular file (a FIFO there must not hang the run; issue 21). */
static bool check_file(struct run *r, const struct pc_expect *e)
{
	struct pc_buf b = PC_BUF_INIT(FILE_CHECK_MAX);
	struct pc_err err = PC_ERR_INIT;
	struct stat st;
	bool exists = pc_fs_beneath_lstat(r->ws, e->path, &st, NULL) == 0;
	bool ok = true;
	cJSON *got = NULL;
	char *want;

	if (e->file_state == PC_FILE_PRESENT && !exists) {
		mismatch(r, e, e->path, "present", NULL);
		ok = false;
	} else if (e->file_state == PC_FILE_ABSENT && exists) {
		pc_buf_addf(
			&r->msg,
			"%sexpect.%s (line %zu): expected absent, but the file exists",
			r->msg.len ? "\n    " : "", e->label, e->line);
		ok = false;
	} else if (e->file_state == PC_FILE_CONTENT) {
		if (pc_fs_beneath_read(r->ws, e->path, &b, &err) == 0)
			got = cJSON_CreateString(b.data ? b.data : "");
		else if (exists && err.code)
			pc_buf_addf(&r->msg, "%sexpect.%s (line %zu): %s",
				    r->msg.len ? "\n    " : "", e->label,
				    e->line, err.msg);
		if (e->re)
			ok = got && pc_match_test(e->re, b.data, b.len);
		else
			ok = got &&
			     !strcmp(got->valuestring, e->value->valuestring);
		if (!ok) {
			want = e->re ? pc_xstrdup(pc_match_source(e->re))
				     : show(e->value);
			mismatch(r, e, e->path, want, got);
			free(want);
		}
	}
	cJSON_Delete(got);
	pc_buf_release(&b);
	return ok;
}

/* Compact JSON, never truncated (hook lists are short strings). */
static char *compact(const cJSON *v)
{
	char *t = v ? cJSON_PrintUnformatted(v) : NULL;

	return t ? t : pc_xstrdup("(absent)");
}

/* `hooks`: the wanted strings appear in the actual list in order
 * (subsequence), or are the whole list (`exact`). */
static bool check_hooks(struct run *r, const struct pc_expect *e,
			const cJSON *want, const cJSON *got)
{
	int nw = cJSON_GetArraySize(want), ng = cJSON_GetArraySize(got);
	int i = 0, j = 0, last = -1;
	char *ws, *gs, *at;

	if (!cJSON_IsArray(got))
		ng = 0;
	if (e->exact) {
		while (i < nw && i < ng &&
		       cJSON_Compare(cJSON_GetArrayItem(want, i),
				     cJSON_GetArrayItem(got, i), 1))
			i++;
		if (i == nw && i == ng)
			return true;
		at = pc_xasprintf("%s[%d] (exact)", e->path, i);
	} else {
		for (; i < nw; i++, j++) {
			const cJSON *w = cJSON_GetArrayItem(want, i);

			while (j < ng &&
			       !cJSON_Compare(w, cJSON_GetArrayItem(got, j), 1))
				j++;
			if (j == ng)
				break;
			last = j;
		}
		if (i == nw)
			return true;
		gs = compact(cJSON_GetArrayItem(want, i));
		at = last < 0 ? pc_xasprintf("%s: %s not found", e->path, gs)
			      : pc_xasprintf("%s: %s not found after %s[%d]",
					     e->path, gs, e->path, last);
		free(gs);
	}
	ws = compact(want);
	gs = compact(cJSON_IsArray(got) ? got : NULL);
	pc_buf_addf(
		&r->msg,
		"%sexpect.%s (line %zu) at %s:\n      expected: %s%s\n      actual:   %s",
		r->msg.len ? "\n    " : "", e->label, e->line, at,
		e->exact ? "" : "subsequence ", ws, gs);
	free(ws);
	free(gs);
	free(at);
	return false;
}

/* `events`: each wanted object is a subset of a transcript event, the
 * matches in order. */
static bool check_events(struct run *r, const struct pc_expect *e,
			 const cJSON *want, const cJSON *got)
{
	int ng = cJSON_IsArray(got) ? cJSON_GetArraySize(got) : 0;
	int i = 0, j = 0, from = 0;
	const cJSON *w, *dw, *dg;
	cJSON *types;
	char *ws, *ts;

	for (w = want->child; w; w = w->next, i++, j++) {
		struct pc_buf where = PC_BUF_INIT(PC_BUF_NOCAP);

		from = j;
		while (j < ng &&
		       !subset(w, cJSON_GetArrayItem(got, j), &where, &dw, &dg))
			j++;
		pc_buf_release(&where);
		if (j == ng)
			break;
	}
	if (!w)
		return true;
	types = cJSON_CreateArray();
	for (int k = from; k < ng; k++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(got, k), "type");

		cJSON_AddItemToArray(types,
				     cJSON_CreateString(cJSON_IsString(t)
								? t->valuestring
								: "?"));
	}
	ws = compact(w);
	ts = compact(types);
	pc_buf_addf(
		&r->msg,
		"%sexpect.%s (line %zu) at %s[%d]: no event from %s[%d] on matches\n      expected: %s\n      actual:   event types %s",
		r->msg.len ? "\n    " : "", e->label, e->line, e->path, i,
		e->path, from, ws, ts);
	free(ws);
	free(ts);
	cJSON_Delete(types);
	return false;
}

static bool check_one(struct run *r, const struct pc_expect *e,
		      const cJSON *doc)
{
	const cJSON *got, *w = NULL, *g = NULL;
	struct pc_buf where = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *want;
	char *ws;
	bool ok;

	if (e->op == PC_EXPECT_FILE)
		return check_file(r, e);
	got = pc__scenario_json_get(doc, e->path);
	if (e->update && r->o->update) {
		record_update(r, e, got);
		return true;
	}
	switch (e->op) {
	case PC_EXPECT_ABSENT:
		if (!got || cJSON_IsNull(got))
			return true;
		mismatch(r, e, e->path, "(absent)", got);
		return false;
	case PC_EXPECT_REGEX:
		if (cJSON_IsString(got) &&
		    pc_match_test(e->re, got->valuestring,
				  strlen(got->valuestring)))
			return true;
		mismatch(r, e, e->path, pc_match_source(e->re), got);
		return false;
	case PC_EXPECT_LT:
	case PC_EXPECT_LE:
		if (cJSON_IsNumber(got) &&
		    (e->op == PC_EXPECT_LT
			     ? got->valuedouble < e->value->valuedouble
			     : got->valuedouble <= e->value->valuedouble))
			return true;
		ws = pc_xasprintf("%s %g",
				  e->op == PC_EXPECT_LT ? "under" : "at most",
				  e->value->valuedouble);
		mismatch(r, e, e->path, ws, got);
		free(ws);
		return false;
	default:
		break;
	}
	if (!e->value)
		return true; /* "@update" placeholder outside --update */
	if (!(want = render_json(r, e->value)))
		return false;
	if (e->op == PC_EXPECT_HOOKS || e->op == PC_EXPECT_EVENTS) {
		ok = e->op == PC_EXPECT_HOOKS ? check_hooks(r, e, want, got)
					      : check_events(r, e, want, got);
		cJSON_Delete(want);
		return ok;
	}
	if (e->is_verdict) {
		ok = cJSON_IsBool(got) &&
		     cJSON_IsTrue(got) == cJSON_IsTrue(want);
		if (!ok) {
			cJSON *v = got ? cJSON_CreateString(cJSON_IsTrue(got)
								    ? "allow"
								    : "deny")
				       : NULL;

			mismatch(r, e, "$.allow",
				 cJSON_IsTrue(want) ? "\"allow\"" : "\"deny\"",
				 v);
			cJSON_Delete(v);
		}
		cJSON_Delete(want);
		return ok;
	}
	pc_buf_adds(&where, e->path);
	if (e->op == PC_EXPECT_STRICT) {
		ok = got && cJSON_Compare(want, got, 1);
		w = want;
		g = got;
	} else {
		ok = subset(want, got, &where, &w, &g);
	}
	if (!ok) {
		const cJSON *why = pc__scenario_json_get(doc, "$.unconsumed");

		ws = show(w);
		mismatch(r, e, pc_buf_cstr(&where), ws, g);
		free(ws);
		if (!strcmp(e->label, "consumed") && cJSON_IsString(why))
			pc_buf_addf(&r->msg, "\n      (%s)", why->valuestring);
	}
	pc_buf_release(&where);
	cJSON_Delete(want);
	return ok;
}

static bool check_all(struct run *r, const struct pc_step *s, const cJSON *doc)
{
	bool ok = true;

	for (size_t i = 0; i < s->nexpects; i++)
		ok &= check_one(r, &s->expects[i], doc);
	return ok;
}

/* ---- steps ---- */

static char *json_text(struct run *r, const cJSON *v)
{
	cJSON *c;
	char *t;

	if (!v)
		return NULL;
	if (cJSON_IsString(v))
		return render(r, v->valuestring);
	if (!(c = render_json(r, v)))
		return NULL;
	t = cJSON_PrintUnformatted(c);
	cJSON_Delete(c);
	return t;
}

/* write_files - a `write` step or the host's `files`: beneath the
 * workspace, never through a symlink a plugin planted there, never into
 * a FIFO (pc_fs_beneath_write; issue 21). */
static int write_files(struct run *r, const cJSON *files)
{
	struct pc_err err = PC_ERR_INIT;

	for (const cJSON *k = files ? files->child : NULL; k; k = k->next) {
		char *text = render(r, k->valuestring);
		int rc = -1;

		if (text)
			rc = pc_fs_beneath_write(r->ws, k->string, text,
						 strlen(text), PC_FS_MKDIRS,
						 &err);
		free(text);
		if (rc) {
			if (err.code)
				pc_buf_addf(&r->msg, "cannot write '%s': %s",
					    k->string, err.msg);
			return -1;
		}
	}
	return 0;
}

/* The plugin as the configured scope sees it: an untrusted project
 * plugin is skipped by the host (R1.7). Returns a new actual document
 * for a skipped plugin, or NULL when it loads normally. */
static cJSON *scope_skip(struct run *r, const struct pc_step *s)
{
	struct pc_manifest_env menv = { .home = r->home };
	struct pc_plugin *p = NULL;
	cJSON *doc;
	char *canon, *line;

	if (strcmp(r->file->host.scope, "project") || r->file->host.trust)
		return NULL;
	if (pc_manifest_load(s->plugin, &menv, &p, NULL) < 0)
		return NULL;
	canon = pc_fs_realpath(s->plugin);
	line = pc_registry_skip_line(p->name, canon ? canon : s->plugin);
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "point", s->point);
	cJSON_AddBoolToObject(doc, "loaded", false);
	cJSON_AddStringToObject(doc, "host_error", line);
	free(line);
	free(canon);
	pc_plugin_free(p);
	return doc;
}

static bool run_fire(struct run *r, const struct pc_step *s, cJSON **doc_out)
{
	struct pc_fire_opts fo = PC_FIRE_OPTS_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_env menv = { .home = r->home };
	char *result = NULL, *session;
	cJSON *doc;
	int rc;

	if ((doc = scope_skip(r, s))) {
		*doc_out = doc;
		return true;
	}
	fo.point = s->point;
	fo.path = s->plugin;
	fo.tool = s->tool;
	fo.workspace = r->ws;
	fo.envp = r->env.v;
	fo.menv = &menv;
	fo.sandbox = r->o->sandbox;
	if (s->input && !(fo.args_text = json_text(r, s->input)))
		return false;
	if (s->result && !(result = json_text(r, s->result))) {
		free(fo.args_text);
		return false;
	}
	fo.result_text = result;
	session = pc_xasprintf("%s/.catalyst-code/sessions/s%u.jsonl", r->home,
			       r->nsession++);
	fo.session = session;
	rc = pc_fire_run(&fo, &f, &err);
	if (rc == 0 || rc == PC_EMANIFEST) {
		doc = pc_fire_json(&fo, &f);
		if (f.kind == PC_FIRE_HOOK && f.plugin)
			cJSON_AddStringToObject(doc, "verdict",
						f.hook.allow ? "allow"
							     : "deny");
		*doc_out = doc;
	} else {
		pc_buf_addf(&r->msg, "%s", err.msg);
	}
	pc_fire_release(&f);
	free(fo.args_text);
	free(result);
	free(session);
	return rc == 0 || rc == PC_EMANIFEST;
}

/* ---- turn steps ---- */

/* The host and the plugins of the scenario's turns, set up by its first
 * turn step and kept (with the conversation) until the run ends. An
 * untrusted project plugin is skipped, as the host skips it (R1.7). */
static bool turn_setup(struct run *r)
{
	struct pc_manifest_env menv = { .home = r->home };
	const struct pc_scenario_file *f = r->file;
	char *session;

	if (r->turn_up)
		return true;
	if (!strcmp(f->host.scope, "project") && !f->host.trust) {
		r->nplugins = 0;
	} else {
		r->plugins = pc_xcalloc(f->plugins.nr + 1, sizeof(*r->plugins));
		for (size_t i = 0; i < f->plugins.nr; i++) {
			struct pc_err err = PC_ERR_INIT;

			if (pc_manifest_load(f->plugins.v[i], &menv,
					     &r->plugins[r->nplugins],
					     &err) < 0) {
				pc_buf_addf(
					&r->msg,
					"the host rejects the plugin '%s': %s",
					f->plugins.v[i], err.msg);
				return false;
			}
			r->nplugins++;
		}
	}
	session = pc_xasprintf("%s/.catalyst-code/sessions/s%u.jsonl", r->home,
			       r->nsession++);
	pc_host_init(&r->host, r->env.v, r->ws, session);
	r->host.confine = r->o->sandbox ? &r->o->sandbox->confine : NULL;
	free(session);
	r->turn_up = true;
	return true;
}

static void turn_teardown(struct run *r)
{
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;

	if (r->turn_up) {
		o.host = &r->host;
		o.plugins = r->plugins;
		o.nplugins = r->nplugins;
		o.model = pc_mock_turn_model;
		pc_turn_shutdown(&r->turn, &o);
		pc_host_release(&r->host);
	}
	pc_turn_release(&r->turn);
	for (size_t i = 0; i < r->nplugins; i++)
		pc_plugin_free(r->plugins[i]);
	free(r->plugins);
	r->plugins = NULL;
	r->nplugins = 0;
	r->turn_up = false;
}

/* The actual document of a turn step: this turn's part of the
 * transcript, its hook list, the conversation so far and the model's
 * bookkeeping (docs/scenarios.md, "Turn steps"). */
static cJSON *turn_doc(struct run *r, int first, struct pc_mock *m)
{
	struct pc_turn slice = PC_TURN_INIT;
	cJSON *doc = cJSON_CreateObject(), *results = cJSON_CreateArray();
	char *why = NULL;
	bool consumed = pc_mock_consumed(m, &why);
	int n = cJSON_GetArraySize(r->turn.transcript);

	slice.transcript = cJSON_CreateArray();
	for (int i = first; i < n; i++) {
		const cJSON *e = cJSON_GetArrayItem(r->turn.transcript, i);
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");

		cJSON_AddItemToArray(slice.transcript, cJSON_Duplicate(e, 1));
		if (cJSON_IsString(type) &&
		    !strcmp(type->valuestring, "tool_result"))
			cJSON_AddItemToArray(results, cJSON_Duplicate(e, 1));
	}
	cJSON_AddBoolToObject(doc, "completed", r->turn.completed);
	cJSON_AddBoolToObject(doc, "consumed", consumed);
	if (why)
		cJSON_AddStringToObject(doc, "unconsumed", why);
	else
		cJSON_AddNullToObject(doc, "unconsumed");
	cJSON_AddItemToObject(doc, "hooks", pc_turn_hook_list(&slice));
	cJSON_AddItemToObject(doc, "events", slice.transcript);
	cJSON_AddItemToObject(doc, "tool_results", results);
	cJSON_AddItemToObject(doc, "messages",
			      r->turn.conversation
				      ? cJSON_Duplicate(r->turn.conversation, 1)
				      : cJSON_CreateArray());
	cJSON_AddItemToObject(doc, "requests",
			      cJSON_Duplicate(pc_mock_requests(m), 1));
	free(why);
	return doc;
}

/* A `command` turn step: the plugin command instead of a user message
 * (R7.2-R7.5). An unknown command fails the step unless it states its
 * own expectations, as for lifecycle steps. */
static int run_command(struct run *r, const struct pc_step *s,
		       const struct pc_turn_opts *o, struct pc_err *err)
{
	char *name = render(r, s->turn.command), *args;
	int rc;

	if (!name)
		return PC_EINVAL;
	if (!(args = render(r, s->turn.args))) {
		free(name);
		return PC_EINVAL;
	}
	r->turn.completed = false;
	rc = pc_turn_command(&r->turn, o, name, args, err);
	if (rc == PC_ENOENT && s->nexpects)
		rc = 0;
	free(name);
	free(args);
	return rc;
}

static bool run_turn(struct run *r, const struct pc_step *s, cJSON **doc_out)
{
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_mock *m = NULL;
	cJSON *script;
	char *text = NULL;
	int first, rc;

	if (!turn_setup(r))
		return false;
	if (s->turn.text && !(text = render(r, s->turn.text)))
		return false;
	if (!(script = render_json(r, s->turn.model))) {
		free(text);
		return false;
	}
	rc = pc_mock_new_json(script, &m, &err);
	cJSON_Delete(script);
	if (rc) {
		pc_buf_addf(&r->msg, "model: %s", err.msg);
		free(text);
		return false;
	}
	o.host = &r->host;
	o.plugins = r->plugins;
	o.nplugins = r->nplugins;
	o.model = pc_mock_turn_model;
	o.model_ctx = m;
	o.images = s->turn.images;
	o.vision = s->turn.vision;
	o.compact = s->turn.compact;
	o.approval = s->turn.approval;
	first = cJSON_GetArraySize(r->turn.transcript);
	if (text)
		rc = pc_turn_run(&r->turn, &o, text, &err);
	else
		rc = run_command(r, s, &o, &err);
	if (rc && err.msg[0])
		pc_buf_addf(&r->msg, "%s", err.msg);
	else if (!rc)
		*doc_out = turn_doc(r, first, m);
	pc_mock_free(m);
	free(text);
	return rc == 0;
}

/* ---- lifecycle steps ---- */

/* The actual document of a lifecycle step: the events it emitted, every
 * plugin as plugins_list shows it, and the conversation (docs/scenarios.md
 * "Lifecycle steps"). */
static cJSON *life_doc(struct run *r, int first)
{
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	cJSON *doc = cJSON_CreateObject(), *events = cJSON_CreateArray();
	int n = cJSON_GetArraySize(r->turn.transcript);

	for (int i = first; i < n; i++)
		cJSON_AddItemToArray(
			events,
			cJSON_Duplicate(
				cJSON_GetArrayItem(r->turn.transcript, i), 1));
	o.host = &r->host;
	o.plugins = r->plugins;
	o.nplugins = r->nplugins;
	cJSON_AddItemToObject(doc, "events", events);
	cJSON_AddItemToObject(doc, "plugins", pc_turn_plugins_json(&o));
	cJSON_AddItemToObject(doc, "messages",
			      r->turn.conversation
				      ? cJSON_Duplicate(r->turn.conversation, 1)
				      : cJSON_CreateArray());
	return doc;
}

/* reload_plugins: the file's plugin directories scanned again; an
 * untrusted project scope skips them all, as the first setup did. */
static void life_reload(struct run *r)
{
	const struct pc_scenario_file *f = r->file;
	struct pc_manifest_env menv = { .home = r->home };
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	struct pc_err err = PC_ERR_INIT;

	pc_turn_rescan_dirs(f->plugins.v, f->plugins.nr, &menv,
			    !strcmp(f->host.scope, "project") && !f->host.trust,
			    &rs);
	o.host = &r->host;
	o.plugins = r->plugins;
	o.nplugins = r->nplugins;
	pc_turn_reload(&r->turn, &o, &rs, &err);
	for (size_t i = 0; i < r->nplugins; i++)
		pc_plugin_free(r->plugins[i]);
	free(r->plugins);
	r->plugins = rs.plugins;
	r->nplugins = rs.nplugins;
	rs.plugins = NULL;
	rs.nplugins = 0;
	pc_turn_rescan_release(&rs);
}

/* An enable/disable of an unknown name fails the step unless the step
 * states its own expectations (then they decide). */
static bool run_life(struct run *r, const struct pc_step *s, cJSON **doc_out)
{
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	struct pc_err err = PC_ERR_INIT;
	int first, rc = 0;

	if (!turn_setup(r))
		return false;
	if (!r->turn.transcript)
		r->turn.transcript = cJSON_CreateArray();
	first = cJSON_GetArraySize(r->turn.transcript);
	o.host = &r->host;
	o.plugins = r->plugins;
	o.nplugins = r->nplugins;
	if (s->life == PC_LIFE_RELOAD)
		life_reload(r);
	else
		rc = pc_turn_set_enabled(&r->turn, &o, s->target,
					 s->life == PC_LIFE_ENABLE, &err);
	*doc_out = life_doc(r, first);
	if (rc && !s->nexpects) {
		pc_buf_addf(&r->msg, "the host answers plugin_error: %s",
			    err.msg);
		return false;
	}
	return true;
}

static void save_vars(struct run *r, const struct pc_step *s, const cJSON *doc,
		      bool *ok)
{
	for (size_t i = 0; i < s->ncaptures; i++) {
		const cJSON *v =
			pc__scenario_json_get(doc, s->captures[i].path);

		if (!v) {
			pc_buf_addf(&r->msg, "%ssave.%s: nothing at %s",
				    r->msg.len ? "\n    " : "",
				    s->captures[i].var, s->captures[i].path);
			*ok = false;
			continue;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(r->vars,
							s->captures[i].var);
		cJSON_AddItemToObject(r->vars, s->captures[i].var,
				      cJSON_Duplicate(v, 1));
	}
}

static cJSON *run_step(struct run *r, const struct pc_step *s, size_t idx,
		       bool skip)
{
	cJSON *out = cJSON_CreateObject(), *doc = NULL;
	int64_t t0 = pc_time_now_us();
	bool ok = true;
	char *name = pc_xasprintf("%zu. %s", idx + 1, s->name);

	cJSON_AddStringToObject(out, "name", name);
	free(name);
	if (skip) {
		cJSON_AddStringToObject(out, "status", "skip");
		cJSON_AddStringToObject(out, "message",
					"an earlier step failed");
		return out;
	}
	pc_buf_reset(&r->msg);
	r->step = s;
	r->expanded = 0;
	if (s->kind == PC_STEP_WRITE) {
		ok = write_files(r, s->files) == 0;
	} else if (s->kind == PC_STEP_FILES) {
		ok = check_all(r, s, NULL);
	} else if (s->kind == PC_STEP_LIFE) {
		if ((ok = run_life(r, s, &doc))) {
			ok = check_all(r, s, doc);
			save_vars(r, s, doc, &ok);
		}
	} else if (s->kind == PC_STEP_TURN) {
		if ((ok = run_turn(r, s, &doc))) {
			ok = check_all(r, s, doc);
			save_vars(r, s, doc, &ok);
		}
	} else if ((ok = run_fire(r, s, &doc))) {
		ok = check_all(r, s, doc);
		save_vars(r, s, doc, &ok);
	}
	cJSON_AddStringToObject(out, "status", ok ? "pass" : "fail");
	cJSON_AddStringToObject(out, "message", ok ? "" : pc_buf_cstr(&r->msg));
	if (doc) {
		char *t = cJSON_Print(doc);

		cJSON_AddStringToObject(out, "exchange", t);
		free(t);
	}
	cJSON_AddNumberToObject(out, "time_ms",
				(double)(pc_time_now_us() - t0) / 1000.0);
	cJSON_Delete(doc);
	return out;
}

/* ---- scenarios ---- */

extern char **environ;

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


/* In a `run -j` worker: the file that lists the worker's temporary
 * directories, one a line, so the parent can remove them when Ctrl-C
 * kills the worker before it could (NULL in-process). */
static char *dirs_log;

static void log_dir(const char *path)
{
	if (dirs_log && path) /* best effort: else the directory is left */
		pc_fs_append_line(dirs_log, path, NULL);
}

/* One run of `sc`: its steps array; *passed set. */
static cJSON *run_once(const struct pc_scenario_file *f,
		       const struct pc_scenario *sc,
		       const struct pc_run_opts *o, cJSON *updates,
		       bool *passed)
{
	struct run r = { .file = f,
			 .o = o,
			 .updates = updates,
			 .host = PC_HOST_INIT,
			 .turn = PC_TURN_INIT };
	cJSON *steps = cJSON_CreateArray();
	bool failed = false;

	pc_buf_init(&r.msg, PC_BUF_NOCAP);
	r.vars = cJSON_CreateObject();
	r.ws = pc_fs_mkdtemp("scn-ws");
	r.home = pc_fs_mkdtemp("scn-home");
	log_dir(r.ws);
	log_dir(r.home);
	if (!r.ws || !r.home) {
		cJSON *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "name", "setup");
		cJSON_AddStringToObject(s, "status", "fail");
		cJSON_AddStringToObject(
			s, "message",
			"cannot create a temporary workspace or HOME");
		cJSON_AddItemToArray(steps, s);
		failed = true;
	} else {
		build_env(&r);
		if (write_files(&r, f->host.files) < 0)
			failed = true;
		for (size_t i = 0; i < sc->nsteps; i++) {
			cJSON *s = run_step(&r, &sc->steps[i], i, failed);

			failed |= !strcmp(
				cJSON_GetObjectItemCaseSensitive(s, "status")
					->valuestring,
				"fail");
			cJSON_AddItemToArray(steps, s);
		}
		turn_teardown(&r);
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
	*passed = !failed;
	return steps;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static cJSON *run_scenario(const struct pc_run_item *it,
			   const struct pc_run_opts *o)
{
	const struct pc_scenario *sc = it->scenario;
	unsigned n = o->repeat ? o->repeat : 1, passes = 0;
	cJSON *res = cJSON_CreateObject(), *steps = NULL, *fail_steps = NULL;
	cJSON *updates = cJSON_CreateArray();
	double *ms = pc_xcalloc(n, sizeof(*ms)), total = 0;

	cJSON_AddStringToObject(res, "id", sc->id);
	cJSON_AddStringToObject(res, "file", it->file->path);
	cJSON_AddStringToObject(res, "name", sc->name);
	if (sc->skip) {
		cJSON_AddStringToObject(res, "status", "skip");
		cJSON_AddStringToObject(res, "message", sc->skip);
		cJSON_AddItemToObject(res, "steps", cJSON_CreateArray());
		cJSON_AddItemToObject(res, "updates", updates);
		free(ms);
		return res;
	}
	for (unsigned i = 0; i < n; i++) {
		int64_t t0 = pc_time_now_us();
		bool ok;

		cJSON_Delete(steps);
		steps = run_once(it->file, sc, o, i ? NULL : updates, &ok);
		ms[i] = (double)(pc_time_now_us() - t0) / 1000.0;
		total += ms[i];
		passes += ok;
		if (!ok && !fail_steps) {
			fail_steps = steps;
			steps = NULL;
		}
	}
	qsort(ms, n, sizeof(*ms), cmp_double);
	cJSON_AddStringToObject(res, "status", passes == n ? "pass" : "fail");
	cJSON_AddStringToObject(res, "message", "");
	cJSON_AddNumberToObject(res, "time_ms", total / n);
	cJSON_AddNumberToObject(res, "runs", n);
	cJSON_AddNumberToObject(res, "passes", passes);
	cJSON_AddNumberToObject(res, "p95_ms",
				ms[((size_t)n * 95 + 99) / 100 - 1]);
	if (fail_steps) {
		cJSON_AddItemToObject(res, "steps", fail_steps);
		cJSON_Delete(steps);
	} else {
		cJSON_AddItemToObject(res, "steps", steps);
	}
	cJSON_AddItemToObject(res, "updates", updates);
	free(ms);
	return res;
}

/* ---- workers ---- */

static cJSON *died(const struct pc_run_item *it, const char *why)
{
	cJSON *res = cJSON_CreateObject();

	cJSON_AddStringToObject(res, "id", it->scenario->id);
	cJSON_AddStringToObject(res, "file", it->file->path);
	cJSON_AddStringToObject(res, "name", it->scenario->name);
	cJSON_AddStringToObject(res, "status", "fail");
	cJSON_AddStringToObject(res, "message", why);
	cJSON_AddItemToObject(res, "steps", cJSON_CreateArray());
	cJSON_AddItemToObject(res, "updates", cJSON_CreateArray());
	return res;
}

static bool stopped(const struct pc_run_opts *o)
{
	return o->stop && *o->stop;
}

static void set_str(cJSON *o, const char *key, const char *v)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key))
		cJSON_ReplaceItemInObjectCaseSensitive(o, key,
						       cJSON_CreateString(v));
	else
		cJSON_AddStringToObject(o, key, v);
}

/* The result of an interrupted scenario: "skip", never judged; a step
 * that failed because its plugin was killed is a "skip" too (steps that
 * passed before the interrupt keep their status). */
static cJSON *cut(cJSON *res, const char *why)
{
	cJSON *steps = cJSON_GetObjectItemCaseSensitive(res, "steps");

	for (cJSON *st = steps ? steps->child : NULL; st; st = st->next)
		if (strcmp(pc_runner_status(st), "pass")) {
			set_str(st, "status", "skip");
			set_str(st, "message", why);
		}
	set_str(res, "status", "skip");
	set_str(res, "message", why);
	return res;
}

static const char cut_during[] =
	"interrupted: plugcheck was stopped during this scenario and killed "
	"the plugin; not judged";
static const char cut_before[] =
	"interrupted: plugcheck was stopped before this scenario; not run";
static const char not_run[] =
	"not run: the worker process running it died during an earlier "
	"scenario";

/* One scenario, or its "interrupted" skip when the run was stopped. */
static cJSON *run_or_cut(const struct pc_run_item *it,
			 const struct pc_run_opts *o)
{
	cJSON *res;

	if (stopped(o))
		return cut(died(it, ""), cut_before);
	res = run_scenario(it, o);
	return stopped(o) ? cut(res, cut_during) : res;
}

/* Worker `k` of `jobs`: scenarios k, k + jobs, ... each as one JSON line
 * of `out`, written as soon as it is done. */
static void worker(const struct pc_run_item *items, size_t n,
		   const struct pc_run_opts *o, unsigned k, unsigned jobs,
		   const char *out)
{
	bool ok = true;

	dirs_log = pc_xasprintf("%s.dirs", out);
	for (size_t i = k; i < n; i += jobs) {
		cJSON *res = run_or_cut(&items[i], o);
		char *text = cJSON_PrintUnformatted(res);

		ok = ok && text && !pc_fs_append_line(out, text, NULL);
		free(text);
		cJSON_Delete(res);
	}
	_exit(ok ? 0 : 1);
}

/* Once every worker is reaped: kill the plugins of those that died (an
 * interrupt, or a plugin that killed its worker), re-parented to
 * plugcheck (a child subreaper), and remove the temporary directories the
 * workers listed in DIR/K.json.dirs (those a worker removed itself are
 * gone already). */
static void sweep_killed(const char *dir, unsigned jobs)
{
	pc_proc_kill_orphans();
	for (unsigned k = 0; dir && k < jobs; k++) {
		char *log = pc_xasprintf("%s/%u.json.dirs", dir, k);

		pc_fs_rm_rf_listed(log);
		free(log);
	}
}

static cJSON *run_parallel(const struct pc_run_item *items, size_t n,
			   const struct pc_run_opts *o, unsigned jobs)
{
	cJSON *all = cJSON_CreateArray(), **slot = pc_xcalloc(n, sizeof(*slot));
	pid_t *pids = pc_xcalloc(jobs, sizeof(*pids));
	bool *first_lost = pc_xcalloc(n, sizeof(*first_lost));
	char *dir = pc_fs_mkdtemp("run");

	fflush(NULL);
	/* the plugins of a worker Ctrl-C kills re-parent here (sweep_killed) */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	for (unsigned k = 0; dir && k < jobs; k++) {
		char *out = pc_xasprintf("%s/%u.json", dir, k);

		pids[k] = fork();
		if (pids[k] == 0)
			worker(items, n, o, k, jobs, out);
		free(out);
	}
	for (unsigned k = 0; dir && k < jobs; k++) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
		char *out = pc_xasprintf("%s/%u.json", dir, k);
		int st = 0;
		size_t i = k;
		char *line, *nl;

		/* ECHILD: SIGCHLD was ignored (an inherited SIG_IGN), so
		 * the kernel reaped the worker; its file is written. Only
		 * EINTR is worth another wait - retrying ECHILD spun at
		 * 100% CPU for ever. */
		if (pids[k] > 0)
			while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR)
				;
		if (pids[k] > 0 && pc_fs_read_capped(out, &b, NULL) == 0) {
			pc_buf_cstr(&b); /* NUL-terminates b.data */
			for (line = b.data; line && i < n &&
					    (nl = strchr(line, '\n'));
			     line = nl + 1, i += jobs) {
				slot[i] = cJSON_ParseWithLength(line,
								(size_t)(nl - line));
				if (!slot[i])
					break;
			}
		}
		/* the scenario the worker died in; those after it never ran */
		if (i < n)
			first_lost[i] = true;
		pc_buf_release(&b);
		free(out);
	}
	for (size_t i = 0; !dir && i < n; i++)
		first_lost[i] = true; /* no worker ever started */
	/* Not only after an interrupt: a plugin can kill its worker
	 * (`kill -9 $PPID`), leaving its processes and directories too. */
	sweep_killed(dir, jobs);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(
			all,
			slot[i]	      ? slot[i]
			: stopped(o) ? cut(died(&items[i], ""),
					   first_lost[i] ? cut_during : cut_before)
			: first_lost[i]
				? died(&items[i],
				       "the worker process running this scenario died")
				: cut(died(&items[i], ""), not_run));
	if (dir) {
		pc_fs_rm_rf(dir);
		free(dir);
	}
	free(pids);
	free(slot);
	free(first_lost);
	return all;
}

cJSON *pc_runner_run(const struct pc_run_item *items, size_t n,
		     const struct pc_run_opts *o)
{
	unsigned jobs = o->jobs ? o->jobs : 1;
	cJSON *all;

	if (jobs > n)
		jobs = (unsigned)(n ? n : 1);
	if (jobs > 1)
		return run_parallel(items, n, o, jobs);
	all = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(all, run_or_cut(&items[i], o));
	return all;
}

/* ---- updates and reports ---- */

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

int pc_runner_apply_updates(const cJSON *results, struct pc_err *err)
{
	cJSON **ups = NULL;
	size_t n = 0;
	int written = 0, rc = 0;

	for (const cJSON *r = results->child; r; r = r->next)
		for (cJSON *u = cJSON_GetObjectItemCaseSensitive(r, "updates")
					->child;
		     u; u = u->next) {
			ups = pc_xreallocarray(ups, n + 1, sizeof(*ups));
			ups[n++] = u;
		}
	/* Group by file: handle each file once. */
	for (size_t i = 0; i < n && !rc; i++) {
		const char *file =
			cJSON_GetObjectItemCaseSensitive(ups[i], "file")
				->valuestring;
		cJSON **mine = NULL;
		size_t m = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(
				cJSON_GetObjectItemCaseSensitive(ups[j], "file")
					->valuestring,
				file);
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			if (!strcmp(cJSON_GetObjectItemCaseSensitive(ups[j],
								     "file")
					    ->valuestring,
				    file)) {
				mine = pc_xreallocarray(mine, m + 1,
							sizeof(*mine));
				mine[m++] = ups[j];
			}
		rc = update_file(file, mine, m, err);
		written += (int)m;
		free(mine);
	}
	free(ups);
	return rc ? rc : written;
}

const char *pc_runner_status(const cJSON *result)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(result, "status");

	return cJSON_IsString(s) ? s->valuestring : "fail";
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

void pc_runner_add_cases(const cJSON *results, struct pc_report *r)
{
	for (const cJSON *res = results->child; res; res = res->next) {
		const char *file = str(res, "file"), *base, *status;
		const cJSON *steps =
			cJSON_GetObjectItemCaseSensitive(res, "steps");
		char *cls, *stem, *dot;

		base = file && strrchr(file, '/') ? strrchr(file, '/') + 1
		       : file			  ? file
						  : "";
		stem = pc_xstrdup(base);
		if ((dot = strstr(stem, ".plugcheck.yaml")) ||
		    (dot = strstr(stem, ".yaml")))
			*dot = 0;
		cls = pc_xasprintf("plugcheck.scenario.%s", stem);
		free(stem);
		status = pc_runner_status(res);
		if (!steps || !steps->child) {
			pc_report_add_case(
				r, cls, str(res, "name"),
				!strcmp(status, "skip")	  ? PC_CASE_SKIP
				: !strcmp(status, "pass") ? PC_CASE_PASS
							  : PC_CASE_FAIL,
				str(res, "message"), NULL, 0);
		}
		for (const cJSON *s = steps ? steps->child : NULL; s;
		     s = s->next) {
			const char *ss = pc_runner_status(s);
			const cJSON *t =
				cJSON_GetObjectItemCaseSensitive(s, "time_ms");
			char *name = pc_xasprintf("%s / %s", str(res, "name"),
						  str(s, "name"));

			pc_report_add_case(
				r, cls, name,
				!strcmp(ss, "skip")   ? PC_CASE_SKIP
				: !strcmp(ss, "pass") ? PC_CASE_PASS
						      : PC_CASE_FAIL,
				str(s, "message"), str(s, "exchange"),
				cJSON_IsNumber(t) ? t->valuedouble / 1000.0
						  : 0);
			free(name);
		}
		free(cls);
	}
}

void pc_runner_print(FILE *f, const cJSON *results, unsigned repeat)
{
	size_t n[4] = { 0 };

	for (const cJSON *r = results->child; r; r = r->next) {
		const char *st = pc_runner_status(r);
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "time_ms");
		const char *msg = cJSON_GetObjectItemCaseSensitive(r, "message")
					  ->valuestring;
		int k = !strcmp(st, "pass")   ? 0
			: !strcmp(st, "fail") ? 1
			: !strcmp(st, "skip") ? 2
					      : 3;

		n[k]++;
		fprintf(f, "%-5s %s",
			k == 0	 ? "PASS"
			: k == 1 ? "FAIL"
			: k == 2 ? "SKIP"
				 : "XFAIL",
			cJSON_GetObjectItemCaseSensitive(r, "id")->valuestring);
		if (cJSON_IsNumber(t))
			fprintf(f, " (%.0f ms)", t->valuedouble);
		if (repeat > 1 && cJSON_GetObjectItemCaseSensitive(r, "runs"))
			fprintf(f, " pass rate %d/%d, p95 %.0f ms",
				cJSON_GetObjectItemCaseSensitive(r, "passes")
					->valueint,
				cJSON_GetObjectItemCaseSensitive(r, "runs")
					->valueint,
				cJSON_GetObjectItemCaseSensitive(r, "p95_ms")
					->valuedouble);
		fputc('\n', f);
		if (*msg)
			fprintf(f, "    %s\n", msg);
		if (k != 1)
			continue;
		for (const cJSON *s =
			     cJSON_GetObjectItemCaseSensitive(r, "steps")
				     ->child;
		     s; s = s->next)
			if (!strcmp(pc_runner_status(s), "fail"))
				fprintf(f, "  step %s:\n    %s\n",
					cJSON_GetObjectItemCaseSensitive(s,
									 "name")
						->valuestring,
					cJSON_GetObjectItemCaseSensitive(
						s, "message")
						->valuestring);
	}
	fprintf(f,
		"%zu scenarios: %zu passed, %zu failed, %zu skipped, %zu expected failures\n",
		n[0] + n[1] + n[2] + n[3], n[0], n[1], n[2], n[3]);
}

size_t pc_runner_failed(const cJSON *results)
{
	size_t n = 0;

	for (const cJSON *r = results->child; r; r = r->next)
		n += !strcmp(pc_runner_status(r), "fail");
	return n;
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
		if (n > 15 && !strcmp(e->d_name + n - 15, ".plugcheck.yaml") &&
		    pc_fs_is_file(p))
			pc_strvec_push(out, p);
		else if (pc_fs_is_dir(p))
			find_tests(p, out, depth + 1);
		free(p);
	}
	if (d)
		closedir(d);
}

int pc_runner_check_tests(const char *plugin_dir,
			  const struct pc_sandbox *sandbox, struct pc_report *r,
			  cJSON **results, struct pc_err *err)
{
	struct pc_run_opts o = PC_RUN_OPTS_INIT;
	struct pc_strvec paths = PC_STRVEC_INIT;
	struct pc_scenario_file *files;
	struct pc_run_item *items = NULL;
	char *dir = pc_fs_join(plugin_dir, "tests");
	size_t n = 0;
	int rc = 0;

	*results = NULL;
	o.sandbox = sandbox;
	find_tests(dir, &paths, 0);
	free(dir);
	if (!paths.nr) {
		pc_strvec_release(&paths);
		return 0;
	}
	qsort(paths.v, paths.nr, sizeof(*paths.v), cmp_str);
	files = pc_xcalloc(paths.nr, sizeof(*files));
	for (size_t i = 0; i < paths.nr && !rc; i++)
		rc = pc_scenario_load(paths.v[i], &files[i], err);
	for (size_t i = 0; i < paths.nr && !rc; i++)
		for (size_t j = 0; j < files[i].nscenarios; j++) {
			items = pc_xreallocarray(items, n + 1, sizeof(*items));
			items[n].file = &files[i];
			items[n++].scenario = &files[i].scenarios[j];
		}
	if (!rc) {
		*results = pc_runner_run(items, n, &o);
		pc_runner_add_cases(*results, r);
	}
	for (size_t i = 0; i < paths.nr; i++)
		pc_scenario_file_release(&files[i]);
	free(files);
	free(items);
	pc_strvec_release(&paths);
	return rc < 0 ? PC_EPARSE : 0;
}

/* pc_runner_expect.c - templates ({{ vars.NAME }}), expectations and
 * saved variables: how a step's actual document is judged. */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_fs.h"
#include "pc_runner_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* Workspace files read by a `files` expectation are capped (bytes). */
#define FILE_CHECK_MAX ((size_t)16 << 20)

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
char *pc__run_render(struct run *r, const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p = s, *open;

	while ((open = strstr(p, "{{"))) {
		const char *q = open + 2, *close = strstr(q, "}}");
		const cJSON *v;
		char *name, *t;
		size_t n;
		bool big;

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
		t = cJSON_IsString(v) ? pc_xstrdup(v->valuestring)
				      : cJSON_PrintUnformatted(v);
		big = !t || r->expanded + b.len + strlen(t) >
				    PC_SCENARIO_MAX_EXPAND;
		if (!big)
			pc_buf_adds(&b, t);
		free(t);
		if (big) {
			too_big(r, &b, name);
			free(name);
			return NULL;
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
cJSON *pc__run_render_json(struct run *r, const cJSON *v)
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
			char *t = pc__run_render(r, n->valuestring);

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

/* A `files` mismatch, saying what was compared with what. */
static void file_mismatch(struct run *r, const struct pc_expect *e,
			  const char *want, const cJSON *got,
			  const struct pc_err *why)
{
	char *g = got ? show(got) : NULL;
	const char *v = e->value && cJSON_IsString(e->value)
				? e->value->valuestring
				: "";

	pc_buf_addf(&r->msg,
		    "%sexpect.%s (line %zu):\n      expected: %s\n      actual:   ",
		    r->msg.len ? "\n    " : "", e->label, e->line, want);
	if (g)
		pc_buf_addf(&r->msg, "the content %s", g);
	else if (why && why->code && why->code != PC_ENOENT)
		pc_buf_addf(&r->msg, "not looked at: %s", why->msg);
	else
		pc_buf_addf(&r->msg, "no file %s", e->path);
	/* `"absent"` in quotes is a string: the content, not the state */
	if (!e->re && e->file_state == PC_FILE_CONTENT &&
	    (!strcmp(v, "absent") || !strcmp(v, "present")))
		pc_buf_addf(&r->msg,
			    "\n      (\"%s\" in quotes is compared as the file's content; write %s without quotes to expect the file %s)",
			    v, v, strcmp(v, "absent") ? "to exist" : "not to exist");
	free(g);
}

/* check_file - a `files` expectation, looked at beneath the workspace
 * without following a symlink a plugin planted, and read only when it is
 * a regular file (a FIFO there must not hang the run; issue 21). */
static bool check_file(struct run *r, const struct pc_expect *e)
{
	struct pc_buf b = PC_BUF_INIT(FILE_CHECK_MAX);
	struct pc_err err = PC_ERR_INIT;
	struct stat st;
	struct pc_err lerr = PC_ERR_INIT;
	bool exists = pc_fs_beneath_lstat(r->ws, e->path, &st, &lerr) == 0;
	bool ok = true;
	cJSON *got = NULL;
	char *want;

	if (e->file_state == PC_FILE_PRESENT && !exists) {
		file_mismatch(r, e, "a file (present)", NULL, &lerr);
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
		if (!ok && !(exists && err.code)) {
			char *v = e->re ? NULL : show(e->value);

			want = e->re ? pc_xasprintf("content matching %s",
						    pc_match_source(e->re))
				     : pc_xasprintf("the content %s", v);
			file_mismatch(r, e, want, got, &lerr);
			free(want);
			free(v);
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
	if (!(want = pc__run_render_json(r, e->value)))
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

bool pc__run_check_all(struct run *r, const struct pc_step *s, const cJSON *doc)
{
	bool ok = true;

	for (size_t i = 0; i < s->nexpects; i++)
		ok &= check_one(r, &s->expects[i], doc);
	return ok;
}

char *pc__run_json_text(struct run *r, const cJSON *v)
{
	cJSON *c;
	char *t;

	if (!v)
		return NULL;
	if (cJSON_IsString(v))
		return pc__run_render(r, v->valuestring);
	if (!(c = pc__run_render_json(r, v)))
		return NULL;
	t = cJSON_PrintUnformatted(c);
	cJSON_Delete(c);
	return t;
}

void pc__run_save_vars(struct run *r, const struct pc_step *s, const cJSON *doc,
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


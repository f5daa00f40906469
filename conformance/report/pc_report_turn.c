/* pc_report_turn.c - a turn's timeline for the report (pc_report.h): the
 * recorder the turn engine tells of each hook firing, and the marks made
 * from the transcript in the host's order. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_report.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define VALUE_MAX (4 * PC_REPORT_TEXT_MAX) /* before/after, each */

static char *pretty(const cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *s, *cut;

	pc_serde_print_pretty(v, &b);
	s = pc_buf_detach(&b, NULL);
	cut = pc_report_bounded(s, VALUE_MAX);
	free(s);
	return cut;
}

static bool is_post(enum pc_hook_point p)
{
	return p == PC_HOOK_POST_BASH || p == PC_HOOK_POST_WRITE ||
	       p == PC_HOOK_POST_READ || p == PC_HOOK_POST_TOOL;
}

/* The hook points whose object modify the host shallow-merges into the
 * args it then uses (R4.10; pre_input's text, pre_turn's model). */
static bool merges_args(enum pc_hook_point p)
{
	return p == PC_HOOK_PRE_BASH || p == PC_HOOK_PRE_WRITE ||
	       p == PC_HOOK_PRE_READ || p == PC_HOOK_PRE_TOOL ||
	       p == PC_HOOK_PRE_INPUT || p == PC_HOOK_PRE_TURN;
}

/* A post hook's merge (R4.9): a string output, a boolean ok and any
 * diff (a non-string one clears it). */
static void merge_result(cJSON *res, const cJSON *mod)
{
	const cJSON *v = pc_serde_get(mod, "output");

	if (cJSON_IsString(v))
		cJSON_ReplaceItemInObjectCaseSensitive(res, "output",
						       cJSON_Duplicate(v, 1));
	v = pc_serde_get(mod, "ok");
	if (cJSON_IsBool(v))
		cJSON_ReplaceItemInObjectCaseSensitive(res, "ok",
						       cJSON_Duplicate(v, 1));
	v = pc_serde_get(mod, "diff");
	if (v)
		cJSON_ReplaceItemInObjectCaseSensitive(
			res, "diff",
			cJSON_IsString(v) ? cJSON_Duplicate(v, 1)
					  : cJSON_CreateNull());
}

void pc_turn_rec_hook(void *ctx, const struct pc_turn_firing *f)
{
	struct pc_turn_rec *rec = ctx;
	struct pc_turn_rec_fire *e;
	const cJSON *mod = f->hr->modify;
	const cJSON *base = is_post(f->point) ? f->result : f->args;

	rec->v = pc_xreallocarray(rec->v, rec->n + 1, sizeof(*rec->v));
	e = &rec->v[rec->n++];
	memset(e, 0, sizeof(*e));
	e->event = f->event;
	e->x = pc_xchg_from_exchange(f->x);
	e->x->point = pc_xstrdup(pc_hook_point_name(f->point));
	e->x->verdict = pc_xasprintf("%s (%s) reason: %s",
				     f->hr->allow ? "allow" : "deny",
				     pc_outcome_name(f->hr->outcome),
				     f->hr->reason ? f->hr->reason : "");
	e->x->passed = f->hr->allow && f->hr->outcome == PC_OUT_OK;
	if (mod) {
		char *m = pc_serde_to_string(mod);

		e->modify = pc_report_bounded(m, PC_REPORT_TEXT_MAX);
		free(m);
	}
	if (cJSON_IsObject(mod) && cJSON_IsObject(base) && f->hr->allow &&
	    (is_post(f->point) || merges_args(f->point))) {
		cJSON *after = cJSON_Duplicate(base, 1);

		if (is_post(f->point))
			merge_result(after, mod);
		else
			pc_apply_modify(after, mod);
		e->before = pretty(base);
		e->after = pretty(after);
		cJSON_Delete(after);
	}
}

void pc_turn_rec_release(struct pc_turn_rec *rec)
{
	for (size_t i = 0; i < rec->n; i++) {
		pc_xchg_free(rec->v[i].x);
		free(rec->v[i].before);
		free(rec->v[i].after);
		free(rec->v[i].modify);
	}
	free(rec->v);
	*rec = (struct pc_turn_rec)PC_TURN_REC_INIT;
}

static const char *s_of(const cJSON *e, const char *k)
{
	const cJSON *v = pc_serde_get(e, k);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static double n_of(const cJSON *e, const char *k)
{
	const cJSON *v = pc_serde_get(e, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static char *bounded(const char *s)
{
	return pc_report_bounded(s, PC_REPORT_TEXT_MAX);
}

/* What the recorder kept for event `i`, moved into hook mark `m`. */
static void take_firing(struct pc_mark *m, size_t i, struct pc_turn_rec *rec)
{
	for (size_t k = 0; rec && k < rec->n; k++) {
		struct pc_turn_rec_fire *e = &rec->v[k];

		if (e->event != i)
			continue;
		m->x = e->x;
		m->before = e->before;
		m->after = e->after;
		if (e->modify && !e->before) { /* not merged: shown as is */
			char *d = pc_xasprintf("%s%smodify: %s",
					       m->detail ? m->detail : "",
					       m->detail && *m->detail ? "\n" : "",
					       e->modify);

			free(m->detail);
			m->detail = d;
		}
		e->x = NULL;
		e->before = e->after = NULL;
		return;
	}
}

static void hook_mark(struct pc_case *k, const cJSON *e, size_t i,
		      struct pc_turn_rec *rec)
{
	char *label = pc_xasprintf("%s %s%s%s", s_of(e, "hook"),
				   s_of(e, "plugin"), *s_of(e, "tool") ? " " : "",
				   s_of(e, "tool"));
	struct pc_mark *m = pc_case_add_mark(k, PC_MARK_HOOK, label);

	m->verdict = pc_xstrdup(s_of(e, "verdict"));
	m->outcome = pc_xstrdup(s_of(e, "outcome"));
	m->detail = bounded(s_of(e, "reason"));
	take_firing(m, i, rec);
	free(label);
}

/* The one-line label of a non-hook event, and its kind. */
static char *event_label(const cJSON *e, const char *type,
			 enum pc_mark_kind *kind)
{
	*kind = PC_MARK_EVENT;
	if (!strcmp(type, "turn")) {
		*kind = PC_MARK_TURN;
		return pc_xasprintf("turn %.0f: %s", n_of(e, "index"),
				    s_of(e, "text"));
	}
	if (!strcmp(type, "request")) {
		*kind = PC_MARK_REQUEST;
		return pc_xasprintf("request %.0f to %s with %d message(s)",
				    n_of(e, "index"), s_of(e, "model"),
				    cJSON_GetArraySize(pc_serde_get(e, "messages")));
	}
	if (!strcmp(type, "tool_call") || !strcmp(type, "tool_result")) {
		*kind = PC_MARK_TOOL;
		return pc_xasprintf("%s %s",
				    type[5] == 'c' ? "call" : "result",
				    s_of(e, "name"));
	}
	if (!strcmp(type, "assistant"))
		return pc_xasprintf("assistant: %s",
				    s_of(pc_serde_get(e, "message"), "content"));
	if (!strcmp(type, "approval"))
		return pc_xasprintf("approval %s: %s", s_of(e, "tool"),
				    cJSON_IsTrue(pc_serde_get(e, "approved"))
					    ? "approved"
					    : "refused");
	if (*s_of(e, "message"))
		return pc_xasprintf("%s: %s", type, s_of(e, "message"));
	if (*s_of(e, "line"))
		return pc_xasprintf("%s: %s", type, s_of(e, "line"));
	if (*s_of(e, "text"))
		return pc_xasprintf("%s [%s] %s", type, s_of(e, "plugin"),
				    s_of(e, "text"));
	if (*s_of(e, "name"))
		return pc_xasprintf("%s %s", type, s_of(e, "name"));
	return pc_xstrdup(type);
}

size_t pc_report_turn_marks(struct pc_case *k, const cJSON *transcript,
			    size_t first, struct pc_turn_rec *rec)
{
	size_t i = 0, hooks = 0;
	const cJSON *e;

	cJSON_ArrayForEach(e, transcript)
	{
		const char *type = s_of(e, "type");
		enum pc_mark_kind kind;
		struct pc_mark *m;
		char *label;

		if (i++ < first)
			continue;
		if (!strcmp(type, "hook")) {
			hook_mark(k, e, i - 1, rec);
			hooks++;
			continue;
		}
		label = event_label(e, type, &kind);
		m = pc_case_add_mark(k, kind, label);
		free(label);
		if (!strcmp(type, "tool_call")) {
			m->detail = bounded(s_of(e, "arguments"));
		} else if (!strcmp(type, "tool_result")) {
			m->verdict = pc_xstrdup(
				cJSON_IsTrue(pc_serde_get(e, "ok")) ? "ok"
								    : "failed");
			m->detail = bounded(s_of(e, "output"));
		}
	}
	return hooks;
}

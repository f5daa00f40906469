/* pc_guard_search.c - the search of pc_guard.h: seeds, the judgment of
 * each input by the plugin's hooks on its tool's path, the rewrites
 * within the budget, in this process or in worker processes. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_pool.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

bool pc_guard_is_point(int hook)
{
	return hook == PC_HOOK_PRE_BASH || hook == PC_HOOK_PRE_WRITE ||
	       hook == PC_HOOK_PRE_READ || hook == PC_HOOK_PRE_TOOL;
}

/* The specific pre hook a tool call fires (R4.6), or -1. */
static int specific_hook(const char *tool)
{
	if (!strcmp(tool, "bash"))
		return PC_HOOK_PRE_BASH;
	if (!strcmp(tool, "write_file") || !strcmp(tool, "edit"))
		return PC_HOOK_PRE_WRITE;
	if (!strcmp(tool, "read_file") || !strcmp(tool, "grep") ||
	    !strcmp(tool, "glob"))
		return PC_HOOK_PRE_READ;
	return -1;
}

static double now_ms(void)
{
	return (double)pc_time_now_us() / 1000.0;
}

/* ---- one input ---- */

static void fire(struct pc__gsearch *S, int hook, const char *tool,
		 const cJSON *args, struct pc_fire *f)
{
	const struct pc_guard_opts *o = S->o;
	struct pc_fire_input in = { .args_json = args, .tool = tool };
	struct pc_host h;

	pc_host_init(&h, o->envp, o->workspace, o->session ? o->session : "");
	pc_host_set_cwd(&h, o->workspace);
	h.confine = o->confine;
	pc_fire_exchange(&h, o->plugin, &S->pts[hook], &in, f, NULL);
	pc_host_release(&h);
}

static enum pc_guard_verdict verdict_of(const struct pc_fire *f)
{
	if (f->hook.outcome == PC_OUT_INPUT_TOO_LARGE)
		return PC_GUARD_DENY;
	if (f->hook.outcome != PC_OUT_OK)
		return PC_GUARD_ACCIDENT;
	return f->hook.allow ? PC_GUARD_ALLOW : PC_GUARD_DENY;
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? pc_xstrdup(s) : NULL;
}

void pc__guard_judge(struct pc__gsearch *S, struct pc_guard_try *t,
		     bool point_only)
{
	const struct pc_plugin *p = S->o->plugin;
	int chain[2], n = 0, sp = specific_hook(t->tool);
	cJSON *args = NULL;

	if (point_only)
		chain[n++] = S->o->hook;
	else {
		if (sp >= 0 && p->hooks[sp].present)
			chain[n++] = sp;
		if (p->hooks[PC_HOOK_PRE_TOOL].present)
			chain[n++] = PC_HOOK_PRE_TOOL;
	}
	pc_serde_parse(t->args, strlen(t->args), &args, NULL);
	t->verdict = PC_GUARD_ALLOW;
	set_str(&t->decided_by, n ? "" : "-");
	if (!n) {
		char *why = pc_xasprintf("no hook of the plugin sees `%s` calls (R4.6)",
					 t->tool);

		set_str(&t->reason, why);
		free(why);
	}
	for (int i = 0; i < n; i++) {
		struct pc_fire f = PC_FIRE_INIT;
		char *x;

		fire(S, chain[i], t->tool, args, &f);
		t->exchanges++;
		t->ms += (double)f.x.proc.wall_ms;
		t->verdict = verdict_of(&f);
		set_str(&t->reason, f.hook.reason);
		set_str(&t->outcome, pc_outcome_name(f.hook.outcome));
		x = pc_fire_text(&f);
		free(t->exchange);
		t->exchange = x;
		if (t->verdict != PC_GUARD_ALLOW)
			set_str(&t->decided_by,
				pc_hook_point_name((enum pc_hook_point)chain[i]));
		pc_fire_release(&f);
		if (t->verdict != PC_GUARD_ALLOW)
			break;
	}
	cJSON_Delete(args);
}

/* ---- running a list of inputs ---- */

static bool stopped(struct pc__gsearch *S)
{
	const struct pc_guard_opts *o = S->o;
	struct pc_guard_result *r = S->r;

	if (o->stop && *o->stop) {
		r->incomplete = true;
		if (!r->stopped)
			r->stopped = pc_xstrdup("interrupted: plugcheck was stopped");
		return true;
	}
	if (S->timeouts >= PC_GUARD_MAX_TIMEOUTS) {
		if (!r->stopped)
			r->stopped = pc_xasprintf(
				"the hook timed out %u times (each costs its timeout_ms): the search stopped there",
				S->timeouts);
		return true;
	}
	if (now_ms() - S->t0 > PC_GUARD_TIME_MS) {
		if (!r->stopped)
			r->stopped = pc_xasprintf(
				"the search stopped after %d s (PC_GUARD_TIME_MS), %u inputs in",
				PC_GUARD_TIME_MS / 1000, r->inputs);
		return true;
	}
	return false;
}

static void note(struct pc__gsearch *S, const struct pc_guard_try *t)
{
	const struct pc_guard_opts *o = S->o;
	char *label;

	if (!o->worker && !o->progress)
		return;
	label = pc_xasprintf("%s%s%s", o->note_prefix ? o->note_prefix : "",
			     o->note_prefix ? ": " : "", t->text);
	if (o->worker)
		pc_pool_note(o->worker, label);
	if (o->progress)
		o->progress(o->progress_ctx, label);
	free(label);
}

static void account(struct pc__gsearch *S, const struct pc_guard_try *t)
{
	S->r->inputs++;
	S->r->exchanges += t->exchanges;
	S->r->hook_ms += t->ms;
	if (t->outcome && !strcmp(t->outcome, "timeout"))
		S->timeouts++;
}

/* The result of one input as a pool part, and back. */
static char *pack(const struct pc_guard_try *t)
{
	cJSON *o = cJSON_CreateObject();
	char *s;

	cJSON_AddNumberToObject(o, "v", t->verdict);
	cJSON_AddStringToObject(o, "by", t->decided_by ? t->decided_by : "");
	cJSON_AddStringToObject(o, "reason", t->reason ? t->reason : "");
	cJSON_AddStringToObject(o, "outcome", t->outcome ? t->outcome : "");
	cJSON_AddStringToObject(o, "x", t->exchange ? t->exchange : "");
	cJSON_AddNumberToObject(o, "n", t->exchanges);
	cJSON_AddNumberToObject(o, "ms", t->ms);
	s = pc_serde_to_string(o);
	cJSON_Delete(o);
	return s;
}

static void unpack(struct pc_guard_try *t, const char *part, size_t len)
{
	cJSON *o = NULL;
	const cJSON *v;

	if (pc_serde_parse(part, len, &o, NULL) < 0)
		return;
	v = pc_serde_get(o, "v");
	t->verdict = cJSON_IsNumber(v) ? (enum pc_guard_verdict)v->valueint
				       : PC_GUARD_NOT_RUN;
	if ((v = pc_serde_get(o, "by")) && cJSON_IsString(v))
		set_str(&t->decided_by, v->valuestring);
	if ((v = pc_serde_get(o, "reason")) && cJSON_IsString(v))
		set_str(&t->reason, v->valuestring);
	if ((v = pc_serde_get(o, "outcome")) && cJSON_IsString(v))
		set_str(&t->outcome, *v->valuestring ? v->valuestring : NULL);
	if ((v = pc_serde_get(o, "x")) && cJSON_IsString(v))
		set_str(&t->exchange, *v->valuestring ? v->valuestring : NULL);
	if ((v = pc_serde_get(o, "n")) && cJSON_IsNumber(v))
		t->exchanges = (unsigned)v->valuedouble;
	if ((v = pc_serde_get(o, "ms")) && cJSON_IsNumber(v))
		t->ms = v->valuedouble;
	cJSON_Delete(o);
}

struct batch {
	struct pc__gsearch *S;
	size_t from;
	bool point_only;
};

static void unit_run(void *ctx, struct pc_pool_worker *w, size_t u)
{
	struct batch *b = ctx;
	struct pc_guard_try *t = &b->S->r->tries[b->from + u];
	char *s;

	/* the caps, in the worker (the clock is the machine's): what is
	 * handed out after them is sent back not run */
	if (now_ms() - b->S->t0 > PC_GUARD_TIME_MS ||
	    b->S->timeouts >= PC_GUARD_MAX_TIMEOUTS) {
		pc_pool_send(w, "{\"v\":0}", 7);
		return;
	}
	pc_pool_note(w, t->text);
	pc__guard_judge(b->S, t, b->point_only);
	if (t->outcome && !strcmp(t->outcome, "timeout"))
		b->S->timeouts++; /* this worker's count */
	s = pack(t);
	pc_pool_send(w, s, strlen(s));
	free(s);
}

static void unit_merge(void *ctx, size_t u, const char *part, size_t len)
{
	struct batch *b = ctx;

	unpack(&b->S->r->tries[b->from + u], part, len);
}

static void unit_event(void *ctx, size_t u, const struct pc_pool_event *ev)
{
	struct batch *b = ctx;
	struct pc_guard_try *t = &b->S->r->tries[b->from + u];

	if (ev->kind == PC_POOL_STOPPED)
		return;
	t->verdict = PC_GUARD_NOT_RUN;
	set_str(&t->reason, ev->kind == PC_POOL_INTERRUPTED
				    ? "interrupted: not judged"
				    : "the worker firing it was lost (the plugin killed or stopped its host)");
	if (ev->kind == PC_POOL_INTERRUPTED)
		b->S->r->incomplete = true;
}

/* Judge tries [from, to): one by one, or in `jobs` workers at once (one
 * pool run: starting workers costs more than a firing), the caps checked
 * before each input. */
void pc__guard_execute(struct pc__gsearch *S, size_t from, size_t to,
		       bool point_only)
{
	static const struct pc_pool_ops ops = { .run = unit_run,
						.merge = unit_merge,
						.event = unit_event };
	struct batch b = { S, from, point_only };
	struct pc_pool_opts po = { .jobs = S->o->jobs, .nunits = to - from,
				   .ops = &ops, .ctx = &b, .stop = S->o->stop,
				   .marker = S->o->tmp };

	if (S->o->jobs > 1 && to > from && !stopped(S)) {
		if (S->o->progress)
			note(S, &S->r->tries[from]);
		if (pc_pool_run(&po, NULL) < 0)
			S->r->incomplete = true;
		for (size_t k = from; k < to; k++)
			if (S->r->tries[k].verdict != PC_GUARD_NOT_RUN)
				account(S, &S->r->tries[k]);
		if (to > from && S->r->tries[to - 1].verdict == PC_GUARD_NOT_RUN)
			stopped(S);
		return;
	}
	for (size_t i = from; i < to; i++) {
		if (stopped(S))
			return;
		note(S, &S->r->tries[i]);
		pc__guard_judge(S, &S->r->tries[i], point_only);
		account(S, &S->r->tries[i]);
	}
}

/* ---- tries ---- */

struct pc_guard_try *pc__guard_add_try(struct pc_guard_result *r,
				       enum pc_guard_role role, size_t seed,
				       const char *tool, const char *text,
				       const cJSON *args)
{
	struct pc_guard_try *t;

	r->tries = pc_xreallocarray(r->tries, r->ntries + 1, sizeof(*r->tries));
	t = &r->tries[r->ntries++];
	*t = (struct pc_guard_try){ .role = role, .seed = seed };
	t->tool = pc_xstrdup(tool);
	t->text = pc_xstrdup(text);
	t->args = pc_serde_to_string(args);
	return t;
}

void pc__guard_try_release(struct pc_guard_try *t)
{
	free(t->rule);
	free(t->tool);
	free(t->text);
	free(t->args);
	free(t->decided_by);
	free(t->reason);
	free(t->outcome);
	free(t->exchange);
	free(t->demo);
}

void pc_guard_result_release(struct pc_guard_result *r)
{
	for (size_t i = 0; i < r->nseeds; i++) {
		free(r->seeds[i].text);
		free(r->seeds[i].origin);
	}
	free(r->seeds);
	for (size_t i = 0; i < r->ntries; i++)
		pc__guard_try_release(&r->tries[i]);
	free(r->tries);
	for (size_t i = 0; i < r->ncauses; i++) {
		free(r->causes[i].what);
		free(r->causes[i].file);
	}
	free(r->causes);
	free(r->point);
	free(r->workspace);
	free(r->home);
	free(r->skipped);
	free(r->stopped);
	*r = (struct pc_guard_result)PC_GUARD_RESULT_INIT;
}

size_t pc_guard_bypasses(const struct pc_guard_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ntries; i++)
		n += r->tries[i].role == PC_GUARD_T_VARIANT &&
		     r->tries[i].verdict == PC_GUARD_ALLOW;
	return n;
}

void pc__guard_search_init(struct pc__gsearch *S,
			   const struct pc_guard_opts *o,
			   struct pc_guard_result *r)
{
	static const int points[] = { PC_HOOK_PRE_BASH, PC_HOOK_PRE_WRITE,
				      PC_HOOK_PRE_READ, PC_HOOK_PRE_TOOL };

	*S = (struct pc__gsearch){ .o = o, .r = r, .t0 = now_ms() };
	for (size_t i = 0; i < sizeof(points) / sizeof(*points); i++)
		if (o->plugin->hooks[points[i]].present)
			pc_fire_resolve(o->plugin,
					pc_hook_point_name((enum pc_hook_point)points[i]),
					false, &S->pts[points[i]], NULL);
	S->ctx.home = pc_strvec_env_get(o->envp, "HOME");
	S->ctx.workspace = o->workspace;
	S->ctx.path_env = pc_strvec_env_get(o->envp, "PATH");
}

void pc__guard_search_release(struct pc__gsearch *S)
{
	for (size_t i = 0; i < PC_HOOK_COUNT; i++)
		pc_fire_point_release(&S->pts[i]);
}

double pc__guard_elapsed(const struct pc__gsearch *S)
{
	return now_ms() - S->t0;
}

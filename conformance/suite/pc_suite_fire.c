/* pc_suite_fire.c - firing hooks, tools and commands and judging them. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_guard.h"
#include "pc_schema.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

static bool is_tool_hook(int point)
{
	return point == PC_HOOK_PRE_BASH || point == PC_HOOK_PRE_WRITE ||
	       point == PC_HOOK_PRE_READ || point == PC_HOOK_PRE_TOOL;
}

static bool is_lifecycle(int point)
{
	return point == PC_HOOK_SESSION_START || point == PC_HOOK_TURN_START ||
	       point == PC_HOOK_TURN_END || point == PC_HOOK_SESSION_STOP ||
	       point == PC_HOOK_PRE_COMPACT || point == PC_HOOK_SESSION_SHUTDOWN;
}

/* Findings from the raw answer of a hook that ran to a valid JSON answer. */
static void judge_answer(struct pc__suite *s, size_t c, int point,
			 const char *where, const struct pc_hook_result *r,
			 const cJSON *v)
{
	const cJSON *allow = pc_serde_get(v, "allow");
	const cJSON *mod = pc_serde_get(v, "modify");
	bool blocking = pc_hook_is_blocking((enum pc_hook_point)point);

	if (blocking && !cJSON_IsBool(allow)) {
		char *a = allow ? pc_serde_to_string(allow) : pc_xstrdup("missing");

		pc__suite_find(s, c, "PC-HOOK-012", where,
			       "allow is %s: the host denies this call with reason \"%s\"",
			       a, r->reason);
		free(a);
	}
	if (!blocking && cJSON_IsFalse(allow))
		pc__suite_find(s, c, "PC-HOOK-013", where,
			       "answered allow:false, which the host ignores at '%s'",
			       pc_hook_point_name((enum pc_hook_point)point));
	if (blocking && cJSON_IsFalse(allow) && !*r->reason)
		pc__suite_find(s, c, "PC-HOOK-014", where,
			       "denied with an empty reason");
	if (mod && is_tool_hook(point) && !cJSON_IsObject(mod))
		pc__suite_find(s, c, "PC-HOOK-015", where,
			       "modify is not an object; the host leaves the arguments unchanged");
	if (mod && is_lifecycle(point))
		pc__suite_find(s, c, "PC-HOOK-016", where,
			       "'%s' results are discarded by the host",
			       pc_hook_point_name((enum pc_hook_point)point));
}

/* Findings from a failed exchange (any kind of entry point). Returns true
 * when something was found. */
static bool judge_failure(struct pc__suite *s, size_t c, const char *where,
			  const struct pc_exchange *x, enum pc_outcome o,
			  const char *fail_id, const char *msg)
{
	if (o == PC_OUT_OUTPUT_TOO_LARGE) {
		pc__suite_find(s, c, "PC-IO-001", where, "%s", msg);
		return true;
	}
	if (o == PC_OUT_TIMEOUT && x->proc.exited_before_eof) {
		pc__suite_find(s, c, "PC-PROC-003", where,
			       "the script exited but a process it started kept a pipe open until the timeout: %s",
			       msg);
		return true;
	}
	if (o != PC_OUT_OK && o != PC_OUT_INPUT_TOO_LARGE) {
		pc__suite_find(s, c, fail_id, where, "%s", msg);
		return true;
	}
	return false;
}

/* One firing of hook point `pt` with input `in` (args NULL: none; tool
 * NULL: the point's default) as case `label`; the verdict stays in `f`
 * for the caller (released by it). Returns the case. */
size_t pc__suite_fire_hook(struct pc__suite *s, const struct pc_fire_point *pt,
			   const char *label, const struct pc_fire_input *in,
			   bool probe, struct pc_fire *f)
{
	int point = pt->hook;
	const char *n = pc_hook_point_name((enum pc_hook_point)point);
	char *where = pc_xasprintf("hook %s", n);
	char *cls = pc_xasprintf("plugcheck.hook.%s", n);
	bool blocking = pc_hook_is_blocking((enum pc_hook_point)point);
	size_t c = pc__suite_begin(s, cls, label);
	struct pc__suite_shot shot = {
		.point = point, .where = where,
		.tool = in->tool ? in->tool : pc_fire_default_tool(point),
		.args_text = in->args,
		.script = s->p->hooks[point].script,
	};
	cJSON *v;

	pc__suite_fire(s, pt, in->args || in->tool ? in : NULL, NULL, f);
	if (!judge_failure(s, c, where, &f->x, f->hook.outcome,
			   probe ? "PC-IO-002"
				 : blocking ? "PC-HOOK-010" : "PC-HOOK-011",
			   f->hook.reason)) {
		v = pc__suite_answer(&f->x);
		if (v) {
			judge_answer(s, c, point, where, &f->hook, v);
			pc__suite_hook_causes(s, c, &shot, &f->hook, v);
		}
		cJSON_Delete(v);
	}
	pc__suite_answer_bytes(s, c, where, f, shot.script);
	pc__suite_leftovers(s, c, where, &f->x);
	if (f->x.spawned && f->x.proc.stdin_closed_early)
		pc__suite_find(s, c, "PC-IO-004", where,
			       "the script exited after reading %zu of %zu stdin bytes",
			       f->x.proc.stdin_written, f->x.stdin_json.len);
	free(cls);
	free(where);
	return c;
}

static size_t fire_hook(struct pc__suite *s, const struct pc_fire_point *pt,
			const char *label, const char *args_text, bool probe,
			struct pc_fire *f)
{
	struct pc_fire_input in = { .args = args_text };

	return pc__suite_fire_hook(s, pt, label, &in, probe, f);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Repeated realistic firings: p50/p95 against the timeout (PC-PROC-002,
 * on the realistic-input case `c`); also whether the hook answers the same
 * input the same way (for the working-directory check). */
static bool latency(struct pc__suite *s, size_t c,
		    const struct pc_fire_point *pt, const struct pc_fire *first)
{
	unsigned n = s->o->repeat ? s->o->repeat : 5;
	const struct pc_hook_cfg *h = &s->p->hooks[pt->hook];
	const char *name = pc_hook_point_name((enum pc_hook_point)pt->hook);
	int64_t *ms = pc_xcalloc(n + 1, sizeof(*ms)), p50, p95;
	long long *samples = pc_xcalloc(n + 1, sizeof(*samples));
	size_t fired = 1;
	bool same = true;
	char *where;

	ms[0] = first->x.proc.wall_ms;
	for (unsigned i = 1; i <= n && !pc__suite_stopped(s); i++) {
		struct pc_fire f = PC_FIRE_INIT;
		size_t k;

		pc__suite_progress(s, "hook %s: latency %u/%u", name, i, n);
		k = fire_hook(s, pt, "repeat", pc_fire_default_args(pt->hook),
			      false, &f);
		ms[i] = f.x.proc.wall_ms;
		fired = i + 1;
		same = same && pc__suite_same(first, &f);
		pc__suite_end(s, k, &f);
		pc_fire_release(&f);
	}
	for (unsigned i = 0; i <= n; i++) /* in firing order, for the page */
		samples[i] = (long long)ms[i];
	qsort(ms, n + 1, sizeof(*ms), cmp_i64);
	p50 = ms[(n + 1) / 2];
	p95 = ms[(size_t)((19 * (n + 1) + 19) / 20) - 1];
	/* the firings an interrupt cut short were not measured */
	pc_report_set_latency(s->r, c, samples, fired, (long long)h->timeout_ms,
			      (long long)p50, (long long)p95);
	free(samples);
	where = pc_xasprintf("hook %s", name);
	if ((uint64_t)p95 * 2 > h->timeout_ms)
		pc__suite_find(s, c, "PC-PROC-002", where,
			       "p50 %lld ms, p95 %lld ms over %u firings, timeout %llu ms",
			       (long long)p50, (long long)p95, n + 1,
			       (unsigned long long)h->timeout_ms);
	free(where);
	free(ms);
	return same;
}

/* A context near the 1 MiB cap: the args JSON padded to about 1000000
 * bytes of serialized context. */
static char *big_args(int point)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *key = point == PC_HOOK_PRE_INPUT ? "text"
			  : point == PC_HOOK_PRE_BASH || point == PC_HOOK_POST_BASH
				  ? "command"
				  : "content";

	pc_buf_addf(&b, "{\"path\":\"big.txt\",\"%s\":\"", key);
	for (size_t i = 0; i < 1000000 / 64; i++)
		pc_buf_adds(&b, "plugcheck large-input probe: 0123456789 abcdefghijklmnopqrstu\\n");
	pc_buf_adds(&b, "\"}");
	return pc_buf_detach(&b, NULL);
}

/* The probes only say something when plain input works: a hook that
 * always fails would be blamed on them too. */
static void probes(struct pc__suite *s, const struct pc_fire_point *pt)
{
	int i = pt->hook;
	const char *n = pc_hook_point_name((enum pc_hook_point)i);
	struct pc_fire f = PC_FIRE_INIT;
	size_t c;
	char *big;

	pc__suite_progress(s, "hook %s: non-ASCII input", n);
	c = fire_hook(s, pt, "non-ASCII input",
		      i == PC_HOOK_PRE_INPUT ? "{\"text\":\"h\xc3\xa9llo \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac\"}"
					     : "{\"command\":\"echo h\xc3\xa9llo \xe2\x9c\x93\",\"content\":\"h\xc3\xa9llo \xe2\x9c\x93\\n\",\"path\":\"h\xc3\xa9llo.txt\"}",
		      false, &f);
	if (f.hook.outcome != PC_OUT_OK) {
		char *w = pc_xasprintf("hook %s", n);

		pc__suite_find(s, c, "PC-ENV-001", w,
			       "the hook failed on arguments containing \"h\xc3\xa9llo \xe2\x9c\x93\"");
		free(w);
	}
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	if (pc__suite_stopped(s))
		return;
	pc__suite_progress(s, "hook %s: large input", n);
	big = big_args(i);
	c = fire_hook(s, pt, "input near 1 MiB", big, true, &f);
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	free(big);
}

/* Why the guard search would only multiply what the ordinary call `f`
 * already showed (its cases say it), or NULL: it left processes (each
 * input would start them again), or it took over half its timeout (each
 * input would take as long, and a timeout denies by accident). New
 * string. */
static char *guard_skip(const struct pc_fire *f, const struct pc_hook_cfg *h)
{
	if (f->x.proc.leftover_processes > 0 || f->x.proc.exited_before_eof)
		return pc_xasprintf(
			"not searched: the ordinary call left %d process(es) running (see the hook's cases); every input of the search would start them again",
			f->x.proc.leftover_processes);
	if ((uint64_t)f->x.proc.wall_ms * 2 > h->timeout_ms)
		return pc_xasprintf(
			"not searched: the ordinary call took %lld ms, over half the %llu ms timeout; every input would take as long (plugcheck guard searches it on demand)",
			(long long)f->x.proc.wall_ms,
			(unsigned long long)h->timeout_ms);
	return NULL;
}

void pc__suite_hook(struct pc__suite *s, int i)
{
	const struct pc_hook_cfg *h = &s->p->hooks[i];
	const char *n = pc_hook_point_name((enum pc_hook_point)i);
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	char *where, *guard_why;
	size_t c;
	bool ok;

	if (pc_fire_resolve(s->p, n, false, &pt, NULL))
		return;
	pc__suite_progress(s, "hook %s", n);
	pc__suite_fresh_dirs(s);
	c = fire_hook(s, &pt, "realistic input", pc_fire_default_args(i),
		      false, &f);
	ok = f.hook.outcome == PC_OUT_OK;
	guard_why = guard_skip(&f, h);
	/* R5.4: a hook that fails in the workspace (it exits 1 without the
	 * ./rules.json it reads) is judged there too, not only one whose
	 * answer differs; the latency of a failing hook is not measured */
	if ((!ok || latency(s, c, &pt, &f)) && !pc__suite_stopped(s)) {
		struct pc_fire_input in = { .args = pc_fire_default_args(i) };

		where = pc_xasprintf("hook %s", n);
		pc__suite_cwd_check(s, c, where, &pt,
				    pc_fire_default_args(i) ? &in : NULL, &f);
		free(where);
	}
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	if (ok && h->pass_args && pc_fire_default_args(i) &&
	    !pc__suite_stopped(s)) {
		probes(s, &pt);
		pc__suite_hook_inputs(s, &pt);
		if (i == PC_HOOK_PRE_TOOL)
			pc__suite_tool_hooks(s, &pt);
	}
	pc_fire_point_release(&pt);
	/* the guard search last, in this unit: a hook that fails or hangs
	 * on the realistic input is not searched (and not fired twice in
	 * parallel by two units) */
	if (ok && pc_guard_is_point(i) && !pc__suite_stopped(s)) {
		char *cls = pc_xasprintf("plugcheck.guard.%s", n);

		if (guard_why)
			pc__suite_skip(s, cls, "search", guard_why);
		else
			pc__suite_guard(s, i);
		free(cls);
	}
	free(guard_why);
}

/* One firing of tool `pt` with `args` as case `label`; true when the
 * host's outcome is ok. */
static bool fire_tool(struct pc__suite *s, const struct pc_fire_point *pt,
		      const char *label, const cJSON *args, const char *fail_id,
		      bool cwd_check)
{
	const struct pc_tool_cfg *t = pt->tool;
	char *where = pc_xasprintf("tool %s", t->name);
	char *cls = pc_xasprintf("plugcheck.tool.%s", t->name);
	struct pc_fire_input in = { .args_json = args };
	struct pc_fire f = PC_FIRE_INIT;
	size_t c = pc__suite_begin(s, cls, label);
	bool ok;

	pc__suite_fire(s, pt, &in, NULL, &f);
	judge_failure(s, c, where, &f.x, f.call.outcome, fail_id, f.call.output);
	pc__suite_answer_bytes(s, c, where, &f, t->script);
	pc__suite_leftovers(s, c, where, &f.x);
	if (cwd_check)
		pc__suite_cwd_check(s, c, where, pt, &in, &f);
	ok = f.passed;
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	free(where);
	free(cls);
	return ok;
}

void pc__suite_tool(struct pc__suite *s, size_t i)
{
	const struct pc_tool_cfg *t = &s->p->tools[i];
	cJSON *min = pc_schema_valid_args(t->parameters, false);
	cJSON *full = pc_schema_valid_args(t->parameters, true);
	cJSON *bad = cJSON_CreateArray(), *b;
	cJSON *empty = cJSON_CreateObject();
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	char *text, *label, *point = pc_xasprintf("tool:%s", t->name);
	bool ok;

	pt.kind = PC_FIRE_TOOL;
	pt.tool = t; /* the i-th, even when an earlier tool shares its name */
	pt.text = point;
	pc__suite_progress(s, "tool %s", t->name);
	pc__suite_fresh_dirs(s);
	text = pc_serde_to_string(min ? min : empty);
	label = pc_xasprintf("valid arguments %s", text);
	ok = fire_tool(s, &pt, label, min ? min : empty, "PC-TOOL-010", true);
	free(label);
	free(text);
	if (full && min && !cJSON_Compare(min, full, 1) && !pc__suite_stopped(s))
		ok = fire_tool(s, &pt, "valid arguments, all properties", full,
			       "PC-TOOL-010", false) && ok;
	if (ok && full && !pc__suite_stopped(s))
		pc__suite_tool_inputs(s, &pt, full);
	pc_schema_invalid_args(t->parameters, bad, 3);
	cJSON_ArrayForEach(b, bad)
	{
		const cJSON *why = pc_serde_get(b, "why");

		if (pc__suite_stopped(s))
			break;
		label = pc_xasprintf("invalid arguments: %s",
				     cJSON_IsString(why) ? why->valuestring : "?");
		fire_tool(s, &pt, label, pc_serde_get(b, "args"), "PC-TOOL-011",
			  false);
		free(label);
	}
	pc_fire_point_release(&pt);
	cJSON_Delete(min);
	cJSON_Delete(full);
	cJSON_Delete(bad);
	cJSON_Delete(empty);
}

/* A skipped case for the entry points past PC_SUITE_MAX_FIRED. */
static void skip_rest(struct pc__suite *s, const char *cls, size_t total,
		      const char *what)
{
	char *name;

	if (total <= PC_SUITE_MAX_FIRED)
		return;
	name = pc_xasprintf("%zu more %s not fired", total - PC_SUITE_MAX_FIRED,
			    what);
	pc__suite_skip(s, cls, name,
		       "plugcheck fires at most " PC_SUITE_MAX_FIRED_S
		       " of each kind");
	free(name);
}

void pc__suite_tools_skipped(struct pc__suite *s)
{
	skip_rest(s, "plugcheck.tool", s->p->ntools, "tools");
}

static void fire_command(struct pc__suite *s, const struct pc_fire_point *pt,
			 const char *args, bool cwd_check)
{
	const struct pc_command_cfg *cmd = pt->command;
	char *where = pc_xasprintf("command %s", cmd->name);
	char *cls = pc_xasprintf("plugcheck.command.%s", cmd->name);
	char *label = pc_xasprintf("args \"%s\"", args);
	struct pc_fire_input in = { .args = args };
	struct pc_fire f = PC_FIRE_INIT;
	size_t c = pc__suite_begin(s, cls, label);

	pc__suite_fire(s, pt, &in, NULL, &f);
	if (pt->kind == PC_FIRE_PROMPT) {
		if (!f.call.ok)
			pc__suite_find(s, c, "PC-CMD-011", where, "%s",
				       f.call.output);
	} else {
		judge_failure(s, c, where, &f.x, f.call.outcome, "PC-CMD-010",
			      f.call.output);
		pc__suite_answer_bytes(s, c, where, &f, cmd->script);
		pc__suite_leftovers(s, c, where, &f.x);
		if (cwd_check)
			pc__suite_cwd_check(s, c, where, pt, &in, &f);
	}
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	free(where);
	free(cls);
	free(label);
}

void pc__suite_command(struct pc__suite *s, size_t i)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	const struct pc_command_cfg *c = &s->p->commands[i];

	pt.kind = c->agent_turn ? PC_FIRE_PROMPT : PC_FIRE_COMMAND;
	pt.command = c;
	pt.text = pc_xasprintf("command:%s", c->name);
	pc__suite_progress(s, "command %s", c->name);
	pc__suite_fresh_dirs(s);
	fire_command(s, &pt, "", true);
	if (!pc__suite_stopped(s))
		fire_command(s, &pt, "hello world", false);
	pc_fire_point_release(&pt);
}

void pc__suite_commands_skipped(struct pc__suite *s)
{
	skip_rest(s, "plugcheck.command", s->p->ncommands, "commands");
}

/* pc_suite_fire.c - firing hooks, tools and commands and judging them. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_schema.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

/* The rules pc_lint may raise, each reported as one static case. */
static const char *const static_rules[] = {
	"PC-LOAD-001", "PC-MAN-001",	"PC-MAN-002",	 "PC-MAN-003",
	"PC-CAP-001",  "PC-CAP-002",	"PC-HOOK-001",	 "PC-HOOK-002",
	"PC-HOOK-003", "PC-HOOK-004",	"PC-HOOK-005",	"PC-TOOL-001",	 "PC-TOOL-002",
	"PC-TOOL-003", "PC-TOOL-004",	"PC-TOOL-005",	 "PC-CMD-001",
	"PC-CMD-002",  "PC-SCRIPT-001", "PC-SCRIPT-002", "PC-SCRIPT-003",
	"PC-SCRIPT-004", "PC-DOC-001",	"PC-DOC-002",	 "PC-IO-003",
	"PC-ENV-002",
};


static void static_notes(struct pc__suite *s)
{
	const struct pc_plugin *p = s->p;

	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		const struct pc_hook_cfg *h = &p->hooks[i];
		const char *n = pc_hook_point_name((enum pc_hook_point)i);
		char *where;

		if (!h->present)
			continue;
		where = pc_xasprintf("hook %s", n);
		if (i == PC_HOOK_SESSION_START || i == PC_HOOK_SESSION_STOP)
			pc__suite_find(s, "PC-DOC-001", where,
				       "'%s' runs at every turn of a session", n);
		if (i == PC_HOOK_PRE_TURN)
			pc__suite_find(s, "PC-DOC-002", where,
				       "'pre_turn' runs only when the turn has images and vision handoff is on");
		if (h->timeout_ms > 600000)
			pc__suite_find(s, "PC-HOOK-004", where,
				       "timeout_ms %llu: a hung script blocks the turn for over 10 minutes",
				       (unsigned long long)h->timeout_ms);
		if (h->pass_args && !pc_fire_default_args(i))
			pc__suite_find(s, "PC-HOOK-005", where,
				       "'%s' never carries args, so pass_args only adds receive_tool_arguments to the inferred capabilities",
				       n);
		if (h->pass_args && pc_hook_is_blocking((enum pc_hook_point)i))
			pc__suite_find(s, "PC-IO-003", where,
				       "'%s' has pass_args: any call whose context exceeds 1048576 bytes is denied without running the hook",
				       n);
		free(where);
	}
	for (size_t i = 0; i < p->ntools; i++) {
		struct pc_strvec probs = PC_STRVEC_INIT;
		char *where = pc_xasprintf("tool %s", p->tools[i].name);

		pc_schema_problems(p->tools[i].parameters, &probs);
		for (size_t k = 0; k < probs.nr; k++)
			pc__suite_find(s, "PC-TOOL-005", where, "%s", probs.v[k]);
		pc_strvec_release(&probs);
		free(where);
	}
}

void pc__suite_static(struct pc__suite *s)
{
	static_notes(s);
	pc__suite_env_reads(s);
	for (size_t i = 0; i < sizeof(static_rules) / sizeof(*static_rules); i++)
		pc__suite_rule_case(s, pc_rule_find(static_rules[i]));
}

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

static bool is_post(int point)
{
	return point == PC_HOOK_POST_BASH || point == PC_HOOK_POST_WRITE ||
	       point == PC_HOOK_POST_READ || point == PC_HOOK_POST_TOOL;
}

/* Findings from the raw answer of a hook that ran to a valid JSON answer. */
static void judge_answer(struct pc__suite *s, int point, const char *where,
			 const struct pc_hook_result *r, const cJSON *v)
{
	const cJSON *allow = pc_serde_get(v, "allow");
	const cJSON *mod = pc_serde_get(v, "modify");
	bool blocking = pc_hook_is_blocking((enum pc_hook_point)point);

	if (blocking && !cJSON_IsBool(allow)) {
		char *a = allow ? pc_serde_to_string(allow) : pc_xstrdup("missing");

		pc__suite_find(s, "PC-HOOK-012", where,
			       "allow is %s: the host denies this call with reason \"%s\"",
			       a, r->reason);
		free(a);
	}
	if (!blocking && cJSON_IsFalse(allow))
		pc__suite_find(s, "PC-HOOK-013", where,
			       "answered allow:false, which the host ignores at '%s'",
			       pc_hook_point_name((enum pc_hook_point)point));
	if (blocking && cJSON_IsFalse(allow) && !*r->reason)
		pc__suite_find(s, "PC-HOOK-014", where,
			       "denied with an empty reason");
	if (mod && is_tool_hook(point) && !cJSON_IsObject(mod))
		pc__suite_find(s, "PC-HOOK-015", where,
			       "modify is not an object; the host leaves the arguments unchanged");
	if (mod && is_lifecycle(point))
		pc__suite_find(s, "PC-HOOK-016", where,
			       "'%s' results are discarded by the host",
			       pc_hook_point_name((enum pc_hook_point)point));
}

/* Findings from a failed exchange (any kind of entry point). Returns true
 * when something was found. */
static bool judge_failure(struct pc__suite *s, const char *where,
			  const struct pc_exchange *x, enum pc_outcome o,
			  const char *fail_id, const char *msg)
{
	if (o == PC_OUT_OUTPUT_TOO_LARGE) {
		pc__suite_find(s, "PC-IO-001", where, "%s", msg);
		return true;
	}
	if (o == PC_OUT_TIMEOUT && x->proc.exited_before_eof) {
		pc__suite_find(s, "PC-PROC-003", where,
			       "the script exited but a process it started kept a pipe open until the timeout: %s",
			       msg);
		return true;
	}
	if (o != PC_OUT_OK && o != PC_OUT_INPUT_TOO_LARGE) {
		pc__suite_find(s, fail_id, where, "%s", msg);
		return true;
	}
	return false;
}

static void judge_leftovers(struct pc__suite *s, const char *where,
			    const struct pc_exchange *x)
{
	if (x->proc.leftover_processes > 0 && !x->proc.exited_before_eof)
		pc__suite_find(s, "PC-PROC-001", where,
			       "%d process(es) still running after the answer",
			       x->proc.leftover_processes);
	pc__suite_sandbox(s, where, x);
}

struct hook_input {
	const char *label;
	const char *args;   /* JSON text or NULL */
	const char *big;    /* non-NULL: the probe for large inputs */
};

static int fire_hook(struct pc__suite *s, int point, const char *label,
		     const char *args_text, bool probe, int64_t *ms)
{
	const char *n = pc_hook_point_name((enum pc_hook_point)point);
	char *where = pc_xasprintf("hook %s", n), *cls;
	struct pc_host h;
	struct pc_exchange x;
	struct pc_hook_result r;
	cJSON *args = NULL, *result = NULL, *v;
	size_t from = s->r->findings.nr;
	bool blocking = pc_hook_is_blocking((enum pc_hook_point)point);
	int ok;

	pc__suite_host(s, &h);
	pc_exchange_init(&x);
	if (args_text)
		pc_serde_parse(args_text, strlen(args_text), &args, NULL);
	if (is_post(point))
		pc_serde_parse("{\"diff\":null,\"ok\":true,\"output\":\"hello\\n\"}",
			       40, &result, NULL);
	pc_host_run_hook(&h, s->p, (enum pc_hook_point)point,
			 pc_fire_default_tool(point), args, result, &r, &x, NULL);
	if (!judge_failure(s, where, &x, r.outcome,
			   probe ? "PC-IO-002"
				 : blocking ? "PC-HOOK-010" : "PC-HOOK-011",
			   r.reason)) {
		v = pc__suite_answer(&x);
		if (v)
			judge_answer(s, point, where, &r, v);
		cJSON_Delete(v);
	}
	judge_leftovers(s, where, &x);
	if (x.spawned && x.proc.stdin_closed_early)
		pc__suite_find(s, "PC-IO-004", where,
			       "the script exited after reading %zu of %zu stdin bytes",
			       x.proc.stdin_written, x.stdin_json.len);
	{
		char *verdict = pc_xasprintf("%s (%s) reason: %s",
					     r.allow ? "allow" : "deny",
					     pc_outcome_name(r.outcome), r.reason);

		cls = pc_xasprintf("plugcheck.hook.%s", n);
		pc__suite_case(s, cls, label, from, &x, verdict);
		free(verdict);
		free(cls);
	}
	*ms = x.proc.wall_ms;
	ok = r.outcome == PC_OUT_OK;
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	pc_host_release(&h);
	cJSON_Delete(args);
	cJSON_Delete(result);
	free(where);
	return ok;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void latency(struct pc__suite *s, int point, int64_t first)
{
	unsigned n = s->o->repeat ? s->o->repeat : 5;
	const struct pc_hook_cfg *h = &s->p->hooks[point];
	int64_t *ms = pc_xcalloc(n + 1, sizeof(*ms));
	int64_t p50, p95;
	char *where;

	ms[0] = first;
	for (unsigned i = 1; i <= n && !pc__suite_stopped(s); i++) {
		pc__suite_progress(s, "hook %s: latency %u/%u",
				   pc_hook_point_name((enum pc_hook_point)point), i, n);
		fire_hook(s, point, "repeat", pc_fire_default_args(point), false,
			  &ms[i]);
	}
	qsort(ms, n + 1, sizeof(*ms), cmp_i64);
	p50 = ms[(n + 1) / 2];
	p95 = ms[(size_t)((19 * (n + 1) + 19) / 20) - 1];
	where = pc_xasprintf("hook %s", pc_hook_point_name((enum pc_hook_point)point));
	if ((uint64_t)p95 * 2 > h->timeout_ms)
		pc__suite_find(s, "PC-PROC-002", where,
			       "p50 %lld ms, p95 %lld ms over %u firings, timeout %llu ms",
			       (long long)p50, (long long)p95, n + 1,
			       (unsigned long long)h->timeout_ms);
	free(where);
	free(ms);
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

void pc__suite_hooks(struct pc__suite *s)
{
	for (int i = 0; i < PC_HOOK_COUNT && !pc__suite_stopped(s); i++)
		if (s->p->hooks[i].present)
			pc__suite_hook(s, i);
}

void pc__suite_hook(struct pc__suite *s, int i)
{
	const struct pc_hook_cfg *h = &s->p->hooks[i];
	const char *n = pc_hook_point_name((enum pc_hook_point)i);
	int64_t ms;
	int ok;

	pc__suite_progress(s, "hook %s", n);
	pc__suite_fresh_dirs(s);
	ok = fire_hook(s, i, "realistic input", pc_fire_default_args(i),
		       false, &ms);
	if (ok)
		latency(s, i, ms);
	/* The probes only say something when plain input works: a
	 * hook that always fails would be blamed on them too. */
	if (!ok || !h->pass_args || !pc_fire_default_args(i) ||
	    pc__suite_stopped(s))
		return;
	pc__suite_progress(s, "hook %s: non-ASCII input", n);
	if (!fire_hook(s, i, "non-ASCII input",
		       i == PC_HOOK_PRE_INPUT ? "{\"text\":\"h\xc3\xa9llo \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac\"}"
					      : "{\"command\":\"echo h\xc3\xa9llo \xe2\x9c\x93\",\"content\":\"h\xc3\xa9llo \xe2\x9c\x93\\n\",\"path\":\"h\xc3\xa9llo.txt\"}",
		       false, &ms)) {
		char *w = pc_xasprintf("hook %s", n);

		pc__suite_find(s, "PC-ENV-001", w,
			       "the hook failed on arguments containing \"h\xc3\xa9llo \xe2\x9c\x93\"");
		free(w);
	}
	pc__suite_progress(s, "hook %s: large input", n);
	{
		char *big = big_args(i);

		fire_hook(s, i, "input near 1 MiB", big, true, &ms);
		free(big);
	}
}

static void fire_tool(struct pc__suite *s, const struct pc_tool_cfg *t,
		      const char *label, const cJSON *args, const char *fail_id)
{
	char *where = pc_xasprintf("tool %s", t->name);
	char *cls = pc_xasprintf("plugcheck.tool.%s", t->name);
	size_t from = s->r->findings.nr;
	struct pc_host h;
	struct pc_exchange x;
	struct pc_call_result r;
	char *verdict;

	pc__suite_host(s, &h);
	pc_exchange_init(&x);
	pc_host_run_tool(&h, s->p, t, args, &r, &x, NULL);
	judge_failure(s, where, &x, r.outcome, fail_id, r.output);
	judge_leftovers(s, where, &x);
	verdict = pc_xasprintf("%s (%s): %s", r.ok ? "ok" : "failed",
			       pc_outcome_name(r.outcome), r.output);
	pc__suite_case(s, cls, label, from, &x, verdict);
	free(verdict);
	pc_call_result_release(&r);
	pc_exchange_release(&x);
	pc_host_release(&h);
	free(where);
	free(cls);
}

void pc__suite_tool(struct pc__suite *s, size_t i)
{
	const struct pc_tool_cfg *t = &s->p->tools[i];
	cJSON *min = pc_schema_valid_args(t->parameters, false);
	cJSON *full = pc_schema_valid_args(t->parameters, true);
	cJSON *bad = cJSON_CreateArray(), *b;
	cJSON *empty = cJSON_CreateObject();
	char *text, *label;

	pc__suite_progress(s, "tool %s", t->name);
	pc__suite_fresh_dirs(s);
	text = pc_serde_to_string(min ? min : empty);
	label = pc_xasprintf("valid arguments %s", text);
	fire_tool(s, t, label, min ? min : empty, "PC-TOOL-010");
	free(label);
	free(text);
	if (full && min && !cJSON_Compare(min, full, 1) && !pc__suite_stopped(s))
		fire_tool(s, t, "valid arguments, all properties", full,
			  "PC-TOOL-010");
	pc_schema_invalid_args(t->parameters, bad, 3);
	cJSON_ArrayForEach(b, bad)
	{
		const cJSON *why = pc_serde_get(b, "why");

		if (pc__suite_stopped(s))
			break;
		label = pc_xasprintf("invalid arguments: %s",
				     cJSON_IsString(why) ? why->valuestring : "?");
		fire_tool(s, t, label, pc_serde_get(b, "args"), "PC-TOOL-011");
		free(label);
	}
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
	struct pc_case *c;

	if (total <= PC_SUITE_MAX_FIRED)
		return;
	name = pc_xasprintf("%zu more %s not fired", total - PC_SUITE_MAX_FIRED,
			    what);
	pc__suite_case(s, cls, name, s->r->findings.nr, NULL,
		       "plugcheck fires at most " PC_SUITE_MAX_FIRED_S
		       " of each kind");
	c = &s->r->cases[s->r->ncases - 1];
	c->status = PC_CASE_SKIP;
	free(name);
}

/* Each tool costs a handful of firings, so a manifest with thousands of
 * them would keep the suite busy for hours: fire the first few only. */
void pc__suite_tools(struct pc__suite *s)
{
	for (size_t i = 0; i < s->p->ntools && i < PC_SUITE_MAX_FIRED &&
			   !pc__suite_stopped(s);
	     i++)
		pc__suite_tool(s, i);
	if (!pc__suite_stopped(s))
		pc__suite_tools_skipped(s);
}

void pc__suite_tools_skipped(struct pc__suite *s)
{
	skip_rest(s, "plugcheck.tool", s->p->ntools, "tools");
}

static void fire_command(struct pc__suite *s, const struct pc_command_cfg *c,
			 const char *args)
{
	char *where = pc_xasprintf("command %s", c->name);
	char *cls = pc_xasprintf("plugcheck.command.%s", c->name);
	char *label = pc_xasprintf("args \"%s\"", args);
	size_t from = s->r->findings.nr;
	struct pc_host h;
	struct pc_exchange x;
	struct pc_call_result r;
	char *verdict;

	pc__suite_host(s, &h);
	pc_exchange_init(&x);
	if (c->agent_turn) {
		pc_host_render_prompt(&h, s->p, c, args, &r);
		if (!r.ok)
			pc__suite_find(s, "PC-CMD-011", where, "%s", r.output);
	} else {
		pc_host_run_command(&h, s->p, c, args, &r, &x, NULL);
		judge_failure(s, where, &x, r.outcome, "PC-CMD-010", r.output);
		judge_leftovers(s, where, &x);
	}
	verdict = pc_xasprintf("%s: %s", r.ok ? "ok" : "failed", r.output);
	pc__suite_case(s, cls, label, from, c->agent_turn ? NULL : &x, verdict);
	free(verdict);
	pc_call_result_release(&r);
	pc_exchange_release(&x);
	pc_host_release(&h);
	free(where);
	free(cls);
	free(label);
}

void pc__suite_commands(struct pc__suite *s)
{
	for (size_t i = 0; i < s->p->ncommands && i < PC_SUITE_MAX_FIRED &&
			   !pc__suite_stopped(s);
	     i++)
		pc__suite_command(s, i);
	if (!pc__suite_stopped(s))
		pc__suite_commands_skipped(s);
}

void pc__suite_command(struct pc__suite *s, size_t i)
{
	pc__suite_progress(s, "command %s", s->p->commands[i].name);
	pc__suite_fresh_dirs(s);
	fire_command(s, &s->p->commands[i], "");
	if (!pc__suite_stopped(s))
		fire_command(s, &s->p->commands[i], "hello world");
}

void pc__suite_commands_skipped(struct pc__suite *s)
{
	skip_rest(s, "plugcheck.command", s->p->ncommands, "commands");
}

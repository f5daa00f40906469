/* pc_turn_sub.c - the host's `subagent` tool: a built-in agent run as a
 * nested agent loop inside the turn (core/src/subagent.rs: execute,
 * run_single, run_agent_inner, dispatch_subagent_tool; spec
 * catalyst-code.md R2.18, R4.6). Plugins reach a subagent only through
 * hooks: its tools are the agent's built-ins, never a plugin tool, an
 * override or disable_tools. What plugcheck leaves out is listed in
 * docs/turn.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pc_fs.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

#define MAX_TOOL_CALLS	  200u	/* SUBAGENT_MAX_TOOL_CALLS */
#define DEFAULT_MAX_DEPTH 2u	/* SubagentConfig::max_depth */
#define FORK_KEEP	  40	/* newest parent messages a fork keeps */
#define RESULT_EVENT_MAX  8000	/* bytes of subagent_tool_result text */
#define MESSAGE_EVENT_MAX 16000 /* bytes of a subagent_message */
#define SUMMARY_CHARS	  800	/* nonempty_run_summary */
#define FINISH_SENTINEL	  "__finish__"
#define FINISH_MESSAGE	  "This turn has finished"
#define NO_SUMMARY	  "(step finished with no written summary)"

/* A built-in agent (builtin_agents): its tools (the frontmatter list),
 * default context, system prompt mode and output file. The descriptions
 * and prompts are plugcheck's own stand-ins: only the model sees them. */
struct agent {
	const char *name;
	const char *tools;
	bool fork;	    /* default context: fork */
	bool append;	    /* system prompt mode: append */
	const char *output; /* the final text is written there, or NULL */
	const char *about;
};

#define READS "read_file, grep, glob, list_dir, bash"

/* Sorted by name, as discover_agents returns them. */
static const struct agent agents[] = {
	{ "context-builder", READS ", write_file, memory, intercom", false,
	  false, NULL, "gathers context and writes handoff material" },
	{ "delegate", READS ", edit, write_file, contact_supervisor", false,
	  true, NULL, "a general delegate close to the parent session" },
	{ "oracle", READS ", intercom", true, false, NULL,
	  "checks decisions against the inherited context" },
	{ "planner", READS ", intercom", true, false, NULL,
	  "turns context into an implementation plan" },
	{ "researcher",
	  READS ", write_file, memory, intercom, fetch, web_search", false,
	  false, NULL, "researches docs and the web" },
	{ "reviewer", READS ", edit, write_file, intercom", false, false, NULL,
	  "reviews code and makes small fixes" },
	{ "scout", READS ", write_file, memory, intercom", false, false,
	  "context.md", "fast codebase recon" },
	{ "worker", READS ", edit, write_file, contact_supervisor", true, false,
	  NULL, "the implementation agent" },
};
#define NAGENTS (sizeof(agents) / sizeof(agents[0]))

static const char *const known_actions[] = {
	"get",	     "models", "create", "update", "delete", "status",
	"interrupt", "resume", "peek",	 "steer",  "doctor",
};

static void fail(struct pc__turn_outcome *oc, char *text)
{
	oc->ok = false;
	oc->output = text;
	oc->diff = NULL;
}

static void succeed(struct pc__turn_outcome *oc, char *text)
{
	oc->ok = true;
	oc->output = text;
	oc->diff = NULL;
}

static const char *str_of(const cJSON *obj, const char *key)
{
	const cJSON *v = pc_serde_get(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* resolve_max_depth: CATALYST_CODE_SUBAGENT_MAX_DEPTH when it parses as
 * a Rust u32 (digits, one optional '+', no overflow), else the default. */
static unsigned max_depth(void)
{
	const char *s = getenv("CATALYST_CODE_SUBAGENT_MAX_DEPTH");
	unsigned long long v = 0;

	if (!s)
		return DEFAULT_MAX_DEPTH;
	if (*s == '+')
		s++;
	if (!*s)
		return DEFAULT_MAX_DEPTH;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return DEFAULT_MAX_DEPTH;
		v = v * 10 + (unsigned)(*s - '0');
		if (v > 0xffffffffull)
			return DEFAULT_MAX_DEPTH;
	}
	return (unsigned)v;
}

/* find_agent: the name, or its last '.'-separated part. */
static const struct agent *find_agent(const char *name)
{
	const char *dot = strrchr(name, '.');
	const char *bare = dot ? dot + 1 : name;

	for (size_t i = 0; i < NAGENTS; i++)
		if (!strcmp(agents[i].name, name) ||
		    !strcmp(agents[i].name, bare))
			return &agents[i];
	return NULL;
}

/* AgentConfig::normalize_tool: pi-style names to the host's. */
static const char *normalize_tool(const char *t)
{
	static const char *const map[][2] = { { "read", "read_file" },
					      { "find", "glob" },
					      { "ls", "list_dir" },
					      { "write", "write_file" } };

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i][0]))
			return map[i][1];
	return t;
}

/* subagent_allowed_names with the intercom bridge on (its default mode
 * "always"): the agent's tools, `subagent` only below the depth cap,
 * contact_supervisor and intercom, finish. */
static void allowed_names(const struct agent *a, unsigned depth, unsigned max,
			  struct pc_strvec *out)
{
	char *list = pc_xstrdup(a->tools), *save = NULL, *tok;
	bool has_sub = strstr(a->tools, "subagent") != NULL;
	bool allow_sub = has_sub && depth + 1 < max;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *n;
		size_t start, len = pc_rust_trim(tok, strlen(tok), &start);

		tok[start + len] = '\0';
		n = normalize_tool(tok + start);
		if (*n && (strcmp(n, "subagent") || allow_sub))
			pc_strvec_push(out, n);
	}
	free(list);
	if (!pc_strvec_has(out, "contact_supervisor"))
		pc_strvec_push(out, "contact_supervisor");
	if (!pc_strvec_has(out, "intercom"))
		pc_strvec_push(out, "intercom");
	if (allow_sub && !pc_strvec_has(out, "subagent"))
		pc_strvec_push(out, "subagent");
	if (!pc_strvec_has(out, "finish"))
		pc_strvec_push(out, "finish");
}

/* subagent_tool_defs: the built-in definitions of the allowed names, in
 * their order (those plugcheck implements). */
static cJSON *tool_defs(const struct pc_strvec *allowed)
{
	cJSON *defs = cJSON_CreateArray(), *d;

	for (size_t i = 0; i < allowed->nr; i++)
		if ((d = pc__turn_builtin_def(allowed->v[i])))
			cJSON_AddItemToArray(defs, d);
	return defs;
}

/* truncate: at most `max` bytes of the host text `s` (a char boundary),
 * then "…". New string. */
static char *truncated(const char *s, size_t max)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);
	char *t;
	size_t end = max;

	pc_serde_text_raw(&raw, s);
	if (raw.len <= max) {
		pc_buf_release(&raw);
		return pc_xstrdup(s);
	}
	while (end > 0 && ((unsigned char)raw.data[end] & 0xc0) == 0x80)
		end--;
	t = pc_serde_text_new(raw.data, end);
	pc_buf_release(&raw);
	raw = (struct pc_buf)PC_BUF_INIT(PC_BUF_NOCAP);
	pc_buf_adds(&raw, t);
	pc_buf_adds(&raw, "\xe2\x80\xa6");
	free(t);
	return pc_buf_detach(&raw, NULL);
}

/* The trimmed host text s, or NULL when it trims to nothing. New. */
static char *trimmed(const char *s)
{
	size_t a, n = s ? pc_rust_trim(s, strlen(s), &a) : 0;

	return n ? pc_xasprintf("%.*s", (int)n, s + a) : NULL;
}

/* nonempty_run_summary: the output trimmed, its first 800 chars. */
static char *run_summary(const char *output)
{
	char *t = trimmed(output), *s;

	if (!t)
		return pc_xstrdup(NO_SUMMARY);
	s = pc_xasprintf("%.*s",
			 (int)pc_rust_chars_prefix(t, strlen(t), SUMMARY_CHARS),
			 t);
	free(t);
	return s;
}

/* finalize_subagent_text: the last answer's prose, else the newest
 * non-empty assistant prose of the run, else the no-summary text. */
static char *final_text(const char *current, const cJSON *sub)
{
	char *t = trimmed(current);

	for (int i = cJSON_GetArraySize(sub) - 1; !t && i >= 0; i--) {
		const cJSON *m = cJSON_GetArrayItem(sub, i);
		const char *role = str_of(m, "role");

		if (role && !strcmp(role, "assistant"))
			t = trimmed(str_of(m, "content"));
	}
	return t ? t : pc_xstrdup(NO_SUMMARY);
}

/* The agent's output file (scout: context.md) gets the final text; under
 * --sandbox beneath the workspace only, never through a symlink. */
static void write_output(struct pc__turn_run *r, const struct agent *a,
			 const char *text)
{
	const char *ws = r->o->host->workspace;
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);
	char *p;

	if (!a->output)
		return;
	pc_serde_text_raw(&raw, text);
	if (r->o->host->confine) {
		pc_fs_beneath_write(ws, a->output, raw.data ? raw.data : "",
				    raw.len, 0, NULL);
	} else {
		p = pc_fs_join(ws, a->output);
		pc_fs_write(p, raw.data ? raw.data : "", raw.len, NULL);
		free(p);
	}
	pc_buf_release(&raw);
}

/* emit_subagent_summary: no token accounting in plugcheck (docs/turn.md). */
static void summary_info(struct pc__turn_run *r, const char *model)
{
	char *m = pc_xasprintf("subagent done (%s): 0+0t", model);

	pc__turn_event_msg(r, "info", m);
	free(m);
}

static void run_event(struct pc__turn_run *sr, cJSON *e)
{
	cJSON_AddStringToObject(e, "run_id", sr->run_id);
}

static void sub_message(struct pc__turn_run *sr, const char *role,
			const char *content)
{
	cJSON *e = pc__turn_event(sr, "subagent_message");

	run_event(sr, e);
	cJSON_AddStringToObject(e, "role", role);
	cJSON_AddStringToObject(e, "content", content);
}

/* The system prompt of a built-in agent: build_system_prompt (no plugin
 * part, R2.18) and its prompt - "\n\n" between them in replace mode (the
 * agents inherit the project context), nothing in append mode - then the
 * intercom bridge instructions. */
static char *system_prompt(struct pc__turn_run *r, const struct agent *a)
{
	char *base = pc__turn_base_prompt(r->o->host->workspace, false);
	char *s = pc_xasprintf(
		"%s%sYou are the %s subagent: %s (plugcheck's stand-in for the host's agent prompt).\n\nIntercom orchestration channel:\nReach the supervisor \"orchestrator\" with contact_supervisor (plugcheck's stand-in for the host's bridge instructions).",
		base, a->append ? "" : "\n\n", a->name, a->about);

	free(base);
	return s;
}

/* A fork: the newest 40 parent messages that are neither system nor tool
 * messages nor assistant messages with tool calls, after a notice. */
static void fork_context(struct pc__turn_run *r, cJSON *sub)
{
	cJSON *keep = cJSON_CreateArray();
	const cJSON *m;

	cJSON_ArrayForEach(m, r->t->conversation)
	{
		const char *role = str_of(m, "role");
		const cJSON *tc = pc_serde_get(m, "tool_calls");

		if (!role || !strcmp(role, "system") || !strcmp(role, "tool") ||
		    (!strcmp(role, "assistant") && tc && !cJSON_IsNull(tc)))
			continue;
		cJSON_AddItemToArray(keep, cJSON_Duplicate(m, 1));
	}
	while (cJSON_GetArraySize(keep) > FORK_KEEP)
		cJSON_DeleteItemFromArray(keep, 0);
	if (cJSON_GetArraySize(keep) > 0)
		cJSON_AddItemToArray(
			sub,
			pc__turn_text_message(
				"system",
				"You run from a fork of the parent session; the messages below are reference only (plugcheck's stand-in for the host's notice).\n\n--- inherited parent context ---"));
	while (cJSON_GetArraySize(keep) > 0)
		cJSON_AddItemToArray(sub, cJSON_DetachItemFromArray(keep, 0));
	cJSON_Delete(keep);
}

/* One model request of the subagent: NULL and *why on failure. */
static cJSON *request(struct pc__turn_run *sr, const cJSON *sub,
		      const cJSON *defs, int index, const char *model,
		      char **why)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *reply = NULL, *e = pc__turn_event(sr, "request");

	run_event(sr, e);
	cJSON_AddNumberToObject(e, "index", index);
	cJSON_AddStringToObject(e, "model", model);
	cJSON_AddItemToObject(e, "messages", cJSON_Duplicate(sub, 1));
	if (sr->o->model(sr->o->model_ctx, sub, defs, &reply, &err) < 0 ||
	    !reply) {
		*why = pc_xstrdup(err.msg[0] ? err.msg
					     : "model request failed");
		cJSON_Delete(reply);
		return NULL;
	}
	e = pc__turn_event(sr, "assistant");
	run_event(sr, e);
	cJSON_AddItemToObject(e, "message", cJSON_Duplicate(reply, 1));
	return reply;
}

/* The approval gate of dispatch_subagent_tool: the built-in class of the
 * name (a plugin's kind never applies here). NULL, or the refusal. */
static char *approval(struct pc__turn_run *sr, const char *name)
{
	enum pc_turn_approval mode = sr->o->approval;
	bool ask = mode == PC_TURN_APPROVAL_ALWAYS ||
		   (mode == PC_TURN_APPROVAL_DESTRUCTIVE &&
		    pc__turn_is_destructive(name));
	cJSON *e;

	if (!ask)
		return NULL;
	e = pc__turn_event(sr, "approval");
	run_event(sr, e);
	cJSON_AddStringToObject(e, "tool", name);
	cJSON_AddBoolToObject(e, "approved", !sr->o->user_denies);
	return sr->o->user_denies
		       ? pc_xasprintf("tool call '%s' was denied by the user",
				      name)
		       : NULL;
}

/* Execute one gated call inside the subagent. */
static void execute(struct pc__turn_run *sr, const char *name,
		    const cJSON *args, const cJSON *bulk_denied, unsigned max,
		    struct pc__turn_outcome *oc)
{
	if (!strcmp(name, "subagent") || !strcmp(name, "spawn")) {
		if (sr->depth + 1 >= max)
			fail(oc,
			     pc_xasprintf(
				     "nested subagent blocked at depth %u (max %u)",
				     sr->depth + 1, max));
		else
			pc__turn_subagent(sr, args, sr->depth + 1, oc);
	} else if (!strcmp(name, "bulk")) {
		pc__turn_run_bulk(sr, args, bulk_denied, oc);
	} else if (!pc__turn_builtin(sr->o, name, args, oc)) {
		free(oc->output);
		fail(oc,
		     pc_xasprintf(
			     "plugcheck: the built-in tool '%s' is not reproduced (docs/turn.md)",
			     name));
	}
}

/* dispatch_subagent_tool: the schema gate, approval, the specific pre
 * hook, pre_tool (not for finish), the bulk gates, the built-in, the
 * specific post hook and post_tool (also for finish), notes. */
static void dispatch(struct pc__turn_run *sr, const char *agent_name,
		     const char *name, const cJSON *args,
		     const struct pc_strvec *allowed, unsigned max,
		     struct pc__turn_outcome *oc)
{
	struct pc_strvec notes = PC_STRVEC_INIT;
	enum pc_hook_point sp = pc__turn_specific(name, false);
	cJSON *exec = cJSON_Duplicate(args, 1), *denied = cJSON_CreateObject();
	char *deny = NULL;

	if (!pc_strvec_has(allowed, name))
		deny = pc_xasprintf(
			"tool '%s' is not available to agent '%s' (not in its tool schema). Declare it in the agent's tools: frontmatter if needed.",
			name, agent_name);
	else
		deny = approval(sr, name);
	if (!deny && sp != PC_HOOK_COUNT)
		deny = pc__turn_pre_hooks(sr, sp, name, exec, &notes);
	if (!deny && strcmp(name, "finish"))
		deny = pc__turn_pre_hooks(sr, PC_HOOK_PRE_TOOL, name, exec,
					  &notes);
	if (deny) {
		fail(oc, deny);
		goto out;
	}
	if (!strcmp(name, "bulk"))
		pc__turn_bulk_gates(sr, exec, denied, allowed, &notes);
	execute(sr, name, exec, denied, max, oc);
	sp = pc__turn_specific(name, true);
	if (sp != PC_HOOK_COUNT)
		pc__turn_post_hooks(sr, sp, name, exec, oc, &notes);
	pc__turn_post_hooks(sr, PC_HOOK_POST_TOOL, name, exec, oc, &notes);
	pc__turn_add_notes(oc, &notes);
out:
	cJSON_Delete(exec);
	cJSON_Delete(denied);
	pc_strvec_release(&notes);
}

static void tool_message(cJSON *sub, const char *id, const char *text)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "role", "tool");
	cJSON_AddStringToObject(m, "tool_call_id", id);
	cJSON_AddStringToObject(m, "content", text);
	cJSON_AddItemToArray(sub, m);
}

static void call_events(struct pc__turn_run *sr, const char *id,
			const char *name, const cJSON *args, unsigned count)
{
	cJSON *e = pc__turn_event(sr, "subagent_tool_call");

	run_event(sr, e);
	cJSON_AddStringToObject(e, "call_id", id);
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddItemToObject(e, "args", cJSON_Duplicate(args, 1));
	cJSON_AddNumberToObject(e, "tool_count", count);
}

static void result_event(struct pc__turn_run *sr, const char *id,
			 const char *name, const char *text, bool ok)
{
	cJSON *e = pc__turn_event(sr, "subagent_tool_result");
	char *t = truncated(text, RESULT_EVENT_MAX);

	run_event(sr, e);
	cJSON_AddStringToObject(e, "call_id", id);
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddStringToObject(e, "result", t);
	cJSON_AddBoolToObject(e, "ok", ok);
	free(t);
}

/* The state of one subagent run. */
struct sub {
	struct pc__turn_run *sr;
	const struct agent *a;
	struct pc_strvec allowed;
	unsigned max;
	const char *model;
	cJSON *msgs; /* the run's conversation */
	unsigned tools;
};

/* One call of a reply; true when it ends the run (then *oc is set). */
static bool sub_call(struct sub *s, const cJSON *call, const char *content,
		     struct pc__turn_outcome *oc)
{
	const cJSON *fn = pc_serde_get(call, "function");
	const char *id = str_of(call, "id"), *name = str_of(fn, "name");
	const char *as = str_of(fn, "arguments");
	struct pc__turn_outcome res = { 0 };
	cJSON *args = NULL;
	bool finish;

	id = id ? id : "";
	name = name ? name : "";
	if (++s->tools > MAX_TOOL_CALLS) {
		fail(oc,
		     pc_xasprintf(
			     "subagent exceeded the per-run tool-call cap (%u); aborting to bound cost. Re-decompose into smaller subagent runs.",
			     MAX_TOOL_CALLS));
		return true;
	}
	if (pc__turn_parse_arguments(as ? as : "", &args) < 0) {
		char *msg = pc_xasprintf(
			"tool call '%s' produced malformed JSON arguments (the argument string was not valid JSON). This usually happens with long, quote-heavy commands wrapped inside bulk's nested JSON. Re-issue it simply: call bash directly (not via bulk), and for complex logic write a script to a file with write_file then run `bash script.sh` instead of inlining one long command string.",
			name);
		cJSON *empty = cJSON_CreateObject();

		call_events(s->sr, id, name, empty, s->tools);
		result_event(s->sr, id, name, msg, false);
		tool_message(s->msgs, id, msg);
		cJSON_Delete(empty);
		free(msg);
		return false;
	}
	call_events(s->sr, id, name, args, s->tools);
	dispatch(s->sr, s->a->name, name, args, &s->allowed, s->max, &res);
	cJSON_Delete(args);
	finish = !strcmp(name, "finish") && res.ok &&
		 !strcmp(res.output, FINISH_SENTINEL);
	result_event(s->sr, id, name, finish ? FINISH_MESSAGE : res.output,
		     res.ok);
	tool_message(s->msgs, id, finish ? FINISH_MESSAGE : res.output);
	pc__turn_outcome_release(&res);
	if (!finish)
		return false;
	succeed(oc, final_text(content, s->msgs));
	return true;
}

/* run_agent_inner: the nested loop until a reply without tool calls, a
 * finish, or a failure. */
static void agent_loop(struct sub *s, struct pc__turn_outcome *oc)
{
	int max = s->sr->o->max_requests > 0 ? s->sr->o->max_requests : 25;
	cJSON *defs = tool_defs(&s->allowed);

	for (int i = 0; i < max; i++) {
		char *why = NULL;
		cJSON *reply = request(s->sr, s->msgs, defs, i, s->model, &why);
		cJSON *typed;
		const cJSON *calls, *c, *last;
		const char *content;
		bool done = false;

		if (!reply) {
			fail(oc,
			     pc_xasprintf("subagent stream error: %s", why));
			free(why);
			goto out;
		}
		/* as the main loop keeps it: what the host could not type is
		 * kept as the scripted model sent it */
		typed = pc__turn_message(reply);
		cJSON_AddItemToArray(s->msgs,
				     typed ? typed : cJSON_Duplicate(reply, 1));
		cJSON_Delete(reply);
		last = cJSON_GetArrayItem(s->msgs,
					  cJSON_GetArraySize(s->msgs) - 1);
		content = str_of(last, "content");
		if (content && *content) {
			char *t = truncated(content, MESSAGE_EVENT_MAX);

			sub_message(s->sr, "assistant", t);
			free(t);
		}
		calls = pc_serde_get(last, "tool_calls");
		if (cJSON_GetArraySize(calls) == 0) {
			succeed(oc, final_text(content, s->msgs));
			goto done;
		}
		cJSON_ArrayForEach(c, calls)
		{
			if (!done)
				done = sub_call(s, c, content, oc);
		}
		if (done && oc->ok)
			goto done;
		if (done) { /* the tool-call cap */
			summary_info(s->sr, s->model);
			goto out;
		}
	}
	fail(oc,
	     pc_xstrdup(
		     "plugcheck: the subagent made too many model requests"));
	goto out;
done:
	write_output(s->sr, s->a, oc->output);
	summary_info(s->sr, s->model);
out:
	cJSON_Delete(defs);
}

/* run_single: subagent_start, the loop, subagent_done. */
static void run_single(struct pc__turn_run *r, const struct agent *a,
		       const char *task, const char *run_id, const char *model,
		       bool fork, unsigned depth, struct pc__turn_outcome *oc)
{
	struct pc__turn_run sr = *r;
	struct sub s = { .sr = &sr, .a = a, .allowed = PC_STRVEC_INIT };
	cJSON *e, *names;
	char *sys, *sum, *text;

	sr.run_id = run_id;
	sr.depth = depth;
	s.max = max_depth();
	s.model = model ? model : r->t->model;
	allowed_names(a, depth, s.max, &s.allowed);
	e = pc__turn_event(&sr, "subagent_start");
	run_event(&sr, e);
	cJSON_AddStringToObject(e, "mode", "single");
	cJSON_AddStringToObject(e, "agent", a->name);
	names = cJSON_AddArrayToObject(e, "agents");
	cJSON_AddItemToArray(names, cJSON_CreateString(a->name));
	cJSON_AddStringToObject(e, "task", task);
	cJSON_AddNumberToObject(e, "depth", depth);
	if (r->run_id)
		cJSON_AddStringToObject(e, "parent_run_id", r->run_id);
	sub_message(&sr, "user", task);
	s.msgs = cJSON_CreateArray();
	sys = system_prompt(r, a);
	cJSON_AddItemToArray(s.msgs, pc__turn_text_message("system", sys));
	free(sys);
	if (fork)
		fork_context(r, s.msgs);
	text = fork ? pc_xasprintf("Task:\n%s", task) : pc_xstrdup(task);
	cJSON_AddItemToArray(s.msgs, pc__turn_text_message("user", text));
	free(text);
	agent_loop(&s, oc);
	sum = run_summary(oc->output);
	e = pc__turn_event(&sr, "subagent_done");
	run_event(&sr, e);
	cJSON_AddStringToObject(e, "state", oc->ok ? "completed" : "failed");
	if (r->run_id)
		cJSON_AddStringToObject(e, "parent_run_id", r->run_id);
	cJSON_AddStringToObject(e, "summary", sum);
	free(sum);
	cJSON_Delete(s.msgs);
	pc_strvec_release(&s.allowed);
}

static char *next_run_id(struct pc__turn_run *r)
{
	return pc_xasprintf("run-%x", ++r->t->subagent_runs);
}

/* handle_action: `list`; the other actions are not reproduced. */
static void action(const char *act, struct pc__turn_outcome *oc)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!strcmp(act, "list")) {
		pc_buf_addf(&b, "%zu agent(s):", NAGENTS);
		for (size_t i = 0; i < NAGENTS; i++)
			pc_buf_addf(&b, "\n- %s [builtin] \xe2\x80\x94 %s",
				    agents[i].name, agents[i].about);
		succeed(oc, pc_buf_detach(&b, NULL));
		return;
	}
	for (size_t i = 0; i < sizeof(known_actions) / sizeof(*known_actions);
	     i++)
		if (!strcmp(act, known_actions[i])) {
			fail(oc,
			     pc_xasprintf(
				     "plugcheck: the subagent action '%s' is not reproduced (docs/turn.md)",
				     act));
			return;
		}
	fail(oc,
	     pc_xasprintf(
		     "unknown action '%s'; use list|get|create|update|delete|status|interrupt|resume|peek|steer|doctor",
		     act));
}

static bool is_git_repo(const char *ws)
{
	char *g = pc_fs_join(ws, ".git");
	bool yes = pc_fs_is_dir(g) || pc_fs_is_file(g);

	free(g);
	return yes;
}

/* The single mode: {agent, task, model?, context?, run_id?, worktree?}. */
static void single(struct pc__turn_run *r, const cJSON *args, const char *name,
		   unsigned depth, struct pc__turn_outcome *oc)
{
	const struct agent *a = find_agent(name);
	const char *task = str_of(args, "task"), *ctx = str_of(args, "context");
	const char *rid = str_of(args, "run_id");
	char *run_id;
	bool fork;

	if (!a) {
		fail(oc,
		     pc_xasprintf(
			     "unknown agent '%s'; use action:\"list\" to discover agents",
			     name));
		return;
	}
	fork = ctx && !strcmp(ctx, "fork")    ? true
	       : ctx && !strcmp(ctx, "fresh") ? false
					      : a->fork;
	if (cJSON_IsTrue(pc_serde_get(args, "worktree"))) {
		fail(oc,
		     pc_xstrdup(
			     is_git_repo(r->o->host->workspace)
				     ? "plugcheck: subagent worktrees are not reproduced (docs/turn.md)"
				     : "worktree:true requires a git repository; use hybrid checkpoints for non-git workspaces"));
		return;
	}
	run_id = rid && *rid ? pc_xstrdup(rid) : next_run_id(r);
	run_single(r, a, task ? task : "", run_id, str_of(args, "model"), fork,
		   depth, oc);
	free(run_id);
}

void pc__turn_subagent(struct pc__turn_run *r, const cJSON *args,
		       unsigned depth, struct pc__turn_outcome *oc)
{
	unsigned max = max_depth();
	const char *prompt = str_of(args, "prompt"), *name, *act;
	char *run_id;

	if (depth >= max) {
		fail(oc,
		     pc_xasprintf(
			     "subagent nesting blocked at depth %u (max %u); complete the current task directly",
			     depth, max));
		return;
	}
	/* a bare {prompt} (the legacy spawn) runs as the delegate */
	if (!pc_serde_get(args, "agent") && !pc_serde_get(args, "tasks") &&
	    !pc_serde_get(args, "chain") && prompt) {
		run_id = next_run_id(r);
		run_single(r, find_agent("delegate"), prompt, run_id,
			   str_of(args, "model"), false, depth, oc);
		free(run_id);
		return;
	}
	if ((act = str_of(args, "action"))) {
		action(act, oc);
		return;
	}
	if ((name = str_of(args, "agent"))) {
		single(r, args, name, depth, oc);
		return;
	}
	if (cJSON_IsArray(pc_serde_get(args, "tasks")) ||
	    cJSON_IsArray(pc_serde_get(args, "chain"))) {
		fail(oc,
		     pc_xstrdup(
			     "plugcheck: subagent parallel tasks and chains are not reproduced (docs/turn.md)"));
		return;
	}
	fail(oc,
	     pc_xstrdup(
		     "subagent requires 'agent'+'task', 'tasks', 'chain', or 'action'"));
}

/* pc_turn.c - the turn loop and hook composition of pc_turn.h. */
#include "pc_turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

#define PRE_INPUT_MAX_BYTES	       1048576u /* main.rs PRE_INPUT_MAX_BYTES */
#define SYSTEM_PROMPT_MODIFY_MAX_BYTES 102400u	/* R4.6 pre_agent_start */
#define PRE_CONTEXT_MAX_BYTES	       (8u << 20) /* R4.6 pre_context */
#define PRE_CONTEXT_MAX_MESSAGES       500
#define FINISH_MESSAGE		       "This turn has finished"

static int cmp_plugin(const void *a, const void *b)
{
	const struct pc_plugin *const *x = a, *const *y = b;

	return pc_serde_text_cmp((*x)->name, (*y)->name);
}

struct pc_plugin **pc__turn_sorted(const struct pc_turn_opts *o, size_t *n)
{
	struct pc_plugin **v = pc_xcalloc(o->nplugins + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < o->nplugins; i++)
		if (o->plugins[i]->enabled)
			v[(*n)++] = o->plugins[i];
	qsort(v, *n, sizeof(*v), cmp_plugin);
	return v;
}

cJSON *pc__turn_event(struct pc__turn_run *r, const char *type)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddItemToArray(r->t->transcript, e);
	return e;
}

void pc__turn_event_msg(struct pc__turn_run *r, const char *type,
			const char *msg)
{
	cJSON_AddStringToObject(pc__turn_event(r, type), "message", msg);
}

void pc__turn_log_line(struct pc__turn_run *r, const char *line)
{
	cJSON_AddStringToObject(pc__turn_event(r, "log"), "line", line);
}

/* Copy the exchange's protocol events (info, plugin_status) and stderr
 * lines into the transcript, in the order the host emits them. */
static void take_exchange(struct pc__turn_run *r, struct pc_exchange *x)
{
	for (size_t i = 0; i < x->events.nr; i++) {
		cJSON *e = NULL;

		if (pc_serde_parse(x->events.v[i], strlen(x->events.v[i]), &e,
				   NULL) == 0)
			cJSON_AddItemToArray(r->t->transcript, e);
	}
	for (size_t i = 0; i < x->log.nr; i++)
		pc__turn_log_line(r, x->log.v[i]);
}

/* fire - run `point` of plugin `p` and record the firing. Returns the
 * hook result in *hr (caller releases). */
static void fire(struct pc__turn_run *r, struct pc_plugin *p,
		 enum pc_hook_point point, const char *tool, const cJSON *args,
		 const cJSON *result, struct pc_hook_result *hr)
{
	struct pc_exchange x;
	struct pc_err err = PC_ERR_INIT;
	cJSON *e;

	memset(hr, 0, sizeof(*hr));
	pc_exchange_init(&x);
	if (pc_host_run_hook(r->o->host, p, point, tool, args, result, hr, &x,
			     &err) < 0) {
		hr->allow = !pc_hook_is_blocking(point);
		hr->reason = pc_xstrdup(err.msg);
	}
	e = pc__turn_event(r, "hook");
	if (r->run_id)
		cJSON_AddStringToObject(e, "run_id", r->run_id);
	cJSON_AddStringToObject(e, "hook", pc_hook_point_name(point));
	cJSON_AddStringToObject(e, "plugin", p->name);
	if (tool && *tool)
		cJSON_AddStringToObject(e, "tool", tool);
	cJSON_AddStringToObject(e, "verdict", hr->allow ? "allow" : "deny");
	cJSON_AddStringToObject(e, "outcome", pc_outcome_name(hr->outcome));
	cJSON_AddStringToObject(e, "reason", hr->reason ? hr->reason : "");
	if (hr->modify)
		cJSON_AddItemToObject(e, "modify",
				      cJSON_Duplicate(hr->modify, 1));
	if (r->o->on_hook) {
		struct pc_turn_firing fi = {
			.event = (size_t)cJSON_GetArraySize(r->t->transcript) - 1,
			.point = point, .plugin = p->name,
			.tool = tool ? tool : "", .args = args,
			.result = result, .hr = hr, .x = &x
		};

		r->o->on_hook(r->o->on_hook_ctx, &fi);
	}
	take_exchange(r, &x);
	pc_exchange_release(&x);
}

/* R4.6 dispatch_lifecycle: results are discarded entirely. */
static void lifecycle(struct pc__turn_run *r, enum pc_hook_point point,
		      const cJSON *args)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pc_hook_result hr;

		if (!r->ps[i]->hooks[point].present)
			continue;
		fire(r, r->ps[i], point, "", args, NULL, &hr);
		pc_hook_result_release(&hr);
	}
}

/* R4.8 run_pre_hooks: NULL to proceed, else the new deny text. */
char *pc__turn_pre_hooks(struct pc__turn_run *r, enum pc_hook_point point,
			 const char *tool, cJSON *args, struct pc_strvec *notes)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pc_plugin *p = r->ps[i];
		struct pc_hook_result hr;
		char *deny = NULL;

		if (!p->hooks[point].present)
			continue;
		fire(r, p, point, tool, args, NULL, &hr);
		if (!hr.allow)
			deny = pc_xasprintf(
				"tool call '%s' denied by plugin '%s' hook '%s': %s",
				tool, p->name, pc_hook_point_name(point),
				hr.reason);
		else if (hr.modify)
			pc_apply_modify(args, hr.modify);
		if (!deny && hr.reason[0])
			pc_strvec_pushf(notes, "%s/%s: %s", p->name,
					pc_hook_point_name(point), hr.reason);
		pc_hook_result_release(&hr);
		if (deny)
			return deny;
	}
	return NULL;
}

static cJSON *result_json(const struct pc__turn_outcome *oc)
{
	cJSON *res = cJSON_CreateObject();

	if (oc->diff)
		cJSON_AddStringToObject(res, "diff", oc->diff);
	else
		cJSON_AddNullToObject(res, "diff");
	cJSON_AddBoolToObject(res, "ok", oc->ok);
	cJSON_AddStringToObject(res, "output", oc->output);
	return res;
}

/* R4.9 run_post_hooks. */
void pc__turn_post_hooks(struct pc__turn_run *r, enum pc_hook_point point,
			 const char *tool, const cJSON *args,
			 struct pc__turn_outcome *oc, struct pc_strvec *notes)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pc_plugin *p = r->ps[i];
		struct pc_hook_result hr;
		cJSON *res;
		const cJSON *v;

		if (!p->hooks[point].present)
			continue;
		res = result_json(oc);
		fire(r, p, point, tool, args, res, &hr);
		cJSON_Delete(res);
		if (hr.reason[0])
			pc_strvec_pushf(notes, "%s/%s: %s", p->name,
					pc_hook_point_name(point), hr.reason);
		if (cJSON_IsObject(hr.modify)) {
			v = pc_serde_get(hr.modify, "output");
			if (cJSON_IsString(v)) {
				free(oc->output);
				oc->output = pc_xstrdup(v->valuestring);
			}
			v = pc_serde_get(hr.modify, "ok");
			if (cJSON_IsBool(v))
				oc->ok = cJSON_IsTrue(v);
			v = pc_serde_get(hr.modify, "diff");
			if (v) {
				free(oc->diff);
				oc->diff = cJSON_IsString(v)
						   ? pc_xstrdup(v->valuestring)
						   : NULL;
			}
		}
		pc_hook_result_release(&hr);
	}
}

enum pc_hook_point pc__turn_specific(const char *name, bool post)
{
	if (!strcmp(name, "bash"))
		return post ? PC_HOOK_POST_BASH : PC_HOOK_PRE_BASH;
	if (!strcmp(name, "write_file") || !strcmp(name, "edit"))
		return post ? PC_HOOK_POST_WRITE : PC_HOOK_PRE_WRITE;
	if (!strcmp(name, "read_file") || !strcmp(name, "grep") ||
	    !strcmp(name, "glob"))
		return post ? PC_HOOK_POST_READ : PC_HOOK_PRE_READ;
	return PC_HOOK_COUNT;
}

/* R4.6 pre_input: NULL when denied (error event emitted), else new text. */
static char *pre_input(struct pc__turn_run *r, const char *text)
{
	char *cur = pc_xstrdup(text);

	for (size_t i = 0; i < r->n; i++) {
		struct pc_plugin *p = r->ps[i];
		struct pc_hook_result hr;
		cJSON *args;
		const cJSON *v;

		if (!p->hooks[PC_HOOK_PRE_INPUT].present)
			continue;
		args = cJSON_CreateObject();
		cJSON_AddStringToObject(args, "text", cur);
		fire(r, p, PC_HOOK_PRE_INPUT, "", args, NULL, &hr);
		cJSON_Delete(args);
		if (!hr.allow) {
			char *m = pc_xasprintf(
				"input denied by plugin '%s' pre_input: %s",
				p->name, hr.reason);

			pc__turn_event_msg(r, "error", m);
			free(m);
			pc_hook_result_release(&hr);
			free(cur);
			return NULL;
		}
		v = pc_serde_get(hr.modify, "text");
		if (cJSON_IsString(v) &&
		    pc_serde_text_len(v->valuestring) > PRE_INPUT_MAX_BYTES) {
			char *m = pc_xasprintf(
				"[plugins] pre_input modify.text from '%s' exceeds %u bytes; ignored",
				p->name, PRE_INPUT_MAX_BYTES);

			pc__turn_log_line(r, m);
			free(m);
		} else if (cJSON_IsString(v)) {
			free(cur);
			cur = pc_xstrdup(v->valuestring);
		}
		pc_hook_result_release(&hr);
	}
	return cur;
}

static const char *const models[] = { "mock-model", "mock-vision" };

static cJSON *pre_turn_args(struct pc__turn_run *r)
{
	cJSON *a = cJSON_CreateObject(), *ms = cJSON_CreateArray();

	cJSON_AddBoolToObject(a, "enabled", true);
	cJSON_AddBoolToObject(a, "has_images", true);
	cJSON_AddNumberToObject(a, "image_count", r->o->images);
	cJSON_AddStringToObject(a, "model", r->t->model);
	for (int i = 0; i < 2; i++) {
		cJSON *m = cJSON_CreateObject();

		cJSON_AddNumberToObject(m, "cost_rank", i + 1);
		cJSON_AddStringToObject(m, "id", models[i]);
		cJSON_AddStringToObject(m, "provider", "mock");
		cJSON_AddBoolToObject(m, "vision", i == 1);
		cJSON_AddItemToArray(ms, m);
	}
	cJSON_AddItemToObject(a, "models", ms);
	cJSON_AddStringToObject(a, "provider", "mock");
	cJSON_AddStringToObject(a, "recommended_vision_model", "mock-vision");
	cJSON_AddNullToObject(a, "vision_model");
	return a;
}

static bool is_model(const char *id)
{
	return !strcmp(id, models[0]) || !strcmp(id, models[1]) ||
	       !strcmp(id, "mock-model");
}

/* R4.6 pre_turn: vision handoff through modify.model. */
static void pre_turn(struct pc__turn_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pc_hook_result hr;
		const cJSON *m;
		cJSON *args;
		char *msg = NULL;

		if (!r->ps[i]->hooks[PC_HOOK_PRE_TURN].present)
			continue;
		args = pre_turn_args(r);
		fire(r, r->ps[i], PC_HOOK_PRE_TURN, "", args, NULL, &hr);
		cJSON_Delete(args);
		m = pc_serde_get(hr.modify, "model");
		if (cJSON_IsString(m) && strcmp(m->valuestring, r->t->model)) {
			if (is_model(m->valuestring)) {
				msg = pc_xasprintf(
					"vision handoff: %s \xe2\x86\x92 %s (%s)",
					r->t->model, m->valuestring,
					hr.reason[0] ? hr.reason
						     : "vision handoff");
				free(r->t->model);
				r->t->model = pc_xstrdup(m->valuestring);
			} else {
				msg = pc_xasprintf(
					"vision handoff ignored: '%s' is not a discovered model",
					m->valuestring);
			}
			pc__turn_event_msg(r, "info", msg);
			free(msg);
		}
		pc_hook_result_release(&hr);
	}
}

/* turn_loop.rs around pre_turn: with vision handoff off, a model without
 * vision gets the host's notice; with it on, the plugins' pre_turn, then -
 * when none switched the model and it lacks vision - the host's own switch
 * to the recommended model (mock-vision). */
static void vision(struct pc__turn_run *r)
{
	char *orig = pc_xstrdup(r->t->model), *m;

	if (!r->o->vision) {
		if (strcmp(r->t->model, models[1])) {
			m = pc_xasprintf("image attached but vision handoff is disabled and '%s' lacks vision; enable it in Settings / /vision (recommended), or pick a vision model",
					 r->t->model);
			pc__turn_event_msg(r, "info", m);
			free(m);
		}
		free(orig);
		return;
	}
	pre_turn(r);
	if (!strcmp(orig, r->t->model) && strcmp(r->t->model, models[1])) {
		m = pc_xasprintf("vision handoff: %s \xe2\x86\x92 %s (cheapest same-provider)",
				 r->t->model, models[1]);
		pc__turn_event_msg(r, "info", m);
		free(m);
		free(r->t->model);
		r->t->model = pc_xstrdup(models[1]);
	}
	free(orig);
}

static void cap_note(struct pc__turn_run *r, const char *what,
		     const char *plugin)
{
	char *m = pc_xasprintf(
		"[plugins] pre_agent_start modify.%s from '%s' exceeds cap; ignored",
		what, plugin);

	pc__turn_log_line(r, m);
	free(m);
}

/* R4.6 pre_agent_start: the transient fragment, or NULL. */
static char *pre_agent_start(struct pc__turn_run *r)
{
	struct pc_buf rep = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_strvec app = PC_STRVEC_INIT;
	bool replaced = false;
	char *out;

	for (size_t i = 0; i < r->n; i++) {
		struct pc_plugin *p = r->ps[i];
		struct pc_hook_result hr;
		const cJSON *s, *a;

		if (!p->hooks[PC_HOOK_PRE_AGENT_START].present)
			continue;
		fire(r, p, PC_HOOK_PRE_AGENT_START, "", NULL, NULL, &hr);
		s = pc_serde_get(hr.modify, "system_prompt");
		a = pc_serde_get(hr.modify, "append_system_prompt");
		if (cJSON_IsString(s) &&
		    pc_serde_text_len(s->valuestring) >
			    SYSTEM_PROMPT_MODIFY_MAX_BYTES)
			cap_note(r, "system_prompt", p->name);
		else if (cJSON_IsString(s)) {
			pc_buf_reset(&rep);
			pc_buf_adds(&rep, s->valuestring);
			replaced = true;
			pc_strvec_release(&app);
		}
		if (cJSON_IsString(a) &&
		    pc_serde_text_len(a->valuestring) >
			    SYSTEM_PROMPT_MODIFY_MAX_BYTES)
			cap_note(r, "append_system_prompt", p->name);
		else if (cJSON_IsString(a) && a->valuestring[0])
			pc_strvec_pushf(&app, "# Plugin: %s\n%s", p->name,
					a->valuestring);
		pc_hook_result_release(&hr);
	}
	(void)replaced;
	for (size_t i = 0; i < app.nr; i++) {
		if (rep.len)
			pc_buf_adds(&rep, "\n\n");
		pc_buf_adds(&rep, app.v[i]);
	}
	pc_strvec_release(&app);
	if (!rep.len) {
		pc_buf_release(&rep);
		return NULL;
	}
	out = pc_buf_detach(&rep, NULL);
	return out;
}

static size_t printed_len(const cJSON *v)
{
	char *s = pc_serde_to_string(v);
	size_t n = strlen(s);

	free(s);
	return n;
}

static void log_take(struct pc__turn_run *r, char *m)
{
	pc__turn_log_line(r, m);
	free(m);
}

/* R4.6 pre_context: may replace *msgs (the request's working list). */
static void pre_context(struct pc__turn_run *r, cJSON **msgs)
{
	for (size_t i = 0; i < r->n; i++) {
		struct pc_plugin *p = r->ps[i];
		struct pc_hook_result hr;
		const cJSON *nm;
		cJSON *args, *typed;
		size_t bytes;

		if (!p->hooks[PC_HOOK_PRE_CONTEXT].present)
			continue;
		bytes = printed_len(*msgs);
		if (bytes > PRE_CONTEXT_MAX_BYTES) {
			log_take(
				r,
				pc_xasprintf(
					"[plugins] pre_context: messages payload (%zu bytes) exceeds cap; skipping hooks",
					bytes));
			return;
		}
		args = cJSON_CreateObject();
		cJSON_AddItemToObject(args, "messages",
				      cJSON_Duplicate(*msgs, 1));
		fire(r, p, PC_HOOK_PRE_CONTEXT, "", args, NULL, &hr);
		cJSON_Delete(args);
		nm = pc_serde_get(hr.modify, "messages");
		if (!cJSON_IsObject(hr.modify) || !nm)
			goto next;
		/* Vec<Message>, then the caps on what it deserialized to */
		typed = pc__turn_messages(nm);
		if (!typed)
			log_take(
				r,
				pc_xasprintf(
					"[plugins] pre_context modify.messages from '%s' failed schema validation; ignored",
					p->name));
		else if (cJSON_GetArraySize(typed) > PRE_CONTEXT_MAX_MESSAGES)
			log_take(
				r,
				pc_xasprintf(
					"[plugins] pre_context modify.messages from '%s' has %d msgs (max 500); ignored",
					p->name, cJSON_GetArraySize(typed)));
		else if (printed_len(typed) > PRE_CONTEXT_MAX_BYTES)
			log_take(
				r,
				pc_xasprintf(
					"[plugins] pre_context modify.messages from '%s' exceeds size cap; ignored",
					p->name));
		else {
			cJSON_Delete(*msgs);
			*msgs = typed;
			typed = NULL;
		}
		cJSON_Delete(typed);
next:
		pc_hook_result_release(&hr);
	}
}

void pc__turn_outcome_release(struct pc__turn_outcome *oc)
{
	free(oc->output);
	free(oc->diff);
	oc->output = oc->diff = NULL;
}

/* The tool result message and event; takes `text`. */
static void tool_result(struct pc__turn_run *r, const char *id,
			const char *name, bool ok, char *text)
{
	cJSON *e = pc__turn_event(r, "tool_result"), *m = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "id", id);
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddBoolToObject(e, "ok", ok);
	cJSON_AddStringToObject(e, "output", text);
	cJSON_AddStringToObject(m, "role", "tool");
	cJSON_AddStringToObject(m, "tool_call_id", id);
	cJSON_AddStringToObject(m, "content", text);
	cJSON_AddItemToArray(r->t->conversation, m);
	free(text);
}

static bool offered(const cJSON *defs, const char *name)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, defs)
	{
		const cJSON *n =
			pc_serde_get(pc_serde_get(d, "function"), "name");

		if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
			return true;
	}
	return false;
}

/* R6.4: NULL when the call may run, else the refusal text. */
static char *approval(struct pc__turn_run *r, const char *name)
{
	struct pc_plugin *owner = NULL;
	const struct pc_tool_cfg *tc =
		pc__turn_plugin_tool(r->ps, r->n, name, &owner);
	bool destructive = tc ? !tc->readonly : pc__turn_is_destructive(name);
	bool ask =
		r->o->approval == PC_TURN_APPROVAL_ALWAYS ||
		(r->o->approval == PC_TURN_APPROVAL_DESTRUCTIVE && destructive);
	cJSON *e;

	if (!ask)
		return NULL;
	e = pc__turn_event(r, "approval");
	cJSON_AddStringToObject(e, "tool", name);
	cJSON_AddBoolToObject(e, "approved", !r->o->user_denies);
	if (!r->o->user_denies)
		return NULL;
	return pc_xasprintf("tool call '%s' was denied by the user", name);
}

/* R4.6 bulk inner gates: pre hooks per inner call, no post hooks. */
void pc__turn_bulk_gates(struct pc__turn_run *r, cJSON *args, cJSON *denied,
			 const struct pc_strvec *allowed,
			 struct pc_strvec *notes)
{
	cJSON *calls = cJSON_GetObjectItemCaseSensitive(args, "calls"), *c;
	int i = 0;

	if (!cJSON_IsArray(calls))
		return;
	cJSON_ArrayForEach(c, calls)
	{
		const cJSON *n = pc_serde_get(c, "name");
		const char *iname = cJSON_IsString(n) ? n->valuestring : "";
		const cJSON *ia = pc_serde_get(c, "args");
		cJSON *mod = ia ? cJSON_Duplicate(ia, 1) : cJSON_CreateObject();
		enum pc_hook_point sp = pc__turn_specific(iname, false);
		char *deny = NULL;

		/* subagent.rs: bulk must not smuggle in a tool the agent was
		 * not given */
		if (allowed && !pc_strvec_has(allowed, iname))
			deny = pc_xasprintf(
				"tool '%s' is not in this subagent's tool schema",
				iname);
		else if (sp != PC_HOOK_COUNT)
			deny = pc__turn_pre_hooks(r, sp, iname, mod, notes);
		if (!deny && strcmp(iname, "finish"))
			deny = pc__turn_pre_hooks(r, PC_HOOK_PRE_TOOL, iname,
						  mod, notes);
		if (deny) {
			char key[16];

			snprintf(key, sizeof(key), "%d", i);
			cJSON_AddStringToObject(denied, key, deny);
			free(deny);
			cJSON_Delete(mod);
		} else {
			cJSON_DeleteItemFromObjectCaseSensitive(c, "args");
			cJSON_AddItemToObject(c, "args", mod);
		}
		i++;
	}
}

/* execute_bulk: "### [i] name\n<output>" blocks joined by blank lines. */
void pc__turn_run_bulk(struct pc__turn_run *r, const cJSON *args,
		       const cJSON *denied, struct pc__turn_outcome *oc)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const cJSON *calls = pc_serde_get(args, "calls"), *c;
	int i = 0;

	oc->ok = true;
	if (!cJSON_IsArray(calls))
		calls = NULL;
	cJSON_ArrayForEach(c, calls)
	{
		const cJSON *n = pc_serde_get(c, "name");
		const char *iname = cJSON_IsString(n) ? n->valuestring : "";
		char key[16];
		const cJSON *d;
		struct pc__turn_outcome in = { 0 };

		snprintf(key, sizeof(key), "%d", i);
		d = pc_serde_get(denied, key);
		if (b.len)
			pc_buf_adds(&b, "\n\n");
		if (d)
			pc_buf_addf(&b, "### [%d] %s\n\xe2\x9a\xa0 denied: %s",
				    i, iname, d->valuestring);
		else {
			pc__turn_builtin(r->o, iname, pc_serde_get(c, "args"),
					 &in);
			pc_buf_addf(&b, "### [%d] %s\n%s", i, iname, in.output);
			pc__turn_outcome_release(&in);
		}
		i++;
	}
	oc->output = pc_buf_detach(&b, NULL);
}

static void execute(struct pc__turn_run *r, const char *name, const cJSON *args,
		    const cJSON *bulk_denied, struct pc__turn_outcome *oc)
{
	struct pc_plugin *owner = NULL;
	const struct pc_tool_cfg *tc =
		pc__turn_plugin_tool(r->ps, r->n, name, &owner);

	if (tc) {
		struct pc_call_result cr = { 0 };
		struct pc_exchange x;
		struct pc_err err = PC_ERR_INIT;

		pc_exchange_init(&x);
		if (pc_host_run_tool(r->o->host, owner, tc, args, &cr, &x,
				     &err) < 0) {
			oc->ok = false;
			oc->output = pc_xstrdup(err.msg);
		} else {
			oc->ok = cr.ok;
			oc->output = pc_xstrdup(cr.output ? cr.output : "");
		}
		take_exchange(r, &x);
		pc_exchange_release(&x);
		pc_call_result_release(&cr);
		return;
	}
	if (!strcmp(name, "bulk"))
		pc__turn_run_bulk(r, args, bulk_denied, oc);
	else if (!strcmp(name, "subagent"))
		pc__turn_subagent(r, args, 0, oc);
	else
		pc__turn_builtin(r->o, name, args, oc);
}

void pc__turn_add_notes(struct pc__turn_outcome *oc,
			const struct pc_strvec *notes)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!notes->nr)
		return;
	pc_buf_adds(&b, oc->output);
	pc_buf_adds(&b, "\n\nPlugin hooks:\n- ");
	for (size_t i = 0; i < notes->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? "\n- " : "", notes->v[i]);
	free(oc->output);
	oc->output = pc_buf_detach(&b, NULL);
}

/* serde_json::from_str of the call's argument string: the text's raw
 * bytes, so a U+0000 in it is the control character serde refuses. */
int pc__turn_parse_arguments(const char *as, cJSON **args)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	pc_serde_text_raw(&raw, as);
	rc = pc_serde_parse(pc_buf_cstr(&raw), raw.len, args, NULL);
	pc_buf_release(&raw);
	return rc;
}

/* One tool call (turn_loop.rs 1120-2000). Returns true for `finish`. */
static bool tool_call(struct pc__turn_run *r, const cJSON *call,
		      const cJSON *defs)
{
	const cJSON *fn = pc_serde_get(call, "function");
	const char *id = pc_serde_get(call, "id")->valuestring;
	const char *name = pc_serde_get(fn, "name")->valuestring;
	const char *as = pc_serde_get(fn, "arguments")->valuestring;
	struct pc_strvec notes = PC_STRVEC_INIT;
	struct pc__turn_outcome oc = { 0 };
	cJSON *args = NULL, *bulk_denied = cJSON_CreateObject(), *e;
	enum pc_hook_point sp = pc__turn_specific(name, false);
	char *deny = NULL;
	bool finish = !strcmp(name, "finish");

	e = pc__turn_event(r, "tool_call");
	cJSON_AddStringToObject(e, "id", id);
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddStringToObject(e, "arguments", as);
	if (pc__turn_parse_arguments(as, &args) < 0)
		deny = pc_xasprintf(
			"tool call '%s' produced malformed JSON arguments (the argument string was not valid JSON). This usually happens with long, quote-heavy commands wrapped inside bulk's nested JSON. Re-issue it simply: call bash directly (not via bulk), and for complex logic write a script to a file with write_file then run `bash script.sh` instead of inlining one long command string.",
			name);
	else if (!offered(defs, name))
		deny = pc_xasprintf(
			"tool '%s' is not available on this agent (not in the current tool list).",
			name);
	else
		deny = approval(r, name);
	if (!deny && sp != PC_HOOK_COUNT)
		deny = pc__turn_pre_hooks(r, sp, name, args, &notes);
	if (!deny && !finish)
		deny = pc__turn_pre_hooks(r, PC_HOOK_PRE_TOOL, name, args,
					  &notes);
	if (deny) {
		tool_result(r, id, name, false, deny);
		goto out;
	}
	if (!strcmp(name, "bulk"))
		pc__turn_bulk_gates(r, args, bulk_denied, NULL, &notes);
	execute(r, name, args, bulk_denied, &oc);
	if (pc__turn_specific(name, true) != PC_HOOK_COUNT)
		pc__turn_post_hooks(r, pc__turn_specific(name, true), name,
				    args, &oc, &notes);
	if (!finish)
		pc__turn_post_hooks(r, PC_HOOK_POST_TOOL, name, args, &oc,
				    &notes);
	if (finish && oc.ok && !strcmp(oc.output, "__finish__")) {
		tool_result(r, id, name, true, pc_xstrdup(FINISH_MESSAGE));
		pc__turn_outcome_release(&oc);
		cJSON_Delete(args);
		cJSON_Delete(bulk_denied);
		pc_strvec_release(&notes);
		return true;
	}
	finish = false;
	pc__turn_add_notes(&oc, &notes);
	tool_result(r, id, name, oc.ok, oc.output);
	oc.output = NULL;
out:
	pc__turn_outcome_release(&oc);
	cJSON_Delete(args);
	cJSON_Delete(bulk_denied);
	pc_strvec_release(&notes);
	return false;
}

char *pc__turn_prompt_part(const struct pc_plugin *p)
{
	const char *s = p->system_prompt ? p->system_prompt : "";
	size_t a, n = pc_rust_trim(s, strlen(s), &a);

	if (!n)
		return NULL;
	return pc_xasprintf("# Plugin: %s (v%s)\n%.*s", p->name,
			    p->version ? p->version : "", (int)n, s + a);
}

char *pc__turn_base_prompt(const char *ws, bool main)
{
	return pc_xasprintf(
		"You are Catalyst Code's %s (plugcheck reference host).\nWorkspace: %s",
		main ? "main agent" : "agent", ws);
}

/* R10.1 system_prompt_injection after the base prompt. */
char *pc__turn_system_prompt(const struct pc_turn_opts *o,
			     struct pc_plugin *const *ps, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *base = pc__turn_base_prompt(o->host->workspace, true);
	bool any = false;

	pc_buf_adds(&b, base);
	free(base);
	for (size_t i = 0; i < n; i++) {
		char *part = pc__turn_prompt_part(ps[i]);

		if (!part)
			continue;
		pc_buf_adds(&b, any ? "\n\n"
				    : "\n\n## Plugin-injected context\n\n");
		pc_buf_adds(&b, part);
		free(part);
		any = true;
	}
	return pc_buf_detach(&b, NULL);
}

cJSON *pc__turn_text_message(const char *role, const char *text)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "role", role);
	cJSON_AddStringToObject(m, "content", text);
	return m;
}

static cJSON *user_message(struct pc__turn_run *r, const char *text)
{
	cJSON *m, *parts;

	if (r->o->images <= 0)
		return pc__turn_text_message("user", text);
	m = cJSON_CreateObject();
	parts = cJSON_CreateArray();
	cJSON_AddStringToObject(m, "role", "user");
	cJSON_AddItemToArray(parts, pc__turn_text_message("text", text));
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(parts, 0),
						"role");
	cJSON_AddStringToObject(cJSON_GetArrayItem(parts, 0), "type", "text");
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(parts, 0),
						"content");
	cJSON_AddStringToObject(cJSON_GetArrayItem(parts, 0), "text", text);
	for (int i = 0; i < r->o->images; i++) {
		cJSON *p = cJSON_CreateObject(), *u = cJSON_CreateObject();

		cJSON_AddStringToObject(p, "type", "image_url");
		cJSON_AddStringToObject(u, "url",
					"data:image/png;base64,iVBORw0KGgo=");
		cJSON_AddItemToObject(p, "image_url", u);
		cJSON_AddItemToArray(parts, p);
	}
	cJSON_AddItemToObject(m, "content", parts);
	return m;
}

/* turn_loop.rs after a reply: the transient tails come off the end of the
 * working buffer - whatever pre_context left there - the assistant message
 * (as Message::try_from makes it) goes on, and the buffer becomes the
 * conversation, so a pre_context replacement persists (R4.6). Takes msgs;
 * returns the assistant message in the conversation (borrowed). */
static const cJSON *persist(struct pc__turn_run *r, cJSON *msgs, int tails,
			    const cJSON *reply)
{
	cJSON *a = pc__turn_message(reply);

	while (tails-- > 0 && cJSON_GetArraySize(msgs) > 0)
		cJSON_DeleteItemFromArray(msgs, cJSON_GetArraySize(msgs) - 1);
	/* plugcheck's scripted model answers assistant messages; anything
	 * the host could not type is kept as it came */
	cJSON_AddItemToArray(msgs, a ? a : cJSON_Duplicate(reply, 1));
	cJSON_Delete(r->t->conversation);
	r->t->conversation = msgs;
	return cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1);
}

/* One model request; returns the assistant message now last in the
 * conversation (borrowed), or NULL on model failure. */
static const cJSON *request(struct pc__turn_run *r, const cJSON *defs,
			    int index)
{
	cJSON *msgs = cJSON_Duplicate(r->t->conversation, 1), *reply = NULL;
	char *frag = pre_agent_start(r);
	struct pc_err err = PC_ERR_INIT;
	const cJSON *last = NULL;
	int tails = 0;
	cJSON *e;

	if (frag) {
		cJSON_AddItemToArray(msgs,
				     pc__turn_text_message("system", frag));
		tails++;
		free(frag);
	}
	pre_context(r, &msgs);
	e = pc__turn_event(r, "request");
	cJSON_AddNumberToObject(e, "index", index);
	cJSON_AddStringToObject(e, "model", r->t->model);
	cJSON_AddItemToObject(e, "messages", cJSON_Duplicate(msgs, 1));
	if (r->o->model(r->o->model_ctx, msgs, defs, &reply, &err) < 0 ||
	    !reply) {
		pc__turn_event_msg(r, "error",
				   err.msg[0] ? err.msg
					      : "model request failed");
		cJSON_Delete(msgs);
	} else {
		cJSON_AddItemToObject(pc__turn_event(r, "assistant"), "message",
				      cJSON_Duplicate(reply, 1));
		last = persist(r, msgs, tails, reply);
	}
	cJSON_Delete(reply);
	return last;
}

/* The request loop; returns true when the turn ended normally. */
static bool loop(struct pc__turn_run *r, const cJSON *defs)
{
	int max = r->o->max_requests > 0 ? r->o->max_requests : 25;

	for (int i = 0; i < max; i++) {
		const cJSON *reply = request(r, defs, i), *calls, *c;
		bool done = false;

		if (!reply)
			return false;
		calls = pc_serde_get(reply, "tool_calls");
		if (cJSON_GetArraySize(calls) == 0)
			return true;
		cJSON_ArrayForEach(c, calls)
		{
			if (!done)
				done = tool_call(r, c, defs);
		}
		if (done)
			return true;
	}
	pc__turn_event_msg(r, "error",
			   "plugcheck: the turn made too many model requests");
	return false;
}

int pc_turn_run(struct pc_turn *t, const struct pc_turn_opts *o,
		const char *text, struct pc_err *err)
{
	struct pc__turn_run r = { .t = t, .o = o };
	cJSON *defs, *e;
	struct pc_strvec log = PC_STRVEC_INIT;
	char *user;

	if (!o->host || !o->model)
		return pc_err_set(err, PC_EINVAL,
				  "turn needs a host and a model");
	if (!t->transcript)
		t->transcript = cJSON_CreateArray();
	if (!t->conversation)
		t->conversation = cJSON_CreateArray();
	/* run_turn's `model` is the client's pick for every turn; a pre_turn
	 * switch lasts one turn */
	free(t->model);
	t->model = pc_xstrdup(o->model_name ? o->model_name : "mock-model");
	r.ps = pc__turn_sorted(o, &r.n);
	t->completed = false;
	e = pc__turn_event(&r, "turn");
	cJSON_AddNumberToObject(e, "index", t->turns++);
	cJSON_AddStringToObject(e, "text", text);
	pc__turn_note_stale(t, o);
	defs = pc_turn_tool_defs(o, &log);
	for (size_t i = 0; i < log.nr; i++)
		pc__turn_log_line(&r, log.v[i]);
	pc_strvec_release(&log);
	lifecycle(&r, PC_HOOK_SESSION_START, NULL);
	user = pre_input(&r, text);
	if (user) {
		lifecycle(&r, PC_HOOK_TURN_START, NULL);
		if (cJSON_GetArraySize(t->conversation) == 0) {
			char *sp = pc__turn_system_prompt(o, r.ps, r.n);

			cJSON_AddItemToArray(
				t->conversation,
				pc__turn_text_message("system", sp));
			free(sp);
		}
		cJSON_AddItemToArray(t->conversation, user_message(&r, user));
		free(user);
		if (o->images > 0)
			vision(&r);
		if (o->compact) {
			lifecycle(&r, PC_HOOK_PRE_COMPACT, NULL);
			pc__turn_event(&r, "compaction");
		}
		t->completed = loop(&r, defs);
	}
	pc__turn_event(&r, "done");
	lifecycle(&r, PC_HOOK_TURN_END, NULL);
	lifecycle(&r, PC_HOOK_SESSION_STOP, NULL);
	cJSON_Delete(defs);
	free(r.ps);
	return 0;
}

void pc_turn_shutdown(struct pc_turn *t, const struct pc_turn_opts *o)
{
	struct pc__turn_run r = { .t = t, .o = o };

	if (!t->transcript)
		t->transcript = cJSON_CreateArray();
	r.ps = pc__turn_sorted(o, &r.n);
	lifecycle(&r, PC_HOOK_SESSION_SHUTDOWN, NULL);
	free(r.ps);
}

void pc_turn_release(struct pc_turn *t)
{
	cJSON_Delete(t->transcript);
	cJSON_Delete(t->conversation);
	free(t->model);
	*t = (struct pc_turn)PC_TURN_INIT;
}

cJSON *pc_turn_hook_list(const struct pc_turn *t)
{
	cJSON *out = cJSON_CreateArray();
	const cJSON *e;

	cJSON_ArrayForEach(e, t->transcript)
	{
		const cJSON *type = pc_serde_get(e, "type");
		const cJSON *tool = pc_serde_get(e, "tool");
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
		char *s;

		if (!cJSON_IsString(type) || strcmp(type->valuestring, "hook"))
			continue;
		pc_buf_addf(&b, "%s %s", pc_serde_get(e, "hook")->valuestring,
			    pc_serde_get(e, "plugin")->valuestring);
		if (tool)
			pc_buf_addf(&b, " %s", tool->valuestring);
		if (!strcmp(pc_serde_get(e, "verdict")->valuestring, "deny"))
			pc_buf_adds(&b, " deny");
		s = pc_buf_detach(&b, NULL);
		cJSON_AddItemToArray(out, cJSON_CreateString(s));
		free(s);
	}
	return out;
}

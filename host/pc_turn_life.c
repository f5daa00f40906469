/* pc_turn_life.c - what enable, disable, reload and plugin commands
 * change between turns (pc_turn.h; spec catalyst-code.md R1.13-R1.15,
 * R7.1, R7.2, R10.3, §11). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pc_fs.h"
#include "pc_manifest_impl.h"
#include "pc_registry.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

static cJSON *add_event(struct pc_turn *t, const char *type)
{
	cJSON *e = cJSON_CreateObject();

	if (!t->transcript)
		t->transcript = cJSON_CreateArray();
	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddItemToArray(t->transcript, e);
	return e;
}

static void add_message(struct pc_turn *t, const char *type, const char *msg)
{
	cJSON_AddStringToObject(add_event(t, type), "message", msg);
}

void pc_turn_rescan_release(struct pc_turn_rescan *rs)
{
	for (size_t i = 0; rs->plugins && i < rs->nplugins; i++)
		pc_plugin_free(rs->plugins[i]);
	free(rs->plugins);
	pc_strvec_release(&rs->skipped);
	pc_strvec_release(&rs->errors);
	pc_strvec_release(&rs->log);
	*rs = (struct pc_turn_rescan)PC_TURN_RESCAN_INIT;
}

static void skip_one(struct pc_turn_rescan *rs, const char *dir)
{
	char *name = pc_registry_loose_name(dir), *canon = pc_fs_realpath(dir);

	pc_strvec_push_nodup(&rs->log,
			     pc_registry_skip_line(name, canon ? canon : dir));
	pc_strvec_push_nodup(&rs->skipped, name);
	free(canon);
}

/* R1.5: keyed by manifest name, a later insert replaces the earlier. */
static void insert(struct pc_turn_rescan *rs, struct pc_plugin *p)
{
	for (size_t i = 0; i < rs->nplugins; i++)
		if (!strcmp(rs->plugins[i]->name, p->name)) {
			pc_plugin_free(rs->plugins[i]);
			rs->plugins[i] = p;
			return;
		}
	rs->plugins[rs->nplugins++] = p;
}

void pc_turn_rescan_dirs(char *const *dirs, size_t n,
			 const struct pc_manifest_env *menv, bool skip_all,
			 struct pc_turn_rescan *rs)
{
	static const struct pc_manifest_env no_env = { NULL, NULL };

	if (!menv)
		menv = &no_env;
	rs->plugins = pc_xcalloc(n + 1, sizeof(*rs->plugins));
	for (size_t i = 0; i < n; i++) {
		char *msg = NULL;
		struct pc_manifest_report rep = { .log = &rs->log,
						  .error = &msg };
		struct pc_plugin *p = NULL;

		if (!pc_registry_is_candidate(dirs[i]))
			continue; /* R1.4: not a candidate, no log */
		if (skip_all) {
			skip_one(rs, dirs[i]);
			continue;
		}
		if (pc_manifest_load_report(dirs[i], menv, &p, &rep, NULL) == 0)
			insert(rs, p);
		else
			pc_strvec_push_nodup(&rs->errors,
					     pc_manifest_load_error_line(dirs[i],
									 msg));
		free(msg);
	}
}

static struct pc_plugin *find(struct pc_plugin *const *ps, size_t n,
			      const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ps[i]->name, name))
			return ps[i];
	return NULL;
}

int pc_turn_set_enabled(struct pc_turn *t, const struct pc_turn_opts *o,
			const char *name, bool enabled, struct pc_err *err)
{
	struct pc_plugin *p = find(o->plugins, o->nplugins, name);
	cJSON *e;

	if (!p) {
		e = add_event(t, "plugin_error");
		cJSON_AddStringToObject(e, "name", name);
		pc_err_set(err, PC_ENOENT, "plugin '%s' not found", name);
		cJSON_AddStringToObject(e, "message", err->msg);
		return PC_ENOENT;
	}
	p->enabled = enabled; /* R1.13: in memory only */
	e = add_event(t, enabled ? "plugin_enabled" : "plugin_disabled");
	cJSON_AddStringToObject(e, "name", name);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_plugin(const void *a, const void *b)
{
	const struct pc_plugin *const *x = a, *const *y = b;

	return pc_serde_text_cmp((*x)->name, (*y)->name);
}

static cJSON *strings(char *const *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

/* !s.trim().is_empty(), with Rust's (Unicode) trim. */
static bool has_text(const char *s)
{
	size_t start;

	return s && pc_rust_trim(s, strlen(s), &start) > 0;
}

/* scope_of_path (plugins.rs): under the canonical workspace, by path
 * components, is "workspace"; anything else "global". */
static const char *scope_of(const struct pc_turn_opts *o,
			    const struct pc_plugin *p)
{
	char *ws = pc_fs_realpath(o->host->workspace);
	char *canon = pc_fs_realpath(p->source_path);
	bool in = pc__path_starts_with(canon ? canon : p->source_path,
				       ws ? ws : o->host->workspace);

	free(ws);
	free(canon);
	return in ? "workspace" : "global";
}

static cJSON *list_entry(const struct pc_turn_opts *o,
			 const struct pc_plugin *p)
{
	cJSON *e = cJSON_CreateObject();
	const char *hooks[PC_HOOK_COUNT];
	size_t nh = 0;
	char **tools = pc_xcalloc(p->ntools + 1, sizeof(*tools));
	char **cmds = pc_xcalloc(p->ncommands + 1, sizeof(*cmds));

	for (int i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			hooks[nh++] = pc_hook_point_name((enum pc_hook_point)i);
	qsort(hooks, nh, sizeof(*hooks), cmp_str);
	for (size_t i = 0; i < p->ntools; i++)
		tools[i] = p->tools[i].name;
	for (size_t i = 0; i < p->ncommands; i++)
		cmds[i] = p->commands[i].name;
	cJSON_AddItemToObject(e, "commands", strings(cmds, p->ncommands));
	cJSON_AddStringToObject(e, "description",
				p->description ? p->description : "");
	cJSON_AddItemToObject(e, "disable_tools",
			      strings(p->disable_tools.v, p->disable_tools.nr));
	cJSON_AddBoolToObject(e, "enabled", p->enabled);
	cJSON_AddBoolToObject(e, "has_memory_provider", p->memory != NULL);
	cJSON_AddBoolToObject(e, "has_oauth", p->oauth != NULL);
	cJSON_AddBoolToObject(e, "has_system_prompt",
			      has_text(p->system_prompt));
	cJSON_AddItemToObject(e, "hooks", strings((char *const *)hooks, nh));
	cJSON_AddStringToObject(e, "name", p->name);
	cJSON_AddStringToObject(e, "path", p->source_path);
	cJSON_AddStringToObject(e, "scope", scope_of(o, p));
	cJSON_AddItemToObject(e, "tools", strings(tools, p->ntools));
	cJSON_AddStringToObject(e, "version", p->version ? p->version : "");
	free(tools);
	free(cmds);
	return e;
}

cJSON *pc_turn_plugins_json(const struct pc_turn_opts *o)
{
	struct pc_plugin **v = pc_xcalloc(o->nplugins + 1, sizeof(*v));
	cJSON *a = cJSON_CreateArray();

	memcpy(v, o->plugins, o->nplugins * sizeof(*v));
	qsort(v, o->nplugins, sizeof(*v), cmp_plugin);
	for (size_t i = 0; i < o->nplugins; i++)
		cJSON_AddItemToArray(a, list_entry(o, v[i]));
	free(v);
	return a;
}

/* R7.1 command_definitions: enabled plugins in name order. */
static cJSON *commands_json(const struct pc_turn_opts *o)
{
	size_t n;
	struct pc_plugin **ps = pc__turn_sorted(o, &n);
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ps[i]->ncommands; k++) {
			const struct pc_command_cfg *c = &ps[i]->commands[k];
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "description",
						c->description ? c->description
							       : "");
			cJSON_AddStringToObject(e, "mode",
						c->agent_turn ? "agent_turn"
							      : "script");
			cJSON_AddStringToObject(e, "name", c->name);
			cJSON_AddStringToObject(e, "plugin", ps[i]->name);
			cJSON_AddItemToArray(a, e);
		}
	free(ps);
	return a;
}

/* refresh_memory_injection (main.rs): replace the persisted system
 * message only when the rebuilt prompt differs. */
static void refresh_prompt(struct pc_turn *t, const struct pc_turn_opts *o)
{
	cJSON *first = cJSON_GetArrayItem(t->conversation, 0);
	const cJSON *role = pc_serde_get(first, "role");
	const cJSON *content = pc_serde_get(first, "content");
	size_t n;
	struct pc_plugin **ps;
	char *sp;
	bool rebuilt = false;

	if (!first)
		return;
	ps = pc__turn_sorted(o, &n);
	sp = pc__turn_system_prompt(o, ps, n);
	if (cJSON_IsString(role) && !strcmp(role->valuestring, "system") &&
	    !(cJSON_IsString(content) && !strcmp(content->valuestring, sp))) {
		cJSON_DeleteItemFromObjectCaseSensitive(first, "content");
		cJSON_AddStringToObject(first, "content", sp);
		rebuilt = true;
	}
	cJSON_AddBoolToObject(add_event(t, "system_prompt"), "rebuilt",
			      rebuilt);
	free(sp);
	free(ps);
}

int pc_turn_reload(struct pc_turn *t, const struct pc_turn_opts *old,
		   struct pc_turn_rescan *rs, struct pc_err *err)
{
	struct pc_turn_opts now = *old;
	char *msg;

	if (!old->host)
		return pc_err_set(err, PC_EINVAL, "reload needs a host");
	for (size_t i = 0; i < old->nplugins; i++) {
		struct pc_plugin *p;

		if (old->plugins[i]->enabled)
			continue;
		p = find(rs->plugins, rs->nplugins, old->plugins[i]->name);
		if (p)
			p->enabled = false; /* R1.14: re-disabled by name */
	}
	for (size_t i = 0; i < rs->log.nr; i++)
		cJSON_AddStringToObject(add_event(t, "log"), "line",
					rs->log.v[i]);
	now.plugins = rs->plugins;
	now.nplugins = rs->nplugins;
	cJSON_AddItemToObject(add_event(t, "plugins_list"), "plugins",
			      pc_turn_plugins_json(&now));
	cJSON_AddItemToObject(add_event(t, "plugin_commands"), "commands",
			      commands_json(&now));
	msg = pc_xasprintf(
		"plugins reloaded: %zu loaded, %zu skipped, %zu errors",
		rs->nplugins, rs->skipped.nr, rs->errors.nr);
	add_message(t, "info", msg);
	free(msg);
	refresh_prompt(t, &now);
	return 0;
}

void pc__turn_note_stale(struct pc_turn *t, const struct pc_turn_opts *o)
{
	const cJSON *first = cJSON_GetArrayItem(t->conversation, 0);
	const cJSON *c = pc_serde_get(first, "content");

	if (!cJSON_IsString(c))
		return;
	for (size_t i = 0; i < o->nplugins; i++) {
		const struct pc_plugin *p = o->plugins[i];
		char *part = pc__turn_prompt_part(p), *msg = NULL;
		bool in = part && strstr(c->valuestring, part);
		cJSON *e;

		if (in && !p->enabled)
			msg = pc_xasprintf(
				"plugin '%s' is disabled, but the system prompt of this conversation still carries its system_prompt: the host rebuilds the prompt only for a new conversation, a plugin reload, a trust decision or a memory change, not when a plugin is disabled (R10.3)",
				p->name);
		else if (part && !in && p->enabled)
			msg = pc_xasprintf(
				"plugin '%s' is enabled, but its system_prompt is not in the system prompt of this conversation: enabling a plugin does not rebuild the prompt; the text arrives with a new conversation, a plugin reload, a trust decision or a memory change (R10.3)",
				p->name);
		free(part);
		if (!msg)
			continue;
		e = add_event(t, "stale_system_prompt");
		cJSON_AddStringToObject(e, "plugin", p->name);
		cJSON_AddBoolToObject(e, "enabled", p->enabled);
		cJSON_AddStringToObject(e, "message", msg);
		free(msg);
	}
}

/* R7.2 command_config: enabled plugins in name order, first match. */
static const struct pc_command_cfg *command_lookup(const struct pc_turn_opts *o,
						   const char *name,
						   struct pc_plugin **owner)
{
	size_t n;
	struct pc_plugin **ps = pc__turn_sorted(o, &n);
	const struct pc_command_cfg *found = NULL;

	if (name[0] == '/')
		name++;
	for (size_t i = 0; i < n && !found; i++)
		for (size_t k = 0; k < ps[i]->ncommands && !found; k++)
			if (!strcmp(ps[i]->commands[k].name, name)) {
				found = &ps[i]->commands[k];
				*owner = ps[i];
			}
	free(ps);
	return found;
}

static void take_events(struct pc_turn *t, struct pc_exchange *x)
{
	for (size_t i = 0; i < x->events.nr; i++) {
		cJSON *e = NULL;

		if (pc_serde_parse(x->events.v[i], strlen(x->events.v[i]), &e,
				   NULL) == 0)
			cJSON_AddItemToArray(t->transcript, e);
	}
	for (size_t i = 0; i < x->log.nr; i++)
		cJSON_AddStringToObject(add_event(t, "log"), "line",
					x->log.v[i]);
}

static void script_command(struct pc_turn *t, const struct pc_turn_opts *o,
			   struct pc_plugin *p, const struct pc_command_cfg *c,
			   const char *args)
{
	struct pc_call_result r = { 0 };
	struct pc_exchange x;
	struct pc_err err = PC_ERR_INIT;

	pc_exchange_init(&x);
	if (pc_host_run_command(o->host, p, c, args, &r, &x, &err) < 0) {
		add_message(t, "error", err.msg);
	} else {
		take_events(t, &x);
		add_message(t, r.ok ? "info" : "error",
			    r.output ? r.output : "");
	}
	pc_exchange_release(&x);
	pc_call_result_release(&r);
}

int pc_turn_command(struct pc_turn *t, const struct pc_turn_opts *o,
		    const char *name, const char *args, struct pc_err *err)
{
	struct pc_plugin *p = NULL;
	const struct pc_command_cfg *c = command_lookup(o, name, &p);
	struct pc_call_result r = { 0 };
	char *msg;

	if (!c) {
		pc_err_set(err, PC_ENOENT, "unknown plugin command '%s'", name);
		add_message(t, "error", err->msg);
		return PC_ENOENT;
	}
	if (!c->agent_turn) {
		script_command(t, o, p, c, args);
		return 0;
	}
	pc_host_render_prompt_sent(o->host, p, c, name, args, &r);
	/* the dispatcher shows the name as sent and the args unless blank */
	msg = r.ok ? pc_xasprintf("/%s%s%s \xe2\x80\x94 starting agent turn",
				  name, has_text(args) ? " " : "",
				  has_text(args) ? args : "")
		   : pc_xstrdup(r.output);
	add_message(t, r.ok ? "info" : "error", msg);
	free(msg);
	if (r.ok)
		pc_turn_run(t, o, r.output, err);
	pc_call_result_release(&r);
	return 0;
}

/* pc_runner.c - the steps of a scenario, scenarios into report cases,
 * and the worker pool for them (pc_pool.h). */
#include "pc_runner.h"

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
#include "pc_pool.h"
#include "pc_registry.h"
#include "pc_runner_impl.h"
#include "pc_sandbox.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

/* ---- steps ---- */

/* write_files - a `write` step or the host's `files`: beneath the
 * workspace, never through a symlink a plugin planted there, never into
 * a FIFO (pc_fs_beneath_write; issue 21). */
static int write_files(struct run *r, const cJSON *files)
{
	struct pc_err err = PC_ERR_INIT;

	for (const cJSON *k = files ? files->child : NULL; k; k = k->next) {
		char *text = pc__run_render(r, k->valuestring);
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

/* The plugin at `path` as the host loads it, once per scenario run
 * (borrowed; NULL with *error set when the host rejects it). */
static const struct pc_plugin *fire_plugin(struct run *r, const char *path,
					   const char **error)
{
	struct pc_manifest_env menv = { .home = r->home };
	struct pc_err err = PC_ERR_INIT;
	size_t i;

	for (i = 0; i < r->fire_paths.nr; i++)
		if (!strcmp(r->fire_paths.v[i], path))
			break;
	if (i == r->fire_paths.nr) {
		r->fire_plugins = pc_xreallocarray(r->fire_plugins, i + 1,
						   sizeof(*r->fire_plugins));
		r->fire_errors = pc_xreallocarray(r->fire_errors, i + 1,
						  sizeof(*r->fire_errors));
		r->fire_plugins[i] = NULL;
		r->fire_errors[i] = NULL;
		pc_strvec_push(&r->fire_paths, path);
		if (pc_manifest_load(path, &menv, &r->fire_plugins[i], &err) < 0)
			r->fire_errors[i] = pc_xstrdup(err.msg);
	}
	*error = r->fire_errors[i];
	return r->fire_plugins[i];
}

static void fire_plugins_release(struct run *r)
{
	for (size_t i = 0; i < r->fire_paths.nr; i++) {
		pc_plugin_free(r->fire_plugins[i]);
		free(r->fire_errors[i]);
	}
	free(r->fire_plugins);
	free(r->fire_errors);
	r->fire_plugins = NULL;
	r->fire_errors = NULL;
	pc_strvec_release(&r->fire_paths);
}

/* A fire step: its actual document is `plugcheck fire --format json`'s
 * (plus "verdict" for hooks). */
static bool run_fire(struct run *r, const struct pc_step *s, cJSON **doc_out)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_fire_input in = { .tool = s->tool };
	struct pc_err err = PC_ERR_INIT;
	const struct pc_plugin *p;
	const char *host_error;
	char *args = NULL, *result = NULL, *session;
	struct pc_host h;
	bool ok = false;
	cJSON *doc;

	if ((doc = scope_skip(r, s))) {
		*doc_out = doc;
		return true;
	}
	if (!(p = fire_plugin(r, s->plugin, &host_error))) {
		f.point = pc_xstrdup(s->point);
		f.path = pc_xstrdup(s->plugin);
		f.host_error = pc_xstrdup(host_error ? host_error : "");
		*doc_out = pc_fire_json(&f);
		pc_fire_release(&f);
		return true;
	}
	if ((s->input && !(args = pc__run_json_text(r, s->input))) ||
	    (s->result && !(result = pc__run_json_text(r, s->result))))
		goto out;
	in.args = args;
	in.result = result;
	if (pc_fire_resolve(p, s->point, false, &pt, &err)) {
		pc_buf_addf(&r->msg, "%s", err.msg);
		goto out;
	}
	session = pc_xasprintf("%s/.catalyst-code/sessions/s%u.jsonl", r->home,
			       r->nsession++);
	pc_host_init(&h, r->env.v, r->ws, session);
	pc_host_set_cwd(&h, r->ws);
	h.confine = r->o->sandbox ? &r->o->sandbox->confine : NULL;
	free(session);
	if (pc_fire_exchange(&h, p, &pt, &in, &f, &err) == 0) {
		pc_xchg_free(r->rec.x);
		r->rec.x = pc_fire_xchg(&f, r->o->sandbox != NULL);
		doc = pc_fire_json(&f);
		if (f.kind == PC_FIRE_HOOK)
			cJSON_AddStringToObject(doc, "verdict",
						f.hook.allow ? "allow" : "deny");
		*doc_out = doc;
		ok = true;
	} else {
		pc_buf_addf(&r->msg, "%s", err.msg);
	}
	pc_host_release(&h);
out:
	pc_fire_release(&f);
	pc_fire_point_release(&pt);
	free(args);
	free(result);
	return ok;
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
	pc_host_set_cwd(&r->host, r->ws); /* R5.4, as in fire steps */
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
	char *name = pc__run_render(r, s->turn.command), *args;
	int rc;

	if (!name)
		return PC_EINVAL;
	if (!(args = pc__run_render(r, s->turn.args))) {
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
	struct pc_turn_rec rec = PC_TURN_REC_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_mock *m = NULL;
	cJSON *script;
	char *text = NULL;
	int first, rc;

	if (!turn_setup(r))
		return false;
	if (s->turn.text && !(text = pc__run_render(r, s->turn.text)))
		return false;
	if (!(script = pc__run_render_json(r, s->turn.model))) {
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
	o.on_hook = pc_turn_rec_hook; /* the page's timeline */
	o.on_hook_ctx = &rec;
	first = cJSON_GetArraySize(r->turn.transcript);
	if (text)
		rc = pc_turn_run(&r->turn, &o, text, &err);
	else
		rc = run_command(r, s, &o, &err);
	pc_report_turn_marks(&r->rec, r->turn.transcript, (size_t)first, &rec);
	pc_turn_rec_release(&rec);
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


bool pc__run_step(struct run *r, const struct pc_step *s, cJSON **doc)
{
	bool ok = true;

	*doc = NULL;
	pc_buf_reset(&r->msg);
	r->step = s;
	r->expanded = 0;
	if (s->kind == PC_STEP_WRITE)
		return write_files(r, s->files) == 0;
	if (s->kind == PC_STEP_FILES)
		return pc__run_check_all(r, s, NULL);
	if (s->kind == PC_STEP_LIFE)
		ok = run_life(r, s, doc);
	else if (s->kind == PC_STEP_TURN)
		ok = run_turn(r, s, doc);
	else
		ok = run_fire(r, s, doc);
	if (ok) {
		ok = pc__run_check_all(r, s, *doc);
		pc__run_save_vars(r, s, *doc, &ok);
	}
	return ok;
}

int pc__run_seed(struct run *r)
{
	r->step = NULL;
	r->expanded = 0;
	return write_files(r, r->file->host.files);
}

void pc__run_teardown(struct run *r)
{
	turn_teardown(r);
	fire_plugins_release(r);
}

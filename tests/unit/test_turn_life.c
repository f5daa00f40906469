/* test_turn_life.c - the plugin lifecycle between turns (pc_turn_life.c):
 * enable/disable flip only the in-memory flag (R1.13), a disabled plugin
 * contributes nothing (R1.15), a reload keeps disabled names disabled and
 * refreshes the system prompt (R1.14, R10.3), and the stale system prompt
 * is noted (R10.3), with the host's exact event texts (§11). */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"
#include "test_util.h"

struct fx {
	char *root, *ws;
	struct pc_host host;
	struct pc_turn t;
	struct pc_turn_opts o;
	struct pc_plugin **ps;
	size_t n;
	char *dirs[3];
};

/* A plugin `name` under root with a turn_start hook, a tool `<name>_t`,
 * a script command `<name>_c`, disable_tools [glob] and a system_prompt
 * (omitted when `prompt` is NULL). Returns its directory (new). */
static char *mkplugin(const char *root, const char *name, const char *prompt)
{
	char *dir = pc_fs_join(root, name);
	char *mf = pc_fs_join(dir, "plugin.json");
	char *sh = pc_fs_join(dir, "hooks/ok.sh");
	char *sp = prompt ? pc_xasprintf(",\"system_prompt\":\"%s\"", prompt)
			  : pc_xstrdup("");
	char *json = pc_xasprintf(
		"{\"name\":\"%s\",\"version\":\"1.0\"%s,"
		"\"disable_tools\":[\"glob\"],"
		"\"hooks\":{\"turn_start\":{\"script\":\"hooks/ok.sh\"}},"
		"\"tools\":[{\"name\":\"%s_t\",\"description\":\"t\","
		"\"script\":\"hooks/ok.sh\"}],"
		"\"commands\":[{\"name\":\"%s_c\",\"description\":\"c\","
		"\"script\":\"hooks/ok.sh\"}]}",
		name, sp, name, name);

	tu_write_file(mf, json, 0644);
	tu_write_file(sh,
		   "#!/bin/sh\ncat >/dev/null\n"
		   "echo '{\"allow\":true,\"output\":\"ran\"}'\n",
		   0755);
	free(mf);
	free(sh);
	free(sp);
	free(json);
	return dir;
}

static int model(void *ctx, const cJSON *messages, const cJSON *tools,
		 cJSON **reply, struct pc_err *err)
{
	(void)ctx;
	(void)messages;
	(void)tools;
	(void)err;
	*reply = cJSON_CreateObject();
	cJSON_AddStringToObject(*reply, "role", "assistant");
	cJSON_AddStringToObject(*reply, "content", "ok");
	return 0;
}

static void load(struct fx *f)
{
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;

	pc_turn_rescan_dirs(f->dirs, 2, NULL, false, &rs);
	assert_int_equal(rs.nplugins, 2);
	f->ps = rs.plugins;
	f->n = rs.nplugins;
	rs.plugins = NULL;
	pc_turn_rescan_release(&rs);
	f->o.plugins = f->ps;
	f->o.nplugins = f->n;
}

static int setup(void **state)
{
	struct fx *f = pc_xcalloc(1, sizeof(*f));
	char *env[] = { "PATH=/usr/bin:/bin", NULL };

	f->root = pc_fs_mkdtemp("life");
	f->ws = pc_fs_join(f->root, "ws");
	pc_fs_mkdir_p(f->ws, NULL);
	f->dirs[0] = mkplugin(f->root, "alpha", "Speak French.");
	f->dirs[1] = mkplugin(f->root, "beta", NULL);
	f->host = (struct pc_host)PC_HOST_INIT;
	pc_host_init(&f->host, env, f->ws, "");
	f->t = (struct pc_turn)PC_TURN_INIT;
	f->o = (struct pc_turn_opts)PC_TURN_OPTS_INIT;
	f->o.host = &f->host;
	f->o.model = model;
	load(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pc_turn_release(&f->t);
	pc_host_release(&f->host);
	for (size_t i = 0; i < f->n; i++)
		pc_plugin_free(f->ps[i]);
	free(f->ps);
	pc_fs_rm_rf(f->root);
	free(f->root);
	free(f->ws);
	free(f->dirs[0]);
	free(f->dirs[1]);
	free(f);
	return 0;
}

static struct pc_plugin *plugin(struct fx *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->ps[i]->name, name))
			return f->ps[i];
	fail_msg("no plugin %s", name);
	return NULL;
}

static const cJSON *last_event(struct fx *f, const char *type)
{
	const cJSON *e, *found = NULL;

	cJSON_ArrayForEach(e, f->t.transcript)
	{
		if (!strcmp(pc_serde_get(e, "type")->valuestring, type))
			found = e;
	}
	return found;
}

static int count_events(struct fx *f, const char *type, int from)
{
	int n = 0, i = 0;
	const cJSON *e;

	cJSON_ArrayForEach(e, f->t.transcript)
	{
		if (i++ >= from &&
		    !strcmp(pc_serde_get(e, "type")->valuestring, type))
			n++;
	}
	return n;
}

static const char *prompt(struct fx *f)
{
	return pc_serde_get(cJSON_GetArrayItem(f->t.conversation, 0), "content")
		->valuestring;
}

static bool offers(struct fx *f, const char *tool)
{
	cJSON *defs = pc_turn_tool_defs(&f->o, NULL);
	const cJSON *d;
	bool found = false;

	cJSON_ArrayForEach(d, defs)
	{
		found = found ||
			!strcmp(pc_serde_get(pc_serde_get(d, "function"),
					     "name")
					->valuestring,
				tool);
	}
	cJSON_Delete(defs);
	return found;
}

/* R1.13: the flag flips in memory, with the host's events. */
static void disable_and_enable_emit_events(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(
		pc_turn_set_enabled(&f->t, &f->o, "alpha", false, &err), 0);
	assert_false(plugin(f, "alpha")->enabled);
	assert_string_equal(
		pc_serde_get(last_event(f, "plugin_disabled"), "name")
			->valuestring,
		"alpha");
	assert_int_equal(pc_turn_set_enabled(&f->t, &f->o, "alpha", true, &err),
			 0);
	assert_true(plugin(f, "alpha")->enabled);
	assert_non_null(last_event(f, "plugin_enabled"));
}

/* R1.13: an unknown name is "plugin '<name>' not found". */
static void unknown_name_is_plugin_error(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;
	const cJSON *e;

	assert_int_equal(
		pc_turn_set_enabled(&f->t, &f->o, "gamma", false, &err),
		PC_ENOENT);
	assert_string_equal(err.msg, "plugin 'gamma' not found");
	e = last_event(f, "plugin_error");
	assert_string_equal(pc_serde_get(e, "name")->valuestring, "gamma");
	assert_string_equal(pc_serde_get(e, "message")->valuestring,
			    "plugin 'gamma' not found");
}

/* R1.15: tools, disable_tools, hooks and commands go with the flag. */
static void disabled_plugin_contributes_nothing(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;
	int from;

	assert_true(offers(f, "alpha_t"));
	assert_false(offers(f, "glob")); /* both disable glob */
	pc_turn_set_enabled(&f->t, &f->o, "alpha", false, &err);
	assert_false(offers(f, "alpha_t"));
	assert_true(offers(f, "beta_t"));
	assert_false(offers(f, "glob")); /* beta still does */
	pc_turn_set_enabled(&f->t, &f->o, "beta", false, &err);
	assert_true(offers(f, "glob"));
	from = cJSON_GetArraySize(f->t.transcript);
	assert_int_equal(pc_turn_run(&f->t, &f->o, "hi", &err), 0);
	assert_int_equal(count_events(f, "hook", from), 0);
	assert_int_equal(pc_turn_command(&f->t, &f->o, "/alpha_c", "", &err),
			 PC_ENOENT);
	assert_string_equal(
		pc_serde_get(last_event(f, "error"), "message")->valuestring,
		"unknown plugin command '/alpha_c'");
	pc_turn_set_enabled(&f->t, &f->o, "alpha", true, &err);
	assert_int_equal(pc_turn_command(&f->t, &f->o, "/alpha_c", "", &err),
			 0);
	assert_string_equal(
		pc_serde_get(last_event(f, "info"), "message")->valuestring,
		"ran");
}

/* R10.3: a disable keeps the prompt, and each later turn notes it. */
static void disable_keeps_system_prompt(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;
	const cJSON *e;

	pc_turn_run(&f->t, &f->o, "one", &err);
	assert_non_null(
		strstr(prompt(f), "# Plugin: alpha (v1.0)\nSpeak French."));
	assert_int_equal(count_events(f, "stale_system_prompt", 0), 0);
	pc_turn_set_enabled(&f->t, &f->o, "alpha", false, &err);
	pc_turn_run(&f->t, &f->o, "two", &err);
	assert_non_null(strstr(prompt(f), "Speak French."));
	e = last_event(f, "stale_system_prompt");
	assert_non_null(e);
	assert_string_equal(pc_serde_get(e, "plugin")->valuestring, "alpha");
	assert_false(cJSON_IsTrue(pc_serde_get(e, "enabled")));
	pc_turn_run(&f->t, &f->o, "three", &err);
	assert_int_equal(count_events(f, "stale_system_prompt", 0), 2);
}

/* R1.14: disabled names stay disabled; the summary; the rebuild. */
static void reload_keeps_disabled_and_rebuilds(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;
	const cJSON *list;
	int from;

	pc_turn_run(&f->t, &f->o, "one", &err);
	pc_turn_set_enabled(&f->t, &f->o, "alpha", false, &err);
	pc_turn_rescan_dirs(f->dirs, 2, NULL, false, &rs);
	assert_int_equal(pc_turn_reload(&f->t, &f->o, &rs, &err), 0);
	for (size_t i = 0; i < f->n; i++)
		pc_plugin_free(f->ps[i]);
	free(f->ps);
	f->ps = rs.plugins;
	f->n = rs.nplugins;
	f->o.plugins = f->ps;
	f->o.nplugins = f->n;
	rs.plugins = NULL;
	pc_turn_rescan_release(&rs);
	assert_false(plugin(f, "alpha")->enabled);
	assert_true(plugin(f, "beta")->enabled);
	assert_string_equal(
		pc_serde_get(last_event(f, "info"), "message")->valuestring,
		"plugins reloaded: 2 loaded, 0 skipped, 0 errors");
	assert_true(cJSON_IsTrue(
		pc_serde_get(last_event(f, "system_prompt"), "rebuilt")));
	assert_null(strstr(prompt(f), "Speak French."));
	list = pc_serde_get(last_event(f, "plugins_list"), "plugins");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_string_equal(
		pc_serde_get(cJSON_GetArrayItem(list, 0), "name")->valuestring,
		"alpha");
	assert_true(cJSON_IsTrue(pc_serde_get(cJSON_GetArrayItem(list, 0),
					      "has_system_prompt")));
	/* only beta's command is offered */
	assert_int_equal(cJSON_GetArraySize(pc_serde_get(
				 last_event(f, "plugin_commands"), "commands")),
			 1);
	from = cJSON_GetArraySize(f->t.transcript);
	pc_turn_run(&f->t, &f->o, "two", &err);
	assert_int_equal(count_events(f, "stale_system_prompt", from), 0);
	/* enabling without a reload: the text is missing, and noted */
	pc_turn_set_enabled(&f->t, &f->o, "alpha", true, &err);
	pc_turn_run(&f->t, &f->o, "three", &err);
	assert_true(cJSON_IsTrue(
		pc_serde_get(last_event(f, "stale_system_prompt"), "enabled")));
}

/* R10.3: an unchanged prompt is kept; no conversation, no refresh. */
static void reload_keeps_an_unchanged_prompt(void **state)
{
	struct fx *f = *state;
	struct pc_err err = PC_ERR_INIT;
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;

	pc_turn_rescan_dirs(f->dirs, 2, NULL, false, &rs);
	pc_turn_reload(&f->t, &f->o, &rs, &err);
	assert_null(last_event(f, "system_prompt"));
	pc_turn_rescan_release(&rs);
	pc_turn_run(&f->t, &f->o, "one", &err);
	pc_turn_rescan_dirs(f->dirs, 2, NULL, false, &rs);
	pc_turn_reload(&f->t, &f->o, &rs, &err);
	assert_false(cJSON_IsTrue(
		pc_serde_get(last_event(f, "system_prompt"), "rebuilt")));
	pc_turn_rescan_release(&rs);
}

/* R1.4, R1.5, R1.11, R1.7.6: what a rescan finds. */
static void rescan_finds_what_the_host_finds(void **state)
{
	struct fx *f = *state;
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;
	char *bad = pc_fs_join(f->root, "broken");
	char *mf = pc_fs_join(bad, "plugin.json");
	char *gone = pc_fs_join(f->root, "gone");
	char *dup = pc_fs_join(f->root, "alpha2");
	char *dupmf = pc_fs_join(dup, "plugin.json");
	char *dirs[] = { f->dirs[0], bad, gone, dup };

	tu_write_file(mf,
		   "{\"name\":\"broken\",\"version\":\"1\",\"hooks\":"
		   "{\"pre_bash\":{\"script\":\"hooks/none.sh\"}}}",
		   0644);
	tu_write_file(dupmf, "{\"name\":\"alpha\",\"version\":\"2.0\"}", 0644);
	pc_turn_rescan_dirs(dirs, 4, NULL, false, &rs);
	assert_int_equal(rs.nplugins, 1);
	assert_string_equal(rs.plugins[0]->version, "2.0"); /* later wins */
	assert_int_equal(rs.errors.nr, 1);
	assert_int_equal(strncmp(rs.errors.v[0],
				 "failed to load plugin in \"broken\": ", 35),
			 0);
	assert_int_equal(strncmp(rs.log.v[0], "[plugins] failed to load", 24),
			 0);
	pc_turn_rescan_release(&rs);
	pc_turn_rescan_dirs(dirs, 4, NULL, true, &rs);
	assert_int_equal(rs.nplugins, 0);
	assert_int_equal(rs.skipped.nr, 3);
	assert_string_equal(rs.skipped.v[0], "alpha");
	assert_int_equal(
		strncmp(rs.log.v[0],
			"[plugins] skipping project-scoped plugin 'alpha' (in \"",
			54),
		0);
	pc_turn_rescan_release(&rs);
	free(bad);
	free(mf);
	free(gone);
	free(dup);
	free(dupmf);
}

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		FX(disable_and_enable_emit_events),
		FX(unknown_name_is_plugin_error),
		FX(disabled_plugin_contributes_nothing),
		FX(disable_keeps_system_prompt),
		FX(reload_keeps_disabled_and_rebuilds),
		FX(reload_keeps_an_unchanged_prompt),
		FX(rescan_finds_what_the_host_finds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

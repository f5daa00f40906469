/* test_fire.c - the one firing engine (pc_fire.h) against the self-exec
 * fake plugin (tests/helpers/fake_plugin): point syntax and resolution
 * errors, the host's default inputs at every point (R4.5, R4.6: a post
 * hook gets `result`, issue 15), tool, command and memory inputs (R6.1,
 * R7.3, R9.2), inputs that do not parse, and the script's working
 * directory, which is the host's (R5.4), under pc_fire_exchange and the
 * `fire` path (pc_fire_run) alike.
 *
 * Every script of the test plugins is a two-line sh wrapper that execs
 * the fake plugin in mode "cat-cwd": it echoes its stdin, then prints
 * "cwd=<getcwd()>". So the stdout the host captured shows both what the
 * host sent and where the script ran.
 */
#include <sys/stat.h>

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_xalloc.h"
#include "test_util.h"

struct fx {
	char *tmp; /* scratch: plugins, workspace, HOME, cwds */
	char *ws;  /* the workspace */
	char *home;
	char *all;	/* plugin "fp": every hook point, a tool, a command */
	char *mem;	/* plugin "fm": pre_bash only, a memory provider */
	char *env_home; /* "HOME=<home>" */
	struct pc_plugin *p_all, *p_mem;
	struct pc_host h;
};

/* A plugin directory `name` under fx->tmp with `manifest` and the script
 * hooks/run (the fake plugin in mode cat-cwd). */
static char *mkplugin(const struct fx *fx, const char *name,
		      const char *manifest)
{
	char *dir = pc_fs_join(fx->tmp, name);
	char *mf = pc_fs_join(dir, "plugin.json");
	char *sh = pc_fs_join(dir, "hooks/run");
	char *script =
		pc_xasprintf("#!/bin/sh\nexec '%s' cat-cwd\n", FAKE_PLUGIN);

	tu_write_file(mf, manifest, 0644);
	tu_write_file(sh, script, 0755);
	free(mf);
	free(sh);
	free(script);
	return dir;
}

static struct pc_plugin *load(const struct fx *fx, const char *dir)
{
	struct pc_manifest_env env = { fx->home, NULL };
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;

	if (pc_manifest_load(dir, &env, &p, &err))
		fail_msg("%s: %s", dir, err.msg);
	return p;
}

static char *all_hooks_manifest(void)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, "{\"name\":\"fp\",\"version\":\"1.0.0\",\"hooks\":{");
	for (int i = 0; i < PC_HOOK_COUNT; i++)
		pc_buf_addf(&b,
			    "%s\"%s\":{\"script\":\"hooks/run\","
			    "\"pass_args\":true}",
			    i ? "," : "",
			    pc_hook_point_name((enum pc_hook_point)i));
	pc_buf_adds(&b, "},\"tools\":[{\"name\":\"t\",\"description\":\"d\","
			"\"script\":\"hooks/run\"}],"
			"\"commands\":[{\"name\":\"c\",\"description\":\"d\","
			"\"script\":\"hooks/run\"}]}");
	return pc_buf_detach(&b, NULL);
}

static int setup(void **state)
{
	struct fx *fx = pc_xcalloc(1, sizeof(*fx));
	char *envp[3], *manifest = all_hooks_manifest();

	fx->tmp = pc_fs_mkdtemp("fire");
	assert_non_null(fx->tmp);
	fx->ws = pc_fs_join(fx->tmp, "ws");
	fx->home = pc_fs_join(fx->tmp, "home");
	assert_int_equal(pc_fs_mkdir_p(fx->ws, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(fx->home, NULL), 0);
	fx->all = mkplugin(fx, "fp", manifest);
	fx->mem =
		mkplugin(fx, "fm",
			 "{\"name\":\"fm\",\"version\":\"1.0.0\","
			 "\"hooks\":{\"pre_bash\":{\"script\":\"hooks/run\"}},"
			 "\"memory_provider\":{\"script\":\"hooks/run\"}}");
	free(manifest);
	fx->p_all = load(fx, fx->all);
	fx->p_mem = load(fx, fx->mem);
	fx->env_home = pc_xasprintf("HOME=%s", fx->home);
	envp[0] = (char *)"PATH=/usr/bin:/bin";
	envp[1] = fx->env_home;
	envp[2] = NULL;
	fx->h = (struct pc_host)PC_HOST_INIT;
	pc_host_init(&fx->h, envp, fx->ws, "/tmp/s/session.jsonl");
	pc_host_set_cwd(&fx->h, fx->ws);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_host_release(&fx->h);
	pc_plugin_free(fx->p_all);
	pc_plugin_free(fx->p_mem);
	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx->ws);
	free(fx->home);
	free(fx->all);
	free(fx->mem);
	free(fx->env_home);
	free(fx);
	return 0;
}

/* --- points ----------------------------------------------------------- */

static void expect_syntax_error(const char *point, const char *part)
{
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_fire_point_syntax(point, &err), PC_EUSAGE);
	if (!strstr(err.msg, part))
		fail_msg("'%s': '%s' does not say '%s'", point, err.msg, part);
}

static void point_syntax_errors_name_the_fix(void **state)
{
	static const char *const ok[] = {
		"pre_bash",    "post_tool",	 "session_shutdown",
		"tool:x",      "command:x",	 "command:/x",
		"oauth:login", "oauth:complete", "oauth:token",
		"oauth:clear", "oauth:code",	 "memory:anything"
	};
	struct pc_err err = PC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		if (pc_fire_point_syntax(ok[i], &err))
			fail_msg("'%s': %s", ok[i], err.msg);
	/* a typo: the nearest point, and all 18 */
	expect_syntax_error("pre_bsh", "'pre_bsh' is not a hook point (did "
				       "you mean 'pre_bash'?)");
	expect_syntax_error("post_raed", "(did you mean 'post_read'?)");
	expect_syntax_error("PRE_BASH", "(did you mean 'pre_bash'?)");
	expect_syntax_error(
		"pre_bsh",
		"the 18 points are pre_bash, pre_write, pre_read, post_bash, "
		"post_write, post_read, session_start, session_stop, "
		"pre_compact, pre_turn, pre_input, pre_agent_start, "
		"pre_context, turn_start, turn_end, session_shutdown, "
		"pre_tool, post_tool, or use tool:NAME");
	/* nothing near: no suggestion */
	expect_syntax_error("xyzzyxyzzy",
			    "'xyzzyxyzzy' is not a hook point, tool:NAME, "
			    "command:NAME, oauth:ACTION or memory:ACTION; the "
			    "18 points are pre_bash,");
	assert_int_equal(pc_fire_point_syntax("xyzzyxyzzy", &err), PC_EUSAGE);
	assert_null(strstr(err.msg, "did you mean"));
	expect_syntax_error("", "'' is not a hook point");
	expect_syntax_error("bogus:x", "'bogus:x': the kind before ':' must "
				       "be tool, command, oauth or memory");
	expect_syntax_error("tool:", "'tool:' names nothing after ':'");
	expect_syntax_error("command:/", "'command:/' names nothing after ':'");
	expect_syntax_error("memory:", "names nothing after ':'");
	expect_syntax_error("oauth:nope",
			    "'oauth:nope': the OAuth actions are login, "
			    "complete, token, clear");
}

/* A failed resolve names what is missing and leaves the point inert. */
static void expect_resolve_error(const struct pc_plugin *p, const char *point,
				 const char *want)
{
	struct pc_fire_point pt;
	struct pc_err err = PC_ERR_INIT;

	memset(&pt, 0x5a, sizeof(pt));
	assert_int_equal(pc_fire_resolve(p, point, false, &pt, &err),
			 PC_EUSAGE);
	assert_string_equal(err.msg, want);
	assert_null(pt.text);
	assert_null(pt.action);
	assert_null(pt.tool);
	assert_null(pt.command);
	assert_int_equal(pt.hook, -1);
}

static void resolve_errors_name_what_is_missing(void **state)
{
	static const struct {
		bool mem; /* plugin fm, else fp */
		const char *point, *msg;
	} t[] = {
		{ false, "tool:nope", "plugin 'fp' has no tool 'nope'" },
		{ true, "tool:t", "plugin 'fm' has no tool 't'" },
		{ false, "command:nope", "unknown plugin command 'nope'" },
		{ false, "command:/nope", "unknown plugin command '/nope'" },
		{ false, "memory:inject",
		  "plugin 'fp' declares no memory_provider" },
		{ false, "oauth:login",
		  "plugin 'fp' declares no oauth provider" },
		{ true, "post_read",
		  "plugin 'fm' registers no hook at 'post_read'" },
	};
	struct fx *fx = *state;

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		expect_resolve_error(t[i].mem ? fx->p_mem : fx->p_all,
				     t[i].point, t[i].msg);
}

/* A point that is not even well formed fails as pc_fire_point_syntax
 * does, whatever the plugin has. */
static void resolve_reports_syntax_first(void **state)
{
	struct fx *fx = *state;
	struct pc_fire_point pt;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(
		pc_fire_resolve(fx->p_all, "pre_bsh", false, &pt, &err),
		PC_EUSAGE);
	assert_non_null(strstr(err.msg, "(did you mean 'pre_bash'?)"));
	assert_null(pt.text);
}

static void resolve_finds_each_kind(void **state)
{
	struct fx *fx = *state;
	struct pc_fire_point pt;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(
		pc_fire_resolve(fx->p_all, "post_write", false, &pt, &err), 0);
	assert_int_equal(pt.kind, PC_FIRE_HOOK);
	assert_int_equal(pt.hook, PC_HOOK_POST_WRITE);
	assert_string_equal(pt.text, "post_write");
	pc_fire_point_release(&pt);
	assert_int_equal(pc_fire_resolve(fx->p_all, "tool:t", false, &pt, &err),
			 0);
	assert_int_equal(pt.kind, PC_FIRE_TOOL);
	assert_ptr_equal(pt.tool, &fx->p_all->tools[0]);
	pc_fire_point_release(&pt);
	/* one leading '/' of a command is ignored (R7.2) */
	assert_int_equal(
		pc_fire_resolve(fx->p_all, "command:/c", false, &pt, &err), 0);
	assert_int_equal(pt.kind, PC_FIRE_COMMAND);
	assert_ptr_equal(pt.command, &fx->p_all->commands[0]);
	assert_string_equal(pt.text, "command:/c");
	pc_fire_point_release(&pt);
	assert_int_equal(
		pc_fire_resolve(fx->p_mem, "memory:recall", false, &pt, &err),
		0);
	assert_int_equal(pt.kind, PC_FIRE_MEMORY);
	assert_string_equal(pt.action, "recall");
	pc_fire_point_release(&pt);
	assert_null(pt.text);
	assert_int_equal(pt.hook, -1);
}

/* --- exchanges ---------------------------------------------------------- */

/* What the fake plugin echoed: the stdin it read, parsed, and the
 * directory it ran in. */
struct seen {
	cJSON *stdin_json;
	char cwd[PATH_MAX];
};

static void parse_seen(const struct pc_fire *f, struct seen *s)
{
	const char *out = pc_buf_cstr(&f->x.proc.out);
	const char *at = strstr(out, "\ncwd=");
	size_t n;

	if (!at)
		fail_msg("no cwd= line in '%s'", out);
	/* the plugin got exactly what the host says it sent */
	assert_int_equal(at - out, f->x.stdin_json.len);
	assert_memory_equal(out, f->x.stdin_json.data, f->x.stdin_json.len);
	s->stdin_json = cJSON_ParseWithLength(out, (size_t)(at - out));
	assert_non_null(s->stdin_json);
	n = strcspn(at + 5, "\n");
	assert_true(n < sizeof(s->cwd));
	memcpy(s->cwd, at + 5, n);
	s->cwd[n] = '\0';
}

/* Fire `point` of `p` through fx's host with `in` (NULL: the defaults);
 * what the plugin saw goes to *s. */
static void fire_seen(struct fx *fx, const struct pc_plugin *p,
		      const char *point, const struct pc_fire_input *in,
		      struct seen *s)
{
	struct pc_fire_point pt;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;

	if (pc_fire_resolve(p, point, false, &pt, &err))
		fail_msg("%s: %s", point, err.msg);
	if (pc_fire_exchange(&fx->h, p, &pt, in, &f, &err))
		fail_msg("%s: %s", point, err.msg);
	assert_true(f.x.spawned);
	assert_string_equal(f.point, point);
	parse_seen(&f, s);
	pc_fire_release(&f);
	pc_fire_point_release(&pt);
}

static const cJSON *key(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The args the host sends at each point (R4.6), written from the spec:
 * the tool name and the keys of `args`, NULL for points that never get
 * args (lifecycle hooks, pre_agent_start). */
static const struct {
	const char *point, *tool;
	const char *keys[4];
} spec_args[] = {
	{ "pre_bash", "bash", { "command" } },
	{ "pre_write", "write_file", { "content", "path" } },
	{ "pre_read", "read_file", { "path" } },
	{ "post_bash", "bash", { "command" } },
	{ "post_write", "write_file", { "content", "path" } },
	{ "post_read", "read_file", { "path" } },
	{ "session_start", "", { NULL } },
	{ "session_stop",
	  "",
	  { "human_corrections", "session", "skill_utilization", "turn" } },
	{ "pre_compact", "", { NULL } },
	{ "pre_turn", "", { "has_images", "image_count", "model", "models" } },
	{ "pre_input", "", { "text" } },
	{ "pre_agent_start", "", { NULL } },
	{ "pre_context", "", { "messages" } },
	{ "turn_start", "", { NULL } },
	{ "turn_end", "", { NULL } },
	{ "session_shutdown", "", { NULL } },
	{ "pre_tool", "bash", { "command" } },
	{ "post_tool", "bash", { "command" } },
};

static bool is_post(const char *point)
{
	return !strncmp(point, "post_", 5);
}

/* With no input, every point gets the host's realistic defaults: the
 * base context (R4.5), the args of R4.6 (the hooks have pass_args), and
 * for the four post hooks the `result` object the host always adds
 * (R4.5; issue 15: `check` fired post hooks without it). */
static void defaults_at_every_hook_point(void **state)
{
	struct fx *fx = *state;

	assert_int_equal(sizeof(spec_args) / sizeof(*spec_args), PC_HOOK_COUNT);
	for (size_t i = 0; i < PC_HOOK_COUNT; i++) {
		const char *point = spec_args[i].point;
		const cJSON *args, *res;
		struct seen s;

		fire_seen(fx, fx->p_all, point, NULL, &s);
		assert_string_equal(key(s.stdin_json, "hook")->valuestring,
				    point);
		assert_string_equal(key(s.stdin_json, "tool")->valuestring,
				    spec_args[i].tool);
		assert_string_equal(key(s.stdin_json, "workspace")->valuestring,
				    fx->ws);
		assert_string_equal(
			key(s.stdin_json, "session_id")->valuestring,
			"/tmp/s/session.jsonl");
		assert_true(cJSON_IsNumber(key(s.stdin_json, "timestamp")));
		args = key(s.stdin_json, "args");
		if (!spec_args[i].keys[0]) {
			if (args)
				fail_msg("%s got args", point);
		} else {
			assert_true(cJSON_IsObject(args));
			for (size_t k = 0; k < 4 && spec_args[i].keys[k]; k++)
				if (!key(args, spec_args[i].keys[k]))
					fail_msg("%s: args without '%s'", point,
						 spec_args[i].keys[k]);
		}
		res = key(s.stdin_json, "result");
		if (is_post(point)) {
			if (!cJSON_IsObject(res))
				fail_msg("%s: no result object", point);
			assert_true(cJSON_IsTrue(key(res, "ok")));
			assert_true(cJSON_IsString(key(res, "output")));
			assert_true(cJSON_IsNull(key(res, "diff")));
		} else if (res) {
			fail_msg("%s got a result", point);
		}
		cJSON_Delete(s.stdin_json);
	}
}

/* What the caller gives replaces the defaults. */
static void inputs_replace_defaults(void **state)
{
	struct fx *fx = *state;
	struct pc_fire_input in = {
		.args = "{\"command\":\"ls -l\"}",
		.result = "{\"diff\":\"d\",\"ok\":false,\"output\":\"no\"}",
		.tool = "my_tool",
	};
	cJSON *aj = cJSON_Parse("{\"path\":\"x\"}");
	struct seen s;

	fire_seen(fx, fx->p_all, "post_tool", &in, &s);
	assert_string_equal(key(s.stdin_json, "tool")->valuestring, "my_tool");
	assert_string_equal(
		key(key(s.stdin_json, "args"), "command")->valuestring,
		"ls -l");
	assert_false(cJSON_IsTrue(key(key(s.stdin_json, "result"), "ok")));
	assert_string_equal(
		key(key(s.stdin_json, "result"), "diff")->valuestring, "d");
	cJSON_Delete(s.stdin_json);
	/* a JSON value instead of text; a pre hook never gets `result` */
	in = (struct pc_fire_input){ .args_json = aj, .result = "{}" };
	fire_seen(fx, fx->p_all, "pre_read", &in, &s);
	assert_string_equal(key(key(s.stdin_json, "args"), "path")->valuestring,
			    "x");
	assert_null(key(s.stdin_json, "result"));
	cJSON_Delete(s.stdin_json);
	cJSON_Delete(aj);
}

/* A tool gets {"args":{}} by default (R6.1), a command "" (R7.3), a
 * memory action {} (R9.2). */
static void tool_command_and_memory_defaults(void **state)
{
	struct fx *fx = *state;
	struct pc_fire_input in = { .args = "{\"n\":1}" };
	struct seen s;

	fire_seen(fx, fx->p_all, "tool:t", NULL, &s);
	assert_true(cJSON_IsObject(key(s.stdin_json, "args")));
	assert_null(key(s.stdin_json, "args")->child);
	assert_null(key(s.stdin_json, "tool"));
	cJSON_Delete(s.stdin_json);
	fire_seen(fx, fx->p_all, "tool:t", &in, &s);
	assert_int_equal(key(key(s.stdin_json, "args"), "n")->valueint, 1);
	cJSON_Delete(s.stdin_json);
	fire_seen(fx, fx->p_all, "command:c", NULL, &s);
	assert_string_equal(key(s.stdin_json, "args")->valuestring, "");
	assert_string_equal(key(s.stdin_json, "command")->valuestring, "c");
	assert_string_equal(key(s.stdin_json, "plugin")->valuestring, "fp");
	assert_string_equal(key(s.stdin_json, "session_id")->valuestring,
			    "session.jsonl");
	cJSON_Delete(s.stdin_json);
	in.args = "a b {";
	fire_seen(fx, fx->p_all, "command:/c", &in, &s);
	assert_string_equal(key(s.stdin_json, "args")->valuestring, "a b {");
	cJSON_Delete(s.stdin_json);
	fire_seen(fx, fx->p_mem, "memory:recall", NULL, &s);
	assert_string_equal(key(s.stdin_json, "action")->valuestring, "recall");
	assert_true(cJSON_IsObject(key(s.stdin_json, "args")));
	assert_null(key(s.stdin_json, "args")->child);
	cJSON_Delete(s.stdin_json);
}

static void expect_bad_input(struct fx *fx, const char *point,
			     const struct pc_fire_input *in, const char *want)
{
	struct pc_fire_point pt;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_fire_resolve(fx->p_all, point, false, &pt, &err),
			 0);
	assert_int_equal(pc_fire_exchange(&fx->h, fx->p_all, &pt, in, &f, &err),
			 PC_EUSAGE);
	if (strncmp(err.msg, want, strlen(want)))
		fail_msg("'%s' does not start with '%s'", err.msg, want);
	assert_false(f.x.spawned);
	assert_false(f.passed);
	pc_fire_release(&f);
	pc_fire_point_release(&pt);
}

static void input_that_does_not_parse_is_a_usage_error(void **state)
{
	struct fx *fx = *state;
	struct pc_fire_input in = { .args = "{\"command\":" };

	expect_bad_input(fx, "pre_bash", &in, "--args is not JSON: ");
	expect_bad_input(fx, "tool:t", &in, "--args is not JSON: ");
	in = (struct pc_fire_input){ .result = "{\"ok\":tru}" };
	expect_bad_input(fx, "post_bash", &in, "--result is not JSON: ");
	in = (struct pc_fire_input){ .args = "{} {}" };
	expect_bad_input(fx, "pre_bash", &in, "--args is not JSON: ");
}

/* --- the working directory ----------------------------------------------- */

static char *real(const char *path)
{
	char *r = pc_fs_realpath(path);

	assert_non_null(r);
	return r;
}

/* The script inherits the host's working directory (R5.4), whichever the
 * kind of entry point; the host never sets one of its own. */
static void script_runs_in_the_hosts_cwd(void **state)
{
	struct fx *fx = *state;
	char *a = pc_fs_join(fx->tmp, "cwd a"), *b = pc_fs_join(fx->tmp, "b");
	char *ra, *rb, *here = getcwd(NULL, 0);
	static const char *const points[] = { "pre_bash", "session_start",
					      "post_read", "tool:t",
					      "command:c" };
	struct seen s;

	assert_int_equal(pc_fs_mkdir_p(a, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(b, NULL), 0);
	ra = real(a);
	rb = real(b);
	for (size_t i = 0; i < sizeof(points) / sizeof(*points); i++) {
		pc_host_set_cwd(&fx->h, a);
		fire_seen(fx, fx->p_all, points[i], NULL, &s);
		assert_string_equal(s.cwd, ra);
		/* not the workspace: it goes on saying the workspace */
		assert_string_equal(key(s.stdin_json, "workspace")->valuestring,
				    fx->ws);
		cJSON_Delete(s.stdin_json);
		pc_host_set_cwd(&fx->h, b);
		fire_seen(fx, fx->p_all, points[i], NULL, &s);
		assert_string_equal(s.cwd, rb);
		cJSON_Delete(s.stdin_json);
	}
	fire_seen(fx, fx->p_mem, "memory:inject", NULL, &s);
	assert_string_equal(s.cwd, rb);
	cJSON_Delete(s.stdin_json);
	/* no cwd set: plugcheck's own */
	pc_host_set_cwd(&fx->h, NULL);
	fire_seen(fx, fx->p_all, "pre_bash", NULL, &s);
	assert_string_equal(s.cwd, here);
	cJSON_Delete(s.stdin_json);
	pc_host_set_cwd(&fx->h, fx->ws);
	free(a);
	free(b);
	free(ra);
	free(rb);
	free(here);
}

/* The `fire` path: the workspace is also the script's working directory,
 * and a post hook gets its result there too. */
static void fire_run_uses_the_workspace_as_cwd(void **state)
{
	struct fx *fx = *state;
	char *envp[] = { (char *)"PATH=/usr/bin:/bin", fx->env_home, NULL };
	struct pc_manifest_env menv = { fx->home, NULL };
	struct pc_fire_opts o = PC_FIRE_OPTS_INIT;
	struct pc_fire f = PC_FIRE_INIT;
	struct pc_err err = PC_ERR_INIT;
	char *ws = pc_fs_join(fx->tmp, "fire ws"), *rws;
	struct seen s;

	assert_int_equal(pc_fs_mkdir_p(ws, NULL), 0);
	rws = real(ws);
	o.point = "post_bash";
	o.path = fx->all;
	o.workspace = ws;
	o.session = "/tmp/s/fire.jsonl";
	o.envp = envp;
	o.menv = &menv;
	assert_int_equal(pc_fire_run(&o, &f, &err), 0);
	parse_seen(&f, &s);
	assert_string_equal(s.cwd, rws);
	assert_string_equal(key(s.stdin_json, "workspace")->valuestring, ws);
	assert_true(cJSON_IsObject(key(s.stdin_json, "result")));
	assert_string_equal(
		key(key(s.stdin_json, "args"), "command")->valuestring,
		"echo hello");
	cJSON_Delete(s.stdin_json);
	pc_fire_release(&f);
	/* a bad point and a plugin the host rejects */
	o.point = "pre_bsh";
	f = (struct pc_fire)PC_FIRE_INIT;
	assert_int_equal(pc_fire_run(&o, &f, &err), PC_EUSAGE);
	pc_fire_release(&f);
	o.point = "pre_bash";
	o.path = fx->tmp; /* no plugin.json */
	assert_int_equal(pc_fire_run(&o, &f, &err), PC_EMANIFEST);
	assert_non_null(f.host_error);
	pc_fire_release(&f);
	free(ws);
	free(rws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_syntax_errors_name_the_fix),
		cmocka_unit_test_setup_teardown(
			resolve_errors_name_what_is_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(resolve_reports_syntax_first,
						setup, teardown),
		cmocka_unit_test_setup_teardown(resolve_finds_each_kind, setup,
						teardown),
		cmocka_unit_test_setup_teardown(defaults_at_every_hook_point,
						setup, teardown),
		cmocka_unit_test_setup_teardown(inputs_replace_defaults, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			tool_command_and_memory_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(
			input_that_does_not_parse_is_a_usage_error, setup,
			teardown),
		cmocka_unit_test_setup_teardown(script_runs_in_the_hosts_cwd,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			fire_run_uses_the_workspace_as_cwd, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

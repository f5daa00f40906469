/* test_scaffold.c - scaffold/ (pc_scaffold.h) and the name and part checks
 * `plugcheck new`/`add` run before it (conformance/cli/cli_scaffold.c):
 * R2.5 plugin names, R2.8 reserved commands, R2.14/R2.15 built-in tool
 * names, R3.2 capabilities, ChatCLI names (M6, N1, N3), no overwriting
 * without force, and add's edits that keep every other manifest byte. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_buf.h"
#include "pc_cli_scaffold.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_scaffold.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

/* name check: 0, or -1 with a message that must contain `want` */
static void name_is(enum pc_scaffold_host host, const char *name, bool override,
		    const char *want)
{
	char *msg = NULL;
	int rc = pc_cli_scaffold_plugin_name(host, name, override, &msg);

	if (!want) {
		assert_int_equal(rc, 0);
		assert_null(msg);
		return;
	}
	assert_int_equal(rc, -1);
	assert_non_null(msg);
	assert_non_null(strstr(msg, want));
	free(msg);
}

static void catalyst_names_r2_5(void **state)
{
	(void)state;
	name_is(PC_SCAFFOLD_CATALYST, "", false, "plugin name is empty (R2.5)");
	name_is(PC_SCAFFOLD_CATALYST, ".", false, "path separator: \".\"");
	name_is(PC_SCAFFOLD_CATALYST, "..", false, "path separator");
	name_is(PC_SCAFFOLD_CATALYST, "a/b", false, "(R2.5)");
	name_is(PC_SCAFFOLD_CATALYST, "a\\b", false, "path separator");
	/* quoted wherever they are written, so allowed (issue 20) */
	name_is(PC_SCAFFOLD_CATALYST, "a\"b'c$(x)`y`;z %s", false, NULL);
	/* what neither the host nor the generated files can carry */
	name_is(PC_SCAFFOLD_CATALYST, "a\tb", false,
		"plugin name contains the control or line-break character U+0009: the name goes into one-line comments, messages and file names of the generated plugin; drop it");
	name_is(PC_SCAFFOLD_CATALYST, "a\nb", false, "U+000A");
	name_is(PC_SCAFFOLD_CATALYST, "a\x7f", false, "U+007F");
	name_is(PC_SCAFFOLD_CATALYST, "a\xc2\x85", false, "U+0085");
	name_is(PC_SCAFFOLD_CATALYST, "a\xe2\x80\xa8", false, "U+2028");
	name_is(PC_SCAFFOLD_CATALYST, "\xc2\xa0" "caf\xc3\xa9 \xf0\x9f\x94\x8c", false, NULL);
	name_is(PC_SCAFFOLD_CATALYST, "\xff\xfe", false,
		"plugin name \"\\xff\\xfe\" is not valid UTF-8: plugin.json must be UTF-8 JSON (R2.1), so the host would reject it; use a UTF-8 name");
	name_is(PC_SCAFFOLD_CATALYST, "ok\xc3", false, "is not valid UTF-8");
	/* R2.5 has no charset rule: spaces and dots are the host's business */
	name_is(PC_SCAFFOLD_CATALYST, "my plugin.v2", false, NULL);
	name_is(PC_SCAFFOLD_CATALYST, "...", false, NULL);
	name_is(PC_SCAFFOLD_CATALYST, "memory", false, NULL);
}

/* A file name has at most 255 bytes: 254 and 255 pass, 256 fails. */
static void catalyst_name_length(void **state)
{
	char name[PC_CLI_SCAFFOLD_NAME_MAX + 2];

	(void)state;
	for (size_t n = PC_CLI_SCAFFOLD_NAME_MAX - 1;
	     n <= PC_CLI_SCAFFOLD_NAME_MAX + 1; n++) {
		memset(name, 'n', n);
		name[n] = '\0';
		name_is(PC_SCAFFOLD_CATALYST, name, false,
			n <= PC_CLI_SCAFFOLD_NAME_MAX
				? NULL
				: "plugin name is 256 bytes: the host installs the plugin into a directory of that name (R2.5), and a file name has at most 255 bytes; shorten it");
	}
}

static void render_is(const char *text, const char *value, const char *want)
{
	const char *kv[] = { "PLUGIN", value, "PARTS", "{{PLUGIN}}", NULL };
	struct pc_err err = { 0 };
	char *out = NULL;

	assert_int_equal(pc__scaffold_render("t", text, kv, &out, &err), 0);
	assert_string_equal(out, want);
	free(out);
}

/* Every filter quotes for its spot (issue 20: no user string reaches
 * generated code unquoted). */
static void render_filters(void **state)
{
	const char *h = "a'b\"c$d`e%f*/g?\?=h\\i\tj";

	(void)state;
	render_is("{{PLUGIN|json}}", h, "a'b\\\"c$d`e%f*/g?\?=h\\\\i\\u0009j");
	render_is("x={{PLUGIN|sh}}", h, "x='a'\\''b\"c$d`e%f*/g?\?=h\\i\tj'");
	render_is("'{{PLUGIN|sq}}'", "it's", "'it'\\''s'");
	render_is("\"{{PLUGIN|dq}}\"", h, "\"a'b\\\"c\\$d\\`e%f*/g?\?=h\\\\i\tj\"");
	render_is("\"{{PLUGIN|py}}\"", h, "\"a\\'b\\\"c$d`e%f*/g?\?=h\\\\i\\x09j\"");
	render_is("\"{{PLUGIN|c}}\"", h, "\"a'b\\\"c$d`e%f*/g\\?\\?=h\\\\i\\011j\"");
	render_is("\"{{PLUGIN|c}}\"", "\xc3\xa9", "\"\\303\\251\"");
	render_is("{{PLUGIN|pct|c}}", "100%", "100%%");
	render_is("/* {{PLUGIN|ccmt}} */", h, "/* a'b\"c$d`e%f* /g? ?=h\\i?j */");
	render_is("# {{PLUGIN|cmt}}", "a\nb", "# a?b");
	render_is("{{PLUGIN|code}}", "a`b", "``a`b``");
	render_is("{{PLUGIN|code}}", "`a", "`` `a ``");
	render_is("{{PLUGIN|md}}", "a_b*c", "a\\_b\\*c");
	render_is("{{PLUGIN|json|sq}}", "it's \"x\"", "it'\\''s \\\"x\\\"");
	render_is("bin/{{PLUGIN|word}}", "my-tool_2.v1", "bin/my-tool_2.v1");
	/* one pass: a value's braces are never expanded again */
	render_is("{{PLUGIN|json}} {{PARTS}}", "{{PARTS}}", "{{PARTS}} {{PLUGIN}}");
	/* not ours: kept */
	render_is("{{args}} {{ vars.x }} {{OTHER|json}}", "x",
		  "{{args}} {{ vars.x }} {{OTHER|json}}");
}

static void render_fails(const char *text, const char *value, const char *want)
{
	const char *kv[] = { "PLUGIN", value, NULL };
	struct pc_err err = { 0 };
	char *out = NULL;

	assert_int_equal(pc__scaffold_render("catalyst/x.sh", text, kv, &out,
					     &err),
			 PC_EINVAL);
	assert_null(out);
	assert_string_equal(err.msg, want);
}

static void render_refuses_unquoted(void **state)
{
	(void)state;
	render_fails("echo {{PLUGIN}}", "x",
		     "template 'catalyst/x.sh': {{PLUGIN}} is written without a quoting filter (such as {{PLUGIN|json}})");
	render_fails("{{PLUGIN|nope}}", "x",
		     "template 'catalyst/x.sh': unknown filter in {{PLUGIN|nope}}");
	render_fails("all: bin/{{PLUGIN|word}}", "a b",
		     "'a b' cannot be written into catalyst/x.sh ({{PLUGIN|word}}): use letters, digits and _ - . only");
}

static void shell_word(void **state)
{
	char *w;

	(void)state;
	w = pc_scaffold_shell_word("./my-plugin");
	assert_string_equal(w, "./my-plugin");
	free(w);
	w = pc_scaffold_shell_word("it's here");
	assert_string_equal(w, "'it'\\''s here'");
	free(w);
	w = pc_scaffold_shell_word("");
	assert_string_equal(w, "''");
	free(w);
}

static void chatcli_names(void **state)
{
	(void)state;
	name_is(PC_SCAFFOLD_CHATCLI, "word-count_2", false, NULL);
	name_is(PC_SCAFFOLD_CHATCLI, "memory", false,
		"@memory is a ChatCLI builtin that the plugin would silently replace (D7, N1)");
	name_is(PC_SCAFFOLD_CHATCLI, "memory", true, NULL);
	name_is(PC_SCAFFOLD_CHATCLI, "coder", false, "builtin");
	name_is(PC_SCAFFOLD_CHATCLI, "mcp_x", false, "(M6)");
	name_is(PC_SCAFFOLD_CHATCLI, "mcpx", false, NULL);
	name_is(PC_SCAFFOLD_CHATCLI, "_x", false, "(N3)");
	name_is(PC_SCAFFOLD_CHATCLI, "a:b", false, "letters, digits");
	name_is(PC_SCAFFOLD_CHATCLI, "@x", false, "letters, digits");
	name_is(PC_SCAFFOLD_CHATCLI, "", false, "letters, digits");
}

static void part_fails(struct pc_cli_parts *ps, enum pc_scaffold_kind kind,
		       const char *name, const char *want)
{
	char *msg = NULL;
	size_t n = ps->n;

	assert_int_equal(pc_cli_scaffold_add_part(ps, kind, name, &msg), -1);
	assert_non_null(msg);
	assert_non_null(strstr(msg, want));
	assert_int_equal(ps->n, n);
	free(msg);
}

static void part_ok(struct pc_cli_parts *ps, enum pc_scaffold_kind kind,
		    const char *name)
{
	char *msg = NULL;

	assert_int_equal(pc_cli_scaffold_add_part(ps, kind, name, &msg), 0);
	assert_null(msg);
}

static void hooks_get_the_points_policy_r4_2(void **state)
{
	struct pc_cli_parts ps = { .n = 0 };

	(void)state;
	part_ok(&ps, PC_SCAFFOLD_HOOK, "pre_bash");
	assert_true(ps.v[0].blocking);
	assert_true(ps.v[0].pass_args);
	assert_int_equal(ps.v[0].timeout_ms,
			 pc_hook_default_timeout_ms(PC_HOOK_PRE_BASH));
	part_ok(&ps, PC_SCAFFOLD_HOOK, "turn_end");
	assert_false(ps.v[1].blocking);
	assert_false(ps.v[1].pass_args);
	part_ok(&ps, PC_SCAFFOLD_HOOK, "session_stop");
	assert_true(ps.v[2].pass_args);
	part_fails(&ps, PC_SCAFFOLD_HOOK, "pre_nothing", "not a hook point");
	part_fails(&ps, PC_SCAFFOLD_HOOK, "pre_bash",
		   "'pre_bash' is given twice");
}

static void commands_and_tools_r2_8_r2_15(void **state)
{
	struct pc_cli_parts ps = { .n = 0 };
	char *msg = NULL;

	(void)state;
	part_fails(&ps, PC_SCAFFOLD_COMMAND, "help",
		   "reserved builtin slash command (R2.8)");
	part_fails(&ps, PC_SCAFFOLD_COMMAND, "/login", "(R2.8)");
	part_ok(&ps, PC_SCAFFOLD_COMMAND, "/hello");
	assert_string_equal(ps.v[0].name, "hello");
	part_fails(&ps, PC_SCAFFOLD_TOOL, "a/b", "file name");
	part_fails(&ps, PC_SCAFFOLD_TOOL, "", "file name");
	part_ok(&ps, PC_SCAFFOLD_TOOL, "read_file");
	part_ok(&ps, PC_SCAFFOLD_TOOL, "lookup");
	part_ok(&ps, PC_SCAFFOLD_MEMORY, NULL);
	part_fails(&ps, PC_SCAFFOLD_MEMORY, NULL, "'--memory' is given twice");
	/* built-in tool names need --override, which then marks the tool */
	assert_int_equal(pc_cli_scaffold_check_tools(&ps, &msg), -1);
	assert_non_null(strstr(
		msg,
		"tool 'read_file' is a built-in tool name; the host would hide it (R2.15)"));
	free(msg);
	msg = NULL;
	ps.override = true;
	assert_int_equal(pc_cli_scaffold_check_tools(&ps, &msg), 0);
	assert_null(msg);
	assert_true(ps.v[1].override);
	assert_false(ps.v[2].override);
}

/* The part limit at N-1, N and N+1. */
static void at_most_64_parts(void **state)
{
	struct pc_cli_parts ps = { .n = 0 };
	char names[PC_CLI_SCAFFOLD_MAX_PARTS + 1][16];

	(void)state;
	for (int i = 0; i <= PC_CLI_SCAFFOLD_MAX_PARTS; i++)
		snprintf(names[i], sizeof(names[i]), "t%d", i);
	for (int i = 0; i < PC_CLI_SCAFFOLD_MAX_PARTS - 1; i++)
		part_ok(&ps, PC_SCAFFOLD_TOOL, names[i]);
	assert_int_equal(ps.n, PC_CLI_SCAFFOLD_MAX_PARTS - 1);
	part_ok(&ps, PC_SCAFFOLD_TOOL, names[PC_CLI_SCAFFOLD_MAX_PARTS - 1]);
	assert_int_equal(ps.n, PC_CLI_SCAFFOLD_MAX_PARTS);
	part_fails(&ps, PC_SCAFFOLD_TOOL, names[PC_CLI_SCAFFOLD_MAX_PARTS],
		   "too many parts (at most 64)");
}

static void capabilities_r3_2(void **state)
{
	const struct pc_scaffold_part parts[] = {
		{ .kind = PC_SCAFFOLD_HOOK,
		  .name = "pre_input",
		  .pass_args = true },
		{ .kind = PC_SCAFFOLD_COMMAND, .name = "ask", .prompt = true },
		{ .kind = PC_SCAFFOLD_TOOL, .name = "t", .readonly = true },
		{ .kind = PC_SCAFFOLD_OAUTH, .name = "acme" },
	};
	const char *want[] = { "access_network",     "access_secrets",
			       "execute_subprocess", "read_workspace",
			       "receive_prompts",    "receive_tool_arguments",
			       "register_commands",  "register_providers",
			       "register_tools" };
	struct pc_strvec caps = PC_STRVEC_INIT;

	(void)state;
	pc_scaffold_capabilities(parts, 4, &caps);
	assert_int_equal(caps.nr, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < caps.nr; i++)
		assert_string_equal(caps.v[i], want[i]);
	pc_strvec_release(&caps);
	/* a prompt command alone needs no subprocess */
	pc_scaffold_capabilities(&parts[1], 1, &caps);
	assert_int_equal(caps.nr, 1);
	assert_string_equal(caps.v[0], "register_commands");
	pc_strvec_release(&caps);
}

static char *slurp(const char *dir, const char *rel)
{
	char *p = pc_fs_join(dir, rel);
	struct pc_buf b = PC_BUF_INIT(1 << 20);

	assert_int_equal(pc_fs_read_capped(p, &b, NULL), 0);
	free(p);
	return pc_buf_detach(&b, NULL);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = pc_fs_join(dir, rel);

	assert_int_equal(pc_fs_write(p, text, strlen(text), NULL), 0);
	free(p);
}

static void new_never_overwrites_without_force(void **state)
{
	struct pc_scaffold_part part = {
		.kind = PC_SCAFFOLD_HOOK,
		.name = "pre_bash",
		.blocking = true,
		.pass_args = true,
		.timeout_ms = 5000,
	};
	struct pc_err err = PC_ERR_INIT;
	char *root = pc_fs_mkdtemp("scaffold"),
	     *tdir = pc_scaffold_templates_dir(&err);
	char *dir = pc_fs_join(root, "p"), *text;
	struct pc_scaffold_opts o = { .name = "p",
				      .dir = dir,
				      .lang = "sh",
				      .templates = tdir,
				      .parts = &part,
				      .nparts = 1 };
	struct pc_strvec w = PC_STRVEC_INIT;

	(void)state;
	assert_non_null(tdir);
	assert_int_equal(pc_scaffold_new(&o, &w, &err), 0);
	assert_int_equal(w.nr, 7);
	assert_string_equal(w.v[0], "hooks/pre_bash.sh");
	assert_string_equal(w.v[2], "plugin.json");
	pc_strvec_release(&w);
	put(dir, "hooks/pre_bash.sh", "mine\n");
	/* every target is checked before anything is written */
	assert_int_equal(pc_scaffold_new(&o, &w, &err), PC_EINVAL);
	assert_string_equal(
		err.msg,
		"'hooks/pre_bash.sh' already exists (use --force to overwrite it)");
	assert_int_equal(w.nr, 0);
	text = slurp(dir, "hooks/pre_bash.sh");
	assert_string_equal(text, "mine\n");
	free(text);
	o.force = true;
	assert_int_equal(pc_scaffold_new(&o, &w, &err), 0);
	text = slurp(dir, "hooks/pre_bash.sh");
	assert_string_not_equal(text, "mine\n");
	free(text);
	pc_strvec_release(&w);
	/* a ChatCLI plugin is one executable: no parts */
	o.host = PC_SCAFFOLD_CHATCLI;
	assert_int_equal(pc_scaffold_new(&o, &w, &err), PC_EINVAL);
	assert_int_equal(w.nr, 0);
	o.nparts = 0;
	o.force = false;
	o.lang = "c";
	free(dir);
	o.dir = dir = pc_fs_join(root, "chat");
	assert_int_equal(pc_scaffold_new(&o, &w, &err), 0);
	assert_int_equal(w.nr, 7);
	assert_string_equal(w.v[0], "src/p.c");
	assert_string_equal(w.v[1], "Makefile");
	assert_string_equal(w.v[2], "tests/run.sh");
	pc_strvec_release(&w);
	pc_fs_rm_rf(root);
	free(root);
	free(dir);
	free(tdir);
}

static const char manifest[] =
	"{\n"
	"    \"name\":   \"h\",\n"
	"    \"version\": \"1.2.3\",\n"
	"    \"capabilities\": [\"execute_subprocess\", \"receive_tool_arguments\"],\n"
	"    \"hooks\": {\n"
	"        \"pre_bash\": {\"script\": \"hooks/pre_bash.sh\", \"timeout_ms\": 4000, \"pass_args\": true}\n"
	"    },\n"
	"    \"x-extra\": {\"nested\": [1, 2, {\"a\": null}]}\n"
	"}\n";

static const char after_tool[] =
	"{\n"
	"    \"name\":   \"h\",\n"
	"    \"version\": \"1.2.3\",\n"
	"    \"capabilities\": [\"execute_subprocess\", \"read_workspace\", \"receive_tool_arguments\", \"register_tools\"],\n"
	"    \"hooks\": {\n"
	"        \"pre_bash\": {\"script\": \"hooks/pre_bash.sh\", \"timeout_ms\": 4000, \"pass_args\": true}\n"
	"    },\n"
	"    \"x-extra\": {\"nested\": [1, 2, {\"a\": null}]},\n"
	"    \"tools\": [ { \"name\": \"lookup\", \"description\": \"Describe what lookup does for the model.\", \"kind\": \"readonly\", \"parameters\": { \"type\": \"object\", \"properties\": { \"text\": { \"type\": \"string\", \"description\": \"Input text.\" } } }, \"script\": \"tools/lookup.sh\", \"timeout_ms\": 30000 } ]\n"
	"}\n";

static void add_keeps_every_other_byte(void **state)
{
	struct pc_scaffold_part tool = { .kind = PC_SCAFFOLD_TOOL,
					 .name = "lookup",
					 .readonly = true };
	struct pc_err err = PC_ERR_INIT;
	char *root = pc_fs_mkdtemp("scaffold"),
	     *tdir = pc_scaffold_templates_dir(&err);
	struct pc_scaffold_opts o = {
		.dir = root, .templates = tdir, .parts = &tool, .nparts = 1
	};
	struct pc_strvec w = PC_STRVEC_INIT;
	char *text;

	(void)state;
	assert_int_equal(pc_scaffold_add(&o, &w, &err), PC_ENOENT);
	assert_non_null(strstr(
		err.msg,
		"has no plugin.json: `plugcheck add` extends a Catalyst Code plugin directory"));
	assert_int_equal(w.nr, 0);
	put(root, "plugin.json", manifest);
	assert_int_equal(pc_scaffold_add(&o, &w, &err), 0);
	assert_int_equal(w.nr, 3);
	assert_string_equal(w.v[0], "tools/lookup.sh");
	assert_string_equal(w.v[2], "plugin.json");
	text = slurp(root, "plugin.json");
	assert_string_equal(text, after_tool);
	free(text);
	pc_strvec_release(&w);
	/* the same part again: refused, the manifest untouched */
	assert_int_equal(pc_scaffold_add(&o, &w, &err), PC_EINVAL);
	text = slurp(root, "plugin.json");
	assert_string_equal(text, after_tool);
	free(text);
	/* not a JSON object: refused, untouched */
	put(root, "plugin.json", "[1, 2]\n");
	tool.name = "other";
	assert_int_not_equal(pc_scaffold_add(&o, &w, &err), 0);
	text = slurp(root, "plugin.json");
	assert_string_equal(text, "[1, 2]\n");
	free(text);
	pc_strvec_release(&w);
	pc_fs_rm_rf(root);
	free(root);
	free(tdir);
}

/* add writes the lines it inserts or changes with the manifest's line
 * ending: CRLF when most line breaks are CRLF, else LF (a tie, a file
 * without any line break). Every other byte stays. */
#define HOOK "\"pre_bash\": { \"script\": \"hooks/pre_bash.sh\", \"timeout_ms\": 5000, \"pass_args\": true }"
#define CAPS "[\"execute_subprocess\", \"receive_tool_arguments\"]"
static const char *const eol_cases[][2] = {
	/* LF: unchanged behaviour */
	{ "{\n  \"name\": \"e\",\n  \"version\": \"1\",\n  \"capabilities\": [],\n  \"hooks\": {}\n}\n",
	  "{\n  \"name\": \"e\",\n  \"version\": \"1\",\n  \"capabilities\": " CAPS ",\n  \"hooks\": {\n    " HOOK "\n  }\n}\n" },
	/* CRLF: all CRLF afterwards */
	{ "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\r\n  \"capabilities\": [],\r\n  \"hooks\": {}\r\n}\r\n",
	  "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\r\n  \"capabilities\": " CAPS ",\r\n  \"hooks\": {\r\n    " HOOK "\r\n  }\r\n}\r\n" },
	/* mixed, 4 CRLF to 1 LF: new lines CRLF, the LF line kept */
	{ "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\n  \"hooks\": {}\r\n}\r\n",
	  "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\n  \"hooks\": {\r\n    " HOOK "\r\n  }\r\n}\r\n" },
	/* mixed, 2 to 2: LF */
	{ "{\r\n  \"name\": \"e\",\n  \"version\": \"1\",\r\n  \"hooks\": {}\n}",
	  "{\r\n  \"name\": \"e\",\n  \"version\": \"1\",\r\n  \"hooks\": {\n    " HOOK "\n  }\n}" },
	/* mostly LF: the rewritten capabilities array loses its CRLFs */
	{ "{\n  \"name\": \"e\",\n  \"version\": \"1\",\n  \"description\": \"x\",\n  \"capabilities\": [\r\n    \"execute_subprocess\"\r\n  ],\n  \"hooks\": {}\n}\n",
	  "{\n  \"name\": \"e\",\n  \"version\": \"1\",\n  \"description\": \"x\",\n  \"capabilities\": [\n    \"execute_subprocess\",\n    \"receive_tool_arguments\"\n  ],\n  \"hooks\": {\n    " HOOK "\n  }\n}\n" },
	/* no line break at all: LF */
	{ "{\"name\": \"e\", \"version\": \"1\", \"hooks\": {}}",
	  "{\"name\": \"e\", \"version\": \"1\", \"hooks\": {\n  " HOOK "\n}}" },
	/* CRLF, hooks present on one line and tools absent: nothing new
	 * needs a line break, the CRLFs stay */
	{ "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\r\n  \"hooks\": { \"turn_end\": { \"script\": \"t.sh\" } }\r\n}\r\n",
	  "{\r\n  \"name\": \"e\",\r\n  \"version\": \"1\",\r\n  \"hooks\": { \"turn_end\": { \"script\": \"t.sh\" }, " HOOK " }\r\n}\r\n" },
};

static void add_keeps_the_line_ending(void **state)
{
	struct pc_scaffold_part hook = { .kind = PC_SCAFFOLD_HOOK,
					 .name = "pre_bash",
					 .blocking = true,
					 .pass_args = true,
					 .timeout_ms = 5000 };
	struct pc_err err = PC_ERR_INIT;
	char *root = pc_fs_mkdtemp("scaffold"),
	     *tdir = pc_scaffold_templates_dir(&err);
	struct pc_scaffold_opts o = { .dir = root,
				      .templates = tdir,
				      .parts = &hook,
				      .nparts = 1,
				      .force = true };
	char *text;

	(void)state;
	for (size_t i = 0; i < sizeof(eol_cases) / sizeof(eol_cases[0]); i++) {
		struct pc_strvec w = PC_STRVEC_INIT;

		put(root, "plugin.json", eol_cases[i][0]);
		assert_int_equal(pc_scaffold_add(&o, &w, &err), 0);
		text = slurp(root, "plugin.json");
		if (strcmp(text, eol_cases[i][1]))
			fail_msg("case %zu:\n%s", i, text);
		free(text);
		pc_strvec_release(&w);
	}
	pc_fs_rm_rf(root);
	free(root);
	free(tdir);
}

/* pc_manifest_check_text judges plugin.json's text as the host does,
 * leaving out the file checks: a repeated top-level key is serde's
 * "duplicate field" (R2.4), missing capabilities are denied (R3.4), a tool
 * kind is readonly or destructive (§2.4), a ".." component escapes
 * (R2.9.1); a missing script is not its business (R2.9.3). */
static const char *const text_cases[][2] = {
	{ "{\"name\": \"d\", \"version\": \"1\", \"hooks\": {},\n \"hooks\": {}}",
	  "plugin.json parse error: duplicate field `hooks` at line 2 column 8" },
	{ "{\"name\": \"d\", \"version\": \"1\", \"capabilities\": [], \"tools\": [{\"name\": \"t\", \"script\": \"t.sh\"}]}",
	  "plugin is denied because its manifest is missing required capabilities: execute_subprocess, register_tools, write_workspace" },
	{ "{\"name\": \"d\", \"version\": \"1\", \"tools\": [{\"name\": \"t\", \"kind\": \"ro\", \"script\": \"t.sh\"}]}",
	  "tool 't' has invalid kind 'ro' (use 'readonly' or 'destructive')" },
	{ "{\"name\": \"d\", \"version\": \"1\", \"hooks\": {\"turn_end\": {\"script\": \"../t.sh\"}}}",
	  "hook script \"../t.sh\" escapes the plugin directory" },
	/* unknown keys are fine (R2.2); the missing t.sh is not looked at */
	{ "{\"name\": \"d\", \"version\": \"1\", \"x-unknown\": 1, \"tools\": [{\"name\": \"t\", \"script\": \"t.sh\"}]}",
	  NULL },
};

static void check_text_r2_4_r3_4(void **state)
{
	struct pc_manifest_env env = { 0 };
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin *p = NULL;
	char *root = pc_fs_mkdtemp("scaffold");

	(void)state;
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		put(root, "plugin.json", text_cases[i][0]);
		if (!text_cases[i][1]) {
			assert_int_equal(pc_manifest_check_text(root, &env, &err), 0);
			continue;
		}
		assert_int_equal(pc_manifest_check_text(root, &env, &err),
				 PC_EMANIFEST);
		assert_string_equal(err.msg, text_cases[i][1]);
	}
	/* the last case: the whole loader does look at the file */
	assert_int_equal(pc_manifest_load(root, &env, &p, &err), PC_EMANIFEST);
	assert_string_equal(err.msg, "script \"t.sh\" does not exist");
	assert_null(p);
	pc_fs_rm_rf(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(catalyst_names_r2_5),
		cmocka_unit_test(catalyst_name_length),
		cmocka_unit_test(render_filters),
		cmocka_unit_test(render_refuses_unquoted),
		cmocka_unit_test(shell_word),
		cmocka_unit_test(chatcli_names),
		cmocka_unit_test(hooks_get_the_points_policy_r4_2),
		cmocka_unit_test(commands_and_tools_r2_8_r2_15),
		cmocka_unit_test(at_most_64_parts),
		cmocka_unit_test(capabilities_r3_2),
		cmocka_unit_test(new_never_overwrites_without_force),
		cmocka_unit_test(add_keeps_every_other_byte),
		cmocka_unit_test(add_keeps_the_line_ending),
		cmocka_unit_test(check_text_r2_4_r3_4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

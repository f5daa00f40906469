/* cli_scaffold.c - name and part checks shared by `plugcheck new` and
 * `plugcheck add` (pc_cli_scaffold.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_cli_scaffold.h"
#include "pc_exit.h"
#include "pc_finding.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_rust.h"
#include "pc_xalloc.h"

static int fail(char **msg, char *text)
{
	*msg = text;
	return -1;
}

static bool carries_args(const char *point)
{
	static const char *const data[] = {
		"pre_bash",  "pre_write",   "pre_read",	 "pre_tool",
		"post_bash", "post_write",  "post_read", "post_tool",
		"pre_input", "pre_context", "pre_turn",	 "session_stop",
	};

	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		if (!strcmp(point, data[i]))
			return true;
	return false;
}

/* File-name-safe names: the generated paths embed them. */
static bool is_simple(const char *s)
{
	return pc_scaffold_only(s, PC_SCAFFOLD_ALNUM "_-");
}

static int chatcli_name(const char *name, bool override, char **msg)
{
	char *at;
	bool builtin;

	if (!is_simple(name))
		return fail(
			msg,
			pc_xasprintf(
				"plugin name '%s': use letters, digits, '_' and '-' only (it is the file name and the @name the model calls)",
				name));
	if (name[0] == '_')
		return fail(
			msg,
			pc_xasprintf(
				"plugin name '%s' starts with '_': ChatCLI hides it from remote users (N3); rename it",
				name));
	if (!strncmp(name, "mcp_", 4))
		return fail(
			msg,
			pc_xasprintf(
				"plugin name '%s' starts with mcp_: ChatCLI routes such calls to MCP, never to the plugin (M6); rename it",
				name));
	at = pc_xasprintf("@%s", name);
	builtin = pc_chatcli_is_builtin(at);
	free(at);
	if (builtin && !override)
		return fail(
			msg,
			pc_xasprintf(
				"plugin name '%s': @%s is a ChatCLI builtin that the plugin would silently replace (D7, N1): rename it, or pass --override",
				name, name));
	return 0;
}

/* The code point of the UTF-8 sequence at s (valid UTF-8), its length in
 * *len. */
static unsigned long code_point(const unsigned char *s, size_t *len)
{
	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	*len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	unsigned long c = s[0] & (0x3f >> (*len - 1));

	for (size_t i = 1; i < *len; i++)
		c = c << 6 | (s[i] & 0x3f);
	return c;
}

/* What the host and the generated files can carry: plugin.json is UTF-8
 * (R2.1); the host installs into a directory of that name (R2.5,
 * plugins.rs:1818), so at most NAME_MAX bytes; and the name lands in
 * one-line comments, messages and scenario names, so no control or line
 * break character. Everything else is quoted where it is written. */
static int carriable(const char *name, char **msg)
{
	size_t n = strlen(name), len;

	if (!pc_rust_is_utf8(name, n)) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (const unsigned char *p = (const unsigned char *)name; *p; p++)
			pc_buf_addf(&b, *p >= 0x20 && *p < 0x7f ? "%c" : "\\x%02x",
				    *p);
		fail(msg,
		     pc_xasprintf(
			     "plugin name \"%s\" is not valid UTF-8: plugin.json must be UTF-8 JSON (R2.1), so the host would reject it; use a UTF-8 name",
			     pc_buf_cstr(&b)));
		pc_buf_release(&b);
		return -1;
	}
	if (n > PC_CLI_SCAFFOLD_NAME_MAX)
		return fail(
			msg,
			pc_xasprintf(
				"plugin name is %zu bytes: the host installs the plugin into a directory of that name (R2.5), and a file name has at most %d bytes; shorten it",
				n, PC_CLI_SCAFFOLD_NAME_MAX));
	for (const unsigned char *p = (const unsigned char *)name; *p; p += len) {
		unsigned long c = code_point(p, &len);

		if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 ||
		    c == 0x2029)
			return fail(
				msg,
				pc_xasprintf(
					"plugin name contains the control or line-break character U+%04lX: the name goes into one-line comments, messages and file names of the generated plugin; drop it",
					c));
	}
	return 0;
}

int pc_cli_scaffold_plugin_name(enum pc_scaffold_host host, const char *name,
				bool override, char **msg)
{
	if (host == PC_SCAFFOLD_CHATCLI)
		return chatcli_name(name, override, msg);
	if (!*name)
		return fail(msg, pc_xstrdup("plugin name is empty (R2.5)"));
	if (!strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/') ||
	    strchr(name, '\\'))
		return fail(
			msg,
			pc_xasprintf(
				"plugin name contains a path separator: \"%s\" (R2.5): use a single directory name",
				name));
	return carriable(name, msg);
}

int pc_cli_scaffold_add_part(struct pc_cli_parts *ps,
			     enum pc_scaffold_kind kind, const char *name,
			     char **msg)
{
	struct pc_scaffold_part *p;
	int pt;

	if (ps->n == PC_CLI_SCAFFOLD_MAX_PARTS)
		return fail(msg, pc_xasprintf("too many parts (at most %d)",
					      PC_CLI_SCAFFOLD_MAX_PARTS));
	p = &ps->v[ps->n];
	*p = (struct pc_scaffold_part){ .kind = kind, .name = name };
	if (kind == PC_SCAFFOLD_HOOK) {
		pt = pc_hook_point_parse(name);
		if (pt < 0) {
			struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

			for (int i = 0; i < PC_HOOK_COUNT; i++)
				pc_buf_addf(&b, "%s%s", i ? ", " : "",
					    pc_hook_point_name((enum pc_hook_point)i));
			fail(msg, pc_xasprintf("'%s' is not a hook point; the %d are: %s",
					       name, PC_HOOK_COUNT,
					       pc_buf_cstr(&b)));
			pc_buf_release(&b);
			return -1;
		}
		p->blocking = pc_hook_is_blocking((enum pc_hook_point)pt);
		p->timeout_ms =
			pc_hook_default_timeout_ms((enum pc_hook_point)pt);
		p->pass_args = carries_args(name);
	} else if (kind == PC_SCAFFOLD_COMMAND) {
		if (*name == '/')
			p->name = ++name;
		if (pc_is_reserved_command(name))
			return fail(
				msg,
				pc_xasprintf(
					"command '%s' collides with a reserved builtin slash command (R2.8): rename it",
					name));
	}
	if (name && !is_simple(name))
		return fail(
			msg,
			pc_xasprintf(
				"'%s': use letters, digits, '_' and '-' only (the name becomes a file name)",
				name));
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].kind == kind &&
		    (!name || (ps->v[i].name && !strcmp(ps->v[i].name, name))))
			return fail(msg,
				    pc_xasprintf("'%s' is given twice",
						 name ? name : "--memory"));
	ps->n++;
	return 0;
}

int pc_cli_scaffold_check_tools(struct pc_cli_parts *ps, char **msg)
{
	for (size_t i = 0; i < ps->n; i++) {
		struct pc_scaffold_part *p = &ps->v[i];

		if (p->kind != PC_SCAFFOLD_TOOL || !pc_is_builtin_tool(p->name))
			continue;
		if (!ps->override)
			return fail(
				msg,
				pc_xasprintf(
					"tool '%s' is a built-in tool name; the host would hide it (R2.15): rename it, or pass --override to replace the built-in",
					p->name));
		p->override = true;
	}
	return 0;
}

/* Load the result with the host's loader: the declared capabilities must
 * be exactly the inferred ones. C plugins load only after `make`. */
static void verify(const char *dir)
{
	char *mk = pc_fs_join(dir, "Makefile");
	bool c = pc_fs_is_file(mk);

	struct pc_manifest_env env = { .home = getenv("HOME"),
				       .codex_home = getenv("CODEX_HOME") };
	struct pc_plugin *p = NULL;
	struct pc_err err = { 0 };

	free(mk);
	if (c)
		return;
	if (pc_manifest_load(dir, &env, &p, &err)) {
		fprintf(stderr,
			"plugcheck: warning: the host rejects '%s': %s\n", dir,
			err.msg);
		return;
	}
	if (p->required.nr != p->capabilities.nr)
		fprintf(stderr,
			"plugcheck: warning: '%s' declares capabilities the host does not require\n",
			dir);
	pc_plugin_free(p);
}

/* `add` edits a manifest only if the host accepts its text as it is
 * (pc_manifest_check_text); an edit cannot make a rejected manifest load,
 * so refuse before writing anything and report it as lint does
 * (PC-LOAD-001, R1.11). Script files are not judged: a C plugin before
 * `make` or a script still to write does not block add. */
static int refuse_rejected(const char *dir)
{
	const struct pc_rule *r = pc_rule_find("PC-LOAD-001");
	struct pc_manifest_env env = { .home = getenv("HOME"),
				       .codex_home = getenv("CODEX_HOME") };
	struct pc_err err = { 0 };
	char *mpath = pc_fs_join(dir, "plugin.json"), *line;
	int rc = 0;

	if (pc_fs_is_file(mpath) && pc_manifest_check_text(dir, &env, &err)) {
		/* the fix lint gives for this message (pc_load_fixes.c) */
		char *fix = pc_rule_load_fix(err.msg, NULL);

		line = pc_manifest_load_error_line(dir, err.msg);
		fprintf(stderr,
			"plugcheck: not adding to '%s': the host rejects it (%s [%s]): %s\n"
			"    fix: %s; nothing was written\n",
			mpath, r->id, r->spec, line, fix ? fix : r->fix);
		free(fix);
		free(line);
		rc = -1;
	}
	free(mpath);
	return rc;
}

int pc_cli_scaffold_run(struct pc_scaffold_opts *o, bool add)
{
	struct pc_strvec written = PC_STRVEC_INIT;
	struct pc_err err = { 0 };
	char *tdir;
	int rc;

	if (add && refuse_rejected(o->dir))
		return PC_EXIT_FINDINGS;
	tdir = pc_scaffold_templates_dir(&err);
	if (!tdir) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_FINDINGS;
	}
	o->templates = tdir;
	rc = add ? pc_scaffold_add(o, &written, &err)
		 : pc_scaffold_new(o, &written, &err);
	for (size_t i = 0; i < written.nr; i++)
		printf("  wrote %s/%s\n", o->dir, written.v[i]);
	if (rc)
		fprintf(stderr, "plugcheck: %s\n", err.msg);
	else if (o->host == PC_SCAFFOLD_CATALYST)
		verify(o->dir);
	pc_strvec_release(&written);
	free(tdir);
	o->templates = NULL;
	return rc ? PC_EXIT_FINDINGS : PC_EXIT_OK;
}

/* pc_manifest.c - the host's load_plugin_from_dir, check for check. */
#include "pc_manifest.h"

#include <sys/stat.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_manifest_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static const char *const hook_names[PC_HOOK_COUNT] = {
	"pre_bash",	   "pre_write",	      "pre_read",
	"post_bash",	   "post_write",      "post_read",
	"session_start",   "session_stop",    "pre_compact",
	"pre_turn",	   "pre_input",	      "pre_agent_start",
	"pre_context",	   "turn_start",      "turn_end",
	"session_shutdown", "pre_tool",	      "post_tool",
};

static const char *const reserved_commands[] = {
	"help",		 "new",		   "abort",	     "login",
	"logout",	 "models",	   "plugin-install", "plugin-list",
	"plugin-enable", "plugin-disable", "plugin-remove",  "plugin-reload",
	"plugin-config", "stats",	   "sessions",	     "clear",
	"reset",	 "undo",	   "compact",	     "memory",
	"remember",	 "forget",	   "reflect",	     "index",
	"goal",		 "cancel-goal",	   "run",	     "parallel",
	"chain",	 "subagents",	   "vision",	     "context",
	"usage",	 "skill",
};

static const char *const builtin_tools[] = {
	"subagent", "contact_supervisor", "intercom", "read_file", "edit",
	"write_file", "delete", "rename", "mkdir", "list_dir", "grep", "glob",
	"bash", "bulk", "bulk_read", "bulk_write", "bulk_edit", "todo_write",
	"todo_read", "goal_write_plan", "finish", "patch", "diagnostics",
	"fetch", "web_search", "git_status", "git_diff", "git_log",
	"workspace_activity", "git_add", "git_commit", "memory", "knowledge",
	"collections", "spawn", "ask", "load_tools", "test_env",
	"browser_create", "browser_close", "browser_list_sessions",
	"browser_navigate", "browser_back", "browser_reload",
	"browser_snapshot", "browser_find", "browser_click", "browser_fill",
	"browser_type", "browser_press", "browser_scroll", "browser_wait",
	"browser_evaluate", "browser_screenshot", "browser_show",
	"browser_hide",
};

static const char *const capabilities[] = {
	"read_workspace",	   "write_workspace",
	"execute_subprocess",	   "access_network",
	"receive_prompts",	   "receive_tool_arguments",
	"receive_model_responses", "access_secrets",
	"register_tools",	   "register_commands",
	"register_providers",	   "register_memory_backend",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

const char *pc_hook_point_name(enum pc_hook_point p)
{
	return (unsigned)p < PC_HOOK_COUNT ? hook_names[p] : "";
}

int pc_hook_point_parse(const char *name)
{
	for (int i = 0; i < PC_HOOK_COUNT; i++)
		if (!strcmp(hook_names[i], name))
			return i;
	return -1;
}

bool pc_hook_is_blocking(enum pc_hook_point p)
{
	return p == PC_HOOK_PRE_BASH || p == PC_HOOK_PRE_WRITE ||
	       p == PC_HOOK_PRE_READ || p == PC_HOOK_PRE_TOOL ||
	       p == PC_HOOK_PRE_INPUT;
}

uint64_t pc_hook_default_timeout_ms(enum pc_hook_point p)
{
	return pc_hook_is_blocking(p) ? PC_DEFAULT_PRE_TIMEOUT_MS
				      : PC_DEFAULT_POST_TIMEOUT_MS;
}

bool pc_is_reserved_command(const char *name)
{
	return in_list(reserved_commands, COUNT(reserved_commands), name);
}

bool pc_is_builtin_tool(const char *name)
{
	return in_list(builtin_tools, COUNT(builtin_tools), name);
}

bool pc_is_capability(const char *name)
{
	return in_list(capabilities, COUNT(capabilities), name);
}

const char *pc__jstr(const cJSON *o, const char *k)
{
	const cJSON *v = pc_serde_get(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

uint64_t pc__ju64(const cJSON *o, const char *k, uint64_t def)
{
	const cJSON *v = pc_serde_get(o, k);

	if (!cJSON_IsNumber(v))
		return def;
	return v->valuestring ? strtoull(v->valuestring, NULL, 10)
			      : (uint64_t)v->valuedouble;
}

/* ---- Rust std::path semantics ---- */

/* Split `p` into Rust Path components: "/" for RootDir, "." only when
 * leading (CurDir), ".." (ParentDir), empty and interior "." dropped. */
void pc__path_components(const char *p, struct pc_strvec *out)
{
	const char *s = p;
	bool first = true;

	if (*s == '/') {
		pc_strvec_push(out, "/");
		while (*s == '/')
			s++;
		first = false;
	}
	while (*s) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n && !(n == 1 && s[0] == '.' && !first))
			pc_strvec_push_nodup(out, pc_xmemdup(s, n));
		first = false;
		s += n;
		while (*s == '/')
			s++;
	}
}

bool pc__path_has_parent(const char *p)
{
	struct pc_strvec c = PC_STRVEC_INIT;
	bool found = false;

	pc__path_components(p, &c);
	for (size_t i = 0; i < c.nr; i++)
		if (!strcmp(c.v[i], ".."))
			found = true;
	pc_strvec_release(&c);
	return found;
}

bool pc__path_starts_with(const char *path, const char *base)
{
	struct pc_strvec a = PC_STRVEC_INIT, b = PC_STRVEC_INIT;
	bool ok;

	pc__path_components(path, &a);
	pc__path_components(base, &b);
	ok = b.nr <= a.nr;
	for (size_t i = 0; ok && i < b.nr; i++)
		ok = !strcmp(a.v[i], b.v[i]);
	pc_strvec_release(&a);
	pc_strvec_release(&b);
	return ok;
}

char *pc__path_join(const char *base, const char *rel)
{
	if (rel[0] == '/' || !base[0])
		return pc_xstrdup(rel);
	return pc_fs_join(base, rel);
}

int pc__mfail(struct pc_buf *e, const char *fmt, ...)
{
	va_list ap;

	pc_buf_reset(e);
	va_start(ap, fmt);
	pc_buf_vaddf(e, fmt, ap);
	va_end(ap);
	return PC_EMANIFEST;
}

/* Rust: "<prefix> <{:?} of rel> <what>" (rel a str: ' is not escaped) */
static int script_error(struct pc_buf *e, const char *prefix,
			const char *rel, const char *what)
{
	struct pc_buf q = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_rust_debug_text(&q, rel);
	pc__mfail(e, "%s %s %s", prefix, pc_buf_cstr(&q), what);
	pc_buf_release(&q);
	return PC_EMANIFEST;
}

/* A manifest path holding U+0000 (stored as C0 80): Rust cannot hand it
 * to the OS, so canonicalize fails (the joined path is kept) and
 * exists()/metadata() are false - whatever a file named with the bytes
 * C0 80 may exist. */
static bool has_nul(const char *text)
{
	return strstr(text, "\xc0\x80") != NULL;
}

/* The confinement steps shared by scripts and prompt files (R2.9 steps
 * 1-3, R2.12): no ".." component, the canonical path (or the joined one
 * when it cannot be resolved) inside the plugin, and stat() succeeding.
 * On success *canon is new; on failure the error names `prefix` and
 * `missing` is the text for a failed stat(). */
static int confine(const char *canon_dir, const char *rel, const char *prefix,
		   const char *missing, char **canon, struct stat *st,
		   struct pc_buf *e)
{
	char *abs;

	*canon = NULL;
	if (pc__path_has_parent(rel))
		return script_error(e, prefix, rel,
				    "escapes the plugin directory");
	abs = pc__path_join(canon_dir, rel);
	*canon = has_nul(rel) ? NULL : pc_fs_realpath(abs);
	if (!*canon)
		*canon = pc_xstrdup(abs);
	free(abs);
	if (!pc__path_starts_with(*canon, canon_dir)) {
		free(*canon);
		*canon = NULL;
		return script_error(e, prefix, rel,
				    "escapes the plugin directory");
	}
	if (has_nul(rel) || stat(*canon, st) < 0) {
		free(*canon);
		*canon = NULL;
		return script_error(e, prefix, rel, missing);
	}
	return 0;
}

/* canon_dir NULL (pc_manifest_check_text): only the lexical step 1 of
 * R2.9; *out is a copy of rel. */
static int lexical_only(const char *rel, const char *prefix, char **out,
			struct pc_buf *e)
{
	*out = NULL;
	if (pc__path_has_parent(rel))
		return script_error(e, prefix, rel,
				    "escapes the plugin directory");
	*out = pc_xstrdup(rel);
	return 0;
}

int pc__validate_script(const char *canon_dir, const char *rel,
			const char *prefix, char **out, struct pc_buf *e)
{
	struct stat st;
	int rc;

	if (!canon_dir)
		return lexical_only(rel, prefix, out, e);
	rc = confine(canon_dir, rel, prefix, "does not exist", out, &st, e);
	if (rc)
		return rc;
	if (!(st.st_mode & 0111)) {
		free(*out);
		*out = NULL;
		return script_error(e, prefix, rel,
				    "is not executable (try chmod +x)");
	}
	return 0;
}

int pc__validate_prompt_file(const char *canon_dir, const char *rel,
			     char **out, struct pc_buf *e)
{
	const char *why = NULL;
	struct stat st;
	int rc;

	*out = NULL;
	if (rel[0] == '/')
		return script_error(e, "prompt_file", rel,
				    "must be relative to the plugin directory");
	if (!canon_dir)
		return lexical_only(rel, "prompt_file", out, e);
	rc = confine(canon_dir, rel, "prompt_file",
		     "does not exist or is unreadable", out, &st, e);
	if (rc)
		return rc;
	if (!S_ISREG(st.st_mode))
		why = "is not a regular file";
	else if ((unsigned long long)st.st_size > PC_MAX_PROMPT_BYTES)
		why = "exceeds the 262144 byte limit";
	if (!why)
		return 0;
	free(*out);
	*out = NULL;
	return script_error(e, "prompt_file", rel, why);
}

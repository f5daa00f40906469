/* pc_manifest.h - load one Catalyst Code plugin directory exactly as the
 * host's load_plugin_from_dir does (spec catalyst-code.md §2, §3).
 *
 * pc_manifest_load() reads <dir>/plugin.json, decodes it with serde
 * derive's semantics (pc_serde_decode), and runs the host's checks in the
 * host's order (R2.9 load order): name (R2.5) -> protocol version and
 * capabilities (R2.6, R3.x) -> hooks (R2.3, R2.9-R2.11) -> tools (R2.4) ->
 * commands (R2.7, R2.8, R2.12) -> oauth (§2.7) -> memory_provider (§2.6).
 * The first failure is returned with the host's byte-identical message.
 *
 * Ownership: a loaded struct pc_plugin is heap-allocated and owned by the
 * caller, freed with pc_plugin_free(). Every string in it is owned by it.
 * Nothing here runs a plugin script, prints or exits.
 */
#ifndef PC_MANIFEST_H
#define PC_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_strvec.h"

/* The 18 hook points in the host's HOOK_POINTS order (R4.1). */
enum pc_hook_point {
	PC_HOOK_PRE_BASH,
	PC_HOOK_PRE_WRITE,
	PC_HOOK_PRE_READ,
	PC_HOOK_POST_BASH,
	PC_HOOK_POST_WRITE,
	PC_HOOK_POST_READ,
	PC_HOOK_SESSION_START,
	PC_HOOK_SESSION_STOP,
	PC_HOOK_PRE_COMPACT,
	PC_HOOK_PRE_TURN,
	PC_HOOK_PRE_INPUT,
	PC_HOOK_PRE_AGENT_START,
	PC_HOOK_PRE_CONTEXT,
	PC_HOOK_TURN_START,
	PC_HOOK_TURN_END,
	PC_HOOK_SESSION_SHUTDOWN,
	PC_HOOK_PRE_TOOL,
	PC_HOOK_POST_TOOL,
	PC_HOOK_COUNT
};

#define PC_MAX_IO_BYTES 1048576u	   /* R5.7, R5.8 */
#define PC_MAX_PROMPT_BYTES 262144u	   /* R2.12, R7.5 */
#define PC_DEFAULT_PRE_TIMEOUT_MS 5000u	   /* R4.2 */
#define PC_DEFAULT_POST_TIMEOUT_MS 30000u  /* R4.2, R5.11 */

struct pc_hook_cfg {
	bool present;
	char *script;	  /* canonical absolute path */
	char *script_rel; /* as declared */
	uint64_t timeout_ms;
	bool pass_args;
	bool timeout_declared;
};

struct pc_tool_cfg {
	char *name;
	char *description;
	cJSON *parameters; /* object; non-objects replaced (§2.4) */
	bool parameters_replaced;
	char *script;
	char *script_rel;
	uint64_t timeout_ms;
	bool readonly; /* kind "readonly"; else destructive */
	bool override_builtin;
};

struct pc_command_cfg {
	char *name;	   /* trimmed, one leading '/' stripped */
	char *description;
	bool agent_turn;   /* prompt-backed (mode agent_turn) */
	char *script;	   /* canonical, Script mode */
	char *prompt_file; /* canonical, AgentTurn mode */
	uint64_t timeout_ms;
};

struct pc_oauth_cfg {
	char *provider_id, *label, *kind, *base_url, *description;
	cJSON *headers;	  /* [[k,v],...] */
	char *token_path; /* absolute (or HOME-less relative) */
	char *detect_path; /* NULL when not declared */
	char *script;	   /* the shared "*" script, or NULL */
	char *login_script, *complete_script, *token_script; /* or NULL */
	uint64_t login_timeout_ms, token_timeout_ms;
	struct pc_strvec env_passthrough;
};

struct pc_memory_cfg {
	char *script;
	uint64_t timeout_ms;
};

struct pc_plugin {
	char *name, *version, *description, *system_prompt;
	uint32_t protocol_version;
	bool capabilities_declared;
	struct pc_strvec capabilities; /* effective list, sorted (R3.3, R3.4) */
	struct pc_strvec required;     /* inferred required set, sorted */
	struct pc_hook_cfg hooks[PC_HOOK_COUNT];
	struct pc_tool_cfg *tools;
	size_t ntools;
	struct pc_command_cfg *commands;
	size_t ncommands;
	struct pc_strvec disable_tools;
	struct pc_oauth_cfg *oauth;   /* NULL when absent */
	struct pc_memory_cfg *memory; /* NULL when absent */
	char *dir;		      /* the directory as given */
	char *source_path;	      /* canonical directory (R1.6) */
	bool enabled;
	cJSON *manifest;	      /* decoded manifest (pc_serde_decode) */
	struct pc_strvec log;	      /* host stderr lines written while loading
					 (R1.12 unknown hook point) */
	struct pc_strvec at;	      /* private to the loader: the member of
					 plugin.json being checked, as
					 pc_manifest_report.error_at says */
};

/* Host facts the loader reads from the environment: HOME for token and
 * detect paths (§2.7, R8.9), CODEX_HOME. NULL fields mean unset. */
struct pc_manifest_env {
	const char *home;
	const char *codex_home;
};

/* pc_manifest_load - load the plugin in `dir` as the host does.
 * On success stores a new plugin in *out (free with pc_plugin_free) and
 * returns 0. On rejection returns PC_EMANIFEST with the host's exact error
 * (e.g. `hook script "hooks/x.sh" does not exist`) in err->msg and *out
 * NULL (err->msg keeps at most 1023 bytes of it: pc_manifest_load_report
 * gives the whole text); the host then logs `[plugins] failed to load
 * plugin in "<dir name>": <msg>` (pc_manifest_load_error_line). Strings
 * taken from plugin.json, in *out and in messages, are host text in the
 * stored form of pc_serde.h (a "\u0000" is the bytes C0 80). Borrows dir
 * and env. */
int pc_manifest_load(const char *dir, const struct pc_manifest_env *env,
		     struct pc_plugin **out, struct pc_err *err);

/* What a load says beyond its verdict (pc_manifest_load_report); each
 * pointer may be NULL. */
struct pc_manifest_report {
	/* gets the host's stderr lines of this load appended, in its order
	 * (spec R1.11, R1.12): every "[plugins] unknown hook point ..." line
	 * of the hooks it went through - also when a later entry then fails
	 * - and, on a rejection, the "[plugins] failed to load plugin in
	 * \"<dir name>\": <msg>" line last */
	struct pc_strvec *log;
	/* on a rejection, set to the host's whole error text (new string,
	 * caller frees; err->msg holds at most 1023 bytes of it), else NULL */
	char **error;
	/* on a rejection, gets the member of plugin.json the error is about
	 * appended, as steps from the top-level object for pc_json_locate
	 * (pc_locate.h): object keys, "#N" for element N of an array - e.g.
	 * "tools" "#2" "kind" for `tool 't' has invalid kind ...`, "hooks"
	 * "pre_bash" "script" for a hook script error, "commands" "#0" for a
	 * command with neither script nor prompt_file; nothing when the
	 * error is not about one member (cannot read, a parse error: its
	 * serde message carries the line and column). For messages and
	 * report locations only; what the host accepts does not depend on
	 * it. */
	struct pc_strvec *error_at;
	/* set to plugin.json's bytes as the host read them (a new
	 * NUL-terminated string, caller frees; *text_len, when text_len is
	 * not NULL, gets their length), or NULL when it could not read
	 * them: a report locates its findings in the text the host judged,
	 * without reading the file a second time */
	char **text;
	size_t *text_len;
};

/* pc_manifest_load_report - pc_manifest_load that also fills what `rep`
 * asks for (NULL: nothing). Same returns and ownership. */
int pc_manifest_load_report(const char *dir, const struct pc_manifest_env *env,
			    struct pc_plugin **out,
			    const struct pc_manifest_report *rep,
			    struct pc_err *err);

/* pc_manifest_check_text - pc_manifest_load judging plugin.json's text
 * only: read and UTF-8 (R2.1), serde decoding (R2.1-R2.4: syntax, types,
 * explicit null, a repeated field such as two top-level "hooks" is
 * "duplicate field"; unknown keys are fine, R2.2), name (R2.5), protocol
 * version and capabilities (R2.6, R3.4), then every entry's own rules in
 * the host's order (§2.9 load order: e.g. an empty tool name, a tool kind
 * other than readonly/destructive, a reserved command, a command with both
 * or neither of script and prompt_file, R2.7, R2.8, §2.7, §2.6). Of the
 * script and prompt file checks only the text ones run (a ".." component,
 * R2.9.1; an absolute prompt_file, R2.12): whether a file exists, stays
 * inside the plugin after symlinks, is executable or small enough is not
 * looked at, so an unbuilt C plugin passes. Returns 0 or PC_EMANIFEST with
 * the host's message for the first text-level error in err->msg (the
 * host itself may stop earlier, at a file error this skips). Borrows dir and env. */
int pc_manifest_check_text(const char *dir, const struct pc_manifest_env *env,
			   struct pc_err *err);

/* pc_plugin_free - free `p` and everything it owns; NULL is a no-op. */
void pc_plugin_free(struct pc_plugin *p);

/* pc_manifest_load_error_line - new string holding the host's R1.11 log
 * line for a load error of the plugin in `dir`: `failed to load plugin in
 * "<basename>": <msg>` (without the "[plugins] " prefix). Caller frees. */
char *pc_manifest_load_error_line(const char *dir, const char *msg);

/* pc_hook_point_name - the host's name of `p` ("pre_bash", ...). */
const char *pc_hook_point_name(enum pc_hook_point p);
/* pc_hook_point_parse - the point named `name`, or -1. */
int pc_hook_point_parse(const char *name);
/* pc_hook_is_blocking - true for the Deny-mode hooks of R4.2. */
bool pc_hook_is_blocking(enum pc_hook_point p);
/* pc_hook_default_timeout_ms - R4.2's default timeout of `p`, in ms. */
uint64_t pc_hook_default_timeout_ms(enum pc_hook_point p);

/* pc_is_reserved_command - `name` is in RESERVED_COMMAND_NAMES (R2.8). */
bool pc_is_reserved_command(const char *name);
/* pc_is_builtin_tool - `name` is one of the host's 56 built-in tool
 * names (R2.14). */
bool pc_is_builtin_tool(const char *name);
/* pc_is_capability - `name` is one of the 12 capabilities (R3.1). */
bool pc_is_capability(const char *name);

#endif

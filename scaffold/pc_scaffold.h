/* pc_scaffold.h - render plugin templates into a new or existing plugin
 * directory (`plugcheck new`, `plugcheck add`).
 *
 * Caller protocol:
 *   1. pc_scaffold_templates_dir() finds the template tree: beside the
 *      running binary first (PC_SCAFFOLD_RELATIVE_TEMPLATES, e.g.
 *      ../share/plugcheck/templates from bin/, so an installed tree works
 *      wherever it was put), then the source tree this binary was built
 *      from (PC_SCAFFOLD_SOURCE_TEMPLATES), then the configured install
 *      path (PC_SCAFFOLD_INSTALL_TEMPLATES).
 *   2. Fill a struct pc_scaffold_opts with the parts to generate. The
 *      caller has already checked names against the host's rules (R2.5,
 *      R2.8, R2.14) and filled each hook part's policy facts (R4.2).
 *   3. pc_scaffold_new() writes a whole plugin; pc_scaffold_add() adds one
 *      part to an existing one, editing plugin.json surgically (only the
 *      spans it changes; every other byte stays as it was).
 *
 * Neither function overwrites an existing file unless opts->force is set;
 * both check every target path before writing anything. The manifest's
 * `capabilities` is computed by pc_scaffold_capabilities() with R3.2's
 * rules. Templates are data files (scaffold/templates/catalyst/...):
 * `{{KEY}}` placeholders in upper case are replaced, anything else (such
 * as the host's `{{args}}` or a scenario's `{{ vars.x }}`) is kept.
 *
 * Library code: never prints, never exits, never runs a process.
 */
#ifndef PC_SCAFFOLD_H
#define PC_SCAFFOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pc_err.h"
#include "pc_strvec.h"

enum pc_scaffold_kind {
	PC_SCAFFOLD_HOOK,
	PC_SCAFFOLD_TOOL,
	PC_SCAFFOLD_COMMAND,
	PC_SCAFFOLD_OAUTH,
	PC_SCAFFOLD_MEMORY,
};

/* One generated part. All pointers are borrowed. */
struct pc_scaffold_part {
	enum pc_scaffold_kind kind;
	/* hook point, tool name, command name or OAuth provider id; NULL for
	 * the memory provider */
	const char *name;
	bool blocking;	     /* hooks: Deny-mode point (R4.2) */
	bool pass_args;	     /* hooks: the point carries data (R4.6) */
	uint64_t timeout_ms; /* hooks: the point's default timeout (R4.2) */
	bool readonly;	     /* tools: kind "readonly" */
	bool prompt;	     /* commands: prompt_file instead of a script */
	bool override;	     /* tools: "override": true (a built-in name) */
};

/* Which host's plugin to write. */
enum pc_scaffold_host {
	PC_SCAFFOLD_CATALYST, /* a Catalyst Code plugin directory (default) */
	PC_SCAFFOLD_CHATCLI,  /* a ChatCLI executable plugin (chatcli.md) */
};

struct pc_scaffold_opts {
	enum pc_scaffold_host host;
	const char *name;      /* plugin name (manifest "name"; ChatCLI:
				* the file name, registered as "@name") */
	const char *dir;       /* target directory, created if missing */
	const char *lang;      /* "sh", "python" or "c" */
	const char *templates; /* from pc_scaffold_templates_dir() */
	const struct pc_scaffold_part *parts;
	size_t nparts;
	bool system_prompt; /* add a "system_prompt" */
	bool force;	    /* overwrite existing files */
};

/* pc_scaffold_templates_dir - the template root (the folder holding
 * `catalyst/`), looked for in the order of the caller protocol above.
 * Returns a new string (caller frees), or NULL with PC_ENOENT in err
 * naming every place looked at and the fix. */
char *pc_scaffold_templates_dir(struct pc_err *err);

/* Letters and digits, for pc_scaffold_only sets. */
#define PC_SCAFFOLD_ALNUM \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* pc_scaffold_only - `s` is not empty and every byte of it is in `set`. */
bool pc_scaffold_only(const char *s, const char *set);

/* pc_scaffold_shell_word - `s` as one POSIX shell word: as it is when it
 * holds only letters, digits and _ . / @ % + = : , -, else in single
 * quotes (a ' written as '\''). Returns a new string (caller frees). */
char *pc_scaffold_shell_word(const char *s);

/* pc_scaffold_capabilities - the capabilities the host infers (R3.2) for
 * a manifest holding exactly `parts`, sorted and unique, appended to
 * *out (which the caller owns). A system prompt implies nothing. */
void pc_scaffold_capabilities(const struct pc_scaffold_part *parts,
			      size_t nparts, struct pc_strvec *out);

/* pc_scaffold_new - write a plugin into o->dir.
 *
 * Catalyst Code (o->host PC_SCAFFOLD_CATALYST): plugin.json, one script
 * per part, tests/<part>.plugcheck.yaml per part, README.md, .gitignore,
 * .github/workflows/plugcheck.yml, .gitlab-ci.yml and (lang c) a Makefile
 * with src/. OAuth scripts write their token atomically under a lock
 * (R8.11); memory providers answer inject, save, list, forget,
 * compact_append and the model's memory-tool actions (R9.3, R9.5).
 *
 * ChatCLI (PC_SCAFFOLD_CHATCLI; o->nparts must be 0): bin/NAME (sh or
 * python; for c src/NAME.c and a Makefile building bin/NAME) answering
 * --metadata (M3, M4) and --schema in the argsFormat/subcommands shape the
 * host renders (S4), parsing the argv forms of A7 and A8; tests/run.sh
 * (signs a copy with a throwaway key, then `plugcheck check --strict` and
 * `plugcheck fire call`, G1-G5); README.md with keygen/sign/trust steps;
 * CI files that run tests/run.sh and sign with a release key secret.
 *
 * Appends every path written (relative to o->dir) to *written.
 * Returns 0; PC_EINVAL (an existing file without force, a bad language,
 * parts given for ChatCLI), PC_ENOENT (missing template) or PC_EIO (errno
 * in err). Nothing is written when a check fails. */
int pc_scaffold_new(const struct pc_scaffold_opts *o, struct pc_strvec *written,
		    struct pc_err *err);

/* pc_scaffold_add - add o->parts[0] (a hook, tool or command) to the
 * plugin in o->dir: its script, its scenario file, and its entry in
 * plugin.json plus any capability it implies (only when the manifest
 * declares "capabilities"). o->name is ignored (read from plugin.json);
 * o->lang NULL means: c when a Makefile exists, python when the manifest
 * names a .py script, else sh. Returns 0, PC_ENOENT when o->dir has no
 * plugin.json, PC_EPARSE when plugin.json is not a JSON object, PC_EINVAL
 * when the part already exists, or the errors of pc_scaffold_new. The
 * plugin.json is rewritten only after every other file was written; the
 * lines it inserts or rewrites get the file's line ending (CRLF when more
 * line breaks are CRLF than bare LF, else LF). Whether the host accepts
 * the manifest is the caller's check (pc_manifest_check_text, R1.11). */
int pc_scaffold_add(const struct pc_scaffold_opts *o, struct pc_strvec *written,
		    struct pc_err *err);

#endif

/* pc_lint.h - plugcheck's static checks: what the host will do to a
 * plugin without running any of its scripts.
 *
 * pc_lint_plugin() loads `dir` through the reference host
 * (pc_manifest_load) and then runs the author-level checks the host does
 * not make but users need (rules PC-MAN-*, PC-HOOK-*, PC-TOOL-*,
 * PC-CMD-*, PC-SCRIPT-*, PC-CAP-*, PC-DOC-*, PC-SUB-*, PC-IO-003,
 * PC-IO-010, PC-ENV-002, PC-OAUTH-011; see conformance/rules/pc_rules.c),
 * among them the causes of issue 17 that need no script run
 * (pc_cause.h): repeated and ignored keys, a BOM before plugin.json, tool
 * names and parameters model providers refuse, CRLF shell scripts, reads
 * of stdin that fail without a trailing newline. Findings carry the line
 * and column of their cause in plugin.json or the script where one is
 * known. No script is run. `plugcheck lint` and the static cases of
 * `plugcheck check` are both these findings, so they cannot disagree.
 */
#ifndef PC_LINT_H
#define PC_LINT_H

#include "pc_finding.h"
#include "pc_locate.h"
#include "pc_manifest.h"

struct pc_json_doc;
struct pc_report;

struct pc_lint {
	struct pc_plugin *plugin;   /* NULL when the host rejects it */
	char *host_error;	    /* load_plugin_from_dir's error, or NULL */
	struct pc_strvec host_log;  /* the host's stderr lines while loading */
	struct pc_findings findings; /* each with its file, line and column
					where one exists (pc_finding.h) */
	struct pc_json_doc *doc;    /* plugin.json as the host read it,
				       indexed (pc_locate.h), or NULL */
	/* private: those bytes (NULL when the host could not read them),
	 * for the causes in plugin.json's text (pc_lint_keys.c) */
	char *text;
	size_t text_len;
};

#define PC_LINT_INIT \
	{ NULL, NULL, PC_STRVEC_INIT, PC_FINDINGS_INIT, NULL, NULL, 0 }

/* pc_lint_rules - the ids pc_lint_plugin may raise, in the order check
 * lists their static cases; pc_lint_nrules entries. */
extern const char *const pc_lint_rules[];
extern const size_t pc_lint_nrules;

/* pc_lint_plugin - load and statically check the plugin in `dir` with the
 * host facts `env` (HOME, CODEX_HOME) and the host's PATH `path` (for
 * interpreter lookups; may be NULL). Fills `l` (caller releases with
 * pc_lint_release). Returns 0; a rejected plugin is a finding
 * (PC-LOAD-001) with l->plugin NULL and l->host_error set; a path that is
 * not a directory holding plugin.json is finding PC-LOAD-002 with
 * l->plugin and l->host_error both NULL (R1.4: the host never looks). */
int pc_lint_plugin(const char *dir, const struct pc_manifest_env *env,
		   const char *path, struct pc_lint *l);
void pc_lint_release(struct pc_lint *l);

/* pc_lint_token_script - whether the OAuth token script `path` (its text,
 * up to 1 MiB; binaries are not judged) rotates refresh tokens in a way
 * two runs at once break (PC-OAUTH-011, R8.8): it mentions refresh_token
 * and token_path, writes a file in place (open(..., "w"), write_text,
 * writeFileSync, a shell redirect to a variable, ...) and has no rename
 * into place (os.replace, rename, mv, ...) and no lock (flock, lockf,
 * fcntl, FileLock, O_EXCL, ...). *write gets the first such write's line
 * and column (not in a comment), {0, 0} when false. */
bool pc_lint_token_script(const char *path, struct pc_loc *write);
/* pc_lint_locate - give finding `f` (of a firing of the plugin `l`
 * loaded) the line and column of its entry point's declaration in
 * plugin.json, when its file is plugin.json, it has no line yet and its
 * `where` names an entry point: "hook NAME" or "hook NAME: DETAIL" (the
 * hooks key), "tool NAME" and "command NAME" (the first entry of that
 * name, which the host runs), "memory..." (memory_provider), "oauth..."
 * (oauth). Findings with a line of their own keep it. */
void pc_lint_locate(const struct pc_lint *l, struct pc_finding *f);
/* pc_lint_locate_report - pc_lint_locate on every finding of `r` (check's
 * firings, the guard search). */
void pc_lint_locate_report(const struct pc_lint *l, struct pc_report *r);

#endif

/* pc_registry.h - discovery, trust gating and precedence of Catalyst Code
 * plugins, as the host's scan_and_load does (spec catalyst-code.md §1).
 *
 * pc_registry_scan() scans the global root $HOME/.catalyst-code/plugins
 * (user-owned, never gated) and then the project root (config plugins.dir,
 * default .catalyst-code/plugins, joined onto the workspace when relative;
 * created with mkdir -p as the host does, R1.2). Direct children that are
 * directories holding plugin.json are candidates, in readdir order (R1.4).
 * Project plugins load only when trust_project is set, the trust store
 * records "trust" for their canonical path, or the trust store's
 * `installed` list names them (R1.7-R1.9); skipped ones produce the host's
 * exact log line. Plugins are keyed by manifest name; a later insert
 * replaces an earlier one (R1.5). Load failures are logged and collected,
 * never fatal (R1.11).
 */
#ifndef PC_REGISTRY_H
#define PC_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_strvec.h"

struct pc_registry_opts {
	const char *home;	 /* NULL or "" (config::home_dir): no global
				    root, no trust store */
	const char *workspace;	 /* as configured (may be relative) */
	const char *plugins_dir; /* NULL: ".catalyst-code/plugins" */
	bool trust_project;	 /* see pc_registry_trust_project() */
	const struct pc_manifest_env *menv;
};

struct pc_registry {
	struct pc_plugin **plugins; /* sorted by name (R4.7 dispatch order) */
	size_t nr;
	struct pc_strvec skipped;   /* names of trust-skipped plugins */
	struct pc_strvec errors;    /* R1.11 messages (no "[plugins] ") */
	struct pc_strvec log;	    /* the host's stderr lines, in order */
};

#define PC_REGISTRY_INIT                                                       \
	{ NULL, 0, PC_STRVEC_INIT, PC_STRVEC_INIT, PC_STRVEC_INIT }

/* pc_registry_scan - fill `r` (PC_REGISTRY_INIT) as described above.
 * Returns 0; the scan itself cannot fail (missing roots are no-ops).
 * Release with pc_registry_release. */
int pc_registry_scan(const struct pc_registry_opts *o, struct pc_registry *r);
void pc_registry_release(struct pc_registry *r);

/* pc_registry_find - the loaded plugin named `name`, or NULL. */
struct pc_plugin *pc_registry_find(const struct pc_registry *r,
				   const char *name);

/* pc_registry_trust_project - R1.8: `env` is the value of
 * CATALYST_CODE_TRUST_PROJECT_PLUGINS (NULL when unset): true iff empty,
 * "1" or case-insensitively "true". `cli` is 1 for
 * --trust-project-plugins, 0 for --no-trust-project-plugins, -1 for
 * neither; the command line wins. */
bool pc_registry_trust_project(const char *env, int cli);

/* pc_registry_is_candidate - R1.4: `path` is a directory (symlinks
 * followed) holding a plugin.json that exists (Path::exists: stat
 * succeeds - a directory named plugin.json counts, and then fails to
 * load with "cannot read plugin.json: Is a directory (os error 21)"). */
bool pc_registry_is_candidate(const char *path);

/* pc_registry_loose_name - R1.7.7: the name a trust-skipped plugin in
 * `path` is listed under: plugin.json's "name" when the file reads as
 * UTF-8 and parses as JSON with a string name, else the directory's name
 * when it is valid UTF-8, else "". New string (host text). */
char *pc_registry_loose_name(const char *path);

/* pc_registry_skip_line - new string: the host's R1.7.6 log line for a
 * skipped project plugin `name` at canonical path `canon`. */
char *pc_registry_skip_line(const char *name, const char *canon);

#endif

/* pc_install.h - the Catalyst Code host's plugin install, step by step
 * (spec catalyst-code.md §11 "Install details", R1.5, R1.7.4, R1.9).
 *
 * The host's /plugin-install for a local directory runs install():
 *   1. the source must be a directory holding plugin.json;
 *   2. it is fully validated (load_plugin_from_dir) before anything is
 *      copied;
 *   3. a registered plugin (enabled or not) with the same manifest name is
 *      a collision: `plugin '<name>' is already installed; remove it first
 *      or use a different name`;
 *   4. <root>/<name> is removed, then re-copied by copy_dir: entries named
 *      in PLUGIN_COPY_SKIP, `.env` and `.env.*` except `.env.example` are
 *      skipped at every depth, symlinks are recreated verbatim (their
 *      target text, not the file), regular files copied with their mode;
 *   5. a workspace install records the canonical destination in the trust
 *      store's `installed` list for the canonical workspace;
 *   6. the copy is loaded again and registered enabled.
 * A release zip (the GitHub source) is first extracted as the host's
 * extract_zip_bytes does, its plugin directory located, and files directly
 * under hooks/, tools/ and oauth/ that carry no execute bit get one; then
 * the same install runs and a `.catalyst-plugin-source.json` sidecar is
 * written into the copy.
 *
 * Ownership: results own their strings; release them with the matching
 * *_release. Nothing here prints, exits or runs a plugin script. Calls
 * block only for file-system work.
 */
#ifndef PC_INSTALL_H
#define PC_INSTALL_H

#include <stdbool.h>
#include <stdint.h>

#include "pc_err.h"
#include "pc_manifest.h"
#include "pc_registry.h"
#include "pc_strvec.h"

/* The host's sidecar file name (PLUGIN_SOURCE_META_FILE). */
#define PC_INSTALL_SOURCE_META ".catalyst-plugin-source.json"
/* The host's cap on a downloaded release zip (64 MiB). */
#define PC_INSTALL_MAX_ZIP_BYTES ((uint64_t)64 << 20)

enum pc_install_scope { PC_INSTALL_GLOBAL, PC_INSTALL_WORKSPACE };

struct pc_install_opts {
	const char *source; /* the plugin directory (absolute or relative
			       to the current directory) */
	enum pc_install_scope scope;
	const char *home;	 /* NULL: no global root, no trust store */
	const char *workspace;	 /* the host's workspace */
	const char *plugins_dir; /* NULL: ".catalyst-code/plugins" */
	const struct pc_manifest_env *menv;
	/* the plugins already registered (collision check), or NULL */
	const struct pc_registry *registered;
};

struct pc_install_result {
	struct pc_plugin *plugin; /* the copy, loaded again (step 6) */
	char *dest;		  /* <root>/<name> as joined */
	struct pc_strvec log;	  /* the host's stderr lines ("[plugins] skip
				     symlink ...") */
};

#define PC_INSTALL_RESULT_INIT             \
	{                                  \
		NULL, NULL, PC_STRVEC_INIT \
	}

/* A release zip after extraction (fetch_github_release_plugin). */
struct pc_install_zip {
	char *plugin_dir;	    /* the directory holding plugin.json */
	struct pc_strvec made_exec; /* files given +x (relative to
				       plugin_dir), in readdir order */
	struct pc_strvec no_exec;   /* regular files left without any x bit,
				       relative to plugin_dir */
	struct pc_strvec symlinks;  /* entries stored as symlinks, extracted as
				       plain files holding the target text */
};

#define PC_INSTALL_ZIP_INIT                                          \
	{                                                            \
		NULL, PC_STRVEC_INIT, PC_STRVEC_INIT, PC_STRVEC_INIT \
	}

/* pc_install_scope_parse - the host's scope parse (trimmed, case-
 * insensitive): "", global, user, g, -g, --global => global; workspace,
 * project, local, w, -w, --workspace => workspace. Otherwise returns
 * PC_EINVAL with `unknown plugin scope '<s>' (use 'global' or
 * 'workspace')` in err. Borrows s. */
int pc_install_scope_parse(const char *s, enum pc_install_scope *out,
			   struct pc_err *err);

/* pc_install_is_skipped - true when copy_dir skips an entry called `name`
 * (PLUGIN_COPY_SKIP, `.env`, `.env.*` other than `.env.example`). */
bool pc_install_is_skipped(const char *name);

/* pc_install_copy_dir - the host's copy_dir(src, dst): creates dst,
 * copies regular files (mode kept), recurses into directories, recreates
 * symlinks with the same target text, skips pc_install_is_skipped names.
 * Symlinks that cannot be created and other file types are skipped with
 * the host's stderr line appended to `log` (may be NULL). Returns 0, or
 * PC_EIO with the host's message (`mkdir "<dst>": <io error>`, `copy
 * "<a>" -> "<b>": ...`) in err. Borrows everything. */
int pc_install_copy_dir(const char *src, const char *dst, struct pc_strvec *log,
			struct pc_err *err);

/* pc_install_run - install o->source as described in the overview
 * (steps 1-6, without registering anywhere: the caller rescans). On
 * success fills `res` (PC_INSTALL_RESULT_INIT) and returns 0. Errors carry
 * the host's exact message: PC_EINVAL for steps 1 and 3 and for an invalid
 * name, PC_EMANIFEST for validation (the load error, as the host returns
 * it to the client), PC_EIO for copy and trust-store failures. */
int pc_install_run(const struct pc_install_opts *o,
		   struct pc_install_result *res, struct pc_err *err);
void pc_install_result_release(struct pc_install_result *res);

/* pc_install_record_installed - record_user_installed: add the canonical
 * `dest` to $home/.config/catalyst-code/plugin-trust.json `installed`
 * under the canonical `workspace` (sorted, deduplicated), keeping every
 * other entry; an unreadable store starts empty, as the host's does. The
 * file is written pretty-printed with `projects` first, via a temporary
 * file and rename, under an fcntl lock on plugin-trust.lock. Returns 0 or
 * PC_EIO
 * (`failed to write plugin trust store ...`). */
int pc_install_record_installed(const char *home, const char *workspace,
				const char *dest, struct pc_err *err);

/* pc_install_extract_zip - extract_zip_bytes, find_single_top_level_dir,
 * resolve_plugin_dir (no subdir) and ensure_plugin_scripts_executable on
 * the zip file `zip` (at most PC_INSTALL_MAX_ZIP_BYTES) into the existing
 * empty directory `dest`. Modes follow the zip crate's unix_mode(): Unix
 * entries keep theirs, DOS entries get 0664 (0444 read-only), entries with
 * no attributes keep the creation default (0666 & ~umask). Fills `z`
 * (PC_INSTALL_ZIP_INIT). Errors (PC_EINVAL/PC_EIO) carry the host's text:
 * `invalid zip archive: ...`, `zip entry '<n>' has an unsafe path`,
 * `release zip is empty`, `no plugin.json found in the release root ...`,
 * `<label> is too large (...)`. Uses libzip; blocks for the extraction. */
int pc_install_extract_zip(const char *zip, const char *dest,
			   struct pc_install_zip *z, struct pc_err *err);
void pc_install_zip_release(struct pc_install_zip *z);

/* pc_install_write_source_meta - write_plugin_source_meta: the sidecar in
 * `dir` as serde's to_string_pretty of PluginSourceMeta (fields kind,
 * owner, repo, tag, url, installed_at in that order) plus a newline, with
 * kind "github_release" and url https://github.com/<owner>/<repo>.
 * `installed_at` is in Unix seconds. Returns 0 or PC_EIO. */
int pc_install_write_source_meta(const char *dir, const char *owner,
				 const char *repo, const char *tag,
				 uint64_t installed_at, struct pc_err *err);

#endif

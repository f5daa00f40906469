/* pc_manifest_impl.h - private to host/: Rust path semantics and script
 * validation shared by the manifest loader's files. */
#ifndef PC_MANIFEST_IMPL_H
#define PC_MANIFEST_IMPL_H

#include <stdbool.h>

#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_strvec.h"

/* The loader's errors are the host's Strings, whole: every function below
 * that fails writes the host's message into `e` (replacing what it held;
 * unbounded, unlike pc_err's 1 KiB) and returns PC_EMANIFEST. */
int pc__mfail(struct pc_buf *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct pc_plugin;

/* pc__manifest_at - the member of plugin.json about to be checked, as
 * the NULL-terminated steps `step`, ... (pc_manifest_report.error_at), so
 * a rejection can say where it is. Each check sets it first; only a
 * failing one leaves it. */
void pc__manifest_at(struct pc_plugin *p, const char *step, ...);
/* pc__manifest_elem - "#N" (element N of an array) in `buf`; returns
 * buf. */
const char *pc__manifest_elem(char buf[24], size_t n);

/* The string value of key `k` in a decoded manifest object, or NULL. */
const char *pc__jstr(const cJSON *o, const char *k);
/* The u64 value of key `k` (exact, from the number's serde text), or
 * `def` when absent. */
uint64_t pc__ju64(const cJSON *o, const char *k, uint64_t def);
/* Rust Path::components of `p` ("/" for the root, leading "." kept). */
void pc__path_components(const char *p, struct pc_strvec *out);
/* A ".." component is present (R2.9.1). */
bool pc__path_has_parent(const char *p);
/* Path::starts_with: component-wise prefix. */
bool pc__path_starts_with(const char *path, const char *base);
/* PathBuf::join: an absolute `rel` replaces `base`, an empty `base`
 * gives `rel`, no '/' is doubled. New string. */
char *pc__path_join(const char *base, const char *rel);
/* validate_plugin_script (R2.9, R2.10) with `prefix` "hook script" or
 * "script"; *out gets the canonical path (new string). PC_EMANIFEST.
 * canon_dir NULL judges the text only (pc_manifest_check_text): just the
 * lexical ".." step of R2.9, no file system access; *out = a copy of rel.
 * The same holds for pc__validate_prompt_file (after its absolute-path
 * check, R2.12). */
int pc__validate_script(const char *canon_dir, const char *rel,
			const char *prefix, char **out, struct pc_buf *e);
/* validate_prompt_file (R2.12). PC_EMANIFEST. */
int pc__validate_prompt_file(const char *canon_dir, const char *rel,
			     char **out, struct pc_buf *e);

#endif

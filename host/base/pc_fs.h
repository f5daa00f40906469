/* pc_fs.h - small file-system helpers.
 * Paths are NUL-terminated byte strings; results are new heap strings
 * the caller frees with free(). */
#ifndef PC_FS_H
#define PC_FS_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_buf.h"
#include "pc_err.h"

/* pc_fs_read_capped - read the whole file `path` into `out` (appending),
 * refusing files longer than out->max. Errors: PC_ENOENT (missing),
 * PC_EIO (other open/read failure, errno in err), PC_EFBIG (too large). */
int pc_fs_read_capped(const char *path, struct pc_buf *out,
		      struct pc_err *err);
/* pc_fs_write - create or truncate `path` with `n` bytes of `p`, mode 0644.
 * Errors: PC_EIO with errno. */
int pc_fs_write(const char *path, const void *p, size_t n, struct pc_err *err);
/* pc_fs_append_line - append `line` and a newline to `path` (created
 * mode 0600) in one write(), so a process killed meanwhile leaves whole
 * lines and at most a cut last one. For the lists of temporary
 * directories and results that plugcheck's worker processes leave for
 * their parent. Errors: PC_EIO with errno (also for a short write). */
int pc_fs_append_line(const char *path, const char *line,
		      struct pc_err *err);
/* pc_fs_rm_rf_listed - pc_fs_rm_rf every path listed one a line in the
 * file `list` (as pc_fs_append_line writes them; a cut last line without
 * its newline is ignored). Best effort: a missing or unreadable list
 * (over 1 MiB) removes nothing. */
void pc_fs_rm_rf_listed(const char *list);
/* pc_fs_join - "a/b", without doubling a '/'; returns new string. */
char *pc_fs_join(const char *a, const char *b);
/* pc_fs_realpath - canonical path of `p` (symlinks resolved), or NULL with
 * errno set when it cannot be resolved. Returns new string. */
char *pc_fs_realpath(const char *p);
/* pc_fs_absolute - `p` made absolute against the current directory
 * lexically (no symlink resolution, "." and ".." components folded).
 * Returns new string. */
char *pc_fs_absolute(const char *p);
/* pc_fs_mkdir_p - create `path` and its parents (mode 0755). Errors:
 * PC_EIO with errno. */
int pc_fs_mkdir_p(const char *path, struct pc_err *err);
/* pc_fs_rm_rf - remove `path` recursively, not following symlinks.
 * Best effort; returns 0 or PC_EIO. */
int pc_fs_rm_rf(const char *path);
/* pc_fs_is_dir / pc_fs_is_file - stat (following symlinks) tests. */
bool pc_fs_is_dir(const char *path);
bool pc_fs_is_file(const char *path);
/* pc_fs_mkdtemp - create a fresh directory "$TMPDIR/plugcheck-<tag>-XXXXXX"
 * (TMPDIR default /tmp). Returns new string, or NULL with errno set. */
char *pc_fs_mkdtemp(const char *tag);
/* pc_fs_tmpdir - the directory pc_fs_mkdtemp creates in: $TMPDIR, or
 * "/tmp" when it is unset or empty (borrowed from the environment or
 * static; for error messages that must name it). */
const char *pc_fs_tmpdir(void);

#endif

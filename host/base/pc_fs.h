/* pc_fs.h - small file-system helpers.
 * Paths are NUL-terminated byte strings; results are new heap strings
 * the caller frees with free(). */
#ifndef PC_FS_H
#define PC_FS_H

#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pc_buf.h"
#include "pc_err.h"

/* pc_fs_read_capped - read the whole file `path` into `out` (appending),
 * refusing files longer than out->max. The open never blocks (a FIFO
 * without a writer reads as empty); reading a pipe or device blocks as
 * long as its writer does - for files a plugin controls use
 * pc_fs_read_stream or the pc_fs_beneath_* helpers. Errors: PC_ENOENT
 * (missing), PC_EIO (other open/read failure, errno in err), PC_EFBIG
 * (too large). */
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
/* pc_fs_relative - `path` relative to the directory `dir`, both made
 * absolute lexically first (pc_fs_absolute: no symlink is resolved, as
 * the scenario loader resolves relative paths): "x/y", "../x", or "."
 * when they are the same. Returns new string. */
char *pc_fs_relative(const char *dir, const char *path);
/* pc_fs_is_under - `path` is `dir` or inside it, component by component,
 * after both are made absolute lexically (pc_fs_absolute; no symlink is
 * resolved): "/a/b" is under "/a" and "/a/", "/ab" is not. */
bool pc_fs_is_under(const char *path, const char *dir);
/* pc_fs_mkdir_p - create `path` and its parents (mode 0755). Errors:
 * PC_EIO with errno. */
int pc_fs_mkdir_p(const char *path, struct pc_err *err);
/* pc_fs_rm_rf - remove `path` recursively, not following symlinks, in
 * whatever state a plugin left it (issue 21): directories of any mode
 * (each is given u+rwx before its entries are removed), trees of any
 * depth and path length (openat/unlinkat from the directory above, at
 * most 32 directory streams open at once, a directory whose stream was
 * closed is reached again through ".." and checked by device and inode).
 * Best effort: what cannot be removed (a mount point, a read-only file
 * system) is left and the rest removed. Returns 0 when `path` is gone
 * (or never existed), PC_EIO when something is left. */
int pc_fs_rm_rf(const char *path);
/* pc_fs_is_dir / pc_fs_is_file - stat (following symlinks) tests. */
bool pc_fs_is_dir(const char *path);
bool pc_fs_is_file(const char *path);
/* ---- beneath a root (workspace files a plugin can plant symlinks in) ----
 *
 * plugcheck writes and reads files in a plugin's workspace itself (the
 * scenario runner's `write` steps and `files` checks, the built-in file
 * tools under --sandbox). A plugin can replace any directory there with a
 * symlink; these helpers never follow one: `rel` (relative, no ".."
 * component) is resolved under `root` with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS), or, where the kernel has
 * no openat2 (before 5.6) or a seccomp filter refuses it, by opening each
 * directory on the way with O_NOFOLLOW from the one before. A symlink
 * anywhere below `root` is refused (ELOOP in err->sys_errno), even one
 * that points back inside: plugcheck's own files there never need one.
 * `root` itself is opened as given (plugcheck made it). */
enum pc_fs_beneath_flags {
	PC_FS_MKDIRS = 1 << 0,	   /* create missing parent directories
				      (0755), never through a symlink */
	PC_FS_NO_OPENAT2 = 1 << 1, /* use the O_NOFOLLOW walk even where
				      openat2 works (tests) */
};

/* pc_fs_beneath_open - open(2) of `rel` under `root` with `oflags`
 * (O_CLOEXEC and O_NOFOLLOW are added) and `mode` for O_CREAT. Returns
 * the new fd (caller closes), or PC_EINVAL (`rel` empty, absolute or with
 * ".."), PC_ENOENT, PC_EIO (errno in err; ELOOP or EXDEV for a symlink on
 * the way), each with a message naming `rel` and `root`. Never blocks on
 * a FIFO when `oflags` has O_NONBLOCK. */
int pc_fs_beneath_open(const char *root, const char *rel, int oflags,
		       mode_t mode, unsigned flags, struct pc_err *err);

/* pc_fs_beneath_write - create or truncate the regular file `rel` under
 * `root` (mode 0644) with `n` bytes of `p`; `flags` as above. Anything
 * but a regular file there (a FIFO, a directory, a device) is refused
 * without blocking: PC_EIO "... is not a regular file (a FIFO)". Errors as
 * pc_fs_beneath_open, and PC_EIO for a failed write. */
int pc_fs_beneath_write(const char *root, const char *rel, const void *p,
			size_t n, unsigned flags, struct pc_err *err);

/* pc_fs_beneath_read - append the regular file `rel` under `root` to
 * `out`, refusing anything else without blocking (PC_EIO) and files over
 * out->max (PC_EFBIG). Errors as pc_fs_beneath_open. */
int pc_fs_beneath_read(const char *root, const char *rel, struct pc_buf *out,
		       struct pc_err *err);

/* pc_fs_beneath_lstat - lstat(2) of `rel` under `root` (the directories on
 * the way resolved as pc_fs_beneath_open does; the last component itself
 * is not followed, so a symlink there is reported, not refused). Errors:
 * PC_ENOENT, PC_EINVAL, PC_EIO. */
int pc_fs_beneath_lstat(const char *root, const char *rel, struct stat *st,
			struct pc_err *err);

/* pc_fs_read_stream - read all of `path` into `out` (appending, at most
 * out->max bytes) the way a read-to-end call of a host does (Rust
 * fs::read_to_string, Go os.ReadFile) - a regular file at once, anything
 * else (a FIFO, a character device) as a stream until EOF - but never
 * for longer than `timeout_ms`: it is opened O_NONBLOCK, so a FIFO
 * without a writer cannot hang the open, then polled. Errors as
 * pc_fs_read_capped, plus PC_ETIMEDOUT when the deadline came first
 * (err->msg names the file and its kind: where the host's read has no
 * deadline, it blocks there). Blocks at most timeout_ms for a non-regular
 * file. */
int pc_fs_read_stream(const char *path, struct pc_buf *out, int64_t timeout_ms,
		      struct pc_err *err);

/* plugcheck's own deadline for reading a file a host reads to EOF when
 * it is not a regular file (a FIFO a plugin left), ms */
#define PC_FS_STREAM_MS 2000

/* pc_fs_kind - "a regular file", "a directory", "a FIFO", "a socket",
 * "a character device", "a block device", "a symlink" for the file-type
 * bits of st_mode `mode` (static string, for messages). */
const char *pc_fs_kind(unsigned mode);

/* pc_fs_mkdtemp - create a fresh directory "$TMPDIR/plugcheck-<tag>-XXXXXX"
 * (TMPDIR default /tmp; inside the pc_fs_set_tmp_root directory when one
 * is set). Returns new string, or NULL with errno set. */
char *pc_fs_mkdtemp(const char *tag);
/* pc_fs_set_tmp_root - make pc_fs_mkdtemp create its directories inside
 * `dir` (copied; NULL: back to $TMPDIR) from now on, in this process. For
 * a worker process whose parent removes `dir` whatever becomes of the
 * worker; the environment (plugins' TMPDIR) is not changed. */
void pc_fs_set_tmp_root(const char *dir);
/* pc_fs_tmpdir - the directory pc_fs_mkdtemp creates in: $TMPDIR, or
 * "/tmp" when it is unset or empty (borrowed from the environment or
 * static; for error messages that must name it). */
const char *pc_fs_tmpdir(void);

#endif

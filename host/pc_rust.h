/* pc_rust.h - the Rust standard library's text forms that leak into the
 * Catalyst Code host's messages, reproduced byte for byte.
 *
 * The host builds every error string with Rust's formatting, so the
 * reference host needs the same: `{:?}` of a string or path (spec R2.9
 * "Rust-debug-quoted"), `io::Error` Display ("... (os error N)"),
 * `ExitStatus` Display (R4.3.6), `String::from_utf8_lossy` and `str::trim`
 * (R4.3.7). All output is appended to a caller's pc_buf; nothing here
 * allocates beyond that buffer, prints or fails except with PC_EFBIG from
 * the buffer.
 */
#ifndef PC_RUST_H
#define PC_RUST_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_buf.h"
#include "pc_err.h"

/* pc_rust_debug_str - append `{:?}` of the UTF-8 string `s` (n bytes):
 * double quotes; \" \\ \n \r \t \0 escaped; other control and invisible
 * format characters as \u{hex}. Invalid UTF-8 bytes (a non-UTF-8 path) are
 * written as Rust writes an OsStr: \xNN. Returns 0 or PC_EFBIG. */
int pc_rust_debug_str(struct pc_buf *out, const char *s, size_t n);

/* pc_rust_debug_path - append `{:?}` of a Path / OsStr (Unix): as
 * pc_rust_debug_str, except that OsStr's Debug runs every char through
 * char::escape_debug, which also escapes ' as \'. Used for the host's
 * messages that format a path (R1.7.6, R1.11, R4.3.4, R7.5). */
int pc_rust_debug_path(struct pc_buf *out, const char *p, size_t n);

/* pc_rust_io_error - append io::Error's Display for an OS error:
 * "<strerror(errnum)> (os error <errnum>)". Returns 0 or PC_EFBIG. */
int pc_rust_io_error(struct pc_buf *out, int errnum);

/* io::Error texts of the kinds the host meets that are not OS errors
 * (Rust's library messages, exact). */
#define PC_RUST_IO_INVALID_UTF8 "stream did not contain valid UTF-8"

/* pc_rust_read_to_string - std::fs::read_to_string(path) on Unix: open
 * (O_RDONLY), read to EOF (EINTR retried), then the UTF-8 check - a read
 * error wins over invalid UTF-8, as in Rust. On success appends the bytes
 * to `out` and returns 0. On failure appends io::Error's Display to `msg`
 * and returns PC_EIO: "<strerror> (os error N)" for an OS error (a
 * directory fails at the read: "Is a directory (os error 21)"; a socket at
 * the open: "No such device or address (os error 6)"), or
 * PC_RUST_IO_INVALID_UTF8. Where the host would not come back plugcheck
 * stops and returns PC_EFBIG with its own text in `msg` (saying that the
 * host's behaviour is not reproduced): a FIFO or a device with nothing to
 * read (the host blocks), more than out->max bytes (the host reads on).
 * `path` is a raw OS path (borrowed). Never blocks. */
int pc_rust_read_to_string(const char *path, struct pc_buf *out,
			   struct pc_buf *msg);

/* pc_rust_debug_text - pc_rust_debug_str of host text in the stored form
 * (pc_serde.h: U+0000 as C0 80), i.e. of the Rust String it stands for: a
 * NUL is written \0. For the {:?} of manifest strings (R2.5, R2.9). */
int pc_rust_debug_text(struct pc_buf *out, const char *text);

/* pc_rust_err_io - fill `err` (may be NULL) as the host's
 * map_err(|e| format!("<fmt>: {e}")) of an OS error: the printf message,
 * ": ", then pc_rust_io_error(errnum); sys_errno = errnum. Returns `code`.
 * (pc_err_set_errno would append strerror a second time.) */
int pc_rust_err_io(struct pc_err *err, int code, int errnum, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

/* pc_rust_exit_status - append ExitStatus's Display: "exit status: <n>"
 * when the child exited, else "signal: <n> (<SIGNAME>)" plus
 * " (core dumped)" (the name is left out for signals Rust has no name
 * for). Returns 0 or PC_EFBIG. */
int pc_rust_exit_status(struct pc_buf *out, bool signaled, int code_or_sig,
			bool core_dumped);

/* pc_rust_lossy_utf8 - append String::from_utf8_lossy(bytes): every
 * maximal invalid subsequence becomes U+FFFD. Returns 0 or PC_EFBIG. */
int pc_rust_lossy_utf8(struct pc_buf *out, const char *bytes, size_t n);

/* pc_rust_trim - the bounds of str::trim() of the UTF-8 text `s` (n bytes):
 * leading and trailing Unicode White_Space removed (ASCII space and
 * \t\n\v\f\r, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000; not U+FEFF). Stores the start offset in *start
 * and returns the trimmed length. */
size_t pc_rust_trim(const char *s, size_t n, size_t *start);

/* pc_rust_utf8_next - decode one UTF-8 scalar at s[0..n) into *cp; returns
 * its byte length, or 0 when the bytes there are not valid UTF-8. */
size_t pc_rust_utf8_next(const char *s, size_t n, unsigned *cp);

/* pc_rust_is_utf8 - std::str::from_utf8(s[0..n)).is_ok(). */
bool pc_rust_is_utf8(const char *s, size_t n);

/* pc_rust_chars_prefix - byte length of the first `nchars` chars (Unicode
 * scalars) of the valid UTF-8 text s[0..n), as `chars().take(nchars)`. */
size_t pc_rust_chars_prefix(const char *s, size_t n, size_t nchars);

#endif

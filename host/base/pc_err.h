/* pc_err.h - plugcheck's closed set of error codes and an error context.
 *
 * Every fallible library function returns 0 on success or one negative
 * PC_E* code below. Functions whose failures a user must understand also
 * take an optional `struct pc_err *err` (may be NULL) as their last
 * argument; on failure they fill it with the code, the errno of a failed
 * system call (0 when none), and a message in git's style: lowercase, no
 * full stop, subject in single quotes, errno text last.
 *
 * Library modules never print and never exit: only conformance/cli/ does.
 */
#ifndef PC_ERR_H
#define PC_ERR_H

#include <stddef.h>

/* The closed set of error codes (libuv errors.rst style). */
enum pc_errc {
	PC_OK = 0,
	PC_EINVAL = -1,	  /* an argument or input is malformed */
	PC_ENOMEM = -2,	  /* an allocation failed (only for plugin-sized data) */
	PC_EIO = -3,	  /* a read, write or poll failed (errno in sys_errno) */
	PC_EFBIG = -4,	  /* a capped buffer would grow past its max */
	PC_ENOENT = -5,	  /* a file or directory does not exist */
	PC_ESPAWN = -6,	  /* a process could not be started */
	PC_ETIMEDOUT = -7, /* a deadline passed */
	PC_EPARSE = -8,	  /* JSON or YAML text does not parse */
	PC_EMANIFEST = -9, /* a plugin manifest is rejected by the host */
	PC_EUSAGE = -10,	  /* a command line is malformed */
};

/* An error context: curl's error buffer with a location added. */
struct pc_err {
	int code;	 /* one of enum pc_errc */
	int sys_errno;	 /* errno of the failed system call, or 0 */
	char where[64];	 /* file, or file:line:column, or "" */
	char msg[1024];	 /* the whole human message */
};

#define PC_ERR_INIT { 0 }

/* pc_strerror - a static, never-NULL description of `code`. */
const char *pc_strerror(int code);

/* pc_err_set - fill `err` (when not NULL) with `code` and a printf-style
 * message, clearing sys_errno and where. Returns `code`, so call sites read
 * `return pc_err_set(err, PC_EINVAL, "bad '%s'", x);`. Never allocates. */
int pc_err_set(struct pc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* pc_err_set_errno - as pc_err_set, also recording `sys_errno` and
 * appending ": <strerror(sys_errno)>" to the message. Returns `code`. */
int pc_err_set_errno(struct pc_err *err, int code, int sys_errno,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* pc_err_clear - reset `err` (when not NULL) to PC_ERR_INIT. */
void pc_err_clear(struct pc_err *err);

#endif

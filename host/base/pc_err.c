#include "pc_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *pc_strerror(int code)
{
	switch (code) {
	case PC_OK:
		return "success";
	case PC_EINVAL:
		return "invalid argument";
	case PC_ENOMEM:
		return "out of memory";
	case PC_EIO:
		return "input/output error";
	case PC_EFBIG:
		return "size limit exceeded";
	case PC_ENOENT:
		return "no such file or directory";
	case PC_ESPAWN:
		return "cannot start process";
	case PC_ETIMEDOUT:
		return "timed out";
	case PC_EPARSE:
		return "parse error";
	case PC_EMANIFEST:
		return "manifest rejected";
	case PC_EUSAGE:
		return "usage error";
	default:
		return "unknown error";
	}
}

static int vset(struct pc_err *err, int code, int sys_errno, const char *fmt,
		va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->sys_errno = sys_errno;
	err->where[0] = '\0';
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (sys_errno) {
		size_t n = strlen(err->msg);
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s",
			 strerror(sys_errno));
	}
	return code;
}

int pc_err_set(struct pc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int pc_err_set_errno(struct pc_err *err, int code, int sys_errno,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(err, code, sys_errno, fmt, ap);
	va_end(ap);
	return code;
}

void pc_err_clear(struct pc_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

/* pc_buf.h - the one growable byte buffer, with a mandatory cap.
 *
 * strbuf's invariants plus curl dynbuf's hard maximum:
 *   - `data` is NULL until something is added, then always NUL-terminated
 *     (the NUL is not counted in `len` and not counted against `max`);
 *   - `len` is authoritative (the contents may hold NUL bytes);
 *   - appending past `max` bytes returns PC_EFBIG and leaves the contents
 *     exactly as they were, so output caps come for free;
 *   - pc_buf_detach() is the only way to take the memory.
 *
 * Usage: struct pc_buf b = PC_BUF_INIT(1 << 20); ... pc_buf_release(&b);
 */
#ifndef PC_BUF_H
#define PC_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct pc_buf {
	char *data;   /* NULL or a NUL-terminated heap block */
	size_t len;   /* bytes in use, not counting the NUL */
	size_t alloc; /* private: bytes allocated */
	size_t max;   /* the cap on len, in bytes; never 0 once initialised */
};

#define PC_BUF_INIT(cap) { .data = NULL, .len = 0, .alloc = 0, .max = (cap) }

/* A practical "no cap" for buffers plugcheck itself fills (1 GiB). */
#define PC_BUF_NOCAP ((size_t)1 << 30)

/* pc_buf_init - initialise `b` empty with cap `max` bytes; never fails. */
void pc_buf_init(struct pc_buf *b, size_t max);
/* pc_buf_release - free the contents; `b` keeps its cap and is empty. */
void pc_buf_release(struct pc_buf *b);
/* pc_buf_reset - set len to 0 keeping the allocation. */
void pc_buf_reset(struct pc_buf *b);
/* pc_buf_detach - hand the NUL-terminated block (never NULL) to the
 * caller, who frees it with free(); `*len` (may be NULL) gets its length.
 * `b` is left empty. */
char *pc_buf_detach(struct pc_buf *b, size_t *len);

/* pc_buf_add - append `n` bytes of `p`. Returns 0, or PC_EFBIG when len+n
 * would pass max (nothing appended). Aborts on out of memory. */
int pc_buf_add(struct pc_buf *b, const void *p, size_t n);
/* pc_buf_adds - append the NUL-terminated `s`; as pc_buf_add. */
int pc_buf_adds(struct pc_buf *b, const char *s);
/* pc_buf_addch - append one byte; as pc_buf_add. */
int pc_buf_addch(struct pc_buf *b, char c);
/* pc_buf_addf - append printf output; PC_EFBIG as pc_buf_add. */
int pc_buf_addf(struct pc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* pc_buf_vaddf - va_list form of pc_buf_addf. */
int pc_buf_vaddf(struct pc_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* pc_buf_cstr - the contents as a string, "" when nothing was added. */
const char *pc_buf_cstr(const struct pc_buf *b);

#endif

/* pc_xalloc.h - allocation for small, fixed-size data (tmux xmalloc.c).
 *
 * These never return NULL: on failure they print "plugcheck: out of memory"
 * to stderr and abort(). Memory whose size a plugin controls (its output)
 * must instead go through a capped struct pc_buf, which reports PC_EFBIG.
 */
#ifndef PC_XALLOC_H
#define PC_XALLOC_H

#include <stddef.h>

/* pc_xmalloc - malloc(n) (n == 0 allocates 1 byte); caller frees. */
void *pc_xmalloc(size_t n);
/* pc_xcalloc - zeroed array of nmemb * size bytes; overflow aborts. */
void *pc_xcalloc(size_t nmemb, size_t size);
/* pc_xrealloc - realloc(p, n); caller frees the result. */
void *pc_xrealloc(void *p, size_t n);
/* pc_xreallocarray - realloc(p, nmemb * size) with overflow check. */
void *pc_xreallocarray(void *p, size_t nmemb, size_t size);
/* pc_xstrdup - copy of the NUL-terminated `s`; caller frees. */
char *pc_xstrdup(const char *s);
/* pc_xmemdup - copy of `n` bytes of `p` plus a NUL; caller frees. */
char *pc_xmemdup(const void *p, size_t n);
/* pc_xasprintf - printf into a new string; caller frees. */
char *pc_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

#include "pc_xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("plugcheck: out of memory\n", stderr);
	abort();
}

void *pc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *pc_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *pc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom();
	return q;
}

void *pc_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom();
	return pc_xrealloc(p, nmemb * size);
}

char *pc_xstrdup(const char *s)
{
	return pc_xmemdup(s, strlen(s));
}

char *pc_xmemdup(const void *p, size_t n)
{
	char *q = pc_xmalloc(n + 1);

	if (n)
		memcpy(q, p, n);
	q[n] = '\0';
	return q;
}

char *pc_xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	s = pc_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

#include "pc_buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_err.h"
#include "pc_xalloc.h"

void pc_buf_init(struct pc_buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	b->max = max;
}

void pc_buf_release(struct pc_buf *b)
{
	free(b->data);
	pc_buf_init(b, b->max);
}

void pc_buf_reset(struct pc_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

char *pc_buf_detach(struct pc_buf *b, size_t *len)
{
	char *p = b->data ? b->data : pc_xstrdup("");

	if (len)
		*len = b->len;
	pc_buf_init(b, b->max);
	return p;
}

static void grow(struct pc_buf *b, size_t need)
{
	size_t n = b->alloc ? b->alloc : 64;

	while (n < need)
		n *= 2;
	b->data = pc_xrealloc(b->data, n);
	b->alloc = n;
}

int pc_buf_add(struct pc_buf *b, const void *p, size_t n)
{
	if (n > b->max || b->len > b->max - n)
		return PC_EFBIG;
	if (b->len + n + 1 > b->alloc)
		grow(b, b->len + n + 1);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int pc_buf_adds(struct pc_buf *b, const char *s)
{
	return pc_buf_add(b, s, strlen(s));
}

int pc_buf_addch(struct pc_buf *b, char c)
{
	return pc_buf_add(b, &c, 1);
}

int pc_buf_vaddf(struct pc_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char small[256];

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return PC_EINVAL;
	if ((size_t)n < sizeof(small))
		return pc_buf_add(b, small, (size_t)n);
	{
		char *big = pc_xmalloc((size_t)n + 1);
		int rc;

		vsnprintf(big, (size_t)n + 1, fmt, ap);
		rc = pc_buf_add(b, big, (size_t)n);
		free(big);
		return rc;
	}
}

int pc_buf_addf(struct pc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = pc_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

const char *pc_buf_cstr(const struct pc_buf *b)
{
	return b->data ? b->data : "";
}

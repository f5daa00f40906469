/* pc_serde_text.c - host text in the stored form (pc_serde.h): raw bytes
 * with a length in and out, U+0000 as C0 80 in between. */
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"
#include "pc_serde_impl.h"

int pc_serde_text_add(struct pc_buf *out, const char *bytes, size_t n)
{
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		int rc;

		if (bytes[i])
			continue;
		if ((rc = pc_buf_add(out, bytes + run, i - run)) ||
		    (rc = pc_buf_add(out, "\xc0\x80", 2)))
			return rc;
		run = i + 1;
	}
	return pc_buf_add(out, bytes + run, n - run);
}

char *pc_serde_text_new(const char *bytes, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_text_add(&b, bytes, n);
	return pc_buf_detach(&b, NULL);
}

cJSON *pc_serde_string_n(const char *bytes, size_t n)
{
	return pc__serde_new_string((const unsigned char *)bytes, n);
}

int pc_serde_text_raw(struct pc_buf *out, const char *text)
{
	const char *s = text ? text : "", *run = s;
	int rc;

	for (; *s; s++) {
		if ((unsigned char)s[0] != 0xc0 || (unsigned char)s[1] != 0x80)
			continue;
		if ((rc = pc_buf_add(out, run, (size_t)(s - run))) ||
		    (rc = pc_buf_addch(out, '\0')))
			return rc;
		run = ++s + 1;
	}
	return pc_buf_add(out, run, (size_t)(s - run));
}

size_t pc_serde_text_len(const char *text)
{
	size_t n = 0;

	for (const char *s = text ? text : ""; *s; s++, n++)
		if ((unsigned char)s[0] == 0xc0 && (unsigned char)s[1] == 0x80)
			s++;
	return n;
}

int pc_serde_text_cmp(const char *a, const char *b)
{
	return pc__serde_key_cmp(a, b);
}

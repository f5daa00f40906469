/* pc_chatcli_html.c - Go's html.UnescapeString (A2, A4), over the
 * generated reference table pc_chatcli_entities.c. See pc_chatcli_impl.h.
 *
 * Go decodes in place in a copy of the input; no reference in its table
 * is longer in UTF-8 than its name (Go leaves out the two that would be,
 * "&nLt;" and "&nGt;"), so writing to a separate buffer gives the same
 * bytes. */
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

/* Windows-1252 for the C1 range of numeric references (0x80-0x9F), as
 * the WHATWG parsing rules list them; 0x81, 0x8D, 0x8F, 0x90 and 0x9D
 * have no Windows-1252 character and stay as they are. */
static const int32_t cp1252[32] = {
	0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
	0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

#define LONGEST_WITHOUT_SEMICOLON 6

static const struct pc__chatcli_entity *lookup(const char *name, size_t n)
{
	size_t lo = 0, hi = pc__chatcli_nentities;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k = pc__chatcli_entities[mid].name;
		size_t kn = strlen(k);
		int c = memcmp(name, k, n < kn ? n : kn);

		if (!c)
			c = n < kn ? -1 : n > kn ? 1 : 0;
		if (!c)
			return &pc__chatcli_entities[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool is_alnum(unsigned c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* numeric - "&#..." at s[0..n) (n > 3 checked by the caller): bytes
 * consumed, or 0 when no digit counts (the '&' is then literal). */
static size_t numeric(const unsigned char *s, size_t n, struct pc_buf *b)
{
	size_t i = 2;
	bool hex = s[i] == 'x' || s[i] == 'X';
	uint32_t x = 0; /* Go's rune arithmetic wraps at 32 bits */

	if (hex)
		i++;
	while (i < n) {
		unsigned c = s[i++];
		int d = hex ? pc__chatcli_hex(c) : (c >= '0' && c <= '9' ? (int)c - '0'
								: -1);

		if (d >= 0) {
			x = x * (hex ? 16u : 10u) + (uint32_t)d;
			continue;
		}
		if (c != ';')
			i--;
		break;
	}
	/* Go's test counts the 'x' and the ';' too: "&#9x" and "&#x" are
	 * literal, "&#x;" is U+FFFD */
	if (i <= 3)
		return 0;
	{
		int32_t r = (int32_t)x;

		if (r >= 0x80 && r <= 0x9f)
			r = cp1252[r - 0x80];
		else if (r == 0 || (r >= 0xd800 && r <= 0xdfff) ||
			 r > 0x10ffff)
			r = PC__RUNE_ERROR;
		pc__chatcli_add_rune(b, r); /* a negative r is U+FFFD too */
	}
	return i;
}

/* entity - the reference at s[0..n) (s[0] == '&'): bytes consumed;
 * literal text is copied as Go copies it. */
static size_t entity(const unsigned char *s, size_t n, struct pc_buf *b)
{
	const struct pc__chatcli_entity *e;
	size_t i = 1, name_n;

	if (n <= 1) {
		pc_buf_addch(b, '&');
		return 1;
	}
	if (s[1] == '#') {
		size_t used = n <= 3 ? 0 : numeric(s, n, b);

		if (!used)
			pc_buf_addch(b, '&');
		return used ? used : 1;
	}
	while (i < n) {
		unsigned c = s[i++];

		if (is_alnum(c))
			continue;
		if (c != ';')
			i--;
		break;
	}
	name_n = i - 1;
	if (name_n && (e = lookup((const char *)s + 1, name_n)) != NULL) {
		pc__chatcli_add_rune(b, e->r1);
		if (e->r2)
			pc__chatcli_add_rune(b, e->r2);
		return i;
	}
	/* the longest legacy name (no ';') that is a prefix, down to 2 */
	for (size_t j = name_n > 1 ? (name_n - 1 < LONGEST_WITHOUT_SEMICOLON
					       ? name_n - 1
					       : LONGEST_WITHOUT_SEMICOLON)
				   : 0;
	     j > 1; j--) {
		e = lookup((const char *)s + 1, j);
		if (e && !e->r2) {
			pc__chatcli_add_rune(b, e->r1);
			return j + 1;
		}
	}
	pc_buf_add(b, s, i);
	return i;
}

char *pc__chatcli_html_unescape(const char *s, size_t n, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		const unsigned char *amp = memchr(u + i, '&', n - i);
		size_t upto = amp ? (size_t)(amp - u) : n;

		pc_buf_add(&b, u + i, upto - i);
		i = upto;
		if (amp)
			i += entity(u + i, n - i, &b);
	}
	return pc_buf_detach(&b, out_n);
}

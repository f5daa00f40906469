/* pc_chatcli_unicode.c - Go's utf8, unicode and strings behaviour for
 * the ChatCLI reference host (the data is pc_chatcli_unitab.c). See
 * pc_chatcli_impl.h. */
#include <string.h>

#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

int32_t pc__chatcli_decode_rune(const char *p, size_t n, size_t *size)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned c = n ? u[0] : 0;
	unsigned lo = 0x80, hi = 0xbf;
	size_t need;
	int32_t r;

	*size = n ? 1 : 0;
	if (!n)
		return PC__RUNE_ERROR;
	if (c < 0x80)
		return (int32_t)c;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
		r = (int32_t)(c & 0x1f);
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		r = (int32_t)(c & 0x0f);
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		r = (int32_t)(c & 0x07);
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else {
		return PC__RUNE_ERROR;
	}
	if (n < need)
		return PC__RUNE_ERROR;
	/* the second byte has the narrowed range, the rest 80..BF */
	for (size_t i = 1; i < need; i++) {
		unsigned b = u[i];

		if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf))
			return PC__RUNE_ERROR;
		r = r << 6 | (int32_t)(b & 0x3f);
	}
	*size = need;
	return r;
}

size_t pc__chatcli_rune_len(int32_t r)
{
	if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
		return 3;
	return r < 0x80 ? 1 : r < 0x800 ? 2 : r < 0x10000 ? 3 : 4;
}

void pc__chatcli_add_rune(struct pc_buf *b, int32_t r)
{
	if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
		r = PC__RUNE_ERROR;
	if (r < 0x80) {
		pc_buf_addch(b, (char)r);
	} else if (r < 0x800) {
		pc_buf_addch(b, (char)(0xc0 | (r >> 6)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	} else if (r < 0x10000) {
		pc_buf_addch(b, (char)(0xe0 | (r >> 12)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 6) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	} else {
		pc_buf_addch(b, (char)(0xf0 | (r >> 18)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 12) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 6) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	}
}

/* find_run - the run of t (n runs sorted by lo) holding r, or NULL. */
static const struct pc__chatcli_run *find_run(const struct pc__chatcli_run *t,
					      size_t n, int32_t r)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r < t[mid].lo)
			hi = mid;
		else if (r > t[mid].hi)
			lo = mid + 1;
		else
			return (r - t[mid].lo) % t[mid].step ? NULL : &t[mid];
	}
	return NULL;
}

static int32_t map_case(const struct pc__chatcli_run *t, size_t n, int32_t r)
{
	const struct pc__chatcli_run *run = find_run(t, n, r);

	return run ? r + run->delta : r;
}

static bool in_ranges(const struct pc__chatcli_run *t, size_t n, int32_t r)
{
	return find_run(t, n, r) != NULL;
}

int pc__chatcli_hex(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)c - '0';
	if (c >= 'a' && c <= 'f')
		return (int)c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return (int)c - 'A' + 10;
	return -1;
}

int32_t pc__chatcli_to_lower(int32_t r)
{
	return map_case(pc__chatcli_lower_runs, pc__chatcli_lower_nruns, r);
}

int32_t pc__chatcli_to_upper(int32_t r)
{
	return map_case(pc__chatcli_upper_runs, pc__chatcli_upper_nruns, r);
}

bool pc__chatcli_is_space(int32_t r)
{
	return in_ranges(pc__chatcli_space_ranges, pc__chatcli_space_nranges,
			 r);
}

bool pc__chatcli_is_letter(int32_t r)
{
	return in_ranges(pc__chatcli_letter_ranges,
			 pc__chatcli_letter_nranges, r);
}

bool pc__chatcli_is_digit(int32_t r)
{
	return in_ranges(pc__chatcli_digit_ranges, pc__chatcli_digit_nranges,
			 r);
}

/* map_string - strings.Map(f, s): runes mapped, invalid bytes U+FFFD. */
static char *map_string(const char *s, size_t n, int32_t (*f)(int32_t),
			size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < n;) {
		size_t sz;
		int32_t r = pc__chatcli_decode_rune(s + i, n - i, &sz);

		pc__chatcli_add_rune(&b, f(r));
		i += sz;
	}
	return pc_buf_detach(&b, out_n);
}

char *pc__chatcli_lower(const char *s, size_t n, size_t *out_n)
{
	return map_string(s, n, pc__chatcli_to_lower, out_n);
}

char *pc__chatcli_upper(const char *s, size_t n, size_t *out_n)
{
	return map_string(s, n, pc__chatcli_to_upper, out_n);
}

static int32_t same(int32_t r)
{
	return r;
}

char *pc__chatcli_runes_string(const char *s, size_t n, size_t *out_n)
{
	return map_string(s, n, same, out_n);
}

bool pc__chatcli_utf8_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t sz;

		if (pc__chatcli_decode_rune(s + i, n - i, &sz) ==
			    PC__RUNE_ERROR &&
		    sz == 1)
			return false;
		i += sz;
	}
	return true;
}

/* last_rune - utf8.DecodeLastRune of s[0..n): the start of the last
 * rune (an invalid byte is a rune of one byte). */
static size_t last_rune_start(const char *s, size_t n, int32_t *r)
{
	size_t start = n - 1, sz;

	/* back up over at most 3 continuation bytes, as Go does */
	while (start > 0 && n - start < 4 &&
	       ((unsigned char)s[start] & 0xc0) == 0x80)
		start--;
	*r = pc__chatcli_decode_rune(s + start, n - start, &sz);
	if (start + sz != n) {
		*r = PC__RUNE_ERROR;
		return n - 1;
	}
	return start;
}

void pc__chatcli_trim_space(const char **s, size_t *n)
{
	while (*n) {
		size_t sz;
		int32_t r = pc__chatcli_decode_rune(*s, *n, &sz);

		if ((r == PC__RUNE_ERROR && sz == 1) ||
		    !pc__chatcli_is_space(r))
			break;
		*s += sz;
		*n -= sz;
	}
	while (*n) {
		int32_t r;
		size_t start = last_rune_start(*s, *n, &r);

		if ((r == PC__RUNE_ERROR && *n - start == 1) ||
		    !pc__chatcli_is_space(r))
			break;
		*n = start;
	}
}

char *pc__chatcli_trim_dup(const char *s, size_t n, size_t *out_n)
{
	pc__chatcli_trim_space(&s, &n);
	if (out_n)
		*out_n = n;
	return pc_xmemdup(s, n);
}

long pc__chatcli_index(const char *hay, size_t hn, const char *needle,
		       size_t nn)
{
	if (!nn)
		return 0;
	for (size_t i = 0; i + nn <= hn; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, nn))
			return (long)i;
	return -1;
}

bool pc__chatcli_equal_fold_ascii(const char *a, size_t an, const char *b)
{
	size_t bn = strlen(b);

	if (an != bn)
		return false;
	for (size_t i = 0; i < an; i++) {
		unsigned x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return false;
	}
	return true;
}

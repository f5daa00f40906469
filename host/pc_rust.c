#include "pc_rust.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "pc_serde.h"

size_t pc_rust_utf8_next(const char *s, size_t n, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c, min;
	size_t len;

	if (!n)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2, c = u[0] & 0x1f, min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3, c = u[0] & 0x0f, min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4, c = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Length of the maximal prefix of an invalid sequence that could start a
 * valid one (Unicode "maximal subpart"), at least 1. */
static size_t invalid_len(const unsigned char *u, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;

	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		need = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		need = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		need = 4;
	else
		return 1;
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < need && i < n; i++) {
		unsigned char l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xbf;

		if (u[i] < l || u[i] > h)
			break;
	}
	return i;
}

int pc_rust_lossy_utf8(struct pc_buf *out, const char *bytes, size_t n)
{
	size_t i = 0, run = 0;

	while (i < n) {
		unsigned cp;
		size_t k = pc_rust_utf8_next(bytes + i, n - i, &cp);

		if (k) {
			i += k;
			run += k;
			continue;
		}
		if (pc_buf_add(out, bytes + i - run, run) < 0 ||
		    pc_buf_add(out, "\xef\xbf\xbd", 3) < 0)
			return -4;
		run = 0;
		i += invalid_len((const unsigned char *)bytes + i, n - i);
	}
	return pc_buf_add(out, bytes + n - run, run);
}

static bool is_white_space(unsigned c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 ||
	       c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
	       c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
	       c == 0x3000;
}

/* Decode the scalar that ends at s[end-1]; 0 when not valid. */
static size_t utf8_prev(const char *s, size_t end, unsigned *cp)
{
	size_t back = 1;

	while (back < 4 && back < end &&
	       ((unsigned char)s[end - back] & 0xc0) == 0x80)
		back++;
	if (pc_rust_utf8_next(s + end - back, back, cp) == back)
		return back;
	return 0;
}

size_t pc_rust_trim(const char *s, size_t n, size_t *start)
{
	size_t a = 0, b = n, k;
	unsigned cp;

	while (a < b && (k = pc_rust_utf8_next(s + a, b - a, &cp)) &&
	       is_white_space(cp))
		a += k;
	while (b > a && (k = utf8_prev(s, b, &cp)) && is_white_space(cp))
		b -= k;
	*start = a;
	return b - a;
}

bool pc_rust_is_utf8(const char *s, size_t n)
{
	unsigned cp;

	for (size_t i = 0, k; i < n; i += k)
		if (!(k = pc_rust_utf8_next(s + i, n - i, &cp)))
			return false;
	return true;
}

size_t pc_rust_chars_prefix(const char *s, size_t n, size_t nchars)
{
	size_t i = 0;

	while (i < n && nchars--) {
		unsigned cp;
		size_t k = pc_rust_utf8_next(s + i, n - i, &cp);

		i += k ? k : 1;
	}
	return i;
}

/* Characters that Rust's char::escape_debug writes as \u{..}: the ones
 * core::unicode::printable calls unprintable (general categories Cc, Cf,
 * Zs other than ' ', Zl, Zp, Co, Cn) and the Grapheme_Extend ones. These
 * ranges are not the whole tables: they hold the controls, every space
 * separator, the format characters, private use, noncharacters and the
 * combining-mark blocks that occur in file names (NFD accents, kana voicing
 * marks, variation selectors); each range is escaped in full by Rust (its
 * unassigned code points are Cn). */
static bool needs_unicode_escape(unsigned c)
{
	static const struct {
		unsigned lo, hi;
	} esc[] = {
		{ 0x0000, 0x001f },   { 0x007f, 0x00a0 },
		{ 0x00ad, 0x00ad },   { 0x0300, 0x036f },
		{ 0x0483, 0x0489 },   { 0x0600, 0x0605 },
		{ 0x061c, 0x061c },   { 0x06dd, 0x06dd },
		{ 0x070f, 0x070f },   { 0x0890, 0x0891 },
		{ 0x08e2, 0x08e2 },   { 0x1680, 0x1680 },
		{ 0x180e, 0x180e },   { 0x1ab0, 0x1aff },
		{ 0x1dc0, 0x1dff },   { 0x2000, 0x200f },
		{ 0x2028, 0x202f },   { 0x205f, 0x206f },
		{ 0x20d0, 0x20ff },   { 0x3000, 0x3000 },
		{ 0x3099, 0x309a },   { 0xe000, 0xf8ff },
		{ 0xfdd0, 0xfdef },   { 0xfe00, 0xfe0f },
		{ 0xfe20, 0xfe2f },   { 0xfeff, 0xfeff },
		{ 0xfff0, 0xfffb },   { 0x110bd, 0x110bd },
		{ 0x110cd, 0x110cd }, { 0x13430, 0x1343f },
		{ 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
		{ 0xe0000, 0xe0fff }, { 0xf0000, 0x10ffff },
	};

	if ((c & 0xfffe) == 0xfffe) /* U+xFFFE and U+xFFFF: noncharacters */
		return true;
	for (size_t i = 0; i < sizeof(esc) / sizeof(esc[0]); i++)
		if (c >= esc[i].lo && c <= esc[i].hi)
			return true;
	return false;
}

int pc_rust_debug_str(struct pc_buf *out, const char *s, size_t n)
{
	int rc = pc_buf_addch(out, '"');

	for (size_t i = 0; i < n && !rc;) {
		unsigned cp;
		size_t k = pc_rust_utf8_next(s + i, n - i, &cp);

		if (!k) {
			rc = pc_buf_addf(out, "\\x%02X", (unsigned char)s[i]);
			i++;
			continue;
		}
		switch (cp) {
		case '"':
			rc = pc_buf_adds(out, "\\\"");
			break;
		case '\\':
			rc = pc_buf_adds(out, "\\\\");
			break;
		case '\n':
			rc = pc_buf_adds(out, "\\n");
			break;
		case '\r':
			rc = pc_buf_adds(out, "\\r");
			break;
		case '\t':
			rc = pc_buf_adds(out, "\\t");
			break;
		case 0:
			rc = pc_buf_adds(out, "\\0");
			break;
		default:
			if (needs_unicode_escape(cp))
				rc = pc_buf_addf(out, "\\u{%x}", cp);
			else
				rc = pc_buf_add(out, s + i, k);
		}
		i += k;
	}
	return rc ? rc : pc_buf_addch(out, '"');
}

int pc_rust_debug_path(struct pc_buf *out, const char *p, size_t n)
{
	struct pc_buf q = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc = pc_rust_debug_str(&q, p, n);

	/* char::escape_debug (used for OsStr) also escapes the single quote;
	 * a ' in the str form can only come from a ' in `p`. */
	for (size_t i = 0; !rc && i < q.len; i++)
		rc = q.data[i] == '\'' ? pc_buf_adds(out, "\\'")
				       : pc_buf_addch(out, q.data[i]);
	pc_buf_release(&q);
	return rc;
}

int pc_rust_io_error(struct pc_buf *out, int errnum)
{
	return pc_buf_addf(out, "%s (os error %d)", strerror(errnum), errnum);
}

static const char *signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGHUP, "SIGHUP" },	  { SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" },	  { SIGILL, "SIGILL" },
		{ SIGTRAP, "SIGTRAP" },	  { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" },	  { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" },	  { SIGUSR1, "SIGUSR1" },
		{ SIGSEGV, "SIGSEGV" },	  { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" },	  { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" },	  { SIGCHLD, "SIGCHLD" },
		{ SIGCONT, "SIGCONT" },	  { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" },	  { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" },	  { SIGURG, "SIGURG" },
		{ SIGXCPU, "SIGXCPU" },	  { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
		{ SIGWINCH, "SIGWINCH" }, { SIGIO, "SIGIO" },
		{ SIGSYS, "SIGSYS" },
#ifdef SIGSTKFLT
		{ SIGSTKFLT, "SIGSTKFLT" },
#endif
#ifdef SIGPWR
		{ SIGPWR, "SIGPWR" },
#endif
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
}

int pc_rust_exit_status(struct pc_buf *out, bool signaled, int code_or_sig,
			bool core_dumped)
{
	const char *name;
	int rc;

	if (!signaled)
		return pc_buf_addf(out, "exit status: %d", code_or_sig);
	name = signal_name(code_or_sig);
	if (name)
		rc = pc_buf_addf(out, "signal: %d (%s)", code_or_sig, name);
	else
		rc = pc_buf_addf(out, "signal: %d", code_or_sig);
	if (!rc && core_dumped)
		rc = pc_buf_adds(out, " (core dumped)");
	return rc;
}

int pc_rust_debug_text(struct pc_buf *out, const char *text)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc = pc_serde_text_raw(&raw, text);

	if (!rc)
		rc = pc_rust_debug_str(out, pc_buf_cstr(&raw), raw.len);
	pc_buf_release(&raw);
	return rc;
}

int pc_rust_err_io(struct pc_err *err, int code, int errnum, const char *fmt,
		   ...)
{
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&m, fmt, ap);
	va_end(ap);
	pc_buf_adds(&m, ": ");
	pc_rust_io_error(&m, errnum);
	pc_err_set(err, code, "%s", pc_buf_cstr(&m));
	if (err)
		err->sys_errno = errnum;
	pc_buf_release(&m);
	return code;
}

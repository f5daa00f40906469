/* pc_report_html_esc.c - the HTML page's writer: counted writes, HTML
 * escaping, invisible bytes made visible, bounded excerpts
 * (pc_report_impl.h). Nothing the plugin wrote reaches the page as
 * markup or as a control byte: every '<', '&', quote and control is
 * written as an entity or as a visible mark. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pc_report_impl.h"
#include "pc_rust.h"

void pc__html_write(struct pc__html *h, const char *s, size_t n)
{
	if (n && fwrite(s, 1, n, h->out) == n)
		h->n += n;
}

void pc__html_puts(struct pc__html *h, const char *s)
{
	pc__html_write(h, s, strlen(s));
}

void pc__html_printf(struct pc__html *h, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(h->out, fmt, ap);
	va_end(ap);
	if (n > 0)
		h->n += (size_t)n;
}

/* A mark standing for bytes that have no glyph: `glyph` shown, `title`
 * telling what they were (both ASCII or fixed UTF-8, no markup). */
static void mark(struct pc__html *h, const char *glyph, const char *title)
{
	pc__html_printf(h, "<span class=\"vis\" title=\"%s\">%s</span>", title,
			glyph);
}

/* Scalars that change how text looks or reads without a glyph of their
 * own: format and bidirectional controls (Trojan Source), separators, the
 * soft hyphen, noncharacters. */
static bool invisible(unsigned cp)
{
	return cp == 0xad || cp == 0x61c || cp == 0x180e ||
	       (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb) || cp == 0xfffe ||
	       cp == 0xffff || (cp >= 0xfdd0 && cp <= 0xfdef) ||
	       (cp >= 0xe0000 && cp <= 0xe007f);
}

/* One control character (C0, DEL, C1) as a visible mark: its ASCII
 * abbreviation (the Control Pictures glyphs are missing from many
 * fonts, and the page loads none), or [U+XXXX]. */
static void control(struct pc__html *h, unsigned cp)
{
	static const char *const c0[32] = {
		"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL",
		"BS",  "HT",  "LF",  "VT",  "FF",  "CR",  "SO",  "SI",
		"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB",
		"CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"
	};
	char glyph[32], title[64];

	if (cp == 0x1b) {
		mark(h, "ESC",
		     "ESC (0x1b): a terminal escape, shown, not interpreted");
		return;
	}
	if (cp < 0x20) {
		snprintf(title, sizeof(title), "%s (0x%02x)", c0[cp], cp);
		mark(h, c0[cp], title);
	} else if (cp == 0x7f) {
		mark(h, "DEL", "DEL (0x7f)");
	} else {
		snprintf(glyph, sizeof(glyph), "[U+%04X]", cp);
		snprintf(title, sizeof(title), "C1 control U+%04X", cp);
		mark(h, glyph, title);
	}
}

/* One valid scalar `cp` (bytes raw[0..k)). */
static void scalar(struct pc__html *h, unsigned cp, const char *raw, size_t k)
{
	char glyph[32], title[64];

	switch (cp) {
	case '\n':
	case '\t':
		pc__html_write(h, raw, 1);
		return;
	case '\r':
		mark(h, "CR", "CR (0x0d)");
		return;
	case '<':
		pc__html_puts(h, "&lt;");
		return;
	case '>':
		pc__html_puts(h, "&gt;");
		return;
	case '&':
		pc__html_puts(h, "&amp;");
		return;
	case '"':
		pc__html_puts(h, "&quot;");
		return;
	case '\'':
		pc__html_puts(h, "&#39;");
		return;
	default:
		break;
	}
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
		control(h, cp);
	} else if (cp == 0xfeff) {
		mark(h, "[BOM]", "U+FEFF byte order mark");
	} else if (invisible(cp)) {
		snprintf(glyph, sizeof(glyph), "[U+%04X]", cp);
		snprintf(title, sizeof(title), "invisible character U+%04X", cp);
		mark(h, glyph, title);
	} else {
		pc__html_write(h, raw, k);
	}
}

void pc__html_text(struct pc__html *h, const char *s, size_t n,
		   unsigned flags)
{
	for (size_t i = 0; s && i < n;) {
		unsigned cp = 0;
		size_t k;

		if ((flags & PC_HTML_STORED) && i + 1 < n &&
		    (unsigned char)s[i] == 0xc0 &&
		    (unsigned char)s[i + 1] == 0x80) {
			mark(h, "NUL", "NUL (0x00)");
			i += 2;
			continue;
		}
		k = pc_rust_utf8_next(s + i, n - i, &cp);
		if (!k) {
			char glyph[8];

			snprintf(glyph, sizeof(glyph), "\\x%02x",
				 (unsigned char)s[i]);
			mark(h, glyph, "a byte that is not valid UTF-8");
			i++;
			continue;
		}
		scalar(h, cp, s + i, k);
		i += k;
	}
}

void pc__html_str(struct pc__html *h, const char *s)
{
	if (s)
		pc__html_text(h, s, strlen(s), PC_HTML_STORED);
}

void pc__html_attr(struct pc__html *h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
	     p++) {
		if (*p == '&')
			pc__html_puts(h, "&amp;");
		else if (*p == '"')
			pc__html_puts(h, "&quot;");
		else if (*p == '\'')
			pc__html_puts(h, "&#39;");
		else if (*p == '<')
			pc__html_puts(h, "&lt;");
		else if (*p == '>')
			pc__html_puts(h, "&gt;");
		else if (*p < 0x20 || *p == 0x7f)
			pc__html_puts(h, "?");
		else
			pc__html_write(h, (const char *)p, 1);
	}
}

void pc__html_excerpt(struct pc__html *h, const char *label,
		      const struct pc_excerpt *e)
{
	if (!e->total) {
		pc__html_printf(h, "<p class=\"stream empty\" data-stream=\"%s\">%s: (empty)</p>\n",
				label, label);
		return;
	}
	pc__html_printf(h, "<h5>%s <span class=\"size\">%zu bytes</span></h5>\n",
			label, e->total);
	pc__html_printf(h, "<pre class=\"bytes\" data-stream=\"%s\">", label);
	pc__html_text(h, e->data, e->head, 0);
	if (e->total > e->len) {
		pc__html_printf(h, "<span class=\"cut\">\n\xe2\x80\xa6 %zu bytes not shown (%zu in all: the first %zu and the last %zu are shown) \xe2\x80\xa6\n</span>",
				e->total - e->len, e->total, e->head,
				e->len - e->head);
		pc__html_text(h, e->data + e->head, e->len - e->head, 0);
	}
	pc__html_puts(h, "</pre>\n");
}

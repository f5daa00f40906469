/* pc_scaffold_quote.c - the template renderer and its quoting filters.
 *
 * A user-given value (a plugin, tool, command or provider name, a hook
 * point, a script path) reaches a generated file only through a filter
 * that quotes it for the spot it lands in: `{{NAME|json}}` inside a JSON
 * string, `{{PLUGIN|sh}}` as one shell word, `{{PLUGIN|py|pct}}` inside a
 * Python "%"-format literal, ... A bare `{{PLUGIN}}` is a render error,
 * so no template can forget. Values are substituted in a single pass:
 * text a value brings in is never scanned for placeholders again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

/* The keys whose values come from the user (names, paths). */
static const char *const user_keys[] = { "PLUGIN",   "NAME",   "POINT",
					 "PROVIDER", "SCRIPT", NULL };

static bool is_user_key(const char *key, size_t n)
{
	for (size_t i = 0; user_keys[i]; i++)
		if (strlen(user_keys[i]) == n && !strncmp(user_keys[i], key, n))
			return true;
	return false;
}

static void json_body(const char *s, struct pc_buf *out)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			pc_buf_addf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			pc_buf_addf(out, "\\u%04x", c);
		else
			pc_buf_addch(out, (char)c);
	}
}

static void sq_body(const char *s, struct pc_buf *out)
{
	for (; *s; s++)
		if (*s == '\'')
			pc_buf_adds(out, "'\\''");
		else
			pc_buf_addch(out, *s);
}

static void escape_set(const char *s, const char *set, struct pc_buf *out)
{
	for (; *s; s++) {
		if (strchr(set, *s))
			pc_buf_addch(out, '\\');
		pc_buf_addch(out, *s);
	}
}

static void py_body(const char *s, struct pc_buf *out)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"' || c == '\'')
			pc_buf_addf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			pc_buf_addf(out, "\\x%02x", c);
		else
			pc_buf_addch(out, (char)c);
	}
}

/* C string literal body: octal escapes for every byte outside printable
 * ASCII (independent of the compiler's source charset), `\?` against
 * trigraphs (-std=c11 turns them on). */
static void c_body(const char *s, struct pc_buf *out)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"' || c == '?')
			pc_buf_addf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			pc_buf_addf(out, "\\%03o", c);
		else
			pc_buf_addch(out, (char)c);
	}
}

/* Inside a C block comment: no "*" "/" pair may end it, no trigraph may
 * splice lines. */
static void c_comment(const char *s, struct pc_buf *out)
{
	for (; *s; s++) {
		pc_buf_addch(out, (unsigned char)*s < 0x20 ? '?' : *s);
		if ((s[0] == '*' && s[1] == '/') ||
		    (s[0] == '?' && s[1] == '?'))
			pc_buf_addch(out, ' ');
	}
}

/* A markdown code span holding `s`: a backtick fence longer than any run
 * of backticks in it, padded when `s` starts or ends with one
 * (CommonMark 6.1). */
static void md_code(const char *s, struct pc_buf *out)
{
	size_t run = 0, longest = 0, n = strlen(s);
	bool pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ');

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		pc_buf_addch(out, '`');
	pc_buf_adds(out, pad ? " " : "");
	for (const char *p = s; *p; p++)
		pc_buf_addch(out, (unsigned char)*p < 0x20 ? ' ' : *p);
	pc_buf_adds(out, pad ? " " : "");
	for (size_t i = 0; i <= longest; i++)
		pc_buf_addch(out, '`');
}

/* Markdown inline text (a heading's, a paragraph's: never at the start
 * of a line): the characters that start emphasis, code, links, images,
 * HTML, entities, tables, strikethrough or a heading's closing # are
 * backslash-escaped (CommonMark 2.4), control characters become spaces.
 * A name such as my-plugin stays readable in the raw file. */
static void md_text(const char *s, struct pc_buf *out)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>!|~&#", *s))
			pc_buf_addch(out, '\\');
		pc_buf_addch(out, (unsigned char)*s < 0x20 ? ' ' : *s);
	}
}

/* Make target and file names, .gitignore patterns, GitHub expression
 * text: only what needs no quoting at all there. */
static bool is_word(const char *s)
{
	return pc_scaffold_only(s, PC_SCAFFOLD_ALNUM "_-./@");
}

bool pc_scaffold_only(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

static void pct(const char *s, struct pc_buf *out)
{
	for (; *s; s++)
		pc_buf_adds(out, *s == '%' ? "%%" : (char[]){ *s, '\0' });
}

static void sh_word(const char *s, struct pc_buf *out)
{
	pc_buf_addch(out, '\'');
	sq_body(s, out);
	pc_buf_addch(out, '\'');
}

static void dq_body(const char *s, struct pc_buf *out)
{
	escape_set(s, "\\\"$`", out);
}

/* In a '#' comment (sh, Python, make): one line. */
static void line_comment(const char *s, struct pc_buf *out)
{
	for (; *s; s++)
		pc_buf_addch(out, (unsigned char)*s < 0x20 ? '?' : *s);
}

static const struct {
	const char *name;
	void (*fn)(const char *s, struct pc_buf *out);
} filters[] = {
	{ "json", json_body },	 /* inside "..." of JSON, YAML */
	{ "sh", sh_word },	 /* one shell word: '...' */
	{ "sq", sq_body },	 /* inside '...' of sh */
	{ "dq", dq_body },	 /* inside "..." of sh */
	{ "py", py_body },	 /* inside "..." or '...' of Python */
	{ "c", c_body },	 /* inside "..." of C */
	{ "pct", pct },		 /* a printf format's text */
	{ "ccmt", c_comment },	 /* inside a C block comment */
	{ "cmt", line_comment }, /* inside a '#' comment */
	{ "code", md_code },	 /* a markdown code span */
	{ "md", md_text },	 /* markdown text */
	{ "word", NULL },	 /* make, .gitignore: no quoting needed */
};

int pc__scaffold_quote(const char *filter, size_t n, const char *s,
		       struct pc_buf *out)
{
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		if (strlen(filters[i].name) != n ||
		    strncmp(filters[i].name, filter, n))
			continue;
		if (!filters[i].fn) {
			if (!is_word(s))
				return -1;
			pc_buf_adds(out, s);
		} else {
			filters[i].fn(s, out);
		}
		return 0;
	}
	return -2;
}

static const char *lookup(const char *const *kv, const char *key, size_t n)
{
	for (size_t i = 0; kv[i]; i += 2)
		if (strlen(kv[i]) == n && !strncmp(kv[i], key, n))
			return kv[i + 1];
	return NULL;
}

/* The value of the placeholder at p ("{{KEY|f|g}}", `len` bytes) through
 * its filters, appended to *out. */
static int substitute(const char *tmpl, const char *p, size_t len,
		      const char *value, struct pc_buf *out, struct pc_err *err)
{
	size_t klen = strspn(p + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
	const char *f = p + 2 + klen, *end = p + len - 2;
	struct pc_buf cur = PC_BUF_INIT(PC_BUF_NOCAP), next;
	int rc = 0;

	if (f == end && is_user_key(p + 2, klen))
		return pc_err_set(
			err, PC_EINVAL,
			"template '%s': %.*s is written without a quoting filter (such as {{%.*s|json}})",
			tmpl, (int)len, p, (int)klen, p + 2);
	pc_buf_adds(&cur, value);
	while (f < end && !rc) {
		size_t flen = strcspn(f + 1, "|}");

		pc_buf_init(&next, PC_BUF_NOCAP);
		pc_buf_adds(&next, "");
		switch (pc__scaffold_quote(f + 1, flen, pc_buf_cstr(&cur),
					   &next)) {
		case -1:
			rc = pc_err_set(
				err, PC_EINVAL,
				"'%s' cannot be written into %s (%.*s): use letters, digits and _ - . only",
				value, tmpl, (int)len, p);
			break;
		case -2:
			rc = pc_err_set(err, PC_EINVAL,
					"template '%s': unknown filter in %.*s",
					tmpl, (int)len, p);
			break;
		}
		pc_buf_release(&cur);
		cur = next;
		f += 1 + flen;
	}
	if (!rc)
		pc_buf_add(out, cur.data, cur.len);
	pc_buf_release(&cur);
	return rc;
}

/* Length of the placeholder at p, 0 when p does not start one. */
static size_t placeholder_len(const char *p)
{
	size_t n = 2;

	if (p[0] != '{' || p[1] != '{')
		return 0;
	n += strspn(p + n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
	if (n == 2)
		return 0;
	while (p[n] == '|' && strspn(p + n + 1, "abcdefghijklmnopqrstuvwxyz"))
		n += 1 + strspn(p + n + 1, "abcdefghijklmnopqrstuvwxyz");
	return p[n] == '}' && p[n + 1] == '}' ? n + 2 : 0;
}

int pc__scaffold_render(const char *tmpl, const char *text,
			const char *const *kv, char **out, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p = text;
	int rc = 0;

	pc_buf_adds(&b, "");
	while (*p && !rc) {
		size_t len = placeholder_len(p);
		const char *value =
			len ? lookup(kv, p + 2,
				     strspn(p + 2,
					    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
			    : NULL;

		if (value) {
			rc = substitute(tmpl, p, len, value, &b, err);
			p += len;
		} else {
			pc_buf_addch(&b, *p++);
		}
	}
	if (rc)
		pc_buf_release(&b);
	else
		*out = pc_buf_detach(&b, NULL);
	return rc;
}

char *pc_scaffold_shell_word(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, "");
	if (pc_scaffold_only(s, PC_SCAFFOLD_ALNUM "_./@%+=:,-"))
		pc_buf_adds(&b, s);
	else
		sh_word(s, &b);
	return pc_buf_detach(&b, NULL);
}

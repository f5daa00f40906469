/* pc_cause_bytes.c - causes in what a script printed and in a script's
 * text (pc_cause.h). */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cause.h"
#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define MAX_CANDIDATES 64

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* c is one of the characters of `set` (strchr alone also matches the
 * terminating NUL, and a script's bytes may hold one). */
static bool one_of(char c, const char *set)
{
	return c && strchr(set, c);
}

bool pc_cause_bom(const char *s, size_t n, size_t *at)
{
	size_t i = 0;

	while (i < n && blank(s[i]))
		i++;
	if (n - i < 3 || memcmp(s + i, "\xef\xbb\xbf", 3))
		return false;
	if (at)
		*at = i;
	return true;
}

/* The length of the valid UTF-8 sequence at s[0], or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c < 0x80		      ? 1
		     : c >= 0xc2 && c <= 0xdf ? 2
		     : c >= 0xe0 && c <= 0xef ? 3
		     : c >= 0xf0 && c <= 0xf4 ? 4
					      : 0;

	if (!len || len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	/* overlong, surrogate and beyond U+10FFFF forms */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

size_t pc_cause_bad_utf8(const char *s, size_t n, unsigned *latin1)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t k = utf8_len(u + i, n - i);

		if (k) {
			i += k;
			continue;
		}
		if (latin1)
			*latin1 = u[i] >= 0xa0 ? u[i] : 0;
		return i;
	}
	return (size_t)-1;
}

/* The length of [from, to) of `s` without the whitespace around it. */
static size_t count_text(const char *s, size_t from, size_t to)
{
	while (from < to && blank(s[from]))
		from++;
	while (to > from && blank(s[to - 1]))
		to--;
	return to - from;
}

/* Does a JSON object or array start at `p` and parse on its own? */
static bool try_at(const char *s, size_t n, size_t p, struct pc_cause_embed *e)
{
	size_t end = pc_json_value_end(s, n, p);
	cJSON *v = NULL;

	if (end == (size_t)-1 || pc_serde_parse(s + p, end - p, &v, NULL) < 0)
		return false;
	cJSON_Delete(v);
	e->start = p;
	e->end = end;
	e->before = count_text(s, 0, p);
	e->after = count_text(s, end, n);
	e->carriage = false;
	for (size_t i = 0; i < p; i++)
		if (s[i] == '\r' && (i + 1 >= p || s[i + 1] != '\n'))
			e->carriage = true;
	return e->before + e->after > 0;
}

bool pc_cause_embedded_json(const char *s, size_t n, struct pc_cause_embed *e)
{
	size_t a = 0, b = n, tried = 0;
	const char *first;
	cJSON *v = NULL;

	while (a < b && blank(s[a]))
		a++;
	while (b > a && blank(s[b - 1]))
		b--;
	if (pc_serde_parse(s + a, b - a, &v, NULL) == 0) {
		cJSON_Delete(v);
		return false;
	}
	for (size_t i = 0; i < n && tried < MAX_CANDIDATES; i++) {
		size_t p = i;

		if (i && s[i - 1] != '\n' && s[i - 1] != '\r')
			continue;
		while (p < n && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p >= n || (s[p] != '{' && s[p] != '['))
			continue;
		tried++;
		if (try_at(s, n, p, e))
			return true;
	}
	first = memchr(s, '{', n);
	return first && try_at(s, n, (size_t)(first - s), e);
}

struct pc_loc pc_cause_code_line(const char *s, size_t n, const char *needle)
{
	struct pc_loc none = { 0, 0 };
	size_t k = strlen(needle), start = 0;

	if (!k)
		return none;
	for (unsigned line = 1; start < n; line++) {
		const char *nl = memchr(s + start, '\n', n - start);
		size_t end = nl ? (size_t)(nl - s) : n, i = start;

		while (i < end && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (!(i < end && s[i] == '#') &&
		    !(i + 1 < end && s[i] == '/' && s[i + 1] == '/')) {
			for (size_t j = start; j + k <= end; j++)
				if (!memcmp(s + j, needle, k)) {
					struct pc_loc at = {
						line, (unsigned)(j - start + 1)
					};

					return at;
				}
		}
		start = end + 1;
	}
	return none;
}

struct pc_loc pc_cause_printed_line(const char *script, size_t sn,
				    const char *printed, size_t pn)
{
	struct pc_loc none = { 0, 0 }, at;
	char line[61], whole[61];
	size_t i = 0, k, len;

	/* the first line that is not blank, trimmed */
	while (i < pn && blank(printed[i]))
		i++;
	k = i;
	while (k < pn && printed[k] != '\n' && printed[k] != '\r')
		k++;
	len = k - i < 60 ? k - i : 60;
	memcpy(line, printed + i, len);
	while (len && blank(line[len - 1]))
		len--;
	line[len] = '\0';
	if (memchr(line, '\0', len))
		return none;
	memcpy(whole, line, len + 1);
	while (len >= 5) {
		at = pc_cause_code_line(script, sn, line);
		if (at.line)
			return at;
		while (len && line[len - 1] != ' ')
			len--;
		while (len && line[len - 1] == ' ')
			len--;
		line[len] = '\0';
	}
	/* the text before the first digit: a printf format's literal part */
	len = strcspn(whole, "0123456789");
	if (len < 5 || !whole[len])
		return none;
	whole[len] = '\0';
	return pc_cause_code_line(script, sn, whole);
}

/* The number at p (at most 7 digits), or 0. */
static unsigned number_at(const char *p, const char *end)
{
	unsigned v = 0, k = 0;

	while (p < end && *p >= '0' && *p <= '9' && k++ < 7)
		v = v * 10 + (unsigned)(*p++ - '0');
	return v;
}

unsigned pc_cause_stderr_line(const char *err, size_t n, const char *script)
{
	size_t k = strlen(script);
	const char *end = err + n;
	unsigned line = 0;

	if (!k)
		return 0;
	for (const char *p = err; p + k < end;) {
		const char *hit = memchr(p, script[0], (size_t)(end - p));
		const char *q;

		if (!hit || hit + k > end)
			break;
		p = hit + 1;
		if (memcmp(hit, script, k))
			continue;
		q = hit + k;
		if (q < end && *q == '"' && end - q > 8 &&
		    !memcmp(q, "\", line ", 8))
			line = number_at(q + 8,
					 end); /* Python: the innermost */
		else if (end - q > 7 && !memcmp(q, ": line ", 7) && !line)
			line = number_at(q + 7, end);
		else if (end - q > 13 && !memcmp(q, ": eval: line ", 13) &&
			 !line)
			line = number_at(q + 13, end);
		else if (q < end && *q == ':' && !line)
			line = number_at(q + 1, end);
	}
	return line;
}

/* ---- script text ---- */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The interpreter the #! line names (its basename, through env), into
 * buf; false without a #! line. */
static bool shebang_prog(const char *s, size_t n, char *buf, size_t cap)
{
	size_t i = 2, k;
	char word[64];

	if (n < 2 || s[0] != '#' || s[1] != '!')
		return false;
	for (int w = 0; w < 2; w++) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		k = 0;
		while (i < n && !blank(s[i]) && k + 1 < sizeof(word))
			word[k++] = s[i++];
		word[k] = '\0';
		if (w == 0 && has_suffix(word, "/env")) {
			/* env [-S] PROG */
			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (i + 1 < n && s[i] == '-') {
				while (i < n && !blank(s[i]))
					i++;
			}
			continue;
		}
		break;
	}
	{
		const char *base = strrchr(word, '/');

		snprintf(buf, cap, "%s", base ? base + 1 : word);
	}
	return true;
}

bool pc_cause_is_shell(const char *path, const char *s, size_t n)
{
	static const char *const shells[] = { "sh",  "bash", "dash", "ash",
					      "ksh", "mksh", "zsh" };
	const char *base = strrchr(path, '/'), *dot;
	char prog[64];

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (dot && dot != base &&
	    (!strcmp(dot, ".sh") || !strcmp(dot, ".bash") ||
	     !strcmp(dot, ".SH") || !strcmp(dot, ".BASH")))
		return true;
	if (dot && dot != base && (!strcmp(dot, ".py") || !strcmp(dot, ".ps1")))
		return false;
	if (!shebang_prog(s, n, prog, sizeof(prog)))
		return false;
	for (size_t i = 0; i < sizeof(shells) / sizeof(*shells); i++)
		if (!strcmp(prog, shells[i]))
			return true;
	return false;
}

struct pc_loc pc_cause_crlf(const char *s, size_t n)
{
	struct pc_loc none = { 0, 0 };
	const char *p = n ? memchr(s, '\r', n) : NULL;

	while (p) {
		size_t off = (size_t)(p - s);

		if (off + 1 < n && p[1] == '\n')
			return pc_loc_of_offset(s, n, off);
		p = off + 1 < n ? memchr(p + 1, '\r', n - off - 1) : NULL;
	}
	return none;
}

/* ---- the `read` of a shell script ---- */

/* One line of the script (without its '\n' and comment). */
struct line {
	const char *p;
	size_t len;
	size_t off;  /* of p in the text */
	unsigned no; /* 1-based */
};

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* The line without a comment: from an unquoted '#' that starts a word. */
static size_t uncommented(const char *p, size_t len)
{
	char q = 0;

	for (size_t i = 0; i < len; i++) {
		if (q) {
			if (p[i] == q)
				q = 0;
			else if (p[i] == '\\' && q == '"')
				i++;
			continue;
		}
		if (p[i] == '\'' || p[i] == '"')
			q = p[i];
		else if (p[i] == '\\')
			i++;
		else if (p[i] == '#' && (i == 0 || blank(p[i - 1])))
			return i;
	}
	return len;
}

static bool sets_errexit(const struct line *l)
{
	for (size_t i = 0; i + 4 < l->len; i++) {
		const char *p = l->p + i;

		if (strncmp(p, "set ", 4) || (i && word_char(p[-1])))
			continue;
		for (size_t k = i + 4; k < l->len; k++) {
			char c = l->p[k];

			if (c == ';' || c == '&' || c == '|')
				break;
			if (c == '-' && k + 1 < l->len && l->p[k + 1] != '-') {
				size_t e = k + 1;

				while (e < l->len && word_char(l->p[e])) {
					if (l->p[e] == 'e')
						return true;
					e++;
				}
			}
			if (l->len - k >= 7 && !memcmp(l->p + k, "errexit", 7))
				return true;
		}
	}
	return false;
}

/* The text of `l` before byte i with blanks trimmed ends in word `w`. */
static bool ends_with_word(const struct line *l, size_t i, const char *w)
{
	size_t k = strlen(w), e = i;

	while (e && (l->p[e - 1] == ' ' || l->p[e - 1] == '\t'))
		e--;
	return e >= k && !memcmp(l->p + e - k, w, k) &&
	       (e == k || !word_char(l->p[e - k - 1]));
}

/* Is the `read` at l->p[i] a command (not part of another word)? Skips
 * leading NAME=value assignments before it. */
static bool is_read_command(const struct line *l, size_t i)
{
	size_t e = i;

	if (strncmp(l->p + i, "read", 4) ||
	    (i + 4 < l->len && !blank(l->p[i + 4]) && l->p[i + 4] != ';'))
		return false;
	while (e && (l->p[e - 1] == ' ' || l->p[e - 1] == '\t'))
		e--;
	/* IFS= read, VAR=x read */
	while (e && !blank(l->p[e - 1]) && l->p[e - 1] != ';') {
		size_t w = e;

		while (w && !blank(l->p[w - 1]) && l->p[w - 1] != ';')
			w--;
		if (!memchr(l->p + w, '=', e - w))
			break;
		e = w;
		while (e && (l->p[e - 1] == ' ' || l->p[e - 1] == '\t'))
			e--;
	}
	if (!e)
		return true;
	return one_of(l->p[e - 1], ";&|(!{") || ends_with_word(l, e, "then") ||
	       ends_with_word(l, e, "do") || ends_with_word(l, e, "else") ||
	       ends_with_word(l, e, "while") || ends_with_word(l, e, "until") ||
	       ends_with_word(l, e, "if");
}

/* The end of the read command that starts at i: up to ';', '&', '|' or
 * the end of the line. */
static size_t command_end(const struct line *l, size_t i)
{
	while (i < l->len && !one_of(l->p[i], ";&|"))
		i++;
	return i;
}

/* The read's arguments redirect its input, or name another descriptor. */
static bool not_stdin(const struct line *l, size_t i, size_t end)
{
	for (size_t k = i; k < end; k++)
		if (l->p[k] == '<' ||
		    (l->p[k] == '-' && k + 1 < end && l->p[k + 1] == 'u' &&
		     (k + 2 >= end || blank(l->p[k + 2]))))
			return true;
	return false;
}

/* `|| [ -n "$x" ]`, `|| test -n`, `|| true`, `|| :` after the read. */
static bool guarded(const struct line *l, size_t end)
{
	const char *p = l->p + end, *stop = l->p + l->len;
	static const char *const ok[] = { "[ -n", "[[ -n", "test -n", "true",
					  ":" };

	if (stop - p < 2 || memcmp(p, "||", 2))
		return false;
	p += 2;
	while (p < stop && (*p == ' ' || *p == '\t'))
		p++;
	for (size_t k = 0; k < sizeof(ok) / sizeof(*ok); k++)
		if ((size_t)(stop - p) >= strlen(ok[k]) &&
		    !memcmp(p, ok[k], strlen(ok[k])))
			return true;
	return false;
}

/* A pipe into the read from something other than cat: not the script's
 * stdin (echo "$x" | read also gets a newline). */
static bool piped_from_other(const struct line *l, size_t i)
{
	size_t e = i, w;

	while (e && l->p[e - 1] != '|' && l->p[e - 1] != ';' &&
	       l->p[e - 1] != '&')
		e--;
	if (!e || l->p[e - 1] != '|' || (e >= 2 && l->p[e - 2] == '|'))
		return false;
	e--;
	while (e && (l->p[e - 1] == ' ' || l->p[e - 1] == '\t'))
		e--;
	w = e;
	while (w && l->p[w - 1] != ';' && l->p[w - 1] != '|' &&
	       l->p[w - 1] != '&' && l->p[w - 1] != '(')
		w--;
	while (w < e && blank(l->p[w]))
		w++;
	return !(e - w >= 3 && !memcmp(l->p + w, "cat", 3) &&
		 (e - w == 3 || blank(l->p[w + 3])));
}

/* A while/until loop from line `k` on: is it fed by `done < FILE` or
 * `done <<< ...`? Looks at the first line with a `done` word. */
static bool loop_fed(const struct line *v, size_t nv, size_t k)
{
	for (size_t j = k; j < nv; j++) {
		const struct line *l = &v[j];

		for (size_t i = 0; i + 4 <= l->len; i++) {
			if (memcmp(l->p + i, "done", 4) ||
			    (i && word_char(l->p[i - 1])) ||
			    (i + 4 < l->len && word_char(l->p[i + 4])))
				continue;
			for (size_t r = i + 4; r < l->len; r++)
				if (l->p[r] == '<')
					return true;
			return false;
		}
	}
	return false;
}

static size_t split_lines(const char *s, size_t n, struct line **out)
{
	size_t nv = 0, cap = 0, off = 0;
	struct line *v = NULL;

	for (unsigned no = 1; off < n; no++) {
		const char *nl = memchr(s + off, '\n', n - off);
		size_t len = nl ? (size_t)(nl - s) - off : n - off;

		if (nv == cap) {
			cap = cap ? cap * 2 : 64;
			v = pc_xreallocarray(v, cap, sizeof(*v));
		}
		v[nv].p = s + off;
		v[nv].off = off;
		v[nv].no = no;
		v[nv].len = uncommented(s + off, len);
		nv++;
		off += len + 1;
	}
	*out = v;
	return nv;
}

/* How the read at v[k].p[i] fails, or NONE. */
static enum pc_cause_read classify(const struct line *v, size_t nv, size_t k,
				   size_t i, unsigned errexit)
{
	const struct line *l = &v[k];
	size_t end = command_end(l, i);
	bool loop = false, test = false;

	if (not_stdin(l, i, end) || piped_from_other(l, i))
		return PC_CAUSE_READ_NONE;
	for (size_t b = i; b && !test && !loop; b--) {
		if (one_of(l->p[b - 1], ";&") &&
		    !(l->p[b - 1] == '&' && b >= 2 && l->p[b - 2] == '&'))
			break;
		loop = ends_with_word(l, b, "while") ||
		       ends_with_word(l, b, "until");
		test = ends_with_word(l, b, "if") || ends_with_word(l, b, "!");
	}
	if (guarded(l, end))
		return PC_CAUSE_READ_NONE;
	if (loop)
		return loop_fed(v, nv, k) ? PC_CAUSE_READ_NONE
					  : PC_CAUSE_READ_LOOP;
	if (end + 1 < l->len &&
	    (!memcmp(l->p + end, "||", 2) || !memcmp(l->p + end, "&&", 2)))
		return PC_CAUSE_READ_TEST;
	if (test)
		return PC_CAUSE_READ_TEST;
	return errexit ? PC_CAUSE_READ_ERREXIT : PC_CAUSE_READ_NONE;
}

enum pc_cause_read pc_cause_shell_read(const char *s, size_t n,
				       bool shebang_flags, struct pc_loc *at,
				       unsigned *errexit_line)
{
	struct line *v = NULL;
	size_t nv = split_lines(s, n, &v);
	unsigned errexit = 0;
	enum pc_cause_read r = PC_CAUSE_READ_NONE;

	for (size_t k = 0; k < nv && r == PC_CAUSE_READ_NONE; k++) {
		const struct line *l = &v[k];

		if (k == 0 && n > 2 && !memcmp(s, "#!", 2)) {
			/* uncommented() cut the whole #! line */
			const char *nl = memchr(s, '\n', n);
			size_t len = nl ? (size_t)(nl - s) : n;

			for (size_t i = 2; shebang_flags && i + 1 < len; i++) {
				if (s[i] != ' ' || s[i + 1] != '-')
					continue;
				for (size_t f = i + 2;
				     f < len && word_char(s[f]); f++)
					if (s[f] == 'e')
						errexit = 1;
			}
			continue;
		}
		if (!errexit && sets_errexit(l))
			errexit = l->no;
		for (size_t i = 0; i + 4 <= l->len; i++) {
			if (!is_read_command(l, i))
				continue;
			r = classify(v, nv, k, i, errexit);
			if (r != PC_CAUSE_READ_NONE) {
				*at = pc_loc_of_offset(s, n, l->off + i);
				break;
			}
		}
	}
	if (errexit_line)
		*errexit_line = r == PC_CAUSE_READ_ERREXIT ? errexit : 0;
	free(v);
	return r;
}

/* ---- relative files ---- */

static bool path_char(char c)
{
	return word_char(c) || one_of(c, "_.-/@+");
}

/* A ".." component, or "." alone: not a file inside the plugin. */
static bool dot_dot(const char *name)
{
	if (!strcmp(name, "."))
		return true;
	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
	return false;
}

static bool listed(const struct pc_cause_file *out, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(out[i].name, name))
			return true;
	return false;
}

static bool regular_under(const char *dir, const char *name)
{
	char *p = pc_fs_join(dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return yes;
}

size_t pc_cause_relative_files(const char *s, size_t n, const char *dir,
			       const char *self, struct pc_cause_file *out,
			       size_t max)
{
	size_t got = 0;

	for (size_t i = 0; i < n && got < max;) {
		size_t k = i;
		char *name;
		const char *tok;

		if (s[i] == '#' && (!i || blank(s[i - 1]))) {
			/* a comment (sh, Python, Ruby, Perl): mentions only */
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (!path_char(s[i]) || (i && path_char(s[i - 1]))) {
			i++;
			continue;
		}
		while (k < n && path_char(s[k]))
			k++;
		tok = s + i;
		/* not absolute, an option, ~, a URL, $VAR/x */
		if (*tok == '/' || *tok == '-' ||
		    (i && one_of(s[i - 1], "~$:")) ||
		    (k + 2 < n && s[k] == ':' && s[k + 1] == '/')) {
			i = k;
			continue;
		}
		name = pc_xmemdup(tok, k - i);
		while (!strncmp(name, "./", 2))
			memmove(name, name + 2, strlen(name + 2) + 1);
		if ((strchr(name, '.') || strchr(name, '/')) && *name &&
		    !dot_dot(name) && (!self || strcmp(name, self)) &&
		    !listed(out, got, name) && regular_under(dir, name)) {
			out[got].name = name;
			out[got].at = pc_loc_of_offset(s, n, i);
			got++;
		} else {
			free(name);
		}
		i = k;
	}
	return got;
}

void pc_cause_files_release(struct pc_cause_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].name);
		f[i].name = NULL;
	}
}

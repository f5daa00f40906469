/* pc_scaffold_json.c - surgical edits of plugin.json text: find the byte
 * spans of members and elements with a small tokenizer, and splice new
 * text in so that every other byte of the file stays as it was. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_scaffold.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

#define BAD	  ((size_t)-1)
#define MAX_DEPTH 256

static size_t skip_ws(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	return i;
}

/* s[i] is '"'; the index after the closing quote, or BAD. */
static size_t skip_string(const char *s, size_t i)
{
	for (i++; s[i] && s[i] != '"'; i++)
		if (s[i] == '\\' && !s[++i])
			return BAD;
	return s[i] == '"' ? i + 1 : BAD;
}

static size_t skip_value(const char *s, size_t i, int depth)
{
	char close;

	if (s[i] == '"')
		return skip_string(s, i);
	if (s[i] != '{' && s[i] != '[') {
		size_t j = i;

		while (s[j] && !strchr(",]} \t\r\n", s[j]))
			j++;
		return j > i ? j : BAD;
	}
	if (depth > MAX_DEPTH)
		return BAD;
	close = s[i] == '{' ? '}' : ']';
	i = skip_ws(s, i + 1);
	if (s[i] == close)
		return i + 1;
	for (;;) {
		if (close == '}') {
			if (s[i] != '"' || (i = skip_string(s, i)) == BAD)
				return BAD;
			i = skip_ws(s, i);
			if (s[i++] != ':')
				return BAD;
			i = skip_ws(s, i);
		}
		if ((i = skip_value(s, i, depth + 1)) == BAD)
			return BAD;
		i = skip_ws(s, i);
		if (s[i] == close)
			return i + 1;
		if (s[i] != ',')
			return BAD;
		i = skip_ws(s, i + 1);
	}
}

/* The items of the container opening at s[open]: start of the first item,
 * end of the last, count, index of the closing bracket. For objects an
 * item is "key": value; vstart and vend give the value of member `key`. */
struct items {
	size_t first, last_end, close, count;
	size_t kstart, vstart, vend; /* of the member named `key` */
};

static int scan(const char *s, size_t open, const char *key, struct items *it)
{
	bool obj = s[open] == '{';
	size_t i = skip_ws(s, open + 1), k, v;

	memset(it, 0, sizeof(*it));
	it->vstart = BAD;
	if (s[i] == (obj ? '}' : ']')) {
		it->close = i;
		return 0;
	}
	it->first = i;
	for (;;) {
		k = i;
		if (obj) {
			if (s[i] != '"' || (i = skip_string(s, i)) == BAD)
				return -1;
			i = skip_ws(s, i);
			if (s[i++] != ':')
				return -1;
			i = skip_ws(s, i);
		}
		v = i;
		if ((i = skip_value(s, i, 0)) == BAD)
			return -1;
		if (obj && key && i > v && it->vstart == BAD &&
		    !strncmp(s + k + 1, key, strlen(key)) &&
		    s[k + 1 + strlen(key)] == '"') {
			it->kstart = k;
			it->vstart = v;
			it->vend = i;
		}
		it->last_end = i;
		it->count++;
		i = skip_ws(s, i);
		if (s[i] == (obj ? '}' : ']')) {
			it->close = i;
			return 0;
		}
		if (s[i] != ',')
			return -1;
		i = skip_ws(s, i + 1);
	}
}

/* The line ending new lines get: "\r\n" when more of the file's line
 * breaks are CRLF than bare LF, else "\n" (so a file without any line
 * break, a pure LF file and a tie all stay LF). */
static const char *detect_eol(const char *s)
{
	size_t crlf = 0, lf = 0;

	for (const char *p = s; (p = strchr(p, '\n')); p++) {
		if (p > s && p[-1] == '\r')
			crlf++;
		else
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}

/* Replace `cut` bytes at `at` with `text`, every line break of which
 * (LF or CRLF: only whitespace holds them, JSON strings cannot) is
 * written as `eol`; the bytes around it are kept as they are. */
static void splice(struct pc_buf *b, size_t at, size_t cut, const char *text,
		   const char *eol)
{
	struct pc_buf n = PC_BUF_INIT(b->max);

	pc_buf_add(&n, b->data, at);
	for (; *text; text++) {
		if (*text == '\r' && text[1] == '\n')
			continue;
		if (*text == '\n')
			pc_buf_adds(&n, eol);
		else
			pc_buf_addch(&n, *text);
	}
	pc_buf_adds(&n, b->data + at + cut);
	pc_buf_release(b);
	*b = n;
}

/* The indentation of the line holding s[i]. */
static char *line_indent(const char *s, size_t i)
{
	size_t b = i, e;

	while (b && s[b - 1] != '\n')
		b--;
	e = b;
	while (s[e] == ' ' || s[e] == '\t')
		e++;
	return pc_xmemdup(s + b, e - b);
}

/* Append `text` as the last item of the container at s[open]. */
static int append_item(struct pc_buf *b, size_t open, const char *text,
		       const char *eol)
{
	struct items it;
	char *sep, *ind, *t;

	if (scan(b->data, open, NULL, &it))
		return -1;
	if (it.count) {
		sep = pc_xmemdup(b->data + open + 1, it.first - open - 1);
		t = pc_xasprintf(",%s%s", sep, text);
		splice(b, it.last_end, 0, t, eol);
		free(sep);
	} else {
		ind = line_indent(b->data, open);
		t = pc_xasprintf("\n%s  %s\n%s", ind, text, ind);
		splice(b, open + 1, it.close - open - 1, t, eol);
		free(ind);
	}
	free(t);
	return 0;
}

static bool has_named(const char *s, size_t open, const char *name)
{
	size_t i = skip_ws(s, open + 1);
	struct items it;

	while (s[i] == '{') {
		if (!scan(s, i, "name", &it) && it.vstart != BAD &&
		    s[it.vstart] == '"' &&
		    it.vend - it.vstart == strlen(name) + 2 &&
		    !strncmp(s + it.vstart + 1, name, strlen(name)))
			return true;
		if ((i = skip_value(s, i, 0)) == BAD)
			return false;
		i = skip_ws(s, i);
		if (s[i] != ',')
			return false;
		i = skip_ws(s, i + 1);
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *ws_between(const char *s, size_t from, size_t to)
{
	return pc_xmemdup(s + from, to > from ? to - from : 0);
}

/* Union `caps` into a declared "capabilities" array, rewriting only the
 * array's span, in the array's own layout. */
static int update_caps(struct pc_buf *b, const struct pc_strvec *caps,
		       const char *eol)
{
	struct items top, arr;
	struct pc_strvec all = PC_STRVEC_INIT;
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *first = NULL, *comma = NULL, *close = NULL;
	size_t i, n0;
	const char *s = b->data;

	if (scan(s, 0, "capabilities", &top))
		return -1;
	if (top.vstart == BAD || s[top.vstart] != '[')
		return 0; /* absent: the host infers them (R3.3) */
	if (scan(s, top.vstart, NULL, &arr))
		return -1;
	for (i = skip_ws(s, top.vstart + 1); s[i] == '"';) {
		size_t e = skip_string(s, i);

		if (e == BAD)
			return -1;
		pc_strvec_push_nodup(&all, pc_xmemdup(s + i + 1, e - i - 2));
		i = skip_ws(s, e);
		if (s[i] == ',')
			i = skip_ws(s, i + 1);
	}
	n0 = all.nr;
	for (size_t c = 0; c < caps->nr; c++) {
		size_t k = 0;

		while (k < all.nr && strcmp(all.v[k], caps->v[c]))
			k++;
		if (k == all.nr)
			pc_strvec_push(&all, caps->v[c]);
	}
	if (all.nr == n0)
		goto out;
	qsort(all.v, all.nr, sizeof(all.v[0]), cmp_str);
	if (arr.count) {
		first = ws_between(s, top.vstart + 1, arr.first);
		close = ws_between(s, arr.last_end, arr.close);
	} else {
		first = pc_xstrdup("");
		close = pc_xstrdup("");
	}
	if (arr.count >= 2) {
		i = top.vstart + 1 + strlen(first);
		i = skip_string(s, i);
		i = skip_ws(s, i) + 1;
		comma = ws_between(s, i, skip_ws(s, i));
	} else {
		comma = pc_xstrdup(strchr(first, '\n') ? first : " ");
	}
	pc_buf_addf(&out, "[%s", first);
	for (i = 0; i < all.nr; i++) {
		if (i)
			pc_buf_addf(&out, ",%s", comma);
		pc_buf_addf(&out, "\"%s\"", all.v[i]);
	}
	pc_buf_addf(&out, "%s]", close);
	splice(b, top.vstart, top.vend - top.vstart, pc_buf_cstr(&out), eol);
out:
	free(first);
	free(comma);
	free(close);
	pc_buf_release(&out);
	pc_strvec_release(&all);
	return 0;
}

static const char *const section_key[] = { "hooks", "tools", "commands" };

int pc__scaffold_json_add(struct pc_buf *json, const struct pc_scaffold_part *p,
			  const char *frag, const struct pc_strvec *caps,
			  struct pc_err *err)
{
	const char *key, *eol;
	struct items top, sec;
	char *t;
	size_t open;

	if (p->kind > PC_SCAFFOLD_COMMAND)
		return pc_err_set(
			err, PC_EINVAL,
			"add supports hooks, tools and commands only");
	key = section_key[p->kind];
	eol = detect_eol(json->data);
	open = skip_ws(json->data, 0);
	if (json->data[open] != '{' || skip_value(json->data, open, 0) == BAD ||
	    scan(json->data, open, key, &top))
		return pc_err_set(err, PC_EPARSE,
				  "plugin.json is not a JSON object");
	if (top.vstart == BAD) {
		t = pc_xasprintf(p->kind == PC_SCAFFOLD_HOOK ? "\"%s\": { %s }"
							     : "\"%s\": [ %s ]",
				 key, frag);
		append_item(json, open, t, eol);
		free(t);
	} else {
		const char *s = json->data;
		char want = p->kind == PC_SCAFFOLD_HOOK ? '{' : '[';

		if (s[top.vstart] != want)
			return pc_err_set(
				err, PC_EPARSE,
				"plugin.json: \"%s\" is not a JSON %s", key,
				want == '{' ? "object" : "array");
		if (p->kind == PC_SCAFFOLD_HOOK) {
			if (scan(s, top.vstart, p->name, &sec))
				return pc_err_set(err, PC_EPARSE,
						  "plugin.json: bad \"hooks\"");
			if (sec.vstart != BAD)
				return pc_err_set(
					err, PC_EINVAL,
					"plugin.json already has a '%s' hook",
					p->name);
		} else if (has_named(s, top.vstart, p->name)) {
			return pc_err_set(
				err, PC_EINVAL,
				"plugin.json already has a %s named '%s'",
				p->kind == PC_SCAFFOLD_TOOL ? "tool"
							    : "command",
				p->name);
		}
		append_item(json, top.vstart, frag, eol);
	}
	if (update_caps(json, caps, eol))
		return pc_err_set(err, PC_EPARSE,
				  "plugin.json: bad \"capabilities\"");
	return 0;
}

char *pc__scaffold_json_top_string(const char *json, const char *key)
{
	size_t open = skip_ws(json, 0), e;
	struct items top;

	if (json[open] != '{' || scan(json, open, key, &top) ||
	    top.vstart == BAD || json[top.vstart] != '"')
		return NULL;
	e = skip_string(json, top.vstart);
	if (e == BAD || memchr(json + top.vstart + 1, '\\', e - top.vstart - 2))
		return NULL;
	return pc_xmemdup(json + top.vstart + 1, e - top.vstart - 2);
}

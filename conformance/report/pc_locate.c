/* pc_locate.c - line and column of a finding's cause (pc_locate.h). */
#include "pc_locate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_xalloc.h"

#define MAX_DEPTH 512

struct pc_loc pc_loc_of_offset(const char *text, size_t n, size_t off)
{
	struct pc_loc l = { 1, 1 };

	if (off > n)
		off = n;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			l.line++;
			l.column = 1;
		} else {
			l.column++;
		}
	}
	return l;
}

/* The text being scanned and the position in it. */
struct scan {
	const char *s;
	size_t n, i;
	int depth;
};

static void ws(struct scan *sc)
{
	while (sc->i < sc->n && strchr(" \t\r\n", sc->s[sc->i]) && sc->s[sc->i])
		sc->i++;
}

static int hex4(const char *p, uint32_t *v)
{
	*v = 0;
	for (int k = 0; k < 4; k++) {
		char c = p[k];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void put_utf8(struct pc_buf *b, uint32_t c)
{
	char u[4];
	size_t k;

	if (c < 0x80) {
		u[0] = (char)c;
		k = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		k = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		k = 3;
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		k = 4;
	}
	pc_buf_add(b, u, k);
}

/* string - at '"': step past the string, its decoded text appended to
 * `out` (may be NULL). 0, or -1 when it does not end. */
static int string(struct scan *sc, struct pc_buf *out)
{
	if (sc->i >= sc->n || sc->s[sc->i] != '"')
		return -1;
	sc->i++;
	while (sc->i < sc->n) {
		char c = sc->s[sc->i++];
		uint32_t u, lo;

		if (c == '"')
			return 0;
		if (c != '\\') {
			if (out)
				pc_buf_add(out, &c, 1);
			continue;
		}
		if (sc->i >= sc->n)
			return -1;
		c = sc->s[sc->i++];
		if (c != 'u') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *p = strchr(from, c);

			if (!p || !c)
				return -1;
			if (out)
				pc_buf_add(out, &to[p - from], 1);
			continue;
		}
		if (sc->n - sc->i < 4 || hex4(sc->s + sc->i, &u))
			return -1;
		sc->i += 4;
		if (u >= 0xd800 && u < 0xdc00 && sc->n - sc->i >= 6 &&
		    sc->s[sc->i] == '\\' && sc->s[sc->i + 1] == 'u' &&
		    !hex4(sc->s + sc->i + 2, &lo) && lo >= 0xdc00 &&
		    lo < 0xe000) {
			sc->i += 6;
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		} else if (u >= 0xd800 && u < 0xe000) {
			u = 0xfffd;
		}
		if (out)
			put_utf8(out, u);
	}
	return -1;
}

static int value(struct scan *sc);

/* container - at '{' or '[': step past it. */
static int container(struct scan *sc)
{
	char close = sc->s[sc->i] == '{' ? '}' : ']';
	bool obj = close == '}';

	if (++sc->depth > MAX_DEPTH)
		return -1;
	sc->i++;
	ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == close) {
		sc->i++;
		sc->depth--;
		return 0;
	}
	for (;;) {
		if (obj) {
			if (string(sc, NULL))
				return -1;
			ws(sc);
			if (sc->i >= sc->n || sc->s[sc->i] != ':')
				return -1;
			sc->i++;
		}
		if (value(sc))
			return -1;
		ws(sc);
		if (sc->i >= sc->n)
			return -1;
		if (sc->s[sc->i] == ',') {
			sc->i++;
			ws(sc);
			continue;
		}
		if (sc->s[sc->i] != close)
			return -1;
		sc->i++;
		sc->depth--;
		return 0;
	}
}

/* value - step past one value (after leading whitespace). */
static int value(struct scan *sc)
{
	ws(sc);
	if (sc->i >= sc->n)
		return -1;
	switch (sc->s[sc->i]) {
	case '"':
		return string(sc, NULL);
	case '{':
	case '[':
		return container(sc);
	default:
		/* a number or a literal: up to the next delimiter */
		if (!strchr("-0123456789tfn", sc->s[sc->i]) || !sc->s[sc->i])
			return -1;
		while (sc->i < sc->n && sc->s[sc->i] &&
		       !strchr(",]} \t\r\n", sc->s[sc->i]))
			sc->i++;
		return 0;
	}
}

/* index_step - "#N": N, or -1 when `step` is a key. */
static long index_step(const char *step)
{
	char *end;
	long v;

	if (step[0] != '#' || !step[1])
		return -1;
	v = strtol(step + 1, &end, 10);
	return *end || v < 0 ? -1 : v;
}

/* find - from the value at sc->i, the offset of the member `path`
 * reaches; *count gets how many times a last-step key occurs. */
static int find(struct scan *sc, const char *const *path, unsigned nth,
		bool want_key, size_t *off, unsigned *count)
{
	const char *step = *path;
	long idx;
	bool last;
	size_t pick = 0, here;
	bool found = false;

	ws(sc);
	if (!step) {
		*off = sc->i;
		return sc->i < sc->n ? 0 : -1;
	}
	if (sc->i >= sc->n || ++sc->depth > MAX_DEPTH)
		return -1;
	last = !path[1];
	idx = index_step(step);
	if (idx >= 0) {
		if (sc->s[sc->i] != '[')
			return -1;
		sc->i++;
		ws(sc);
		for (long k = 0; sc->i < sc->n && sc->s[sc->i] != ']'; k++) {
			ws(sc);
			if (k == idx)
				return find(sc, path + 1, nth, want_key, off,
					    count);
			if (value(sc))
				return -1;
			ws(sc);
			if (sc->i < sc->n && sc->s[sc->i] == ',')
				sc->i++;
			else
				break;
		}
		return -1;
	}
	if (sc->s[sc->i] != '{')
		return -1;
	sc->i++;
	ws(sc);
	while (sc->i < sc->n && sc->s[sc->i] != '}') {
		struct pc_buf key = PC_BUF_INIT(PC_BUF_NOCAP);
		size_t key_at = sc->i;
		bool same;

		if (string(sc, &key)) {
			pc_buf_release(&key);
			return -1;
		}
		same = key.len == strlen(step) &&
		       !memcmp(pc_buf_cstr(&key), step, key.len);
		pc_buf_release(&key);
		ws(sc);
		if (sc->i >= sc->n || sc->s[sc->i] != ':')
			return -1;
		sc->i++;
		ws(sc);
		here = sc->i;
		if (same) {
			if (last && count)
				(*count)++;
			if (!last) {
				pick = here; /* the host keeps the last */
				found = true;
			} else if (*count == nth + 1) {
				pick = want_key ? key_at : here;
				found = true;
			}
		}
		if (value(sc))
			return -1;
		ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == ',') {
			sc->i++;
			ws(sc);
		} else {
			break;
		}
	}
	if (!found)
		return -1;
	if (last) {
		*off = pick;
		return 0;
	}
	sc->i = pick;
	return find(sc, path + 1, nth, want_key, off, count);
}

static void skip_bom(struct scan *sc)
{
	if (sc->n >= 3 && !memcmp(sc->s, "\xef\xbb\xbf", 3))
		sc->i = 3;
}

int pc_json_locate(const char *text, size_t n, const char *const *path,
		   unsigned nth, bool want_key, struct pc_loc *loc)
{
	struct scan sc = { text, n, 0, 0 };
	unsigned count = 0;
	size_t off;

	skip_bom(&sc);
	if (find(&sc, path, nth, want_key, &off, &count))
		return -1;
	*loc = pc_loc_of_offset(text, n, off);
	return 0;
}

unsigned pc_json_key_count(const char *text, size_t n,
			   const char *const *path)
{
	struct scan sc = { text, n, 0, 0 };
	unsigned count = 0;
	size_t off;

	if (!path[0])
		return 0;
	skip_bom(&sc);
	/* nth beyond any count: walk every member, then read the count */
	find(&sc, path, UINT32_MAX - 1, false, &off, &count);
	return count;
}

struct pc_loc pc_text_find_line(const char *text, size_t n,
				const char *needle)
{
	size_t k = strlen(needle), line = 1, start = 0;
	struct pc_loc none = { 0, 0 };

	if (!k || k > n)
		return none;
	for (size_t i = 0; i + k <= n; i++) {
		if (!memcmp(text + i, needle, k)) {
			struct pc_loc l = { (unsigned)line,
					    (unsigned)(i - start + 1) };

			return l;
		}
		if (text[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	return none;
}

size_t pc_json_value_end(const char *text, size_t n, size_t off)
{
	struct scan sc = { text, n, off, 0 };

	if (off >= n || value(&sc))
		return (size_t)-1;
	return sc.i;
}

/* The state of one pc_json_walk: the scan and the path to the value
 * being walked (owned copies, NULL-terminated at `depth`). */
struct walk {
	struct scan sc;
	pc_json_object_fn fn;
	void *ctx;
	char **steps;
	size_t depth, cap;
};

static void push_step(struct walk *w, char *step)
{
	if (w->depth + 2 > w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->steps = pc_xreallocarray(w->steps, w->cap, sizeof(*w->steps));
	}
	w->steps[w->depth++] = step;
	w->steps[w->depth] = NULL;
}

static void pop_step(struct walk *w)
{
	free(w->steps[--w->depth]);
	w->steps[w->depth] = NULL;
}

static int walk_value(struct walk *w);

/* A member's key and value, the value walked with the key on the path. */
static int walk_member(struct walk *w, struct pc_json_member *m)
{
	struct scan *sc = &w->sc;
	struct pc_buf key = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	m->key_off = sc->i;
	if (string(sc, &key)) {
		pc_buf_release(&key);
		return -1;
	}
	ws(sc);
	if (sc->i >= sc->n || sc->s[sc->i] != ':') {
		pc_buf_release(&key);
		return -1;
	}
	sc->i++;
	ws(sc);
	m->value_off = sc->i;
	m->key = pc_buf_detach(&key, &m->key_len);
	push_step(w, pc_xstrdup(m->key));
	rc = walk_value(w);
	pop_step(w);
	return rc;
}

static int walk_object(struct walk *w)
{
	struct scan *sc = &w->sc;
	struct pc_json_member *m = NULL;
	size_t nm = 0, cap = 0;
	int rc = -1;

	sc->i++;
	ws(sc);
	while (sc->i < sc->n && sc->s[sc->i] != '}') {
		if (nm == cap) {
			cap = cap ? cap * 2 : 8;
			m = pc_xreallocarray(m, cap, sizeof(*m));
		}
		memset(&m[nm], 0, sizeof(*m));
		if (walk_member(w, &m[nm++]))
			goto out;
		ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == ',') {
			sc->i++;
			ws(sc);
		} else if (sc->i >= sc->n || sc->s[sc->i] != '}') {
			goto out;
		}
	}
	if (sc->i >= sc->n)
		goto out;
	sc->i++;
	w->fn(w->ctx, (const char *const *)w->steps, m, nm);
	rc = 0;
out:
	for (size_t k = 0; k < nm; k++)
		free((char *)m[k].key);
	free(m);
	return rc;
}

static int walk_array(struct walk *w)
{
	struct scan *sc = &w->sc;

	sc->i++;
	ws(sc);
	for (size_t k = 0; sc->i < sc->n && sc->s[sc->i] != ']'; k++) {
		char step[32];
		int rc;

		snprintf(step, sizeof(step), "#%zu", k);
		push_step(w, pc_xstrdup(step));
		rc = walk_value(w);
		pop_step(w);
		if (rc)
			return -1;
		ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == ',') {
			sc->i++;
			ws(sc);
		} else if (sc->i >= sc->n || sc->s[sc->i] != ']') {
			return -1;
		}
	}
	if (sc->i >= sc->n)
		return -1;
	sc->i++;
	return 0;
}

static int walk_value(struct walk *w)
{
	struct scan *sc = &w->sc;

	ws(sc);
	if (sc->i >= sc->n)
		return -1;
	if (sc->s[sc->i] != '{' && sc->s[sc->i] != '[')
		return value(sc);
	if (w->depth >= MAX_DEPTH)
		return -1;
	return sc->s[sc->i] == '{' ? walk_object(w) : walk_array(w);
}

int pc_json_walk(const char *text, size_t n, pc_json_object_fn fn, void *ctx)
{
	struct walk w = { { text, n, 0, 0 }, fn, ctx, NULL, 0, 0 };
	int rc;

	skip_bom(&w.sc);
	w.cap = 16;
	w.steps = pc_xcalloc(w.cap, sizeof(*w.steps));
	rc = walk_value(&w);
	if (!rc) {
		ws(&w.sc);
		rc = w.sc.i == n ? 0 : -1;
	}
	while (w.depth)
		pop_step(&w);
	free(w.steps);
	return rc;
}

/* pc_locate.c - line and column of a finding's cause (pc_locate.h). */
#include "pc_locate.h"

#include <stdint.h>
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

/* ---- the indexed document ---- */

struct jval;

struct jmem {
	char *key;	/* decoded; NULL for an array element */
	size_t klen;
	size_t key_at;	/* the key's opening quote */
	struct jval *v;
};

struct jval {
	size_t at;	/* the value's first byte */
	bool obj, arr;
	struct jmem *m; /* members or elements, in order */
	size_t n, alloc;
};

struct pc_json_doc {
	struct jval *root; /* NULL: no value */
	size_t *lines;	   /* offsets where lines start */
	size_t nlines;
};

static struct jval *index_value(struct scan *sc);

static void jval_free(struct jval *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		free(v->m[i].key);
		jval_free(v->m[i].v);
	}
	free(v->m);
	free(v);
}

static void jval_add(struct jval *c, char *key, size_t klen, size_t key_at,
		     struct jval *v)
{
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 4;
		c->m = pc_xreallocarray(c->m, c->alloc, sizeof(*c->m));
	}
	c->m[c->n++] = (struct jmem){ key, klen, key_at, v };
}

/* The members of the container at sc->i, up to the first error (kept:
 * a partial index still finds what comes before it). */
static void index_container(struct scan *sc, struct jval *c)
{
	char close = c->obj ? '}' : ']';

	sc->i++;
	for (;;) {
		struct pc_buf key = PC_BUF_INIT(PC_BUF_NOCAP);
		size_t key_at;
		struct jval *v;

		ws(sc);
		if (sc->i >= sc->n || sc->s[sc->i] == close)
			return;
		key_at = sc->i;
		if (c->obj) {
			if (string(sc, &key)) {
				pc_buf_release(&key);
				return;
			}
			ws(sc);
			if (sc->i >= sc->n || sc->s[sc->i] != ':') {
				pc_buf_release(&key);
				return;
			}
			sc->i++;
		}
		if (!(v = index_value(sc))) {
			pc_buf_release(&key);
			return;
		}
		if (c->obj) {
			size_t klen = key.len;

			jval_add(c, pc_buf_detach(&key, NULL), klen, key_at, v);
		} else {
			jval_add(c, NULL, 0, key_at, v);
		}
		ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == ',')
			sc->i++;
		else
			return;
	}
}

/* One value at sc->i (after whitespace), or NULL when there is none. */
static struct jval *index_value(struct scan *sc)
{
	struct jval *v;
	size_t at;

	ws(sc);
	if (sc->i >= sc->n)
		return NULL;
	at = sc->i;
	if (sc->s[at] == '{' || sc->s[at] == '[') {
		if (sc->depth >= MAX_DEPTH)
			return NULL;
		v = pc_xcalloc(1, sizeof(*v));
		v->at = at;
		v->obj = sc->s[at] == '{';
		v->arr = !v->obj;
		sc->depth++;
		index_container(sc, v);
		sc->depth--;
		if (sc->i < sc->n && sc->s[sc->i] == (v->obj ? '}' : ']'))
			sc->i++;
		else
			sc->i = sc->n; /* cut short: nothing after it counts */
		return v;
	}
	if (value(sc))
		return NULL;
	v = pc_xcalloc(1, sizeof(*v));
	v->at = at;
	return v;
}

struct pc_json_doc *pc_json_doc_new(const char *text, size_t n)
{
	struct pc_json_doc *d = pc_xcalloc(1, sizeof(*d));
	struct scan sc = { text, n, 0, 0 };
	size_t alloc = 16;

	d->lines = pc_xreallocarray(NULL, alloc, sizeof(*d->lines));
	d->lines[d->nlines++] = 0;
	for (size_t i = 0; i < n; i++) {
		if (text[i] != '\n')
			continue;
		if (d->nlines == alloc) {
			alloc *= 2;
			d->lines = pc_xreallocarray(d->lines, alloc,
						    sizeof(*d->lines));
		}
		d->lines[d->nlines++] = i + 1;
	}
	skip_bom(&sc);
	d->root = index_value(&sc);
	return d;
}

void pc_json_doc_free(struct pc_json_doc *d)
{
	if (!d)
		return;
	jval_free(d->root);
	free(d->lines);
	free(d);
}

struct pc_loc pc_json_doc_line_col(const struct pc_json_doc *d, size_t off)
{
	size_t lo = 0, hi = d->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (struct pc_loc){ (unsigned)(lo + 1),
				(unsigned)(off - d->lines[lo] + 1) };
}

/* The member of object `o` named `key`: occurrence `nth` (PC_JSON_LAST:
 * the last), or NULL. */
static const struct jmem *member(const struct jval *o, const char *key,
				 unsigned nth)
{
	const struct jmem *hit = NULL;
	size_t k = strlen(key);
	unsigned seen = 0;

	for (size_t i = 0; o->obj && i < o->n; i++) {
		if (o->m[i].klen != k || memcmp(o->m[i].key, key, k))
			continue;
		if (nth == PC_JSON_LAST)
			hit = &o->m[i];
		else if (seen++ == nth)
			return &o->m[i];
	}
	return hit;
}

/* Step from `v` by `step`; NULL when absent. */
static const struct jmem *step_into(const struct jval *v, const char *step,
				    unsigned nth)
{
	long idx = index_step(step);

	if (idx >= 0)
		return v->arr && (size_t)idx < v->n ? &v->m[idx] : NULL;
	return member(v, step, nth);
}

int pc_json_doc_locate(const struct pc_json_doc *d, const char *const *path,
		       unsigned nth, bool want_key, struct pc_loc *loc)
{
	const struct jval *v = d->root;
	const struct jmem *m = NULL;

	if (!v)
		return -1;
	for (size_t i = 0; path[i]; i++) {
		m = step_into(v, path[i], path[i + 1] ? PC_JSON_LAST : nth);
		if (!m)
			return -1;
		v = m->v;
	}
	*loc = pc_json_doc_line_col(d, m && want_key ? m->key_at : v->at);
	return 0;
}

struct pc_loc pc_json_doc_near(const struct pc_json_doc *d,
			       const char *const *path, bool want_key)
{
	const struct jval *v = d->root;
	const struct jmem *m = NULL;
	bool whole = true;

	if (!v)
		return (struct pc_loc){ 0, 0 };
	for (size_t i = 0; path[i]; i++) {
		const struct jmem *next = step_into(v, path[i], PC_JSON_LAST);

		if (!next) {
			whole = false;
			break;
		}
		m = next;
		v = m->v;
	}
	if (!m)
		return pc_json_doc_line_col(d, v->at);
	return pc_json_doc_line_col(d, (whole ? want_key : true) ? m->key_at
								 : v->at);
}

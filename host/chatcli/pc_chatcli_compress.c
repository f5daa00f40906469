/* pc_chatcli_compress.c - O1 step 1: the host's content-aware output
 * compression (diillson/chatcli cli/compress at cda4157: the layer, the
 * router and its compressors), reproduced byte for byte for what a
 * plugin's successful output becomes before truncation. See
 * pc_chatcli.h.
 *
 * The router asks each compressor how sure it is that the output is its
 * kind (grep results, a log, a unified diff, JSON, web prose; code only on
 * an explicit hint, never for a plugin), takes the first highest score
 * of at least 0.5, and keeps the result only when it is shorter. Lossy
 * compressors first store the whole output in the CCR store and cite it
 * as <<ccr:KEY>> (KEY: the first 16 hex digits of its SHA-256); plugcheck
 * computes the key and writes nothing. Lines, cases and spaces follow
 * Go's strings package (pc_chatcli_impl.h). */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

#define DEFAULT_CCR_MAX_MB 256
#define SAMPLE_MAX_BYTES   (64 * 1024)
#define SAMPLE_MAX_LINES   200

struct sv {
	const char *p;
	size_t n;
};

struct lines {
	struct sv *v;
	size_t nr, alloc;
};

static struct sv view(const char *p, size_t n)
{
	return (struct sv){ p, n };
}

static void lines_push(struct lines *l, struct sv s)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 64;
		l->v = pc_xreallocarray(l->v, l->alloc, sizeof(*l->v));
	}
	l->v[l->nr++] = s;
}

/* split - strings.Split(s, "\n"). */
static void split(struct sv s, struct lines *l)
{
	size_t start = 0;

	for (size_t i = 0; i <= s.n; i++)
		if (i == s.n || s.p[i] == '\n') {
			lines_push(l, view(s.p + start, i - start));
			start = i + 1;
		}
}

/* split_lines - splitLines: trailing newlines dropped, then split; no
 * lines for an empty result. */
static void split_lines(struct sv s, struct lines *l)
{
	while (s.n && s.p[s.n - 1] == '\n')
		s.n--;
	if (s.n)
		split(s, l);
}

static bool has_prefix(struct sv s, const char *p)
{
	size_t n = strlen(p);

	return s.n >= n && !memcmp(s.p, p, n);
}

static bool has_suffix(struct sv s, const char *p)
{
	size_t n = strlen(p);

	return s.n >= n && !memcmp(s.p + s.n - n, p, n);
}

static bool contains(struct sv s, const char *p)
{
	return pc__chatcli_index(s.p, s.n, p, strlen(p)) >= 0;
}

static bool eq(struct sv a, const char *b)
{
	return a.n == strlen(b) && !memcmp(a.p, b, a.n);
}

static struct sv trim(struct sv s)
{
	pc__chatcli_trim_space(&s.p, &s.n);
	return s;
}

/* detect_sample - detectSampleLines: at most 200 lines from the head and
 * the tail of s, at most 64 KiB, cut to whole lines. */
static void detect_sample(struct sv s, struct lines *out)
{
	struct lines head = { 0 }, tail = { 0 }, all = { 0 };
	size_t half = SAMPLE_MAX_LINES / 2;

	if (s.n > SAMPLE_MAX_BYTES) {
		size_t head_end = SAMPLE_MAX_BYTES / 2, tail_start;
		const char *nl = NULL;

		for (size_t i = head_end; i-- > 0;)
			if (s.p[i] == '\n') {
				nl = s.p + i;
				break;
			}
		if (nl && nl > s.p)
			head_end = (size_t)(nl - s.p);
		tail_start = s.n - SAMPLE_MAX_BYTES / 2;
		nl = memchr(s.p + tail_start, '\n', s.n - tail_start);
		if (nl)
			tail_start = (size_t)(nl - s.p) + 1;
		split_lines(view(s.p, head_end), &head);
		split_lines(view(s.p + tail_start, s.n - tail_start), &tail);
	} else {
		split_lines(s, &all);
		if (all.nr <= SAMPLE_MAX_LINES) {
			*out = all;
			return;
		}
		head = (struct lines){ all.v, half, 0 };
		tail = (struct lines){ all.v + all.nr - half, half, 0 };
	}
	for (size_t i = 0; i < head.nr && i < half; i++)
		lines_push(out, head.v[i]);
	for (size_t i = tail.nr > half ? tail.nr - half : 0; i < tail.nr; i++)
		lines_push(out, tail.v[i]);
	if (all.v) {
		free(all.v);
	} else {
		free(head.v);
		free(tail.v);
	}
}

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static char *lower(struct sv s, size_t *n)
{
	return pc__chatcli_lower(s.p, s.n, n);
}

/* hint_is - strings.ToLower(strings.TrimSpace(tool)) is one of `names`. */
static bool hint_is(struct sv tool, const char *const *names)
{
	size_t n;
	char *low = lower(trim(tool), &n);
	bool yes = false;

	for (; *names && !yes; names++)
		yes = eq(view(low, n), *names);
	free(low);
	return yes;
}

/* --- the CCR store --------------------------------------------------------- */

struct ctx {
	struct sv content; /* the whole original */
	bool lossy;	   /* mode lossy-with-ccr */
	int profile;	   /* 0 default, 1 conservative, 2 aggressive */
	long long max_bytes;
	char key[17];
};

/* offload - the marker (<<ccr:KEY>>) into `marker` (cap 32), or false
 * when nothing may be dropped (lossless mode, or the content passes the
 * store's per-entry cap, a quarter of CHATCLI_COMPRESSION_CCR_MAX_MB). */
static bool offload(struct ctx *c, char marker[32])
{
	unsigned char d[crypto_hash_sha256_BYTES];
	char hex[2 * crypto_hash_sha256_BYTES + 1];

	if (!c->lossy ||
	    (c->max_bytes > 0 && (long long)c->content.n > c->max_bytes / 4))
		return false;
	crypto_hash_sha256(d, (const unsigned char *)c->content.p,
			   c->content.n);
	sodium_bin2hex(hex, sizeof(hex), d, sizeof(d));
	memcpy(c->key, hex, 16);
	c->key[16] = '\0';
	snprintf(marker, 32, "<<ccr:%s>>", c->key);
	return true;
}

/* --- search (grep/ripgrep results) ----------------------------------------- */

/* parse_search_line - parseSearchLine: path, line number, content at the
 * earliest <sep>digits<sep> marker (':' a match, '-' context); a drive
 * prefix "C:\" or "C:/" is skipped. */
static bool parse_search_line(struct sv raw, struct sv *path, long long *no,
			      struct sv *text)
{
	size_t start = 0;

	if (!raw.n)
		return false;
	if (raw.n >= 3 && is_alpha((unsigned char)raw.p[0]) && raw.p[1] == ':' &&
	    (raw.p[2] == '\\' || raw.p[2] == '/'))
		start = 2;
	for (size_t i = start; i < raw.n; i++) {
		char sep = raw.p[i];
		size_t j = i + 1;
		long long v = 0;
		bool overflow = false;

		if (sep != ':' && sep != '-')
			continue;
		while (j < raw.n && is_digit((unsigned char)raw.p[j])) {
			int d = raw.p[j] - '0';

			if (v > (9223372036854775807LL - d) / 10)
				overflow = true; /* strconv.Atoi's ErrRange */
			else
				v = v * 10 + d;
			j++;
		}
		if (j == i + 1 || j >= raw.n || raw.p[j] != sep || overflow)
			continue;
		*path = view(raw.p, i);
		if (!trim(*path).n)
			return false;
		*no = v;
		*text = view(raw.p + j + 1, raw.n - j - 1);
		return true;
	}
	return false;
}

static bool path_looks_like_file(struct sv s)
{
	const char *dot = NULL;

	if (memchr(s.p, '/', s.n) || memchr(s.p, '\\', s.n))
		return true;
	for (size_t i = s.n; i-- > 0;)
		if (s.p[i] == '.') {
			dot = s.p + i;
			break;
		}
	if (dot && dot > s.p && dot < s.p + s.n - 1) {
		size_t en = (size_t)(s.p + s.n - dot - 1);

		if (en >= 1 && en <= 5) {
			for (size_t i = 1; i <= en; i++)
				if (!is_alpha((unsigned char)dot[i]))
					return false;
			return true;
		}
	}
	return false;
}

static const char *const error_keywords[] = {
	"error",    "err:",	 "fail",    "panic",  "fatal",	  "exception",
	"traceback", "assert",	 "warning", "warn:",  "todo",	  "fixme",
	"undefined", "cannot",	 "denied",  "refused", "timeout", NULL
};

static bool has_error_signal(struct sv s)
{
	size_t n;
	char *low = lower(s, &n);
	bool yes = false;

	for (size_t i = 0; error_keywords[i] && !yes; i++)
		yes = contains(view(low, n), error_keywords[i]);
	free(low);
	return yes;
}

static double search_detect(struct sv content, struct sv tool)
{
	static const char *const hints[] = { "@search", "grep", "rg",
					     "ripgrep", "ag",	"ack",
					     NULL };
	struct lines l = { 0 };
	size_t parsed = 0;
	double frac;

	if (hint_is(tool, hints))
		return 0.95;
	detect_sample(content, &l);
	if (l.nr < 3) {
		free(l.v);
		return 0;
	}
	for (size_t i = 0; i < l.nr; i++) {
		struct sv path, text;
		long long no;

		if (parse_search_line(l.v[i], &path, &no, &text) &&
		    path_looks_like_file(path))
			parsed++;
	}
	frac = (double)parsed / (double)l.nr;
	free(l.v);
	return frac >= 0.8 ? 0.9 : frac >= 0.6 ? 0.75 : frac >= 0.4 ? 0.55 : 0;
}

struct match {
	long long no;
	struct sv text;
	bool err;
};

struct group {
	struct sv path;
	struct match *m;
	size_t nr, alloc;
};

/* A small open-addressing index of byte strings to integers. */
struct index {
	struct sv *k;
	size_t *v, cap, nr;
};

static size_t hash(struct sv s)
{
	size_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < s.n; i++)
		h = (h ^ (unsigned char)s.p[i]) * 1099511628211ULL;
	return h;
}

/* index_find - the slot of `s`: its value in *v and true, or false with
 * the slot to fill. */
static size_t index_slot(struct index *ix, struct sv s, bool *found)
{
	size_t i;

	if (ix->nr * 2 >= ix->cap) {
		struct index big = { 0 };

		big.cap = ix->cap ? 2 * ix->cap : 64;
		big.k = pc_xcalloc(big.cap, sizeof(*big.k));
		big.v = pc_xcalloc(big.cap, sizeof(*big.v));
		for (size_t j = 0; j < ix->cap; j++)
			if (ix->k[j].p) {
				size_t h = hash(ix->k[j]) & (big.cap - 1);

				while (big.k[h].p)
					h = (h + 1) & (big.cap - 1);
				big.k[h] = ix->k[j];
				big.v[h] = ix->v[j];
			}
		big.nr = ix->nr;
		free(ix->k);
		free(ix->v);
		*ix = big;
	}
	for (i = hash(s) & (ix->cap - 1); ix->k[i].p; i = (i + 1) & (ix->cap - 1))
		if (ix->k[i].n == s.n && !memcmp(ix->k[i].p, s.p, s.n)) {
			*found = true;
			return i;
		}
	*found = false;
	return i;
}

/* index_put - true when `s` was new (then stored with value v). */
static bool index_put(struct index *ix, struct sv s, size_t v, size_t *old)
{
	bool found;
	size_t i = index_slot(ix, s, &found);

	if (found) {
		if (old)
			*old = ix->v[i];
		return false;
	}
	ix->k[i] = s.p ? s : view("", 0);
	ix->v[i] = v;
	ix->nr++;
	return true;
}

static void index_release(struct index *ix)
{
	free(ix->k);
	free(ix->v);
}

/* search_caps - per file, in total, files: by profile. */
static void search_caps(int profile, size_t caps[3])
{
	static const size_t t[3][3] = { { 5, 30, 15 },
					{ 10, 60, 30 },
					{ 3, 15, 8 } };

	memcpy(caps, t[profile], sizeof(t[profile]));
}

/* select_matches - selectMatches: first, last, the error matches, then
 * the rest in order, up to `max`; in their original order. */
static size_t select_matches(const struct group *g, size_t max, bool *keep)
{
	size_t n = 0;

	if (g->nr <= max) {
		for (size_t i = 0; i < g->nr; i++)
			keep[i] = true;
		return g->nr;
	}
	memset(keep, 0, g->nr * sizeof(*keep));
	keep[0] = keep[g->nr - 1] = true;
	n = g->nr > 1 ? 2 : 1;
	for (size_t i = 0; i < g->nr && n < max; i++)
		if (g->m[i].err && !keep[i])
			keep[i] = true, n++;
	for (size_t i = 0; i < g->nr && n < max; i++)
		if (!keep[i])
			keep[i] = true, n++;
	return n;
}

static size_t rtrim_blank(struct sv s)
{
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s.n;
}

static bool search_compress(struct ctx *c, struct pc_buf *out)
{
	struct lines l = { 0 };
	struct group *g = NULL;
	struct index ix = { 0 };
	size_t ng = 0, parsed = 0, caps[3], kept_total = 0, total = 0,
	       dropped_files = 0;
	bool lossy = c->lossy, ok = true;
	char marker[32];

	split_lines(c->content, &l);
	for (size_t i = 0; i < l.nr; i++) {
		struct sv path, text;
		long long no;
		size_t gi;
		struct group *gr;

		if (!parse_search_line(l.v[i], &path, &no, &text))
			continue;
		parsed++;
		if (index_put(&ix, path, ng, &gi)) {
			g = pc_xreallocarray(g, ng + 1, sizeof(*g));
			g[ng] = (struct group){ path, NULL, 0, 0 };
			gi = ng++;
		}
		gr = &g[gi];
		if (gr->nr == gr->alloc) {
			gr->alloc = gr->alloc ? 2 * gr->alloc : 8;
			gr->m = pc_xreallocarray(gr->m, gr->alloc, sizeof(*gr->m));
		}
		gr->m[gr->nr++] = (struct match){ no, text,
						  has_error_signal(text) };
	}
	if (!parsed) {
		ok = false;
		goto out;
	}
	search_caps(c->profile, caps);
	for (size_t fi = 0; fi < ng; fi++) {
		bool *keep = pc_xcalloc(g[fi].nr, sizeof(*keep));
		size_t n;

		total += g[fi].nr;
		if (lossy && fi >= caps[2]) {
			dropped_files++;
			free(keep);
			continue;
		}
		n = lossy ? select_matches(&g[fi], caps[0], keep)
			  : (memset(keep, 1, g[fi].nr * sizeof(*keep)), g[fi].nr);
		if (lossy) {
			size_t room = caps[1] > kept_total ? caps[1] - kept_total
							   : 0;

			/* keep the first `room` of the selection */
			for (size_t i = 0, k = 0; i < g[fi].nr; i++)
				if (keep[i] && k++ >= room)
					keep[i] = false;
			if (n > room)
				n = room;
		}
		pc_buf_add(out, g[fi].path.p, g[fi].path.n);
		pc_buf_addch(out, '\n');
		for (size_t i = 0; i < g[fi].nr; i++) {
			if (!keep[i])
				continue;
			pc_buf_addf(out, "  L%lld: ", g[fi].m[i].no);
			pc_buf_add(out, g[fi].m[i].text.p,
				   rtrim_blank(g[fi].m[i].text));
			pc_buf_addch(out, '\n');
		}
		kept_total += n;
		free(keep);
	}
	if (total - kept_total || dropped_files) {
		if (!offload(c, marker)) {
			ok = false;
			goto out;
		}
		pc_buf_addf(out, "\n... [search: %zu matches", total - kept_total);
		if (dropped_files)
			pc_buf_addf(out, " across %zu files", dropped_files);
		pc_buf_addf(out,
			    " omitted \xe2\x80\x94 recall full results with @recall %s] ...\n",
			    marker);
	}
out:
	for (size_t i = 0; i < ng; i++)
		free(g[i].m);
	free(g);
	free(l.v);
	index_release(&ix);
	return ok;
}

/* --- log (build/test/CI/runtime logs) ------------------------------------- */

enum level { LVL_UNKNOWN, LVL_TRACE, LVL_DEBUG, LVL_INFO, LVL_WARN, LVL_ERROR };

static bool is_alnum(unsigned char c)
{
	return is_alpha(c) || is_digit(c);
}

/* contains_token - containsToken: `tok` delimited by non-alphanumerics. */
static bool contains_token(struct sv s, const char *tok)
{
	size_t tn = strlen(tok), idx = 0;

	for (;;) {
		long j = pc__chatcli_index(s.p + idx, s.n - idx, tok, tn);
		size_t at, right;

		if (j < 0)
			return false;
		at = idx + (size_t)j;
		right = at + tn;
		if ((at == 0 || !is_alnum((unsigned char)s.p[at - 1])) &&
		    (right >= s.n || !is_alnum((unsigned char)s.p[right])))
			return true;
		idx = at + 1;
		if (idx >= s.n)
			return false;
	}
}

static enum level detect_level(struct sv s)
{
	size_t un;
	char *up = pc__chatcli_upper(s.p, s.n, &un);
	struct sv u = view(up, un);
	enum level lv = LVL_UNKNOWN;

	if (contains_token(u, "ERROR") || contains_token(u, "FATAL") ||
	    contains_token(u, "PANIC") || contains(u, "FAIL") ||
	    contains(s, "\xe2\x9c\x97") || contains(u, "[E]"))
		lv = LVL_ERROR;
	else if (contains_token(u, "WARN") || contains_token(u, "WARNING") ||
		 contains(u, "[W]"))
		lv = LVL_WARN;
	else if (contains_token(u, "INFO") || contains(u, "[I]"))
		lv = LVL_INFO;
	else if (contains_token(u, "DEBUG") || contains(u, "[D]"))
		lv = LVL_DEBUG;
	else if (contains_token(u, "TRACE"))
		lv = LVL_TRACE;
	free(up);
	return lv;
}

static bool is_stack_frame(struct sv s)
{
	struct sv t = trim(s);

	return has_prefix(t, "at ") || has_prefix(t, "File \"") ||
	       has_prefix(t, "Traceback (most recent call last)") ||
	       (has_prefix(t, "goroutine ") && contains(t, "[")) ||
	       (has_prefix(s, "\t") && contains(s, ".go:")) ||
	       has_prefix(t, "panic:");
}

static bool is_summary_line(struct sv s)
{
	struct sv t = trim(s);
	size_t ln;
	char *low;
	bool yes;

	if (!t.n)
		return false;
	if (has_prefix(t, "===") || has_suffix(t, "===") ||
	    has_prefix(t, "ok ") || has_prefix(t, "FAIL\t") ||
	    has_prefix(t, "--- FAIL") || has_prefix(t, "--- PASS"))
		return true;
	low = lower(t, &ln);
	yes = (contains(view(low, ln), "passed") ||
	       contains(view(low, ln), "failed") ||
	       contains(view(low, ln), "tests") ||
	       contains(view(low, ln), "test result"));
	if (yes) {
		yes = false;
		for (size_t i = 0; i < ln && !yes; i++)
			yes = is_digit((unsigned char)low[i]);
	}
	free(low);
	return yes;
}

static double log_detect(struct sv content, struct sv tool)
{
	static const char *const hints[] = { "go test", "pytest", "npm",
					     "cargo",	"make",	  "jest",
					     "build",	"@coder", NULL };
	struct lines l = { 0 };
	size_t signal = 0, n;
	double frac;

	if (hint_is(tool, hints))
		return 0.95;
	detect_sample(content, &l);
	n = l.nr;
	if (n < 8) {
		free(l.v);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (detect_level(l.v[i]) >= LVL_WARN ||
		    is_stack_frame(l.v[i]) || is_summary_line(l.v[i]))
			signal++;
	free(l.v);
	frac = (double)signal / (double)n;
	if (signal >= 3 && frac >= 0.05)
		return 0.8;
	if (signal >= 1 && n >= 30)
		return 0.6;
	return 0;
}

struct logline {
	enum level level;
	bool stack, summary;
};

/* log caps: errors, context, traces, lines per trace, warnings, total */
static void log_caps(int profile, size_t caps[6])
{
	static const size_t t[3][6] = { { 10, 3, 3, 20, 5, 100 },
					{ 20, 5, 5, 40, 10, 200 },
					{ 5, 2, 2, 10, 3, 50 } };

	memcpy(caps, t[profile], sizeof(t[profile]));
}

/* warn_signature - warnSignature: the lower-cased head before ':' or
 * '=' (new string). */
static char *warn_signature(struct sv s, size_t *n)
{
	struct sv t = trim(s);

	for (size_t i = 0; i < t.n; i++)
		if (t.p[i] == ':' || t.p[i] == '=') {
			t.n = i;
			break;
		}
	return lower(trim(t), n);
}

static size_t count_keep(const bool *keep, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += keep[i];
	return k;
}

static void log_select(const struct lines *l, const struct logline *ll,
		       size_t caps[6], bool *keep)
{
	size_t errs = 0, warns = 0, blocks = 0, in_block = 0, total;
	struct index seen = { 0 };
	char **sigs = pc_xcalloc(l->nr + 1, sizeof(*sigs));
	long pending_blank = -1;
	bool open = false;

	for (size_t i = 0; i < l->nr; i++) {
		if (ll[i].level != LVL_ERROR)
			continue;
		if (errs >= caps[0])
			break;
		errs++;
		for (size_t j = i >= caps[1] ? i - caps[1] : 0;
		     j <= i + caps[1] && j < l->nr; j++)
			keep[j] = true;
	}
	/* stack-trace blocks; one blank line inside a run is absorbed */
	for (size_t i = 0; i <= l->nr; i++) {
		bool frame = i < l->nr && ll[i].stack;

		if (frame) {
			if (!open) {
				open = true;
				in_block = 0;
				blocks++;
			}
			if (pending_blank >= 0) {
				if (blocks <= caps[2] && in_block < caps[3])
					keep[pending_blank] = true, in_block++;
				pending_blank = -1;
			}
			if (blocks <= caps[2] && in_block < caps[3])
				keep[i] = true, in_block++;
		} else if (i < l->nr && open && pending_blank < 0 &&
			   !trim(l->v[i]).n) {
			pending_blank = (long)i;
		} else {
			open = false;
			pending_blank = -1;
		}
	}
	for (size_t i = 0; i < l->nr; i++) {
		size_t sn;

		if (ll[i].level != LVL_WARN)
			continue;
		sigs[i] = warn_signature(l->v[i], &sn);
		if (warns >= caps[4]) {
			continue;
		}
		if (!index_put(&seen, view(sigs[i], sn), 0, NULL))
			continue;
		warns++;
		keep[i] = true;
	}
	for (size_t i = 0; i < l->nr; i++)
		if (ll[i].summary)
			keep[i] = true;
	total = count_keep(keep, l->nr);
	for (size_t i = l->nr; total > caps[5] && i-- > 0;)
		if (keep[i] && ll[i].level != LVL_ERROR && !ll[i].stack &&
		    !ll[i].summary)
			keep[i] = false, total--;
	for (size_t i = 0; i < l->nr; i++)
		free(sigs[i]);
	free(sigs);
	index_release(&seen);
}

/* render_gaps - renderWithGaps: kept lines, each run of dropped ones as
 * "... [N <what> omitted] ..." ("lines", "context lines"), then the
 * "[<tag>: full <whole> recoverable with @recall <<ccr:KEY>>]" line. */
static void render_gaps(const struct lines *l, const bool *keep,
			const char *what, const char *tag, const char *whole,
			const char *marker, struct pc_buf *out)
{
	size_t gap = 0;

	for (size_t i = 0; i <= l->nr; i++) {
		if (i < l->nr && !keep[i]) {
			gap++;
			continue;
		}
		if (gap)
			pc_buf_addf(out, "... [%zu %s omitted] ...\n", gap, what);
		gap = 0;
		if (i < l->nr) {
			pc_buf_add(out, l->v[i].p, l->v[i].n);
			pc_buf_addch(out, '\n');
		}
	}
	pc_buf_addf(out, "\n[%s: full %s recoverable with @recall %s]\n", tag,
		    whole, marker);
}

static bool log_compress(struct ctx *c, struct pc_buf *out)
{
	struct lines l = { 0 };
	struct logline *ll;
	bool *keep, ok = false;
	size_t caps[6];
	char marker[32];

	split_lines(c->content, &l);
	if (!l.nr || !c->lossy) {
		free(l.v);
		return false;
	}
	ll = pc_xcalloc(l.nr, sizeof(*ll));
	keep = pc_xcalloc(l.nr, sizeof(*keep));
	for (size_t i = 0; i < l.nr; i++)
		ll[i] = (struct logline){ detect_level(l.v[i]),
					  is_stack_frame(l.v[i]),
					  is_summary_line(l.v[i]) };
	log_caps(c->profile, caps);
	log_select(&l, ll, caps, keep);
	if (count_keep(keep, l.nr) < l.nr && offload(c, marker)) {
		render_gaps(&l, keep, "lines", "log", "output", marker, out);
		ok = true;
	}
	free(ll);
	free(keep);
	free(l.v);
	return ok;
}

/* --- diff (unified diffs) ------------------------------------------------- */

static double diff_detect(struct sv content, struct sv tool)
{
	static const char *const hints[] = { "git diff", "git show", "diff",
					     NULL };
	struct lines l = { 0 };
	size_t hunks = 0, hdrs = 0;

	if (hint_is(tool, hints))
		return 0.95;
	detect_sample(content, &l);
	if (l.nr < 5) {
		free(l.v);
		return 0;
	}
	for (size_t i = 0; i < l.nr; i++) {
		if (has_prefix(l.v[i], "@@ "))
			hunks++;
		else if (has_prefix(l.v[i], "diff --git ") ||
			 has_prefix(l.v[i], "+++ ") ||
			 has_prefix(l.v[i], "--- "))
			hdrs++;
	}
	free(l.v);
	return !hunks ? 0 : hdrs ? 0.9 : 0.6;
}

static bool diff_compress(struct ctx *c, struct pc_buf *out)
{
	static const size_t caps_t[3][3] = { { 2, 10, 20 },
					     { 4, 20, 40 },
					     { 1, 5, 10 } };
	const size_t *caps = caps_t[c->profile];
	struct lines l = { 0 };
	bool *keep, *change, live = false, ok = false;
	long file = -1;
	size_t hunk = 0, dropped = 0;
	char marker[32];

	if (!c->lossy)
		return false;
	split_lines(c->content, &l);
	keep = pc_xcalloc(l.nr + 1, sizeof(*keep));
	change = pc_xcalloc(l.nr + 1, sizeof(*change));
	for (size_t i = 0; i < l.nr; i++) {
		struct sv s = l.v[i];

		if (has_prefix(s, "diff --git ")) {
			file++;
			hunk = 0;
			live = (size_t)file < caps[2];
			keep[i] = true;
		} else if (has_prefix(s, "--- ") || has_prefix(s, "+++ ") ||
			   has_prefix(s, "index ") || has_prefix(s, "new file") ||
			   has_prefix(s, "deleted file") ||
			   has_prefix(s, "rename ")) {
			keep[i] = true;
		} else if (has_prefix(s, "@@ ")) {
			hunk++;
			live = file < (long)caps[2] && hunk <= caps[1];
			keep[i] = true;
		} else if (has_prefix(s, "+") || has_prefix(s, "-")) {
			if (live)
				keep[i] = change[i] = true;
		}
	}
	for (size_t i = 0; i < l.nr; i++) {
		bool near = false;

		if (keep[i] || !(has_prefix(l.v[i], " ") || !l.v[i].n))
			continue;
		for (size_t j = i >= caps[0] ? i - caps[0] : 0;
		     j <= i + caps[0] && j < l.nr && !near; j++)
			near = change[j];
		if (near)
			keep[i] = true;
		else
			dropped++;
	}
	if (dropped && offload(c, marker)) {
		render_gaps(&l, keep, "context lines", "diff", "context", marker,
			    out);
		ok = true;
	}
	free(keep);
	free(change);
	free(l.v);
	return ok;
}

/* --- json-crush ------------------------------------------------------------ */

static double json_detect(struct sv content)
{
	struct sv t = trim(content);
	char last;

	if (!t.n || (t.p[0] != '{' && t.p[0] != '['))
		return 0;
	last = t.p[t.n - 1];
	if ((t.p[0] == '{' && last != '}') || (t.p[0] == '[' && last != ']'))
		return 0;
	if (!pc_chatcli_json_check(t.p, t.n, NULL))
		return 0;
	return t.p[0] == '[' ? 0.85 : 0.7;
}

/* compact - Go's json compact of valid JSON: whitespace outside strings
 * dropped; with `escape` (what json.Marshal does to a RawMessage) also
 * < > & and U+2028 U+2029 as \u escapes. */
static void compact(struct sv s, bool escape, struct pc_buf *out)
{
	bool in_str = false, esc = false;

	for (size_t i = 0; i < s.n; i++) {
		unsigned char ch = (unsigned char)s.p[i];

		if (escape && (ch == '<' || ch == '>' || ch == '&')) {
			pc_buf_addf(out, "\\u00%02x", ch);
		} else if (escape && ch == 0xe2 && i + 2 < s.n &&
			   (unsigned char)s.p[i + 1] == 0x80 &&
			   ((unsigned char)s.p[i + 2] & 0xfe) == 0xa8) {
			pc_buf_addf(out, "\\u202%c",
				    (unsigned char)s.p[i + 2] == 0xa8 ? '8'
									: '9');
			i += 2;
		} else if (in_str || !(ch == ' ' || ch == '\t' || ch == '\n' ||
				       ch == '\r')) {
			pc_buf_addch(out, (char)ch);
		}
		if (esc)
			esc = false;
		else if (in_str && ch == '\\')
			esc = true;
		else if (ch == '"')
			in_str = !in_str;
	}
}

/* array_items - the raw text of each top-level element of the valid
 * array t (json.Unmarshal into []json.RawMessage). */
static void array_items(struct sv t, struct lines *items)
{
	int depth = 0;
	bool in_str = false, esc = false;
	size_t start = 0;

	for (size_t i = 1; i < t.n; i++) {
		char ch = t.p[i];

		if (esc) {
			esc = false;
			continue;
		}
		if (in_str) {
			if (ch == '\\')
				esc = true;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (!start && !(ch == ' ' || ch == '\t' || ch == '\n' ||
				ch == '\r' || ch == ']' || ch == ','))
			start = i;
		if (ch == '"') {
			in_str = true;
		} else if (ch == '[' || ch == '{') {
			depth++;
		} else if ((ch == ']' || ch == '}') && depth > 0) {
			depth--;
		} else if (depth == 0 && (ch == ',' || ch == ']') && start) {
			size_t e = i;

			while (e > start && (t.p[e - 1] == ' ' ||
					     t.p[e - 1] == '\t' ||
					     t.p[e - 1] == '\n' ||
					     t.p[e - 1] == '\r'))
				e--;
			lines_push(items, view(t.p + start, e - start));
			start = 0;
		}
	}
}

static bool json_crush_array(struct ctx *c, struct sv t, struct pc_buf *out)
{
	static const size_t caps_t[3][3] = { { 20, 8, 2 },
					     { 40, 16, 4 },
					     { 10, 4, 1 } };
	const size_t *caps = caps_t[c->profile];
	struct lines items = { 0 };
	struct pc_buf note = PC_BUF_INIT(PC_BUF_NOCAP);
	char marker[32];
	bool ok = false;

	array_items(t, &items);
	if (items.nr < caps[0] || caps[1] + caps[2] >= items.nr ||
	    !offload(c, marker))
		goto out;
	pc_buf_addch(out, '[');
	for (size_t i = 0; i < caps[1]; i++) {
		compact(items.v[i], true, out);
		pc_buf_addch(out, ',');
	}
	pc_buf_addf(&note,
		    "%s %zu items offloaded \xe2\x80\x94 recall full array with @recall %s",
		    marker, items.nr - caps[1] - caps[2], marker);
	pc_buf_adds(out, "{\"_ccr_dropped\":");
	pc_chatcli_go_quote(out, note.data, note.len);
	pc_buf_addch(out, '}');
	for (size_t i = items.nr - caps[2]; i < items.nr; i++) {
		pc_buf_addch(out, ',');
		compact(items.v[i], true, out);
	}
	pc_buf_addch(out, ']');
	ok = out->len < c->content.n;
out:
	if (!ok) {
		pc_buf_reset(out);
		c->key[0] = '\0'; /* the compact fallback cites nothing */
	}
	pc_buf_release(&note);
	free(items.v);
	return ok;
}

static bool json_compress(struct ctx *c, struct pc_buf *out)
{
	struct sv t = trim(c->content);

	if (!t.n || !pc_chatcli_json_check(t.p, t.n, NULL))
		return false;
	if (c->lossy && t.p[0] == '[' && json_crush_array(c, t, out))
		return true;
	compact(t, false, out);
	return out->len < c->content.n;
}

/* --- prose (web fetches) --------------------------------------------------- */

static double prose_detect(struct sv tool)
{
	static const char *const hints[] = { "@webfetch", "@websearch",
					     "@wikipedia", "webfetch",
					     "websearch", NULL };

	return hint_is(tool, hints) ? 0.7 : 0;
}

static bool is_heading(struct sv s)
{
	size_t i = 0;

	while (s.n && s.p[0] == ' ')
		s.p++, s.n--;
	while (i < s.n && s.p[i] == '#')
		i++;
	return i >= 1 && i <= 6 && i < s.n && s.p[i] == ' ';
}

/* boundary_before/after - runeBoundaryBefore/After. */
static size_t boundary_before(struct sv s, long i)
{
	if (i <= 0)
		return 0;
	if ((size_t)i >= s.n)
		return s.n;
	while (i > 0 && ((unsigned char)s.p[i] & 0xc0) == 0x80)
		i--;
	return (size_t)i;
}

static size_t boundary_after(struct sv s, long i)
{
	if (i <= 0)
		return 0;
	while ((size_t)i < s.n && ((unsigned char)s.p[i] & 0xc0) == 0x80)
		i++;
	return (size_t)i;
}

static size_t count_lines(struct sv s)
{
	size_t n = 1;

	for (size_t i = 0; i < s.n; i++)
		n += s.p[i] == '\n';
	return n;
}

/* flush_section - the section's lines, or its head and tail around a
 * "... [N chars of this section omitted] ..." gap when over `cap`. */
static void flush_section(struct pc_buf *sec, size_t nlines, size_t cap,
			  struct pc_buf *out, bool *any, size_t *removed)
{
	struct sv body = view(sec->data ? sec->data : "", sec->len);

	if (!nlines)
		return;
	if (*any)
		pc_buf_addch(out, '\n');
	*any = true;
	if (body.n <= cap) {
		pc_buf_add(out, body.p, body.n);
	} else {
		size_t head = boundary_before(body, (long)(cap * 2 / 3));
		size_t tail = boundary_after(body, (long)(body.n - cap / 3));
		size_t before = count_lines(body), start = out->len, after;

		pc_buf_add(out, body.p, head);
		pc_buf_addf(out,
			    "\n\n... [%zu chars of this section omitted] ...\n\n",
			    tail - head);
		pc_buf_add(out, body.p + tail, body.n - tail);
		after = count_lines(view(out->data + start, out->len - start));
		if (before > after)
			*removed += before - after;
	}
	pc_buf_reset(sec);
}

static void trim_sections(struct sv content, size_t cap, struct pc_buf *out,
			  size_t *removed)
{
	struct lines l = { 0 };
	struct pc_buf sec = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t nsec = 0;
	bool any = false;

	split(content, &l);
	for (size_t i = 0; i < l.nr; i++) {
		if (is_heading(l.v[i])) {
			flush_section(&sec, nsec, cap, out, &any, removed);
			nsec = 0;
			if (any)
				pc_buf_addch(out, '\n');
			any = true;
			pc_buf_add(out, l.v[i].p, l.v[i].n);
			continue;
		}
		if (nsec++)
			pc_buf_addch(&sec, '\n');
		pc_buf_add(&sec, l.v[i].p, l.v[i].n);
	}
	flush_section(&sec, nsec, cap, out, &any, removed);
	pc_buf_release(&sec);
	free(l.v);
}

static bool prose_compress(struct ctx *c, struct pc_buf *out)
{
	static const size_t caps[3] = { 6000, 12000, 3000 };
	struct lines l = { 0 };
	struct index seen = { 0 };
	struct pc_buf joined = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t removed = 0, blank = 0, nk = 0;
	char marker[32];
	bool ok = false;

	if (!c->lossy)
		return false;
	split(c->content, &l);
	for (size_t i = 0; i < l.nr; i++) {
		struct sv t = trim(l.v[i]);

		if (!t.n) {
			if (++blank > 1) {
				removed++;
				continue;
			}
			if (nk++)
				pc_buf_addch(&joined, '\n');
			continue;
		}
		blank = 0;
		if (t.n <= 200 && !index_put(&seen, t, 0, NULL)) {
			removed++;
			continue;
		}
		if (nk++)
			pc_buf_addch(&joined, '\n');
		pc_buf_add(&joined, l.v[i].p, l.v[i].n);
	}
	trim_sections(view(joined.data ? joined.data : "", joined.len),
		      caps[c->profile], out, &removed);
	if (out->len < c->content.n && offload(c, marker)) {
		pc_buf_addf(out,
			    "\n\n[prose: %zu duplicate/boilerplate line(s) removed \xe2\x80\x94 full text recoverable with @recall %s]\n",
			    removed, marker);
		ok = true;
	}
	pc_buf_release(&joined);
	free(l.v);
	index_release(&seen);
	return ok;
}

/* --- the layer ------------------------------------------------------------- */

/* has_marker - ExtractKeys(content) != nil: a <<ccr:KEY>> of 16
 * lower-case hex digits anywhere. */
static bool has_marker(struct sv s)
{
	for (size_t i = 0; i + 24 <= s.n; i++) {
		size_t k;

		if (memcmp(s.p + i, "<<ccr:", 6))
			continue;
		for (k = 6; k < 22; k++) {
			char ch = s.p[i + k];

			if (!is_digit((unsigned char)ch) && !(ch >= 'a' && ch <= 'f'))
				break;
		}
		if (k == 22 && s.p[i + 22] == '>' && s.p[i + 23] == '>')
			return true;
	}
	return false;
}

/* go_atoi - strconv.Atoi: an optional sign and decimal digits, in range. */
static bool go_atoi(const char *s, long long *v)
{
	bool neg = false;
	unsigned long long acc = 0;

	if (!s || !*s)
		return false;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!is_digit((unsigned char)*s))
			return false;
		acc = acc * 10 + (unsigned long long)(*s - '0');
		if (acc > 9223372036854775808ULL)
			return false;
	}
	if (!neg && acc > 9223372036854775807ULL)
		return false;
	*v = neg ? -(long long)acc : (long long)acc;
	return true;
}

int pc_chatcli_compress_mode(const char *v)
{
	static const char *const off[] = { "off", "none", "disabled", NULL },
				 *lossless[] = { "lossless", "lossless-only",
						 "safe", NULL };

	for (size_t i = 0; v && off[i]; i++)
		if (!strcmp(v, off[i]))
			return PC_CHATCLI_COMPRESS_OFF;
	for (size_t i = 0; v && lossless[i]; i++)
		if (!strcmp(v, lossless[i]))
			return PC_CHATCLI_COMPRESS_LOSSLESS;
	return PC_CHATCLI_COMPRESS_LOSSY;
}

static int profile_of(const char *v)
{
	static const char *const cons[] = { "conservative", "safe", "light",
					    NULL },
				 *aggr[] = { "aggressive", "max", "deep",
					     NULL };

	for (size_t i = 0; v && cons[i]; i++)
		if (!strcmp(v, cons[i]))
			return 1;
	for (size_t i = 0; v && aggr[i]; i++)
		if (!strcmp(v, aggr[i]))
			return 2;
	return 0;
}

size_t pc_chatcli_compress_threshold(const char *value)
{
	long long n;

	/* NewLayerFromEnv takes strconv.Atoi's n >= 0; NewLayer makes 0 the
	 * default */
	if (!go_atoi(value, &n) || n <= 0)
		return PC_CHATCLI_COMPRESS_MIN;
	return (size_t)n;
}

bool pc_chatcli_compression_applies(size_t len, const char *mode,
				    const char *threshold)
{
	return pc_chatcli_compress_mode(mode) != PC_CHATCLI_COMPRESS_OFF &&
	       len >= pc_chatcli_compress_threshold(threshold);
}

void pc_chatcli_compress_env_read(struct pc_chatcli_compress_env *e,
				  char *const *envp)
{
	extern char **environ;
	char *const *v = envp ? envp : environ;

	e->mode = pc_strvec_env_get(v, "CHATCLI_COMPRESSION");
	e->profile = pc_strvec_env_get(v, "CHATCLI_COMPRESSION_PROFILE");
	e->threshold = pc_strvec_env_get(v, "CHATCLI_COMPRESSION_THRESHOLD");
	e->ccr_max_mb = pc_strvec_env_get(v, "CHATCLI_COMPRESSION_CCR_MAX_MB");
}

void pc_chatcli_compress(const char *tool, size_t tool_len, const char *p,
			 size_t n, const struct pc_chatcli_compress_env *env,
			 struct pc_chatcli_compressed *out)
{
	struct ctx c = { view(p, n), false, 0, (long long)DEFAULT_CCR_MAX_MB
						       << 20,
			 "" };
	struct sv t = view(tool ? tool : "", tool ? tool_len : 0), name;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	int mode = pc_chatcli_compress_mode(env ? env->mode : NULL);
	double best = 0, s;
	int which = -1;
	long long mb;
	bool ok = false;

	*out = (struct pc_chatcli_compressed){ 0 };
	out->strategy = "passthrough";
	name = trim(t);
	if (name.n && name.p[0] == '@')
		name.p++, name.n--;
	/* Enabled(), the @recall guard, an existing marker, the threshold */
	if (mode == PC_CHATCLI_COMPRESS_OFF ||
	    pc__chatcli_equal_fold_ascii(name.p, name.n, "recall") ||
	    has_marker(c.content) ||
	    n < pc_chatcli_compress_threshold(env ? env->threshold : NULL))
		goto pass;
	out->engaged = true;
	c.lossy = mode == PC_CHATCLI_COMPRESS_LOSSY;
	c.profile = profile_of(env ? env->profile : NULL);
	if (env && go_atoi(env->ccr_max_mb, &mb) && mb >= 0)
		c.max_bytes = mb << 20;
	/* the router: the first highest score, at least 0.5 */
	{
		double scores[5] = { search_detect(c.content, t),
				     log_detect(c.content, t),
				     diff_detect(c.content, t),
				     json_detect(c.content), prose_detect(t) };

		for (int i = 0; i < 5; i++)
			if ((s = scores[i]) > best)
				best = s, which = i;
	}
	if (best < 0.5)
		goto pass;
	switch (which) {
	case 0:
		ok = search_compress(&c, &b);
		break;
	case 1:
		ok = log_compress(&c, &b);
		break;
	case 2:
		ok = diff_compress(&c, &b);
		break;
	case 3:
		ok = json_compress(&c, &b);
		break;
	default:
		ok = prose_compress(&c, &b);
		break;
	}
	if (!ok || b.len >= n)
		goto pass;
	out->strategy = (const char *[]){ "search", "log", "diff", "json-crush",
					  "prose" }[which];
	memcpy(out->key, c.key, sizeof(out->key));
	out->text = pc_buf_detach(&b, &out->len);
	return;
pass:
	pc_buf_release(&b);
	out->text = pc_xmemdup(p, n);
	out->len = n;
	out->key[0] = '\0';
}

void pc_chatcli_compressed_release(struct pc_chatcli_compressed *c)
{
	free(c->text);
	*c = (struct pc_chatcli_compressed){ 0 };
}

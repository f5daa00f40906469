/* pc_report_frag.c - cases handed from a worker process to the parent
 * (pc_pool.h) as JSON text, and merged there in unit order.
 *
 * {"incomplete":bool,
 *  "groups":[{"id","file","name","time_ms","p95_ms","runs","passes",
 *             "skip","xfail","updates"}],
 *  "cases":[{"classname","name","time_s","system_out","system_err",
 *            "skip","xfail","group","findings":[{"id","message","file",
 *            "line","column","where","fix","seq"}],
 *            "x":XCHG, "latency":{"ms":[n],"timeout_ms","p50_ms","p95_ms"},
 *            "marks":[{"kind","label","verdict","outcome","detail",
 *                      "before","after","x":XCHG}]}]}
 * XCHG = {"point","command","argv","in","out","err","events","spawned",
 *         "has_status","exit_code","signal","process","duration_ms",
 *         "leftover","verdict","passed"}, each excerpt {"hex","head",
 *         "total"} (the kept bytes in lowercase hex: they may hold NULs
 *         and invalid UTF-8). "x", "latency" and "marks" are left out
 *         when the case has none.
 * "group" counts from 1 within the fragment's own "groups" (0: none).
 * "seq" is the finding's number in the sender's report: the merge keeps
 * the order the findings were found in, which need not be their cases'.
 * The text is parsed strictly (pc_serde_parse: one value, nothing after
 * it).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pc_err.h"
#include "pc_report.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static void put_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *group_json(const struct pc_group *g)
{
	cJSON *o = cJSON_CreateObject();

	put_str(o, "id", g->id);
	put_str(o, "file", g->file);
	put_str(o, "name", g->name);
	cJSON_AddNumberToObject(o, "time_ms", g->time_ms);
	cJSON_AddNumberToObject(o, "p95_ms", g->p95_ms);
	cJSON_AddNumberToObject(o, "runs", g->runs);
	cJSON_AddNumberToObject(o, "passes", g->passes);
	put_str(o, "skip", g->skip);
	cJSON_AddBoolToObject(o, "xfail", g->xfail);
	cJSON_AddItemToObject(o, "updates",
			      g->updates ? cJSON_Duplicate(g->updates, 1)
					 : cJSON_CreateNull());
	return o;
}

/* ---- the structured parts (pc_report_x.c) ---- */

static cJSON *excerpt_json(const struct pc_excerpt *e)
{
	static const char hex[] = "0123456789abcdef";
	cJSON *o = cJSON_CreateObject();
	char *h = pc_xmalloc(2 * e->len + 1);

	for (size_t i = 0; i < e->len; i++) {
		h[2 * i] = hex[(unsigned char)e->data[i] >> 4];
		h[2 * i + 1] = hex[(unsigned char)e->data[i] & 15];
	}
	h[2 * e->len] = 0;
	cJSON_AddStringToObject(o, "hex", h);
	cJSON_AddNumberToObject(o, "head", (double)e->head);
	cJSON_AddNumberToObject(o, "total", (double)e->total);
	free(h);
	return o;
}

static cJSON *xchg_json(const struct pc_xchg *x)
{
	cJSON *o = cJSON_CreateObject();

	put_str(o, "point", x->point);
	put_str(o, "command", x->command);
	put_str(o, "argv", x->argv);
	cJSON_AddItemToObject(o, "in", excerpt_json(&x->in));
	cJSON_AddItemToObject(o, "out", excerpt_json(&x->out));
	cJSON_AddItemToObject(o, "err", excerpt_json(&x->err));
	cJSON_AddItemToObject(o, "events", excerpt_json(&x->events));
	cJSON_AddBoolToObject(o, "spawned", x->spawned);
	cJSON_AddBoolToObject(o, "has_status", x->has_status);
	cJSON_AddNumberToObject(o, "exit_code", x->exit_code);
	cJSON_AddNumberToObject(o, "signal", x->signal);
	put_str(o, "process", x->process);
	cJSON_AddNumberToObject(o, "duration_ms", (double)x->duration_ms);
	cJSON_AddNumberToObject(o, "leftover", x->leftover);
	put_str(o, "verdict", x->verdict);
	cJSON_AddBoolToObject(o, "passed", x->passed);
	return o;
}

static void add_structured(cJSON *o, const struct pc_case *c)
{
	if (c->x)
		cJSON_AddItemToObject(o, "x", xchg_json(c->x));
	if (c->latency) {
		cJSON *l = cJSON_AddObjectToObject(o, "latency");
		cJSON *ms = cJSON_AddArrayToObject(l, "ms");

		for (size_t i = 0; i < c->latency->n; i++)
			cJSON_AddItemToArray(ms, cJSON_CreateNumber((
				double)c->latency->ms[i]));
		cJSON_AddNumberToObject(l, "timeout_ms",
					(double)c->latency->timeout_ms);
		cJSON_AddNumberToObject(l, "p50_ms", (double)c->latency->p50_ms);
		cJSON_AddNumberToObject(l, "p95_ms", (double)c->latency->p95_ms);
	}
	if (c->nmarks) {
		cJSON *a = cJSON_AddArrayToObject(o, "marks");

		for (size_t i = 0; i < c->nmarks; i++) {
			const struct pc_mark *m = &c->marks[i];
			cJSON *k = cJSON_CreateObject();

			cJSON_AddNumberToObject(k, "kind", m->kind);
			put_str(k, "label", m->label);
			put_str(k, "verdict", m->verdict);
			put_str(k, "outcome", m->outcome);
			put_str(k, "detail", m->detail);
			put_str(k, "before", m->before);
			put_str(k, "after", m->after);
			if (m->x)
				cJSON_AddItemToObject(k, "x", xchg_json(m->x));
			cJSON_AddItemToArray(a, k);
		}
	}
}

static cJSON *case_json(const struct pc_case *c, size_t group)
{
	cJSON *o = cJSON_CreateObject(), *fs = cJSON_CreateArray();

	put_str(o, "classname", c->classname);
	put_str(o, "name", c->name);
	cJSON_AddNumberToObject(o, "time_s", c->time_s);
	put_str(o, "system_out", c->system_out);
	put_str(o, "system_err", c->system_err);
	put_str(o, "skip", c->skip);
	cJSON_AddBoolToObject(o, "xfail", c->xfail);
	cJSON_AddNumberToObject(o, "group", (double)group);
	for (size_t k = 0; k < c->findings.nr; k++) {
		const struct pc_finding *f = &c->findings.v[k];
		cJSON *x = cJSON_CreateObject();

		put_str(x, "id", f->rule->id);
		put_str(x, "message", f->message);
		put_str(x, "file", f->file);
		cJSON_AddNumberToObject(x, "line", f->line);
		cJSON_AddNumberToObject(x, "column", f->column);
		put_str(x, "where", f->where);
		put_str(x, "fix", f->fix);
		cJSON_AddNumberToObject(x, "seq", (double)f->seq);
		cJSON_AddItemToArray(fs, x);
	}
	cJSON_AddItemToObject(o, "findings", fs);
	add_structured(o, c);
	return o;
}

char *pc_report_fragment(const struct pc_report *r, size_t from, size_t to)
{
	cJSON *o = cJSON_CreateObject(), *gs = cJSON_CreateArray();
	cJSON *cs = cJSON_CreateArray();
	size_t *map = pc_xcalloc(r->ngroups + 1, sizeof(*map)), ng = 0;
	char *text;

	for (size_t i = from; i < to && i < r->ncases; i++) {
		size_t g = r->cases[i].group;

		if (g && g <= r->ngroups && !map[g - 1]) {
			cJSON_AddItemToArray(gs, group_json(&r->groups[g - 1]));
			map[g - 1] = ++ng;
		}
		cJSON_AddItemToArray(
			cs, case_json(&r->cases[i],
				      g && g <= r->ngroups ? map[g - 1] : 0));
	}
	cJSON_AddBoolToObject(o, "incomplete", r->incomplete);
	cJSON_AddItemToObject(o, "groups", gs);
	cJSON_AddItemToObject(o, "cases", cs);
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	free(map);
	return text;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

/* A number in [0, max] at key `k`, or no key `k` (0) unless `need`. */
static bool count_at(const cJSON *o, const char *k, double max, bool need)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v)
		return !need;
	return cJSON_IsNumber(v) && v->valuedouble >= 0 &&
	       v->valuedouble <= max;
}

#define MAX_SEQ 9007199254740992.0 /* 2^53: exact in a double */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* An excerpt object: hex of at most HEAD + TAIL bytes, head <= len <=
 * total. */
static bool valid_excerpt(const cJSON *e)
{
	const char *h = str(e, "hex");
	size_t n;

	if (!h || (n = strlen(h)) % 2 ||
	    n / 2 > PC_EXCERPT_HEAD + PC_EXCERPT_TAIL ||
	    !count_at(e, "head", (double)n / 2, true) ||
	    !count_at(e, "total", MAX_SEQ, true) ||
	    num(e, "total") < (double)n / 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (hex_digit(h[i]) < 0)
			return false;
	return true;
}

static bool valid_xchg(const cJSON *x)
{
	static const char *const ex[] = { "in", "out", "err", "events" };

	if (!cJSON_IsObject(x))
		return false;
	for (size_t i = 0; i < 4; i++)
		if (!valid_excerpt(cJSON_GetObjectItemCaseSensitive(x, ex[i])))
			return false;
	return count_at(x, "duration_ms", MAX_SEQ, false) &&
	       count_at(x, "leftover", INT_MAX, false) &&
	       count_at(x, "signal", INT_MAX, false) &&
	       cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(x, "exit_code"));
}

/* The optional structured parts of a case. */
static bool valid_structured(const cJSON *c)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, "x");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, "latency");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(l, "ms");
	const cJSON *ks = cJSON_GetObjectItemCaseSensitive(c, "marks");
	const cJSON *v;

	if (x && !valid_xchg(x))
		return false;
	if (l && (!cJSON_IsArray(ms) ||
		  !count_at(l, "timeout_ms", MAX_SEQ, true)))
		return false;
	cJSON_ArrayForEach(v, ms) if (!cJSON_IsNumber(v)) return false;
	if (ks && !cJSON_IsArray(ks))
		return false;
	cJSON_ArrayForEach(v, ks)
	{
		const cJSON *mx = cJSON_GetObjectItemCaseSensitive(v, "x");

		if (!count_at(v, "kind", PC_MARK_EVENT, true) ||
		    !str(v, "label") || (mx && !valid_xchg(mx)))
			return false;
	}
	return true;
}

static bool valid_finding(const cJSON *f)
{
	return str(f, "id") && pc_rule_find(str(f, "id")) &&
	       str(f, "message") && count_at(f, "line", UINT_MAX, false) &&
	       count_at(f, "column", UINT_MAX, false) &&
	       count_at(f, "seq", MAX_SEQ, true);
}

/* Every group, case and finding must name what the report needs. */
static bool valid(const cJSON *doc)
{
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(doc, "cases");
	const cJSON *gs = cJSON_GetObjectItemCaseSensitive(doc, "groups");
	const cJSON *c, *f, *gr;

	if (!cJSON_IsArray(cs) || !cJSON_IsArray(gs))
		return false;
	cJSON_ArrayForEach(gr, gs) if (!str(gr, "id") || !str(gr, "file") ||
				       !str(gr, "name")) return false;
	cJSON_ArrayForEach(c, cs)
	{
		const cJSON *fs =
			cJSON_GetObjectItemCaseSensitive(c, "findings");

		if (!str(c, "classname") || !str(c, "name") ||
		    !cJSON_IsArray(fs) ||
		    !count_at(c, "group", cJSON_GetArraySize(gs), false) ||
		    !valid_structured(c))
			return false;
		cJSON_ArrayForEach(f, fs) if (!valid_finding(f)) return false;
	}
	return true;
}

static size_t merge_group(struct pc_report *r, const cJSON *g)
{
	size_t n = pc_report_add_group(r, str(g, "id"), str(g, "file"),
				       str(g, "name"));
	struct pc_group *x = &r->groups[n - 1];
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(g, "updates");

	x->time_ms = num(g, "time_ms");
	x->p95_ms = num(g, "p95_ms");
	x->runs = (unsigned)num(g, "runs");
	x->passes = (unsigned)num(g, "passes");
	x->skip = str(g, "skip") ? pc_xstrdup(str(g, "skip")) : NULL;
	x->xfail = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "xfail"));
	x->updates = cJSON_IsArray(u) ? cJSON_Duplicate(u, 1) : NULL;
	return n;
}

struct merge {
	const size_t *groups; /* fragment group k+1 is r's groups[k] */
	bool once;
	size_t base;  /* r->next_seq before the merge */
	double first; /* the smallest "seq" in the fragment */
	size_t next;  /* r->next_seq after the merge */
};

static void merge_excerpt(struct pc_excerpt *e, const cJSON *o)
{
	const char *h = str(o, "hex");
	size_t n = strlen(h) / 2;

	pc_excerpt_release(e);
	e->total = (size_t)num(o, "total");
	e->head = (size_t)num(o, "head");
	e->len = n;
	if (!n)
		return;
	e->data = pc_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		e->data[i] = (char)(hex_digit(h[2 * i]) << 4 |
				    hex_digit(h[2 * i + 1]));
	e->data[n] = 0;
}

static char *dup_str(const cJSON *o, const char *k)
{
	return str(o, k) ? pc_xstrdup(str(o, k)) : NULL;
}

static struct pc_xchg *merge_xchg(const cJSON *o)
{
	struct pc_xchg *x = pc_xchg_new();

	x->point = dup_str(o, "point");
	x->command = dup_str(o, "command");
	x->argv = dup_str(o, "argv");
	merge_excerpt(&x->in, cJSON_GetObjectItemCaseSensitive(o, "in"));
	merge_excerpt(&x->out, cJSON_GetObjectItemCaseSensitive(o, "out"));
	merge_excerpt(&x->err, cJSON_GetObjectItemCaseSensitive(o, "err"));
	merge_excerpt(&x->events,
		      cJSON_GetObjectItemCaseSensitive(o, "events"));
	x->spawned = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "spawned"));
	x->has_status =
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "has_status"));
	x->exit_code = (int)num(o, "exit_code");
	x->signal = (int)num(o, "signal");
	x->process = dup_str(o, "process");
	x->duration_ms = (long long)num(o, "duration_ms");
	x->leftover = (int)num(o, "leftover");
	x->verdict = dup_str(o, "verdict");
	x->passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "passed"));
	return x;
}

static void merge_structured(struct pc_report *r, size_t i, const cJSON *c)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, "x");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, "latency");
	const cJSON *v;

	if (x)
		pc_report_set_xchg(r, i, merge_xchg(x));
	if (l) {
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(l, "ms");
		size_t n = (size_t)cJSON_GetArraySize(ms), k = 0;
		long long *a = pc_xcalloc(n + 1, sizeof(*a));

		cJSON_ArrayForEach(v, ms) a[k++] = (long long)v->valuedouble;
		pc_report_set_latency(r, i, a, n, (long long)num(l, "timeout_ms"),
				      (long long)num(l, "p50_ms"),
				      (long long)num(l, "p95_ms"));
		free(a);
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(c, "marks"))
	{
		struct pc_mark *m = pc_report_add_mark(
			r, i, (enum pc_mark_kind)num(v, "kind"), "");
		const cJSON *mx = cJSON_GetObjectItemCaseSensitive(v, "x");

		free(m->label); /* bounded by the sender already */
		m->label = dup_str(v, "label");

		m->verdict = dup_str(v, "verdict");
		m->outcome = dup_str(v, "outcome");
		m->detail = dup_str(v, "detail");
		m->before = dup_str(v, "before");
		m->after = dup_str(v, "after");
		m->x = mx ? merge_xchg(mx) : NULL;
	}
}

static void merge_case(struct pc_report *r, const cJSON *c, struct merge *m)
{
	size_t i = pc_report_add_case(r, str(c, "classname"), str(c, "name"),
				      str(c, "system_out"), num(c, "time_s"));
	struct pc_case *k = &r->cases[i];
	size_t g = (size_t)num(c, "group");
	const cJSON *f;

	pc_report_set_err(r, i, str(c, "system_err"));
	if (str(c, "skip"))
		pc_report_skip(r, i, str(c, "skip"));
	k->xfail = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "xfail"));
	k->group = g ? m->groups[g - 1] : 0;
	merge_structured(r, i, c);
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(c, "findings"))
	{
		struct pc_finding *n;

		if (m->once &&
		    pc_report_has(r, str(f, "id"),
				  str(f, "where") ? str(f, "where") : ""))
			continue;
		n = pc_report_find(r, i, str(f, "id"), str(f, "file"),
				   str(f, "where"), "%s", str(f, "message"));
		n->line = (unsigned)num(f, "line");
		n->column = (unsigned)num(f, "column");
		pc_finding_set_fix(n, str(f, "fix"));
		/* numbered as the sender numbered it, after r's own */
		n->seq = m->base + (size_t)(num(f, "seq") - m->first);
		if (n->seq >= m->next)
			m->next = n->seq + 1;
	}
}

/* The smallest "seq" of the fragment's findings (0 when it has none). */
static double first_seq(const cJSON *doc)
{
	const cJSON *c, *f;
	double min = MAX_SEQ;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
		cJSON_ArrayForEach(
			f, cJSON_GetObjectItemCaseSensitive(
				   c, "findings")) if (num(f, "seq") < min)
			min = num(f, "seq");
	return min;
}

int pc_report_merge(struct pc_report *r, const char *text, size_t len,
		    bool once)
{
	cJSON *doc = NULL;
	const cJSON *g, *c;
	size_t *groups, ng = 0;
	struct merge m = { .once = once,
			   .base = r->next_seq,
			   .next = r->next_seq };

	if (pc_serde_parse(text, len, &doc, NULL) < 0 || !valid(doc)) {
		cJSON_Delete(doc);
		return PC_EPARSE;
	}
	groups = pc_xcalloc(
		(size_t)cJSON_GetArraySize(
			cJSON_GetObjectItemCaseSensitive(doc, "groups")) +
			1,
		sizeof(*groups));
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(doc, "groups"))
		groups[ng++] = merge_group(r, g);
	m.groups = groups;
	m.first = first_seq(doc);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
		merge_case(r, c, &m);
	r->next_seq = m.next;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "incomplete")))
		r->incomplete = true;
	free(groups);
	cJSON_Delete(doc);
	return 0;
}

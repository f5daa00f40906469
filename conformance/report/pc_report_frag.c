/* pc_report_frag.c - cases handed from a worker process to the parent
 * (pc_pool.h) as JSON text, and merged there in unit order.
 *
 * {"incomplete":bool,
 *  "groups":[{"id","file","name","time_ms","p95_ms","runs","passes",
 *             "skip","xfail","updates"}],
 *  "cases":[{"classname","name","time_s","system_out","system_err",
 *            "skip","xfail","group","findings":[{"id","message","file",
 *            "line","column","where","fix","seq"}]}]}
 * ("fix" null: the rule's).
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
		    !count_at(c, "group", cJSON_GetArraySize(gs), false))
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

/* pc_report_x.c - the structured parts of a case (pc_report.h): bounded
 * excerpts of what crossed the pipes, exchange records, latency samples
 * and timeline marks. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_proc.h"
#include "pc_report.h"
#include "pc_xalloc.h"

void pc_excerpt_release(struct pc_excerpt *e)
{
	free(e->data);
	*e = (struct pc_excerpt){ 0 };
}

void pc_excerpt_set(struct pc_excerpt *e, const char *bytes, size_t n)
{
	size_t keep;

	pc_excerpt_release(e);
	if (!bytes)
		n = 0;
	e->total = n;
	if (!n)
		return;
	keep = n <= PC_EXCERPT_HEAD + PC_EXCERPT_TAIL
		       ? n
		       : PC_EXCERPT_HEAD + PC_EXCERPT_TAIL;
	e->data = pc_xmalloc(keep + 1);
	if (keep == n) {
		memcpy(e->data, bytes, n);
		e->head = n;
	} else {
		memcpy(e->data, bytes, PC_EXCERPT_HEAD);
		memcpy(e->data + PC_EXCERPT_HEAD, bytes + n - PC_EXCERPT_TAIL,
		       PC_EXCERPT_TAIL);
		e->head = PC_EXCERPT_HEAD;
	}
	e->data[keep] = 0;
	e->len = keep;
}

struct pc_xchg *pc_xchg_new(void)
{
	return pc_xcalloc(1, sizeof(struct pc_xchg));
}

void pc_xchg_free(struct pc_xchg *x)
{
	if (!x)
		return;
	free(x->point);
	free(x->command);
	free(x->argv);
	pc_excerpt_release(&x->in);
	pc_excerpt_release(&x->out);
	pc_excerpt_release(&x->err);
	pc_excerpt_release(&x->events);
	free(x->process);
	free(x->verdict);
	free(x);
}

struct pc_xchg *pc_xchg_from_exchange(const struct pc_exchange *e)
{
	struct pc_xchg *x = pc_xchg_new();
	const struct pc_proc_result *p = &e->proc;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < e->argv.nr; i++)
		pc_buf_addf(&b, "%s%s", i ? " " : "", e->argv.v[i]);
	x->argv = pc_buf_detach(&b, NULL);
	pc_excerpt_set(&x->in, e->stdin_json.data, e->stdin_json.len);
	pc_excerpt_set(&x->out, p->out.data, p->out.len);
	pc_excerpt_set(&x->err, p->err.data, p->err.len);
	/* the events, one JSON line each: only what the excerpt keeps is
	 * joined (each line is bounded by the 1 MiB stdout cap) */
	for (size_t i = 0; i < e->events.nr &&
			   b.len <= 2 * (PC_EXCERPT_HEAD + PC_EXCERPT_TAIL);
	     i++)
		pc_buf_addf(&b, "%s\n", e->events.v[i]);
	pc_excerpt_set(&x->events, b.data, b.len);
	if (e->events.nr && b.len > 2 * (PC_EXCERPT_HEAD + PC_EXCERPT_TAIL))
		x->events.total = b.len; /* at least; more lines not joined */
	pc_buf_release(&b);
	x->spawned = e->spawned;
	x->has_status = e->spawned && p->has_status;
	x->signal = e->spawned ? p->term_signal : 0;
	x->exit_code = x->has_status && !x->signal ? p->exit_code : 0;
	x->process = pc_xstrdup(e->spawned ? pc_proc_outcome_name(p->outcome)
					   : "not spawned");
	x->duration_ms = (long long)p->wall_ms;
	x->leftover = e->spawned ? p->leftover_processes : 0;
	return x;
}

char *pc_report_bounded(const char *s, size_t max)
{
	size_t n, cut;

	if (!s)
		return NULL;
	n = strlen(s);
	if (n <= max)
		return pc_xstrdup(s);
	cut = max;
	/* back to the start of a UTF-8 sequence */
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	return pc_xasprintf("%.*s ... (%zu bytes in all)", (int)cut, s, n);
}

void pc_report_set_xchg(struct pc_report *r, size_t c, struct pc_xchg *x)
{
	pc_xchg_free(r->cases[c].x);
	r->cases[c].x = x;
}

void pc_report_set_latency(struct pc_report *r, size_t c, const long long *ms,
			   size_t n, long long timeout_ms, long long p50_ms,
			   long long p95_ms)
{
	struct pc_latency *l = pc_xcalloc(1, sizeof(*l));

	l->ms = pc_xcalloc(n + 1, sizeof(*l->ms));
	if (n)
		memcpy(l->ms, ms, n * sizeof(*ms));
	l->n = n;
	l->timeout_ms = timeout_ms;
	l->p50_ms = p50_ms;
	l->p95_ms = p95_ms;
	if (r->cases[c].latency)
		free(r->cases[c].latency->ms);
	free(r->cases[c].latency);
	r->cases[c].latency = l;
}

struct pc_mark *pc_report_add_mark(struct pc_report *r, size_t c,
				   enum pc_mark_kind kind, const char *label)
{
	return pc_case_add_mark(&r->cases[c], kind, label);
}

static void release_marks(struct pc_case *k)
{
	for (size_t i = 0; i < k->nmarks; i++) {
		struct pc_mark *m = &k->marks[i];

		free(m->label);
		free(m->verdict);
		free(m->outcome);
		free(m->detail);
		free(m->before);
		free(m->after);
		pc_xchg_free(m->x);
	}
	free(k->marks);
	k->marks = NULL;
	k->nmarks = 0;
}

void pc_case_release_structured(struct pc_case *k)
{
	pc_xchg_free(k->x);
	k->x = NULL;
	if (k->latency)
		free(k->latency->ms);
	free(k->latency);
	k->latency = NULL;
	release_marks(k);
}

void pc_report_take_structured(struct pc_report *r, size_t c,
			       struct pc_case *from)
{
	struct pc_case *k = &r->cases[c];

	pc_case_release_structured(k);
	k->x = from->x;
	k->latency = from->latency;
	k->marks = from->marks;
	k->nmarks = from->nmarks;
	from->x = NULL;
	from->latency = NULL;
	from->marks = NULL;
	from->nmarks = 0;
}

struct pc_mark *pc_case_add_mark(struct pc_case *k, enum pc_mark_kind kind,
				 const char *label)
{
	struct pc_mark *m;

	k->marks = pc_xreallocarray(k->marks, k->nmarks + 1, sizeof(*k->marks));
	m = &k->marks[k->nmarks++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->label = pc_report_bounded(label ? label : "", PC_REPORT_TEXT_MAX);
	return m;
}

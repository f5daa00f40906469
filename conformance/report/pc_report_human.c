/* pc_report_human.c - the terminal summary: host verdict, load settings,
 * findings grouped by kind, suppressed ids, case counts, final verdict.
 * Failed cases are not listed: each one fails because of findings, which
 * are shown above it.
 *
 * Text from the plugin reaches a terminal, so control characters (an ESC
 * would start an escape sequence) are written as "\xNN" / "\u{NN}"; the
 * host error keeps its newlines and is otherwise byte-identical for every
 * printable error the host produces.
 */
#include <stdlib.h>
#include <string.h>

#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_xalloc.h"

#define BOLD   "\033[1m"
#define RED    "\033[31m"
#define YELLOW "\033[33m"
#define CYAN   "\033[36m"
#define GREEN  "\033[32m"
#define RESET  "\033[0m"

struct ctx {
	FILE *out;
	bool color;
};

static void scenario_lines(const struct pc_report *r, FILE *out);

static void esc_line(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '\t')
		fputc('\t', out);
	else if (cp == '\n')
		fputs("\\n", out);
	else
		pc__report_esc_visible(out, cp, raw, n);
}

static void esc_block(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '\n')
		fputc('\n', out);
	else
		esc_line(out, cp, raw, n);
}

/* A multi-line message (a scenario step's expected/actual lines) under a
 * finding: its lines indented under the first. */
static void esc_indented(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '\n')
		fputs("\n      ", out);
	else
		esc_line(out, cp, raw, n);
}

static void put(const struct ctx *x, const char *s)
{
	pc__report_escape(x->out, s, esc_line);
}

/* Write `s` in colour `sgr` when colours are on. */
static void paint(const struct ctx *x, const char *sgr, const char *s)
{
	if (x->color)
		fputs(sgr, x->out);
	fputs(s, x->out);
	if (x->color)
		fputs(RESET, x->out);
}

static const char *sev_color(enum pc_severity s)
{
	return s == PC_SEV_ERROR ? RED : s == PC_SEV_WARNING ? YELLOW : CYAN;
}

static void verdicts(const struct pc_report *r, const struct ctx *x)
{
	size_t named = 0;

	for (size_t i = 0; i < r->nloads; i++)
		named += r->loads[i].name != NULL;
	fputs("host: ", x->out);
	paint(x, r->loaded ? GREEN : RED, r->loaded ? "loaded" : "rejected");
	if (named > 1) {
		/* a ChatCLI plugins directory: every plugin, not the first */
		for (size_t i = 0, k = 0; i < r->nloads; i++) {
			if (!r->loads[i].name)
				continue;
			fputs(k++ ? ", " : " ", x->out);
			put(x, r->loads[i].name);
			if (r->loads[i].version) {
				fputc(' ', x->out);
				put(x, r->loads[i].version);
			}
		}
	} else if (r->loaded && r->name) {
		fputc(' ', x->out);
		put(x, r->name);
		if (r->version) {
			fputc(' ', x->out);
			put(x, r->version);
		}
	}
	fputs(" (", x->out);
	put(x, r->path ? r->path : "");
	fputc(')', x->out);
	if (!r->loaded && r->host_error) {
		fputs(": ", x->out);
		pc__report_escape(x->out, r->host_error, esc_block);
	}
	fputc('\n', x->out);
	for (size_t i = 0; i < r->nloads; i++) {
		const struct pc_load *l = &r->loads[i];
		const char *same = NULL;

		/* a detail already shown (the ~300-character trust hint of
		 * project and project_over_global) is named, not repeated */
		for (size_t k = 0; k < i && !same; k++)
			if (l->detail && *l->detail &&
			    !strcmp(l->detail, r->loads[k].detail))
				same = r->loads[k].as;
		fputs("  ", x->out);
		put(x, l->as);
		fputs(": ", x->out);
		paint(x, l->loaded ? GREEN : YELLOW,
		      l->loaded ? "loaded" : "not loaded");
		if (same) {
			fputs(l->loaded ? " (" : ": ", x->out);
			fputs("the host logs the same line as for ", x->out);
			put(x, same);
			fputs(l->loaded ? ")" : "", x->out);
		} else if (l->detail && *l->detail) {
			fputs(l->loaded ? " (" : ": ", x->out);
			put(x, l->detail);
			fputs(l->loaded ? ")" : "", x->out);
		}
		fputc('\n', x->out);
	}
}

/* The length of the kind prefix of `id`: "PC-HOOK" of "PC-HOOK-002". */
size_t pc__report_kind_len(const char *id)
{
	const char *dash = strrchr(id, '-');

	return dash ? (size_t)(dash - id) : strlen(id);
}

bool pc__report_same_kind(const char *a, const char *b)
{
	size_t n = pc__report_kind_len(a);

	return n == pc__report_kind_len(b) && !strncmp(a, b, n);
}

static int cmp_item(const void *pa, const void *pb)
{
	const struct pc__report_item *a = pa, *b = pb;
	const char *ia = a->f->rule->id, *ib = b->f->rule->id;
	size_t na = pc__report_kind_len(ia), nb = pc__report_kind_len(ib);
	int d;

	if (a->group_sev != b->group_sev)
		return a->group_sev > b->group_sev ? -1 : 1;
	d = strncmp(ia, ib, na < nb ? na : nb);
	if (d || na != nb)
		return d ? d : na < nb ? -1 : 1;
	if (a->f->rule->severity != b->f->rule->severity)
		return a->f->rule->severity > b->f->rule->severity ? -1 : 1;
	d = strcmp(ia, ib);
	if (d)
		return d;
	return a->index < b->index ? -1 : a->index > b->index;
}

struct pc__report_item *pc__report_sorted(const struct pc_report *r, size_t *n)
{
	size_t total;
	const struct pc_finding **all = pc_report_findings(r, &total);
	struct pc__report_item *v = pc_xcalloc(total + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < total; i++)
		if (!all[i]->suppressed)
			v[(*n)++] = (struct pc__report_item){ all[i],
							      PC_SEV_NOTE, i };
	free(all);
	/* The highest severity of each kind, through a table of the kinds
	 * seen (a few dozen at most: O(findings x kinds)); a pairwise scan
	 * of the findings was quadratic: 20,000 findings took 5 s. */
	struct kind {
		const char *id;
		enum pc_severity top;
	} *kinds = pc_xcalloc(*n + 1, sizeof(*kinds));
	size_t nk = 0, *kind_of = pc_xcalloc(*n + 1, sizeof(*kind_of));

	for (size_t i = 0; i < *n; i++) {
		const char *id = v[i].f->rule->id;
		size_t k = 0;

		while (k < nk && !pc__report_same_kind(kinds[k].id, id))
			k++;
		if (k == nk)
			kinds[nk++] = (struct kind){ id, PC_SEV_NOTE };
		if (v[i].f->rule->severity > kinds[k].top)
			kinds[k].top = v[i].f->rule->severity;
		kind_of[i] = k;
	}
	for (size_t i = 0; i < *n; i++)
		v[i].group_sev = kinds[kind_of[i]].top;
	free(kind_of);
	free(kinds);
	qsort(v, *n, sizeof(*v), cmp_item);
	return v;
}

/* "PATH:LINE:COL: severity ID [spec] where: message", the place first as
 * compilers print it (terminals and editors make it a link), then the fix
 * and where to read more. */
static void finding(const struct pc_report *r, const struct pc_finding *f,
		    const struct ctx *x)
{
	const struct pc_rule *rule = f->rule;
	char *place = pc_report_finding_place(r, f);
	const char *msg = f->message;

	if (place) {
		/* a located message ("FILE:LINE:COL: ...", a scenario file's
		 * error) starts with the place: print it once, first */
		size_t n = strlen(place);

		if (!strncmp(msg, place, n) && !strncmp(msg + n, ": ", 2))
			msg += n + 2;
		put(x, place);
		fputs(": ", x->out);
		free(place);
	}
	paint(x, sev_color(rule->severity), pc_severity_name(rule->severity));
	fprintf(x->out, " %s ", rule->id);
	if (*rule->spec)
		fprintf(x->out, "[%s] ", rule->spec);
	if (f->where && *f->where) {
		put(x, f->where);
		fputs(": ", x->out);
	}
	pc__report_escape(x->out, msg, esc_indented);
	fputs("\n    fix: ", x->out);
	put(x, pc_finding_fix(f));
	fprintf(x->out, " (see `plugcheck explain %s`)\n", rule->id);
}

void pc_report_human_finding(const struct pc_report *r,
			     const struct pc_finding *f, FILE *out, bool color)
{
	const struct ctx x = { out, color };

	finding(r, f, &x);
}

static void findings(const struct pc_report *r, const struct ctx *x)
{
	size_t n;
	struct pc__report_item *v = pc__report_sorted(r, &n);

	if (!n)
		fputs("\nno findings\n", x->out);
	for (size_t i = 0; i < n; i++) {
		const char *id = v[i].f->rule->id;

		if (!i || !pc__report_same_kind(v[i - 1].f->rule->id, id)) {
			fputc('\n', x->out);
			if (x->color)
				fputs(BOLD, x->out);
			fwrite(id, 1, pc__report_kind_len(id), x->out);
			if (x->color)
				fputs(RESET, x->out);
			fputc('\n', x->out);
		}
		finding(r, v[i].f, x);
	}
	free(v);
}

static int cmp_id(const void *pa, const void *pb)
{
	const struct pc_finding *a = *(const struct pc_finding *const *)pa;
	const struct pc_finding *b = *(const struct pc_finding *const *)pb;

	return strcmp(a->rule->id, b->rule->id);
}

/* "suppressed: ID (N)" once per id, in id order. */
static void suppressed(const struct pc_report *r, const struct ctx *x)
{
	size_t total, n = 0;
	const struct pc_finding **all = pc_report_findings(r, &total);

	for (size_t i = 0; i < total; i++)
		if (all[i]->suppressed)
			all[n++] = all[i];
	qsort(all, n, sizeof(*all), cmp_id);
	for (size_t i = 0, k; i < n; i = k) {
		for (k = i;
		     k < n && !strcmp(all[k]->rule->id, all[i]->rule->id); k++)
			;
		fprintf(x->out, "suppressed: %s (%zu)\n", all[i]->rule->id,
			k - i);
	}
	free(all);
}

/* "internal: NAME: MESSAGE" for each failed PC_CASE_INTERNAL case: the
 * part of the run plugcheck lost (stderr points here). */
static void internal_cases(const struct pc_report *r, const struct ctx *x)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_case *k = &r->cases[i];

		if (k->status != PC_CASE_FAIL || !k->classname ||
		    strcmp(k->classname, PC_CASE_INTERNAL))
			continue;
		paint(x, YELLOW, "internal: ");
		put(x, k->name ? k->name : "");
		fputs(": ", x->out);
		put(x, k->message ? k->message : "");
		fputc('\n', x->out);
	}
}

void pc__report_human(const struct pc_report *r, FILE *out, bool color)
{
	const struct ctx x = { out, color };
	const struct pc_report_counts c = r->counts;
	bool failed = pc_report_failed(r);

	verdicts(r, &x);
	findings(r, &x);
	fputc('\n', out);
	suppressed(r, &x);
	if (r->ncases)
		fprintf(out, "cases: %zu run, %zu failed, %zu skipped\n",
			r->ncases, c.failed, c.skipped);
	if (r->ngroups) /* the plugin's own scenarios (PATH/tests/) */
		scenario_lines(r, out);
	internal_cases(r, &x);
	if (r->incomplete) {
		paint(&x, YELLOW,
		      c.internal ? "incomplete: plugcheck lost part of the run "
				   "(internal above)"
				 : "incomplete: the run was interrupted");
		fputc('\n', out);
	}
	fprintf(out,
		"%zu error(s), %zu warning(s), %zu note(s), %zu suppressed \xe2\x80\x94 ",
		c.errors, c.warnings, c.notes, c.suppressed);
	/* an interrupted run proves nothing either way */
	if (r->incomplete)
		paint(&x, BOLD YELLOW, "INCOMPLETE");
	else
		paint(&x, failed ? BOLD RED : BOLD GREEN,
		      failed ? "FAIL" : "PASS");
	fputc('\n', out);
}

/* ---- `plugcheck run` (r->kind "run") ---- */

static const char *run_word(const char *status)
{
	return !strcmp(status, "pass")	 ? "PASS"
	       : !strcmp(status, "fail") ? "FAIL"
	       : !strcmp(status, "skip") ? "SKIP"
					 : "XFAIL";
}

/* Each failed (or expected-to-fail) step of group `g` (1-based) and its
 * unsuppressed findings. */
static void failed_steps(const struct pc_report *r, size_t g,
			 const struct ctx *x)
{
	const struct pc_group *s = &r->groups[g - 1];

	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_case *c = &r->cases[i];

		bool suppressed = false;

		for (size_t f = 0; f < c->findings.nr; f++)
			suppressed |= c->findings.v[f].suppressed;
		if (c->group != g || !strcmp(c->name, s->name) ||
		    (c->status != PC_CASE_FAIL && c->status != PC_CASE_XFAIL &&
		     !suppressed))
			continue;
		fputs("  step ", x->out);
		put(x, pc__report_step_name(s, c->name));
		fputs(":\n", x->out);
		for (size_t f = 0; f < c->findings.nr; f++) {
			const struct pc_finding *k = &c->findings.v[f];

			/* a suppressed failure is shown as such (README
			 * "--ignore": shown as suppressed), never hidden */
			fputs(k->suppressed ? "    suppressed " : "    ", x->out);
			if (k->suppressed)
				fprintf(x->out, "%s: ", k->rule->id);
			pc__report_escape(x->out, k->message, esc_block);
			fputc('\n', x->out);
		}
	}
}

/* One line per scenario (PASS/FAIL/SKIP/XFAIL id, time, pass rate and
 * p95 when repeated), its own message (the JSON form's "message": a skip
 * reason, or what its scenario-level case found) once, every failed
 * step's findings, and a summary line. */
static void scenario_lines(const struct pc_report *r, FILE *out)
{
	const struct ctx x = { out, false };
	size_t n[4] = { 0 };

	for (size_t g = 1; g <= r->ngroups; g++) {
		const struct pc_group *s = &r->groups[g - 1];
		const char *st = pc_report_group_status(r, g);
		const char *msg = pc__report_group_message(r, g);
		int k = !strcmp(st, "pass")   ? 0
			: !strcmp(st, "fail") ? 1
			: !strcmp(st, "skip") ? 2
					      : 3;

		n[k]++;
		fprintf(out, "%-5s ", run_word(st));
		put(&x, s->id);
		if (s->runs)
			fprintf(out, " (%.0f ms)", s->time_ms);
		if (s->runs > 1)
			fprintf(out, " pass rate %u/%u, p95 %.0f ms", s->passes,
				s->runs, s->p95_ms);
		fputc('\n', out);
		if (*msg) {
			fputs("    ", out);
			put(&x, msg);
			fputc('\n', out);
		}
		failed_steps(r, g, &x);
	}
	fprintf(out,
		"%zu scenarios: %zu passed, %zu failed, %zu skipped, %zu expected failures\n",
		n[0] + n[1] + n[2] + n[3], n[0], n[1], n[2], n[3]);
}

/* "incomplete: ..." last, as before the one result type: what a reader
 * (and a script reading the last line) must see first. */
void pc__report_run_human(const struct pc_report *r, FILE *out)
{
	scenario_lines(r, out);
	if (r->incomplete)
		fputs("incomplete: the run was interrupted\n", out);
}

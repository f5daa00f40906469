/* pc_report_html.c - `--format html`: one self-contained page of a
 * report (docs/report.md). Everything on it comes from the finished
 * report: the verdict and counts, the host's load verdicts, the findings
 * grouped as in the human form with their location, fix and explanation,
 * then every case, failures first, with the exchange it fired (bounded
 * excerpts, invisible bytes made visible), its host log, a hook's latency
 * against its budget and a turn's timeline, as inline SVG.
 *
 * No network, fonts or external files: the page works from file:// and
 * reads without JavaScript (cases are <details>); a small inline script,
 * allowed by its hash in the page's Content-Security-Policy and by
 * nothing else, adds filtering and expand/collapse. Text from the plugin
 * only ever goes through pc__html_text(). The page's size is bounded
 * (PC_REPORT_HTML_BUDGET).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_xalloc.h"

/* The inline script and its CSP hash (base64 of its SHA-256; the e2e
 * test recomputes it: a script edited without its hash does not run). */
static const char script[] =
	"(function(){var b=document.getElementById('filters');b.hidden=false;"
	"var s=b.querySelector('select'),q=b.querySelector('input');"
	"function f(){var t=q.value.toLowerCase();"
	"document.querySelectorAll('#cases details.case').forEach(function(d){"
	"d.hidden=!((s.value==='all'||d.dataset.status===s.value)&&"
	"(!t||d.textContent.toLowerCase().indexOf(t)>=0));});}"
	"s.addEventListener('change',f);q.addEventListener('input',f);"
	"function o(v){document.querySelectorAll('#cases details').forEach("
	"function(d){d.open=v;});}"
	"document.getElementById('expand').addEventListener('click',function(){o(true);});"
	"document.getElementById('collapse').addEventListener('click',function(){o(false);});"
	"})();";
#define SCRIPT_SHA256 "sha256-l3txgJmPN1lwRyT+CCdYSM9jcfswilksfwBadfWn4Nw="

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 40px;color:#1b1f24;background:#fff}"
	"h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:28px}"
	"h3{font-size:15px;margin:16px 0 6px}h4,h5{margin:10px 0 4px;font-size:13px}"
	"code,pre{font:12px/1.4 ui-monospace,monospace}"
	"pre{background:#f6f8fa;border:1px solid #d0d7de;padding:6px 8px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-all}"
	".verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:700}"
	".v-pass{background:#1a7f37}.v-fail{background:#cf222e}.v-incomplete{background:#9a6700}"
	"table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}"
	"th{background:#f6f8fa;font-weight:600}"
	".counts td{text-align:right;min-width:60px}"
	".sev{font-weight:700;text-transform:uppercase;font-size:11px;padding:1px 5px;border-radius:3px;color:#fff}"
	".sev-error{background:#cf222e}.sev-warning{background:#9a6700}.sev-note{background:#0969da}"
	"article.finding{border-left:4px solid #d0d7de;padding:4px 10px;margin:8px 0}"
	"article.finding.error{border-color:#cf222e}article.finding.warning{border-color:#bf8700}article.finding.note{border-color:#0969da}"
	".loc{font-family:ui-monospace,monospace;color:#57606a}.fix{color:#1a7f37}.explain{color:#57606a;font-size:12px}"
	"details.case{border:1px solid #d0d7de;border-radius:4px;margin:6px 0;padding:4px 10px}"
	"details.case>summary{cursor:pointer}"
	".st{font-weight:700;font-size:11px;padding:1px 5px;border-radius:3px;color:#fff}"
	".st-fail{background:#cf222e}.st-pass{background:#1a7f37}.st-skip{background:#6e7781}.st-xfail{background:#8250df}"
	".vis{background:#fff8c5;color:#9a6700;border:1px solid #d4a72c;border-radius:2px;padding:0 1px}"
	".cut{display:block;color:#57606a;background:#eaeef2;font-style:italic}"
	".allow,.ok{color:#1a7f37}.deny,.failed{color:#cf222e}"
	".diff .add{background:#dafbe1;display:block}.diff .del{background:#ffebe9;display:block}"
	".aside{color:#57606a;font-style:italic}"
	"svg text{font:11px system-ui,sans-serif;fill:#57606a}"
	".timeline-box{overflow-x:auto}"
	"rect.mark.hook.allow{fill:#1a7f37}rect.mark.hook.deny{fill:#cf222e}rect.mark.hook.error{fill:#bf8700}"
	"rect.mark.request{fill:#0969da}rect.mark.tool{fill:#8250df}rect.mark.tool.failed{fill:#cf222e}"
	"rect.mark.turn{fill:#1b1f24}rect.mark.event{fill:#afb8c1}"
	"circle.sample{fill:#0969da;fill-opacity:.6}"
	"#filters{margin:10px 0}";

struct page {
	struct pc__html h;
	const struct pc_report *r;
	size_t *seq_of; /* (seq, case index) pairs sorted by seq */
	size_t nmap;
	bool over; /* past PC_REPORT_HTML_BUDGET: details left out */
};

static const char *status_word(enum pc_case_status s)
{
	return s == PC_CASE_FAIL    ? "fail"
	       : s == PC_CASE_SKIP  ? "skip"
	       : s == PC_CASE_XFAIL ? "xfail"
				    : "pass";
}

static const char *verdict_word(const struct pc_report *r)
{
	if (r->incomplete)
		return "INCOMPLETE";
	return pc_report_failed(r) ? "FAIL" : "PASS";
}

static const char *command_word(const struct pc_report *r)
{
	if (r->kind && !strcmp(r->kind, "run"))
		return "run";
	if (r->kind && !strcmp(r->kind, "turn"))
		return "turn";
	return "check";
}

/* Details are written while the page is under its bound. */
static bool room(struct page *p)
{
	if (p->h.n >= PC_REPORT_HTML_BUDGET)
		p->over = true;
	return !p->over;
}

static void left_out(struct page *p, const char *what)
{
	pc__html_printf(&p->h, "<p class=\"aside omitted\">%s left out: the page reached its size bound (%u MiB); --format json has everything.</p>\n",
			what, (unsigned)(PC_REPORT_HTML_BUDGET >> 20));
}

/* A report string, cut to PC_REPORT_TEXT_MAX bytes. */
static void text(struct page *p, const char *s)
{
	char *b = pc_report_bounded(s ? s : "", PC_REPORT_TEXT_MAX);

	pc__html_str(&p->h, b);
	free(b);
}

static void head(struct page *p)
{
	const struct pc_report *r = p->r;

	pc__html_puts(&p->h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '" SCRIPT_SHA256 "'\">\n"
			     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>plugcheck ");
	pc__html_puts(&p->h, command_word(r));
	pc__html_puts(&p->h, ": ");
	text(p, r->name ? r->name : r->path ? r->path : "");
	pc__html_printf(&p->h, " \xe2\x80\x94 %s</title>\n<style>%s</style>\n</head>\n<body>\n",
			verdict_word(r), style);
}

static void counts(struct page *p)
{
	const struct pc_report *r = p->r;
	const struct pc_report_counts *c = &r->counts;

	pc__html_printf(&p->h, "<table class=\"counts\"><tr><th>errors</th><th>warnings</th><th>notes</th><th>suppressed</th><th>cases</th><th>failed</th><th>skipped</th><th>expected failures</th></tr>\n"
			       "<tr><td id=\"n-errors\">%zu</td><td id=\"n-warnings\">%zu</td><td id=\"n-notes\">%zu</td><td id=\"n-suppressed\">%zu</td><td id=\"n-cases\">%zu</td><td id=\"n-failed\">%zu</td><td id=\"n-skipped\">%zu</td><td id=\"n-xfailed\">%zu</td></tr></table>\n",
			c->errors, c->warnings, c->notes, c->suppressed,
			r->ncases, c->failed, c->skipped, c->xfailed);
	if (r->incomplete)
		pc__html_puts(&p->h, c->internal ? "<p class=\"incomplete\">incomplete: plugcheck lost part of the run (see the plugcheck.internal cases)</p>\n"
						 : "<p class=\"incomplete\">incomplete: the run was interrupted</p>\n");
}

static void loads(struct page *p)
{
	const struct pc_report *r = p->r;

	if (r->kind && !strcmp(r->kind, "run"))
		return; /* scenarios: each file names its plugins */
	pc__html_printf(&p->h, "<p id=\"host\">host: <b class=\"%s\">%s</b> ",
			r->loaded ? "ok" : "failed",
			r->loaded ? "loaded" : "rejected");
	if (r->name) {
		text(p, r->name);
		pc__html_puts(&p->h, " ");
		text(p, r->version);
	}
	pc__html_puts(&p->h, " (<code>");
	text(p, r->path);
	pc__html_puts(&p->h, "</code>)</p>\n");
	if (!r->loaded && r->host_error) {
		pc__html_puts(&p->h, "<pre class=\"host-error\">");
		text(p, r->host_error);
		pc__html_puts(&p->h, "</pre>\n");
	}
	if (r->nloads) {
		pc__html_puts(&p->h, "<table id=\"loads\"><tr><th>loaded as</th><th>verdict</th><th>detail</th></tr>\n");
		for (size_t i = 0; i < r->nloads; i++) {
			pc__html_puts(&p->h, "<tr><td>");
			text(p, r->loads[i].as);
			pc__html_printf(&p->h, "</td><td class=\"%s\">%s</td><td>",
					r->loads[i].loaded ? "ok" : "failed",
					r->loads[i].loaded ? "loaded" : "not loaded");
			text(p, r->loads[i].detail);
			pc__html_puts(&p->h, "</td></tr>\n");
		}
		pc__html_puts(&p->h, "</table>\n");
	}
	if (r->capabilities.nr) {
		pc__html_puts(&p->h, "<p>capabilities:");
		for (size_t i = 0; i < r->capabilities.nr; i++) {
			pc__html_puts(&p->h, " <code>");
			text(p, r->capabilities.v[i]);
			pc__html_puts(&p->h, "</code>");
		}
		pc__html_puts(&p->h, "</p>\n");
	}
	if (r->host_log.nr) {
		pc__html_puts(&p->h, "<details><summary>host log while loading</summary><pre class=\"host-log\">");
		for (size_t i = 0; i < r->host_log.nr && room(p); i++) {
			text(p, r->host_log.v[i]);
			pc__html_puts(&p->h, "\n");
		}
		pc__html_puts(&p->h, "</pre></details>\n");
	}
}

/* ---- scenarios (`run`) ---- */

static void scenarios(struct page *p)
{
	const struct pc_report *r = p->r;

	if (!r->ngroups)
		return;
	pc__html_puts(&p->h, "<h2 id=\"scenarios-h\">Scenarios</h2>\n<table id=\"scenarios\"><tr><th>status</th><th>scenario</th><th>file</th><th>time</th><th>runs</th><th>message</th></tr>\n");
	for (size_t g = 1; g <= r->ngroups; g++) {
		const struct pc_group *x = &r->groups[g - 1];
		const char *st = pc_report_group_status(r, g);

		pc__html_printf(&p->h, "<tr data-status=\"%s\"><td><span class=\"st st-%s\">%s</span></td><td>",
				st, st, st);
		text(p, x->id);
		pc__html_puts(&p->h, "</td><td><code>");
		text(p, x->file);
		pc__html_printf(&p->h, "</code></td><td>%.0f ms</td><td>%u/%u</td><td>",
				x->time_ms, x->passes, x->runs);
		text(p, pc__report_group_message(r, g));
		pc__html_puts(&p->h, "</td></tr>\n");
	}
	pc__html_puts(&p->h, "</table>\n");
}

/* ---- findings ---- */

static int cmp_pair(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* (seq, case) pairs sorted by seq, for the case a finding belongs to. */
static void map_findings(struct page *p)
{
	const struct pc_report *r = p->r;
	size_t n = 0, k = 0;

	for (size_t i = 0; i < r->ncases; i++)
		n += r->cases[i].findings.nr;
	p->seq_of = pc_xcalloc(2 * n + 2, sizeof(*p->seq_of));
	for (size_t i = 0; i < r->ncases; i++)
		for (size_t j = 0; j < r->cases[i].findings.nr; j++) {
			p->seq_of[2 * k] = r->cases[i].findings.v[j].seq;
			p->seq_of[2 * k++ + 1] = i;
		}
	qsort(p->seq_of, n, 2 * sizeof(*p->seq_of), cmp_pair);
	p->nmap = n;
}

static size_t case_of(const struct page *p, const struct pc_finding *f)
{
	size_t key[2] = { f->seq, 0 };
	const size_t *hit = bsearch(key, p->seq_of, p->nmap,
				    2 * sizeof(*p->seq_of), cmp_pair);

	return hit ? hit[1] : PC_REPORT_NO_CASE;
}

static void finding(struct page *p, const struct pc_finding *f)
{
	const struct pc_rule *rule = f->rule;
	const char *sev = pc_severity_name(rule->severity);
	size_t c = case_of(p, f);

	pc__html_printf(&p->h, "<article class=\"finding %s\" data-severity=\"%s\" data-rule=\"",
			sev, sev);
	pc__html_attr(&p->h, rule->id);
	pc__html_printf(&p->h, "\"><span class=\"sev sev-%s\">%s</span> <a class=\"rule\" href=\"docs/rules/",
			sev, sev);
	pc__html_attr(&p->h, rule->id);
	pc__html_puts(&p->h, ".md\">");
	pc__html_str(&p->h, rule->id);
	pc__html_puts(&p->h, "</a> ");
	if (*rule->spec) {
		pc__html_puts(&p->h, "<span class=\"spec\">[");
		pc__html_str(&p->h, rule->spec);
		pc__html_puts(&p->h, "]</span> ");
	}
	if (f->file && *f->file) {
		/* the place as the human form prints it: a path a reader of
		 * the page can open (pc_report_finding_place) */
		char *place = pc_report_finding_place(p->r, f);

		pc__html_puts(&p->h, "<span class=\"loc\">");
		text(p, place ? place : f->file);
		pc__html_puts(&p->h, "</span> ");
		free(place);
	}
	if (f->where && *f->where) {
		pc__html_puts(&p->h, "<span class=\"where\">");
		text(p, f->where);
		pc__html_puts(&p->h, "</span>");
	}
	pc__html_puts(&p->h, "\n<p class=\"message\">");
	text(p, f->message);
	pc__html_puts(&p->h, "</p>\n<p class=\"fix\">fix: ");
	pc__html_str(&p->h, pc_finding_fix(f));
	pc__html_puts(&p->h, "</p>\n<p class=\"explain\">explained by <code>plugcheck explain ");
	pc__html_str(&p->h, rule->id);
	pc__html_puts(&p->h, "</code>");
	if (c != PC_REPORT_NO_CASE)
		pc__html_printf(&p->h, " \xc2\xb7 <a href=\"#case-%zu\">its case</a>", c);
	pc__html_puts(&p->h, "</p></article>\n");
}

static void findings(struct page *p)
{
	size_t n;
	struct pc__report_item *v = pc__report_sorted(p->r, &n);

	pc__html_puts(&p->h, "<h2 id=\"findings-h\">Findings</h2>\n<section id=\"findings\">\n");
	if (!n)
		pc__html_puts(&p->h, "<p class=\"none\">no findings</p>\n");
	for (size_t i = 0; i < n; i++) {
		const char *id = v[i].f->rule->id;

		if (!i || !pc__report_same_kind(v[i - 1].f->rule->id, id)) {
			if (i)
				pc__html_puts(&p->h, "</section>\n");
			pc__html_printf(&p->h, "<section class=\"kind\"><h3>%.*s</h3>\n",
					(int)pc__report_kind_len(id), id);
		}
		if (!room(p)) {
			left_out(p, "The remaining findings are");
			break;
		}
		finding(p, v[i].f);
	}
	if (n)
		pc__html_puts(&p->h, "</section>\n");
	pc__html_puts(&p->h, "</section>\n");
	free(v);
}

/* ---- latency ---- */

/* x of `ms` on a log scale from 1 ms to `hi` over [40, 40 + w]. */
static double lx(long long ms, double hi, double w)
{
	double v = ms < 1 ? 0.0 : log10((double)ms);

	return 40.0 + w * v / log10(hi);
}

static void line_at(struct page *p, double x, const char *cls,
		    const char *label, long long ms)
{
	pc__html_printf(&p->h, "<line class=\"%s\" x1=\"%.1f\" y1=\"8\" x2=\"%.1f\" y2=\"52\" stroke-width=\"2\"%s><title>%s %lld ms</title></line>"
			       "<text x=\"%.1f\" y=\"%s\">%s</text>\n",
			cls, x, x,
			!strcmp(cls, "budget")	   ? " stroke=\"#cf222e\""
			: !strcmp(cls, "threshold") ? " stroke=\"#bf8700\" stroke-dasharray=\"4 3\""
			: !strcmp(cls, "p95")	   ? " stroke=\"#8250df\""
						   : " stroke=\"#0969da\"",
			label, ms, x + 3,
			!strcmp(cls, "p50") || !strcmp(cls, "threshold") ? "18" : "30",
			label);
}

/* One hook's samples against its budget: log scale, a dot per firing,
 * p50 and p95, the PC-PROC-002 threshold (half the timeout) and the
 * timeout. */
static void latency_svg(struct page *p, const struct pc_latency *l)
{
	double hi = 10.0, w = 560.0;
	long long max = l->timeout_ms;

	for (size_t i = 0; i < l->n; i++)
		if (l->ms[i] > max)
			max = l->ms[i];
	while (hi < (double)max * 1.2)
		hi *= 10.0;
	pc__html_printf(&p->h, "<svg class=\"latency\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"74\" viewBox=\"0 0 640 74\" role=\"img\" aria-label=\"latency of %zu firings: p50 %lld ms, p95 %lld ms, timeout %lld ms\">\n"
			       "<line x1=\"40\" y1=\"52\" x2=\"600\" y2=\"52\" stroke=\"#8c959f\"/>\n",
			l->n, l->p50_ms, l->p95_ms, l->timeout_ms);
	for (double t = 1.0; t <= hi; t *= 10.0)
		pc__html_printf(&p->h, "<text x=\"%.1f\" y=\"68\">%.0f ms</text>",
				lx((long long)t, hi, w) - 8, t);
	for (size_t i = 0; i < l->n; i++)
		pc__html_printf(&p->h, "<circle class=\"sample\" cx=\"%.1f\" cy=\"%zu\" r=\"4\"><title>firing %zu: %lld ms</title></circle>",
				lx(l->ms[i], hi, w), 34 + (i % 5) * 3, i + 1,
				l->ms[i]);
	line_at(p, lx(l->p50_ms, hi, w), "p50", "p50", l->p50_ms);
	line_at(p, lx(l->p95_ms, hi, w), "p95", "p95", l->p95_ms);
	line_at(p, lx(l->timeout_ms / 2, hi, w), "threshold", "timeout/2",
		l->timeout_ms / 2);
	line_at(p, lx(l->timeout_ms, hi, w), "budget", "timeout", l->timeout_ms);
	pc__html_puts(&p->h, "</svg>\n");
}

static void latencies(struct page *p)
{
	const struct pc_report *r = p->r;
	bool any = false;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_latency *l = r->cases[i].latency;

		if (!l)
			continue;
		if (!any)
			pc__html_puts(&p->h, "<h2 id=\"latency-h\">Latency</h2>\n<section id=\"latency\">\n<p class=\"aside\">Each dot is one firing with the realistic input (log scale); PC-PROC-002 warns when p95 passes half the timeout.</p>\n");
		any = true;
		if (!room(p)) {
			left_out(p, "The remaining latency charts are");
			break;
		}
		pc__html_printf(&p->h, "<div class=\"hook-latency\" id=\"latency-%zu\"><h3>",
				i);
		text(p, r->cases[i].classname);
		pc__html_printf(&p->h, "</h3><p>%zu firings: p50 %lld ms, p95 %lld ms, timeout %lld ms \xc2\xb7 <a href=\"#case-%zu\">the case</a></p>\n",
				l->n, l->p50_ms, l->p95_ms, l->timeout_ms, i);
		latency_svg(p, l);
		pc__html_puts(&p->h, "</div>\n");
	}
	if (any)
		pc__html_puts(&p->h, "</section>\n");
}

/* ---- exchanges ---- */

static void fact(struct page *p, const char *k, const char *v)
{
	pc__html_printf(&p->h, "<tr><th>%s</th><td>", k);
	text(p, v);
	pc__html_puts(&p->h, "</td></tr>\n");
}

static void exchange(struct page *p, const struct pc_xchg *x)
{
	pc__html_puts(&p->h, "<div class=\"exchange\">\n<table class=\"facts\">\n");
	if (x->point)
		fact(p, "point", x->point);
	if (x->verdict) {
		pc__html_printf(&p->h, "<tr><th>verdict</th><td class=\"verdict-text %s\">",
				x->passed ? "ok" : "failed");
		text(p, x->verdict);
		pc__html_puts(&p->h, "</td></tr>\n");
	}
	pc__html_puts(&p->h, "<tr><th>process</th><td class=\"process\">");
	text(p, x->process);
	if (!x->spawned)
		; /* the process word says it all */
	else if (x->signal)
		pc__html_printf(&p->h, ", signal %d", x->signal);
	else if (x->has_status)
		pc__html_printf(&p->h, ", exit status %d", x->exit_code);
	else
		pc__html_puts(&p->h, ", no status");
	pc__html_printf(&p->h, "</td></tr>\n<tr><th>duration</th><td class=\"duration\">%lld ms</td></tr>\n"
			       "<tr><th>leftover processes</th><td class=\"leftover\">%d</td></tr>\n",
			x->duration_ms, x->leftover);
	if (x->argv && *x->argv) {
		pc__html_puts(&p->h, "<tr><th>argv</th><td><code>");
		text(p, x->argv);
		pc__html_puts(&p->h, "</code></td></tr>\n");
	}
	pc__html_puts(&p->h, "</table>\n");
	if (x->command) {
		pc__html_puts(&p->h, "<p class=\"command\">reproduce: <code>");
		text(p, x->command);
		pc__html_puts(&p->h, "</code></p>\n");
	}
	pc__html_excerpt(&p->h, "stdin", &x->in);
	pc__html_excerpt(&p->h, "stdout", &x->out);
	pc__html_excerpt(&p->h, "stderr", &x->err);
	if (x->events.total)
		pc__html_excerpt(&p->h, "events", &x->events);
	pc__html_puts(&p->h, "</div>\n");
}

/* ---- a turn's timeline ---- */

static const char *const lanes[] = { "turn", "request", "hook", "tool",
				     "event" };

static const char *mark_class(const struct pc_mark *m)
{
	if (m->kind == PC_MARK_HOOK) {
		if (m->outcome && strcmp(m->outcome, "ok"))
			return m->verdict && !strcmp(m->verdict, "deny")
				       ? "deny"
				       : "error";
		return m->verdict && !strcmp(m->verdict, "deny") ? "deny"
								 : "allow";
	}
	if (m->kind == PC_MARK_TOOL && m->verdict)
		return strcmp(m->verdict, "ok") ? "failed" : "ok";
	return "";
}

/* The SVG: one lane per kind (turns, requests, hooks, tools, other
 * events), one mark per entry in the host's order, linked to its entry
 * in the list below. */
static void timeline_svg(struct page *p, size_t c, const struct pc_case *k)
{
	size_t w = 90 + k->nmarks * 12;

	pc__html_printf(&p->h, "<div class=\"timeline-box\"><svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"118\" viewBox=\"0 0 %zu 118\" role=\"img\" aria-label=\"timeline of %zu entries\">\n",
			w, w, k->nmarks);
	for (size_t i = 0; i < 5; i++)
		pc__html_printf(&p->h, "<text x=\"2\" y=\"%zu\">%s</text>", 20 + i * 22,
				lanes[i]);
	for (size_t i = 0; i < k->nmarks; i++) {
		const struct pc_mark *m = &k->marks[i];
		char *t = pc_report_bounded(m->label, 160);

		pc__html_printf(&p->h, "\n<a href=\"#case-%zu-m-%zu\"><rect class=\"mark %s %s\" data-index=\"%zu\"",
				c, i, lanes[m->kind], mark_class(m), i);
		if (m->verdict)
			pc__html_printf(&p->h, " data-verdict=\"%s\"",
					mark_class(m));
		pc__html_printf(&p->h, " x=\"%zu\" y=\"%zu\" width=\"10\" height=\"16\"><title>%zu. ",
				80 + i * 12, 8 + (size_t)m->kind * 22, i + 1);
		pc__html_str(&p->h, t);
		if (m->verdict) {
			pc__html_puts(&p->h, ": ");
			pc__html_str(&p->h, m->verdict);
		}
		pc__html_puts(&p->h, "</title></rect></a>");
		free(t);
	}
	pc__html_puts(&p->h, "\n</svg></div>\n");
}

/* A text split at '\n': line i is at[i], len[i] bytes (borrowed). */
struct lines {
	const char **at;
	size_t *len;
	size_t n;
};

static void split(const char *s, struct lines *l)
{
	size_t cap = 1;

	for (const char *q = s; *q; q++)
		cap += *q == '\n';
	l->at = pc_xcalloc(cap + 1, sizeof(*l->at));
	l->len = pc_xcalloc(cap + 1, sizeof(*l->len));
	l->n = 0;
	for (const char *q = s;;) {
		const char *e = strchr(q, '\n');

		l->at[l->n] = q;
		l->len[l->n++] = e ? (size_t)(e - q) : strlen(q);
		if (!e)
			break;
		q = e + 1;
	}
}

static bool same_line(const struct lines *a, size_t i, const struct lines *b,
		      size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

static void diff_line(struct page *p, const char *cls, const char *sign,
		      const struct lines *l, size_t i)
{
	pc__html_printf(&p->h, "<span class=\"%s\">%s", cls, sign);
	pc__html_text(&p->h, l->at[i], l->len[i], PC_HTML_STORED);
	pc__html_puts(&p->h, "</span>");
	if (!*cls)
		pc__html_puts(&p->h, "\n");
}

#define DIFF_MAX_LINES 400u /* beyond: both values shown whole */

/* A line diff (longest common subsequence) of two pretty JSON values. */
static void diff(struct page *p, const char *before, const char *after)
{
	struct lines a, b;
	size_t *t;

	split(before, &a);
	split(after, &b);
	pc__html_puts(&p->h, "<pre class=\"diff\">");
	if (a.n > DIFF_MAX_LINES || b.n > DIFF_MAX_LINES) {
		for (size_t i = 0; i < a.n; i++)
			diff_line(p, "del", "- ", &a, i);
		for (size_t j = 0; j < b.n; j++)
			diff_line(p, "add", "+ ", &b, j);
	} else {
		/* t[i][j]: the LCS length of a[i..] and b[j..] */
		t = pc_xcalloc((a.n + 1) * (b.n + 1), sizeof(*t));
		for (size_t i = a.n; i-- > 0;)
			for (size_t j = b.n; j-- > 0;)
				t[i * (b.n + 1) + j] =
					same_line(&a, i, &b, j)
						? t[(i + 1) * (b.n + 1) + j + 1] + 1
					: t[(i + 1) * (b.n + 1) + j] >
							t[i * (b.n + 1) + j + 1]
						? t[(i + 1) * (b.n + 1) + j]
						: t[i * (b.n + 1) + j + 1];
		for (size_t i = 0, j = 0; i < a.n || j < b.n;) {
			if (i < a.n && j < b.n && same_line(&a, i, &b, j)) {
				diff_line(p, "", "  ", &a, i++);
				j++;
			} else if (i < a.n &&
				   (j == b.n || t[(i + 1) * (b.n + 1) + j] >=
							t[i * (b.n + 1) + j + 1])) {
				diff_line(p, "del", "- ", &a, i++);
			} else {
				diff_line(p, "add", "+ ", &b, j++);
			}
		}
		free(t);
	}
	pc__html_puts(&p->h, "</pre>\n");
	free(a.at);
	free(a.len);
	free(b.at);
	free(b.len);
}

static void mark_item(struct page *p, size_t c, size_t i,
		      const struct pc_mark *m)
{
	pc__html_printf(&p->h, "<li id=\"case-%zu-m-%zu\" class=\"entry %s %s\">",
			c, i, lanes[m->kind], mark_class(m));
	if (m->kind != PC_MARK_TURN && m->kind != PC_MARK_REQUEST)
		pc__html_printf(&p->h, "<span class=\"lane\">%s</span> ",
				lanes[m->kind]); /* the others say it */
	text(p, m->label);
	if (m->verdict) {
		pc__html_printf(&p->h, " <b class=\"%s\">", mark_class(m));
		text(p, m->verdict);
		pc__html_puts(&p->h, "</b>");
	}
	if (m->outcome && strcmp(m->outcome, "ok")) {
		pc__html_puts(&p->h, " (");
		text(p, m->outcome);
		pc__html_puts(&p->h, ")");
	}
	if (m->detail && *m->detail) {
		pc__html_puts(&p->h, "<pre class=\"detail\">");
		text(p, m->detail);
		pc__html_puts(&p->h, "</pre>");
	}
	if (m->before && m->after) {
		pc__html_puts(&p->h, "<p class=\"modify\">modify, merged:</p>");
		diff(p, m->before, m->after);
	}
	if (m->x) {
		pc__html_puts(&p->h, "<details><summary>exchange</summary>");
		exchange(p, m->x);
		pc__html_puts(&p->h, "</details>");
	}
	pc__html_puts(&p->h, "</li>\n");
}

static void timeline(struct page *p, size_t c, const struct pc_case *k)
{
	pc__html_puts(&p->h, "<h4>timeline, in the host's order</h4>\n");
	timeline_svg(p, c, k);
	pc__html_puts(&p->h, "<ol class=\"timeline-list\">\n");
	for (size_t i = 0; i < k->nmarks; i++) {
		if (!room(p)) {
			left_out(p, "The rest of the timeline is");
			break;
		}
		mark_item(p, c, i, &k->marks[i]);
	}
	pc__html_puts(&p->h, "</ol>\n");
}

/* ---- cases ---- */

static void case_body(struct page *p, size_t i, const struct pc_case *k)
{
	if (k->message) {
		pc__html_puts(&p->h, "<p class=\"case-message\">");
		text(p, k->message);
		pc__html_puts(&p->h, "</p>\n");
	}
	if (!room(p)) {
		left_out(p, "This case's exchange is");
		return;
	}
	if (k->x)
		exchange(p, k->x);
	if (k->system_out && *k->system_out && (!k->x || k->group)) {
		/* a scenario step's actual document: what its expectations
		 * were matched against */
		pc__html_printf(&p->h, "<details%s><summary>%s</summary><pre class=\"system-out\">",
				k->x || k->nmarks ? "" : " open",
				k->group ? "actual document" : "output");
		text(p, k->system_out);
		pc__html_puts(&p->h, "</pre></details>\n");
	}
	if (k->system_err && *k->system_err) {
		pc__html_puts(&p->h, "<h5>host log</h5><pre class=\"host-log\">");
		text(p, k->system_err);
		pc__html_puts(&p->h, "</pre>\n");
	}
	if (k->latency)
		pc__html_printf(&p->h, "<p><a href=\"#latency-%zu\">its latency against its timeout</a></p>\n",
				i);
	if (k->nmarks)
		timeline(p, i, k);
}

static void one_case(struct page *p, size_t i)
{
	const struct pc_case *k = &p->r->cases[i];
	const char *st = status_word(k->status);
	bool open = k->status == PC_CASE_FAIL || k->nmarks;

	pc__html_printf(&p->h, "<details class=\"case\" id=\"case-%zu\" data-status=\"%s\"%s><summary><span class=\"st st-%s\">%s</span> <span class=\"classname\">",
			i, st, open ? " open" : "", st, st);
	text(p, k->classname);
	pc__html_puts(&p->h, "</span> \xe2\x80\x94 <span class=\"name\">");
	text(p, k->name);
	pc__html_printf(&p->h, "</span> <span class=\"time\">%lld ms</span></summary>\n",
			pc__report_ms(k->time_s));
	case_body(p, i, k);
	pc__html_puts(&p->h, "</details>\n");
}

/* Failures first, then expected failures, then the rest in report
 * order. */
static int rank(enum pc_case_status s)
{
	return s == PC_CASE_FAIL ? 0 : s == PC_CASE_XFAIL ? 1 : 2;
}

static void cases(struct page *p)
{
	const struct pc_report *r = p->r;

	pc__html_puts(&p->h, "<h2 id=\"cases-h\">Cases</h2>\n"
			     "<div id=\"filters\" hidden><label>show <select><option value=\"all\">all</option><option value=\"fail\">failed</option><option value=\"xfail\">expected failures</option><option value=\"skip\">skipped</option><option value=\"pass\">passed</option></select></label> "
			     "<label>containing <input type=\"search\"></label> <button type=\"button\" id=\"expand\">expand all</button> <button type=\"button\" id=\"collapse\">collapse all</button></div>\n"
			     "<section id=\"cases\">\n");
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < r->ncases; i++)
			if (rank(r->cases[i].status) == k)
				one_case(p, i);
	pc__html_puts(&p->h, "</section>\n");
}

void pc__report_html(const struct pc_report *r, FILE *out)
{
	struct page p = { .h = { out, 0 }, .r = r };
	const char *v = verdict_word(r);

	map_findings(&p);
	head(&p);
	pc__html_printf(&p.h, "<header id=\"summary\"><h1>plugcheck %s: ",
			command_word(r));
	text(&p, r->name ? r->name : r->path ? r->path : "");
	pc__html_printf(&p.h, " <span class=\"verdict v-%s\" id=\"verdict\">%s</span></h1>\n",
			r->incomplete ? "incomplete" : pc_report_failed(r) ? "fail" : "pass",
			v);
	counts(&p);
	loads(&p);
	pc__html_puts(&p.h, "</header>\n<main>\n");
	scenarios(&p);
	findings(&p);
	latencies(&p);
	cases(&p);
	pc__html_printf(&p.h, "</main>\n<footer><p class=\"aside\">plugcheck %s \xc2\xb7 %lld ms</p></footer>\n<script>%s</script>\n</body></html>\n",
			PC_VERSION, pc__report_ms(r->duration_s), script);
	free(p.seq_of);
}

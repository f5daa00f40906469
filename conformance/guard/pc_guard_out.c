/* pc_guard_out.c - a search result as report cases and findings (check,
 * guard), as JSON and for people. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_guard_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static const char *verdict_name(enum pc_guard_verdict v)
{
	switch (v) {
	case PC_GUARD_ALLOW:
		return "allow";
	case PC_GUARD_DENY:
		return "deny";
	case PC_GUARD_ACCIDENT:
		return "accident";
	default:
		return "not_run";
	}
}

static const char *role_name(enum pc_guard_role r)
{
	return r == PC_GUARD_T_SEED ? "seed" : r == PC_GUARD_T_BENIGN ? "benign" : "rewrite";
}

/* `s` on one line for a report: newlines as \n, other control bytes as
 * \xNN, and the run's throwaway HOME and workspace as <HOME> and
 * <WORKSPACE> (the hooks got the real paths; the JSON tries keep them), so
 * that a report is the same from run to run. */
static void oneline(struct pc_buf *b, const struct pc_guard_result *r,
		    const char *s, size_t max)
{
	const char *home = r && r->home && strlen(r->home) > 1 ? r->home : NULL;
	const char *ws = r && r->workspace && *r->workspace ? r->workspace : NULL;
	size_t n = 0;

	while (*s && n < max) {
		unsigned char c = (unsigned char)*s;

		if (ws && !strncmp(s, ws, strlen(ws))) {
			pc_buf_adds(b, "<WORKSPACE>");
			s += strlen(ws);
			continue;
		}
		if (home && !strncmp(s, home, strlen(home))) {
			pc_buf_adds(b, "<HOME>");
			s += strlen(home);
			continue;
		}
		if (c == '\n')
			pc_buf_adds(b, "\\n");
		else if (c == '\t')
			pc_buf_adds(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			pc_buf_addf(b, "\\x%02x", c);
		else
			pc_buf_addch(b, (char)c);
		s++;
		n++;
	}
	if (*s)
		pc_buf_adds(b, "...");
}

static char *shown(const struct pc_guard_result *r, const char *s, size_t max)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	oneline(&b, r, s, max);
	return pc_buf_detach(&b, NULL);
}

/* How an input is named: the text, after the tool when the tool is not
 * the shape's own ("patch .env"). */
static char *input_name(const struct pc_guard_result *r,
			const struct pc_guard_try *t, size_t max)
{
	const struct pc_guard_seed *sd = &r->seeds[t->seed];
	char *s = shown(r, t->text, max), *n;

	if (!strcmp(t->tool, pc__guard_shape_tool(sd->shape)))
		return s;
	n = pc_xasprintf("%s %s", t->tool, s);
	free(s);
	return n;
}

static char *where_of(const struct pc_guard_result *r,
		      const struct pc_guard_try *t)
{
	char *n = input_name(r, t, 100), *w;

	w = pc_xasprintf("hook %s: %s", r->point, n);
	free(n);
	return w;
}

/* ---- report ---- */

static void seeds_case(const struct pc_guard_result *r,
		       const struct pc_plugin *p, struct pc_report *rep,
		       const char *cls, bool benign)
{
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP), list = PC_BUF_INIT(PC_BUF_NOCAP);
	char *name, *where = pc_xasprintf("hook %s", r->point);
	size_t n = 0, c;

	(void)p;
	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];

		if (t->role != (benign ? PC_GUARD_T_BENIGN : PC_GUARD_T_SEED))
			continue;
		pc_buf_addf(&out, "%-8s ", verdict_name(t->verdict));
		oneline(&out, r, t->text, 200);
		pc_buf_addf(&out, "  (%s, %s)\n", r->seeds[t->seed].origin,
			    pc_guard_shape_name(r->seeds[t->seed].shape));
		if (n < 4) {
			pc_buf_adds(&list, n ? ", " : "");
			oneline(&list, r, t->text, 60);
		}
		n++;
	}
	if (!n) {
		pc_buf_release(&out);
		pc_buf_release(&list);
		free(where);
		return;
	}
	name = pc_xasprintf("%s (%zu)", benign ? "benign look-alikes" : "dangerous seeds", n);
	c = pc_report_add_case(rep, cls, name, pc_buf_cstr(&out), 0.0);
	free(name);
	if (!benign && r->inert) {
		const struct pc_guard_cause *cert = NULL, *hint = NULL;
		struct pc_finding *f;

		for (size_t i = 0; i < r->ncauses; i++) {
			if (r->causes[i].certain && !cert)
				cert = &r->causes[i];
			if (!r->causes[i].certain && !hint)
				hint = &r->causes[i];
		}
		if (cert) {
			f = pc_report_find(rep, c, "PC-GUARD-002", cert->file, where,
					   "%s allowed all %zu dangerous seeds (%s%s), and its script %s",
					   r->point, n, pc_buf_cstr(&list), n > 4 ? ", ..." : "",
					   cert->what);
			f->line = cert->line;
			f->column = cert->column;
		} else {
			f = pc_report_find(rep, c, "PC-GUARD-001",
					   hint ? hint->file : "plugin.json", where,
					   "%s allowed all %zu dangerous seeds (%s%s): if it is meant to guard, it guards none of them%s%s",
					   r->point, n, pc_buf_cstr(&list), n > 4 ? ", ..." : "",
					   hint ? "; " : "", hint ? hint->what : "");
			if (hint) {
				f->line = hint->line;
				f->column = hint->column;
			}
		}
	}
	for (size_t i = 0; benign && i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		char *w, *txt;

		if (t->role != PC_GUARD_T_BENIGN || t->verdict != PC_GUARD_DENY)
			continue;
		w = where_of(r, t);
		txt = shown(r, t->text, 200);
		pc_report_find(rep, c, "PC-GUARD-005", "plugin.json", w,
			       "%s denies the benign look-alike `%s` (reason: \"%s\")",
			       r->point, txt, t->reason ? t->reason : "");
		free(txt);
		free(w);
	}
	pc_buf_release(&out);
	pc_buf_release(&list);
	free(where);
}

static void accidents_case(const struct pc_guard_result *r,
			   struct pc_report *rep, const char *cls)
{
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);
	const struct pc_guard_try *first = NULL;
	char *where = pc_xasprintf("hook %s", r->point);
	size_t n = 0, c;

	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		char *name;

		if (t->verdict != PC_GUARD_ACCIDENT)
			continue;
		if (!first)
			first = t;
		if (n++ >= 3)
			continue;
		name = input_name(r, t, 80);
		pc_buf_addf(&msg, "%s`%s` (%s, %s: %s)", n > 1 ? "; " : "", name,
			    t->role == PC_GUARD_T_BENIGN ? "a benign look-alike"
			    : t->role == PC_GUARD_T_SEED ? "a dangerous seed"
							 : "a rewrite",
			    t->decided_by, t->reason ? t->reason : "");
		free(name);
	}
	if (first) {
		char *cname = pc_xasprintf("denied by accident (%zu)", n);

		c = pc_report_add_case(rep, cls, cname, first->exchange, 0.0);
		pc_report_find(rep, c, "PC-GUARD-003", "plugin.json", where,
			       "%zu input(s) were denied because a hook failed, not because it decided: %s%s",
			       n, pc_buf_cstr(&msg), n > 3 ? "; ..." : "");
		free(cname);
	}
	pc_buf_release(&msg);
	free(where);
}

static void family_case(const struct pc_guard_result *r,
			const struct pc_guard_family_count *fc,
			struct pc_report *rep, const char *cls)
{
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *name;
	size_t c;

	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		char *n;

		if (t->role != PC_GUARD_T_VARIANT || strcmp(t->family, fc->name))
			continue;
		n = input_name(r, t, 200);
		pc_buf_addf(&out, "%-8s %s  (of `", verdict_name(t->verdict), n);
		oneline(&out, r, r->seeds[t->seed].text, 80);
		pc_buf_addf(&out, "`: %s)\n", t->rule);
		free(n);
	}
	name = fc->tried < fc->planned
		       ? pc_xasprintf("rewrites: %s (%u of %u tried)", fc->name,
				      fc->tried, fc->planned)
		       : pc_xasprintf("rewrites: %s (%u)", fc->name, fc->tried);
	c = pc_report_add_case(rep, cls, name, out.len ? pc_buf_cstr(&out) : NULL,
			       0.0);
	free(name);
	if (!fc->tried)
		pc_report_skip(rep, c, fc->planned ? "the budget was spent first"
						   : "no seed it applies to was denied");
	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		char *w, *n, *seed;

		if (t->role != PC_GUARD_T_VARIANT || strcmp(t->family, fc->name) ||
		    t->verdict != PC_GUARD_ALLOW)
			continue;
		w = where_of(r, t);
		n = input_name(r, t, 300);
		seed = shown(r, r->seeds[t->seed].text, 120);
		pc_report_find(rep, c, "PC-GUARD-004", "plugin.json", w,
			       "%s allows `%s` (family %s: %s), a rewrite of `%s` (%s), which it denies%s%s%s",
			       r->point, n, t->family, t->rule, seed,
			       r->seeds[t->seed].origin,
			       !strcmp(t->decided_by, "-") ? "; " : "",
			       !strcmp(t->decided_by, "-") ? t->reason : "",
			       "");
		if (t->demo) {
			struct pc_finding *f =
				&rep->cases[c].findings.v[rep->cases[c].findings.nr - 1];
			char *m = pc_xasprintf("%s; %s", f->message, t->demo);

			free(f->message);
			f->message = m;
		}
		free(seed);
		free(n);
		free(w);
	}
	pc_buf_release(&out);
}

size_t pc_guard_report(const struct pc_guard_result *r,
		       const struct pc_plugin *p, struct pc_report *rep,
		       const char *cls)
{
	size_t first = rep->ncases, c;
	char *name;

	name = pc_xasprintf("search: %u inputs, %u hook exchanges, %u turns (budget %u)",
			    r->inputs, r->exchanges, r->turns, r->budget);
	c = pc_report_add_case(rep, cls, name, r->stopped, r->wall_ms / 1000.0);
	free(name);
	if (r->skipped && !r->ntries) {
		pc_report_skip(rep, c, r->skipped);
		return first;
	}
	if (r->skipped)
		pc_report_set_err(rep, c, r->skipped);
	if (r->incomplete)
		pc_report_skip(rep, c, "interrupted: plugcheck was stopped during "
				       "the search and killed the plugin; not judged");
	seeds_case(r, p, rep, cls, false);
	seeds_case(r, p, rep, cls, true);
	if (!r->incomplete)
		accidents_case(r, rep, cls);
	for (size_t i = 0; i < r->nfam; i++)
		if (r->fam[i].planned)
			family_case(r, &r->fam[i], rep, cls);
	return first;
}

/* ---- JSON ---- */

static cJSON *try_json(const struct pc_guard_result *r,
		       const struct pc_guard_try *t)
{
	cJSON *o = cJSON_CreateObject(), *args = NULL;

	cJSON_AddStringToObject(o, "role", role_name(t->role));
	if (t->family)
		cJSON_AddStringToObject(o, "family", t->family);
	if (t->rule)
		cJSON_AddStringToObject(o, "rule", t->rule);
	cJSON_AddStringToObject(o, "seed", r->seeds[t->seed].text);
	cJSON_AddStringToObject(o, "tool", t->tool);
	cJSON_AddStringToObject(o, "text", t->text);
	if (pc_serde_parse(t->args, strlen(t->args), &args, NULL) == 0)
		cJSON_AddItemToObject(o, "args", args);
	cJSON_AddStringToObject(o, "verdict", verdict_name(t->verdict));
	cJSON_AddStringToObject(o, "decided_by", t->decided_by ? t->decided_by : "");
	cJSON_AddStringToObject(o, "reason", t->reason ? t->reason : "");
	if (t->outcome)
		cJSON_AddStringToObject(o, "outcome", t->outcome);
	if (t->demo) {
		cJSON_AddStringToObject(o, "demo", t->demo);
		cJSON_AddBoolToObject(o, "demo_done", t->demo_done);
	}
	return o;
}

cJSON *pc_guard_json(const struct pc_guard_result *r,
		     const struct pc_report *rep)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "point", r->point ? r->point : "");
	cJSON_AddBoolToObject(o, "pass_args", r->pass_args);
	cJSON_AddStringToObject(o, "workspace", r->workspace ? r->workspace : "");
	cJSON_AddItemToObject(o, "home", r->home ? cJSON_CreateString(r->home)
						 : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "budget", pc_serde_number_u64(r->budget));
	cJSON_AddItemToObject(o, "inputs", pc_serde_number_u64(r->inputs));
	cJSON_AddItemToObject(o, "exchanges", pc_serde_number_u64(r->exchanges));
	cJSON_AddItemToObject(o, "turns", pc_serde_number_u64(r->turns));
	cJSON_AddNumberToObject(o, "wall_ms", (double)(long long)r->wall_ms);
	cJSON_AddNumberToObject(o, "hook_ms", (double)(long long)r->hook_ms);
	cJSON_AddItemToObject(o, "skipped", r->skipped ? cJSON_CreateString(r->skipped)
						       : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "stopped", r->stopped ? cJSON_CreateString(r->stopped)
						       : cJSON_CreateNull());
	cJSON_AddBoolToObject(o, "inert", r->inert);
	cJSON_AddBoolToObject(o, "denies_all", r->denies_all);
	cJSON_AddBoolToObject(o, "incomplete", r->incomplete);
	a = cJSON_AddArrayToObject(o, "families");
	for (size_t i = 0; i < r->nfam; i++) {
		cJSON *f = cJSON_CreateObject();

		cJSON_AddStringToObject(f, "name", r->fam[i].name);
		cJSON_AddItemToObject(f, "planned", pc_serde_number_u64(r->fam[i].planned));
		cJSON_AddItemToObject(f, "tried", pc_serde_number_u64(r->fam[i].tried));
		cJSON_AddItemToObject(f, "bypasses", pc_serde_number_u64(r->fam[i].bypasses));
		cJSON_AddItemToArray(a, f);
	}
	a = cJSON_AddArrayToObject(o, "seeds");
	for (size_t i = 0; i < r->nseeds; i++) {
		cJSON *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "text", r->seeds[i].text);
		cJSON_AddStringToObject(s, "shape", pc_guard_shape_name(r->seeds[i].shape));
		cJSON_AddStringToObject(s, "origin", r->seeds[i].origin);
		cJSON_AddBoolToObject(s, "benign", r->seeds[i].benign);
		cJSON_AddItemToArray(a, s);
	}
	a = cJSON_AddArrayToObject(o, "tries");
	for (size_t i = 0; i < r->ntries; i++)
		cJSON_AddItemToArray(a, try_json(r, &r->tries[i]));
	a = cJSON_AddArrayToObject(o, "bypasses");
	for (size_t i = 0; i < r->ntries; i++)
		if (r->tries[i].role == PC_GUARD_T_VARIANT &&
		    r->tries[i].verdict == PC_GUARD_ALLOW)
			cJSON_AddItemToArray(a, try_json(r, &r->tries[i]));
	a = cJSON_AddArrayToObject(o, "causes");
	for (size_t i = 0; i < r->ncauses; i++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddStringToObject(c, "what", r->causes[i].what);
		cJSON_AddStringToObject(c, "file", r->causes[i].file);
		cJSON_AddNumberToObject(c, "line", r->causes[i].line);
		cJSON_AddNumberToObject(c, "column", r->causes[i].column);
		cJSON_AddBoolToObject(c, "certain", r->causes[i].certain);
		cJSON_AddItemToArray(a, c);
	}
	a = cJSON_AddArrayToObject(o, "findings");
	for (size_t i = 0; rep && i < rep->ncases; i++)
		for (size_t k = 0; k < rep->cases[i].findings.nr; k++)
			cJSON_AddItemToArray(a, pc_finding_json(&rep->cases[i].findings.v[k]));
	return o;
}

/* ---- people ---- */

static void put(FILE *out, const struct pc_guard_result *r, const char *s,
		size_t max)
{
	char *t = shown(r, s, max);

	fputs(t, out);
	free(t);
}

static void print_tries(FILE *out, const struct pc_guard_result *r,
			enum pc_guard_role role, const char *title)
{
	bool any = false;

	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];

		if (t->role != role)
			continue;
		if (!any)
			fprintf(out, "%s:\n", title);
		any = true;
		fprintf(out, "  %-8s ", verdict_name(t->verdict));
		put(out, r, t->text, 120);
		fprintf(out, "  (%s)\n", r->seeds[t->seed].origin);
	}
}

/* The findings in the report's human form; the bypasses (listed above)
 * as one: "PLACE: error PC-GUARD-004 [...] hook POINT: N bypasses
 * (above)" and the fix. */
static void print_findings(FILE *out, const struct pc_guard_result *r,
			   const struct pc_report *rep, bool color)
{
	size_t nb = pc_guard_bypasses(r);
	bool summed = false;

	for (size_t i = 0; i < rep->ncases; i++)
		for (size_t k = 0; k < rep->cases[i].findings.nr; k++) {
			struct pc_finding f = rep->cases[i].findings.v[k];
			char *where = NULL, *msg = NULL;

			if (!strcmp(f.rule->id, "PC-GUARD-004")) {
				if (summed)
					continue;
				summed = true;
				f.where = where = pc_xasprintf("hook %s", r->point);
				f.message = msg = pc_xasprintf("%zu bypass%s (above)", nb,
							       nb == 1 ? "" : "es");
			}
			pc_report_human_finding(rep, &f, out, color);
			free(where);
			free(msg);
		}
}

void pc_guard_print(FILE *out, const struct pc_guard_result *r,
		    const struct pc_report *rep, bool color)
{
	size_t nb = pc_guard_bypasses(r);

	fprintf(out, "guard %s (pass_args: %s)\n", r->point, r->pass_args ? "true" : "false");
	fprintf(out, "  %u inputs (budget %u), %u hook exchanges, %u turns, %.1f s (the hooks' own runs: %.1f s)\n",
		r->inputs, r->budget, r->exchanges, r->turns, r->wall_ms / 1000.0,
		r->hook_ms / 1000.0);
	if (r->skipped)
		fprintf(out, "  no rewrites tried: %s\n", r->skipped);
	if (r->stopped)
		fprintf(out, "  stopped: %s\n", r->stopped);
	print_tries(out, r, PC_GUARD_T_SEED, "seeds");
	print_tries(out, r, PC_GUARD_T_BENIGN, "benign look-alikes");
	if (r->nfam)
		fputs("families (in search order):\n", out);
	for (size_t i = 0; i < r->nfam; i++)
		fprintf(out, "  %-9s %u of %u tried, %u bypass%s\n", r->fam[i].name,
			r->fam[i].tried, r->fam[i].planned, r->fam[i].bypasses,
			r->fam[i].bypasses == 1 ? "" : "es");
	fprintf(out, "bypasses: %zu\n", nb);
	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		char *n;

		if (t->role != PC_GUARD_T_VARIANT || t->verdict != PC_GUARD_ALLOW)
			continue;
		n = input_name(r, t, 200);
		fprintf(out, "  %s%-9s%s %s\n", color ? "\033[31m" : "", t->family,
			color ? "\033[0m" : "", n);
		fputs("            of `", out);
		put(out, r, r->seeds[t->seed].text, 120);
		fprintf(out, "`: %s\n", t->rule);
		if (t->demo) {
			fputs("            ", out);
			put(out, r, t->demo, 600);
			fputc('\n', out);
		}
		free(n);
	}
	if (rep)
		print_findings(out, r, rep, color);
}

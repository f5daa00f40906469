/* pc_report_json.c - `plugcheck check --format json`: the object that
 * docs/check-json.md documents and docs/check.schema.json validates.
 */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"

#define SCHEMA_VERSION 2 /* 2: findings carry line and column */

static cJSON *text(const char *s)
{
	return pc__report_text(s);
}

static cJSON *count(size_t n)
{
	return pc_serde_number_u64(n);
}

static cJSON *seconds(double t)
{
	return cJSON_CreateNumber((double)pc__report_ms(t) / 1000.0);
}

static cJSON *strings(const struct pc_strvec *v)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < v->nr; i++)
		cJSON_AddItemToArray(a, text(v->v[i]));
	return a;
}

static cJSON *loads(const struct pc_report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->nloads; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToObject(o, "as", text(r->loads[i].as));
		cJSON_AddBoolToObject(o, "loaded", r->loads[i].loaded);
		cJSON_AddItemToObject(o, "detail", text(r->loads[i].detail));
		if (r->loads[i].name) {
			cJSON_AddItemToObject(o, "name", text(r->loads[i].name));
			cJSON_AddItemToObject(o, "version",
					      text(r->loads[i].version));
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *summary(const struct pc_report *r)
{
	const struct pc_report_counts *c = &r->counts;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "errors", count(c->errors));
	cJSON_AddItemToObject(o, "warnings", count(c->warnings));
	cJSON_AddItemToObject(o, "notes", count(c->notes));
	cJSON_AddItemToObject(o, "suppressed", count(c->suppressed));
	cJSON_AddItemToObject(o, "cases", count(r->ncases));
	cJSON_AddItemToObject(o, "failed_cases", count(c->failed));
	cJSON_AddBoolToObject(o, "passed", !pc_report_failed(r));
	return o;
}

static cJSON *findings(const struct pc_report *r)
{
	cJSON *a = cJSON_CreateArray();
	size_t n;
	const struct pc_finding **v = pc_report_findings(r, &n);

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, pc_finding_json(v[i]));
	free(v);
	return a;
}

static const char *status_name(enum pc_case_status st)
{
	return st == PC_CASE_FAIL    ? "fail"
	       : st == PC_CASE_SKIP  ? "skip"
	       : st == PC_CASE_XFAIL ? "xfail"
				     : "pass";
}

static cJSON *cases(const struct pc_report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_case *c = &r->cases[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToObject(o, "classname", text(c->classname));
		cJSON_AddItemToObject(o, "name", text(c->name));
		cJSON_AddStringToObject(o, "status", status_name(c->status));
		cJSON_AddItemToObject(o, "time_s", seconds(c->time_s));
		cJSON_AddItemToObject(o, "message", text(c->message));
		cJSON_AddItemToObject(o, "rule",
				      text(c->rule ? c->rule->id : NULL));
		cJSON_AddItemToObject(o, "system_out", text(c->system_out));
		cJSON_AddItemToObject(o, "system_err", text(c->system_err));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* ---- `plugcheck run --format json` (docs/scenarios.md) ---- */

/* A step's exchange (its actual document, which the runner keeps as JSON
 * text for JUnit's system-out) as the JSON object it is; NULL: null. */
static cJSON *exchange(const char *s)
{
	cJSON *v = NULL;

	if (s && pc_serde_parse(s, strlen(s), &v, NULL) == 0)
		return v;
	return text(s);
}

/* A scenario's message: its own (a skip reason, its scenario-level
 * case), else for one that failed what failed first. */
static const char *scenario_message(const struct pc_report *r, size_t g)
{
	const char *own = pc__report_group_message(r, g);

	for (size_t i = 0; !*own && i < r->ncases; i++)
		if (r->cases[i].group == g &&
		    (r->cases[i].status == PC_CASE_FAIL ||
		     r->cases[i].status == PC_CASE_XFAIL) &&
		    r->cases[i].message)
			return r->cases[i].message;
	return own;
}

static cJSON *scenario(const struct pc_report *r, size_t g)
{
	const struct pc_group *x = &r->groups[g - 1];
	cJSON *o = cJSON_CreateObject(), *steps = cJSON_CreateArray();

	cJSON_AddItemToObject(o, "id", text(x->id));
	cJSON_AddItemToObject(o, "file", text(x->file));
	cJSON_AddItemToObject(o, "name", text(x->name));
	cJSON_AddStringToObject(o, "status", pc_report_group_status(r, g));
	cJSON_AddItemToObject(o, "message", text(scenario_message(r, g)));
	cJSON_AddNumberToObject(o, "time_ms", x->time_ms);
	cJSON_AddItemToObject(o, "runs", count(x->runs));
	cJSON_AddItemToObject(o, "passes", count(x->passes));
	cJSON_AddNumberToObject(o, "p95_ms", x->p95_ms);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_case *c = &r->cases[i];
		cJSON *st;

		if (c->group != g || !strcmp(c->name, x->name))
			continue;
		st = cJSON_CreateObject();
		cJSON_AddItemToObject(st, "name",
				      text(pc__report_step_name(x, c->name)));
		cJSON_AddStringToObject(st, "status", status_name(c->status));
		cJSON_AddItemToObject(st, "message",
				      text(c->message ? c->message : ""));
		cJSON_AddItemToObject(st, "exchange", exchange(c->system_out));
		cJSON_AddNumberToObject(st, "time_ms",
					(double)pc__report_ms(c->time_s));
		cJSON_AddItemToArray(steps, st);
	}
	cJSON_AddItemToObject(o, "steps", steps);
	cJSON_AddItemToObject(o, "updates",
			      x->updates ? cJSON_Duplicate(x->updates, 1)
					 : cJSON_CreateArray());
	return o;
}

static cJSON *build_run(const struct pc_report *r)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

	cJSON_AddItemToObject(o, "plugcheck_run", count(1));
	if (r->incomplete)
		cJSON_AddTrueToObject(o, "incomplete");
	for (size_t g = 1; g <= r->ngroups; g++)
		cJSON_AddItemToArray(a, scenario(r, g));
	cJSON_AddItemToObject(o, "scenarios", a);
	cJSON_AddItemToObject(o, "summary", summary(r));
	cJSON_AddItemToObject(o, "findings", findings(r));
	return o;
}

static cJSON *build(const struct pc_report *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "plugcheck", PC_VERSION);
	cJSON_AddItemToObject(o, "schema_version", count(SCHEMA_VERSION));
	cJSON_AddStringToObject(o, "contract",
				r->contract ? r->contract : "catalyst");
	cJSON_AddItemToObject(o, "path", text(r->path ? r->path : ""));
	cJSON_AddItemToObject(o, "name", text(r->name));
	cJSON_AddItemToObject(o, "version", text(r->version));
	cJSON_AddBoolToObject(o, "loaded", r->loaded);
	cJSON_AddItemToObject(o, "host_error", text(r->host_error));
	cJSON_AddItemToObject(o, "capabilities", strings(&r->capabilities));
	cJSON_AddItemToObject(o, "loads", loads(r));
	cJSON_AddItemToObject(o, "summary", summary(r));
	cJSON_AddItemToObject(o, "findings", findings(r));
	cJSON_AddItemToObject(o, "cases", cases(r));
	cJSON_AddBoolToObject(o, "strict", r->strict);
	cJSON_AddBoolToObject(o, "incomplete", r->incomplete);
	cJSON_AddItemToObject(o, "duration_s", seconds(r->duration_s));
	return o;
}

int pc__report_json(const struct pc_report *r, FILE *out)
{
	return pc__report_print_json(r->kind && !strcmp(r->kind, "run")
					     ? build_run(r)
					     : build(r),
				     out);
}

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

#define SCHEMA_VERSION 1

/* A string node holding `s` as valid UTF-8, or null for NULL. */
static cJSON *text(const char *s)
{
	struct pc_buf u = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v;

	if (!s)
		return cJSON_CreateNull();
	pc_rust_lossy_utf8(&u, s, strlen(s));
	v = cJSON_CreateString(pc_buf_cstr(&u));
	pc_buf_release(&u);
	return v;
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
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *summary(const struct pc_report *r)
{
	struct pc__report_counts c;
	cJSON *o = cJSON_CreateObject();

	pc__report_count(r, &c);
	cJSON_AddItemToObject(o, "errors", count(c.errors));
	cJSON_AddItemToObject(o, "warnings", count(c.warnings));
	cJSON_AddItemToObject(o, "notes", count(c.notes));
	cJSON_AddItemToObject(o, "suppressed", count(c.suppressed));
	cJSON_AddItemToObject(o, "cases", count(r->ncases));
	cJSON_AddItemToObject(o, "failed_cases", count(c.failed));
	cJSON_AddBoolToObject(o, "passed", !pc_report_failed(r));
	return o;
}

static cJSON *findings(const struct pc_report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->findings.nr; i++) {
		const struct pc_finding *f = &r->findings.v[i];
		const struct pc_rule *rule = f->rule;
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "id", rule->id);
		cJSON_AddStringToObject(o, "severity",
					pc_severity_name(rule->severity));
		cJSON_AddItemToObject(o, "message", text(f->message));
		cJSON_AddStringToObject(o, "fix", rule->fix);
		cJSON_AddStringToObject(o, "rule", rule->spec);
		cJSON_AddItemToObject(o, "file", text(f->file ? f->file : ""));
		cJSON_AddItemToObject(o, "where",
				      text(f->where ? f->where : ""));
		cJSON_AddBoolToObject(o, "suppressed",
				      pc__report_is_suppressed(r, f));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static const char *status_name(enum pc_case_status st)
{
	return st == PC_CASE_FAIL   ? "fail"
	       : st == PC_CASE_SKIP ? "skip"
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
				      text(pc__report_case_rule(c, NULL)));
		cJSON_AddItemToObject(o, "system_out", text(c->system_out));
		cJSON_AddItemToObject(o, "system_err", text(c->system_err));
		cJSON_AddItemToArray(a, o);
	}
	return a;
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
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *o = build(r);
	int ret = pc_serde_print_pretty(o, &b);

	cJSON_Delete(o);
	if (!ret) {
		fwrite(pc_buf_cstr(&b), 1, b.len, out);
		fputc('\n', out);
	}
	pc_buf_release(&b);
	return ret;
}

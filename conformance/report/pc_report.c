/* pc_report.c - building and releasing a report, the shared helpers of
 * the renderers, and pc_report_write().
 */
#include "pc_report.h"

#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_report_impl.h"
#include "pc_rust.h"
#include "pc_xalloc.h"

static const char *const format_names[] = {
	[PC_REPORT_HUMAN] = "human",
	[PC_REPORT_JSON] = "json",
	[PC_REPORT_JUNIT] = "junit",
	[PC_REPORT_TAP] = "tap",
};

int pc_report_format_parse(const char *s)
{
	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(format_names) / sizeof(*format_names);
	     i++)
		if (!strcmp(s, format_names[i]))
			return (int)i;
	return -1;
}

static char *dup_or_null(const char *s)
{
	return s ? pc_xstrdup(s) : NULL;
}

struct pc_case *pc_report_add_case(struct pc_report *r, const char *classname,
				   const char *name, enum pc_case_status st,
				   const char *message, const char *out,
				   double time_s)
{
	struct pc_case *c;

	r->cases = pc_xreallocarray(r->cases, r->ncases + 1, sizeof(*r->cases));
	c = &r->cases[r->ncases++];
	c->classname = pc_xstrdup(classname ? classname : "");
	c->name = pc_xstrdup(name ? name : "");
	c->time_s = time_s;
	c->status = st;
	c->message = dup_or_null(message);
	c->system_out = dup_or_null(out);
	c->system_err = NULL;
	c->rule = NULL;
	return c;
}

void pc_report_add_load(struct pc_report *r, const char *as, bool loaded,
			const char *detail)
{
	struct pc_load *l;

	r->loads = pc_xreallocarray(r->loads, r->nloads + 1, sizeof(*r->loads));
	l = &r->loads[r->nloads++];
	l->as = pc_xstrdup(as ? as : "");
	l->loaded = loaded;
	l->detail = pc_xstrdup(detail ? detail : "");
}

void pc_report_release(struct pc_report *r)
{
	free(r->path);
	free(r->name);
	free(r->version);
	free(r->host_error);
	pc_strvec_release(&r->capabilities);
	for (size_t i = 0; i < r->nloads; i++) {
		free(r->loads[i].as);
		free(r->loads[i].detail);
	}
	free(r->loads);
	pc_findings_release(&r->findings);
	pc_strvec_release(&r->suppressed_ids);
	for (size_t i = 0; i < r->ncases; i++) {
		struct pc_case *c = &r->cases[i];

		free(c->classname);
		free(c->name);
		free(c->message);
		free(c->system_out);
		free(c->system_err);
		free(c->rule);
	}
	free(r->cases);
	*r = (struct pc_report)PC_REPORT_INIT;
}

bool pc__report_is_suppressed(const struct pc_report *r,
			      const struct pc_finding *f)
{
	if (f->suppressed)
		return true;
	for (size_t i = 0; i < r->suppressed_ids.nr; i++)
		if (!strcmp(r->suppressed_ids.v[i], f->rule->id))
			return true;
	return false;
}

void pc__report_count(const struct pc_report *r, struct pc__report_counts *c)
{
	*c = (struct pc__report_counts){ 0 };
	for (size_t i = 0; i < r->findings.nr; i++) {
		const struct pc_finding *f = &r->findings.v[i];

		if (pc__report_is_suppressed(r, f))
			c->suppressed++;
		else if (f->rule->severity == PC_SEV_ERROR)
			c->errors++;
		else if (f->rule->severity == PC_SEV_WARNING)
			c->warnings++;
		else
			c->notes++;
	}
	for (size_t i = 0; i < r->ncases; i++) {
		c->failed += r->cases[i].status == PC_CASE_FAIL;
		c->skipped += r->cases[i].status == PC_CASE_SKIP;
		c->internal += r->cases[i].status == PC_CASE_FAIL &&
			       r->cases[i].classname &&
			       !strcmp(r->cases[i].classname, PC_CASE_INTERNAL);
	}
}

bool pc_report_failed(const struct pc_report *r)
{
	struct pc__report_counts c;

	pc__report_count(r, &c);
	return c.errors > 0 || (r->strict && c.warnings > 0);
}

const char *pc__report_case_rule(const struct pc_case *c,
				 const struct pc_rule **rule)
{
	const struct pc_rule *found = NULL;
	const char *colon;
	char id[32];

	if (c->rule) {
		found = pc_rule_find(c->rule);
	} else if (c->message && (colon = strchr(c->message, ':')) &&
		   (size_t)(colon - c->message) < sizeof(id)) {
		memcpy(id, c->message, (size_t)(colon - c->message));
		id[colon - c->message] = '\0';
		found = pc_rule_find(id);
	}
	if (rule)
		*rule = found;
	return c->rule ? c->rule : found ? found->id : NULL;
}

void pc__report_escape(FILE *out, const char *s, pc__report_esc_fn esc)
{
	struct pc_buf u = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p;

	if (!s)
		return;
	pc_rust_lossy_utf8(&u, s, strlen(s));
	p = pc_buf_cstr(&u);
	for (size_t i = 0; i < u.len;) {
		unsigned cp = 0;
		size_t k = pc_rust_utf8_next(p + i, u.len - i, &cp);

		if (!k) /* cannot happen after the lossy pass */
			break;
		esc(out, cp, p + i, k);
		i += k;
	}
	pc_buf_release(&u);
}

long long pc__report_ms(double t)
{
	if (!(t >= 0.0) || t > 1e12)
		return 0;
	return (long long)(t * 1000.0 + 0.5);
}

void pc__report_put_seconds(FILE *out, double t)
{
	long long ms = pc__report_ms(t);

	fprintf(out, "%lld.%03lld", ms / 1000, ms % 1000);
}

int pc_report_write(const struct pc_report *r, enum pc_report_format fmt,
		    FILE *out, bool color)
{
	switch (fmt) {
	case PC_REPORT_HUMAN:
		pc__report_human(r, out, color);
		break;
	case PC_REPORT_JSON:
		if (pc__report_json(r, out) < 0)
			return PC_EIO;
		break;
	case PC_REPORT_JUNIT:
		pc__report_junit(r, out);
		break;
	case PC_REPORT_TAP:
		pc__report_tap(r, out);
		break;
	default:
		return PC_EINVAL;
	}
	if (fflush(out) != 0 || ferror(out))
		return PC_EIO;
	return 0;
}

/* pc_report.c - building a report, the verdict (pc_report_finish), the
 * shared helpers of the renderers, and pc_report_write().
 */
#include "pc_report.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_fs.h"
#include "pc_report_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static const char *const format_names[] = {
	[PC_REPORT_HUMAN] = "human",
	[PC_REPORT_JSON] = "json",
	[PC_REPORT_JUNIT] = "junit",
	[PC_REPORT_TAP] = "tap",
	[PC_REPORT_HTML] = "html",
	[PC_REPORT_SARIF] = "sarif",
	[PC_REPORT_GITHUB] = "github",
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

size_t pc_report_add_case(struct pc_report *r, const char *classname,
			  const char *name, const char *system_out,
			  double time_s)
{
	struct pc_case *c;

	r->cases = pc_xreallocarray(r->cases, r->ncases + 1, sizeof(*r->cases));
	c = &r->cases[r->ncases];
	memset(c, 0, sizeof(*c));
	c->classname = pc_xstrdup(classname ? classname : "");
	c->name = pc_xstrdup(name ? name : "");
	c->time_s = time_s;
	c->system_out = dup_or_null(system_out);
	c->findings = (struct pc_findings)PC_FINDINGS_INIT;
	return r->ncases++;
}

void pc_report_skip(struct pc_report *r, size_t c, const char *why)
{
	/* a skipped case always says why (docs/check-json.md) */
	free(r->cases[c].skip);
	r->cases[c].skip = pc_xstrdup(why && *why ? why
					  : "skipped (no reason was given)");
}

void pc_report_set_err(struct pc_report *r, size_t c, const char *text)
{
	free(r->cases[c].system_err);
	r->cases[c].system_err = dup_or_null(text);
}

static struct pc_finding *vfind(struct pc_report *r, size_t c, const char *id,
				const char *file, const char *where,
				const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

static struct pc_finding *vfind(struct pc_report *r, size_t c, const char *id,
				const char *file, const char *where,
				const char *fmt, va_list ap)
{
	struct pc_findings *f = &r->cases[c].findings;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_finding *n;

	pc_buf_vaddf(&b, fmt, ap);
	pc_findings_add(f, id, file, "%s", pc_buf_cstr(&b));
	pc_buf_release(&b);
	n = &f->v[f->nr - 1];
	free(n->where);
	n->where = pc_xstrdup(where ? where : "");
	n->seq = r->next_seq++;
	return n;
}

struct pc_finding *pc_report_vfind(struct pc_report *r, size_t c,
				   const char *id, const char *file,
				   const char *where, const char *fmt,
				   va_list ap)
{
	return vfind(r, c, id, file, where, fmt, ap);
}

struct pc_finding *pc_report_find(struct pc_report *r, size_t c, const char *id,
				  const char *file, const char *where,
				  const char *fmt, ...)
{
	struct pc_finding *n;
	va_list ap;

	va_start(ap, fmt);
	n = vfind(r, c, id, file, where, fmt, ap);
	va_end(ap);
	return n;
}

size_t pc_report_static_case(struct pc_report *r, const char *classname,
			     const struct pc_rule *rule)
{
	char *name = pc_xasprintf("%s %s", rule->id, rule->title);
	size_t i;

	for (i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].classname, classname) &&
		    !strcmp(r->cases[i].name, name))
			break;
	if (i == r->ncases)
		i = pc_report_add_case(r, classname, name, NULL, 0.0);
	free(name);
	return i;
}

struct pc_finding *pc_report_vfind_static(struct pc_report *r,
					  const char *classname,
					  const char *id, const char *file,
					  const char *where, const char *fmt,
					  va_list ap)
{
	const struct pc_rule *rule = pc_rule_find(id);

	if (!rule) {
		fprintf(stderr, "plugcheck: BUG: unknown rule '%s'\n", id);
		abort();
	}
	return vfind(r, pc_report_static_case(r, classname, rule), id, file,
		     where, fmt, ap);
}

struct pc_finding *pc_report_find_static(struct pc_report *r,
					 const char *classname, const char *id,
					 const char *file, const char *where,
					 const char *fmt, ...)
{
	struct pc_finding *n;
	va_list ap;

	va_start(ap, fmt);
	n = pc_report_vfind_static(r, classname, id, file, where, fmt, ap);
	va_end(ap);
	return n;
}

bool pc_report_has(const struct pc_report *r, const char *id, const char *where)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct pc_findings *f = &r->cases[i].findings;

		for (size_t k = 0; k < f->nr; k++)
			if (!strcmp(f->v[k].rule->id, id) &&
			    (!where || !strcmp(f->v[k].where, where)))
				return true;
	}
	return false;
}

void pc_report_take_findings(struct pc_report *r, size_t c,
			     struct pc_findings *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		struct pc_finding *n =
			pc_findings_push(&r->cases[c].findings, &f->v[i]);

		n->seq = r->next_seq++;
		n->suppressed = false;
	}
	pc_findings_release(f);
}

void pc_report_append(struct pc_report *dst, struct pc_report *src)
{
	size_t g0 = dst->ngroups;

	for (size_t i = 0; i < src->ngroups; i++) {
		dst->groups = pc_xreallocarray(dst->groups, dst->ngroups + 1,
					       sizeof(*dst->groups));
		dst->groups[dst->ngroups++] = src->groups[i];
	}
	free(src->groups);
	src->groups = NULL;
	src->ngroups = 0;
	for (size_t i = 0; i < src->ncases; i++) {
		struct pc_case *c;

		dst->cases = pc_xreallocarray(dst->cases, dst->ncases + 1,
					      sizeof(*dst->cases));
		c = &dst->cases[dst->ncases++];
		*c = src->cases[i];
		if (c->group)
			c->group += g0;
		/* after dst's, in the order they were found in src */
		for (size_t k = 0; k < c->findings.nr; k++)
			c->findings.v[k].seq += dst->next_seq;
	}
	dst->next_seq += src->next_seq;
	free(src->cases);
	src->cases = NULL;
	src->ncases = 0;
	src->next_seq = 0;
	if (src->incomplete)
		dst->incomplete = true;
}

size_t pc_report_add_group(struct pc_report *r, const char *id,
			   const char *file, const char *name)
{
	struct pc_group *g;

	r->groups =
		pc_xreallocarray(r->groups, r->ngroups + 1, sizeof(*r->groups));
	g = &r->groups[r->ngroups++];
	memset(g, 0, sizeof(*g));
	g->id = pc_xstrdup(id ? id : "");
	g->file = pc_xstrdup(file ? file : "");
	g->name = pc_xstrdup(name ? name : "");
	return r->ngroups;
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
	l->name = l->version = NULL;
}

void pc_report_load_names(struct pc_report *r, const char *name,
			  const char *version)
{
	struct pc_load *l = &r->loads[r->nloads - 1];

	free(l->name);
	free(l->version);
	l->name = name ? pc_xstrdup(name) : NULL;
	l->version = version ? pc_xstrdup(version) : NULL;
}

/* *s with every `from` that ends a path component replaced by `to`. */
static void rename_in(char **s, const char *from, const char *to)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t n = strlen(from);
	const char *p, *hit;
	bool any = false;

	if (!*s || !n)
		return;
	pc_buf_adds(&b, "");
	for (p = *s; (hit = strstr(p, from)); p = hit + n) {
		char next = hit[n];

		pc_buf_add(&b, p, (size_t)(hit - p));
		if (next && (isalnum((unsigned char)next) || strchr("._-~", next))) {
			pc_buf_add(&b, hit, n);
		} else {
			pc_buf_adds(&b, to);
			any = true;
		}
	}
	pc_buf_adds(&b, p);
	if (any) {
		free(*s);
		*s = pc_buf_detach(&b, NULL);
	}
	pc_buf_release(&b);
}

void pc_report_rename_path(struct pc_report *r, const char *from,
			   const char *to)
{
	rename_in(&r->host_error, from, to);
	for (size_t i = 0; i < r->host_log.nr; i++)
		rename_in(&r->host_log.v[i], from, to);
	for (size_t i = 0; i < r->nloads; i++)
		rename_in(&r->loads[i].detail, from, to);
	for (size_t i = 0; i < r->ncases; i++) {
		struct pc_case *c = &r->cases[i];

		rename_in(&c->name, from, to);
		rename_in(&c->system_out, from, to);
		rename_in(&c->system_err, from, to);
		rename_in(&c->skip, from, to);
		for (size_t j = 0; j < c->findings.nr; j++)
			rename_in(&c->findings.v[j].message, from, to);
	}
}

/* ---- the verdict ---- */

static bool ignored(const struct pc_report *r, const char *id)
{
	for (size_t i = 0; i < r->ignore.nr; i++)
		if (!strcmp(r->ignore.v[i], id))
			return true;
	return false;
}

static bool fails(const struct pc_report *r, const struct pc_finding *f)
{
	enum pc_severity s = f->rule->severity;

	return !f->suppressed &&
	       (s == PC_SEV_ERROR || (s == PC_SEV_WARNING && r->strict));
}

static void judge_case(struct pc_report *r, struct pc_case *c)
{
	struct pc_report_counts *n = &r->counts;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	free(c->message);
	c->message = NULL;
	c->rule = NULL;
	c->fix = NULL;
	for (size_t k = 0; k < c->findings.nr; k++) {
		struct pc_finding *f = &c->findings.v[k];

		f->suppressed = ignored(r, f->rule->id);
		n->findings++;
		if (f->suppressed)
			n->suppressed++;
		else if (f->rule->severity == PC_SEV_ERROR)
			n->errors++;
		else if (f->rule->severity == PC_SEV_WARNING)
			n->warnings++;
		else
			n->notes++;
		if (!fails(r, f))
			continue;
		if (!c->rule) {
			c->rule = f->rule;
			c->fix = pc_finding_fix(f);
		}
		pc_buf_addf(&b, "%s%s: %s", b.len ? "; " : "", f->rule->id,
			    f->message);
	}
	if (c->skip) {
		c->status = PC_CASE_SKIP;
		c->message = pc_xstrdup(c->skip);
		c->rule = NULL;
		c->fix = NULL;
		n->skipped++;
	} else if (b.len) {
		c->status = c->xfail ? PC_CASE_XFAIL : PC_CASE_FAIL;
		c->message = pc_buf_detach(&b, NULL);
		n->failed += !c->xfail;
		n->xfailed += c->xfail;
		n->internal +=
			!c->xfail && !strcmp(c->classname, PC_CASE_INTERNAL);
	} else {
		c->status = PC_CASE_PASS;
	}
	pc_buf_release(&b);
}

void pc_report_finish(struct pc_report *r)
{
	r->counts = (struct pc_report_counts){ 0 };
	for (size_t i = 0; i < r->ncases; i++)
		judge_case(r, &r->cases[i]);
	r->counts.failed_run = r->counts.failed > 0;
	if (r->counts.internal)
		r->incomplete = true;
}

bool pc_report_failed(const struct pc_report *r)
{
	return r->counts.failed_run;
}

int pc_report_exit_code(const struct pc_report *r)
{
	if (r->incomplete)
		return 70;
	/* a ChatCLI plugin the host refuses for its signature still has a
	 * name: it was loaded, and its findings say why it is refused */
	if (!r->loaded && !r->name)
		return 3;
	return r->counts.failed_run ? 1 : 0;
}

const char *pc_report_group_status(const struct pc_report *r, size_t g)
{
	bool any = false, fail = false, xfail = false;

	if (!g || g > r->ngroups)
		return "fail";
	if (r->groups[g - 1].skip)
		return "skip";
	for (size_t i = 0; i < r->ncases; i++) {
		if (r->cases[i].group != g)
			continue;
		any = true;
		fail |= r->cases[i].status == PC_CASE_FAIL;
		xfail |= r->cases[i].status == PC_CASE_XFAIL;
	}
	if (fail)
		return "fail";
	if (xfail)
		return "xfail";
	if (!any)
		return "skip";
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].group == g &&
		    r->cases[i].status != PC_CASE_SKIP)
			return "pass";
	return "skip";
}

static int cmp_seq(const void *a, const void *b)
{
	const struct pc_finding *x = *(const struct pc_finding *const *)a;
	const struct pc_finding *y = *(const struct pc_finding *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const struct pc_finding **pc_report_findings(const struct pc_report *r,
					     size_t *n)
{
	const struct pc_finding **v;
	size_t total = 0, k = 0;

	for (size_t i = 0; i < r->ncases; i++)
		total += r->cases[i].findings.nr;
	v = pc_xcalloc(total + 1, sizeof(*v));
	for (size_t i = 0; i < r->ncases; i++)
		for (size_t j = 0; j < r->cases[i].findings.nr; j++)
			v[k++] = &r->cases[i].findings.v[j];
	qsort(v, total, sizeof(*v), cmp_seq);
	*n = total;
	return v;
}

char *pc_report_finding_path(const struct pc_report *r,
			     const struct pc_finding *f)
{
	const char *dir = r->path ? r->path : "";

	if (!f->file || !*f->file)
		return NULL;
	if (f->file[0] == '/' || (r->kind && !strcmp(r->kind, "run")))
		return pc_xstrdup(f->file);
	if (r->contract && !strcmp(r->contract, "chatcli")) {
		/* PATH is the plugin executable itself, or its directory */
		size_t n = strlen(dir), k = strlen(f->file);

		if (n >= k && !strcmp(dir + n - k, f->file) &&
		    (n == k || dir[n - k - 1] == '/'))
			return pc_xstrdup(dir);
	}
	while (dir[0] == '.' && dir[1] == '/')
		dir += 2;
	if (!*dir || !strcmp(dir, "."))
		return pc_xstrdup(f->file);
	return pc_fs_join(dir, f->file);
}

char *pc_report_finding_place(const struct pc_report *r,
			      const struct pc_finding *f)
{
	char *path = pc_report_finding_path(r, f), *place;

	if (!path || !f->line)
		return path;
	place = f->column ? pc_xasprintf("%s:%u:%u", path, f->line, f->column)
			  : pc_xasprintf("%s:%u", path, f->line);
	free(path);
	return place;
}

/* ---- release ---- */

static void release_case(struct pc_case *c)
{
	pc_case_release_structured(c);
	free(c->classname);
	free(c->name);
	free(c->message);
	free(c->system_out);
	free(c->system_err);
	free(c->skip);
	pc_findings_release(&c->findings);
}

void pc_report_release(struct pc_report *r)
{
	free(r->path);
	free(r->name);
	free(r->version);
	free(r->host_error);
	pc_strvec_release(&r->capabilities);
	pc_strvec_release(&r->host_log);
	for (size_t i = 0; i < r->nloads; i++) {
		free(r->loads[i].as);
		free(r->loads[i].detail);
		free(r->loads[i].name);
		free(r->loads[i].version);
	}
	free(r->loads);
	pc_strvec_release(&r->ignore);
	for (size_t i = 0; i < r->ncases; i++)
		release_case(&r->cases[i]);
	free(r->cases);
	for (size_t i = 0; i < r->ngroups; i++) {
		free(r->groups[i].id);
		free(r->groups[i].file);
		free(r->groups[i].name);
		free(r->groups[i].skip);
		cJSON_Delete(r->groups[i].updates);
	}
	free(r->groups);
	*r = (struct pc_report)PC_REPORT_INIT;
}

/* ---- helpers of the renderers ---- */

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

void pc__report_esc_visible(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp < 0x20 || cp == 0x7f)
		fprintf(out, "\\x%02x", cp);
	else if ((cp >= 0x80 && cp < 0xa0) || cp == 0xfffe || cp == 0xffff)
		fprintf(out, "\\u{%x}", cp);
	else
		fwrite(raw, 1, n, out);
}

cJSON *pc__report_text(const char *s)
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

int pc__report_print_json(cJSON *o, FILE *out)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	int ret = pc_serde_print_pretty(o, &b);

	cJSON_Delete(o);
	if (!ret) {
		fwrite(pc_buf_cstr(&b), 1, b.len, out);
		fputc('\n', out);
	}
	pc_buf_release(&b);
	return ret;
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

const char *pc__report_step_name(const struct pc_group *g, const char *name)
{
	size_t n = strlen(g->name);

	if (!strncmp(name, g->name, n) && !strncmp(name + n, " / ", 3))
		return name + n + 3;
	return name;
}

const char *pc__report_group_message(const struct pc_report *r, size_t g)
{
	const struct pc_group *x = &r->groups[g - 1];

	if (x->skip)
		return x->skip;
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].group == g &&
		    !strcmp(r->cases[i].name, x->name))
			return r->cases[i].message ? r->cases[i].message : "";
	return "";
}

int pc_report_write(const struct pc_report *r, enum pc_report_format fmt,
		    FILE *out, bool color)
{
	switch (fmt) {
	case PC_REPORT_HUMAN:
		if (r->kind && !strcmp(r->kind, "run"))
			pc__report_run_human(r, out);
		else
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
	case PC_REPORT_HTML:
		pc__report_html(r, out);
		break;
	case PC_REPORT_SARIF:
		if (pc__report_sarif(r, out) < 0)
			return PC_EIO;
		break;
	case PC_REPORT_GITHUB:
		pc__report_github(r, out);
		break;
	default:
		return PC_EINVAL;
	}
	if (fflush(out) != 0 || ferror(out))
		return PC_EIO;
	return 0;
}

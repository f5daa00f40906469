/* pc_finding.c - the finding list. */
#include "pc_finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_rust.h"
#include "pc_xalloc.h"

static struct pc_finding *grow(struct pc_findings *f)
{
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 8;
		f->v = pc_xreallocarray(f->v, f->alloc, sizeof(*f->v));
	}
	memset(&f->v[f->nr], 0, sizeof(f->v[f->nr]));
	return &f->v[f->nr++];
}

static const struct pc_rule *rule_or_die(const char *id)
{
	const struct pc_rule *r = pc_rule_find(id);

	if (!r) {
		fprintf(stderr, "plugcheck: BUG: unknown rule '%s'\n", id);
		abort();
	}
	return r;
}

static void vadd(struct pc_findings *f, const char *id, const char *file,
		 const char *where, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

char *pc_finding_visible(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p = s ? s : "", *q;

	/* C0 80 is never valid UTF-8: it can only be host text's NUL */
	while ((q = strstr(p, "\xc0\x80"))) {
		pc_buf_add(&b, p, (size_t)(q - p));
		pc_buf_adds(&b, "\\x00");
		p = q + 2;
	}
	pc_buf_adds(&b, p);
	return pc_buf_detach(&b, NULL);
}

static void vadd(struct pc_findings *f, const char *id, const char *file,
		 const char *where, const char *fmt, va_list ap)
{
	const struct pc_rule *r = rule_or_die(id);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_finding *n;

	pc_buf_vaddf(&b, fmt, ap);
	n = grow(f);
	n->rule = r;
	n->message = pc_finding_visible(pc_buf_cstr(&b));
	pc_buf_release(&b);
	n->file = pc_xstrdup(file ? file : "");
	n->where = pc_xstrdup(where ? where : "");
}

void pc_findings_add(struct pc_findings *f, const char *id, const char *file,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(f, id, file, NULL, fmt, ap);
	va_end(ap);
}

void pc_findings_add_at(struct pc_findings *f, const char *id,
			const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(f, id, "plugin.json", where, fmt, ap);
	va_end(ap);
}

struct pc_finding *pc_findings_push(struct pc_findings *f,
				    const struct pc_finding *src)
{
	struct pc_finding *n = grow(f);

	*n = *src;
	n->message = pc_xstrdup(src->message ? src->message : "");
	n->file = pc_xstrdup(src->file ? src->file : "");
	n->where = pc_xstrdup(src->where ? src->where : "");
	n->fix = src->fix ? pc_xstrdup(src->fix) : NULL;
	return n;
}

bool pc_findings_has(const struct pc_findings *f, const char *id)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id))
			return true;
	return false;
}

void pc_findings_release(struct pc_findings *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		free(f->v[i].message);
		free(f->v[i].file);
		free(f->v[i].where);
		free(f->v[i].fix);
	}
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

size_t pc_findings_count(const struct pc_findings *f, enum pc_severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr; i++)
		n += f->v[i].rule->severity == s && !f->v[i].suppressed;
	return n;
}

/* A string node holding `s` as valid UTF-8 (U+FFFD for invalid bytes). */
static cJSON *text(const char *s)
{
	struct pc_buf u = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v;

	pc_rust_lossy_utf8(&u, s ? s : "", s ? strlen(s) : 0);
	v = cJSON_CreateString(pc_buf_cstr(&u));
	pc_buf_release(&u);
	return v;
}

const char *pc_finding_fix(const struct pc_finding *f)
{
	return f->fix ? f->fix : f->rule->fix;
}

void pc_finding_set_fix(struct pc_finding *f, const char *fix)
{
	free(f->fix);
	f->fix = fix ? pc_xstrdup(fix) : NULL;
}

/* A 1-based position, or null when unknown (0). */
static cJSON *position(unsigned v)
{
	return v ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *pc_finding_json(const struct pc_finding *f)
{
	const struct pc_rule *r = f->rule;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "id", r->id);
	cJSON_AddStringToObject(o, "severity", pc_severity_name(r->severity));
	cJSON_AddItemToObject(o, "message", text(f->message));
	cJSON_AddItemToObject(o, "fix", text(pc_finding_fix(f)));
	cJSON_AddStringToObject(o, "rule", r->spec);
	cJSON_AddItemToObject(o, "file", text(f->file));
	cJSON_AddItemToObject(o, "line", position(f->line));
	cJSON_AddItemToObject(o, "column", position(f->column));
	cJSON_AddItemToObject(o, "where", text(f->where));
	cJSON_AddBoolToObject(o, "suppressed", f->suppressed);
	return o;
}

cJSON *pc_findings_json(const struct pc_findings *f)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < f->nr; i++)
		cJSON_AddItemToArray(a, pc_finding_json(&f->v[i]));
	return a;
}

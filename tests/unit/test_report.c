/* test_report.c - the one result type (pc_report.h): building a report,
 * the verdict pc_report_finish() computes (a finding in a case fails it:
 * an error always, a warning only with --strict, a suppressed one never;
 * skipped and xfail cases; groups), that every renderer and the exit code
 * agree for the same report, fragments for worker processes
 * (pc_report_fragment / pc_report_merge), pc_report_append; and the four
 * renderers: exact output for a small report, escaping of hostile text,
 * a write error, and validation of real output by real parsers: xmllint
 * against docs/junit.xsd and Python's jsonschema against
 * docs/check.schema.json.
 */
#include <sys/wait.h>

#include <fcntl.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_err.h"
#include "pc_finding.h"
#include "pc_report.h"
#include "pc_rule.h"
#include "pc_rust.h"
#include "pc_xalloc.h"

extern char **environ;

/* Render `r` as `fmt` into a new string. */
static char *render(const struct pc_report *r, enum pc_report_format fmt,
		    bool color)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(pc_report_write(r, fmt, f, color), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(strlen(text), len);
	return text;
}

static void assert_text(const char *got, const char *want)
{
	if (strcmp(got, want)) /* cmocka truncates long messages */
		fprintf(stderr, "--- got ---\n%s--- want ---\n%s---\n", got,
			want);
	assert_string_equal(got, want);
}

static void assert_render(const struct pc_report *r, enum pc_report_format fmt,
			  const char *want)
{
	char *got = render(r, fmt, false);

	assert_text(got, want);
	free(got);
}

/* A loaded plugin with one warning (in the failed firing), one note and
 * one suppressed note (both in the static "manifest" case), and a
 * passed, a failed and a skipped case; strict, so the warning fails.
 * The HOOK finding is found first, so it leads the JSON findings. */
static void small_report(struct pc_report *r)
{
	size_t man, fire, tool;
	struct pc_finding *f;

	r->path = pc_xstrdup("plugins/demo");
	r->name = pc_xstrdup("demo");
	r->version = pc_xstrdup("1.0");
	r->loaded = true;
	pc_strvec_push(&r->capabilities, "hooks");
	pc_report_add_load(r, "plugin_dir", true, "");
	pc_report_add_load(
		r, "project", false,
		"[plugins] skipping untrusted project plugin 'demo'");
	man = pc_report_add_case(r, "plugcheck.static", "manifest", NULL,
				 0.0014);
	fire = pc_report_add_case(r, "plugcheck.hook.pre_bash", "fire pre_bash",
				  "stdin: {}\nverdict: deny\n", 0.25);
	pc_report_set_err(r, fire, "[plugins] hook timed out\n");
	tool = pc_report_add_case(r, "plugcheck.tool.t", "fire t", NULL, 0.0);
	pc_report_skip(r, tool, "no tools declared");
	f = pc_report_find(r, fire, "PC-HOOK-002", "plugin.json",
			   "hook pre_bash", "timeout_ms is 0");
	f->line = 4;
	f->column = 48;
	f = pc_report_find(r, man, "PC-MAN-002", "plugin.json", NULL,
			   "version '1.0' is not MAJOR.MINOR.PATCH");
	f->line = 3; /* a line without a column */
	pc_report_find(r, man, "PC-CAP-001", "plugin.json", NULL,
		       "no capabilities declared");
	pc_strvec_push(&r->ignore, "PC-CAP-001");
	r->strict = true;
	r->duration_s = 0.5;
	pc_report_finish(r);
}

static void format_parse_names(void **state)
{
	(void)state;
	assert_int_equal(pc_report_format_parse("human"), PC_REPORT_HUMAN);
	assert_int_equal(pc_report_format_parse("json"), PC_REPORT_JSON);
	assert_int_equal(pc_report_format_parse("junit"), PC_REPORT_JUNIT);
	assert_int_equal(pc_report_format_parse("tap"), PC_REPORT_TAP);
	assert_int_equal(pc_report_format_parse("sarif"), PC_REPORT_SARIF);
	assert_int_equal(pc_report_format_parse("github"), PC_REPORT_GITHUB);
	assert_int_equal(pc_report_format_parse("JSON"), -1);
	assert_int_equal(pc_report_format_parse(""), -1);
	assert_int_equal(pc_report_format_parse(NULL), -1);
}

static void add_copies_and_release_empties(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char name[] = "n", why[] = "w";
	size_t c, d;

	(void)state;
	c = pc_report_add_case(&r, "cls", name, "out", 1.5);
	d = pc_report_add_case(&r, NULL, NULL, NULL, 0.0);
	assert_int_equal(c, 0);
	assert_int_equal(d, 1);
	name[0] = 'x';
	assert_string_equal(r.cases[c].name, "n");
	assert_string_equal(r.cases[c].system_out, "out");
	assert_null(r.cases[c].message);
	assert_null(r.cases[c].system_err);
	assert_null(r.cases[c].rule);
	assert_null(r.cases[c].skip);
	assert_string_equal(r.cases[d].classname, "");
	assert_string_equal(r.cases[d].name, "");
	assert_null(r.cases[d].system_out);
	pc_report_skip(&r, c, why);
	why[0] = 'x';
	assert_string_equal(r.cases[c].skip, "w");
	pc_report_set_err(&r, c, "e");
	assert_string_equal(r.cases[c].system_err, "e");
	pc_report_set_err(&r, c, NULL);
	assert_null(r.cases[c].system_err);
	pc_report_add_load(&r, "global", false, NULL);
	assert_string_equal(r.loads[0].detail, "");
	assert_int_equal(pc_report_add_group(&r, NULL, "f", NULL), 1);
	assert_string_equal(r.groups[0].id, "");
	assert_string_equal(r.groups[0].name, "");
	pc_report_find(&r, d, "PC-MAN-002", NULL, NULL, "m");
	assert_string_equal(r.cases[d].findings.v[0].file, "");
	assert_string_equal(r.cases[d].findings.v[0].where, "");
	pc_report_finish(&r);
	pc_report_release(&r);
	assert_int_equal(r.ncases, 0);
	assert_null(r.cases);
	assert_int_equal(r.nloads, 0);
	assert_int_equal(r.ngroups, 0);
	assert_int_equal(r.next_seq, 0);
	pc_report_release(&r); /* inert: a second release is harmless */
}

/* One case, one finding of `id`: the case's status after finish. */
static enum pc_case_status judge_one(const char *id, bool strict, bool ignore,
				     struct pc_report *r)
{
	size_t c;

	*r = (struct pc_report)PC_REPORT_INIT;
	r->loaded = true;
	r->name = pc_xstrdup("p");
	r->strict = strict;
	if (ignore)
		pc_strvec_push(&r->ignore, id);
	c = pc_report_add_case(r, "plugcheck.static", "c", NULL, 0.0);
	if (id)
		pc_report_find(r, c, id, NULL, "hook x", "it happened");
	pc_report_finish(r);
	return r->cases[c].status;
}

/* The rules of pc_report.h: an unsuppressed error fails its case; a
 * warning only with strict; a note never; a suppressed finding never. */
static void case_fails_by_its_findings(void **state)
{
	static const struct {
		const char *id;
		bool strict, ignore;
		enum pc_case_status want;
	} t[] = {
		{ NULL, false, false, PC_CASE_PASS },
		{ NULL, true, false, PC_CASE_PASS },
		{ "PC-MAN-002", false, false, PC_CASE_PASS }, /* note */
		{ "PC-MAN-002", true, false, PC_CASE_PASS },
		{ "PC-HOOK-002", false, false, PC_CASE_PASS }, /* warning */
		{ "PC-HOOK-002", true, false, PC_CASE_FAIL },
		{ "PC-HOOK-002", true, true, PC_CASE_PASS },
		{ "PC-LOAD-001", false, false, PC_CASE_FAIL }, /* error */
		{ "PC-LOAD-001", true, false, PC_CASE_FAIL },
		{ "PC-LOAD-001", false, true, PC_CASE_PASS },
		{ "PC-LOAD-001", true, true, PC_CASE_PASS },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_report r;
		enum pc_case_status st =
			judge_one(t[i].id, t[i].strict, t[i].ignore, &r);
		const struct pc_case *c = &r.cases[0];

		if (st != t[i].want)
			fail_msg("%s strict=%d ignore=%d: status %d, want %d",
				 t[i].id ? t[i].id : "(none)", t[i].strict,
				 t[i].ignore, (int)st, (int)t[i].want);
		assert_int_equal(pc_report_failed(&r), st == PC_CASE_FAIL);
		assert_int_equal(r.counts.failed, st == PC_CASE_FAIL);
		assert_int_equal(pc_report_exit_code(&r),
				 st == PC_CASE_FAIL ? 1 : 0);
		if (st == PC_CASE_FAIL) {
			char *want = pc_xasprintf("%s: it happened", t[i].id);

			assert_string_equal(c->message, want);
			assert_ptr_equal(c->rule, pc_rule_find(t[i].id));
			free(want);
		} else {
			assert_null(c->message);
			assert_null(c->rule);
		}
		if (t[i].id) {
			assert_int_equal(c->findings.v[0].suppressed,
					 t[i].ignore);
			assert_int_equal(r.counts.suppressed, t[i].ignore);
			assert_int_equal(r.counts.findings, 1);
		}
		pc_report_release(&r);
	}
}

/* The message of a failed case joins its failing findings in order,
 * skips the ones that do not fail, and its rule is the first failing
 * one; pc_report_finish is idempotent and follows a later --ignore. */
static void case_message_joins_failing_findings(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t c;

	(void)state;
	r.loaded = true;
	c = pc_report_add_case(&r, "plugcheck.hook.pre_bash", "fire", NULL, 0);
	pc_report_find(&r, c, "PC-MAN-002", NULL, NULL, "a note");
	pc_report_find(&r, c, "PC-HOOK-010", NULL, NULL, "first");
	pc_report_find(&r, c, "PC-HOOK-002", NULL, NULL, "a warning");
	pc_report_find(&r, c, "PC-PROC-003", NULL, NULL, "second");
	pc_report_finish(&r);
	pc_report_finish(&r);
	assert_int_equal(r.cases[c].status, PC_CASE_FAIL);
	assert_string_equal(r.cases[c].message,
			    "PC-HOOK-010: first; PC-PROC-003: second");
	assert_string_equal(r.cases[c].rule->id, "PC-HOOK-010");
	assert_int_equal(r.counts.errors, 2);
	assert_int_equal(r.counts.warnings, 1);
	assert_int_equal(r.counts.notes, 1);
	assert_int_equal(r.counts.findings, 4);
	pc_strvec_push(&r.ignore, "PC-HOOK-010");
	pc_report_finish(&r);
	assert_string_equal(r.cases[c].message, "PC-PROC-003: second");
	assert_string_equal(r.cases[c].rule->id, "PC-PROC-003");
	assert_int_equal(r.counts.errors, 1);
	assert_int_equal(r.counts.suppressed, 1);
	pc_strvec_push(&r.ignore, "PC-PROC-003");
	pc_report_finish(&r);
	assert_int_equal(r.cases[c].status, PC_CASE_PASS);
	assert_null(r.cases[c].message);
	assert_false(pc_report_failed(&r));
	pc_report_release(&r);
}

/* A skipped case is SKIP whatever it found (its findings still count);
 * an xfail case that fails is XFAIL and does not fail the run; one that
 * does not fail is PASS. */
static void skip_and_xfail_cases(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t s, x, xp;

	(void)state;
	r.loaded = true;
	r.name = pc_xstrdup("p");
	s = pc_report_add_case(&r, "k", "skipped", NULL, 0);
	x = pc_report_add_case(&r, "k", "xfail", NULL, 0);
	xp = pc_report_add_case(&r, "k", "xpass", NULL, 0);
	pc_report_skip(&r, s, "not run");
	pc_report_find(&r, s, "PC-PROC-003", NULL, NULL, "in a skipped case");
	r.cases[x].xfail = true;
	pc_report_find(&r, x, "PC-PROC-003", NULL, NULL, "known");
	r.cases[xp].xfail = true;
	pc_report_find(&r, xp, "PC-MAN-002", NULL, NULL, "a note");
	pc_report_finish(&r);
	assert_int_equal(r.cases[s].status, PC_CASE_SKIP);
	assert_string_equal(r.cases[s].message, "not run");
	assert_null(r.cases[s].rule);
	assert_int_equal(r.cases[x].status, PC_CASE_XFAIL);
	assert_string_equal(r.cases[x].message, "PC-PROC-003: known");
	assert_string_equal(r.cases[x].rule->id, "PC-PROC-003");
	assert_int_equal(r.cases[xp].status, PC_CASE_PASS);
	assert_int_equal(r.counts.skipped, 1);
	assert_int_equal(r.counts.xfailed, 1);
	assert_int_equal(r.counts.failed, 0);
	assert_int_equal(r.counts.errors, 2); /* they still count */
	assert_false(pc_report_failed(&r));
	assert_int_equal(pc_report_exit_code(&r), 0);
	/* the renderers say the same */
	assert_render(
		&r, PC_REPORT_TAP,
		"TAP version 13\n"
		"1..3\n"
		"ok 1 - k: skipped # SKIP not run\n"
		"not ok 2 - k: xfail # TODO expected failure\n"
		"  ---\n"
		"  message: \"PC-PROC-003: known\"\n"
		"  rule: \"PC-PROC-003\"\n"
		"  severity: \"error\"\n"
		"  fix: \"close stdout/stderr in background children (or redirect them); the host waits for EOF and times out\"\n"
		"  ...\n"
		"ok 3 - k: xpass\n"
		"# plugcheck: cases: 3 run, 0 failed, 1 skipped\n"
		"# plugcheck: 2 errors, 0 warnings, 1 notes, 0 suppressed\n");
	assert_render(
		&r, PC_REPORT_JUNIT,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"plugcheck\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"2\" time=\"0.000\">\n"
		"  <testsuite name=\"plugcheck: p\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"2\" time=\"0.000\">\n"
		"    <properties>\n"
		"      <property name=\"plugcheck.version\" value=\"" PC_VERSION
		"\"/>\n"
		"      <property name=\"plugin.path\" value=\"\"/>\n"
		"      <property name=\"plugin.name\" value=\"p\"/>\n"
		"      <property name=\"plugin.loaded\" value=\"true\"/>\n"
		"      <property name=\"strict\" value=\"false\"/>\n"
		"      <property name=\"incomplete\" value=\"false\"/>\n"
		"    </properties>\n"
		"    <testcase classname=\"k\" name=\"skipped\" time=\"0.000\">\n"
		"      <skipped message=\"not run\"/>\n"
		"    </testcase>\n"
		"    <testcase classname=\"k\" name=\"xfail\" time=\"0.000\">\n"
		"      <skipped message=\"expected failure: PC-PROC-003: known\"/>\n"
		"    </testcase>\n"
		"    <testcase classname=\"k\" name=\"xpass\" time=\"0.000\"/>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
	pc_report_release(&r);
}

/* pc_report_find_static puts a finding in the case "<ID> <title>" of its
 * class, made once per class. */
static void find_static_uses_the_rule_case(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	struct pc_finding *f;
	size_t c;

	(void)state;
	pc_report_add_case(&r, "plugcheck.hook.pre_bash", "fire", NULL, 0);
	f = pc_report_find_static(&r, "plugcheck.static", "PC-HOOK-002",
				  "plugin.json", "hook pre_bash", "one %d", 1);
	f->line = 3;
	f->column = 7;
	assert_int_equal(r.ncases, 2);
	assert_string_equal(r.cases[1].classname, "plugcheck.static");
	assert_string_equal(r.cases[1].name, "PC-HOOK-002 timeout_ms is 0");
	assert_int_equal(r.cases[1].findings.nr, 1);
	assert_int_equal(r.cases[0].findings.nr, 0);
	assert_int_equal(r.cases[1].findings.v[0].line, 3);
	assert_string_equal(r.cases[1].findings.v[0].message, "one 1");
	assert_string_equal(r.cases[1].findings.v[0].where, "hook pre_bash");
	/* the same rule again: the same case */
	pc_report_find_static(&r, "plugcheck.static", "PC-HOOK-002", NULL,
			      "hook pre_read", "two");
	assert_int_equal(r.ncases, 2);
	assert_int_equal(r.cases[1].findings.nr, 2);
	c = pc_report_static_case(&r, "plugcheck.static",
				  pc_rule_find("PC-HOOK-002"));
	assert_int_equal(c, 1);
	/* another class or another rule: another case */
	pc_report_find_static(&r, "plugcheck.lint", "PC-HOOK-002", NULL, NULL,
			      "three");
	pc_report_find_static(&r, "plugcheck.static", "PC-MAN-002", NULL, NULL,
			      "four");
	assert_int_equal(r.ncases, 4);
	assert_string_equal(r.cases[2].classname, "plugcheck.lint");
	assert_string_equal(r.cases[3].name,
			    "PC-MAN-002 version is not a semantic version");
	assert_true(pc_report_has(&r, "PC-HOOK-002", "hook pre_read"));
	assert_true(pc_report_has(&r, "PC-HOOK-002", NULL));
	assert_false(pc_report_has(&r, "PC-HOOK-002", "hook post_read"));
	assert_false(pc_report_has(&r, "PC-LOAD-001", NULL));
	r.strict = true;
	pc_report_finish(&r);
	assert_int_equal(r.cases[1].status, PC_CASE_FAIL);
	assert_string_equal(r.cases[1].message,
			    "PC-HOOK-002: one 1; PC-HOOK-002: two");
	assert_int_equal(r.cases[0].status, PC_CASE_PASS);
	assert_int_equal(r.cases[3].status, PC_CASE_PASS);
	pc_report_release(&r);
}

/* ---- every renderer and the exit code agree ---- */

/* What one case of a variant holds. */
enum kind {
	K_NONE,	  /* no finding */
	K_NOTE,	  /* a note */
	K_WARN,	  /* a warning: fails with strict */
	K_ERR,	  /* an error */
	K_IGN,	  /* an error whose id is ignored */
	K_SKIP,	  /* skipped, with an error */
	K_XFAIL,  /* xfail, with an error */
	K_XPASS,  /* xfail, with no failing finding */
	K_ABSENT, /* no case at all */
	K_COUNT
};

#define V_CASES 2
#define V_FLAGS 4 /* strict, incomplete, loaded, named */

struct variant {
	enum kind k[V_CASES];
	bool strict, incomplete, loaded, named;
};

static void build_variant(struct pc_report *r, const struct variant *v)
{
	static const char *const ids[K_COUNT] = {
		[K_NOTE] = "PC-MAN-002",  [K_WARN] = "PC-HOOK-002",
		[K_ERR] = "PC-PROC-003",  [K_IGN] = "PC-LOAD-001",
		[K_SKIP] = "PC-PROC-003", [K_XFAIL] = "PC-PROC-003",
	};

	r->path = pc_xstrdup("p");
	r->name = v->named ? pc_xstrdup("p") : NULL;
	r->loaded = v->loaded;
	r->strict = v->strict;
	r->incomplete = v->incomplete;
	pc_strvec_push(&r->ignore, "PC-LOAD-001");
	for (size_t i = 0; i < V_CASES; i++) {
		char name[16];
		size_t c;

		if (v->k[i] == K_ABSENT)
			continue;
		snprintf(name, sizeof(name), "case %zu", i);
		c = pc_report_add_case(r, "plugcheck.v", name, NULL, 0.0);
		if (ids[v->k[i]])
			pc_report_find(r, c, ids[v->k[i]], NULL, name,
				       "kind %d", (int)v->k[i]);
		if (v->k[i] == K_SKIP)
			pc_report_skip(r, c, "skipped");
		r->cases[c].xfail = v->k[i] == K_XFAIL || v->k[i] == K_XPASS;
	}
	pc_report_finish(r);
}

/* The oracle: the status each case must have, from the rules of
 * pc_report.h and nothing else. */
static const char *want_status(const struct variant *v, size_t i)
{
	switch (v->k[i]) {
	case K_WARN:
		return v->strict ? "fail" : "pass";
	case K_ERR:
		return "fail";
	case K_SKIP:
		return "skip";
	case K_XFAIL:
		return "xfail";
	default:
		return "pass";
	}
}

static size_t count_str(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The number after `attr="` at its first occurrence in `s`. */
static long attr_num(const char *s, const char *attr)
{
	char *key = pc_xasprintf(" %s=\"", attr);
	const char *p = strstr(s, key);
	long n;

	assert_non_null(p);
	n = strtol(p + strlen(key), NULL, 10);
	free(key);
	return n;
}

static const cJSON *jget(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v)
		fail_msg("no key '%s'", k);
	return v;
}

/* The non-negative integer at key `k` of `o`. */
static size_t jnum(const cJSON *o, const char *k)
{
	const cJSON *v = jget(o, k);

	assert_true(cJSON_IsNumber(v) && v->valuedouble >= 0);
	return (size_t)v->valuedouble;
}

/* Copy what a parent holds beside the cases (a fragment carries the
 * cases, their groups and `incomplete`). */
static void copy_shell(struct pc_report *dst, const struct pc_report *src)
{
	dst->path = src->path ? pc_xstrdup(src->path) : NULL;
	dst->name = src->name ? pc_xstrdup(src->name) : NULL;
	dst->version = src->version ? pc_xstrdup(src->version) : NULL;
	dst->host_error = src->host_error ? pc_xstrdup(src->host_error) : NULL;
	dst->loaded = src->loaded;
	dst->strict = src->strict;
	dst->contract = src->contract;
	dst->kind = src->kind;
	dst->duration_s = src->duration_s;
	for (size_t i = 0; i < src->capabilities.nr; i++)
		pc_strvec_push(&dst->capabilities, src->capabilities.v[i]);
	for (size_t i = 0; i < src->ignore.nr; i++)
		pc_strvec_push(&dst->ignore, src->ignore.v[i]);
	for (size_t i = 0; i < src->nloads; i++)
		pc_report_add_load(dst, src->loads[i].as, src->loads[i].loaded,
				   src->loads[i].detail);
}

/* `r` handed over as fragments of the cases [0, cut) and [cut, n) and
 * merged into a new report renders as JSON exactly as `r` does. */
static void assert_round_trip(const struct pc_report *r, size_t cut)
{
	struct pc_report m = PC_REPORT_INIT;
	char *a = pc_report_fragment(r, 0, cut);
	char *b = pc_report_fragment(r, cut, r->ncases);
	char *want = render(r, PC_REPORT_JSON, false), *got;

	copy_shell(&m, r);
	assert_int_equal(pc_report_merge(&m, a, strlen(a), false), 0);
	assert_int_equal(pc_report_merge(&m, b, strlen(b), false), 0);
	pc_report_finish(&m);
	got = render(&m, PC_REPORT_JSON, false);
	assert_text(got, want);
	free(got);
	free(want);
	free(a);
	free(b);
	pc_report_release(&m);
}

static void check_variant(const struct variant *v)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t fails = 0, xfails = 0, skips = 0, errors = 0, n = 0;
	char *junit, *tap, *json, *human, *line;
	const cJSON *sum, *c;
	cJSON *doc;
	int want_exit;

	build_variant(&r, v);
	for (size_t i = 0; i < V_CASES; i++) {
		if (v->k[i] == K_ABSENT)
			continue;
		fails += !strcmp(want_status(v, i), "fail");
		xfails += v->k[i] == K_XFAIL;
		skips += v->k[i] == K_SKIP;
		errors += v->k[i] == K_ERR || v->k[i] == K_SKIP ||
			  v->k[i] == K_XFAIL;
	}
	want_exit = v->incomplete	      ? 70
		    : !v->loaded && !v->named ? 3
		    : fails		      ? 1
					      : 0;
	assert_int_equal(pc_report_exit_code(&r), want_exit);
	assert_int_equal(pc_report_failed(&r), fails > 0);
	/* JUnit: the failures counter and the <failure> elements */
	junit = render(&r, PC_REPORT_JUNIT, false);
	assert_int_equal(attr_num(junit, "failures"), fails);
	assert_int_equal(attr_num(strstr(junit, "<testsuite "), "failures"),
			 fails);
	assert_int_equal(count_str(junit, "<failure "), fails);
	assert_int_equal(attr_num(junit, "skipped"), skips + xfails);
	/* TAP: "not ok" without a TODO directive, and the counts line */
	tap = render(&r, PC_REPORT_TAP, false);
	assert_int_equal(count_str(tap, "\nnot ok ") -
				 count_str(tap, " # TODO expected failure\n"),
			 fails);
	assert_int_equal(count_str(tap, " # TODO "), xfails);
	assert_int_equal(count_str(tap, " # SKIP"), skips);
	line = pc_xasprintf("# plugcheck: %zu errors,", errors);
	assert_non_null(strstr(tap, line));
	free(line);
	/* JSON: summary and every case's status */
	json = render(&r, PC_REPORT_JSON, false);
	doc = cJSON_Parse(json);
	assert_non_null(doc);
	sum = jget(doc, "summary");
	assert_int_equal(jnum(sum, "failed_cases"), fails);
	assert_int_equal(cJSON_IsTrue(jget(sum, "passed")), fails == 0);
	assert_int_equal(jnum(sum, "errors"), errors);
	assert_int_equal(cJSON_IsTrue(jget(doc, "incomplete")), v->incomplete);
	assert_int_equal(cJSON_GetArraySize(jget(doc, "cases")), r.ncases);
	for (size_t i = 0; i < V_CASES; i++) {
		if (v->k[i] == K_ABSENT)
			continue;
		c = cJSON_GetArrayItem(jget(doc, "cases"), (int)n++);
		assert_string_equal(jget(c, "status")->valuestring,
				    want_status(v, i));
	}
	/* human: the last word */
	human = render(&r, PC_REPORT_HUMAN, false);
	assert_non_null(strstr(human, v->incomplete
					      ? "\xe2\x80\x94 INCOMPLETE\n"
				      : fails ? "\xe2\x80\x94 FAIL\n"
					      : "\xe2\x80\x94 PASS\n"));
	/* and the report a worker hands over is the same report */
	assert_round_trip(&r, r.ncases / 2);
	cJSON_Delete(doc);
	free(junit);
	free(tap);
	free(json);
	free(human);
	pc_report_release(&r);
}

/* For every combination of case kinds and report flags, JUnit's failures,
 * TAP's "not ok" lines, JSON's summary, the human verdict and the exit
 * code all say the same, and what they say is the rule. (Issue 15:
 * JUnit said failures="0" and TAP was all "ok" while check exited 1.) */
static void renderers_and_exit_code_agree(void **state)
{
	size_t nvariants = 1;

	(void)state;
	for (size_t i = 0; i < V_CASES; i++)
		nvariants *= K_COUNT;
	nvariants <<= V_FLAGS;
	for (size_t code = 0; code < nvariants; code++) {
		struct variant v = { 0 };
		size_t x = code;

		for (size_t i = 0; i < V_CASES; i++, x /= K_COUNT)
			v.k[i] = (enum kind)(x % K_COUNT);
		v.strict = x & 1;
		v.incomplete = x & 2;
		v.loaded = x & 4;
		v.named = x & 8;
		check_variant(&v);
	}
}

/* ---- groups ---- */

static size_t group_case(struct pc_report *r, size_t g, const char *name,
			 const char *finding)
{
	size_t c =
		pc_report_add_case(r, "plugcheck.scenario.f", name, NULL, 0.0);

	r->cases[c].group = g;
	if (finding)
		pc_report_find(r, c, finding, "tests/f.plugcheck.yaml",
			       r->groups[g - 1].id, "step %s failed", name);
	return c;
}

static void group_status_from_cases(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t g[8], c;

	(void)state;
	r.loaded = true;
	for (size_t i = 0; i < 8; i++) {
		char id[8];

		snprintf(id, sizeof(id), "f/%zu", i);
		g[i] = pc_report_add_group(&r, id, "tests/f.plugcheck.yaml",
					   id);
		assert_int_equal(g[i], i + 1);
	}
	group_case(&r, g[0], "a", NULL); /* pass, pass */
	group_case(&r, g[0], "b", "PC-MAN-002");
	group_case(&r, g[1], "a", NULL); /* pass, fail */
	group_case(&r, g[1], "b", "PC-SCN-001");
	c = group_case(&r, g[2], "a", "PC-SCN-001"); /* xfail, pass */
	r.cases[c].xfail = true;
	group_case(&r, g[2], "b", NULL);
	r.groups[g[3] - 1].skip = pc_xstrdup("not ready"); /* group skip */
	pc_report_skip(&r, group_case(&r, g[3], "f/3", NULL), "not ready");
	/* g[4]: no cases */
	pc_report_skip(&r, group_case(&r, g[5], "a", NULL), "x"); /* all skip */
	pc_report_skip(&r, group_case(&r, g[5], "b", NULL), "x");
	group_case(&r, g[6], "a", "PC-SCN-001"); /* fail beats xfail */
	c = group_case(&r, g[6], "b", "PC-SCN-001");
	r.cases[c].xfail = true;
	group_case(&r, g[7], "a", NULL); /* skip and pass: pass */
	pc_report_skip(&r, group_case(&r, g[7], "b", NULL), "x");
	pc_report_finish(&r);
	assert_string_equal(pc_report_group_status(&r, g[0]), "pass");
	assert_string_equal(pc_report_group_status(&r, g[1]), "fail");
	assert_string_equal(pc_report_group_status(&r, g[2]), "xfail");
	assert_string_equal(pc_report_group_status(&r, g[3]), "skip");
	assert_string_equal(pc_report_group_status(&r, g[4]), "skip");
	assert_string_equal(pc_report_group_status(&r, g[5]), "skip");
	assert_string_equal(pc_report_group_status(&r, g[6]), "fail");
	assert_string_equal(pc_report_group_status(&r, g[7]), "pass");
	assert_string_equal(pc_report_group_status(&r, 0), "fail");
	assert_string_equal(pc_report_group_status(&r, 9), "fail");
	assert_int_equal(r.counts.failed, 2);
	assert_int_equal(pc_report_exit_code(&r), 1);
	pc_report_release(&r);
}

/* A `run` report (r->kind "run") of three scenarios: one that failed at
 * its second step, one skipped, one expected to fail with --repeat. */
static void run_report(struct pc_report *r)
{
	size_t g, c;

	r->kind = "run";
	r->path = pc_xstrdup("tests/f.plugcheck.yaml");
	g = pc_report_add_group(r, "f/greet", "tests/f.plugcheck.yaml",
				"greet");
	r->groups[g - 1].runs = 1;
	r->groups[g - 1].passes = 0;
	r->groups[g - 1].time_ms = 12.4;
	r->groups[g - 1].p95_ms = 12.4;
	c = group_case(r, g, "greet / 1. fire pre_bash", NULL);
	r->cases[c].system_out = pc_xstrdup("{\"allow\": true}");
	r->cases[c].time_s = 0.004;
	c = pc_report_add_case(r, "plugcheck.scenario.f", "greet / 2. expect",
			       NULL, 0.008);
	r->cases[c].group = g;
	pc_report_find(r, c, "PC-SCN-001", "tests/f.plugcheck.yaml", "f/greet",
		       "expected allow, got deny\nreason: no");
	g = pc_report_add_group(r, "f/later", "tests/f.plugcheck.yaml",
				"later");
	r->groups[g - 1].skip = pc_xstrdup("not ready");
	pc_report_skip(r, group_case(r, g, "later", NULL), "not ready");
	g = pc_report_add_group(r, "f/flaky", "tests/f.plugcheck.yaml",
				"flaky");
	r->groups[g - 1].runs = 3;
	r->groups[g - 1].passes = 2;
	r->groups[g - 1].time_ms = 20.0;
	r->groups[g - 1].p95_ms = 31.0;
	r->groups[g - 1].xfail = true;
	c = pc_report_add_case(r, "plugcheck.scenario.f", "flaky / 1. run",
			       NULL, 0.02);
	r->cases[c].group = g;
	r->cases[c].xfail = true;
	pc_report_find(r, c, "PC-SCN-001", "tests/f.plugcheck.yaml", "f/flaky",
		       "timed out");
	pc_report_finish(r);
}

/* The human form of a run: one line per scenario, its own message once,
 * every failed step's findings, the summary, "incomplete" last. (The skip
 * reason of a skipped scenario was printed twice: once as its case's
 * message, once as its own.) */
static void run_human_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	const char *tail;
	char *x;

	(void)state;
	run_report(&r);
	assert_render(
		&r, PC_REPORT_HUMAN,
		"FAIL  f/greet (12 ms)\n"
		"  step 2. expect:\n"
		"    expected allow, got deny\n"
		"reason: no\n"
		"SKIP  f/later\n"
		"    not ready\n"
		"XFAIL f/flaky (20 ms) pass rate 2/3, p95 31 ms\n"
		"  step 1. run:\n"
		"    timed out\n"
		"3 scenarios: 0 passed, 1 failed, 1 skipped, 1 expected failures\n");
	/* an interrupted run says so last, as it did before issue 15 (the
	 * redesign had moved it above the summary) */
	r.incomplete = true;
	x = render(&r, PC_REPORT_HUMAN, false);
	tail = "\n3 scenarios: 0 passed, 1 failed, 1 skipped, 1 expected "
	       "failures\nincomplete: the run was interrupted\n";
	assert_true(strlen(x) > strlen(tail));
	assert_string_equal(x + strlen(x) - strlen(tail), tail);
	free(x);
	pc_report_release(&r);
}

static void run_json_scenarios(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	const cJSON *s, *steps;
	char *text;
	cJSON *doc;

	(void)state;
	run_report(&r);
	text = render(&r, PC_REPORT_JSON, false);
	doc = cJSON_Parse(text);
	assert_non_null(doc);
	assert_int_equal(jnum(doc, "plugcheck_run"), 1);
	assert_null(cJSON_GetObjectItemCaseSensitive(doc, "incomplete"));
	s = jget(doc, "scenarios");
	assert_int_equal(cJSON_GetArraySize(s), 3);
	s = cJSON_GetArrayItem(jget(doc, "scenarios"), 0);
	assert_string_equal(jget(s, "id")->valuestring, "f/greet");
	assert_string_equal(jget(s, "status")->valuestring, "fail");
	/* a failed scenario says what failed first */
	assert_string_equal(jget(s, "message")->valuestring,
			    "PC-SCN-001: expected allow, got deny\nreason: no");
	steps = jget(s, "steps");
	assert_int_equal(cJSON_GetArraySize(steps), 2);
	assert_string_equal(
		jget(cJSON_GetArrayItem(steps, 0), "name")->valuestring,
		"1. fire pre_bash");
	/* the exchange is the step's document as an object (issue 20) */
	assert_true(cJSON_IsTrue(
		jget(jget(cJSON_GetArrayItem(steps, 0), "exchange"), "allow")));
	assert_int_equal(jnum(cJSON_GetArrayItem(steps, 0), "time_ms"), 4);
	assert_string_equal(
		jget(cJSON_GetArrayItem(steps, 1), "message")->valuestring,
		"PC-SCN-001: expected allow, got deny\nreason: no");
	s = cJSON_GetArrayItem(jget(doc, "scenarios"), 1);
	assert_string_equal(jget(s, "status")->valuestring, "skip");
	assert_string_equal(jget(s, "message")->valuestring, "not ready");
	assert_int_equal(cJSON_GetArraySize(jget(s, "steps")), 0);
	s = cJSON_GetArrayItem(jget(doc, "scenarios"), 2);
	assert_string_equal(jget(s, "status")->valuestring, "xfail");
	assert_int_equal(jnum(s, "runs"), 3);
	assert_int_equal(jnum(s, "passes"), 2);
	assert_int_equal(jnum(jget(doc, "summary"), "failed_cases"), 1);
	assert_int_equal(cJSON_GetArraySize(jget(doc, "findings")), 2);
	cJSON_Delete(doc);
	free(text);
	pc_report_release(&r);
}

/* A step whose name starts with its scenario's name but not with
 * "<scenario> / " is shown whole, as the JSON form does (the human form
 * skipped strlen(name) + 3 bytes of it: past its end). */
static void run_human_step_name_not_prefixed(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t g;

	(void)state;
	r.kind = "run";
	g = pc_report_add_group(&r, "f/g", "f.yaml", "g");
	r.groups[g - 1].runs = 1;
	group_case(&r, g, "gx", "PC-SCN-001");
	group_case(&r, g, "g / 2. y", "PC-SCN-001");
	pc_report_finish(&r);
	assert_render(
		&r, PC_REPORT_HUMAN,
		"FAIL  f/g (0 ms)\n"
		"  step gx:\n"
		"    step gx failed\n"
		"  step 2. y:\n"
		"    step g / 2. y failed\n"
		"1 scenarios: 0 passed, 1 failed, 0 skipped, 0 expected failures\n");
	pc_report_release(&r);
}

/* ---- fragments ---- */

/* A report whose findings were not found in case order, with groups,
 * positions, output, skip and xfail. */
static void rich_report(struct pc_report *r)
{
	struct pc_finding *f;
	size_t g, a, b, c;

	r->path = pc_xstrdup("p");
	r->name = pc_xstrdup("p");
	r->loaded = true;
	a = pc_report_add_case(r, "plugcheck.hook.pre_bash", "fire a", "out a",
			       0.125);
	pc_report_set_err(r, a, "err a\n");
	b = pc_report_add_case(r, "plugcheck.tool.t", "fire b", NULL,
			       1.0 / 3.0);
	g = pc_report_add_group(r, "f/s", "tests/f.plugcheck.yaml", "s");
	r->groups[g - 1].runs = 2;
	r->groups[g - 1].passes = 1;
	r->groups[g - 1].time_ms = 1.5;
	r->groups[g - 1].updates = cJSON_Parse(
		"[{\"file\":\"f\",\"start\":1,\"end\":2,\"text\":\"x\"}]");
	c = group_case(r, g, "s / 1. fire", NULL);
	r->cases[c].xfail = true;
	/* found out of case order: b, then a, then c, then a again */
	pc_report_find(r, b, "PC-PROC-003", NULL, "tool t", "held stdout");
	f = pc_report_find(r, a, "PC-HOOK-002", "plugin.json", "hook pre_bash",
			   "zero");
	f->line = 4;
	f->column = 9;
	pc_report_find(r, c, "PC-SCN-001", "tests/f.plugcheck.yaml", "f/s",
		       "nope");
	pc_report_find(r, a, "PC-MAN-002", NULL, NULL, "semver");
	pc_report_skip(
		r,
		pc_report_add_case(r, "plugcheck.command", "fire c", NULL, 0.0),
		"no commands");
	pc_strvec_push(&r->ignore, "PC-MAN-002");
	pc_report_finish(r);
}

/* pc_report_fragment then pc_report_merge gives the report back: the same
 * JSON rendering, findings in the order found, positions and groups. */
static void fragment_round_trip(void **state)
{
	struct pc_report r = PC_REPORT_INIT, m = PC_REPORT_INIT;
	const struct pc_finding **v;
	char *frag;
	size_t n;

	(void)state;
	rich_report(&r);
	/* one fragment: the findings keep the order they were found in,
	 * which is not their cases' order (merged in case order, the JSON
	 * findings came out reordered); a cut between two fragments keeps
	 * the fragments' order (the pool merges in unit order) */
	assert_round_trip(&r, 0);
	assert_round_trip(&r, r.ncases);
	r.kind = "run";
	assert_round_trip(&r, 0);
	r.incomplete = true;
	assert_round_trip(&r, r.ncases);
	/* what JSON does not show */
	frag = pc_report_fragment(&r, 0, r.ncases);
	assert_int_equal(pc_report_merge(&m, frag, strlen(frag), false), 0);
	pc_report_finish(&m);
	assert_true(m.incomplete);
	assert_int_equal(m.ngroups, 1);
	assert_int_equal(m.groups[0].runs, 2);
	assert_int_equal(m.groups[0].passes, 1);
	assert_non_null(m.groups[0].updates);
	assert_int_equal(m.cases[2].group, 1);
	assert_true(m.cases[2].xfail);
	assert_string_equal(m.cases[0].system_err, "err a\n");
	assert_string_equal(m.cases[3].skip, "no commands");
	v = pc_report_findings(&m, &n);
	assert_int_equal(n, 4);
	assert_string_equal(v[0]->rule->id, "PC-PROC-003");
	assert_string_equal(v[1]->rule->id, "PC-HOOK-002");
	assert_int_equal(v[1]->line, 4);
	assert_int_equal(v[1]->column, 9);
	assert_string_equal(v[1]->file, "plugin.json");
	assert_string_equal(v[2]->rule->id, "PC-SCN-001");
	assert_string_equal(v[3]->rule->id, "PC-MAN-002");
	free(v);
	/* a later finding comes after the merged ones */
	pc_report_find(&m, 0, "PC-LOAD-001", NULL, NULL, "later");
	v = pc_report_findings(&m, &n);
	assert_string_equal(v[4]->rule->id, "PC-LOAD-001");
	free(v);
	free(frag);
	pc_report_release(&m);
	pc_report_release(&r);
}

/* With `once`, a finding whose (id, where) the report already has is
 * dropped; its case is still added. */
static void merge_once_drops_duplicates(void **state)
{
	struct pc_report r = PC_REPORT_INIT, w = PC_REPORT_INIT;
	size_t c;
	char *frag;

	(void)state;
	c = pc_report_add_case(&r, "k", "mine", NULL, 0);
	pc_report_find(&r, c, "PC-HOOK-002", NULL, "hook pre_bash", "mine");
	pc_report_find(&r, c, "PC-MAN-002", NULL, NULL, "no where");
	c = pc_report_add_case(&w, "k", "theirs", NULL, 0);
	pc_report_find(&w, c, "PC-HOOK-002", NULL, "hook pre_bash", "dup");
	pc_report_find(&w, c, "PC-HOOK-002", NULL, "hook pre_read", "other");
	pc_report_find(&w, c, "PC-PROC-003", NULL, "hook pre_bash", "new id");
	pc_report_find(&w, c, "PC-MAN-002", NULL, NULL, "dup, no where");
	frag = pc_report_fragment(&w, 0, w.ncases);
	assert_int_equal(pc_report_merge(&r, frag, strlen(frag), true), 0);
	assert_int_equal(r.ncases, 2);
	assert_int_equal(r.cases[1].findings.nr, 2);
	assert_string_equal(r.cases[1].findings.v[0].message, "other");
	assert_string_equal(r.cases[1].findings.v[1].message, "new id");
	/* the same fragment again: nothing new to say */
	assert_int_equal(pc_report_merge(&r, frag, strlen(frag), true), 0);
	assert_int_equal(r.ncases, 3);
	assert_int_equal(r.cases[2].findings.nr, 0);
	/* without once, everything */
	assert_int_equal(pc_report_merge(&r, frag, strlen(frag), false), 0);
	assert_int_equal(r.cases[3].findings.nr, 4);
	free(frag);
	pc_report_release(&w);
	pc_report_release(&r);
}

/* A malformed fragment returns PC_EPARSE and adds nothing: no case, no
 * group, no finding number, no incomplete mark. */
static void merge_rejects_malformed_fragments(void **state)
{
#define CASE(extra)                                                           \
	"{\"incomplete\":true,\"groups\":[],\"cases\":[{\"classname\":\"k\"," \
	"\"name\":\"n\"" extra "}]}"
	static const char *const bad[] = {
		"",
		"{",
		"null",
		"[]",
		"42",
		"{\"groups\":[],\"cases\":{}}",
		"{\"cases\":[]}",
		"{\"groups\":{},\"cases\":[]}",
		"{\"groups\":[1],\"cases\":[]}",
		"{\"groups\":[{\"id\":1,\"file\":\"f\",\"name\":\"n\"}],\"cases\":[]}",
		"{\"groups\":[],\"cases\":[]} trailing",
		"{\"groups\":[],\"cases\":[]}{\"groups\":[],\"cases\":[]}",
		"{\"groups\":[],\"cases\":[1]}",
		"{\"groups\":[],\"cases\":[{\"name\":\"n\",\"findings\":[]}]}",
		"{\"groups\":[],\"cases\":[{\"classname\":\"k\",\"findings\":[]}]}",
		CASE(""),
		CASE(",\"findings\":{}"),
		CASE(",\"findings\":[1]"),
		CASE(",\"findings\":[{\"message\":\"m\"}]"),
		CASE(",\"findings\":[{\"id\":\"PC-NOPE-999\",\"message\":\"m\"}]"),
		CASE(",\"findings\":[{\"id\":\"PC-MAN-002\"}]"),
		CASE(",\"group\":1,\"findings\":[]"),
		CASE(",\"group\":-1,\"findings\":[]"),
		"{\"groups\":[{\"id\":\"g\",\"file\":\"f\",\"name\":\"n\"}],"
		"\"cases\":[{\"classname\":\"k\",\"name\":\"n\",\"group\":2,"
		"\"findings\":[]}]}",
	};
#undef CASE
	struct pc_report r = PC_REPORT_INIT, w = PC_REPORT_INIT;
	char *good;
	size_t c;

	(void)state;
	c = pc_report_add_case(&r, "k", "mine", NULL, 0);
	pc_report_find(&r, c, "PC-MAN-002", NULL, NULL, "mine");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		if (pc_report_merge(&r, bad[i], strlen(bad[i]), false) !=
		    PC_EPARSE)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(r.ncases, 1);
		assert_int_equal(r.ngroups, 0);
		assert_int_equal(r.next_seq, 1);
		assert_false(r.incomplete);
	}
	/* a good fragment cut short, and one not NUL-terminated where its
	 * length ends */
	c = pc_report_add_case(&w, "k", "theirs", NULL, 0);
	pc_report_find(&w, c, "PC-HOOK-002", NULL, "hook x", "m");
	good = pc_report_fragment(&w, 0, w.ncases);
	for (size_t len = 0; len < strlen(good); len++)
		assert_int_equal(pc_report_merge(&r, good, len, false),
				 PC_EPARSE);
	assert_int_equal(r.ncases, 1);
	assert_int_equal(pc_report_merge(&r, good, strlen(good), false), 0);
	assert_int_equal(r.ncases, 2);
	free(good);
	pc_report_release(&w);
	pc_report_release(&r);
}

/* pc_report_append moves cases, findings and groups; the findings keep
 * the order they were found in (src's after dst's), groups are renumbered,
 * and src is left without cases. */
static void append_keeps_finding_order(void **state)
{
	struct pc_report d = PC_REPORT_INIT, s = PC_REPORT_INIT;
	const struct pc_finding **v;
	size_t n, c0, c1, g;

	(void)state;
	c0 = pc_report_add_case(&d, "k", "d0", NULL, 0);
	c1 = pc_report_add_case(&d, "k", "d1", NULL, 0);
	pc_report_add_group(&d, "d/g", "d.yaml", "g");
	d.cases[c0].group = 1;
	pc_report_find(&d, c1, "PC-MAN-002", NULL, NULL, "d first");
	pc_report_find(&d, c0, "PC-MAN-002", NULL, NULL, "d second");
	g = pc_report_add_group(&s, "s/g", "s.yaml", "g");
	c0 = pc_report_add_case(&s, "k", "s0", NULL, 0);
	c1 = pc_report_add_case(&s, "k", "s1", NULL, 0);
	s.cases[c1].group = g;
	pc_report_find(&s, c1, "PC-MAN-002", NULL, NULL, "s first");
	pc_report_find(&s, c0, "PC-MAN-002", NULL, NULL, "s second");
	pc_report_find(&s, c1, "PC-MAN-002", NULL, NULL, "s third");
	s.incomplete = true;
	pc_report_append(&d, &s);
	assert_int_equal(d.ncases, 4);
	assert_int_equal(d.ngroups, 2);
	assert_int_equal(s.ncases, 0);
	assert_int_equal(s.ngroups, 0);
	assert_null(s.cases);
	assert_true(d.incomplete);
	assert_int_equal(d.cases[0].group, 1);
	assert_int_equal(d.cases[2].group, 0);
	assert_int_equal(d.cases[3].group, 2);
	assert_string_equal(d.groups[1].id, "s/g");
	pc_report_find(&d, 0, "PC-MAN-002", NULL, NULL, "d after");
	v = pc_report_findings(&d, &n);
	assert_int_equal(n, 6);
	assert_string_equal(v[0]->message, "d first");
	assert_string_equal(v[1]->message, "d second");
	assert_string_equal(v[2]->message, "s first");
	assert_string_equal(v[3]->message, "s second");
	assert_string_equal(v[4]->message, "s third");
	assert_string_equal(v[5]->message, "d after");
	free(v);
	/* src is reusable */
	pc_report_add_case(&s, "k", "again", NULL, 0);
	pc_report_find(&s, 0, "PC-MAN-002", NULL, NULL, "s again");
	assert_int_equal(s.cases[0].findings.v[0].seq, 0);
	pc_report_release(&s);
	pc_report_release(&d);
}

/* ---- exact renderings ---- */

static void write_rejects_unknown_format(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	assert_int_equal(
		pc_report_write(&r, (enum pc_report_format)42, stdout, false),
		PC_EINVAL);
}

/* The four renderings of small_report() are those of the report before
 * the redesign (issue 15), byte for byte: the findings now live in the
 * cases, and the failed case's message and rule are computed from its
 * finding instead of being given. */
static const char json_small[] =
	"{\n"
	"  \"capabilities\": [\n"
	"    \"hooks\"\n"
	"  ],\n"
	"  \"cases\": [\n"
	"    {\n"
	"      \"classname\": \"plugcheck.static\",\n"
	"      \"message\": null,\n"
	"      \"name\": \"manifest\",\n"
	"      \"rule\": null,\n"
	"      \"status\": \"pass\",\n"
	"      \"system_err\": null,\n"
	"      \"system_out\": null,\n"
	"      \"time_s\": 0.001\n"
	"    },\n"
	"    {\n"
	"      \"classname\": \"plugcheck.hook.pre_bash\",\n"
	"      \"message\": \"PC-HOOK-002: timeout_ms is 0\",\n"
	"      \"name\": \"fire pre_bash\",\n"
	"      \"rule\": \"PC-HOOK-002\",\n"
	"      \"status\": \"fail\",\n"
	"      \"system_err\": \"[plugins] hook timed out\\n\",\n"
	"      \"system_out\": \"stdin: {}\\nverdict: deny\\n\",\n"
	"      \"time_s\": 0.25\n"
	"    },\n"
	"    {\n"
	"      \"classname\": \"plugcheck.tool.t\",\n"
	"      \"message\": \"no tools declared\",\n"
	"      \"name\": \"fire t\",\n"
	"      \"rule\": null,\n"
	"      \"status\": \"skip\",\n"
	"      \"system_err\": null,\n"
	"      \"system_out\": null,\n"
	"      \"time_s\": 0\n"
	"    }\n"
	"  ],\n"
	"  \"contract\": \"catalyst\",\n"
	"  \"duration_s\": 0.5,\n"
	"  \"findings\": [\n"
	"    {\n"
	"      \"column\": 48,\n"
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"a zero timeout makes every call time out; raise timeout_ms or remove it to get the default\",\n"
	"      \"id\": \"PC-HOOK-002\",\n"
	"      \"line\": 4,\n"
	"      \"message\": \"timeout_ms is 0\",\n"
	"      \"rule\": \"R5.11\",\n"
	"      \"severity\": \"warning\",\n"
	"      \"suppressed\": false,\n"
	"      \"where\": \"hook pre_bash\"\n"
	"    },\n"
	"    {\n"
	"      \"column\": null,\n"
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver\",\n"
	"      \"id\": \"PC-MAN-002\",\n"
	"      \"line\": 3,\n"
	"      \"message\": \"version '1.0' is not MAJOR.MINOR.PATCH\",\n"
	"      \"rule\": \"§2.2, R12.2.1\",\n"
	"      \"severity\": \"note\",\n"
	"      \"suppressed\": false,\n"
	"      \"where\": \"\"\n"
	"    },\n"
	"    {\n"
	"      \"column\": null,\n"
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"declare \\\"capabilities\\\" with exactly the inferred list so a future host that requires declarations keeps loading the plugin\",\n"
	"      \"id\": \"PC-CAP-001\",\n"
	"      \"line\": null,\n"
	"      \"message\": \"no capabilities declared\",\n"
	"      \"rule\": \"R3.3\",\n"
	"      \"severity\": \"note\",\n"
	"      \"suppressed\": true,\n"
	"      \"where\": \"\"\n"
	"    }\n"
	"  ],\n"
	"  \"host_error\": null,\n"
	"  \"incomplete\": false,\n"
	"  \"loaded\": true,\n"
	"  \"loads\": [\n"
	"    {\n"
	"      \"as\": \"plugin_dir\",\n"
	"      \"detail\": \"\",\n"
	"      \"loaded\": true\n"
	"    },\n"
	"    {\n"
	"      \"as\": \"project\",\n"
	"      \"detail\": \"[plugins] skipping untrusted project plugin 'demo'\",\n"
	"      \"loaded\": false\n"
	"    }\n"
	"  ],\n"
	"  \"name\": \"demo\",\n"
	"  \"path\": \"plugins/demo\",\n"
	"  \"plugcheck\": \"" PC_VERSION "\",\n"
	"  \"schema_version\": 2,\n"
	"  \"strict\": true,\n"
	"  \"summary\": {\n"
	"    \"cases\": 3,\n"
	"    \"errors\": 0,\n"
	"    \"failed_cases\": 1,\n"
	"    \"notes\": 1,\n"
	"    \"passed\": false,\n"
	"    \"suppressed\": 1,\n"
	"    \"warnings\": 1\n"
	"  },\n"
	"  \"version\": \"1.0\"\n"
	"}\n";

static void json_small_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	small_report(&r);
	assert_render(&r, PC_REPORT_JSON, json_small);
	pc_report_release(&r);
}

static const char junit_small[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<testsuites name=\"plugcheck\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.500\">\n"
	"  <testsuite name=\"plugcheck: demo\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.500\">\n"
	"    <properties>\n"
	"      <property name=\"plugcheck.version\" value=\"" PC_VERSION
	"\"/>\n"
	"      <property name=\"plugin.path\" value=\"plugins/demo\"/>\n"
	"      <property name=\"plugin.name\" value=\"demo\"/>\n"
	"      <property name=\"plugin.version\" value=\"1.0\"/>\n"
	"      <property name=\"plugin.loaded\" value=\"true\"/>\n"
	"      <property name=\"strict\" value=\"true\"/>\n"
	"      <property name=\"incomplete\" value=\"false\"/>\n"
	"    </properties>\n"
	"    <testcase classname=\"plugcheck.static\" name=\"manifest\" time=\"0.001\"/>\n"
	"    <testcase classname=\"plugcheck.hook.pre_bash\" name=\"fire pre_bash\" time=\"0.250\">\n"
	"      <failure message=\"PC-HOOK-002: timeout_ms is 0\" type=\"PC-HOOK-002\">PC-HOOK-002: timeout_ms is 0\n"
	"\n"
	"PC-HOOK-002 (warning, R5.11): timeout_ms is 0\n"
	"fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get the default</failure>\n"
	"      <system-out>stdin: {}\n"
	"verdict: deny\n"
	"</system-out>\n"
	"      <system-err>[plugins] hook timed out\n"
	"</system-err>\n"
	"    </testcase>\n"
	"    <testcase classname=\"plugcheck.tool.t\" name=\"fire t\" time=\"0.000\">\n"
	"      <skipped message=\"no tools declared\"/>\n"
	"    </testcase>\n"
	"  </testsuite>\n"
	"</testsuites>\n";

static void junit_small_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	small_report(&r);
	assert_render(&r, PC_REPORT_JUNIT, junit_small);
	pc_report_release(&r);
}

static const char tap_small[] =
	"TAP version 13\n"
	"1..3\n"
	"ok 1 - plugcheck.static: manifest\n"
	"not ok 2 - plugcheck.hook.pre_bash: fire pre_bash\n"
	"  ---\n"
	"  message: \"PC-HOOK-002: timeout_ms is 0\"\n"
	"  rule: \"PC-HOOK-002\"\n"
	"  severity: \"warning\"\n"
	"  fix: \"a zero timeout makes every call time out; raise timeout_ms or remove it to get the default\"\n"
	"  ...\n"
	"ok 3 - plugcheck.tool.t: fire t # SKIP no tools declared\n"
	"# plugcheck: cases: 3 run, 1 failed, 1 skipped\n"
	"# plugcheck: 0 errors, 1 warnings, 1 notes, 1 suppressed\n";

static void tap_small_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	small_report(&r);
	assert_render(&r, PC_REPORT_TAP, tap_small);
	pc_report_release(&r);
}

static const char human_small[] =
	"host: loaded demo 1.0 (plugins/demo)\n"
	"  plugin_dir: loaded\n"
	"  project: not loaded: [plugins] skipping untrusted project plugin 'demo'\n"
	"\n"
	"PC-HOOK\n"
	"plugins/demo/plugin.json:4:48: warning PC-HOOK-002 [R5.11] hook pre_bash: timeout_ms is 0\n"
	"    fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get the default (see `plugcheck explain PC-HOOK-002`)\n"
	"\n"
	"PC-MAN\n"
	"plugins/demo/plugin.json:3: note PC-MAN-002 [§2.2, R12.2.1] version '1.0' is not MAJOR.MINOR.PATCH\n"
	"    fix: use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver (see `plugcheck explain PC-MAN-002`)\n"
	"\n"
	"suppressed: PC-CAP-001 (1)\n"
	"cases: 3 run, 1 failed, 1 skipped\n"
	"0 error(s), 1 warning(s), 1 note(s), 1 suppressed — FAIL\n";

static void human_small_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	small_report(&r);
	assert_render(&r, PC_REPORT_HUMAN, human_small);
	pc_report_release(&r);
}

/* Kinds are ordered by their most severe finding even when that finding
 * comes after other kinds in the report (the grouping once used a
 * quadratic pairwise scan; its replacement must keep this order).
 * Changed by issue 15: findings belong to a case, so the summary now
 * has the line "cases: 1 run, ..." the report without cases did not. */
static void human_groups_kinds_by_their_worst_finding(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t c;

	(void)state;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	c = pc_report_add_case(&r, "plugcheck.static", "static", NULL, 0);
	pc_report_find(&r, c, "PC-MAN-002", "plugin.json", NULL, "note first");
	pc_report_find(&r, c, "PC-HOOK-002", "plugin.json", "hook pre_bash",
		       "warning second");
	pc_report_find(&r, c, "PC-MAN-001", "plugin.json", NULL,
		       "warning third");
	pc_report_find(&r, c, "PC-CAP-001", "plugin.json", NULL, "note fourth");
	pc_report_finish(&r);
	assert_render(
		&r, PC_REPORT_HUMAN,
		"host: loaded p (p)\n"
		"\n"
		"PC-HOOK\n"
		"p/plugin.json: warning PC-HOOK-002 [R5.11] hook pre_bash: warning second\n"
		"    fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get the default (see `plugcheck explain PC-HOOK-002`)\n"
		"\n"
		"PC-MAN\n"
		"p/plugin.json: warning PC-MAN-001 [R2.5] warning third\n"
		"    fix: rename the directory or the plugin: install copies it to <root>/<name>, so paths differ after installation (see `plugcheck explain PC-MAN-001`)\n"
		"p/plugin.json: note PC-MAN-002 [§2.2, R12.2.1] note first\n"
		"    fix: use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver (see `plugcheck explain PC-MAN-002`)\n"
		"\n"
		"PC-CAP\n"
		"p/plugin.json: note PC-CAP-001 [R3.3] note fourth\n"
		"    fix: declare \"capabilities\" with exactly the inferred list so a future host that requires declarations keeps loading the plugin (see `plugcheck explain PC-CAP-001`)\n"
		"\n"
		"cases: 1 run, 0 failed, 0 skipped\n"
		"0 error(s), 2 warning(s), 2 note(s), 0 suppressed \xe2\x80\x94 PASS\n");
	pc_report_release(&r);
}

/* check -j: a worker that died lost its unit. The human summary names
 * the lost unit (the "see its plugcheck.internal cases" of stderr must
 * be findable in the default format) and does not call the run
 * interrupted; TAP says the same. A fresh-user trial found "cases: 38
 * run, 1 failed" with no failure shown and "incomplete: the run was
 * interrupted" after a script's `kill -9 $PPID` killed its worker.
 * Changed by issue 15: the internal case fails by its PC-INT-001
 * finding, so that finding is listed (and counted: 1 error), the case's
 * message carries its id, and pc_report_finish() itself marks the report
 * incomplete. */
static void internal_case_is_shown_not_called_interrupted(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t c;
	char *x;

	(void)state;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	pc_report_add_case(&r, "plugcheck.tool.a", "fire a", NULL, 0.0);
	c = pc_report_add_case(&r, PC_CASE_INTERNAL, "tool b", NULL, 0.0);
	pc_report_find(&r, c, "PC-INT-001", NULL, "tool b",
		       "plugcheck: the worker process died of signal 9");
	pc_report_finish(&r);
	assert_true(r.incomplete);
	assert_int_equal(r.counts.internal, 1);
	assert_int_equal(pc_report_exit_code(&r), 70);
	assert_render(
		&r, PC_REPORT_HUMAN,
		"host: loaded p (p)\n"
		"\n"
		"PC-INT\n"
		"error PC-INT-001 tool b: plugcheck: the worker process died of signal 9\n"
		"    fix: run the check again; if it repeats, report it with the case named here (plugcheck's worker process died, or could not be started) (see `plugcheck explain PC-INT-001`)\n"
		"\n"
		"cases: 2 run, 1 failed, 0 skipped\n"
		"internal: tool b: PC-INT-001: plugcheck: the worker process died of signal 9\n"
		"incomplete: plugcheck lost part of the run (internal above)\n"
		"1 error(s), 0 warning(s), 0 note(s), 0 suppressed \xe2\x80\x94 INCOMPLETE\n");
	x = render(&r, PC_REPORT_TAP, false);
	assert_non_null(strstr(x, "not ok 2 - plugcheck.internal: tool b\n"));
	assert_non_null(strstr(
		x, "# plugcheck: incomplete: plugcheck lost part of the run "
		   "(the plugcheck.internal cases)\n"));
	assert_null(strstr(x, "interrupted"));
	free(x);
	/* interrupted, with no internal case: as before */
	pc_report_release(&r);
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	r.incomplete = true;
	pc_report_finish(&r);
	x = render(&r, PC_REPORT_HUMAN, false);
	assert_non_null(strstr(x, "\nincomplete: the run was interrupted\n"));
	assert_null(strstr(x, "internal"));
	free(x);
	pc_report_release(&r);
}

static void passing_report_exact(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char *x;

	(void)state;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	pc_report_finish(&r);
	assert_render(
		&r, PC_REPORT_HUMAN,
		"host: loaded p (p)\n"
		"\n"
		"no findings\n"
		"\n"
		"0 error(s), 0 warning(s), 0 note(s), 0 suppressed \xe2\x80\x94 PASS\n");
	assert_render(
		&r, PC_REPORT_TAP,
		"TAP version 13\n"
		"1..0\n"
		"# plugcheck: 0 errors, 0 warnings, 0 notes, 0 suppressed\n");
	x = render(&r, PC_REPORT_HUMAN, true);
	assert_non_null(strstr(x, "host: \033[32mloaded\033[0m p (p)\n"));
	assert_non_null(strstr(x, "\xe2\x80\x94 \033[1m\033[32mPASS\033[0m\n"));
	free(x);
	pc_report_release(&r);
}

/* Every hostile thing a plugin can put in a string: XML and TAP
 * metacharacters, "]]>", C0 controls (ESC starts a terminal sequence),
 * invalid UTF-8 (FF, FE, a cut-off C3), CR LF, tab, a noncharacter
 * U+FFFE and the C1 control U+009B (CSI). */
static const char hostile[] =
	"<a&b \"q\" 'a'> ]]> \x01\x08\x0b\x0c\x0e\x1b[31m\x1f \xff\xfe\xc3 "
	"\r\n tab\t # hash \\ \xef\xbf\xbe \xc2\x9b end";

/* Changed by issue 15: a failed case's message and rule come from its
 * findings, so case 1 carries "PC-LOAD-001: <hostile>" (its rule can no
 * longer be a hostile string), and case 3, which failed with no message
 * and no rule (rendered "failed" / "plugcheck"), cannot exist any more:
 * it fails by a PC-PROC-003 finding with a hostile message (2 errors). */
static void hostile_report(struct pc_report *r)
{
	size_t c;

	r->path = pc_xstrdup(hostile);
	r->name = pc_xstrdup(hostile);
	r->version = pc_xstrdup(hostile);
	r->host_error = pc_xstrdup(hostile);
	pc_strvec_push(&r->capabilities, hostile);
	pc_report_add_load(r, "global", false, hostile);
	c = pc_report_add_case(r, hostile, hostile, hostile, -1.0);
	pc_report_set_err(r, c, hostile);
	pc_report_find(r, c, "PC-LOAD-001", "plugin.json", hostile, "%s",
		       hostile);
	pc_report_find(r, c, "PC-HOOK-002", hostile, NULL, "%s", hostile);
	pc_strvec_push(&r->ignore, "PC-HOOK-002");
	c = pc_report_add_case(r, hostile, hostile, NULL, 1e300);
	pc_report_skip(r, c, hostile);
	c = pc_report_add_case(r, hostile, hostile, NULL, 0.0);
	pc_report_find(r, c, "PC-PROC-003", NULL, NULL, "%s", hostile);
	r->incomplete = true;
	pc_report_finish(r);
}

static bool valid_utf8(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t k = pc_rust_utf8_next(s + i, n - i, &cp);

		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* No byte below 0x20 but those in `allowed`; valid UTF-8. */
static void assert_clean(const char *s, const char *allowed)
{
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 && !strchr(allowed, *p))
			fail_msg("control byte 0x%02x at offset %td",
				 (unsigned char)*p, p - s);
	assert_true(valid_utf8(s));
}

#define FFFD "\xef\xbf\xbd"

/* The hostile text as JUnit writes it in an attribute. */
#define XML_ATTR_HOSTILE                                          \
	"&lt;a&amp;b &quot;q&quot; &apos;a&apos;&gt; ]]&gt; "     \
	"\\x01\\x08\\x0b\\x0c\\x0e\\x1b[31m\\x1f " FFFD FFFD FFFD \
	" &#13;&#10; tab&#9; # hash \\ " FFFD " \xc2\x9b end"

static void junit_escapes_hostile_text(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char *x;

	(void)state;
	hostile_report(&r);
	x = render(&r, PC_REPORT_JUNIT, false);
	assert_clean(x, "\n\t");
	assert_null(strstr(x, "]]>"));
	assert_null(strstr(x, "\xef\xbf\xbe"));
	/* element text: tab and LF kept, CR as a reference */
	assert_non_null(strstr(
		x,
		"<system-err>&lt;a&amp;b &quot;q&quot; &apos;a&apos;&gt; ]]&gt; "
		"\\x01\\x08\\x0b\\x0c\\x0e\\x1b[31m\\x1f " FFFD FFFD FFFD
		" &#13;\n"
		" tab\t # hash \\ " FFFD " \xc2\x9b end</system-err>"));
	/* attributes: tab, LF and CR all as references */
	assert_non_null(strstr(x, " &#13;&#10; tab&#9; # hash"));
	assert_non_null(strstr(x, "<testsuite name=\"plugcheck: &lt;a&amp;b"));
	assert_non_null(strstr(x, "<skipped message=\"&lt;a&amp;b"));
	assert_non_null(
		strstr(x, "<failure message=\"PC-LOAD-001: " XML_ATTR_HOSTILE
			  "\" type=\"PC-LOAD-001\">PC-LOAD-001: &lt;a&amp;b"));
	assert_non_null(
		strstr(x, "<failure message=\"PC-PROC-003: " XML_ATTR_HOSTILE
			  "\" type=\"PC-PROC-003\">"));
	assert_non_null(strstr(x, "time=\"0.000\">"));
	free(x);
	pc_report_release(&r);
}

static void json_escapes_hostile_text(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char *x;

	(void)state;
	hostile_report(&r);
	x = render(&r, PC_REPORT_JSON, false);
	assert_clean(x, "\n");
	assert_non_null(strstr(
		x,
		"\"host_error\": \"<a&b \\\"q\\\" 'a'> ]]> "
		"\\u0001\\b\\u000b\\f\\u000e\\u001b[31m\\u001f " FFFD FFFD FFFD
		" \\r\\n tab\\t # hash \\\\ \xef\xbf\xbe \xc2\x9b end\""));
	assert_non_null(strstr(x, "\"suppressed\": true"));
	assert_non_null(strstr(x, "\"time_s\": 0\n"));
	assert_non_null(strstr(x, "\"incomplete\": true"));
	assert_non_null(strstr(x, "\"message\": \"PC-PROC-003: <a&b"));
	free(x);
	pc_report_release(&r);
}

/* Each line is a TAP line, a YAML block line, or a comment. */
static void assert_tap_lines(const char *x)
{
	static const char *const starts[] = { "TAP version 13\n", "1..", "ok ",
					      "not ok ",	  "  ",	 "# " };

	for (const char *line = x; *line;) {
		const char *nl = strchr(line, '\n');
		bool known = false;

		assert_non_null(nl);
		for (size_t i = 0; i < sizeof(starts) / sizeof(*starts); i++)
			known |= !strncmp(line, starts[i], strlen(starts[i]));
		if (!known)
			fail_msg("not a TAP line: %.*s", (int)(nl - line),
				 line);
		line = nl + 1;
	}
}

static void tap_escapes_hostile_text(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	const char *esc = "<a&b \"q\" 'a'> ]]> \\x01\\x08\\x0b\\x0c\\x0e"
			  "\\x1b[31m\\x1f " FFFD FFFD FFFD " \\x0d\\x0a tab"
			  "\\x09 \\# hash \\\\ \\u{fffe} \\u{9b} end";
	const char *yaml = "<a&b \\\"q\\\" 'a'> ]]> \\x01\\x08\\x0b\\x0c\\x0e"
			   "\\x1b[31m\\x1f " FFFD FFFD FFFD " \\r\\n tab\\t # "
			   "hash \\\\ \\ufffe \\x9b end\"\n";
	char *x, *want;

	(void)state;
	hostile_report(&r);
	x = render(&r, PC_REPORT_TAP, false);
	assert_clean(x, "\n");
	assert_tap_lines(x);
	want = pc_xasprintf("not ok 1 - %s: %s\n", esc, esc);
	assert_non_null(strstr(x, want));
	free(want);
	want = pc_xasprintf("ok 2 - %s: %s # SKIP %s\n", esc, esc, esc);
	assert_non_null(strstr(x, want));
	free(want);
	want = pc_xasprintf("  message: \"PC-LOAD-001: %s", yaml);
	assert_non_null(strstr(x, want));
	free(want);
	assert_non_null(strstr(x, "not ok 3 - "));
	want = pc_xasprintf(
		"  message: \"PC-PROC-003: %s  rule: \"PC-PROC-003\"\n", yaml);
	assert_non_null(strstr(x, want));
	free(want);
	assert_non_null(strstr(x, "\n# plugcheck: 2 errors, 0 warnings, "
				  "0 notes, 1 suppressed\n"));
	free(x);
	pc_report_release(&r);
}

static void human_escapes_hostile_text(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char *x;

	(void)state;
	hostile_report(&r);
	x = render(&r, PC_REPORT_HUMAN, false);
	assert_clean(x, "\n\t");
	/* the host error keeps its line break, nothing else unprintable */
	assert_non_null(strstr(x, "\\x1f " FFFD FFFD FFFD " \\x0d\n tab\t"));
	assert_non_null(strstr(x, "\\x1f " FFFD FFFD FFFD " \\x0d\\n tab\t"));
	assert_non_null(strstr(x, "\\u{9b} end"));
	free(x);
	x = render(&r, PC_REPORT_HUMAN, true);
	/* the only ESC bytes are plugcheck's own colours */
	for (const char *p = strchr(x, '\033'); p; p = strchr(p + 1, '\033'))
		assert_true(!strncmp(p, "\033[3", 3) ||
			    !strncmp(p, "\033[0m", 4) ||
			    !strncmp(p, "\033[1m", 4));
	assert_null(strstr(x, "\033[31m\\x1f"));
	assert_non_null(strstr(x, "\033[31merror\033[0m PC-LOAD-001"));
	free(x);
	pc_report_release(&r);
}

/* A step message and a scenario id from a plugin reach the terminal in
 * the human form of a run too. */
static void run_human_escapes_hostile_text(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t g;
	char *x;

	(void)state;
	r.kind = "run";
	g = pc_report_add_group(&r, hostile, "f", "s");
	group_case(&r, g, hostile, NULL);
	pc_report_find(&r, r.ncases - 1, "PC-SCN-001", NULL, NULL, "%s",
		       hostile);
	pc_report_finish(&r);
	x = render(&r, PC_REPORT_HUMAN, false);
	assert_clean(x, "\n\t");
	assert_non_null(strstr(x, "\\x1b[31m"));
	free(x);
	pc_report_release(&r);
}

static void write_reports_io_error(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	small_report(&r);
	for (int fmt = PC_REPORT_HUMAN; fmt <= PC_REPORT_TAP; fmt++)
		assert_int_equal(pc_report_write(&r, (enum pc_report_format)fmt,
						 f, false),
				 PC_EIO);
	fclose(f);
	pc_report_release(&r);
}

/* Run argv (found on PATH) to completion, its stderr sent to /dev/null
 * when `quiet`; its exit status, or -1. */
static int run(const char *const *argv, bool quiet)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	assert_int_equal(posix_spawn_file_actions_init(&fa), 0);
	if (quiet)
		assert_int_equal(posix_spawn_file_actions_addopen(
					 &fa, 2, "/dev/null", O_WRONLY, 0),
				 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
			  environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		print_error("cannot run '%s': %s\n", argv[0], strerror(rc));
		return -1;
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int xmllint(const char *file, bool quiet)
{
	const char *argv[] = { "xmllint",  "--noout",
			       "--schema", DOCS_DIR "/junit.xsd",
			       file,	   NULL };

	return run(argv, quiet);
}

static int jsonschema(const char *file, bool quiet)
{
	const char *argv[] = {
		"python3",
		"-c",
		"import json,jsonschema,sys; jsonschema.validate("
		"json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
		file,
		DOCS_DIR "/check.schema.json",
		NULL
	};

	return run(argv, quiet);
}

static char *write_file(const char *dir, const char *name,
			const struct pc_report *r, enum pc_report_format fmt)
{
	char *path = pc_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(pc_report_write(r, fmt, f, false), 0);
	assert_int_equal(fclose(f), 0);
	return path;
}

static char *write_text(const char *dir, const char *name, const char *text)
{
	char *path = pc_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Validate the JUnit and JSON of report `r` with xmllint and jsonschema. */
static void validate(const char *dir, const struct pc_report *r)
{
	char *xml = write_file(dir, "out.xml", r, PC_REPORT_JUNIT);
	char *json = write_file(dir, "out.json", r, PC_REPORT_JSON);

	assert_int_equal(xmllint(xml, false), 0);
	assert_int_equal(jsonschema(json, false), 0);
	unlink(xml);
	unlink(json);
	free(xml);
	free(json);
}

static void real_parsers_accept_output(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = pc_xasprintf("%s/test_report.XXXXXX",
				 tmp && *tmp ? tmp : "/tmp");
	struct pc_report r = PC_REPORT_INIT;
	char *bad;

	(void)state;
	assert_non_null(mkdtemp(dir));
	pc_report_finish(&r);
	validate(dir, &r); /* empty: no path, no name, no cases */
	small_report(&r);
	validate(dir, &r);
	pc_report_release(&r);
	hostile_report(&r);
	validate(dir, &r);
	pc_report_release(&r);
	rich_report(&r);
	r.cases[2].xfail = false; /* check.schema.json has no "xfail" */
	pc_report_finish(&r);
	validate(dir, &r);
	pc_report_release(&r);
	/* the validators do reject: a testsuite without a name, a JSON
	 * report without its keys */
	bad = write_text(dir, "bad.xml",
			 "<testsuites><testsuite tests=\"1\"/></testsuites>\n");
	assert_int_not_equal(xmllint(bad, true), 0);
	unlink(bad);
	free(bad);
	bad = write_text(dir, "bad.json", "{\"plugcheck\": \"0\"}\n");
	assert_int_not_equal(jsonschema(bad, true), 0);
	unlink(bad);
	free(bad);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

/* A NUL of host text (stored form C0 80) reaches a finding as the four
 * characters \x00, in every renderer, never cut and never as C0 80. */
static void finding_shows_host_nul_visibly(void **state)
{
	struct pc_findings f = PC_FINDINGS_INIT;
	char *v;
	cJSON *j;

	(void)state;
	v = pc_finding_visible("a\xc0\x80" "b\xc0\x80");
	assert_string_equal(v, "a\\x00b\\x00");
	free(v);
	v = pc_finding_visible(NULL);
	assert_string_equal(v, "");
	free(v);
	pc_findings_add(&f, "PC-HOOK-002", "plugin.json", "reason '%s'",
			"deny\xc0\x80tail");
	assert_string_equal(f.v[0].message, "reason 'deny\\x00tail'");
	j = pc_finding_json(&f.v[0]);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(j, "message")->valuestring,
			    "reason 'deny\\x00tail'");
	cJSON_Delete(j);
	pc_findings_release(&f);
}

/* A skipped case always says why: never a null or empty message
 * (docs/check-json.md; issue 20). */
static void skip_always_has_a_reason(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t a, b;

	(void)state;
	a = pc_report_add_case(&r, "c", "a", NULL, 0);
	b = pc_report_add_case(&r, "c", "b", NULL, 0);
	pc_report_skip(&r, a, NULL);
	pc_report_skip(&r, b, "");
	pc_report_finish(&r);
	assert_int_equal(r.cases[a].status, PC_CASE_SKIP);
	assert_string_equal(r.cases[a].message, "skipped (no reason was given)");
	assert_string_equal(r.cases[b].message, "skipped (no reason was given)");
	pc_report_release(&r);
}

/* install-check's renaming of its temporary directories (issue 20):
 * whole path components only, everywhere a path is shown. */
static void rename_path_whole_components(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t c;

	(void)state;
	r.host_error = pc_xstrdup("in \"/tmp/x/e/p\": bad; /tmp/x/e/pq kept");
	pc_strvec_push(&r.host_log, "[plugins] loaded /tmp/x/e/p/plugin.json");
	pc_report_add_load(&r, "project", false, "(in \"/tmp/x/e/p\")");
	c = pc_report_add_case(&r, "plugcheck.load", "load /tmp/x/e/p",
			       "cwd /tmp/x/e/p.d", 0);
	pc_report_find(&r, c, "PC-LOAD-001", "plugin.json", NULL,
		       "failed in /tmp/x/e/p: x");
	pc_report_rename_path(&r, "/tmp/x/e/p", "a.zip:p");
	assert_string_equal(r.host_error, "in \"a.zip:p\": bad; /tmp/x/e/pq kept");
	assert_string_equal(r.host_log.v[0], "[plugins] loaded a.zip:p/plugin.json");
	assert_string_equal(r.loads[0].detail, "(in \"a.zip:p\")");
	assert_string_equal(r.cases[c].name, "load a.zip:p");
	assert_string_equal(r.cases[c].system_out, "cwd /tmp/x/e/p.d");
	assert_string_equal(r.cases[c].findings.v[0].message, "failed in a.zip:p: x");
	pc_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finding_shows_host_nul_visibly),
		cmocka_unit_test(format_parse_names),
		cmocka_unit_test(rename_path_whole_components),
		cmocka_unit_test(skip_always_has_a_reason),
		cmocka_unit_test(add_copies_and_release_empties),
		cmocka_unit_test(case_fails_by_its_findings),
		cmocka_unit_test(case_message_joins_failing_findings),
		cmocka_unit_test(skip_and_xfail_cases),
		cmocka_unit_test(find_static_uses_the_rule_case),
		cmocka_unit_test(renderers_and_exit_code_agree),
		cmocka_unit_test(group_status_from_cases),
		cmocka_unit_test(run_human_exact),
		cmocka_unit_test(run_json_scenarios),
		cmocka_unit_test(run_human_step_name_not_prefixed),
		cmocka_unit_test(fragment_round_trip),
		cmocka_unit_test(merge_once_drops_duplicates),
		cmocka_unit_test(merge_rejects_malformed_fragments),
		cmocka_unit_test(append_keeps_finding_order),
		cmocka_unit_test(write_rejects_unknown_format),
		cmocka_unit_test(json_small_exact),
		cmocka_unit_test(junit_small_exact),
		cmocka_unit_test(tap_small_exact),
		cmocka_unit_test(human_small_exact),
		cmocka_unit_test(human_groups_kinds_by_their_worst_finding),
		cmocka_unit_test(passing_report_exact),
		cmocka_unit_test(internal_case_is_shown_not_called_interrupted),
		cmocka_unit_test(junit_escapes_hostile_text),
		cmocka_unit_test(json_escapes_hostile_text),
		cmocka_unit_test(tap_escapes_hostile_text),
		cmocka_unit_test(human_escapes_hostile_text),
		cmocka_unit_test(run_human_escapes_hostile_text),
		cmocka_unit_test(write_reports_io_error),
		cmocka_unit_test(real_parsers_accept_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

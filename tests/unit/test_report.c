/* test_report.c - pc_report: building, pc_report_failed, and the four
 * renderers (exact output for a small report, escaping of hostile text),
 * plus validation of real output by real parsers: xmllint against
 * docs/junit.xsd and Python's jsonschema against docs/check.schema.json.
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

#include <cmocka.h>

#include "pc_err.h"
#include "pc_finding.h"
#include "pc_report.h"
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

static void assert_render(const struct pc_report *r, enum pc_report_format fmt,
			  const char *want)
{
	char *got = render(r, fmt, false);

	if (strcmp(got, want)) /* cmocka truncates long messages */
		fprintf(stderr, "--- got ---\n%s--- want ---\n%s---\n", got,
			want);
	assert_string_equal(got, want);
	free(got);
}

/* A loaded plugin with one warning, one note, one suppressed note, and a
 * passed, a failed and a skipped case; strict, so the warning fails. */
static void small_report(struct pc_report *r)
{
	struct pc_case *c;

	r->path = pc_xstrdup("plugins/demo");
	r->name = pc_xstrdup("demo");
	r->version = pc_xstrdup("1.0");
	r->loaded = true;
	pc_strvec_push(&r->capabilities, "hooks");
	pc_report_add_load(r, "plugin_dir", true, "");
	pc_report_add_load(
		r, "project", false,
		"[plugins] skipping untrusted project plugin 'demo'");
	pc_findings_add_at(&r->findings, "PC-HOOK-002", "hook pre_bash",
			   "timeout_ms is 0");
	pc_findings_add(&r->findings, "PC-MAN-002", "plugin.json",
			"version '1.0' is not MAJOR.MINOR.PATCH");
	pc_findings_add(&r->findings, "PC-CAP-001", "plugin.json",
			"no capabilities declared");
	r->findings.v[2].suppressed = true;
	pc_report_add_case(r, "plugcheck.static", "manifest", PC_CASE_PASS,
			   NULL, NULL, 0.0014);
	c = pc_report_add_case(r, "plugcheck.hook.pre_bash", "fire pre_bash",
			       PC_CASE_FAIL, "PC-HOOK-002: timeout_ms is 0",
			       "stdin: {}\nverdict: deny\n", 0.25);
	c->system_err = pc_xstrdup("[plugins] hook timed out\n");
	pc_report_add_case(r, "plugcheck.tool.t", "fire t", PC_CASE_SKIP,
			   "no tools declared", NULL, 0.0);
	r->strict = true;
	r->duration_s = 0.5;
}

static void format_parse_names(void **state)
{
	(void)state;
	assert_int_equal(pc_report_format_parse("human"), PC_REPORT_HUMAN);
	assert_int_equal(pc_report_format_parse("json"), PC_REPORT_JSON);
	assert_int_equal(pc_report_format_parse("junit"), PC_REPORT_JUNIT);
	assert_int_equal(pc_report_format_parse("tap"), PC_REPORT_TAP);
	assert_int_equal(pc_report_format_parse("JSON"), -1);
	assert_int_equal(pc_report_format_parse(""), -1);
	assert_int_equal(pc_report_format_parse(NULL), -1);
}

static void add_copies_and_release_empties(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char name[] = "n";
	struct pc_case *c;

	(void)state;
	c = pc_report_add_case(&r, "cls", name, PC_CASE_SKIP, NULL, "out", 1.5);
	name[0] = 'x';
	assert_string_equal(c->name, "n");
	assert_null(c->message);
	assert_null(c->system_err);
	assert_null(c->rule);
	assert_string_equal(c->system_out, "out");
	c->rule = pc_xstrdup("PC-MAN-002");
	pc_report_add_load(&r, "global", false, NULL);
	assert_string_equal(r.loads[0].detail, "");
	assert_int_equal(r.ncases, 1);
	pc_report_release(&r);
	assert_int_equal(r.ncases, 0);
	assert_null(r.cases);
	assert_int_equal(r.nloads, 0);
	assert_int_equal(r.findings.nr, 0);
	pc_report_release(&r); /* inert: a second release is harmless */
}

static void failed_follows_severity_strict_and_suppression(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	assert_false(pc_report_failed(&r));
	pc_findings_add(&r.findings, "PC-MAN-002", NULL, "note");
	r.strict = true;
	assert_false(pc_report_failed(&r)); /* notes never fail */
	pc_findings_add_at(&r.findings, "PC-HOOK-002", "hook x", "warning");
	r.strict = false;
	assert_false(pc_report_failed(&r));
	r.strict = true;
	assert_true(pc_report_failed(&r));
	r.findings.v[1].suppressed = true;
	assert_false(pc_report_failed(&r));
	r.strict = false;
	pc_findings_add(&r.findings, "PC-LOAD-001", NULL, "error");
	assert_true(pc_report_failed(&r));
	pc_strvec_push(&r.suppressed_ids, "PC-LOAD-001");
	assert_false(pc_report_failed(&r)); /* suppressed by id */
	pc_report_release(&r);
}

static void write_rejects_unknown_format(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	assert_int_equal(
		pc_report_write(&r, (enum pc_report_format)42, stdout, false),
		PC_EINVAL);
}

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
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"a zero timeout makes every call time out; raise timeout_ms or remove it to get the default\",\n"
	"      \"id\": \"PC-HOOK-002\",\n"
	"      \"message\": \"timeout_ms is 0\",\n"
	"      \"rule\": \"R5.11\",\n"
	"      \"severity\": \"warning\",\n"
	"      \"suppressed\": false,\n"
	"      \"where\": \"hook pre_bash\"\n"
	"    },\n"
	"    {\n"
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver\",\n"
	"      \"id\": \"PC-MAN-002\",\n"
	"      \"message\": \"version '1.0' is not MAJOR.MINOR.PATCH\",\n"
	"      \"rule\": \"§2.2, R12.2.1\",\n"
	"      \"severity\": \"note\",\n"
	"      \"suppressed\": false,\n"
	"      \"where\": \"\"\n"
	"    },\n"
	"    {\n"
	"      \"file\": \"plugin.json\",\n"
	"      \"fix\": \"declare \\\"capabilities\\\" with exactly the inferred list so a future host that requires declarations keeps loading the plugin\",\n"
	"      \"id\": \"PC-CAP-001\",\n"
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
	"  \"schema_version\": 1,\n"
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
	"  warning PC-HOOK-002 [R5.11] hook pre_bash: timeout_ms is 0\n"
	"      fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get the default\n"
	"\n"
	"PC-MAN\n"
	"  note PC-MAN-002 [§2.2, R12.2.1] plugin.json: version '1.0' is not MAJOR.MINOR.PATCH\n"
	"      fix: use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver\n"
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
 * quadratic pairwise scan; its replacement must keep this order). */
static void human_groups_kinds_by_their_worst_finding(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	pc_findings_add(&r.findings, "PC-MAN-002", "plugin.json", "note first");
	pc_findings_add_at(&r.findings, "PC-HOOK-002", "hook pre_bash",
			   "warning second");
	pc_findings_add(&r.findings, "PC-MAN-001", "plugin.json",
			"warning third");
	pc_findings_add(&r.findings, "PC-CAP-001", "plugin.json",
			"note fourth");
	assert_render(
		&r, PC_REPORT_HUMAN,
		"host: loaded p (p)\n"
		"\n"
		"PC-HOOK\n"
		"  warning PC-HOOK-002 [R5.11] hook pre_bash: warning second\n"
		"      fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get the default\n"
		"\n"
		"PC-MAN\n"
		"  warning PC-MAN-001 [R2.5] plugin.json: warning third\n"
		"      fix: rename the directory or the plugin: install copies it to <root>/<name>, so paths differ after installation\n"
		"  note PC-MAN-002 [§2.2, R12.2.1] plugin.json: note first\n"
		"      fix: use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver\n"
		"\n"
		"PC-CAP\n"
		"  note PC-CAP-001 [R3.3] plugin.json: note fourth\n"
		"      fix: declare \"capabilities\" with exactly the inferred list so a future host that requires declarations keeps loading the plugin\n"
		"\n"
		"0 error(s), 2 warning(s), 2 note(s), 0 suppressed \xe2\x80\x94 PASS\n");
	pc_report_release(&r);
}

/* check -j: a worker that died lost its unit. The human summary names
 * the lost unit (the "see its plugcheck.internal cases" of stderr must
 * be findable in the default format) and does not call the run
 * interrupted; TAP says the same. A fresh-user trial found "cases: 38
 * run, 1 failed" with no failure shown and "incomplete: the run was
 * interrupted" after a script's `kill -9 $PPID` killed its worker. */
static void internal_case_is_shown_not_called_interrupted(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	char *x;

	(void)state;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	pc_report_add_case(&r, "plugcheck.tool.a", "fire a", PC_CASE_PASS,
			   NULL, NULL, 0.0);
	pc_report_add_case(&r, PC_CASE_INTERNAL, "tool b", PC_CASE_FAIL,
			   "plugcheck: the worker process died of signal 9",
			   NULL, 0.0);
	r.incomplete = true;
	assert_render(
		&r, PC_REPORT_HUMAN,
		"host: loaded p (p)\n"
		"\n"
		"no findings\n"
		"\n"
		"cases: 2 run, 1 failed, 0 skipped\n"
		"internal: tool b: plugcheck: the worker process died of signal 9\n"
		"incomplete: plugcheck lost part of the run (internal above)\n"
		"0 error(s), 0 warning(s), 0 note(s), 0 suppressed \xe2\x80\x94 INCOMPLETE\n");
	x = render(&r, PC_REPORT_TAP, false);
	assert_non_null(strstr(x, "not ok 2 - plugcheck.internal: tool b\n"));
	assert_non_null(strstr(
		x, "# plugcheck: incomplete: plugcheck lost part of the run "
		   "(the plugcheck.internal cases)\n"));
	assert_null(strstr(x, "interrupted"));
	free(x);
	/* interrupted, with no internal case: as before */
	pc_report_release(&r);
	r = (struct pc_report)PC_REPORT_INIT;
	r.path = pc_xstrdup("p");
	r.name = pc_xstrdup("p");
	r.loaded = true;
	r.incomplete = true;
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

static void hostile_report(struct pc_report *r)
{
	struct pc_case *c;

	r->path = pc_xstrdup(hostile);
	r->name = pc_xstrdup(hostile);
	r->version = pc_xstrdup(hostile);
	r->host_error = pc_xstrdup(hostile);
	pc_strvec_push(&r->capabilities, hostile);
	pc_report_add_load(r, "global", false, hostile);
	pc_findings_add_at(&r->findings, "PC-LOAD-001", hostile, "%s", hostile);
	pc_findings_add(&r->findings, "PC-HOOK-002", hostile, "%s", hostile);
	pc_strvec_push(&r->suppressed_ids, "PC-HOOK-002");
	c = pc_report_add_case(r, hostile, hostile, PC_CASE_FAIL, hostile,
			       hostile, -1.0);
	c->system_err = pc_xstrdup(hostile);
	c->rule = pc_xstrdup(hostile);
	pc_report_add_case(r, hostile, hostile, PC_CASE_SKIP, hostile, NULL,
			   1e300);
	pc_report_add_case(r, hostile, hostile, PC_CASE_FAIL, NULL, NULL, 0.0);
	r->incomplete = true;
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
	assert_non_null(strstr(x, "<failure message=\"failed\" "
				  "type=\"plugcheck\">failed</failure>"));
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
	assert_non_null(strstr(
		x,
		"  message: \"<a&b \\\"q\\\" 'a'> ]]> \\x01\\x08\\x0b\\x0c\\x0e"
		"\\x1b[31m\\x1f " FFFD FFFD FFFD " \\r\\n tab\\t # hash \\\\ "
		"\\ufffe \\x9b end\"\n"));
	assert_non_null(strstr(x, "not ok 3 - "));
	assert_non_null(
		strstr(x, "  message: \"failed\"\n  rule: \"plugcheck\"\n"));
	assert_non_null(strstr(x, "\n# plugcheck: 1 errors, 0 warnings, "
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

static void write_reports_io_error(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	small_report(&r);
	assert_int_equal(pc_report_write(&r, PC_REPORT_JUNIT, f, false),
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
	validate(dir, &r); /* empty: no path, no name, no cases */
	small_report(&r);
	validate(dir, &r);
	pc_report_release(&r);
	hostile_report(&r);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(format_parse_names),
		cmocka_unit_test(add_copies_and_release_empties),
		cmocka_unit_test(
			failed_follows_severity_strict_and_suppression),
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
		cmocka_unit_test(write_reports_io_error),
		cmocka_unit_test(real_parsers_accept_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* pc_report_junit.c - JUnit XML in the Jenkins/Ant form (docs/junit.xsd).
 *
 * Everything is escaped as character data, never CDATA, so "]]>" in a
 * plugin's output is plain text ("]]&gt;"). Characters XML 1.0 does not
 * allow (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become the
 * text "\xNN" or U+FFFD; CR is written as &#13; so parsers keep it, and in
 * attributes tab and LF are character references too, which survive
 * attribute-value normalisation.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_xalloc.h"

static bool xml_entity(FILE *out, unsigned cp)
{
	switch (cp) {
	case '&':
		fputs("&amp;", out);
		return true;
	case '<':
		fputs("&lt;", out);
		return true;
	case '>':
		fputs("&gt;", out);
		return true;
	case '"':
		fputs("&quot;", out);
		return true;
	case '\'':
		fputs("&apos;", out);
		return true;
	case '\r':
		fputs("&#13;", out);
		return true;
	default:
		return false;
	}
}

static void xml_other(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp < 0x20 && cp != '\t' && cp != '\n')
		fprintf(out, "\\x%02x", cp);
	else if (cp == 0xfffe || cp == 0xffff)
		fputs("\xef\xbf\xbd", out);
	else
		fwrite(raw, 1, n, out);
}

static void esc_text(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (!xml_entity(out, cp))
		xml_other(out, cp, raw, n);
}

static void esc_attr(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '\t')
		fputs("&#9;", out);
	else if (cp == '\n')
		fputs("&#10;", out);
	else if (!xml_entity(out, cp))
		xml_other(out, cp, raw, n);
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	pc__report_escape(out, value, esc_attr);
	fputc('"', out);
}

static void property(FILE *out, const char *name, const char *value)
{
	if (!value)
		return;
	fputs("      <property", out);
	attr(out, "name", name);
	attr(out, "value", value);
	fputs("/>\n", out);
}

static void properties(const struct pc_report *r, FILE *out)
{
	fputs("    <properties>\n", out);
	property(out, "plugcheck.version", PC_VERSION);
	property(out, "plugin.path", r->path ? r->path : "");
	property(out, "plugin.name", r->name);
	property(out, "plugin.version", r->version);
	property(out, "plugin.loaded", r->loaded ? "true" : "false");
	property(out, "plugin.host_error", r->host_error);
	property(out, "strict", r->strict ? "true" : "false");
	property(out, "incomplete", r->incomplete ? "true" : "false");
	fputs("    </properties>\n", out);
}

/* The counters and time shared by <testsuites> and <testsuite>. */
static void totals(const struct pc_report *r, FILE *out)
{
	const struct pc_report_counts *c = &r->counts;

	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"0\"", r->ncases,
		c->failed);
	/* an expected failure is a <skipped> with the reason */
	fprintf(out, " skipped=\"%zu\" time=\"", c->skipped + c->xfailed);
	pc__report_put_seconds(out, r->duration_s);
	fputc('"', out);
}

static void element(FILE *out, const char *tag, const char *text)
{
	if (!text)
		return;
	fprintf(out, "      <%s>", tag);
	pc__report_escape(out, text, esc_text);
	fprintf(out, "</%s>\n", tag);
}

static void failure(const struct pc_case *c, FILE *out)
{
	const struct pc_rule *rule = c->rule;
	const char *id = rule ? rule->id : NULL;
	const char *msg = c->message ? c->message : "failed";

	fputs("      <failure", out);
	attr(out, "message", msg);
	attr(out, "type", id ? id : "plugcheck");
	fputc('>', out);
	pc__report_escape(out, msg, esc_text);
	if (rule) {
		fprintf(out, "\n\n%s (%s, %s): ", rule->id,
			pc_severity_name(rule->severity), rule->spec);
		pc__report_escape(out, rule->title, esc_text);
		fputs("\nfix: ", out);
		pc__report_escape(out, c->fix ? c->fix : rule->fix, esc_text);
	}
	fputs("</failure>\n", out);
}

static void testcase(const struct pc_case *c, FILE *out)
{
	fputs("    <testcase", out);
	attr(out, "classname", c->classname);
	attr(out, "name", c->name);
	fputs(" time=\"", out);
	pc__report_put_seconds(out, c->time_s);
	fputc('"', out);
	if (c->status == PC_CASE_PASS && !c->system_out && !c->system_err) {
		fputs("/>\n", out);
		return;
	}
	fputs(">\n", out);
	if (c->status == PC_CASE_FAIL) {
		failure(c, out);
	} else if (c->status == PC_CASE_SKIP) {
		fputs("      <skipped", out);
		if (c->message)
			attr(out, "message", c->message);
		fputs("/>\n", out);
	} else if (c->status == PC_CASE_XFAIL) {
		char *m = pc_xasprintf("expected failure: %s",
				       c->message ? c->message : "");

		fputs("      <skipped", out);
		attr(out, "message", m);
		fputs("/>\n", out);
		free(m);
	}
	element(out, "system-out", c->system_out);
	element(out, "system-err", c->system_err);
	fputs("    </testcase>\n", out);
}

void pc__report_junit(const struct pc_report *r, FILE *out)
{
	const char *who = r->name ? r->name : r->path ? r->path : "";

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fputs("<testsuites name=\"plugcheck\"", out);
	totals(r, out);
	fputs(">\n  <testsuite name=\"plugcheck: ", out);
	pc__report_escape(out, who, esc_attr);
	fputc('"', out);
	totals(r, out);
	fputs(">\n", out);
	properties(r, out);
	for (size_t i = 0; i < r->ncases; i++)
		testcase(&r->cases[i], out);
	fputs("  </testsuite>\n</testsuites>\n", out);
}

/* pc_report_tap.c - TAP version 13: one test point per case, a YAML
 * diagnostic block under each failure, and the finding counts last.
 *
 * A test line must stay one line and its description must not start a
 * directive, so descriptions and SKIP reasons escape "\" as "\\", "#" as
 * "\#" and control characters as "\xNN" / "\u{NN}". YAML values are
 * double-quoted scalars with YAML escapes for everything not printable.
 */
#include <stdbool.h>

#include "pc_report.h"
#include "pc_report_impl.h"

static void esc_line(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '\\' || cp == '#')
		fprintf(out, "\\%c", (char)cp);
	else
		pc__report_esc_visible(out, cp, raw, n);
}

static bool yaml_printable(unsigned cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return false;
	/* U+2028/9 are line breaks in YAML 1.1; U+FEFF a byte order mark */
	return cp != 0x2028 && cp != 0x2029 && cp != 0xfeff && cp != 0xfffe &&
	       cp != 0xffff;
}

static void esc_yaml(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '"' || cp == '\\')
		fprintf(out, "\\%c", (char)cp);
	else if (cp == '\n')
		fputs("\\n", out);
	else if (cp == '\t')
		fputs("\\t", out);
	else if (cp == '\r')
		fputs("\\r", out);
	else if (!yaml_printable(cp) && cp < 0x100)
		fprintf(out, "\\x%02x", cp);
	else if (!yaml_printable(cp))
		fprintf(out, "\\u%04x", cp);
	else
		fwrite(raw, 1, n, out);
}

static void yaml_key(FILE *out, const char *key, const char *value)
{
	fprintf(out, "  %s: \"", key);
	pc__report_escape(out, value, esc_yaml);
	fputs("\"\n", out);
}

static void diagnostics(const struct pc_case *c, FILE *out)
{
	const struct pc_rule *rule = c->rule;
	const char *id = rule ? rule->id : NULL;

	fputs("  ---\n", out);
	yaml_key(out, "message", c->message ? c->message : "failed");
	yaml_key(out, "rule", id ? id : "plugcheck");
	if (rule) {
		yaml_key(out, "severity", pc_severity_name(rule->severity));
		yaml_key(out, "fix", c->fix ? c->fix : rule->fix);
	}
	fputs("  ...\n", out);
}

static void test_point(const struct pc_case *c, size_t n, FILE *out)
{
	bool bad = c->status == PC_CASE_FAIL || c->status == PC_CASE_XFAIL;

	fprintf(out, "%s %zu - ", bad ? "not ok" : "ok", n);
	pc__report_escape(out, c->classname, esc_line);
	fputs(": ", out);
	pc__report_escape(out, c->name, esc_line);
	if (c->status == PC_CASE_SKIP) {
		fputs(" # SKIP", out);
		if (c->message && *c->message) {
			fputc(' ', out);
			pc__report_escape(out, c->message, esc_line);
		}
	}
	if (c->status == PC_CASE_XFAIL) {
		/* TAP's TODO: a known failure that does not fail the run */
		fputs(" # TODO expected failure", out);
	}
	fputc('\n', out);
	if (bad)
		diagnostics(c, out);
}

void pc__report_tap(const struct pc_report *r, FILE *out)
{
	const struct pc_report_counts c = r->counts;

	fprintf(out, "TAP version 13\n1..%zu\n", r->ncases);
	for (size_t i = 0; i < r->ncases; i++)
		test_point(&r->cases[i], i + 1, out);
	if (r->incomplete)
		fputs(c.internal ? "# plugcheck: incomplete: plugcheck lost part "
				   "of the run (the plugcheck.internal cases)\n"
				 : "# plugcheck: incomplete: the run was "
				   "interrupted\n",
		      out);
	/* A failed scenario is a failed case, not a finding: without this
	 * line the summary of a failing `run` read "0 errors". */
	if (r->ncases)
		fprintf(out, "# plugcheck: cases: %zu run, %zu failed, %zu skipped\n",
			r->ncases, c.failed, c.skipped);
	fprintf(out,
		"# plugcheck: %zu errors, %zu warnings, %zu notes, %zu suppressed\n",
		c.errors, c.warnings, c.notes, c.suppressed);
}

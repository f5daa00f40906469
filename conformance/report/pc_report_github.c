/* pc_report_github.c - `--format github`: one GitHub Actions workflow
 * command per unsuppressed finding, which the runner turns into an
 * annotation on the file and line (docs/cli.md "GitHub annotations"):
 *
 *   ::error file=PATH,line=L,col=C,title=ID%3A TITLE::MESSAGE%0Afix: FIX
 *
 * severity error -> ::error, warning -> ::warning, note -> ::notice, in
 * the order found; then the human form, so the log still reads as it
 * does in a terminal.
 *
 * Escaping is the one the runner undoes: in the message % CR LF become
 * %25 %0D %0A, in a property also : and , become %3A and %2C. Other
 * control characters are written as the human form writes them (\xNN),
 * so nothing a plugin prints can end the line and start a command of its
 * own. The human form after the annotations is plugin text too: a line of
 * it that would read as a workflow command (starting with "::" or "##["
 * after blanks, e.g. from a multi-line host error) is written with a
 * leading "| ".
 */
#include <stdlib.h>
#include <string.h>

#include "pc_report.h"
#include "pc_report_impl.h"

static void esc_common(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == '%')
		fputs("%25", out);
	else if (cp == '\r')
		fputs("%0D", out);
	else if (cp == '\n')
		fputs("%0A", out);
	else if (cp == '\t')
		fputc('\t', out);
	else
		pc__report_esc_visible(out, cp, raw, n);
}

static void esc_data(FILE *out, unsigned cp, const char *raw, size_t n)
{
	esc_common(out, cp, raw, n);
}

static void esc_property(FILE *out, unsigned cp, const char *raw, size_t n)
{
	if (cp == ':')
		fputs("%3A", out);
	else if (cp == ',')
		fputs("%2C", out);
	else
		esc_common(out, cp, raw, n);
}

static const char *command(enum pc_severity s)
{
	return s == PC_SEV_ERROR     ? "error"
	       : s == PC_SEV_WARNING ? "warning"
				     : "notice";
}

static void annotation(const struct pc_report *r, const struct pc_finding *f,
		       FILE *out)
{
	const struct pc_rule *rule = f->rule;
	char *path = pc_report_finding_path(r, f);

	fprintf(out, "::%s ", command(rule->severity));
	if (path) {
		fputs("file=", out);
		pc__report_escape(out, path, esc_property);
		if (f->line)
			fprintf(out, ",line=%u", f->line);
		if (f->line && f->column)
			fprintf(out, ",col=%u", f->column);
		fputc(',', out);
		free(path);
	}
	fputs("title=", out);
	pc__report_escape(out, rule->id, esc_property);
	fputs("%3A ", out);
	pc__report_escape(out, rule->title, esc_property);
	fputs("::", out);
	if (f->where && *f->where) {
		pc__report_escape(out, f->where, esc_data);
		fputs(": ", out);
	}
	pc__report_escape(out, f->message, esc_data);
	fputs("%0Afix: ", out);
	pc__report_escape(out, pc_finding_fix(f), esc_data);
	fprintf(out, "%%0A(see `plugcheck explain %s`)\n", rule->id);
}

/* Would the runner read `line` as a workflow command? */
static bool commandlike(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return (n - i >= 2 && !memcmp(line + i, "::", 2)) ||
	       (n - i >= 3 && !memcmp(line + i, "##[", 3));
}

void pc_report_github_text(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t k = nl ? (size_t)(nl - (text + i)) + 1 : len - i;

		if (commandlike(text + i, k))
			fputs("| ", out);
		fwrite(text + i, 1, k, out);
		i += k;
	}
}

void pc_report_github_annotations(const struct pc_report *r, FILE *out)
{
	size_t n;
	const struct pc_finding **v = pc_report_findings(r, &n);

	for (size_t i = 0; i < n; i++)
		if (!v[i]->suppressed)
			annotation(r, v[i], out);
	free(v);
}

void pc__report_github(const struct pc_report *r, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	pc_report_github_annotations(r, out);
	if (!(mem = open_memstream(&buf, &len))) {
		fputs("plugcheck: the human report could not be rendered "
		      "(out of memory)\n",
		      out);
		return;
	}
	if (r->kind && !strcmp(r->kind, "run"))
		pc__report_run_human(r, mem);
	else
		pc__report_human(r, mem, false);
	fclose(mem);
	pc_report_github_text(out, buf, len);
	free(buf);
}

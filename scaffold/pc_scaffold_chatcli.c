/* pc_scaffold_chatcli.c - `plugcheck new --host chatcli`: one executable
 * plugin answering --metadata/--schema (chatcli.md M3, S4) and the argv
 * forms of A7/A8, with a test script and signing CI (G1-G5). */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_scaffold.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

/* The schema as a C string literal, one source line per JSON line. */
static char *c_literal(const char *json)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *p = json;

	pc_buf_adds(&b, "");
	while (*p) {
		pc_buf_adds(&b, "\t\"");
		for (; *p && *p != '\n'; p++) {
			if (*p == '"' || *p == '\\')
				pc_buf_addch(&b, '\\');
			pc_buf_addch(&b, *p);
		}
		pc_buf_adds(&b, "\\n\"");
		if (*p == '\n')
			p++;
		if (*p)
			pc_buf_addch(&b, '\n');
	}
	return pc_buf_detach(&b, NULL);
}

static int plan_file(const struct pc_scaffold_opts *o, const char *tmpl,
		     const char *path, bool exec, const char *const *kv,
		     struct pc__scaffold_plan *plan, struct pc_err *err)
{
	char *text = NULL;
	int rc = pc__scaffold_render_template(o->templates, tmpl, kv, &text,
					      err);

	if (!rc)
		pc__scaffold_plan_take(plan, path, text, exec);
	return rc;
}

int pc__scaffold_new_chatcli(const struct pc_scaffold_opts *o,
			     struct pc_strvec *written, struct pc_err *err)
{
	struct pc__scaffold_plan plan = { 0 };
	bool c = !strcmp(o->lang, "c");
	char *schema = NULL, *schema_c = NULL, *bin, *src, *tmpl, *build,
	     *ignore, *note;
	int rc;

	rc = pc__scaffold_render_template(o->templates, "chatcli/schema.json",
					  (const char *const[]){ NULL },
					  &schema, err);
	if (rc)
		return rc;
	while (*schema && schema[strlen(schema) - 1] == '\n')
		schema[strlen(schema) - 1] = '\0';
	schema_c = c_literal(schema);
	bin = pc_xasprintf("bin/%s", o->name);
	src = c ? pc_xasprintf("src/%s.c", o->name) : pc_xstrdup(bin);
	tmpl = pc_xasprintf("chatcli/%s/plugin.%s", o->lang,
			    c		      ? "c.in"
			    : *o->lang == 'p' ? "py"
					      : "sh");
	build = c ? pc_xstrdup(
			    "make                                 # builds bin/ from src/\n")
		  : pc_xstrdup("");
	ignore = pc_xstrdup("");
	note = pc_xstrdup("");
	if (c) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		if (pc__scaffold_quote("word", 4, bin, &b))
			rc = pc_err_set(
				err, PC_EINVAL,
				"'%s' cannot be a .gitignore line: use letters, digits and _ - . only",
				bin);
		pc_buf_adds(&b, "\n");
		pc__scaffold_quote("word", 4, bin, &b);
		pc_buf_adds(&b, ".sig\n");
		free(ignore);
		ignore = pc_buf_detach(&b, NULL);
		pc_buf_adds(&b, ", built from ");
		pc__scaffold_quote("code", 4, src, &b);
		pc_buf_adds(&b, " by `make`");
		free(note);
		note = pc_buf_detach(&b, NULL);
	}
	if (!rc) {
		const char *kv[] = { "PLUGIN", o->name,	      "SCHEMA",
				     schema,   "SCHEMA_C",    schema_c,
				     "BUILD",  build,	      "BUILD_IGNORE",
				     ignore,   "SOURCE_NOTE", note,
				     NULL };

		rc = plan_file(o, tmpl, src, !c, kv, &plan, err);
		if (!rc && c)
			rc = plan_file(o, "chatcli/c/Makefile.in", "Makefile",
				       false, kv, &plan, err);
		if (!rc)
			rc = plan_file(o, "chatcli/tests/run.sh",
				       "tests/run.sh", true, kv, &plan, err);
		if (!rc)
			rc = plan_file(o, "chatcli/README.md", "README.md",
				       false, kv, &plan, err);
		if (!rc)
			rc = plan_file(o, "chatcli/ci/github.yml",
				       ".github/workflows/plugcheck.yml", false,
				       kv, &plan, err);
		if (!rc)
			rc = plan_file(o, "chatcli/ci/gitlab.yml",
				       ".gitlab-ci.yml", false, kv, &plan, err);
		if (!rc)
			rc = plan_file(o, "chatcli/gitignore", ".gitignore",
				       false, kv, &plan, err);
	}
	if (!rc)
		rc = pc__scaffold_plan_write(&plan, o->dir, o->force, written,
					     err);
	free(schema);
	free(schema_c);
	free(bin);
	free(src);
	free(tmpl);
	free(build);
	free(ignore);
	free(note);
	pc__scaffold_plan_release(&plan);
	return rc;
}

/* pc_scaffold_new.c - whole plugins (`new`) and single parts (`add`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_scaffold.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

#define MANIFEST_MAX (1u << 20)

static int check_opts(const struct pc_scaffold_opts *o, struct pc_err *err)
{
	if (!o->lang || (strcmp(o->lang, "sh") && strcmp(o->lang, "python") &&
			 strcmp(o->lang, "c")))
		return pc_err_set(err, PC_EINVAL,
				  "unknown language '%s' (use sh, python or c)",
				  o->lang ? o->lang : "");
	if (o->host == PC_SCAFFOLD_CHATCLI && (o->nparts || o->system_prompt))
		return pc_err_set(
			err, PC_EINVAL,
			"a ChatCLI plugin is one executable: --hook, --tool, --command, --oauth, --memory and --system-prompt are for --host catalyst");
	return 0;
}

/* The members of one manifest section, one per line. */
static void section(struct pc_buf *m, const char *key, char open, char close,
		    const struct pc_buf *items)
{
	pc_buf_addf(m, ",\n  \"%s\": %c\n%s\n  %c", key, open,
		    pc_buf_cstr(items), close);
}

static void add_item(struct pc_buf *items, const struct pc_buf *frag)
{
	if (items->len)
		pc_buf_adds(items, ",\n");
	pc_buf_addf(items, "    %s", pc_buf_cstr(frag));
}

/* Append `before`, `s` quoted by `filter`, then `after`. */
static void add_quoted(struct pc_buf *b, const char *before, const char *filter,
		       const char *s, const char *after)
{
	pc_buf_adds(b, before);
	pc__scaffold_quote(filter, strlen(filter), s, b);
	pc_buf_adds(b, after);
}

static void manifest_head(struct pc_buf *m, const struct pc_scaffold_opts *o)
{
	struct pc_strvec caps = PC_STRVEC_INIT;

	pc_scaffold_capabilities(o->parts, o->nparts, &caps);
	add_quoted(m, "{\n  \"name\": \"", "json", o->name,
		   "\",\n  \"version\": \"0.1.0\",\n");
	add_quoted(m, "  \"description\": \"Describe what ", "json", o->name,
		   " does.\",\n  \"capabilities\": [");
	for (size_t i = 0; i < caps.nr; i++)
		pc_buf_addf(m, "%s\"%s\"", i ? ", " : "", caps.v[i]);
	pc_buf_adds(m, "]");
	pc_strvec_release(&caps);
}

static void readme_line(struct pc_buf *parts, const struct pc_scaffold_part *p)
{
	char *slashed = pc_xasprintf("/%s", p->name ? p->name : "");

	switch (p->kind) {
	case PC_SCAFFOLD_HOOK:
		add_quoted(parts, "- hook ", "code", p->name,
			   p->blocking ? " (blocking: denies on failure)\n"
				       : " (advisory)\n");
		break;
	case PC_SCAFFOLD_TOOL:
		add_quoted(parts, "- tool ", "code", p->name,
			   p->readonly ? " (readonly)\n" : " (destructive)\n");
		break;
	case PC_SCAFFOLD_COMMAND:
		add_quoted(parts, "- slash command ", "code", slashed,
			   p->prompt ? " (prompt template)\n" : " (script)\n");
		break;
	case PC_SCAFFOLD_OAUTH:
		add_quoted(parts, "- OAuth provider ", "code", p->name, "\n");
		break;
	case PC_SCAFFOLD_MEMORY:
		pc_buf_adds(parts, "- memory provider\n");
		break;
	}
	free(slashed);
}

static int plan_static(const struct pc_scaffold_opts *o,
		       const struct pc_buf *parts,
		       struct pc__scaffold_plan *plan, struct pc_err *err)
{
	static const char *const files[][2] = {
		{ "catalyst/README.md", "README.md" },
		{ "catalyst/ci/github.yml", ".github/workflows/plugcheck.yml" },
		{ "catalyst/ci/gitlab.yml", ".gitlab-ci.yml" },
		{ "catalyst/gitignore", ".gitignore" },
		{ "catalyst/c/Makefile.in", "Makefile" },
	};
	bool c = !strcmp(o->lang, "c");
	const char *kv[] = {
		"PLUGIN",
		o->name,
		"PARTS",
		pc_buf_cstr(parts),
		"BUILD",
		c ? "make                                # builds bin/ from src/\n"
		  : "",
		NULL
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = NULL;
		int rc;

		if (i == 4 && !c)
			break;
		rc = pc__scaffold_render_template(o->templates, files[i][0], kv,
						  &text, err);
		if (rc)
			return rc;
		pc__scaffold_plan_take(plan, files[i][1], text, false);
	}
	return 0;
}

int pc_scaffold_new(const struct pc_scaffold_opts *o, struct pc_strvec *written,
		    struct pc_err *err)
{
	struct pc__scaffold_plan plan = { 0 };
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf sec[5], frag = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf parts = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc = check_opts(o, err);

	if (rc)
		return rc;
	if (o->host == PC_SCAFFOLD_CHATCLI)
		return pc__scaffold_new_chatcli(o, written, err);
	for (size_t i = 0; i < 5; i++)
		pc_buf_init(&sec[i], PC_BUF_NOCAP);
	manifest_head(&m, o);
	pc_buf_adds(&parts, "");
	for (size_t i = 0; i < o->nparts && !rc; i++) {
		pc_buf_reset(&frag);
		rc = pc__scaffold_plan_part(o, o->name, &o->parts[i], &plan,
					    &frag, err);
		if (!rc)
			add_item(&sec[o->parts[i].kind], &frag);
		readme_line(&parts, &o->parts[i]);
	}
	if (rc)
		goto out;
	if (sec[PC_SCAFFOLD_HOOK].len)
		section(&m, "hooks", '{', '}', &sec[PC_SCAFFOLD_HOOK]);
	if (sec[PC_SCAFFOLD_TOOL].len)
		section(&m, "tools", '[', ']', &sec[PC_SCAFFOLD_TOOL]);
	if (sec[PC_SCAFFOLD_COMMAND].len)
		section(&m, "commands", '[', ']', &sec[PC_SCAFFOLD_COMMAND]);
	if (sec[PC_SCAFFOLD_OAUTH].len)
		pc_buf_addf(&m, ",\n  \"oauth\": %s",
			    pc_buf_cstr(&sec[PC_SCAFFOLD_OAUTH]) + 4);
	if (sec[PC_SCAFFOLD_MEMORY].len)
		pc_buf_addf(&m, ",\n  \"memory_provider\": %s",
			    pc_buf_cstr(&sec[PC_SCAFFOLD_MEMORY]) + 4);
	if (o->system_prompt) {
		add_quoted(&m,
			   ",\n  \"system_prompt\": \"Describe the standing instructions ",
			   "json", o->name, " gives the model.\"");
		pc_buf_adds(&parts, "- a system prompt fragment\n");
	}
	pc_buf_adds(&m, "\n}\n");
	pc__scaffold_plan_take(&plan, "plugin.json", pc_buf_detach(&m, NULL),
			       false);
	rc = plan_static(o, &parts, &plan, err);
	if (!rc)
		rc = pc__scaffold_plan_write(&plan, o->dir, o->force, written,
					     err);
out:
	for (size_t i = 0; i < 5; i++)
		pc_buf_release(&sec[i]);
	pc_buf_release(&m);
	pc_buf_release(&frag);
	pc_buf_release(&parts);
	pc__scaffold_plan_release(&plan);
	return rc;
}

static const char *detect_lang(const char *dir, const char *json)
{
	char *mk = pc_fs_join(dir, "Makefile");
	bool c = pc_fs_is_file(mk);

	free(mk);
	if (c)
		return "c";
	return strstr(json, ".py\"") ? "python" : "sh";
}

int pc_scaffold_add(const struct pc_scaffold_opts *o, struct pc_strvec *written,
		    struct pc_err *err)
{
	struct pc_scaffold_opts a = *o;
	struct pc__scaffold_plan plan = { 0 };
	struct pc_buf json = PC_BUF_INIT(MANIFEST_MAX);
	struct pc_buf frag = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_strvec caps = PC_STRVEC_INIT;
	char *mpath = pc_fs_join(o->dir, "plugin.json"), *name = NULL;
	int rc;

	if (!pc_fs_is_file(mpath)) {
		rc = pc_err_set(
			err, PC_ENOENT,
			"'%s' has no plugin.json: `plugcheck add` extends a Catalyst Code plugin directory (create one with `plugcheck new`; a ChatCLI plugin is one executable to edit)",
			o->dir);
		goto out;
	}
	rc = pc_fs_read_capped(mpath, &json, err);
	if (rc)
		goto out;
	name = pc__scaffold_json_top_string(pc_buf_cstr(&json), "name");
	if (!name) {
		rc = pc_err_set(err, PC_EPARSE, "'%s' has no string \"name\"",
				mpath);
		goto out;
	}
	a.name = name;
	if (!a.lang)
		a.lang = detect_lang(o->dir, pc_buf_cstr(&json));
	rc = check_opts(&a, err);
	if (!rc)
		rc = pc__scaffold_plan_part(&a, name, &o->parts[0], &plan,
					    &frag, err);
	pc_scaffold_capabilities(o->parts, 1, &caps);
	if (!rc)
		rc = pc__scaffold_json_add(&json, &o->parts[0],
					   pc_buf_cstr(&frag), &caps, err);
	if (!rc)
		rc = pc__scaffold_plan_write(&plan, o->dir, o->force, written,
					     err);
	if (!rc)
		rc = pc_fs_write(mpath, json.data, json.len, err);
	if (!rc)
		pc_strvec_push(written, "plugin.json");
out:
	free(mpath);
	free(name);
	pc_buf_release(&json);
	pc_buf_release(&frag);
	pc_strvec_release(&caps);
	pc__scaffold_plan_release(&plan);
	return rc;
}

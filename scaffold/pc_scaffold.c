/* pc_scaffold.c - template lookup, rendering and `new`/`add` plans. */
#include "pc_scaffold.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_scaffold_impl.h"
#include "pc_xalloc.h"

#define TEMPLATE_MAX (1u << 20)

/* The directory of the running executable (symlinks resolved), or NULL. */
static char *exe_dir(void)
{
	char *exe = pc_fs_realpath("/proc/self/exe"), *slash;

	if (!exe)
		return NULL;
	slash = strrchr(exe, '/');
	if (slash && slash != exe)
		*slash = '\0';
	else if (slash)
		slash[1] = '\0';
	return exe;
}

char *pc_scaffold_templates_dir(struct pc_err *err)
{
	/* 1. beside the binary, wherever the installed tree was put
	 * (cmake --install --prefix, DESTDIR, a .deb unpacked anywhere);
	 * 2. the source tree this binary was built from (build/dev/plugcheck
	 * runs before any install); 3. the configured install path. */
	static const char *const fixed[] = {
#ifdef PC_SCAFFOLD_SOURCE_TEMPLATES
		PC_SCAFFOLD_SOURCE_TEMPLATES,
#endif
#ifdef PC_SCAFFOLD_INSTALL_TEMPLATES
		PC_SCAFFOLD_INSTALL_TEMPLATES,
#endif
		NULL
	};
	struct pc_strvec where = PC_STRVEC_INIT;
	struct pc_buf looked = PC_BUF_INIT(PC_BUF_NOCAP);
	char *dir = exe_dir(), *probe, *found = NULL;

#ifdef PC_SCAFFOLD_RELATIVE_TEMPLATES
	if (dir) {
		char *rel = pc_fs_join(dir, PC_SCAFFOLD_RELATIVE_TEMPLATES);

		pc_strvec_push(&where, rel);
		free(rel);
	}
#endif
	free(dir);
	for (size_t i = 0; fixed[i]; i++)
		pc_strvec_push(&where, fixed[i]);
	for (size_t i = 0; i < where.nr && !found; i++) {
		probe = pc_fs_join(where.v[i], "catalyst/manifest/hook.json");
		if (pc_fs_is_file(probe))
			found = pc_xstrdup(where.v[i]);
		free(probe);
		pc_buf_addf(&looked, "%s'%s'", i ? ", " : "", where.v[i]);
	}
	if (!found)
		pc_err_set(
			err, PC_ENOENT,
			"cannot find the plugin templates: looked in %s; fix: "
			"reinstall plugcheck (the templates belong in "
			"share/plugcheck/templates beside its bin/)",
			where.nr ? looked.data
				 : "no place (built without one)");
	pc_buf_release(&looked);
	pc_strvec_release(&where);
	return found;
}

static void add_cap(struct pc_strvec *caps, const char *c)
{
	size_t i = 0;
	char *last;

	while (i < caps->nr && strcmp(caps->v[i], c) < 0)
		i++;
	if (i < caps->nr && !strcmp(caps->v[i], c))
		return;
	pc_strvec_push(caps, c);
	last = caps->v[caps->nr - 1];
	memmove(&caps->v[i + 1], &caps->v[i],
		(caps->nr - 1 - i) * sizeof(caps->v[0]));
	caps->v[i] = last;
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

void pc_scaffold_capabilities(const struct pc_scaffold_part *parts,
			      size_t nparts, struct pc_strvec *out)
{
	static const char *const prompts[] = { "pre_input", "pre_context",
					       "pre_turn", "turn_start", NULL };
	static const char *const responses[] = { "post_tool", "turn_end",
						 "session_stop", NULL };

	for (size_t i = 0; i < nparts; i++) {
		const struct pc_scaffold_part *p = &parts[i];

		switch (p->kind) {
		case PC_SCAFFOLD_HOOK:
			add_cap(out, "execute_subprocess");
			if (p->pass_args)
				add_cap(out, "receive_tool_arguments");
			if (in_list(p->name, prompts))
				add_cap(out, "receive_prompts");
			if (in_list(p->name, responses))
				add_cap(out, "receive_model_responses");
			break;
		case PC_SCAFFOLD_TOOL:
			add_cap(out, "execute_subprocess");
			add_cap(out, "register_tools");
			add_cap(out, p->readonly ? "read_workspace"
						 : "write_workspace");
			break;
		case PC_SCAFFOLD_COMMAND:
			if (!p->prompt)
				add_cap(out, "execute_subprocess");
			add_cap(out, "register_commands");
			break;
		case PC_SCAFFOLD_OAUTH:
			add_cap(out, "execute_subprocess");
			add_cap(out, "register_providers");
			add_cap(out, "access_network");
			add_cap(out, "access_secrets");
			break;
		case PC_SCAFFOLD_MEMORY:
			add_cap(out, "execute_subprocess");
			add_cap(out, "register_memory_backend");
			break;
		}
	}
}

static int read_template(const char *root, const char *rel, struct pc_buf *out,
			 struct pc_err *err)
{
	char *path = pc_fs_join(root, rel);
	int rc = pc_fs_read_capped(path, out, err);

	if (rc)
		pc_err_set(err, PC_ENOENT, "cannot read template '%s'", path);
	free(path);
	return rc ? PC_ENOENT : 0;
}

int pc__scaffold_render_template(const char *root, const char *rel,
				 const char *const *kv, char **out,
				 struct pc_err *err)
{
	struct pc_buf t = PC_BUF_INIT(TEMPLATE_MAX);
	int rc = read_template(root, rel, &t, err);

	if (!rc)
		rc = pc__scaffold_render(rel, pc_buf_cstr(&t), kv, out, err);
	pc_buf_release(&t);
	return rc;
}

void pc__scaffold_plan_take(struct pc__scaffold_plan *plan, const char *path,
			    char *data, bool exec)
{
	plan->f = pc_xreallocarray(plan->f, plan->n + 1, sizeof(*plan->f));
	plan->f[plan->n++] = (struct pc__scaffold_file){
		.path = pc_xstrdup(path),
		.data = data,
		.len = strlen(data),
		.exec = exec,
	};
}

void pc__scaffold_plan_release(struct pc__scaffold_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->f[i].path);
		free(plan->f[i].data);
	}
	free(plan->f);
	plan->f = NULL;
	plan->n = 0;
}

static const char *ext_of(const char *lang)
{
	if (!strcmp(lang, "sh"))
		return "sh";
	if (!strcmp(lang, "python"))
		return "py";
	return strcmp(lang, "c") ? NULL : "c";
}

/* script path in the manifest, and the source file written for it */
static void part_paths(const char *lang, const struct pc_scaffold_part *p,
		       char **script, char **source)
{
	static const char *const dirs[] = { "hooks", "tools", "commands",
					    "oauth", "memory" };
	static const char *const pre[] = { "hook_", "tool_", "cmd_", "oauth_",
					   "memory" };
	const char *name = p->name ? p->name : "";

	if (p->kind == PC_SCAFFOLD_COMMAND && p->prompt) {
		*script = pc_xasprintf("commands/%s.md", name);
		*source = pc_xstrdup(*script);
	} else if (!strcmp(lang, "c")) {
		*script = pc_xasprintf("bin/%s%s", pre[p->kind], name);
		*source = pc_xasprintf("src/%s%s.c", pre[p->kind], name);
	} else {
		*script = pc_xasprintf("%s/%s.%s", dirs[p->kind],
				       p->name ? p->name : "provider",
				       ext_of(lang));
		*source = pc_xstrdup(*script);
	}
}

static const char *script_template(const struct pc_scaffold_part *p)
{
	switch (p->kind) {
	case PC_SCAFFOLD_HOOK:
		return p->blocking ? "hook_blocking" : "hook_advisory";
	case PC_SCAFFOLD_TOOL:
		return "tool";
	case PC_SCAFFOLD_COMMAND:
		return "command";
	case PC_SCAFFOLD_OAUTH:
		return "oauth";
	case PC_SCAFFOLD_MEMORY:
		return "memory";
	}
	return "";
}

static const char *manifest_template(const struct pc_scaffold_part *p)
{
	static const char *const t[] = { "hook", "tool", "command_script",
					 "oauth", "memory" };

	if (p->kind == PC_SCAFFOLD_COMMAND && p->prompt)
		return "command_prompt";
	return t[p->kind];
}

/* Render script template `rel` with the shared helpers spliced in:
 * READ_INPUT (c), JSON_C (c) and JSON_SH (sh), each rendered with `kv`
 * first, all substituted in the same single pass as `kv`. */
static int render_script(const char *root, const char *lang, const char *rel,
			 const char *const *kv, char **text, struct pc_err *err)
{
	static const char *const incs[][3] = {
		{ "c", "READ_INPUT", "catalyst/c/read_input.inc" },
		{ "c", "JSON_C", "catalyst/c/json.inc" },
		{ "sh", "JSON_SH", "catalyst/sh/json.inc" },
	};
	enum { NINC = sizeof(incs) / sizeof(incs[0]) };
	const char *all[64];
	char *inc[NINC] = { NULL };
	size_t n = 0;
	int rc = 0;

	while (kv[n] && n + 2 * NINC + 1 < sizeof(all) / sizeof(all[0])) {
		all[n] = kv[n];
		n++;
	}
	for (size_t i = 0; i < NINC && !rc; i++) {
		if (strcmp(lang, incs[i][0]))
			continue;
		rc = pc__scaffold_render_template(root, incs[i][2], kv, &inc[i],
						  err);
		all[n++] = incs[i][1];
		all[n++] = inc[i];
	}
	all[n] = NULL;
	if (!rc)
		rc = pc__scaffold_render_template(root, rel, all, text, err);
	for (size_t i = 0; i < NINC; i++)
		free(inc[i]);
	return rc;
}

static int plan_script(const struct pc_scaffold_opts *o, const char *root,
		       const struct pc_scaffold_part *p, const char *source,
		       const char *const *kv, struct pc__scaffold_plan *plan,
		       struct pc_err *err)
{
	char *rel, *text = NULL;
	bool c = !strcmp(o->lang, "c");
	int rc;

	if (p->kind == PC_SCAFFOLD_COMMAND && p->prompt) {
		rc = pc__scaffold_render_template(root, "catalyst/prompt.md",
						  kv, &text, err);
		if (!rc)
			pc__scaffold_plan_take(plan, source, text, false);
		return rc;
	}
	rel = pc_xasprintf("catalyst/%s/%s.%s%s", o->lang, script_template(p),
			   ext_of(o->lang), c ? ".in" : "");
	rc = render_script(root, o->lang, rel, kv, &text, err);
	free(rel);
	if (!rc)
		pc__scaffold_plan_take(plan, source, text, !c);
	else
		free(text);
	return rc;
}

int pc__scaffold_plan_part(const struct pc_scaffold_opts *o, const char *plugin,
			   const struct pc_scaffold_part *p,
			   struct pc__scaffold_plan *plan, struct pc_buf *frag,
			   struct pc_err *err)
{
	char *script, *source, *rel, *text = NULL, *tests;
	char timeout[32];
	const char *name = p->name ? p->name : "provider";
	int rc;

	part_paths(o->lang, p, &script, &source);
	snprintf(timeout, sizeof(timeout), "%llu",
		 (unsigned long long)p->timeout_ms);
	const char *kv[] = {
		"PLUGIN",    plugin,
		"POINT",     name,
		"NAME",	     name,
		"PROVIDER",  name,
		"SCRIPT",    script,
		"TIMEOUT",   timeout,
		"KIND",	     p->readonly ? "readonly" : "destructive",
		"PASS_ARGS", p->pass_args ? ", \"pass_args\": true" : "",
		"OVERRIDE",  p->override ? ", \"override\": true" : "",
		NULL,
	};

	rc = plan_script(o, o->templates, p, source, kv, plan, err);
	if (rc)
		goto out;
	rel = pc_xasprintf("catalyst/manifest/%s.json", manifest_template(p));
	rc = pc__scaffold_render_template(o->templates, rel, kv, &text, err);
	free(rel);
	if (rc)
		goto out;
	text[strcspn(text, "\n")] = '\0';
	pc_buf_adds(frag, text);
	free(text);
	text = NULL;
	rel = pc_xasprintf("catalyst/tests/%s%s.yaml", script_template(p),
			   p->kind != PC_SCAFFOLD_COMMAND ? ""
			   : p->prompt			  ? "_prompt"
							  : "_script");
	rc = pc__scaffold_render_template(o->templates, rel, kv, &text, err);
	free(rel);
	if (rc)
		goto out;
	tests = pc_xasprintf("tests/%s-%s.plugcheck.yaml", manifest_template(p),
			     name);
	pc__scaffold_plan_take(plan, tests, text, false);
	free(tests);
out:
	free(script);
	free(source);
	return rc;
}

int pc__scaffold_plan_write(const struct pc__scaffold_plan *plan,
			    const char *dir, bool force,
			    struct pc_strvec *written, struct pc_err *err)
{
	struct stat st;
	char *path, *slash;
	int fd, rc = 0;

	for (size_t i = 0; i < plan->n && !force; i++) {
		path = pc_fs_join(dir, plan->f[i].path);
		rc = lstat(path, &st) == 0;
		free(path);
		if (rc)
			return pc_err_set(
				err, PC_EINVAL,
				"'%s' already exists (use --force to overwrite it)",
				plan->f[i].path);
	}
	for (size_t i = 0; i < plan->n; i++) {
		path = pc_fs_join(dir, plan->f[i].path);
		slash = strrchr(path, '/');
		*slash = '\0';
		rc = pc_fs_mkdir_p(path, err);
		*slash = '/';
		if (!rc) {
			fd = open(path,
				  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				  plan->f[i].exec ? 0755 : 0644);
			if (fd < 0 ||
			    write(fd, plan->f[i].data, plan->f[i].len) !=
				    (ssize_t)plan->f[i].len ||
			    (plan->f[i].exec && fchmod(fd, 0755)))
				rc = pc_err_set_errno(err, PC_EIO, errno,
						      "cannot write '%s'",
						      path);
			if (fd >= 0)
				close(fd);
		}
		free(path);
		if (rc)
			return rc;
		pc_strvec_push(written, plan->f[i].path);
	}
	return 0;
}

/* pc_install_check.c - install a plugin as /plugin-install does, then
 * check the copy and report what the install changed (spec §11). */
#include "pc_install_check.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_registry.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

struct ictx {
	const struct pc_install_check_opts *o;
	struct pc_report *r;
	char *tmp, *home, *ws;
	struct pc_manifest_env menv;
	struct pc_strvec scripts; /* paths the manifest names, "./" dropped */
	struct pc_strvec exec;	  /* those the host executes: every script,
				     not the prompt files (R2.10, R2.12) */
	char *src_dir;		  /* the plugin directory that is installed */
	bool zip;
	struct pc_install_zip z;
	struct pc_install_result res;
	char *install_error; /* NULL when the install succeeded */
};

/* R1.16: the plugins every host stages into ~/.catalyst-code/plugins. */
static const char *const staged[] = { "vision-handoff", "telemetry", "kimi",
				      "codex", "deepseek" };

static void push_script(struct ictx *c, const cJSON *obj, const char *key)
{
	size_t before = c->scripts.nr;

	const cJSON *v = pc_serde_get(obj, key);
	const char *s;

	if (!cJSON_IsString(v))
		return;
	s = v->valuestring;
	while (s[0] == '.' && s[1] == '/')
		s += 2;
	if (*s)
		pc_strvec_push(&c->scripts, s);
	if (c->scripts.nr > before && strcmp(key, "prompt_file"))
		pc_strvec_push(&c->exec, s);
}

/* Every script and prompt_file the manifest names, read loosely. */
static void read_scripts(struct ictx *c, cJSON **manifest)
{
	static const char *const oauth_keys[] = { "script", "login_script",
						  "complete_script",
						  "token_script" };
	struct pc_buf raw = PC_BUF_INIT((size_t)16 << 20);
	char *p = pc_fs_join(c->src_dir, "plugin.json");
	const cJSON *e;

	*manifest = NULL;
	if (pc_fs_read_capped(p, &raw, NULL) == 0)
		pc_serde_parse(pc_buf_cstr(&raw), raw.len, manifest, NULL);
	cJSON_ArrayForEach(e, pc_serde_get(*manifest, "hooks"))
		push_script(c, e, "script");
	cJSON_ArrayForEach(e, pc_serde_get(*manifest, "tools"))
		push_script(c, e, "script");
	cJSON_ArrayForEach(e, pc_serde_get(*manifest, "commands"))
	{
		push_script(c, e, "script");
		push_script(c, e, "prompt_file");
	}
	push_script(c, pc_serde_get(*manifest, "memory_provider"), "script");
	for (size_t i = 0; i < 4; i++)
		push_script(c, pc_serde_get(*manifest, "oauth"), oauth_keys[i]);
	free(p);
	pc_buf_release(&raw);
}

static bool listed(const struct pc_strvec *v, const char *rel)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], rel))
			return true;
	return false;
}

/* A script the manifest names lies at or below `rel`. */
static const char *needs(const struct ictx *c, const char *rel)
{
	size_t n = strlen(rel);

	for (size_t i = 0; i < c->scripts.nr; i++)
		if (!strncmp(c->scripts.v[i], rel, n) &&
		    (!c->scripts.v[i][n] || c->scripts.v[i][n] == '/'))
			return c->scripts.v[i];
	return NULL;
}

static bool has_shebang(const char *path)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	bool yes = pc_fs_read_capped(path, &b, NULL) == 0 && b.len >= 2 &&
		   b.data[0] == '#' && b.data[1] == '!';

	pc_buf_release(&b);
	return yes;
}

/* The first manifest-named script whose text mentions `word`. */
static const char *mentioned_by(const struct ictx *c, const char *word)
{
	for (size_t i = 0; i < c->scripts.nr; i++) {
		char *p = pc_fs_join(c->src_dir, c->scripts.v[i]);
		struct pc_buf b = PC_BUF_INIT(4 << 20);
		bool hit = pc_fs_read_capped(p, &b, NULL) == 0 &&
			   strstr(pc_buf_cstr(&b), word);

		pc_buf_release(&b);
		free(p);
		if (hit)
			return c->scripts.v[i];
	}
	return NULL;
}

/* A finding about the install: in the case "<ID> <title>" of class
 * plugcheck.install. */
static void inst_find(struct ictx *c, const char *id, const char *file,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void inst_find(struct ictx *c, const char *id, const char *file,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pc_report_vfind_static(c->r, "plugcheck.install", id, file, NULL, fmt,
			       ap);
	va_end(ap);
}

static void zip_findings(struct ictx *c)
{

	for (size_t i = 0; i < c->z.no_exec.nr; i++) {
		const char *rel = c->z.no_exec.v[i];
		char *p = pc_fs_join(c->z.plugin_dir, rel);

		/* only what the host executes needs the bit: a prompt_file
		 * is read (R2.10, R2.12) */
		if (listed(&c->exec, rel))
			inst_find(c, "PC-INST-001", rel,
				"'%s' has no execute bit in the release zip and is not directly under hooks/, tools/ or oauth/, where the host adds one: the installed plugin fails to load",
				rel);
		else if (has_shebang(p))
			inst_find(c, "PC-INST-002", rel,
				"'%s' starts with #! but has no execute bit in the release zip, and the host does not add one",
				rel);
		free(p);
	}
	for (size_t i = 0; i < c->z.made_exec.nr; i++)
		inst_find(c, "PC-INST-003", c->z.made_exec.v[i],
			"'%s' has no execute bit in the release zip; the host's install adds one (mode | 0755)",
			c->z.made_exec.v[i]);
	for (size_t i = 0; i < c->z.symlinks.nr; i++)
		inst_find(c, listed(&c->scripts, c->z.symlinks.v[i])
				     ? "PC-INST-020"
							 : "PC-INST-022",
			c->z.symlinks.v[i],
			"'%s' is a symlink in the release zip; the host extracts it as a plain file holding the link text",
			c->z.symlinks.v[i]);
}

static void excluded(struct ictx *c, const char *rel)
{
	const char *base = strrchr(rel, '/'), *by;

	base = base ? base + 1 : rel;
	if ((by = needs(c, rel)))
		inst_find(c, "PC-INST-010", by,
			"'%s' is needed ('%s') but the install does not copy '%s'",
			by, by, rel);
	else if ((by = mentioned_by(c, base)))
		inst_find(c, "PC-INST-011", by,
			"'%s' mentions '%s', which the install does not copy ('%s')",
			by, base, rel);
}

/* Walk the source as copy_dir does and judge every skipped entry. */
static void walk_excluded(struct ictx *c, const char *rel)
{
	char *dir = rel ? pc_fs_join(c->src_dir, rel) : pc_xstrdup(c->src_dir);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *r, *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = rel ? pc_fs_join(rel, de->d_name) : pc_xstrdup(de->d_name);
		p = pc_fs_join(c->src_dir, r);
		if (pc_install_is_skipped(de->d_name))
			excluded(c, r);
		else if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			walk_excluded(c, r);
		free(r);
		free(p);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void judge_link(struct ictx *c, const char *rel, const char *p)
{
	char target[4096], *canon, *dest, *src = pc_fs_join(c->src_dir, rel);
	char *src_canon = pc_fs_realpath(src);
	ssize_t n = readlink(p, target, sizeof(target) - 1);

	free(src);
	free(src_canon);
	if (n < 0 || !src_canon) /* broken in the source already */
		return;
	target[n] = '\0';
	canon = pc_fs_realpath(p);
	dest = pc_fs_realpath(c->res.dest);
	if (!canon)
		inst_find(c, "PC-INST-020", rel,
			"symlink '%s' -> '%s' is recreated verbatim by the install and no longer resolves%s",
			rel, target,
			c->zip ? ""
			       : " (its target is outside the plugin or not copied)");
	else if (dest &&
		 !(!strncmp(canon, dest, strlen(dest)) &&
		   (!canon[strlen(dest)] || canon[strlen(dest)] == '/')))
		inst_find(c, "PC-INST-021", rel,
			"symlink '%s' -> '%s' resolves outside the installed copy (%s)",
			rel, target, canon);
	free(canon);
	free(dest);
}

static void walk_links(struct ictx *c, const char *rel)
{
	char *dir =
		rel ? pc_fs_join(c->res.dest, rel) : pc_xstrdup(c->res.dest);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *r, *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = rel ? pc_fs_join(rel, de->d_name) : pc_xstrdup(de->d_name);
		p = pc_fs_join(c->res.dest, r);
		if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode))
			judge_link(c, r, p);
		else if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			walk_links(c, r);
		free(r);
		free(p);
	}
	if (d)
		closedir(d);
	free(dir);
}

static int install_with(struct ictx *c, struct pc_err *err)
{
	for (size_t i = 0; c->o->with && i < c->o->with->nr; i++) {
		struct pc_install_opts io = { .source = c->o->with->v[i],
					      .home = c->home,
					      .workspace = c->ws,
					      .menv = &c->menv };
		struct pc_install_result res = PC_INSTALL_RESULT_INIT;
		struct pc_err e = PC_ERR_INIT;
		int rc = pc_install_run(&io, &res, &e);

		pc_install_result_release(&res);
		if (rc)
			return pc_err_set(err, PC_EINVAL,
					  "cannot install '%s': %s",
					  c->o->with->v[i], e.msg);
	}
	return 0;
}

static char *zip_repo(const char *zip)
{
	const char *b = strrchr(zip, '/');
	size_t n;

	b = b ? b + 1 : zip;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".zip"))
		n -= 4;
	return pc_xasprintf("%.*s", (int)n, b);
}

/* Steps 2-3: extract (zip), install, sidecar, remove the extract tree. */
static void do_install(struct ictx *c)
{
	struct pc_registry reg = PC_REGISTRY_INIT;
	struct pc_registry_opts ro = { .home = c->home,
				       .workspace = c->ws,
				       .menv = &c->menv };
	struct pc_install_opts io = { .scope = c->o->scope,
				      .home = c->home,
				      .workspace = c->ws,
				      .menv = &c->menv,
				      .registered = &reg };
	struct pc_err e = PC_ERR_INIT;

	pc_registry_scan(&ro, &reg);
	io.source = c->src_dir;
	if (pc_install_run(&io, &c->res, &e))
		c->install_error = pc_xstrdup(e.msg);
	if (!c->install_error && c->zip) {
		char *repo = c->o->repo ? pc_xstrdup(c->o->repo)
					: zip_repo(c->o->source);

		pc_install_write_source_meta(
			c->res.dest, c->o->owner ? c->o->owner : "local", repo,
			c->o->tag ? c->o->tag : "local", (uint64_t)time(NULL),
			NULL);
		free(repo);
	}
	pc_registry_release(&reg);
}

/* Step 4: the installed copy through the registry, as the host's next
 * scan sees it (no --trust-project-plugins). */
static void installed_load(struct ictx *c)
{
	struct pc_registry reg = PC_REGISTRY_INIT;
	struct pc_registry_opts ro = { .home = c->home,
				       .workspace = c->ws,
				       .menv = &c->menv };
	struct pc_plugin *p;
	char *dest = c->res.dest ? pc_fs_realpath(c->res.dest) : NULL;
	bool ok;

	if (c->install_error) {
		pc_report_add_load(c->r, "installed", false, c->install_error);
		free(dest);
		return;
	}
	pc_registry_scan(&ro, &reg);
	p = c->res.plugin ? pc_registry_find(&reg, c->res.plugin->name) : NULL;
	ok = p && dest && !strcmp(p->source_path, dest);
	pc_report_add_load(c->r, "installed", ok,
			   ok || !reg.log.nr ? "" : reg.log.v[reg.log.nr - 1]);
	pc_registry_release(&reg);
	free(dest);
}

static void install_findings(struct ictx *c, const cJSON *manifest)
{
	const cJSON *name = pc_serde_get(manifest, "name");

	if (c->zip)
		zip_findings(c);
	walk_excluded(c, NULL);
	if (c->res.dest && !c->install_error)
		walk_links(c, NULL);
	for (size_t i = 0; cJSON_IsString(name) && i < 5; i++)
		if (!strcmp(name->valuestring, staged[i]))
			inst_find(c, "PC-INST-031", "plugin.json",
				"every host stages a global plugin '%s' on first run, so it answers: plugin '%s' is already installed; remove it first or use a different name",
				staged[i], staged[i]);
	if (!c->install_error)
		return;
	if (strstr(c->install_error, "is already installed; remove it first"))
		inst_find(c, "PC-INST-030", "plugin.json", "%s",
				c->install_error);
	else if (!pc_report_has(c->r, "PC-INST-001", NULL))
		inst_find(c, "PC-INST-040", NULL, "%s", c->install_error);
}

static int setup(struct ictx *c, struct pc_err *err)
{
	struct stat st;

	c->tmp = pc_fs_mkdtemp("install");
	if (!c->tmp)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create a temporary directory in %s "
					"(TMPDIR; set it to a writable directory)",
					pc_fs_tmpdir());
	c->home = pc_fs_join(c->tmp, "home");
	c->ws = pc_fs_join(c->tmp, "workspace");
	pc_fs_mkdir_p(c->home, NULL);
	pc_fs_mkdir_p(c->ws, NULL);
	c->menv.home = c->home;
	c->zip = stat(c->o->source, &st) == 0 && S_ISREG(st.st_mode);
	if (!c->zip) {
		c->src_dir = pc_xstrdup(c->o->source);
		return 0;
	}
	{
		char *x = pc_fs_join(c->tmp, "extract");
		struct pc_err e = PC_ERR_INIT;

		pc_fs_mkdir_p(x, NULL);
		if (pc_install_extract_zip(c->o->source, x, &c->z, &e))
			c->install_error = pc_xstrdup(e.msg);
		else
			c->src_dir = pc_xstrdup(c->z.plugin_dir);
		free(x);
	}
	return 0;
}

/* Name plugcheck's temporary directories as the user knows them: the
 * extracted copy by its zip entry ("plugin.zip:plugin-1.0"), the throwaway
 * HOME as "~" (both as given and as resolved). */
static void rename_temp(struct ictx *c)
{
	const char *x = c->z.plugin_dir, *entry;
	char *to, *real;

	if (c->zip && x) {
		entry = x + strlen(c->tmp) + strlen("/extract");
		entry += *entry == '/';
		to = pc_xasprintf("%s:%s", c->o->source, entry);
		real = pc_fs_realpath(x);
		if (real)
			pc_report_rename_path(c->r, real, to);
		pc_report_rename_path(c->r, x, to);
		free(real);
		free(to);
	}
	real = pc_fs_realpath(c->home);
	if (real)
		pc_report_rename_path(c->r, real, "~");
	pc_report_rename_path(c->r, c->home, "~");
	free(real);
}

static void check(struct ictx *c, struct pc_err *err)
{
	struct pc_suite_opts so = c->o->suite;
	cJSON *manifest;

	read_scripts(c, &manifest);
	if (!c->install_error)
		do_install(c);
	so.path = c->res.dest && !c->install_error ? c->res.dest : c->src_dir;
	pc_suite_run(&so, c->r, err);
	free(c->r->path);
	c->r->path = pc_xstrdup(c->o->source);
	installed_load(c);
	install_findings(c, manifest);
	cJSON_Delete(manifest);
	rename_temp(c);
}

int pc_install_check_run(const struct pc_install_check_opts *o,
			 struct pc_report *r, struct pc_err *err)
{
	struct ictx c = { .o = o,
			  .r = r,
			  .scripts = PC_STRVEC_INIT,
			  .exec = PC_STRVEC_INIT,
			  .z = PC_INSTALL_ZIP_INIT,
			  .res = PC_INSTALL_RESULT_INIT };
	int rc = setup(&c, err);

	if (!rc)
		rc = install_with(&c, err);
	if (!rc && c.src_dir) {
		check(&c, err);
	} else if (!rc) {
		r->path = pc_xstrdup(o->source);
		pc_report_add_load(r, "installed", false, c.install_error);
		pc_report_find_static(r, "plugcheck.install", "PC-INST-040",
				      NULL, NULL, "%s", c.install_error);
	}
	if (c.tmp)
		pc_fs_rm_rf(c.tmp);
	free(c.tmp);
	free(c.home);
	free(c.ws);
	free(c.src_dir);
	free(c.install_error);
	pc_strvec_release(&c.scripts);
	pc_strvec_release(&c.exec);
	pc_install_zip_release(&c.z);
	pc_install_result_release(&c.res);
	return rc;
}

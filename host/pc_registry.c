/* pc_registry.c - scan_and_load, scan_dir and the trust store (spec §1). */
#include "pc_registry.h"

#include <sys/stat.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_manifest_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

struct trust_store {
	cJSON *root; /* NULL: empty store */
	char *ws_key;
};

/* A path as a trust-store key: Path::display().to_string() is lossy. */
static char *path_key(const char *p)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_rust_lossy_utf8(&b, p, strlen(p));
	return pc_buf_detach(&b, NULL);
}

/* std::path::absolute on Unix: joined onto the working directory when
 * relative, ".." kept (pc__path_starts_with compares components, which
 * drops "." and repeated slashes as Path::components does). */
static char *lexical_absolute(const char *p)
{
	char *cwd, *abs;

	if (p[0] == '/')
		return pc_xstrdup(p);
	cwd = getcwd(NULL, 0);
	abs = pc_fs_join(cwd ? cwd : "/", p);
	free(cwd);
	return abs;
}

bool pc_registry_trust_project(const char *env, int cli)
{
	if (cli >= 0)
		return cli == 1;
	if (!env)
		return false;
	return !*env || !strcmp(env, "1") || !strcasecmp(env, "true");
}

char *pc_registry_skip_line(const char *name, const char *canon)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_addf(&b, "[plugins] skipping project-scoped plugin '%s' (in ",
		    name);
	pc_rust_debug_path(&b, canon, strlen(canon));
	pc_buf_adds(&b, "); trust it with the plugin trust prompt (/plugin-trust), set --trust-project-plugins / CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or reinstall with `/plugin-install \xe2\x80\xa6 workspace`");
	return pc_buf_detach(&b, NULL);
}

/* plugin_trust.rs PluginTrustStore: projects is required, installed is
 * #[serde(default)]. */
static const struct pc_serde_shape str_shape = { .kind = PC_SERDE_STRING };
static const struct pc_serde_shape decisions_shape = {
	.kind = PC_SERDE_MAP,
	.elem = &str_shape,
};
static const struct pc_serde_shape projects_shape = {
	.kind = PC_SERDE_MAP,
	.elem = &decisions_shape,
};
static const struct pc_serde_shape keys_shape = {
	.kind = PC_SERDE_SEQ,
	.elem = &str_shape,
};
static const struct pc_serde_shape installed_shape = {
	.kind = PC_SERDE_MAP,
	.elem = &keys_shape,
};
static const struct pc_serde_field store_fields[] = {
	{ "projects", &projects_shape, false },
	{ "installed", &installed_shape, true },
};
static const struct pc_serde_shape store_shape = {
	.kind = PC_SERDE_STRUCT,
	.name = "PluginTrustStore",
	.fields = store_fields,
	.nfields = sizeof(store_fields) / sizeof(store_fields[0]),
};

/* R1.9: read_to_string + serde_json::from_str::<PluginTrustStore>, and
 * unwrap_or_default: invalid UTF-8, bad JSON, a missing `projects` or any
 * value of the wrong type anywhere makes the whole store empty. */
static void load_store(const char *home, const char *canon_ws,
		       struct trust_store *s)
{
	struct pc_buf raw = PC_BUF_INIT((size_t)64 << 20);
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);
	char *path;

	s->root = NULL;
	s->ws_key = path_key(canon_ws);
	if (!home || !*home)
		return;
	path = pc__path_join(home, ".config/catalyst-code/plugin-trust.json");
	if (pc_rust_read_to_string(path, &raw, &msg) == 0)
		pc_serde_decode(pc_buf_cstr(&raw), raw.len, &store_shape,
				&s->root, NULL);
	free(path);
	pc_buf_release(&raw);
	pc_buf_release(&msg);
}

static const char *decision(const struct trust_store *s, const char *key)
{
	const cJSON *ws = pc_serde_get(pc_serde_get(s->root, "projects"),
				       s->ws_key);
	const cJSON *d = pc_serde_get(ws, key);

	return cJSON_IsString(d) ? d->valuestring : NULL;
}

static bool installed(const struct trust_store *s, const char *key)
{
	const cJSON *l = pc_serde_get(pc_serde_get(s->root, "installed"),
				      s->ws_key);
	const cJSON *e;

	cJSON_ArrayForEach(e, l) if (cJSON_IsString(e) &&
				     !strcmp(e->valuestring, key))
		return true;
	return false;
}

static void insert(struct pc_registry *r, struct pc_plugin *p)
{
	for (size_t i = 0; i < r->nr; i++) {
		if (!strcmp(r->plugins[i]->name, p->name)) {
			pc_plugin_free(r->plugins[i]);
			r->plugins[i] = p;
			return;
		}
	}
	r->plugins = pc_xreallocarray(r->plugins, r->nr + 1, sizeof(*r->plugins));
	r->plugins[r->nr++] = p;
}

/* Path::file_name: the last component, NULL for "..", "/" or "". New. */
static char *file_name(const char *path)
{
	struct pc_strvec c = PC_STRVEC_INIT;
	char *last = NULL;

	pc__path_components(path, &c);
	if (c.nr && strcmp(c.v[c.nr - 1], "..") && strcmp(c.v[c.nr - 1], "/") &&
	    strcmp(c.v[c.nr - 1], "."))
		last = pc_xstrdup(c.v[c.nr - 1]);
	pc_strvec_release(&c);
	return last;
}

char *pc_registry_loose_name(const char *path)
{
	struct pc_buf raw = PC_BUF_INIT((size_t)64 << 20);
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);
	char *mpath = pc_fs_join(path, "plugin.json"), *base;
	cJSON *v = NULL;
	const cJSON *n;
	char *name;

	if (pc_rust_read_to_string(mpath, &raw, &msg) == 0)
		pc_serde_parse(pc_buf_cstr(&raw), raw.len, &v, NULL);
	n = pc_serde_get(v, "name");
	base = file_name(path);
	if (cJSON_IsString(n))
		name = pc_xstrdup(n->valuestring);
	else
		name = pc_xstrdup(base && pc_rust_is_utf8(base, strlen(base)) ? base : "");
	free(base);
	cJSON_Delete(v);
	free(mpath);
	pc_buf_release(&raw);
	pc_buf_release(&msg);
	return name;
}

bool pc_registry_is_candidate(const char *path)
{
	char *mpath = pc_fs_join(path, "plugin.json");
	struct stat st;
	bool ok = pc_fs_is_dir(path) && stat(mpath, &st) == 0;

	free(mpath);
	return ok;
}

struct scan {
	const struct pc_registry_opts *o;
	struct pc_registry *r;
	const struct trust_store *store;
	char *canon_ws;
	char *ws_abs;
};

static void load_one(struct scan *s, const char *path)
{
	char *msg = NULL;
	struct pc_manifest_report rep = { .log = &s->r->log, .error = &msg };
	struct pc_plugin *p;

	if (pc_manifest_load_report(path, s->o->menv, &p, &rep, NULL) == 0) {
		insert(s->r, p);
		return;
	}
	pc_strvec_push_nodup(&s->r->errors,
			     pc_manifest_load_error_line(path, msg));
	free(msg);
}

/* R1.7.4-5: user_installed, or a recorded "trust", lets a gated project
 * plugin load. Keys are canonical paths as Path::display() strings. */
static bool is_trusted(const struct scan *s, const char *canon)
{
	char *key = path_key(canon);
	const char *d;
	bool ok;

	ok = pc__path_starts_with(canon, s->canon_ws) &&
	     installed(s->store, key);
	d = decision(s->store, key);
	ok = ok || (d && !strcmp(d, "trust"));
	free(key);
	return ok;
}

static void skip(struct scan *s, const char *path, const char *canon)
{
	char *name = pc_registry_loose_name(path);

	pc_strvec_push_nodup(&s->r->log, pc_registry_skip_line(name, canon));
	pc_strvec_push_nodup(&s->r->skipped, name);
}

static void scan_dir(struct scan *s, const char *dir, bool user_owned)
{
	char *dir_abs = lexical_absolute(dir);
	bool is_project = !user_owned && pc__path_starts_with(dir_abs, s->ws_abs);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *path, *canon;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = pc_fs_join(dir, de->d_name);
		if (!pc_registry_is_candidate(path))
			goto next;
		canon = pc_fs_realpath(path);
		if (!canon)
			canon = pc_xstrdup(path);
		if (is_project && !s->o->trust_project && !is_trusted(s, canon))
			skip(s, path, canon);
		else
			load_one(s, path);
		free(canon);
next:
		free(path);
	}
	if (d)
		closedir(d);
	free(dir_abs);
}

static int by_name(const void *a, const void *b)
{
	return pc_serde_text_cmp((*(struct pc_plugin *const *)a)->name,
				 (*(struct pc_plugin *const *)b)->name);
}

int pc_registry_scan(const struct pc_registry_opts *o, struct pc_registry *r)
{
	struct trust_store store;
	struct scan s = { .o = o, .r = r, .store = &store };
	const char *pd = o->plugins_dir ? o->plugins_dir : ".catalyst-code/plugins";
	char *project = pc__path_join(o->workspace, pd);

	s.canon_ws = pc_fs_realpath(o->workspace);
	if (!s.canon_ws)
		s.canon_ws = pc_xstrdup(o->workspace);
	s.ws_abs = lexical_absolute(o->workspace);
	load_store(o->home, s.canon_ws, &store);
	if (o->home && *o->home) { /* config::home_dir: an empty HOME is none */
		char *global = pc__path_join(o->home, ".catalyst-code/plugins");

		scan_dir(&s, global, true);
		free(global);
	}
	pc_fs_mkdir_p(project, NULL);
	scan_dir(&s, project, false);
	if (r->nr > 1)
		qsort(r->plugins, r->nr, sizeof(*r->plugins), by_name);
	cJSON_Delete(store.root);
	free(store.ws_key);
	free(project);
	free(s.canon_ws);
	free(s.ws_abs);
	return 0;
}

struct pc_plugin *pc_registry_find(const struct pc_registry *r,
				   const char *name)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->plugins[i]->name, name))
			return r->plugins[i];
	return NULL;
}

void pc_registry_release(struct pc_registry *r)
{
	for (size_t i = 0; i < r->nr; i++)
		pc_plugin_free(r->plugins[i]);
	free(r->plugins);
	r->plugins = NULL;
	r->nr = 0;
	pc_strvec_release(&r->skipped);
	pc_strvec_release(&r->errors);
	pc_strvec_release(&r->log);
}

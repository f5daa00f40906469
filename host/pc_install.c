/* pc_install.c - install() and copy_dir() of the host (spec §11). */
#include "pc_install.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

/* plugins.rs PLUGIN_COPY_SKIP. */
static const char *const copy_skip[] = {
	".git",		 ".venv",	"venv",	       "__pycache__",
	".pytest_cache", ".mypy_cache", ".ruff_cache", ".runtime",
	"node_modules",	 ".DS_Store",	".tox",	       "dist",
	"build",	 ".eggs",
};

bool pc_install_is_skipped(const char *name)
{
	if (!strcmp(name, ".env") ||
	    (!strncmp(name, ".env.", 5) && strcmp(name, ".env.example")))
		return true;
	for (size_t i = 0; i < sizeof(copy_skip) / sizeof(copy_skip[0]); i++)
		if (!strcmp(name, copy_skip[i]))
			return true;
	return false;
}

static char *trim(const char *s)
{
	size_t n = strlen(s);

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		n--;
	return pc_xasprintf("%.*s", (int)n, s);
}

int pc_install_scope_parse(const char *s, enum pc_install_scope *out,
			   struct pc_err *err)
{
	static const char *const global[] = { "",  "global", "user",
					      "g", "-g",     "--global" };
	static const char *const ws[] = {
		"workspace", "project", "local", "w", "-w", "--workspace"
	};
	char *t = trim(s);
	int rc = 0;

	*out = PC_INSTALL_GLOBAL;
	for (size_t i = 0; i < 6; i++) {
		if (!strcasecmp(t, global[i]))
			goto out;
		if (!strcasecmp(t, ws[i])) {
			*out = PC_INSTALL_WORKSPACE;
			goto out;
		}
	}
	rc = pc_err_set(
		err, PC_EINVAL,
		"unknown plugin scope '%s' (use 'global' or 'workspace')", s);
out:
	free(t);
	return rc;
}

/* `<what> <path:?>: <io error>` as the host's map_err closures build it. */
static int io_fail(struct pc_err *err, int e, const char *what, const char *a,
		   const char *b)
{
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	pc_buf_addf(&m, "%s ", what);
	pc_rust_debug_path(&m, a, strlen(a));
	if (b) {
		pc_buf_adds(&m, " -> ");
		pc_rust_debug_path(&m, b, strlen(b));
	}
	rc = pc_rust_err_io(err, PC_EIO, e, "%s", pc_buf_cstr(&m));
	pc_buf_release(&m);
	return rc;
}

/* std::fs::copy: contents, then the source's permission bits. */
static int copy_file(const char *src, const char *dst, struct pc_err *err)
{
	char buf[65536];
	struct stat st;
	int in, out, e = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return io_fail(err, errno, "copy", src, dst);
	if (fstat(in, &st) != 0 ||
	    (out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			st.st_mode & 07777)) < 0) {
		e = errno;
		close(in);
		return io_fail(err, e, "copy", src, dst);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			e = errno ? errno : EIO;
			break;
		}
	if (n < 0)
		e = errno;
	if (!e && fchmod(out, st.st_mode & 07777) != 0)
		e = errno;
	close(in);
	if (close(out) != 0 && !e)
		e = errno;
	return e ? io_fail(err, e, "copy", src, dst) : 0;
}

static void copy_link(const char *src, const char *dst, struct pc_strvec *log)
{
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);
	char target[4096];
	ssize_t n = readlink(src, target, sizeof(target) - 1);
	int e = 0;

	if (n < 0) {
		e = errno;
		pc_buf_adds(&m, "[plugins] skip unreadable symlink ");
		pc_rust_debug_path(&m, src, strlen(src));
	} else {
		target[n] = '\0';
		if (symlink(target, dst) == 0)
			goto out;
		e = errno;
		pc_buf_adds(&m, "[plugins] skip symlink ");
		pc_rust_debug_path(&m, src, strlen(src));
		pc_buf_adds(&m, " -> ");
		pc_rust_debug_path(&m, target, (size_t)n);
	}
	pc_buf_adds(&m, ": ");
	pc_rust_io_error(&m, e);
	if (log)
		pc_strvec_push(log, pc_buf_cstr(&m));
out:
	pc_buf_release(&m);
	pc_buf_release(&t);
}

static int copy_entry(const char *src, const char *dst, struct pc_strvec *log,
		      struct pc_err *err)
{
	struct stat st;

	if (lstat(src, &st) != 0)
		return pc_rust_err_io(err, PC_EIO, errno, "file_type error");
	if (S_ISLNK(st.st_mode)) {
		copy_link(src, dst, log);
	} else if (S_ISDIR(st.st_mode)) {
		return pc_install_copy_dir(src, dst, log, err);
	} else if (S_ISREG(st.st_mode)) {
		return copy_file(src, dst, err);
	} else if (log) {
		struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_buf_adds(&m, "[plugins] skip non-file/dir ");
		pc_rust_debug_path(&m, src, strlen(src));
		pc_strvec_push(log, pc_buf_cstr(&m));
		pc_buf_release(&m);
	}
	return 0;
}

int pc_install_copy_dir(const char *src, const char *dst, struct pc_strvec *log,
			struct pc_err *err)
{
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (pc_fs_mkdir_p(dst, NULL) != 0)
		return io_fail(err, errno, "mkdir", dst, NULL);
	/* create_dir_all: an existing path that is no directory is EEXIST */
	if (!pc_fs_is_dir(dst))
		return io_fail(err, EEXIST, "mkdir", dst, NULL);
	d = opendir(src);
	if (!d)
		return io_fail(err, errno, "read_dir", src, NULL);
	while (!rc && (de = readdir(d))) {
		char *s, *t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    pc_install_is_skipped(de->d_name))
			continue;
		s = pc_fs_join(src, de->d_name);
		t = pc_fs_join(dst, de->d_name);
		rc = copy_entry(s, t, log, err);
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

/* validate_plugin_name (plugins.rs:1423). A name without '/' is always one
 * Path component on Unix unless it is "" "." or "..", handled first. */
static int validate_name(const char *name, struct pc_err *err)
{
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	if (!*name)
		return pc_err_set(err, PC_EINVAL, "plugin name is empty");
	if (strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/') &&
	    !strchr(name, '\\'))
		return 0;
	pc_buf_adds(&m, "plugin name contains a path separator: ");
	pc_rust_debug_str(&m, name, strlen(name));
	rc = pc_err_set(err, PC_EINVAL, "%s", pc_buf_cstr(&m));
	pc_buf_release(&m);
	return rc;
}

static int not_found(struct pc_err *err, const char *fmt_pre, const char *path,
		     const char *post)
{
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	pc_buf_adds(&m, fmt_pre);
	pc_rust_debug_path(&m, path, strlen(path));
	pc_buf_adds(&m, post);
	rc = pc_err_set(err, PC_EINVAL, "%s", pc_buf_cstr(&m));
	pc_buf_release(&m);
	return rc;
}

static char *dest_root(const struct pc_install_opts *o, struct pc_err *err)
{
	const char *pd =
		o->plugins_dir ? o->plugins_dir : ".catalyst-code/plugins";
	char *ws, *root;

	if (o->scope == PC_INSTALL_GLOBAL) {
		if (!o->home) {
			pc_err_set(
				err, PC_EINVAL,
				"global plugin install unavailable (no ~/.catalyst-code/plugins)");
			return NULL;
		}
		return pc_xasprintf("%s/.catalyst-code/plugins", o->home);
	}
	ws = pc_fs_absolute(o->workspace);
	root = pc__path_join(ws, pd);
	free(ws);
	return root;
}

/* scope == Workspace || scope_of_path(dest) == Workspace. */
static bool in_workspace(const struct pc_install_opts *o, const char *dest)
{
	char *c = pc_fs_realpath(dest), *w = pc_fs_realpath(o->workspace);
	bool in = pc__path_starts_with(c ? c : dest, w ? w : o->workspace);

	free(c);
	free(w);
	return o->scope == PC_INSTALL_WORKSPACE || in;
}

static int validate_source(const struct pc_install_opts *o,
			   struct pc_plugin **p, struct pc_err *err)
{
	char *src = pc_fs_absolute(o->source), *m;
	int rc = 0;

	*p = NULL;
	if (!pc_fs_is_dir(src)) {
		rc = not_found(err, "", o->source, " is not a directory");
		goto out;
	}
	m = pc_fs_join(src, "plugin.json");
	if (access(m, F_OK) != 0)
		rc = not_found(err, "no plugin.json found in ", o->source, "");
	free(m);
	if (!rc)
		rc = pc_manifest_load(src, o->menv, p, err);
	if (!rc && o->registered && pc_registry_find(o->registered, (*p)->name))
		rc = pc_err_set(
			err, PC_EINVAL,
			"plugin '%s' is already installed; remove it first or use a different name",
			(*p)->name);
	if (!rc)
		rc = validate_name((*p)->name, err);
out:
	free(src);
	return rc;
}

int pc_install_run(const struct pc_install_opts *o,
		   struct pc_install_result *res, struct pc_err *err)
{
	struct pc_plugin *p;
	char *src, *root;
	int rc;

	if ((rc = validate_source(o, &p, err))) {
		pc_plugin_free(p);
		return rc;
	}
	root = dest_root(o, err);
	if (!root) {
		pc_plugin_free(p);
		return PC_EINVAL;
	}
	pc_fs_mkdir_p(root, NULL);
	res->dest = pc_fs_join(root, p->name);
	free(root);
	pc_plugin_free(p);
	pc_fs_rm_rf(res->dest);
	src = pc_fs_absolute(o->source);
	rc = pc_install_copy_dir(src, res->dest, &res->log, err);
	free(src);
	if (!rc && in_workspace(o, res->dest) && o->home)
		rc = pc_install_record_installed(o->home, o->workspace,
						 res->dest, err);
	if (!rc)
		rc = pc_manifest_load(res->dest, o->menv, &res->plugin, err);
	return rc;
}

void pc_install_result_release(struct pc_install_result *res)
{
	pc_plugin_free(res->plugin);
	free(res->dest);
	pc_strvec_release(&res->log);
	res->plugin = NULL;
	res->dest = NULL;
}

static char *canon_key(const char *p)
{
	char *c = pc_fs_realpath(p);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_rust_lossy_utf8(&b, c ? c : p, strlen(c ? c : p));
	free(c);
	return pc_buf_detach(&b, NULL);
}

/* PluginTrustStore::load: unwrap_or_default on anything unexpected. */
static cJSON *load_store(const char *path)
{
	struct pc_buf raw = PC_BUF_INIT((size_t)64 << 20);
	cJSON *v = NULL;

	if (pc_fs_read_capped(path, &raw, NULL) == 0)
		pc_serde_parse(pc_buf_cstr(&raw), raw.len, &v, NULL);
	pc_buf_release(&raw);
	if (!cJSON_IsObject(v) ||
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(v, "projects"))) {
		cJSON_Delete(v);
		v = cJSON_CreateObject();
		cJSON_AddItemToObject(v, "projects", cJSON_CreateObject());
	}
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(v, "installed"))) {
		cJSON_DeleteItemFromObjectCaseSensitive(v, "installed");
		cJSON_AddItemToObject(v, "installed", cJSON_CreateObject());
	}
	return v;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_installed(cJSON *store, const char *ws, const char *key)
{
	cJSON *inst = cJSON_GetObjectItemCaseSensitive(store, "installed");
	cJSON *list = cJSON_GetObjectItemCaseSensitive(inst, ws), *e, *sorted;
	struct pc_strvec v = PC_STRVEC_INIT;

	cJSON_ArrayForEach(e, list) if (cJSON_IsString(e))
		pc_strvec_push(&v, e->valuestring);
	pc_strvec_push(&v, key);
	qsort(v.v, v.nr, sizeof(*v.v), by_str);
	sorted = cJSON_CreateArray();
	for (size_t i = 0; i < v.nr; i++)
		if (!i || strcmp(v.v[i], v.v[i - 1]))
			cJSON_AddItemToArray(sorted,
					     cJSON_CreateString(v.v[i]));
	cJSON_DeleteItemFromObjectCaseSensitive(inst, ws);
	cJSON_AddItemToObject(inst, ws, sorted);
	pc_strvec_release(&v);
}

/* `"<key>": <pretty value>` indented one level, as to_string_pretty
 * prints a struct field. */
static void pretty_field(struct pc_buf *b, const char *key, const cJSON *v)
{
	struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_print_pretty(v, &t);
	pc_buf_addf(b, "  \"%s\": ", key);
	for (size_t i = 0; i < t.len; i++) {
		pc_buf_add(b, &t.data[i], 1);
		if (t.data[i] == '\n')
			pc_buf_adds(b, "  ");
	}
	pc_buf_release(&t);
}

static int save_store(const char *path, const cJSON *store, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *tmp = pc_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int rc = 0;

	pc_buf_adds(&b, "{\n");
	pretty_field(&b, "projects",
		     cJSON_GetObjectItemCaseSensitive(store, "projects"));
	pc_buf_adds(&b, ",\n");
	pretty_field(&b, "installed",
		     cJSON_GetObjectItemCaseSensitive(store, "installed"));
	pc_buf_adds(&b, "\n}");
	if (pc_fs_write(tmp, b.data, b.len, NULL) != 0 ||
	    rename(tmp, path) != 0)
		rc = pc_rust_err_io(err, PC_EIO, errno,
				    "failed to write plugin trust store %s",
				    path);
	unlink(tmp);
	free(tmp);
	pc_buf_release(&b);
	return rc;
}

int pc_install_record_installed(const char *home, const char *workspace,
				const char *dest, struct pc_err *err)
{
	char *dir = pc_xasprintf("%s/.config/catalyst-code", home);
	char *path = pc_fs_join(dir, "plugin-trust.json");
	char *lock = pc_fs_join(dir, "plugin-trust.lock");
	char *ws = canon_key(workspace), *key = canon_key(dest);
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	cJSON *store;
	int fd, rc;

	pc_fs_mkdir_p(dir, NULL);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || fcntl(fd, F_SETLKW, &fl) != 0) {
		rc = pc_rust_err_io(err, PC_EIO, errno,
				    "failed to lock plugin trust store");
		goto out;
	}
	store = load_store(path);
	add_installed(store, ws, key);
	rc = save_store(path, store, err);
	cJSON_Delete(store);
out:
	if (fd >= 0)
		close(fd);
	free(dir);
	free(path);
	free(lock);
	free(ws);
	free(key);
	return rc;
}

static void json_str(struct pc_buf *b, const char *s)
{
	cJSON *v = cJSON_CreateString(s);

	pc_serde_print(v, b);
	cJSON_Delete(v);
}

int pc_install_write_source_meta(const char *dir, const char *owner,
				 const char *repo, const char *tag,
				 uint64_t installed_at, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *path = pc_fs_join(dir, PC_INSTALL_SOURCE_META), *url;
	int rc;

	url = pc_xasprintf("https://github.com/%s/%s", owner, repo);
	pc_buf_adds(&b, "{\n  \"kind\": \"github_release\",\n  \"owner\": ");
	json_str(&b, owner);
	pc_buf_adds(&b, ",\n  \"repo\": ");
	json_str(&b, repo);
	pc_buf_adds(&b, ",\n  \"tag\": ");
	json_str(&b, tag);
	pc_buf_adds(&b, ",\n  \"url\": ");
	json_str(&b, url);
	pc_buf_addf(&b, ",\n  \"installed_at\": %llu\n}\n",
		    (unsigned long long)installed_at);
	rc = pc_fs_write(path, b.data, b.len, err);
	free(url);
	free(path);
	pc_buf_release(&b);
	return rc;
}

/* pc_install_zip.c - a release zip as fetch_github_release_plugin unpacks
 * it (spec §11). libzip stays inside this file. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_install.h"
#include "pc_rust.h"
#include "pc_xalloc.h"

#define OPSYS_DOS 0u /* ZIP_OPSYS_DOS */

/* zip's enclosed_name(): no NUL, not absolute, never above the root. */
static bool enclosed(const char *name)
{
	int depth = 0;
	const char *p = name;

	if (name[0] == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return false;
		} else if (n && !(n == 1 && *p == '.')) {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return true;
}

/* ZipFile::unix_mode(): None when the attributes are 0. */
static bool unix_mode(zip_t *za, zip_uint64_t i, unsigned *mode)
{
	zip_uint8_t sys = 0;
	zip_uint32_t attr = 0;

	if (zip_file_get_external_attributes(za, i, 0, &sys, &attr) != 0 ||
	    attr == 0)
		return false;
	if (sys == ZIP_OPSYS_UNIX) {
		*mode = attr >> 16;
		return true;
	}
	if (sys == OPSYS_DOS) {
		*mode = (attr & 0x10) ? (S_IFDIR | 0775u) : (S_IFREG | 0664u);
		if (attr & 0x01)
			*mode &= 0555u;
		return true;
	}
	return false;
}

static int write_entry(zip_t *za, zip_uint64_t i, const char *out,
		       struct pc_err *err)
{
	char buf[65536];
	zip_file_t *zf = zip_fopen_index(za, i, 0);
	zip_int64_t n = 0;
	int fd, e = 0;

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || !zf) {
		e = fd < 0 ? errno : EIO;
		goto out;
	}
	while ((n = zip_fread(zf, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != (ssize_t)n) {
			e = errno ? errno : EIO;
			break;
		}
	if (n < 0)
		e = EIO;
out:
	if (zf)
		zip_fclose(zf);
	if (fd >= 0)
		close(fd);
	if (!e)
		return 0;
	return pc_rust_err_io(err, PC_EIO, e, "extract %s", out);
}

static char *rel_to(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strncmp(path, dir, n) && path[n] == '/')
		return pc_xstrdup(path + n + 1);
	return NULL;
}

static int extract(zip_t *za, const char *dest, struct pc_strvec *links,
		   struct pc_err *err)
{
	zip_int64_t n = zip_get_num_entries(za, 0);

	for (zip_int64_t k = 0; k < n; k++) {
		zip_uint64_t i = (zip_uint64_t)k;
		const char *name = zip_get_name(za, i, 0);
		size_t len = name ? strlen(name) : 0;
		unsigned mode = 0;
		bool has_mode = unix_mode(za, i, &mode);
		char *out, *slash;
		int rc;

		if (!name)
			return pc_err_set(err, PC_EINVAL, "zip entry %lld: %s",
					  (long long)k, zip_strerror(za));
		if (!enclosed(name))
			return pc_err_set(err, PC_EINVAL,
					  "zip entry '%s' has an unsafe path",
					  name);
		out = pc_fs_join(dest, name);
		if (len && name[len - 1] == '/') {
			pc_fs_mkdir_p(out, NULL);
			free(out);
			continue;
		}
		slash = strrchr(out, '/');
		*slash = '\0';
		pc_fs_mkdir_p(out, NULL);
		*slash = '/';
		rc = write_entry(za, i, out, err);
		if (!rc && has_mode)
			chmod(out, mode & 07777);
		if (!rc && has_mode && S_ISLNK(mode))
			pc_strvec_push(links, out);
		free(out);
		if (rc)
			return rc;
	}
	return 0;
}

/* find_single_top_level_dir + resolve_plugin_dir(None). */
static char *plugin_dir(const char *dest, struct pc_err *err)
{
	DIR *d = opendir(dest);
	struct dirent *de;
	char *top = NULL, *pj, *found = NULL;
	size_t ndirs = 0, nfound = 0;

	while (d && (de = readdir(d))) {
		char *p = pc_fs_join(dest, de->d_name);
		struct stat st;

		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && !ndirs++)
			top = pc_xstrdup(p);
		free(p);
	}
	if (d)
		closedir(d);
	if (ndirs == 0) {
		pc_err_set(err, PC_EINVAL, "release zip is empty");
		return NULL;
	}
	if (ndirs > 1) {
		free(top);
		top = pc_xstrdup(dest);
	}
	pj = pc_fs_join(top, "plugin.json");
	if (pc_fs_is_file(pj)) {
		free(pj);
		return top;
	}
	free(pj);
	d = opendir(top);
	while (d && (de = readdir(d))) {
		char *p = pc_fs_join(top, de->d_name);

		pj = pc_fs_join(p, "plugin.json");
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    pc_fs_is_dir(p) && pc_fs_is_file(pj) && !nfound++)
			found = pc_xstrdup(p);
		free(pj);
		free(p);
	}
	if (d)
		closedir(d);
	if (nfound == 1) {
		free(top);
		return found;
	}
	free(found);
	if (nfound == 0)
		pc_err_set(
			err, PC_EINVAL,
			"no plugin.json found in the release root %s; pass owner/repo@tag:subdir for monorepos",
			top);
	else
		pc_err_set(
			err, PC_EINVAL,
			"found %zu plugin.json directories in the release; pass owner/repo@tag:subdir to pick one",
			nfound);
	free(top);
	return NULL;
}

/* ensure_plugin_scripts_executable, recording what it changed and which
 * regular files anywhere in the plugin still carry no x bit. */
static void walk_modes(const char *root, const char *rel, int depth,
		       struct pc_install_zip *z)
{
	char *dir = rel ? pc_fs_join(root, rel) : pc_xstrdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *r, *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = rel ? pc_fs_join(rel, de->d_name) : pc_xstrdup(de->d_name);
		p = pc_fs_join(root, r);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk_modes(root, r, depth + 1, z);
		} else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
			   !(st.st_mode & 0111)) {
			bool fix = depth == 1 && (!strcmp(rel, "hooks") ||
						  !strcmp(rel, "tools") ||
						  !strcmp(rel, "oauth"));

			if (fix && chmod(p, (st.st_mode & 07777) | 0755) == 0)
				pc_strvec_push(&z->made_exec, r);
			else
				pc_strvec_push(&z->no_exec, r);
		}
		free(r);
		free(p);
	}
	if (d)
		closedir(d);
	free(dir);
}

static int open_zip(const char *path, zip_t **za, struct pc_err *err)
{
	struct stat st;
	int e = 0;

	if (stat(path, &st) != 0)
		return pc_rust_err_io(err, PC_EIO, errno,
				      "download release source zip failed");
	if ((uint64_t)st.st_size > PC_INSTALL_MAX_ZIP_BYTES)
		return pc_err_set(
			err, PC_EINVAL,
			"release source zip is too large (%lld bytes; max %llu bytes)",
			(long long)st.st_size,
			(unsigned long long)PC_INSTALL_MAX_ZIP_BYTES);
	*za = zip_open(path, ZIP_RDONLY, &e);
	if (!*za) {
		zip_error_t ze;

		zip_error_init_with_code(&ze, e);
		pc_err_set(err, PC_EINVAL, "invalid zip archive: %s",
			   zip_error_strerror(&ze));
		zip_error_fini(&ze);
		return PC_EINVAL;
	}
	return 0;
}

int pc_install_extract_zip(const char *zip, const char *dest,
			   struct pc_install_zip *z, struct pc_err *err)
{
	struct pc_strvec links = PC_STRVEC_INIT;
	zip_t *za = NULL; /* gcc -O2 cannot see open_zip sets it on 0 */
	int rc;

	if ((rc = open_zip(zip, &za, err)))
		return rc;
	rc = extract(za, dest, &links, err);
	zip_discard(za);
	if (!rc && !(z->plugin_dir = plugin_dir(dest, err)))
		rc = PC_EINVAL;
	for (size_t i = 0; !rc && i < links.nr; i++) {
		char *r = rel_to(links.v[i], z->plugin_dir);

		if (r)
			pc_strvec_push_nodup(&z->symlinks, r);
	}
	if (!rc)
		walk_modes(z->plugin_dir, NULL, 0, z);
	pc_strvec_release(&links);
	return rc;
}

void pc_install_zip_release(struct pc_install_zip *z)
{
	free(z->plugin_dir);
	z->plugin_dir = NULL;
	pc_strvec_release(&z->made_exec);
	pc_strvec_release(&z->no_exec);
	pc_strvec_release(&z->symlinks);
}

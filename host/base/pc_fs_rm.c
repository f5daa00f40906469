/* pc_fs_rm.c - pc_fs_rm_rf: remove a tree a plugin may have made hostile
 * (directories of mode 000, chains deeper than PATH_MAX, thousands of
 * levels), walking with openat/unlinkat so that neither the modes nor the
 * length of a path matter (issue 21). */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_xalloc.h"

#define KEEP_OPEN  32	    /* directory streams kept open at once */
#define MAX_VISITS 10000000 /* a safety belt against a tree that grows */

struct level {
	char *name; /* in the parent; NULL for the root */
	dev_t dev;
	ino_t ino;
	DIR *d; /* NULL once closed for the fd budget */
};

struct walk {
	struct level *v;
	size_t nr, alloc;
	struct {
		dev_t dev;
		ino_t ino;
	} * skip; /* could not be removed */
	size_t nskip;
	int rc;
};

/* make_searchable - give the directory `fd` (any open mode, O_PATH too)
 * read, write and search for its owner, keeping the other bits: a plugin
 * that made it 000 or 0500 must not keep its contents from being
 * removed. fchmod() refuses O_PATH descriptors, so go through /proc. */
static void make_searchable(int fd, mode_t mode)
{
	char p[64];

	if ((mode & S_IRWXU) == S_IRWXU)
		return;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if (fchmod(fd, (mode & 07777) | S_IRWXU) < 0)
		chmod(p, (mode & 07777) | S_IRWXU);
}

/* open_dir - the directory `name` in `at` (AT_FDCWD with a path for the
 * root), not following a symlink, made searchable first if need be.
 * -1 with errno. */
static int open_dir(int at, const char *name, struct stat *st)
{
	int fd =
		openat(at, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rfd;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) == 0)
		make_searchable(fd, st->st_mode);
	rfd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rfd >= 0 && fstat(rfd, st) < 0) {
		close(rfd);
		rfd = -1;
	}
	close(fd);
	return rfd;
}

static bool skipped(const struct walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->nskip; i++)
		if (w->skip[i].dev == st->st_dev &&
		    w->skip[i].ino == st->st_ino)
			return true;
	return false;
}

static void add_skip(struct walk *w, dev_t dev, ino_t ino)
{
	w->skip = pc_xreallocarray(w->skip, w->nskip + 1, sizeof(*w->skip));
	w->skip[w->nskip].dev = dev;
	w->skip[w->nskip++].ino = ino;
	w->rc = PC_EIO;
}

/* push - descend into `fd` (taken), the directory `name` of the top. */
static void push(struct walk *w, int fd, const char *name,
		 const struct stat *st)
{
	if (w->nr == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 64;
		w->v = pc_xreallocarray(w->v, w->alloc, sizeof(*w->v));
	}
	w->v[w->nr] = (struct level){ .name = name ? pc_xstrdup(name) : NULL,
				      .dev = st->st_dev,
				      .ino = st->st_ino,
				      .d = fdopendir(fd) };
	if (!w->v[w->nr].d)
		close(fd);
	w->nr++;
	if (w->nr > KEEP_OPEN && w->v[w->nr - 1 - KEEP_OPEN].d) {
		closedir(w->v[w->nr - 1 - KEEP_OPEN].d);
		w->v[w->nr - 1 - KEEP_OPEN].d = NULL;
	}
}

/* reopen - a fresh stream for level `k` (closed for the fd budget),
 * reached through ".." from level k + 1 and checked to be the same
 * directory. false when the tree moved under us. */
static bool reopen(struct walk *w, size_t k)
{
	struct level *l = &w->v[k];
	struct stat st;
	int fd = openat(dirfd(w->v[k + 1].d), "..",
			O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || st.st_dev != l->dev || st.st_ino != l->ino ||
	    !(l->d = fdopendir(fd))) {
		close(fd);
		return false;
	}
	return true;
}

/* step - one entry of the top directory: remove it, or descend into it.
 * false at the end of the directory. */
static bool step(struct walk *w)
{
	struct level *top = &w->v[w->nr - 1];
	struct dirent *de;
	struct stat st;
	int fd;

	errno = 0;
	while ((de = readdir(top->d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (unlinkat(dirfd(top->d), n, 0) == 0 || errno == ENOENT)
			continue;
		if (errno != EISDIR && errno != EPERM)
			break; /* EACCES, EROFS, ...: cannot be helped */
		if (unlinkat(dirfd(top->d), n, AT_REMOVEDIR) == 0)
			continue;
		fd = open_dir(dirfd(top->d), n, &st);
		if (fd < 0)
			break;
		if (skipped(w, &st)) {
			close(fd);
			continue;
		}
		push(w, fd, n, &st);
		return true;
	}
	if (de) /* an entry that resists: note the directory as stuck */
		w->rc = PC_EIO;
	return false;
}

/* pop - the top directory is done: close it, remove it from its parent
 * (remembering it when that fails, so it is not descended into again). */
static bool pop(struct walk *w)
{
	struct level *top = &w->v[w->nr - 1], *up;
	bool ok = true;

	if (w->nr >= 2) {
		up = &w->v[w->nr - 2];
		if (!up->d && !reopen(w, w->nr - 2))
			ok = false;
		else if (unlinkat(dirfd(up->d), top->name, AT_REMOVEDIR) < 0 &&
			 errno != ENOENT)
			add_skip(w, top->dev, top->ino);
	}
	if (top->d)
		closedir(top->d);
	free(top->name);
	w->nr--;
	return ok;
}

int pc_fs_rm_rf(const char *path)
{
	struct walk w = { .rc = 0 };
	struct stat st;
	size_t visits = 0;
	int fd;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : PC_EIO;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) == 0 ? 0 : PC_EIO;
	fd = open_dir(AT_FDCWD, path, &st);
	if (fd < 0)
		return PC_EIO;
	push(&w, fd, NULL, &st);
	while (w.nr && visits++ < MAX_VISITS) {
		if (!w.v[w.nr - 1].d) {
			w.rc = PC_EIO;
			break;
		}
		if (!step(&w) && !pop(&w)) {
			w.rc = PC_EIO;
			break;
		}
	}
	while (w.nr) {
		if (w.v[w.nr - 1].d)
			closedir(w.v[w.nr - 1].d);
		free(w.v[--w.nr].name);
	}
	free(w.v);
	free(w.skip);
	if (rmdir(path) < 0 && errno != ENOENT)
		return PC_EIO;
	return w.rc && lstat(path, &st) == 0 ? PC_EIO : 0;
}

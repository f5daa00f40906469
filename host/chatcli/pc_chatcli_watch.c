/* pc_chatcli_watch.c - the host's plugins-directory watcher (D9): the
 * inotify event set fsnotify uses, its mapping to fsnotify ops, and the
 * 500 ms debounce that schedules Reload(). */
#include <sys/inotify.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_chatcli.h"
#include "pc_xalloc.h"

/* fsnotify's inotify backend watches these for a plain Add(). */
#define WATCH_MASK                                                         \
	(IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_ATTRIB | IN_MODIFY | \
	 IN_MOVE_SELF | IN_DELETE | IN_DELETE_SELF)

bool pc_chatcli_fsop_qualifies(unsigned ops)
{
	return ops & (PC_CHATCLI_FS_CREATE | PC_CHATCLI_FS_WRITE |
		      PC_CHATCLI_FS_REMOVE | PC_CHATCLI_FS_RENAME);
}

bool pc_chatcli_debounce_event(struct pc_chatcli_debounce *d, unsigned ops,
			       int64_t now_ms)
{
	if (!pc_chatcli_fsop_qualifies(ops))
		return false;
	d->armed = true;
	d->due_ms = now_ms + PC_CHATCLI_DEBOUNCE_MS;
	return true;
}

bool pc_chatcli_debounce_fire(struct pc_chatcli_debounce *d, int64_t now_ms,
			      int64_t *at_ms)
{
	if (!d->armed || d->due_ms > now_ms)
		return false;
	d->armed = false;
	if (at_ms)
		*at_ms = d->due_ms;
	return true;
}

int pc_chatcli_watch_open(const char *dir, struct pc_err *err)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd < 0)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create an inotify instance");
	if (inotify_add_watch(fd, dir, WATCH_MASK) < 0) {
		int e = errno;

		close(fd);
		return pc_err_set_errno(err, PC_EIO, e, "cannot watch '%s'",
					dir);
	}
	return fd;
}

static unsigned map_mask(uint32_t m)
{
	unsigned ops = 0;

	if (m & (IN_CREATE | IN_MOVED_TO))
		ops |= PC_CHATCLI_FS_CREATE;
	if (m & (IN_DELETE | IN_DELETE_SELF))
		ops |= PC_CHATCLI_FS_REMOVE;
	if (m & IN_MODIFY)
		ops |= PC_CHATCLI_FS_WRITE;
	if (m & (IN_MOVED_FROM | IN_MOVE_SELF))
		ops |= PC_CHATCLI_FS_RENAME;
	if (m & IN_ATTRIB)
		ops |= PC_CHATCLI_FS_CHMOD;
	return ops;
}

unsigned pc_chatcli_watch_drain(int fd, struct pc_chatcli_fsevent **v,
				size_t *nr)
{
	char buf[4096 + sizeof(struct inotify_event) + NAME_MAX + 1]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	unsigned all = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev =
				(const struct inotify_event *)(void *)p;
			unsigned ops = map_mask(ev->mask);

			p += sizeof(*ev) + ev->len;
			if (!ops)
				continue;
			*v = pc_xreallocarray(*v, *nr + 1, sizeof(**v));
			(*v)[*nr].name = pc_xstrdup(ev->len ? ev->name : "");
			(*v)[*nr].ops = ops;
			(*nr)++;
			all |= ops;
		}
	}
	return all;
}

void pc_chatcli_fsevents_free(struct pc_chatcli_fsevent *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

const char *pc_chatcli_fsops_str(unsigned ops, char *buf, size_t n)
{
	static const char *const names[] = { "CREATE", "WRITE", "REMOVE",
					     "RENAME", "CHMOD" };
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < 5; i++) {
		int w;

		if (!(ops & (1u << i)) || used >= n)
			continue;
		w = snprintf(buf + used, n - used, "%s%s", used ? "|" : "",
			     names[i]);
		if (w > 0)
			used += (size_t)w;
	}
	return buf;
}

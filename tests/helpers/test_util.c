/* test_util.c - helpers the unit tests share (test_util.h). */
#include "test_util.h"

#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_xalloc.h"

void tu_write_file(const char *path, const char *text, mode_t mode)
{
	char *dir = pc_xstrdup(path);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(pc_fs_mkdir_p(dir, NULL), 0);
	assert_int_equal(pc_fs_write(path, text, strlen(text), NULL), 0);
	assert_int_equal(chmod(path, mode), 0);
	free(dir);
}

bool tu_read_small(const char *path, char *buf, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	*len = fread(buf, 1, cap - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return true;
}

bool tu_proc_stat(long pid, char *state, long *ppid)
{
	char path[64], buf[512];
	const char *p;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!tu_read_small(path, buf, sizeof(buf), &len) ||
	    !(p = strrchr(buf, ')')))
		return false;
	return sscanf(p + 1, " %c %ld", state, ppid) == 2;
}

static long pid_of(const struct dirent *de)
{
	return de->d_name[0] >= '1' && de->d_name[0] <= '9'
		       ? strtol(de->d_name, NULL, 10)
		       : 0;
}

int tu_count_children(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		long ppid;
		char st;

		if (pid_of(de) && tu_proc_stat(pid_of(de), &st, &ppid) &&
		    ppid == getpid())
			n++;
	}
	closedir(d);
	return n;
}

/* `env` (len bytes of NUL-separated entries) holds the entry `marker`. */
static bool has_entry(const char *env, size_t len, const char *marker)
{
	size_t mlen = strlen(marker);

	for (size_t i = 0; i < len; i += strlen(env + i) + 1)
		if (!strncmp(env + i, marker, mlen) && env[i + mlen] == '\0')
			return true;
	return false;
}

int tu_count_marked(const char *marker, bool kill_them)
{
	static char env[1 << 16];
	char path[PATH_MAX];
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1; /* no cmocka here: forked workers call it too */
	while ((de = readdir(d))) {
		long pid = pid_of(de), ppid;
		size_t len;
		char st;

		if (!pid || !tu_proc_stat(pid, &st, &ppid) || st == 'Z')
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
		if (!tu_read_small(path, env, sizeof(env), &len) ||
		    !has_entry(env, len, marker))
			continue;
		n++;
		if (kill_them)
			kill((pid_t)pid, SIGKILL);
	}
	closedir(d);
	return n;
}

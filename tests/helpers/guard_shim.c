/* guard_shim.c - a recording stand-in for the programs the guard search's
 * seeds run (rm, git, chmod, dd, cat, curl, mkfs.ext4), for the
 * equivalence proof of tests/e2e/test_guard_proof.py. Installed under
 * each program's name on PATH inside a bubblewrap sandbox with a
 * throwaway root; it never does anything but append one line to
 * $PC_SHIM_LOG saying what the program was asked to do:
 *
 *   NAME[ SUB] opts=ID[=VALUE],... ops=OPERAND|... cwd=DIR
 *
 * Options are parsed with getopt_long over the program's table in
 * conformance/guard/pc_guard_progs.c (the tables the rewrites are made
 * from, checked against the real programs' --help), so "-rf", "-r -f",
 * "--recursive --force" and "--rec --f" record the same; each option's
 * meaning (its id) is recorded once, sorted. Path operands are recorded
 * as the file they name (device and inode when it exists in the sandbox,
 * else the path made absolute and lexically normalised), and rm's refusal
 * of a last component "." or ".." is recorded as such. Programs without a
 * model record their arguments as given.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_guard_progs.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lexical normalisation of an absolute path: no "", "." or ".." parts. */
static void normalise(char *p)
{
	char *parts[256], *save = NULL, *t;
	size_t n = 0;
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", p);
	for (t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..")) {
			if (n)
				n--;
			continue;
		}
		if (n < 256)
			parts[n++] = t;
	}
	{
		size_t len = 0;

		for (size_t i = 0; i < n && len < 4000; i++)
			len += (size_t)snprintf(p + len, 4096 - len, "/%s", parts[i]);
		if (!n)
			snprintf(p, 4096, "/");
	}
}

/* What file operand `v` names. */
static void path_of(char *out, size_t n, const char *v, bool rm)
{
	char abs[4096], cwd[2048];
	struct stat st;

	if (rm && pc_guard_last_is_dot(v)) {
		snprintf(out, n, "refused(%s)", v);
		return;
	}
	if (v[0] == '/')
		snprintf(abs, sizeof(abs), "%s", v);
	else
		snprintf(abs, sizeof(abs), "%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : "?", v);
	if (stat(abs, &st) == 0) {
		snprintf(out, n, "file:%lu:%lu", (unsigned long)st.st_dev,
			 (unsigned long)st.st_ino);
		return;
	}
	normalise(abs);
	snprintf(out, n, "path:%s", abs);
}

static void record(const char *line)
{
	const char *log = getenv("PC_SHIM_LOG");
	int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT, 0600) : 2;

	if (fd >= 0) {
		if (write(fd, line, strlen(line)) < 0 || write(fd, "\n", 1) < 0)
			_exit(3);
		if (fd != 2)
			close(fd);
	}
}

static void raw(int argc, char **argv, const char *name)
{
	char line[16384], cwd[2048];
	size_t n = (size_t)snprintf(line, sizeof(line), "%s raw=", name);

	for (int i = 1; i < argc && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", i > 1 ? "|" : "",
				      argv[i]);
	snprintf(line + n, sizeof(line) - n, " cwd=%s", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
	record(line);
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *sub = pc_guard_prog_has_subs(name) && argc > 1 ? argv[1] : NULL;
	const struct pc_guard_prog *p = pc_guard_prog_find(name, sub);
	struct option lo[64];
	char shorts[128] = "+", line[16384], cwd[2048], *ids[64];
	size_t nl = 0, ns = 1, nid = 0, n;
	int c, idx, start = sub ? 1 : 0;

	if (!p) {
		raw(argc, argv, name);
		return 0;
	}
	if (p->permute)
		shorts[0] = '-'; /* keep operands in place, options anywhere */
	for (size_t i = 0; i < p->nopts && nl < 63; i++) {
		const struct pc_guard_popt *o = &p->opts[i];

		if (o->short_name) {
			shorts[ns++] = o->short_name;
			if (o->has_arg)
				shorts[ns++] = ':';
		}
		if (o->long_name)
			lo[nl++] = (struct option){ o->long_name, o->has_arg, NULL,
						    (int)(256 + i) };
	}
	shorts[ns] = '\0';
	lo[nl] = (struct option){ 0 };
	n = (size_t)snprintf(line, sizeof(line), "%s%s%s opts=", name, sub ? " " : "",
			     sub ? sub : "");
	{
		char *ops[256];
		size_t nops = 0;

		optind = start + 1;
		opterr = 0;
		while ((c = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
			const struct pc_guard_popt *o = NULL;

			if (c == 1) { /* an operand, in order (the '-' mode) */
				if (nops < 256)
					ops[nops++] = optarg;
				continue;
			}
			if (c >= 256)
				o = &p->opts[c - 256];
			else if (c != '?')
				o = pc_guard_prog_short(p, (char)c);
			if (!o) {
				raw(argc, argv, name);
				return 0; /* not modelled: record it as given */
			}
			if (nid < 64 && optarg &&
			    asprintf(&ids[nid], "%s=%s", o->id, optarg) >= 0)
				nid++;
			else if (nid < 64 && !optarg)
				ids[nid++] = strdup(o->id);
		}
		for (; optind < argc; optind++)
			if (nops < 256)
				ops[nops++] = argv[optind];
		qsort(ids, nid, sizeof(*ids), cmp);
		for (size_t i = 0; i < nid; i++)
			if (!i || strcmp(ids[i], ids[i - 1]))
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
						      i ? "," : "", ids[i]);
		for (size_t i = 0; i < nid; i++)
			free(ids[i]);
		if (p->keyed)
			qsort(ops, nops, sizeof(*ops), cmp);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " ops=");
		for (size_t i = 0; i < nops && n < sizeof(line); i++) {
			char what[4200];
			const char *v = ops[i], *eq = p->keyed ? strchr(v, '=') : NULL;

			if (p->paths && eq) {
				path_of(what, sizeof(what), eq + 1, false);
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%.*s%s",
						      i ? "|" : "", (int)(eq - v + 1), v, what);
			} else if (p->paths && !p->keyed) {
				path_of(what, sizeof(what), v, !strcmp(name, "rm"));
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
						      i ? "|" : "", what);
			} else {
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
						      i ? "|" : "", v);
			}
		}
	}
	snprintf(line + n, sizeof(line) - n, " cwd=%s",
		 getcwd(cwd, sizeof(cwd)) ? cwd : "?");
	record(line);
	return 0;
}

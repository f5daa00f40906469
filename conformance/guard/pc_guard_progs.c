/* pc_guard_progs.c - the program models of pc_guard_progs.h. The rm and
 * chmod tables are coreutils 9.1's whole long-option tables (checked
 * against --help by tests/e2e/test_guard_proof.py); the others list what
 * the seeds and their rewrites use. */
#include "pc_guard_progs.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct pc_guard_popt rm_opts[] = {
	{ 'f', "force", "force", 0 },
	{ 'i', NULL, "interactive-always", 0 },
	{ 'I', NULL, "interactive-once", 0 },
	{ 0, "interactive", "interactive", 2 },
	{ 0, "one-file-system", "one-file-system", 0 },
	{ 0, "no-preserve-root", "no-preserve-root", 0 },
	{ 0, "preserve-root", "preserve-root", 2 },
	{ 0, "-presume-input-tty", "presume-input-tty", 0 },
	{ 'r', "recursive", "recursive", 0 },
	{ 'R', NULL, "recursive", 0 },
	{ 'd', "dir", "dir", 0 },
	{ 'v', "verbose", "verbose", 0 },
	{ 0, "help", "help", 0 },
	{ 0, "version", "version", 0 },
};

static const struct pc_guard_popt chmod_opts[] = {
	{ 'c', "changes", "changes", 0 },
	{ 0, "no-preserve-root", "no-preserve-root", 0 },
	{ 0, "preserve-root", "preserve-root", 0 },
	{ 'f', "quiet", "quiet", 0 },
	{ 0, "silent", "quiet", 0 },
	{ 0, "reference", "reference", 1 },
	{ 'R', "recursive", "recursive", 0 },
	{ 'v', "verbose", "verbose", 0 },
	{ 0, "help", "help", 0 },
	{ 0, "version", "version", 0 },
};

static const struct pc_guard_popt push_opts[] = {
	{ 'f', "force", "force", 0 },
	{ 0, "force-with-lease", "force-with-lease", 2 },
	{ 0, "force-if-includes", "force-if-includes", 0 },
	{ 'u', "set-upstream", "set-upstream", 0 },
	{ 'v', "verbose", "verbose", 0 },
	{ 'q', "quiet", "quiet", 0 },
	{ 'n', "dry-run", "dry-run", 0 },
	{ 'd', "delete", "delete", 0 },
	{ 0, "tags", "tags", 0 },
	{ 0, "all", "all", 0 },
	{ 0, "mirror", "mirror", 0 },
	{ 0, "no-verify", "no-verify", 0 },
	{ 0, "atomic", "atomic", 0 },
};

static const struct pc_guard_popt clean_opts[] = {
	{ 'f', "force", "force", 0 },
	{ 'd', NULL, "directories", 0 },
	{ 'x', NULL, "ignored-too", 0 },
	{ 'X', NULL, "ignored-only", 0 },
	{ 'n', "dry-run", "dry-run", 0 },
	{ 'q', "quiet", "quiet", 0 },
	{ 'i', "interactive", "interactive", 0 },
	{ 'e', "exclude", "exclude", 1 },
};

static const struct pc_guard_popt reset_opts[] = {
	{ 0, "hard", "hard", 0 },	{ 0, "soft", "soft", 0 },
	{ 0, "mixed", "mixed", 0 },	{ 0, "keep", "keep", 0 },
	{ 0, "merge", "merge", 0 },	{ 'q', "quiet", "quiet", 0 },
	{ 'p', "patch", "patch", 0 },
};

static const struct pc_guard_popt curl_opts[] = {
	{ 'f', "fail", "fail", 0 },
	{ 's', "silent", "silent", 0 },
	{ 'S', "show-error", "show-error", 0 },
	{ 'L', "location", "location", 0 },
	{ 'o', "output", "output", 1 },
};

static const struct pc_guard_popt none[] = { { 0, NULL, NULL, 0 } };

const struct pc_guard_prog pc_guard_progs[] = {
	{ "rm", NULL, rm_opts, N(rm_opts), true, true, true, false, true,
	  "/usr/bin" },
	{ "chmod", NULL, chmod_opts, N(chmod_opts), true, true, true, false,
	  false, "/usr/bin" },
	{ "git", "push", push_opts, N(push_opts), true, false, true, false,
	  false, "/usr/bin" },
	{ "git", "clean", clean_opts, N(clean_opts), true, false, true, false,
	  false, "/usr/bin" },
	{ "git", "reset", reset_opts, N(reset_opts), true, false, true, false,
	  false, "/usr/bin" },
	{ "curl", NULL, curl_opts, N(curl_opts), true, false, false, false,
	  false, "/usr/bin" },
	{ "dd", NULL, none, 0, false, false, false, true, true, "/usr/bin" },
	{ "cat", NULL, none, 0, true, false, true, false, true, "/usr/bin" },
	{ "mkfs.ext4", NULL, none, 0, true, false, true, false, true,
	  "/usr/sbin" },
};
const size_t pc_guard_nprogs = N(pc_guard_progs);

static const char *base(const char *word)
{
	const char *s = strrchr(word, '/');

	return s ? s + 1 : word;
}

bool pc_guard_prog_has_subs(const char *word)
{
	for (size_t i = 0; i < pc_guard_nprogs; i++)
		if (!strcmp(pc_guard_progs[i].word, base(word)) &&
		    pc_guard_progs[i].sub)
			return true;
	return false;
}

const struct pc_guard_prog *pc_guard_prog_find(const char *word,
					       const char *sub)
{
	for (size_t i = 0; i < pc_guard_nprogs; i++) {
		const struct pc_guard_prog *p = &pc_guard_progs[i];

		if (strcmp(p->word, base(word)))
			continue;
		if (!p->sub || (sub && !strcmp(p->sub, sub)))
			return p;
	}
	return NULL;
}

const struct pc_guard_popt *pc_guard_prog_short(const struct pc_guard_prog *p,
						char c)
{
	for (size_t i = 0; c && i < p->nopts; i++)
		if (p->opts[i].short_name == c)
			return &p->opts[i];
	return NULL;
}

const struct pc_guard_popt *pc_guard_prog_long(const struct pc_guard_prog *p,
					       const char *name)
{
	for (size_t i = 0; i < p->nopts; i++)
		if (p->opts[i].long_name && !strcmp(p->opts[i].long_name, name))
			return &p->opts[i];
	return NULL;
}

bool pc_guard_prog_prefix_unique(const struct pc_guard_prog *p,
				 const char *name, size_t n)
{
	size_t hits = 0;

	for (size_t i = 0; i < p->nopts; i++)
		if (p->opts[i].long_name &&
		    !strncmp(p->opts[i].long_name, name, n))
			hits++;
	return hits == 1;
}

bool pc_guard_last_is_dot(const char *v)
{
	size_t n = strlen(v);
	const char *b;

	while (n > 1 && v[n - 1] == '/')
		n--;
	b = v + n;
	while (b > v && b[-1] != '/')
		b--;
	return (v + n - b == 1 && b[0] == '.') ||
	       (v + n - b == 2 && b[0] == '.' && b[1] == '.');
}

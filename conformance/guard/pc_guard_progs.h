/* pc_guard_progs.h - what the guard search knows about the programs its
 * built-in seeds run: their options (short letters, long names, which
 * spellings mean the same thing) and how they read their command line.
 *
 * Two users: the rewrite families (pc_guard_families.c), which respell a
 * command's options only where a model says the program reads both
 * spellings the same; and the recording shims of the equivalence test
 * (tests/helpers/guard_shim.c), which parse their argv with getopt_long
 * over the same tables and record what the program would do. A test
 * checks the tables of the programs whose long options may be
 * abbreviated against the installed program's --help, so that a prefix
 * the search calls unique is unique for the real program too.
 *
 * Libc only; static data, nothing allocates.
 */
#ifndef PC_GUARD_PROGS_H
#define PC_GUARD_PROGS_H

#include <stdbool.h>
#include <stddef.h>

/* One option of a program. Options that share `id` are synonyms (rm's
 * -r, -R and --recursive). */
struct pc_guard_popt {
	char short_name;       /* 0: long only */
	const char *long_name; /* NULL: short only */
	const char *id;	       /* what it means */
	int has_arg;	       /* 0 none, 1 required, 2 optional (long) */
};

struct pc_guard_prog {
	const char *word; /* the command word ("rm", "git") */
	const char *sub;  /* NULL, or the subcommand ("push") */
	const struct pc_guard_popt *opts;
	size_t nopts;
	/* options may come after operands: GNU getopt_long permutes
	 * (POSIXLY_CORRECT is not in the host's environment) and git's
	 * parse-options does too */
	bool permute;
	/* the table is the program's whole long-option table, so a unique
	 * prefix of a long name is that option (getopt_long); only then
	 * does the search abbreviate */
	bool abbrev;
	bool endopts; /* "--" ends the options */
	bool keyed;   /* operands are key=value, order-free (dd) */
	bool paths;   /* operands (dd: the values of if= and of=) are paths */
	const char *dir; /* where Debian installs it ("/usr/bin") */
};

extern const struct pc_guard_prog pc_guard_progs[];
extern const size_t pc_guard_nprogs;

/* pc_guard_prog_find - the model of command word `word` (its base name
 * is used: "/bin/rm" is rm) with subcommand `sub` (NULL: none; only
 * programs modelled per subcommand look at it), or NULL. */
const struct pc_guard_prog *pc_guard_prog_find(const char *word,
					       const char *sub);
/* pc_guard_prog_has_subs - `word` is modelled per subcommand (git). */
bool pc_guard_prog_has_subs(const char *word);
/* pc_guard_prog_short - the option with letter `c`, or NULL. */
const struct pc_guard_popt *pc_guard_prog_short(const struct pc_guard_prog *p,
						char c);
/* pc_guard_prog_long - the option whose long name is `name` exactly, or
 * NULL. */
const struct pc_guard_popt *pc_guard_prog_long(const struct pc_guard_prog *p,
					       const char *name);
/* pc_guard_prog_prefix_unique - `n` bytes of `name` select exactly one
 * long option of `p` (none other starts with them). */
bool pc_guard_prog_prefix_unique(const struct pc_guard_prog *p,
				 const char *name, size_t n);

/* pc_guard_last_is_dot - the last component of path `v` (trailing
 * slashes aside) is "." or "..": rm refuses such an operand, so no
 * respelling of it is the same request. */
bool pc_guard_last_is_dot(const char *v);

#endif

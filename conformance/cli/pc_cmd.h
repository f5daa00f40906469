/* pc_cmd.h - the command table of the plugcheck CLI (tmux's cmd_entry,
 * git.c's cmd_struct) and the one option parser.
 *
 * Each subcommand lives in its own cmd_<name>.c and exports one const
 * descriptor: its name, its positional arguments, its options (struct
 * pc_opt: name, kind, allowed values, which contracts take it) and its
 * run function. main() finds the command, parses the command line once
 * against the descriptor (pc_args_parse) - unknown options, missing or
 * extra arguments, values that do not parse, options given twice and
 * options that conflict are one-line usage errors (exit 2) - and, for a
 * command that serves both plugin contracts (pc_contract.h), picks the
 * contract from --host or from the plugin path and refuses the other
 * contract's options. `--help` text is generated from the same table, so
 * help, man page and parser cannot drift.
 *
 * Ownership: a struct pc_args borrows argv and the descriptor; release it
 * with pc_args_release(). Nothing here exits.
 */
#ifndef PC_CMD_H
#define PC_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pc_strvec.h"

struct pc_args;
struct pc_contract;

enum pc_opt_kind {
	PC_OPT_FLAG,  /* --name */
	PC_OPT_VALUE, /* --name VALUE, once */
	PC_OPT_LIST,  /* --name VALUE, repeatable (kept in order) */
	PC_OPT_ORDER, /* repeatable, and its place among the other ORDER
			 options matters (turn's --text/--disable/...) */
};

/* Contract bits (pc_contract.h); an option with contracts 0 takes both. */
#define PC_C_CATALYST (1u << 0)
#define PC_C_CHATCLI (1u << 1)

struct pc_opt {
	const char *name;     /* the long name, without "--" */
	char short_name;      /* 0: none */
	enum pc_opt_kind kind;
	const char *metavar;  /* "FMT"; NULL for flags */
	const char *help;     /* one line or more (wrapped by the caller) */
	const char *values;   /* NULL, or the allowed values, '|'-separated */
	long min, max;	      /* min < max: VALUE is a whole number in it */
	bool (*valid)(const char *v); /* NULL, or another check */
	const char *expect;   /* what a valid value is (for messages) */
	unsigned contracts;   /* PC_C_* bits; 0: every contract */
	const char *why_not;  /* for the other contract: ", whose ..." */
	const char *conflicts; /* NULL, or an option it cannot go with */
	bool required;	      /* the command cannot run without it */
};

struct pc_cmd {
	const char *name;	/* the word after `plugcheck` */
	const char *summary;	/* one line for `plugcheck --help` */
	/* synopsis and description, per contract for a contract command
	 * ([0] Catalyst Code, [1] ChatCLI; [1] NULL: the same) */
	const char *synopsis[2];
	const char *description[2];
	const char *exits;	/* the "Exit: ..." paragraph */
	const struct pc_opt *opts;
	size_t nopts;
	size_t min_pos, max_pos; /* positional arguments; max_pos SIZE_MAX:
				    any number */
	/* contract commands (lint, check, fire, install-check): which
	 * positional is the plugin path (its contract decides, or --host),
	 * and which entry of the contract runs (enum pc_contract_entry) */
	bool by_contract;
	size_t path_pos;
	int entry;
	/* run - every other command; argv words are in a->pos. Returns an
	 * enum pc_exit. */
	int (*run)(const struct pc_args *a);
};

/* One option as given. */
struct pc_opt_use {
	const struct pc_opt *opt;
	const char *value; /* borrowed from argv; NULL for flags */
};

struct pc_args {
	const struct pc_cmd *cmd;
	const struct pc_contract *contract; /* by_contract commands */
	char **pos;			    /* borrowed from argv */
	size_t npos;
	struct pc_opt_use *uses;	    /* every option, in order */
	size_t nuses;
	bool help;			    /* -h / --help was given */
};

#define PC_ARGS_INIT { 0 }

/* pc_args_parse - parse `argc` words of `argv` (argv[0] is the command
 * name) against `cmd` into `a` (PC_ARGS_INIT; release it). Returns 0; or
 * an exit code (2) after printing the one-line usage error and the `Run
 * ... --help` line to stderr. -h/--help sets a->help and stops checking
 * arguments. */
int pc_args_parse(const struct pc_cmd *cmd, int argc, char **argv,
		  struct pc_args *a);
void pc_args_release(struct pc_args *a);

/* pc_args_value - the value of option `name` (the last one given), or
 * NULL when absent. */
const char *pc_args_value(const struct pc_args *a, const char *name);
/* pc_args_flag - option `name` was given. */
bool pc_args_flag(const struct pc_args *a, const char *name);
/* pc_args_list - every value of option `name`, in order, appended to
 * `out`. */
void pc_args_list(const struct pc_args *a, const char *name,
		  struct pc_strvec *out);
/* pc_args_uint - option `name` as a number (already checked against its
 * range by the parser), or `def` when absent. */
unsigned pc_args_uint(const struct pc_args *a, const char *name,
		      unsigned def);

/* pc_cli_usage_error - print "plugcheck CMD: MESSAGE" and the `Run
 * plugcheck CMD --help` line to stderr; returns 2. */
int pc_cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* pc_cmd_help - write the help of `cmd` (for `contract`, NULL: every
 * contract) to `out`: synopsis, description, the options from the table,
 * exit codes. */
void pc_cmd_help(const struct pc_cmd *cmd, const struct pc_contract *contract,
		 FILE *out);

/* pc_cmd_man - write the man page plugcheck(1) in roff to `out`: every
 * command of pc_cmds with its synopsis, description, options (the same
 * table entries pc_cmd_help prints) and exits, then pc_exit_docs. It is
 * docs/man/plugcheck.1 (`plugcheck --man`; tests/e2e/test_man.py). */
void pc_cmd_man(FILE *out);

/* One exit code and what it means (a wrapped line or more), for
 * `plugcheck --help` and the man page; in order of code (main.c). */
struct pc_exit_doc {
	int code;
	const char *meaning;
};
extern const struct pc_exit_doc pc_exit_docs[];
extern const size_t pc_nexit_docs;

extern const struct pc_cmd pc_cmd_add;
extern const struct pc_cmd pc_cmd_check;
extern const struct pc_cmd pc_cmd_explain;
extern const struct pc_cmd pc_cmd_fire;
extern const struct pc_cmd pc_cmd_guard;
extern const struct pc_cmd pc_cmd_install_check;
extern const struct pc_cmd pc_cmd_keygen;
extern const struct pc_cmd pc_cmd_lint;
extern const struct pc_cmd pc_cmd_mock_model;
extern const struct pc_cmd pc_cmd_new;
extern const struct pc_cmd pc_cmd_rules;
extern const struct pc_cmd pc_cmd_run;
extern const struct pc_cmd pc_cmd_sign;
extern const struct pc_cmd pc_cmd_trust;
extern const struct pc_cmd pc_cmd_turn;
extern const struct pc_cmd pc_cmd_verify;

/* The table, sorted by name (a unit test checks it). */
extern const struct pc_cmd *const pc_cmds[];
extern const size_t pc_ncmds;

/* pc_cmd_find - the command named `name`, or NULL. */
const struct pc_cmd *pc_cmd_find(const char *name);

#endif

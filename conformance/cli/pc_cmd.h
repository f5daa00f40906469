/* pc_cmd.h - the subcommand table of the plugcheck CLI (git.c cmd_struct,
 * tmux cmd_table). Each subcommand lives in its own cmd_<name>.c and
 * exports one const descriptor. */
#ifndef PC_CMD_H
#define PC_CMD_H

#include <stddef.h>

struct pc_cmd {
	const char *name;    /* the word after `plugcheck` */
	const char *summary; /* one line for `plugcheck --help` */
	const char *usage;   /* the full usage text, printed by -h */
	/* run - argv[0] is the subcommand name; returns an enum pc_exit. */
	int (*run)(int argc, char **argv);
};

extern const struct pc_cmd pc_cmd_add;
extern const struct pc_cmd pc_cmd_check;
extern const struct pc_cmd pc_cmd_fire;
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

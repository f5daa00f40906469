/* pc_contract.h - the two plugin contracts plugcheck serves, one table
 * entry each: how a path is recognised as a plugin of the contract, and
 * the contract's lint, check, fire and install-check. The commands that
 * serve both (pc_cmd.by_contract) are dispatched through it by main():
 * `--host catalyst|chatcli` decides, else detect() on the plugin path. */
#ifndef PC_CONTRACT_H
#define PC_CONTRACT_H

#include <stdbool.h>

#include "pc_cmd.h"

enum pc_contract_entry {
	PC_CONTRACT_LINT,
	PC_CONTRACT_CHECK,
	PC_CONTRACT_FIRE,
	PC_CONTRACT_INSTALL_CHECK,
	PC_CONTRACT_NENTRIES
};

struct pc_contract {
	const char *name;  /* the --host value: "catalyst", "chatcli" */
	const char *title; /* "Catalyst Code", "ChatCLI" */
	unsigned bit;	   /* PC_C_CATALYST, PC_C_CHATCLI */
	/* detect - `path` (the argument of command `entry`) is a plugin of
	 * this contract; cheap, runs nothing. */
	bool (*detect)(int entry, const char *path);
	/* the entries, each returning an enum pc_exit */
	int (*run[PC_CONTRACT_NENTRIES])(const struct pc_args *a);
};

extern const struct pc_contract pc_contract_catalyst;
extern const struct pc_contract pc_contract_chatcli;

/* pc_contract_pick - the contract for command `cmd` with --host value
 * `host` (NULL: none) on plugin path `path` (NULL: none): the named one,
 * else ChatCLI when its detect() says so, else Catalyst Code. NULL for an
 * unknown --host value. */
const struct pc_contract *pc_contract_pick(const struct pc_cmd *cmd,
					   const char *host, const char *path);

/* The entries (cmd_*.c for Catalyst Code, cli_chatcli*.c for ChatCLI). */
int pc_catalyst_lint(const struct pc_args *a);
int pc_catalyst_check(const struct pc_args *a);
int pc_catalyst_fire(const struct pc_args *a);
int pc_catalyst_install_check(const struct pc_args *a);
int pc_chatcli_lint(const struct pc_args *a);
int pc_chatcli_check(const struct pc_args *a);
int pc_chatcli_fire(const struct pc_args *a);
int pc_chatcli_install_check(const struct pc_args *a);

#endif

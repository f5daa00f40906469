/* cmd_keygen.c - `plugcheck keygen`: a ChatCLI plugin-signing key pair in
 * the newer upstream tooling's format (spec chatcli.md §6.B). */
#include <stdio.h>
#include <stdlib.h>

#include "cli_opts.h"
#include "pc_chatcli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"

static const struct pc_opt opts[] = {
	{ .name = "output", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "where to write the key pair (default\n"
		  "$HOME/.chatcli/plugin-keys)" },
};

static int run(const struct pc_args *a)
{
	struct pc_err err = PC_ERR_INIT;
	const char *home = getenv("HOME");
	char *dir = pc_args_value(a, "output")
			    ? pc_fs_absolute(pc_args_value(a, "output"))
			    : pc_fs_join(home ? home : "/", ".chatcli/plugin-keys");
	int rc = pc_chatcli_keygen(dir, &err);

	if (rc)
		fprintf(stderr, "plugcheck: %s\n", err.msg);
	else
		printf("private key: %s/plugin-signing.key\npublic key:  %s/plugin-signing.pub\n",
		       dir, dir);
	free(dir);
	return rc ? PC_EXIT_FINDINGS : PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_keygen = {
	.name = "keygen",
	.summary = "create an Ed25519 key pair for signing ChatCLI plugins",
	.synopsis = { "[--output DIR]", NULL },
	.description = { "Create DIR/plugin-signing.key (PKCS#8 PEM, 0600) and\n"
			 "DIR/plugin-signing.pub (PKIX PEM, 0644) for signing ChatCLI plugins.\n"
			 "An existing key is never overwritten.\n",
			 NULL },
	.exits = "Exit: 0 created, 1 a key exists or a file error, 2 usage.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 0,
	.max_pos = 0,
	.run = run,
};

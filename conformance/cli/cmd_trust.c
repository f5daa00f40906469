/* cmd_trust.c - `plugcheck trust PUB`: add a public key to ChatCLI's
 * trusted keys in the §6.B format (spec chatcli.md G4). */
#include <stdio.h>
#include <stdlib.h>

#include "cli_opts.h"
#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const struct pc_opt opts[] = {
	{ .name = "name", .kind = PC_OPT_VALUE, .metavar = "NAME",
	  .help = "the key file's name (default: PUB's base name without its\n"
		  "extension)" },
	{ .name = "trusted-keys", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "the trusted-key directory (default\n"
		  "$HOME/.chatcli/trusted-keys)" },
};

static int run(const struct pc_args *a)
{
	struct pc_err err = PC_ERR_INIT;
	char *keys = pc_args_value(a, "trusted-keys")
			     ? pc_xstrdup(pc_args_value(a, "trusted-keys"))
			     : pc_chatcli_default_keys();
	char *written = NULL;
	int rc = PC_EXIT_OK;

	if (pc_chatcli_trust(a->pos[0], keys, pc_args_value(a, "name"), &written,
			     &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_FINDINGS;
	} else {
		printf("trusted %s -> %s\n", a->pos[0], written);
	}
	free(written);
	free(keys);
	return rc;
}

const struct pc_cmd pc_cmd_trust = {
	.name = "trust",
	.summary = "add a public key to ChatCLI's trusted keys",
	.synopsis = { "PUB [--name NAME] [--trusted-keys DIR]", NULL },
	.description = { "Re-encode the Ed25519 public key PUB (PEM or base64) as PKIX PEM into\n"
			 "DIR/NAME.pub.\n",
			 NULL },
	.exits = "Exit: 0 trusted, 1 a bad key, name or file error, 2 usage.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = run,
};

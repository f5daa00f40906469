/* cmd_sign.c - `plugcheck sign EXE --key K`: the .sig ChatCLI verifies
 * (spec chatcli.md G1-G3, written in the §6.B format). */
#include <stdio.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_chatcli.h"
#include "pc_cmd.h"
#include "pc_exit.h"

static const struct pc_opt opts[] = {
	{ .name = "key", .kind = PC_OPT_VALUE, .metavar = "KEY",
	  .help = "the PKCS#8 Ed25519 private key (from `plugcheck keygen`)",
	  .required = true },
	{ .name = "output", .kind = PC_OPT_VALUE, .metavar = "SIG",
	  .help = "where to write the signature (default EXE.sig)" },
	{ .name = "layout", .kind = PC_OPT_VALUE, .metavar = "L",
	  .help = "upstream (default: the base64 line and three comment\n"
		  "lines) or head (the base64 line alone)",
	  .values = "upstream|head" },
};

static int run(const struct pc_args *a)
{
	struct pc_err err = PC_ERR_INIT;
	const char *key = pc_args_value(a, "key"), *out = pc_args_value(a, "output");
	const char *layout = pc_args_value(a, "layout");
	bool head = layout && !strcmp(layout, "head");

	if ((head ? pc_chatcli_sign_head : pc_chatcli_sign)(a->pos[0], key, out,
							    &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_FINDINGS;
	}
	if (out)
		printf("signed %s -> %s\n", a->pos[0], out);
	else
		printf("signed %s -> %s.sig\n", a->pos[0], a->pos[0]);
	return PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_sign = {
	.name = "sign",
	.summary = "sign a ChatCLI plugin (EXE.sig)",
	.synopsis = { "EXE --key KEY [--output SIG] [--layout upstream|head]", NULL },
	.description = { "Sign the ChatCLI plugin EXE with the PKCS#8 Ed25519 private key KEY:\n"
			 "Ed25519 over the SHA-256 of the whole file, written as one base64 line\n"
			 "and, in the newer upstream tooling's layout (the default), three\n"
			 "comment lines. The host at HEAD reads both (G3).\n",
			 NULL },
	.exits = "Exit: 0 signed, 1 a key or file error, 2 usage.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = run,
};

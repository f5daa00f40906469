/* cmd_sign.c - `plugcheck sign EXE --key K`: the .sig ChatCLI verifies
 * (spec chatcli.md G1-G3, written in the §6.B format). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_cmd.h"
#include "pc_exit.h"

static const char usage[] =
	"usage: plugcheck sign EXE --key KEY [--output SIG] [--layout upstream|head]\n\n"
	"Sign the ChatCLI plugin EXE with the PKCS#8 Ed25519 private key KEY\n"
	"(from `plugcheck keygen`): Ed25519 over the SHA-256 of the whole file,\n"
	"written to SIG (default EXE.sig) as one base64 line and, in the newer\n"
	"upstream tooling's layout (the default), three comment lines; `head`\n"
	"writes the base64 line alone. The host at HEAD reads both (G3).\n\n"
	"Exit: 0 signed, 1 a key or file error, 2 usage.\n";

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "layout", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_err err = PC_ERR_INIT;
	const char *key = NULL, *out = NULL;
	bool head = false;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return PC_EXIT_OK;
		} else if (ch == 'k') {
			key = optarg;
		} else if (ch == 'o') {
			out = optarg;
		} else if (ch == 'l' && (!strcmp(optarg, "head") ||
					 !strcmp(optarg, "upstream"))) {
			head = !strcmp(optarg, "head");
		} else {
			fputs(usage, stderr);
			return PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !key) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	if ((head ? pc_chatcli_sign_head : pc_chatcli_sign)(argv[optind], key,
							    out, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_FINDINGS;
	}
	if (out)
		printf("signed %s -> %s\n", argv[optind], out);
	else
		printf("signed %s -> %s.sig\n", argv[optind], argv[optind]);
	return PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_sign = {
	.name = "sign",
	.summary = "sign a ChatCLI plugin (EXE.sig)",
	.usage = usage,
	.run = run,
};

/* cmd_trust.c - `plugcheck trust PUB`: add a public key to ChatCLI's
 * trusted keys in the §6.B format (spec chatcli.md G4). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const char usage[] =
	"usage: plugcheck trust PUB [--name NAME] [--trusted-keys DIR]\n\n"
	"Re-encode the Ed25519 public key PUB (PEM or base64) as PKIX PEM into\n"
	"DIR/NAME.pub (default $HOME/.chatcli/trusted-keys; NAME defaults to\n"
	"PUB's base name without its extension).\n\n"
	"Exit: 0 trusted, 1 a bad key, name or file error, 2 usage.\n";

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "trusted-keys", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_err err = PC_ERR_INIT;
	const char *name = NULL;
	char *keys = NULL, *written = NULL;
	int ch, rc = PC_EXIT_OK;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'n') {
			name = optarg;
		} else if (ch == 'k') {
			free(keys);
			keys = pc_xstrdup(optarg);
		} else {
			fputs(usage, ch == 'h' ? stdout : stderr);
			free(keys);
			return ch == 'h' ? PC_EXIT_OK : PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		free(keys);
		return PC_EXIT_USAGE;
	}
	if (!keys)
		keys = pc_chatcli_default_keys();
	if (pc_chatcli_trust(argv[optind], keys, name, &written, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_FINDINGS;
	} else {
		printf("trusted %s -> %s\n", argv[optind], written);
	}
	free(written);
	free(keys);
	return rc;
}

const struct pc_cmd pc_cmd_trust = {
	.name = "trust",
	.summary = "add a public key to ChatCLI's trusted keys",
	.usage = usage,
	.run = run,
};

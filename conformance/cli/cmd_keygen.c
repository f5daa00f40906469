/* cmd_keygen.c - `plugcheck keygen`: a ChatCLI plugin-signing key pair in
 * the newer upstream tooling's format (spec chatcli.md §6.B). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "pc_chatcli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"

static const char usage[] =
	"usage: plugcheck keygen [--output DIR]\n\n"
	"Create DIR/plugin-signing.key (PKCS#8 PEM, 0600) and\n"
	"DIR/plugin-signing.pub (PKIX PEM, 0644) for signing ChatCLI plugins.\n"
	"DIR defaults to $HOME/.chatcli/plugin-keys. An existing key is never\n"
	"overwritten.\n\n"
	"Exit: 0 created, 1 a key exists or a file error, 2 usage.\n";

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_err err = PC_ERR_INIT;
	const char *home = getenv("HOME");
	char *dir = NULL;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			free(dir);
			return PC_EXIT_OK;
		}
		if (ch != 'o') {
			fputs(usage, stderr);
			free(dir);
			return PC_EXIT_USAGE;
		}
		free(dir);
		dir = pc_fs_absolute(optarg);
	}
	if (optind != argc) {
		fputs(usage, stderr);
		free(dir);
		return PC_EXIT_USAGE;
	}
	if (!dir)
		dir = pc_fs_join(home ? home : "/", ".chatcli/plugin-keys");
	rc = pc_chatcli_keygen(dir, &err);
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
	.usage = usage,
	.run = run,
};

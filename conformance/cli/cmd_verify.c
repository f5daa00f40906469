/* cmd_verify.c - `plugcheck verify EXE`: ChatCLI's signature decision
 * (spec chatcli.md G5) with the host's exact texts. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

static const char usage[] =
	"usage: plugcheck verify EXE [--trusted-keys DIR]\n\n"
	"Decide as ChatCLI's loader does whether EXE (with EXE.sig) loads: the\n"
	"trusted keys are DIR/*.pub (default $HOME/.chatcli/trusted-keys), and\n"
	"CHATCLI_ALLOW_UNSIGNED_PLUGINS=true tolerates a missing signature or an\n"
	"empty trust store. Prints \"verified\", \"allowed unsigned\" or the host's\n"
	"error text.\n\n"
	"Exit: 0 the host loads it, 1 the host skips it, 2 usage.\n";

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trusted-keys", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *keys = NULL, *error = NULL;
	bool allow;
	size_t nk = 0;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h' || ch != 'k') {
			fputs(usage, ch == 'h' ? stdout : stderr);
			free(keys);
			return ch == 'h' ? PC_EXIT_OK : PC_EXIT_USAGE;
		}
		free(keys);
		keys = pc_xstrdup(optarg);
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		free(keys);
		return PC_EXIT_USAGE;
	}
	if (!keys)
		keys = pc_chatcli_default_keys();
	allow = pc_chatcli_unsigned_allowed(
		getenv("CHATCLI_ALLOW_UNSIGNED_PLUGINS"));
	rc = pc_chatcli_sig_verify(argv[optind], keys, allow, &error, &nk);
	if (rc) {
		printf("%s: %s\n", argv[optind], error);
	} else {
		free(error);
		error = NULL;
		rc = pc_chatcli_sig_verify(argv[optind], keys, false, &error,
					   NULL);
		printf("%s: %s (%zu trusted key(s) in %s)\n", argv[optind],
		       rc ? "allowed unsigned" : "verified", nk, keys);
		rc = 0;
	}
	free(error);
	free(keys);
	return rc ? PC_EXIT_FINDINGS : PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_verify = {
	.name = "verify",
	.summary = "decide as ChatCLI does whether a plugin's signature loads",
	.usage = usage,
	.run = run,
};

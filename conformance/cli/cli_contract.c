/* cli_contract.c - the contract table (pc_contract.h). */
#include <string.h>

#include "pc_chatcli.h"
#include "pc_chatcli_icheck.h"
#include "pc_chatcli_suite.h"
#include "pc_contract.h"

static bool never(int entry, const char *path)
{
	(void)entry;
	(void)path;
	return false;
}

/* A ChatCLI plugin is an executable (or a directory of them) without a
 * plugin.json; for install-check, a git directory or URL without one. */
static bool chatcli_detect(int entry, const char *path)
{
	if (!path)
		return false;
	if (entry == PC_CONTRACT_INSTALL_CHECK)
		return pc_chatcli_icheck_is_source(path);
	return pc_chatcli_detect(path) == PC_CONTRACT_CHATCLI;
}

const struct pc_contract pc_contract_catalyst = {
	.name = "catalyst",
	.title = "Catalyst Code",
	.bit = PC_C_CATALYST,
	.detect = never,
	.run = { pc_catalyst_lint, pc_catalyst_check, pc_catalyst_fire,
		 pc_catalyst_install_check },
};

const struct pc_contract pc_contract_chatcli = {
	.name = "chatcli",
	.title = "ChatCLI",
	.bit = PC_C_CHATCLI,
	.detect = chatcli_detect,
	.run = { pc_chatcli_lint, pc_chatcli_check, pc_chatcli_fire,
		 pc_chatcli_install_check },
};

const struct pc_contract *pc_contract_pick(const struct pc_cmd *cmd,
					   const char *host, const char *path)
{
	if (host)
		return !strcmp(host, "catalyst") ? &pc_contract_catalyst
		       : !strcmp(host, "chatcli") ? &pc_contract_chatcli
						  : NULL;
	return pc_contract_chatcli.detect(cmd->entry, path) ? &pc_contract_chatcli
							    : &pc_contract_catalyst;
}

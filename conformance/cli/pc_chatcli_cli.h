/* pc_chatcli_cli.h - helpers of the ChatCLI side of the CLI
 * (cli_chatcli.c, cli_chatcli_install.c); its entries are in
 * pc_contract.h. */
#ifndef PC_CHATCLI_CLI_H
#define PC_CHATCLI_CLI_H

/* pc_chatcli_default_keys - $HOME/.chatcli/trusted-keys (G4); new string. */
char *pc_chatcli_default_keys(void);

#endif

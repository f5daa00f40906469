/* pc_chatcli_cli.h - the ChatCLI side of `plugcheck lint|check|fire`
 * (cli_chatcli.c), entered from the top of the Catalyst commands' run()
 * so that their own code stays as it was. */
#ifndef PC_CHATCLI_CLI_H
#define PC_CHATCLI_CLI_H

/* pc_chatcli_cli_route - for `lint` or `check` (`cmd`): when --host
 * chatcli is given, or no --host is given and the PATH argument is a
 * ChatCLI plugin (pc_chatcli_detect), run the ChatCLI command and return
 * its exit code. Otherwise return -1, having removed any `--host
 * catalyst` from argv (*argc adjusted), so the Catalyst parser sees the
 * command line it always did. A bad --host value returns PC_EXIT_USAGE,
 * and so does `check --sandbox` on a ChatCLI plugin, with a message saying
 * the sandbox is for Catalyst Code plugins only (it enforces declared
 * capabilities, catalyst-code.md R3.1; ChatCLI plugins declare none,
 * chatcli.md C1). */
int pc_chatcli_cli_route(int *argc, char **argv, const char *cmd);

/* pc_chatcli_fire_call - `plugcheck fire call EXE --args TEXT`: one model
 * call through the ChatCLI reference host (argv[1] is "call"). Returns an
 * enum pc_exit. */
int pc_chatcli_fire_call(int argc, char **argv);

/* pc_chatcli_install_route - for `install-check`: when --host chatcli is
 * given, or no --host is given and the source argument is a git directory
 * or URL without plugin.json (pc_chatcli_icheck_is_source), run the
 * ChatCLI install-check (I2-I5, D9) and return its exit code. Otherwise
 * return -1 with any `--host catalyst` removed from argv (*argc adjusted)
 * for the Catalyst command. A bad --host value returns PC_EXIT_USAGE. */
int pc_chatcli_install_route(int *argc, char **argv);

/* pc_chatcli_default_keys - $HOME/.chatcli/trusted-keys (G4); new string. */
char *pc_chatcli_default_keys(void);

#endif

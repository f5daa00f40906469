/* pc_cli_scaffold.h - what `plugcheck new` and `plugcheck add` share: the
 * parts given on the command line, checked against the host's own name
 * rules before pc_scaffold.h writes anything.
 *
 * Every check returns 0, or -1 with *msg set to a new string (caller
 * frees) that names the rule and the fix; the checks never print or exit,
 * so tests/unit/test_scaffold.c calls them directly. Only
 * pc_cli_scaffold_run() prints.
 */
#ifndef PC_CLI_SCAFFOLD_H
#define PC_CLI_SCAFFOLD_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_scaffold.h"

#define PC_CLI_SCAFFOLD_MAX_PARTS 64
/* The longest plugin name: a file name's NAME_MAX, in bytes. */
#define PC_CLI_SCAFFOLD_NAME_MAX 255

/* The parts of one `new`/`add` command line. Names are borrowed from argv. */
struct pc_cli_parts {
	struct pc_scaffold_part v[PC_CLI_SCAFFOLD_MAX_PARTS];
	size_t n;
	bool override; /* --override: built-in tool names are allowed */
};

/* pc_cli_scaffold_plugin_name - whether `new NAME` may use `name`.
 * Catalyst Code (R2.5): non-empty, not "." or "..", no '/' or '\'; valid
 * UTF-8 (plugin.json is UTF-8 JSON, R2.1); at most
 * PC_CLI_SCAFFOLD_NAME_MAX bytes (the host installs it as a directory of
 * that name); no control or line-break character (C0, DEL, C1, U+2028,
 * U+2029: it lands in one-line comments and messages). Any other
 * character is allowed: the templates quote it wherever it is written. ChatCLI (the file name and the registered "@name", M6, N1,
 * N3): letters, digits, '_' and '-', not starting with '_' or "mcp_", and
 * "@name" not a builtin of the interactive CLI unless `override`. */
int pc_cli_scaffold_plugin_name(enum pc_scaffold_host host, const char *name,
				bool override, char **msg);

/* pc_cli_scaffold_add_part - append a part of `kind` named `name` (NULL for
 * the memory provider; borrowed) to *ps, filling the hook facts from the
 * host's policy table (R4.2: blocking, default timeout; pass_args where
 * the point carries data, R4.6). Refuses an unknown hook point, a command
 * in RESERVED_COMMAND_NAMES (R2.8; a leading '/' is dropped), a name that
 * is not a safe file name, a duplicate, or more than
 * PC_CLI_SCAFFOLD_MAX_PARTS parts. */
int pc_cli_scaffold_add_part(struct pc_cli_parts *ps,
			     enum pc_scaffold_kind kind, const char *name,
			     char **msg);

/* pc_cli_scaffold_check_tools - refuse tools named like a built-in tool
 * (R2.14, R2.15: the host hides them) unless ps->override, in which case
 * they get "override": true. */
int pc_cli_scaffold_check_tools(struct pc_cli_parts *ps, char **msg);

/* pc_cli_scaffold_usage - print the usage error "plugcheck CMD: MSG" and
 * the --help line on stderr (pc_cli_usage_error), free `msg` (owned, from
 * the checks above) and return PC_EXIT_USAGE (2). */
int pc_cli_scaffold_usage(const char *cmd, char *msg);

/* pc_cli_scaffold_run - find the templates and run pc_scaffold_add (add)
 * or pc_scaffold_new; print "  wrote DIR/PATH" per file on stdout and the
 * error on stderr; for a Catalyst plugin in sh or python, load the result
 * with the host's loader and warn on stderr if it refuses it. For add, a
 * plugin.json whose text the host rejects (pc_manifest_check_text,
 * R1.11) is refused first: the host's message as lint's
 * PC-LOAD-001 and a fix on stderr, nothing written, PC_EXIT_FINDINGS.
 * Returns PC_EXIT_OK or PC_EXIT_FINDINGS (nothing or not everything
 * written). */
int pc_cli_scaffold_run(struct pc_scaffold_opts *o, bool add);

#endif

/* cli_opts.h - option table entries several commands share (pc_cmd.h). */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdbool.h>

#include "pc_cmd.h"

/* cli_is_rule - `v` is a rule id of the table (`plugcheck rules`). */
bool cli_is_rule(const char *v);

#define CLI_OPT_FORMAT(vals)                                                  \
	{ .name = "format", .kind = PC_OPT_VALUE, .metavar = "FMT",         \
	  .help = "the report format: " vals, .values = vals }
/* --format of a command whose report is a struct pc_report: the forms
 * of pc_report.h, github the default under GitHub Actions
 * (pc_cli_out_open). */
#define CLI_OPT_REPORT_FORMAT(vals)                                           \
	{ .name = "format", .kind = PC_OPT_VALUE, .metavar = "FMT",         \
	  .help = "the report format: " vals "\n"                          \
		  "(sarif: SARIF 2.1.0 for code scanning, docs/sarif.md;\n"  \
		  "github: GitHub Actions annotations, then the human\n"     \
		  "report - the default when GITHUB_ACTIONS=true)",         \
	  .values = vals }
#define CLI_OPT_OUTPUT                                                        \
	{ .name = "output", .kind = PC_OPT_VALUE, .metavar = "FILE",        \
	  .help = "write the report (in --format) to FILE; the human\n"     \
		  "summary still goes to standard output (- is stdout)" }
#define CLI_OPT_HTML                                                          \
	{ .name = "html", .kind = PC_OPT_VALUE, .metavar = "FILE",          \
	  .help = "also write the report as one self-contained HTML page\n" \
		  "to FILE (docs/report.md), beside --format" }
#define CLI_OPT_STRICT                                                        \
	{ .name = "strict", .kind = PC_OPT_FLAG,                            \
	  .help = "warnings fail the run too" }
#define CLI_OPT_IGNORE                                                        \
	{ .name = "ignore", .kind = PC_OPT_LIST, .metavar = "ID",           \
	  .help = "suppress a rule id (repeatable; shown as suppressed)",   \
	  .valid = cli_is_rule,                                             \
	  .expect = "a rule id: see `plugcheck rules`" }
#define CLI_OPT_HOST                                                          \
	{ .name = "host", .kind = PC_OPT_VALUE, .metavar = "HOST",          \
	  .help = "the contract: catalyst or chatcli (default: from PATH)", \
	  .values = "catalyst|chatcli" }
#define CLI_OPT_KEYS                                                          \
	{ .name = "trusted-keys", .kind = PC_OPT_VALUE, .metavar = "DIR",   \
	  .help = "the trusted-key directory (default\n"                    \
		  "~/.chatcli/trusted-keys)",                               \
	  .contracts = PC_C_CHATCLI }
#define CLI_OPT_SANDBOX(what)                                                 \
	{ .name = "sandbox", .kind = PC_OPT_FLAG,                           \
	  .help = "run " what " under bubblewrap with only its\n"           \
		  "declared capabilities; report what it tries beyond them\n" \
		  "(PC-SBX-*; needs bwrap and strace; docs/sandbox.md)",    \
	  .contracts = PC_C_CATALYST,                                       \
	  .why_not = ", which declares no capabilities to enforce" }

#define CLI_NOPTS(a) (sizeof(a) / sizeof((a)[0]))

#endif

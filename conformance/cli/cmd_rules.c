/* cmd_rules.c - `plugcheck rules`: every check id. */
#include <stdio.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_rule.h"

static const struct pc_opt opts[] = {
	CLI_OPT_FORMAT("human|json"),
};

static int run(const struct pc_args *a)
{
	const char *fmt = pc_args_value(a, "format");

	if (fmt && !strcmp(fmt, "json")) {
		cJSON *arr = cJSON_CreateArray();

		for (size_t i = 0; i < pc_nrules; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "id", pc_rules[i].id);
			cJSON_AddStringToObject(o, "severity",
						pc_severity_name(pc_rules[i].severity));
			cJSON_AddStringToObject(o, "title", pc_rules[i].title);
			cJSON_AddStringToObject(o, "fix", pc_rules[i].fix);
			cJSON_AddStringToObject(o, "rule", pc_rules[i].spec);
			cJSON_AddItemToArray(arr, o);
		}
		pc_cli_print_json(arr);
		return PC_EXIT_OK;
	}
	for (size_t i = 0; i < pc_nrules; i++)
		printf("%-14s %-8s %s [%s]\n               fix: %s\n",
		       pc_rules[i].id, pc_severity_name(pc_rules[i].severity),
		       pc_rules[i].title, pc_rules[i].spec, pc_rules[i].fix);
	puts("\n`plugcheck explain ID` explains a rule: what the host does, a failing\n"
	     "example, the fix and the example fixed (docs/rules/ID.md).");
	return PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_rules = {
	.name = "rules",
	.summary = "list every check id with its severity, fix and spec rule",
	.synopsis = { "[options]", NULL },
	.description = { "List every check plugcheck makes: its stable id, severity, title, fix\n"
			 "and the spec rule it rests on. `plugcheck explain ID` explains one.\n",
			 NULL },
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 0,
	.max_pos = 0,
	.run = run,
};

/* cmd_rules.c - `plugcheck rules`: every check id. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_finding.h"

static const char usage[] =
	"usage: plugcheck rules [--format human|json]\n\n"
	"List every check plugcheck makes: its stable id, severity, title, fix\n"
	"and the spec rule it rests on.\n";

static int run(int argc, char **argv)
{
	int fmt = PC_FMT_HUMAN;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return PC_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--format"))
		fmt = pc_cli_format(argv[2]);
	else if (argc != 1)
		fmt = -1;
	if (fmt < 0) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	if (fmt == PC_FMT_JSON) {
		cJSON *a = cJSON_CreateArray();

		for (size_t i = 0; i < pc_nrules; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "id", pc_rules[i].id);
			cJSON_AddStringToObject(o, "severity",
						pc_severity_name(pc_rules[i].severity));
			cJSON_AddStringToObject(o, "title", pc_rules[i].title);
			cJSON_AddStringToObject(o, "fix", pc_rules[i].fix);
			cJSON_AddStringToObject(o, "rule", pc_rules[i].spec);
			cJSON_AddItemToArray(a, o);
		}
		pc_cli_print_json(a);
		return PC_EXIT_OK;
	}
	for (size_t i = 0; i < pc_nrules; i++)
		printf("%-14s %-8s %s [%s]\n               fix: %s\n",
		       pc_rules[i].id, pc_severity_name(pc_rules[i].severity),
		       pc_rules[i].title, pc_rules[i].spec, pc_rules[i].fix);
	return PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_rules = {
	.name = "rules",
	.summary = "list every check id with its severity, fix and spec rule",
	.usage = usage,
	.run = run,
};

/* cmd_lint.c - `plugcheck lint PATH`: load only, no script runs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli_cli.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_lint.h"

static const char usage[] =
	"usage: plugcheck lint PATH [--format human|json]\n\n"
	"Load the Catalyst Code plugin in PATH exactly as the host does and run\n"
	"the static checks. No plugin script is run.\n\n"
	"  --format FMT  human (default) or json\n"
	"  -h, --help    show this help\n\n"
	"Exit: 0 loaded without errors, 1 a finding of severity error,\n"
	"2 usage error, 3 the host rejects the plugin.\n";

static void print_human(const char *path, const struct pc_lint *l)
{
	bool color = pc_cli_color();
	const char *red = color ? "\033[31m" : "", *yel = color ? "\033[33m" : "";
	const char *off = color ? "\033[0m" : "";

	if (l->plugin)
		printf("%s: loaded '%s' %s\n  capabilities: ", path,
		       l->plugin->name, l->plugin->version);
	else if (l->host_error)
		printf("%s: %sREJECTED%s by the host\n  host error: %s\n", path,
		       red, off, l->host_error);
	else
		printf("%s: %sNOT A PLUGIN%s: the host would not look at it\n",
		       path, red, off);
	for (size_t i = 0; l->plugin && i < l->plugin->capabilities.nr; i++)
		printf("%s%s", i ? ", " : "", l->plugin->capabilities.v[i]);
	if (l->plugin)
		printf("%s\n", l->plugin->capabilities.nr ? "" : "(none)");
	for (size_t i = 0; i < l->host_log.nr; i++)
		printf("  host log: %s\n", l->host_log.v[i]);
	for (size_t i = 0; i < l->findings.nr; i++) {
		const struct pc_finding *f = &l->findings.v[i];
		enum pc_severity s = f->rule->severity;

		printf("%s%s%s %s [%s]: %s\n    fix: %s\n",
		       s == PC_SEV_ERROR ? red : s == PC_SEV_WARNING ? yel : "",
		       pc_severity_name(s), off, f->rule->id, f->rule->spec,
		       f->message, f->rule->fix);
	}
	printf("%zu error(s), %zu warning(s), %zu note(s)\n",
	       pc_findings_count(&l->findings, PC_SEV_ERROR),
	       pc_findings_count(&l->findings, PC_SEV_WARNING),
	       pc_findings_count(&l->findings, PC_SEV_NOTE));
}

static cJSON *to_json(const struct pc_lint *l)
{
	cJSON *o = cJSON_CreateObject(), *caps = cJSON_CreateArray();
	cJSON *log = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "contract", "catalyst");
	cJSON_AddBoolToObject(o, "loaded", l->plugin != NULL);
	if (l->host_error)
		cJSON_AddStringToObject(o, "host_error", l->host_error);
	else
		cJSON_AddNullToObject(o, "host_error");
	if (l->plugin) {
		cJSON_AddStringToObject(o, "name", l->plugin->name);
		cJSON_AddStringToObject(o, "version", l->plugin->version);
	}
	for (size_t i = 0; l->plugin && i < l->plugin->capabilities.nr; i++)
		cJSON_AddItemToArray(caps, cJSON_CreateString(l->plugin->capabilities.v[i]));
	cJSON_AddItemToObject(o, "capabilities", caps);
	for (size_t i = 0; i < l->host_log.nr; i++)
		cJSON_AddItemToArray(log, cJSON_CreateString(l->host_log.v[i]));
	cJSON_AddItemToObject(o, "host_log", log);
	cJSON_AddItemToObject(o, "findings", pc_findings_json(&l->findings));
	return o;
}

static int run_catalyst(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_lint l = PC_LINT_INIT;
	int fmt = PC_FMT_HUMAN, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return PC_EXIT_OK;
		}
		if (c != 'f' || (fmt = pc_cli_format(optarg)) < 0) {
			fputs(usage, stderr);
			return PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	pc_lint_plugin(argv[optind], &env, getenv("PATH"), &l);
	if (fmt == PC_FMT_JSON)
		pc_cli_print_json(to_json(&l));
	else
		print_human(argv[optind], &l);
	rc = !l.plugin ? PC_EXIT_NOLOAD
	     : pc_findings_count(&l.findings, PC_SEV_ERROR) ? PC_EXIT_FINDINGS
							    : PC_EXIT_OK;
	pc_lint_release(&l);
	return rc;
}

/* run - ChatCLI plugins (and --host) are routed to cli_chatcli.c; the
 * Catalyst path is unchanged. */
static int run(int argc, char **argv)
{
	int rc = pc_chatcli_cli_route(&argc, argv, "lint");

	return rc >= 0 ? rc : run_catalyst(argc, argv);
}

const struct pc_cmd pc_cmd_lint = {
	.name = "lint",
	.summary = "load a plugin as the host does and run the static checks",
	.usage = usage,
	.run = run,
};

/* cmd_lint.c - `plugcheck lint PATH`: load only, no script runs (the
 * Catalyst Code entry; ChatCLI's is in cli_chatcli.c). The findings are
 * the static cases of `check` (pc_suite_static), so the two agree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_suite.h"

extern char **environ;

static const struct pc_opt opts[] = {
	CLI_OPT_REPORT_FORMAT("human|json|sarif|github"),
	CLI_OPT_HOST,
	CLI_OPT_KEYS,
};

void pc_cli_lint_human(const struct pc_report *r, FILE *out)
{
	bool color = out == stdout && pc_cli_color();
	const char *red = color ? "\033[31m" : "", *yel = color ? "\033[33m" : "";
	const char *off = color ? "\033[0m" : "";
	size_t n;
	const struct pc_finding **v = pc_report_findings(r, &n);

	if (r->loaded)
		fprintf(out, "%s: loaded '%s' %s\n  capabilities: ", r->path, r->name,
		       r->version);
	else if (r->host_error)
		fprintf(out, "%s: %sREJECTED%s by the host\n  host error: %s\n",
		       r->path, red, off, r->host_error);
	else
		fprintf(out, "%s: %sNOT A PLUGIN%s: the host would not look at it\n",
		       r->path, red, off);
	for (size_t i = 0; r->loaded && i < r->capabilities.nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", r->capabilities.v[i]);
	if (r->loaded)
		fprintf(out, "%s\n", r->capabilities.nr ? "" : "(none)");
	for (size_t i = 0; i < r->host_log.nr; i++)
		fprintf(out, "  host log: %s\n", r->host_log.v[i]);
	for (size_t i = 0; i < n; i++) {
		const struct pc_finding *f = v[i];
		enum pc_severity s = f->rule->severity;
		char *place = pc_report_finding_place(r, f);

		/* the place first, as compilers print it */
		fprintf(out, "%s%s%s%s%s %s [%s]: %s\n    fix: %s (see `plugcheck explain %s`)\n",
		       place ? place : "", place ? ": " : "",
		       s == PC_SEV_ERROR ? red : s == PC_SEV_WARNING ? yel : "",
		       pc_severity_name(s), off, f->rule->id, f->rule->spec,
		       f->message, pc_finding_fix(f), f->rule->id);
		free(place);
	}
	fprintf(out, "%zu error(s), %zu warning(s), %zu note(s)\n", r->counts.errors,
	       r->counts.warnings, r->counts.notes);
	free(v);
}

/* The lint JSON form (docs/cli.md): contract, loaded, host_error, name,
 * version, capabilities, host_log, findings. */
static cJSON *to_json(const struct pc_report *r)
{
	cJSON *o = cJSON_CreateObject(), *caps = cJSON_CreateArray();
	cJSON *log = cJSON_CreateArray(), *fs = cJSON_CreateArray();
	size_t n;
	const struct pc_finding **v = pc_report_findings(r, &n);

	cJSON_AddStringToObject(o, "contract", "catalyst");
	cJSON_AddBoolToObject(o, "loaded", r->loaded);
	if (r->host_error)
		cJSON_AddStringToObject(o, "host_error", r->host_error);
	else
		cJSON_AddNullToObject(o, "host_error");
	if (r->loaded) {
		cJSON_AddStringToObject(o, "name", r->name);
		cJSON_AddStringToObject(o, "version", r->version);
	}
	for (size_t i = 0; r->loaded && i < r->capabilities.nr; i++)
		cJSON_AddItemToArray(caps,
				     cJSON_CreateString(r->capabilities.v[i]));
	cJSON_AddItemToObject(o, "capabilities", caps);
	for (size_t i = 0; i < r->host_log.nr; i++)
		cJSON_AddItemToArray(log, cJSON_CreateString(r->host_log.v[i]));
	cJSON_AddItemToObject(o, "host_log", log);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(fs, pc_finding_json(v[i]));
	cJSON_AddItemToObject(o, "findings", fs);
	free(v);
	return o;
}

int pc_cli_lint_write(const struct pc_report *r, const char *fmt,
		      cJSON *(*json)(const struct pc_report *r),
		      void (*human)(const struct pc_report *r, FILE *out))
{
	int f = fmt ? pc_report_format_parse(fmt) : pc_cli_default_format();

	if (f == PC_REPORT_JSON) {
		pc_cli_print_json(json(r));
		return 0;
	}
	if (f == PC_REPORT_HUMAN) {
		pc_cli_lint_human(r, stdout);
		return 0;
	}
	if (f == PC_REPORT_GITHUB && human) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);

		if (!mem)
			return -1;
		human(r, mem);
		fclose(mem);
		pc_report_github_annotations(r, stdout);
		pc_report_github_text(stdout, buf, len);
		free(buf);
		return 0;
	}
	if (pc_report_write(r, (enum pc_report_format)f, stdout, false)) {
		fprintf(stderr, "plugcheck: cannot write standard output: %s\n",
			strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int pc_catalyst_lint(const struct pc_args *a)
{
	struct pc_manifest_env env = pc_cli_manifest_env();
	struct pc_suite_opts so = { .path = a->pos[0], .envp = environ,
				    .menv = &env };
	struct pc_report r = PC_REPORT_INIT;
	struct pc_err err = PC_ERR_INIT;
	const char *fmt = pc_args_value(a, "format");
	int rc;

	if (pc_suite_static(&so, &r, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		pc_report_release(&r);
		return PC_EXIT_INTERNAL;
	}
	pc_report_finish(&r);
	rc = pc_report_exit_code(&r);
	if (pc_cli_lint_write(&r, fmt, to_json, pc_cli_lint_human))
		rc = PC_EXIT_INTERNAL;
	pc_report_release(&r);
	return rc;
}

const struct pc_cmd pc_cmd_lint = {
	.name = "lint",
	.summary = "load a plugin as the host does and run the static checks",
	.synopsis = { "PATH [options]", "EXE|DIR [options]" },
	.description = {
		"Load the Catalyst Code plugin in PATH exactly as the host does and run\n"
		"the static checks (the same findings `check` reports before it fires\n"
		"anything). No plugin script is run. Each finding starts with its\n"
		"place, FILE:LINE:COL; `plugcheck explain ID` explains its id.\n",
		"Load a ChatCLI plugin (an executable, or a plugins directory) as the host\n"
		"does: signature, `--metadata`, `--schema`; report the registered name and\n"
		"the static findings. The probes run with a scratch HOME and working\n"
		"directory, bounded by plugcheck's own timeout.\n" },
	.exits = "Exit: 0 loaded without errors, 1 a finding of severity error,\n"
		 "2 usage error, 3 the host rejects the plugin.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.by_contract = true,
	.path_pos = 0,
	.entry = PC_CONTRACT_LINT,
};

/* cmd_run.c - `plugcheck run FILE...`: scenario files (docs/scenarios.md)
 * through the reference host, with filters, sharding, workers, repeats,
 * snapshot updates and an expected-failure baseline, into the one report
 * type (pc_report.h, kind "run"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_match.h"
#include "pc_report.h"
#include "pc_runner.h"
#include "pc_sandbox.h"
#include "pc_scenario.h"
#include "pc_strvec.h"
#include "pc_xalloc.h"

extern char **environ;

static bool valid_shard(const char *v)
{
	unsigned k, n;
	char c;

	return sscanf(v, "%u/%u%c", &k, &n, &c) == 2 && k >= 1 && k <= n;
}

static const struct pc_opt opts[] = {
	CLI_OPT_REPORT_FORMAT("human|json|junit|tap|sarif|github|html"),
	CLI_OPT_OUTPUT,
	CLI_OPT_HTML,
	{ .name = "filter", .kind = PC_OPT_VALUE, .metavar = "REGEX",
	  .help = "only scenarios whose id (file-stem/name) matches" },
	{ .name = "tags", .kind = PC_OPT_VALUE, .metavar = "T,...",
	  .help = "only scenarios carrying one of these tags" },
	{ .name = "jobs", .short_name = 'j', .kind = PC_OPT_VALUE,
	  .metavar = "N", .help = "run scenarios in N worker processes (default 1)",
	  .min = 1, .max = 1000 },
	{ .name = "shard", .kind = PC_OPT_VALUE, .metavar = "K/N",
	  .help = "run only the K-th of N slices (1 <= K <= N)",
	  .valid = valid_shard, .expect = "K/N with 1 <= K <= N" },
	{ .name = "repeat", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "run each scenario N times: pass rate, p95 time",
	  .min = 1, .max = 1000 },
	{ .name = "update", .kind = PC_OPT_FLAG,
	  .help = "write actual values into expectations marked !update\n"
		  "or \"@update\"" },
	{ .name = "baseline", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "ids known to fail (one per line, # comments); a listed\n"
		  "id that passes fails the run" },
	CLI_OPT_SANDBOX("every plugin script"),
	CLI_OPT_STRICT,
	CLI_OPT_IGNORE,
};

/* The baseline's ids, and the line each is on (for errors). */
struct baseline {
	struct pc_strvec ids;
	size_t *lines;
};

static int read_baseline(const char *path, struct baseline *bl)
{
	struct pc_buf b = PC_BUF_INIT((size_t)16 << 20);
	struct pc_err err = PC_ERR_INIT;
	char *line = NULL, *next;
	size_t lineno = 0;

	if (pc_fs_read_capped(path, &b, &err) < 0) {
		fprintf(stderr, "plugcheck: --baseline: %s\n", err.msg);
		pc_buf_release(&b);
		return -1;
	}
	for (next = b.data; next && *next;) {
		size_t n;

		line = next;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line += strspn(line, " \t");
		n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' ||
			     line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		pc_strvec_push(&bl->ids, line);
		bl->lines = pc_xreallocarray(bl->lines, bl->ids.nr,
					     sizeof(*bl->lines));
		bl->lines[bl->ids.nr - 1] = lineno;
	}
	pc_buf_release(&b);
	return 0;
}

/* Every baseline id must name a scenario of the files given: a typo there
 * would otherwise pass silently (issue 20). Prints each one; returns 0 or
 * -1. */
static int baseline_names_scenarios(const char *path, const struct baseline *bl,
				    const struct pc_scenario_file *files,
				    size_t nfiles)
{
	int rc = 0;

	for (size_t k = 0; k < bl->ids.nr; k++) {
		bool found = false;

		for (size_t i = 0; i < nfiles && !found; i++)
			for (size_t j = 0; j < files[i].nscenarios && !found; j++)
				found = !strcmp(files[i].scenarios[j].id,
						bl->ids.v[k]);
		if (found)
			continue;
		fprintf(stderr,
			"plugcheck run: --baseline: %s:%zu: '%s' names no scenario of the files given (ids are FILE-STEM/NAME, as `run` prints them): fix the id or remove the line\n",
			path, bl->lines[k], bl->ids.v[k]);
		rc = -1;
	}
	return rc;
}

/* Load and validate every file; print every load error. */
static int load_all(char **paths, size_t n, struct pc_scenario_file *files)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		struct pc_err err = PC_ERR_INIT;

		if (pc_scenario_load(paths[i], &files[i], &err) < 0 ||
		    pc_runner_validate(&files[i], &err) < 0) {
			fprintf(stderr, "plugcheck: %s\n", err.msg);
			bad = 1;
		}
	}
	return bad;
}

/* Every plugin under test must load (exit 3 otherwise). */
static int check_plugins(const struct pc_scenario_file *files, size_t n)
{
	struct pc_manifest_env env = pc_cli_manifest_env();

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < files[i].plugins.nr; j++) {
			struct pc_plugin *p = NULL;
			struct pc_err err = PC_ERR_INIT;

			if (pc_manifest_load(files[i].plugins.v[j], &env, &p,
					     &err) < 0) {
				fprintf(stderr,
					"plugcheck: %s: the host rejects the plugin in '%s': %s\n",
					files[i].path, files[i].plugins.v[j],
					err.msg);
				return -1;
			}
			pc_plugin_free(p);
		}
	return 0;
}

/* The selected scenarios (filter, tags, shard), in file order; *matched
 * gets how many passed the filter and tags (before the shard). */
static size_t select_items(const struct pc_args *a, struct pc_scenario_file *files,
			   size_t nfiles, const struct pc_match *filter,
			   struct pc_run_item **items, size_t *matched)
{
	const char *tags = pc_args_value(a, "tags"), *shard = pc_args_value(a, "shard");
	unsigned sk = 0, sn = 0;
	size_t n = 0, seen = 0;

	if (shard)
		sscanf(shard, "%u/%u", &sk, &sn);
	for (size_t i = 0; i < nfiles; i++)
		for (size_t j = 0; j < files[i].nscenarios; j++) {
			const struct pc_scenario *s = &files[i].scenarios[j];

			if (filter && !pc_match_test(filter, s->id, strlen(s->id)))
				continue;
			if (tags && !pc_scenario_has_tag(s, tags))
				continue;
			(*matched)++;
			if (sn && seen++ % sn != sk - 1)
				continue;
			*items = pc_xreallocarray(*items, n + 1, sizeof(**items));
			(*items)[n].file = &files[i];
			(*items)[n++].scenario = s;
		}
	return n;
}

static void progress(void *ctx, const char *label)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kplugcheck: %s", label);
	fflush(stderr);
}

/* Run the items into `r`, apply --update and the baseline. */
static int run_items(const struct pc_args *a, const struct pc_run_item *items,
		     size_t n, const struct pc_strvec *base, struct pc_report *r)
{
	struct pc_run_opts ro = PC_RUN_OPTS_INIT;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_err err = PC_ERR_INIT;
	int rc = 0;

	if (pc_args_flag(a, "sandbox") && pc_sandbox_open(&sb, environ, &err)) {
		/* never fall back to running the plugins unsandboxed */
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_USAGE;
	}
	ro.sandbox = pc_args_flag(a, "sandbox") ? &sb : NULL;
	ro.jobs = pc_args_uint(a, "jobs", 1);
	ro.repeat = pc_args_uint(a, "repeat", 1);
	ro.update = pc_args_flag(a, "update");
	ro.stop = pc_cli_stop_flag();
	if (isatty(2))
		ro.progress = progress;
	if (pc_runner_run(items, n, &ro, r, &err) < 0)
		fprintf(stderr, "plugcheck: %s\n", err.msg);
	if (ro.progress)
		fputs("\r\033[K", stderr);
	if (ro.update && !pc_cli_interrupted()) { /* no partial rewrite */
		int w = pc_runner_apply_updates(r, &err);

		if (w < 0)
			fprintf(stderr, "plugcheck: --update: %s\n", err.msg);
		else
			fprintf(stderr, "plugcheck: --update wrote %d value%s\n",
				w, w == 1 ? "" : "s");
	}
	pc_runner_baseline(r, base);
	pc_sandbox_release(&sb);
	return rc;
}

static size_t count_scenarios(const struct pc_scenario_file *files, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += files[i].nscenarios;
	return c;
}

static int run(const struct pc_args *a)
{
	struct baseline base = { PC_STRVEC_INIT, NULL };
	struct pc_scenario_file *files;
	struct pc_run_item *items = NULL;
	struct pc_match *filter = NULL;
	struct pc_err err = PC_ERR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	struct pc_cli_out out;
	size_t nfiles = a->npos, n, matched = 0;
	int rc = 0;

	if (pc_args_value(a, "filter") &&
	    pc_match_new(pc_args_value(a, "filter"), "", &filter, &err) < 0)
		return pc_cli_usage_error("run", "--filter: %s", err.msg);
	if (pc_args_value(a, "baseline") &&
	    read_baseline(pc_args_value(a, "baseline"), &base) < 0) {
		pc_match_free(filter);
		return PC_EXIT_USAGE;
	}
	files = pc_xcalloc(nfiles, sizeof(*files));
	if (load_all(a->pos, nfiles, files) ||
	    baseline_names_scenarios(pc_args_value(a, "baseline"), &base,
				     files, nfiles)) {
		rc = PC_EXIT_USAGE;
		goto out;
	}
	n = select_items(a, files, nfiles, filter, &items, &matched);
	if (!matched && (filter || pc_args_value(a, "tags"))) {
		/* a typo in CI must not pass by running nothing */
		rc = pc_cli_usage_error(
			"run", "no scenario matches%s%s%s%s%s of the %zu in the files given%s",
			filter ? " --filter '" : "",
			filter ? pc_args_value(a, "filter") : "",
			filter ? "'" : "", pc_args_value(a, "tags") ? " --tags " : "",
			pc_args_value(a, "tags") ? pc_args_value(a, "tags") : "",
			count_scenarios(files, nfiles),
			filter ? " (--filter searches ids, FILE-STEM/NAME, as `run` prints them)"
			       : "");
		goto out;
	}
	if (check_plugins(files, nfiles) < 0) {
		rc = PC_EXIT_NOLOAD;
		goto out;
	}
	if ((rc = pc_cli_out_open(a, &out)))
		goto out;
	r.kind = "run";
	r.path = pc_xstrdup("scenarios");
	r.loaded = true;
	r.strict = pc_args_flag(a, "strict");
	pc_args_list(a, "ignore", &r.ignore);
	if ((rc = run_items(a, items, n, &base.ids, &r))) {
		pc_cli_out_close(&out);
		goto out;
	}
	rc = pc_cli_out_report(&out, &r);
out:
	pc_report_release(&r);
	for (size_t i = 0; i < nfiles; i++)
		pc_scenario_file_release(&files[i]);
	free(files);
	free(items);
	pc_match_free(filter);
	pc_strvec_release(&base.ids);
	free(base.lines);
	return rc;
}

const struct pc_cmd pc_cmd_run = {
	.name = "run",
	.summary = "run scenario files (*.plugcheck.yaml) against plugins",
	.synopsis = { "FILE... [options]", NULL },
	.description = {
		"Run the scenarios of each scenario file (docs/scenarios.md) through the\n"
		"reference host and check their expectations.\n",
		NULL },
	.exits = "Exit: 0 all passed, 1 a scenario failed, 2 usage or an invalid\n"
		 "scenario file (or --sandbox cannot work here), 3 a plugin under test\n"
		 "cannot be loaded, 70 interrupted or a report that could not be written.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = SIZE_MAX,
	.run = run,
};

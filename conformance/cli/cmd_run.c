/* cmd_run.c - `plugcheck run FILE...`: scenario files (docs/scenarios.md)
 * through the reference host, with filters, sharding, workers, repeats,
 * snapshot updates and an expected-failure baseline. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_match.h"
#include "pc_report.h"
#include "pc_sandbox.h"
#include "pc_runner.h"
#include "pc_scenario.h"
#include "pc_strvec.h"
#include "pc_xalloc.h"

extern char **environ;

static const char usage[] =
	"usage: plugcheck run FILE... [options]\n\n"
	"Run the scenarios of each scenario file (docs/scenarios.md) through the\n"
	"reference host and check their expectations.\n\n"
	"  --format FMT      human (default), json, junit or tap\n"
	"  --output FILE     write the report to FILE (a summary still goes to\n"
	"                    stdout)\n"
	"  --filter REGEX    only scenarios whose id (file-stem/name) matches\n"
	"  --tags T,...      only scenarios carrying one of these tags\n"
	"  -j, --jobs N      run scenarios in N worker processes (default 1)\n"
	"  --shard K/N       run only the K-th of N slices (1 <= K <= N)\n"
	"  --repeat N        run each scenario N times: pass rate, p95 time\n"
	"  --update          write actual values into expectations marked\n"
	"                    !update or \"@update\"\n"
	"  --baseline FILE   ids known to fail (one per line, # comments); a\n"
	"                    listed id that passes fails the run\n"
	"  --sandbox         run every plugin script under bubblewrap with only\n"
	"                    its declared capabilities (docs/sandbox.md)\n"
	"  -h, --help        show this help\n\n"
	"Exit: 0 all passed, 1 a scenario failed, 2 usage or an invalid\n"
	"scenario file (or --sandbox cannot work here), 3 a plugin under test\n"
	"cannot be loaded, 70 interrupted.\n";

struct run_opts {
	int fmt;
	const char *output, *filter, *tags, *baseline;
	unsigned jobs, shard_k, shard_n, repeat;
	bool update, sandbox;
};

static int parse_uint(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v == 0 || v > 1000)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "filter", required_argument, NULL, 'F' },
		{ "tags", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "shard", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "update", no_argument, NULL, 'u' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "sandbox", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *slash;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if ((o->fmt = pc_report_format_parse(optarg)) < 0)
				return pc_cli_bad_value("run", "format", optarg,
							"human, json, junit or tap");
			break;
		case 'o':
			o->output = pc_cli_output_path(optarg);
			break;
		case 'F':
			o->filter = optarg;
			break;
		case 't':
			o->tags = optarg;
			break;
		case 'j':
			if (parse_uint(optarg, &o->jobs) < 0)
				return pc_cli_bad_value("run", "jobs", optarg,
							"a whole number 1..1000");
			break;
		case 's':
			slash = strchr(optarg, '/');
			if (!slash ||
			    sscanf(optarg, "%u/%u", &o->shard_k, &o->shard_n) !=
				    2 ||
			    !o->shard_k || o->shard_k > o->shard_n)
				return pc_cli_bad_value("run", "shard", optarg,
							"K/N with 1 <= K <= N");
			break;
		case 'r':
			if (parse_uint(optarg, &o->repeat) < 0)
				return pc_cli_bad_value("run", "repeat", optarg,
							"a whole number 1..1000");
			break;
		case 'u':
			o->update = true;
			break;
		case 'b':
			o->baseline = optarg;
			break;
		case 'X':
			o->sandbox = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			goto bad;
		}
	}
	if (optind >= argc)
		goto bad;
	return 0;
bad:
	fputs(usage, stderr);
	return PC_EXIT_USAGE;
}

static int read_baseline(const char *path, struct pc_strvec *ids)
{
	struct pc_buf b = PC_BUF_INIT((size_t)16 << 20);
	struct pc_err err = PC_ERR_INIT;
	char *line, *save = NULL;

	if (pc_fs_read_capped(path, &b, &err) < 0) {
		fprintf(stderr, "plugcheck: --baseline: %s\n", err.msg);
		pc_buf_release(&b);
		return -1;
	}
	for (line = strtok_r(b.data ? b.data : (char *)"", "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n;

		line += strspn(line, " \t");
		n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' ||
			     line[n - 1] == '\r'))
			line[--n] = 0;
		if (n && line[0] != '#')
			pc_strvec_push(ids, line);
	}
	pc_buf_release(&b);
	return 0;
}

static bool listed(const struct pc_strvec *ids, const char *id)
{
	for (size_t i = 0; i < ids->nr; i++)
		if (!strcmp(ids->v[i], id))
			return true;
	return false;
}

/* Apply the baseline: a listed failure becomes "xfail"; a listed pass
 * becomes a failure. Returns the number of failures left. */
static size_t judge(cJSON *results, const struct pc_strvec *base)
{
	size_t failed = 0;

	for (cJSON *r = results->child; r; r = r->next) {
		const char *id =
			cJSON_GetObjectItemCaseSensitive(r, "id")->valuestring;
		const char *st = pc_runner_status(r);
		bool in = listed(base, id);

		if (in && !strcmp(st, "fail")) {
			cJSON_ReplaceItemInObjectCaseSensitive(
				r, "status", cJSON_CreateString("xfail"));
		} else if (in && !strcmp(st, "pass")) {
			cJSON_ReplaceItemInObjectCaseSensitive(
				r, "status", cJSON_CreateString("fail"));
			cJSON_ReplaceItemInObjectCaseSensitive(
				r, "message",
				cJSON_CreateString(
					"listed in the baseline as failing, but it passes now: remove it from the baseline"));
			failed++;
		} else if (!strcmp(st, "fail")) {
			failed++;
		}
	}
	return failed;
}

static int write_report(const struct run_opts *o, struct pc_cli_out *file,
			cJSON *results)
{
	struct pc_report rep = PC_REPORT_INIT;
	FILE *out = pc_cli_out_file(file);
	int rc = 0;

	if (o->fmt == PC_REPORT_HUMAN) {
		pc_runner_print(out, results, o->repeat);
		if (pc_cli_interrupted())
			fputs("incomplete: the run was interrupted\n", out);
	} else if (o->fmt == PC_REPORT_JSON) {
		cJSON *doc = cJSON_CreateObject();
		char *t;

		cJSON_AddNumberToObject(doc, "plugcheck_run", 1);
		if (pc_cli_interrupted())
			cJSON_AddTrueToObject(doc, "incomplete");
		cJSON_AddItemReferenceToObject(doc, "scenarios", results);
		t = cJSON_Print(doc);
		fprintf(out, "%s\n", t);
		free(t);
		cJSON_Delete(doc);
	} else {
		rep.path = pc_xstrdup("scenarios");
		rep.loaded = true;
		rep.incomplete = pc_cli_interrupted();
		pc_runner_add_cases(results, &rep);
		rc = pc_report_write(&rep, (enum pc_report_format)o->fmt, out,
				     false);
		pc_report_release(&rep);
	}
	if (out != stdout) {
		if (pc_cli_out_close(file))
			rc = -1;
		pc_runner_print(stdout, results, o->repeat);
	}
	return rc;
}

/* Load every file; print every load error. */
static int load_all(char **paths, int n, struct pc_scenario_file *files)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		struct pc_err err = PC_ERR_INIT;

		if (pc_scenario_load(paths[i], &files[i], &err) < 0) {
			fprintf(stderr, "plugcheck: %s\n", err.msg);
			bad = 1;
		}
	}
	return bad;
}

/* Every plugin under test must load (exit 3 otherwise). */
static int check_plugins(const struct pc_scenario_file *files, int n)
{
	struct pc_manifest_env env = pc_cli_manifest_env();

	for (int i = 0; i < n; i++)
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

static int run(int argc, char **argv)
{
	struct run_opts o = { .fmt = PC_REPORT_HUMAN, .jobs = 1, .repeat = 1 };
	struct pc_run_opts ro = PC_RUN_OPTS_INIT;
	struct pc_strvec base = PC_STRVEC_INIT;
	struct pc_scenario_file *files;
	struct pc_run_item *items = NULL;
	struct pc_match *filter = NULL;
	struct pc_err err = PC_ERR_INIT;
	struct pc_sandbox sb = PC_SANDBOX_INIT;
	struct pc_cli_out file = PC_CLI_OUT_INIT;
	size_t n = 0, seen = 0, failed;
	cJSON *results;
	int nfiles, rc = parse_opts(argc, argv, &o);

	if (rc)
		return rc < 0 ? PC_EXIT_OK : rc;
	if (o.filter && pc_match_new(o.filter, "", &filter, &err) < 0) {
		fprintf(stderr, "plugcheck: --filter: %s\n", err.msg);
		return PC_EXIT_USAGE;
	}
	if (o.baseline && read_baseline(o.baseline, &base) < 0) {
		pc_match_free(filter);
		return PC_EXIT_USAGE;
	}
	nfiles = argc - optind;
	files = pc_xcalloc((size_t)nfiles, sizeof(*files));
	if (load_all(argv + optind, nfiles, files)) {
		rc = PC_EXIT_USAGE;
		goto out;
	}
	if (check_plugins(files, nfiles) < 0) {
		rc = PC_EXIT_NOLOAD;
		goto out;
	}
	for (int i = 0; i < nfiles; i++)
		for (size_t j = 0; j < files[i].nscenarios; j++) {
			const struct pc_scenario *s = &files[i].scenarios[j];

			if (filter &&
			    !pc_match_test(filter, s->id, strlen(s->id)))
				continue;
			if (o.tags && !pc_scenario_has_tag(s, o.tags))
				continue;
			if (o.shard_n && seen++ % o.shard_n != o.shard_k - 1)
				continue;
			items = pc_xreallocarray(items, n + 1, sizeof(*items));
			items[n].file = &files[i];
			items[n++].scenario = s;
		}
	/* before the run: a directory or a FIFO nobody reads is an error
	 * now, and a plugin cannot keep the report from being written */
	if ((rc = pc_cli_out_open(&file, o.output)))
		goto out;
	if (o.sandbox && pc_sandbox_open(&sb, environ, &err)) {
		/* never fall back to running the plugins unsandboxed */
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		rc = PC_EXIT_USAGE;
		goto out;
	}
	ro.sandbox = o.sandbox ? &sb : NULL;
	ro.jobs = o.jobs;
	ro.repeat = o.repeat;
	ro.update = o.update;
	ro.stop = pc_cli_stop_flag();
	results = pc_runner_run(items, n, &ro);
	if (o.update && !pc_cli_interrupted()) { /* no partial rewrite */
		int w = pc_runner_apply_updates(results, &err);

		if (w < 0)
			fprintf(stderr, "plugcheck: --update: %s\n", err.msg);
		else
			fprintf(stderr,
				"plugcheck: --update wrote %d value%s\n", w,
				w == 1 ? "" : "s");
	}
	failed = judge(results, &base);
	rc = write_report(&o, &file, results) < 0 ? PC_EXIT_INTERNAL
	     : failed			   ? PC_EXIT_FINDINGS
					   : PC_EXIT_OK;
	cJSON_Delete(results);
out:
	for (int i = 0; i < nfiles; i++)
		pc_scenario_file_release(&files[i]);
	free(files);
	free(items);
	pc_match_free(filter);
	pc_strvec_release(&base);
	pc_sandbox_release(&sb);
	pc_cli_out_close(&file);
	return rc;
}

const struct pc_cmd pc_cmd_run = {
	.name = "run",
	.summary = "run scenario files (*.plugcheck.yaml) against plugins",
	.usage = usage,
	.run = run,
};

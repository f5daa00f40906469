/* cmd_explain.c - `plugcheck explain ID...`: what a rule's finding means,
 * and docs/rules/ID.md, both from the explanation table
 * (conformance/rules/pc_rule_docs.c) so the pages cannot drift from the
 * binary: `--all --markdown DIR` writes them, `--all --check DIR` fails
 * when DIR differs (a test runs it on docs/rules). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_buf.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_rule.h"
#include "pc_xalloc.h"

static const struct pc_opt opts[] = {
	{ .name = "all", .kind = PC_OPT_FLAG,
	  .help = "every rule `plugcheck rules` lists" },
	{ .name = "format", .kind = PC_OPT_VALUE, .metavar = "FMT",
	  .help = "text (the default) or markdown (a docs/rules page)",
	  .values = "text|markdown", .conflicts = "markdown" },
	{ .name = "markdown", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "write DIR/ID.md for each rule instead (docs/rules/ is\n"
		  "`plugcheck explain --all --markdown docs/rules`)",
	  .conflicts = "check" },
	{ .name = "check", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "compare DIR/ID.md with what --markdown would write, and\n"
		  "with --all that DIR holds no other page; exit 1 naming\n"
		  "each difference" },
};

/* The rule `word` names (case-insensitive), or NULL. */
static const struct pc_rule *rule_named(const char *word)
{
	char id[32];
	size_t n = strlen(word);

	if (n >= sizeof(id))
		return NULL;
	for (size_t i = 0; i <= n; i++)
		id[i] = word[i] >= 'a' && word[i] <= 'z'
				? (char)(word[i] - 'a' + 'A')
				: word[i];
	return pc_rule_find(id);
}

/* --check: DIR/ID.md holds exactly the page. 0, or 1 after saying why. */
static int check_page(const char *dir, const struct pc_rule *rule)
{
	char *want = pc_rule_explained(rule, PC_EXPLAIN_MARKDOWN);
	char *name = pc_xasprintf("%s.md", rule->id), *path = pc_fs_join(dir, name);
	struct pc_buf have = PC_BUF_INIT((size_t)16 << 20);
	int rc = 0;

	if (pc_fs_read_capped(path, &have, NULL) < 0) {
		printf("%s: missing (plugcheck explain --all --markdown %s writes it)\n",
		       path, dir);
		rc = 1;
	} else if (strcmp(pc_buf_cstr(&have), want)) {
		printf("%s: differs from `plugcheck explain --format markdown %s`\n",
		       path, rule->id);
		rc = 1;
	}
	pc_buf_release(&have);
	free(path);
	free(name);
	free(want);
	return rc;
}

/* --check --all: every file of DIR is the page of a rule. */
static int check_extra(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return 0; /* every page was reported missing */
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char id[64];

		if (de->d_name[0] == '.')
			continue;
		snprintf(id, sizeof(id), "%.*s", n > 3 ? (int)(n - 3) : 0,
			 de->d_name);
		if (n > 3 && !strcmp(de->d_name + n - 3, ".md") &&
		    pc_rule_find(id))
			continue;
		printf("%s/%s: not the page of a rule id (plugcheck rules lists them)\n",
		       dir, de->d_name);
		rc = 1;
	}
	closedir(d);
	return rc;
}

static int write_page(const char *dir, const struct pc_rule *rule)
{
	char *text = pc_rule_explained(rule, PC_EXPLAIN_MARKDOWN);
	char *name = pc_xasprintf("%s.md", rule->id), *path = pc_fs_join(dir, name);
	struct pc_err err = PC_ERR_INIT;
	int rc = pc_fs_write(path, text, strlen(text), &err);

	if (rc)
		fprintf(stderr, "plugcheck: cannot write '%s': %s\n", path,
			strerror(err.sys_errno ? err.sys_errno : EIO));
	free(path);
	free(name);
	free(text);
	return rc ? PC_EXIT_INTERNAL : 0;
}

/* The rules to explain: --all, or the ids given. NULL after a usage
 * error (*rc set). */
static const struct pc_rule **chosen(const struct pc_args *a, size_t *n,
				     int *rc)
{
	bool all = pc_args_flag(a, "all");
	const struct pc_rule **v;

	if (all == (a->npos > 0)) {
		*rc = pc_cli_usage_error("explain", all ? "--all takes no rule id"
							: "name a rule id (e.g. PC-HOOK-002), or give --all");
		return NULL;
	}
	*n = all ? pc_nrules : a->npos;
	v = pc_xcalloc(*n + 1, sizeof(*v));
	for (size_t i = 0; i < *n; i++) {
		v[i] = all ? &pc_rules[i] : rule_named(a->pos[i]);
		if (!v[i]) {
			*rc = pc_cli_usage_error("explain", "'%s' is not a rule id: `plugcheck rules` lists them",
						 a->pos[i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static int run(const struct pc_args *a)
{
	const char *md = pc_args_value(a, "markdown");
	const char *check = pc_args_value(a, "check");
	const char *fmt = pc_args_value(a, "format");
	size_t n = 0;
	int rc = PC_EXIT_OK;
	const struct pc_rule **v = chosen(a, &n, &rc);
	struct pc_err err = PC_ERR_INIT;

	if (!v)
		return rc;
	if (md && pc_fs_mkdir_p(md, &err) < 0) {
		fprintf(stderr, "plugcheck: cannot create '%s': %s\n", md,
			strerror(err.sys_errno ? err.sys_errno : EIO));
		free(v);
		return PC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < n && rc != PC_EXIT_INTERNAL; i++) {
		if (md) {
			rc = write_page(md, v[i]);
		} else if (check) {
			rc |= check_page(check, v[i]);
		} else {
			char *text = pc_rule_explained(
				v[i], fmt && !strcmp(fmt, "markdown")
					      ? PC_EXPLAIN_MARKDOWN
					      : PC_EXPLAIN_TEXT);

			fputs(i ? "\n" : "", stdout);
			fputs(text, stdout);
			free(text);
		}
	}
	if (check && pc_args_flag(a, "all"))
		rc |= check_extra(check);
	free(v);
	return rc;
}

const struct pc_cmd pc_cmd_explain = {
	.name = "explain",
	.summary = "explain a check id: what the host does, an example, the fix",
	.synopsis = { "ID... | --all [options]", NULL },
	.description = {
		"Explain rule ID (as `plugcheck rules` lists it and every finding names\n"
		"it): what the host does - the contract clause the rule rests on, in\n"
		"plugcheck's words, with the behaviour of the host's code - a minimal\n"
		"plugin that gets the finding, the fix, and the plugin fixed. For\n"
		"PC-LOAD-001 it lists every load error of the host with its own fix.\n"
		"The same pages are docs/rules/ID.md in the repository.\n",
		NULL },
	.exits = "Exit: 0 explained (or written, or --check found no difference),\n"
		 "1 --check found a difference, 2 usage error (e.g. an unknown id),\n"
		 "70 a page could not be written.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 0,
	.max_pos = SIZE_MAX,
	.run = run,
};

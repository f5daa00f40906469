/* test_rules.c - the rule table, the explanation table beside it
 * (pc_rule_docs.c: one entry per id, issue 19 item 4) and the fixes of
 * the host's load errors (pc_load_fixes.c, R1.11). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pc_rule.h"

static void rules_are_sorted_and_unique(void **state)
{
	(void)state;
	for (size_t i = 1; i < pc_nrules; i++)
		if (strcmp(pc_rules[i - 1].id, pc_rules[i].id) >= 0)
			fail_msg("pc_rules: %s before %s", pc_rules[i - 1].id,
				 pc_rules[i].id);
}

/* Every rule has an explanation and every explanation a rule: a new
 * rule without an entry, or an entry of a retired id, fails here. */
static void every_rule_has_exactly_one_explanation(void **state)
{
	(void)state;
	for (size_t i = 0; i < pc_nrules; i++)
		if (!pc_rule_doc_find(pc_rules[i].id))
			fail_msg("%s has no entry in pc_rule_docs.c (`plugcheck explain %s` would say nothing)",
				 pc_rules[i].id, pc_rules[i].id);
	for (size_t i = 0; i < pc_nrule_docs; i++) {
		if (!pc_rule_find(pc_rule_docs[i].id))
			fail_msg("pc_rule_docs.c explains %s, which is not a rule",
				 pc_rule_docs[i].id);
		if (i && strcmp(pc_rule_docs[i - 1].id, pc_rule_docs[i].id) >= 0)
			fail_msg("pc_rule_docs: %s before %s (sorted, once each)",
				 pc_rule_docs[i - 1].id, pc_rule_docs[i].id);
	}
	assert_int_equal(pc_nrule_docs, pc_nrules);
}

/* Each explanation says what the host does and has a failing and a fixed
 * example made of "== NAME ==" files. */
static void explanations_are_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < pc_nrule_docs; i++) {
		const struct pc_rule_doc *d = &pc_rule_docs[i];

		if (!d->host || strlen(d->host) < 80)
			fail_msg("%s: the host text is missing or too short",
				 d->id);
		if (!d->failing || strncmp(d->failing, "== ", 3) ||
		    !d->fixed || strncmp(d->fixed, "== ", 3))
			fail_msg("%s: an example is missing or does not start with a \"== NAME ==\" line",
				 d->id);
		if (!strcmp(d->failing, d->fixed))
			fail_msg("%s: the fixed example is the failing one",
				 d->id);
	}
}

static char *explained(const char *id, enum pc_explain_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	pc_rule_explain(pc_rule_find(id), fmt, "https://example.invalid/x.md",
			mem);
	fclose(mem);
	return buf;
}

/* The page has the sections of the issue in order, and the text form
 * wraps prose at 78 columns. */
static void explain_writes_every_section(void **state)
{
	char *t = explained("PC-HOOK-002", PC_EXPLAIN_TEXT);
	char *m = explained("PC-HOOK-002", PC_EXPLAIN_MARKDOWN);
	const char *heads[] = { "What the host does\n", "A failing example\n",
				"The fix\n", "Fixed\n" };
	const char *p = t;

	(void)state;
	assert_true(!strncmp(t, "PC-HOOK-002 (warning): timeout_ms is 0\nContract rule: R5.11\n", 58));
	for (size_t i = 0; i < 4; i++) {
		p = strstr(p, heads[i]);
		if (!p)
			fail_msg("no section %s", heads[i]);
	}
	for (const char *l = t; *l;) {
		size_t n = strcspn(l, "\n");

		if (n > 78 && strncmp(l, "    ", 4) && strncmp(l, "Online:", 7))
			fail_msg("line over 78 columns: %.*s", (int)n, l);
		l += n + (l[n] == '\n');
	}
	assert_non_null(strstr(t, "Online: https://example.invalid/x.md\n"));
	assert_true(!strncmp(m, "# PC-HOOK-002: timeout_ms is 0\n", 31));
	assert_non_null(strstr(m, "## What the host does\n"));
	assert_non_null(strstr(m, "`plugin.json`:\n\n```json\n{\n"));
	free(t);
	free(m);
}

/* Markdown prose escapes what GitHub would take for a tag or emphasis:
 * "<root>/<name>" of PC-MAN-001's fix stays visible. */
static void markdown_escapes_tags(void **state)
{
	char *m = explained("PC-MAN-001", PC_EXPLAIN_MARKDOWN);

	(void)state;
	assert_non_null(strstr(m, "\\<root\\>/\\<name\\>"));
	free(m);
}

/* PC-LOAD-001's page lists every load error with its fix. */
static void load_page_lists_every_message(void **state)
{
	char *m = explained("PC-LOAD-001", PC_EXPLAIN_MARKDOWN);

	(void)state;
	for (size_t i = 0; i < pc_nload_fixes; i++)
		if (!strstr(m, pc_load_fixes[i].pattern))
			fail_msg("PC-LOAD-001's page does not list '%s'",
				 pc_load_fixes[i].pattern);
	free(m);
}

/* `pattern` with each '*' replaced by `fill`: a message of that kind. */
static char *instance(const char *pattern, const char *fill)
{
	size_t n = strlen(pattern) * (strlen(fill) + 1) + 1, k = 0;
	char *s = calloc(1, n);

	for (const char *p = pattern; *p; p++)
		k += (size_t)snprintf(s + k, n - k, *p == '*' ? "%s" : "%.1s",
				      *p == '*' ? fill : p);
	return s;
}

/* Every entry is reachable: an instance of its own message picks it, not
 * an earlier, more general one. */
static void every_load_fix_is_reached(void **state)
{
	(void)state;
	for (size_t i = 0; i < pc_nload_fixes; i++) {
		const struct pc_load_fix *got;
		char *msg = instance(pc_load_fixes[i].pattern, "x1");
		char *fix = pc_rule_load_fix(msg, &got);

		if (got != &pc_load_fixes[i])
			fail_msg("'%s' picks %s instead of its own entry", msg,
				 got ? got->pattern : "nothing");
		assert_non_null(fix);
		for (const char *d = strchr(fix, '$'); d; d = strchr(d + 1, '$'))
			if (d[1] >= '1' && d[1] <= '9') /* every $N replaced */
				fail_msg("'%s': $%c left in: %s", msg, d[1], fix);
		free(fix);
		free(msg);
	}
}

/* The host's exact messages (as host/pc_manifest*.c writes them) get
 * their own fix, with the variable parts filled in. */
static void load_fix_fills_the_parts(void **state)
{
	static const struct {
		const char *msg, *want;
	} t[] = {
		{ "plugin.json parse error: duplicate field `hooks` at line 5 column 9",
		  "keep a single \"hooks\" in that object" },
		{ "tool 't' has invalid kind 'ro' (use 'readonly' or 'destructive')",
		  "set the \"kind\" of tool 't' to \"readonly\"" },
		{ "hook script \"hooks/a b.sh\" is not executable (try chmod +x)",
		  "run chmod +x hooks/a b.sh and commit the mode (git update-index --chmod=+x hooks/a b.sh)" },
		{ "script \"tools/x.py\" does not exist",
		  "create tools/x.py relative to the plugin directory" },
		{ "plugin.json parse error: invalid type: integer `1`, expected a string at line 3 column 14",
		  "write the value at line 3 as a string (it is integer `1`)" },
		{ "plugin.json parse error: invalid type: null, expected a sequence at line 4 column 12",
		  "delete the key whose value is null at line 4" },
		{ "plugin.json parse error: key must be a string at line 1 column 2",
		  "make plugin.json valid JSON at the line and column the message gives (key must be a string at line 1 column 2)" },
		{ "command 'a' has `script` but mode=\"agent_turn\" (expected \"script\")",
		  "a script command cannot have mode \"agent_turn\"" },
		{ "oauth provider 'p' env_passthrough entry 'API_KEY' is invalid or secret-looking (KEY/TOKEN/SECRET/PASSWORD/CREDENTIAL names are not allowed)",
		  "remove 'API_KEY' from env_passthrough of provider 'p'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char *fix = pc_rule_load_fix(t[i].msg, NULL);

		if (!fix || !strstr(fix, t[i].want))
			fail_msg("%s\n  fix: %s\n  want: %s", t[i].msg,
				 fix ? fix : "(none)", t[i].want);
		free(fix);
	}
	/* not a load error the table knows: the rule's own fix applies */
	assert_null(pc_rule_load_fix("something else entirely", NULL));
	assert_null(pc_rule_load_fix("", NULL));
	assert_null(pc_rule_load_fix(NULL, NULL));
	/* a pattern without '*' is the whole message, not a prefix */
	assert_null(pc_rule_load_fix("plugin name is empty!", NULL));
}

/* A message of a plugin-controlled length costs linear time: 4 MiB of
 * name in a message that matches no entry (every '*' is tried across it)
 * takes well under a second (the bound is 5x the slowest seen). */
static void load_fix_is_linear(void **state)
{
	size_t n = (size_t)4 << 20;
	char *msg = malloc(n + 64);
	struct timespec a, b;
	double s;

	(void)state;
	memcpy(msg, "tool '", 6);
	memset(msg + 6, 'a', n);
	memcpy(msg + 6 + n, "' has invalid kind", sizeof("' has invalid kind"));
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_null(pc_rule_load_fix(msg, NULL));
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	if (s > 2.0)
		fail_msg("4 MiB message took %.2f s", s);
	free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_are_sorted_and_unique),
		cmocka_unit_test(every_rule_has_exactly_one_explanation),
		cmocka_unit_test(explanations_are_complete),
		cmocka_unit_test(explain_writes_every_section),
		cmocka_unit_test(markdown_escapes_tags),
		cmocka_unit_test(load_page_lists_every_message),
		cmocka_unit_test(every_load_fix_is_reached),
		cmocka_unit_test(load_fix_fills_the_parts),
		cmocka_unit_test(load_fix_is_linear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_causes.c - the detection code of issue 17's runtime causes:
 *   - PC-SUB-001/002 (conformance/lint/pc_lint_sub.c): disable_tools and
 *     overrides that subagents never see (R2.18), located in plugin.json;
 *   - PC-OAUTH-011 (pc_lint_oauth.c): a token script's in-place rotation;
 *   - pc_fire_burst: exchanges that really run at once (R8.8);
 *   - the ChatCLI facts (conformance/chatcli/pc_chatcli_causes.c): stderr
 *     lines in what the model receives (X7, O1 windows at N-1, N, N+1),
 *     secret-shaped names, canaries, redaction (X3), unbounded string
 *     parameters and the kernel's limits (E2BIG at MAX_ARG_STRLEN - 1, N,
 *     N + 1 through the real host's exec);
 *   - the ChatCLI suite's locations of those findings in the script. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_chatcli_causes.h"
#include "pc_chatcli_suite.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_lint.h"
#include "pc_xalloc.h"

#define CAUSES FIXTURES_DIR "/causes"

/* --- PC-SUB-* ------------------------------------------------------------ */

static const struct pc_finding *nth_finding(const struct pc_findings *f,
					    const char *id, int n)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id) && !n--)
			return &f->v[i];
	return NULL;
}

static void sub_findings_are_located(void **state)
{
	struct pc_manifest_env env = { NULL, NULL };
	struct pc_lint l = PC_LINT_INIT;
	const struct pc_finding *f;

	(void)state;
	assert_int_equal(
		pc_lint_plugin(CAUSES "/subagent-bypass", &env, NULL, &l), 0);
	/* line 6: `  "disable_tools": ["write_file", "edit"],` */
	f = nth_finding(&l.findings, "PC-SUB-001", 0);
	assert_non_null(f);
	assert_int_equal(f->line, 6);
	assert_int_equal(f->column, 21);
	f = nth_finding(&l.findings, "PC-SUB-001", 1);
	assert_int_equal(f->line, 6);
	assert_int_equal(f->column, 35);
	assert_null(nth_finding(&l.findings, "PC-SUB-001", 2));
	/* line 12: `      "override": true` */
	f = nth_finding(&l.findings, "PC-SUB-002", 0);
	assert_non_null(f);
	assert_int_equal(f->line, 12);
	assert_int_equal(f->column, 7);
	assert_string_equal(f->file, "plugin.json");
	pc_lint_release(&l);
}

/* --- PC-OAUTH-011: the token script's text -------------------------------- */

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	char *p = pc_fs_join(dir, name);

	assert_int_equal(pc_fs_write(p, text, strlen(text), NULL), 0);
	return p;
}

static void token_script_rotation_in_place(void **state)
{
	static const struct {
		const char *text;
		bool flagged;
		unsigned line, column;
	} cases[] = {
		{ "#!/usr/bin/env python3\npath = ctx[\"token_path\"]\n"
		  "d = post({\"refresh_token\": t})\n"
		  "# with open(path, \"w\") as f: (not this one)\n"
		  "    with open(path, \"w\") as f:\n        json.dump(d, f)\n",
		  true, 5, 5 },
		{ "path = ctx['token_path']\nrefresh_token = 1\n"
		  "open(tmp, 'w').write(x)\nos.replace(tmp, path)\n",
		  false, 0, 0 },
		{ "path = ctx['token_path']\nrefresh_token = 1\n"
		  "fcntl.flock(lk, fcntl.LOCK_EX)\nopen(path, 'w').write(x)\n",
		  false, 0, 0 },
		{ "path = ctx['token_path']\nopen(path, 'w').write(x)\n", false,
		  0, 0 },
		{ "#!/bin/sh\np=$(jq -r .token_path)\n"
		  "curl -d refresh_token=\"$r\" \"$U\" >\"$p\"\n",
		  true, 3, 1 },
		{ "#!/bin/sh\np=$(jq -r .token_path)\ncurl -d refresh_token=1 \"$U\"\n"
		  "tmp=$(mktemp)\ncurl ... > \"$tmp\" && mv \"$tmp\" \"$p\"\n",
		  false, 0, 0 },
	};
	char *dir = pc_fs_mkdtemp("tokscript");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = write_tmp(dir, "t", cases[i].text);
		struct pc_loc at;

		assert_int_equal(pc_lint_token_script(p, &at),
				 cases[i].flagged);
		assert_int_equal(at.line, cases[i].line);
		assert_int_equal(at.column, cases[i].column);
		free(p);
	}
	pc_fs_rm_rf(dir);
	free(dir);
}

/* --- pc_fire_burst ------------------------------------------------------ */

/* A pre_bash hook that allows only when another run is there at the same
 * time: each marks itself in $HOME/rv and waits (at most 2 s) for a
 * second mark. Runs one after the other would each be alone. */
static const char rendezvous_hook[] =
	"#!/bin/sh\ncat >/dev/null\nd=\"$HOME/rv\"; mkdir -p \"$d\"; "
	"touch \"$d/$$\"\ni=0\nwhile [ \"$(ls \"$d\" | wc -l)\" -lt 2 ] && "
	"[ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done\n"
	"if [ \"$(ls \"$d\" | wc -l)\" -ge 2 ]; then echo '{\"allow\":true}'; "
	"else echo '{\"allow\":false,\"reason\":\"alone\"}'; fi\n";

static void burst_runs_them_at_once(void **state)
{
	char *root = pc_fs_mkdtemp("burst"), *dir = pc_fs_join(root, "p");
	char *home = pc_fs_join(root, "home"), *henv = NULL, *hook;
	struct pc_manifest_env menv = { NULL, NULL };
	struct pc_plugin *p = NULL;
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { 0 };
	struct pc_fire_summary out[2];
	struct pc_host h = PC_HOST_INIT;
	char *mf;

	(void)state;
	pc_fs_mkdir_p(dir, NULL);
	pc_fs_mkdir_p(home, NULL);
	mf = write_tmp(dir, "plugin.json",
		       "{\"name\":\"p\",\"version\":\"1\",\"hooks\":{"
		       "\"pre_bash\":{\"script\":\"h.sh\"}}}");
	hook = write_tmp(dir, "h.sh", rendezvous_hook);
	chmod(hook, 0755);
	assert_int_equal(pc_manifest_load(dir, &menv, &p, NULL), 0);
	assert_int_equal(pc_fire_resolve(p, "pre_bash", false, &pt, NULL), 0);
	henv = pc_xasprintf("HOME=%s", home);
	{
		char *env[] = { "PATH=/usr/bin:/bin", henv, NULL };

		pc_host_init(&h, env, root, "");
	}
	assert_int_equal(pc_fire_burst(&h, p, &pt, &in, 2, 20000, out, NULL),
			 0);
	for (int i = 0; i < 2; i++) {
		assert_true(out[i].ran);
		assert_true(out[i].passed);
		assert_non_null(out[i].json);
		assert_non_null(strstr(out[i].text, "allow"));
		pc_fire_summary_release(&out[i]);
	}
	/* one alone waits in vain: the hook tells runs at once apart */
	pc_fs_rm_rf(home);
	pc_fs_mkdir_p(home, NULL);
	assert_int_equal(pc_fire_burst(&h, p, &pt, &in, 1, 20000, out, NULL),
			 0);
	assert_false(out[0].passed);
	pc_fire_summary_release(&out[0]);
	pc_host_release(&h);
	pc_fire_point_release(&pt);
	pc_plugin_free(p);
	pc_fs_rm_rf(root);
	free(mf);
	free(hook);
	free(henv);
	free(home);
	free(dir);
	free(root);
}

/* --- stderr lines ----------------------------------------------------------
 */

/* A call whose merged result is `n` bytes of 'o' with stderr lines of
 * `len` bytes (then '\n') at the offsets `offs` (`k` of them). */
static void fake_call(struct pc_chatcli_call *c, size_t n, const size_t *offs,
		      size_t k, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->merged = pc_xmalloc(n + 1);
	memset(c->merged, 'o', n);
	c->merged[n] = '\0';
	c->merged_len = n;
	c->err_lines = pc_xcalloc(k + 1, sizeof(*c->err_lines));
	c->n_err_lines = k;
	for (size_t i = 0; i < k; i++) {
		memset(c->merged + offs[i], 'e', len);
		c->merged[offs[i] + len] = '\n';
		c->err_lines[i] =
			(struct pc_chatcli_span){ offs[i], len, true };
	}
	c->output = pc_xmemdup(c->merged, n);
	c->output_len = n;
	c->compression = "passthrough";
}

static size_t stderr_bytes(struct pc_chatcli_call *c)
{
	struct pc_chatcli_stderr_use u = PC_CHATCLI_STDERR_USE_INIT;
	size_t b;

	pc_chatcli_stderr_use(c, &u);
	b = u.bytes;
	pc_chatcli_stderr_use_release(&u);
	pc_chatcli_call_release(c);
	return b;
}

/* The stderr bytes of a 100-byte result with "eeeee" at 10 that a
 * compressor turned into `output`. */
static size_t compressed_stderr(const char *output)
{
	struct pc_chatcli_call c;

	fake_call(&c, 100, (size_t[]){ 10 }, 1, 5);
	c.compression = "log";
	free(c.output);
	c.output = pc_xstrdup(output);
	c.output_len = strlen(output);
	return stderr_bytes(&c);
}

static void stderr_bytes_in_the_windows(void **state)
{
	struct pc_chatcli_call c;
	struct pc_chatcli_stderr_use u = PC_CHATCLI_STDERR_USE_INIT;
	size_t off[] = { 0, 4995, 15000, 30000 - 4 };
	size_t off2[] = { 4996 };

	(void)state;
	/* 30000 bytes: not truncated, every byte counts (4 lines of 9) */
	fake_call(&c, 30000, off, 4, 3);
	assert_int_equal(stderr_bytes(&c), 16);
	/* 30001: the head keeps [0,5000), the tail [29001,30001): the line
	 * at 4995 is whole (4 bytes), the one at 15000 is gone, the last
	 * whole; a line of 8 at 4996 straddles the head: at 29999 and 30000
	 * bytes all 9, at 30001 only 4996..4999 */
	fake_call(&c, 30001, off, 4, 3);
	assert_int_equal(stderr_bytes(&c), 12);
	fake_call(&c, 29999, off2, 1, 8);
	assert_int_equal(stderr_bytes(&c), 9);
	fake_call(&c, 30000, off2, 1, 8);
	assert_int_equal(stderr_bytes(&c), 9);
	fake_call(&c, 30001, off2, 1, 8);
	assert_int_equal(stderr_bytes(&c), 4);
	/* an error: the output is the merged text whole */
	fake_call(&c, 40000, off, 4, 3);
	c.error = pc_xstrdup("plugin execution failed: exit status 1");
	assert_int_equal(stderr_bytes(&c), 16);
	/* a compressor rewrote it: the line counts when its text is there */
	assert_int_equal(compressed_stderr("short eeeee view"), 6);
	assert_int_equal(compressed_stderr("nothing of it"), 0);
	/* the lines shown: their line numbers in the merged text */
	fake_call(&c, 40, (size_t[]){ 0, 20 }, 2, 4);
	c.merged[10] = '\n';
	pc_chatcli_stderr_use(&c, &u);
	assert_int_equal(u.lines, 2);
	assert_int_equal(u.shown.nr, 2);
	assert_string_equal(u.shown.v[0], "line 1: eeee");
	assert_string_equal(u.shown.v[1], "line 3: eeee");
	assert_string_equal(u.first, "eeee");
	pc_chatcli_stderr_use_release(&u);
	pc_chatcli_call_release(&c);
}

/* --- secrets ----------------------------------------------------------- */

static bool secret(const char *n)
{
	return pc_chatcli_secret_name(n, strlen(n));
}

static void secret_shaped_names(void **state)
{
	(void)state;
	assert_true(secret("OPENAI_API_KEY"));
	assert_true(secret("GITHUB_TOKEN"));
	assert_true(secret("db_password"));
	assert_true(secret("CHATCLI_JWT_SECRET"));
	assert_true(secret("AWS_SECRET_ACCESS_KEY"));
	assert_true(secret("TOKEN"));
	assert_false(secret("OPENAI_MAX_TOKENS"));
	assert_false(secret("XAUTHORITY"));
	assert_false(secret("AWS_ACCESS_KEY_ID"));
	assert_false(secret("GOOGLE_APPLICATION_CREDENTIALS_FILE"));
	assert_false(secret("KEYBOARD"));
	assert_false(secret("PATH"));
	assert_false(secret(""));
}

static void printed_and_redacted(void **state)
{
	struct pc_strvec env = PC_STRVEC_INIT, names = PC_STRVEC_INIT;
	const char *text = "A=1 my token is abcdefgh, the key 1234567 and "
			   "plugcheck-canary-XAI_API_KEY-n1";
	char *r;

	(void)state;
	pc_strvec_push(&env, "MY_TOKEN=abcdefgh"); /* 8 bytes: looked for */
	pc_strvec_push(&env, "SHORT_KEY=1234567"); /* 7 bytes: not */
	pc_strvec_push(&env, "HOME=abcdefgh");	   /* not secret-shaped */
	pc_strvec_push(&env, "OPENAI_API_KEY=mine-already");
	pc_chatcli_seed_canaries(&env, "n1");
	assert_string_equal(env.v[3], "OPENAI_API_KEY=mine-already");
	assert_int_equal(env.nr, 8); /* four canaries: OPENAI_API_KEY kept */
	assert_int_equal(
		pc_chatcli_printed_secrets(env.v, text, strlen(text), &names),
		2);
	assert_string_equal(names.v[0], "MY_TOKEN");
	assert_string_equal(names.v[1], "XAI_API_KEY");
	/* once each */
	assert_int_equal(
		pc_chatcli_printed_secrets(env.v, text, strlen(text), &names),
		0);
	r = pc_chatcli_redact(env.v, text);
	assert_string_equal(r, "A=1 my token is [value of MY_TOKEN], the key "
			       "1234567 and [value of XAI_API_KEY]");
	free(r);
	pc_strvec_release(&names);
	pc_strvec_release(&env);
}

/* --- E2BIG --------------------------------------------------------------- */

static size_t long_args(const char *schema, struct pc_chatcli_long_args *a)
{
	return pc_chatcli_long_args(schema, strlen(schema), a);
}

static void unbounded_string_parameters(void **state)
{
	struct pc_chatcli_long_args a = PC_CHATCLI_LONG_ARGS_INIT;
	char *s;

	(void)state;
	assert_int_equal(
		long_args("{\"SUBCOMMANDS\":[{\"name\":\"w\",\"flags\":["
			  "{\"name\":\"--text\",\"type\":\"string\"},"
			  "{\"name\":\"--n\",\"type\":\"int\"},"
			  "{\"name\":\"--b\",\"type\":\"bool\"},"
			  "{\"name\":\"--any\"}]}]}",
			  &a),
		2);
	assert_string_equal(a.v[0].name, "--text");
	assert_string_equal(a.v[0].subcommand, "w");
	assert_false(a.v[0].whole_json);
	assert_string_equal(a.v[1].name, "--any");
	pc_chatcli_long_args_release(&a);
	/* maxLength at N-1 bounds it, at N and N+1 it does not */
	for (unsigned d = 0; d < 3; d++) {
		s = pc_xasprintf("{\"subcommands\":[{\"name\":\"w\",\"flags\":["
				 "{\"name\":\"--t\",\"maxLength\":%u}]}]}",
				 PC_CHATCLI_ARG_STRLEN_MAX - 1 + d);
		assert_int_equal(long_args(s, &a), d ? 1 : 0);
		if (d)
			assert_int_equal(a.v[0].max_len,
					 PC_CHATCLI_ARG_STRLEN_MAX - 1 + d);
		pc_chatcli_long_args_release(&a);
		free(s);
	}
	/* JSON Schema at the top and under parameters; one argument */
	assert_int_equal(long_args("{\"type\":\"object\",\"properties\":{"
				   "\"q\":{\"type\":\"string\"},"
				   "\"n\":{\"type\":\"integer\"},"
				   "\"o\":{\"type\":[\"string\",\"null\"],"
				   "\"maxLength\":10}}}",
				   &a),
			 1);
	assert_true(a.v[0].whole_json);
	pc_chatcli_long_args_release(&a);
	assert_int_equal(long_args("{\"parameters\":{\"properties\":{\"q\":"
				   "{\"type\":\"string\"}}}}",
				   &a),
			 1);
	pc_chatcli_long_args_release(&a);
	/* the docs' parameters list (DOC3) */
	assert_int_equal(long_args("{\"parameters\":[{\"name\":\"text\","
				   "\"type\":\"string\"},{\"name\":\"k\","
				   "\"type\":\"number\"}]}",
				   &a),
			 1);
	pc_chatcli_long_args_release(&a);
	assert_int_equal(long_args("not json", &a), 0);
	assert_int_equal(long_args("[]", &a), 0);
}

static void kernel_budget(void **state)
{
	char *env[] = { "A=b", "CC=dd", NULL };

	(void)state;
	assert_int_equal(pc_chatcli_arg_max((size_t)8 << 20), 2 << 20);
	assert_int_equal(pc_chatcli_arg_max(SIZE_MAX), 6 << 20);
	assert_int_equal(pc_chatcli_arg_max(64 << 10), 131072);
	assert_true(pc_chatcli_arg_max(0) >= 131072);
	assert_int_equal(pc_chatcli_env_bytes(env), 4 + 6 + 2 * sizeof(char *));
	assert_int_equal(pc_chatcli_env_bytes(NULL), 0);
}

/* The real host's exec of one argument of N - 1, N and N + 1 bytes for
 * N = 131072: the kernel takes a string whose length with its NUL is at
 * most MAX_ARG_STRLEN, so 131071 bytes run and 131072 fail (E2BIG). */
static void exec_at_the_argument_limit(void **state)
{
	static const size_t lens[] = { PC_CHATCLI_ARG_STRLEN_MAX - 1,
				       PC_CHATCLI_ARG_STRLEN_MAX,
				       PC_CHATCLI_ARG_STRLEN_MAX + 1 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
		struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
		struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
		struct pc_strvec env = PC_STRVEC_INIT;
		char *v = pc_xmalloc(lens[i]);

		memset(v, 'x', lens[i]);
		pc_chatcli_argv_push(&argv, v, lens[i]);
		pc_strvec_push(&env, "PATH=/usr/bin:/bin");
		o.path = "/bin/true";
		o.args = &argv;
		o.env = &env;
		o.timeout_ms = 20000;
		assert_int_equal(pc_chatcli_call(&o, &c, NULL), 0);
		if (i == 0)
			assert_null(c.error);
		else
			assert_string_equal(
				c.error, "falha ao iniciar plugin: fork/exec "
					 "/bin/true: argument list too long");
		pc_chatcli_call_release(&c);
		pc_chatcli_argv_release(&argv);
		pc_strvec_release(&env);
		free(v);
	}
}

/* --- the ChatCLI suite's locations -------------------------------------- */

static const struct pc_finding *report_finding(const struct pc_report *r,
					       const char *id)
{
	for (size_t i = 0; i < r->ncases; i++)
		for (size_t k = 0; k < r->cases[i].findings.nr; k++)
			if (!strcmp(r->cases[i].findings.v[k].rule->id, id))
				return &r->cases[i].findings.v[k];
	return NULL;
}

static void chatcli_findings_point_at_the_script(void **state)
{
	static const struct {
		const char *file, *id;
		unsigned line, column;
	} want[] = {
		/* `echo "DEBUG: loading the tokenizer" >&2` */
		{ "stderr-debug", "PC-CHAT-045", 8, 7 },
		/* `env | sort` (the comment above it does not count) */
		{ "env-dump", "PC-CHAT-046", 9, 1 },
		/* the schema line naming "--text" */
		{ "long-text", "PC-CHAT-047", 6, 140 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct pc_chatcli_suite_opts o = { .run_calls = true };
		struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
		struct pc_report r = PC_REPORT_INIT;
		char *path = pc_xasprintf(CAUSES "/chatcli/%s", want[i].file);
		const struct pc_finding *f;

		assert_int_equal(pc_chatcli_suite_run(path, &o, &d, &r, NULL),
				 0);
		f = report_finding(&r, want[i].id);
		assert_non_null(f);
		assert_string_equal(f->file, want[i].file);
		assert_int_equal(f->line, want[i].line);
		assert_int_equal(f->column, want[i].column);
		pc_report_release(&r);
		pc_chatcli_dir_release(&d);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sub_findings_are_located),
		cmocka_unit_test(token_script_rotation_in_place),
		cmocka_unit_test(burst_runs_them_at_once),
		cmocka_unit_test(stderr_bytes_in_the_windows),
		cmocka_unit_test(secret_shaped_names),
		cmocka_unit_test(printed_and_redacted),
		cmocka_unit_test(unbounded_string_parameters),
		cmocka_unit_test(kernel_budget),
		cmocka_unit_test(exec_at_the_argument_limit),
		cmocka_unit_test(chatcli_findings_point_at_the_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

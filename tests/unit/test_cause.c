/* test_cause.c - the causes of faults (issue 17): the detection functions
 * of pc_cause.h, the static findings `lint` makes from them (with their
 * lines in plugin.json and the scripts), and the run-time findings of
 * `check` on the fixture plugins tests/fixtures/plugins/cause-*.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_cause.h"
#include "pc_fs.h"
#include "pc_lint.h"
#include "pc_serde.h"
#include "pc_suite.h"
#include "pc_xalloc.h"
#include "test_util.h"

extern char **environ;

static cJSON *json(const char *text)
{
	cJSON *v = NULL;

	assert_int_equal(pc_serde_parse(text, strlen(text), &v, NULL), 0);
	return v;
}

/* ---- answer bytes ---- */

static void bom(void **state)
{
	size_t at = 99;

	(void)state;
	assert_true(pc_cause_bom("\xef\xbb\xbf{}", 5, &at));
	assert_int_equal(at, 0);
	assert_true(pc_cause_bom(" \n\xef\xbb\xbf{}", 7, &at));
	assert_int_equal(at, 2);
	assert_false(pc_cause_bom("{}\xef\xbb\xbf", 5, &at));
	assert_false(pc_cause_bom("\xef\xbb", 2, NULL));
	assert_false(pc_cause_bom("", 0, NULL));
}

static void bad_utf8(void **state)
{
	unsigned cp = 7;
	const char *ok = "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80";

	(void)state;
	assert_int_equal(pc_cause_bad_utf8(ok, strlen(ok), &cp), (size_t)-1);
	assert_int_equal(pc_cause_bad_utf8("caf\xe9 au lait", 12, &cp), 3);
	assert_int_equal(cp, 0xe9);
	/* C1 controls are no Latin-1 text; overlong, surrogate, cut */
	assert_int_equal(pc_cause_bad_utf8("a\x85", 2, &cp), 1);
	assert_int_equal(cp, 0);
	assert_int_equal(pc_cause_bad_utf8("\xc0\x80", 2, &cp), 0);
	assert_int_equal(pc_cause_bad_utf8("x\xed\xa0\x80", 4, &cp), 1);
	assert_int_equal(pc_cause_bad_utf8("ab\xe2\x9c", 4, &cp), 2);
	assert_int_equal(pc_cause_bad_utf8("", 0, &cp), (size_t)-1);
}

static void embedded_json(void **state)
{
	struct pc_cause_embed e;
	const char *logs = "loading rules...\nok\n{\"allow\":true}\n";
	const char *bar = "indexing 25%\rindexing 100%\r{\"ok\":true}";
	const char *tail = "{\"ok\":true,\"output\":\"x\"}\ndone.\n";
	const char *inline_ = "Result: {\"a\": [1, 2]} (cached)";

	(void)state;
	assert_true(pc_cause_embedded_json(logs, strlen(logs), &e));
	assert_int_equal(e.start, 20);
	assert_int_equal(e.end, 34);
	assert_int_equal(e.before, strlen("loading rules...\nok"));
	assert_int_equal(e.after, 0);
	assert_false(e.carriage);
	assert_true(pc_cause_embedded_json(bar, strlen(bar), &e));
	assert_true(e.carriage);
	assert_int_equal(e.start, 27);
	assert_true(pc_cause_embedded_json(tail, strlen(tail), &e));
	assert_int_equal(e.before, 0);
	assert_int_equal(e.after, 5);
	assert_true(pc_cause_embedded_json(inline_, strlen(inline_), &e));
	assert_int_equal(e.start, 8);
	/* JSON as a whole, or no JSON value at all: nothing embedded */
	assert_false(pc_cause_embedded_json(" {\"allow\":true}\n", 16, &e));
	assert_false(pc_cause_embedded_json("hello world", 11, &e));
	assert_false(pc_cause_embedded_json("progress {broken", 16, &e));
	assert_false(pc_cause_embedded_json("", 0, &e));
}

static void code_lines(void **state)
{
	const char *py =
		"#!/usr/bin/env python3\n# reads rules.json\n  // rules.json\nopen('rules.json')\n";

	(void)state;
	assert_int_equal(pc_cause_code_line(py, strlen(py), "rules.json").line,
			 4);
	assert_int_equal(
		pc_cause_code_line(py, strlen(py), "rules.json").column, 7);
	assert_int_equal(pc_cause_code_line(py, strlen(py), "nope").line, 0);
	assert_int_equal(pc_cause_code_line(py, strlen(py), "").line, 0);
	/* the last line without a newline */
	assert_int_equal(pc_cause_code_line("a\nxyz", 5, "yz").line, 2);
}

static void printed_line(void **state)
{
	const char *sh =
		"#!/bin/sh\ncat >/dev/null\necho \"loading rules from the cache...\"\nprintf 'indexing %d%%\\r' \"$p\"\necho '{}'\n";
	struct pc_loc at;

	(void)state;
	at = pc_cause_printed_line(sh, strlen(sh),
				   "loading rules from the cache...\n", 32);
	assert_int_equal(at.line, 3);
	assert_int_equal(at.column, 7);
	/* a printf format: the words before the number */
	at = pc_cause_printed_line(sh, strlen(sh), "indexing 25%\rindexing 50%",
				   25);
	assert_int_equal(at.line, 4);
	at = pc_cause_printed_line(sh, strlen(sh),
				   "  \nsomething else entirely", 25);
	assert_int_equal(at.line, 0);
	at = pc_cause_printed_line(sh, strlen(sh), "abc", 3);
	assert_int_equal(at.line, 0);
}

static void stderr_lines(void **state)
{
	const char *sh = "/p/h.sh: line 7: syntax error\n";
	const char *ev = "/p/h.sh: eval: line 12: unexpected EOF\n";
	const char *py =
		"Traceback (most recent call last):\n"
		"  File \"/p/h.py\", line 9, in <module>\n    main()\n"
		"  File \"/p/h.py\", line 4, in main\n    x = d['k']\n"
		"  File \"/usr/lib/python3/json.py\", line 99\nKeyError: 'k'\n";
	const char *node = "/p/h.js:31\n  throw e;\n";

	(void)state;
	assert_int_equal(pc_cause_stderr_line(sh, strlen(sh), "/p/h.sh"), 7);
	assert_int_equal(pc_cause_stderr_line(ev, strlen(ev), "/p/h.sh"), 12);
	assert_int_equal(pc_cause_stderr_line(py, strlen(py), "/p/h.py"), 4);
	assert_int_equal(pc_cause_stderr_line(node, strlen(node), "/p/h.js"),
			 31);
	assert_int_equal(pc_cause_stderr_line(sh, strlen(sh), "/p/other.sh"),
			 0);
	assert_int_equal(pc_cause_stderr_line("", 0, "/p/h.sh"), 0);
	assert_int_equal(pc_cause_stderr_line(sh, 9, "/p/h.sh"), 0);
}

/* ---- script text ---- */

static void shells(void **state)
{
	(void)state;
	assert_true(pc_cause_is_shell("h/x.sh", "print(1)", 8));
	assert_true(pc_cause_is_shell("h/x.bash", "", 0));
	assert_true(pc_cause_is_shell("h/x", "#!/bin/sh\n", 10));
	assert_true(pc_cause_is_shell("h/x", "#!/usr/bin/env bash\n", 20));
	assert_true(pc_cause_is_shell("h/x", "#! /bin/dash -e\n", 16));
	assert_false(pc_cause_is_shell("h/x", "#!/usr/bin/env python3\n", 23));
	assert_false(pc_cause_is_shell("h/x.py", "#!/bin/sh\n", 10));
	assert_false(pc_cause_is_shell("h/x", "echo hi\n", 8));
}

static void crlf(void **state)
{
	struct pc_loc at;

	(void)state;
	at = pc_cause_crlf("#!/bin/bash\r\necho\r\n", 19);
	assert_int_equal(at.line, 1);
	assert_int_equal(at.column, 12);
	at = pc_cause_crlf("a\nb\rc\nd\r\n", 9);
	assert_int_equal(at.line, 3);
	at = pc_cause_crlf("a\nb\n", 4);
	assert_int_equal(at.line, 0);
	at = pc_cause_crlf("a\r", 2);
	assert_int_equal(at.line, 0);
}

static enum pc_cause_read rd(const char *s, bool flags, unsigned *line,
			     unsigned *errexit)
{
	struct pc_loc at = { 0, 0 };
	enum pc_cause_read r =
		pc_cause_shell_read(s, strlen(s), flags, &at, errexit);

	*line = at.line;
	return r;
}

static void shell_reads(void **state)
{
	unsigned line, e;

	(void)state;
	assert_int_equal(
		rd("#!/bin/sh\nset -eu\nread -r input\n", false, &line, &e),
		PC_CAUSE_READ_ERREXIT);
	assert_int_equal(line, 3);
	assert_int_equal(e, 2);
	assert_int_equal(
		rd("set -o errexit\n  IFS= read -r x\n", false, &line, &e),
		PC_CAUSE_READ_ERREXIT);
	assert_int_equal(line, 2);
	assert_int_equal(rd("while read line; do\n  echo \"$line\"\ndone\n",
			    false, &line, &e),
			 PC_CAUSE_READ_LOOP);
	assert_int_equal(line, 1);
	assert_int_equal(e, 0);
	assert_int_equal(rd("cat | while IFS= read -r l; do :; done\n", false,
			    &line, &e),
			 PC_CAUSE_READ_LOOP);
	assert_int_equal(rd("read -r x || exit 1\n", false, &line, &e),
			 PC_CAUSE_READ_TEST);
	assert_int_equal(
		rd("if ! read -r x; then exit 2; fi\n", false, &line, &e),
		PC_CAUSE_READ_TEST);
	assert_int_equal(rd("#!/bin/sh -e\nread x\n", true, &line, &e),
			 PC_CAUSE_READ_ERREXIT);
	assert_int_equal(e, 1);
	/* the fixes and the reads of something else */
	assert_int_equal(rd("#!/bin/sh -e\nread x\n", false, &line, &e),
			 PC_CAUSE_READ_NONE); /* bash SCRIPT ignores #! flags */
	assert_int_equal(
		rd("set -e\nread -r x || [ -n \"$x\" ]\n", false, &line, &e),
		PC_CAUSE_READ_NONE);
	assert_int_equal(rd("while read l || [ -n \"$l\" ]; do :; done\n",
			    false, &line, &e),
			 PC_CAUSE_READ_NONE);
	assert_int_equal(rd("read x || true\n", false, &line, &e),
			 PC_CAUSE_READ_NONE);
	assert_int_equal(rd("set -e\nread -r x < conf.txt\n", false, &line, &e),
			 PC_CAUSE_READ_NONE);
	assert_int_equal(
		rd("set -e\nread -r x <<< \"$in\"\n", false, &line, &e),
		PC_CAUSE_READ_NONE);
	assert_int_equal(
		rd("while read l; do :; done < list.txt\n", false, &line, &e),
		PC_CAUSE_READ_NONE);
	assert_int_equal(
		rd("set -e\necho \"$in\" | read x\n", false, &line, &e),
		PC_CAUSE_READ_NONE);
	assert_int_equal(rd("set -e\nread -u 3 x\n", false, &line, &e),
			 PC_CAUSE_READ_NONE);
	assert_int_equal(
		rd("read -r x\necho \"$x\"\n", false, &line, &e),
		PC_CAUSE_READ_NONE); /* no set -e: read's status unused */
	assert_int_equal(
		rd("set -e\n# read x\necho already read it\nreadonly R=1\n",
		   false, &line, &e),
		PC_CAUSE_READ_NONE);
	assert_int_equal(rd("set +e\ninput=$(cat)\n", false, &line, &e),
			 PC_CAUSE_READ_NONE);
}

/* The text is `n` bytes, not a C string: a script that ends inside
 * "errexit" (found by fuzz_cause) must not make the scan read past it
 * (ASan reports the overflow), and a NUL byte is not a separator. */
static void shell_read_bounds(void **state)
{
	static const char tail[] = "read x\nset -o errex";
	size_t n = sizeof(tail) - 1;
	char *s = malloc(n);
	struct pc_loc at = { 0, 0 };

	(void)state;
	assert_non_null(s);
	memcpy(s, tail, n);
	assert_int_equal(pc_cause_shell_read(s, n, false, &at, NULL),
			 PC_CAUSE_READ_NONE);
	memcpy(s + n - 6, "errexi", 6);
	assert_int_equal(pc_cause_shell_read(s, n, false, &at, NULL),
			 PC_CAUSE_READ_NONE);
	free(s);
	assert_int_equal(pc_cause_shell_read("set -e\nx\0read y\n", 16, false,
					     &at, NULL),
			 PC_CAUSE_READ_NONE);
	assert_int_equal(
		pc_cause_shell_read("set -e\nx;read y\n", 16, false, &at, NULL),
		PC_CAUSE_READ_ERREXIT);
	assert_int_equal(at.line, 2);
}

static void relative_files(void **state)
{
	char *dir = pc_fs_mkdtemp("cause");
	char *f1 = pc_fs_join(dir, "rules.json"),
	     *f2 = pc_fs_join(dir, "lib/common.sh");
	const char *text =
		"#!/bin/sh\n"
		"grep -q deny ./rules.json\n"		    /* 2: found */
		". lib/common.sh\n"			    /* 3: found */
		"cat \"$DIR/rules.json\" /etc/rules.json\n" /* resolved,
							       absolute */
		"curl https://x.example/rules.json\n"	    /* a URL */
		"echo hooks/self.sh missing.txt rules.json\n"
		"# see lib/common.sh\n"
		"cat ../cause/rules.json lib/../rules.json .\n"; /* never
								    outside */
	struct pc_cause_file out[4];
	size_t n;

	(void)state;
	tu_write_file(f1, "{}", 0644);
	tu_write_file(f2, "x=1\n", 0644);
	n = pc_cause_relative_files(text, strlen(text), dir, "hooks/self.sh",
				    out, 4);
	assert_int_equal(n, 2);
	assert_string_equal(out[0].name, "rules.json");
	assert_int_equal(out[0].at.line, 2);
	assert_string_equal(out[1].name, "lib/common.sh");
	assert_int_equal(out[1].at.line, 3);
	pc_cause_files_release(out, n);
	assert_int_equal(
		pc_cause_relative_files(text, strlen(text), dir, NULL, out, 1),
		1);
	pc_cause_files_release(out, 1);
	pc_fs_rm_rf(dir);
	free(f1);
	free(f2);
	free(dir);
}

/* ---- plugin.json keys ---- */

static void near_keys(void **state)
{
	const char *hook[] = { "script", "timeout_ms", "pass_args" };
	const char *tool[] = { "name", "description", "parameters", "script",
			       "kind", "timeout_ms",  "override" };
	const char *top[] = { "name", "version", "hooks", "tools", "commands" };

	(void)state;
	assert_string_equal(pc_cause_near_key("timeout", hook, 3),
			    "timeout_ms");
	assert_string_equal(pc_cause_near_key("timeoutMs", hook, 3),
			    "timeout_ms");
	assert_string_equal(pc_cause_near_key("timeout_seconds", hook, 3),
			    "timeout_ms");
	assert_string_equal(pc_cause_near_key("pass-args", hook, 3),
			    "pass_args");
	assert_string_equal(pc_cause_near_key("scirpt", hook, 3), "script");
	assert_string_equal(pc_cause_near_key("command", hook, 3), "script");
	assert_string_equal(pc_cause_near_key("args", hook, 3), "pass_args");
	assert_string_equal(pc_cause_near_key("args", tool, 7), "parameters");
	assert_string_equal(pc_cause_near_key("paramaters", tool, 7),
			    "parameters");
	assert_string_equal(pc_cause_near_key("input_schema", tool, 7),
			    "parameters");
	assert_string_equal(pc_cause_near_key("read_only", tool, 7), "kind");
	assert_string_equal(pc_cause_near_key("desc", tool, 7), "description");
	assert_string_equal(pc_cause_near_key("hook", top, 5), "hooks");
	assert_string_equal(pc_cause_near_key("Tools", top, 5), "tools");
	assert_null(pc_cause_near_key("author", top, 5));
	assert_null(pc_cause_near_key("license", top, 5));
	assert_null(pc_cause_near_key("$schema", top, 5));
	assert_null(pc_cause_near_key("", top, 5));
	assert_null(pc_cause_near_key("id", tool, 7));
}

/* ---- providers ---- */

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void tool_names(void **state)
{
	char *m, *n63 = repeat('a', 63), *n64 = repeat('a', 64),
		 *n65 = repeat('a', 65);

	(void)state;
	assert_null(pc_cause_tool_name("word_count-2"));
	assert_null(pc_cause_tool_name(n63));
	assert_null(pc_cause_tool_name(n64));
	m = pc_cause_tool_name(n65);
	assert_non_null(strstr(m, "65 characters long"));
	free(m);
	m = pc_cause_tool_name("fs.read");
	assert_non_null(strstr(m, "OpenAI and Anthropic refuse '.'"));
	assert_non_null(strstr(m, "Gemini takes it"));
	free(m);
	m = pc_cause_tool_name("read file/x");
	assert_non_null(
		strstr(m, "OpenAI, Anthropic and Gemini refuse ' ', '/'"));
	free(m);
	m = pc_cause_tool_name("2fast");
	assert_string_equal(
		m,
		"Gemini refuses a name that does not start with a letter or '_'");
	free(m);
	m = pc_cause_tool_name("caf\xc3\xa9");
	assert_non_null(strstr(m, "\\xc3, \\xa9"));
	free(m);
	free(n63);
	free(n64);
	free(n65);
}

static size_t
problems(size_t (*fn)(const cJSON *, struct pc_strvec *, struct pc_strvec *),
	 const char *schema, struct pc_strvec *msgs, struct pc_strvec *ptrs)
{
	cJSON *v = json(schema);
	size_t n;

	pc_strvec_release(msgs);
	pc_strvec_release(ptrs);
	n = fn(v, msgs, ptrs);
	cJSON_Delete(v);
	assert_int_equal(msgs->nr, ptrs->nr);
	return n;
}

static void schema_refused(void **state)
{
	struct pc_strvec m = PC_STRVEC_INIT, p = PC_STRVEC_INIT;
	char *k64 = repeat('k', 64), *k65 = repeat('k', 65), *s;

	(void)state;
	assert_int_equal(
		problems(
			pc_cause_schema_refused,
			"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\",\"items\":{}}}}",
			&m, &p),
		0);
	assert_int_equal(problems(pc_cause_schema_refused,
				  "{\"properties\":{\"a\":{}}}", &m, &p),
			 1);
	assert_string_equal(p.v[0], "");
	assert_non_null(strstr(m.v[0], "(root): \"type\" is missing"));
	assert_int_equal(
		problems(pc_cause_schema_refused,
			 "{\"type\":\"object\",\"oneOf\":[{}],\"enum\":[1]}",
			 &m, &p),
		2);
	assert_string_equal(p.v[0], "/oneOf");
	assert_non_null(strstr(m.v[0], "OpenAI and Anthropic refuse it there"));
	assert_string_equal(p.v[1], "/enum");
	assert_non_null(strstr(m.v[1], "OpenAI refuses it there"));
	assert_int_equal(
		problems(
			pc_cause_schema_refused,
			"{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"object\",\"properties\":{\"tags\":{\"type\":[\"array\",\"null\"]}}}}}",
			&m, &p),
		1);
	assert_string_equal(p.v[0], "/properties/x/properties/tags");
	assert_non_null(strstr(m.v[0], "array schema missing items"));
	/* Anthropic's property names: 64 characters pass, 65 do not */
	s = malloc(300);
	snprintf(s, 300,
		 "{\"type\":\"object\",\"properties\":{\"%s\":{},\"a b\":{}}}",
		 k64);
	assert_int_equal(problems(pc_cause_schema_refused, s, &m, &p), 1);
	assert_string_equal(p.v[0], "/properties/a b");
	snprintf(s, 300, "{\"type\":\"object\",\"properties\":{\"%s\":{}}}",
		 k65);
	assert_int_equal(problems(pc_cause_schema_refused, s, &m, &p), 1);
	free(s);
	free(k64);
	free(k65);
	pc_strvec_release(&m);
	pc_strvec_release(&p);
}

static void schema_gemini(void **state)
{
	struct pc_strvec m = PC_STRVEC_INIT, p = PC_STRVEC_INIT;

	(void)state;
	assert_int_equal(
		problems(
			pc_cause_schema_gemini,
			"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\"],\"nullable\":true},\"b\":{\"anyOf\":[{\"type\":\"integer\",\"minimum\":1}]}},\"required\":[\"a\"]}",
			&m, &p),
		0);
	/* the host's replacement for a non-object: empty properties at the
	 * top level are fine */
	assert_int_equal(problems(pc_cause_schema_gemini,
				  "{\"type\":\"object\",\"properties\":{}}", &m,
				  &p),
			 0);
	/* additionalProperties beside properties is let be */
	assert_int_equal(
		problems(
			pc_cause_schema_gemini,
			"{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"a\":{}}}",
			&m, &p),
		0);
	assert_int_equal(
		problems(
			pc_cause_schema_gemini,
			"{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},\"n\":{\"type\":[\"string\",\"null\"]},\"e\":{\"enum\":[1,2]},\"c\":{\"const\":\"x\"}}}",
			&m, &p),
		5);
	/* the host keeps object keys sorted: c, e, m, n */
	assert_string_equal(p.v[0], "/properties/c/const");
	assert_string_equal(p.v[1], "/properties/e/enum");
	assert_non_null(strstr(m.v[1], "enum value 0 is not a string"));
	assert_string_equal(p.v[2], "/properties/m/additionalProperties");
	assert_string_equal(p.v[3], "/properties/m");
	assert_non_null(strstr(m.v[3], "only of additionalProperties"));
	assert_non_null(strstr(m.v[3], "should be non-empty for OBJECT type"));
	assert_string_equal(p.v[4], "/properties/n/type");
	/* at the top level without properties it is reported */
	assert_int_equal(
		problems(pc_cause_schema_gemini,
			 "{\"type\":\"object\",\"additionalProperties\":true}",
			 &m, &p),
		1);
	assert_string_equal(p.v[0], "/additionalProperties");
	pc_strvec_release(&m);
	pc_strvec_release(&p);
}

/* ---- modify ---- */

static void modify(void **state)
{
	struct pc_strvec out = PC_STRVEC_INIT;
	cJSON *mod = json(
		"{\"command\":\"ls\",\"cwd\":\"/tmp\",\"opts\":{\"a\":1}}");
	cJSON *args =
		json("{\"command\":\"ls\",\"opts\":{\"a\":1,\"b\":2,\"c\":3}}");
	cJSON *params = json("{\"properties\":{\"opts\":{}}}");
	const char *const *bash = pc_cause_builtin_params("bash");

	(void)state;
	assert_string_equal(bash[0], "command");
	assert_null(pc_cause_builtin_params("todo_write"));
	assert_int_equal(pc_cause_modify_unknown(mod, bash, NULL, &out), 2);
	assert_string_equal(out.v[0], "cwd");
	assert_string_equal(out.v[1], "opts");
	pc_strvec_release(&out);
	assert_int_equal(pc_cause_modify_unknown(mod, bash, params, &out), 1);
	pc_strvec_release(&out);
	assert_int_equal(pc_cause_modify_nested(mod, args, &out), 1);
	assert_string_equal(out.v[0], "opts (drops b, c)");
	pc_strvec_release(&out);
	/* "command" is unchanged; "cwd" is new */
	assert_string_equal(pc_cause_modify_changed(mod, args), "cwd");
	assert_null(pc_cause_modify_changed(args, args));
	cJSON_Delete(mod);
	cJSON_Delete(args);
	cJSON_Delete(params);
}

/* ---- lint and check on the fixtures ---- */

static char *fixture(const char *name)
{
	return pc_xasprintf(FIXTURES_DIR "/plugins/%s", name);
}

/* The finding of rule `id`, nth of its kind (asserted present). */
static const struct pc_finding *finding(const struct pc_findings *f,
					const char *id, unsigned nth)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id) && !nth--)
			return &f->v[i];
	fail_msg("no finding %s", id);
	return NULL;
}

static void lint_fixture(const char *name, struct pc_lint *l)
{
	char *d = fixture(name);

	assert_int_equal(pc_lint_plugin(d, NULL, getenv("PATH"), l), 0);
	free(d);
}

static void assert_at(const struct pc_finding *f, const char *file,
		      unsigned line, unsigned col)
{
	if (strcmp(f->file, file) || f->line != line || f->column != col)
		fail_msg("%s at %s:%u:%u, expected %s:%u:%u", f->rule->id,
			 f->file, f->line, f->column, file, line, col);
}

static void lint_locations(void **state)
{
	struct pc_lint l = PC_LINT_INIT;
	const struct pc_finding *f;

	(void)state;
	lint_fixture("cause-dup-keys", &l);
	/* the second occurrence of each repeated key */
	assert_at(finding(&l.findings, "PC-MAN-010", 0), "plugin.json", 7, 5);
	assert_non_null(strstr(finding(&l.findings, "PC-MAN-010", 0)->message,
			       "(script \"hooks/audit.sh\") never runs"));
	assert_at(finding(&l.findings, "PC-MAN-010", 1), "plugin.json", 18, 11);
	pc_lint_release(&l);

	lint_fixture("cause-ignored-keys", &l);
	f = finding(&l.findings, "PC-MAN-011", 0);
	assert_at(f, "plugin.json", 6, 47);
	assert_non_null(
		strstr(f->message, "the default 5000 ms of pre_bash applies"));
	assert_at(finding(&l.findings, "PC-MAN-011", 1), "plugin.json", 13, 7);
	pc_lint_release(&l);

	lint_fixture("cause-bom-manifest", &l);
	assert_null(l.plugin);
	assert_at(finding(&l.findings, "PC-MAN-012", 0), "plugin.json", 1, 1);
	assert_at(finding(&l.findings, "PC-LOAD-001", 0), "plugin.json", 1, 1);
	pc_lint_release(&l);

	lint_fixture("cause-crlf", &l);
	assert_at(finding(&l.findings, "PC-SCRIPT-010", 0), "hooks/pre_bash.sh",
		  1, 12);
	pc_lint_release(&l);

	lint_fixture("cause-read-newline", &l);
	assert_at(finding(&l.findings, "PC-IO-010", 0), "hooks/pre_bash.sh", 3,
		  1);
	pc_lint_release(&l);

	lint_fixture("cause-provider-names", &l);
	assert_at(finding(&l.findings, "PC-TOOL-020", 0), "plugin.json", 6, 15);
	assert_at(finding(&l.findings, "PC-TOOL-020", 2), "plugin.json", 8, 15);
	pc_lint_release(&l);

	lint_fixture("cause-provider-schema", &l);
	/* the first problem: the top level has no "type" (the parameters key)
	 */
	assert_at(finding(&l.findings, "PC-TOOL-021", 0), "plugin.json", 9, 7);
	assert_at(finding(&l.findings, "PC-TOOL-022", 0), "plugin.json", 23,
		  41);
	pc_lint_release(&l);
}

static void lint_duplicate_field(void **state)
{
	char *dir = pc_fs_mkdtemp("cause"),
	     *mf = pc_fs_join(dir, "plugin.json");
	struct pc_lint l = PC_LINT_INIT;

	(void)state;
	tu_write_file(
		mf,
		"{\n  \"name\": \"p\",\n  \"version\": \"1\",\n  \"name\": \"q\"\n}\n",
		0644);
	assert_int_equal(pc_lint_plugin(dir, NULL, NULL, &l), 0);
	/* the host's error and place: the second "name" (serde names the
	 * key's closing quote) */
	assert_string_equal(
		l.host_error,
		"plugin.json parse error: duplicate field `name` at line 4 column 8");
	assert_at(finding(&l.findings, "PC-LOAD-001", 0), "plugin.json", 4, 8);
	pc_lint_release(&l);
	pc_fs_rm_rf(dir);
	free(mf);
	free(dir);
}

/* check on a fixture: its findings in `r` (released by the caller). */
static void check_fixture(const char *name, struct pc_report *r)
{
	char *d = fixture(name);
	char *home = pc_fs_mkdtemp("cause-home");
	struct pc_manifest_env menv = { home, NULL };
	struct pc_suite_opts o = {
		.path = d, .envp = environ, .repeat = 1, .menv = &menv
	};
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_suite_run(&o, r, &err), 0);
	pc_fs_rm_rf(home);
	free(home);
	free(d);
}

static const struct pc_finding *reported(const struct pc_report *r,
					 const char *id)
{
	for (size_t c = 0; c < r->ncases; c++)
		for (size_t i = 0; i < r->cases[c].findings.nr; i++)
			if (!strcmp(r->cases[c].findings.v[i].rule->id, id))
				return &r->cases[c].findings.v[i];
	fail_msg("no finding %s", id);
	return NULL;
}

static void check_locations(void **state)
{
	struct pc_report r = PC_REPORT_INIT;

	(void)state;
	check_fixture("cause-debug-text", &r);
	/* the echo of the debug line, the printf of the progress bar */
	assert_at(reported(&r, "PC-OUT-003"), "hooks/pre_bash.sh", 3, 7);
	pc_report_release(&r);

	check_fixture("cause-cwd", &r);
	assert_at(reported(&r, "PC-ENV-003"), "hooks/pre_bash.sh", 5, 11);
	assert_non_null(
		strstr(reported(&r, "PC-ENV-003")->message,
		       "reads 'rules.json' (hooks/pre_bash.sh line 5)"));
	pc_report_release(&r);

	/* a hook that crashes in the workspace: the cat of rules.json */
	check_fixture("cause-cwd-crash", &r);
	assert_at(reported(&r, "PC-ENV-003"), "hooks/pre_bash.sh", 6, 13);
	pc_report_release(&r);

	check_fixture("cause-session-reason", &r);
	assert_at(reported(&r, "PC-HOOK-023"), "hooks/session_start.sh", 3, 31);
	pc_report_release(&r);

	check_fixture("cause-input-crash", &r);
	/* the line the shell's crash report names: the eval */
	assert_at(reported(&r, "PC-HOOK-024"), "hooks/pre_bash.sh", 13, 0);
	assert_at(reported(&r, "PC-TOOL-023"), "tools/shout.sh", 6, 0);
	pc_report_release(&r);

	check_fixture("cause-modify-keys", &r);
	assert_at(reported(&r, "PC-HOOK-020"), "hooks/pre_bash.sh", 4, 64);
	assert_at(reported(&r, "PC-HOOK-022"), "hooks/pre_bash.sh", 4, 31);
	pc_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bom),
		cmocka_unit_test(bad_utf8),
		cmocka_unit_test(embedded_json),
		cmocka_unit_test(code_lines),
		cmocka_unit_test(printed_line),
		cmocka_unit_test(stderr_lines),
		cmocka_unit_test(shells),
		cmocka_unit_test(crlf),
		cmocka_unit_test(shell_reads),
		cmocka_unit_test(shell_read_bounds),
		cmocka_unit_test(relative_files),
		cmocka_unit_test(near_keys),
		cmocka_unit_test(tool_names),
		cmocka_unit_test(schema_refused),
		cmocka_unit_test(schema_gemini),
		cmocka_unit_test(modify),
		cmocka_unit_test(lint_locations),
		cmocka_unit_test(lint_duplicate_field),
		cmocka_unit_test(check_locations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

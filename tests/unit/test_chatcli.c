/* test_chatcli.c - the ChatCLI reference host (pc_chatcli): the A9 golden
 * vectors (data in fixtures/chatcli/a9_vectors.json), Go JSON texts (M3,
 * M4), numbers (A7.6), X5, X7, X8, O1, and every G3 and G5 row. */
#include <sys/stat.h>

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_chatcli.h"
#include "pc_fs.h"

struct fx {
	char tmp[512];
	char keys[600];
	char plugin[600];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char *t = pc_fs_mkdtemp("chatcli");

	assert_non_null(fx);
	assert_non_null(t);
	snprintf(fx->tmp, sizeof(fx->tmp), "%s", t);
	snprintf(fx->keys, sizeof(fx->keys), "%s/trusted-keys", t);
	snprintf(fx->plugin, sizeof(fx->plugin), "%s/plugins/p", t);
	free(t);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx);
	return 0;
}

static void write_text(const char *path, const char *text, mode_t mode)
{
	char *dir = strdup(path);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(pc_fs_mkdir_p(dir, NULL), 0);
	free(dir);
	assert_int_equal(pc_fs_write(path, text, strlen(text), NULL), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* --- A9 ------------------------------------------------------------------- */

static void args_match_every_a9_vector(void **state)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	cJSON *vectors, *v;
	int n = 0;

	(void)state;
	assert_int_equal(pc_fs_read_capped(FIXTURES_DIR
					   "/chatcli/a9_vectors.json",
					   &b, NULL),
			 0);
	vectors = cJSON_Parse(b.data);
	assert_non_null(vectors);
	cJSON_ArrayForEach(v, vectors)
	{
		const char *args = cJSON_GetObjectItemCaseSensitive(v, "args")
					   ->valuestring;
		cJSON *want = cJSON_GetObjectItemCaseSensitive(v, "argv");
		cJSON *want_err = cJSON_GetObjectItemCaseSensitive(v, "error");
		struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
		char *error = NULL;
		int rc = pc_chatcli_args_to_argv(args, strlen(args), &argv,
						 &error);
		cJSON *got = cJSON_CreateArray();
		char *gs, *ws;

		for (size_t i = 0; i < argv.nr; i++)
			cJSON_AddItemToArray(got,
					     cJSON_CreateString(argv.v[i].p));
		gs = cJSON_PrintUnformatted(got);
		ws = want ? cJSON_PrintUnformatted(want) : strdup("");
		if (want_err ? !error || strcmp(error, want_err->valuestring)
			     : rc || strcmp(gs, ws))
			fail_msg("vector %d `%s`: got %s / %s, want %s / %s", n,
				 args, gs, error ? error : "(no error)", ws,
				 want_err ? want_err->valuestring
					  : "(no error)");
		free(gs);
		free(ws);
		free(error);
		cJSON_Delete(got);
		pc_chatcli_argv_release(&argv);
		n++;
	}
	assert_int_equal(n, 52);
	cJSON_Delete(vectors);
	pc_buf_release(&b);
}

/* --- A1, A2: the model's reply to calls ----------------------------------- */

/* argv_json - the argv a call's args give (A4-A8), as compact JSON, or
 * the error text. New string. */
static char *argv_json(const char *args)
{
	struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
	char *error = NULL, *s;
	cJSON *a;

	if (pc_chatcli_recovered_to_argv(args, strlen(args), &argv, &error)) {
		pc_chatcli_argv_release(&argv);
		return error;
	}
	a = cJSON_CreateArray();
	for (size_t i = 0; i < argv.nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(argv.v[i].p));
	s = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	pc_chatcli_argv_release(&argv);
	return s;
}

static void parse_calls_decodes_tags_as_the_host(void **state)
{
	/* reply -> number of calls, first call's name, form, args (after A2
	 * and A3) and the argv they give. A9's attribute-level vector and
	 * the tag variants that "all dispatch identically" are rows 1-6. */
	static const struct {
		const char *reply;
		size_t n;
		const char *name, *form, *args, *argv;
	} t[] = {
		{ "<tool_call name=\"@x\" args=\"x --a &quot;b c&quot;\" />", 1,
		  "@x", "tag", "x --a &quot;b c&quot;",
		  "[\"x\",\"--a\",\"b c\"]" },
		{ "<tool name=\"@x\" args=\"x y\"/>", 1, "@x", "tag", "x y",
		  "[\"x\",\"y\"]" },
		{ "[tool: @x {\"cmd\":\"x\",\"args\":{\"a\":\"b\"}}]", 1, "@x",
		  "bracket", "{\"cmd\":\"x\",\"args\":{\"a\":\"b\"}}",
		  "[\"x\",\"--a\",\"b\"]" },
		{ "ok {\"tool_call\":\"@x\",\"args\":{\"cmd\":\"x\",\"args\":{\"a\":\"b\"}}}",
		  1, "@x", "json", "{\"args\":{\"a\":\"b\"},\"cmd\":\"x\"}",
		  "[\"x\",\"--a\",\"b\"]" },
		{ "```xml\n<tool_call name=\"@x\" args='{\"cmd\":\"x\",\"args\":{\"a\":\"b\"}}'/>\n```",
		  1, "@x", "tag", "{\"cmd\":\"x\",\"args\":{\"a\":\"b\"}}",
		  "[\"x\",\"--a\",\"b\"]" },
		{ "<TOOL_CALL args=\"x y\"\n name='@x'></tool_call>", 1, "@x",
		  "tag", "x y", "[\"x\",\"y\"]" },
		/* A2: backslash escapes only the quote and itself */
		{ "<tool_call name='@x' args='say \\'hi\\' \\\\ \\n'/>", 1,
		  "@x", "tag", "say 'hi' \\ \\n", "[\"say\",\"hi\",\"n\"]" },
		/* '>' inside a quoted value; an unterminated quote takes the
		   rest */
		{ "<tool_call name=\"@x\" args=\"a>b\" />", 1, "@x", "tag",
		  "a>b", "[\"a>b\"]" },
		{ "<tool_call name=\"@x\" args=\"a b", 0, NULL, NULL, NULL,
		  NULL },
		{ "<tool_call name=\"@x\" args='a b >", 0, NULL, NULL, NULL,
		  NULL },
		/* unquoted values run to whitespace and are HTML-unescaped */
		{ "<tool_call name=@x args=a&amp;b />", 1, "@x", "tag", "a&b",
		  "[\"a&b\"]" },
		/* no args -> empty argv; no name -> no call; not <tool_caller>
		 */
		{ "<tool_call name=\"@x\"/>", 1, "@x", "tag", "", "[]" },
		{ "<tool_call args=\"x\"/>", 0, NULL, NULL, NULL, NULL },
		{ "<tool_caller name=\"@x\" args=\"y\"/>", 0, NULL, NULL, NULL,
		  NULL },
		/* a name inside another attribute's value is skipped */
		{ "<tool_call args=\"--name=z\" name=\"@x\"/>", 1, "@x", "tag",
		  "--name=z", "[\"--name=z\"]" },
		/* JSON forms: a name without @ is not a call except coder;
		 * data-like objects are ignored; a JSON copy of a tag's args is
		 * not a second call */
		{ "{\"name\":\"x\",\"arguments\":\"a\"}", 0, NULL, NULL, NULL,
		  NULL },
		{ "{\"name\":\"@x\",\"arguments\":\"a b\"}", 1, "@x", "json",
		  "a b", "[\"a\",\"b\"]" },
		{ "{\"tool\":\"@x\",\"url\":\"u\",\"args\":\"a\"}", 0, NULL,
		  NULL, NULL, NULL },
		{ "{\"name\":\"coder\",\"args\":\"read --file a\"}", 1,
		  "@coder", "json", "read --file a",
		  "[\"read\",\"--file\",\"a\"]" },
		{ "{\"cmd\":\"read\",\"args\":{\"file\":\"a\"}}", 1, "@coder",
		  "json", "{\"args\":{\"file\":\"a\"},\"cmd\":\"read\"}",
		  "[\"read\",\"--file\",\"a\"]" },
		{ "<tool_call name=\"@x\" args='{\"tool_call\":\"@x\",\"args\":\"q\"}'/>",
		  1, "@x", "tag", "{\"tool_call\":\"@x\",\"args\":\"q\"}",
		  "[\"{\\\"args\\\":\\\"q\\\",\\\"tool_call\\\":\\\"@x\\\"}\"]" },
		/* bracket shorthand: @ added, flat args, missing ']' */
		{ "[tool_call: websearch search --q go]", 1, "@websearch",
		  "bracket", "search --q go", "[\"search\",\"--q\",\"go\"]" },
		{ "[tool: @tools]", 1, "@tools", "bracket", "", "[]" },
		{ "[tool: @x {\"cmd\":\"y\"}", 1, "@x", "bracket",
		  "{\"cmd\":\"y\"}", "[\"y\"]" },
		{ "[tool docs]", 0, NULL, NULL, NULL, NULL },
		/* A3 with the call's name: single quotes, and plain-string
		 * wrapping only for the host's own tool names */
		{ "<tool_call name=\"@x\" args=\"{'cmd':'x','args':{'q':'v w'}}\"/>",
		  1, "@x", "tag", "{\"cmd\":\"x\",\"args\":{\"q\":\"v w\"}}",
		  "[\"x\",\"--q\",\"v w\"]" },
		{ "<tool_call name=\"@coder\" args=\"ls -la\"/>", 1, "@coder",
		  "tag", "{\"cmd\":\"ls -la\"}", "[\"ls -la\"]" },
		{ "<tool_call name=\"@x\" args=\"ls -la\"/>", 1, "@x", "tag",
		  "ls -la", "[\"ls\",\"-la\"]" },
		/* A3 aggressive rewrite: a raw line break in a JSON string
		 * turns the args object into a string that is then dropped (A9)
		 */
		{ "<tool_call name=\"@x\" args='{\"cmd\":\"x\",\"args\":{\"a\":\"l1\nl2\"}}'/>",
		  1, "@x", "tag",
		  "{\"args\":\"{\\\"a\\\":\\\"l1\\nl2\\\"}\",\"cmd\":\"x\"}",
		  "[\"x\"]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_tool_calls c = PC_CHATCLI_TOOL_CALLS_INIT;
		size_t n = pc_chatcli_parse_calls(t[i].reply,
						  strlen(t[i].reply), &c);
		char *av;

		if (n != t[i].n)
			fail_msg("row %zu `%s`: %zu calls, want %zu", i,
				 t[i].reply, n, t[i].n);
		if (n) {
			av = argv_json(c.v[0].args);
			if (strcmp(c.v[0].name, t[i].name) ||
			    strcmp(c.v[0].form, t[i].form) ||
			    strcmp(c.v[0].args, t[i].args) ||
			    strcmp(av, t[i].argv))
				fail_msg(
					"row %zu `%s`: got %s %s `%s` %s, want %s %s `%s` %s",
					i, t[i].reply, c.v[0].name, c.v[0].form,
					c.v[0].args, av, t[i].name, t[i].form,
					t[i].args, t[i].argv);
			free(av);
		}
		pc_chatcli_tool_calls_release(&c);
	}
}

#define REPLY                                                          \
	"<tool name=\"@a\" args=\"1\"/> text <tool_call name=\"@b\" "    \
	"args=\"2\"></tool_call> {\"tool_call\":\"@c\",\"args\":\"3\"} " \
	"[tool: @d 4]"

static void parse_calls_keeps_document_order(void **state)
{
	struct pc_chatcli_tool_calls c = PC_CHATCLI_TOOL_CALLS_INIT;

	(void)state;
	assert_int_equal(
		pc_chatcli_parse_calls(
			REPLY, strlen(REPLY), &c),
		3);
	assert_string_equal(c.v[0].name, "@a");
	assert_string_equal(c.v[1].name, "@b");
	assert_string_equal(c.v[2].name, "@c");
	assert_string_equal(c.v[2].args, "3");
	pc_chatcli_tool_calls_release(&c);
	assert_int_equal(pc_chatcli_parse_calls("", 0, &c), 0);
	assert_int_equal(pc_chatcli_parse_calls(NULL, 0, &c), 0);
}
#undef REPLY

static void go_float_formats_like_fmt_v(void **state)
{
	static const struct {
		double v;
		const char *s;
	} t[] = { { 1000000, "1e+06" },
		  { 1234567, "1.234567e+06" },
		  { 100000, "100000" },
		  { 0.00001, "1e-05" },
		  { 0.0001, "0.0001" },
		  { 1.5, "1.5" },
		  { -3, "-3" },
		  { 0, "0" },
		  { 1e21, "1e+21" },
		  { 123456, "123456" },
		  { 12345678901.0, "1.2345678901e+10" },
		  { 0.1, "0.1" } };

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char *s = pc_chatcli_go_float(t[i].v);

		assert_string_equal(s, t[i].s);
		free(s);
	}
}

/* Found by fuzz/fuzz_chatcli_args (input fuzz/corpus/chatcli_args/
 * regress-inf-number): a number past float64's range in the model's JSON
 * args reached the float formatter as +Inf and read through a NULL
 * pointer. Go's json.Unmarshal into interface{} refuses it (A6.2), and so
 * does the host's A3 validity test: recovery's aggressive rewrite turns
 * the value holding it into a string first (issue 18: 1e400 becomes the
 * string "1e400"); only an array, which that rewrite leaves alone, is
 * refused. fmt's %v of +Inf is "+Inf". The argv were checked against the
 * host's functions built with Go 1.19. */
static void out_of_range_numbers_fail_as_go(void **state)
{
	static const struct {
		const char *in, *argv;
	} t[] = {
		{ "{\"cmd\":\"x\",\"args\":{\"n\":1e999}}", "x" },
		{ "{\"cmd\":\"x\",\"n\":1e400}", "x --n 1e400" },
		{ "{\"cmd\":\"x\",\"s\":\"1e999\",\"z\":[0,1e-999,1e999,2e999]}",
		  "x --s 1e999 --z [0,1e-999,1e999,2e999]" },
		/* a nested args string that overflows is dropped, as
		 * undecodable */
		{ "{\"cmd\":\"x\",\"args\":\"{\\\"n\\\":1e999}\"}", "x" },
		/* underflow is not an error in Go: 0 */
		{ "{\"cmd\":\"x\",\"n\":1e-999}", "x --n 0" },
	};
	struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
	char *e = NULL, *s;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char got[256] = "";

		assert_int_equal(pc_chatcli_args_to_argv(t[i].in,
							 strlen(t[i].in), &argv,
							 &e),
				 0);
		assert_null(e);
		for (size_t k = 0; k < argv.nr; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%s", k ? " " : "", argv.v[k].p);
		assert_string_equal(got, t[i].argv);
		pc_chatcli_argv_release(&argv);
	}
	assert_int_equal(pc_chatcli_args_to_argv("[\"a\",-1e400]", 12, &argv,
						 &e),
			 PC_EINVAL);
	assert_string_equal(
		e,
		"Args parsing error: json: cannot unmarshal number -1e400 into Go value of type float64");
	assert_int_equal(argv.nr, 0);
	free(e);
	s = pc_chatcli_go_float(1e308 * 10);
	assert_string_equal(s, "+Inf");
	free(s);
	s = pc_chatcli_go_float(-1e308 * 10);
	assert_string_equal(s, "-Inf");
	free(s);
}

/* --- M3, M4 --------------------------------------------------------------- */

static void json_errors_are_go_texts(void **state)
{
	static const struct {
		const char *in, *err;
	} t[] = {
		{ "starting\n{}",
		  "invalid character 's' looking for beginning of value" },
		{ "{} {}", "invalid character '{' after top-level value" },
		{ "", "unexpected end of JSON input" },
		{ "{\"a\":1", "unexpected end of JSON input" },
		{ "{\"a\" 1}", "invalid character '1' after object key" },
		{ "[1 2]", "invalid character '2' after array element" },
		{ "{'a':1}",
		  "invalid character '\\'' looking for beginning of object key string" },
		/* the end of the input is stepped as a space (issue 18; Go
		 * 1.19's scanner.eof): only between tokens or inside a string
		 * is it "unexpected end" */
		{ "tru", "invalid character ' ' in literal true (expecting 'e')" },
		{ "{\"name\":\"\\", "invalid character ' ' in string escape code" },
		{ "\"\\u12", "invalid character ' ' in \\u hexadecimal character escape" },
		{ "-", "invalid character ' ' in numeric literal" },
		{ "1.", "invalid character ' ' after decimal point in numeric literal" },
		{ "[1e", "invalid character ' ' in exponent of numeric literal" },
		{ "\"abc", "unexpected end of JSON input" },
		{ "trux",
		  "invalid character 'x' in literal true (expecting 'e')" },
		{ "\"a\nb\"", "invalid character '\\n' in string literal" },
		{ "-x", "invalid character 'x' in numeric literal" },
		{ "01", "invalid character '1' after top-level value" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char *e = NULL;

		assert_false(
			pc_chatcli_json_check(t[i].in, strlen(t[i].in), &e));
		assert_non_null(e);
		assert_string_equal(e, t[i].err);
		free(e);
	}
	assert_true(
		pc_chatcli_json_check(" {\"a\":[1,2.5e3,null]}\n", 22, NULL));
}

static void metadata_decodes_as_go(void **state)
{
	struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
	char *e = NULL;
	const char *doc =
		"{\"NAME\":\"@x\",\"Version\":\"2\",\"name\":null,\"extra\":1}";

	(void)state;
	assert_int_equal(pc_chatcli_meta_decode(doc, strlen(doc), &m, &e), 0);
	assert_string_equal(m.name, "@x");
	assert_string_equal(m.version, "2");
	assert_string_equal(m.usage, "");
	pc_chatcli_meta_release(&m);

	doc = "{\"name\":\"@x\",\"version\":1}";
	assert_int_equal(pc_chatcli_meta_decode(doc, strlen(doc), &m, &e),
			 PC_EPARSE);
	assert_string_equal(
		e,
		"json: cannot unmarshal number into Go struct field Metadata.version of type string");
	free(e);
	pc_chatcli_meta_release(&m);

	doc = "[]";
	assert_int_equal(pc_chatcli_meta_decode(doc, 2, &m, &e), PC_EPARSE);
	assert_string_equal(
		e,
		"json: cannot unmarshal array into Go value of type plugins.Metadata");
	free(e);
	pc_chatcli_meta_release(&m);

	assert_int_equal(pc_chatcli_meta_decode("null", 4, &m, &e), 0);
	assert_string_equal(m.name, "");
	pc_chatcli_meta_release(&m);
}

/* deep - {"name":"@x","x":[[...]]} with `d` nested arrays (caller frees). */
static char *deep(size_t d, size_t *n)
{
	char *s = malloc(2 * d + 64);
	size_t k;

	assert_non_null(s);
	k = (size_t)snprintf(s, 64, "{\"name\":\"@x\",\"x\":");
	memset(s + k, '[', d);
	memset(s + k + d, ']', d);
	k += 2 * d;
	s[k++] = '}';
	s[k] = '\0';
	*n = k;
	return s;
}

/* M4: Go's scanner allows 10000 nested containers (the 10001st fails with
 * "invalid character '[' exceeded max depth"). The spec does not state
 * the limit: it is Go's encoding/json (scanner.go, maxNestingDepth =
 * 10000, and its "exceeded max depth" error), which the host's
 * json.Unmarshal of --metadata uses (M4); Metadata reads only the
 * top level, so a deep unknown key does not stop the load. plugcheck used
 * to refuse anything over cJSON's 1000 levels with a wrong text (found
 * reviewing fuzz_chatcli_json). */
static void metadata_nesting_limits_are_go(void **state)
{
	static const size_t ok[] = { 999, 1000, 1001, 9999 };
	struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
	char *e = NULL, *s;
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
		s = deep(ok[i], &n);
		assert_true(pc_chatcli_json_check(s, n, NULL));
		assert_int_equal(pc_chatcli_meta_decode(s, n, &m, &e), 0);
		assert_string_equal(m.name, "@x");
		pc_chatcli_meta_release(&m);
		free(s);
	}
	/* the object is level 1: 9999 arrays inside it make 10000 */
	s = deep(10000, &n);
	assert_false(pc_chatcli_json_check(s, n, &e));
	assert_string_equal(e, "invalid character '[' exceeded max depth");
	free(e);
	assert_int_equal(pc_chatcli_meta_decode(s, n, &m, &e), PC_EPARSE);
	assert_string_equal(e, "invalid character '[' exceeded max depth");
	free(e);
	pc_chatcli_meta_release(&m);
	free(s);
}

/* A6/A7: JSON args nested deeper than cJSON's 1000 levels decode as in Go
 * (limit 10000); an array value flattens to nothing when it holds only
 * arrays. Past Go's limit the plugin is not run. */
static void args_nesting_limits_are_go(void **state)
{
	static const size_t depth[] = { 10, 1001, 9999 };
	struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
	char *e = NULL, *s;

	(void)state;
	for (size_t i = 0; i <= sizeof(depth) / sizeof(*depth); i++) {
		size_t d = i < 3 ? depth[i] : 10000, k;

		s = malloc(2 * d + 64);
		assert_non_null(s);
		k = (size_t)snprintf(s, 64, "{\"cmd\":\"x\",\"a\":");
		memset(s + k, '[', d);
		memset(s + k + d, ']', d);
		k += 2 * d;
		s[k++] = '}';
		s[k] = '\0';
		if (i < 3) { /* object + d arrays: at most 1 + 9999 */
			assert_int_equal(
				pc_chatcli_args_to_argv(s, k, &argv, &e), 0);
			assert_null(e);
			assert_int_equal(argv.nr, 1);
			assert_string_equal(argv.v[0].p, "x");
		} else {
			assert_int_equal(
				pc_chatcli_args_to_argv(s, k, &argv, &e),
				PC_EINVAL);
			assert_string_equal(
				e,
				"Args parsing error: invalid character '[' exceeded max depth");
			free(e);
			e = NULL;
		}
		pc_chatcli_argv_release(&argv);
		free(s);
	}
}

/* --- X5, O1 -----------------------------------------------------------------
 */

static void timeout_parses_go_durations(void **state)
{
	(void)state;
	assert_int_equal(pc_chatcli_timeout_ms("30s"), 30000);
	assert_int_equal(pc_chatcli_timeout_ms("1m30s"), 90000);
	assert_int_equal(pc_chatcli_timeout_ms("1.5h"), 5400000);
	assert_int_equal(pc_chatcli_timeout_ms("500ms"), 500);
	assert_int_equal(pc_chatcli_timeout_ms("30"),
			 PC_CHATCLI_DEFAULT_TIMEOUT_MS);
	assert_int_equal(pc_chatcli_timeout_ms("-5s"),
			 PC_CHATCLI_DEFAULT_TIMEOUT_MS);
	assert_int_equal(pc_chatcli_timeout_ms("0"),
			 PC_CHATCLI_DEFAULT_TIMEOUT_MS);
	assert_int_equal(pc_chatcli_timeout_ms(NULL),
			 PC_CHATCLI_DEFAULT_TIMEOUT_MS);
}

static void truncation_keeps_head_and_tail(void **state)
{
	static const size_t sizes[] = { 29999, 30000, 30001, 100000 };
	char *big = malloc(100000);
	size_t n;

	(void)state;
	memset(big, 'a', 100000);
	for (size_t i = 0; i < 4; i++) {
		char *t = pc_chatcli_truncate(big, sizes[i], &n);

		if (sizes[i] <= 30000) {
			assert_int_equal(n, sizes[i]);
		} else {
			char marker[80];

			snprintf(
				marker, sizeof(marker),
				"\n\n... [TRUNCATED %zu chars omitted, 6000 kept] ...\n\n",
				sizes[i] - 6000);
			assert_int_equal(n, 6054);
			assert_memory_equal(t + 5000, marker, strlen(marker));
		}
		free(t);
	}
	free(big);
}

/* O1 names CHATCLI_COMPRESSION, CHATCLI_COMPRESSION_THRESHOLD and the
 * 4000 default. The rows beyond those come from the upstream code O1
 * cites, read in the diillson/chatcli mirror: the mode is a
 * case-sensitive switch where only "off", "none" and "disabled" turn it
 * off (cli/compress/compress.go, ParseMode); the threshold is
 * strconv.Atoi ("+100" parses, " 100" and "1k" do not) kept only when
 * >= 0 (cli/compress/layer.go, NewLayerFromEnv), and NewLayer turns a
 * threshold <= 0 into the 4000 default. */
static void compression_threshold_follows_the_env(void **state)
{
	static const struct {
		size_t len;
		const char *mode, *threshold;
		bool applies;
	} t[] = {
		{ 3999, NULL, NULL, false },
		{ 4000, NULL, NULL, true },
		{ 4001, NULL, NULL, true },
		{ 4000, "off", NULL, false },
		{ 4000, "none", NULL, false },
		{ 4000, "disabled", NULL, false },
		{ 4000, "OFF", NULL, true },
		{ 4000, "lossless", NULL, true },
		{ 99, NULL, "100", false },
		{ 100, NULL, "100", true },
		{ 101, NULL, "+100", true },
		{ 3999, NULL, "0", false },
		{ 3999, NULL, "-5", false },
		{ 3999, NULL, "1k", false },
		{ 3999, NULL, " 100", false },
		{ 0, NULL, "", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		if (pc_chatcli_compression_applies(t[i].len, t[i].mode,
						   t[i].threshold) !=
		    t[i].applies)
			fail_msg("row %zu: %zu bytes, mode %s, threshold %s", i,
				 t[i].len, t[i].mode ? t[i].mode : "-",
				 t[i].threshold ? t[i].threshold : "-");
	assert_int_equal(pc_chatcli_compress_threshold(NULL), 4000);
	assert_int_equal(pc_chatcli_compress_threshold("7"), 7);
}

/* --- X7, X8 ------------------------------------------------------------------
 */

static void run_call(struct fx *fx, const char *script,
		     struct pc_chatcli_call *c, int64_t timeout_ms)
{
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;

	write_text(fx->plugin, script, 0755);
	o.path = fx->plugin;
	o.timeout_ms = timeout_ms;
	o.hard_cap_ms = 20000;
	assert_int_equal(pc_chatcli_call(&o, c, NULL), 0);
}

static void call_merges_lines_and_reports_exit(void **state)
{
	struct fx *fx = *state;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

	run_call(fx, "#!/bin/sh\nprintf 'a\\r\\nb\\rc'\nexit 3\n", &c, 10000);
	assert_string_equal(c.merged, "a\nb\nc");
	assert_string_equal(c.error, "plugin execution failed: exit status 3");
	assert_string_equal(c.output, "a\nb\nc");
	pc_chatcli_call_release(&c);

	run_call(fx, "#!/bin/sh\necho out\necho err >&2\n", &c, 10000);
	assert_null(c.error);
	assert_int_equal(strlen(c.merged), 8);
	assert_non_null(strstr(c.merged, "err\n"));
	pc_chatcli_call_release(&c);
}

static void call_timeout_kills_child_only_and_waits_for_pipes(void **state)
{
	struct fx *fx = *state;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

	run_call(fx, "#!/bin/sh\nsleep 30\n", &c, 300);
	assert_string_equal(c.error, "plugin execution failed: signal: killed");
	pc_chatcli_call_release(&c);

	/* the plugin exits at once; its background child holds stdout for
	 * 3 s, past the 1 s deadline (X6) */
	run_call(fx, "#!/bin/sh\n(sleep 3; echo late) &\necho early\n", &c,
		 1000);
	assert_string_equal(
		c.error, "plugin execution failed: context deadline exceeded");
	assert_string_equal(c.merged, "early\nlate\n");
	assert_true(c.duration_ms >= 2900);
	assert_false(c.capped);
	pc_chatcli_call_release(&c);
}

static void call_start_failure_text(void **state)
{
	struct fx *fx = *state;
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	char want[PATH_MAX + 64];

	write_text(fx->plugin, "no shebang", 0644);
	o.path = fx->plugin;
	assert_int_equal(pc_chatcli_call(&o, &c, NULL), 0);
	snprintf(want, sizeof(want),
		 "falha ao iniciar plugin: fork/exec %s: permission denied",
		 fx->plugin);
	assert_string_equal(c.error, want);
	assert_string_equal(c.output, "");
	pc_chatcli_call_release(&c);
}

/* --- M1-M5, S2
 * ------------------------------------------------------------------ */

static void probe_reports_host_texts(void **state)
{
	struct fx *fx = *state;
	struct pc_chatcli_probe p = PC_CHATCLI_PROBE_INIT;

	write_text(
		fx->plugin,
		"#!/bin/sh\n[ \"$1\" = --metadata ] && echo '{\"name\":\"@p\"}' && exit 0\necho '{\"parameters\":[]}'\n",
		0755);
	assert_int_equal(
		pc_chatcli_probe(fx->plugin, NULL, NULL, 5000, &p, NULL), 0);
	assert_true(p.loaded);
	assert_string_equal(p.meta.name, "@p");
	assert_string_equal(p.schema, "{\"parameters\":[]}\n");
	pc_chatcli_probe_release(&p);

	write_text(fx->plugin, "#!/bin/sh\nexit 4\n", 0755);
	assert_int_equal(
		pc_chatcli_probe(fx->plugin, NULL, NULL, 5000, &p, NULL), 0);
	assert_false(p.loaded);
	assert_string_equal(p.host_error, "exit status 4");
	pc_chatcli_probe_release(&p);

	write_text(fx->plugin, "#!/bin/sh\nexit 0\n", 0644);
	assert_int_equal(
		pc_chatcli_probe(fx->plugin, NULL, NULL, 5000, &p, NULL), 0);
	assert_string_equal(p.host_error, "not executable");
	pc_chatcli_probe_release(&p);

	write_text(fx->plugin, "#!/bin/sh\nsleep 30\n", 0755);
	assert_int_equal(
		pc_chatcli_probe(fx->plugin, NULL, NULL, 300, &p, NULL), 0);
	assert_true(p.metadata_run.hung);
	assert_false(p.loaded);
	pc_chatcli_probe_release(&p);
}

/* --- G3, G4, G5
 * ------------------------------------------------------------------ */

static char *keygen_and_sign(struct fx *fx)
{
	char keydir[1024], key[1200], pub[1200];
	char *written = NULL;

	snprintf(keydir, sizeof(keydir), "%s/plugin-keys", fx->tmp);
	snprintf(key, sizeof(key), "%s/plugin-signing.key", keydir);
	snprintf(pub, sizeof(pub), "%s/plugin-signing.pub", keydir);
	write_text(fx->plugin, "#!/bin/sh\necho '{\"name\":\"@p\"}'\n", 0755);
	assert_int_equal(pc_chatcli_keygen(keydir, NULL), 0);
	assert_int_equal(pc_chatcli_keygen(keydir, NULL), PC_EINVAL);
	assert_int_equal(pc_chatcli_sign(fx->plugin, key, NULL, NULL), 0);
	assert_int_equal(pc_chatcli_trust(pub, fx->keys, NULL, &written, NULL),
			 0);
	return written;
}

static void expect_verdict(struct fx *fx, bool allow, const char *want)
{
	char *e = NULL;
	int rc = pc_chatcli_sig_verify(fx->plugin, fx->keys, allow, &e, NULL);

	if (!want) {
		if (rc)
			fail_msg("allow=%d: refused with '%s'", allow, e);
	} else {
		assert_int_equal(rc, PC_EINVAL);
		assert_string_equal(e, want);
	}
	free(e);
}

static void sig_file(struct fx *fx, const char *text)
{
	char p[PATH_MAX + 8];

	snprintf(p, sizeof(p), "%s.sig", fx->plugin);
	write_text(p, text, 0644);
}

static void signatures_follow_the_g5_table(void **state)
{
	struct fx *fx = *state;
	char *pub = keygen_and_sign(fx), sig[PATH_MAX + 8], *saved = NULL;
	char b64[100], msg[PATH_MAX + 128];
	struct pc_buf b = PC_BUF_INIT(1 << 16);

	/* verifies under a trusted key: load (both policies) */
	expect_verdict(fx, false, NULL);
	expect_verdict(fx, true, NULL);
	snprintf(sig, sizeof(sig), "%s.sig", fx->plugin);
	assert_int_equal(pc_fs_read_capped(sig, &b, NULL), 0);
	saved = strdup(b.data);
	assert_non_null(strstr(
		saved,
		"\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: p\n# sha256: "));
	snprintf(b64, sizeof(b64), "%.88s", saved);

	/* G3: leading blank lines accepted; comments ignored */
	snprintf(msg, sizeof(msg), "\n\n  %s  \nanything\n", b64);
	sig_file(fx, msg);
	expect_verdict(fx, false, NULL);
	/* G3: unpadded base64 */
	snprintf(msg, sizeof(msg), "%.86s\n", b64);
	sig_file(fx, msg);
	expect_verdict(
		fx, false,
		"invalid signature encoding: illegal base64 data at input byte 84");
	expect_verdict(
		fx, true,
		"invalid signature encoding: illegal base64 data at input byte 84");
	/* G3: hex (128 chars) decodes to 96 bytes */
	sig_file(
		fx,
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
	expect_verdict(fx, false,
		       "invalid signature size: expected 64, got 96");
	/* G3: wrapped over two lines: the first line only */
	snprintf(msg, sizeof(msg), "%.44s\n%s\n", b64, b64 + 44);
	sig_file(fx, msg);
	expect_verdict(fx, true, "invalid signature size: expected 64, got 33");
	/* G3: empty file */
	sig_file(fx, "");
	expect_verdict(fx, false, "invalid signature size: expected 64, got 0");
	/* G3: raw binary bytes */
	sig_file(fx, "\x01\x02\x03\xff");
	expect_verdict(
		fx, false,
		"invalid signature encoding: illegal base64 data at input byte 0");
	/* verifies under none: skip even with unsigned allowed */
	snprintf(msg, sizeof(msg), "%s\n", b64);
	sig_file(fx, msg);
	write_text(fx->plugin, "#!/bin/sh\necho tampered\n", 0755);
	expect_verdict(fx, false, "plugin signature verification failed");
	expect_verdict(fx, true, "plugin signature verification failed");
	/* zero trusted keys */
	unlink(pub);
	expect_verdict(fx, false, "no trusted public keys found");
	expect_verdict(fx, true, NULL);
	/* no .sig */
	unlink(sig);
	expect_verdict(fx, false, "plugin signature file not found");
	expect_verdict(fx, true, NULL);
	/* .sig unreadable (a directory) */
	assert_int_equal(pc_fs_mkdir_p(sig, NULL), 0);
	snprintf(msg, sizeof(msg),
		 "failed to read signature file: read %s: is a directory", sig);
	expect_verdict(fx, false, msg);
	expect_verdict(fx, true, msg);
	rmdir(sig);
	/* plugin unreadable: a directory with a .sig */
	sig_file(fx, saved);
	unlink(fx->plugin);
	assert_int_equal(pc_fs_mkdir_p(fx->plugin, NULL), 0);
	snprintf(msg, sizeof(msg),
		 "failed to read plugin binary: read %s: is a directory",
		 fx->plugin);
	expect_verdict(fx, false, msg);
	expect_verdict(fx, true, msg);
	free(saved);
	free(pub);
	pc_buf_release(&b);
}

static void trusted_keys_accept_pem_and_base64_only(void **state)
{
	struct fx *fx = *state;
	char *pub = keygen_and_sign(fx), path[PATH_MAX + 16];
	struct pc_buf b = PC_BUF_INIT(1 << 16);
	size_t nk = 0;
	char *e = NULL, raw[64];

	assert_int_equal(pc_fs_read_capped(pub, &b, NULL), 0);
	unlink(pub);
	/* the base64 of the last 32 DER bytes: a 44-char line */
	{
		const char *body = strchr(b.data, '\n') + 1;

		snprintf(raw, sizeof(raw), "%.60s", body);
	}
	snprintf(path, sizeof(path), "%s/ssh.pub", fx->keys);
	write_text(path, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEx user\n",
		   0644);
	snprintf(path, sizeof(path), "%s/key.pem", fx->keys);
	write_text(path, b.data, 0644);
	assert_int_equal(
		pc_chatcli_sig_verify(fx->plugin, fx->keys, false, &e, &nk),
		PC_EINVAL);
	assert_string_equal(e, "no trusted public keys found");
	free(e);
	snprintf(path, sizeof(path), "%s/key.pub", fx->keys);
	write_text(path, b.data, 0644);
	assert_int_equal(
		pc_chatcli_sig_verify(fx->plugin, fx->keys, false, &e, &nk), 0);
	assert_int_equal(nk, 1);
	free(pub);
	pc_buf_release(&b);
}

/* --- §6.B and HEAD layouts ------------------------------------------------ */

static void sig_layouts_are_told_apart(void **state)
{
	static const struct {
		const char *text;
		size_t n; /* 0: strlen */
		enum pc_chatcli_sig_format f;
		const char *plugin, *sha;
	} t[] = {
		{ "QUJD\n", 0, PC_CHATCLI_SIG_HEAD, NULL, NULL },
		{ "\n\n  QUJD  \n\n", 0, PC_CHATCLI_SIG_HEAD, NULL, NULL },
		{ "", 0, PC_CHATCLI_SIG_HEAD, NULL, NULL },
		{ "QUJD\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: p\n# sha256: ab\n",
		  0, PC_CHATCLI_SIG_UPSTREAM, "p", "ab" },
		{ "QUJD\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: a b\n# sha256: cd\n",
		  0, PC_CHATCLI_SIG_UPSTREAM, "a b", "cd" },
		/* one line short, one too many, CRLF, free comments */
		{ "QUJD\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: p\n",
		  0, PC_CHATCLI_SIG_OTHER, NULL, NULL },
		{ "QUJD\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: p\n# sha256: ab\nmore\n",
		  0, PC_CHATCLI_SIG_OTHER, NULL, NULL },
		{ "QUJD\r\n# chatcli plugin signature (Ed25519 over SHA-256)\r\n# plugin: p\r\n# sha256: ab\r\n",
		  0, PC_CHATCLI_SIG_OTHER, NULL, NULL },
		{ "QUJD\nmy own note\n", 0, PC_CHATCLI_SIG_OTHER, NULL, NULL },
		{ "QUJD\n# chatcli plugin signature (Ed25519 over SHA-256)\n# plugin: p\0q\n# sha256: ab",
		  81, PC_CHATCLI_SIG_OTHER, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_sig_info in = PC_CHATCLI_SIG_INFO_INIT;

		pc_chatcli_sig_info_parse(
			t[i].text, t[i].n ? t[i].n : strlen(t[i].text), &in);
		if (in.format != t[i].f)
			fail_msg("row %zu: format %s, want %s", i,
				 pc_chatcli_sig_format_name(in.format),
				 pc_chatcli_sig_format_name(t[i].f));
		if (t[i].plugin) {
			assert_string_equal(in.plugin, t[i].plugin);
			assert_string_equal(in.sha256, t[i].sha);
		} else {
			assert_null(in.plugin);
			assert_null(in.sha256);
		}
		pc_chatcli_sig_info_release(&in);
	}
	assert_string_equal(pc_chatcli_sig_format_name(PC_CHATCLI_SIG_HEAD),
			    "head");
}

static void key_formats_follow_g4(void **state)
{
	static const struct {
		const char *text, *want;
	} t[] = {
		/* PKIX SubjectPublicKeyInfo of a 32-byte key */
		{ "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n",
		  "pkix-pem" },
		/* a raw 32-byte DER body, and the ED25519 PUBLIC KEY type */
		{ "-----BEGIN PUBLIC KEY-----\nGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n",
		  "pem" },
		{ "-----BEGIN ED25519 PUBLIC KEY-----\nGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END ED25519 PUBLIC KEY-----\n",
		  "pem" },
		{ "  Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n",
		  "base64" },
		/* skipped by the host */
		{ "-----BEGIN PRIVATE KEY-----\nGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PRIVATE KEY-----\n",
		  NULL },
		{ "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBm/RAlphM3+hUG6wWfcO5bIUIaqMLa2ywxcOK1wMWbh u\n",
		  NULL },
		{ "19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1\n",
		  NULL },
		{ "Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZu\n", NULL },
		{ "", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		const char *f = pc_chatcli_key_format(t[i].text,
						      strlen(t[i].text));

		if (t[i].want ? !f || strcmp(f, t[i].want) : f != NULL)
			fail_msg("row %zu: %s, want %s", i, f ? f : "NULL",
				 t[i].want ? t[i].want : "NULL");
	}
}

static void sign_head_layout_verifies(void **state)
{
	struct fx *fx = *state;
	char *pub = keygen_and_sign(fx), key[1200], sig[1200], *e = NULL;
	char *hex = pc_chatcli_digest_hex(fx->plugin);
	struct pc_buf b = PC_BUF_INIT(1 << 16);
	struct pc_chatcli_sig_info in = PC_CHATCLI_SIG_INFO_INIT;

	snprintf(key, sizeof(key), "%s/plugin-keys/plugin-signing.key",
		 fx->tmp);
	snprintf(sig, sizeof(sig), "%s.sig", fx->plugin);
	assert_int_equal(pc_fs_read_capped(sig, &b, NULL), 0);
	pc_chatcli_sig_info_parse(b.data, b.len, &in);
	assert_int_equal(in.format, PC_CHATCLI_SIG_UPSTREAM);
	assert_non_null(hex);
	assert_string_equal(in.sha256, hex);
	assert_string_equal(in.plugin, "p");
	pc_chatcli_sig_info_release(&in);
	assert_string_equal(pc_chatcli_sig_status(fx->plugin, fx->keys),
			    "verified");
	assert_int_equal(pc_chatcli_sign_head(fx->plugin, key, NULL, NULL), 0);
	pc_buf_reset(&b);
	assert_int_equal(pc_fs_read_capped(sig, &b, NULL), 0);
	assert_int_equal(b.len, 89); /* 88 base64 characters and LF */
	pc_chatcli_sig_info_parse(b.data, b.len, &in);
	assert_int_equal(in.format, PC_CHATCLI_SIG_HEAD);
	assert_int_equal(
		pc_chatcli_sig_verify(fx->plugin, fx->keys, false, &e, NULL),
		0);
	assert_null(pc_chatcli_digest_hex("/nonexistent/p"));
	/* the §6.B statuses */
	write_text(sig, "!!\n", 0644);
	assert_string_equal(pc_chatcli_sig_status(fx->plugin, fx->keys),
			    "untrusted");
	unlink(sig);
	assert_string_equal(pc_chatcli_sig_status(fx->plugin, fx->keys),
			    "unsigned");
	unlink(pub);
	assert_int_equal(pc_chatcli_sign_head(fx->plugin, key, NULL, NULL), 0);
	assert_string_equal(pc_chatcli_sig_status(fx->plugin, fx->keys),
			    "unverifiable");
	free(hex);
	free(pub);
	pc_buf_release(&b);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(args_match_every_a9_vector),
		T(parse_calls_decodes_tags_as_the_host),
		T(parse_calls_keeps_document_order),
		T(go_float_formats_like_fmt_v),
		T(out_of_range_numbers_fail_as_go),
		T(json_errors_are_go_texts),
		T(metadata_decodes_as_go),
		T(metadata_nesting_limits_are_go),
		T(args_nesting_limits_are_go),
		T(timeout_parses_go_durations),
		T(truncation_keeps_head_and_tail),
		T(compression_threshold_follows_the_env),
		T(call_merges_lines_and_reports_exit),
		T(call_timeout_kills_child_only_and_waits_for_pipes),
		T(call_start_failure_text),
		T(probe_reports_host_texts),
		T(signatures_follow_the_g5_table),
		T(trusted_keys_accept_pem_and_base64_only),
		T(sig_layouts_are_told_apart),
		T(key_formats_follow_g4),
		T(sign_head_layout_verifies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_chatcli_out.c - issue 18, what the model receives from a ChatCLI
 * plugin: the merged output as the host reads it (X7: NUL kept, reads
 * of 4096 bytes), a start the host's exec refuses (X8), the compression
 * layer (O1 step 1, vectors in fixtures/chatcli/compress_vectors.json),
 * and a call through `chatcli connect` (R2, R3).
 *
 * The X7, X8 and O1 expectations are what the host's own plugin.go and
 * cli/compress returned, built unmodified with Go 1.19 and run outside
 * the repository. The R2/R3 texts come from the host's server/
 * validation.go, server/handler_remote.go and client/remote/
 * remote_plugin.go with the error formats of the gRPC (v1.83.0) and
 * protobuf-go (v1.36.11) releases its go.mod pins, read in their
 * sources: a gRPC server is not run here. */
#include <sys/stat.h>

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
	char *tmp;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->tmp = pc_fs_mkdtemp("chatcli-out");
	assert_non_null(fx->tmp);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx);
	return 0;
}

/* script - an executable `name` in the fixture dir running `body` for
 * any argument but --metadata/--schema; returns its path (caller
 * frees). */
static char *script(struct fx *fx, const char *name, const char *meta,
		    const char *body)
{
	char *p = pc_fs_join(fx->tmp, name), text[2048];

	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "[ \"$1\" = --metadata ] && { printf '%%s' '%s'; exit 0; }\n"
		 "[ \"$1\" = --schema ] && exit 1\n"
		 "%s\n",
		 meta, body);
	assert_int_equal(pc_fs_write(p, text, strlen(text), NULL), 0);
	assert_int_equal(chmod(p, 0755), 0);
	return p;
}

static void run(const char *path, const struct pc_chatcli_argv *args,
		struct pc_chatcli_call *c)
{
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_compress_env off = { "off", NULL, NULL, NULL };

	o.path = path;
	o.args = args;
	o.timeout_ms = 20000;
	o.compress = &off;
	assert_int_equal(pc_chatcli_call(&o, c, NULL), 0);
}

/* --- X7, X8 ------------------------------------------------------------------ */

/* X7: a NUL in the output is an ordinary byte of the result. */
static void output_keeps_nul_bytes(void **state)
{
	struct fx *fx = *state;
	char *p = script(fx, "nul", "{}", "printf 'a\\000b\\n'");
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

	run(p, NULL, &c);
	assert_null(c.error);
	assert_int_equal(c.output_len, 4);
	assert_memory_equal(c.output, "a\0b\n", 4);
	pc_chatcli_call_release(&c);
	free(p);
}

/* X7: the host reads at most 4096 bytes at a time; a \r ending one read
 * is a line end, so the \n starting the next is another, empty line.
 * One write of N x's and "\r\ny\n", at N = 4094..4097. */
static void crlf_split_across_reads_adds_a_line(void **state)
{
	static const struct {
		size_t x, len;
		bool extra_line;
	} t[] = {
		{ 4094, 4097, false },
		{ 4095, 4099, true },
		{ 4096, 4099, false },
		{ 4097, 4100, false },
	};
	struct fx *fx = *state;

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		char *data = malloc(t[i].x + 4), body[512], *d, *p;
		struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

		assert_non_null(data);
		memset(data, 'x', t[i].x);
		memcpy(data + t[i].x, "\r\ny\n", 4);
		d = pc_fs_join(fx->tmp, "crlf.data");
		assert_int_equal(pc_fs_write(d, data, t[i].x + 4, NULL), 0);
		/* cat writes the file in one write(2) */
		snprintf(body, sizeof(body), "cat '%s'", d);
		p = script(fx, "crlf", "{}", body);
		run(p, NULL, &c);
		assert_null(c.error);
		assert_int_equal(c.output_len, t[i].len);
		assert_memory_equal(c.output + c.output_len - 4,
				    t[i].extra_line ? "x\n\ny\n" + 1 : "x\ny\n",
				    4);
		if (t[i].extra_line)
			assert_memory_equal(c.output + t[i].x, "\n\ny\n", 4);
		pc_chatcli_call_release(&c);
		free(p);
		free(d);
		free(data);
	}
}

/* X8: Go's exec refuses an argument holding a NUL before it forks:
 * "fork/exec PATH: invalid argument", and the plugin never runs. */
static void nul_argument_is_not_started(void **state)
{
	struct fx *fx = *state;
	char *mark = pc_fs_join(fx->tmp, "ran"), body[512], *p, *want;
	struct pc_chatcli_argv a = PC_CHATCLI_ARGV_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	char *e = NULL;
	static const char args[] =
		"{\"cmd\":\"x\",\"args\":{\"a\":\"b\\u0000c\"}}";

	snprintf(body, sizeof(body), "touch '%s'; echo ran", mark);
	p = script(fx, "nularg", "{}", body);
	assert_int_equal(pc_chatcli_args_to_argv(args, sizeof(args) - 1, &a, &e),
			 0);
	assert_int_equal(a.nr, 3);
	assert_true(pc_chatcli_argv_has_nul(&a));
	run(p, &a, &c);
	want = malloc(strlen(p) + 64);
	assert_non_null(want);
	snprintf(want, strlen(p) + 64,
		 "falha ao iniciar plugin: fork/exec %s: invalid argument", p);
	assert_string_equal(c.error, want);
	assert_int_equal(c.output_len, 0);
	assert_false(pc_fs_is_file(mark));
	pc_chatcli_call_release(&c);
	pc_chatcli_argv_release(&a);
	free(want);
	free(p);
	free(mark);
}

/* --- O1 step 1 ------------------------------------------------------------- */

/* text_of - a vector's text: a JSON string, or {"base64": "..."}. */
static char *text_of(const cJSON *v, size_t *n)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, "base64");
	unsigned char *out;
	size_t len, cap;

	if (cJSON_IsString(v)) {
		*n = strlen(v->valuestring);
		return strdup(v->valuestring);
	}
	assert_true(cJSON_IsString(b));
	len = strlen(b->valuestring);
	cap = len + 1;
	out = malloc(cap);
	assert_non_null(out);
	/* a tiny standard base64 decoder: the fixture is well formed */
	{
		static const char a[] =
			"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		unsigned acc = 0;
		int bits = 0;

		*n = 0;
		for (size_t i = 0; i < len && b->valuestring[i] != '='; i++) {
			acc = acc << 6 |
			      (unsigned)(strchr(a, b->valuestring[i]) - a);
			if ((bits += 6) >= 8) {
				bits -= 8;
				out[(*n)++] = (unsigned char)(acc >> bits);
			}
		}
	}
	out[*n] = '\0';
	return (char *)out;
}

static const char *opt(const cJSON *c, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Every vector: strategy and bytes as the host's layer gives them (the
 * search, log, diff, json-crush and prose compressors; lossless and off
 * modes; @recall; an existing <<ccr:KEY>> marker; the threshold at N-1,
 * N; a threshold strconv.Atoi refuses; profiles). */
static void compression_matches_the_host(void **state)
{
	struct pc_buf b = PC_BUF_INIT(1 << 22);
	const cJSON *inputs, *cases, *c;
	cJSON *doc;
	int n = 0;

	(void)state;
	assert_int_equal(pc_fs_read_capped(FIXTURES_DIR
					   "/chatcli/compress_vectors.json",
					   &b, NULL),
			 0);
	doc = cJSON_Parse(b.data);
	assert_non_null(doc);
	inputs = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
	cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
	cJSON_ArrayForEach(c, cases)
	{
		struct pc_chatcli_compress_env env = {
			opt(c, "mode"), opt(c, "profile"), opt(c, "threshold"),
			NULL
		};
		const char *name = opt(c, "name"), *tool = opt(c, "tool");
		struct pc_chatcli_compressed z;
		size_t in_n, want_n;
		char *in = text_of(cJSON_GetObjectItemCaseSensitive(
					   inputs, opt(c, "input")),
				   &in_n);
		char *want = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				     c, "unchanged"))
				     ? (want_n = in_n, strdup(in))
				     : text_of(cJSON_GetObjectItemCaseSensitive(
						       c, "output"),
					       &want_n);

		pc_chatcli_compress(tool, strlen(tool), in, in_n, &env, &z);
		if (strcmp(z.strategy, opt(c, "strategy")) ||
		    z.len != want_n || memcmp(z.text, want, want_n))
			fail_msg("%s: %s, %zu bytes; want %s, %zu bytes", name,
				 z.strategy, z.len, opt(c, "strategy"), want_n);
		/* a lossy result cites the original by its key */
		if (*z.key) {
			char marker[32];

			snprintf(marker, sizeof(marker), "<<ccr:%s>>", z.key);
			assert_non_null(strstr(z.text, marker) ||
					strstr(z.text, "\\u003c\\u003cccr:"));
		}
		pc_chatcli_compressed_release(&z);
		free(in);
		free(want);
		n++;
	}
	assert_int_equal(n, 20);
	cJSON_Delete(doc);
	pc_buf_release(&b);
}

/* O1 in a call: step 1 runs before the 30000-byte truncation, routed by
 * the call's name; the call notes the compressor and the key. */
static void calls_compress_then_truncate(void **state)
{
	struct fx *fx = *state;
	char *p = script(fx, "grep", "{}",
			 "i=0; while [ $i -lt 300 ]; do "
			 "echo \"src/f$((i % 4)).go:$i: hit $i\"; "
			 "i=$((i+1)); done");
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_compress_env env = { NULL, NULL, NULL, NULL };
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

	(void)state;
	o.path = p;
	o.timeout_ms = 20000;
	o.compress = &env;
	o.tool = "@x";
	o.tool_len = 2;
	assert_int_equal(pc_chatcli_call(&o, &c, NULL), 0);
	assert_null(c.error);
	assert_string_equal(c.compression, "search");
	assert_true(c.compression_engaged);
	assert_int_equal(strlen(c.ccr_key), 16);
	assert_true(c.output_len < c.merged_len);
	assert_int_equal(c.output_len, c.compressed_len);
	assert_non_null(strstr(c.output, "@recall <<ccr:"));
	pc_chatcli_call_release(&c);
	/* @recall's output is never compressed */
	o.tool = "@recall";
	o.tool_len = 7;
	assert_int_equal(pc_chatcli_call(&o, &c, NULL), 0);
	assert_string_equal(c.compression, "passthrough");
	assert_false(c.compression_engaged);
	assert_int_equal(c.output_len, c.merged_len);
	pc_chatcli_call_release(&c);
	free(p);
}

/* --- R2, R3 --------------------------------------------------------------------
 */

static void fill(struct pc_chatcli_argv *a, size_t count, size_t len)
{
	char *s = malloc(len + 1);

	assert_non_null(s);
	memset(s, 'a', len);
	for (size_t i = 0; i < count; i++)
		pc_chatcli_argv_push(a, s, len);
	free(s);
}

static char *request_error(size_t name_len, size_t count, size_t len)
{
	struct pc_chatcli_argv a = PC_CHATCLI_ARGV_INIT;
	char *name = malloc(name_len + 1), *e;
	struct pc_chatcli_str s = { name, name_len };

	assert_non_null(name);
	memset(name, 'n', name_len);
	name[name_len] = '\0';
	fill(&a, count, len);
	e = pc_chatcli_remote_request_error(&s, &a);
	pc_chatcli_argv_release(&a);
	free(name);
	return e;
}

/* expect - the request error for a name of name_len bytes and `count`
 * arguments of `len` bytes: none (want NULL) or exactly `want`. */
static void expect(size_t name_len, size_t count, size_t len,
		   const char *want)
{
	char *e = request_error(name_len, count, len);

	if (want)
		assert_string_equal(e, want);
	else
		assert_null(e);
	free(e);
}

/* R2: the server's limits, each at N-1, N and N+1 (validation.go). */
static void remote_request_limits(void **state)
{
	(void)state;
	expect(255, 1, 1, NULL);
	expect(256, 1, 1, NULL);
	expect(257, 1, 1,
	       "rpc error: code = InvalidArgument desc = validation: plugin_name exceeds maximum length of 256 characters");
	expect(0, 0, 0,
	       "rpc error: code = InvalidArgument desc = validation: plugin_name is required");
	expect(4, 99, 1, NULL);
	expect(4, 100, 1, NULL);
	expect(4, 101, 1,
	       "rpc error: code = InvalidArgument desc = validation: too many plugin arguments (max 100)");
	expect(4, 2, 10239, NULL);
	expect(4, 2, 10240, NULL);
	expect(4, 2, 10241,
	       "rpc error: code = InvalidArgument desc = validation: plugin argument 0 exceeds maximum size of 10240 bytes");
}

/* R3: the response the server must encode (proto3 strings are UTF-8)
 * and the client receive (4 MiB: 1 + 4-byte length + output + the done
 * flag's 2 bytes makes output 4194297 the last that fits). */
static void remote_response_limits(void **state)
{
	static const size_t sizes[] = { 4194296, 4194297, 4194298 };
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	char *e;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		c.merged = calloc(1, sizes[i] + 1);
		assert_non_null(c.merged);
		memset(c.merged, 'o', sizes[i]);
		c.merged_len = sizes[i];
		e = pc_chatcli_remote_response_error(&c);
		if (i < 2)
			assert_null(e);
		else
			assert_string_equal(
				e,
				"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (4194305 vs. 4194304)");
		free(e);
		free(c.merged);
	}
	c.merged = strdup("a\xff");
	c.merged_len = 2;
	e = pc_chatcli_remote_response_error(&c);
	assert_string_equal(
		e,
		"rpc error: code = Internal desc = grpc: error while marshaling: string field contains invalid UTF-8");
	free(e);
	free(c.merged);
}

static void probe(const char *path, struct pc_chatcli_probe *p)
{
	assert_int_equal(pc_chatcli_probe(path, NULL, NULL, 10000, p, NULL), 0);
	assert_true(p->loaded);
}

static void remote(const char *path, const struct pc_chatcli_probe *p,
		   const char *role, const char *tool,
		   struct pc_chatcli_call *c)
{
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_compress_env off = { "off", NULL, NULL, NULL };
	struct pc_chatcli_remote_opts r = { role, p };

	o.path = path;
	o.timeout_ms = 20000;
	o.compress = &off;
	o.tool = tool;
	o.tool_len = tool ? strlen(tool) : 0;
	assert_int_equal(pc_chatcli_remote_call(&o, &r, c, NULL), 0);
}

/* R2, R3: roles, the `_` rule (listing only), the client's lookup and
 * its error wrapping. */
static void remote_calls_as_the_client_shows_them(void **state)
{
	struct fx *fx = *state;
	char *p = script(fx, "rp", "{\"name\":\"@rp\"}",
			 "echo partial; exit 3");
	char *u = script(fx, "under", "{\"name\":\"_hid\"}", "echo ok");
	struct pc_chatcli_probe pp = PC_CHATCLI_PROBE_INIT,
				pu = PC_CHATCLI_PROBE_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;

	probe(p, &pp);
	probe(u, &pu);
	/* a server error keeps the output */
	remote(p, &pp, NULL, "rp", &c);
	assert_string_equal(
		c.error,
		"remote plugin error: plugin execution failed: exit status 3");
	assert_string_equal(c.output, "partial\n");
	pc_chatcli_call_release(&c);
	/* readonly users list nothing: the model's call is unknown */
	remote(p, &pp, "readonly", "@rp", &c);
	assert_string_equal(c.error, "plugin não encontrado");
	assert_string_equal(c.output,
			    "Ferramenta '@rp' não existe ou não está instalada.");
	assert_non_null(c.remote_hidden);
	pc_chatcli_call_release(&c);
	/* a role that lists plugins but may not run them */
	remote(p, &pp, "guest", "@rp", &c);
	assert_string_equal(
		c.error,
		"remote ExecuteRemotePlugin failed: rpc error: code = PermissionDenied desc = insufficient permissions: role \"guest\" cannot execute plugins");
	assert_int_equal(c.output_len, 0);
	pc_chatcli_call_release(&c);
	/* `_` names are listed to admins only */
	remote(u, &pu, "user", "_hid", &c);
	assert_string_equal(c.error, "plugin não encontrado");
	pc_chatcli_call_release(&c);
	remote(u, &pu, "admin", "_hid", &c);
	assert_null(c.error);
	assert_string_equal(c.output, "ok\n");
	pc_chatcli_call_release(&c);
	/* GetPlugin adds '@', never strips it */
	remote(u, &pu, NULL, "@_hid", &c);
	assert_string_equal(c.output,
			    "Ferramenta '@_hid' não existe ou não está instalada.");
	pc_chatcli_call_release(&c);
	pc_chatcli_probe_release(&pp);
	pc_chatcli_probe_release(&pu);
	free(p);
	free(u);
}

/* R1: a schema the server cannot encode hides every remote plugin. */
static void remote_listing_needs_utf8_schemas(void **state)
{
	struct fx *fx = *state;
	char *p = pc_fs_join(fx->tmp, "bad"), *why = NULL;
	static const char text[] =
		"#!/bin/sh\n"
		"[ \"$1\" = --metadata ] && { echo '{\"name\":\"@b\"}'; exit 0; }\n"
		"[ \"$1\" = --schema ] && { printf '{\"x\":\"\\377\"}'; exit 0; }\n"
		"echo ok\n";
	struct pc_chatcli_probe pp = PC_CHATCLI_PROBE_INIT;

	assert_int_equal(pc_fs_write(p, text, strlen(text), NULL), 0);
	assert_int_equal(chmod(p, 0755), 0);
	probe(p, &pp);
	assert_non_null(pp.schema); /* json.Valid took it: the host keeps it */
	assert_non_null(pc_chatcli_remote_listed(&pp, NULL, &why));
	assert_string_equal(
		why,
		"rpc error: code = Internal desc = grpc: error while marshaling: string field contains invalid UTF-8");
	free(why);
	pc_chatcli_probe_release(&pp);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(output_keeps_nul_bytes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			crlf_split_across_reads_adds_a_line, setup, teardown),
		cmocka_unit_test_setup_teardown(nul_argument_is_not_started,
						setup, teardown),
		cmocka_unit_test(compression_matches_the_host),
		cmocka_unit_test_setup_teardown(calls_compress_then_truncate,
						setup, teardown),
		cmocka_unit_test(remote_request_limits),
		cmocka_unit_test(remote_response_limits),
		cmocka_unit_test_setup_teardown(
			remote_calls_as_the_client_shows_them, setup, teardown),
		cmocka_unit_test_setup_teardown(
			remote_listing_needs_utf8_schemas, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

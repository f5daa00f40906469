/* test_chatcli_go.c - issue 18, the ChatCLI host's Go standard library
 * as the reference host reproduces it: encoding/json decoding of
 * --metadata, --schema and the model's JSON (M3, M4, S2, A3, A6, A7),
 * html.UnescapeString and strings.TrimSpace on the argument path (A2,
 * A4), the tool-call parser's strings.ToLower offsets (A1), and the
 * signature and key encodings (G3, G4).
 *
 * Every expected value here is what the host's own functions (its
 * cli/plugins, cli/agent, cli/agent_tool_sanitizer.go and utils files,
 * unmodified) returned when built with Go 1.19 (Debian golang-1.19, with
 * Go 1.22's \b and \f escaping in encoding/json), run outside the
 * repository; none is derived from plugcheck's output. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_chatcli.h"
#include "pc_fs.h"

/* A byte string with its length (literals may hold NUL). */
struct bytes {
	const char *p;
	size_t n;
};

#define B(s) { s, sizeof(s) - 1 }

static void assert_bytes(const char *got, size_t gn, struct bytes want,
			 const char *what)
{
	if (gn != want.n || memcmp(got, want.p, gn)) {
		char g[256] = "", w[256] = "";

		for (size_t i = 0; i < gn && strlen(g) + 5 < sizeof(g); i++)
			snprintf(g + strlen(g), sizeof(g) - strlen(g),
				 (unsigned char)got[i] < 0x20 ||
						 (unsigned char)got[i] >= 0x7f
					 ? "\\x%02x"
					 : "%c",
				 (unsigned char)got[i]);
		for (size_t i = 0; i < want.n && strlen(w) + 5 < sizeof(w); i++)
			snprintf(w + strlen(w), sizeof(w) - strlen(w),
				 (unsigned char)want.p[i] < 0x20 ||
						 (unsigned char)want.p[i] >= 0x7f
					 ? "\\x%02x"
					 : "%c",
				 (unsigned char)want.p[i]);
		fail_msg("%s: got `%s` (%zu bytes), want `%s` (%zu bytes)", what,
			 g, gn, w, want.n);
	}
}

/* --- encoding/json (M3, M4, S2) ------------------------------------------- */

/* Go's decoder: Unicode folding of keys (Go 1.19's equalFoldRight: ſ is
 * s, K is k), a NUL in a key makes another key, a NUL in a value is
 * kept, lone and reversed surrogate escapes and invalid bytes are one
 * U+FFFD each, a later null leaves a string alone. */
static void metadata_decodes_as_go(void **state)
{
	static const struct {
		struct bytes in;
		int field; /* 0 name, 2 usage, 3 version */
		struct bytes want;
	} t[] = {
		{ B("{\"u\xc5\xbf"
		    "age\":\"u\"}"),
		  2, B("u") },
		{ B("{\"USAGE\":\"u\",\"u\xc5\xbf"
		    "age\":\"v\"}"),
		  2, B("v") },
		{ B("{\"name\\u0000\":\"@x\"}"), 0, B("") },
		{ B("{\"name\":\"@a\\u0000b\"}"), 0, B("@a\0b") },
		{ B("{\"name\":\"\\ud800\"}"), 0, B("\xef\xbf\xbd") },
		{ B("{\"name\":\"\\udc00\\ud800x\"}"), 0,
		  B("\xef\xbf\xbd\xef\xbf\xbdx") },
		{ B("{\"name\":\"\\ud83d\\ude00\"}"), 0, B("\xf0\x9f\x98\x80") },
		{ B("{\"name\":\"a\xff"
		    "b\xed\xa0\x80\"}"),
		  0, B("a\xef\xbf\xbd"
		       "b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") },
		{ B("{\"name\":\"a\",\"name\":null}"), 0, B("a") },
		/* İ is not I, and K U+212A folds only onto a field with k */
		{ B("{\"n\xc4\xb0me\":\"x\"}"), 0, B("") },
		{ B("{\"\xe2\x84\xaa"
		    "ey\":\"x\",\"name\":\"@k\"}"),
		  0, B("@k") },
		{ B("{\"ver\xc5\xbfion\":\"s\"}"), 3, B("s") },
		{ B("{\"Name\":\"@m\",\"VERSION\":\"2\"}"), 3, B("2") },
		/* a number past float64 where no field is a number */
		{ B("{\"x\":1e400,\"name\":\"@n\"}"), 0, B("@n") },
		{ B("null"), 0, B("") },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
		char *e = NULL, what[32];
		const char *f;
		size_t fn;

		if (pc_chatcli_meta_decode(t[i].in.p, t[i].in.n, &m, &e))
			fail_msg("row %zu: %s", i, e);
		f = t[i].field == 0 ? m.name : t[i].field == 2 ? m.usage
							       : m.version;
		fn = t[i].field == 0	 ? m.name_len
		     : t[i].field == 2 ? m.usage_len
				       : m.version_len;
		snprintf(what, sizeof(what), "row %zu", i);
		assert_bytes(f, fn, t[i].want, what);
		pc_chatcli_meta_release(&m);
	}
}

/* The end of the input is stepped as one space (scanner.eof), so an
 * input that ends inside an escape or a literal reports that token. */
static void metadata_errors_are_go_texts(void **state)
{
	static const struct {
		struct bytes in;
		const char *err;
	} t[] = {
		{ B("{\"name\":\"\\"),
		  "invalid character ' ' in string escape code" },
		{ B("{\"name\":\"\\u00"),
		  "invalid character ' ' in \\u hexadecimal character escape" },
		{ B("{\"name\":\"\\\\"), "unexpected end of JSON input" },
		{ B("{\"name\":\"a\0\"}"),
		  "invalid character '\\x00' in string literal" },
		{ B("{\"version\":1}"),
		  "json: cannot unmarshal number into Go struct field Metadata.version of type string" },
		{ B("{\"name\":1e400,\"x\":1}"),
		  "json: cannot unmarshal number into Go struct field Metadata.name of type string" },
		{ B("{\"description\":[]}"),
		  "json: cannot unmarshal array into Go struct field Metadata.description of type string" },
		{ B("[1]"),
		  "json: cannot unmarshal array into Go value of type plugins.Metadata" },
		{ B("\"s\""),
		  "json: cannot unmarshal string into Go value of type plugins.Metadata" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
		char *e = NULL;

		assert_int_equal(pc_chatcli_meta_decode(t[i].in.p, t[i].in.n,
							&m, &e),
				 PC_EPARSE);
		assert_string_equal(e, t[i].err);
		free(e);
		pc_chatcli_meta_release(&m);
	}
}

/* S2: json.Valid takes what json.Unmarshal would not (1e400, lone
 * surrogates, invalid UTF-8); json.Unmarshal into interface{} refuses
 * only the number, and its value of the rest is Go's. */
static void schema_validity_is_json_valid(void **state)
{
	static const struct {
		struct bytes in;
		const char *unmarshal; /* its marshalled value, or error */
		bool ok;
	} t[] = {
		{ B("1e400"),
		  "json: cannot unmarshal number 1e400 into Go value of type float64",
		  false },
		{ B("\"\\ud800\""), "\"\xef\xbf\xbd\"", true },
		{ B("{\"a\":\"\\udc00\"}"), "{\"a\":\"\xef\xbf\xbd\"}", true },
		{ B("123456789012345678901234567890"), "1.2345678901234568e+29",
		  true },
		{ B("\"\xff\""), "\"\xef\xbf\xbd\"", true },
		{ B("{\"z\":-0,\"a\":[-0.0,1e-7,1e21]}"),
		  "{\"a\":[-0,1e-7,1e+21],\"z\":-0}", true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_jv v;
		char *e = NULL, *m;
		size_t mn;

		assert_true(pc_chatcli_json_check(t[i].in.p, t[i].in.n, NULL));
		if (!t[i].ok) {
			assert_int_equal(pc_chatcli_json_unmarshal(t[i].in.p,
								   t[i].in.n,
								   &v, &e),
					 PC_EPARSE);
			assert_string_equal(e, t[i].unmarshal);
			free(e);
			continue;
		}
		assert_int_equal(pc_chatcli_json_unmarshal(t[i].in.p, t[i].in.n,
							   &v, &e),
				 0);
		m = pc_chatcli_jv_marshal(&v, &mn);
		assert_bytes(m, mn, (struct bytes){ t[i].unmarshal,
						    strlen(t[i].unmarshal) },
			     t[i].in.p);
		free(m);
		pc_chatcli_jv_release(&v);
	}
}

/* Go 1.19's fold for struct fields: exact, then ASCII case, then K/ſ for
 * fields with k or s; byte lengths count. */
static void field_matching_is_go_1_19(void **state)
{
	(void)state;
	assert_true(pc_chatcli_json_field_match("key", 3, "key"));
	assert_true(pc_chatcli_json_field_match("\xe2\x84\xaa"
						"EY",
						5, "key"));
	assert_true(pc_chatcli_json_field_match("u\xc5\xbf"
						"age",
						6, "usage"));
	assert_true(pc_chatcli_json_field_match("NAME", 4, "name"));
	assert_false(pc_chatcli_json_field_match("name\0", 5, "name"));
	assert_false(pc_chatcli_json_field_match("n\xc4\xb0me", 5, "name"));
	/* no k or s in "name": the Kelvin sign is just another byte */
	assert_false(pc_chatcli_json_field_match("\xe2\x84\xaa", 3, "k2"));
	assert_true(pc_chatcli_json_field_match("\xe2\x84\xaa"
						"2",
						4, "k2"));
	assert_true(pc_chatcli_json_field_match("ARGSFORMAT", 10, "argsFormat"));
	assert_false(pc_chatcli_json_field_match("args_format", 11,
						 "argsFormat"));
}

/* --- the argument path (A2-A8) ---------------------------------------------- */

struct vec {
	struct bytes in;
	int argc; /* -1: not run */
	struct bytes argv[6];
};

static void check_vectors(const struct vec *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pc_chatcli_argv a = PC_CHATCLI_ARGV_INIT;
		char *e = NULL, what[64];
		int rc = pc_chatcli_args_to_argv(t[i].in.p, t[i].in.n, &a, &e);

		if (rc)
			fail_msg("row %zu: %s", i, e);
		if ((int)a.nr != t[i].argc)
			fail_msg("row %zu: %zu arguments, want %d", i, a.nr,
				 t[i].argc);
		for (size_t k = 0; k < a.nr; k++) {
			snprintf(what, sizeof(what), "row %zu argv[%zu]", i, k);
			assert_bytes(a.v[k].p, a.v[k].n, t[i].argv[k], what);
		}
		pc_chatcli_argv_release(&a);
	}
}

/* html.UnescapeString with Go's whole table, then strings.TrimSpace's
 * Unicode spaces; Go's rune steps turn invalid bytes into U+FFFD. */
static void arguments_unescape_and_trim_as_go(void **state)
{
	static const struct vec t[] = {
		{ B("x &#128; &amp;b"), 3,
		  { B("x"), B("\xe2\x82\xac"), B("&b") } },
		{ B("&#x80;&#159;&#x9F;"), 1,
		  { B("\xe2\x82\xac\xc5\xb8\xc5\xb8") } },
		{ B("&AMP; &amp &ampx &amp;"), 4,
		  { B("&"), B("&"), B("&x"), B("&") } },
		/* legacy names without ';' match as a prefix */
		{ B("&notit; &notin; &not"), 3,
		  { B("\xc2\xacit;"), B("\xe2\x88\x89"), B("\xc2\xac") } },
		/* two decimal digits or a ';': "&#9x" stays, "&#x9x" does not */
		{ B("&#9x &#9; &#x9x &#x; &#;"), 4,
		  { B("&#9x"), B("x"), B("\xef\xbf\xbd"), B("&#;") } },
		{ B("&#0;&#xD800;&#1114112;&#99999999999;"), 1,
		  { B("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") } },
		/* the two references Go leaves out */
		{ B("&nGt; &nLt;"), 2, { B("&nGt;"), B("&nLt;") } },
		{ B("&Aacute &aacute; &lt &LT &LT;"), 5,
		  { B("\xc3\x81"), B("\xc3\xa1"), B("<"), B("<"), B("<") } },
		/* the form feed &#12 gives is trimmed */
		{ B("&#12&zwj;&Lt;"), 1, { B("\xe2\x80\x8d\xe2\x89\xaa") } },
		{ B("&nbsp;x&nbsp;"), 1, { B("x") } },
		/* U+3000 and U+00A0 at the ends are trimmed; U+202F inside a
		 * word is not a separator */
		{ B("\xe3\x80\x80x\xe2\x80\xaf y\xc2\xa0"), 2,
		  { B("x\xe2\x80\xaf"), B("y") } },
		{ B("{\"cmd\":\"w\",\"args\":{\"t\":\"a &lt; &notit;\"}}"), 3,
		  { B("w"), B("--t"), B("a < \xc2\xacit;") } },
		{ B("a\xff"
		    "b"),
		  1, { B("a\xef\xbf\xbd"
			 "b") } },
		{ B("{\"cmd\":\"x\",\"args\":{\"k\":\"\xff\"}}"), 3,
		  { B("x"), B("--k"), B("\xef\xbf\xbd") } },
	};

	(void)state;
	check_vectors(t, sizeof(t) / sizeof(*t));
}

/* A7: -0 stays -0 when re-serialised; 1e400 fails json.Unmarshal and the
 * host's recovery makes it the string "1e400"; an argv that is not an
 * array is ignored; a NUL in a value is kept (the exec fails later). */
static void json_arguments_are_go_values(void **state)
{
	static const struct vec t[] = {
		{ B("{\"args\":{\"n\":-0}}"), 1, { B("{\"args\":{\"n\":-0}}") } },
		{ B("{\"cmd\":\"x\",\"n\":-0.0,\"o\":{\"z\":-0}}"), 5,
		  { B("x"), B("--n"), B("-0"), B("--o"), B("{\"z\":-0}") } },
		{ B("{\"cmd\":\"x\",\"n\":1e400}"), 3,
		  { B("x"), B("--n"), B("1e400") } },
		{ B("{\"cmd\":\"x\",\"argv\":{\"a\":\"b\"}}"), 1, { B("x") } },
		{ B("{\"argv\":{\"a\":\"b\"}}"), 1,
		  { B("{\"argv\":{\"a\":\"b\"}}") } },
		{ B("{\"cmd\":\"x\",\"argv\":\"y\"}"), 1, { B("x") } },
		{ B("{\"cmd\":\"x\",\"args\":{\"a\":\"b\\u0000c\"}}"), 3,
		  { B("x"), B("--a"), B("b\0c") } },
		{ B("{\"cmd\":\"x\",\"\xe2\x84\xaa\":1}"), 3,
		  { B("x"), B("--\xe2\x84\xaa"), B("1") } },
	};

	(void)state;
	check_vectors(t, sizeof(t) / sizeof(*t));
}

/* A1: the tag finder indexes strings.ToLower(text) and slices the text,
 * so a character whose lower case is shorter (K U+212A, İ, Ω U+2126, ẞ)
 * or an invalid byte (U+FFFD, longer) before the tag moves the position:
 * the host finds no call; where the slice leaves the text Go panics. */
static void tag_offsets_follow_strings_to_lower(void **state)
{
	static const struct {
		struct bytes in;
		size_t n;
		const char *panic;
	} t[] = {
		{ B("\xe2\x84\xaa<tool_call name=\"@x\" args=\"a\"/>"), 0, NULL },
		{ B("\xc4\xb0<tool_call name=\"@x\" args=\"a\"/>"), 0, NULL },
		{ B("\xe2\x84\xa6<tool_call name=\"@x\" args=\"a\"/>"), 0, NULL },
		{ B("\xe1\xba\x9e<tool_call name=\"@x\" args=\"a\"/>"), 0, NULL },
		{ B("\xff<tool_call name=\"@x\" args=\"a\"/>"), 0, NULL },
		{ B("K<tool_call name=\"@x\" args=\"a\"/>"), 1, NULL },
		{ B("<tool_call \xe2\x84\xaaname=\"@x\"/>"), 0, NULL },
		{ B("<tool name=\"@x\">\xff\xff\xff\xff</tool>"), 0,
		  "runtime error: slice bounds out of range [:35] with length 27" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct pc_chatcli_tool_calls c = PC_CHATCLI_TOOL_CALLS_INIT;
		size_t n = pc_chatcli_parse_calls(t[i].in.p, t[i].in.n, &c);

		if (t[i].panic) {
			assert_non_null(c.panic);
			assert_string_equal(c.panic, t[i].panic);
		} else {
			assert_null(c.panic);
			if (n != t[i].n)
				fail_msg("row %zu: %zu calls, want %zu", i, n,
					 t[i].n);
		}
		pc_chatcli_tool_calls_release(&c);
	}
}

/* --- G3, G4 -------------------------------------------------------------------
 */

/* A 32-byte key: bytes 0..31, standard base64, and its PKIX DER. */
#define KEY_B64 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
#define PKIX_B64 "MCowBQYDK2VwAyEAAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
#define PEM(type, hdr, body, end) \
	"-----BEGIN " type "-----\n" hdr body "\n-----END " end "-----\n"

/* pem.Decode: header lines with or without the blank line; BEGIN only at
 * the start of the text or of a line; the END line names the same type;
 * a file with no valid block is read as bare base64. */
static void trusted_keys_are_read_as_pem_decode_does(void **state)
{
	static const struct {
		const char *text;
		const char *format;
	} t[] = {
		{ PEM("PUBLIC KEY", "", PKIX_B64, "PUBLIC KEY"), "pkix-pem" },
		{ PEM("PUBLIC KEY", "Comment: x\n", PKIX_B64, "PUBLIC KEY"),
		  "pkix-pem" },
		{ PEM("PUBLIC KEY", "Comment: x\n\n", PKIX_B64, "PUBLIC KEY"),
		  "pkix-pem" },
		{ PEM("ED25519 PUBLIC KEY", "a:b\nc: d\n", KEY_B64,
		      "ED25519 PUBLIC KEY"),
		  "pem" },
		{ "junk\n" PEM("PUBLIC KEY", "", PKIX_B64, "PUBLIC KEY"),
		  "pkix-pem" },
		{ "  " PEM("PUBLIC KEY", "", PKIX_B64, "PUBLIC KEY"), NULL },
		{ PEM("PUBLIC KEY", "", PKIX_B64, "PRIVATE KEY"), NULL },
		{ PEM("X", "", PKIX_B64, "X") PEM("PUBLIC KEY", "", PKIX_B64,
						  "PUBLIC KEY"),
		  NULL },
		{ "  " KEY_B64 "\n", "base64" },
		{ "\xe3\x80\x80" KEY_B64 "\xc2\xa0", "base64" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		const char *f =
			pc_chatcli_key_format(t[i].text, strlen(t[i].text));

		if (t[i].format ? !f || strcmp(f, t[i].format) : f != NULL)
			fail_msg("row %zu: %s, want %s", i, f ? f : "NULL",
				 t[i].format ? t[i].format : "NULL");
	}
	/* a NUL is a byte like any other: base64 refuses it */
	assert_null(pc_chatcli_key_format(KEY_B64 "\0", sizeof(KEY_B64)));
}

struct fx {
	char *tmp, *plugin, *keys;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->tmp = pc_fs_mkdtemp("chatcli-go");
	assert_non_null(fx->tmp);
	fx->plugin = pc_fs_join(fx->tmp, "p");
	fx->keys = pc_fs_join(fx->tmp, "keys");
	assert_int_equal(pc_fs_write(fx->plugin, "x", 1, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(fx->keys, NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx->plugin);
	free(fx->keys);
	free(fx);
	return 0;
}

static char *verify_with_sig(struct fx *fx, const char *sig, size_t n,
			     size_t *nkeys)
{
	char *sp = pc_fs_join(fx->tmp, "p.sig"), *e = NULL;

	assert_int_equal(pc_fs_write(sp, sig, n, NULL), 0);
	pc_chatcli_sig_verify(fx->plugin, fx->keys, false, &e, nkeys);
	free(sp);
	return e;
}

/* G3: the .sig is bytes: a NUL is an illegal byte at its offset; an
 * input ending inside a quantum is reported at the quantum's start,
 * counted without the newlines base64 skips. */
static void sig_errors_are_at_go_offsets(void **state)
{
	/* 64 bytes 0..63 */
	static const char sig[] =
		"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==";
	struct fx *fx = *state;
	char buf[160], *e;
	size_t nk;

	buf[0] = 'A';
	buf[1] = '\0';
	memcpy(buf + 2, sig, sizeof(sig));
	e = verify_with_sig(fx, buf, 2 + sizeof(sig) - 1, &nk);
	assert_string_equal(
		e,
		"invalid signature encoding: illegal base64 data at input byte 1");
	free(e);
	snprintf(buf, sizeof(buf), "%.10s\n%.3s", sig, sig + 10);
	e = verify_with_sig(fx, buf, strlen(buf), &nk);
	assert_string_equal(
		e,
		"invalid signature encoding: illegal base64 data at input byte 8");
	free(e);
	e = verify_with_sig(fx, sig, sizeof(sig) - 1, &nk);
	assert_string_equal(e, "no trusted public keys found");
	free(e);
}

/* G4: os.ReadDir lists dot files: a hidden .dev.pub is a trusted key. */
static void hidden_pub_files_are_trusted_keys(void **state)
{
	static const char sig[] =
		"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==";
	struct fx *fx = *state;
	char *kp = pc_fs_join(fx->keys, ".dev.pub"), *e;
	size_t nk = 0;

	assert_int_equal(pc_fs_write(kp, KEY_B64 "\n", sizeof(KEY_B64), NULL),
			 0);
	e = verify_with_sig(fx, sig, sizeof(sig) - 1, &nk);
	assert_int_equal(nk, 1);
	assert_string_equal(e, "plugin signature verification failed");
	free(e);
	free(kp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metadata_decodes_as_go),
		cmocka_unit_test(metadata_errors_are_go_texts),
		cmocka_unit_test(schema_validity_is_json_valid),
		cmocka_unit_test(field_matching_is_go_1_19),
		cmocka_unit_test(arguments_unescape_and_trim_as_go),
		cmocka_unit_test(json_arguments_are_go_values),
		cmocka_unit_test(tag_offsets_follow_strings_to_lower),
		cmocka_unit_test(trusted_keys_are_read_as_pem_decode_does),
		cmocka_unit_test_setup_teardown(sig_errors_are_at_go_offsets,
						setup, teardown),
		cmocka_unit_test_setup_teardown(hidden_pub_files_are_trusted_keys,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

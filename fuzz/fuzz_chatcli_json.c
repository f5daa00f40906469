/* fuzz_chatcli_json.c - ChatCLI's Go encoding/json layer (M3, M4, S2,
 * A6, A7.3): what the host does with `--metadata` and `--schema` stdout.
 *
 * Properties checked on every input:
 *   - pc_chatcli_json_parse() accepts exactly what pc_chatcli_json_check()
 *     (json.Valid, S2's schema gate) accepts, and every refusal has a text;
 *   - pc_chatcli_meta_decode() loads only valid JSON, fills all four
 *     fields (terminated after their length) on success and gives Go's
 *     error text on failure;
 *   - pc_chatcli_json_unmarshal() (json.Unmarshal into interface{})
 *     accepts only what pc_chatcli_json_parse() accepts;
 *   - json.Marshal of a value it accepts (A7.3) is valid JSON that
 *     unmarshals and marshals to the same bytes (a fixed point). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "%s\n%s\n%s\n", what, a ? a : "", b ? b : "");
	abort();
}

static void marshal_fixed_point(const struct pc_chatcli_jv *v)
{
	struct pc_chatcli_jv w;
	size_t n1, n2;
	char *m1 = pc_chatcli_jv_marshal(v, &n1), *m2, *e = NULL;

	if (!pc_chatcli_json_check(m1, n1, &e))
		die("json.Marshal output is not valid JSON", m1, e);
	if (pc_chatcli_json_unmarshal(m1, n1, &w, &e))
		die("json.Marshal output does not unmarshal", m1, e);
	m2 = pc_chatcli_jv_marshal(&w, &n2);
	if (n1 != n2 || memcmp(m1, m2, n1))
		die("json.Marshal is not a fixed point", m1, m2);
	free(m1);
	free(m2);
	pc_chatcli_jv_release(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
	struct pc_chatcli_jv v, any;
	char *e1 = NULL, *e2 = NULL, *e3 = NULL, *e4 = NULL;
	bool ok = pc_chatcli_json_check(p, size, &e1);
	int rv = pc_chatcli_json_parse(p, size, &v, &e2);
	int ra = pc_chatcli_json_unmarshal(p, size, &any, &e4);
	int rc;

	if (ok == !!e1)
		die("json_check: verdict and error text disagree", e1, NULL);
	if (!rv != ok)
		die("json_parse and json_check disagree", e1, NULL);
	if (rv && !e2)
		die("json_parse refused without an error text", NULL, NULL);
	if (!ra && rv)
		die("unmarshal accepted what json_parse refused", NULL, NULL);
	if (ra && !e4)
		die("unmarshal refused without an error text", NULL, NULL);
	if (!ra)
		marshal_fixed_point(&any);
	rc = pc_chatcli_meta_decode(p, size, &m, &e3);
	if (rc == 0 && (e3 || !ok || !m.name || !m.description || !m.usage ||
			!m.version || m.name[m.name_len] ||
			m.version[m.version_len]))
		die("meta_decode loaded invalid JSON or left a field bad", e3,
		    NULL);
	if (rc && !e3)
		die("meta_decode failed without Go's error text", NULL, NULL);
	pc_chatcli_meta_release(&m);
	pc_chatcli_jv_release(&v);
	pc_chatcli_jv_release(&any);
	free(e4);
	free(e1);
	free(e2);
	free(e3);
	return 0;
}

/* fuzz_chatcli_json.c - ChatCLI's Go encoding/json layer (M3, M4, S2,
 * A6, A7.3): what the host does with `--metadata` and `--schema` stdout.
 *
 * Properties checked on every input:
 *   - pc_chatcli_json_parse() never accepts what pc_chatcli_json_check()
 *     (json.Valid, S2's schema gate) rejects, and every refusal has a text;
 *   - pc_chatcli_meta_decode() loads only valid JSON, fills all four
 *     fields on success and gives Go's error text on failure;
 *   - pc_chatcli_json_decode_any() (json.Unmarshal into interface{})
 *     accepts only what pc_chatcli_json_parse() accepts;
 *   - json.Marshal of a value it accepts (A7.3) is valid JSON that parses
 *     and marshals to the same bytes (a fixed point). */
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

static void marshal_fixed_point(const cJSON *v)
{
	char *m1 = pc_chatcli_go_marshal(v), *m2, *e = NULL;
	cJSON *w;

	if (!pc_chatcli_json_check(m1, strlen(m1), &e))
		die("json.Marshal output is not valid JSON", m1, e);
	w = pc_chatcli_json_parse(m1, strlen(m1), &e);
	if (!w)
		die("json.Marshal output does not parse", m1, e);
	m2 = pc_chatcli_go_marshal(w);
	if (strcmp(m1, m2))
		die("json.Marshal is not a fixed point", m1, m2);
	free(m1);
	free(m2);
	cJSON_Delete(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct pc_chatcli_meta m = PC_CHATCLI_META_INIT;
	char *e1 = NULL, *e2 = NULL, *e3 = NULL, *e4 = NULL;
	bool ok = pc_chatcli_json_check(p, size, &e1);
	cJSON *v = pc_chatcli_json_parse(p, size, &e2);
	cJSON *any = pc_chatcli_json_decode_any(p, size, &e4);
	int rc;

	if (ok == !!e1)
		die("json_check: verdict and error text disagree", e1, NULL);
	if (v && !ok)
		die("json_parse accepted what json_check refused", e1, NULL);
	if (!v && !e2)
		die("json_parse refused without an error text", NULL, NULL);
	if (any && !v)
		die("decode_any accepted what json_parse refused", NULL, NULL);
	if (!any && !e4)
		die("decode_any refused without an error text", NULL, NULL);
	if (any)
		marshal_fixed_point(any);
	rc = pc_chatcli_meta_decode(p, size, &m, &e3);
	if (rc == 0 &&
	    (e3 || !ok || !m.name || !m.description || !m.usage || !m.version))
		die("meta_decode loaded invalid JSON or left a field NULL", e3,
		    NULL);
	if (rc && !e3)
		die("meta_decode failed without Go's error text", NULL, NULL);
	pc_chatcli_meta_release(&m);
	cJSON_Delete(v);
	cJSON_Delete(any);
	free(e4);
	free(e1);
	free(e2);
	free(e3);
	return 0;
}

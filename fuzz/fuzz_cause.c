/* fuzz_cause.c - the cause detectors of issue 17 (conformance/lint/
 * pc_cause.h, conformance/report/pc_locate.h) on bytes a plugin controls:
 * its stdout and stderr, its scripts' text and its plugin.json. Each
 * input is all of these at once; the detectors must never read past it,
 * loop or leak. The one that looks at files (pc_cause_relative_files) is
 * left out: it stats paths. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_cause.h"
#include "pc_locate.h"
#include "pc_serde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *ctx, const char *const *path,
		  const struct pc_json_member *m, size_t n)
{
	size_t *k = ctx;

	(void)path;
	for (size_t i = 0; i < n; i++)
		*k += m[i].key_len;
}

/* Everything that takes a JSON value, with `v` as each argument. */
static void json_parts(const cJSON *v)
{
	struct pc_strvec m = PC_STRVEC_INIT, p = PC_STRVEC_INIT;

	pc_cause_schema_refused(v, &m, &p);
	pc_cause_schema_gemini(v, &m, &p);
	if (m.nr != p.nr)
		__builtin_trap();
	pc_strvec_release(&m);
	pc_cause_modify_unknown(v, pc_cause_builtin_params("grep"), v, &m);
	pc_cause_modify_nested(v, v, &m);
	(void)pc_cause_modify_changed(v, v);
	pc_strvec_release(&m);
	pc_strvec_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *known[] = { "script", "timeout_ms", "pass_args",
				"parameters" };
	struct pc_cause_embed e;
	struct pc_loc at;
	unsigned line, cp;
	size_t keys = 0;
	char *z = malloc(size + 1);
	cJSON *v = NULL;
	char *name;

	if (!z)
		return 0;
	memcpy(z, data, size);
	z[size] = '\0';
	pc_json_walk(s, size, count, &keys);
	for (size_t off = 0; off < size && off < 64; off += 7)
		if (pc_json_value_end(s, size, off) != (size_t)-1 &&
		    pc_json_value_end(s, size, off) > size)
			__builtin_trap();
	(void)pc_cause_bom(s, size, NULL);
	if (pc_cause_bad_utf8(s, size, &cp) >= size &&
	    pc_cause_bad_utf8(s, size, NULL) != (size_t)-1)
		__builtin_trap();
	if (pc_cause_embedded_json(s, size, &e) &&
	    (e.start >= e.end || e.end > size))
		__builtin_trap();
	(void)pc_cause_printed_line(s, size, s, size);
	(void)pc_cause_crlf(s, size);
	(void)pc_cause_code_line(s, size, "rules.json");
	(void)pc_cause_stderr_line(s, size, "/p/h.sh");
	(void)pc_cause_is_shell("h", s, size);
	(void)pc_cause_shell_read(s, size, true, &at, &line);
	(void)pc_cause_shell_read(s, size, false, &at, NULL);
	(void)pc_cause_near_key(z, known, 4);
	name = pc_cause_tool_name(z);
	free(name);
	if (pc_serde_parse(s, size, &v, NULL) == 0)
		json_parts(v);
	cJSON_Delete(v);
	free(z);
	return 0;
}

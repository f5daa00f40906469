/* fuzz_response.c - a plugin's answer as the host reads it: serde_json
 * parse of the trimmed stdout, then the field extraction every runner
 * does (allow/reason/modify/notify/status of a hook, ok/output of a tool,
 * injection/entries/id of memory, url/flow/access_token/expires_at of
 * OAuth) and R4.10's modify merge into tool arguments. The extraction
 * itself is static in host/, so this mirrors it on the public API. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "pc_host.h"
#include "pc_serde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {
	"allow",  "reason",  "modify",	     "notify",	   "status",  "ok",
	"output", "error",   "injection",    "entries",	   "id",      "url",
	"flow",	  "pending", "access_token", "expires_at", "headers",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *v = NULL, *args;
	const cJSON *mod;

	if (pc_serde_parse((const char *)data, size, &v, &err))
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		const cJSON *f = pc_serde_get(v, keys[i]);

		if (cJSON_IsString(f) && !f->valuestring)
			__builtin_trap();
	}
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "command", "ls");
	mod = pc_serde_get(v, "modify");
	pc_apply_modify(args, mod ? mod : v);
	{
		char *s = pc_serde_to_string(args);

		free(s);
	}
	cJSON_Delete(args);
	cJSON_Delete(v);
	return 0;
}

/* fuzz_serde.c - the serde_json layer: parse, print, parse again.
 * Anything pc_serde_parse() accepts must print, and the printed text must
 * parse to an equal tree that prints to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *v = NULL, *w = NULL;
	char *a, *b;

	if (pc_serde_parse((const char *)data, size, &v, &err))
		return 0;
	a = pc_serde_to_string(v);
	if (pc_serde_parse(a, strlen(a), &w, &err))
		abort();
	b = pc_serde_to_string(w);
	if (strcmp(a, b))
		abort();
	{
		struct pc_buf pretty = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_serde_print_pretty(v, &pretty);
		pc_buf_release(&pretty);
	}
	free(a);
	free(b);
	cJSON_Delete(v);
	cJSON_Delete(w);
	return 0;
}

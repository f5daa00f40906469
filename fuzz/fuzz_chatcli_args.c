/* fuzz_chatcli_args.c - ChatCLI §4: the `args` text a model writes (after
 * A2) turned into the plugin's argv (A3 recovery, A4 sanitisation, A6
 * dispatch, A7 JSON object rules, A8 split).
 *
 * Properties: every input gives either argv (no error text, no NULL
 * element) or an error text and no argv; the call is deterministic (a
 * second call gives the same argv or error). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *args)
{
	fprintf(stderr, "%s: `%s`\n", what, args);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the attribute value is a Go string; C strings end at NUL */
	char *args = pc_xmemdup(data, size);
	struct pc_strvec a = PC_STRVEC_INIT, b = PC_STRVEC_INIT;
	char *ea = NULL, *eb = NULL;
	int ra = pc_chatcli_args_to_argv(args, &a, &ea);
	int rb = pc_chatcli_args_to_argv(args, &b, &eb);

	if (ra != rb || !ea != !eb || (ea && strcmp(ea, eb)))
		die("two calls disagree", args);
	if (ra ? !ea || a.nr : !!ea)
		die("result and error text disagree", args);
	if (a.nr != b.nr || a.v[a.nr])
		die("argv differs between calls or is not NULL-terminated",
		    args);
	for (size_t i = 0; i < a.nr; i++)
		if (!a.v[i] || strcmp(a.v[i], b.v[i]))
			die("argv element differs between calls", args);
	pc_strvec_release(&a);
	pc_strvec_release(&b);
	free(ea);
	free(eb);
	free(args);
	return 0;
}

/* fuzz_chatcli_args.c - ChatCLI §4: the `args` text a model writes (after
 * A2) turned into the plugin's argv (A3 recovery, A4 sanitisation, A6
 * dispatch, A7 JSON object rules, A8 split), and the model's whole reply
 * through the tool-call parser (A1, A2).
 *
 * Properties: every input gives either argv or an error text and no
 * argv; the call is deterministic (a second call gives the same argv or
 * error); the parser's calls are inside the reply (raw) or it reports a
 * panic. The text is a Go string: NUL bytes included. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
	fprintf(stderr, "%s\n", what);
	abort();
}

static void check_calls(const char *p, size_t n)
{
	struct pc_chatcli_tool_calls c = PC_CHATCLI_TOOL_CALLS_INIT;
	size_t k = pc_chatcli_parse_calls(p, n, &c);

	if (k != c.nr)
		die("parse_calls: count and array disagree");
	for (size_t i = 0; i < c.nr; i++)
		if (!c.v[i].name || !c.v[i].args || !c.v[i].raw ||
		    !c.v[i].form)
			die("parse_calls: a call with a NULL field");
	pc_chatcli_tool_calls_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args = (const char *)data;
	struct pc_chatcli_argv a = PC_CHATCLI_ARGV_INIT,
			       b = PC_CHATCLI_ARGV_INIT;
	char *ea = NULL, *eb = NULL;
	int ra = pc_chatcli_args_to_argv(args, size, &a, &ea);
	int rb = pc_chatcli_args_to_argv(args, size, &b, &eb);

	if (ra != rb || !ea != !eb || (ea && strcmp(ea, eb)))
		die("two calls disagree");
	if (ra ? !ea || a.nr : !!ea)
		die("result and error text disagree");
	if (a.nr != b.nr)
		die("argv differs between calls");
	for (size_t i = 0; i < a.nr; i++)
		if (a.v[i].n != b.v[i].n ||
		    memcmp(a.v[i].p, b.v[i].p, a.v[i].n) || a.v[i].p[a.v[i].n])
			die("argv element differs between calls or is not terminated");
	check_calls(args, size);
	pc_chatcli_argv_release(&a);
	pc_chatcli_argv_release(&b);
	free(ea);
	free(eb);
	return 0;
}

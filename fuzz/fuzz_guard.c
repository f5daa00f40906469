/* fuzz_guard.c - the guard search's shell-word parser and every rewrite
 * family (conformance/guard/, docs/guard.md) on arbitrary seed text: a
 * seed comes from the author's scenarios, .plugcheck.yaml or --seed.
 *
 * Properties: parsing and rewriting never crash, leak or read past the
 * text; a line the parser calls plain has words whose raw text is not
 * empty; no rewrite repeats its seed (for the seed's own tool) or another
 * rewrite; a family that keeps the command's words as they are only
 * runs on what the parser understood. Nothing is fired or run: PATH is
 * unset, so abspath finds nothing. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_guard_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct pc__gctx ctx = { "/home/u", "/work/ws", NULL };

static void check_variants(const struct pc__gvariants *vs, const char *seed)
{
	for (size_t i = 0; i < vs->n; i++) {
		if (!vs->v[i].tool && !strcmp(vs->v[i].text, seed))
			abort();
		for (size_t k = 0; k < i; k++)
			if (!strcmp(vs->v[i].text, vs->v[k].text) &&
			    !vs->v[i].tool && !vs->v[k].tool)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	struct pc__gline l;

	if (size > 4096 || memchr(data, '\0', size))
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	pc__guard_parse(text, &l);
	for (size_t i = 0; !l.opaque && i < l.n; i++)
		if (!l.w[i].raw[0] && l.w[i].kind != PC_GW_REDIR)
			abort();
	pc__guard_line_release(&l);
	for (size_t f = 0; f < pc__guard_nfamilies; f++) {
		struct pc__gvariants vs = { 0 };

		pc__guard_families[f].fn(text, &ctx, &vs);
		check_variants(&vs, text);
		pc__guard_variants_release(&vs);
	}
	{
		struct pc__gvariants vs = { 0 };

		pc__guard_fam_tools_write(text, &ctx, &vs);
		pc__guard_fam_tools_read(text, &ctx, &vs);
		pc__guard_variants_release(&vs);
	}
	free(text);
	return 0;
}

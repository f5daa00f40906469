/* pc_schema_regex.c - `pattern` through PCRE2, the only file of the module
 * that sees pcre2 types.
 *
 * JSON Schema patterns are ECMA-262 regexes, searched (not anchored). The
 * options bring PCRE2 close to ECMA: `$` only at the very end, `[]` and
 * `[^]` as ECMA reads them, `\u` escapes. Patterns are compiled once per
 * public call (a small cache keyed by the pattern text), and matching runs
 * under a match limit so that a backtracking bomb in a hostile schema
 * costs a bounded time.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "pc_schema_impl.h"
#include "pc_xalloc.h"

#define RE_CACHE_MAX   64
#define RE_MATCH_LIMIT 1000000

struct re_entry {
	char *pattern;
	pcre2_code *code; /* NULL: the pattern does not compile */
};

struct pc__schema_re {
	struct re_entry e[RE_CACHE_MAX];
	size_t n;
	pcre2_match_context *mctx;
};

static const uint32_t re_options =
	PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_DOLLAR_ENDONLY |
	PCRE2_ALLOW_EMPTY_CLASS | PCRE2_ALT_BSUX | PCRE2_NEVER_BACKSLASH_C;

static pcre2_code *compile(const char *pattern, int *err, PCRE2_SIZE *off)
{
	return pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			     re_options, err, off, NULL);
}

int pc__schema_re_check(const char *pattern, struct pc_buf *msg)
{
	PCRE2_UCHAR text[256];
	PCRE2_SIZE off = 0;
	int err = 0;
	pcre2_code *code = compile(pattern, &err, &off);

	if (code) {
		pcre2_code_free(code);
		return 0;
	}
	if (pcre2_get_error_message(err, text, sizeof(text)) < 0)
		memcpy(text, "unknown error", 14);
	(void)pc_buf_addf(msg, "%s at offset %zu", (const char *)text,
			  (size_t)off);
	return -1;
}

static struct re_entry *lookup(struct pc__schema_ctx *c, const char *pattern,
			       struct re_entry *tmp)
{
	struct pc__schema_re *re = c->re;
	int err;
	PCRE2_SIZE off;

	if (!re) {
		re = c->re = pc_xcalloc(1, sizeof(*re));
		re->mctx = pcre2_match_context_create(NULL);
		if (re->mctx)
			pcre2_set_match_limit(re->mctx, RE_MATCH_LIMIT);
	}
	for (size_t i = 0; i < re->n; i++)
		if (!strcmp(re->e[i].pattern, pattern))
			return &re->e[i];
	tmp->pattern = NULL;
	tmp->code = compile(pattern, &err, &off);
	if (re->n == RE_CACHE_MAX)
		return tmp;
	re->e[re->n].pattern = pc_xstrdup(pattern);
	re->e[re->n].code = tmp->code;
	return &re->e[re->n++];
}

int pc__schema_re_match(struct pc__schema_ctx *c, const char *pattern,
			const char *subject)
{
	struct re_entry tmp = { 0 };
	struct re_entry *e = lookup(c, pattern, &tmp);
	pcre2_match_data *md;
	int rc;

	if (!e->code)
		return -1;
	md = pcre2_match_data_create_from_pattern(e->code, NULL);
	rc = md ? pcre2_match(e->code, (PCRE2_SPTR)subject, strlen(subject), 0,
			      0, md, c->re->mctx)
		: PCRE2_ERROR_NOMEMORY;
	pcre2_match_data_free(md);
	if (e == &tmp)
		pcre2_code_free(tmp.code);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -2;
}

void pc__schema_re_free(struct pc__schema_re *re)
{
	if (!re)
		return;
	for (size_t i = 0; i < re->n; i++) {
		free(re->e[i].pattern);
		pcre2_code_free(re->e[i].code);
	}
	pcre2_match_context_free(re->mctx);
	free(re);
}

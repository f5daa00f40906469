/* pc_match.c - PCRE2 behind pc_match.h; the only scenario file that sees
 * pcre2 types. */
#define PCRE2_CODE_UNIT_WIDTH 8

#include "pc_match.h"

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "pc_xalloc.h"

/* A bounded cost per match: backtracking bombs fail instead of hanging. */
#define MATCH_LIMIT 1000000

struct pc_match {
	pcre2_code *code;
	pcre2_match_context *mctx;
	char *source;
};

int pc_match_new(const char *pattern, const char *flags, struct pc_match **out,
		 struct pc_err *err)
{
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	PCRE2_UCHAR text[256];
	PCRE2_SIZE off = 0;
	struct pc_match *m;
	int code = 0;

	*out = NULL;
	for (const char *f = flags ? flags : ""; *f; f++) {
		switch (*f) {
		case 'i':
			opts |= PCRE2_CASELESS;
			break;
		case 'm':
			opts |= PCRE2_MULTILINE;
			break;
		case 's':
			opts |= PCRE2_DOTALL;
			break;
		case 'x':
			opts |= PCRE2_EXTENDED;
			break;
		default:
			return pc_err_set(
				err, PC_EINVAL,
				"unknown regex flag '%c' (expected i, m, s or x)",
				*f);
		}
	}
	m = pc_xcalloc(1, sizeof(*m));
	m->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				opts, &code, &off, NULL);
	if (!m->code) {
		if (pcre2_get_error_message(code, text, sizeof(text)) < 0)
			memcpy(text, "unknown error", 14);
		free(m);
		return pc_err_set(err, PC_EINVAL, "bad regex: %s at offset %zu",
				  (const char *)text, (size_t)off);
	}
	m->mctx = pcre2_match_context_create(NULL);
	if (!m->mctx)
		abort(); /* out of memory, as pc_xmalloc */
	pcre2_set_match_limit(m->mctx, MATCH_LIMIT);
	m->source = pc_xasprintf("/%s/%s", pattern, flags ? flags : "");
	*out = m;
	return 0;
}

bool pc_match_test(const struct pc_match *m, const char *subject, size_t len)
{
	pcre2_match_data *md =
		pcre2_match_data_create_from_pattern(m->code, NULL);
	int rc;

	if (!md)
		abort();
	rc = pcre2_match(m->code, (PCRE2_SPTR)(subject ? subject : ""),
			 subject ? len : 0, 0, 0, md, m->mctx);
	pcre2_match_data_free(md);
	return rc >= 0;
}

const char *pc_match_source(const struct pc_match *m)
{
	return m->source;
}

void pc_match_free(struct pc_match *m)
{
	if (!m)
		return;
	pcre2_code_free(m->code);
	pcre2_match_context_free(m->mctx);
	free(m->source);
	free(m);
}

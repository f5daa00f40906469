/* test_oauth_cache.c - the host's OAuth credential cache (spec R8.8):
 * the 60 s refresh margin, the 300 s default lifetime, which token
 * responses give credentials, and the header upsert. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pc_oauth_cache.h"
#include "pc_serde.h"

#define NOW 1700000000ULL

static cJSON *parse(const char *text)
{
	cJSON *v = NULL;

	assert_int_equal(pc_serde_parse(text, strlen(text), &v, NULL), 0);
	return v;
}

/* creds_of - pc_oauth_creds_from_token on `text`; returns its rc. */
static int creds_of(const char *text, struct pc_oauth_creds *cr)
{
	cJSON *v = parse(text);
	int rc = pc_oauth_creds_from_token(v, NOW, cr);

	cJSON_Delete(v);
	return rc;
}

static void token_needs_a_non_empty_access_token(void **state)
{
	static const char *const bad[] = {
		"{}",
		"{\"access_token\":null}",
		"{\"access_token\":\"\"}",
		"{\"access_token\":5}",
		"{\"ok\":false,\"error\":\"x\"}",
		"[\"access_token\"]",
		"\"tok\"",
	};
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(creds_of(bad[i], &cr), PC_EINVAL);
		assert_null(cr.token);
	}
	assert_int_equal(creds_of("{\"access_token\":\"t\"}", &cr), 0);
	assert_string_equal(cr.token, "t");
	pc_oauth_creds_release(&cr);
}

static void expires_at_positive_integer_else_now_plus_300(void **state)
{
	static const struct {
		const char *exp;
		uint64_t want;
	} cases[] = {
		{ "1800000000", 1800000000 },
		{ "18446744073709551615", UINT64_MAX },
		{ "0", NOW + 300 },
		{ "-5", NOW + 300 },
		{ "1.5", NOW + 300 },
		{ "1700000100.0", NOW + 300 },
		{ "1e10", NOW + 300 },
		{ "\"1800000000\"", NOW + 300 },
		{ "null", NOW + 300 },
	};
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128];

		snprintf(text, sizeof(text),
			 "{\"access_token\":\"t\",\"expires_at\":%s}",
			 cases[i].exp);
		assert_int_equal(creds_of(text, &cr), 0);
		assert_int_equal(cr.expires_at, cases[i].want);
	}
	assert_int_equal(creds_of("{\"access_token\":\"t\"}", &cr), 0);
	assert_int_equal(cr.expires_at, NOW + 300);
	pc_oauth_creds_release(&cr);
}

static void headers_keep_pairs_of_non_empty_strings(void **state)
{
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;

	(void)state;
	assert_int_equal(creds_of("{\"access_token\":\"t\",\"headers\":["
				  "[\"A\",\"1\"],[\"\",\"x\"],[\"B\",\"\"],"
				  "[\"C\"],[\"D\",2],\"E\",{\"F\":\"G\"},"
				  "[\"H\",\"2\",\"extra\"]]}",
				  &cr),
			 0);
	assert_int_equal(cr.headers.nr, 4);
	assert_string_equal(cr.headers.v[0], "A");
	assert_string_equal(cr.headers.v[1], "1");
	assert_string_equal(cr.headers.v[2], "H");
	assert_string_equal(cr.headers.v[3], "2");
	assert_int_equal(
		creds_of("{\"access_token\":\"t\",\"headers\":{}}", &cr), 0);
	assert_int_equal(cr.headers.nr, 0);
	pc_oauth_creds_release(&cr);
}

static void store(struct pc_oauth_cache *c, const char *id, uint64_t exp)
{
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;

	assert_int_equal(creds_of("{\"access_token\":\"t\"}", &cr), 0);
	cr.expires_at = exp;
	pc_oauth_cache_store(c, id, &cr);
	assert_null(cr.token);
}

static void lookup_hits_only_beyond_the_60s_margin(void **state)
{
	struct pc_oauth_cache c = PC_OAUTH_CACHE_INIT;

	(void)state;
	assert_null(pc_oauth_cache_lookup(&c, "p", NOW));
	store(&c, "p", NOW + 61);
	assert_non_null(pc_oauth_cache_lookup(&c, "p", NOW));
	assert_null(pc_oauth_cache_lookup(&c, "q", NOW));
	store(&c, "p", NOW + 60); /* replaces: expires_at > now+60 fails */
	assert_null(pc_oauth_cache_lookup(&c, "p", NOW));
	assert_non_null(pc_oauth_cache_lookup(&c, "p", NOW - 1));
	store(&c, "p", 0); /* 0 never expires */
	assert_non_null(pc_oauth_cache_lookup(&c, "p", UINT64_MAX - 100));
	store(&c, "q", NOW + 300); /* the default lifetime: 240 s of use */
	assert_non_null(pc_oauth_cache_lookup(&c, "q", NOW + 239));
	assert_null(pc_oauth_cache_lookup(&c, "q", NOW + 240));
	pc_oauth_cache_invalidate(&c, "p");
	assert_null(pc_oauth_cache_lookup(&c, "p", NOW));
	assert_non_null(pc_oauth_cache_lookup(&c, "q", NOW));
	pc_oauth_cache_invalidate(&c, "nothing");
	pc_oauth_cache_release(&c);
}

/* oauth.rs upsert_header: a same-named header (ASCII case-insensitive)
 * gets the new value and keeps its own spelling of the name. */
static void request_headers_upsert_case_insensitively(void **state)
{
	struct pc_oauth_cfg o = { 0 };
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;
	struct pc_strvec out = PC_STRVEC_INIT;
	static const char *const want[] = {
		"Authorization", "Bearer tok", "X-Org", "new",
		"X-Static",	 "s",	       "X-New", "n",
	};

	(void)state;
	o.headers = parse("[[\"X-Org\",\"old\"],[\"X-Static\",\"s\"]]");
	assert_int_equal(creds_of("{\"access_token\":\"tok\",\"headers\":"
				  "[[\"x-org\",\"new\"],[\"X-New\",\"n\"]]}",
				  &cr),
			 0);
	pc_oauth_request_headers(&o, &cr, &out);
	assert_int_equal(out.nr, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(out.v[i], want[i]);
	pc_strvec_release(&out);
	pc_oauth_creds_release(&cr);
	cJSON_Delete(o.headers);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(token_needs_a_non_empty_access_token),
		cmocka_unit_test(expires_at_positive_integer_else_now_plus_300),
		cmocka_unit_test(headers_keep_pairs_of_non_empty_strings),
		cmocka_unit_test(lookup_hits_only_beyond_the_60s_margin),
		cmocka_unit_test(request_headers_upsert_case_insensitively),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

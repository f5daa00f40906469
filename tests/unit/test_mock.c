/* test_mock.c - pc_mock: the scripted model contract (mock-model/pc_mock.h),
 * issue 4 "The model is a script". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_mock.h"
#include "pc_serde.h"

static struct pc_mock *mock_of(const char *text)
{
	struct pc_mock *m = NULL;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_mock_new_text(text, strlen(text), &m, &err), 0);
	assert_non_null(m);
	return m;
}

static cJSON *msgs(const char *text)
{
	cJSON *v = NULL;

	assert_int_equal(pc_serde_parse(text, strlen(text), &v, NULL), 0);
	return v;
}

/* reply_text - the next reply to `messages`, printed serde-style. */
static char *reply_text(struct pc_mock *m, const char *messages)
{
	cJSON *in = msgs(messages), *out = NULL;
	char *s;

	assert_int_equal(pc_mock_reply(m, in, NULL, &out, NULL, NULL), 0);
	assert_non_null(out);
	s = pc_serde_to_string(out);
	cJSON_Delete(out);
	cJSON_Delete(in);
	return s;
}

static void expect_reply(struct pc_mock *m, const char *messages,
			 const char *want)
{
	char *s = reply_text(m, messages);

	assert_string_equal(s, want);
	free(s);
}

static void mock_replies_in_order_then_fallback(void **state)
{
	struct pc_mock *m = mock_of(
		"{\"replies\":[{\"content\":\"one\"},{\"content\":\"two\"}],"
		"\"fallback\":{\"content\":\"done\"}}");
	char *why = NULL;

	(void)state;
	assert_false(pc_mock_consumed(m, &why));
	assert_string_equal(why, "2 of 2 scripted replies were not used");
	free(why);
	expect_reply(m, "[]", "{\"content\":\"one\",\"role\":\"assistant\"}");
	expect_reply(m, "[]", "{\"content\":\"two\",\"role\":\"assistant\"}");
	assert_true(pc_mock_consumed(m, &why));
	assert_null(why);
	expect_reply(m, "[]", "{\"content\":\"done\",\"role\":\"assistant\"}");
	expect_reply(m, "[]", "{\"content\":\"done\",\"role\":\"assistant\"}");
	pc_mock_free(m);
}

static void mock_default_fallback_is_empty_content(void **state)
{
	struct pc_mock *m = mock_of("{}");

	(void)state;
	assert_true(pc_mock_consumed(m, NULL));
	expect_reply(m, "[]", "{\"content\":\"\",\"role\":\"assistant\"}");
	pc_mock_free(m);
}

static void mock_tool_calls_get_deterministic_ids(void **state)
{
	struct pc_mock *m = mock_of(
		"{\"replies\":[{\"content\":\"x\"},{\"tool_calls\":["
		"{\"name\":\"bash\",\"arguments\":{\"z\":1,\"command\":\"ls\"}},"
		"{\"name\":\"read_file\"},"
		"{\"name\":\"x\",\"arguments_raw\":\"{not json\"}]}]}");

	(void)state;
	free(reply_text(m, "[]"));
	expect_reply(
		m, "[]",
		"{\"content\":null,\"role\":\"assistant\",\"tool_calls\":["
		"{\"function\":{\"arguments\":\"{\\\"command\\\":\\\"ls\\\",\\\"z\\\":1}\",\"name\":\"bash\"},\"id\":\"call_1_0\",\"type\":\"function\"},"
		"{\"function\":{\"arguments\":\"{}\",\"name\":\"read_file\"},\"id\":\"call_1_1\",\"type\":\"function\"},"
		"{\"function\":{\"arguments\":\"{not json\",\"name\":\"x\"},\"id\":\"call_1_2\",\"type\":\"function\"}]}");
	assert_true(pc_mock_consumed(m, NULL));
	pc_mock_free(m);
}

static void mock_rules_match_last_user_and_tool(void **state)
{
	struct pc_mock *m = mock_of(
		"{\"rules\":["
		"{\"when\":{\"last_user_contains\":\"deploy\"},\"reply\":{\"content\":\"no\"}},"
		"{\"when\":{\"last_tool_contains\":\"error\"},\"reply\":{\"content\":\"fix\"}}],"
		"\"fallback\":{\"content\":\"ok\"}}");

	(void)state;
	expect_reply(m, "[{\"role\":\"user\",\"content\":\"please deploy\"}]",
		     "{\"content\":\"no\",\"role\":\"assistant\"}");
	/* only the LAST user message counts */
	expect_reply(m,
		     "[{\"role\":\"user\",\"content\":\"deploy\"},"
		     "{\"role\":\"user\",\"content\":\"later\"}]",
		     "{\"content\":\"ok\",\"role\":\"assistant\"}");
	expect_reply(
		m,
		"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"go\"}]},"
		"{\"role\":\"tool\",\"content\":\"Error: an error\"}]",
		"{\"content\":\"fix\",\"role\":\"assistant\"}");
	expect_reply(
		m,
		"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"deploy\"}]}]",
		"{\"content\":\"no\",\"role\":\"assistant\"}");
	pc_mock_free(m);
}

static void mock_faults(void **state)
{
	struct pc_mock *m = mock_of(
		"{\"replies\":[{\"fault\":\"empty\"},{\"fault\":\"http_429\"},"
		"{\"content\":\"r\",\"reasoning_content\":\"think\",\"chunk_size\":4}]}");
	cJSON *in = msgs("[]"), *out = NULL;
	int status = 0;

	(void)state;
	expect_reply(m, "[]", "{\"content\":\"\",\"role\":\"assistant\"}");
	assert_int_equal(pc_mock_chunk_size(m), 16);
	assert_int_equal(pc_mock_reply(m, in, NULL, &out, &status, NULL), 0);
	assert_null(out);
	assert_int_equal(status, 429);
	expect_reply(
		m, "[]",
		"{\"content\":\"r\",\"reasoning_content\":\"think\",\"role\":\"assistant\"}");
	assert_int_equal(pc_mock_chunk_size(m), 4);
	cJSON_Delete(in);
	pc_mock_free(m);
}

static void mock_records_requests_and_extras(void **state)
{
	struct pc_mock *m = mock_of("{}");
	cJSON *in = msgs("[{\"role\":\"user\",\"content\":\"hi\"}]");
	cJSON *tools = msgs("[{\"type\":\"function\"}]"), *out = NULL;
	char *s;

	(void)state;
	pc_mock_record_extra(m, "ignored", cJSON_CreateTrue());
	assert_int_equal(pc_mock_reply(m, in, tools, &out, NULL, NULL), 0);
	cJSON_Delete(out);
	pc_mock_record_extra(m, "headers", cJSON_CreateObject());
	s = pc_serde_to_string(pc_mock_requests(m));
	assert_string_equal(
		s,
		"[{\"headers\":{},\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],"
		"\"tools\":[{\"type\":\"function\"}]}]");
	free(s);
	cJSON_Delete(in);
	cJSON_Delete(tools);
	pc_mock_free(m);
}

static void expect_bad(const char *text, int code, const char *msg)
{
	struct pc_mock *m = NULL;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_mock_new_text(text, strlen(text), &m, &err), code);
	assert_null(m);
	assert_string_equal(err.msg, msg);
}

static void mock_rejects_bad_scripts_with_path(void **state)
{
	(void)state;
	expect_bad("[]", PC_EINVAL,
		   "the script is not a JSON object (replies, rules, fallback)");
	expect_bad("{\"replies\":{}}", PC_EINVAL, "replies: not an array");
	expect_bad(
		"{\"replies\":[{},{},{\"tool_calls\":[{\"name\":\"a\"},{}]}]}",
		PC_EINVAL, "replies[2].tool_calls[1]: missing \"name\"");
	expect_bad(
		"{\"replies\":[{\"fault\":\"boom\"}]}", PC_EINVAL,
		"replies[0].fault: expected one of \"empty\", \"http_500\", \"http_429\", \"http_503\"");
	expect_bad("{\"rules\":[{\"reply\":{}}]}", PC_EINVAL,
		   "rules[0]: missing \"when\"");
	expect_bad("{\"fallback\":{\"content\":5}}", PC_EINVAL,
		   "fallback.content: not a string");
	expect_bad("{", PC_EPARSE,
		   "EOF while parsing an object at line 1 column 1");
}

/* A misspelled key at any level is an error with the path of the key
 * (issue 20: "replys" and "contnt" were ignored, and the run then said
 * every scripted reply was used). */
static void expect_where(const char *text, const char *msg, const char *where)
{
	struct pc_mock *m = NULL;
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_mock_new_text(text, strlen(text), &m, &err),
			 PC_EINVAL);
	assert_null(m);
	assert_string_equal(err.msg, msg);
	assert_string_equal(err.where, where);
}

static void mock_rejects_unknown_keys(void **state)
{
	(void)state;
	expect_where("{\"replys\":[]}",
		     "unknown key 'replys' in the script (expected one of: replies, rules, fallback)",
		     "replys");
	expect_where("{\"replies\":[{\"content\":\"a\"},{\"contnt\":\"b\"}]}",
		     "replies[1]: unknown key 'contnt' in a model reply (expected one of: content, tool_calls, fault, reasoning_content, chunk_size)",
		     "replies[1].contnt");
	expect_where("{\"replies\":[{\"tool_calls\":[{\"name\":\"a\",\"args\":{}}]}]}",
		     "replies[0].tool_calls[0]: unknown key 'args' in a tool call (expected one of: name, arguments, arguments_raw)",
		     "replies[0].tool_calls[0].args");
	expect_where("{\"rules\":[{\"when\":{\"last_user\":\"x\"},\"reply\":{}}]}",
		     "rules[0].when: unknown key 'last_user' in a rule's 'when' (expected one of: last_user_contains, last_tool_contains)",
		     "rules[0].when.last_user");
	expect_where("{\"rules\":[{\"when\":{\"last_user_contains\":\"x\"},\"replay\":{}}]}",
		     "rules[0]: unknown key 'replay' in a model rule (expected one of: when, reply)",
		     "rules[0].replay");
	expect_where("{\"fallback\":{\"text\":\"x\"}}",
		     "fallback: unknown key 'text' in a model reply (expected one of: content, tool_calls, fault, reasoning_content, chunk_size)",
		     "fallback.text");
	expect_where("{\"replies\":[{\"content\":1}]}",
		     "replies[0].content: not a string", "replies[0].content");
}

static void mock_reply_refuses_non_array(void **state)
{
	struct pc_mock *m = mock_of("{}");
	cJSON *obj = cJSON_CreateObject(), *out = NULL;

	(void)state;
	assert_int_equal(pc_mock_reply(m, obj, NULL, &out, NULL, NULL),
			 PC_EINVAL);
	assert_null(out);
	cJSON_Delete(obj);
	pc_mock_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mock_replies_in_order_then_fallback),
		cmocka_unit_test(mock_rejects_unknown_keys),
		cmocka_unit_test(mock_default_fallback_is_empty_content),
		cmocka_unit_test(mock_tool_calls_get_deterministic_ids),
		cmocka_unit_test(mock_rules_match_last_user_and_tool),
		cmocka_unit_test(mock_faults),
		cmocka_unit_test(mock_records_requests_and_extras),
		cmocka_unit_test(mock_rejects_bad_scripts_with_path),
		cmocka_unit_test(mock_reply_refuses_non_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

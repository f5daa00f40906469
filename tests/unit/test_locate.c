/* test_locate.c - finding locations (pc_locate.h): offsets to line and
 * column, members of a JSON text (keys, values, the second of repeated
 * keys, escaped keys, array elements), and the line of a script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pc_locate.h"

#define LOC(l, c) ((struct pc_loc){ (l), (c) })

static void assert_loc(struct pc_loc got, struct pc_loc want)
{
	assert_int_equal(got.line, want.line);
	assert_int_equal(got.column, want.column);
}

static void offsets(void **state)
{
	const char *t = "ab\ncd\n\nx";

	(void)state;
	assert_loc(pc_loc_of_offset(t, strlen(t), 0), LOC(1, 1));
	assert_loc(pc_loc_of_offset(t, strlen(t), 2), LOC(1, 3));
	assert_loc(pc_loc_of_offset(t, strlen(t), 3), LOC(2, 1));
	assert_loc(pc_loc_of_offset(t, strlen(t), 7), LOC(4, 1));
	/* past the end: the end */
	assert_loc(pc_loc_of_offset(t, strlen(t), 99), LOC(4, 2));
}

static const char manifest[] =
	"{\n"
	"  \"name\": \"p\",\n"
	"  \"hooks\": {\n"
	"    \"pre_bash\": { \"script\": \"a.sh\" },\n"
	"    \"pre_bash\": { \"script\": \"b.sh\", \"timeout\": 60 }\n"
	"  },\n"
	"  \"tools\": [ { \"name\": \"t1\" }, { \"name\": \"t\\u0032\" } ]\n"
	"}\n";

static struct pc_loc at(const char *const *path, unsigned nth, bool key)
{
	struct pc_loc l = { 0, 0 };

	assert_int_equal(pc_json_locate(manifest, strlen(manifest), path, nth,
					key, &l),
			 0);
	return l;
}

static void json_members(void **state)
{
	const char *name[] = { "name", NULL };
	const char *pre[] = { "hooks", "pre_bash", NULL };
	const char *timeout[] = { "hooks", "pre_bash", "timeout", NULL };
	const char *tool2[] = { "tools", "#1", "name", NULL };
	const char *elem[] = { "tools", "#0", NULL };
	const char *top[] = { NULL };
	const char *none[] = { "hooks", "post_bash", NULL };
	const char *deep[] = { "name", "x", NULL };
	struct pc_loc l;

	(void)state;
	assert_loc(at(name, 0, true), LOC(2, 3));
	assert_loc(at(name, 0, false), LOC(2, 11));
	/* the first and the second of two repeated keys */
	assert_loc(at(pre, 0, true), LOC(4, 5));
	assert_loc(at(pre, 1, true), LOC(5, 5));
	assert_loc(at(pre, 1, false), LOC(5, 17));
	/* a step through a repeated key takes the last one, as the host */
	assert_loc(at(timeout, 0, true), LOC(5, 37));
	/* keys compare decoded: "t\u0032" is "t2"; elements by index */
	assert_loc(at(tool2, 0, false), LOC(7, 42));
	assert_loc(at(elem, 0, true), LOC(7, 14));
	assert_loc(at(top, 0, false), LOC(1, 1));
	assert_int_equal(pc_json_locate(manifest, strlen(manifest), none, 0,
					true, &l),
			 -1);
	assert_int_equal(pc_json_locate(manifest, strlen(manifest), pre, 2,
					true, &l),
			 -1);
	assert_int_equal(pc_json_locate(manifest, strlen(manifest), deep, 0,
					true, &l),
			 -1);
	assert_int_equal(pc_json_key_count(manifest, strlen(manifest), pre), 2);
	assert_int_equal(pc_json_key_count(manifest, strlen(manifest), name), 1);
	assert_int_equal(pc_json_key_count(manifest, strlen(manifest), none), 0);
}

static void json_bad_input(void **state)
{
	const char *k[] = { "a", "b", NULL };
	const char *bom = "\xef\xbb\xbf{\"a\": {\"b\": 1}}";
	char deep[2000];
	struct pc_loc l;

	(void)state;
	assert_int_equal(pc_json_locate(bom, strlen(bom), k, 0, false, &l), 0);
	assert_loc(l, LOC(1, 16)); /* columns count bytes, the BOM too */
	/* truncated, unterminated string, NUL inside: -1, never a read past
	 * the end (ASan) */
	assert_int_equal(pc_json_locate("{\"a\": {\"b\"", 10, k, 0, false, &l),
			 -1);
	assert_int_equal(pc_json_locate("{\"a", 3, k, 0, false, &l), -1);
	assert_int_equal(pc_json_locate("{\"x\":\0}", 7, k, 0, false, &l), -1);
	/* nesting past the bound */
	memset(deep, '[', sizeof(deep));
	assert_int_equal(pc_json_locate(deep, sizeof(deep), k, 0, false, &l),
			 -1);
	{
		const char *idx[] = { "#0", NULL };

		assert_int_equal(pc_json_locate(deep, sizeof(deep), idx, 0,
						false, &l),
				 0);
		assert_loc(l, LOC(1, 2));
	}
}

static void script_lines(void **state)
{
	const char *s = "#!/bin/sh\nread x\necho \"$VISION_MODELS\"\n";

	(void)state;
	assert_loc(pc_text_find_line(s, strlen(s), "$VISION_MODELS"),
		   LOC(3, 7));
	assert_loc(pc_text_find_line(s, strlen(s), "#!"), LOC(1, 1));
	assert_loc(pc_text_find_line(s, strlen(s), "nope"), LOC(0, 0));
	assert_loc(pc_text_find_line(s, strlen(s), ""), LOC(0, 0));
}

/* What pc_json_walk reported, one line per object: the path, then each
 * member as key@line:col. */
static void record(void *ctx, const char *const *path,
		   const struct pc_json_member *m, size_t n)
{
	char *out = ctx;
	size_t len = strlen(out);

	for (; *path; path++)
		len += (size_t)snprintf(out + len, 4096 - len, "/%s", *path);
	for (size_t i = 0; i < n; i++) {
		struct pc_loc k = pc_loc_of_offset(manifest, strlen(manifest),
						   m[i].key_off);
		struct pc_loc v = pc_loc_of_offset(manifest, strlen(manifest),
						   m[i].value_off);

		len += (size_t)snprintf(out + len, 4096 - len, " %s@%u:%u=%u:%u",
					m[i].key, k.line, k.column, v.line,
					v.column);
	}
	snprintf(out + len, 4096 - len, "\n");
}

static void walk_members(void **state)
{
	char out[4096] = "";

	(void)state;
	assert_int_equal(pc_json_walk(manifest, strlen(manifest), record, out),
			 0);
	/* inner objects first; both pre_bash entries, with their places;
	 * escaped keys decoded; array elements as #N */
	assert_string_equal(
		out,
		"/hooks/pre_bash script@4:19=4:29\n"
		"/hooks/pre_bash script@5:19=5:29 timeout@5:37=5:48\n"
		"/hooks pre_bash@4:5=4:17 pre_bash@5:5=5:17\n"
		"/tools/#0 name@7:16=7:24\n"
		"/tools/#1 name@7:34=7:42\n"
		" name@2:3=2:11 hooks@3:3=3:12 tools@7:3=7:12\n");
}

static void walk_bad_input(void **state)
{
	char out[4096] = "", deep[1100];
	const char *bom = "\xef\xbb\xbf{\"a\":1}";
	const char *cut = "{\"a\":{\"b\":1},\"c\"";

	(void)state;
	/* the complete objects before the error were reported, not the one
	 * cut short; then -1 (its length, not past it: ASan checks) */
	assert_int_equal(pc_json_walk(cut, strlen(cut), record, out), -1);
	assert_true(!strncmp(out, "/a b@", 5));
	assert_int_equal(strchr(out, '\n') - out + 1, (long)strlen(out));
	out[0] = '\0';
	assert_int_equal(pc_json_walk("{} x", 4, record, out), -1);
	assert_int_equal(pc_json_walk("{\"k\":\"v", 7, record, out), -1);
	assert_int_equal(pc_json_walk(bom, strlen(bom), record, out), 0);
	/* nesting at the bound (512 arrays) walks, past it does not */
	memset(deep, '[', 512);
	memset(deep + 512, ']', 512);
	assert_int_equal(pc_json_walk(deep, 1024, record, out), 0);
	memset(deep, '[', 513);
	memset(deep + 513, ']', 513);
	assert_int_equal(pc_json_walk(deep, 1026, record, out), -1);
}

static void value_ends(void **state)
{
	const char *t = "log line\n{\"allow\": [1, {\"x\": \"}\"}]}\ntrailer";

	(void)state;
	assert_int_equal(pc_json_value_end(t, strlen(t), 9),
			 strlen("log line\n{\"allow\": [1, {\"x\": \"}\"}]}"));
	assert_int_equal(pc_json_value_end(t, strlen(t), 0), (size_t)-1);
	assert_int_equal(pc_json_value_end("{\"a\":", 5, 0), (size_t)-1);
	assert_int_equal(pc_json_value_end("  7 ", 4, 0), 3);
	assert_int_equal(pc_json_value_end("{}", 2, 2), (size_t)-1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(offsets),
		cmocka_unit_test(json_members),
		cmocka_unit_test(json_bad_input),
		cmocka_unit_test(script_lines),
		cmocka_unit_test(walk_members),
		cmocka_unit_test(walk_bad_input),
		cmocka_unit_test(value_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

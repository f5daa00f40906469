/* test_report_html.c - the HTML page's building blocks (issue 22,
 * docs/report.md): HTML escaping and invisible bytes made visible
 * (pc__html_text), bounded excerpts at their size limit (pc_excerpt_set,
 * N-1, N, N+1), bounded texts (pc_report_bounded), the structured parts
 * of a case through a fragment and back (pc_report_fragment /
 * pc_report_merge, malformed ones refused), the reproduce command
 * (pc_fire_command), and whole pages: a hook's hostile output injects
 * nothing, and the page stays under its size bound
 * (PC_REPORT_HTML_BUDGET).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_err.h"
#include "pc_fire.h"
#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_xalloc.h"

/* pc__html_text of n bytes into a new string. */
static char *esc(const char *s, size_t n, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct pc__html h = { m, 0 };

	assert_non_null(m);
	pc__html_text(&h, s, n, flags);
	fclose(m);
	assert_int_equal(h.n, len); /* the writer counts what it wrote */
	return buf;
}

static void expect_esc(const char *in, size_t n, unsigned flags,
		       const char *want)
{
	char *got = esc(in, n, flags);

	assert_string_equal(got, want);
	free(got);
}

static void text_escapes_markup(void **state)
{
	(void)state;
	expect_esc("<script>alert(1)</script>", 25, 0,
		   "&lt;script&gt;alert(1)&lt;/script&gt;");
	expect_esc("a&b \"q\" 'x'", 11, 0, "a&amp;b &quot;q&quot; &#39;x&#39;");
	/* newline, tab and valid UTF-8 stay as they are */
	expect_esc("h\xc3\xa9\tl\n\xe2\x9c\x93", 9, 0, "h\xc3\xa9\tl\n\xe2\x9c\x93");
}

static void text_shows_invisible_bytes(void **state)
{
	(void)state;
	/* ESC: a terminal escape is shown, not interpreted (no raw 0x1b) */
	expect_esc("\x1b[31m", 5, 0,
		   "<span class=\"vis\" title=\"ESC (0x1b): a terminal escape, shown, not interpreted\">ESC</span>[31m");
	expect_esc("a\r\n", 3, 0,
		   "a<span class=\"vis\" title=\"CR (0x0d)\">CR</span>\n");
	expect_esc("\0", 1, 0,
		   "<span class=\"vis\" title=\"NUL (0x00)\">NUL</span>");
	expect_esc("\xef\xbb\xbfx", 4, 0,
		   "<span class=\"vis\" title=\"U+FEFF byte order mark\">[BOM]</span>x");
	expect_esc("\xff", 1, 0,
		   "<span class=\"vis\" title=\"a byte that is not valid UTF-8\">\\xff</span>");
	/* C1 CSI (an 8-bit terminal escape) and a bidi override */
	expect_esc("\xc2\x9b", 2, 0,
		   "<span class=\"vis\" title=\"C1 control U+009B\">[U+009B]</span>");
	expect_esc("\xe2\x80\xae", 3, 0,
		   "<span class=\"vis\" title=\"invisible character U+202E\">[U+202E]</span>");
	expect_esc("\a", 1, 0,
		   "<span class=\"vis\" title=\"BEL (0x07)\">BEL</span>");
	expect_esc("\x7f", 1, 0,
		   "<span class=\"vis\" title=\"DEL (0x7f)\">DEL</span>");
	/* host text: C0 80 is its NUL; raw bytes: two invalid bytes */
	expect_esc("\xc0\x80", 2, PC_HTML_STORED,
		   "<span class=\"vis\" title=\"NUL (0x00)\">NUL</span>");
	expect_esc("\xc0\x80", 2, 0,
		   "<span class=\"vis\" title=\"a byte that is not valid UTF-8\">\\xc0</span>"
		   "<span class=\"vis\" title=\"a byte that is not valid UTF-8\">\\x80</span>");
}

static void attr_escapes(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct pc__html h = { m, 0 };

	(void)state;
	pc__html_attr(&h, "a\"b'<c>&\x1b");
	fclose(m);
	assert_string_equal(buf, "a&quot;b&#39;&lt;c&gt;&amp;?");
	free(buf);
}

/* A stream of n bytes: byte i is 'a' + i % 26. */
static char *stream(size_t n)
{
	char *s = pc_xmalloc(n + 1);

	for (size_t i = 0; i < n; i++)
		s[i] = (char)('a' + i % 26);
	s[n] = 0;
	return s;
}

static void excerpt_at_its_limit(void **state)
{
	const size_t N = PC_EXCERPT_HEAD + PC_EXCERPT_TAIL;

	(void)state;
	for (size_t n = N - 1; n <= N + 1; n++) {
		struct pc_excerpt e = { 0 };
		char *s = stream(n);

		pc_excerpt_set(&e, s, n);
		assert_int_equal(e.total, n);
		if (n <= N) { /* kept whole */
			assert_int_equal(e.len, n);
			assert_int_equal(e.head, n);
			assert_memory_equal(e.data, s, n);
		} else { /* the first HEAD and the last TAIL bytes */
			assert_int_equal(e.len, N);
			assert_int_equal(e.head, PC_EXCERPT_HEAD);
			assert_memory_equal(e.data, s, PC_EXCERPT_HEAD);
			assert_memory_equal(e.data + PC_EXCERPT_HEAD,
					    s + n - PC_EXCERPT_TAIL,
					    PC_EXCERPT_TAIL);
		}
		pc_excerpt_release(&e);
		free(s);
	}
}

static char *excerpt_html(const struct pc_excerpt *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct pc__html h = { m, 0 };

	pc__html_excerpt(&h, "stdout", e);
	fclose(m);
	return buf;
}

static void excerpt_html_says_what_was_cut(void **state)
{
	const size_t N = PC_EXCERPT_HEAD + PC_EXCERPT_TAIL;
	struct pc_excerpt e = { 0 };
	char *s = stream((size_t)1 << 20), *html;

	(void)state;
	pc_excerpt_set(&e, s, N);
	html = excerpt_html(&e);
	assert_null(strstr(html, "not shown"));
	free(html);
	pc_excerpt_set(&e, s, N + 1);
	html = excerpt_html(&e);
	assert_non_null(strstr(html, "1 bytes not shown (5121 in all"));
	free(html);
	pc_excerpt_set(&e, s, (size_t)1 << 20);
	html = excerpt_html(&e);
	assert_non_null(strstr(html, "1043456 bytes not shown (1048576 in all"));
	assert_true(strlen(html) < 2 * N);
	free(html);
	pc_excerpt_set(&e, NULL, 0);
	html = excerpt_html(&e);
	assert_non_null(strstr(html, "stdout: (empty)"));
	free(html);
	pc_excerpt_release(&e);
	free(s);
}

static void bounded_at_its_limit(void **state)
{
	char *s = stream(10), *b;

	(void)state;
	b = pc_report_bounded(s, 11); /* N+1: whole */
	assert_string_equal(b, s);
	free(b);
	b = pc_report_bounded(s, 10); /* N: whole */
	assert_string_equal(b, s);
	free(b);
	b = pc_report_bounded(s, 9); /* N-1: cut */
	assert_string_equal(b, "abcdefghi ... (10 bytes in all)");
	free(b);
	/* never in the middle of a UTF-8 sequence */
	b = pc_report_bounded("a\xc3\xa9z", 2);
	assert_string_equal(b, "a ... (4 bytes in all)");
	free(b);
	assert_null(pc_report_bounded(NULL, 3));
	free(s);
}

/* A report with one case carrying every structured part. */
static void structured_report(struct pc_report *r)
{
	size_t c;
	struct pc_xchg *x = pc_xchg_new();
	struct pc_mark *m;
	long long ms[] = { 3, 1, 2 };
	char *big = stream(PC_EXCERPT_HEAD + PC_EXCERPT_TAIL + 7);

	r->name = pc_xstrdup("p");
	r->path = pc_xstrdup("/p");
	r->loaded = true;
	c = pc_report_add_case(r, "plugcheck.hook.pre_bash", "realistic input",
			       "text form", 0.25);
	x->point = pc_xstrdup("pre_bash");
	x->command = pc_xstrdup("plugcheck fire pre_bash /p");
	x->argv = pc_xstrdup("/bin/sh hook.sh");
	pc_excerpt_set(&x->in, "{\"args\":{}}", 11);
	pc_excerpt_set(&x->out, "a\0b\xff<script>", 12);
	pc_excerpt_set(&x->err, big, strlen(big));
	x->spawned = x->has_status = true;
	x->exit_code = 3;
	x->process = pc_xstrdup("exited");
	x->duration_ms = 42;
	x->leftover = 2;
	x->verdict = pc_xstrdup("deny (ok) reason: no");
	pc_report_set_xchg(r, c, x);
	pc_report_set_latency(r, c, ms, 3, 5000, 2, 3);
	m = pc_report_add_mark(r, c, PC_MARK_HOOK, "pre_bash g bash");
	m->verdict = pc_xstrdup("deny");
	m->outcome = pc_xstrdup("ok");
	m->before = pc_xstrdup("{\n  \"command\": \"rm\"\n}");
	m->after = pc_xstrdup("{\n  \"command\": \"echo\"\n}");
	m->x = pc_xchg_new();
	m->x->process = pc_xstrdup("timeout");
	pc_excerpt_set(&m->x->out, "\x1b[2J", 4);
	pc_report_add_mark(r, c, PC_MARK_TOOL, "result bash");
	pc_report_find(r, c, "PC-HOOK-010", "plugin.json", "hook pre_bash",
		       "failed");
	free(big);
}

static void assert_excerpt_equal(const struct pc_excerpt *a,
				 const struct pc_excerpt *b)
{
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->head, b->head);
	assert_int_equal(a->total, b->total);
	if (a->len)
		assert_memory_equal(a->data, b->data, a->len);
}

static void fragment_round_trips_structured_parts(void **state)
{
	struct pc_report a = PC_REPORT_INIT, b = PC_REPORT_INIT;
	const struct pc_case *x, *y;
	char *frag;

	(void)state;
	structured_report(&a);
	frag = pc_report_fragment(&a, 0, a.ncases);
	assert_int_equal(pc_report_merge(&b, frag, strlen(frag), false), 0);
	assert_int_equal(b.ncases, 1);
	x = &a.cases[0];
	y = &b.cases[0];
	assert_non_null(y->x);
	assert_string_equal(y->x->point, x->x->point);
	assert_string_equal(y->x->command, x->x->command);
	assert_string_equal(y->x->argv, x->x->argv);
	assert_string_equal(y->x->verdict, x->x->verdict);
	assert_string_equal(y->x->process, x->x->process);
	assert_excerpt_equal(&y->x->in, &x->x->in);
	assert_excerpt_equal(&y->x->out, &x->x->out); /* NUL, 0xff kept */
	assert_excerpt_equal(&y->x->err, &x->x->err); /* cut kept */
	assert_excerpt_equal(&y->x->events, &x->x->events);
	assert_int_equal(y->x->exit_code, 3);
	assert_true(y->x->has_status && y->x->spawned);
	assert_int_equal(y->x->duration_ms, 42);
	assert_int_equal(y->x->leftover, 2);
	assert_non_null(y->latency);
	assert_int_equal(y->latency->n, 3);
	assert_memory_equal(y->latency->ms, x->latency->ms, 3 * sizeof(long long));
	assert_int_equal(y->latency->timeout_ms, 5000);
	assert_int_equal(y->latency->p50_ms, 2);
	assert_int_equal(y->latency->p95_ms, 3);
	assert_int_equal(y->nmarks, 2);
	assert_int_equal(y->marks[0].kind, PC_MARK_HOOK);
	assert_string_equal(y->marks[0].label, "pre_bash g bash");
	assert_string_equal(y->marks[0].verdict, "deny");
	assert_string_equal(y->marks[0].before, x->marks[0].before);
	assert_string_equal(y->marks[0].after, x->marks[0].after);
	assert_non_null(y->marks[0].x);
	assert_excerpt_equal(&y->marks[0].x->out, &x->marks[0].x->out);
	assert_int_equal(y->marks[1].kind, PC_MARK_TOOL);
	assert_null(y->marks[1].verdict);
	assert_null(y->marks[1].x);
	/* a fragment of the merged report is the same text */
	{
		char *again = pc_report_fragment(&b, 0, b.ncases);

		assert_string_equal(again, frag);
		free(again);
	}
	free(frag);
	pc_report_release(&a);
	pc_report_release(&b);
}

static void fragment_refuses_bad_structured_parts(void **state)
{
	static const char *const bad[] = {
		/* odd hex, a non-hex digit, head past the bytes, total under
		 * them, more bytes than an excerpt keeps */
		"{\"hex\":\"616\",\"head\":1,\"total\":2}",
		"{\"hex\":\"6g\",\"head\":1,\"total\":1}",
		"{\"hex\":\"61\",\"head\":2,\"total\":1}",
		"{\"hex\":\"6161\",\"head\":2,\"total\":1}",
		NULL,
	};
	struct pc_report r = PC_REPORT_INIT;
	const char *ok = "{\"hex\":\"\",\"head\":0,\"total\":0}";
	char *e;

	(void)state;
	for (size_t i = 0; bad[i]; i++) {
		char *frag = pc_xasprintf(
			"{\"incomplete\":false,\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],"
			"\"x\":{\"in\":%s,\"out\":%s,\"err\":%s,\"events\":%s,\"exit_code\":0}}]}",
			bad[i], ok, ok, ok);

		assert_int_equal(pc_report_merge(&r, frag, strlen(frag), false),
				 PC_EPARSE);
		assert_int_equal(r.ncases, 0);
		free(frag);
	}
	/* N+1 bytes of excerpt: refused; N: taken */
	for (int k = 0; k < 2; k++) {
		size_t n = PC_EXCERPT_HEAD + PC_EXCERPT_TAIL + (k ? 0 : 1);
		char *hex = pc_xmalloc(2 * n + 1), *frag;

		memset(hex, '6', 2 * n);
		hex[2 * n] = 0;
		e = pc_xasprintf("{\"hex\":\"%s\",\"head\":%zu,\"total\":%zu}",
				 hex, n, n);
		frag = pc_xasprintf(
			"{\"incomplete\":false,\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],"
			"\"x\":{\"in\":%s,\"out\":%s,\"err\":%s,\"events\":%s,\"exit_code\":0}}]}",
			e, ok, ok, ok);
		assert_int_equal(pc_report_merge(&r, frag, strlen(frag), false),
				 k ? 0 : PC_EPARSE);
		free(frag);
		free(e);
		free(hex);
	}
	assert_int_equal(r.ncases, 1);
	assert_int_equal(r.cases[0].x->in.len,
			 PC_EXCERPT_HEAD + PC_EXCERPT_TAIL);
	/* a mark without a label, an unknown kind */
	assert_int_equal(pc_report_merge(&r, "{\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],\"marks\":[{\"kind\":2}]}]}",
					 strlen("{\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],\"marks\":[{\"kind\":2}]}]}"),
					 false),
			 PC_EPARSE);
	assert_int_equal(pc_report_merge(&r, "{\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],\"marks\":[{\"kind\":9,\"label\":\"l\"}]}]}",
					 strlen("{\"groups\":[],\"cases\":[{\"classname\":\"c\",\"name\":\"n\",\"findings\":[],\"marks\":[{\"kind\":9,\"label\":\"l\"}]}]}"),
					 false),
			 PC_EPARSE);
	assert_int_equal(r.ncases, 1);
	pc_report_release(&r);
}

static void command_quotes_and_spills_args(void **state)
{
	struct pc_fire f = PC_FIRE_INIT;
	char *cmd, *big;

	(void)state;
	f.point = pc_xstrdup("pre_bash");
	f.path = pc_xstrdup("/my plugins/g");
	f.in_args = pc_xstrdup("{\"command\":\"it's $HOME\"}");
	f.in_tool = pc_xstrdup("bash");
	cmd = pc_fire_command(&f, true);
	assert_string_equal(cmd, "plugcheck fire pre_bash '/my plugins/g' --tool bash --args '{\"command\":\"it'\\''s $HOME\"}' --sandbox");
	free(cmd);
	/* at the limit on the line; one byte more through --args-file */
	for (int k = 0; k < 2; k++) {
		free(f.in_args);
		big = stream(PC_FIRE_COMMAND_ARGS_MAX + (size_t)k);
		f.in_args = big;
		cmd = pc_fire_command(&f, false);
		assert_true((strstr(cmd, "--args-file ARGS.json") != NULL) == (k == 1));
		free(cmd);
	}
	free(f.point);
	free(f.path);
	free(f.in_args);
	free(f.in_tool);
}

static char *page(const struct pc_report *r, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	assert_int_equal(pc_report_write(r, PC_REPORT_HTML, m, false), 0);
	fclose(m);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void page_injects_nothing(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t len;
	char *html;

	(void)state;
	structured_report(&r);
	pc_report_finish(&r);
	html = page(&r, &len);
	assert_int_equal(strlen(html), len); /* no NUL byte in the page */
	assert_null(memchr(html, 0x1b, len));
	assert_null(strstr(html, "<script>alert"));
	assert_int_equal(count(html, "<script"), 1); /* the page's own */
	assert_non_null(strstr(html, "&lt;script&gt;"));
	/* failures first: the failing case, then the findings' link to it */
	assert_non_null(strstr(html, "data-status=\"fail\""));
	assert_non_null(strstr(html, "<span class=\"loc\">/p/plugin.json</span>"));
	assert_non_null(strstr(html, "href=\"docs/rules/PC-HOOK-010.md\""));
	assert_non_null(strstr(html, "plugcheck explain PC-HOOK-010"));
	/* one timeline mark per entry, the hook coloured by its verdict */
	assert_int_equal(count(html, "<rect class=\"mark hook deny\""), 1);
	assert_int_equal(count(html, "<rect class=\"mark "), 2);
	assert_int_equal(count(html, "<circle class=\"sample\""), 3);
	free(html);
	pc_report_release(&r);
}

/* Cases whose every stream is a full excerpt of ESC bytes (the most the
 * page writes per byte), `n` of them. */
static void flood(struct pc_report *r, size_t n)
{
	size_t len = (size_t)1 << 20;
	char *esc_bytes = pc_xmalloc(len);

	memset(esc_bytes, 0x1b, len);
	for (size_t i = 0; i < n; i++) {
		size_t c = pc_report_add_case(r, "plugcheck.hook.pre_bash",
					      "repeat", NULL, 0.0);
		struct pc_xchg *x = pc_xchg_new();

		pc_excerpt_set(&x->in, esc_bytes, len);
		pc_excerpt_set(&x->out, esc_bytes, len);
		pc_excerpt_set(&x->err, esc_bytes, len);
		pc_report_set_xchg(r, c, x);
	}
	free(esc_bytes);
}

static void page_stays_under_its_bound(void **state)
{
	struct pc_report r = PC_REPORT_INIT;
	size_t len;
	char *html;

	(void)state;
	r.name = pc_xstrdup("flood");
	flood(&r, 2);
	pc_report_finish(&r);
	html = page(&r, &len);
	assert_null(strstr(html, "size bound"));
	assert_true(len < (size_t)4 << 20);
	free(html);
	pc_report_release(&r);
	/* far more than the bound would hold: the rest are left out */
	r.name = pc_xstrdup("flood");
	flood(&r, 200);
	pc_report_finish(&r);
	html = page(&r, &len);
	assert_non_null(strstr(html, "size bound"));
	assert_true(len < PC_REPORT_HTML_BUDGET + ((size_t)2 << 20));
	assert_non_null(strstr(html, "</html>\n"));
	free(html);
	pc_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_escapes_markup),
		cmocka_unit_test(text_shows_invisible_bytes),
		cmocka_unit_test(attr_escapes),
		cmocka_unit_test(excerpt_at_its_limit),
		cmocka_unit_test(excerpt_html_says_what_was_cut),
		cmocka_unit_test(bounded_at_its_limit),
		cmocka_unit_test(fragment_round_trips_structured_parts),
		cmocka_unit_test(fragment_refuses_bad_structured_parts),
		cmocka_unit_test(command_quotes_and_spills_args),
		cmocka_unit_test(page_injects_nothing),
		cmocka_unit_test(page_stays_under_its_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

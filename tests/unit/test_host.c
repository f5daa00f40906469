/* test_host.c - the Rust text forms of pc_rust.c and the discovery and
 * trust gating of pc_registry.c (spec catalyst-code.md §1), against the
 * exact strings the host produces. */
#include <sys/stat.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_registry.h"
#include "pc_rust.h"
#include "pc_strvec.h"
#include "pc_xalloc.h"

/* --- pc_rust ------------------------------------------------------------ */

static void expect_debug(const char *s, size_t n, const char *want)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	assert_int_equal(pc_rust_debug_str(&b, s, n), 0);
	assert_string_equal(pc_buf_cstr(&b), want);
	pc_buf_release(&b);
}

#define DEBUG(lit, want) expect_debug(lit, sizeof(lit) - 1, want)

static void debug_str_quotes_and_escapes(void **state)
{
	(void)state;
	DEBUG("", "\"\"");
	DEBUG("hooks/a.sh", "\"hooks/a.sh\"");
	DEBUG("say \"hi\"", "\"say \\\"hi\\\"\"");
	DEBUG("a\\b", "\"a\\\\b\"");
	DEBUG("it's", "\"it's\""); /* str Debug leaves ' alone */
	DEBUG("l1\nl2\rl3\tx", "\"l1\\nl2\\rl3\\tx\"");
	DEBUG("a\0b", "\"a\\0b\"");
}

static void debug_str_escapes_controls_as_unicode(void **state)
{
	(void)state;
	DEBUG("\x1b[0m", "\"\\u{1b}[0m\"");
	DEBUG("\x01\x1f", "\"\\u{1}\\u{1f}\"");
	DEBUG("\x0b\x0c", "\"\\u{b}\\u{c}\"");
	DEBUG("\x7f", "\"\\u{7f}\"");
	DEBUG("\xc2\x85", "\"\\u{85}\"");	/* NEL, Cc */
	DEBUG("\xc2\xad", "\"\\u{ad}\"");	/* soft hyphen, Cf */
	DEBUG("\xe2\x80\x8b", "\"\\u{200b}\""); /* zero width space */
	DEBUG("\xe2\x80\xa8", "\"\\u{2028}\""); /* line separator */
	DEBUG("\xef\xbb\xbf", "\"\\u{feff}\""); /* BOM, Cf */
	DEBUG("\xee\x80\x80", "\"\\u{e000}\""); /* private use */
	DEBUG("\xef\xbf\xbe", "\"\\u{fffe}\""); /* noncharacter */
	DEBUG("\xf3\xa0\x80\x81", "\"\\u{e0001}\"");
}

/* Rust's printable tables treat every Zs but ' ' as unprintable, and
 * escape Grapheme_Extend characters (an NFD file name's accents). */
static void debug_str_escapes_spaces_and_combining_marks(void **state)
{
	(void)state;
	DEBUG("a b", "\"a b\"");
	DEBUG("a\xc2\xa0"
	      "b",
	      "\"a\\u{a0}b\"");
	DEBUG("\xe3\x80\x80", "\"\\u{3000}\"");
	DEBUG("\xe2\x80\xaf", "\"\\u{202f}\"");
	DEBUG("e\xcc\x81", "\"e\\u{301}\"");
	DEBUG("\xe3\x81\xaf\xe3\x82\x99", "\"\xe3\x81\xaf\\u{3099}\"");
	DEBUG("\xe2\x9d\xa4\xef\xb8\x8f", "\"\xe2\x9d\xa4\\u{fe0f}\"");
}

static void debug_str_keeps_plain_non_ascii(void **state)
{
	(void)state;
	DEBUG("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	DEBUG("\xe6\x97\xa5\xe6\x9c\xac", "\"\xe6\x97\xa5\xe6\x9c\xac\"");
	DEBUG("\xf0\x9f\xa6\x80", "\"\xf0\x9f\xa6\x80\"");
	DEBUG("\xe2\x80\xa6", "\"\xe2\x80\xa6\"");
	DEBUG("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");
}

static void debug_str_writes_invalid_bytes_as_hex(void **state)
{
	(void)state;
	DEBUG("a\xff"
	      "b",
	      "\"a\\xFFb\"");
	DEBUG("\xe2\x82", "\"\\xE2\\x82\"");
	DEBUG("\xc0\x80", "\"\\xC0\\x80\"");
	DEBUG("\xed\xa0\x80", "\"\\xED\\xA0\\x80\"");
	DEBUG("\xf0\x9f\x98", "\"\\xF0\\x9F\\x98\"");
	DEBUG("x\x80\n", "\"x\\x80\\n\"");
}

static void debug_str_reports_cap(void **state)
{
	struct pc_buf b = PC_BUF_INIT(4);

	(void)state;
	assert_int_equal(pc_rust_debug_str(&b, "abcdef", 6), PC_EFBIG);
	pc_buf_release(&b);
}

static void io_error_is_strerror_and_code(void **state)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	(void)state;
	assert_int_equal(pc_rust_io_error(&b, ENOENT), 0);
	assert_string_equal(pc_buf_cstr(&b),
			    "No such file or directory (os error 2)");
	pc_buf_reset(&b);
	pc_rust_io_error(&b, EACCES);
	assert_string_equal(pc_buf_cstr(&b), "Permission denied (os error 13)");
	pc_buf_reset(&b);
	pc_rust_io_error(&b, ENOEXEC);
	assert_string_equal(pc_buf_cstr(&b), "Exec format error (os error 8)");
	pc_buf_release(&b);
}

static void expect_status(bool sig, int n, bool core, const char *want)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	assert_int_equal(pc_rust_exit_status(&b, sig, n, core), 0);
	assert_string_equal(pc_buf_cstr(&b), want);
	pc_buf_release(&b);
}

static void exit_status_display(void **state)
{
	(void)state;
	expect_status(false, 0, false, "exit status: 0");
	expect_status(false, 1, false, "exit status: 1");
	expect_status(false, 255, false, "exit status: 255");
	expect_status(true, SIGKILL, false, "signal: 9 (SIGKILL)");
	expect_status(true, SIGTERM, false, "signal: 15 (SIGTERM)");
	expect_status(true, SIGSEGV, true,
		      "signal: 11 (SIGSEGV) (core dumped)");
	expect_status(true, SIGABRT, true, "signal: 6 (SIGABRT) (core dumped)");
	expect_status(true, SIGSYS, false, "signal: 31 (SIGSYS)");
	expect_status(true, SIGPWR, false, "signal: 30 (SIGPWR)");
	expect_status(true, SIGSTKFLT, false, "signal: 16 (SIGSTKFLT)");
	expect_status(true, 64, false, "signal: 64");
	expect_status(true, 34, true, "signal: 34 (core dumped)");
}

static void expect_lossy(const char *s, size_t n, const char *want)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	assert_int_equal(pc_rust_lossy_utf8(&b, s, n), 0);
	assert_string_equal(pc_buf_cstr(&b), want);
	pc_buf_release(&b);
}

#define LOSSY(lit, want) expect_lossy(lit, sizeof(lit) - 1, want)
#define FFFD		 "\xef\xbf\xbd"

static void lossy_utf8_replaces_maximal_subparts(void **state)
{
	(void)state;
	LOSSY("", "");
	LOSSY("plain \xe2\x82\xac", "plain \xe2\x82\xac");
	LOSSY("a\xff"
	      "b",
	      "a" FFFD "b");
	LOSSY("\xf0\x90\x80", FFFD); /* truncated: one */
	LOSSY("\xf0\x90\x80z", FFFD "z");
	LOSSY("\xc0\x80", FFFD FFFD);			/* overlong lead: two */
	LOSSY("\xed\xa0\x80", FFFD FFFD FFFD);		/* surrogate: three */
	LOSSY("\xe0\x80\x80", FFFD FFFD FFFD);		/* overlong 3-byte */
	LOSSY("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD); /* > U+10FFFF */
	LOSSY("\xe2\x82", FFFD);
	LOSSY("\xe2\x82"
	      "A",
	      FFFD "A");
	LOSSY("\xe2\x28\xa1", FFFD "(" FFFD);
	LOSSY("\x80\x80", FFFD FFFD);
	LOSSY("a\0b", "a"); /* the NUL is kept; the string ends there */
}

static void lossy_utf8_reports_cap(void **state)
{
	struct pc_buf b = PC_BUF_INIT(2);

	(void)state;
	assert_int_equal(pc_rust_lossy_utf8(&b, "\xff", 1), PC_EFBIG);
	pc_buf_release(&b);
}

static void expect_trim(const char *s, size_t n, const char *want)
{
	size_t start = 99, len = pc_rust_trim(s, n, &start);

	assert_int_equal(len, strlen(want));
	assert_memory_equal(s + start, want, len);
}

#define TRIM(lit, want) expect_trim(lit, sizeof(lit) - 1, want)

static void trim_removes_unicode_white_space(void **state)
{
	(void)state;
	TRIM("", "");
	TRIM(" \t\n\v\f\r", "");
	TRIM("  x y \r\n", "x y");
	TRIM("\xc2\xa0x\xc2\xa0", "x");			/* U+00A0 */
	TRIM("\xe3\x80\x80x\xe3\x80\x80", "x");		/* U+3000 */
	TRIM("\xc2\x85x\xe2\x80\xa8\xe2\x80\xa9", "x"); /* U+0085 2028 2029 */
	TRIM("\xe1\x9a\x80\xe2\x80\x80x\xe2\x80\x8a", "x");
	TRIM("\xe2\x80\xafx\xe2\x81\x9f", "x");
}

static void trim_keeps_non_white_space(void **state)
{
	(void)state;
	TRIM("\xef\xbb\xbfx", "\xef\xbb\xbfx"); /* U+FEFF */
	TRIM("\xe2\x80\x8bx\xe2\x80\x8b", "\xe2\x80\x8bx\xe2\x80\x8b");
	TRIM("\xe1\xa0\x8ex", "\xe1\xa0\x8ex"); /* U+180E */
	TRIM(" \xe6\x97\xa5 ", "\xe6\x97\xa5");
	TRIM(" a\xc2\xa0"
	     "b ",
	     "a\xc2\xa0"
	     "b");
}

/* --- pc_registry: the pure helpers ------------------------------------- */

static void trust_project_follows_r1_8(void **state)
{
	static const struct {
		const char *env;
		int cli;
		bool want;
	} t[] = {
		{ NULL, -1, false },	{ "", -1, true },
		{ "1", -1, true },	{ "TRUE", -1, true },
		{ "true", -1, true },	{ "tRuE", -1, true },
		{ "yes", -1, false },	{ "0", -1, false },
		{ "false", -1, false }, { " 1", -1, false },
		{ "1 ", -1, false },	{ "on", -1, false },
		{ NULL, 1, true },	{ "yes", 1, true },
		{ "1", 0, false },	{ "", 0, false },
		{ NULL, 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(pc_registry_trust_project(t[i].env, t[i].cli),
				 t[i].want);
}

#define SKIP_TAIL                                                              \
	"); trust it with the plugin trust prompt (/plugin-trust), set "       \
	"--trust-project-plugins / CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or " \
	"reinstall with `/plugin-install \xe2\x80\xa6 workspace`"

static void skip_line_is_exact(void **state)
{
	char *l = pc_registry_skip_line("demo",
					"/ws/.catalyst-code/plugins/demo");

	(void)state;
	assert_string_equal(
		l, "[plugins] skipping project-scoped plugin 'demo' "
		   "(in \"/ws/.catalyst-code/plugins/demo\"" SKIP_TAIL);
	free(l);
}

/* The path is a PathBuf: its Debug escapes ' as \' (unlike a str's), and
 * writes invalid UTF-8 as \xNN; the name is Display, verbatim. */
static void skip_line_quotes_the_path_as_a_path(void **state)
{
	char *l = pc_registry_skip_line("it's", "/w/it's \"q\"\n\xff");

	(void)state;
	assert_string_equal(l,
			    "[plugins] skipping project-scoped plugin 'it's' "
			    "(in \"/w/it\\'s \\\"q\\\"\\n\\xFF\"" SKIP_TAIL);
	free(l);
}

/* --- pc_registry_scan ---------------------------------------------------- */

struct fx {
	char *tmp, *home, *ws, *canon_ws, *global, *project;
	struct pc_manifest_env menv;
	struct pc_registry r;
};

static void write_file(const char *path, const char *text)
{
	char *dir = pc_xstrdup(path);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(pc_fs_mkdir_p(dir, NULL), 0);
	assert_int_equal(pc_fs_write(path, text, strlen(text), NULL), 0);
	free(dir);
}

/* mkplugin - <root>/<dir>/plugin.json with `json`; returns the canonical
 * plugin directory (new string). */
static char *mkplugin(const char *root, const char *dir, const char *json)
{
	char *pdir = pc_fs_join(root, dir);
	char *mpath = pc_fs_join(pdir, "plugin.json");
	char *canon;

	write_file(mpath, json);
	canon = pc_fs_realpath(pdir);
	assert_non_null(canon);
	free(mpath);
	free(pdir);
	return canon;
}

static char *manifest(const char *name, const char *version)
{
	return pc_xasprintf("{\"name\":\"%s\",\"version\":\"%s\"}", name,
			    version);
}

static char *canon_of(const char *root, const char *dir)
{
	char *p = pc_fs_join(root, dir);
	char *c = pc_fs_realpath(p);

	assert_non_null(c);
	free(p);
	return c;
}

static void add_plugin(const char *root, const char *dir, const char *name,
		       const char *version, char **canon)
{
	char *json = manifest(name, version);
	char *c = mkplugin(root, dir, json);

	if (canon)
		*canon = c;
	else
		free(c);
	free(json);
}

static int setup(void **state)
{
	struct fx *f = pc_xcalloc(1, sizeof(*f));

	f->tmp = pc_fs_mkdtemp("test-host");
	assert_non_null(f->tmp);
	f->home = pc_fs_join(f->tmp, "home");
	f->ws = pc_fs_join(f->tmp, "ws");
	assert_int_equal(pc_fs_mkdir_p(f->home, NULL), 0);
	assert_int_equal(pc_fs_mkdir_p(f->ws, NULL), 0);
	f->canon_ws = pc_fs_realpath(f->ws);
	f->global = pc_fs_join(f->home, ".catalyst-code/plugins");
	f->project = pc_fs_join(f->ws, ".catalyst-code/plugins");
	f->menv.home = f->home;
	f->r = (struct pc_registry)PC_REGISTRY_INIT;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pc_registry_release(&f->r);
	pc_fs_rm_rf(f->tmp);
	free(f->tmp);
	free(f->home);
	free(f->ws);
	free(f->canon_ws);
	free(f->global);
	free(f->project);
	free(f);
	return 0;
}

static void write_store(const struct fx *f, const char *json)
{
	char *p =
		pc_fs_join(f->home, ".config/catalyst-code/plugin-trust.json");

	write_file(p, json);
	free(p);
}

static void scan(struct fx *f, bool trust_project)
{
	struct pc_registry_opts o = { .home = f->home,
				      .workspace = f->ws,
				      .trust_project = trust_project,
				      .menv = &f->menv };

	pc_registry_release(&f->r);
	assert_int_equal(pc_registry_scan(&o, &f->r), 0);
}

static const char *version_of(const struct fx *f, const char *name)
{
	const struct pc_plugin *p = pc_registry_find(&f->r, name);

	return p ? p->version : NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of r->plugins in order, joined with ','. */
static char *plugin_names(const struct fx *f)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < f->r.nr; i++)
		pc_buf_addf(&b, "%s%s", i ? "," : "", f->r.plugins[i]->name);
	return pc_buf_detach(&b, NULL);
}

/* `sv` sorted and joined with ',' (readdir order is unspecified). */
static char *sorted(const struct pc_strvec *sv)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char **v = pc_xreallocarray(NULL, sv->nr + 1, sizeof(*v));

	memcpy(v, sv->v, sv->nr * sizeof(*v));
	qsort(v, sv->nr, sizeof(*v), cmp_str);
	for (size_t i = 0; i < sv->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? "," : "", v[i]);
	free(v);
	return pc_buf_detach(&b, NULL);
}

static void expect_names(const struct fx *f, const char *want)
{
	char *got = plugin_names(f);

	assert_string_equal(got, want);
	free(got);
}

static void expect_skipped(const struct fx *f, const char *want)
{
	char *got = sorted(&f->r.skipped);

	assert_string_equal(got, want);
	free(got);
}

static bool has_line(const struct pc_strvec *sv, const char *line)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], line))
			return true;
	return false;
}

static void expect_skip_logged(const struct fx *f, const char *name,
			       const char *canon)
{
	char *line = pc_registry_skip_line(name, canon);

	assert_true(has_line(&f->r.log, line));
	free(line);
}

/* The world most scan tests share; canonical project plugin paths for the
 * trust store are returned in `c`. */
struct canon {
	char *shared, *trusted, *denied, *inst, *other;
};

static void populate(struct fx *f, struct canon *c)
{
	char *junk;

	add_plugin(f->global, "zeta", "zeta", "g", NULL);
	add_plugin(f->global, "shared", "shared", "global", NULL);
	add_plugin(f->global, "keepme", "keepme", "global", NULL);
	free(mkplugin(f->global, "broken",
		      "{\"name\":\"\",\"version\":\"1\"}"));
	junk = pc_fs_join(f->global, "README");
	write_file(junk, "not a plugin");
	free(junk);
	junk = pc_fs_join(f->global, "no-manifest/hooks");
	assert_int_equal(pc_fs_mkdir_p(junk, NULL), 0);
	free(junk);
	add_plugin(f->project, "untrusted", "untrusted-plugin", "1", NULL);
	add_plugin(f->project, "shared-proj", "shared", "project", &c->shared);
	add_plugin(f->project, "trusted", "beta", "1", &c->trusted);
	add_plugin(f->project, "denied", "denied", "1", &c->denied);
	add_plugin(f->project, "keepme", "keepme", "project", NULL);
	add_plugin(f->project, "inst", "installed-one", "1", &c->inst);
	add_plugin(f->project, "other", "other", "1", &c->other);
	free(mkplugin(f->project, "garbage", "{\"version\":\"1\"}"));
}

static void canon_release(struct canon *c)
{
	free(c->shared);
	free(c->trusted);
	free(c->denied);
	free(c->inst);
	free(c->other);
}

static void write_full_store(const struct fx *f, const struct canon *c)
{
	char *json = pc_xasprintf(
		"{\"projects\":{\"%s\":{\"%s\":\"trust\",\"%s\":\"trust\","
		"\"%s\":\"deny\",\"%s\":\"maybe\"}},"
		"\"installed\":{\"%s\":[\"%s\"]}}",
		f->canon_ws, c->shared, c->trusted, c->denied, c->other,
		f->canon_ws, c->inst);

	write_store(f, json);
	free(json);
}

#define BROKEN_ERR "failed to load plugin in \"broken\": plugin name is empty"

static void scan_gates_project_plugins_by_trust(void **state)
{
	struct fx *f = *state;
	struct canon c;
	char *canon;

	populate(f, &c);
	write_full_store(f, &c);
	scan(f, false);
	expect_names(f, "beta,installed-one,keepme,shared,zeta");
	assert_string_equal(version_of(f, "shared"), "project"); /* R1.5 */
	assert_string_equal(version_of(f, "keepme"), "global");
	expect_skipped(f, "denied,garbage,keepme,other,untrusted-plugin");
	assert_int_equal(f->r.errors.nr, 1);
	assert_string_equal(f->r.errors.v[0], BROKEN_ERR);
	assert_true(has_line(&f->r.log, "[plugins] " BROKEN_ERR));
	assert_int_equal(f->r.log.nr, 6);
	canon = canon_of(f->project, "untrusted");
	expect_skip_logged(f, "untrusted-plugin", canon);
	free(canon);
	expect_skip_logged(f, "denied", c.denied);
	expect_skip_logged(f, "other", c.other);
	canon = canon_of(f->project, "garbage"); /* R1.7.7: the dir name */
	expect_skip_logged(f, "garbage", canon);
	free(canon);
	canon = canon_of(f->project, "keepme");
	expect_skip_logged(f, "keepme", canon);
	free(canon);
	canon_release(&c);
}

/* R1.7.5: the flag loads every project plugin, a recorded deny too. */
static void scan_trust_flag_overrides_deny(void **state)
{
	struct fx *f = *state;
	struct canon c;

	populate(f, &c);
	write_full_store(f, &c);
	scan(f, true);
	expect_names(f, "beta,denied,installed-one,keepme,other,shared,"
			"untrusted-plugin,zeta");
	assert_string_equal(version_of(f, "keepme"), "project");
	assert_int_equal(f->r.skipped.nr, 0);
	assert_int_equal(f->r.errors.nr, 2);
	assert_true(has_line(&f->r.errors, BROKEN_ERR));
	assert_true(
		has_line(&f->r.errors,
			 "failed to load plugin in \"garbage\": plugin.json "
			 "parse error: missing field `name` at line 1 "
			 "column 15"));
	canon_release(&c);
}

static void expect_all_project_skipped(struct fx *f)
{
	scan(f, false);
	expect_names(f, "keepme,shared,zeta");
	assert_string_equal(version_of(f, "shared"), "global");
	expect_skipped(f, "beta,denied,garbage,installed-one,keepme,other,"
			  "shared,untrusted-plugin");
}

/* R1.9: `projects` is required: without it the store is empty, and its
 * `installed` list counts for nothing either. */
static void scan_store_without_projects_is_empty(void **state)
{
	struct fx *f = *state;
	struct canon c;
	char *json;

	populate(f, &c);
	json = pc_xasprintf("{\"installed\":{\"%s\":[\"%s\"]}}", f->canon_ws,
			    c.inst);
	write_store(f, json);
	free(json);
	expect_all_project_skipped(f);
	canon_release(&c);
}

/* serde_json::from_str::<PluginTrustStore>(..).unwrap_or_default(): one
 * value of the wrong type anywhere empties the whole store. */
/* subst - `tmpl` with its first '@' replaced by `a`, its second by `b`. */
static char *subst(const char *tmpl, const char *a, const char *b)
{
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	int n = 0;

	for (const char *s = tmpl; *s; s++)
		if (*s == '@')
			pc_buf_adds(&out, n++ ? b : a);
		else
			pc_buf_addch(&out, *s);
	return pc_buf_detach(&out, NULL);
}

static void scan_store_with_a_wrong_type_is_empty(void **state)
{
	static const char *const bad[] = {
		"{\"projects\":{\"@\":{\"@\":\"trust\"}},"
		"\"installed\":{\"x\":\"not-a-list\"}}",
		"{\"projects\":{\"@\":{\"@\":\"trust\",\"k\":1}}}",
		"{\"projects\":{\"@\":{\"@\":\"trust\"}},"
		"\"installed\":null}",
		"{\"projects\":{\"@\":{\"@\":\"trust\"}},\"projects\":{}}",
		"{\"projects\":{\"@\":{\"@\":\"trust\"}}} trailing",
		"\xef\xbb\xbf{\"projects\":{\"@\":{\"@\":\"trust\"}}}",
	};
	struct fx *f = *state;
	struct canon c;

	populate(f, &c);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *json = subst(bad[i], f->canon_ws, c.trusted);

		write_store(f, json);
		free(json);
		expect_all_project_skipped(f);
	}
	canon_release(&c);
}

/* serde derive also accepts a struct as a sequence of its fields. */
static void scan_store_as_a_sequence(void **state)
{
	struct fx *f = *state;
	struct canon c;
	char *json;

	populate(f, &c);
	json = pc_xasprintf("[{\"%s\":{\"%s\":\"trust\"}}]", f->canon_ws,
			    c.trusted);
	write_store(f, json);
	free(json);
	scan(f, false);
	expect_names(f, "beta,keepme,shared,zeta");
	canon_release(&c);
}

/* R1.7.4: `installed` counts only for a plugin physically in the project:
 * a symlink to a directory outside stays gated, though listed. */
static void scan_installed_needs_physical_presence(void **state)
{
	struct fx *f = *state;
	char *outside = pc_fs_join(f->tmp, "outside");
	char *target, *link = pc_fs_join(f->project, "linked");
	char *json;

	add_plugin(outside, "p", "linked-one", "1", &target);
	assert_int_equal(pc_fs_mkdir_p(f->project, NULL), 0);
	assert_int_equal(symlink(target, link), 0);
	json = pc_xasprintf("{\"projects\":{},\"installed\":{\"%s\":[\"%s\"]}}",
			    f->canon_ws, target);
	write_store(f, json);
	free(json);
	scan(f, false);
	expect_names(f, "");
	expect_skipped(f, "linked-one");
	expect_skip_logged(f, "linked-one", target);
	json = pc_xasprintf("{\"projects\":{\"%s\":{\"%s\":\"trust\"}}}",
			    f->canon_ws, target);
	write_store(f, json);
	free(json);
	scan(f, false);
	expect_names(f, "linked-one");
	free(outside);
	free(target);
	free(link);
}

/* R1.7.2: the scan root is project-scoped by its lexical absolute path,
 * ".." kept as std::path::absolute keeps it. */
static void scan_gates_a_root_under_the_workspace_lexically(void **state)
{
	struct fx *f = *state;
	char *ext = pc_fs_join(f->tmp, "ext");
	struct pc_registry_opts o = { .home = f->home,
				      .workspace = f->ws,
				      .plugins_dir = "../ext",
				      .menv = &f->menv };

	add_plugin(ext, "p", "outer", "1", NULL);
	assert_int_equal(pc_registry_scan(&o, &f->r), 0);
	expect_names(f, "");
	expect_skipped(f, "outer");
	pc_registry_release(&f->r);
	o.plugins_dir = ext; /* outside the workspace: not gated */
	assert_int_equal(pc_registry_scan(&o, &f->r), 0);
	expect_names(f, "outer");
	free(ext);
}

/* R1.7.7 with a non-UTF-8 directory name and no usable manifest name: the
 * name is "" (to_str() fails); the path's Debug shows the byte as \xFF. */
static void scan_skip_of_a_non_utf8_directory(void **state)
{
	struct fx *f = *state;
	char *canon;

	free(mkplugin(f->project, "bad\xff", "{\"name\":5,\"version\":\"1\"}"));
	scan(f, false);
	expect_skipped(f, "");
	canon = canon_of(f->project, "bad\xff");
	expect_skip_logged(f, "", canon);
	assert_non_null(strstr(f->r.log.v[0], "bad\\xFF\")"));
	free(canon);
}

/* Trust-store keys are Path::display() strings: a non-UTF-8 byte is
 * U+FFFD there. */
static void scan_trust_key_is_lossy(void **state)
{
	struct fx *f = *state;
	char *canon = NULL, *json, *key;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	add_plugin(f->project, "t\xff", "lossy", "1", &canon);
	pc_rust_lossy_utf8(&b, canon, strlen(canon));
	key = pc_buf_detach(&b, NULL);
	json = pc_xasprintf("{\"projects\":{\"%s\":{\"%s\":\"trust\"}}}",
			    f->canon_ws, key);
	write_store(f, json);
	scan(f, false);
	expect_names(f, "lossy");
	free(json);
	free(key);
	free(canon);
}

/* Without HOME: no global root and no trust store (R1.1, R1.9); the
 * project root is created on every scan (R1.2). */
static void scan_without_home(void **state)
{
	struct fx *f = *state;
	struct canon c;
	struct pc_registry_opts o = { .workspace = f->ws, .menv = &f->menv };

	assert_false(pc_fs_is_dir(f->project));
	assert_int_equal(pc_registry_scan(&o, &f->r), 0);
	assert_true(pc_fs_is_dir(f->project));
	assert_int_equal(f->r.nr, 0);
	pc_registry_release(&f->r);
	populate(f, &c);
	write_full_store(f, &c);
	assert_int_equal(pc_registry_scan(&o, &f->r), 0);
	expect_names(f, "");
	assert_int_equal(f->r.skipped.nr, 8);
	assert_int_equal(f->r.errors.nr, 0);
	canon_release(&c);
}

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(debug_str_quotes_and_escapes),
		cmocka_unit_test(debug_str_escapes_controls_as_unicode),
		cmocka_unit_test(debug_str_escapes_spaces_and_combining_marks),
		cmocka_unit_test(debug_str_keeps_plain_non_ascii),
		cmocka_unit_test(debug_str_writes_invalid_bytes_as_hex),
		cmocka_unit_test(debug_str_reports_cap),
		cmocka_unit_test(io_error_is_strerror_and_code),
		cmocka_unit_test(exit_status_display),
		cmocka_unit_test(lossy_utf8_replaces_maximal_subparts),
		cmocka_unit_test(lossy_utf8_reports_cap),
		cmocka_unit_test(trim_removes_unicode_white_space),
		cmocka_unit_test(trim_keeps_non_white_space),
		cmocka_unit_test(trust_project_follows_r1_8),
		cmocka_unit_test(skip_line_is_exact),
		cmocka_unit_test(skip_line_quotes_the_path_as_a_path),
		FX(scan_gates_project_plugins_by_trust),
		FX(scan_trust_flag_overrides_deny),
		FX(scan_store_without_projects_is_empty),
		FX(scan_store_with_a_wrong_type_is_empty),
		FX(scan_store_as_a_sequence),
		FX(scan_installed_needs_physical_presence),
		FX(scan_gates_a_root_under_the_workspace_lexically),
		FX(scan_skip_of_a_non_utf8_directory),
		FX(scan_trust_key_is_lossy),
		FX(scan_without_home),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

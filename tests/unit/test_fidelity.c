/* test_fidelity.c - issue 18's disagreement kinds between the reference
 * host and the real Catalyst Code host, each with its minimal input and the
 * host's exact bytes (spec catalyst-code.md):
 *   - a NUL in captured or quoted text survives whole (R4.3.6, R6.2,
 *     R2.5, R2.9, R9.5, R7.5);
 *   - every I/O error is Rust's io::Error text (R2.1, R7.5);
 *   - the log lines a load writes before its error are kept, in order
 *     (R1.11, R1.12);
 *   - a prompt_file that is no longer UTF-8 fails at the call (R7.5);
 *   - a command name sent with its '/' is used as sent in the
 *     dispatcher's messages (R7.2, R7.5).
 * Host text is compared as the raw bytes it stands for (pc_serde.h). */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_registry.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

struct fx {
	char *root; /* a fresh directory per test */
	char *dir;  /* <root>/p, the plugin */
	struct pc_host host;
};

static int setup(void **state)
{
	struct fx *f = pc_xcalloc(1, sizeof(*f));
	char *env[] = { "PATH=/usr/bin:/bin", NULL };

	f->root = pc_fs_mkdtemp("fidelity");
	assert_non_null(f->root);
	f->dir = pc_fs_join(f->root, "p");
	assert_int_equal(pc_fs_mkdir_p(f->dir, NULL), 0);
	f->host = (struct pc_host)PC_HOST_INIT;
	pc_host_init(&f->host, env, f->root, "/s/1.jsonl");
	f->host.timestamp = 1700000000;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pc_host_release(&f->host);
	pc_fs_rm_rf(f->root);
	free(f->root);
	free(f->dir);
	free(f);
	return 0;
}

/* Write `n` bytes at <plugin>/<rel> with `mode`. */
static void put(const struct fx *f, const char *rel, const char *text,
		size_t n, mode_t mode)
{
	char *path = pc_fs_join(f->dir, rel);
	char *parent = pc_xstrdup(path);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(pc_fs_mkdir_p(parent, NULL), 0);
	assert_int_equal(pc_fs_write(path, text, n, NULL), 0);
	assert_int_equal(chmod(path, mode), 0);
	free(parent);
	free(path);
}

#define PUT(f, rel, lit, mode) put(f, rel, lit, sizeof(lit) - 1, mode)

static void manifest(const struct fx *f, const char *json)
{
	put(f, "plugin.json", json, strlen(json), 0644);
}

static struct pc_plugin *load(const struct fx *f)
{
	struct pc_manifest_env env = { "/home/u", NULL };
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin *p = NULL;

	if (pc_manifest_load(f->dir, &env, &p, &err))
		fail_msg("load: %s", err.msg);
	return p;
}

/* The load's rejection, as the host's whole String (new host text). */
static char *rejection(const struct fx *f)
{
	struct pc_manifest_env env = { "/home/u", NULL };
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin *p = NULL;
	char *msg = NULL;
	struct pc_manifest_report rep = { .error = &msg };

	assert_int_equal(pc_manifest_load_report(f->dir, &env, &p, &rep, &err),
			 PC_EMANIFEST);
	assert_null(p);
	assert_non_null(msg);
	return msg;
}

/* Host text `text` stands for exactly the `n` bytes `want`. */
static void expect_raw(const char *text, const char *want, size_t n)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);

	assert_int_equal(pc_serde_text_raw(&raw, text), 0);
	if (raw.len != n || memcmp(raw.data ? raw.data : "", want, n))
		fail_msg("got %zu bytes '%s', want %zu bytes '%s'", raw.len,
			 pc_buf_cstr(&raw), n, want);
	pc_buf_release(&raw);
}

#define RAW(text, lit) expect_raw(text, lit, sizeof(lit) - 1)

/* serde_json's print of host text as a JSON string. */
static void expect_json(const char *text, const char *want)
{
	cJSON *s = cJSON_CreateString(text);
	char *j = pc_serde_to_string(s);

	assert_string_equal(j, want);
	free(j);
	cJSON_Delete(s);
}

/* --- host text helpers (pc_serde_text_*) ------------------------------- */

static void text_round_trips_nul(void **state)
{
	char *t = pc_serde_text_new("a\0b\0", 4);
	cJSON *node = pc_serde_string_n("\0x", 2);

	(void)state;
	assert_string_equal(t, "a\xc0\x80"
			       "b\xc0\x80");
	assert_int_equal(pc_serde_text_len(t), 4);
	RAW(t, "a\0b\0");
	expect_json(t, "\"a\\u0000b\\u0000\"");
	expect_json(node->valuestring, "\"\\u0000x\"");
	/* Rust's String order: U+0000 sorts before U+0001 */
	assert_true(pc_serde_text_cmp("a\xc0\x80", "a\x01") < 0);
	assert_true(pc_serde_text_cmp("a", "a\xc0\x80") < 0);
	assert_int_equal(pc_serde_text_cmp("a\xc0\x80", "a\xc0\x80"), 0);
	cJSON_Delete(node);
	free(t);
}

static void debug_text_writes_nul_as_backslash_zero(void **state)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	(void)state;
	assert_int_equal(pc_rust_debug_text(&b, "h\xc0\x80"), 0);
	assert_string_equal(pc_buf_cstr(&b), "\"h\\0\"");
	pc_buf_release(&b);
}

/* --- kind 1: a NUL in captured and quoted text ------------------------- */

static void hook_stderr_nul_is_quoted_whole(void **state)
{
	struct fx *f = *state;
	struct pc_hook_result r;
	struct pc_exchange x;
	struct pc_plugin *p;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"hooks\":{"
		    "\"pre_bash\":{\"script\":\"h.sh\"},"
		    "\"post_bash\":{\"script\":\"h.sh\"}}}");
	PUT(f, "h.sh", "#!/bin/sh\nprintf 'a\\000b' >&2\nexit 1\n", 0755);
	p = load(f);
	pc_exchange_init(&x);
	assert_int_equal(pc_host_run_hook(&f->host, p, PC_HOOK_PRE_BASH,
					  "bash", NULL, NULL, &r, &x, NULL),
			 0);
	assert_false(r.allow);
	RAW(r.reason, "hook 'pre_bash' exited with exit status: 1: a\0b");
	expect_json(r.reason,
		    "\"hook 'pre_bash' exited with exit status: 1: a\\u0000b\"");
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	/* a Skip-mode hook carries the same text behind "[P] " (R4.4) */
	pc_exchange_init(&x);
	pc_host_run_hook(&f->host, p, PC_HOOK_POST_BASH, "bash", NULL, NULL,
			 &r, &x, NULL);
	assert_true(r.allow);
	RAW(r.reason, "[p] hook 'post_bash' exited with exit status: 1: a\0b");
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	pc_plugin_free(p);
}

static void tool_and_command_stdout_nul_is_output_whole(void **state)
{
	struct fx *f = *state;
	struct pc_call_result r;
	struct pc_exchange x;
	struct pc_plugin *p;
	cJSON *args = cJSON_CreateObject();

	manifest(f, "{\"name\":\"p\",\"version\":\"1\","
		    "\"tools\":[{\"name\":\"t\",\"script\":\"t.sh\"}],"
		    "\"commands\":[{\"name\":\"c\",\"script\":\"t.sh\"}]}");
	PUT(f, "t.sh", "#!/bin/sh\ncat >/dev/null\nprintf 'a\\000b'\n", 0755);
	p = load(f);
	pc_exchange_init(&x);
	assert_int_equal(pc_host_run_tool(&f->host, p, &p->tools[0], args, &r,
					  &x, NULL),
			 0);
	assert_true(r.ok);
	RAW(r.output, "a\0b");
	expect_json(r.output, "\"a\\u0000b\"");
	pc_call_result_release(&r);
	pc_exchange_release(&x);
	pc_exchange_init(&x);
	pc_host_run_command(&f->host, p, &p->commands[0], "", &r, &x, NULL);
	assert_true(r.ok);
	RAW(r.output, "a\0b");
	pc_call_result_release(&r);
	pc_exchange_release(&x);
	cJSON_Delete(args);
	pc_plugin_free(p);
}

/* A NUL inside a JSON string of stdout is serde's control-character
 * error, not a cut text; the raw stdout becomes the tool's output. */
static void tool_stdout_json_with_raw_nul_is_not_json(void **state)
{
	struct fx *f = *state;
	struct pc_call_result r;
	struct pc_exchange x;
	struct pc_plugin *p;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\","
		    "\"tools\":[{\"name\":\"t\",\"script\":\"t.sh\"}]}");
	PUT(f, "t.sh",
	    "#!/bin/sh\ncat >/dev/null\nprintf '{\"output\":\"x\\000\"}'\n",
	    0755);
	p = load(f);
	pc_exchange_init(&x);
	pc_host_run_tool(&f->host, p, &p->tools[0], NULL, &r, &x, NULL);
	assert_true(r.ok);
	RAW(r.output, "{\"output\":\"x\0\"}");
	pc_call_result_release(&r);
	pc_exchange_release(&x);
	pc_plugin_free(p);
}

static void memory_non_json_nul_is_quoted_whole(void **state)
{
	struct fx *f = *state;
	struct pc_memory_result r;
	struct pc_exchange x;
	struct pc_plugin *p;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\","
		    "\"memory_provider\":{\"script\":\"m.sh\"}}");
	PUT(f, "m.sh", "#!/bin/sh\ncat >/dev/null\nprintf 'a\\000b'\n", 0755);
	p = load(f);
	pc_exchange_init(&x);
	pc_host_run_memory(&f->host, p, "list", NULL, &r, &x, NULL);
	assert_false(r.ok);
	RAW(r.output, "memory_provider returned non-JSON stdout: a\0b");
	pc_memory_result_release(&r);
	pc_exchange_release(&x);
	pc_plugin_free(p);
}

static void oauth_stderr_nul_is_quoted_whole(void **state)
{
	struct fx *f = *state;
	struct pc_oauth_result r;
	struct pc_exchange x;
	struct pc_plugin *p;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"oauth\":{"
		    "\"provider_id\":\"acme\",\"base_url\":\"https://x\","
		    "\"script\":\"o.sh\"}}");
	PUT(f, "o.sh", "#!/bin/sh\nprintf 'a\\000b' >&2\nexit 2\n", 0755);
	p = load(f);
	pc_exchange_init(&x);
	pc_host_run_oauth(&f->host, p, "token", NULL, &r, &x, NULL);
	assert_false(r.ok);
	RAW(r.message, "[plugins] oauth token script for 'acme' failed: oauth "
		       "script exited with exit status: 2: a\0b");
	assert_int_equal(x.log.nr, 1);
	RAW(x.log.v[0], "[plugins] oauth token script for 'acme' failed: "
			"oauth script exited with exit status: 2: a\0b");
	pc_oauth_result_release(&r);
	pc_exchange_release(&x);
	pc_plugin_free(p);
}

/* The host prints Rust's {:?} of a path holding U+0000: "h\0" - and
 * never finds a file for it, even one named with the bytes C0 80. */
static void nul_in_script_path_is_debug_quoted(void **state)
{
	struct fx *f = *state;
	char *m;

	PUT(f, "h\xc0\x80", "#!/bin/sh\n", 0755);
	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"hooks\":{"
		    "\"pre_bash\":{\"script\":\"h\\u0000\"}}}");
	m = rejection(f);
	RAW(m, "hook script \"h\\0\" does not exist");
	free(m);
	manifest(f, "{\"name\":\"p\",\"version\":\"1\","
		    "\"tools\":[{\"name\":\"t\",\"script\":\"h\\u0000\"}]}");
	m = rejection(f);
	RAW(m, "script \"h\\0\" does not exist");
	free(m);
	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"commands\":[{"
		    "\"name\":\"c\",\"prompt_file\":\"h\\u0000\"}]}");
	m = rejection(f);
	RAW(m, "prompt_file \"h\\0\" does not exist or is unreadable");
	free(m);
	manifest(f, "{\"name\":\"a/\\u0000\",\"version\":\"1\"}");
	m = rejection(f);
	RAW(m, "plugin name contains a path separator: \"a/\\0\"");
	free(m);
}

/* A NUL that is only part of a Display'd name stays a NUL. */
static void nul_in_displayed_names_stays_raw(void **state)
{
	struct fx *f = *state;
	char *m;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"tools\":[{"
		    "\"name\":\"t\\u0000\",\"script\":\"t.sh\",\"kind\":\"x\"}]}");
	PUT(f, "t.sh", "#!/bin/sh\n", 0755);
	m = rejection(f);
	RAW(m, "tool 't\0' has invalid kind 'x' (use 'readonly' or "
	       "'destructive')");
	free(m);
}

/* --- kind 2: the host's own io::Error texts ---------------------------- */

static void expect_read(const char *path, int rc, const char *msg)
{
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);

	assert_int_equal(pc_rust_read_to_string(path, &out, &m), rc);
	assert_string_equal(pc_buf_cstr(&m), msg);
	if (rc)
		assert_int_equal(out.len, 0);
	pc_buf_release(&out);
	pc_buf_release(&m);
}

static void read_to_string_has_rusts_texts(void **state)
{
	struct fx *f = *state;
	char *file = pc_fs_join(f->dir, "f"), *bad = pc_fs_join(f->dir, "b");
	char *none = pc_fs_join(f->dir, "none");

	(void)state;
	PUT(f, "f", "ok\0nul", 0644);
	PUT(f, "b", "a\xff", 0644);
	expect_read(file, 0, "");
	expect_read(f->dir, PC_EIO, "Is a directory (os error 21)");
	expect_read(none, PC_EIO, "No such file or directory (os error 2)");
	expect_read(bad, PC_EIO, "stream did not contain valid UTF-8");
	free(file);
	free(bad);
	free(none);
}

static void manifest_that_is_a_directory(void **state)
{
	struct fx *f = *state;
	char *mdir = pc_fs_join(f->dir, "plugin.json"), *m;

	assert_int_equal(pc_fs_mkdir_p(mdir, NULL), 0);
	/* exists() is true: the scan takes it (R1.4) and the load fails */
	assert_true(pc_registry_is_candidate(f->dir));
	m = rejection(f);
	RAW(m, "cannot read plugin.json: Is a directory (os error 21)");
	free(m);
	free(mdir);
}

static void manifest_io_errors(void **state)
{
	struct fx *f = *state;
	char *path = pc_fs_join(f->dir, "plugin.json"), *m;
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	PUT(f, "plugin.json", "{\"name\":\"\xc3\"}", 0644);
	m = rejection(f);
	RAW(m, "cannot read plugin.json: stream did not contain valid UTF-8");
	free(m);
	/* a socket fails at the open, as for the host */
	unlink(path);
	assert_true(strlen(path) < sizeof(a.sun_path));
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	m = rejection(f);
	RAW(m, "cannot read plugin.json: No such device or address (os error 6)");
	free(m);
	close(fd);
	/* the host would hang on a FIFO: plugcheck says so and returns */
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	m = rejection(f);
	assert_non_null(strstr(m, "cannot read plugin.json: plugcheck does not read it: it is a FIFO"));
	assert_non_null(strstr(m, "(not reproduced)"));
	free(m);
	free(path);
}

/* A directory whose plugin.json is a dangling symlink is no candidate:
 * exists() follows the link. */
static void dangling_manifest_is_no_candidate(void **state)
{
	struct fx *f = *state;
	char *path = pc_fs_join(f->dir, "plugin.json");

	assert_int_equal(symlink("nowhere.json", path), 0);
	assert_false(pc_registry_is_candidate(f->dir));
	free(path);
}

/* --- kind 3: log lines before a later load error ----------------------- */

static void unknown_hook_is_logged_before_the_load_error(void **state)
{
	struct fx *f = *state;
	struct pc_manifest_env env = { "/home/u", NULL };
	struct pc_strvec log = PC_STRVEC_INIT;
	struct pc_manifest_report rep = { .log = &log };
	struct pc_plugin *p = NULL;
	struct pc_err err = PC_ERR_INIT;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\","
		    "\"hooks\":{\"pre_foo\":{\"script\":\"h.sh\"}},"
		    "\"tools\":[{\"name\":\"t\",\"script\":\"missing.sh\"}]}");
	assert_int_equal(pc_manifest_load_report(f->dir, &env, &p, &rep, &err),
			 PC_EMANIFEST);
	assert_int_equal(log.nr, 2);
	assert_string_equal(log.v[0], "[plugins] unknown hook point 'pre_foo' "
				      "in plugin 'p'; skipping");
	assert_string_equal(log.v[1], "[plugins] failed to load plugin in "
				      "\"p\": script \"missing.sh\" does not "
				      "exist");
	assert_string_equal(err.msg, "script \"missing.sh\" does not exist");
	pc_strvec_release(&log);
}

/* The registry's and a reload's scan log carry the same lines in the same
 * order; the errors list only the R1.11 message. */
static void scans_keep_the_load_log_in_order(void **state)
{
	struct fx *f = *state;
	struct pc_registry_opts ro = { .home = NULL, .trust_project = true };
	struct pc_registry reg = PC_REGISTRY_INIT;
	struct pc_turn_rescan rs = PC_TURN_RESCAN_INIT;
	char *ws = pc_fs_join(f->root, "ws"), *pdir, *dirs[1];
	static const char *const want[] = {
		"[plugins] unknown hook point 'pre_foo' in plugin 'q'; skipping",
		"[plugins] failed to load plugin in \"q\": tool 't' has invalid "
		"kind 'x' (use 'readonly' or 'destructive')",
	};

	pdir = pc_fs_join(ws, ".catalyst-code/plugins/q");
	assert_int_equal(pc_fs_mkdir_p(pdir, NULL), 0);
	free(f->dir);
	f->dir = pdir;
	manifest(f, "{\"name\":\"q\",\"version\":\"1\","
		    "\"hooks\":{\"pre_foo\":{\"script\":\"h.sh\"}},"
		    "\"tools\":[{\"name\":\"t\",\"script\":\"h.sh\","
		    "\"kind\":\"x\"}]}");
	PUT(f, "h.sh", "#!/bin/sh\n", 0755);
	ro.workspace = ws;
	pc_registry_scan(&ro, &reg);
	assert_int_equal(reg.nr, 0);
	assert_int_equal(reg.log.nr, 2);
	assert_string_equal(reg.log.v[0], want[0]);
	assert_string_equal(reg.log.v[1], want[1]);
	assert_int_equal(reg.errors.nr, 1);
	assert_string_equal(reg.errors.v[0],
			    want[1] + strlen("[plugins] "));
	dirs[0] = pdir;
	pc_turn_rescan_dirs(dirs, 1, NULL, false, &rs);
	assert_int_equal(rs.log.nr, 2);
	assert_string_equal(rs.log.v[0], want[0]);
	assert_string_equal(rs.log.v[1], want[1]);
	pc_turn_rescan_release(&rs);
	pc_registry_release(&reg);
	free(ws);
}

/* err->msg holds 1023 bytes; the report gives the host's whole text. */
static void long_load_error_is_whole(void **state)
{
	struct fx *f = *state;
	struct pc_buf json = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf want = PC_BUF_INIT(PC_BUF_NOCAP);
	char *m;

	pc_buf_adds(&json, "{\"name\":\"p\",\"version\":\"1\",\"tools\":[{"
			   "\"name\":\"t\",\"script\":\"");
	pc_buf_adds(&want, "script \"");
	for (int i = 0; i < 3000; i++) {
		pc_buf_addch(&json, 'x');
		pc_buf_addch(&want, 'x');
	}
	pc_buf_adds(&json, "\"}]}");
	pc_buf_adds(&want, "\" does not exist");
	manifest(f, pc_buf_cstr(&json));
	m = rejection(f);
	assert_string_equal(m, pc_buf_cstr(&want));
	free(m);
	pc_buf_release(&json);
	pc_buf_release(&want);
}

/* --- kinds 4 and 5: prompt-backed commands ----------------------------- */

static struct pc_plugin *prompt_plugin(struct fx *f, const char *text,
				       size_t n)
{
	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"commands\":[{"
		    "\"name\":\"go\",\"prompt_file\":\"p.md\"}]}");
	put(f, "p.md", text, n, 0644);
	return load(f);
}

static void prompt_file_not_utf8_fails_at_the_call(void **state)
{
	struct fx *f = *state;
	struct pc_call_result r;
	struct pc_plugin *p = prompt_plugin(f, "ok", 2);
	char *want;

	/* the load checked the size only; the file changes afterwards */
	PUT(f, "p.md", "Request: \xff {{args}}", 0644);
	assert_int_equal(pc_host_render_prompt(&f->host, p, &p->commands[0],
					       "x", &r),
			 0);
	assert_false(r.ok);
	want = pc_xasprintf("prompt_file \"%s\" for command 'go' could not be "
			    "read: stream did not contain valid UTF-8",
			    p->commands[0].prompt_file);
	assert_string_equal(r.output, want);
	free(want);
	pc_call_result_release(&r);
	pc_plugin_free(p);
}

static void prompt_file_replaced_by_a_directory(void **state)
{
	struct fx *f = *state;
	struct pc_call_result r;
	struct pc_plugin *p = prompt_plugin(f, "ok", 2);
	char *want;

	assert_int_equal(unlink(p->commands[0].prompt_file), 0);
	assert_int_equal(pc_fs_mkdir_p(p->commands[0].prompt_file, NULL), 0);
	pc_host_render_prompt(&f->host, p, &p->commands[0], "x", &r);
	want = pc_xasprintf("prompt_file \"%s\" for command 'go' could not be "
			    "read: Is a directory (os error 21)",
			    p->commands[0].prompt_file);
	assert_string_equal(r.output, want);
	free(want);
	pc_call_result_release(&r);
	pc_plugin_free(p);
}

/* A NUL in the template renders whole and counts one byte toward the
 * 262144-byte cap (N-1, N, N+1 raw bytes after rendering). */
static void prompt_with_nul_renders_whole_and_caps_by_bytes(void **state)
{
	struct fx *f = *state;
	struct pc_call_result r;
	struct pc_plugin *p = prompt_plugin(f, "x\0y {{args}}", 12);
	char *text = pc_xmalloc(PC_MAX_PROMPT_BYTES + 2);

	pc_host_render_prompt(&f->host, p, &p->commands[0], "go", &r);
	assert_true(r.ok);
	RAW(r.output, "x\0y go");
	pc_call_result_release(&r);
	for (size_t n = PC_MAX_PROMPT_BYTES - 1; n <= PC_MAX_PROMPT_BYTES + 1;
	     n++) {
		memset(text, '\0', n);
		text[0] = 'a';
		put(f, "p.md", text, n, 0644);
		pc_host_render_prompt(&f->host, p, &p->commands[0], "", &r);
		assert_int_equal(r.ok, n <= PC_MAX_PROMPT_BYTES);
		if (!r.ok)
			assert_string_equal(r.output,
					    "rendered prompt for command 'go' "
					    "exceeds the 262144 byte limit");
		else
			assert_int_equal(pc_serde_text_len(r.output), n);
		pc_call_result_release(&r);
	}
	free(text);
	pc_plugin_free(p);
}

static int no_model(void *ctx, const cJSON *messages, const cJSON *tools,
		    cJSON **reply, struct pc_err *err)
{
	(void)ctx;
	(void)messages;
	(void)tools;
	(void)err;
	*reply = cJSON_CreateObject();
	cJSON_AddStringToObject(*reply, "role", "assistant");
	cJSON_AddStringToObject(*reply, "content", "done");
	return 0;
}

/* The message of the first event of `type` in t's transcript. */
static const char *message_of(const struct pc_turn *t, const char *type)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, t->transcript)
	{
		if (!strcmp(pc_serde_get(e, "type")->valuestring, type))
			return pc_serde_get(e, "message")->valuestring;
	}
	fail_msg("no %s event", type);
	return NULL;
}

static void command_sent_with_slash_keeps_it(void **state)
{
	struct fx *f = *state;
	struct pc_plugin *p = prompt_plugin(f, "{{args}}", 8);
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	struct pc_turn t = PC_TURN_INIT;
	struct pc_err err = PC_ERR_INIT;
	struct pc_call_result r;

	pc_host_render_prompt_sent(&f->host, p, &p->commands[0], "/go", " ",
				   &r);
	assert_false(r.ok);
	assert_string_equal(r.output, "//go requires a request. Usage: //go "
				      "<research request>");
	pc_call_result_release(&r);
	o.host = &f->host;
	o.plugins = &p;
	o.nplugins = 1;
	o.model = no_model;
	assert_int_equal(pc_turn_command(&t, &o, "/go", "", &err), 0);
	assert_string_equal(message_of(&t, "error"),
			    "//go requires a request. Usage: //go <research "
			    "request>");
	pc_turn_release(&t);
	assert_int_equal(pc_turn_command(&t, &o, "/go", "now", &err), 0);
	assert_string_equal(message_of(&t, "info"),
			    "//go now \xe2\x80\x94 starting agent turn");
	pc_turn_release(&t);
	assert_int_equal(pc_turn_command(&t, &o, "//go", "", &err), PC_ENOENT);
	assert_string_equal(message_of(&t, "error"),
			    "unknown plugin command '//go'");
	pc_turn_release(&t);
	pc_plugin_free(p);
}

/* --- host rules met on the way (spec R5.2, R5.3, R8.5, R8.9, §2.7) ---- */

/* std::env::var: a value that is not UTF-8 reads as unset - in the child
 * environment, for CATALYST_CODE_SHELL and for the headless probe. */
static void env_var_drops_values_that_are_not_utf8(void **state)
{
	struct fx *f = *state;
	char *env[] = { "PATH=/usr/bin:/bin", "USER=\xff", "DISPLAY=\xfe",
			"CATALYST_CODE_SHELL=\xff", "HOME=/h", NULL };
	struct pc_host h = PC_HOST_INIT;
	struct pc_hook_result r;
	struct pc_exchange x;
	struct pc_plugin *p;

	pc_host_init(&h, env, "/w", "");
	assert_string_equal(pc_host_getenv(&h, "USER"), "\xff");
	assert_null(pc_host_env_var(&h, "USER"));
	assert_string_equal(pc_host_env_var(&h, "HOME"), "/h");
	/* DISPLAY is "" to the host: with no WAYLAND_DISPLAY, headless */
	assert_true(pc_host_oauth_headless(&h));
	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"hooks\":{"
		    "\"pre_bash\":{\"script\":\"h.sh\"}}}");
	PUT(f, "h.sh", "cat >/dev/null; echo \"{\\\"allow\\\":true,"
		       "\\\"reason\\\":\\\"$USER|$HOME\\\"}\"\n", 0755);
	p = load(f);
	pc_exchange_init(&x);
	pc_host_run_hook(&h, p, PC_HOOK_PRE_BASH, "bash", NULL, NULL, &r, &x,
			 NULL);
	assert_string_equal(x.argv.v[0], "bash");
	assert_string_equal(r.reason, "|/h");
	pc_hook_result_release(&r);
	pc_exchange_release(&x);
	pc_plugin_free(p);
	pc_host_release(&h);
}

/* config::home_dir: an empty HOME is no HOME, and PathBuf::join never
 * doubles a '/' (the token and detect paths the scripts are given). */
static void empty_home_is_no_home(void **state)
{
	struct fx *f = *state;
	struct pc_manifest_env env = { "", "" };
	struct pc_err err = PC_ERR_INIT;
	struct pc_plugin *p = NULL;

	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"oauth\":{"
		    "\"provider_id\":\"x\",\"base_url\":\"u\",\"script\":\"o.sh\","
		    "\"detect_path\":\"$CODEX_HOME/auth.json\"}}");
	PUT(f, "o.sh", "#!/bin/sh\n", 0755);
	assert_int_equal(pc_manifest_load(f->dir, &env, &p, &err), 0);
	assert_string_equal(p->oauth->token_path,
			    ".config/catalyst-code/oauth/x.json");
	assert_string_equal(p->oauth->detect_path, "auth.json");
	pc_plugin_free(p);
	env.home = "/";
	env.codex_home = NULL;
	assert_int_equal(pc_manifest_load(f->dir, &env, &p, &err), 0);
	assert_string_equal(p->oauth->token_path,
			    "/.config/catalyst-code/oauth/x.json");
	assert_string_equal(p->oauth->detect_path, "/.codex/auth.json");
	pc_plugin_free(p);
	manifest(f, "{\"name\":\"p\",\"version\":\"1\",\"oauth\":{"
		    "\"provider_id\":\"x\",\"base_url\":\"u\",\"script\":\"o.sh\","
		    "\"detect_path\":\".x/a.json\"}}");
	env.home = "";
	assert_int_equal(pc_manifest_load(f->dir, &env, &p, &err),
			 PC_EMANIFEST);
	assert_string_equal(err.msg, "oauth detect_path needs HOME to be set");
}

/* R1.7.7: a skipped plugin whose plugin.json is not UTF-8 is listed under
 * its directory's name (read_to_string fails, Value::Null). */
static void skipped_plugin_with_bad_manifest_uses_the_dir_name(void **state)
{
	struct fx *f = *state;
	char *name;

	PUT(f, "plugin.json", "{\"name\":\"n\xff\"}", 0644);
	name = pc_registry_loose_name(f->dir);
	assert_string_equal(name, "p");
	free(name);
	PUT(f, "plugin.json", "{\"name\":\"n\"}", 0644);
	name = pc_registry_loose_name(f->dir);
	assert_string_equal(name, "n");
	free(name);
}

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_round_trips_nul),
		cmocka_unit_test(debug_text_writes_nul_as_backslash_zero),
		FX(hook_stderr_nul_is_quoted_whole),
		FX(tool_and_command_stdout_nul_is_output_whole),
		FX(tool_stdout_json_with_raw_nul_is_not_json),
		FX(memory_non_json_nul_is_quoted_whole),
		FX(oauth_stderr_nul_is_quoted_whole),
		FX(nul_in_script_path_is_debug_quoted),
		FX(nul_in_displayed_names_stays_raw),
		FX(read_to_string_has_rusts_texts),
		FX(manifest_that_is_a_directory),
		FX(manifest_io_errors),
		FX(dangling_manifest_is_no_candidate),
		FX(unknown_hook_is_logged_before_the_load_error),
		FX(scans_keep_the_load_log_in_order),
		FX(long_load_error_is_whole),
		FX(prompt_file_not_utf8_fails_at_the_call),
		FX(prompt_file_replaced_by_a_directory),
		FX(prompt_with_nul_renders_whole_and_caps_by_bytes),
		FX(command_sent_with_slash_keeps_it),
		FX(env_var_drops_values_that_are_not_utf8),
		FX(empty_home_is_no_home),
		FX(skipped_plugin_with_bad_manifest_uses_the_dir_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

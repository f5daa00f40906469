/* test_turn_rules.c - the turn engine against the host's composition rules
 * and caps, byte for byte (spec catalyst-code.md R4.6-R4.10, R2.15-R2.16;
 * main.rs run_pre_input / run_pre_agent_start / run_pre_context /
 * run_pre_hooks / run_post_hooks, turn_loop.rs, message.rs):
 *   - a pre_context replacement is typed as Vec<Message>, capped at 500
 *     messages, and persists into the conversation after the transient
 *     tails are popped from its end;
 *   - the pre_agent_start caps at 102400 bytes (N-1, N, N+1);
 *   - pre hooks stop at the first deny and compose modify in name order;
 *     post hooks all run, later plugins win key by key;
 *   - the tool-collision log line and the override name rule. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

#define MAXP 3

struct fx {
	char *root, *ws;
	struct pc_host host;
	struct pc_turn t;
	struct pc_turn_opts o;
	struct pc_plugin *ps[MAXP];
	size_t n;
	cJSON *replies; /* the scripted model's answers, in order */
	int next;
	cJSON *tools; /* the tool names of each request, in order */
};

static void write_file(const char *path, const char *text, size_t n,
		       mode_t mode)
{
	char *dir = pc_xstrdup(path);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(pc_fs_mkdir_p(dir, NULL), 0);
	assert_int_equal(pc_fs_write(path, text, n, NULL), 0);
	assert_int_equal(chmod(path, mode), 0);
	free(dir);
}

/* Add plugin `name` with `manifest_rest` (JSON members after name and
 * version) and the hook script hooks/<point>.sh printing `answer` for
 * each of the `k` points given as (point, answer) pairs. */
static void add(struct fx *f, const char *name, const char *manifest_rest,
		int k, ...)
{
	char *dir = pc_fs_join(f->root, name), *mf = pc_fs_join(dir, "plugin.json");
	struct pc_buf hooks = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_manifest_env env = { NULL, NULL };
	struct pc_err err = PC_ERR_INIT;
	char *json;
	va_list ap;

	va_start(ap, k);
	for (int i = 0; i < k; i++) {
		const char *point = va_arg(ap, const char *);
		const char *answer = va_arg(ap, const char *);
		char *rel = pc_xasprintf("hooks/%s.sh", point);
		char *path = pc_fs_join(dir, rel);
		char *body = pc_xasprintf("#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n%s\nEOF\n",
					  answer);

		write_file(path, body, strlen(body), 0755);
		pc_buf_addf(&hooks, "%s\"%s\":{\"script\":\"%s\",\"pass_args\":true}",
			    i ? "," : "", point, rel);
		free(rel);
		free(path);
		free(body);
	}
	va_end(ap);
	json = pc_xasprintf("{\"name\":\"%s\",\"version\":\"1\",\"hooks\":{%s}%s%s}",
			    name, pc_buf_cstr(&hooks),
			    manifest_rest ? "," : "",
			    manifest_rest ? manifest_rest : "");
	write_file(mf, json, strlen(json), 0644);
	assert_true(f->n < MAXP);
	if (pc_manifest_load(dir, &env, &f->ps[f->n], &err))
		fail_msg("load %s: %s", name, err.msg);
	f->n++;
	f->o.nplugins = f->n;
	free(json);
	free(mf);
	free(dir);
	pc_buf_release(&hooks);
}

static int model(void *ctx, const cJSON *messages, const cJSON *tools,
		 cJSON **reply, struct pc_err *err)
{
	struct fx *f = ctx;
	const cJSON *r = cJSON_GetArrayItem(f->replies, f->next++);
	cJSON *names = cJSON_CreateArray();
	const cJSON *t;

	(void)messages;
	(void)err;
	cJSON_ArrayForEach(t, tools)
	{
		const cJSON *fn = pc_serde_get(t, "function");

		cJSON_AddItemToArray(
			names, cJSON_CreateString(
				       pc_serde_get(fn, "name")->valuestring));
	}
	cJSON_AddItemToArray(f->tools, names);
	if (r) {
		*reply = cJSON_Duplicate(r, 1);
	} else {
		*reply = cJSON_CreateObject();
		cJSON_AddStringToObject(*reply, "role", "assistant");
		cJSON_AddStringToObject(*reply, "content", "done");
	}
	return 0;
}

static int setup(void **state)
{
	struct fx *f = pc_xcalloc(1, sizeof(*f));
	char *env[] = { "PATH=/usr/bin:/bin", NULL };

	f->root = pc_fs_mkdtemp("turnrules");
	f->ws = pc_fs_join(f->root, "ws");
	pc_fs_mkdir_p(f->ws, NULL);
	f->host = (struct pc_host)PC_HOST_INIT;
	pc_host_init(&f->host, env, f->ws, "");
	f->host.timestamp = 1700000000;
	f->t = (struct pc_turn)PC_TURN_INIT;
	f->o = (struct pc_turn_opts)PC_TURN_OPTS_INIT;
	f->o.host = &f->host;
	f->o.plugins = f->ps;
	f->o.model = model;
	f->o.model_ctx = f;
	f->replies = cJSON_CreateArray();
	f->tools = cJSON_CreateArray();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pc_turn_release(&f->t);
	pc_host_release(&f->host);
	for (size_t i = 0; i < f->n; i++)
		pc_plugin_free(f->ps[i]);
	cJSON_Delete(f->replies);
	cJSON_Delete(f->tools);
	pc_fs_rm_rf(f->root);
	free(f->root);
	free(f->ws);
	free(f);
	return 0;
}

static void reply(struct fx *f, const char *json)
{
	cJSON *v = NULL;

	assert_int_equal(pc_serde_parse(json, strlen(json), &v, NULL), 0);
	cJSON_AddItemToArray(f->replies, v);
}

static char *json_of(const cJSON *v)
{
	return pc_serde_to_string(v);
}

static void expect_json(const cJSON *v, const char *want)
{
	char *s = json_of(v);

	assert_string_equal(s, want);
	free(s);
}

/* The nth event of `type` (0-based), or NULL. */
static const cJSON *nth(const struct fx *f, const char *type, int n)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, f->t.transcript)
	{
		if (!strcmp(pc_serde_get(e, "type")->valuestring, type) && !n--)
			return e;
	}
	return NULL;
}

static int count(const struct fx *f, const char *type)
{
	int n = 0;

	while (nth(f, type, n))
		n++;
	return n;
}

/* Forget the last turn and the last plugin added, for the next case. */
static void drop_last(struct fx *f)
{
	pc_turn_release(&f->t);
	pc_plugin_free(f->ps[--f->n]);
	f->o.nplugins = f->n;
}

static void run(struct fx *f, const char *text)
{
	struct pc_err err = PC_ERR_INIT;

	assert_int_equal(pc_turn_run(&f->t, &f->o, text, &err), 0);
}

/* --- pre_context ------------------------------------------------------- */

/* turn_loop.rs: the transient tails (here the pre_agent_start fragment)
 * come off the END of the buffer pre_context left - so its last message
 * goes - the assistant is pushed and the buffer is the conversation from
 * then on, for the next request and the next turn. */
static void pre_context_replacement_persists(void **state)
{
	struct fx *f = *state;

	add(f, "p", NULL, 2, "pre_agent_start",
	    "{\"allow\":true,\"modify\":{\"append_system_prompt\":\"T\"}}",
	    "pre_context",
	    "{\"allow\":true,\"modify\":{\"messages\":[{\"role\":\"system\","
	    "\"content\":\"S\"},{\"role\":\"user\",\"content\":\"U\"}]}}");
	reply(f, "{\"role\":\"assistant\",\"content\":\"one\"}");
	run(f, "hi");
	expect_json(pc_serde_get(nth(f, "request", 0), "messages"),
		    "[{\"content\":\"S\",\"role\":\"system\"},"
		    "{\"content\":\"U\",\"role\":\"user\"}]");
	expect_json(f->t.conversation,
		    "[{\"content\":\"S\",\"role\":\"system\"},"
		    "{\"content\":\"one\",\"role\":\"assistant\"}]");
}

/* Vec<Message>: unknown keys dropped, null Options left out, tool-call
 * defaults filled in, non-string arguments and content re-serialized. */
static void pre_context_messages_are_typed(void **state)
{
	struct fx *f = *state;

	add(f, "p", NULL, 1, "pre_context",
	    "{\"allow\":true,\"modify\":{\"messages\":["
	    "{\"role\":\"system\",\"content\":\"s\",\"name\":null,\"x\":1},"
	    "{\"role\":1,\"content\":[{\"type\":\"text\",\"text\":\"t\"},"
	    "{\"type\":\"image_url\",\"image_url\":{\"url\":\"u\"}}]},"
	    "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":"
	    "[{\"function\":{\"name\":\"f\",\"arguments\":{\"b\":1}}}]},"
	    "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
	    "\"text\":\"a\"},{\"type\":\"image_url\"},{\"type\":\"x\"}]},"
	    "{\"role\":\"assistant\",\"content\":{\"k\":2}},"
	    "{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"r\"}]}}");
	run(f, "hi");
	expect_json(pc_serde_get(nth(f, "request", 0), "messages"),
		    "[{\"content\":\"s\",\"role\":\"system\"},"
		    "{\"content\":[{\"text\":\"t\",\"type\":\"text\"},"
		    "{\"image_url\":{\"url\":\"u\"},\"type\":\"image_url\"}],"
		    "\"role\":\"user\"},"
		    "{\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
		    "{\"arguments\":\"{\\\"b\\\":1}\",\"name\":\"f\"},\"id\":\"\","
		    "\"type\":\"\"}]},"
		    "{\"content\":\"a\\n[image]\",\"role\":\"assistant\"},"
		    "{\"content\":\"{\\\"k\\\":2}\",\"role\":\"assistant\"},"
		    "{\"content\":\"r\",\"role\":\"tool\",\"tool_call_id\":\"c\"}]");
	assert_int_equal(count(f, "log"), 0);
}

/* Shapes serde refuses: the whole modify is ignored with the host's line. */
static void pre_context_refused_shapes(void **state)
{
	struct fx *f = *state;
	static const char *const bad[] = {
		"[{\"role\":\"bot\",\"content\":\"x\"}]",
		"[{\"role\":\"user\"}]",
		"[{\"role\":\"user\",\"content\":null}]",
		"[{\"role\":\"tool\",\"content\":\"r\"}]",
		"[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":null,"
		"\"function\":{}}]}]",
		"[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\"}]}]",
		"[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]",
		"[{\"role\":4,\"content\":\"x\"}]",
		"[\"user\"]",
		"{\"role\":\"user\",\"content\":\"x\"}",
		"null",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *answer = pc_xasprintf(
			"{\"allow\":true,\"modify\":{\"messages\":%s}}", bad[i]);
		const cJSON *log;

		add(f, "p", NULL, 1, "pre_context", answer);
		run(f, "hi");
		log = nth(f, "log", 0);
		assert_non_null(log);
		assert_string_equal(pc_serde_get(log, "line")->valuestring,
				    "[plugins] pre_context modify.messages "
				    "from 'p' failed schema validation; "
				    "ignored");
		/* the request went out with the list as it was */
		assert_string_equal(
			pc_serde_get(cJSON_GetArrayItem(pc_serde_get(nth(f, "request", 0), "messages"), 1), "content")->valuestring,
			"hi");
		drop_last(f);
		free(answer);
	}
}

/* 500 messages replace the list; 501 are refused with the host's line. */
static void pre_context_message_cap(void **state)
{
	struct fx *f = *state;

	for (int n = 499; n <= 501; n++) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
		const cJSON *log;
		char *want;

		pc_buf_adds(&b, "{\"allow\":true,\"modify\":{\"messages\":[");
		for (int i = 0; i < n; i++)
			pc_buf_addf(&b, "%s{\"role\":\"user\",\"content\":\"m\"}",
				    i ? "," : "");
		pc_buf_adds(&b, "]}}");
		add(f, "p", NULL, 1, "pre_context", pc_buf_cstr(&b));
		run(f, "hi");
		log = nth(f, "log", 0);
		if (n <= 500) {
			assert_null(log);
			assert_int_equal(cJSON_GetArraySize(pc_serde_get(
						 nth(f, "request", 0), "messages")),
					 n);
		} else {
			want = pc_xasprintf("[plugins] pre_context modify.messages from 'p' has %d msgs (max 500); ignored",
					    n);
			assert_string_equal(pc_serde_get(log, "line")->valuestring,
					    want);
			free(want);
			assert_int_equal(cJSON_GetArraySize(pc_serde_get(
						 nth(f, "request", 0), "messages")),
					 2);
		}
		drop_last(f);
		pc_buf_release(&b);
	}
}

/* A message list over 8 MiB serialized skips every pre_context hook
 * (checked before each hook, pass_args or not): N fires, N+1 does not. */
static void pre_context_payload_cap(void **state)
{
	struct fx *f = *state;
	const size_t cap = (size_t)8 << 20;
	char *probe;
	size_t base;

	add(f, "p", NULL, 1, "pre_context", "{\"allow\":true}");
	f->ps[0]->hooks[PC_HOOK_PRE_CONTEXT].pass_args = false;
	/* the serialized list with an empty user text */
	run(f, "");
	probe = json_of(pc_serde_get(nth(f, "request", 0), "messages"));
	base = strlen(probe);
	free(probe);
	pc_turn_release(&f->t);
	for (size_t want = cap; want <= cap + 1; want++) {
		char *text = pc_xmalloc(want - base + 1);
		const cJSON *log;
		char *line;

		memset(text, 'a', want - base);
		text[want - base] = '\0';
		run(f, text);
		log = nth(f, "log", 0);
		if (want == cap) {
			assert_null(log);
			assert_int_equal(count(f, "hook"), 1);
		} else {
			line = pc_xasprintf("[plugins] pre_context: messages payload (%zu bytes) exceeds cap; skipping hooks",
					    want);
			assert_string_equal(pc_serde_get(log, "line")->valuestring,
					    line);
			free(line);
			assert_int_equal(count(f, "hook"), 0);
		}
		pc_turn_release(&f->t);
		free(text);
	}
}

/* --- pre_agent_start --------------------------------------------------- */

/* R4.6: system_prompt and append_system_prompt are capped at 102400 bytes
 * (a NUL counts one byte): N-1 and N are used, N+1 is logged and dropped. */
static void pre_agent_start_caps(void **state)
{
	struct fx *f = *state;
	const size_t cap = 102400;

	for (size_t n = cap - 1; n <= cap + 1; n++) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
		const cJSON *msgs, *log;

		pc_buf_adds(&b, "{\"allow\":true,\"modify\":{\"system_prompt\":\"\\u0000");
		for (size_t i = 1; i < n; i++)
			pc_buf_addch(&b, 'r');
		pc_buf_adds(&b, "\",\"append_system_prompt\":\"\\u0000");
		for (size_t i = 1; i < n; i++)
			pc_buf_addch(&b, 'a');
		pc_buf_adds(&b, "\"}}");
		add(f, "p", NULL, 1, "pre_agent_start", pc_buf_cstr(&b));
		run(f, "hi");
		msgs = pc_serde_get(nth(f, "request", 0), "messages");
		log = nth(f, "log", 0);
		if (n <= cap) {
			const char *frag = pc_serde_get(cJSON_GetArrayItem(msgs, 2),
							"content")
						   ->valuestring;

			assert_null(log);
			assert_int_equal(cJSON_GetArraySize(msgs), 3);
			/* replacement, "\n\n", "# Plugin: p\n" + append */
			assert_int_equal(pc_serde_text_len(frag),
					 n + 2 + strlen("# Plugin: p\n") + n);
		} else {
			assert_int_equal(cJSON_GetArraySize(msgs), 2);
			assert_string_equal(pc_serde_get(log, "line")->valuestring,
					    "[plugins] pre_agent_start modify.system_prompt from 'p' exceeds cap; ignored");
			assert_string_equal(pc_serde_get(nth(f, "log", 1), "line")->valuestring,
					    "[plugins] pre_agent_start modify.append_system_prompt from 'p' exceeds cap; ignored");
		}
		drop_last(f);
		pc_buf_release(&b);
	}
}

/* A later system_prompt replaces what came before and drops the earlier
 * appends; an empty append adds nothing. */
static void pre_agent_start_composes_in_name_order(void **state)
{
	struct fx *f = *state;

	add(f, "b", NULL, 1, "pre_agent_start",
	    "{\"modify\":{\"system_prompt\":\"R\",\"append_system_prompt\":\"B\"}}");
	add(f, "a", NULL, 1, "pre_agent_start",
	    "{\"modify\":{\"append_system_prompt\":\"A\"}}");
	add(f, "c", NULL, 1, "pre_agent_start",
	    "{\"modify\":{\"append_system_prompt\":\"\"}}");
	run(f, "hi");
	assert_string_equal(
		pc_serde_get(cJSON_GetArrayItem(pc_serde_get(nth(f, "request", 0),
							     "messages"),
						2),
			     "content")
			->valuestring,
		"R\n\n# Plugin: b\nB");
}

/* --- pre_input --------------------------------------------------------- */

/* modify.text must be a string to replace the text; later plugins see the
 * replaced text. (The 1 MiB cap on modify.text cannot be reached: the
 * hook's stdout is capped at 1 MiB and the JSON around the text is more.) */
static void pre_input_replaces_text_in_name_order(void **state)
{
	struct fx *f = *state;

	add(f, "a", NULL, 1, "pre_input",
	    "{\"allow\":true,\"modify\":{\"text\":\"x\\u0000y\"}}");
	add(f, "b", NULL, 1, "pre_input",
	    "{\"allow\":true,\"modify\":{\"text\":5}}");
	run(f, "hi");
	expect_json(pc_serde_get(cJSON_GetArrayItem(f->t.conversation, 1),
				 "content"),
		    "\"x\\u0000y\"");
}

/* --- tool hooks -------------------------------------------------------- */

static const char bash_call[] =
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":"
	"\"c1\",\"type\":\"function\",\"function\":{\"name\":\"bash\","
	"\"arguments\":\"{\\\"command\\\":\\\"echo hi\\\"}\"}}]}";

static const char *tool_output(const struct fx *f)
{
	return pc_serde_get(nth(f, "tool_result", 0), "output")->valuestring;
}

/* R4.8: the first deny stops the later plugins; its text discards the
 * notes; modify composes before it. */
static void pre_hooks_stop_at_the_first_deny(void **state)
{
	struct fx *f = *state;

	add(f, "a", NULL, 1, "pre_bash",
	    "{\"allow\":true,\"reason\":\"ra\",\"modify\":{\"command\":\"x\"}}");
	add(f, "b", NULL, 1, "pre_bash", "{\"allow\":false,\"reason\":\"rb\"}");
	add(f, "c", NULL, 1, "pre_bash", "{\"allow\":true}");
	reply(f, bash_call);
	run(f, "hi");
	assert_string_equal(tool_output(f),
			    "tool call 'bash' denied by plugin 'b' hook "
			    "'pre_bash': rb");
	assert_int_equal(count(f, "hook"), 2);
	/* b saw a's modify */
	assert_string_equal(pc_serde_get(nth(f, "hook", 1), "plugin")->valuestring,
			    "b");
}

/* R4.9: every post hook runs; later plugins win key by key; a failing
 * post hook's "[P] " reason is a note; diff null clears. */
static void post_hooks_compose_and_surface_failures(void **state)
{
	struct fx *f = *state;

	add(f, "a", NULL, 1, "post_bash",
	    "{\"reason\":\"ra\",\"modify\":{\"output\":\"A\",\"ok\":false}}");
	add(f, "b", NULL, 1, "post_bash", "not json");
	add(f, "c", NULL, 1, "post_bash",
	    "{\"modify\":{\"output\":\"C\",\"ok\":\"no\",\"diff\":null}}");
	reply(f, bash_call);
	run(f, "hi");
	assert_string_equal(tool_output(f),
			    "C\n\nPlugin hooks:\n- a/post_bash: [a] ra\n"
			    "- b/post_bash: [b] hook 'post_bash' returned "
			    "invalid JSON: expected ident at line 1 column 2");
	assert_false(cJSON_IsTrue(pc_serde_get(nth(f, "tool_result", 0), "ok")));
}

/* --- the tool list ----------------------------------------------------- */

static bool offered(const struct fx *f, const char *name, int *times)
{
	cJSON *defs = pc_turn_tool_defs(&f->o, NULL);
	const cJSON *d;

	*times = 0;
	cJSON_ArrayForEach(d, defs)
	{
		if (!strcmp(pc_serde_get(pc_serde_get(d, "function"), "name")
				    ->valuestring,
			    name))
			(*times)++;
	}
	cJSON_Delete(defs);
	return *times > 0;
}

/* R2.15/R2.16, turn_loop.rs: `override` is decided by name - once an
 * enabled plugin overrides a built-in, every tool of that name is added
 * (no collision line); without one, a built-in name collides. */
static void override_claims_the_name(void **state)
{
	struct fx *f = *state;
	struct pc_strvec log = PC_STRVEC_INIT;
	cJSON *defs;
	int times;

	add(f, "a", "\"tools\":[{\"name\":\"bash\",\"script\":\"hooks/x.sh\"}]",
	    1, "x", "{}");
	add(f, "b", "\"tools\":[{\"name\":\"bash\",\"script\":\"hooks/x.sh\","
		    "\"override\":true}]",
	    1, "x", "{}");
	assert_true(offered(f, "bash", &times));
	assert_int_equal(times, 2);
	defs = pc_turn_tool_defs(&f->o, &log);
	assert_int_equal(log.nr, 0);
	cJSON_Delete(defs);
	f->ps[1]->enabled = false;
	defs = pc_turn_tool_defs(&f->o, &log);
	assert_int_equal(log.nr, 1);
	assert_string_equal(log.v[0], "[plugins] tool 'bash' collides with a "
				      "built-in or already-registered tool; "
				      "skipping");
	cJSON_Delete(defs);
	assert_true(offered(f, "bash", &times));
	assert_int_equal(times, 1);
	pc_strvec_release(&log);
}

/* --- vision handoff (turn_loop.rs around pre_turn) --------------------- */

static const char *info(const struct fx *f, int n)
{
	const cJSON *e = nth(f, "info", n);

	return e ? pc_serde_get(e, "message")->valuestring : NULL;
}

/* No plugin switched a model without vision: the host switches to its
 * recommendation itself; the switch lasts the turn. Vision handoff off:
 * the host's notice and no pre_turn. */
static void vision_fallback_and_notice(void **state)
{
	struct fx *f = *state;

	add(f, "p", NULL, 1, "pre_turn", "{\"allow\":true}");
	f->o.images = 1;
	f->o.vision = true;
	run(f, "look");
	assert_int_equal(count(f, "hook"), 1);
	assert_string_equal(info(f, 0), "vision handoff: mock-model \xe2\x86\x92 "
					"mock-vision (cheapest same-provider)");
	assert_string_equal(pc_serde_get(nth(f, "request", 0), "model")->valuestring,
			    "mock-vision");
	/* the next turn starts from the client's model again */
	f->o.images = 0;
	run(f, "again");
	assert_string_equal(pc_serde_get(nth(f, "request", 1), "model")->valuestring,
			    "mock-model");
	pc_turn_release(&f->t);
	f->o.images = 1;
	f->o.vision = false;
	run(f, "look");
	assert_int_equal(count(f, "hook"), 0);
	assert_string_equal(info(f, 0),
			    "image attached but vision handoff is disabled and "
			    "'mock-model' lacks vision; enable it in Settings / "
			    "/vision (recommended), or pick a vision model");
	assert_string_equal(pc_serde_get(nth(f, "request", 0), "model")->valuestring,
			    "mock-model");
}

/* --- the writers pre_write never sees (R4.6, R12.1.2; tools.rs) ---- */

/* patch, rename, bulk_write and bulk_edit write for real with the host's
 * argument shapes and texts; only pre_tool sees them, so a pre_write that
 * denies everything does not stop one (issue 16). */
static void writers_without_pre_write(void **state)
{
	struct fx *f = *state;
	char *a = pc_fs_join(f->ws, "a.txt"), *b = pc_fs_join(f->ws, "b.txt");
	char *moved = pc_fs_join(f->ws, "d/m.txt");
	struct pc_buf got = PC_BUF_INIT(1 << 16);
	static const char *const want[] = {
		"applied patch to a.txt (8 -> 8 bytes)",
		"patch failed: removal mismatch at line 1: \"nope\" not found",
		"patch failed: zero-count hunk insertion position 9 is past end of file (2)",
		"applied patch to n.txt (0 -> 7 bytes)",
		"[0] b.txt: wrote 1 bytes to b.txt\n[1] error: missing 'path'\n[2] c: error: 'content' must be a string",
		"### [0] a.txt\napplied 1 edit(s)\n\n### [1] zz\nerror: missing 'edits' array",
		"renamed b.txt \xe2\x86\x92 d/m.txt",
		"rename \"gone\" failed: source does not exist",
		"patch requires 'path' and 'patch'",
	};

	add(f, "p", NULL, 2, "pre_write", "{\"allow\":false}", "pre_tool",
	    "{\"allow\":true}");
	write_file(a, "one\ntwo\n", 8, 0644);
	reply(f, "{\"role\":\"assistant\",\"tool_calls\":["
		 "{\"id\":\"1\",\"type\":\"function\",\"function\":{\"name\":\"patch\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\",\\\"patch\\\":\\\"@@ -1,2 +1,2 @@\\\\n-one\\\\n+ONE\\\\n two\\\\n\\\"}\"}},"
		 "{\"id\":\"2\",\"type\":\"function\",\"function\":{\"name\":\"patch\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\",\\\"patch\\\":\\\"@@ -1 +1 @@\\\\n-nope\\\\n+x\\\\n\\\"}\"}},"
		 "{\"id\":\"3\",\"type\":\"function\",\"function\":{\"name\":\"patch\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\",\\\"patch\\\":\\\"@@ -9,0 +9 @@\\\\n+x\\\\n\\\"}\"}},"
		 "{\"id\":\"4\",\"type\":\"function\",\"function\":{\"name\":\"patch\",\"arguments\":\"{\\\"path\\\":\\\"n.txt\\\",\\\"patch\\\":\\\"@@ -0,0 +1,2 @@\\\\n+one\\\\n+two\\\"}\"}},"
		 "{\"id\":\"5\",\"type\":\"function\",\"function\":{\"name\":\"bulk_write\",\"arguments\":\"{\\\"files\\\":[{\\\"path\\\":\\\"b.txt\\\",\\\"content\\\":\\\"B\\\"},{\\\"content\\\":\\\"x\\\"},{\\\"path\\\":\\\"c\\\",\\\"content\\\":1}]}\"}},"
		 "{\"id\":\"6\",\"type\":\"function\",\"function\":{\"name\":\"bulk_edit\",\"arguments\":\"{\\\"edits\\\":[{\\\"path\\\":\\\"a.txt\\\",\\\"edits\\\":[{\\\"search\\\":\\\"ONE\\\",\\\"replace\\\":\\\"1\\\"}]},{\\\"path\\\":\\\"zz\\\"}]}\"}},"
		 "{\"id\":\"7\",\"type\":\"function\",\"function\":{\"name\":\"rename\",\"arguments\":\"{\\\"from\\\":\\\"b.txt\\\",\\\"to\\\":\\\"d/m.txt\\\"}\"}},"
		 "{\"id\":\"8\",\"type\":\"function\",\"function\":{\"name\":\"rename\",\"arguments\":\"{\\\"from\\\":\\\"gone\\\",\\\"to\\\":\\\"x\\\"}\"}},"
		 "{\"id\":\"9\",\"type\":\"function\",\"function\":{\"name\":\"patch\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\"}\"}}]}");
	run(f, "write");
	for (int i = 0; i < 9; i++)
		assert_string_equal(
			pc_serde_get(nth(f, "tool_result", i), "output")->valuestring,
			want[i]);
	/* 9 calls, 9 pre_tool firings, never pre_write */
	assert_int_equal(count(f, "hook"), 9);
	assert_int_equal(pc_fs_read_capped(a, &got, NULL), 0);
	assert_string_equal(pc_buf_cstr(&got), "1\ntwo\n");
	pc_buf_reset(&got);
	assert_int_equal(pc_fs_read_capped(moved, &got, NULL), 0);
	assert_string_equal(pc_buf_cstr(&got), "B");
	assert_false(pc_fs_is_file(b));
	pc_buf_release(&got);
	free(a);
	free(b);
	free(moved);
}

/* --- the subagent tool (subagent.rs; R2.18, R4.6) ---------------------- */

/* A reply calling `name` with the JSON text `args`. */
static void call(struct fx *f, const char *id, const char *name,
		 const char *args)
{
	cJSON *r = cJSON_CreateObject(), *calls, *c, *fn;

	cJSON_AddStringToObject(r, "role", "assistant");
	cJSON_AddNullToObject(r, "content");
	calls = cJSON_AddArrayToObject(r, "tool_calls");
	c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "id", id);
	cJSON_AddStringToObject(c, "type", "function");
	fn = cJSON_AddObjectToObject(c, "function");
	cJSON_AddStringToObject(fn, "name", name);
	cJSON_AddStringToObject(fn, "arguments", args);
	cJSON_AddItemToArray(calls, c);
	cJSON_AddItemToArray(f->replies, r);
}

static void say(struct fx *f, const char *text)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "role", "assistant");
	cJSON_AddStringToObject(r, "content", text);
	cJSON_AddItemToArray(f->replies, r);
}

static void expect_hooks(const struct fx *f, const char *want)
{
	cJSON *l = pc_turn_hook_list(&f->t);

	expect_json(l, want);
	cJSON_Delete(l);
}

static const char *field(const cJSON *e, const char *k)
{
	const cJSON *v = pc_serde_get(e, k);

	assert_non_null(v);
	return v->valuestring;
}

/* pre_tool sees the subagent call itself: a deny refuses it before any
 * child runs (the main loop's refusal text, R4.8). */
static void subagent_pre_tool_deny(void **state)
{
	struct fx *f = *state;

	add(f, "p", NULL, 1, "pre_tool",
	    "{\"allow\":false,\"reason\":\"no delegation\"}");
	call(f, "c1", "subagent", "{\"agent\":\"scout\",\"task\":\"look\"}");
	say(f, "ok");
	run(f, "hi");
	expect_hooks(f, "[\"pre_tool p subagent deny\"]");
	assert_string_equal(field(nth(f, "tool_result", 0), "output"),
			    "tool call 'subagent' denied by plugin 'p' hook "
			    "'pre_tool': no delegation");
	assert_null(nth(f, "subagent_start", 0));
	assert_int_equal(count(f, "request"), 2);
}

/* A modify on the subagent call is the child's input (R4.10, shallow):
 * here another agent (worker: a fork by default) and task. */
static void subagent_pre_tool_modify(void **state)
{
	struct fx *f = *state;
	const cJSON *req, *msgs;

	add(f, "p", NULL, 1, "pre_tool",
	    "{\"allow\":true,\"modify\":{\"agent\":\"worker\",\"task\":\"T2\"}}");
	call(f, "c1", "subagent", "{\"agent\":\"scout\",\"task\":\"look\"}");
	say(f, "child");
	say(f, "parent");
	run(f, "hi");
	assert_string_equal(field(nth(f, "subagent_start", 0), "agent"),
			    "worker");
	assert_string_equal(field(nth(f, "subagent_start", 0), "task"), "T2");
	req = nth(f, "request", 1);
	assert_string_equal(field(req, "run_id"), "run-1");
	msgs = pc_serde_get(req, "messages");
	/* system, the fork notice, the parent's user message, the task */
	assert_int_equal(cJSON_GetArraySize(msgs), 4);
	assert_string_equal(field(cJSON_GetArrayItem(msgs, 2), "content"),
			    "hi");
	assert_string_equal(field(cJSON_GetArrayItem(msgs, 3), "content"),
			    "Task:\nT2");
	assert_string_equal(field(nth(f, "tool_result", 0), "output"), "child");
	assert_string_equal(field(nth(f, "subagent_done", 0), "state"),
			    "completed");
}

/* Inside the child: the specific pre hook, then pre_tool (which sees its
 * modify), the built-in, the specific post hook, post_tool; finish gets
 * no pre_tool but post_tool; then post_tool on subagent in the parent. */
static void subagent_hooks_fire_in_the_child(void **state)
{
	struct fx *f = *state;
	const cJSON *pt;

	add(f, "p", NULL, 4, "pre_bash",
	    "{\"allow\":true,\"modify\":{\"command\":\"echo modified\"}}",
	    "pre_tool", "{\"allow\":true}", "post_bash", "{\"allow\":true}",
	    "post_tool", "{\"allow\":true}");
	call(f, "c1", "subagent", "{\"agent\":\"scout\",\"task\":\"look\"}");
	call(f, "c2", "bash", "{\"command\":\"echo original\"}");
	call(f, "c3", "finish", "{}");
	say(f, "parent");
	run(f, "hi");
	expect_hooks(f, "[\"pre_tool p subagent\",\"pre_bash p bash\","
			"\"pre_tool p bash\",\"post_bash p bash\","
			"\"post_tool p bash\",\"post_tool p finish\","
			"\"post_tool p subagent\"]");
	pt = nth(f, "hook", 2);
	assert_string_equal(field(pt, "run_id"), "run-1");
	assert_null(pc_serde_get(nth(f, "hook", 0), "run_id"));
	assert_string_equal(field(nth(f, "subagent_tool_result", 0), "result"),
			    "modified\n");
	assert_string_equal(field(nth(f, "subagent_tool_result", 1), "result"),
			    "This turn has finished");
	/* the child's last prose is empty: no summary written */
	assert_string_equal(field(nth(f, "tool_result", 0), "output"),
			    "(step finished with no written summary)");
}

/* R2.18: a plugin's tools, overrides and disable_tools do not reach the
 * child: it calls the built-in bash the plugin disabled and overrode,
 * and the plugin tool is outside the agent's schema. */
static void subagent_ignores_plugin_tools(void **state)
{
	struct fx *f = *state;
	cJSON *defs;
	const cJSON *d;
	int bash = 0;

	add(f, "p",
	    "\"disable_tools\":[\"bash\"],\"tools\":[{\"name\":\"bash\","
	    "\"script\":\"hooks/x.sh\",\"override\":true},{\"name\":\"note\","
	    "\"script\":\"hooks/x.sh\"}]",
	    1, "x", "{\"output\":\"from plugin\"}");
	call(f, "c1", "subagent", "{\"agent\":\"scout\",\"task\":\"t\"}");
	call(f, "c2", "bash", "{\"command\":\"echo built-in\"}");
	call(f, "c3", "note", "{}");
	say(f, "child");
	say(f, "parent");
	run(f, "hi");
	/* the child's schema: the scout's built-ins plugcheck runs, none of
	 * the plugin's (memory, intercom, contact_supervisor are not run) */
	expect_json(cJSON_GetArrayItem(f->tools, 1),
		    "[\"read_file\",\"grep\",\"glob\",\"list_dir\",\"bash\","
		    "\"write_file\",\"finish\"]");
	assert_string_equal(field(nth(f, "subagent_tool_result", 0), "result"),
			    "built-in\n");
	assert_string_equal(
		field(nth(f, "subagent_tool_result", 1), "result"),
		"tool 'note' is not available to agent 'scout' (not "
		"in its tool schema). Declare it in the agent's "
		"tools: frontmatter if needed.");
	/* the main agent has neither bash (disabled) nor the built-in */
	defs = pc_turn_tool_defs(&f->o, NULL);
	cJSON_ArrayForEach(d, defs)
	{
		bash += !strcmp(
			pc_serde_get(pc_serde_get(d, "function"), "name")
				->valuestring,
			"bash");
	}
	assert_int_equal(bash, 0);
	cJSON_Delete(defs);
}

/* A post_tool reason on finish is a note, so the result is no longer the
 * sentinel and the child goes on (dispatch_subagent_tool, then the
 * sentinel test in run_agent_inner). */
static void subagent_finish_with_a_note_goes_on(void **state)
{
	struct fx *f = *state;

	add(f, "p", NULL, 1, "post_tool",
	    "{\"allow\":true,\"reason\":\"seen\"}");
	call(f, "c1", "subagent", "{\"agent\":\"scout\",\"task\":\"t\"}");
	call(f, "c2", "finish", "{}");
	say(f, "second answer");
	say(f, "parent");
	run(f, "hi");
	assert_string_equal(
		field(nth(f, "subagent_tool_result", 0), "result"),
		"__finish__\n\nPlugin hooks:\n- p/post_tool: [p] seen");
	assert_int_equal(count(f, "request"), 4);
	assert_string_equal(
		field(nth(f, "tool_result", 0), "output"),
		"second answer\n\nPlugin hooks:\n- p/post_tool: [p] "
		"seen");
}

/* The refusals of execute, and the depth guard read from
 * CATALYST_CODE_SUBAGENT_MAX_DEPTH (a Rust u32; else 2): at 1 the call at
 * depth 0 runs, at 0 it is blocked. */
static void subagent_refusals_and_depth(void **state)
{
	struct fx *f = *state;
	static const struct {
		const char *env, *args, *want;
	} cases[] = {
		{ NULL, "{\"agent\":\"nobody\"}",
		  "unknown agent 'nobody'; use action:\"list\" to discover "
		  "agents" },
		{ NULL, "{}",
		  "subagent requires 'agent'+'task', 'tasks', 'chain', or "
		  "'action'" },
		{ NULL, "{\"agent\":null,\"prompt\":\"p\"}",
		  "subagent requires 'agent'+'task', 'tasks', 'chain', or "
		  "'action'" },
		{ NULL, "{\"action\":\"nope\"}",
		  "unknown action 'nope'; use list|get|create|update|delete|"
		  "status|interrupt|resume|peek|steer|doctor" },
		{ NULL, "{\"agent\":\"scout\",\"worktree\":true}",
		  "worktree:true requires a git repository; use hybrid "
		  "checkpoints for non-git workspaces" },
		{ "0", "{\"agent\":\"scout\"}",
		  "subagent nesting blocked at depth 0 (max 0); complete the "
		  "current task directly" },
		{ "+0", "{\"agent\":\"scout\"}",
		  "subagent nesting blocked at depth 0 (max 0); complete the "
		  "current task directly" },
		{ "1", "{\"agent\":\"scout\"}", "child" },
		{ "x", "{\"agent\":\"scout\"}", "child" },
		{ "4294967296", "{\"agent\":\"scout\"}", "child" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].env)
			setenv("CATALYST_CODE_SUBAGENT_MAX_DEPTH", cases[i].env,
			       1);
		else
			unsetenv("CATALYST_CODE_SUBAGENT_MAX_DEPTH");
		pc_turn_release(&f->t);
		cJSON_Delete(f->replies);
		f->replies = cJSON_CreateArray();
		f->next = 0;
		call(f, "c1", "subagent", cases[i].args);
		say(f, "child");
		run(f, "hi");
		assert_string_equal(field(nth(f, "tool_result", 0), "output"),
				    cases[i].want);
	}
	unsetenv("CATALYST_CODE_SUBAGENT_MAX_DEPTH");
}

/* A bare {prompt} runs the delegate; scout writes its final text to
 * context.md; under approval "destructive" both the subagent call and
 * the child's bash ask (the built-in classes). */
static void subagent_delegate_output_and_approval(void **state)
{
	struct fx *f = *state;
	char *path = pc_fs_join(f->ws, "context.md");
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	call(f, "c1", "subagent", "{\"prompt\":\"do it\"}");
	say(f, "delegated");
	say(f, "parent");
	run(f, "hi");
	assert_string_equal(field(nth(f, "subagent_start", 0), "agent"),
			    "delegate");
	assert_false(pc_fs_is_file(path));
	pc_turn_release(&f->t);
	f->o.approval = PC_TURN_APPROVAL_DESTRUCTIVE;
	call(f, "c2", "subagent", "{\"agent\":\"scout\",\"task\":\"t\"}");
	call(f, "c3", "bash", "{\"command\":\"true\"}");
	call(f, "c4", "read_file", "{\"path\":\"nothing\"}");
	say(f, "  scouted \n");
	run(f, "hi");
	assert_int_equal(count(f, "approval"), 2);
	assert_string_equal(field(nth(f, "approval", 0), "tool"), "subagent");
	assert_string_equal(field(nth(f, "approval", 1), "run_id"), "run-1");
	assert_string_equal(field(nth(f, "approval", 1), "tool"), "bash");
	assert_int_equal(pc_fs_read_capped(path, &b, NULL), 0);
	assert_string_equal(pc_buf_cstr(&b), "scouted");
	pc_buf_release(&b);
	free(path);
}

#define FX(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		FX(pre_context_replacement_persists),
		FX(pre_context_messages_are_typed),
		FX(pre_context_refused_shapes),
		FX(pre_context_message_cap),
		FX(pre_context_payload_cap),
		FX(pre_agent_start_caps),
		FX(pre_agent_start_composes_in_name_order),
		FX(pre_input_replaces_text_in_name_order),
		FX(pre_hooks_stop_at_the_first_deny),
		FX(post_hooks_compose_and_surface_failures),
		FX(override_claims_the_name),
		FX(vision_fallback_and_notice),
		FX(writers_without_pre_write),
		FX(subagent_pre_tool_deny),
		FX(subagent_pre_tool_modify),
		FX(subagent_hooks_fire_in_the_child),
		FX(subagent_ignores_plugin_tools),
		FX(subagent_finish_with_a_note_goes_on),
		FX(subagent_refusals_and_depth),
		FX(subagent_delegate_output_and_approval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

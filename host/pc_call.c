/* pc_call.c - custom tools and slash commands (spec §6, §7). */
#include <sys/stat.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_host_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static void set(struct pc_call_result *r, enum pc_outcome o, bool ok,
		char *text)
{
	r->outcome = o;
	r->ok = ok;
	r->output = text;
}

/* R6.2 step 5-6 / R7.4: the answer of a tool or command script; `out`
 * is the trimmed stdout as raw bytes. */
static void interpret(struct pc_call_result *r, const struct pc_plugin *p,
		      const char *label, const struct pc_buf *out,
		      struct pc_exchange *x)
{
	struct pc_err perr = PC_ERR_INIT;
	cJSON *v = NULL;
	const cJSON *e, *ok, *text, *st;

	if (pc_serde_parse(pc_buf_cstr(out), out->len, &v, &perr) < 0 ||
	    !cJSON_IsObject(v)) {
		cJSON_Delete(v);
		set(r, PC_OUT_OK, true, pc_serde_text_new(pc_buf_cstr(out), out->len));
		return;
	}
	st = pc_serde_get(v, "status");
	pc__host_side_effects(x, p->name,
			      cJSON_IsString(pc_serde_get(v, "notify"))
				      ? pc_serde_get(v, "notify")->valuestring
				      : NULL,
			      st ? (cJSON_IsString(st) ? st->valuestring : "")
				 : NULL);
	e = pc_serde_get(v, "error");
	if (cJSON_IsString(e) && *e->valuestring) {
		set(r, PC_OUT_OK, false,
		    pc_xasprintf("%s: %s", label, e->valuestring));
		cJSON_Delete(v);
		return;
	}
	ok = pc_serde_get(v, "ok");
	text = pc_serde_get(v, "output");
	if (!text)
		text = pc_serde_get(v, "result");
	set(r, PC_OUT_OK, cJSON_IsBool(ok) ? cJSON_IsTrue(ok) : true,
	    cJSON_IsString(text) ? pc_xstrdup(text->valuestring)
				 : pc_serde_text_new(pc_buf_cstr(out), out->len));
	cJSON_Delete(v);
}

/* The shared run-and-judge of tools and commands. `label` is
 * "plugin tool 'x'" or "plugin command 'x'". */
static int run_call(struct pc_host *h, const struct pc_plugin *p,
		    const char *script, uint64_t timeout_ms, const char *label,
		    struct pc_call_result *r, struct pc_exchange *x,
		    struct pc_err *err)
{
	int rc = pc__host_run(h, p, script, timeout_ms, NULL, x, err);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *prefix, *msg;
	enum pc_outcome o;

	if (rc)
		return rc;
	prefix = pc_xasprintf("%s handler", label);
	o = pc__host_judge(x, script, "script", prefix, timeout_ms, &msg, &out);
	if (o != PC_OUT_OK)
		set(r, o, false, msg);
	else
		interpret(r, p, label, &out, x);
	pc_buf_release(&out);
	free(prefix);
	return 0;
}

int pc_host_run_tool(struct pc_host *h, const struct pc_plugin *p,
		     const struct pc_tool_cfg *t, const cJSON *args,
		     struct pc_call_result *r, struct pc_exchange *x,
		     struct pc_err *err)
{
	cJSON *ctx = cJSON_CreateObject();
	char *label;
	int rc;

	memset(r, 0, sizeof(*r));
	cJSON_AddItemToObject(ctx, "args", args ? cJSON_Duplicate(args, 1)
						: cJSON_CreateNull());
	cJSON_AddStringToObject(ctx, "workspace", h->workspace);
	cJSON_AddStringToObject(ctx, "session_id", h->session_path);
	cJSON_AddItemToObject(ctx, "timestamp",
			      pc_serde_number_u64(pc__host_now(h)));
	pc_serde_print(ctx, &x->stdin_json);
	cJSON_Delete(ctx);
	if (x->stdin_json.len > PC_MAX_IO_BYTES) {
		pc__host_argv(h, t->script, &x->argv);
		set(r, PC_OUT_INPUT_TOO_LARGE, false,
		    pc_xstrdup("plugin tool input exceeds the 1048576 byte limit"));
		return 0;
	}
	label = pc_xasprintf("plugin tool '%s'", t->name);
	rc = run_call(h, p, t->script, t->timeout_ms, label, r, x, err);
	free(label);
	return rc;
}

int pc_host_run_command(struct pc_host *h, const struct pc_plugin *p,
			const struct pc_command_cfg *c, const char *args,
			struct pc_call_result *r, struct pc_exchange *x,
			struct pc_err *err)
{
	cJSON *ctx;
	char *label;
	int rc;

	memset(r, 0, sizeof(*r));
	if (c->agent_turn)
		return pc_err_set(err, PC_EINVAL,
				  "command '%s' is prompt-backed", c->name);
	ctx = cJSON_CreateObject();
	cJSON_AddStringToObject(ctx, "command", c->name);
	cJSON_AddStringToObject(ctx, "args", args);
	cJSON_AddStringToObject(ctx, "workspace", h->workspace);
	cJSON_AddStringToObject(ctx, "session_id", pc_host_session_file_name(h));
	cJSON_AddItemToObject(ctx, "timestamp",
			      pc_serde_number_u64(pc__host_now(h)));
	cJSON_AddStringToObject(ctx, "plugin", p->name);
	pc_serde_print(ctx, &x->stdin_json);
	cJSON_Delete(ctx);
	if (x->stdin_json.len > PC_MAX_IO_BYTES) {
		pc__host_argv(h, c->script, &x->argv);
		set(r, PC_OUT_INPUT_TOO_LARGE, false,
		    pc_xstrdup("plugin command input exceeds the 1048576 byte limit"));
		return 0;
	}
	label = pc_xasprintf("plugin command '%s'", c->name);
	rc = run_call(h, p, c->script, c->timeout_ms, label, r, x, err);
	free(label);
	return rc;
}

/* str::replace(from, to) into a new string. */
static char *replace_all(const char *s, const char *from, const char *to)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t fl = strlen(from);
	const char *hit;

	while ((hit = strstr(s, from))) {
		pc_buf_add(&b, s, (size_t)(hit - s));
		pc_buf_adds(&b, to);
		s = hit + fl;
	}
	pc_buf_adds(&b, s);
	return pc_buf_detach(&b, NULL);
}

/* render_command_template (R7.6): sequential, in the host's order. */
static char *render(const char *tmpl, const char *const vals[6])
{
	static const char *const keys[] = { "args",	 "workspace",
					    "session_id", "timestamp",
					    "plugin",	 "command" };
	char *cur = pc_xstrdup(tmpl);

	for (size_t i = 0; i < 6; i++) {
		char *a = pc_xasprintf("{{ %s }}", keys[i]);
		char *b = pc_xasprintf("{{%s}}", keys[i]);
		char *n1 = replace_all(cur, a, vals[i]);
		char *n2 = replace_all(n1, b, vals[i]);

		free(cur);
		free(n1);
		free(a);
		free(b);
		cur = n2;
	}
	return cur;
}

/* read_prompt - the host's read_to_string of a prompt file (R7.6) into
 * `out`: pc_rust_read_to_string, except that a FIFO or a character
 * device is read as a stream under plugcheck's PC_FS_STREAM_MS deadline
 * (a writer that closes it in time is read as the host would; one that
 * does not gives PC_ETIMEDOUT). Returns 0; PC_ETIMEDOUT; or PC_EIO or
 * PC_EFBIG with the io::Error text (or plugcheck's reason) in `msg`. */
static int read_prompt(const char *path, struct pc_buf *out,
		       struct pc_buf *msg)
{
	struct pc_err ferr = PC_ERR_INIT;
	struct stat st;
	int rc;

	if (stat(path, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		return pc_rust_read_to_string(path, out, msg);
	rc = pc_fs_read_stream(path, out, PC_FS_STREAM_MS, &ferr);
	if (rc == PC_ETIMEDOUT) {
		pc_buf_adds(msg, ferr.msg);
		return rc;
	}
	if (rc == PC_EFBIG) {
		pc_buf_addf(msg, "plugcheck stops reading after %zu bytes: the host would read on (not reproduced)",
			    out->max);
		return rc;
	}
	if (rc < 0) {
		pc_rust_io_error(msg, ferr.sys_errno ? ferr.sys_errno : EIO);
		return PC_EIO;
	}
	if (!pc_rust_is_utf8(out->data ? out->data : "", out->len)) {
		pc_buf_adds(msg, PC_RUST_IO_INVALID_UTF8);
		return PC_EIO;
	}
	return 0;
}

int pc_host_render_prompt_sent(struct pc_host *h, const struct pc_plugin *p,
			       const struct pc_command_cfg *c,
			       const char *sent, const char *args,
			       struct pc_call_result *r)
{
	struct pc_buf tmpl = PC_BUF_INIT((size_t)64 << 20);
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);
	char ts[32];
	const char *vals[6];
	char *text, *t;
	size_t start;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = read_prompt(c->prompt_file, &tmpl, &m);
	if (rc == PC_ETIMEDOUT) {
		/* R7.6 read_to_string of a FIFO a plugin put there: the host
		 * blocks until a writer closes it, without a deadline */
		set(r, PC_OUT_TIMEOUT, false,
		    pc_xasprintf("prompt_file of command '%s': %s (the host's read has no deadline)",
				 c->name, pc_buf_cstr(&m)));
		pc_buf_release(&m);
		pc_buf_release(&tmpl);
		return 0;
	}
	if (rc < 0) {
		struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_buf_adds(&e, "prompt_file ");
		pc_rust_debug_path(&e, c->prompt_file, strlen(c->prompt_file));
		pc_buf_addf(&e, " for command '%s' could not be read: %s",
			    c->name, pc_buf_cstr(&m));
		set(r, PC_OUT_SPAWN_ERROR, false, pc_buf_detach(&e, NULL));
		pc_buf_release(&m);
		pc_buf_release(&tmpl);
		return 0;
	}
	snprintf(ts, sizeof(ts), "%llu", (unsigned long long)pc__host_now(h));
	vals[0] = args;
	vals[1] = h->workspace;
	vals[2] = pc_host_session_file_name(h);
	vals[3] = ts;
	vals[4] = p->name;
	vals[5] = c->name;
	/* the template may hold NULs: render its host-text form */
	t = pc_serde_text_new(pc_buf_cstr(&tmpl), tmpl.len);
	text = render(t, vals);
	free(t);
	pc_buf_release(&tmpl);
	if (pc_serde_text_len(text) > PC_MAX_PROMPT_BYTES) {
		free(text);
		set(r, PC_OUT_OUTPUT_TOO_LARGE, false,
		    pc_xasprintf("rendered prompt for command '%s' exceeds the 262144 byte limit",
				 c->name));
	} else if (!pc_rust_trim(text, strlen(text), &start)) {
		/* the dispatcher's check, with the name as the client sent it */
		free(text);
		set(r, PC_OUT_EMPTY_STDOUT, false,
		    pc_xasprintf("/%s requires a request. Usage: /%s <research request>",
				 sent, sent));
	} else {
		set(r, PC_OUT_OK, true, text);
	}
	return 0;
}

int pc_host_render_prompt(struct pc_host *h, const struct pc_plugin *p,
			  const struct pc_command_cfg *c, const char *args,
			  struct pc_call_result *r)
{
	return pc_host_render_prompt_sent(h, p, c, c->name, args, r);
}

void pc_call_result_release(struct pc_call_result *r)
{
	free(r->output);
	memset(r, 0, sizeof(*r));
}

/* pc_provider.c - memory providers (spec §9) and OAuth actions (§8). */
#include <stdlib.h>
#include <string.h>

#include "pc_host.h"
#include "pc_host_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static const char *str_or(const cJSON *v, const char *def)
{
	return cJSON_IsString(v) ? v->valuestring : def;
}

static void mem_fail(struct pc_memory_result *r, enum pc_outcome o, char *msg)
{
	r->outcome = o;
	r->ok = false;
	free(r->output);
	r->output = msg;
}

/* parse_memory_provider_stdout (R9.5); `out` is the trimmed stdout as
 * raw bytes. */
static void mem_parse(struct pc_memory_result *r, const struct pc_buf *out)
{
	struct pc_err perr = PC_ERR_INIT;
	cJSON *v = NULL;
	const cJSON *e, *ok, *text, *ent;

	if (pc_serde_parse(pc_buf_cstr(out), out->len, &v, &perr) < 0 ||
	    !cJSON_IsObject(v)) {
		struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_buf_adds(&m, "memory_provider returned non-JSON stdout: ");
		pc_serde_text_add(&m, pc_buf_cstr(out),
				  pc_rust_chars_prefix(pc_buf_cstr(out),
						       out->len, 200));
		mem_fail(r, PC_OUT_INVALID_JSON, pc_buf_detach(&m, NULL));
		cJSON_Delete(v);
		return;
	}
	e = pc_serde_get(v, "error");
	if (cJSON_IsString(e) && *e->valuestring) {
		mem_fail(r, PC_OUT_OK, pc_xstrdup(e->valuestring));
		cJSON_Delete(v);
		return;
	}
	ok = pc_serde_get(v, "ok");
	r->outcome = PC_OUT_OK;
	r->ok = cJSON_IsBool(ok) ? cJSON_IsTrue(ok) : true;
	text = pc_serde_get(v, "output");
	if (!text)
		text = pc_serde_get(v, "result");
	free(r->output);
	r->output = pc_xstrdup(str_or(text, ""));
	if (!*r->output && !r->ok) {
		free(r->output);
		r->output = pc_xstrdup("memory_provider failed (action response had ok=false)");
	}
	free(r->injection);
	r->injection = pc_xstrdup(str_or(pc_serde_get(v, "injection"), ""));
	free(r->id);
	r->id = pc_xstrdup(str_or(pc_serde_get(v, "id"), ""));
	ent = pc_serde_get(v, "entries");
	if (cJSON_IsArray(ent)) {
		cJSON_Delete(r->entries);
		r->entries = cJSON_Duplicate(ent, 1);
	}
	cJSON_Delete(v);
}

static bool host_initiated(const char *action)
{
	static const char *const a[] = { "inject", "save", "list", "forget",
					 "compact_append" };

	for (size_t i = 0; i < 5; i++)
		if (!strcmp(a[i], action))
			return true;
	return false;
}

static void mem_judge(struct pc_memory_result *r, const struct pc_plugin *p,
		      struct pc_exchange *x)
{
	char *prefix = pc_xasprintf("memory_provider '%s'", p->name);
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	char *msg;
	enum pc_outcome o = pc__host_judge(x, p->memory->script, "script",
					   prefix, p->memory->timeout_ms, &msg,
					   &out);

	if (o != PC_OUT_OK)
		mem_fail(r, o, msg);
	else
		mem_parse(r, &out);
	pc_buf_release(&out);
	free(prefix);
}

int pc_host_run_memory(struct pc_host *h, const struct pc_plugin *p,
		       const char *action, const cJSON *args,
		       struct pc_memory_result *r, struct pc_exchange *x,
		       struct pc_err *err)
{
	cJSON *ctx;
	int rc;

	memset(r, 0, sizeof(*r));
	r->output = pc_xstrdup("");
	r->injection = pc_xstrdup("");
	r->id = pc_xstrdup("");
	r->entries = cJSON_CreateArray();
	if (!p->memory)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' declares no memory_provider",
				  p->name);
	ctx = cJSON_CreateObject();
	cJSON_AddStringToObject(ctx, "action", action);
	cJSON_AddItemToObject(ctx, "args", args ? cJSON_Duplicate(args, 1)
						: cJSON_CreateObject());
	cJSON_AddStringToObject(ctx, "workspace", h->workspace);
	cJSON_AddStringToObject(ctx, "session_id",
				host_initiated(action) ? "" : h->session_path);
	cJSON_AddItemToObject(ctx, "timestamp",
			      pc_serde_number_u64(pc__host_now(h)));
	pc_serde_print(ctx, &x->stdin_json);
	cJSON_Delete(ctx);
	if (x->stdin_json.len > PC_MAX_IO_BYTES) {
		pc__host_argv(h, p->memory->script, &x->argv);
		mem_fail(r, PC_OUT_INPUT_TOO_LARGE,
			 pc_xstrdup("memory provider input exceeds the 1048576 byte limit"));
		return 0;
	}
	rc = pc__host_run(h, p, p->memory->script, p->memory->timeout_ms, NULL, x,
			  err);
	if (!rc)
		mem_judge(r, p, x);
	return rc;
}

void pc_memory_result_release(struct pc_memory_result *r)
{
	free(r->output);
	free(r->injection);
	free(r->id);
	cJSON_Delete(r->entries);
	memset(r, 0, sizeof(*r));
}

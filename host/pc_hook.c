/* pc_hook.c - the host's execute_hook and build_context (spec §4.2-§4.3). */
#include <stdlib.h>
#include <string.h>

#include "pc_host.h"
#include "pc_host_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* build_context (R4.5), serialised as serde_json::to_vec would. */
static void build_context(struct pc_host *h, enum pc_hook_point point,
			  const struct pc_hook_cfg *cfg, const char *tool,
			  const cJSON *args, const cJSON *result,
			  struct pc_buf *out)
{
	cJSON *ctx = cJSON_CreateObject();

	cJSON_AddStringToObject(ctx, "hook", pc_hook_point_name(point));
	cJSON_AddStringToObject(ctx, "tool", tool ? tool : "");
	cJSON_AddStringToObject(ctx, "workspace", h->workspace);
	cJSON_AddStringToObject(ctx, "session_id", h->session_path);
	cJSON_AddItemToObject(ctx, "timestamp",
			      pc_serde_number_u64(pc__host_now(h)));
	if (cfg->pass_args && args)
		cJSON_AddItemToObject(ctx, "args", cJSON_Duplicate(args, 1));
	if (result)
		cJSON_AddItemToObject(ctx, "result", cJSON_Duplicate(result, 1));
	pc_serde_print(ctx, out);
	cJSON_Delete(ctx);
}

/* deny(msg) for blocking hooks, skip("[P] "+msg) for the others (R4.4). */
static void fail(struct pc_hook_result *r, const struct pc_plugin *p,
		 enum pc_hook_point point, enum pc_outcome o, const char *msg)
{
	r->outcome = o;
	if (pc_hook_is_blocking(point)) {
		r->allow = false;
		r->reason = pc_xstrdup(msg);
	} else {
		r->allow = true;
		r->reason = pc_xasprintf("[%s] %s", p->name, msg);
	}
}

static const char *str_or(const cJSON *v, const char *def)
{
	return cJSON_IsString(v) ? v->valuestring : def;
}

/* R4.3 steps 9-11 on a parsed response. */
static void extract(struct pc_hook_result *r, const struct pc_plugin *p,
		    enum pc_hook_point point, const cJSON *v,
		    struct pc_exchange *x)
{
	const cJSON *allow = pc_serde_get(v, "allow");
	const cJSON *status = pc_serde_get(v, "status");
	const char *reason = str_or(pc_serde_get(v, "reason"), "");
	const char *notify = str_or(pc_serde_get(v, "notify"), NULL);

	r->outcome = PC_OUT_OK;
	r->allow = cJSON_IsBool(allow) && cJSON_IsTrue(allow);
	if (!pc_hook_is_blocking(point)) {
		r->allow = true;
		r->reason = *reason ? pc_xasprintf("[%s] %s", p->name, reason)
				    : pc_xstrdup("");
	} else {
		r->reason = pc_xstrdup(reason);
	}
	if (pc_serde_get(v, "modify"))
		r->modify = cJSON_Duplicate(pc_serde_get(v, "modify"), 1);
	r->notify = notify ? pc_xstrdup(notify) : NULL;
	if (status)
		r->status = pc_xstrdup(str_or(status, ""));
	pc__host_side_effects(x, p->name, r->notify, r->status);
}

static void judge(struct pc_hook_result *r, const struct pc_plugin *p,
		  enum pc_hook_point point, const struct pc_hook_cfg *cfg,
		  struct pc_exchange *x)
{
	char *prefix = pc_xasprintf("hook '%s'", pc_hook_point_name(point));
	struct pc_err perr = PC_ERR_INIT;
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v = NULL;
	char *msg, *m;
	enum pc_outcome o = pc__host_judge(x, cfg->script, "script", prefix,
					   cfg->timeout_ms, &msg, &out);

	if (o != PC_OUT_OK) {
		fail(r, p, point, o, msg);
	} else if (pc_serde_parse(pc_buf_cstr(&out), out.len, &v, &perr) < 0) {
		m = pc_xasprintf("%s returned invalid JSON: %s", prefix, perr.msg);
		fail(r, p, point, PC_OUT_INVALID_JSON, m);
		free(m);
	} else {
		extract(r, p, point, v, x);
	}
	cJSON_Delete(v);
	free(msg);
	pc_buf_release(&out);
	free(prefix);
}

int pc_host_run_hook(struct pc_host *h, const struct pc_plugin *p,
		     enum pc_hook_point point, const char *tool,
		     const cJSON *args, const cJSON *result,
		     struct pc_hook_result *r, struct pc_exchange *x,
		     struct pc_err *err)
{
	const struct pc_hook_cfg *cfg;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((unsigned)point >= PC_HOOK_COUNT || !p->hooks[point].present)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' has no '%s' hook", p->name,
				  pc_hook_point_name(point));
	cfg = &p->hooks[point];
	build_context(h, point, cfg, tool, args, result, &x->stdin_json);
	if (x->stdin_json.len > PC_MAX_IO_BYTES) {
		pc__host_argv(h, cfg->script, &x->argv);
		fail(r, p, point, PC_OUT_INPUT_TOO_LARGE,
		     "plugin hook input exceeds the 1048576 byte limit");
		return 0;
	}
	rc = pc__host_run(h, p, cfg->script, cfg->timeout_ms, NULL, x, err);
	if (rc)
		return rc;
	judge(r, p, point, cfg, x);
	return 0;
}

void pc_hook_result_release(struct pc_hook_result *r)
{
	free(r->reason);
	cJSON_Delete(r->modify);
	free(r->notify);
	free(r->status);
	memset(r, 0, sizeof(*r));
}

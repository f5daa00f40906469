/* pc_guard_turn.c - a tool bypass shown for real: one scripted turn in a
 * fresh workspace in which the model makes the call, every hook of the
 * plugin fires where the host fires it (host/pc_turn.h), the built-in
 * tool runs, and the file it wrote (or the content it read) is what the
 * report shows. The only things run here are the built-in tools'
 * writes and reads of that one workspace file, and for the bash variant
 * the fixed `printf ... > FILE` or `cat FILE` in that workspace. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_mock.h"
#include "pc_pool.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

/* The workspace before the turn: the file at its old content (an edit or
 * patch starts from it), the file a rename moves onto it. */
static int fixture(const char *ws, const char *rel, enum pc_guard_shape shape)
{
	char *file = pc_fs_join(ws, rel), *slash = strrchr(file, '/');
	char *tmp = pc_fs_join(ws, "plugcheck-guard.tmp");
	const char *old = shape == PC_GUARD_READ ? PC_GUARD_MARK "\n"
						 : PC_GUARD_OLD "\n";
	int rc;

	*slash = '\0';
	rc = pc_fs_mkdir_p(file, NULL);
	*slash = '/';
	if (!rc)
		rc = pc_fs_write(file, old, strlen(old), NULL);
	if (!rc)
		rc = pc_fs_write(tmp, PC_GUARD_MARK "\n",
				 strlen(PC_GUARD_MARK "\n"), NULL);
	free(tmp);
	free(file);
	return rc;
}

static cJSON *script(const struct pc_guard_try *t)
{
	cJSON *s = cJSON_CreateObject(), *replies = cJSON_CreateArray();
	cJSON *call = cJSON_CreateObject(), *calls = cJSON_CreateArray();
	cJSON *r1 = cJSON_CreateObject(), *r2 = cJSON_CreateObject();
	cJSON *args = NULL;

	pc_serde_parse(t->args, strlen(t->args), &args, NULL);
	cJSON_AddStringToObject(call, "name", t->tool);
	cJSON_AddItemToObject(call, "arguments", args ? args : cJSON_CreateObject());
	cJSON_AddItemToArray(calls, call);
	cJSON_AddItemToObject(r1, "tool_calls", calls);
	cJSON_AddStringToObject(r2, "content", "done");
	cJSON_AddItemToArray(replies, r1);
	cJSON_AddItemToArray(replies, r2);
	cJSON_AddItemToObject(s, "replies", replies);
	return s;
}

/* The turn's first tool_result event, or NULL. */
static const cJSON *first_result(const struct pc_turn *t)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, t->transcript)
	{
		const cJSON *type = pc_serde_get(e, "type");

		if (cJSON_IsString(type) && !strcmp(type->valuestring, "tool_result"))
			return e;
	}
	return NULL;
}

static void quoted(struct pc_buf *b, const char *s)
{
	cJSON *v = cJSON_CreateString(s);

	pc_serde_print(v, b);
	cJSON_Delete(v);
}

/* What the turn did, for the report; sets t->demo_done, and makes `t` a
 * deny when a hook of the turn denied the call. */
static void describe(struct pc_guard_try *t, const struct pc_turn *turn,
		     const char *ws, const char *rel, enum pc_guard_shape shape)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf file = PC_BUF_INIT(1 << 16);
	cJSON *hooks = pc_turn_hook_list(turn);
	const cJSON *res = first_result(turn), *h;
	const cJSON *out = pc_serde_get(res, "output");
	char *path = pc_fs_join(ws, rel);
	bool denied = false;
	int i = 0;

	pc_buf_addf(&b, "a scripted turn in a fresh workspace: the model called %s %s; hooks fired: ",
		    t->tool, t->args);
	cJSON_ArrayForEach(h, hooks)
	{
		pc_buf_addf(&b, "%s%s", i++ ? ", " : "", h->valuestring);
		if (strstr(h->valuestring, " deny") &&
		    strstr(h->valuestring, t->tool))
			denied = true;
	}
	pc_buf_adds(&b, i ? "" : "none for this call");
	pc_buf_addf(&b, "; the tool result (%s): ",
		    cJSON_IsTrue(pc_serde_get(res, "ok")) ? "ok" : "failed");
	quoted(&b, cJSON_IsString(out) ? out->valuestring : "");
	if (shape == PC_GUARD_WRITE) {
		bool there = pc_fs_read_capped(path, &file, NULL) == 0;

		pc_buf_addf(&b, "; %s now holds ", rel);
		quoted(&b, there ? pc_buf_cstr(&file) : "");
		t->demo_done = there && strstr(pc_buf_cstr(&file), PC_GUARD_MARK);
	} else {
		t->demo_done = cJSON_IsString(out) &&
			       strstr(out->valuestring, PC_GUARD_MARK);
		pc_buf_addf(&b, "; the model %s the file's content",
			    t->demo_done ? "got" : "did not get");
	}
	if (denied && !t->demo_done) {
		t->verdict = PC_GUARD_DENY;
		free(t->decided_by);
		t->decided_by = pc_xstrdup("turn");
	}
	t->demo = pc_buf_detach(&b, NULL);
	cJSON_Delete(hooks);
	pc_buf_release(&file);
	free(path);
}

void pc__guard_demo(struct pc__gsearch *S, struct pc_guard_try *t,
		    enum pc_guard_shape shape, unsigned n)
{
	const struct pc_guard_opts *o = S->o;
	const struct pc_guard_seed *sd = &S->r->seeds[t->seed];
	char *ws = pc_xasprintf("%s/guard-turn-%u", o->tmp ? o->tmp : "/tmp", n);
	struct pc_plugin *plugin = (struct pc_plugin *)o->plugin;
	struct pc_turn_opts to = PC_TURN_OPTS_INIT;
	struct pc_turn turn = PC_TURN_INIT;
	struct pc_mock *m = NULL;
	cJSON *sc = script(t);
	struct pc_host h;

	pc_fs_rm_rf(ws);
	if (pc_fs_mkdir_p(ws, NULL) || fixture(ws, sd->text, shape) ||
	    pc_mock_new_json(sc, &m, NULL)) {
		t->demo = pc_xstrdup("the scripted turn could not be set up");
		goto out;
	}
	pc_host_init(&h, o->envp, ws, o->session ? o->session : "");
	pc_host_set_cwd(&h, ws);
	h.confine = o->confine;
	to.host = &h;
	to.plugins = &plugin;
	to.nplugins = 1;
	to.model = pc_mock_turn_model;
	to.model_ctx = m;
	to.bash_timeout_ms = 10000;
	to.max_requests = 3;
	if (o->worker)
		pc_pool_note(o->worker, "a scripted turn");
	if (pc_turn_run(&turn, &to, "plugcheck guard: make this tool call", NULL) == 0) {
		describe(t, &turn, ws, sd->text, shape);
		pc_turn_shutdown(&turn, &to);
	} else {
		t->demo = pc_xstrdup("the scripted turn did not run");
	}
	pc_turn_release(&turn);
	pc_host_release(&h);
out:
	pc_mock_free(m);
	cJSON_Delete(sc);
	pc_fs_rm_rf(ws);
	free(ws);
}

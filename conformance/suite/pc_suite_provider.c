/* pc_suite_provider.c - the memory round trip and the OAuth actions. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

#define NONCE "plugcheck-probe-7f3a9c"

struct mem_step {
	const char *action;
	const char *args;
};

/* One memory action into `f`, as a case left open for the caller's
 * findings (mem_done ends it). Returns the case, or PC_REPORT_NO_CASE when
 * the action was skipped. */
static size_t mem_fire(struct pc__suite *s, const char *action,
		       const char *args_text, struct pc_fire *f, bool judge)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { .args = args_text };
	char *label = pc_xasprintf("%s %s", action, args_text), *point;
	size_t c;

	if (s->mem_timeout) {
		/* A provider that never answers would cost a full timeout per
		 * action (nine of them); one is enough to know. */
		char *why = pc_xasprintf("skipped: the provider timed out on '%s'",
					 s->mem_timeout);

		f->kind = PC_FIRE_MEMORY;
		f->mem.outcome = PC_OUT_TIMEOUT;
		f->mem.output = pc_xstrdup(why);
		f->mem.injection = pc_xstrdup("");
		f->mem.id = pc_xstrdup("");
		f->mem.entries = cJSON_CreateArray();
		pc__suite_skip(s, "plugcheck.memory", label, why);
		free(why);
		free(label);
		return PC_REPORT_NO_CASE;
	}
	point = pc_xasprintf("memory:%s", action);
	pc_fire_resolve(s->p, point, false, &pt, NULL);
	free(point);
	pc__suite_progress(s, "memory %s", action);
	c = pc__suite_begin(s, "plugcheck.memory", label);
	pc__suite_fire(s, &pt, &in, NULL, f);
	if (judge && !f->mem.ok)
		pc__suite_find(s, c, "PC-MEM-001", "memory_provider",
			       "action '%s' failed: %s", action, f->mem.output);
	pc__suite_answer_bytes(s, c, "memory_provider", f,
			       pc__suite_script(s, &pt));
	if (f->x.proc.leftover_processes > 0)
		pc__suite_find(s, c, "PC-PROC-001", "memory_provider",
			       "%d process(es) still running after '%s'",
			       f->x.proc.leftover_processes, action);
	pc__suite_sandbox(s, c, "memory_provider", &f->x);
	if (f->mem.outcome == PC_OUT_TIMEOUT && !s->mem_timeout)
		s->mem_timeout = pc_xstrdup(action);
	pc_fire_point_release(&pt);
	free(label);
	return c;
}

/* End memory case `c` (if any) and release `f`. */
static void mem_done(struct pc__suite *s, size_t c, struct pc_fire *f)
{
	if (c != PC_REPORT_NO_CASE)
		pc__suite_end(s, c, f);
	pc_fire_release(f);
}

/* A finding about what memory case `c` showed. */
static void mem_find(struct pc__suite *s, size_t c, const char *msg)
{
	if (c != PC_REPORT_NO_CASE)
		pc__suite_find(s, c, "PC-MEM-003", "memory_provider", "%s", msg);
}

static bool entries_have(const struct pc_memory_result *r, const char *needle)
{
	char *e = pc_serde_to_string(r->entries);
	bool found = strstr(e, needle) != NULL;

	free(e);
	return found;
}

/* R9.3: save -> list -> inject -> forget -> list, separate processes. */
static bool round_trip(struct pc__suite *s)
{
	struct pc_fire f = PC_FIRE_INIT;
	const struct pc_memory_result *r = &f.mem;
	char *args, *id, *msg;
	size_t c;
	bool ok;

	c = mem_fire(s, "save",
		     "{\"content\":\"" NONCE " remembers the answer 42\",\"description\":\"\",\"name\":\"" NONCE " remembers the [1700000000]\",\"scope\":\"workspace\",\"type\":\"note\"}",
		     &f, true);
	ok = r->ok;
	id = pc_xstrdup(r->id);
	if (r->ok && !*r->id)
		mem_find(s, c, "save answered without an id: the host then reports memory_saved with an empty id and /forget has nothing to name");
	mem_done(s, c, &f);
	c = mem_fire(s, "list", "{}", &f, true);
	ok = ok && r->ok;
	if (r->ok && ok && !entries_have(r, NONCE))
		mem_find(s, c, "list after save does not show the saved content");
	mem_done(s, c, &f);
	c = mem_fire(s, "inject", "{}", &f, true);
	ok = ok && r->ok;
	if (r->ok && ok && !strstr(r->injection, NONCE))
		mem_find(s, c, "inject after save does not include the saved content");
	mem_done(s, c, &f);
	args = pc_xasprintf("{\"id\":\"%s\"}", id);
	c = mem_fire(s, "forget", args, &f, true);
	free(args);
	mem_done(s, c, &f);
	c = mem_fire(s, "list", "{}", &f, true);
	msg = pc_xasprintf("list after forget '%s' still shows the saved content", id);
	if (r->ok && ok && entries_have(r, NONCE))
		mem_find(s, c, msg);
	free(msg);
	mem_done(s, c, &f);
	c = mem_fire(s, "compact_append",
		     "{\"cap_bytes\":16384,\"content\":\"- " NONCE " fact\",\"description\":\"auto-extracted durable facts (accumulated on compaction)\",\"name\":\"session-extract\",\"type\":\"session\"}",
		     &f, true);
	mem_done(s, c, &f);
	free(id);
	return ok;
}

void pc__suite_memory(struct pc__suite *s)
{
	static const char *const documented[] = { "standing_prompt", "write",
						  "search" };
	struct pc_fire f = PC_FIRE_INIT;
	bool any = false;

	if (!s->p->memory)
		return;
	pc__suite_fresh_dirs(s);
	if (round_trip(s) || pc__suite_stopped(s))
		return;
	for (size_t i = 0; i < 3 && !pc__suite_stopped(s); i++) {
		size_t c = mem_fire(s, documented[i], "{}", &f, false);

		any = any || f.mem.ok;
		if (i == 2 && any && c != PC_REPORT_NO_CASE)
			pc__suite_find(s, c, "PC-MEM-002", "memory_provider",
				       "standing_prompt/write/search succeed while the actions the host sends fail");
		mem_done(s, c, &f);
	}
}

static void oauth_fire(struct pc__suite *s, const char *action,
		       const char *extra)
{
	struct pc_fire_point pt = PC_FIRE_POINT_INIT;
	struct pc_fire_input in = { .args = extra };
	struct pc_fire f = PC_FIRE_INIT;
	char *where = pc_xasprintf("oauth %s", action);
	char *point = pc_xasprintf("oauth:%s", action);
	size_t c;

	pc_fire_resolve(s->p, point, false, &pt, NULL);
	pc__suite_progress(s, "oauth %s", action);
	c = pc__suite_begin(s, "plugcheck.oauth", action);
	pc__suite_fire(s, &pt, &in, NULL, &f);
	if (f.oauth.outcome != PC_OUT_OK)
		pc__suite_find(s, c, f.oauth.outcome == PC_OUT_OUTPUT_TOO_LARGE
					     ? "PC-IO-001"
					     : "PC-OAUTH-001",
			       where, "%s",
			       f.oauth.message ? f.oauth.message : "");
	else if (!strcmp(action, "login") && !f.oauth.ok && f.oauth.message &&
		 strstr(f.oauth.message, "did not return a url"))
		pc__suite_find(s, c, "PC-OAUTH-002", where, "%s",
			       f.oauth.message);
	pc__suite_answer_bytes(s, c, where, &f, pc__suite_script(s, &pt));
	if (f.x.proc.leftover_processes > 0)
		pc__suite_find(s, c, "PC-PROC-001", where,
			       "%d process(es) still running after the answer",
			       f.x.proc.leftover_processes);
	pc__suite_sandbox(s, c, where, &f.x);
	pc__suite_end(s, c, &f);
	pc_fire_release(&f);
	pc_fire_point_release(&pt);
	free(where);
	free(point);
}

void pc__suite_oauth(struct pc__suite *s)
{
	struct pc_oauth_cfg *o = s->p->oauth;
	uint64_t saved;

	if (!o)
		return;
	pc__suite_fresh_dirs(s);
	saved = o->login_timeout_ms;
	if (o->login_timeout_ms > PC_SUITE_OAUTH_CAP_MS)
		o->login_timeout_ms = PC_SUITE_OAUTH_CAP_MS;
	oauth_fire(s, "token", NULL);
	if ((o->script || o->login_script) && !pc__suite_stopped(s))
		oauth_fire(s, "login", NULL);
	if ((o->script || o->complete_script) && !pc__suite_stopped(s))
		oauth_fire(s, "complete", "{\"code\":\"plugcheck-invalid-code\"}");
	if (o->script && !pc__suite_stopped(s))
		oauth_fire(s, "clear", NULL);
	o->login_timeout_ms = saved;
}

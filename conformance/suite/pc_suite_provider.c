/* pc_suite_provider.c - the memory round trip, the OAuth actions, and the
 * environment variables scripts read. */
#include <regex.h>
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

/* One memory action; returns the result (caller releases). */
static void mem_fire(struct pc__suite *s, const char *action,
		     const char *args_text, struct pc_memory_result *r,
		     bool judge)
{
	struct pc_host h;
	struct pc_exchange x;
	cJSON *args = NULL;
	size_t from = s->r->findings.nr;
	char *verdict, *label;

	label = pc_xasprintf("%s %s", action, args_text);
	if (s->mem_timeout) {
		/* A provider that never answers would cost a full timeout per
		 * action (nine of them); one is enough to know. */
		char *why = pc_xasprintf("skipped: the provider timed out on '%s'",
					 s->mem_timeout);

		memset(r, 0, sizeof(*r));
		r->outcome = PC_OUT_TIMEOUT;
		r->output = pc_xstrdup(why);
		r->injection = pc_xstrdup("");
		r->id = pc_xstrdup("");
		r->entries = cJSON_CreateArray();
		pc__suite_skip(s, "plugcheck.memory", label, why);
		free(why);
		free(label);
		return;
	}
	pc__suite_host(s, &h);
	pc_exchange_init(&x);
	pc_serde_parse(args_text, strlen(args_text), &args, NULL);
	pc__suite_progress(s, "memory %s", action);
	pc_host_run_memory(&h, s->p, action, args, r, &x, NULL);
	if (judge && !r->ok)
		pc__suite_find(s, "PC-MEM-001", "memory_provider",
			       "action '%s' failed: %s", action, r->output);
	if (x.proc.leftover_processes > 0)
		pc__suite_find(s, "PC-PROC-001", "memory_provider",
			       "%d process(es) still running after '%s'",
			       x.proc.leftover_processes, action);
	pc__suite_sandbox(s, "memory_provider", &x);
	verdict = pc_xasprintf("%s (%s): output \"%s\", injection \"%s\", id \"%s\"",
			       r->ok ? "ok" : "failed", pc_outcome_name(r->outcome),
			       r->output, r->injection, r->id);
	pc__suite_case(s, "plugcheck.memory", label, from, &x, verdict);
	if (r->outcome == PC_OUT_TIMEOUT && !s->mem_timeout)
		s->mem_timeout = pc_xstrdup(action);
	free(verdict);
	free(label);
	cJSON_Delete(args);
	pc_exchange_release(&x);
	pc_host_release(&h);
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
	struct pc_memory_result r;
	char *args, *id;
	bool ok;

	mem_fire(s, "save",
		 "{\"content\":\"" NONCE " remembers the answer 42\",\"description\":\"\",\"name\":\"" NONCE " remembers the [1700000000]\",\"scope\":\"workspace\",\"type\":\"note\"}",
		 &r, true);
	ok = r.ok;
	id = pc_xstrdup(r.id);
	if (r.ok && !*r.id)
		pc__suite_find(s, "PC-MEM-003", "memory_provider",
			       "save answered without an id: the host then reports memory_saved with an empty id and /forget has nothing to name");
	pc_memory_result_release(&r);
	mem_fire(s, "list", "{}", &r, true);
	ok = ok && r.ok;
	if (r.ok && ok && !entries_have(&r, NONCE))
		pc__suite_find(s, "PC-MEM-003", "memory_provider",
			       "list after save does not show the saved content");
	pc_memory_result_release(&r);
	mem_fire(s, "inject", "{}", &r, true);
	ok = ok && r.ok;
	if (r.ok && ok && !strstr(r.injection, NONCE))
		pc__suite_find(s, "PC-MEM-003", "memory_provider",
			       "inject after save does not include the saved content");
	pc_memory_result_release(&r);
	args = pc_xasprintf("{\"id\":\"%s\"}", id);
	mem_fire(s, "forget", args, &r, true);
	free(args);
	pc_memory_result_release(&r);
	mem_fire(s, "list", "{}", &r, true);
	if (r.ok && ok && entries_have(&r, NONCE))
		pc__suite_find(s, "PC-MEM-003", "memory_provider",
			       "list after forget '%s' still shows the saved content", id);
	pc_memory_result_release(&r);
	mem_fire(s, "compact_append",
		 "{\"cap_bytes\":16384,\"content\":\"- " NONCE " fact\",\"description\":\"auto-extracted durable facts (accumulated on compaction)\",\"name\":\"session-extract\",\"type\":\"session\"}",
		 &r, true);
	pc_memory_result_release(&r);
	free(id);
	return ok;
}

void pc__suite_memory(struct pc__suite *s)
{
	static const char *const documented[] = { "standing_prompt", "write",
						  "search" };
	struct pc_memory_result r;
	bool any = false;

	if (!s->p->memory)
		return;
	pc__suite_fresh_dirs(s);
	if (round_trip(s) || pc__suite_stopped(s))
		return;
	for (size_t i = 0; i < 3 && !pc__suite_stopped(s); i++) {
		mem_fire(s, documented[i], "{}", &r, false);
		any = any || r.ok;
		pc_memory_result_release(&r);
	}
	if (any)
		pc__suite_find(s, "PC-MEM-002", "memory_provider",
			       "standing_prompt/write/search succeed while the actions the host sends fail");
}

static void oauth_fire(struct pc__suite *s, const char *action,
		       const char *extra)
{
	struct pc_host h;
	struct pc_exchange x;
	struct pc_oauth_result r;
	cJSON *e = NULL;
	size_t from = s->r->findings.nr;
	char *verdict, *where = pc_xasprintf("oauth %s", action);

	pc__suite_host(s, &h);
	pc_exchange_init(&x);
	if (extra)
		pc_serde_parse(extra, strlen(extra), &e, NULL);
	pc__suite_progress(s, "oauth %s", action);
	if (pc_host_run_oauth(&h, s->p, action, e, &r, &x, NULL) == 0) {
		if (r.outcome != PC_OUT_OK)
			pc__suite_find(s, r.outcome == PC_OUT_OUTPUT_TOO_LARGE
						  ? "PC-IO-001"
						  : "PC-OAUTH-001",
				       where, "%s", r.message);
		else if (!strcmp(action, "login") && !r.ok &&
			 strstr(r.message, "did not return a url"))
			pc__suite_find(s, "PC-OAUTH-002", where, "%s", r.message);
		if (x.proc.leftover_processes > 0)
			pc__suite_find(s, "PC-PROC-001", where,
				       "%d process(es) still running after the answer",
				       x.proc.leftover_processes);
		pc__suite_sandbox(s, where, &x);
	}
	verdict = pc_xasprintf("%s (%s)%s%s", r.ok ? "ok" : "failed",
			       pc_outcome_name(r.outcome), *r.message ? ": " : "",
			       r.message);
	pc__suite_case(s, "plugcheck.oauth", action, from, &x, verdict);
	free(verdict);
	free(where);
	cJSON_Delete(e);
	pc_oauth_result_release(&r);
	pc_exchange_release(&x);
	pc_host_release(&h);
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

static const char *const passed_vars[] = {
	"PATH", "HOME", "TMPDIR", "USER", "PYTHONPATH", "ENGRAPHIS_DB_PATH",
	"ENGRAPHIS_EMBED_MODEL", "ENGRAPHIS_EMBED_DIM", "ENGRAPHIS_EXTRACTOR",
	"ENGRAPHIS_WORKSPACES",
	/* set by the shell itself */
	"PWD", "OLDPWD", "IFS", "PS1", "PS2", "PS4", "RANDOM", "LINENO",
	"SECONDS", "BASH", "BASHPID", "BASH_SOURCE", "BASH_VERSION",
	"BASH_REMATCH", "BASH_LINENO", "PPID", "UID", "EUID", "HOSTNAME",
	"HOSTTYPE", "OSTYPE", "MACHTYPE", "SHELL", "SHLVL", "OPTIND", "OPTARG",
	"OPTERR", "REPLY", "FUNCNAME", "PIPESTATUS", "GROUPS", "EPOCHSECONDS",
	"EPOCHREALTIME", "SRANDOM",
};

static bool var_passed(const struct pc_plugin *p, const char *name)
{
	for (size_t i = 0; i < sizeof(passed_vars) / sizeof(*passed_vars); i++)
		if (!strcmp(passed_vars[i], name))
			return true;
	for (size_t i = 0; p->oauth && i < p->oauth->env_passthrough.nr; i++)
		if (!strcmp(p->oauth->env_passthrough.v[i], name))
			return true;
	return false;
}

/* A shell variable the script sets itself (NAME=, for NAME, read NAME). */
static bool assigned(const char *text, const char *name)
{
	char *a = pc_xasprintf("%s=", name), *f = pc_xasprintf("for %s ", name);
	char *r = pc_xasprintf(" %s", name);
	bool yes = strstr(text, a) || strstr(text, f);

	for (const char *l = strstr(text, "read "); l && !yes;
	     l = strstr(l + 1, "read ")) {
		const char *end = strchr(l, '\n');
		const char *hit = strstr(l, r);

		yes = hit && (!end || hit < end);
	}
	free(a);
	free(f);
	free(r);
	return yes;
}

static void scan_text(struct pc__suite *s, const char *rel, const char *text,
		      bool python)
{
	const char *pat = python ? "os\\.(environ(\\.get)?|getenv)[[:space:]]*[[(][[:space:]]*['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]"
				 : "\\$\\{?([A-Z_][A-Z0-9_]*)";
	size_t group = python ? 3 : 1;
	regmatch_t m[4];
	regex_t re;

	if (regcomp(&re, pat, REG_EXTENDED))
		return;
	for (const char *p = text; regexec(&re, p, 4, m, 0) == 0;
	     p += m[0].rm_eo) {
		char *name = pc_xmemdup(p + m[group].rm_so,
					(size_t)(m[group].rm_eo - m[group].rm_so));
		char *where = pc_xasprintf("script %s ($%s)", rel, name);

		if (!var_passed(s->p, name) && (python || !assigned(text, name)))
			pc__suite_find(s, "PC-ENV-002", where,
				       "'%s' reads $%s, which the host never passes (its environment is cleared)",
				       rel, name);
		free(where);
		free(name);
		if (m[0].rm_eo == 0)
			break;
	}
	regfree(&re);
}

static void scan_script(struct pc__suite *s, const char *abs)
{
	struct pc_buf b = PC_BUF_INIT(1048576);
	size_t n = strlen(s->p->source_path);
	const char *rel = !strncmp(abs, s->p->source_path, n) && abs[n] == '/'
				  ? abs + n + 1
				  : abs;
	const char *ext = strrchr(rel, '.');
	bool python;

	if (pc_fs_read_capped(abs, &b, NULL) < 0 || !b.len ||
	    memchr(b.data, '\0', b.len)) {
		pc_buf_release(&b);
		return;
	}
	python = (ext && !strcmp(ext, ".py")) ||
		 (!strncmp(b.data, "#!", 2) && strstr(b.data, "python") &&
		  (size_t)(strstr(b.data, "python") - b.data) < strcspn(b.data, "\n"));
	scan_text(s, rel, b.data, python);
	pc_buf_release(&b);
}

void pc__suite_env_reads(struct pc__suite *s)
{
	const struct pc_plugin *p = s->p;

	for (int i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			scan_script(s, p->hooks[i].script);
	for (size_t i = 0; i < p->ntools; i++)
		scan_script(s, p->tools[i].script);
	for (size_t i = 0; i < p->ncommands; i++)
		if (p->commands[i].script)
			scan_script(s, p->commands[i].script);
	if (p->memory)
		scan_script(s, p->memory->script);
	if (p->oauth) {
		const char *o[] = { p->oauth->script, p->oauth->login_script,
				    p->oauth->complete_script,
				    p->oauth->token_script };

		for (size_t i = 0; i < 4; i++)
			if (o[i])
				scan_script(s, o[i]);
	}
}

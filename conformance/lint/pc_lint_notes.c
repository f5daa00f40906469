/* pc_lint_notes.c - static notes on the declared entry points, and the
 * environment variables the scripts read (PC-ENV-002). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_lint_impl.h"
#include "pc_locate.h"
#include "pc_schema.h"
#include "pc_xalloc.h"

void pc__lint_notes(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;

	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		const struct pc_hook_cfg *h = &p->hooks[i];
		const char *n = pc_hook_point_name((enum pc_hook_point)i);
		char *where;

		if (!h->present)
			continue;
		where = pc_xasprintf("hook %s", n);
		if (i == PC_HOOK_SESSION_START || i == PC_HOOK_SESSION_STOP) {
			pc_findings_add_at(&l->findings, "PC-DOC-001", where,
				       "'%s' runs at every turn of a session", n);
			pc__lint_at(l, pc__lint_last(l), true, "hooks", n, NULL);
		}
		if (i == PC_HOOK_PRE_TURN) {
			pc_findings_add_at(&l->findings, "PC-DOC-002", where,
				       "'pre_turn' runs only when the turn has images and vision handoff is on");
			pc__lint_at(l, pc__lint_last(l), true, "hooks", n, NULL);
		}
		if (h->timeout_ms > 600000) {
			pc_findings_add_at(&l->findings, "PC-HOOK-004", where,
				       "timeout_ms %llu: a hung script blocks the turn for over 10 minutes",
				       (unsigned long long)h->timeout_ms);
			pc__lint_at(l, pc__lint_last(l), false, "hooks", n,
				    "timeout_ms", NULL);
		}
		if (h->pass_args && !pc_fire_default_args(i)) {
			pc_findings_add_at(&l->findings, "PC-HOOK-005", where,
				       "'%s' never carries args, so pass_args only adds receive_tool_arguments to the inferred capabilities",
				       n);
			pc__lint_at(l, pc__lint_last(l), false, "hooks", n,
				    "pass_args", NULL);
		}
		if (h->pass_args && pc_hook_is_blocking((enum pc_hook_point)i)) {
			pc_findings_add_at(&l->findings, "PC-IO-003", where,
				       "'%s' has pass_args: any call whose context exceeds 1048576 bytes is denied without running the hook",
				       n);
			pc__lint_at(l, pc__lint_last(l), false, "hooks", n,
				    "pass_args", NULL);
		}
		free(where);
	}
	for (size_t i = 0; i < p->ntools; i++) {
		struct pc_strvec probs = PC_STRVEC_INIT;
		char *where = pc_xasprintf("tool %s", p->tools[i].name);
		char ix[24];

		snprintf(ix, sizeof(ix), "#%zu", i);
		pc_schema_problems(p->tools[i].parameters, &probs);
		for (size_t k = 0; k < probs.nr; k++) {
			pc_findings_add_at(&l->findings, "PC-TOOL-005", where, "%s", probs.v[k]);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "parameters", NULL);
		}
		pc_strvec_release(&probs);
		free(where);
	}
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

/* PC-ENV-002 about script `rel` (its file) at `where`, once: at `loc`,
 * where it reads the variable. */
static void env_finding(struct pc_lint *l, const char *rel, const char *where,
			const char *name, struct pc_loc loc)
{
	struct pc_finding *f;

	for (size_t i = 0; i < l->findings.nr; i++)
		if (!strcmp(l->findings.v[i].rule->id, "PC-ENV-002") &&
		    !strcmp(l->findings.v[i].where, where))
			return;
	pc_findings_add(&l->findings, "PC-ENV-002", rel,
			"'%s' reads $%s, which the host never passes (its environment is cleared)",
			rel, name);
	f = pc__lint_last(l);
	free(f->where);
	f->where = pc_xstrdup(where);
	f->line = loc.line;
	f->column = loc.column;
}

static void scan_text(struct pc_lint *l, const char *rel, const char *text,
		      bool python)
{
	const char *pat = python ? "os\\.(environ(\\.get)?|getenv)[[:space:]]*[[(][[:space:]]*['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]"
				 : "\\$\\{?([A-Z_][A-Z0-9_]*)";
	size_t group = python ? 3 : 1, at = 0;
	struct pc_loc loc = { 1, 1 };
	regmatch_t m[4];
	regex_t re;

	if (regcomp(&re, pat, REG_EXTENDED))
		return;
	for (const char *p = text; regexec(&re, p, 4, m, 0) == 0;
	     p += m[0].rm_eo) {
		char *name = pc_xmemdup(p + m[group].rm_so,
					(size_t)(m[group].rm_eo - m[group].rm_so));
		char *where = pc_xasprintf("script %s ($%s)", rel, name);

		/* the matches come in order: count lines from the last one */
		for (size_t to = (size_t)(p - text) + (size_t)m[0].rm_so;
		     at < to; at++) {
			loc.column = text[at] == '\n' ? 1 : loc.column + 1;
			loc.line += text[at] == '\n';
		}
		if (!var_passed(l->plugin, name) && (python || !assigned(text, name)))
			env_finding(l, rel, where, name, loc);
		free(where);
		free(name);
		if (m[0].rm_eo == 0)
			break;
	}
	regfree(&re);
}

static void scan_script(struct pc_lint *l, const char *abs)
{
	struct pc_buf b = PC_BUF_INIT(1048576);
	size_t n = strlen(l->plugin->source_path);
	const char *rel = !strncmp(abs, l->plugin->source_path, n) && abs[n] == '/'
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
	scan_text(l, rel, b.data, python);
	pc_buf_release(&b);
}

void pc__lint_env_reads(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;

	for (int i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			scan_script(l, p->hooks[i].script);
	for (size_t i = 0; i < p->ntools; i++)
		scan_script(l, p->tools[i].script);
	for (size_t i = 0; i < p->ncommands; i++)
		if (p->commands[i].script)
			scan_script(l, p->commands[i].script);
	if (p->memory)
		scan_script(l, p->memory->script);
	if (p->oauth) {
		const char *o[] = { p->oauth->script, p->oauth->login_script,
				    p->oauth->complete_script,
				    p->oauth->token_script };

		for (size_t i = 0; i < 4; i++)
			if (o[i])
				scan_script(l, o[i]);
	}
}

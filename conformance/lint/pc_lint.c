/* pc_lint.c - static author-level checks over a loaded plugin. */
#include "pc_lint.h"
#include "pc_lint_impl.h"

#include <sys/stat.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_locate.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

const char *const pc_lint_rules[] = {
	"PC-LOAD-001",	 "PC-MAN-001",	  "PC-MAN-002",	   "PC-MAN-003",
	"PC-CAP-001",	 "PC-CAP-002",	  "PC-HOOK-001",   "PC-HOOK-002",
	"PC-HOOK-003",	 "PC-HOOK-004",	  "PC-HOOK-005",   "PC-TOOL-001",
	"PC-TOOL-002",	 "PC-TOOL-003",	  "PC-TOOL-004",   "PC-TOOL-005",
	"PC-CMD-001",	 "PC-CMD-002",	  "PC-SCRIPT-001", "PC-SCRIPT-002",
	"PC-SCRIPT-003", "PC-SCRIPT-004", "PC-SCRIPT-006", "PC-SCRIPT-007", "PC-DOC-001",	   "PC-DOC-002",
	"PC-IO-003",	 "PC-ENV-002",	  "PC-SUB-001",	   "PC-SUB-002",
	"PC-OAUTH-011",
};
const size_t pc_lint_nrules = sizeof(pc_lint_rules) / sizeof(*pc_lint_rules);

static const char *const tui_words[] = {
	"provider", "search-key", "oauth-code", "model", "stop", "exit",
	"quit", "steer", "approval", "approvals", "advisor", "reasoning",
	"thinking", "bash-timeout", "auto-compact", "sandbox", "no-network",
	"mouse-wheel", "footer-metrics", "reduced-motion", "idle-timeout",
	"max-session-tokens", "?", "settings", "keybinds", "theme", "copy",
	"attach", "refresh", "memories", "resume", "status", "find", "skills",
	"plugin-uninstall", "plugin-trust", "subagents-list",
	"subagents-doctor", "subagents-status", "subagents-models",
};

/* A set of strings with linear probing: the duplicate and "script already
 * checked" tests stay O(n) for manifests with thousands of entries. */
struct strset {
	const char **slot;
	size_t cap, n;
};

static size_t hash(const char *s)
{
	size_t h = (size_t)1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * (size_t)1099511628211u;
	return h;
}

static void strset_put(struct strset *set, const char *s)
{
	size_t i = hash(s) & (set->cap - 1);

	while (set->slot[i])
		i = (i + 1) & (set->cap - 1);
	set->slot[i] = s;
	set->n++;
}

/* Adds `s` (borrowed; must outlive the set); false when already present. */
static bool strset_add(struct strset *set, const char *s)
{
	if ((set->n + 1) * 2 > set->cap) {
		struct strset big = { NULL, set->cap ? set->cap * 2 : 64, 0 };

		big.slot = pc_xcalloc(big.cap, sizeof(*big.slot));
		for (size_t j = 0; j < set->cap; j++)
			if (set->slot[j])
				strset_put(&big, set->slot[j]);
		free(set->slot);
		*set = big;
	}
	for (size_t i = hash(s) & (set->cap - 1); set->slot[i];
	     i = (i + 1) & (set->cap - 1))
		if (!strcmp(set->slot[i], s))
			return false;
	strset_put(set, s);
	return true;
}

static void strset_free(struct strset *set)
{
	free(set->slot);
	set->slot = NULL;
	set->cap = set->n = 0;
}

static const char *basename_of(const char *dir, char *buf, size_t n)
{
	size_t len = strlen(dir);
	const char *b;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	b = dir + len;
	while (b > dir && b[-1] != '/')
		b--;
	snprintf(buf, n, "%.*s", (int)(dir + len - b), b);
	return buf;
}

static bool is_semver(const char *v)
{
	regex_t re;
	bool ok;

	if (regcomp(&re,
		    "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)"
		    "(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$",
		    REG_EXTENDED | REG_NOSUB))
		return true;
	ok = regexec(&re, v, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* Is `prog` found on the colon-separated `path`? */
static bool on_path(const char *prog, const char *path)
{
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	copy = pc_xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = pc_fs_join(*dir ? dir : ".", prog);

		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

static bool direct_exec(const char *script)
{
	const char *base = strrchr(script, '/'), *dot;

	base = base ? base + 1 : script;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return true;
	return strcasecmp(dot, ".py") && strcasecmp(dot, ".sh") &&
	       strcasecmp(dot, ".bash") && strcasecmp(dot, ".ps1");
}

/* The program R5.2 runs a non-direct script with. */
static const char *interpreter_of(const char *script)
{
	const char *dot = strrchr(script, '.');

	if (dot && !strcasecmp(dot, ".py"))
		return "python3";
	return dot && !strcasecmp(dot, ".ps1") ? "pwsh" : "bash";
}

/* A finding about line 1 of script `abs` at `column`. */
static void at_script_line1(struct pc_lint *l, const char *abs,
			    unsigned column)
{
	struct pc_finding *f = pc__lint_last(l);

	free(f->file);
	f->file = pc_xstrdup(pc__lint_rel(l, abs));
	f->line = 1;
	f->column = column;
}

/* R2.11 and R5.2 hygiene of one declared script: `rel` as declared,
 * `abs` its canonical path, `decl` the steps to its declaration in
 * plugin.json (where a finding about the declaration points). */
static void check_script(struct pc_lint *l, const char *rel, const char *abs,
			 const char *path, struct strset *seen,
			 const char *const *decl)
{
	struct pc_findings *f = &l->findings;
	char line[512];
	FILE *fp;
	size_t n;

	if (!strset_add(seen, abs))
		return; /* one script serving several entry points */
	if (pc_fs_is_dir(abs)) {
		pc_findings_add(f, "PC-SCRIPT-001", "plugin.json",
				"script \"%s\" names a directory: the host loads the plugin, then every call fails to spawn",
				rel);
		pc__lint_at_steps(l, pc__lint_last(l), false, decl);
		return;
	}
	/* the host checks only the execute bit (R2.10); the interpreter,
	 * or the kernel for a #! line, must read the file too */
	if (access(abs, R_OK) != 0 && errno == EACCES) {
		struct stat st;
		unsigned mode = stat(abs, &st) == 0 ? st.st_mode & 07777 : 0;

		if (direct_exec(abs))
			pc_findings_add(f, "PC-SCRIPT-007", pc__lint_rel(l, abs),
					"script \"%s\" (mode %04o) is not readable by this user: unless it is a compiled binary, every call fails",
					rel, mode);
		else
			pc_findings_add(f, "PC-SCRIPT-006", pc__lint_rel(l, abs),
					"script \"%s\" (mode %04o) is not readable by this user: the host's %s cannot read it, so every call fails",
					rel, mode, interpreter_of(abs));
		return;
	}
	if (!direct_exec(abs) || !(fp = fopen(abs, "rb")))
		return;
	n = fread(line, 1, sizeof(line) - 1, fp);
	fclose(fp);
	line[n] = '\0';
	if (n < 2 || line[0] != '#' || line[1] != '!') {
		if (n >= 4 && !memcmp(line, "\177ELF", 4))
			return;
		pc_findings_add(f, "PC-SCRIPT-004", rel,
				"script \"%s\" has no #! line and is executed directly",
				rel);
		at_script_line1(l, abs, 1);
		return;
	}
	line[strcspn(line, "\n")] = '\0';
	if (strchr(line, '\r')) {
		size_t cr = strcspn(line, "\r");

		pc_findings_add(f, "PC-SCRIPT-002", rel,
				"script \"%s\" starts with \"%.*s\\r\": the kernel cannot find that interpreter",
				rel, (int)cr, line);
		at_script_line1(l, abs, (unsigned)cr + 1);
		return;
	}
	{
		char *p = line + 2, *prog, *arg, *save = NULL;

		prog = strtok_r(p, " \t", &save);
		arg = strtok_r(NULL, " \t", &save);
		if (prog && !strcmp(prog, "/usr/bin/env") && arg)
			prog = arg;
		if (prog && !on_path(prog, path)) {
			pc_findings_add(f, "PC-SCRIPT-003", rel,
					"script \"%s\" needs '%s', which is not on the host's PATH",
					rel, prog);
			at_script_line1(l, abs, (unsigned)(prog - line) + 1);
		}
	}
}

/* R1.12: each "unknown hook point" line of the host's load log, at its
 * key in "hooks". */
static void unknown_hooks(struct pc_lint *l, const struct pc_strvec *log)
{
	static const char head[] = "[plugins] unknown hook point '";
	static const char tail[] = "' in plugin '";

	for (size_t i = 0; i < log->nr; i++) {
		const char *s = log->v[i], *end;
		char *name;

		if (strncmp(s, head, strlen(head)))
			continue;
		pc_findings_add(&l->findings, "PC-HOOK-001", "plugin.json",
				"%s", s + strlen("[plugins] "));
		/* the hook's name: up to the last "' in plugin '" */
		end = NULL;
		for (const char *q = strstr(s, tail); q; q = strstr(q + 1, tail))
			end = q;
		if (!end)
			continue;
		name = pc_xmemdup(s + strlen(head),
				  (size_t)(end - s) - strlen(head));
		pc__lint_at(l, pc__lint_last(l), true, "hooks", name, NULL);
		free(name);
	}
}

static void check_hooks(struct pc_lint *l, const char *path,
			struct strset *seen)
{
	const struct pc_plugin *p = l->plugin;

	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		const struct pc_hook_cfg *h = &p->hooks[i];
		const char *n = pc_hook_point_name((enum pc_hook_point)i);
		const char *decl[] = { "hooks", n, "script", NULL };

		if (!h->present)
			continue;
		check_script(l, h->script_rel, h->script, path, seen, decl);
		if (h->timeout_ms == 0) {
			pc_findings_add(&l->findings, "PC-HOOK-002", "plugin.json",
					"hook '%s' has timeout_ms 0: every call times out",
					n);
			pc__lint_at(l, pc__lint_last(l), false, "hooks", n,
				    "timeout_ms", NULL);
		}
	}
	if (p->hooks[PC_HOOK_PRE_WRITE].present ||
	    p->hooks[PC_HOOK_PRE_READ].present) {
		pc_findings_add(&l->findings, "PC-HOOK-003", "plugin.json",
				"pre_write fires only for write_file and edit, pre_read only for read_file, grep and glob (not patch, bulk_*, delete, rename, mkdir, list_dir)");
		pc__lint_at(l, pc__lint_last(l), true, "hooks",
			    p->hooks[PC_HOOK_PRE_WRITE].present ? "pre_write"
								: "pre_read",
			    NULL);
	}
	unknown_hooks(l, &p->log);
}

static void check_tools(struct pc_lint *l, const char *path,
			struct strset *seen)
{
	const struct pc_plugin *p = l->plugin;
	struct strset names = { 0 };

	for (size_t i = 0; i < p->ntools; i++) {
		const struct pc_tool_cfg *t = &p->tools[i];
		bool builtin = pc_is_builtin_tool(t->name);
		char ix[24];
		const char *decl[] = { "tools", ix, "script", NULL };

		snprintf(ix, sizeof(ix), "#%zu", i);
		check_script(l, t->script_rel, t->script, path, seen, decl);
		if (builtin && !t->override_builtin) {
			pc_findings_add(&l->findings, "PC-TOOL-001", "plugin.json",
					"tool '%s' is a built-in name: the host loads it, logs a collision and never calls it",
					t->name);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "name", NULL);
		}
		if (!builtin && t->override_builtin) {
			pc_findings_add(&l->findings, "PC-TOOL-002", "plugin.json",
					"tool '%s' sets override but no built-in has that name",
					t->name);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "override", NULL);
		}
		if (t->parameters_replaced) {
			pc_findings_add(&l->findings, "PC-TOOL-004", "plugin.json",
					"tool '%s': parameters is not an object; the model sees {\"properties\":{},\"type\":\"object\"}",
					t->name);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "parameters", NULL);
		}
		if (t->timeout_ms == 0) {
			pc_findings_add(&l->findings, "PC-HOOK-002", "plugin.json",
					"tool '%s' has timeout_ms 0: every call times out",
					t->name);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "timeout_ms", NULL);
		}
		if (!strset_add(&names, t->name)) {
			pc_findings_add(&l->findings, "PC-TOOL-003", "plugin.json",
					"tool '%s' is declared twice", t->name);
			pc__lint_at(l, pc__lint_last(l), false, "tools", ix,
				    "name", NULL);
		}
	}
	strset_free(&names);
}

static void check_commands(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;
	struct strset names = { 0 };

	for (size_t i = 0; i < p->ncommands; i++) {
		const char *n = p->commands[i].name;
		char ix[24];

		pc__lint_command_index(l, i, ix);
		for (size_t k = 0; k < sizeof(tui_words) / sizeof(*tui_words); k++)
			if (!strcasecmp(n, tui_words[k])) {
				pc_findings_add(&l->findings, "PC-CMD-001",
						"plugin.json",
						"command '/%s' is consumed by the TUI before plugin commands",
						n);
				pc__lint_at(l, pc__lint_last(l), false,
					    "commands", ix, "name", NULL);
			}
		if (!strset_add(&names, n)) {
			pc_findings_add(&l->findings, "PC-CMD-002", "plugin.json",
					"command '%s' is declared twice", n);
			pc__lint_at(l, pc__lint_last(l), false, "commands", ix,
				    "name", NULL);
		}
	}
	strset_free(&names);
}

/* The first index of the raw "capabilities" array holding `cap`, as
 * "#N" in `buf` (the effective list is sorted and de-duplicated). */
static const char *cap_index(const struct pc_plugin *p, const char *cap,
			     char buf[24])
{
	const cJSON *c;
	size_t k = 0;

	snprintf(buf, 24, "#0");
	cJSON_ArrayForEach(c, pc_serde_get(p->manifest, "capabilities"))
	{
		if (cJSON_IsString(c) && !strcmp(c->valuestring, cap)) {
			snprintf(buf, 24, "#%zu", k);
			break;
		}
		k++;
	}
	return buf;
}

static void check_manifest(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;
	char base[256], ix[24];

	/* the resolved name: `plugcheck .` names the directory "." */
	if (strcmp(basename_of(p->source_path, base, sizeof(base)), p->name)) {
		pc_findings_add(&l->findings, "PC-MAN-001", "plugin.json",
				"name '%s' differs from the directory name '%s'",
				p->name, base);
		pc__lint_at(l, pc__lint_last(l), false, "name", NULL);
	}
	if (!is_semver(p->version)) {
		pc_findings_add(&l->findings, "PC-MAN-002", "plugin.json",
				"version '%s' is not MAJOR.MINOR.PATCH", p->version);
		pc__lint_at(l, pc__lint_last(l), false, "version", NULL);
	}
	for (size_t i = 0; i < p->disable_tools.nr; i++) {
		const char *n = p->disable_tools.v[i];
		bool known = pc_is_builtin_tool(n);

		for (size_t k = 0; k < p->ntools && !known; k++)
			known = !strcmp(p->tools[k].name, n);
		if (known)
			continue;
		pc_findings_add(&l->findings, "PC-MAN-003", "plugin.json",
				"disable_tools entry '%s' is neither a built-in nor one of this plugin's tools",
				n);
		snprintf(ix, sizeof(ix), "#%zu", i);
		pc__lint_at(l, pc__lint_last(l), false, "disable_tools", ix,
			    NULL);
	}
	if (!p->capabilities_declared) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (size_t i = 0; i < p->required.nr; i++)
			pc_buf_addf(&b, "%s\"%s\"", i ? ", " : "", p->required.v[i]);
		pc_findings_add(&l->findings, "PC-CAP-001", "plugin.json",
				"no \"capabilities\": the host infers [%s]",
				pc_buf_cstr(&b));
		pc_buf_release(&b);
		/* where "capabilities" belongs: the top-level object */
		pc__lint_at(l, pc__lint_last(l), false, NULL);
	}
	for (size_t i = 0; p->capabilities_declared && i < p->capabilities.nr; i++) {
		bool req = false;

		for (size_t k = 0; k < p->required.nr && !req; k++)
			req = !strcmp(p->required.v[k], p->capabilities.v[i]);
		if (req)
			continue;
		pc_findings_add(&l->findings, "PC-CAP-002", "plugin.json",
				"capability '%s' is declared but no feature requires it",
				p->capabilities.v[i]);
		pc__lint_at(l, pc__lint_last(l), false, "capabilities",
			    cap_index(p, p->capabilities.v[i], ix), NULL);
	}
}

/* PC-LOAD-001 (R1.11): the host's last log line, at the member of
 * plugin.json the error is about (a parse error's own line and column),
 * with the fix for that message. */
static void load_error(struct pc_lint *l, const struct pc_strvec *at)
{
	struct pc_finding *f;
	const char *msg = l->host_error ? l->host_error : "";
	const char *pos = strstr(msg, "plugin.json parse error: ") == msg
				  ? strstr(msg, " at line ")
				  : NULL;
	char *fix = pc_rule_load_fix(msg, NULL);
	unsigned line = 0, col = 0;

	pc_findings_add(&l->findings, "PC-LOAD-001", "plugin.json", "%s",
			l->host_log.v[l->host_log.nr - 1] + strlen("[plugins] "));
	f = pc__lint_last(l);
	pc_finding_set_fix(f, fix);
	free(fix);
	/* serde's "... at line L column C": the last one in the message */
	for (const char *q = pos; q; q = strstr(q + 1, " at line "))
		pos = q;
	if (pos && sscanf(pos, " at line %u column %u", &line, &col) == 2) {
		f->line = line;
		f->column = col;
	} else if (at->nr) {
		const char **steps = pc_xcalloc(at->nr + 1, sizeof(*steps));

		for (size_t i = 0; i < at->nr; i++)
			steps[i] = at->v[i];
		pc__lint_at_steps(l, f, false, steps);
		free(steps);
	}
}

int pc_lint_plugin(const char *dir, const struct pc_manifest_env *env,
		   const char *path, struct pc_lint *l)
{
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_report rep = { 0 };
	struct pc_strvec at = PC_STRVEC_INIT;
	struct strset seen = { 0 };
	char *manifest = pc_fs_join(dir, "plugin.json"), *text = NULL;
	bool candidate = pc_fs_is_dir(dir) && access(manifest, F_OK) == 0;
	size_t text_len = 0;

	free(manifest);
	if (!candidate) {
		/* R1.4: not a candidate; the host skips it without a word. */
		l->host_error = NULL;
		pc_findings_add(&l->findings, "PC-LOAD-002", "",
				"'%s' is not a directory holding plugin.json; the host would skip it silently",
				dir);
		return 0;
	}
	rep.log = &l->host_log;
	rep.error = &l->host_error;
	rep.error_at = &at;
	rep.text = &text;
	rep.text_len = &text_len;
	if (pc_manifest_load_report(dir, env, &l->plugin, &rep, &err) == 0 ||
	    text)
		l->doc = pc_json_doc_new(text ? text : "", text_len);
	free(text);
	if (!l->plugin) {
		/* host_log ends with the R1.11 line, after any R1.12 ones */
		unknown_hooks(l, &l->host_log);
		load_error(l, &at);
		pc_strvec_release(&at);
		return 0;
	}
	pc_strvec_release(&at);
	check_manifest(l);
	check_hooks(l, path, &seen);
	check_tools(l, path, &seen);
	check_commands(l);
	if (l->plugin->memory) {
		const char *decl[] = { "memory_provider", "script", NULL };

		check_script(l, pc__lint_rel(l, l->plugin->memory->script),
			     l->plugin->memory->script, path, &seen, decl);
	}
	pc__lint_notes(l);
	pc__lint_env_reads(l);
	pc__lint_subagents(l);
	pc__lint_oauth_token(l);
	strset_free(&seen);
	return 0;
}

void pc_lint_release(struct pc_lint *l)
{
	pc_plugin_free(l->plugin);
	free(l->host_error);
	pc_strvec_release(&l->host_log);
	pc_findings_release(&l->findings);
	pc_json_doc_free(l->doc);
	l->doc = NULL;
	l->plugin = NULL;
	l->host_error = NULL;
}

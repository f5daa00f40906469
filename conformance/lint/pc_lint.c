/* pc_lint.c - static author-level checks over a loaded plugin. */
#include "pc_lint.h"
#include "pc_lint_impl.h"

#include <sys/stat.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

const char *const pc_lint_rules[] = {
	"PC-LOAD-001", "PC-MAN-001",	"PC-MAN-002",	 "PC-MAN-003",
	"PC-CAP-001",  "PC-CAP-002",	"PC-HOOK-001",	 "PC-HOOK-002",
	"PC-HOOK-003", "PC-HOOK-004",	"PC-HOOK-005",	 "PC-TOOL-001",
	"PC-TOOL-002", "PC-TOOL-003",	"PC-TOOL-004",	 "PC-TOOL-005",
	"PC-CMD-001",  "PC-CMD-002",	"PC-SCRIPT-001", "PC-SCRIPT-002",
	"PC-SCRIPT-003", "PC-SCRIPT-004", "PC-DOC-001",	 "PC-DOC-002",
	"PC-IO-003",   "PC-ENV-002",	"PC-MAN-010",	 "PC-MAN-011",
	"PC-MAN-012",  "PC-TOOL-020",	"PC-TOOL-021",	 "PC-TOOL-022",
	"PC-SCRIPT-010", "PC-IO-010",
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

/* R2.11 and R5.2 hygiene of one declared script. */
static void check_script(struct pc_findings *f, const char *rel,
			 const char *abs, const char *path, struct strset *seen)
{
	char line[512];
	FILE *fp;
	size_t n;

	if (!strset_add(seen, abs))
		return; /* one script serving several entry points */
	if (pc_fs_is_dir(abs)) {
		pc_findings_add(f, "PC-SCRIPT-001", rel,
				"script \"%s\" names a directory: the host loads the plugin, then every call fails to spawn",
				rel);
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
		return;
	}
	line[strcspn(line, "\n")] = '\0';
	if (strchr(line, '\r')) {
		pc_findings_add(f, "PC-SCRIPT-002", rel,
				"script \"%s\" starts with \"%.*s\\r\": the kernel cannot find that interpreter",
				rel, (int)strcspn(line, "\r"), line);
		return;
	}
	{
		char *p = line + 2, *prog, *arg, *save = NULL;

		prog = strtok_r(p, " \t", &save);
		arg = strtok_r(NULL, " \t", &save);
		if (prog && !strcmp(prog, "/usr/bin/env") && arg)
			prog = arg;
		if (prog && !on_path(prog, path))
			pc_findings_add(f, "PC-SCRIPT-003", rel,
					"script \"%s\" needs '%s', which is not on the host's PATH",
					rel, prog);
	}
}

/* R1.12: each "unknown hook point" line of the host's load log. */
static void unknown_hooks(struct pc_findings *f, const struct pc_strvec *log)
{
	static const char head[] = "[plugins] unknown hook point ";

	for (size_t i = 0; i < log->nr; i++)
		if (!strncmp(log->v[i], head, strlen(head)))
			pc_findings_add(f, "PC-HOOK-001", "plugin.json", "%s",
					log->v[i] + strlen("[plugins] "));
}

static void check_hooks(struct pc_lint *l, const char *path,
			struct strset *seen)
{
	const struct pc_plugin *p = l->plugin;

	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		const struct pc_hook_cfg *h = &p->hooks[i];

		if (!h->present)
			continue;
		check_script(&l->findings, h->script_rel, h->script, path, seen);
		if (h->timeout_ms == 0)
			pc_findings_add(&l->findings, "PC-HOOK-002", "plugin.json",
					"hook '%s' has timeout_ms 0: every call times out",
					pc_hook_point_name((enum pc_hook_point)i));
	}
	if (p->hooks[PC_HOOK_PRE_WRITE].present ||
	    p->hooks[PC_HOOK_PRE_READ].present)
		pc_findings_add(&l->findings, "PC-HOOK-003", "plugin.json",
				"pre_write fires only for write_file and edit, pre_read only for read_file, grep and glob (not patch, bulk_*, delete, rename, mkdir, list_dir)");
	unknown_hooks(&l->findings, &p->log);
}

static void set_loc(struct pc_finding *f, struct pc_loc at)
{
	f->line = at.line;
	f->column = at.column;
}

/* The index in plugin.json's "commands" of the host's command i: the
 * host skips entries whose name is empty after trimming and one '/'
 * (R2.7.1). */
static size_t command_index(const struct pc_plugin *p, size_t i)
{
	const cJSON *e;
	size_t k = 0, kept = 0;

	cJSON_ArrayForEach(e, pc_serde_get(p->manifest, "commands")) {
		const cJSON *n = pc_serde_get(e, "name");
		const char *s = cJSON_IsString(n) ? n->valuestring : "";
		size_t len;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (*s == '/')
			s++;
		len = strlen(s);
		while (len && strchr(" \t\n\r", s[len - 1]))
			len--;
		if (len && kept++ == i)
			return k;
		k++;
	}
	return i;
}

static void check_tools(struct pc_lint *l, const char *path,
			struct strset *seen)
{
	const struct pc_plugin *p = l->plugin;
	struct strset names = { 0 };

	for (size_t i = 0; i < p->ntools; i++) {
		const struct pc_tool_cfg *t = &p->tools[i];
		bool builtin = pc_is_builtin_tool(t->name);

		check_script(&l->findings, t->script_rel, t->script, path, seen);
		if (builtin && !t->override_builtin)
			pc_findings_add(&l->findings, "PC-TOOL-001", "plugin.json",
					"tool '%s' is a built-in name: the host loads it, logs a collision and never calls it",
					t->name);
		if (!builtin && t->override_builtin)
			pc_findings_add(&l->findings, "PC-TOOL-002", "plugin.json",
					"tool '%s' sets override but no built-in has that name",
					t->name);
		if (t->parameters_replaced)
			pc_findings_add(&l->findings, "PC-TOOL-004", "plugin.json",
					"tool '%s': parameters is not an object; the model sees {\"properties\":{},\"type\":\"object\"}",
					t->name);
		if (t->timeout_ms == 0)
			pc_findings_add(&l->findings, "PC-HOOK-002", "plugin.json",
					"tool '%s' has timeout_ms 0: every call times out",
					t->name);
		if (!strset_add(&names, t->name)) {
			char idx[24];
			const char *at[] = { "tools", idx, "name", NULL };
			struct pc_finding *f;

			snprintf(idx, sizeof(idx), "#%zu", i);
			pc_findings_add(&l->findings, "PC-TOOL-003", "plugin.json",
					"tool '%s' is declared twice", t->name);
			f = &l->findings.v[l->findings.nr - 1];
			set_loc(f, pc__lint_json_at(l, at, false));
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

		for (size_t k = 0; k < sizeof(tui_words) / sizeof(*tui_words); k++)
			if (!strcasecmp(n, tui_words[k]))
				pc_findings_add(&l->findings, "PC-CMD-001",
						"plugin.json",
						"command '/%s' is consumed by the TUI before plugin commands",
						n);
		if (!strset_add(&names, n)) {
			char idx[24];
			const char *at[] = { "commands", idx, "name", NULL };
			struct pc_finding *f;

			snprintf(idx, sizeof(idx), "#%zu", command_index(p, i));
			pc_findings_add(&l->findings, "PC-CMD-002", "plugin.json",
					"command '%s' is declared twice", n);
			f = &l->findings.v[l->findings.nr - 1];
			set_loc(f, pc__lint_json_at(l, at, false));
		}
	}
	strset_free(&names);
}

static void check_manifest(struct pc_lint *l)
{
	const struct pc_plugin *p = l->plugin;
	char base[256];

	/* the resolved name: `plugcheck .` names the directory "." */
	if (strcmp(basename_of(p->source_path, base, sizeof(base)), p->name))
		pc_findings_add(&l->findings, "PC-MAN-001", "plugin.json",
				"name '%s' differs from the directory name '%s'",
				p->name, base);
	if (!is_semver(p->version))
		pc_findings_add(&l->findings, "PC-MAN-002", "plugin.json",
				"version '%s' is not MAJOR.MINOR.PATCH", p->version);
	for (size_t i = 0; i < p->disable_tools.nr; i++) {
		const char *n = p->disable_tools.v[i];
		bool known = pc_is_builtin_tool(n);

		for (size_t k = 0; k < p->ntools && !known; k++)
			known = !strcmp(p->tools[k].name, n);
		if (!known)
			pc_findings_add(&l->findings, "PC-MAN-003", "plugin.json",
					"disable_tools entry '%s' is neither a built-in nor one of this plugin's tools",
					n);
	}
	if (!p->capabilities_declared) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		for (size_t i = 0; i < p->required.nr; i++)
			pc_buf_addf(&b, "%s\"%s\"", i ? ", " : "", p->required.v[i]);
		pc_findings_add(&l->findings, "PC-CAP-001", "plugin.json",
				"no \"capabilities\": the host infers [%s]",
				pc_buf_cstr(&b));
		pc_buf_release(&b);
	}
	for (size_t i = 0; p->capabilities_declared && i < p->capabilities.nr; i++) {
		bool req = false;

		for (size_t k = 0; k < p->required.nr && !req; k++)
			req = !strcmp(p->required.v[k], p->capabilities.v[i]);
		if (!req)
			pc_findings_add(&l->findings, "PC-CAP-002", "plugin.json",
					"capability '%s' is declared but no feature requires it",
					p->capabilities.v[i]);
	}
}

int pc_lint_plugin(const char *dir, const struct pc_manifest_env *env,
		   const char *path, struct pc_lint *l)
{
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_report rep = { 0 };
	struct strset seen = { 0 };
	char *manifest = pc_fs_join(dir, "plugin.json");
	bool candidate = pc_fs_is_dir(dir) && access(manifest, F_OK) == 0;

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
	if (pc_manifest_load_report(dir, env, &l->plugin, &rep, &err) < 0) {
		/* host_log ends with the R1.11 line, after any R1.12 ones */
		unknown_hooks(&l->findings, &l->host_log);
		pc_findings_add(&l->findings, "PC-LOAD-001", "plugin.json",
				"%s", l->host_log.v[l->host_log.nr - 1] +
					      strlen("[plugins] "));
		pc__lint_manifest_keys(l, dir);
		return 0;
	}
	pc__lint_manifest_keys(l, dir);
	check_manifest(l);
	check_hooks(l, path, &seen);
	check_tools(l, path, &seen);
	check_commands(l);
	if (l->plugin->memory)
		check_script(&l->findings, "memory_provider.script",
			     l->plugin->memory->script, path, &seen);
	pc__lint_notes(l);
	pc__lint_env_reads(l);
	pc__lint_providers(l);
	pc__lint_shell(l);
	strset_free(&seen);
	return 0;
}

void pc_lint_release(struct pc_lint *l)
{
	pc_plugin_free(l->plugin);
	free(l->host_error);
	pc_strvec_release(&l->host_log);
	pc_findings_release(&l->findings);
	free(l->text);
	l->plugin = NULL;
	l->host_error = NULL;
	l->text = NULL;
	l->text_len = 0;
}

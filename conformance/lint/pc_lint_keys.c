/* pc_lint_keys.c - what plugin.json's bytes say beyond the host's
 * verdict: a byte order mark (PC-MAN-012), repeated keys the host keeps
 * only the last of (PC-MAN-010), keys it ignores that look meaningful
 * (PC-MAN-011). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_cause.h"
#include "pc_lint_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define MAX_FIELDS 16

/* A finding waiting for its place in file order. */
struct hit {
	size_t off;
	char *id;
	char *msg;
};

struct keys {
	struct pc_lint *l;
	const char *text;
	size_t n;
	struct hit *v;
	size_t nv, cap;
};

static void hit(struct keys *k, size_t off, const char *id, char *msg)
{
	if (k->nv == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 8;
		k->v = pc_xreallocarray(k->v, k->cap, sizeof(*k->v));
	}
	k->v[k->nv++] = (struct hit){ off, pc_xstrdup(id), msg };
}

/* The shape the host decodes the value at `path` with, or NULL when it
 * ignores it (an unknown key) or it is not an object or array. */
static const struct pc_serde_shape *shape_at(const char *const *path)
{
	const struct pc_serde_shape *sh = &pc_serde_plugin_manifest;

	for (; *path; path++) {
		const char *step = *path;
		size_t k;

		switch (sh->kind) {
		case PC_SERDE_STRUCT:
			for (k = 0; k < sh->nfields; k++)
				if (!strcmp(sh->fields[k].name, step))
					break;
			if (k == sh->nfields)
				return NULL;
			sh = sh->fields[k].shape;
			break;
		case PC_SERDE_MAP:
			sh = sh->elem;
			break;
		case PC_SERDE_SEQ:
			if (step[0] != '#')
				return NULL;
			sh = sh->elem;
			break;
		case PC_SERDE_VALUE:
			break;
		default:
			return NULL;
		}
	}
	return sh;
}

/* `path` as people write it: hooks.pre_bash, tools[0].parameters. */
static char *dotted(const char *const *path)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (; *path; path++) {
		if ((*path)[0] == '#')
			pc_buf_addf(&b, "[%s]", *path + 1);
		else
			pc_buf_addf(&b, "%s%s", b.len ? "." : "", *path);
	}
	if (!b.len)
		pc_buf_adds(&b, "the top level");
	return pc_buf_detach(&b, NULL);
}

static unsigned line_of(const struct keys *k, size_t off)
{
	return pc_json_doc_line_col(k->l->doc, off).line;
}

/* The JSON text of the value at `off`, its runs of whitespace made one
 * space, cut at 40 bytes (new string). */
static char *value_text(const struct keys *k, size_t off)
{
	size_t end = pc_json_value_end(k->text, k->n, off);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (end == (size_t)-1)
		return pc_xstrdup("?");
	for (size_t i = off; i < end && b.len < 40; i++) {
		char c = k->text[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			while (i + 1 < end && strchr(" \t\n\r", k->text[i + 1]))
				i++;
			c = ' ';
		}
		pc_buf_add(&b, &c, 1);
	}
	if (b.len >= 40 && end - off > 40)
		pc_buf_adds(&b, "...");
	return pc_buf_detach(&b, NULL);
}

/* The "script" of the hook entry whose value starts at `off`. */
static char *entry_script(const struct keys *k, size_t off)
{
	size_t end = pc_json_value_end(k->text, k->n, off);
	cJSON *v = NULL;
	char *s = NULL;

	if (end != (size_t)-1 &&
	    pc_serde_parse(k->text + off, end - off, &v, NULL) == 0 &&
	    cJSON_IsString(pc_serde_get(v, "script")))
		s = pc_xstrdup(pc_serde_get(v, "script")->valuestring);
	cJSON_Delete(v);
	return s;
}

static bool same_key(const struct pc_json_member *a,
		     const struct pc_json_member *b)
{
	return a->key_len == b->key_len && !memcmp(a->key, b->key, a->key_len);
}

/* R2.1, §0: in a map (hooks) and in a raw value (parameters) a repeated
 * key keeps the last; report each at its second occurrence. */
static void repeated(struct keys *k, const char *const *path,
		     const struct pc_json_member *m, size_t n, bool map)
{
	for (size_t j = 1; j < n; j++) {
		size_t first = j, count = 0;
		char *where, *msg, *script;

		for (size_t i = 0; i < j; i++)
			if (same_key(&m[i], &m[j])) {
				count++;
				if (first == j)
					first = i;
			}
		if (count != 1)
			continue; /* not a key's second occurrence */
		where = dotted(path);
		script = map ? entry_script(k, m[first].value_off) : NULL;
		if (map && script)
			msg = pc_xasprintf(
				"%s has \"%s\" twice (lines %u and %u): the host keeps only the last, so the first registration (script \"%s\") never runs",
				where, m[j].key, line_of(k, m[first].key_off),
				line_of(k, m[j].key_off), script);
		else
			msg = pc_xasprintf(
				"%s has \"%s\" twice (lines %u and %u): the host keeps only the last value, and the first is lost",
				where, m[j].key, line_of(k, m[first].key_off),
				line_of(k, m[j].key_off));
		hit(k, m[j].key_off, "PC-MAN-010", msg);
		free(script);
		free(where);
	}
}

/* What the host uses when field `f` of struct `sh` at `path` is absent. */
static char *absent(const struct pc_serde_shape *sh, const char *f,
		    const char *const *path)
{
	static const struct {
		const char *type, *field, *text;
	} defaults[] = {
		{ "HookManifestEntry", "pass_args",
		  "pass_args stays false, so the hook gets no args" },
		{ "ToolManifestEntry", "description",
		  "the model sees an empty description" },
		{ "ToolManifestEntry", "parameters",
		  "the model sees {\"type\":\"object\",\"properties\":{}}, a tool without parameters" },
		{ "ToolManifestEntry", "kind", "kind stays \"destructive\"" },
		{ "ToolManifestEntry", "timeout_ms",
		  "the default 30000 ms applies" },
		{ "ToolManifestEntry", "override", "override stays false" },
		{ "CommandManifestEntry", "description",
		  "the description is empty" },
		{ "CommandManifestEntry", "mode", "the mode is inferred" },
		{ "CommandManifestEntry", "timeout_ms",
		  "the default 30000 ms applies" },
		{ "MemoryProviderManifestEntry", "timeout_ms",
		  "the default 30000 ms applies" },
		{ "OauthManifestEntry", "label",
		  "the label is the provider_id" },
		{ "OauthManifestEntry", "kind", "kind stays \"openai\"" },
		{ "OauthManifestEntry", "headers",
		  "no extra headers are sent" },
		{ "OauthManifestEntry", "token_path",
		  "the token file is <provider_id>.json" },
		{ "OauthManifestEntry", "detect_path",
		  "no detect file is looked at" },
		{ "OauthManifestEntry", "login_timeout_ms",
		  "the default 120000 ms applies" },
		{ "OauthManifestEntry", "token_timeout_ms",
		  "the default 30000 ms applies" },
		{ "OauthManifestEntry", "env_passthrough",
		  "no variable is passed to the OAuth scripts" },
		{ "PluginManifest", "protocol_version",
		  "protocol version 1 applies" },
		{ "PluginManifest", "capabilities",
		  "the capabilities are inferred" },
		{ "PluginManifest", "description", "the description is empty" },
		{ "PluginManifest", "hooks", "the plugin registers no hooks" },
		{ "PluginManifest", "tools", "the plugin registers no tools" },
		{ "PluginManifest", "disable_tools", "no tool is disabled" },
		{ "PluginManifest", "system_prompt",
		  "no system prompt is injected" },
		{ "PluginManifest", "oauth",
		  "the plugin has no OAuth provider" },
		{ "PluginManifest", "memory_provider",
		  "the plugin has no memory provider" },
		{ "PluginManifest", "commands",
		  "the plugin registers no commands" },
	};

	if (!strcmp(sh->name, "HookManifestEntry") &&
	    !strcmp(f, "timeout_ms")) {
		const char *point = path[0] && path[1] ? path[1] : "";
		int p = pc_hook_point_parse(point);

		if (p < 0)
			return pc_xstrdup(
				"the hook point's default timeout applies");
		return pc_xasprintf(
			"the default %llu ms of %s applies",
			(unsigned long long)pc_hook_default_timeout_ms(
				(enum pc_hook_point)p),
			point);
	}
	for (size_t i = 0; i < sizeof(defaults) / sizeof(*defaults); i++)
		if (!strcmp(defaults[i].type, sh->name) &&
		    !strcmp(defaults[i].field, f))
			return pc_xstrdup(defaults[i].text);
	if (!strncmp(f, "login_script", 12) ||
	    !strncmp(f, "complete_script", 15) ||
	    !strncmp(f, "token_script", 12))
		return pc_xstrdup("the shared \"script\" serves that action");
	return pc_xasprintf("\"%s\" is missing", f);
}

/* Keys with no near field that still look like they do something. */
static const char *meaningful(const struct pc_serde_shape *sh, const char *key)
{
	static const char *const switches[] = { "enabled", "enable", "disabled",
						"disable", "active" };
	static const char *const matchers[] = { "matcher", "matchers", "filter",
						"tools",   "tool",     "when",
						"if" };

	for (size_t i = 0; i < sizeof(switches) / sizeof(*switches); i++)
		if (!strcmp(key, switches[i]))
			return "the host has no such switch, so everything the plugin declares is registered; a plugin is enabled or disabled only as a whole (/plugin-enable, /plugin-disable, the user config's plugins.disabled)";
	if (strcmp(sh->name, "HookManifestEntry"))
		return NULL;
	for (size_t i = 0; i < sizeof(matchers) / sizeof(*matchers); i++)
		if (!strcmp(key, matchers[i]))
			return "the host has no matcher, so the hook runs at every firing of its point; filter inside the script";
	return NULL;
}

/* `path` with the entry's "name" when it has one: tools[0] (count). */
static char *entry_name(const struct keys *k, const char *const *path,
			const struct pc_json_member *m, size_t n)
{
	char *where = dotted(path), *name, *both;

	for (size_t i = 0; path[0] && i < n; i++) {
		if (strcmp(m[i].key, "name") || k->text[m[i].value_off] != '"')
			continue;
		name = value_text(k, m[i].value_off);
		both = pc_xasprintf("%s (%s)", where, name);
		free(name);
		free(where);
		return both;
	}
	return where;
}

/* R2.2: unknown keys of a struct the host decodes are ignored. */
static void ignored(struct keys *k, const char *const *path,
		    const struct pc_serde_shape *sh,
		    const struct pc_json_member *m, size_t n)
{
	const char *names[MAX_FIELDS];
	size_t nf = sh->nfields < MAX_FIELDS ? sh->nfields : MAX_FIELDS;

	for (size_t i = 0; i < nf; i++)
		names[i] = sh->fields[i].name;
	for (size_t j = 0; j < n; j++) {
		const char *near, *why;
		char *where, *what, *msg, *written;
		size_t i, real = n;

		for (i = 0; i < nf && strcmp(names[i], m[j].key); i++)
			;
		if (i < nf || strlen(m[j].key) != m[j].key_len)
			continue; /* a field, or a key with a NUL in it */
		for (i = 0; i < j && !same_key(&m[i], &m[j]); i++)
			;
		if (i < j)
			continue; /* said at its first occurrence */
		near = pc_cause_near_key(m[j].key, names, nf);
		why = near ? NULL : meaningful(sh, m[j].key);
		if (!near && !why)
			continue;
		where = entry_name(k, path, m, n);
		for (i = 0; near && i < n; i++)
			if (!strcmp(m[i].key, near))
				real = i;
		if (real < n) {
			char *v = value_text(k, m[real].value_off);

			what = pc_xasprintf(
				"the host reads \"%s\" (%s) instead", near, v);
			free(v);
		} else {
			what = near ? absent(sh, near, path) : pc_xstrdup(why);
		}
		written = value_text(k, m[j].value_off);
		if (near)
			msg = pc_xasprintf(
				"%s: the host ignores \"%s\" (set to %s; unknown keys are ignored): it is not \"%s\", so %s",
				where, m[j].key, written, near, what);
		else
			msg = pc_xasprintf(
				"%s: the host ignores \"%s\" (set to %s): %s",
				where, m[j].key, written, what);
		free(written);
		hit(k, m[j].key_off, "PC-MAN-011", msg);
		free(what);
		free(where);
	}
}

static void object(void *ctx, const char *const *path,
		   const struct pc_json_member *m, size_t n)
{
	struct keys *k = ctx;
	const struct pc_serde_shape *sh = shape_at(path);

	if (!sh)
		return;
	if (sh->kind == PC_SERDE_MAP || sh->kind == PC_SERDE_VALUE)
		repeated(k, path, m, n, sh->kind == PC_SERDE_MAP);
	else if (sh->kind == PC_SERDE_STRUCT)
		ignored(k, path, sh, m, n);
}

static int by_offset(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void pc__lint_manifest_keys(struct pc_lint *l)
{
	struct keys k = { .l = l };

	if (!l->text || !l->doc)
		return;
	k.text = l->text;
	k.n = l->text_len;
	if (k.n >= 3 && !memcmp(k.text, "\xef\xbb\xbf", 3))
		hit(&k, 0, "PC-MAN-012",
		    pc_xstrdup(
			    "plugin.json starts with a UTF-8 byte order mark (bytes EF BB BF): the host's JSON parser refuses it (\"expected value at line 1 column 1\") and rejects the plugin"));
	pc_json_doc_walk(l->doc, object, &k);
	if (k.nv)
		qsort(k.v, k.nv, sizeof(*k.v), by_offset);
	for (size_t i = 0; i < k.nv; i++) {
		struct pc_loc at = pc_json_doc_line_col(l->doc, k.v[i].off);
		struct pc_finding *f;

		pc_findings_add(&l->findings, k.v[i].id, "plugin.json", "%s",
				k.v[i].msg);
		f = pc__lint_last(l);
		f->line = at.line;
		f->column = at.column;
		free(k.v[i].id);
		free(k.v[i].msg);
	}
	free(k.v);
}

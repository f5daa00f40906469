/* pc_suite_cause.c - the causes behind what a firing showed (issue 17):
 * the bytes of an answer (PC-OUT-001..004), what a hook's modify does to
 * the call (PC-HOOK-020..022), a reason the host discards (PC-HOOK-023),
 * and which file a working-directory-dependent script reads
 * (PC-ENV-003). The detection itself is pc_cause.h's; this file fires
 * the probes it needs and places the findings on the script's lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_cause.h"
#include "pc_fs.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

#define MAX_SCRIPT (1u << 20) /* script text read to place a finding */
#define MAX_PROBED 4	      /* files a cwd-dependent script is probed with */
#define QUOTED	   60	      /* bytes of printed text quoted */

void pc__suite_place(struct pc_finding *f, const char *file, struct pc_loc at)
{
	if (!f)
		return;
	free(f->file);
	f->file = pc_xstrdup(file ? file : "");
	f->line = at.line;
	f->column = at.column;
}

const char *pc__suite_script(const struct pc__suite *s,
			     const struct pc_fire_point *pt)
{
	const struct pc_oauth_cfg *o = s->p->oauth;

	switch (pt->kind) {
	case PC_FIRE_HOOK:
		return s->p->hooks[pt->hook].script;
	case PC_FIRE_TOOL:
		return pt->tool->script;
	case PC_FIRE_COMMAND:
		return pt->command->script;
	case PC_FIRE_MEMORY:
		return s->p->memory ? s->p->memory->script : NULL;
	case PC_FIRE_OAUTH:
		if (!o || !pt->action)
			return NULL;
		if (!strcmp(pt->action, "login") && o->login_script)
			return o->login_script;
		if (!strcmp(pt->action, "complete") && o->complete_script)
			return o->complete_script;
		if (!strcmp(pt->action, "token") && o->token_script)
			return o->token_script;
		return o->script;
	default:
		return NULL;
	}
}

const char *pc__suite_rel(const struct pc__suite *s, const char *abs)
{
	size_t n = s->p->source_path ? strlen(s->p->source_path) : 0;

	return n && !strncmp(abs, s->p->source_path, n) && abs[n] == '/'
		       ? abs + n + 1
		       : abs;
}

/* The script's text (NULL when unreadable). */
static char *script_text(const char *abs, size_t *n)
{
	struct pc_buf b = PC_BUF_INIT(MAX_SCRIPT);

	if (!abs || pc_fs_is_dir(abs) || pc_fs_read_capped(abs, &b, NULL) < 0) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, n);
}

/* The first of `needles` in the script at `abs`; {0, 0} none. */
static struct pc_loc find_any(const char *abs, const char *const *needles)
{
	size_t n = 0;
	char *t = script_text(abs, &n);
	struct pc_loc at = { 0, 0 };

	for (size_t i = 0; t && needles[i] && !at.line; i++)
		at = pc_cause_code_line(t, n, needles[i]);
	free(t);
	return at;
}

/* `n` bytes of `p` as a quoted, escaped, cut string (new). */
static char *quote(const char *p, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, "\"");
	for (size_t i = 0; i < n && i < QUOTED; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\r')
			pc_buf_adds(&b, "\\r");
		else if (c == '\n')
			pc_buf_adds(&b, "\\n");
		else if (c == '"' || c == '\\')
			pc_buf_addf(&b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f ||
			 (c >= 0x80 &&
			  pc_cause_bad_utf8(p + i, n - i, NULL) == 0))
			pc_buf_addf(&b, "\\x%02x", c);
		else
			pc_buf_add(&b, p + i, 1);
	}
	pc_buf_adds(&b, n > QUOTED ? "...\"" : "\"");
	return pc_buf_detach(&b, NULL);
}

/* The trimmed text of [from, to) of `s`. */
static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trimmed(const char *s, size_t *from, size_t *to)
{
	while (*from < *to && blank(s[*from]))
		(*from)++;
	while (*to > *from && blank(s[*to - 1]))
		(*to)--;
}

static enum pc_outcome outcome_of(const struct pc_fire *f, bool *json)
{
	*json = f->kind == PC_FIRE_HOOK || f->kind == PC_FIRE_MEMORY ||
		f->kind == PC_FIRE_OAUTH;
	switch (f->kind) {
	case PC_FIRE_HOOK:
		return f->hook.outcome;
	case PC_FIRE_MEMORY:
		return f->mem.outcome;
	case PC_FIRE_OAUTH:
		return f->oauth.outcome;
	default:
		return f->call.outcome;
	}
}

static void bom_finding(struct pc__suite *s, size_t c, const char *where,
			const char *script, size_t at, bool json)
{
	static const char *const writers[] = {
		"utf-8-sig",	   "\\ufeff",	      "\\uFEFF",
		"\\xef\\xbb\\xbf", "\\357\\273\\277", NULL
	};
	struct pc_finding *f = pc__suite_find(
		s, c, "PC-OUT-001", where,
		"stdout starts with a UTF-8 byte order mark (EF BB BF at byte %zu): %s",
		at,
		json ? "the host's JSON parser stops at it (\"expected value at line 1 column 1\"), so the answer is not JSON to it"
		     : "the host does not strip it, so the answer is not JSON to it and the model gets the raw text, BOM included");

	if (script)
		pc__suite_place(f, pc__suite_rel(s, script),
				find_any(script, writers));
}

/* How many of the first `n` bytes of `s` are blanks, from the start. */
static size_t count_blank(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && blank(s[i]))
		i++;
	return i;
}

static void latin1_finding(struct pc__suite *s, size_t c, const char *where,
			   const char *script, const struct pc_buf *out,
			   size_t bad, unsigned cp)
{
	struct pc_finding *f;
	size_t from = bad > 8 ? bad - 8 : 0;
	char *ctx, meant[8] = "";
	char *needle = pc_xmemdup(out->data + from, bad - from + 1);
	const char *needles[] = { needle, NULL };

	/* the text the script meant, for the message */
	if (cp)
		snprintf(meant, sizeof(meant), "%c%c", (char)(0xc0 | (cp >> 6)),
			 (char)(0x80 | (cp & 0x3f)));
	ctx = quote(out->data + from, bad - from + 1);
	if (out->len - bad >= 2 && count_blank(out->data, bad) == bad &&
	    (!memcmp(out->data + bad, "\xff\xfe", 2) ||
	     !memcmp(out->data + bad, "\xfe\xff", 2)))
		f = pc__suite_find(
			s, c, "PC-OUT-002", where,
			"stdout starts with %02X %02X, a UTF-16 byte order mark: the script writes UTF-16 (as PowerShell does by default), which the host decodes as UTF-8, lossily, showing U+FFFD",
			(unsigned char)out->data[bad],
			(unsigned char)out->data[bad + 1]);
	else
		f = pc__suite_find(
			s, c, "PC-OUT-002", where,
			"stdout byte %zu (0x%02x, in %s) is not UTF-8%s%s%s: the host decodes stdout lossily and shows U+FFFD in its place",
			bad, (unsigned char)out->data[bad], ctx,
			cp ? "; as Latin-1 it is '" : "", meant, cp ? "'" : "");
	if (script && strlen(needle) == bad - from + 1)
		pc__suite_place(f, pc__suite_rel(s, script),
				find_any(script, needles));
	free(ctx);
	free(needle);
}

/* Text before or after a JSON answer: PC-OUT-003 (hooks, memory, OAuth:
 * the call fails) or PC-OUT-004 (tools, commands: the raw text is the
 * result). */
static void embed_finding(struct pc__suite *s, size_t c, const char *where,
			  const char *script, const struct pc_buf *out,
			  const struct pc_cause_embed *e, bool json)
{
	size_t a = 0, b = e->start, n = 0;
	char *text = script_text(script, &n), *q;
	struct pc_finding *f;
	struct pc_loc at = { 0, 0 };
	const char *side = "before";

	if (!e->before) {
		a = e->end;
		b = out->len;
		side = "after";
	}
	trimmed(out->data, &a, &b);
	q = quote(out->data + a, b - a);
	if (text)
		at = pc_cause_printed_line(text, n, out->data + a, b - a);
	f = pc__suite_find(
		s, c, json ? "PC-OUT-003" : "PC-OUT-004", where,
		"stdout has %zu bytes of text %s the JSON answer (%s%s)%s: %s",
		e->before ? e->before : e->after, side, q,
		e->carriage ? ", a progress line redrawn with \\r" : "",
		e->before && e->after ? " and more after it" : "",
		json ? "the host parses all of stdout as one JSON value, so the call fails with invalid JSON"
		     : "stdout is not one JSON value, so the host passes all of it, text included, to the model as the result");
	if (script)
		pc__suite_place(f, pc__suite_rel(s, script), at);
	free(q);
	free(text);
}

/* A tool's or command's JSON answer (R6.2.5): an object with ok, output,
 * result or error. Text around any other JSON is just text the model
 * reads. */
static bool protocol_answer(const char *p, size_t n)
{
	static const char *const keys[] = { "ok", "output", "result", "error" };
	cJSON *v = NULL;
	bool yes = false;

	if (pc_serde_parse(p, n, &v, NULL) == 0)
		for (size_t i = 0; i < 4 && !yes; i++)
			yes = pc_serde_get(v, keys[i]) != NULL;
	cJSON_Delete(v);
	return yes;
}

void pc__suite_answer_bytes(struct pc__suite *s, size_t c, const char *where,
			    const struct pc_fire *f, const char *script)
{
	const struct pc_buf *out = &f->x.proc.out;
	struct pc_cause_embed e;
	bool json;
	enum pc_outcome o = outcome_of(f, &json);
	size_t at, bad;
	unsigned cp = 0;

	if (!f->x.spawned || !out->len ||
	    (o != PC_OUT_OK && !(json && o == PC_OUT_INVALID_JSON)))
		return;
	if (pc_cause_bom(out->data, out->len, &at)) {
		bom_finding(s, c, where, script, at, json);
		return;
	}
	bad = pc_cause_bad_utf8(out->data, out->len, &cp);
	if (bad != (size_t)-1)
		latin1_finding(s, c, where, script, out, bad, cp);
	if (pc_cause_embedded_json(out->data, out->len, &e) &&
	    (json || protocol_answer(out->data + e.start, e.end - e.start)))
		embed_finding(s, c, where, script, out, &e, json);
}

/* ---- modify and reason ---- */

static bool tool_hook(int point)
{
	return point == PC_HOOK_PRE_BASH || point == PC_HOOK_PRE_WRITE ||
	       point == PC_HOOK_PRE_READ || point == PC_HOOK_PRE_TOOL;
}

/* Where in the script the answer names `key` ("key", \"key\", 'key'). */
static struct pc_loc key_line(const char *script, const char *key)
{
	char *a = pc_xasprintf("\"%s\"", key),
	     *b = pc_xasprintf("\\\"%s\\\"", key);
	char *c = pc_xasprintf("'%s'", key);
	const char *needles[] = { a, b, c, NULL };
	struct pc_loc at = find_any(script, needles);

	free(a);
	free(b);
	free(c);
	return at;
}

static char *joined(const struct pc_strvec *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < v->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? ", " : "", v->v[i]);
	return pc_buf_detach(&b, NULL);
}

/* The tool's parameter names: a built-in's, or a plugin tool's schema. */
static void tool_params(const struct pc__suite *s, const char *tool,
			const char *const **names, const cJSON **params)
{
	*names = pc_cause_builtin_params(tool);
	*params = NULL;
	for (size_t i = 0; !*names && i < s->p->ntools; i++)
		if (!strcmp(s->p->tools[i].name, tool)) {
			*params = s->p->tools[i].parameters;
			return;
		}
}

static void param_list(const char *const *names, const cJSON *params,
		       struct pc_strvec *out)
{
	const cJSON *e;

	for (size_t i = 0; names && names[i]; i++)
		pc_strvec_push(out, names[i]);
	cJSON_ArrayForEach(e, pc_serde_get(params, "properties"))
		pc_strvec_push(out, e->string);
}

/* modify without the keys the tool has no parameter for (new). */
static cJSON *known_part(const cJSON *modify, const struct pc_strvec *unknown)
{
	cJSON *k = cJSON_Duplicate(modify, 1);

	for (size_t i = 0; i < unknown->nr; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(k, unknown->v[i]);
	return k;
}

/* Does a call of `tool` ask for approval under the default approval
 * mode ("destructive", R6.4)? Built-ins by their class, plugin tools by
 * their kind. */
static bool asks_approval(const struct pc__suite *s, const char *tool)
{
	static const char *const destructive[] = { "bash", "write_file",
						   "edit" };

	for (size_t i = 0; i < 3; i++)
		if (!strcmp(destructive[i], tool))
			return true;
	for (size_t i = 0; i < s->p->ntools; i++)
		if (!strcmp(s->p->tools[i].name, tool))
			return !s->p->tools[i].readonly;
	return false;
}

static void approved(struct pc__suite *s, size_t c,
		     const struct pc__suite_shot *h, const cJSON *args,
		     const cJSON *known)
{
	const char *key = pc_cause_modify_changed(known, args);
	const cJSON *old = pc_serde_get(args, key ? key : "");
	char *was, *now;
	struct pc_finding *f;

	if (!key || !asks_approval(s, h->tool))
		return;
	was = old ? pc_serde_to_string(old) : pc_xstrdup("(absent)");
	now = pc_serde_to_string(pc_serde_get(known, key));
	f = pc__suite_find(
		s, c, "PC-HOOK-022", h->where,
		"modify changes \"%s\" of the %s call from %s to %s after the user approved it: the host asks for approval of a destructive call before the pre hooks run, so what runs is not what was approved",
		key, h->tool, was, now);
	pc__suite_place(f, pc__suite_rel(s, h->script),
			key_line(h->script, key));
	free(was);
	free(now);
}

static void modify_checks(struct pc__suite *s, size_t c,
			  const struct pc__suite_shot *h, const cJSON *modify)
{
	struct pc_strvec unknown = PC_STRVEC_INIT, nested = PC_STRVEC_INIT;
	struct pc_strvec names = PC_STRVEC_INIT;
	const char *const *builtin;
	const cJSON *params;
	cJSON *args = NULL, *known;
	struct pc_finding *f;
	char *list, *have;

	tool_params(s, h->tool, &builtin, &params);
	if (h->args_text)
		pc_serde_parse(h->args_text, strlen(h->args_text), &args, NULL);
	if ((builtin || params) &&
	    pc_cause_modify_unknown(modify, builtin, params, &unknown)) {
		param_list(builtin, params, &names);
		list = joined(&unknown);
		have = joined(&names);
		f = pc__suite_find(
			s, c, "PC-HOOK-020", h->where,
			"modify sets %s, which %s has no parameter for (its parameters: %s): the host adds %s to the call's arguments and the tool ignores %s, so the change has no effect",
			list, h->tool, *have ? have : "none",
			unknown.nr > 1 ? "them" : "it",
			unknown.nr > 1 ? "them" : "it");
		pc__suite_place(f, pc__suite_rel(s, h->script),
				key_line(h->script, unknown.v[0]));
		free(list);
		free(have);
	}
	if (args && pc_cause_modify_nested(modify, args, &nested)) {
		list = joined(&nested);
		f = pc__suite_find(
			s, c, "PC-HOOK-021", h->where,
			"modify replaces %s: the host merges modify one level deep, so the nested object replaces the call's whole and the members it lacks are lost",
			list);
		pc__suite_place(f, pc__suite_rel(s, h->script),
				key_line(h->script, nested.v[0]));
		free(list);
	}
	known = known_part(modify, &unknown);
	if (args)
		approved(s, c, h, args, known);
	cJSON_Delete(known);
	cJSON_Delete(args);
	pc_strvec_release(&unknown);
	pc_strvec_release(&nested);
	pc_strvec_release(&names);
}

/* R4.6, R4.11: where the host throws the reason away. */
static bool reason_discarded(int point, const struct pc_hook_result *r)
{
	switch (point) {
	case PC_HOOK_SESSION_START:
	case PC_HOOK_TURN_START:
	case PC_HOOK_TURN_END:
	case PC_HOOK_SESSION_STOP:
	case PC_HOOK_PRE_COMPACT:
	case PC_HOOK_SESSION_SHUTDOWN:
	case PC_HOOK_PRE_AGENT_START:
	case PC_HOOK_PRE_CONTEXT:
		return true;
	case PC_HOOK_PRE_INPUT:
		return r->allow;
	default:
		return false;
	}
}

void pc__suite_hook_causes(struct pc__suite *s, size_t c,
			   const struct pc__suite_shot *h,
			   const struct pc_hook_result *r, const cJSON *answer)
{
	const cJSON *reason = pc_serde_get(answer, "reason");
	const cJSON *modify = pc_serde_get(answer, "modify");
	const char *n = pc_hook_point_name((enum pc_hook_point)h->point);

	if (cJSON_IsString(reason) && *reason->valuestring &&
	    reason_discarded(h->point, r)) {
		const char *needles[] = { reason->valuestring, NULL };
		struct pc_finding *f = pc__suite_find(
			s, c, "PC-HOOK-023", h->where,
			"'%s' answered reason \"%s\": the host discards it at this point%s",
			n, reason->valuestring,
			h->point == PC_HOOK_PRE_INPUT
				? " when the input is allowed"
				: "; notify, when given, is shown as an info line");

		pc__suite_place(f, pc__suite_rel(s, h->script),
				find_any(h->script, needles));
	}
	if (tool_hook(h->point) && r->allow && cJSON_IsObject(modify) &&
	    modify->child)
		modify_checks(s, c, h, modify);
}

/* ---- the working directory ---- */

/* A directory holding only `name`, linked to the plugin's copy (new
 * path, or NULL). */
static char *probe_dir(const struct pc__suite *s, const char *dir,
		       const char *name, size_t k)
{
	char *root = pc_xasprintf("%s/cwd-probe-%zu", s->tmp, k);
	char *link = pc_fs_join(root, name), *target = pc_fs_join(dir, name);
	char *slash = strrchr(link, '/');

	pc_fs_rm_rf(root);
	*slash = '\0';
	pc_fs_mkdir_p(link, NULL);
	*slash = '/';
	if (symlink(target, link)) {
		pc_fs_rm_rf(root);
		free(root);
		root = NULL;
	}
	free(link);
	free(target);
	return root;
}

void pc__suite_cwd_found(struct pc__suite *s, size_t c, const char *where,
			 const struct pc_fire_point *pt,
			 const struct pc_fire_input *in,
			 const struct pc_fire *there, const char *contrast)
{
	const char *script = pc__suite_script(s, pt);
	const char *dir = s->p->source_path ? s->p->source_path : s->p->dir;
	struct pc_cause_file files[MAX_PROBED];
	size_t n = 0, nf = 0, hit = MAX_PROBED;
	char *text = script_text(script, &n);
	struct pc_finding *f;

	if (text)
		nf = pc_cause_relative_files(text, n, dir,
					     pc__suite_rel(s, script), files,
					     MAX_PROBED);
	for (size_t k = 0; k < nf && hit == MAX_PROBED && !pc__suite_stopped(s);
	     k++) {
		struct pc_fire probe = PC_FIRE_INIT;
		char *cwd = probe_dir(s, dir, files[k].name, k);

		if (!cwd)
			continue;
		pc__suite_fire(s, pt, in, cwd, &probe);
		if (pc__suite_same(there, &probe))
			hit = k;
		pc_fire_release(&probe);
		pc_fs_rm_rf(cwd);
		free(cwd);
	}
	if (hit < MAX_PROBED) {
		f = pc__suite_find(
			s, c, "PC-ENV-003", where,
			"reads '%s' (%s line %u) relative to its working directory: %s; with only that file in its working directory it answers as in the plugin directory. The host never sets the working directory (R5.4): resolve it from the script's own path",
			files[hit].name, pc__suite_rel(s, script),
			files[hit].at.line, contrast);
		pc__suite_place(f, pc__suite_rel(s, script), files[hit].at);
	} else {
		f = pc__suite_find(
			s, c, "PC-ENV-003", where,
			"%s: it reads files relative to the working directory, which the host never sets (R5.4)%s%s",
			contrast, nf ? "; it names " : "",
			nf ? files[0].name : "");
		if (nf && script)
			pc__suite_place(f, pc__suite_rel(s, script),
					files[0].at);
	}
	pc_cause_files_release(files, nf);
	free(text);
}

/* pc_chatcli_toolcall.c - the model's reply to tool calls, as the host's
 * tool-call parser does it (spec chatcli.md §4 A1, A2; recovery A3). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

/* A text being scanned: bytes and length (no NUL inside is expected, but
 * every bound is checked against n). */
struct txt {
	const char *p;
	size_t n;
};

static void push(struct pc_chatcli_tool_calls *c, const char *name,
		 size_t name_len, const char *args, const char *raw,
		 size_t raw_len, const char *form)
{
	struct pc_chatcli_tool_call *k;

	c->v = pc_xreallocarray(c->v, c->nr + 1, sizeof(*c->v));
	k = &c->v[c->nr++];
	k->name = pc_xmemdup(name, name_len);
	k->args = pc_xstrdup(args);
	k->raw = pc_xmemdup(raw, raw_len);
	k->form = form;
}

/* index_ci - ASCII case-insensitive search of `needle` in t[from..n). */
static long index_ci(struct txt t, size_t from, const char *needle)
{
	size_t m = strlen(needle);

	for (size_t i = from; i + m <= t.n; i++)
		if (!strncasecmp(t.p + i, needle, m))
			return (long)i;
	return -1;
}

static bool attr_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return pc_xmemdup(s, n);
}

/* --- A1/A2: <tool_call ...> and <tool ...> tags ----------------------------
 */

/* tag_end - index of '/' of "/>" (*self = true) or of '>' ending the
 * opening tag from `pos`, skipping quoted values; -1 when unterminated. */
static long tag_end(struct txt t, size_t pos, bool *self)
{
	bool sq = false, dq = false;

	for (size_t i = pos; i < t.n; i++) {
		char c = t.p[i];

		if ((sq || dq) && c == '\\' && i + 1 < t.n) {
			i++;
		} else if (dq || sq) {
			if ((dq && c == '"') || (sq && c == '\''))
				sq = dq = false;
		} else if (c == '"') {
			dq = true;
		} else if (c == '\'') {
			sq = true;
		} else if (c == '/' && i + 1 < t.n && t.p[i + 1] == '>') {
			*self = true;
			return (long)i;
		} else if (c == '>') {
			*self = false;
			return (long)i;
		}
	}
	return -1;
}

/* quoted_value - A2: the value of the quoted attribute at a[pos] (the
 * quote); a backslash escapes only that quote or a backslash and is kept
 * before anything else; an unterminated value takes the rest. */
static char *quoted_value(const char *a, size_t n, size_t pos)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char q = a[pos];

	for (size_t i = pos + 1; i < n; i++) {
		if (a[i] == '\\' && i + 1 < n) {
			if (a[i + 1] == q || a[i + 1] == '\\')
				pc_buf_addch(&b, a[++i]);
			else
				pc_buf_addch(&b, a[i]);
			continue;
		}
		if (a[i] == q)
			break;
		pc_buf_addch(&b, a[i]);
	}
	return pc_buf_detach(&b, NULL);
}

/* attr - the value of attribute `key` in a[0..n), or NULL when the host's
 * extractAttrStateful fails (absent, or `key=` at the very end). */
static char *attr(const char *a, size_t n, const char *key)
{
	char *low = pc_xmemdup(a, n);
	size_t kl = strlen(key), from = 0;
	char *out = NULL;

	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	for (;;) {
		char *hit = from <= n ? strstr(low + from, key) : NULL;
		size_t pos, at;

		if (!hit)
			break;
		pos = (size_t)(hit - low);
		if (pos > 0 && attr_name_char(a[pos - 1])) {
			from = pos + kl;
			continue;
		}
		at = pos + kl;
		while (at < n && (a[at] == ' ' || a[at] == '\t'))
			at++;
		if (at >= n || a[at] != '=') {
			from = at;
			continue;
		}
		for (at++; at < n && (a[at] == ' ' || a[at] == '\t'); at++)
			;
		if (at >= n)
			break;
		if (a[at] != '"' && a[at] != '\'') {
			size_t e = at;
			char *raw;

			while (e < n && a[e] != ' ' && a[e] != '\t' &&
			       a[e] != '\n')
				e++;
			raw = pc_xmemdup(a + at, e - at);
			out = pc__chatcli_html_unescape(raw);
			free(raw);
		} else {
			out = quoted_value(a, n, at);
		}
		break;
	}
	free(low);
	return out;
}

static void parse_tags(struct txt t, struct pc_chatcli_tool_calls *c,
		       const char *form)
{
	size_t from = 0;

	while (from < t.n) {
		long idx = index_ci(t, from, "<tool"), e;
		size_t start, after, raw_end, tl = 4;
		bool self = false;
		char *name, *args, *nt;

		if (idx < 0)
			break;
		start = (size_t)idx;
		if (start + 10 <= t.n &&
		    !strncasecmp(t.p + start, "<tool_call", 10))
			tl = 9;
		after = start + 1 + tl;
		if (after < t.n && !is_ws(t.p[after]) && t.p[after] != '>' &&
		    t.p[after] != '/') {
			from = after;
			continue;
		}
		if ((e = tag_end(t, after, &self)) < 0) {
			from = after;
			continue;
		}
		raw_end = (size_t)e + (self ? 2 : 1);
		if (!self) {
			long ce =
				index_ci(t, raw_end,
					 tl == 9 ? "</tool_call>" : "</tool>");

			if (ce >= 0)
				raw_end = (size_t)ce + (tl == 9 ? 12 : 7);
		}
		name = attr(t.p + after, (size_t)e - after, "name");
		if (name) {
			args = attr(t.p + after, (size_t)e - after, "args");
			nt = trim_dup(name, strlen(name));
			push(c, nt, strlen(nt), args ? args : "", t.p + start,
			     raw_end - start, form);
			free(nt);
			free(args);
			free(name);
		}
		from = raw_end;
	}
}

/* --- A1: JSON objects in the prose ------------------------------------------
 */

/* json_object_len - length of the balanced {...} at t[pos] (quotes of both
 * kinds and their escapes respected), 0 when unbalanced. */
static size_t json_object_len(struct txt t, size_t pos)
{
	bool sq = false, dq = false, esc = false;
	int depth = 0;

	if (pos >= t.n || t.p[pos] != '{')
		return 0;
	for (size_t i = pos; i < t.n; i++) {
		char ch = t.p[i];

		if (esc) {
			esc = false;
		} else if (ch == '\\' && (dq || sq)) {
			esc = true;
		} else if (dq) {
			dq = ch != '"';
		} else if (sq) {
			sq = ch != '\'';
		} else if (ch == '"') {
			dq = true;
		} else if (ch == '\'') {
			sq = true;
		} else if (ch == '{') {
			depth++;
		} else if (ch == '}' && --depth == 0) {
			return i + 1 - pos;
		}
	}
	return 0;
}

/* get - Go map lookup: the last member named `k`, or NULL. */
static const cJSON *get(const cJSON *o, const char *k)
{
	const cJSON *it, *found = NULL;

	cJSON_ArrayForEach(it, o)
	{
		if (!strcmp(it->string, k))
			found = it;
	}
	return found;
}

static const char *get_str(const cJSON *o, const char *k)
{
	const cJSON *v = get(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static char *args_text(const cJSON *v)
{
	return cJSON_IsString(v) ? pc_xstrdup(v->valuestring)
				 : pc_chatcli_go_marshal(v);
}

/* to_call - jsonObjToToolCall: *name and *args (new strings) or false. */
static bool to_call(const cJSON *o, char **name, char **args)
{
	static const char *const coder_cmds[] = {
		"read",	       "write",	     "patch",	 "tree",
		"search",      "exec",	     "test",	 "rollback",
		"clean",       "git-status", "git-diff", "git-log",
		"git-changed", "git-branch", NULL
	};
	const char *nm = get_str(o, "tool_call"), *cmd = get_str(o, "cmd");
	const cJSON *a = get(o, "args");

	if (get(o, "url") || (get(o, "title") && get(o, "snippet")) ||
	    (get(o, "type") && get(o, "error")))
		return false;
	if (!nm)
		nm = get_str(o, "name");
	if (!nm)
		nm = get_str(o, "tool");
	if (!a)
		a = get(o, "arguments");
	if (nm && nm[0] == '@') {
		*name = pc_xstrdup(nm);
		*args = a ? args_text(a) : pc_xstrdup("");
		return true;
	}
	if (cmd && *cmd) {
		bool known = false;

		for (size_t i = 0; coder_cmds[i]; i++)
			known |= !strcmp(coder_cmds[i], cmd);
		if (known) {
			const cJSON *in = get(o, "args");
			cJSON *w;

			if (!strcmp(cmd, "search") && cJSON_IsObject(in) &&
			    get(in, "query"))
				return false;
			w = cJSON_CreateObject();
			cJSON_AddStringToObject(w, "cmd", cmd);
			if (in)
				cJSON_AddItemToObject(
					w, "args", cJSON_Duplicate(in, true));
			*name = pc_xstrdup("@coder");
			*args = pc_chatcli_go_marshal(w);
			cJSON_Delete(w);
			return true;
		}
	}
	if (nm && !strcmp(nm, "coder")) {
		*name = pc_xstrdup("@coder");
		*args = a ? args_text(a) : pc_xstrdup("");
		return true;
	}
	return false;
}

/* duplicate - isDuplicateToolCall against calls [from, c->nr). */
static bool duplicate(const struct pc_chatcli_tool_calls *c, size_t from,
		      const char *name, const char *args, const char *raw)
{
	for (size_t i = from; i < c->nr; i++) {
		const struct pc_chatcli_tool_call *k = &c->v[i];

		if (strcmp(k->name, name))
			continue;
		if (strstr(k->args, args) ||
		    (*raw && *k->raw && strstr(k->raw, raw)))
			return true;
	}
	return false;
}

/* parse_json - parseJSONToolCalls; with `dedup`, calls repeating one at
 * index >= dedup_from are dropped (ParseToolCalls' first pass only). */
static void parse_json(struct txt t, struct pc_chatcli_tool_calls *c,
		       bool dedup, size_t dedup_from, const char *form)
{
	for (size_t i = 0; i < t.n; i++) {
		size_t len = t.p[i] == '{' ? json_object_len(t, i) : 0;
		char *js, *name = NULL, *args = NULL;
		cJSON *o;

		if (!len)
			continue;
		js = pc_xmemdup(t.p + i, len);
		o = pc_chatcli_json_parse(js, len, NULL);
		if (!o) {
			char *rec = pc_chatcli_recover_args("", js);

			if (strcmp(rec, js))
				o = pc_chatcli_json_parse(rec, strlen(rec),
							  NULL);
			free(js);
			js = rec;
		}
		if (!cJSON_IsObject(o) || !to_call(o, &name, &args)) {
			cJSON_Delete(o);
			free(js);
			continue;
		}
		if (!dedup || !duplicate(c, dedup_from, name, args, js))
			push(c, name, strlen(name), args, js, strlen(js), form);
		i += strlen(js) - 1;
		free(name);
		free(args);
		free(js);
		cJSON_Delete(o);
	}
}

/* --- A1: ``` fenced blocks and the [tool: @x ...] shorthand --------------- */

static void parse_fenced(struct txt t, struct pc_chatcli_tool_calls *c)
{
	size_t from = 0;

	while (from < t.n) {
		const char *s = strstr(t.p + from, "```"), *le, *ce;
		struct txt block;

		if (!s || (size_t)(s - t.p) + 3 > t.n ||
		    !(le = strchr(s + 3, '\n')) || !(ce = strstr(le, "```")))
			break;
		block.p = le;
		block.n = (size_t)(ce - le);
		{
			char *b = pc_xmemdup(block.p, block.n);
			struct txt bt = { b, block.n };

			parse_tags(bt, c, "fenced");
			parse_json(bt, c, false, 0, "fenced");
			free(b);
		}
		from = (size_t)(ce - t.p) + 3;
	}
}

static size_t skip_blank(struct txt t, size_t pos)
{
	while (pos < t.n && (t.p[pos] == ' ' || t.p[pos] == '\t'))
		pos++;
	return pos;
}

static void parse_bracket(struct txt t, struct pc_chatcli_tool_calls *c)
{
	size_t from = 0;

	while (from < t.n) {
		long idx = index_ci(t, from, "[tool");
		size_t start, pos, ns, end;
		char *name, *args;

		if (idx < 0)
			break;
		start = (size_t)idx;
		pos = start + 5;
		if (pos + 5 <= t.n && !strncasecmp(t.p + pos, "_call", 5))
			pos += 5;
		pos = skip_blank(t, pos);
		if (pos >= t.n || t.p[pos] != ':') {
			from = start + 1;
			continue;
		}
		pos = skip_blank(t, pos + 1);
		ns = pos;
		if (pos < t.n && t.p[pos] == '@')
			pos++;
		while (pos < t.n && attr_name_char(t.p[pos]))
			pos++;
		if (pos - ns - (t.p[ns] == '@') == 0) {
			from = start + 1;
			continue;
		}
		name = t.p[ns] == '@' ? pc_xmemdup(t.p + ns, pos - ns)
				      : pc_xasprintf("@%.*s", (int)(pos - ns),
						     t.p + ns);
		while (pos < t.n && is_ws(t.p[pos]))
			pos++;
		end = pos < t.n && t.p[pos] == '{' ? json_object_len(t, pos)
						   : 0;
		if (end) {
			args = pc_xmemdup(t.p + pos, end);
			end += pos;
		} else if (pos < t.n && t.p[pos] == ']') {
			args = pc_xstrdup("");
			end = pos;
		} else {
			const char *cb = memchr(t.p + pos, ']', t.n - pos);

			end = cb ? (size_t)(cb - t.p) : t.n;
			args = trim_dup(t.p + pos, end - pos);
		}
		end = skip_blank(t, end);
		if (end < t.n && t.p[end] == ']')
			end++;
		push(c, name, strlen(name), args, t.p + start, end - start,
		     "bracket");
		free(name);
		free(args);
		from = end;
	}
}

size_t pc_chatcli_parse_calls(const char *text,
			      struct pc_chatcli_tool_calls *out)
{
	struct txt t = { text ? text : "", text ? strlen(text) : 0 };
	size_t first = out->nr;

	parse_tags(t, out, "tag");
	parse_json(t, out, true, first, "json");
	if (out->nr == first)
		parse_fenced(t, out);
	if (out->nr == first)
		parse_bracket(t, out);
	for (size_t i = first; i < out->nr; i++) {
		char *r =
			pc_chatcli_recover_args(out->v[i].name, out->v[i].args);

		free(out->v[i].args);
		out->v[i].args = r;
	}
	return out->nr - first;
}

void pc_chatcli_tool_calls_release(struct pc_chatcli_tool_calls *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].name);
		free(c->v[i].args);
		free(c->v[i].raw);
	}
	free(c->v);
	c->v = NULL;
	c->nr = 0;
}

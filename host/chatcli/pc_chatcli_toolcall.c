/* pc_chatcli_toolcall.c - the model's reply to tool calls, as the host's
 * tool-call parser does it (spec chatcli.md §4 A1, A2; recovery A3).
 *
 * The text is a Go string (bytes and a length). The host finds tags and
 * attribute names at positions of strings.ToLower(text) and uses them in
 * the original text; that is reproduced, and so are the runtime panics
 * Go raises when such a position falls outside the text (struct
 * pc_chatcli_tool_calls' panic). */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

/* A text being scanned, and where the calls go. */
struct txt {
	const char *p;
	size_t n;
};

struct parse {
	struct pc_chatcli_tool_calls *c;
	char *panic; /* set once: stop everything */
};

static void go_panic(struct parse *ps, char *msg)
{
	if (!ps->panic)
		ps->panic = msg;
	else
		free(msg);
}

static void push(struct pc_chatcli_tool_calls *c, struct txt name,
		 struct txt args, struct txt raw, const char *form)
{
	struct pc_chatcli_tool_call *k;

	c->v = pc_xreallocarray(c->v, c->nr + 1, sizeof(*c->v));
	k = &c->v[c->nr++];
	k->name = pc_xmemdup(name.p, name.n);
	k->name_len = name.n;
	k->args = pc_xmemdup(args.p, args.n);
	k->args_len = args.n;
	k->raw = pc_xmemdup(raw.p, raw.n);
	k->raw_len = raw.n;
	k->form = form;
}

static struct txt tx(const char *p, size_t n)
{
	return (struct txt){ p, n };
}

/* index_ci - indexCaseInsensitive(hay, needle): the index of the
 * (lower-case ASCII) needle in strings.ToLower(hay) - an index into the
 * lowered text, which the host then uses in `hay`. -1 when absent. */
static long index_ci(struct txt hay, const char *needle)
{
	size_t ln;
	char *low = pc__chatcli_lower(hay.p, hay.n, &ln);
	long i = pc__chatcli_index(low, ln, needle, strlen(needle));

	free(low);
	return i;
}

static bool attr_name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* --- A1/A2: <tool_call ...> and <tool ...> tags ----------------------------
 */

/* tag_end - scanTagEnd: index of '/' of "/>" (*self = true) or of '>'
 * ending the opening tag from `pos`, skipping quoted values; -1 when
 * unterminated. */
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

/* quoted_value - extractQuotedValue: the value of the quoted attribute at
 * a[pos] (the quote); a backslash escapes only that quote or a backslash
 * and is kept before anything else; an unterminated value takes the
 * rest. */
static char *quoted_value(struct txt a, size_t pos, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char q = a.p[pos];

	for (size_t i = pos + 1; i < a.n; i++) {
		if (a.p[i] == '\\' && i + 1 < a.n) {
			if (a.p[i + 1] == q || a.p[i + 1] == '\\')
				pc_buf_addch(&b, a.p[++i]);
			else
				pc_buf_addch(&b, a.p[i]);
			continue;
		}
		if (a.p[i] == q)
			break;
		pc_buf_addch(&b, a.p[i]);
	}
	return pc_buf_detach(&b, out_n);
}

/* attr - extractAttrStateful(a, key): the value (new string) or NULL when
 * the host fails (absent, or `key=` at the very end, or a panic). */
static char *attr(struct parse *ps, struct txt a, const char *key,
		  size_t *out_n)
{
	size_t ln, kl = strlen(key), from = 0;
	char *low = pc__chatcli_lower(a.p, a.n, &ln), *out = NULL;

	for (;;) {
		long hit;
		size_t pos, at;

		if (from > ln) {
			go_panic(ps, pc_xasprintf(
					     "runtime error: slice bounds out of range [%zu:%zu]",
					     from, ln));
			break;
		}
		hit = pc__chatcli_index(low + from, ln - from, key, kl);
		if (hit < 0)
			break;
		pos = from + (size_t)hit;
		if (pos > 0) {
			if (pos - 1 >= a.n) {
				go_panic(ps, pc_xasprintf(
						     "runtime error: index out of range [%zu] with length %zu",
						     pos - 1, a.n));
				break;
			}
			if (attr_name_char((unsigned char)a.p[pos - 1])) {
				from = pos + kl;
				continue;
			}
		}
		at = pos + kl;
		while (at < a.n && (a.p[at] == ' ' || a.p[at] == '\t'))
			at++;
		if (at >= a.n || a.p[at] != '=') {
			from = at;
			continue;
		}
		for (at++; at < a.n && (a.p[at] == ' ' || a.p[at] == '\t'); at++)
			;
		if (at >= a.n)
			break;
		if (a.p[at] != '"' && a.p[at] != '\'') {
			size_t e = at;

			while (e < a.n && a.p[e] != ' ' && a.p[e] != '\t' &&
			       a.p[e] != '\n')
				e++;
			out = pc__chatcli_html_unescape(a.p + at, e - at, out_n);
		} else {
			out = quoted_value(a, at, out_n);
		}
		break;
	}
	free(low);
	return out;
}

/* parse_tags - parseXMLToolCalls. */
static void parse_tags(struct parse *ps, struct txt t, const char *form)
{
	size_t from = 0;

	while (from < t.n && !ps->panic) {
		long idx = index_ci(tx(t.p + from, t.n - from), "<tool"), e;
		size_t start, after, raw_end, tl = 4, nn, an = 0;
		bool self = false;
		char *name, *args;
		struct txt a, nt;

		if (idx < 0)
			break;
		start = from + (size_t)idx;
		if (start + 10 <= t.n &&
		    pc__chatcli_equal_fold_ascii(t.p + start, 10, "<tool_call"))
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
			long ce = index_ci(tx(t.p + raw_end, t.n - raw_end),
					   tl == 9 ? "</tool_call>" : "</tool>");

			if (ce >= 0)
				raw_end += (size_t)ce + (tl == 9 ? 12 : 7);
		}
		if (raw_end > t.n || start > raw_end) {
			go_panic(ps, raw_end > t.n
					     ? pc_xasprintf(
						       "runtime error: slice bounds out of range [:%zu] with length %zu",
						       raw_end, t.n)
					     : pc_xasprintf(
						       "runtime error: slice bounds out of range [%zu:%zu]",
						       start, raw_end));
			break;
		}
		a = tx(t.p + after, (size_t)e - after);
		name = attr(ps, a, "name", &nn);
		if (name && !ps->panic) {
			args = attr(ps, a, "args", &an);
			nt = tx(name, nn);
			pc__chatcli_trim_space(&nt.p, &nt.n);
			if (!ps->panic)
				push(ps->c, nt, tx(args ? args : "", args ? an : 0),
				     tx(t.p + start, raw_end - start), form);
			free(args);
		}
		free(name);
		from = raw_end;
	}
}

/* --- A1: JSON objects in the prose ------------------------------------------
 */

/* json_object_len - extractJSONObject: the length of the balanced {...}
 * at t[pos] (quotes of both kinds and their escapes respected), 0 when
 * unbalanced. */
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

static const struct pc_chatcli_jv *get(const struct pc_chatcli_jv *o,
				       const char *k)
{
	return pc_chatcli_jv_get(o, k, strlen(k));
}

static const struct pc_chatcli_jv *get_str(const struct pc_chatcli_jv *o,
					   const char *k)
{
	const struct pc_chatcli_jv *v = get(o, k);

	return v && v->kind == PC_CHATCLI_JV_STRING ? v : NULL;
}

/* args_text - extractArgs: a string as it is, anything else marshalled. */
static char *args_text(const struct pc_chatcli_jv *v, size_t *n)
{
	if (v->kind == PC_CHATCLI_JV_STRING)
		return pc_xmemdup(v->s, *n = v->n);
	return pc_chatcli_jv_marshal(v, n);
}

static bool str_is(const struct pc_chatcli_jv *v, const char *s)
{
	return v && v->n == strlen(s) && !memcmp(v->s, s, v->n);
}

/* to_call - jsonObjToToolCall: *name, *args (new strings) or false. */
static bool to_call(const struct pc_chatcli_jv *o, struct pc_chatcli_str *name,
		    struct pc_chatcli_str *args)
{
	static const char *const coder_cmds[] = {
		"read",	       "write",	     "patch",	 "tree",
		"search",      "exec",	     "test",	 "rollback",
		"clean",       "git-status", "git-diff", "git-log",
		"git-changed", "git-branch", NULL
	};
	const struct pc_chatcli_jv *nm = get_str(o, "tool_call"),
				   *cmd = get_str(o, "cmd"), *a = get(o, "args");

	if (get(o, "url") || (get(o, "title") && get(o, "snippet")) ||
	    (get(o, "type") && get(o, "error")))
		return false;
	/* the first of tool_call, name, tool that is a string */
	if (!nm)
		nm = get_str(o, "name");
	if (!nm)
		nm = get_str(o, "tool");
	if (!a)
		a = get(o, "arguments");
	if (nm && nm->n && nm->s[0] == '@') {
		name->p = pc_xmemdup(nm->s, name->n = nm->n);
		args->p = a ? args_text(a, &args->n)
			    : (args->n = 0, pc_xstrdup(""));
		return true;
	}
	if (cmd && cmd->n) {
		bool known = false;

		for (size_t i = 0; coder_cmds[i]; i++)
			known |= str_is(cmd, coder_cmds[i]);
		if (known) {
			const struct pc_chatcli_jv *in = get(o, "args");
			struct pc_chatcli_jv w = PC_CHATCLI_JV_INIT;

			if (str_is(cmd, "search") && in &&
			    in->kind == PC_CHATCLI_JV_OBJECT && get(in, "query"))
				return false;
			w.kind = PC_CHATCLI_JV_OBJECT;
			pc_chatcli_jv_set_string(pc_chatcli_jv_append(&w, "cmd", 3),
						 cmd->s, cmd->n);
			if (in)
				pc_chatcli_jv_copy(
					pc_chatcli_jv_append(&w, "args", 4), in);
			name->p = pc_xstrdup("@coder");
			name->n = 6;
			args->p = pc_chatcli_jv_marshal(&w, &args->n);
			pc_chatcli_jv_release(&w);
			return true;
		}
	}
	if (str_is(nm, "coder")) {
		name->p = pc_xstrdup("@coder");
		name->n = 6;
		args->p = a ? args_text(a, &args->n)
			    : (args->n = 0, pc_xstrdup(""));
		return true;
	}
	return false;
}

static bool contains(const char *h, size_t hn, const char *n, size_t nn)
{
	return pc__chatcli_index(h, hn, n, nn) >= 0;
}

/* duplicate - isDuplicateToolCall against calls [from, c->nr) (an empty
 * candidate args string is contained in every args). */
static bool duplicate(const struct pc_chatcli_tool_calls *c, size_t from,
		      struct txt name, struct txt args, struct txt raw)
{
	for (size_t i = from; i < c->nr; i++) {
		const struct pc_chatcli_tool_call *k = &c->v[i];

		if (k->name_len != name.n || memcmp(k->name, name.p, name.n))
			continue;
		if (contains(k->args, k->args_len, args.p, args.n) ||
		    (raw.n && k->raw_len &&
		     contains(k->raw, k->raw_len, raw.p, raw.n)))
			return true;
	}
	return false;
}

/* parse_json - parseJSONToolCalls; with `dedup`, calls repeating one at
 * index >= dedup_from are dropped (ParseToolCalls' first pass only). */
static void parse_json(struct parse *ps, struct txt t, bool dedup,
		       size_t dedup_from, const char *form)
{
	for (size_t i = 0; i < t.n; i++) {
		size_t len = t.p[i] == '{' ? json_object_len(t, i) : 0, jn;
		struct pc_chatcli_str name = { NULL, 0 }, args = { NULL, 0 };
		struct pc_chatcli_jv o = PC_CHATCLI_JV_INIT;
		char *js;
		int rc;

		if (!len)
			continue;
		js = pc_xmemdup(t.p + i, jn = len);
		rc = pc_chatcli_json_unmarshal(js, jn, &o, NULL);
		if (!rc && o.kind != PC_CHATCLI_JV_OBJECT)
			rc = PC_EPARSE; /* into map[string]interface{} */
		if (rc) {
			size_t rn;
			char *rec = pc__chatcli_normalize("", 0, js, jn, &rn);

			pc_chatcli_jv_release(&o);
			if (!rec || (rn == jn && !memcmp(rec, js, jn)) ||
			    pc_chatcli_json_unmarshal(rec, rn, &o, NULL) ||
			    o.kind != PC_CHATCLI_JV_OBJECT) {
				free(rec);
				free(js);
				pc_chatcli_jv_release(&o);
				continue;
			}
			free(js);
			js = rec;
			jn = rn;
		}
		if (!to_call(&o, &name, &args)) {
			pc_chatcli_jv_release(&o);
			free(js);
			continue;
		}
		if (!dedup || !duplicate(ps->c, dedup_from, tx(name.p, name.n),
					 tx(args.p, args.n), tx(js, jn)))
			push(ps->c, tx(name.p, name.n), tx(args.p, args.n),
			     tx(js, jn), form);
		i += jn - 1;
		free(name.p);
		free(args.p);
		free(js);
		pc_chatcli_jv_release(&o);
	}
}

/* --- A1: ``` fenced blocks and the [tool: @x ...] shorthand --------------- */

static void parse_fenced(struct parse *ps, struct txt t)
{
	size_t from = 0;

	while (from < t.n && !ps->panic) {
		long s = pc__chatcli_index(t.p + from, t.n - from, "```", 3),
		     le, ce;
		size_t start, line_end;

		if (s < 0)
			break;
		start = from + (size_t)s;
		le = pc__chatcli_index(t.p + start + 3, t.n - start - 3, "\n", 1);
		if (le < 0)
			break;
		line_end = start + 3 + (size_t)le;
		ce = pc__chatcli_index(t.p + line_end, t.n - line_end, "```", 3);
		if (ce < 0)
			break;
		parse_tags(ps, tx(t.p + line_end, (size_t)ce), "fenced");
		parse_json(ps, tx(t.p + line_end, (size_t)ce), false, 0,
			   "fenced");
		from = line_end + (size_t)ce + 3;
	}
}

static size_t skip_blank(struct txt t, size_t pos)
{
	while (pos < t.n && (t.p[pos] == ' ' || t.p[pos] == '\t'))
		pos++;
	return pos;
}

static void parse_bracket(struct parse *ps, struct txt t)
{
	size_t from = 0;

	while (from < t.n) {
		long idx = index_ci(tx(t.p + from, t.n - from), "[tool");
		size_t start, pos, ns, end;
		struct pc_buf name = PC_BUF_INIT(PC_BUF_NOCAP);
		struct txt args;

		if (idx < 0)
			break;
		start = from + (size_t)idx;
		pos = start + 5;
		if (pos + 5 <= t.n &&
		    pc__chatcli_equal_fold_ascii(t.p + pos, 5, "_call"))
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
		while (pos < t.n && attr_name_char((unsigned char)t.p[pos]))
			pos++;
		if (pos - ns - (ns < t.n && t.p[ns] == '@') == 0) {
			from = start + 1;
			continue;
		}
		if (t.p[ns] != '@')
			pc_buf_addch(&name, '@');
		pc_buf_add(&name, t.p + ns, pos - ns);
		while (pos < t.n && is_ws(t.p[pos]))
			pos++;
		end = pos < t.n && t.p[pos] == '{' ? json_object_len(t, pos)
						   : 0;
		if (end) {
			args = tx(t.p + pos, end);
			end += pos;
		} else if (pos < t.n && t.p[pos] == ']') {
			args = tx("", 0);
			end = pos;
		} else {
			const char *cb = memchr(t.p + pos, ']', t.n - pos);

			end = cb ? (size_t)(cb - t.p) : t.n;
			args = tx(t.p + pos, end - pos);
			pc__chatcli_trim_space(&args.p, &args.n);
		}
		end = skip_blank(t, end);
		if (end < t.n && t.p[end] == ']')
			end++;
		push(ps->c, tx(name.data, name.len), args,
		     tx(t.p + start, end - start), "bracket");
		pc_buf_release(&name);
		from = end;
	}
}

size_t pc_chatcli_parse_calls(const char *text, size_t len,
			      struct pc_chatcli_tool_calls *out)
{
	struct txt t = { text ? text : "", text ? len : 0 };
	struct parse ps = { out, NULL };
	size_t first = out->nr;

	parse_tags(&ps, t, "tag");
	if (!ps.panic)
		parse_json(&ps, t, true, first, "json");
	if (!ps.panic && out->nr == first)
		parse_fenced(&ps, t);
	if (!ps.panic && out->nr == first)
		parse_bracket(&ps, t);
	for (size_t i = first; !ps.panic && i < out->nr; i++) {
		size_t rn;
		char *r = pc_chatcli_recover_args(out->v[i].name,
						  out->v[i].name_len,
						  out->v[i].args,
						  out->v[i].args_len, &rn);

		free(out->v[i].args);
		out->v[i].args = r;
		out->v[i].args_len = rn;
	}
	if (ps.panic) {
		free(out->panic);
		out->panic = ps.panic;
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
	free(c->panic);
	*c = (struct pc_chatcli_tool_calls)PC_CHATCLI_TOOL_CALLS_INIT;
}

/* pc_chatcli_args.c - the model's `args` text to the plugin's argv, as
 * the host's agent mode does it (spec chatcli.md §4: A3, A4, A6-A8).
 *
 * Every string here is bytes plus a length, as the host's Go strings: a
 * NUL is an ordinary byte. Functions take (s, n) and return new strings
 * with their length in *out_n. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

/* A borrowed view of a Go string. */
struct sv {
	const char *p;
	size_t n;
};

static struct sv view(const char *p, size_t n)
{
	return (struct sv){ p, n };
}

static struct sv trimmed(struct sv s)
{
	pc__chatcli_trim_space(&s.p, &s.n);
	return s;
}

static bool has(struct sv s, char c)
{
	return s.n && memchr(s.p, c, s.n) != NULL;
}

static bool contains(struct sv s, const char *needle)
{
	return pc__chatcli_index(s.p, s.n, needle, strlen(needle)) >= 0;
}

static bool eq(struct sv a, struct sv b)
{
	return a.n == b.n && !memcmp(a.p, b.p, a.n);
}

static bool starts(struct sv s, char c)
{
	return s.n && s.p[0] == c;
}

/* unmarshals - json.Unmarshal(s, &interface{}) == nil (isValidJSON). */
static bool unmarshals(struct sv s)
{
	struct pc_chatcli_jv v;
	bool ok = !pc_chatcli_json_unmarshal(s.p, s.n, &v, NULL);

	pc_chatcli_jv_release(&v);
	return ok;
}

void pc_chatcli_argv_push(struct pc_chatcli_argv *a, const char *p, size_t n)
{
	if (a->nr == a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 8;
		a->v = pc_xreallocarray(a->v, a->alloc, sizeof(*a->v));
	}
	a->v[a->nr].p = pc_xmemdup(p, n);
	a->v[a->nr++].n = n;
}

bool pc_chatcli_argv_has_nul(const struct pc_chatcli_argv *a)
{
	for (size_t i = 0; i < a->nr; i++)
		if (memchr(a->v[i].p, '\0', a->v[i].n))
			return true;
	return false;
}

void pc_chatcli_argv_release(struct pc_chatcli_argv *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->v[i].p);
	free(a->v);
	*a = (struct pc_chatcli_argv)PC_CHATCLI_ARGV_INIT;
}

/* --- A3 JSON recovery (json_recovery.go NormalizeToolArgs) ------------- */

/* fix_single_quotes - fixSingleQuotedJSON; NULL for Go's "". */
static char *fix_single_quotes(struct sv in, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct sv t = trimmed(in);
	bool sq = false, dq = false;

	if (!has(in, '\'') || t.n < 2 || (t.p[0] != '{' && t.p[0] != '['))
		return NULL;
	for (size_t i = 0; i < in.n; i++) {
		char c = in.p[i];

		if ((dq || sq) && c == '\\' && i + 1 < in.n) {
			if (sq && in.p[i + 1] == '\'')
				pc_buf_addch(&b, '\'');
			else
				pc_buf_add(&b, in.p + i, 2);
			i++;
		} else if (dq) {
			dq = c != '"';
			pc_buf_addch(&b, c);
		} else if (sq) {
			sq = c != '\'';
			if (c == '\'')
				pc_buf_addch(&b, '"');
			else if (c == '"')
				pc_buf_adds(&b, "\\\"");
			else
				pc_buf_addch(&b, c);
		} else {
			sq = c == '\'';
			dq = c == '"';
			pc_buf_addch(&b, sq ? '"' : c);
		}
	}
	return pc_buf_detach(&b, out_n);
}

/* RE2's \s: [\t\n\f\r ] (no \v) */
static bool re_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* fix_unquoted_keys - fixUnquotedKeys: ([{,]\s*)([a-zA-Z_]\w*)\s*: ->
 * $1"$2":, or NULL when not an object or nothing changed. */
static char *fix_unquoted_keys(struct sv in, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct sv t = trimmed(in);
	bool changed = false;
	size_t i = 0;

	if (t.n < 2 || t.p[0] != '{')
		return NULL;
	while (i < in.n) {
		size_t j = i + 1, k, e;

		if (in.p[i] != '{' && in.p[i] != ',') {
			pc_buf_addch(&b, in.p[i++]);
			continue;
		}
		while (j < in.n && re_space(in.p[j]))
			j++;
		k = j;
		if (k < in.n && ident_start(in.p[k]))
			while (k < in.n && ident_char(in.p[k]))
				k++;
		e = k;
		while (e < in.n && re_space(in.p[e]))
			e++;
		if (k == j || e >= in.n || in.p[e] != ':') {
			pc_buf_addch(&b, in.p[i++]);
			continue;
		}
		pc_buf_add(&b, in.p + i, j - i);
		pc_buf_addch(&b, '"');
		pc_buf_add(&b, in.p + j, k - j);
		pc_buf_adds(&b, "\":");
		changed = true;
		i = e + 1;
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, out_n);
}

/* fix_trailing_commas - ,\s*([}\]]) -> $1, or NULL when nothing changed */
static char *fix_trailing_commas(struct sv in, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool changed = false;

	for (size_t i = 0; i < in.n; i++) {
		size_t j = i + 1;

		if (in.p[i] == ',') {
			while (j < in.n && re_space(in.p[j]))
				j++;
			if (j < in.n && (in.p[j] == '}' || in.p[j] == ']')) {
				changed = true;
				i = j - 1;
				continue;
			}
		}
		pc_buf_addch(&b, in.p[i]);
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, out_n);
}

/* --- A3 "aggressive" object-literal rewrite (attempt 7) ----------------- */

/* trim_cutset - strings.Trim(s, `"'`) (ASCII cutset: bytewise). */
static struct sv trim_quotes(struct sv s)
{
	while (s.n && (s.p[0] == '"' || s.p[0] == '\''))
		s.p++, s.n--;
	while (s.n && (s.p[s.n - 1] == '"' || s.p[s.n - 1] == '\''))
		s.n--;
	return s;
}

/* is_identifier - isIdentifier: unicode letters and digits, '_' and '-',
 * not starting with a digit; an invalid byte is U+FFFD, no letter. */
static bool is_identifier(struct sv s)
{
	if (!s.n)
		return false;
	for (size_t i = 0; i < s.n;) {
		size_t sz;
		int32_t r = pc__chatcli_decode_rune(s.p + i, s.n - i, &sz);

		if (!i && pc__chatcli_is_digit(r))
			return false;
		if (!pc__chatcli_is_letter(r) && !pc__chatcli_is_digit(r) &&
		    r != '_' && r != '-')
			return false;
		i += sz;
	}
	return true;
}

/* looks_like_object_literal - isLikelyStructuredObjectLiteral. */
static bool looks_like_object_literal(struct sv raw)
{
	struct sv t = trimmed(raw), inner;
	int kv = 0;

	if (t.n < 3 || t.p[0] != '{' || t.p[t.n - 1] != '}')
		return false;
	inner = view(t.p + 1, t.n - 2);
	if (!has(inner, ':'))
		return false;
	for (size_t i = 0; i <= inner.n;) {
		const char *c = memchr(inner.p + i, ',', inner.n - i);
		size_t e = c ? (size_t)(c - inner.p) : inner.n;
		struct sv part = trimmed(view(inner.p + i, e - i));
		const char *colon = part.n ? memchr(part.p, ':', part.n) : NULL;

		if (colon && colon > part.p)
			kv += is_identifier(trim_quotes(
				trimmed(view(part.p, (size_t)(colon - part.p)))));
		i = e + 1;
	}
	return kv > 0;
}

/* split_top - splitRespectingBraces: commas outside quotes and brackets. */
static void split_top(struct sv s, struct pc_chatcli_argv *out)
{
	struct pc_buf cur = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false;
	int depth = 0;

	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];

		if ((sq || dq) && c == '\\' && i + 1 < s.n) {
			pc_buf_add(&cur, s.p + i, 2);
			i++;
			continue;
		}
		if (dq || sq) {
			if ((dq && c == '"') || (sq && c == '\''))
				dq = sq = false;
		} else if (c == '"') {
			dq = true;
		} else if (c == '\'') {
			sq = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ',' && depth == 0) {
			pc_chatcli_argv_push(out, pc_buf_cstr(&cur), cur.len);
			pc_buf_reset(&cur);
			continue;
		}
		pc_buf_addch(&cur, c);
	}
	if (cur.len)
		pc_chatcli_argv_push(out, cur.data, cur.len);
	pc_buf_release(&cur);
}

/* first_colon - findFirstColonOutsideQuotes, or -1. */
static long first_colon(struct sv s)
{
	bool sq = false, dq = false;

	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];

		if ((sq || dq) && c == '\\' && i + 1 < s.n) {
			i++;
		} else if (dq || sq) {
			if ((dq && c == '"') || (sq && c == '\''))
				dq = sq = false;
		} else if (c == '"') {
			dq = true;
		} else if (c == '\'') {
			sq = true;
		} else if (c == ':') {
			return (long)i;
		}
	}
	return -1;
}

/* loose_value - parseLooseValue of the trimmed v into *out: JSON if
 * json.Unmarshal takes it, a single-quoted string's inside, true, false,
 * null or none (strings.ToLower), else the text. */
static void loose_value(struct sv v, struct pc_chatcli_jv *out)
{
	char *low;
	size_t ln;

	*out = (struct pc_chatcli_jv)PC_CHATCLI_JV_INIT;
	if (!v.n) {
		pc_chatcli_jv_set_string(out, "", 0);
		return;
	}
	if (!pc_chatcli_json_unmarshal(v.p, v.n, out, NULL))
		return;
	if (v.n >= 2 && v.p[0] == '\'' && v.p[v.n - 1] == '\'') {
		pc_chatcli_jv_set_string(out, v.p + 1, v.n - 2);
		return;
	}
	low = pc__chatcli_lower(v.p, v.n, &ln);
	if (eq(view(low, ln), view("true", 4)) ||
	    eq(view(low, ln), view("false", 5))) {
		out->kind = PC_CHATCLI_JV_BOOL;
		out->b = low[0] == 't';
	} else if (!eq(view(low, ln), view("null", 4)) &&
		   !eq(view(low, ln), view("none", 4))) {
		pc_chatcli_jv_set_string(out, v.p, v.n);
	}
	free(low);
}

/* aggressive_fix - aggressiveJSONFix: `{k: v, ...}` rebuilt by
 * json.Marshal of the pairs (a Go map: keys sorted, the last duplicate
 * wins); NULL when no pair was found. */
static char *aggressive_fix(struct sv raw, size_t *out_n)
{
	struct sv t = trimmed(raw);
	struct pc_chatcli_argv parts = PC_CHATCLI_ARGV_INIT;
	struct pc_chatcli_jv o = PC_CHATCLI_JV_INIT;
	char *out = NULL;

	if (t.n < 3 || t.p[0] != '{' || t.p[t.n - 1] != '}')
		return NULL;
	split_top(view(t.p + 1, t.n - 2), &parts);
	o.kind = PC_CHATCLI_JV_OBJECT;
	for (size_t i = 0; i < parts.nr; i++) {
		struct sv part = trimmed(view(parts.v[i].p, parts.v[i].n)), k;
		long c = first_colon(part);

		if (!part.n || c < 0)
			continue;
		k = trim_quotes(trimmed(view(part.p, (size_t)c)));
		loose_value(trimmed(view(part.p + c + 1, part.n - (size_t)c - 1)),
			    pc_chatcli_jv_append(&o, k.p, k.n));
	}
	if (o.nr)
		out = pc_chatcli_jv_marshal(&o, out_n);
	pc_chatcli_jv_release(&o);
	pc_chatcli_argv_release(&parts);
	return out;
}

/* --- A3 plain-string wrapping for known tool names (attempt 6) ----------- */

static const char *const cli_subcommands[] = {
	"read",	    "write",   "patch",	      "tree",	    "search",
	"exec",	    "test",    "rollback",    "clean",	    "git-status",
	"git-diff", "git-log", "git-changed", "git-branch", NULL
};

static bool in_list(const char *const *l, struct sv s)
{
	for (; *l; l++)
		if (eq(view(*l, strlen(*l)), s))
			return true;
	return false;
}

/* fields - strings.Fields: the runs between unicode spaces. */
static void fields(struct sv s, struct pc_chatcli_argv *out)
{
	size_t start = 0;
	bool in = false;

	for (size_t i = 0; i <= s.n;) {
		size_t sz = 1;
		int32_t r = i < s.n ? pc__chatcli_decode_rune(s.p + i, s.n - i,
							      &sz)
				    : ' ';
		bool space = i == s.n || ((r != PC__RUNE_ERROR || sz != 1) &&
					  pc__chatcli_is_space(r));

		if (space && in)
			pc_chatcli_argv_push(out, s.p + start, i - start);
		if (!space && !in)
			start = i;
		in = !space;
		if (i == s.n)
			break;
		i += sz;
	}
}

/* looks_like_cli - looksLikeCLIArgs: two or more fields and a later one
 * is a flag (`--x`, or `-x` of two bytes), or the first field lower-cased
 * is a known @coder subcommand. */
static bool looks_like_cli(struct sv s)
{
	struct pc_chatcli_argv f = PC_CHATCLI_ARGV_INIT;
	bool yes = false;

	fields(s, &f);
	for (size_t i = 1; f.nr >= 2 && i < f.nr && !yes; i++)
		yes = (f.v[i].n >= 2 && !memcmp(f.v[i].p, "--", 2)) ||
		      (f.v[i].n == 2 && f.v[i].p[0] == '-');
	if (f.nr >= 2 && !yes) {
		size_t ln;
		char *low = pc__chatcli_lower(f.v[0].p, f.v[0].n, &ln);

		yes = in_list(cli_subcommands, view(low, ln));
		free(low);
	}
	pc_chatcli_argv_release(&f);
	return yes;
}

static const char *const wrap_map[] = {
	"read_file",	 "file",      "write_file",  "file",
	"patch_file",	 "file",      "list_directory", "dir",
	"search_files",	 "term",      "run_command", "cmd",
	"git_status",	 "dir",	      "git_diff",    "dir",
	"git_log",	 "dir",	      "git_changed", "dir",
	"git_branch",	 "dir",	      "run_tests",   "dir",
	"rollback_file", "file",      "clean_backups", "dir",
	"read",		 "file",      "write",	     "file",
	"patch",	 "file",      "tree",	     "dir",
	"search",	 "term",      "exec",	     "cmd",
	"git-status",	 "dir",	      "git-diff",    "dir",
	"git-log",	 "dir",	      "git-changed", "dir",
	"git-branch",	 "dir",	      "test",	     "dir",
	"rollback",	 "file",      "clean",	     "dir",
	"@coder",	 "cmd",	      "coder",	     "cmd",
	"bash",		 "command",   "shell",	     "command",
	"Bash",		 "command",   "Read",	     "file_path",
	"Write",	 "file_path", "Glob",	     "pattern",
	"Grep",		 "pattern",   "Edit",	     "file_path",
	NULL
};

static const char *wrap_field(struct sv tool)
{
	const char *found = NULL;
	size_t ln;
	char *low;

	for (size_t i = 0; wrap_map[i]; i += 2)
		if (eq(view(wrap_map[i], strlen(wrap_map[i])), tool))
			return wrap_map[i + 1];
	low = pc__chatcli_lower(tool.p, tool.n, &ln);
	for (size_t i = 0; wrap_map[i] && !found; i += 2)
		if (eq(view(wrap_map[i], strlen(wrap_map[i])), view(low, ln)))
			found = wrap_map[i + 1];
	free(low);
	return found;
}

/* wrap_plain - WrapPlainStringForTool: {"<field>":"<value>"} for a plain
 * value sent to a tool whose name maps to a primary field; NULL
 * otherwise. */
static char *wrap_plain(struct sv tool, struct sv value, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct sv t = trimmed(value);
	const char *field;

	if (!t.n || t.p[0] == '{' || t.p[0] == '[' || looks_like_cli(t) ||
	    !(field = wrap_field(tool)))
		return NULL;
	pc_buf_addch(&b, '{');
	pc_chatcli_go_quote(&b, field, strlen(field));
	pc_buf_addch(&b, ':');
	pc_chatcli_go_quote(&b, t.p, t.n);
	pc_buf_addch(&b, '}');
	return pc_buf_detach(&b, out_n);
}

/* normalize - NormalizeToolArgs(tool, raw) for a raw that is not valid:
 * the recovered text or NULL (Go's ok == false). */
static char *normalize(struct sv tool, struct sv raw, size_t *out_n)
{
	char *f, *g;
	size_t fn, gn;

	raw = trimmed(raw);
	if (!raw.n)
		return *out_n = 2, pc_xstrdup("{}");
	if (unmarshals(raw))
		return pc_xmemdup(raw.p, *out_n = raw.n);
	if ((f = fix_single_quotes(raw, &fn)) && unmarshals(view(f, fn)))
		goto out;
	free(f);
	if ((f = fix_unquoted_keys(raw, &fn)) && unmarshals(view(f, fn)))
		goto out;
	free(f);
	if ((f = fix_single_quotes(raw, &fn)) != NULL) {
		g = fix_unquoted_keys(view(f, fn), &gn);
		free(f);
		f = g;
		fn = gn;
		if (f && unmarshals(view(f, fn)))
			goto out;
	}
	free(f);
	if ((f = fix_trailing_commas(raw, &fn)) && unmarshals(view(f, fn)))
		goto out;
	free(f);
	if ((f = wrap_plain(tool, raw, &fn)) != NULL)
		goto out;
	if (looks_like_object_literal(raw) &&
	    (f = aggressive_fix(raw, &fn)) && unmarshals(view(f, fn)))
		goto out;
	free(f);
	return NULL;
out:
	*out_n = fn;
	return f;
}

char *pc__chatcli_normalize(const char *tool, size_t tool_len,
			    const char *raw, size_t n, size_t *out_n)
{
	return normalize(view(tool ? tool : "", tool ? tool_len : 0),
			 view(raw, n), out_n);
}

char *pc_chatcli_recover_args(const char *tool, size_t tool_len,
			      const char *args, size_t len, size_t *out_len)
{
	struct sv a = view(args ? args : "", args ? len : 0), t = trimmed(a);
	char *r;
	size_t rn;

	if (!t.n || unmarshals(t))
		return pc_xmemdup(a.p, out_len ? (*out_len = a.n) : a.n);
	r = normalize(view(tool ? tool : "", tool ? tool_len : 0), t, &rn);
	if (!r) /* the host returns args untouched */
		return pc_xmemdup(a.p, out_len ? (*out_len = a.n) : a.n);
	if (out_len)
		*out_len = rn;
	return r;
}

/* --- strconv.Unquote ------------------------------------------------------ */

/* unquote_char - strconv.UnquoteChar at s[*i..n): appends the value,
 * advances *i; false on ErrSyntax. */
static bool unquote_char(const char *s, size_t n, size_t *i, char quote,
			 struct pc_buf *b)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	unsigned c = (unsigned char)s[*i];
	const char *e;
	size_t nd, sz;

	if (c == (unsigned char)quote)
		return false;
	if (c >= 0x80) {
		pc__chatcli_add_rune(b, pc__chatcli_decode_rune(s + *i, n - *i,
								&sz));
		*i += sz;
		return true;
	}
	if (c != '\\') {
		pc_buf_addch(b, (char)c);
		(*i)++;
		return true;
	}
	if (*i + 1 >= n)
		return false;
	c = (unsigned char)s[*i + 1];
	*i += 2;
	if (c && (e = strchr(from, (int)c)) != NULL) {
		pc_buf_addch(b, to[e - from]);
		return true;
	}
	if (c == '\'' || c == '"') {
		if (c != (unsigned char)quote)
			return false;
		pc_buf_addch(b, (char)c);
		return true;
	}
	nd = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
	if (nd) {
		uint32_t v = 0;

		if (n - *i < nd)
			return false;
		for (size_t k = 0; k < nd; k++) {
			int h = pc__chatcli_hex((unsigned char)s[*i + k]);

			if (h < 0)
				return false;
			v = v << 4 | (uint32_t)h;
		}
		*i += nd;
		if (c == 'x') { /* one byte, possibly not UTF-8 */
			pc_buf_addch(b, (char)v);
			return true;
		}
		if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			return false;
		pc__chatcli_add_rune(b, (int32_t)v);
		return true;
	}
	if (c >= '0' && c <= '7') {
		unsigned v = c - '0';

		if (n - *i < 2)
			return false;
		for (size_t k = 0; k < 2; k++) {
			unsigned x = (unsigned char)s[*i + k] - '0';

			if (x > 7)
				return false;
			v = v << 3 | x;
		}
		*i += 2;
		if (v > 255)
			return false;
		pc_buf_addch(b, (char)v);
		return true;
	}
	return false;
}

char *pc__chatcli_unquote(const char *s, size_t n, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char q = n ? s[0] : 0;
	const char *end;
	size_t i = 1;

	if (n < 2 || (q != '"' && q != '\''))
		return NULL;
	if (!(end = memchr(s + 1, q, n - 1)))
		return NULL;
	/* no escapes, no newline: valid as it stands (a '"...' body must be
	 * valid UTF-8, a '...' body one rune) */
	if (!memchr(s, '\\', (size_t)(end - s) + 1) &&
	    !memchr(s, '\n', (size_t)(end - s) + 1)) {
		size_t body = (size_t)(end - s) - 1, sz = 0;
		bool valid;

		if (q == '"') {
			valid = pc__chatcli_utf8_valid(s + 1, body);
		} else {
			int32_t r = pc__chatcli_decode_rune(s + 1, body, &sz);

			valid = sz + 2 == (size_t)(end - s) + 1 &&
				(r != PC__RUNE_ERROR || sz != 1);
		}
		if (valid) {
			if ((size_t)(end - s) + 1 != n)
				return NULL; /* Unquote: text after it */
			return pc_xmemdup(s + 1, *out_n = body);
		}
	}
	while (i < n && s[i] != q) {
		if (s[i] == '\n' || !unquote_char(s, n, &i, q, &b)) {
			pc_buf_release(&b);
			return NULL;
		}
		if (q == '\'')
			break;
	}
	if (i >= n || s[i] != q || i + 1 != n) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, out_n);
}

/* --- A4 sanitisation (agent_tool_sanitizer.go) ------------------------ */

/* step - replace (*s, *n) by f(*s, *n). */
static void step(char **s, size_t *n, char *(*f)(const char *, size_t, size_t *))
{
	char *t = f(*s, *n, n);

	free(*s);
	*s = t;
}

static char *normalize_newlines(const char *s, size_t n, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
			continue;
		pc_buf_addch(&b, s[i] == '\r' ? '\n' : s[i]);
	}
	return pc_buf_detach(&b, out_n);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* line_continuations - processLineContinuations; it walks []rune(s), so
 * every invalid byte comes out as U+FFFD. */
static char *line_continuations(const char *in, size_t in_n, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false;
	size_t n;
	char *s = pc__chatcli_runes_string(in, in_n, &n);

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		size_t j = i + 1;

		if (c == '\'' && !dq && (!i || s[i - 1] != '\\'))
			sq = !sq;
		else if (c == '"' && !sq && (!i || s[i - 1] != '\\'))
			dq = !dq;
		if (c == '\\') {
			while (j < n && is_blank(s[j]))
				j++;
			if (j < n && s[j] == '\n') {
				for (j++; j < n && is_blank(s[j]); j++)
					;
				if (!sq && !dq)
					pc_buf_addch(&b, ' ');
				i = j - 1;
				continue;
			}
		}
		pc_buf_addch(&b, c);
	}
	free(s);
	return pc_buf_detach(&b, out_n);
}

/* maybe_unescape_jsonish - utils.MaybeUnescapeJSONishArgs: a new string
 * when it changed something and the result looks like JSON, else NULL. */
static char *maybe_unescape_jsonish(const char *in, size_t in_n,
				    size_t *out_n)
{
	struct sv orig = trimmed(view(in, in_n));
	size_t cn = orig.n, un;
	char *cur = pc_xmemdup(orig.p, orig.n), *u;

	if (!orig.n) {
		free(cur);
		return NULL;
	}
	for (int round = 0; round < 2; round++) {
		if (cn >= 2 && ((cur[0] == '"' && cur[cn - 1] == '"') ||
				(cur[0] == '\'' && cur[cn - 1] == '\'')) &&
		    (u = pc__chatcli_unquote(cur, cn, &un)) != NULL) {
			free(cur);
			cur = pc__chatcli_trim_dup(u, un, &cn);
			free(u);
		}
		if (cn && (cur[0] == '{' || cur[0] == '[') &&
		    (contains(view(cur, cn), "\\\"") ||
		     contains(view(cur, cn), "\\'"))) {
			struct pc_buf q = PC_BUF_INIT(PC_BUF_NOCAP);

			pc_buf_addch(&q, '"');
			pc_buf_add(&q, cur, cn);
			pc_buf_addch(&q, '"');
			u = pc__chatcli_unquote(q.data, q.len, &un);
			pc_buf_release(&q);
			if (u) {
				free(cur);
				cur = pc__chatcli_trim_dup(u, un, &cn);
				free(u);
				continue;
			}
		}
		break;
	}
	if (cn && (cur[0] == '{' || cur[0] == '[') &&
	    !eq(view(cur, cn), orig)) {
		*out_n = cn;
		return cur;
	}
	free(cur);
	return NULL;
}

/* remove_bogus_backslash_space - removeBogusBackslashSpace (on runes). */
static char *remove_bogus_backslash_space(const char *in, size_t in_n,
					  size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t n;
	char *s = pc__chatcli_runes_string(in, in_n, &n);
	struct sv t = trimmed(view(in, in_n));
	bool json = starts(t, '{') || starts(t, '['), sq = false, dq = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i], nx = i + 1 < n ? s[i + 1] : 0;

		if (c == '\'' && !dq) {
			sq = !sq;
		} else if (c == '"' && !sq) {
			dq = !dq;
		} else if (c == '\\' && !sq && !dq && i + 1 < n) {
			if (nx == ' ' || nx == '\t')
				continue;
			if (nx == '\\' || ((nx == '"' || nx == '\'') && json)) {
				pc_buf_add(&b, s + i, 2);
				i++;
				continue;
			}
			if (nx == '"' || nx == '\'')
				continue;
		}
		pc_buf_addch(&b, c);
	}
	free(s);
	return pc_buf_detach(&b, out_n);
}

static size_t rtrim_len(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
		     s[n - 1] == '\n'))
		n--;
	return n;
}

/* fix_unbalanced_trailing_backslash - fixUnbalancedQuotesWithTrailing-
 * Backslash: an odd number of quotes and a final backslash: drop it and
 * close the quotes (the trailing blanks go too). */
static char *fix_unbalanced_trailing_backslash(const char *s, size_t n,
					       size_t *out_n)
{
	size_t t = rtrim_len(s, n);
	int dq = 0, sq = 0;
	bool esc = false;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!t || s[t - 1] != '\\')
		return pc_xmemdup(s, *out_n = n);
	for (size_t i = 0; i < t; i++) {
		size_t sz = 1;

		/* Go ranges over runes: an escape skips one whole rune */
		if ((unsigned char)s[i] >= 0x80)
			pc__chatcli_decode_rune(s + i, t - i, &sz);
		if (esc)
			esc = false;
		else if (s[i] == '\\')
			esc = true;
		else
			dq += s[i] == '"', sq += s[i] == '\'';
		i += sz - 1;
	}
	if (dq % 2 == 0 && sq % 2 == 0)
		return pc_xmemdup(s, *out_n = n);
	pc_buf_add(&b, s, t - 1);
	if (dq % 2)
		pc_buf_addch(&b, '"');
	if (sq % 2)
		pc_buf_addch(&b, '\'');
	return pc_buf_detach(&b, out_n);
}

static bool last_backslash_outside_quotes(const char *s, size_t n)
{
	bool sq = false, dq = false, esc = false;

	for (size_t i = 0; i < n; i++) {
		if (esc)
			esc = false;
		else if (s[i] == '\\' && !sq)
			esc = true;
		else if (s[i] == '\'' && !dq)
			sq = !sq;
		else if (s[i] == '"' && !sq)
			dq = !dq;
	}
	return !sq && !dq;
}

static char *trim_trailing_backslashes(const char *s, size_t n0,
				       size_t *out_n)
{
	size_t t = rtrim_len(s, n0), orig = t;

	if (!t)
		return pc_xmemdup(s, *out_n = n0);
	while (t && s[t - 1] == '\\' && last_backslash_outside_quotes(s, t))
		t = rtrim_len(s, t - 1);
	if (t == orig)
		return pc_xmemdup(s, *out_n = n0);
	return pc_xmemdup(s, *out_n = t);
}

/* collapse_spaces - normalizeSpacesOutsideQuotes (on runes). */
static char *collapse_spaces(const char *in, size_t in_n, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false, last = false;
	size_t n;
	char *s = pc__chatcli_runes_string(in, in_n, &n);

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\'' && !dq)
			sq = !sq;
		else if (c == '"' && !sq)
			dq = !dq;
		else if (!sq && !dq && (c == ' ' || c == '\t')) {
			if (!last)
				pc_buf_addch(&b, ' ');
			last = true;
			continue;
		}
		last = false;
		pc_buf_addch(&b, c);
	}
	free(s);
	return pc_buf_detach(&b, out_n);
}

static char *sanitize(const char *raw, size_t rn, size_t *out_n)
{
	size_t n, un;
	char *s = pc__chatcli_html_unescape(raw, rn, &n), *u;

	step(&s, &n, normalize_newlines);
	step(&s, &n, line_continuations);
	if ((u = maybe_unescape_jsonish(s, n, &un)) != NULL) {
		free(s);
		s = u;
		n = un;
	}
	step(&s, &n, remove_bogus_backslash_space);
	step(&s, &n, fix_unbalanced_trailing_backslash);
	step(&s, &n, trim_trailing_backslashes);
	step(&s, &n, collapse_spaces);
	u = pc__chatcli_trim_dup(s, n, out_n);
	free(s);
	return u;
}

/* --- A8 text split ------------------------------------------------------ */

static int split_text(struct sv s, struct pc_chatcli_argv *argv, char **error)
{
	struct pc_buf tok = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_chatcli_argv out = PC_CHATCLI_ARGV_INIT;
	bool sq = false, dq = false, esc = false;

	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];

		if (esc) {
			pc_buf_addch(&tok, c);
			esc = false;
		} else if (c == '\\' && !sq) {
			esc = true;
		} else if (c == '\'' && !dq) {
			sq = !sq;
		} else if (c == '"' && !sq) {
			dq = !dq;
		} else if ((c == ' ' || c == '\t' || c == '\n' || c == '\r') &&
			   !sq && !dq) {
			if (tok.len)
				pc_chatcli_argv_push(&out, tok.data, tok.len);
			pc_buf_reset(&tok);
		} else {
			pc_buf_addch(&tok, c);
		}
	}
	if (tok.len)
		pc_chatcli_argv_push(&out, tok.data, tok.len);
	pc_buf_release(&tok);
	if (esc || sq || dq) {
		pc_chatcli_argv_release(&out);
		*error = pc_xstrdup(
			esc ? "Args parsing error: escape pendente no fim dos argumentos (terminou com '\\')"
			    : "Args parsing error: aspas não balanceadas nos argumentos");
		return PC_EINVAL;
	}
	for (size_t i = 0; i < out.nr; i++)
		pc_chatcli_argv_push(argv, out.v[i].p, out.v[i].n);
	pc_chatcli_argv_release(&out);
	return 0;
}

/* --- A7 JSON object -> argv --------------------------------------------- */

static const struct pc_chatcli_jv *get(const struct pc_chatcli_jv *o,
				       const char *k)
{
	return pc_chatcli_jv_get(o, k, strlen(k));
}

static bool is_str(const struct pc_chatcli_jv *v)
{
	return v && v->kind == PC_CHATCLI_JV_STRING;
}

static void push_flag(struct pc_chatcli_argv *argv, struct sv key)
{
	if (starts(key, '-')) {
		pc_chatcli_argv_push(argv, key.p, key.n);
	} else {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_buf_adds(&b, "--");
		pc_buf_add(&b, key.p, key.n);
		pc_chatcli_argv_push(argv, b.data, b.len);
		pc_buf_release(&b);
	}
}

/* flag_value - appendFlagValue. */
static void flag_value(struct pc_chatcli_argv *argv, struct sv key,
		       const struct pc_chatcli_jv *v)
{
	char *t;
	size_t tn;

	switch (v->kind) {
	case PC_CHATCLI_JV_NULL:
		return;
	case PC_CHATCLI_JV_BOOL:
		if (v->b)
			push_flag(argv, key);
		return;
	case PC_CHATCLI_JV_STRING:
		push_flag(argv, key);
		pc_chatcli_argv_push(argv, v->s, v->n);
		return;
	case PC_CHATCLI_JV_NUMBER:
		push_flag(argv, key);
		t = pc_chatcli_go_float(v->num);
		pc_chatcli_argv_push(argv, t, strlen(t));
		free(t);
		return;
	case PC_CHATCLI_JV_ARRAY:
		for (size_t i = 0; i < v->nr; i++)
			flag_value(argv, key, &v->v[i]);
		return;
	case PC_CHATCLI_JV_OBJECT:
		push_flag(argv, key);
		t = pc_chatcli_jv_marshal(v, &tn);
		pc_chatcli_argv_push(argv, t, tn);
		free(t);
		return;
	}
}

static bool is_envelope(const struct pc_chatcli_str *k)
{
	static const char *const env[] = { "cmd",   "argv",	  "args",
					   "flags", "positional", "_" };

	for (size_t i = 0; i < 6; i++)
		if (eq(view(k->p, k->n), view(env[i], strlen(env[i]))))
			return true;
	return false;
}

/* put - collectArgsMap's put: "command" becomes "cmd", later wins (the
 * merged object keeps one member per key). */
static void put(struct pc_chatcli_jv *merged, const struct pc_chatcli_str *k,
		const struct pc_chatcli_jv *v)
{
	struct sv key = view(k->p, k->n);

	if (eq(key, view("command", 7)))
		key = view("cmd", 3);
	for (size_t i = 0; i < merged->nr; i++)
		if (eq(view(merged->k[i].p, merged->k[i].n), key)) {
			pc_chatcli_jv_release(&merged->v[i]);
			pc_chatcli_jv_copy(&merged->v[i], v);
			return;
		}
	pc_chatcli_jv_copy(pc_chatcli_jv_append(merged, key.p, key.n), v);
}

/* unique - the members of object o with Go map semantics (each key once,
 * its last value). Indices into o. */
static bool is_last(const struct pc_chatcli_jv *o, size_t i)
{
	for (size_t j = i + 1; j < o->nr; j++)
		if (eq(view(o->k[j].p, o->k[j].n), view(o->k[i].p, o->k[i].n)))
			return false;
	return true;
}

static int repair_unmarshal(struct sv s, struct pc_chatcli_jv *v);

static void merge_envelope(struct pc_chatcli_jv *merged,
			   const struct pc_chatcli_jv *m, const char *name)
{
	const struct pc_chatcli_jv *e = get(m, name);
	struct pc_chatcli_jv decoded = PC_CHATCLI_JV_INIT;

	if (is_str(e)) { /* decodeJSONObjectLenient */
		struct sv t = trimmed(view(e->s, e->n));

		if (!starts(t, '{') || repair_unmarshal(t, &decoded) ||
		    decoded.kind != PC_CHATCLI_JV_OBJECT) {
			pc_chatcli_jv_release(&decoded);
			return;
		}
		e = &decoded;
	}
	if (e && e->kind == PC_CHATCLI_JV_OBJECT)
		for (size_t i = 0; i < e->nr; i++)
			if (is_last(e, i))
				put(merged, &e->k[i], &e->v[i]);
	pc_chatcli_jv_release(&decoded);
}

static void positionals(struct pc_chatcli_argv *argv,
			const struct pc_chatcli_jv *v)
{
	if (is_str(v))
		pc_chatcli_argv_push(argv, v->s, v->n);
	if (!v || v->kind != PC_CHATCLI_JV_ARRAY)
		return;
	for (size_t i = 0; i < v->nr; i++)
		if (is_str(&v->v[i]))
			pc_chatcli_argv_push(argv, v->v[i].s, v->v[i].n);
}

static int cmp_keys(const void *a, const void *b)
{
	const struct pc_chatcli_str *x = *(const struct pc_chatcli_str *const *)a,
				    *y = *(const struct pc_chatcli_str *const *)b;
	int c = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);

	return c ? c : x->n < y->n ? -1 : x->n > y->n;
}

static int argv_strings(const struct pc_chatcli_jv *arr,
			struct pc_chatcli_argv *out, char **error)
{
	for (size_t i = 0; i < arr->nr; i++) {
		if (!is_str(&arr->v[i])) {
			*error = pc_xstrdup(
				"Args parsing error: argv JSON deve conter apenas strings");
			return PC_EINVAL;
		}
		pc_chatcli_argv_push(out, arr->v[i].s, arr->v[i].n);
	}
	return 0;
}

/* from_object - buildArgvFromJSONMap. */
static int from_object(const struct pc_chatcli_jv *m,
		       struct pc_chatcli_argv *argv, char **error)
{
	const struct pc_chatcli_jv *c = get(m, "cmd"), *av = get(m, "argv");
	struct sv cmd = is_str(c) ? view(c->s, c->n) : view("", 0);
	bool av_list = av && av->kind == PC_CHATCLI_JV_ARRAY && av->nr;
	struct pc_chatcli_jv merged = PC_CHATCLI_JV_INIT;
	const struct pc_chatcli_str **keys;
	char *t;
	size_t tn;

	if (!cmd.n && av_list && is_str(&av->v[0]))
		cmd = view(av->v[0].s, av->v[0].n);
	if (av_list) { /* an argv that is not an array is ignored */
		struct pc_chatcli_argv tmp = PC_CHATCLI_ARGV_INIT;
		int rc = argv_strings(av, &tmp, error);

		if (!rc && cmd.n && !eq(view(tmp.v[0].p, tmp.v[0].n), cmd))
			pc_chatcli_argv_push(argv, cmd.p, cmd.n);
		for (size_t i = 0; !rc && i < tmp.nr; i++)
			pc_chatcli_argv_push(argv, tmp.v[i].p, tmp.v[i].n);
		pc_chatcli_argv_release(&tmp);
		return rc;
	}
	if (!cmd.n) {
		t = pc_chatcli_jv_marshal(m, &tn);
		pc_chatcli_argv_push(argv, t, tn);
		free(t);
		return 0;
	}
	pc_chatcli_argv_push(argv, cmd.p, cmd.n);
	merged.kind = PC_CHATCLI_JV_OBJECT;
	for (size_t i = 0; i < m->nr; i++)
		if (!is_envelope(&m->k[i]) && is_last(m, i))
			put(&merged, &m->k[i], &m->v[i]);
	merge_envelope(&merged, m, "args");
	merge_envelope(&merged, m, "flags");
	keys = pc_xcalloc(merged.nr + 1, sizeof(*keys));
	for (size_t i = 0; i < merged.nr; i++)
		keys[i] = &merged.k[i];
	qsort(keys, merged.nr, sizeof(*keys), cmp_keys);
	for (size_t i = 0; i < merged.nr; i++)
		flag_value(argv, view(keys[i]->p, keys[i]->n),
			   pc_chatcli_jv_get(&merged, keys[i]->p, keys[i]->n));
	free(keys);
	positionals(argv, get(m, "positional"));
	positionals(argv, get(m, "_"));
	pc_chatcli_jv_release(&merged);
	return 0;
}

/* --- A6 dispatch ---------------------------------------------------------- */

static bool is_hexc(char c)
{
	return pc__chatcli_hex((unsigned char)c) >= 0;
}

/* bad_escapes - hasInvalidJSONEscape of a literal's content. */
static bool bad_escapes(const char *c, size_t n, bool unterminated)
{
	if (unterminated)
		return true;
	for (size_t k = 0; k < n; k++) {
		if (c[k] != '\\')
			continue;
		if (k + 1 >= n)
			return true;
		if (c[k + 1] == 'u') {
			if (k + 5 >= n || !is_hexc(c[k + 2]) ||
			    !is_hexc(c[k + 3]) || !is_hexc(c[k + 4]) ||
			    !is_hexc(c[k + 5]))
				return true;
			k += 5;
		} else if (c[k + 1] && strchr("\"\\/bfnrt", c[k + 1])) {
			k++;
		} else {
			return true;
		}
	}
	return false;
}

/* repair_escapes - utils.RepairJSONInvalidEscapes; NULL when unchanged. */
static char *repair_escapes(struct sv s, size_t *out_n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool changed = false;

	for (size_t i = 0; i < s.n;) {
		size_t j;

		pc_buf_addch(&b, s.p[i]);
		if (s.p[i++] != '"')
			continue;
		/* scanJSONStringLiteral */
		for (j = i; j < s.n && s.p[j] != '"';)
			j = s.p[j] == '\\' ? (j + 2 > s.n ? s.n : j + 2) : j + 1;
		if (bad_escapes(s.p + i, j - i, j == s.n)) {
			changed = true;
			for (size_t k = i; k < j; k++) { /* doublePath... */
				if (s.p[k] != '\\') {
					pc_buf_addch(&b, s.p[k]);
				} else if (k + 1 < j && (s.p[k + 1] == '"' ||
							 s.p[k + 1] == '\\')) {
					pc_buf_add(&b, s.p + k, 2);
					k++;
				} else {
					pc_buf_adds(&b, "\\\\");
				}
			}
		} else {
			pc_buf_add(&b, s.p + i, j - i);
		}
		i = j;
		if (i < s.n) {
			pc_buf_addch(&b, '"');
			i++;
		}
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, out_n);
}

/* repair_unmarshal - json.Unmarshal, then once more after
 * RepairJSONInvalidEscapes; 0 or PC_EPARSE. */
static int repair_unmarshal(struct sv s, struct pc_chatcli_jv *v)
{
	char *r;
	size_t rn;
	int rc;

	if (!pc_chatcli_json_unmarshal(s.p, s.n, v, NULL))
		return 0;
	if (!(r = repair_escapes(s, &rn)))
		return PC_EPARSE;
	rc = pc_chatcli_json_unmarshal(r, rn, v, NULL);
	free(r);
	return rc;
}

/* dispatch - parseToolArgsWithJSON of the sanitised line. */
static int dispatch(struct sv line, struct pc_chatcli_argv *argv,
		    char **error)
{
	struct sv t = trimmed(line);
	struct pc_chatcli_jv v = PC_CHATCLI_JV_INIT;
	char *u, *gerr = NULL, *r;
	size_t un, rn;
	int rc;

	if (!t.n)
		return split_text(line, argv, error);
	u = maybe_unescape_jsonish(t.p, t.n, &un);
	if (u)
		t = view(u, un);
	if (!starts(t, '{') && !starts(t, '[')) {
		free(u);
		return split_text(line, argv, error);
	}
	rc = pc_chatcli_json_unmarshal(t.p, t.n, &v, &gerr);
	if (rc && (r = repair_escapes(t, &rn)) != NULL) {
		rc = pc_chatcli_json_unmarshal(r, rn, &v, NULL);
		free(r);
	}
	if (rc)
		*error = pc_xasprintf("Args parsing error: %s", gerr);
	else if (v.kind == PC_CHATCLI_JV_ARRAY)
		rc = argv_strings(&v, argv, error);
	else
		rc = from_object(&v, argv, error);
	free(gerr);
	free(u);
	pc_chatcli_jv_release(&v);
	return rc ? PC_EINVAL : 0;
}

int pc_chatcli_recovered_to_argv(const char *args, size_t len,
				 struct pc_chatcli_argv *argv, char **error)
{
	size_t sn;
	char *san = sanitize(args ? args : "", args ? len : 0, &sn);
	struct pc_chatcli_argv out = PC_CHATCLI_ARGV_INIT;
	int rc;

	*error = NULL;
	rc = dispatch(view(san, sn), &out, error);
	for (size_t i = 0; !rc && i < out.nr; i++)
		pc_chatcli_argv_push(argv, out.v[i].p, out.v[i].n);
	pc_chatcli_argv_release(&out);
	free(san);
	return rc;
}

int pc_chatcli_args_to_argv(const char *args, size_t len,
			    struct pc_chatcli_argv *argv, char **error)
{
	size_t rn;
	char *rec = pc_chatcli_recover_args(NULL, 0, args, len, &rn);
	int rc = pc_chatcli_recovered_to_argv(rec, rn, argv, error);

	free(rec);
	return rc;
}

/* pc_chatcli_args.c - the model's `args` text to the plugin's argv, as
 * the host's agent mode does it (spec chatcli.md §4: A3, A4, A6-A8). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return pc_xmemdup(s, n);
}

static bool go_valid(const char *s)
{
	return pc_chatcli_json_check(s, strlen(s), NULL);
}

/* --- A3 JSON recovery (json_recovery.go NormalizeToolArgs, 2-5) ------ */

static char *fix_single_quotes(const char *in)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *t = trim_dup(in, strlen(in));
	bool sq = false, dq = false,
	     ok = strchr(in, '\'') && strlen(t) >= 2 &&
		  (t[0] == '{' || t[0] == '[');

	free(t);
	if (!ok)
		return NULL;
	for (size_t i = 0; in[i]; i++) {
		char c = in[i];

		if ((dq || sq) && c == '\\' && in[i + 1]) {
			if (sq && in[i + 1] == '\'')
				pc_buf_addch(&b, '\'');
			else
				pc_buf_add(&b, in + i, 2);
			i++;
		} else if (dq) {
			dq = c != '"';
			pc_buf_addch(&b, c);
		} else if (sq) {
			sq = c != '\'';
			pc_buf_adds(&b, c == '\''  ? "\""
					: c == '"' ? "\\\""
						   : (char[]){ c, 0 });
		} else {
			sq = c == '\'';
			dq = c == '"';
			pc_buf_addch(&b, sq ? '"' : c);
		}
	}
	return pc_buf_detach(&b, NULL);
}

/* ([{,]\s*)([a-zA-Z_][a-zA-Z0-9_]*)\s*: -> $1"$2": */
static char *fix_unquoted_keys(const char *in)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *t = trim_dup(in, strlen(in));
	bool changed = false, ok = strlen(t) >= 2 && t[0] == '{';
	size_t i = 0;

	free(t);
	if (!ok)
		return NULL;
	while (in[i]) {
		size_t j = i + 1, k, e;

		if (in[i] != '{' && in[i] != ',') {
			pc_buf_addch(&b, in[i++]);
			continue;
		}
		while (in[j] && isspace((unsigned char)in[j]))
			j++;
		k = j;
		if (isalpha((unsigned char)in[k]) || in[k] == '_')
			while (isalnum((unsigned char)in[k]) || in[k] == '_')
				k++;
		e = k;
		while (in[e] && isspace((unsigned char)in[e]))
			e++;
		if (k == j || in[e] != ':') {
			pc_buf_addch(&b, in[i++]);
			continue;
		}
		pc_buf_add(&b, in + i, j - i);
		pc_buf_addf(&b, "\"%.*s\":", (int)(k - j), in + j);
		changed = true;
		i = e + 1;
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, NULL);
}

/* ,\s*([}\]]) -> $1 */
static char *fix_trailing_commas(const char *in)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool changed = false;

	for (size_t i = 0; in[i]; i++) {
		size_t j = i + 1;

		if (in[i] == ',') {
			while (in[j] && isspace((unsigned char)in[j]))
				j++;
			if (in[j] == '}' || in[j] == ']') {
				changed = true;
				i = j - 1;
				continue;
			}
		}
		pc_buf_addch(&b, in[i]);
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, NULL);
}

/* --- A3 "aggressive" object-literal rewrite (attempt 7) ----------------- */

/* ident_ok - Go's isIdentifier: letters, digits, '_' and '-', not starting
 * with a digit. Bytes >= 0x80 count as letters (an approximation of
 * unicode.IsLetter for non-ASCII keys). */
static bool ident_ok(const char *s, size_t n)
{
	if (!n || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && c != '_' && c != '-' && c < 0x80)
			return false;
	}
	return true;
}

/* trim_set - bounds of s[0..n) without leading/trailing bytes of `set`. */
static void trim_set(const char **s, size_t *n, const char *set)
{
	while (*n && strchr(set, (*s)[0]))
		(*s)++, (*n)--;
	while (*n && strchr(set, (*s)[*n - 1]))
		(*n)--;
}

#define WS " \t\r\n\v\f"

/* looks_like_object_literal - `{key: value, ...}` with at least one
 * identifier before a colon (plain comma split, first colon). */
static bool looks_like_object_literal(const char *t)
{
	size_t n = strlen(t);
	const char *p, *end;
	int kv = 0;

	if (n < 3 || t[0] != '{' || t[n - 1] != '}')
		return false;
	end = t + n - 1;
	if (!memchr(t + 1, ':', (size_t)(end - t - 1)))
		return false;
	for (p = t + 1; p <= end;) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		const char *pe = q ? q : end, *c, *k = p;
		size_t pn = (size_t)(pe - p), kn;

		trim_set(&k, &pn, WS);
		c = memchr(k, ':', pn);
		if (c && c > k) {
			kn = (size_t)(c - k);
			trim_set(&k, &kn, WS);
			trim_set(&k, &kn, "\"'");
			kv += ident_ok(k, kn);
		}
		p = pe + 1;
	}
	return kv > 0;
}

/* split_top - split s[0..n) on commas outside quotes and brackets. */
static void split_top(const char *s, size_t n, struct pc_strvec *out)
{
	struct pc_buf cur = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false;
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if ((sq || dq) && c == '\\' && i + 1 < n) {
			pc_buf_add(&cur, s + i, 2);
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
			pc_strvec_push(out, pc_buf_cstr(&cur));
			pc_buf_reset(&cur);
			continue;
		}
		pc_buf_addch(&cur, c);
	}
	if (cur.len)
		pc_strvec_push(out, pc_buf_cstr(&cur));
	pc_buf_release(&cur);
}

static long colon_outside_quotes(const char *s)
{
	bool sq = false, dq = false;

	for (size_t i = 0; s[i]; i++) {
		if ((sq || dq) && s[i] == '\\' && s[i + 1]) {
			i++;
		} else if (dq || sq) {
			if ((dq && s[i] == '"') || (sq && s[i] == '\''))
				dq = sq = false;
		} else if (s[i] == '"') {
			dq = true;
		} else if (s[i] == '\'') {
			sq = true;
		} else if (s[i] == ':') {
			return (long)i;
		}
	}
	return -1;
}

/* loose_value - Go's parseLooseValue: JSON if it parses, a single-quoted
 * string's inside, true/false/null/none (any case), else the text. */
static cJSON *loose_value(const char *v, size_t n)
{
	char *t = trim_dup(v, n), *low;
	cJSON *j;
	size_t tn = strlen(t);

	if (!tn) {
		free(t);
		return cJSON_CreateString("");
	}
	if ((j = pc_chatcli_json_parse(t, tn, NULL)) != NULL) {
		free(t);
		return j;
	}
	if (tn >= 2 && t[0] == '\'' && t[tn - 1] == '\'') {
		t[tn - 1] = '\0';
		j = cJSON_CreateString(t + 1);
		free(t);
		return j;
	}
	low = pc_xstrdup(t);
	for (char *c = low; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	j = !strcmp(low, "true")    ? cJSON_CreateTrue()
	    : !strcmp(low, "false") ? cJSON_CreateFalse()
	    : !strcmp(low, "null") || !strcmp(low, "none")
		    ? cJSON_CreateNull()
		    : cJSON_CreateString(t);
	free(low);
	free(t);
	return j;
}

/* aggressive_fix - rebuild `{k: v, ...}` as a JSON object (keys sorted,
 * last duplicate wins, by json.Marshal); NULL when nothing was found. */
static char *aggressive_fix(const char *t)
{
	size_t n = strlen(t);
	struct pc_strvec parts = PC_STRVEC_INIT;
	cJSON *o;
	char *out = NULL;

	if (n < 3 || t[0] != '{' || t[n - 1] != '}')
		return NULL;
	split_top(t + 1, n - 2, &parts);
	o = cJSON_CreateObject();
	for (size_t i = 0; i < parts.nr; i++) {
		char *part = trim_dup(parts.v[i], strlen(parts.v[i]));
		long c = colon_outside_quotes(part);
		const char *k = part;
		size_t kn = c < 0 ? 0 : (size_t)c;
		char *key;

		if (*part && c >= 0) {
			trim_set(&k, &kn, WS);
			trim_set(&k, &kn, "\"'");
			key = pc_xmemdup(k, kn);
			cJSON_DeleteItemFromObjectCaseSensitive(o, key);
			cJSON_AddItemToObject(
				o, key,
				loose_value(part + c + 1,
					    strlen(part + c + 1)));
			free(key);
		}
		free(part);
	}
	if (cJSON_GetArraySize(o) > 0)
		out = pc_chatcli_go_marshal(o);
	cJSON_Delete(o);
	pc_strvec_release(&parts);
	return out;
}

/* --- A3 plain-string wrapping for known tool names (attempt 6) ----------- */

static const char *const cli_subcommands[] = {
	"read",	    "write",   "patch",	      "tree",	    "search",
	"exec",	    "test",    "rollback",    "clean",	    "git-status",
	"git-diff", "git-log", "git-changed", "git-branch", NULL
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* looks_like_cli - Go's looksLikeCLIArgs: two or more fields and a later
 * one is a flag (`--x`, or `-x` of two bytes), or the first field is a
 * known @coder subcommand (any case). */
static bool looks_like_cli(const char *s)
{
	struct pc_strvec f = PC_STRVEC_INIT;
	struct pc_buf tok = PC_BUF_INIT(PC_BUF_NOCAP);
	bool yes = false;

	for (size_t i = 0;; i++) {
		if (!s[i] || strchr(WS, s[i])) {
			if (tok.len)
				pc_strvec_push(&f, pc_buf_cstr(&tok));
			pc_buf_reset(&tok);
			if (!s[i])
				break;
		} else {
			pc_buf_addch(&tok, s[i]);
		}
	}
	pc_buf_release(&tok);
	for (size_t i = 1; f.nr >= 2 && i < f.nr && !yes; i++)
		yes = !strncmp(f.v[i], "--", 2) ||
		      (f.v[i][0] == '-' && strlen(f.v[i]) == 2);
	if (f.nr >= 2 && !yes) {
		for (char *c = f.v[0]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		yes = in_list(cli_subcommands, f.v[0]);
	}
	pc_strvec_release(&f);
	return yes;
}

static const char *wrap_field(const char *tool)
{
	static const char *const map[] = { "read_file",
					   "file",
					   "write_file",
					   "file",
					   "patch_file",
					   "file",
					   "list_directory",
					   "dir",
					   "search_files",
					   "term",
					   "run_command",
					   "cmd",
					   "git_status",
					   "dir",
					   "git_diff",
					   "dir",
					   "git_log",
					   "dir",
					   "git_changed",
					   "dir",
					   "git_branch",
					   "dir",
					   "run_tests",
					   "dir",
					   "rollback_file",
					   "file",
					   "clean_backups",
					   "dir",
					   "read",
					   "file",
					   "write",
					   "file",
					   "patch",
					   "file",
					   "tree",
					   "dir",
					   "search",
					   "term",
					   "exec",
					   "cmd",
					   "git-status",
					   "dir",
					   "git-diff",
					   "dir",
					   "git-log",
					   "dir",
					   "git-changed",
					   "dir",
					   "git-branch",
					   "dir",
					   "test",
					   "dir",
					   "rollback",
					   "file",
					   "clean",
					   "dir",
					   "@coder",
					   "cmd",
					   "coder",
					   "cmd",
					   "bash",
					   "command",
					   "shell",
					   "command",
					   "Bash",
					   "command",
					   "Read",
					   "file_path",
					   "Write",
					   "file_path",
					   "Glob",
					   "pattern",
					   "Grep",
					   "pattern",
					   "Edit",
					   "file_path",
					   NULL };
	char *low;
	const char *found = NULL;

	for (size_t i = 0; map[i]; i += 2)
		if (!strcmp(map[i], tool))
			return map[i + 1];
	low = pc_xstrdup(tool);
	for (char *c = low; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (size_t i = 0; map[i] && !found; i += 2)
		if (!strcmp(map[i], low))
			found = map[i + 1];
	free(low);
	return found;
}

/* wrap_plain - attempt 6: {"<field>":"<value>"} for a plain value sent to
 * a tool whose name maps to a primary field; NULL otherwise. */
static char *wrap_plain(const char *tool, const char *t)
{
	const char *field;
	cJSON *o;
	char *out;

	if (!tool || !*t || t[0] == '{' || t[0] == '[' || looks_like_cli(t) ||
	    !(field = wrap_field(tool)))
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, field, t);
	out = pc_chatcli_go_marshal(o);
	cJSON_Delete(o);
	return out;
}

char *pc_chatcli_recover_args(const char *tool, const char *args)
{
	char *t, *f, *g;

	args = args ? args : "";
	t = trim_dup(args, strlen(args));
	if (!*t || go_valid(t)) {
		free(t);
		return pc_xstrdup(args);
	}
	f = fix_single_quotes(t);
	if (f && go_valid(f))
		goto out;
	free(f);
	if ((f = fix_unquoted_keys(t)) && go_valid(f))
		goto out;
	free(f);
	if ((f = fix_single_quotes(t)) && (g = fix_unquoted_keys(f))) {
		free(f);
		f = g;
		if (go_valid(f))
			goto out;
	}
	free(f);
	if ((f = fix_trailing_commas(t)) && go_valid(f))
		goto out;
	free(f);
	if ((f = wrap_plain(tool, t)) != NULL)
		goto out;
	if (looks_like_object_literal(t) && (f = aggressive_fix(t)) &&
	    go_valid(f))
		goto out;
	free(f);
	free(t);
	return pc_xstrdup(args); /* the host returns args untouched */
out:
	free(t);
	return f;
}

/* --- A4 sanitisation (agent_tool_sanitizer.go) ------------------------ */

static void add_utf8(struct pc_buf *b, unsigned long r)
{
	if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
		r = 0xfffd;
	if (r < 0x80) {
		pc_buf_addch(b, (char)r);
	} else if (r < 0x800) {
		pc_buf_addch(b, (char)(0xc0 | (r >> 6)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	} else if (r < 0x10000) {
		pc_buf_addch(b, (char)(0xe0 | (r >> 12)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 6) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	} else {
		pc_buf_addch(b, (char)(0xf0 | (r >> 18)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 12) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | ((r >> 6) & 0x3f)));
		pc_buf_addch(b, (char)(0x80 | (r & 0x3f)));
	}
}

/* html_entity - length consumed at `s` (just after '&'), 0 if none. */
static size_t html_entity(const char *s, struct pc_buf *b)
{
	static const struct {
		const char *name;
		unsigned long r;
		bool bare; /* legacy: accepted without ';' */
	} named[] = { { "amp", '&', true },    { "lt", '<', true },
		      { "gt", '>', true },     { "quot", '"', true },
		      { "apos", '\'', false }, { "nbsp", 0xa0, true } };
	char *end;

	if (s[0] == '#') {
		bool hex = s[1] == 'x' || s[1] == 'X';
		const char *d = s + 1 + hex;
		unsigned long r;

		if (!(hex ? isxdigit((unsigned char)*d)
			  : isdigit((unsigned char)*d)))
			return 0;
		r = strtoul(d, &end, hex ? 16 : 10);
		add_utf8(b, r == 0 || (r >= 0x80 && r <= 0x9f) ? 0xfffd : r);
		return (size_t)(end - s) + (*end == ';');
	}
	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++) {
		size_t n = strlen(named[i].name);

		if (strncmp(s, named[i].name, n))
			continue;
		if (s[n] != ';' && !named[i].bare)
			continue;
		add_utf8(b, named[i].r);
		return n + (s[n] == ';');
	}
	return 0;
}

char *pc__chatcli_html_unescape(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; s[i]; i++) {
		size_t n = s[i] == '&' ? html_entity(s + i + 1, &b) : 0;

		if (n)
			i += n;
		else
			pc_buf_addch(&b, s[i]);
	}
	return pc_buf_detach(&b, NULL);
}

static char *normalize_newlines(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '\r' && s[i + 1] == '\n')
			continue;
		pc_buf_addch(&b, s[i] == '\r' ? '\n' : s[i]);
	}
	return pc_buf_detach(&b, NULL);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char *line_continuations(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false;

	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		size_t j = i + 1;

		if (c == '\'' && !dq && (!i || s[i - 1] != '\\'))
			sq = !sq;
		else if (c == '"' && !sq && (!i || s[i - 1] != '\\'))
			dq = !dq;
		if (c == '\\') {
			while (is_blank(s[j]))
				j++;
			if (s[j] == '\n') {
				for (j++; is_blank(s[j]); j++)
					;
				if (!sq && !dq)
					pc_buf_addch(&b, ' ');
				i = j - 1;
				continue;
			}
		}
		pc_buf_addch(&b, c);
	}
	return pc_buf_detach(&b, NULL);
}

static bool is_hexc(char c)
{
	return isxdigit((unsigned char)c) != 0;
}

/* go_unquote - strconv.Unquote of a double-quoted Go literal `s` (n bytes,
 * quotes included); a new string or NULL on a syntax error. */
static char *go_unquote(const char *s, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	static const char from[] = "abfnrtv\\\"", to[] = "\a\b\f\n\r\t\v\\\"";

	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return NULL;
	for (size_t i = 1; i < n - 1; i++) {
		const char *e;
		size_t nd;

		if (s[i] == '"' || s[i] == '\n')
			goto bad;
		if (s[i] != '\\') {
			pc_buf_addch(&b, s[i]);
			continue;
		}
		if (++i >= n - 1)
			goto bad;
		if (s[i] && (e = strchr(from, s[i])) != NULL) {
			pc_buf_addch(&b, to[e - from]);
			continue;
		}
		nd = s[i] == 'x' ? 2 : s[i] == 'u' ? 4 : s[i] == 'U' ? 8 : 0;
		if (nd) {
			unsigned long r = 0;

			if (i + nd >= n - 1)
				goto bad;
			for (size_t k = 1; k <= nd; k++) {
				if (!is_hexc(s[i + k]))
					goto bad;
				r = r * 16 +
				    (unsigned long)(isdigit((unsigned char)
								    s[i + k])
							    ? s[i + k] - '0'
							    : (tolower((
								       unsigned char)s
									       [i +
										k]) -
							       'a' + 10));
			}
			if (nd == 2)
				pc_buf_addch(&b, (char)r);
			else if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
				goto bad;
			else
				add_utf8(&b, r);
			i += nd;
		} else if (s[i] >= '0' && s[i] <= '7' && i + 2 < n - 1 &&
			   s[i + 1] >= '0' && s[i + 1] <= '7' &&
			   s[i + 2] >= '0' && s[i + 2] <= '7' && s[i] <= '3') {
			pc_buf_addch(&b, (char)((s[i] - '0') * 64 +
						(s[i + 1] - '0') * 8 +
						(s[i + 2] - '0')));
			i += 2;
		} else {
			goto bad;
		}
	}
	return pc_buf_detach(&b, NULL);
bad:
	pc_buf_release(&b);
	return NULL;
}

/* maybe_unescape_jsonish - utils.MaybeUnescapeJSONishArgs: a new string
 * when it changed something, else NULL. */
static char *maybe_unescape_jsonish(const char *in)
{
	char *orig = trim_dup(in, strlen(in)), *cur = pc_xstrdup(orig), *u;

	for (int round = 0; round < 2; round++) {
		size_t n = strlen(cur);

		if (n >= 2 && cur[0] == '"' && cur[n - 1] == '"' &&
		    (u = go_unquote(cur, n)) != NULL) {
			free(cur);
			cur = trim_dup(u, strlen(u));
			free(u);
		}
		if ((cur[0] == '{' || cur[0] == '[') &&
		    (strstr(cur, "\\\"") || strstr(cur, "\\'"))) {
			char *q = pc_xasprintf("\"%s\"", cur);

			u = go_unquote(q, strlen(q));
			free(q);
			if (u) {
				free(cur);
				cur = trim_dup(u, strlen(u));
				free(u);
				continue;
			}
		}
		break;
	}
	if ((cur[0] == '{' || cur[0] == '[') && strcmp(cur, orig)) {
		free(orig);
		return cur;
	}
	free(orig);
	free(cur);
	return NULL;
}

static char *remove_bogus_backslash_space(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *t = trim_dup(s, strlen(s));
	bool json = t[0] == '{' || t[0] == '[', sq = false, dq = false;

	free(t);
	for (size_t i = 0; s[i]; i++) {
		char c = s[i], nx = s[i + 1];

		if (c == '\'' && !dq)
			sq = !sq;
		else if (c == '"' && !sq)
			dq = !dq;
		else if (c == '\\' && !sq && !dq && nx) {
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
	return pc_buf_detach(&b, NULL);
}

static size_t rtrim_len(const char *s, size_t n)
{
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	return n;
}

static char *fix_unbalanced_trailing_backslash(const char *s)
{
	size_t n = rtrim_len(s, strlen(s));
	int dq = 0, sq = 0;
	bool esc = false;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!n || s[n - 1] != '\\')
		return pc_xstrdup(s);
	for (size_t i = 0; i < n; i++) {
		if (esc)
			esc = false;
		else if (s[i] == '\\')
			esc = true;
		else
			dq += s[i] == '"', sq += s[i] == '\'';
	}
	if (dq % 2 == 0 && sq % 2 == 0)
		return pc_xstrdup(s);
	pc_buf_add(&b, s, n - 1);
	if (dq % 2)
		pc_buf_addch(&b, '"');
	if (sq % 2)
		pc_buf_addch(&b, '\'');
	return pc_buf_detach(&b, NULL);
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

static char *trim_trailing_backslashes(const char *s)
{
	size_t n0 = rtrim_len(s, strlen(s)), n = n0;

	if (!n)
		return pc_xstrdup(s);
	while (n && s[n - 1] == '\\' && last_backslash_outside_quotes(s, n))
		n = rtrim_len(s, n - 1);
	return n == n0 ? pc_xstrdup(s) : pc_xmemdup(s, n);
}

static char *collapse_spaces(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sq = false, dq = false, last = false;

	for (size_t i = 0; s[i]; i++) {
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
	return pc_buf_detach(&b, NULL);
}

/* step - replace *s by f(*s). */
static void step(char **s, char *(*f)(const char *))
{
	char *t = f(*s);

	free(*s);
	*s = t;
}

static char *sanitize(const char *raw)
{
	char *s = pc__chatcli_html_unescape(raw), *u, *t;

	step(&s, normalize_newlines);
	step(&s, line_continuations);
	if ((u = maybe_unescape_jsonish(s)) != NULL) {
		free(s);
		s = u;
	}
	step(&s, remove_bogus_backslash_space);
	step(&s, fix_unbalanced_trailing_backslash);
	step(&s, trim_trailing_backslashes);
	step(&s, collapse_spaces);
	t = trim_dup(s, strlen(s));
	free(s);
	return t;
}

/* --- A8 text split ------------------------------------------------------ */

static int split_text(const char *s, struct pc_strvec *argv, char **error)
{
	struct pc_buf tok = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_strvec out = PC_STRVEC_INIT;
	bool sq = false, dq = false, esc = false;

	for (size_t i = 0; s[i]; i++) {
		char c = s[i];

		if (esc) {
			pc_buf_addch(&tok, c);
			esc = false;
		} else if (c == '\\' && !sq) {
			esc = true;
		} else if (c == '\'' && !dq) {
			sq = !sq;
		} else if (c == '"' && !sq) {
			dq = !dq;
		} else if (strchr(" \t\n\r", c) && !sq && !dq) {
			if (tok.len)
				pc_strvec_push(&out, pc_buf_cstr(&tok));
			pc_buf_reset(&tok);
		} else {
			pc_buf_addch(&tok, c);
		}
	}
	if (tok.len)
		pc_strvec_push(&out, pc_buf_cstr(&tok));
	pc_buf_release(&tok);
	if (esc || sq || dq) {
		pc_strvec_release(&out);
		*error = pc_xstrdup(
			esc ? "Args parsing error: escape pendente no fim dos argumentos (terminou com '\\')"
			    : "Args parsing error: aspas não balanceadas nos argumentos");
		return PC_EINVAL;
	}
	for (size_t i = 0; i < out.nr; i++)
		pc_strvec_push(argv, out.v[i]);
	pc_strvec_release(&out);
	return 0;
}

/* --- A7 JSON object -> argv --------------------------------------------- */

/* last - Go map semantics: the last member named `k`, or NULL. */
static const cJSON *last(const cJSON *o, const char *k)
{
	const cJSON *it, *found = NULL;

	cJSON_ArrayForEach(it, o)
	{
		if (!strcmp(it->string, k))
			found = it;
	}
	return found;
}

static void flag_value(struct pc_strvec *argv, const char *key, const cJSON *v)
{
	char *flag =
		key[0] == '-' ? pc_xstrdup(key) : pc_xasprintf("--%s", key);
	const cJSON *it;

	if (cJSON_IsTrue(v)) {
		pc_strvec_push(argv, flag);
	} else if (cJSON_IsString(v)) {
		pc_strvec_push(argv, flag);
		pc_strvec_push(argv, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		pc_strvec_push(argv, flag);
		pc_strvec_push_nodup(argv, pc_chatcli_go_float(v->valuedouble));
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(it, v)
		{
			flag_value(argv, key, it);
		}
	} else if (cJSON_IsObject(v)) {
		pc_strvec_push(argv, flag);
		pc_strvec_push_nodup(argv, pc_chatcli_go_marshal(v));
	}
	free(flag);
}

static bool is_envelope(const char *k)
{
	static const char *const env[] = { "cmd",   "argv",	  "args",
					   "flags", "positional", "_" };

	for (size_t i = 0; i < 6; i++)
		if (!strcmp(k, env[i]))
			return true;
	return false;
}

/* put - merge into `merged`, "command" renamed "cmd", later wins. */
static void put(cJSON *merged, const char *k, const cJSON *v)
{
	if (!strcmp(k, "command"))
		k = "cmd";
	cJSON_DeleteItemFromObjectCaseSensitive(merged, k);
	cJSON_AddItemToObject(merged, k, cJSON_Duplicate(v, true));
}

static cJSON *repair_parse(const char *s);

static void merge_envelope(cJSON *merged, const cJSON *m, const char *name)
{
	const cJSON *e = last(m, name), *it;
	cJSON *decoded = NULL;

	if (cJSON_IsString(e)) {
		char *t = trim_dup(e->valuestring, strlen(e->valuestring));

		if (t[0] == '{')
			decoded = repair_parse(t);
		free(t);
		if (!cJSON_IsObject(decoded)) {
			cJSON_Delete(decoded);
			return;
		}
		e = decoded;
	}
	if (cJSON_IsObject(e))
		cJSON_ArrayForEach(it, e)
		{
			put(merged, it->string, last(e, it->string));
		}
	cJSON_Delete(decoded);
}

static void positionals(struct pc_strvec *argv, const cJSON *v)
{
	const cJSON *it;

	if (cJSON_IsString(v))
		pc_strvec_push(argv, v->valuestring);
	if (!cJSON_IsArray(v))
		return;
	cJSON_ArrayForEach(it, v)
	{
		if (cJSON_IsString(it))
			pc_strvec_push(argv, it->valuestring);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int argv_strings(const cJSON *arr, struct pc_strvec *out, char **error)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, arr)
	{
		if (!cJSON_IsString(it)) {
			*error = pc_xstrdup(
				"Args parsing error: argv JSON deve conter apenas strings");
			return PC_EINVAL;
		}
		pc_strvec_push(out, it->valuestring);
	}
	return 0;
}

static int from_object(const cJSON *m, struct pc_strvec *argv, char **error)
{
	const cJSON *c = last(m, "cmd"), *av = last(m, "argv"), *it;
	const char *cmd =
		cJSON_IsString(c) && *c->valuestring ? c->valuestring : NULL;
	cJSON *merged;
	char **keys;
	size_t nk = 0;

	if (!cmd && cJSON_IsArray(av) && cJSON_IsString(av->child))
		cmd = av->child->valuestring;
	if (cJSON_GetArraySize(av) > 0) {
		struct pc_strvec tmp = PC_STRVEC_INIT;
		int rc = argv_strings(av, &tmp, error);

		if (!rc && cmd && strcmp(tmp.v[0], cmd))
			pc_strvec_push(argv, cmd);
		for (size_t i = 0; !rc && i < tmp.nr; i++)
			pc_strvec_push(argv, tmp.v[i]);
		pc_strvec_release(&tmp);
		return rc;
	}
	if (!cmd) {
		pc_strvec_push_nodup(argv, pc_chatcli_go_marshal(m));
		return 0;
	}
	pc_strvec_push(argv, cmd);
	merged = cJSON_CreateObject();
	cJSON_ArrayForEach(it, m)
	{
		if (!is_envelope(it->string))
			put(merged, it->string, last(m, it->string));
	}
	merge_envelope(merged, m, "args");
	merge_envelope(merged, m, "flags");
	keys = pc_xcalloc((size_t)cJSON_GetArraySize(merged) + 1,
			  sizeof(*keys));
	cJSON_ArrayForEach(it, merged)
	{
		keys[nk++] = it->string;
	}
	qsort(keys, nk, sizeof(*keys), cmp_str);
	for (size_t i = 0; i < nk; i++)
		flag_value(argv, keys[i], last(merged, keys[i]));
	free(keys);
	positionals(argv, last(m, "positional"));
	positionals(argv, last(m, "_"));
	cJSON_Delete(merged);
	return 0;
}

/* --- A6 dispatch ---------------------------------------------------------- */

static bool scan_str(const char *s, size_t *j)
{
	for (; s[*j]; (*j)++) {
		if (s[*j] == '\\')
			(*j) += s[*j + 1] ? 1 : 0;
		else if (s[*j] == '"')
			return true;
	}
	return false;
}

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
		} else if (strchr("\"\\/bfnrt", c[k + 1]) && c[k + 1]) {
			k++;
		} else {
			return true;
		}
	}
	return false;
}

/* repair_escapes - utils.RepairJSONInvalidEscapes; new string or NULL. */
static char *repair_escapes(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool changed = false;

	for (size_t i = 0; s[i];) {
		size_t j;
		bool closed;

		pc_buf_addch(&b, s[i]);
		if (s[i++] != '"')
			continue;
		j = i;
		closed = scan_str(s, &j);
		if (!s[j] && j > i && s[j - 1] == '\0')
			j--;
		if (bad_escapes(s + i, j - i, !closed)) {
			changed = true;
			for (size_t k = i; k < j; k++) {
				if (s[k] == '\\' && k + 1 < j &&
				    (s[k + 1] == '"' || s[k + 1] == '\\')) {
					pc_buf_add(&b, s + k, 2);
					k++;
				} else {
					pc_buf_adds(
						&b,
						s[k] == '\\'
							? "\\\\"
							: (char[]){ s[k], 0 });
				}
			}
		} else {
			pc_buf_add(&b, s + i, j - i);
		}
		i = j;
		if (closed) {
			pc_buf_addch(&b, '"');
			i++;
		}
	}
	if (!changed) {
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, NULL);
}

static cJSON *repair_parse(const char *s)
{
	cJSON *v = pc_chatcli_json_decode_any(s, strlen(s), NULL);
	char *r;

	if (v)
		return v;
	if ((r = repair_escapes(s)) != NULL)
		v = pc_chatcli_json_decode_any(r, strlen(r), NULL);
	free(r);
	return v;
}

static int dispatch(const char *line, struct pc_strvec *argv, char **error)
{
	char *t = trim_dup(line, strlen(line)), *u, *gerr = NULL, *r;
	cJSON *v;
	int rc = 0;

	if (!*t) {
		free(t);
		return 0;
	}
	if ((u = maybe_unescape_jsonish(t)) != NULL) {
		free(t);
		t = u;
	}
	if (t[0] != '{' && t[0] != '[') {
		free(t);
		return split_text(line, argv, error);
	}
	v = pc_chatcli_json_decode_any(t, strlen(t), &gerr);
	r = v ? NULL : repair_escapes(t);
	if (r) {
		v = pc_chatcli_json_decode_any(r, strlen(r), NULL);
		free(r);
	}
	if (!v) {
		*error = pc_xasprintf("Args parsing error: %s",
				      gerr ? gerr : "invalid JSON");
	} else if (cJSON_IsArray(v)) {
		rc = argv_strings(v, argv, error);
	} else if (cJSON_IsObject(v)) {
		rc = from_object(v, argv, error);
	} else {
		*error = pc_xstrdup(
			"Args parsing error: JSON inválido para args");
	}
	if (!v || (!cJSON_IsArray(v) && !cJSON_IsObject(v)))
		rc = PC_EINVAL;
	free(gerr);
	cJSON_Delete(v);
	free(t);
	return rc;
}

int pc_chatcli_recovered_to_argv(const char *args, struct pc_strvec *argv,
				 char **error)
{
	char *san = sanitize(args ? args : "");
	struct pc_strvec out = PC_STRVEC_INIT;
	int rc;

	*error = NULL;
	rc = dispatch(san, &out, error);
	for (size_t i = 0; !rc && i < out.nr; i++)
		pc_strvec_push(argv, out.v[i]);
	pc_strvec_release(&out);
	free(san);
	return rc;
}

int pc_chatcli_args_to_argv(const char *args, struct pc_strvec *argv,
			    char **error)
{
	char *rec = pc_chatcli_recover_args(NULL, args);
	int rc = pc_chatcli_recovered_to_argv(rec, argv, error);

	free(rec);
	return rc;
}

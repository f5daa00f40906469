/* pc_explain.c - `plugcheck explain ID` and docs/rules/ID.md, both written
 * from the explanation table (pc_rule_docs.c) and the rule table, and the
 * fixes of the host's load errors (pc_load_fixes). */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_rule.h"
#include "pc_xalloc.h"

#define WIDTH 78

const struct pc_rule_doc *pc_rule_doc_find(const char *id)
{
	for (size_t i = 0; i < pc_nrule_docs; i++)
		if (!strcmp(pc_rule_docs[i].id, id))
			return &pc_rule_docs[i];
	return NULL;
}

char *pc_rule_doc_url(const char *id)
{
	return pc_xasprintf("%s/blob/main/docs/rules/%s.md", PC_REPO_URL, id);
}

/* ---- load errors ---- */

#define MAX_PARTS 9

struct part {
	const char *s;
	size_t n;
};

/* Does `msg` match `pat` ('*' any text)? Each '*' takes the shortest text
 * that lets the next literal piece match; only the last '*' seen is
 * widened when a later piece fails (the usual linear wildcard match), so
 * a message of any length costs O(len(msg) * len(pat)). The parts go to
 * `parts` (up to MAX_PARTS). */
static bool match(const char *pat, const char *msg, struct part *parts,
		  size_t *nparts)
{
	const char *p = pat, *m = msg, *star = NULL, *resume = NULL;
	size_t k = 0, star_k = 0;

	while (*m) {
		if (*p == '*') {
			star = ++p;
			star_k = k;
			if (k < MAX_PARTS)
				parts[k] = (struct part){ m, 0 };
			k++;
			resume = m;
		} else if (*p && *p == *m) {
			p++;
			m++;
		} else if (star) {
			/* widen the last '*' by one character */
			p = star;
			m = ++resume;
			k = star_k + 1;
			if (star_k < MAX_PARTS)
				parts[star_k].n = (size_t)(m - parts[star_k].s);
		} else {
			return false;
		}
	}
	while (*p == '*') {
		if (k < MAX_PARTS)
			parts[k] = (struct part){ m, 0 };
		k++;
		p++;
	}
	*nparts = k < MAX_PARTS ? k : MAX_PARTS;
	return !*p;
}

char *pc_rule_load_fix(const char *message, const struct pc_load_fix **entry)
{
	struct part parts[MAX_PARTS];
	size_t n = 0;

	if (entry)
		*entry = NULL;
	if (!message)
		return NULL;
	for (size_t i = 0; i < pc_nload_fixes; i++) {
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		if (!match(pc_load_fixes[i].pattern, message, parts, &n))
			continue;
		for (const char *f = pc_load_fixes[i].fix; *f; f++) {
			if (f[0] == '$' && f[1] >= '1' && f[1] <= '9' &&
			    (size_t)(f[1] - '1') < n) {
				const struct part *x = &parts[f[1] - '1'];

				pc_buf_add(&b, x->s, x->n);
				f++;
			} else {
				pc_buf_add(&b, f, 1);
			}
		}
		if (entry)
			*entry = &pc_load_fixes[i];
		return pc_buf_detach(&b, NULL);
	}
	return NULL;
}

/* ---- the page ---- */

/* Write `text` word-wrapped to WIDTH columns, each line indented by
 * `indent` spaces; an empty line separates paragraphs. */
static void wrap(FILE *out, const char *text, int indent)
{
	const char *p = text;

	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t plen = end ? (size_t)(end - p) : strlen(p);
		int col = 0;

		for (size_t i = 0; i < plen;) {
			size_t w = 0;

			while (i < plen && (p[i] == ' ' || p[i] == '\n'))
				i++;
			while (i + w < plen && p[i + w] != ' ' &&
			       p[i + w] != '\n')
				w++;
			if (!w)
				break;
			if (col && col + 1 + (int)w > WIDTH) {
				fputc('\n', out);
				col = 0;
			}
			if (!col)
				col = fprintf(out, "%*s", indent, "");
			else
				col += fprintf(out, " ");
			fwrite(p + i, 1, w, out);
			col += (int)w;
			i += w;
		}
		fputc('\n', out);
		if (!end)
			break;
		fputc('\n', out);
		p = end + 2;
	}
}

/* The fence language of an example file named `name` (`n` bytes) whose
 * text starts with `body`: by extension, else by its #! line; "shell"
 * holds commands to type. */
static const char *lang(const char *name, size_t n, const char *body)
{
	static const struct {
		const char *ext, *lang;
	} langs[] = {
		{ ".json", "json" }, { ".sh", "sh" },	  { ".bash", "sh" },
		{ ".py", "python" }, { ".yaml", "yaml" }, { ".yml", "yaml" },
		{ ".go", "go" },     { ".md", "markdown" },
	};

	if (n == 5 && !memcmp(name, "shell", 5))
		return "sh";
	for (size_t i = 0; i < sizeof(langs) / sizeof(*langs); i++) {
		size_t k = strlen(langs[i].ext);

		if (n >= k && !memcmp(name + n - k, langs[i].ext, k))
			return langs[i].lang;
	}
	if (!strncmp(body, "#!", 2)) {
		size_t line = strcspn(body, "\n");
		const char *py = strstr(body, "python");

		return py && (size_t)(py - body) < line ? "python" : "sh";
	}
	return "text";
}

/* Write an example: each "== NAME ==" file as a labelled block. */
static void example(FILE *out, const char *text, enum pc_explain_format fmt)
{
	const char *p = text;

	while (p && *p) {
		const char *name = NULL, *body = p, *next;
		size_t nlen = 0;

		if (!strncmp(p, "== ", 3)) {
			const char *e = strstr(p, " ==\n");

			if (e) {
				name = p + 3;
				nlen = (size_t)(e - name);
				body = e + 4;
			}
		}
		next = strstr(body, "\n== ");
		if (next)
			next++;
		{
			size_t blen =
				next ? (size_t)(next - body) : strlen(body);

			while (blen && body[blen - 1] == '\n')
				blen--;
			if (fmt == PC_EXPLAIN_MARKDOWN) {
				if (name)
					fprintf(out, "`%.*s`:\n\n", (int)nlen,
						name);
				fprintf(out, "```%s\n%.*s\n```\n\n",
					name ? lang(name, nlen, body) : "text",
					(int)blen, body);
			} else {
				if (name)
					fprintf(out, "  %.*s:\n", (int)nlen,
						name);
				for (size_t i = 0; i < blen;) {
					const char *nl = memchr(body + i, '\n',
								blen - i);
					size_t k = nl ? (size_t)(nl - body - i)
						      : blen - i;

					fprintf(out, k ? "    %.*s\n" : "\n",
						(int)k, body + i);
					i += k + 1;
				}
				fputc('\n', out);
			}
		}
		p = next;
	}
}

static void heading(FILE *out, const char *title, enum pc_explain_format fmt)
{
	if (fmt == PC_EXPLAIN_MARKDOWN)
		fprintf(out, "## %s\n\n", title);
	else
		fprintf(out, "%s\n", title);
}

/* `text` as Markdown prose: the characters that would start emphasis, an
 * HTML tag or a link ("<root>/<name>", "*.pub") are escaped; `code`
 * spans are kept as they are. */
static void md_text(FILE *out, const char *text)
{
	bool code = false;

	for (const char *p = text; *p; p++) {
		if (*p == '`')
			code = !code;
		if (!code && strchr("*<>[]\\", *p))
			fputc('\\', out);
		fputc(*p, out);
	}
}

static void para(FILE *out, const char *text, enum pc_explain_format fmt)
{
	if (fmt == PC_EXPLAIN_MARKDOWN) {
		md_text(out, text);
		fputs("\n\n", out);
	} else {
		wrap(out, text, 2);
		fputc('\n', out);
	}
}

/* PC-LOAD-001: every load error with its own fix. */
static void load_fixes(FILE *out, enum pc_explain_format fmt)
{
	para(out,
	     "The fix depends on the host's message, which the finding quotes; "
	     "plugcheck prints the fix for that message under it. Each host "
	     "message below has * where its text varies; $1, $2, ... in the "
	     "fix stand for those parts:",
	     fmt);
	for (size_t i = 0; i < pc_nload_fixes; i++) {
		const struct pc_load_fix *l = &pc_load_fixes[i];

		if (fmt == PC_EXPLAIN_MARKDOWN) {
			/* double backticks: the messages hold single ones */
			fprintf(out, "- `` %s `` (%s): ", l->pattern, l->spec);
			md_text(out, l->fix);
			fputc('\n', out);
		} else {
			fprintf(out, "  - %s (%s)\n", l->pattern, l->spec);
			wrap(out, l->fix, 6);
		}
	}
	fputc('\n', out);
}

void pc_rule_explain(const struct pc_rule *rule, enum pc_explain_format fmt,
		     const char *url, FILE *out)
{
	const struct pc_rule_doc *d = pc_rule_doc_find(rule->id);
	const char *spec =
		*rule->spec ? rule->spec : "none (a check of plugcheck's own)";
	bool md = fmt == PC_EXPLAIN_MARKDOWN;

	if (md)
		fprintf(out,
			"# %s: %s\n\nSeverity: **%s**. Contract rule: %s.\n\n",
			rule->id, rule->title, pc_severity_name(rule->severity),
			spec);
	else
		fprintf(out, "%s (%s): %s\nContract rule: %s\n\n", rule->id,
			pc_severity_name(rule->severity), rule->title, spec);
	heading(out, "What the host does", fmt);
	para(out, d ? d->host : "(not explained yet)", fmt);
	if (d && d->failing) {
		heading(out, "A failing example", fmt);
		example(out, d->failing, fmt);
	}
	heading(out, "The fix", fmt);
	if (!strcmp(rule->id, "PC-LOAD-001"))
		load_fixes(out, fmt);
	else
		para(out, rule->fix, fmt);
	if (d && d->fixed) {
		heading(out, "Fixed", fmt);
		example(out, d->fixed, fmt);
	}
	if (md)
		fprintf(out,
			"---\n\n`plugcheck explain %s` prints this page. It is generated from the explanation table (conformance/rules/pc_rule_docs.c) by `plugcheck explain --all --markdown docs/rules`: edit the table, not this file.\n",
			rule->id);
	else if (url)
		fprintf(out, "Online: %s\n", url);
}

char *pc_rule_explained(const struct pc_rule *rule,
			enum pc_explain_format fmt)
{
	char *buf = NULL, *url = pc_rule_doc_url(rule->id);
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (mem) {
		pc_rule_explain(rule, fmt, url, mem);
		fclose(mem);
	}
	free(url);
	return buf ? buf : pc_xstrdup("");
}

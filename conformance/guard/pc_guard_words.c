/* pc_guard_words.c - the rewrite families for shell commands that work
 * on the words and on the command as a whole: quote, wrap, chain,
 * target, abspath, prefix, space (pc_guard_families.c has the option
 * families and why the whole set is equivalent: each family below says
 * why it is). */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_xalloc.h"

/* The word `i` of `c` replaced by `raw` (new string). */
static void emit_word(struct pc__gvariants *out, const struct pc__gseed *s,
		      const struct pc__gcmd *c, size_t i, const char *raw,
		      const char *rule)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	for (size_t k = c->start; k < c->end; k++)
		pc_strvec_push(&w, k == i ? raw : s->l.w[k].raw);
	pc__gseed_emit(out, s, c, &w, rule);
	pc_strvec_release(&w);
}

static void quote_word(struct pc__gvariants *out, const struct pc__gseed *s,
		       const struct pc__gcmd *c, size_t i, bool all)
{
	const char *v = s->l.w[i].raw;
	char *q;

	if (!s->l.w[i].value || strcmp(v, s->l.w[i].value) ||
	    !pc__guard_is_plain_name(v))
		return;
	q = pc_xasprintf("'%s'", v);
	emit_word(out, s, c, i, q, "the word in single quotes");
	free(q);
	q = pc_xasprintf("\"%s\"", v);
	emit_word(out, s, c, i, q, "the word in double quotes");
	free(q);
	if (!all || strlen(v) < 2)
		return;
	q = pc_xasprintf("\\%s", v);
	emit_word(out, s, c, i, q, "a backslash before the word");
	free(q);
	q = pc_xasprintf("%c''%s", v[0], v + 1);
	emit_word(out, s, c, i, q, "an empty quoted string inside the word");
	free(q);
	q = pc_xasprintf("%c\"\"%s", v[0], v + 1);
	emit_word(out, s, c, i, q, "empty double quotes inside the word");
	free(q);
	q = pc_xasprintf("%c\\%s", v[0], v + 1);
	emit_word(out, s, c, i, q, "a backslash inside the word");
	free(q);
	q = pc_xasprintf("$'%s'", v);
	emit_word(out, s, c, i, q, "ANSI-C quoting ($'...')");
	free(q);
}

/* quote - quoting that bash removes before the program sees its argv:
 * 'rm', "rm", \rm, r''m, r""m, r\m, $'rm' for the command word (and git's
 * subcommand), quotes around options and operands. Equivalent: quote
 * removal is the last step of word expansion (bash(1) "Quote Removal");
 * the words are plain names, in which no quote changes a character. A
 * backslash before the command word also skips aliases, which bash -c
 * does not expand. */
void pc__guard_fam_quote(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	struct pc__gseed s;

	(void)ctx;
	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		const struct pc__gcmd *c = &s.c[k];
		struct pc__gparsed p;
		bool model = pc__guard_model(&s.l, c, &p);

		if (c->word >= c->end)
			continue;
		quote_word(out, &s, c, c->word, true);
		if (model && p.sub != (size_t)-1)
			quote_word(out, &s, c, p.sub, false);
		for (size_t i = 0; model && i < p.na; i++)
			if (p.a[i].kind != PC_GA_END)
				quote_word(out, &s, c, p.a[i].word, false);
	}
	pc__guard_line_release(&s.l);
}

/* wrap - the command run by another shell or by eval: bash -c 'X',
 * sh -c 'X' (only for what the parser understood, which is POSIX sh),
 * eval 'X', bash -c "X" (when X has nothing double quotes change).
 * Equivalent: the inner shell runs X in the same directory with the same
 * environment; eval runs its argument as a command in the same shell. */
void pc__guard_fam_wrap(const char *text, const struct pc__gctx *ctx,
		     struct pc__gvariants *out)
{
	struct pc__gline l;
	char *q = pc__guard_squote(text), *v;

	(void)ctx;
	pc__guard_parse(text, &l);
	v = pc_xasprintf("bash -c %s", q);
	pc__guard_variant_add(out, text, v, "run by bash -c", NULL, NULL);
	free(v);
	if (!l.opaque && !strstr(text, "|&") && !strstr(text, "$'")) {
		v = pc_xasprintf("sh -c %s", q);
		pc__guard_variant_add(out, text, v, "run by sh -c", NULL, NULL);
		free(v);
	}
	v = pc_xasprintf("eval %s", q);
	pc__guard_variant_add(out, text, v, "run by eval", NULL, NULL);
	free(v);
	if (!strpbrk(text, "\"$`\\!")) {
		v = pc_xasprintf("bash -c \"%s\"", text);
		pc__guard_variant_add(out, text, v, "run by bash -c, double-quoted",
				      NULL, NULL);
		free(v);
	}
	pc__guard_line_release(&l);
	free(q);
}

/* chain - the command after another one, in a list, a subshell or a
 * group: true && X, true; X, false || X, a newline before X, ( X ),
 * { X; }, if true; then X; fi. Equivalent: && and || bind tighter than
 * ; and newline, and associate to the left, so "true && a || b" is
 * "(true && a) || b"; true succeeds and false fails; a subshell runs X in
 * a copy of the same shell (X's effects on files are the same). The
 * newline forms are used when X ends in & or the line is not understood
 * (a trailing comment would swallow the closing word). */
void pc__guard_fam_chain(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	struct pc__gline l;
	size_t n = strlen(text);
	bool nl;
	char *v;

	(void)ctx;
	pc__guard_parse(text, &l);
	nl = l.opaque || (n && (text[n - 1] == '&' || text[n - 1] == '\n'));
	v = pc_xasprintf("true && %s", text);
	pc__guard_variant_add(out, text, v, "after true &&", NULL, NULL);
	free(v);
	v = pc_xasprintf("true; %s", text);
	pc__guard_variant_add(out, text, v, "after true;", NULL, NULL);
	free(v);
	v = pc_xasprintf("false || %s", text);
	pc__guard_variant_add(out, text, v, "after false ||", NULL, NULL);
	free(v);
	v = pc_xasprintf("true\n%s", text);
	pc__guard_variant_add(out, text, v, "on the line after another command",
			      NULL, NULL);
	free(v);
	v = nl ? pc_xasprintf("(\n%s\n)", text) : pc_xasprintf("( %s )", text);
	pc__guard_variant_add(out, text, v, "in a subshell", NULL, NULL);
	free(v);
	v = nl ? pc_xasprintf("{\n%s\n}", text) : pc_xasprintf("{ %s; }", text);
	pc__guard_variant_add(out, text, v, "in a { } group", NULL, NULL);
	free(v);
	v = nl ? pc_xasprintf("if true; then\n%s\nfi", text)
	       : pc_xasprintf("if true; then %s; fi", text);
	pc__guard_variant_add(out, text, v, "inside if true; then ...; fi", NULL,
			      NULL);
	free(v);
	pc__guard_line_release(&l);
}

/* The last path component of `v` is "." or ".." (rm refuses those, so
 * no respelling of them is the same request). */
static bool dot_last(const char *v)
{
	size_t n = strlen(v);
	const char *b;

	while (n > 1 && v[n - 1] == '/')
		n--;
	b = v + n;
	while (b > v && b[-1] != '/')
		b--;
	return (v + n - b == 1 && b[0] == '.') ||
	       (v + n - b == 2 && b[0] == '.' && b[1] == '.');
}

static void emit_target(struct pc__gvariants *out, const struct pc__gseed *s,
			const struct pc__gcmd *c, size_t i, const char *pre,
			const char *raw, const char *rule)
{
	char *w = pc_xasprintf("%s%s", pre, raw);

	emit_word(out, s, c, i, w, rule);
	free(w);
}

/* Respellings of an absolute path `v` (plain). */
static void target_abs(struct pc__gvariants *out, const struct pc__gseed *s,
		       const struct pc__gcmd *c, size_t i, const char *pre,
		       const char *v)
{
	const char *slash = strchr(v + 1, '/');
	char *t;

	emit_target(out, s, c, i, pre, (t = pc_xasprintf("/%s", v)),
		    "a doubled leading slash");
	free(t);
	if (!v[1]) {
		emit_target(out, s, c, i, pre, "///", "three slashes for /");
		return;
	}
	emit_target(out, s, c, i, pre, (t = pc_xasprintf("/.%s", v)),
		    "a /./ after the root");
	free(t);
	emit_target(out, s, c, i, pre, (t = pc_xasprintf("/..%s", v)),
		    "a /../ after the root (the root's parent is the root)");
	free(t);
	if (slash && slash[1]) {
		t = pc_xasprintf("%.*s//%s", (int)(slash - v), v, slash + 1);
		emit_target(out, s, c, i, pre, t, "a doubled slash inside");
		free(t);
		t = pc_xasprintf("%.*s/./%s", (int)(slash - v), v, slash + 1);
		emit_target(out, s, c, i, pre, t, "a /./ inside");
		free(t);
	}
}

/* Respellings of "~" or "~/rest" (raw, unquoted). */
static void target_home(struct pc__gvariants *out, const struct pc__gseed *s,
			const struct pc__gcmd *c, size_t i, const char *raw,
			const char *home)
{
	const char *rest = raw + 1; /* "" or "/..." */
	char *t;

	emit_target(out, s, c, i, "", (t = pc_xasprintf("$HOME%s", rest)),
		    "$HOME for ~");
	free(t);
	emit_target(out, s, c, i, "", (t = pc_xasprintf("${HOME}%s", rest)),
		    "${HOME} for ~");
	free(t);
	emit_target(out, s, c, i, "", (t = pc_xasprintf("\"$HOME\"%s", rest)),
		    "\"$HOME\" for ~");
	free(t);
	if (home && pc__guard_is_plain_name(home)) {
		emit_target(out, s, c, i, "", (t = pc_xasprintf("%s%s", home, rest)),
			    "the home directory's absolute path for ~");
		free(t);
	}
	if (!*rest)
		emit_target(out, s, c, i, "", "~/", "~/ for ~");
	else if (rest[1]) {
		emit_target(out, s, c, i, "", (t = pc_xasprintf("~/.%s", rest)),
			    "a /./ after ~");
		free(t);
		emit_target(out, s, c, i, "", (t = pc_xasprintf("~/%s", rest)),
			    "a doubled slash after ~");
		free(t);
	}
}

/* Respellings of a relative path `v` (plain) from the workspace. */
static void target_rel(struct pc__gvariants *out, const struct pc__gseed *s,
		       const struct pc__gcmd *c, size_t i, const char *pre,
		       const char *v, const char *ws)
{
	const char *base = ws ? strrchr(ws, '/') : NULL;
	char *t;

	emit_target(out, s, c, i, pre, (t = pc_xasprintf("./%s", v)),
		    "./ before the relative path");
	free(t);
	emit_target(out, s, c, i, pre, (t = pc_xasprintf("\"$PWD\"/%s", v)),
		    "\"$PWD\"/ before the relative path");
	free(t);
	if (ws && pc__guard_is_plain_name(ws)) {
		emit_target(out, s, c, i, pre, (t = pc_xasprintf("%s/%s", ws, v)),
			    "the workspace's absolute path");
		free(t);
		if (base && base[1]) {
			t = pc_xasprintf("../%s/%s", base + 1, v);
			emit_target(out, s, c, i, pre, t,
				    "out of the workspace and back in (../WS/)");
			free(t);
		}
	}
}

/* target - the same file or directory named another way: // and /./ and
 * /../ after the root, // and /./ inside, $HOME, ${HOME}, "$HOME" and
 * the home directory's path for ~, ./ and "$PWD"/ and the workspace's
 * absolute path (and ../WS/) for a relative path. Equivalent: the kernel
 * resolves repeated slashes and "." as nothing, ".." of the root as the
 * root (path_resolution(7)), bash's tilde expansion is $HOME, bash runs
 * in the workspace (whose path has no symlink, so .. of it is its
 * parent). Never for a target whose last component is . or .. (rm
 * refuses those), nor for options' values; for a program without a model
 * (pc_guard_progs.c) only ~ words, which always name a path. */
void pc__guard_fam_target(const char *text, const struct pc__gctx *ctx,
		       struct pc__gvariants *out)
{
	struct pc__gseed s;

	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		const struct pc__gcmd *c = &s.c[k];
		struct pc__gparsed p;
		bool model = pc__guard_model(&s.l, c, &p);

		for (size_t i = c->word + 1; i < c->end; i++) {
			const struct pc__gword *w = &s.l.w[i];
			const char *v = w->value, *eq;
			const char *pre = "";
			char *pbuf = NULL;
			bool operand = !model;

			for (size_t a = 0; model && a < p.na; a++)
				operand = operand || (p.a[a].word == i &&
						      p.a[a].kind == PC_GA_OPERAND);
			if (w->kind != PC_GW_WORD || !operand || i == p.sub ||
			    (model && !p.prog->paths))
				continue;
			if (!v && w->raw[0] == '~' &&
			    (!w->raw[1] || (w->raw[1] == '/' &&
					    pc__guard_is_plain_name(w->raw + 1)))) {
				target_home(out, &s, c, i, w->raw, ctx->home);
				continue;
			}
			if (!v || strcmp(v, w->raw) || !pc__guard_is_plain_name(v))
				continue;
			if (model && p.prog->keyed && (eq = strchr(v, '='))) {
				pbuf = pc_xmemdup(v, (size_t)(eq - v) + 1);
				pre = pbuf;
				v = eq + 1;
			}
			/* a program without a model may read "/x" as anything
			 * (a sed script, a URL's path): only ~ is surely a
			 * path there */
			if (v[0] == '-' || dot_last(v) || !model) {
				free(pbuf);
				continue;
			}
			if (v[0] == '/')
				target_abs(out, &s, c, i, pre, v);
			else
				target_rel(out, &s, c, i, pre, v, ctx->workspace);
			free(pbuf);
		}
	}
	pc__guard_line_release(&s.l);
}

/* `name` found on `path` (":"-separated) as an executable file: new
 * string, or NULL. */
static char *which(const char *name, const char *path)
{
	const char *p = path;

	while (p && *p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *cand = pc_xasprintf("%.*s/%s", (int)n, p, name);

		if (n && p[0] == '/' && pc_fs_is_file(cand) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

/* abspath - the program by the absolute path bash's PATH search finds it
 * at (and by /bin/NAME when /bin is /usr/bin). Equivalent: a command
 * name without a slash runs the first executable of that name on PATH
 * (bash(1) "COMMAND EXECUTION"); the host's bash gets the host's PATH,
 * which is the one searched here. */
void pc__guard_fam_abspath(const char *text, const struct pc__gctx *ctx,
			struct pc__gvariants *out)
{
	struct pc__gseed s;
	char *bin = pc_fs_realpath("/bin");

	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		const struct pc__gcmd *c = &s.c[k];
		const char *v;
		char *full, *alt;

		if (c->word >= c->end || !(v = s.l.w[c->word].value) ||
		    strchr(v, '/') || strcmp(v, s.l.w[c->word].raw) ||
		    !(full = which(v, ctx->path_env)))
			continue;
		emit_word(out, &s, c, c->word, full,
			  "the program by its absolute path");
		if (bin && !strcmp(bin, "/usr/bin") &&
		    !strncmp(full, "/usr/bin/", 9)) {
			alt = pc_xasprintf("/bin/%s", full + 9);
			emit_word(out, &s, c, c->word, alt,
				  "the program by /bin (a link to /usr/bin)");
			free(alt);
		}
		free(full);
	}
	free(bin);
	pc__guard_line_release(&s.l);
}

/* A word put before the command word of `c`. */
static void emit_prefix(struct pc__gvariants *out, const struct pc__gseed *s,
			const struct pc__gcmd *c, const char *word,
			const char *rule)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	for (size_t k = c->start; k < c->end; k++) {
		if (k == c->word)
			pc_strvec_push(&w, word);
		pc_strvec_push(&w, s->l.w[k].raw);
	}
	pc__gseed_emit(out, s, c, &w, rule);
	pc_strvec_release(&w);
}

/* xargs: the last operand fed on stdin (one command alone, a plain last
 * word, no redirection or assignment). */
static void prefix_xargs(struct pc__gvariants *out, const struct pc__gseed *s,
			 const struct pc__gcmd *c)
{
	const struct pc__gword *last = &s->l.w[c->end - 1];
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc__gline one = { .n = 0 };
	char *text;

	if (s->nc != 1 || s->l.n != (size_t)(c->end - c->start) ||
	    c->word != c->start || c->end - c->start < 3 ||
	    last->kind != PC_GW_WORD || !last->value ||
	    strcmp(last->raw, last->value) || !pc__guard_is_plain_name(last->value) ||
	    last->value[0] == '-')
		return;
	for (size_t k = c->start; k < c->end; k++)
		if (s->l.w[k].kind != PC_GW_WORD)
			return;
	one.w = s->l.w;
	one.n = c->end - 1;
	text = pc__guard_join(&one);
	pc_buf_addf(&b, "printf '%%s\\n' %s | xargs %s", last->raw, text);
	free(text);
	pc__guard_variant_add(out, s->text, pc_buf_cstr(&b),
			      "the last operand fed to xargs", NULL, NULL);
	pc_buf_release(&b);
}

/* prefix - a word that runs the same program: command, env, nice, exec
 * (the command alone on its line), and xargs with the last operand on
 * its stdin. Equivalent: `command` skips shell functions (bash -c has
 * none), env and nice exec the program by the same PATH search (nice
 * only lowers its priority), exec replaces the shell by it (nothing
 * follows on the line), xargs runs the program with its arguments and
 * the words it reads. */
void pc__guard_fam_prefix(const char *text, const struct pc__gctx *ctx,
		       struct pc__gvariants *out)
{
	static const char *const prefixes[] = { "command", "env", "nice",
						"exec", "sudo", "time",
						"nohup", "xargs" };
	struct pc__gseed s;

	(void)ctx;
	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		const struct pc__gcmd *c = &s.c[k];
		const char *v;
		bool known = false;

		if (c->word >= c->end || !(v = s.l.w[c->word].value))
			continue;
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
			known = known || !strcmp(v, prefixes[i]);
		if (known)
			continue;
		emit_prefix(out, &s, c, "command", "after `command`");
		emit_prefix(out, &s, c, "env", "after `env`");
		emit_prefix(out, &s, c, "nice", "after `nice`");
		if (s.nc == 1 && !c->piped)
			emit_prefix(out, &s, c, "exec", "after `exec`");
		prefix_xargs(out, &s, c);
	}
	pc__guard_line_release(&s.l);
}

/* The words of the line joined by `sep` (newlines kept). */
static char *join_sep(const struct pc__gline *l, const char *sep)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool due = false;

	for (size_t i = 0; i < l->n; i++) {
		if (l->w[i].kind == PC_GW_OP && !strcmp(l->w[i].raw, "\n")) {
			pc_buf_addch(&b, '\n');
			due = false;
			continue;
		}
		if (due)
			pc_buf_adds(&b, sep);
		pc_buf_adds(&b, l->w[i].raw);
		due = true;
	}
	return pc_buf_detach(&b, NULL);
}

/* space - other blanks between the words: two spaces, tabs, blanks
 * before and after, a newline before, a backslash-newline inside.
 * Equivalent: unquoted blanks (space, tab) only separate words, an empty
 * line runs nothing, and bash removes a backslash-newline before
 * splitting (bash(1) "QUOTING"). */
void pc__guard_fam_space(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	struct pc__gline l;
	char *v;

	(void)ctx;
	pc__guard_parse(text, &l);
	if (!l.opaque && l.n > 1) {
		v = join_sep(&l, "  ");
		pc__guard_variant_add(out, text, v, "two spaces between words",
				      NULL, NULL);
		free(v);
		v = join_sep(&l, "\t");
		pc__guard_variant_add(out, text, v, "tabs between words", NULL,
				      NULL);
		free(v);
		v = join_sep(&l, " \\\n");
		pc__guard_variant_add(out, text, v,
				      "a backslash-newline between words", NULL,
				      NULL);
		free(v);
	}
	v = pc_xasprintf(" \t%s  ", text);
	pc__guard_variant_add(out, text, v, "blanks before and after", NULL, NULL);
	free(v);
	v = pc_xasprintf("\n%s", text);
	pc__guard_variant_add(out, text, v, "an empty line before", NULL, NULL);
	free(v);
	pc__guard_line_release(&l);
}


/* pc_guard_words.c - the rewrite families for shell commands that work
 * on the words and on the command as a whole: quote, wrap, chain,
 * target, abspath, prefix, space (pc_guard_families.c has the option
 * families and why the whole set is equivalent: each family below says
 * why it is). */
#include <sys/stat.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_xalloc.h"

/* Add the rewrite printf(fmt, ...) of `seed`, made by `rule`. */
static void addf(struct pc__gvariants *out, const char *seed, const char *rule,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void addf(struct pc__gvariants *out, const char *seed, const char *rule,
		 const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc__guard_variant_add(out, seed, pc_buf_cstr(&b), rule, NULL, NULL);
	pc_buf_release(&b);
}

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

/* Where a respelt word goes: word `i` of command `c` of seed `s`, after
 * the prefix `pre` (dd's "of="). */
struct at {
	struct pc__gvariants *out;
	const struct pc__gseed *s;
	const struct pc__gcmd *c;
	size_t i;
	const char *pre;
};

/* The rewrite with that word replaced by pre + printf(fmt, ...). */
static void wordf(const struct at *a, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void wordf(const struct at *a, const char *rule, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;

	pc_buf_adds(&b, a->pre ? a->pre : "");
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	emit_word(a->out, a->s, a->c, a->i, pc_buf_cstr(&b), rule);
	pc_buf_release(&b);
}

static void quote_word(struct pc__gvariants *out, const struct pc__gseed *s,
		       const struct pc__gcmd *c, size_t i, bool all)
{
	const struct at a = { out, s, c, i, NULL };
	const char *v = s->l.w[i].raw;

	if (!s->l.w[i].value || strcmp(v, s->l.w[i].value) ||
	    !pc__guard_is_plain_name(v))
		return;
	wordf(&a, "the word in single quotes", "'%s'", v);
	wordf(&a, "the word in double quotes", "\"%s\"", v);
	if (!all || strlen(v) < 2)
		return;
	wordf(&a, "a backslash before the word", "\\%s", v);
	wordf(&a, "an empty quoted string inside the word", "%c''%s", v[0], v + 1);
	wordf(&a, "empty double quotes inside the word", "%c\"\"%s", v[0], v + 1);
	wordf(&a, "a backslash inside the word", "%c\\%s", v[0], v + 1);
	wordf(&a, "ANSI-C quoting ($'...')", "$'%s'", v);
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
	char *q = pc__guard_squote(text);

	(void)ctx;
	pc__guard_parse(text, &l);
	addf(out, text, "run by bash -c", "bash -c %s", q);
	if (!l.opaque && !strstr(text, "|&") && !strstr(text, "$'")) {
		addf(out, text, "run by sh -c", "sh -c %s", q);
	}
	addf(out, text, "run by eval", "eval %s", q);
	if (!strpbrk(text, "\"$`\\!")) {
		addf(out, text, "run by bash -c, double-quoted", "bash -c \"%s\"", text);
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

	(void)ctx;
	pc__guard_parse(text, &l);
	nl = l.opaque || (n && (text[n - 1] == '&' || text[n - 1] == '\n'));
	addf(out, text, "after true &&", "true && %s", text);
	addf(out, text, "after true;", "true; %s", text);
	addf(out, text, "after false ||", "false || %s", text);
	addf(out, text, "on the line after another command", "true\n%s", text);
	addf(out, text, "in a subshell", nl ? "(\n%s\n)" : "( %s )", text);
	addf(out, text, "in a { } group", nl ? "{\n%s\n}" : "{ %s; }", text);
	addf(out, text, "inside if true; then ...; fi",
	     nl ? "if true; then\n%s\nfi" : "if true; then %s; fi", text);
	pc__guard_line_release(&l);
}

/* Respellings of an absolute path `v` (plain). */
static void target_abs(const struct at *a, const char *v)
{
	const char *slash = strchr(v + 1, '/');
	int n = slash ? (int)(slash - v) : 0;

	wordf(a, "a doubled leading slash", "/%s", v);
	if (!v[1]) {
		wordf(a, "three slashes for /", "///");
		return;
	}
	wordf(a, "a /./ after the root", "/.%s", v);
	wordf(a, "a /../ after the root (the root's parent is the root)", "/..%s", v);
	if (slash && slash[1]) {
		wordf(a, "a doubled slash inside", "%.*s//%s", n, v, slash + 1);
		wordf(a, "a /./ inside", "%.*s/./%s", n, v, slash + 1);
	}
}

/* Respellings of "~" or "~/rest" (raw, unquoted). */
static void target_home(const struct at *a, const char *raw, const char *home)
{
	const char *rest = raw + 1; /* "" or "/..." */

	wordf(a, "$HOME for ~", "$HOME%s", rest);
	wordf(a, "${HOME} for ~", "${HOME}%s", rest);
	wordf(a, "\"$HOME\" for ~", "\"$HOME\"%s", rest);
	if (home && pc__guard_is_plain_name(home))
		wordf(a, "the home directory's absolute path for ~", "%s%s", home, rest);
	if (!*rest) {
		wordf(a, "~/ for ~", "~/");
	} else if (rest[1]) {
		wordf(a, "a /./ after ~", "~/.%s", rest);
		wordf(a, "a doubled slash after ~", "~/%s", rest);
	}
}

/* Respellings of a relative path `v` (plain) from the workspace. */
static void target_rel(const struct at *a, const char *v, const char *ws)
{
	const char *base = ws ? strrchr(ws, '/') : NULL;

	wordf(a, "./ before the relative path", "./%s", v);
	wordf(a, "\"$PWD\"/ before the relative path", "\"$PWD\"/%s", v);
	if (ws && pc__guard_is_plain_name(ws)) {
		wordf(a, "the workspace's absolute path", "%s/%s", ws, v);
		if (base && base[1])
			wordf(a, "out of the workspace and back in (../WS/)",
			      "../%s/%s", base + 1, v);
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
/* Word `a->i` is an operand of its command (any word, without a model). */
static bool is_operand(const struct at *a, bool model, const struct pc__gparsed *p)
{
	for (size_t k = 0; model && k < p->na; k++)
		if (p->a[k].word == a->i)
			return p->a[k].kind == PC_GA_OPERAND;
	return !model;
}

static void target_word(struct at *a, bool model, const struct pc__gparsed *p,
			const struct pc__gctx *ctx)
{
	const struct pc__gword *w = &a->s->l.w[a->i];
	const char *v = w->value, *eq;
	char *pre = NULL;

	if (w->kind != PC_GW_WORD || !is_operand(a, model, p) || a->i == p->sub ||
	    (model && !p->prog->paths))
		return;
	if (!v && w->raw[0] == '~' &&
	    (!w->raw[1] || (w->raw[1] == '/' && pc__guard_is_plain_name(w->raw + 1)))) {
		target_home(a, w->raw, ctx->home);
		return;
	}
	/* a program without a model may read "/x" as anything (a sed
	 * script, a URL's path): only ~ is surely a path there */
	if (!model || !v || strcmp(v, w->raw) || !pc__guard_is_plain_name(v))
		return;
	if (p->prog->keyed && (eq = strchr(v, '='))) {
		a->pre = pre = pc_xmemdup(v, (size_t)(eq - v) + 1);
		v = eq + 1;
	}
	if (v[0] == '/' && !pc_guard_last_is_dot(v))
		target_abs(a, v);
	else if (v[0] != '-' && !pc_guard_last_is_dot(v))
		target_rel(a, v, ctx->workspace);
	a->pre = NULL;
	free(pre);
}

void pc__guard_fam_target(const char *text, const struct pc__gctx *ctx,
			  struct pc__gvariants *out)
{
	struct pc__gseed s;

	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		struct pc__gparsed p;
		bool model = pc__guard_model(&s.l, &s.c[k], &p);
		struct at a = { out, &s, &s.c[k], 0, NULL };

		for (a.i = s.c[k].word + 1; a.i < s.c[k].end; a.i++)
			target_word(&a, model, &p, ctx);
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
		static const char *const seps[][2] = {
			{ "  ", "two spaces between words" },
			{ "\t", "tabs between words" },
			{ " \\\n", "a backslash-newline between words" },
		};

		for (size_t i = 0; i < sizeof(seps) / sizeof(*seps); i++) {
			v = join_sep(&l, seps[i][0]);
			pc__guard_variant_add(out, text, v, seps[i][1], NULL, NULL);
			free(v);
		}
	}
	addf(out, text, "blanks before and after", " \t%s  ", text);
	addf(out, text, "an empty line before", "\n%s", text);
	pc__guard_line_release(&l);
}


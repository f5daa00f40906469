/* pc_guard_families.c - the rewrite families for shell commands.
 *
 * Each family turns a command the guard denied into commands that bash
 * (the host's bash tool runs `bash -c COMMAND` in the workspace, with the
 * host's environment) runs the same way: the same programs with the same
 * meaning of their arguments, in the same directory. Why each one is
 * equivalent is written above it; tests/e2e/test_guard_proof.py runs
 * every rewrite of the built-in seeds and its seed through bash inside a
 * bubblewrap sandbox with recording shims on PATH and compares what the
 * shims recorded. A family never respells what the parser
 * (pc_guard_shell.c) did not fully understand: a non-plain word (an
 * expansion, a glob) is kept as written, and an opaque line only gets
 * the families that treat the command as a whole (wrap, chain, space).
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_xalloc.h"

#define MAX_CMDS 16

/* One parsed seed: its line, its simple commands. */
struct seed {
	const char *text;
	struct pc__gline l;
	struct pc__gcmd c[MAX_CMDS];
	size_t nc;
};

static void seed_parse(struct seed *s, const char *text)
{
	s->text = text;
	pc__guard_parse(text, &s->l);
	s->nc = s->l.opaque ? 0 : pc__guard_commands(&s->l, s->c, MAX_CMDS);
}

/* The line with words [c->start, c->end) replaced by `words` (new
 * string). */
static char *replace(const struct seed *s, const struct pc__gcmd *c,
		     const struct pc_strvec *words)
{
	struct pc__gline t = { .n = 0 };
	char *text;

	t.w = pc_xcalloc(s->l.n + words->nr + 1, sizeof(*t.w));
	for (size_t i = 0; i < c->start; i++)
		t.w[t.n++] = s->l.w[i];
	for (size_t i = 0; i < words->nr; i++)
		t.w[t.n++] = (struct pc__gword){ PC_GW_WORD, words->v[i], NULL };
	for (size_t i = c->end; i < s->l.n; i++)
		t.w[t.n++] = s->l.w[i];
	text = pc__guard_join(&t);
	free(t.w);
	return text;
}

static void emit_words(struct pc__gvariants *out, const struct seed *s,
		       const struct pc__gcmd *c, const struct pc_strvec *w,
		       const char *rule)
{
	char *text = replace(s, c, w);

	pc__guard_variant_add(out, s->text, text, rule, NULL, NULL);
	free(text);
}

/* The words of `c` up to and including the command word (and git's
 * subcommand): NAME=value words, the program. */
static void head(const struct seed *s, const struct pc__gcmd *c,
		 const struct pc__gparsed *p, struct pc_strvec *w)
{
	size_t last = p && p->sub != (size_t)-1 ? p->sub : c->word;

	for (size_t i = c->start; i <= last && i < c->end; i++)
		if (s->l.w[i].kind == PC_GW_WORD)
			pc_strvec_push(w, s->l.w[i].raw);
}

/* The redirections of `c`, kept at the end (their order kept: bash
 * applies them left to right whatever words stand between them). */
static void tail(const struct seed *s, const struct pc__gcmd *c,
		 struct pc_strvec *w)
{
	for (size_t i = c->start; i < c->end; i++)
		if (s->l.w[i].kind == PC_GW_REDIR)
			pc_strvec_push(w, s->l.w[i].raw);
}

static void operands(const struct seed *s, const struct pc__gparsed *p,
		     struct pc_strvec *w)
{
	for (size_t i = 0; i < p->na; i++)
		if (p->a[i].kind == PC_GA_OPERAND)
			pc_strvec_push(w, s->l.w[p->a[i].word].raw);
}

static size_t count(const struct pc__gparsed *p, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < p->na; i++)
		n += (int)p->a[i].kind == kind ? (kind == PC_GA_SHORT ? p->a[i].no : 1)
					  : 0;
	return n;
}

/* How the options of a parsed command are respelled. */
enum spell {
	SP_ASIS,    /* as written */
	SP_SPLIT,   /* every short letter its own word */
	SP_BUNDLE,  /* every short letter in one word */
	SP_REVERSE, /* one word, letters reversed */
	SP_SYNONYM, /* one word, a letter replaced by its synonym */
	SP_LONG,    /* every letter with a long name spelled long */
	SP_LONG1,   /* the first such letter spelled long */
	SP_SHORT,   /* every long with a letter spelled short */
	SP_ABBREV,  /* SP_LONG, each long name cut to its shortest unique
		       prefix */
	SP_ABBREV4, /* SP_LONG, cut to 4 letters when that is unique */
};

static const struct pc_guard_popt *synonym(const struct pc_guard_prog *m,
					   const struct pc_guard_popt *o)
{
	for (size_t i = 0; i < m->nopts; i++)
		if (&m->opts[i] != o && m->opts[i].short_name &&
		    !strcmp(m->opts[i].id, o->id))
			return &m->opts[i];
	return NULL;
}

/* The long spelling of `o`'s meaning, or NULL. */
static const struct pc_guard_popt *long_of(const struct pc_guard_prog *m,
					   const struct pc_guard_popt *o)
{
	if (o->long_name)
		return o;
	for (size_t i = 0; i < m->nopts; i++)
		if (m->opts[i].long_name && !strcmp(m->opts[i].id, o->id))
			return &m->opts[i];
	return NULL;
}

static const struct pc_guard_popt *short_of(const struct pc_guard_prog *m,
					    const struct pc_guard_popt *o)
{
	if (o->short_name)
		return o;
	for (size_t i = 0; i < m->nopts; i++)
		if (m->opts[i].short_name && !strcmp(m->opts[i].id, o->id))
			return &m->opts[i];
	return NULL;
}

static void push_long(struct pc_strvec *w, const struct pc_guard_prog *m,
		      const char *name, enum spell sp)
{
	size_t n = strlen(name), k = 1;

	if (sp == SP_ABBREV)
		while (k < n && !pc_guard_prog_prefix_unique(m, name, k))
			k++;
	else if (sp == SP_ABBREV4)
		k = n > 4 && pc_guard_prog_prefix_unique(m, name, 4) ? 4 : n;
	else
		k = n;
	pc_strvec_pushf(w, "--%.*s", (int)k, name);
}

/* The option words of `p` respelled as `sp` (a respelling that changes
 * nothing gives the seed's text, which pc__guard_variant_add drops). */
static void spell(const struct pc__gparsed *p, enum spell sp,
		  struct pc_strvec *w)
{
	const struct pc_guard_prog *m = p->prog;
	struct pc_buf one = PC_BUF_INIT(PC_BUF_NOCAP);
	bool changed = false, first = true;

	for (size_t i = 0; i < p->na; i++) {
		const struct pc__garg *a = &p->a[i];

		for (size_t k = 0; k < a->no; k++) {
			const struct pc_guard_popt *o = a->o[k], *alt;
			bool is_short = a->kind == PC_GA_SHORT;

			if (sp >= SP_LONG && sp != SP_SHORT && is_short &&
			    (sp != SP_LONG1 || first) && (alt = long_of(m, o))) {
				push_long(w, m, alt->long_name, sp);
				first = false;
			} else if (sp == SP_SHORT && !is_short &&
				   (alt = short_of(m, o))) {
				pc_buf_addch(&one, alt->short_name);
			} else if (!is_short && (sp == SP_ABBREV || sp == SP_ABBREV4) &&
				   m->abbrev) {
				push_long(w, m, o->long_name, sp);
			} else if (!is_short) {
				pc_strvec_pushf(w, "--%s", o->long_name);
			} else if (sp == SP_SPLIT || sp == SP_LONG || sp == SP_LONG1) {
				pc_strvec_pushf(w, "-%c", o->short_name);
			} else if (sp == SP_SYNONYM && !changed &&
				   (alt = synonym(m, o))) {
				pc_buf_addch(&one, alt->short_name);
				changed = true;
			} else {
				pc_buf_addch(&one, o->short_name);
			}
		}
		if (a->kind == PC_GA_SHORT &&
		    (sp == SP_ASIS || sp == SP_SYNONYM) && one.len) {
			pc_strvec_pushf(w, "-%s", pc_buf_cstr(&one));
			pc_buf_reset(&one);
		}
	}
	if (one.len) {
		char *letters = pc_buf_detach(&one, NULL);
		size_t n = strlen(letters);

		if (sp == SP_REVERSE)
			for (size_t i = 0; i < n / 2; i++) {
				char t = letters[i];

				letters[i] = letters[n - 1 - i];
				letters[n - 1 - i] = t;
			}
		pc_strvec_pushf(w, "-%s", letters);
		free(letters);
	}
	pc_buf_release(&one);
}

/* A whole respelt command: head, options, "--" when `end`, operands
 * (before the options when `after`), redirections. */
static void respell(struct pc__gvariants *out, const struct seed *s,
		    const struct pc__gcmd *c, const struct pc__gparsed *p,
		    enum spell sp, bool end, bool after, const char *rule)
{
	struct pc_strvec w = PC_STRVEC_INIT, opts = PC_STRVEC_INIT;

	head(s, c, p, &w);
	spell(p, sp, &opts);
	if (after)
		operands(s, p, &w);
	for (size_t i = 0; i < opts.nr; i++)
		pc_strvec_push(&w, opts.v[i]);
	if (end || count(p, PC_GA_END))
		pc_strvec_push(&w, "--");
	if (!after)
		operands(s, p, &w);
	tail(s, c, &w);
	emit_words(out, s, c, &w, rule);
	pc_strvec_release(&opts);
	pc_strvec_release(&w);
}

/* Keyed operands (dd's if= and of=) in reverse order. */
static void keyed_reverse(struct pc__gvariants *out, const struct seed *s,
			  const struct pc__gcmd *c, const struct pc__gparsed *p)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	if (count(p, PC_GA_OPERAND) < 2)
		return;
	head(s, c, p, &w);
	for (size_t i = p->na; i-- > 0;)
		pc_strvec_push(&w, s->l.w[p->a[i].word].raw);
	tail(s, c, &w);
	emit_words(out, s, c, &w, "the key=value operands in another order");
	pc_strvec_release(&w);
}

static bool any_operand_dash(const struct seed *s, const struct pc__gparsed *p)
{
	for (size_t i = 0; i < p->na; i++)
		if (p->a[i].kind == PC_GA_OPERAND &&
		    s->l.w[p->a[i].word].raw[0] == '-')
			return true;
	return false;
}

/* flags - split, bundle and reorder short options, use a letter's
 * synonym, move options after the operands. Equivalent: getopt (and
 * git's parse-options) reads "-rf", "-r -f" and "-fr" as the same two
 * options, synonyms map to the same flag (rm -R is -r), and without
 * POSIXLY_CORRECT (not in the host's environment) GNU getopt permutes,
 * so options after operands still are options. Only for programs
 * modelled in pc_guard_progs.c, only where every argument parses. */
static void fam_flags(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	struct seed s;

	(void)ctx;
	seed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		struct pc__gparsed p;
		size_t letters, words;

		if (!pc__guard_model(&s.l, &s.c[k], &p))
			continue;
		if (p.prog->keyed) {
			keyed_reverse(out, &s, &s.c[k], &p);
			continue;
		}
		letters = count(&p, PC_GA_SHORT);
		words = 0;
		for (size_t i = 0; i < p.na; i++)
			words += p.a[i].kind == PC_GA_SHORT;
		if (letters > words)
			respell(out, &s, &s.c[k], &p, SP_SPLIT, false, false,
				"one short option per word");
		if (words > 1)
			respell(out, &s, &s.c[k], &p, SP_BUNDLE, false, false,
				"the short options in one word");
		if (letters > 1)
			respell(out, &s, &s.c[k], &p, SP_REVERSE, false, false,
				"the short options in another order");
		respell(out, &s, &s.c[k], &p, SP_SYNONYM, false, false,
			"a letter's synonym (same option)");
		if (p.prog->permute && !count(&p, PC_GA_END) &&
		    count(&p, PC_GA_OPERAND) && (letters || count(&p, PC_GA_LONG)) &&
		    !any_operand_dash(&s, &p)) {
			respell(out, &s, &s.c[k], &p, SP_ASIS, false, true,
				"the options after the operands");
			if (letters > 1)
				respell(out, &s, &s.c[k], &p, SP_SPLIT, false, true,
					"the options split, after the operands");
		}
	}
	pc__guard_line_release(&s.l);
}

/* long - long option names for short ones and back, and (for programs
 * whose whole table is modelled) unique prefixes of long names.
 * Equivalent: each pair is the same entry of the program's option table;
 * getopt_long takes a prefix that matches one long option as that
 * option. */
static void fam_long(const char *text, const struct pc__gctx *ctx,
		     struct pc__gvariants *out)
{
	struct seed s;

	(void)ctx;
	seed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		struct pc__gparsed p;

		if (!pc__guard_model(&s.l, &s.c[k], &p) || p.prog->keyed)
			continue;
		respell(out, &s, &s.c[k], &p, SP_LONG, false, false,
			"long option names");
		respell(out, &s, &s.c[k], &p, SP_LONG1, false, false,
			"one option by its long name");
		respell(out, &s, &s.c[k], &p, SP_SHORT, false, false,
			"short letters for long names");
		if (p.prog->abbrev) {
			respell(out, &s, &s.c[k], &p, SP_ABBREV, false, false,
				"long names cut to their shortest unique prefix");
			respell(out, &s, &s.c[k], &p, SP_ABBREV4, false, false,
				"long names cut to four letters");
		}
	}
	pc__guard_line_release(&s.l);
}

/* endopts - "--" between the options and the operands. Equivalent:
 * "--" only ends option parsing, and no operand starts with "-". */
static void fam_endopts(const char *text, const struct pc__gctx *ctx,
			struct pc__gvariants *out)
{
	struct seed s;

	(void)ctx;
	seed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		struct pc__gparsed p;

		if (!pc__guard_model(&s.l, &s.c[k], &p) || !p.prog->endopts ||
		    count(&p, PC_GA_END) || !count(&p, PC_GA_OPERAND) ||
		    any_operand_dash(&s, &p))
			continue;
		respell(out, &s, &s.c[k], &p, SP_ASIS, true, false,
			"\"--\" before the operands");
	}
	pc__guard_line_release(&s.l);
}

/* The word `i` of `c` replaced by `raw` (new string). */
static void emit_word(struct pc__gvariants *out, const struct seed *s,
		      const struct pc__gcmd *c, size_t i, const char *raw,
		      const char *rule)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	for (size_t k = c->start; k < c->end; k++)
		pc_strvec_push(&w, k == i ? raw : s->l.w[k].raw);
	emit_words(out, s, c, &w, rule);
	pc_strvec_release(&w);
}

static void quote_word(struct pc__gvariants *out, const struct seed *s,
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
static void fam_quote(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	struct seed s;

	(void)ctx;
	seed_parse(&s, text);
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
static void fam_wrap(const char *text, const struct pc__gctx *ctx,
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
static void fam_chain(const char *text, const struct pc__gctx *ctx,
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

static void emit_target(struct pc__gvariants *out, const struct seed *s,
			const struct pc__gcmd *c, size_t i, const char *pre,
			const char *raw, const char *rule)
{
	char *w = pc_xasprintf("%s%s", pre, raw);

	emit_word(out, s, c, i, w, rule);
	free(w);
}

/* Respellings of an absolute path `v` (plain). */
static void target_abs(struct pc__gvariants *out, const struct seed *s,
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
static void target_home(struct pc__gvariants *out, const struct seed *s,
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
static void target_rel(struct pc__gvariants *out, const struct seed *s,
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
static void fam_target(const char *text, const struct pc__gctx *ctx,
		       struct pc__gvariants *out)
{
	struct seed s;

	seed_parse(&s, text);
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
static void fam_abspath(const char *text, const struct pc__gctx *ctx,
			struct pc__gvariants *out)
{
	struct seed s;
	char *bin = pc_fs_realpath("/bin");

	seed_parse(&s, text);
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
static void emit_prefix(struct pc__gvariants *out, const struct seed *s,
			const struct pc__gcmd *c, const char *word,
			const char *rule)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	for (size_t k = c->start; k < c->end; k++) {
		if (k == c->word)
			pc_strvec_push(&w, word);
		pc_strvec_push(&w, s->l.w[k].raw);
	}
	emit_words(out, s, c, &w, rule);
	pc_strvec_release(&w);
}

/* xargs: the last operand fed on stdin (one command alone, a plain last
 * word, no redirection or assignment). */
static void prefix_xargs(struct pc__gvariants *out, const struct seed *s,
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
static void fam_prefix(const char *text, const struct pc__gctx *ctx,
		       struct pc__gvariants *out)
{
	static const char *const prefixes[] = { "command", "env", "nice",
						"exec", "sudo", "time",
						"nohup", "xargs" };
	struct seed s;

	(void)ctx;
	seed_parse(&s, text);
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
static void fam_space(const char *text, const struct pc__gctx *ctx,
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

static void fam_tool(const char *seed, const struct pc__gctx *c,
		     struct pc__gvariants *out)
{
	(void)seed;
	(void)c;
	(void)out; /* the path families pick their own (pc_guard_paths.c) */
}

const struct pc__gfamily pc__guard_families[] = {
	{ "tool", PC_GUARD_WRITE,
	  "the same file through every other built-in tool that writes or reads it",
	  fam_tool },
	{ "flags", PC_GUARD_CMD,
	  "short options split, bundled, reordered, synonyms, after the operands",
	  fam_flags },
	{ "long", PC_GUARD_CMD,
	  "long option names for letters and back, unique prefixes", fam_long },
	{ "quote", PC_GUARD_CMD,
	  "quotes and backslashes bash removes ('rm', r''m, \\rm, \"/\")",
	  fam_quote },
	{ "wrap", PC_GUARD_CMD, "bash -c '...', sh -c '...', eval '...'",
	  fam_wrap },
	{ "chain", PC_GUARD_CMD,
	  "after true &&, true;, false ||, a newline; in ( ), { }, if",
	  fam_chain },
	{ "target", PC_GUARD_CMD,
	  "the same target named another way: //, /./, $HOME for ~, ./, the workspace's path",
	  fam_target },
	{ "spelling", PC_GUARD_WRITE,
	  "the same path named another way: ./, //, the workspace's path, ../WS/",
	  pc__guard_fam_spelling },
	{ "abspath", PC_GUARD_CMD, "the program by its absolute path (/usr/bin/rm)",
	  fam_abspath },
	{ "prefix", PC_GUARD_CMD, "command, env, nice, exec, xargs before the program",
	  fam_prefix },
	{ "space", PC_GUARD_CMD,
	  "other blanks: two spaces, tabs, newlines, backslash-newline",
	  fam_space },
	{ "endopts", PC_GUARD_CMD, "\"--\" before the operands", fam_endopts },
};
const size_t pc__guard_nfamilies =
	sizeof(pc__guard_families) / sizeof(pc__guard_families[0]);

const struct pc__gfamily *pc__guard_family(const char *name)
{
	for (size_t i = 0; i < pc__guard_nfamilies; i++)
		if (!strcmp(pc__guard_families[i].name, name))
			return &pc__guard_families[i];
	return NULL;
}

void pc__guard_variants_release(struct pc__gvariants *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->v[i].text);
		free(vs->v[i].rule);
		free(vs->v[i].tool);
		cJSON_Delete(vs->v[i].args);
	}
	free(vs->v);
	*vs = (struct pc__gvariants){ 0 };
}

void pc__guard_variant_add(struct pc__gvariants *vs, const char *seed,
			   const char *text, const char *rule,
			   const char *tool, cJSON *args)
{
	bool dup = !tool && !strcmp(text, seed);

	for (size_t i = 0; i < vs->n && !dup; i++)
		dup = !strcmp(vs->v[i].text, text) &&
		      !strcmp(vs->v[i].tool ? vs->v[i].tool : "",
			      tool ? tool : "") &&
		      (vs->v[i].args == args ||
		       (vs->v[i].args && args &&
			cJSON_Compare(vs->v[i].args, args, 1)));
	if (dup) {
		cJSON_Delete(args);
		return;
	}
	if (vs->n == vs->alloc) {
		vs->alloc = vs->alloc ? 2 * vs->alloc : 8;
		vs->v = pc_xreallocarray(vs->v, vs->alloc, sizeof(*vs->v));
	}
	vs->v[vs->n++] = (struct pc__gvariant){ pc_xstrdup(text), pc_xstrdup(rule),
						tool ? pc_xstrdup(tool) : NULL,
						args };
}

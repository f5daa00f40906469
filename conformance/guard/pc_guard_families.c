/* pc_guard_families.c - the rewrite families for shell commands: those
 * that respell options (flags, long, endopts) and the table of every
 * family; the others are in pc_guard_words.c.
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
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_guard_impl.h"
#include "pc_xalloc.h"

void pc__gseed_parse(struct pc__gseed *s, const char *text)
{
	s->text = text;
	pc__guard_parse(text, &s->l);
	s->nc = s->l.opaque ? 0 : pc__guard_commands(&s->l, s->c, PC__GSEED_MAX_CMDS);
}

/* The line with words [c->start, c->end) replaced by `words` (new
 * string). */
static char *replace(const struct pc__gseed *s, const struct pc__gcmd *c,
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

void pc__gseed_emit(struct pc__gvariants *out, const struct pc__gseed *s,
		    const struct pc__gcmd *c, const struct pc_strvec *w,
		    const char *rule)
{
	char *text = replace(s, c, w);

	pc__guard_variant_add(out, s->text, text, rule, NULL, NULL);
	free(text);
}

/* The words of `c` up to and including the command word (and git's
 * subcommand): NAME=value words, the program. */
static void head(const struct pc__gseed *s, const struct pc__gcmd *c,
		 const struct pc__gparsed *p, struct pc_strvec *w)
{
	size_t last = p && p->sub != (size_t)-1 ? p->sub : c->word;

	for (size_t i = c->start; i <= last && i < c->end; i++)
		if (s->l.w[i].kind == PC_GW_WORD)
			pc_strvec_push(w, s->l.w[i].raw);
}

/* The redirections of `c`, kept at the end (their order kept: bash
 * applies them left to right whatever words stand between them). */
static void tail(const struct pc__gseed *s, const struct pc__gcmd *c,
		 struct pc_strvec *w)
{
	for (size_t i = c->start; i < c->end; i++)
		if (s->l.w[i].kind == PC_GW_REDIR)
			pc_strvec_push(w, s->l.w[i].raw);
}

static void operands(const struct pc__gseed *s, const struct pc__gparsed *p,
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
static void respell(struct pc__gvariants *out, const struct pc__gseed *s,
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
	pc__gseed_emit(out, s, c, &w, rule);
	pc_strvec_release(&opts);
	pc_strvec_release(&w);
}

/* Keyed operands (dd's if= and of=) in reverse order. */
static void keyed_reverse(struct pc__gvariants *out, const struct pc__gseed *s,
			  const struct pc__gcmd *c, const struct pc__gparsed *p)
{
	struct pc_strvec w = PC_STRVEC_INIT;

	if (count(p, PC_GA_OPERAND) < 2)
		return;
	head(s, c, p, &w);
	for (size_t i = p->na; i-- > 0;)
		pc_strvec_push(&w, s->l.w[p->a[i].word].raw);
	tail(s, c, &w);
	pc__gseed_emit(out, s, c, &w, "the key=value operands in another order");
	pc_strvec_release(&w);
}

static bool any_operand_dash(const struct pc__gseed *s, const struct pc__gparsed *p)
{
	for (size_t i = 0; i < p->na; i++)
		if (p->a[i].kind == PC_GA_OPERAND &&
		    s->l.w[p->a[i].word].raw[0] == '-')
			return true;
	return false;
}

/* Call `fn` for each simple command of `text` its model explains. */
static void each_model(const char *text, struct pc__gvariants *out,
		       void (*fn)(struct pc__gvariants *out,
				  const struct pc__gseed *s,
				  const struct pc__gcmd *c,
				  const struct pc__gparsed *p))
{
	struct pc__gseed s;

	pc__gseed_parse(&s, text);
	for (size_t k = 0; k < s.nc; k++) {
		struct pc__gparsed p;

		if (pc__guard_model(&s.l, &s.c[k], &p))
			fn(out, &s, &s.c[k], &p);
	}
	pc__guard_line_release(&s.l);
}

/* flags - split, bundle and reorder short options, use a letter's
 * synonym, move options after the operands. Equivalent: getopt (and
 * git's parse-options) reads "-rf", "-r -f" and "-fr" as the same two
 * options, synonyms map to the same flag (rm -R is -r), and without
 * POSIXLY_CORRECT (not in the host's environment) GNU getopt permutes,
 * so options after operands still are options. Only for programs
 * modelled in pc_guard_progs.c, only where every argument parses. */
static void flags_of(struct pc__gvariants *out, const struct pc__gseed *s,
		     const struct pc__gcmd *c, const struct pc__gparsed *p)
{
	size_t letters = count(p, PC_GA_SHORT), words = 0;

	if (p->prog->keyed) {
		keyed_reverse(out, s, c, p);
		return;
	}
	for (size_t i = 0; i < p->na; i++)
		words += p->a[i].kind == PC_GA_SHORT;
	if (letters > words)
		respell(out, s, c, p, SP_SPLIT, false, false,
			"one short option per word");
	if (words > 1)
		respell(out, s, c, p, SP_BUNDLE, false, false,
			"the short options in one word");
	if (letters > 1)
		respell(out, s, c, p, SP_REVERSE, false, false,
			"the short options in another order");
	respell(out, s, c, p, SP_SYNONYM, false, false,
		"a letter's synonym (same option)");
	if (p->prog->permute && !count(p, PC_GA_END) &&
	    count(p, PC_GA_OPERAND) && (letters || count(p, PC_GA_LONG)) &&
	    !any_operand_dash(s, p)) {
		respell(out, s, c, p, SP_ASIS, false, true,
			"the options after the operands");
		if (letters > 1)
			respell(out, s, c, p, SP_SPLIT, false, true,
				"the options split, after the operands");
	}
}

static void fam_flags(const char *text, const struct pc__gctx *ctx,
		      struct pc__gvariants *out)
{
	(void)ctx;
	each_model(text, out, flags_of);
}

/* long - long option names for short ones and back, and (for programs
 * whose whole table is modelled) unique prefixes of long names.
 * Equivalent: each pair is the same entry of the program's option table;
 * getopt_long takes a prefix that matches one long option as that
 * option. */
static void long_of_cmd(struct pc__gvariants *out, const struct pc__gseed *s,
			const struct pc__gcmd *c, const struct pc__gparsed *p)
{
	if (p->prog->keyed)
		return;
	respell(out, s, c, p, SP_LONG, false, false, "long option names");
	respell(out, s, c, p, SP_LONG1, false, false,
		"one option by its long name");
	respell(out, s, c, p, SP_SHORT, false, false,
		"short letters for long names");
	if (p->prog->abbrev) {
		respell(out, s, c, p, SP_ABBREV, false, false,
			"long names cut to their shortest unique prefix");
		respell(out, s, c, p, SP_ABBREV4, false, false,
			"long names cut to four letters");
	}
}

static void fam_long(const char *text, const struct pc__gctx *ctx,
		     struct pc__gvariants *out)
{
	(void)ctx;
	each_model(text, out, long_of_cmd);
}

/* endopts - "--" between the options and the operands. Equivalent:
 * "--" only ends option parsing, and no operand starts with "-". */
static void endopts_of(struct pc__gvariants *out, const struct pc__gseed *s,
		       const struct pc__gcmd *c, const struct pc__gparsed *p)
{
	if (p->prog->endopts && !count(p, PC_GA_END) &&
	    count(p, PC_GA_OPERAND) && !any_operand_dash(s, p))
		respell(out, s, c, p, SP_ASIS, true, false,
			"\"--\" before the operands");
}

static void fam_endopts(const char *text, const struct pc__gctx *ctx,
			struct pc__gvariants *out)
{
	(void)ctx;
	each_model(text, out, endopts_of);
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
	  pc__guard_fam_quote },
	{ "wrap", PC_GUARD_CMD, "bash -c '...', sh -c '...', eval '...'",
	  pc__guard_fam_wrap },
	{ "chain", PC_GUARD_CMD,
	  "after true &&, true;, false ||, a newline; in ( ), { }, if",
	  pc__guard_fam_chain },
	{ "target", PC_GUARD_CMD,
	  "the same target named another way: //, /./, $HOME for ~, ./, the workspace's path",
	  pc__guard_fam_target },
	{ "spelling", PC_GUARD_WRITE,
	  "the same path named another way: ./, //, the workspace's path, ../WS/",
	  pc__guard_fam_spelling },
	{ "abspath", PC_GUARD_CMD, "the program by its absolute path (/usr/bin/rm)",
	  pc__guard_fam_abspath },
	{ "prefix", PC_GUARD_CMD, "command, env, nice, exec, xargs before the program",
	  pc__guard_fam_prefix },
	{ "space", PC_GUARD_CMD,
	  "other blanks: two spaces, tabs, newlines, backslash-newline",
	  pc__guard_fam_space },
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

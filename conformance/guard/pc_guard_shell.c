/* pc_guard_shell.c - just enough of bash's word splitting for the
 * rewrite families: words with their quotes removed, control operators,
 * redirections; everything else (subshells, groups, here-documents,
 * comments, expansions inside a command word) makes the line opaque or
 * the word non-plain, so that no family respells what it does not
 * understand. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_guard_impl.h"
#include "pc_xalloc.h"

struct lexer {
	const char *s;
	size_t i;
	struct pc__gline *l;
	struct pc_buf raw, val;
	bool in_word, plain;
};

static void push(struct pc__gline *l, enum pc__gw_kind k, char *raw,
		 char *value)
{
	l->w = pc_xreallocarray(l->w, l->n + 1, sizeof(*l->w));
	l->w[l->n++] = (struct pc__gword){ k, raw, value };
}

static void end_word(struct lexer *x)
{
	if (!x->in_word)
		return;
	push(x->l, PC_GW_WORD, pc_buf_detach(&x->raw, NULL),
	     x->plain ? pc_buf_detach(&x->val, NULL) : NULL);
	pc_buf_reset(&x->val);
	x->in_word = false;
}

static void begin(struct lexer *x)
{
	if (!x->in_word) {
		x->in_word = true;
		x->plain = true;
	}
}

static void add(struct lexer *x, char c, bool literal)
{
	begin(x);
	pc_buf_addch(&x->raw, c);
	if (literal)
		pc_buf_addch(&x->val, c);
}

/* A single-quoted part: literal up to the next quote. */
static bool squoted(struct lexer *x)
{
	const char *e = strchr(x->s + x->i + 1, '\'');

	if (!e)
		return false;
	begin(x);
	pc_buf_add(&x->raw, x->s + x->i, (size_t)(e - (x->s + x->i)) + 1);
	pc_buf_add(&x->val, x->s + x->i + 1, (size_t)(e - (x->s + x->i)) - 1);
	x->i = (size_t)(e - x->s) + 1;
	return true;
}

/* A double-quoted part: \ escapes $ ` " \ and newline; $ and ` expand. */
static bool dquoted(struct lexer *x)
{
	size_t i = x->i + 1;

	begin(x);
	pc_buf_addch(&x->raw, '"');
	for (; x->s[i] && x->s[i] != '"'; i++) {
		char c = x->s[i];

		pc_buf_addch(&x->raw, c);
		if (c == '\\' && x->s[i + 1] && strchr("$`\"\\\n", x->s[i + 1])) {
			pc_buf_addch(&x->raw, x->s[++i]);
			if (x->s[i] != '\n')
				pc_buf_addch(&x->val, x->s[i]);
			continue;
		}
		if (c == '$' || c == '`')
			x->plain = false;
		pc_buf_addch(&x->val, c);
	}
	if (!x->s[i])
		return false;
	pc_buf_addch(&x->raw, '"');
	x->i = i + 1;
	return true;
}

/* The operator at x->i (longest match), or NULL. */
static const char *op_at(const char *s)
{
	static const char *const ops[] = { "&&", "||", "|&", ";;", "|",
					   "&",	 ";" };

	for (size_t k = 0; k < sizeof(ops) / sizeof(*ops); k++)
		if (!strncmp(s, ops[k], strlen(ops[k])))
			return ops[k];
	return NULL;
}

/* A redirection: digits already in the word, the operator, blanks, the
 * target word. */
static bool redirection(struct lexer *x)
{
	struct pc_buf r = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *s = x->s;
	size_t i = x->i;

	if (x->in_word) {
		/* "2>": a word of digits right before it is the fd */
		const char *w = pc_buf_cstr(&x->raw);

		if (strspn(w, "0123456789") != strlen(w) || !x->plain) {
			pc_buf_release(&r);
			return false;
		}
		pc_buf_adds(&r, w);
		pc_buf_reset(&x->raw);
		pc_buf_reset(&x->val);
		x->in_word = false;
	}
	if (!strncmp(s + i, "<<", 2) && strncmp(s + i, "<<<", 3)) {
		pc_buf_release(&r);
		return false; /* a here-document: opaque */
	}
	while (s[i] == '<' || s[i] == '>' || s[i] == '&' || s[i] == '|')
		pc_buf_addch(&r, s[i++]);
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	while (s[i] && !strchr(" \t\n;&|()<>", s[i])) {
		if (s[i] == '\'' || s[i] == '"' || s[i] == '\\') {
			pc_buf_release(&r);
			return false; /* quoted targets: not modelled */
		}
		pc_buf_addch(&r, s[i++]);
	}
	push(x->l, PC_GW_REDIR, pc_buf_detach(&r, NULL), NULL);
	x->i = i;
	return true;
}

/* One step of the lexer at an unquoted character; false: opaque. */
static bool step(struct lexer *x)
{
	const char *s = x->s;
	char c = s[x->i];
	const char *op;

	if (c == ' ' || c == '\t') {
		end_word(x);
		x->i++;
	} else if (c == '\\' && s[x->i + 1] == '\n') {
		x->i += 2; /* line continuation: removed */
	} else if (c == '\\' && s[x->i + 1]) {
		begin(x);
		pc_buf_add(&x->raw, s + x->i, 2);
		pc_buf_addch(&x->val, s[x->i + 1]);
		x->i += 2;
	} else if (c == '\n') {
		end_word(x);
		push(x->l, PC_GW_OP, pc_xstrdup("\n"), NULL);
		x->i++;
	} else if (c == '<' || c == '>' ||
		   (c == '&' && s[x->i + 1] == '>')) {
		return redirection(x);
	} else if ((op = op_at(s + x->i))) {
		if (!strcmp(op, ";;"))
			return false;
		end_word(x);
		push(x->l, PC_GW_OP, pc_xstrdup(op), NULL);
		x->i += strlen(op);
	} else if (c == '(' || c == ')' || (c == '#' && !x->in_word)) {
		return false;
	} else if (c == '\'') {
		return squoted(x);
	} else if (c == '"') {
		return dquoted(x);
	} else {
		bool tilde = c == '~' && !x->in_word;

		add(x, c, true);
		if (strchr("$`*?[{}", c) || tilde)
			x->plain = false;
		x->i++;
	}
	return true;
}

/* Words that start compound commands or negate pipelines are not
 * modelled. */
static bool reserved(const char *w)
{
	static const char *const r[] = { "!",	 "{",	 "}",	  "if",
					 "then", "else", "elif",  "fi",
					 "for",	 "while", "until", "do",
					 "done", "case", "esac",  "function",
					 "select", "[[", "]]",	  "coproc",
					 "time" };

	for (size_t i = 0; i < sizeof(r) / sizeof(*r); i++)
		if (!strcmp(w, r[i]))
			return true;
	return false;
}

void pc__guard_parse(const char *text, struct pc__gline *out)
{
	struct lexer x = { .s = text, .l = out,
			   .raw = PC_BUF_INIT(PC_BUF_NOCAP),
			   .val = PC_BUF_INIT(PC_BUF_NOCAP) };

	*out = (struct pc__gline){ 0 };
	while (text[x.i] && !out->opaque)
		if (!step(&x))
			out->opaque = true;
	if (!out->opaque)
		end_word(&x);
	for (size_t i = 0; i < out->n && !out->opaque; i++)
		if (out->w[i].kind == PC_GW_WORD && reserved(out->w[i].raw))
			out->opaque = true;
	pc_buf_release(&x.raw);
	pc_buf_release(&x.val);
}

void pc__guard_line_release(struct pc__gline *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->w[i].raw);
		free(l->w[i].value);
	}
	free(l->w);
	*l = (struct pc__gline){ 0 };
}

char *pc__guard_join(const struct pc__gline *l)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool sep = false; /* a space is due before the next word */

	for (size_t i = 0; i < l->n; i++) {
		const struct pc__gword *w = &l->w[i];

		if (w->kind == PC_GW_OP && !strcmp(w->raw, "\n")) {
			pc_buf_addch(&b, '\n');
			sep = false;
			continue;
		}
		if (sep)
			pc_buf_addch(&b, ' ');
		pc_buf_adds(&b, w->raw);
		sep = true;
	}
	return pc_buf_detach(&b, NULL);
}

char *pc__guard_squote(const char *s)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_addch(&b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			pc_buf_adds(&b, "'\\''");
		else
			pc_buf_addch(&b, *s);
	pc_buf_addch(&b, '\'');
	return pc_buf_detach(&b, NULL);
}

bool pc__guard_is_plain_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._+/:@,%=-",
			    *s))
			return false;
	return true;
}

static bool is_assignment(const struct pc__gword *w)
{
	const char *eq;

	if (w->kind != PC_GW_WORD || !(eq = strchr(w->raw, '=')) ||
	    eq == w->raw)
		return false;
	for (const char *p = w->raw; p < eq; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_",
			    *p) ||
		    (p == w->raw && *p >= '0' && *p <= '9'))
			return false;
	return true;
}

size_t pc__guard_commands(const struct pc__gline *l, struct pc__gcmd *out,
			  size_t max)
{
	size_t n = 0, start = 0;

	for (size_t i = 0; i <= l->n && n < max; i++) {
		struct pc__gcmd *c;

		if (i < l->n && l->w[i].kind != PC_GW_OP)
			continue;
		if (i == start) {
			start = i + 1;
			continue;
		}
		c = &out[n++];
		*c = (struct pc__gcmd){ .start = start, .end = i, .word = i };
		for (size_t k = start; k < i; k++)
			if (l->w[k].kind == PC_GW_WORD &&
			    !is_assignment(&l->w[k])) {
				c->word = k;
				break;
			}
		c->piped = (i < l->n && l->w[i].raw[0] == '|' &&
			    strcmp(l->w[i].raw, "||")) ||
			   (start > 0 && l->w[start - 1].raw[0] == '|' &&
			    strcmp(l->w[start - 1].raw, "||"));
		start = i + 1;
	}
	return n;
}

/* One argument word against the model; false when not explained. */
static bool model_arg(const struct pc_guard_prog *m, const char *v,
		      bool opts_done, struct pc__garg *a)
{
	if (opts_done || v[0] != '-' || !v[1]) {
		a->kind = PC_GA_OPERAND;
		return true;
	}
	if (!strcmp(v, "--")) {
		a->kind = m->endopts ? PC_GA_END : PC_GA_OPERAND;
		return m->endopts;
	}
	if (v[1] == '-') {
		const struct pc_guard_popt *o = pc_guard_prog_long(m, v + 2);

		a->kind = PC_GA_LONG;
		a->o[0] = o;
		a->no = 1;
		return o && o->has_arg == 0;
	}
	a->kind = PC_GA_SHORT;
	for (const char *c = v + 1; *c; c++) {
		const struct pc_guard_popt *o = pc_guard_prog_short(m, *c);

		if (!o || o->has_arg || a->no == sizeof(a->o) / sizeof(*a->o))
			return false;
		a->o[a->no++] = o;
	}
	return true;
}

bool pc__guard_model(const struct pc__gline *l, const struct pc__gcmd *c,
		     struct pc__gparsed *p)
{
	const struct pc__gword *w;
	size_t k = c->word + 1;
	bool done = false;

	*p = (struct pc__gparsed){ .sub = (size_t)-1 };
	if (c->word >= c->end || !(w = &l->w[c->word])->value)
		return false;
	if (pc_guard_prog_has_subs(w->value)) {
		while (k < c->end && l->w[k].kind == PC_GW_REDIR)
			k++;
		if (k >= c->end || !l->w[k].value)
			return false;
		p->sub = k++;
	}
	p->prog = pc_guard_prog_find(w->value, p->sub != (size_t)-1
						      ? l->w[p->sub].value
						      : NULL);
	if (!p->prog)
		return false;
	for (; k < c->end; k++) {
		struct pc__garg *a = &p->a[p->na];

		if (l->w[k].kind == PC_GW_REDIR)
			continue;
		if (p->na == sizeof(p->a) / sizeof(*p->a))
			return false;
		*a = (struct pc__garg){ .word = k };
		/* a word bash expands is an operand only when its expansion
		 * cannot start with "-": a tilde prefix gives a path */
		if (!l->w[k].value && l->w[k].raw[0] == '~')
			a->kind = PC_GA_OPERAND;
		else if (!l->w[k].value ||
			 !model_arg(p->prog, l->w[k].value, done, a))
			return false;
		if (a->kind == PC_GA_END ||
		    (a->kind == PC_GA_OPERAND && !p->prog->permute))
			done = true;
		p->na++;
	}
	return true;
}

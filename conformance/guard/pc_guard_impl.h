/* pc_guard_impl.h - private to conformance/guard/ (and its unit tests):
 * the shell-word parser the rewrite families work on, the families, the
 * corpus and the search's inner steps. The contract of the whole is
 * pc_guard.h. */
#ifndef PC_GUARD_IMPL_H
#define PC_GUARD_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_fire.h"
#include "pc_guard.h"
#include "pc_guard_progs.h"
#include "pc_strvec.h"

/* ---- shell words (pc_guard_shell.c) ---- */

enum pc__gw_kind {
	PC_GW_WORD,  /* a word */
	PC_GW_OP,    /* a control operator: | || && ; & |& or a newline */
	PC_GW_REDIR, /* a redirection with its target ("> out", "2>&1") */
};

struct pc__gword {
	enum pc__gw_kind kind;
	char *raw;   /* as written */
	char *value; /* after quote removal when the word is plain (no
			expansion, glob, tilde or brace): what bash passes
			on; NULL otherwise */
};

/* A command line as bash splits it, when the parser understood all of
 * it; `opaque` lines (subshells, here-documents, comments, unbalanced
 * quotes, case/if...) are rewritten only as a whole. */
struct pc__gline {
	struct pc__gword *w;
	size_t n;
	bool opaque;
};

/* pc__guard_parse - split `text` into words and operators; `out` is
 * filled (release with pc__guard_line_release) and out->opaque set when
 * the line holds something the parser does not model. */
void pc__guard_parse(const char *text, struct pc__gline *out);
void pc__guard_line_release(struct pc__gline *l);
/* pc__guard_join - the words of `l` as one command line: words separated
 * by one space, operators by spaces (a newline on its own). New string. */
char *pc__guard_join(const struct pc__gline *l);
/* pc__guard_squote - `s` as one single-quoted shell word ('\'' for a
 * quote). New string. */
char *pc__guard_squote(const char *s);
/* pc__guard_is_plain_name - `s` is a non-empty word of [A-Za-z0-9._+/:@,%=-]
 * that no quoting changes (safe to respell with quotes). */
bool pc__guard_is_plain_name(const char *s);

/* The simple commands of a line: [start, end) ranges between operators. */
struct pc__gcmd {
	size_t start, end; /* word indexes */
	size_t word;	   /* the command word (after NAME=value words), or
			      `end` when there is none */
	bool piped;	   /* part of a pipeline (| on either side) */
};

/* pc__guard_commands - the simple commands of `l` (at most `max`) into
 * `out`; returns how many. */
size_t pc__guard_commands(const struct pc__gline *l, struct pc__gcmd *out,
			  size_t max);

/* A simple command parsed against its program model: its options (each
 * spelling as written), `--`, and its operands, in order. Only commands
 * whose every argument the model explains are parsed. */
struct pc__garg {
	enum { PC_GA_SHORT, PC_GA_LONG, PC_GA_END, PC_GA_OPERAND } kind;
	size_t word;			 /* index into the line */
	const struct pc_guard_popt *o[8]; /* PC_GA_SHORT: each letter;
					     PC_GA_LONG: o[0] */
	size_t no;
};

struct pc__gparsed {
	const struct pc_guard_prog *prog;
	size_t sub;		/* the subcommand word, or (size_t)-1 */
	struct pc__garg a[32];
	size_t na;
};

/* pc__guard_model - parse command `c` of `l` with its model into `p`.
 * false when there is no model or an argument it does not explain (an
 * option with a value, an unknown letter, a non-plain word). */
bool pc__guard_model(const struct pc__gline *l, const struct pc__gcmd *c,
		     struct pc__gparsed *p);

/* ---- rewrite families (pc_guard_families.c, pc_guard_paths.c) ---- */

/* What a family needs to know about the host that will run the input. */
struct pc__gctx {
	const char *home;      /* the host's HOME (absolute), or NULL */
	const char *workspace; /* the workspace (absolute, no symlink), or
				  NULL */
	const char *path_env;  /* the host's PATH, or NULL */
};

/* One rewrite: the text the hook sees (a command, or a path), the rule
 * that made it, and for a path seed rewritten through another tool that
 * tool and its arguments. */
struct pc__gvariant {
	char *text;
	char *rule;
	char *tool;  /* NULL: the seed's own tool */
	cJSON *args; /* NULL: built from text for the seed's shape */
};

struct pc__gvariants {
	struct pc__gvariant *v;
	size_t n, alloc;
};

void pc__guard_variants_release(struct pc__gvariants *vs);
/* pc__guard_variant_add - append a rewrite (copies `text` and `rule`,
 * takes `args`, copies `tool`) unless its text and tool equal `seed`'s
 * or an earlier one's. */
void pc__guard_variant_add(struct pc__gvariants *vs, const char *seed,
			   const char *text, const char *rule,
			   const char *tool, cJSON *args);

typedef void (*pc__gfamily_fn)(const char *seed, const struct pc__gctx *c,
			       struct pc__gvariants *out);

/* A seed as the command families see it: its line and simple commands. */
#define PC__GSEED_MAX_CMDS 16
struct pc__gseed {
	const char *text;
	struct pc__gline l;
	struct pc__gcmd c[PC__GSEED_MAX_CMDS];
	size_t nc;
};

/* pc__gseed_parse - parse `text` (borrowed) into `s`; release with
 * pc__guard_line_release(&s->l). */
void pc__gseed_parse(struct pc__gseed *s, const char *text);
/* pc__gseed_emit - add the seed with command `c`'s words replaced by
 * `w` as a rewrite by `rule`. */
void pc__gseed_emit(struct pc__gvariants *out, const struct pc__gseed *s,
		    const struct pc__gcmd *c, const struct pc_strvec *w,
		    const char *rule);

/* The command families of pc_guard_words.c (each says why it is
 * equivalent). */
void pc__guard_fam_quote(const char *seed, const struct pc__gctx *c,
			 struct pc__gvariants *out);
void pc__guard_fam_wrap(const char *seed, const struct pc__gctx *c,
			struct pc__gvariants *out);
void pc__guard_fam_chain(const char *seed, const struct pc__gctx *c,
			 struct pc__gvariants *out);
void pc__guard_fam_target(const char *seed, const struct pc__gctx *c,
			  struct pc__gvariants *out);
void pc__guard_fam_abspath(const char *seed, const struct pc__gctx *c,
			   struct pc__gvariants *out);
void pc__guard_fam_prefix(const char *seed, const struct pc__gctx *c,
			  struct pc__gvariants *out);
void pc__guard_fam_space(const char *seed, const struct pc__gctx *c,
			 struct pc__gvariants *out);

struct pc__gfamily {
	const char *name;
	enum pc_guard_shape shape; /* PC_GUARD_CMD, or the path shapes
				      (PC_GUARD_WRITE for both) */
	const char *what;	   /* one line for --help and docs */
	pc__gfamily_fn fn;
};

/* The families in the order the search tries them: how often public
 * guards fall to each (docs/guard.md). */
extern const struct pc__gfamily pc__guard_families[];
extern const size_t pc__guard_nfamilies;
const struct pc__gfamily *pc__guard_family(const char *name);

/* The path families (pc_guard_paths.c), and the tool rewrites of a path
 * seed: the same file through every built-in tool that writes (or reads)
 * it. */
void pc__guard_fam_spelling(const char *seed, const struct pc__gctx *c,
			    struct pc__gvariants *out);
void pc__guard_fam_tools_write(const char *seed, const struct pc__gctx *c,
			       struct pc__gvariants *out);
void pc__guard_fam_tools_read(const char *seed, const struct pc__gctx *c,
			      struct pc__gvariants *out);
/* The content every write input carries, and the fixture an edit
 * starts from: a turn shows the file holding the first. */
#define PC_GUARD_MARK "SECRET=plugcheck-guard"
#define PC_GUARD_OLD "SECRET=old"

/* pc__guard_args - the args a shape's own tool gets for `text` (bash:
 * {"command"}; write_file: {"content","path"}; read_file: {"path"}). New
 * object. */
cJSON *pc__guard_args(enum pc_guard_shape shape, const char *text);
/* pc__guard_shape_tool - "bash", "write_file", "read_file". */
const char *pc__guard_shape_tool(enum pc_guard_shape shape);

/* ---- corpus (pc_guard_corpus.c) ---- */

/* The built-in dangerous seeds and benign look-alikes of a shape (static
 * strings, NULL-terminated). `home` replaces "~" in the path shapes
 * (the file tools do not expand it). */
const char *const *pc__guard_builtin(enum pc_guard_shape shape, bool benign);

/* pc__guard_scenario_seeds - every `expect: deny` fire step at hook
 * point `hook` of the plugin in `plugin_dir` in its
 * tests/<name>.plugcheck.yaml (files in name order; files that do not load are
 * skipped: check reports them as PC-SCN-002): add(ctx, text, shape,
 * origin) with the command or path and "tests/FILE:LINE". */
void pc__guard_scenario_seeds(const char *plugin_dir, int hook,
			      void (*add)(void *ctx, const char *text,
					  int shape, const char *origin),
			      void *ctx);

/* ---- the search (pc_guard_search.c) ---- */

struct pc__gsearch {
	const struct pc_guard_opts *o;
	struct pc_guard_result *r;
	struct pc_fire_point pts[PC_HOOK_COUNT]; /* the guard points the
						    plugin has, resolved */
	struct pc__gctx ctx;
	double t0;	   /* ms, monotonic */
	unsigned timeouts;
};

void pc__guard_search_init(struct pc__gsearch *S,
			   const struct pc_guard_opts *o,
			   struct pc_guard_result *r);
void pc__guard_search_release(struct pc__gsearch *S);
/* ms since the search started */
double pc__guard_elapsed(const struct pc__gsearch *S);
/* pc__guard_add_try - append an input to r->tries (strings copied, args
 * serialized); the pointer is valid until the next append. */
struct pc_guard_try *pc__guard_add_try(struct pc_guard_result *r,
				       enum pc_guard_role role, size_t seed,
				       const char *tool, const char *text,
				       const cJSON *args);
void pc__guard_try_release(struct pc_guard_try *t);
/* pc__guard_judge - fire `t` at the searched point alone (`point_only`),
 * or at every hook of the plugin on its tool's path (the specific pre
 * hook, then pre_tool; R4.8: the first that does not allow decides), and
 * fill its verdict and facts. */
void pc__guard_judge(struct pc__gsearch *S, struct pc_guard_try *t,
		     bool point_only);
/* pc__guard_execute - judge tries [from, to), in o->jobs workers when
 * more than one, stopping at the interrupt, the time cap or repeated
 * timeouts (r->stopped says which). */
void pc__guard_execute(struct pc__gsearch *S, size_t from, size_t to,
		       bool point_only);
/* pc__guard_demo - show tool bypass `t` (of a workspace file) with a
 * scripted turn in a fresh workspace under o->tmp: t->demo says what the
 * turn did, t->demo_done whether the file was written (read). A turn in
 * which a hook denied the call makes `t` a deny. */
void pc__guard_demo(struct pc__gsearch *S, struct pc_guard_try *t,
		    enum pc_guard_shape shape, unsigned n);

/* ---- causes (pc_guard_cause.c) ---- */

/* pc__guard_causes - what the hook's script reads that the host never
 * sends it, for a guard that allowed every seed: appended to r->causes
 * (file relative to the plugin, located). */
void pc__guard_causes(const struct pc_plugin *p, int point,
		      struct pc_guard_result *r);

#endif

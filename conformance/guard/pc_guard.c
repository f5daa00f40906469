/* pc_guard.c - pc_guard_run: the seeds, the verdicts on them, the plan
 * of rewrites within the budget, the turns (pc_guard.h). */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_guard_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* ---- families ---- */

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

int pc_guard_families_check(const char *list, struct pc_err *err)
{
	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		char *name = pc_xmemdup(p, k);
		bool ok = pc__guard_family(name) != NULL;
		int rc = 0;

		if (!ok) {
			char *all = pc_guard_families_help();

			rc = pc_err_set(err, PC_EUSAGE,
					"'%s' is not a rewrite family; the families are:\n%s",
					name, all);
			free(all);
		}
		free(name);
		if (rc)
			return rc;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

char *pc_guard_families_help(void)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < pc__guard_nfamilies; i++)
		pc_buf_addf(&b, "  %-9s %s (%s)\n", pc__guard_families[i].name,
			    pc__guard_families[i].what,
			    pc__guard_families[i].shape == PC_GUARD_CMD ? "commands"
									: "paths");
	return pc_buf_detach(&b, NULL);
}

/* ---- seeds ---- */

static bool shape_of_point(const struct pc_guard_opts *o, enum pc_guard_shape s)
{
	switch (o->hook) {
	case PC_HOOK_PRE_BASH:
		return s == PC_GUARD_CMD;
	case PC_HOOK_PRE_WRITE:
		return s == PC_GUARD_WRITE;
	case PC_HOOK_PRE_READ:
		return s == PC_GUARD_READ;
	default:
		return !o->tool ||
		       !strcmp(o->tool, pc__guard_shape_tool(s)) ||
		       (s == PC_GUARD_WRITE && !strcmp(o->tool, "edit"));
	}
}

static enum pc_guard_shape first_shape(const struct pc_guard_opts *o)
{
	for (int s = PC_GUARD_CMD; s <= PC_GUARD_READ; s++)
		if (shape_of_point(o, (enum pc_guard_shape)s))
			return (enum pc_guard_shape)s;
	return PC_GUARD_CMD;
}

/* An empty text (a scenario's fire step with an empty command or path)
 * is no seed: nothing to deny, nothing to respell. */
static void add_seed(struct pc_guard_result *r, const char *text,
		     enum pc_guard_shape shape, const char *origin, bool benign)
{
	if (!*text)
		return;
	for (size_t i = 0; i < r->nseeds; i++)
		if (r->seeds[i].shape == shape && !strcmp(r->seeds[i].text, text))
			return;
	r->seeds = pc_xreallocarray(r->seeds, r->nseeds + 1, sizeof(*r->seeds));
	r->seeds[r->nseeds++] = (struct pc_guard_seed){
		pc_xstrdup(text), shape, pc_xstrdup(origin), benign
	};
}

struct seed_ctx {
	const struct pc_guard_opts *o;
	struct pc_guard_result *r;
};

static void scenario_seed(void *ctx, const char *text, int shape,
			  const char *origin)
{
	struct seed_ctx *c = ctx;

	if (shape_of_point(c->o, (enum pc_guard_shape)shape))
		add_seed(c->r, text, (enum pc_guard_shape)shape, origin, false);
}

/* A built-in path with "~/" for the host's HOME (the file tools do not
 * expand ~): NULL when HOME is unknown. New string. */
static char *home_path(const char *p, const char *home)
{
	if (strncmp(p, "~/", 2))
		return pc_xstrdup(p);
	return home && home[0] == '/' ? pc_xasprintf("%s%s", home, p + 1) : NULL;
}

static void collect_seeds(const struct pc_guard_opts *o,
			  struct pc_guard_result *r, const char *home)
{
	struct seed_ctx c = { o, r };

	if (o->seeds) {
		for (size_t i = 0; i < o->seeds->nr; i++)
			add_seed(r, o->seeds->v[i], first_shape(o), "--seed", false);
	} else {
		for (int s = PC_GUARD_CMD; s <= PC_GUARD_READ; s++) {
			const char *const *v = pc__guard_builtin((enum pc_guard_shape)s,
								 false);

			if (!shape_of_point(o, (enum pc_guard_shape)s))
				continue;
			for (; *v; v++) {
				char *t = s == PC_GUARD_CMD ? pc_xstrdup(*v)
							    : home_path(*v, home);

				if (t)
					add_seed(r, t, (enum pc_guard_shape)s,
						 "built-in", false);
				free(t);
			}
		}
		pc__guard_scenario_seeds(o->plugin->source_path
						 ? o->plugin->source_path
						 : o->plugin->dir,
					 o->hook, scenario_seed, &c);
		for (size_t i = 0; o->config_commands && i < o->config_commands->nr;
		     i++)
			scenario_seed(&c, o->config_commands->v[i], PC_GUARD_CMD,
				      ".plugcheck.yaml");
		for (size_t i = 0; o->config_paths && i < o->config_paths->nr; i++) {
			scenario_seed(&c, o->config_paths->v[i], PC_GUARD_WRITE,
				      ".plugcheck.yaml");
			scenario_seed(&c, o->config_paths->v[i], PC_GUARD_READ,
				      ".plugcheck.yaml");
		}
	}
	for (int s = PC_GUARD_CMD; s <= PC_GUARD_READ; s++) {
		const char *const *v = pc__guard_builtin((enum pc_guard_shape)s, true);

		if (!shape_of_point(o, (enum pc_guard_shape)s))
			continue;
		for (; *v; v++)
			add_seed(r, *v, (enum pc_guard_shape)s, "built-in", true);
	}
}

/* ---- phases ---- */

/* The realistic input first: a hook that fails on it is not searched. */
static bool preflight(struct pc__gsearch *S)
{
	const struct pc_guard_opts *o = S->o;
	enum pc_guard_shape s = first_shape(o);
	const char *text = s == PC_GUARD_CMD ? "echo hello" : "hello.txt";
	cJSON *args = pc__guard_args(s, text);
	struct pc_guard_try t = { .tool = pc_xstrdup(pc__guard_shape_tool(s)) };
	bool ok;

	t.text = pc_xstrdup(text);
	t.args = pc_serde_to_string(args);
	pc__guard_judge(S, &t, true);
	S->r->exchanges += t.exchanges;
	S->r->hook_ms += t.ms;
	ok = t.verdict != PC_GUARD_ACCIDENT;
	if (!ok)
		S->r->skipped = pc_xasprintf(
			"the hook fails on an ordinary call (%s `%s`: %s); the search needs a hook that answers",
			t.tool, text, t.reason ? t.reason : "");
	pc__guard_try_release(&t);
	cJSON_Delete(args);
	return ok;
}

static void seed_tries(struct pc__gsearch *S)
{
	struct pc_guard_result *r = S->r;

	for (size_t i = 0; i < r->nseeds && r->ntries < r->budget; i++) {
		const struct pc_guard_seed *sd = &r->seeds[i];
		cJSON *args = pc__guard_args(sd->shape, sd->text);

		pc__guard_add_try(r, sd->benign ? PC_GUARD_T_BENIGN : PC_GUARD_T_SEED,
				  i, pc__guard_shape_tool(sd->shape), sd->text, args);
		cJSON_Delete(args);
	}
	if (r->ntries < r->nseeds)
		r->stopped = pc_xasprintf("the budget of %u inputs ended among the seeds",
					  r->budget);
	if (S->o->plan_only) {
		for (size_t i = 0; i < r->ntries; i++)
			r->tries[i].verdict = r->tries[i].role == PC_GUARD_T_SEED
						      ? PC_GUARD_DENY
						      : PC_GUARD_ALLOW;
		return;
	}
	pc__guard_execute(S, 0, r->ntries, true);
}

static bool denied(enum pc_guard_verdict v)
{
	return v == PC_GUARD_DENY || v == PC_GUARD_ACCIDENT;
}

/* What the seeds say: inert (no dangerous seed denied), denies all. */
static void judge_seeds(struct pc__gsearch *S, size_t nseed_tries)
{
	struct pc_guard_result *r = S->r;
	size_t dangerous = 0, deny = 0, benign = 0, benign_deny = 0;

	for (size_t i = 0; i < nseed_tries; i++) {
		const struct pc_guard_try *t = &r->tries[i];

		if (t->verdict == PC_GUARD_NOT_RUN)
			continue;
		if (t->role == PC_GUARD_T_SEED) {
			dangerous++;
			deny += denied(t->verdict);
		} else {
			benign++;
			benign_deny += denied(t->verdict);
		}
	}
	r->inert = dangerous && !deny && !r->incomplete;
	r->denies_all = dangerous && deny == dangerous && benign &&
			benign_deny == benign;
	if (r->inert)
		pc__guard_causes(S->o->plugin, S->o->hook, r);
}

static struct pc_guard_family_count *fam_count(struct pc_guard_result *r,
					       const char *name)
{
	for (size_t i = 0; i < r->nfam; i++)
		if (!strcmp(r->fam[i].name, name))
			return &r->fam[i];
	if (r->nfam == sizeof(r->fam) / sizeof(*r->fam))
		return NULL;
	r->fam[r->nfam] = (struct pc_guard_family_count){ .name = name };
	return &r->fam[r->nfam++];
}

static void family_variants(const struct pc__gfamily *f,
			    const struct pc_guard_seed *sd,
			    const struct pc__gctx *ctx, struct pc__gvariants *vs)
{
	if (sd->shape == PC_GUARD_CMD) {
		if (f->shape == PC_GUARD_CMD)
			f->fn(sd->text, ctx, vs);
	} else if (!strcmp(f->name, "tool")) {
		if (sd->shape == PC_GUARD_WRITE)
			pc__guard_fam_tools_write(sd->text, ctx, vs);
		else
			pc__guard_fam_tools_read(sd->text, ctx, vs);
	} else if (f->shape != PC_GUARD_CMD) {
		f->fn(sd->text, ctx, vs);
	}
}

/* `f` rewrites inputs of a shape the point takes. */
static bool family_applies(const struct pc_guard_opts *o,
			   const struct pc__gfamily *f)
{
	if (f->shape == PC_GUARD_CMD)
		return shape_of_point(o, PC_GUARD_CMD);
	return shape_of_point(o, PC_GUARD_WRITE) || shape_of_point(o, PC_GUARD_READ);
}

/* The rewrites of one denied seed by one family. */
struct cell {
	const struct pc__gfamily *f;
	struct pc_guard_family_count *fc;
	size_t seed;
	struct pc__gvariants vs;
};

static void add_variant(struct pc_guard_result *r, const struct cell *c,
			size_t k)
{
	const struct pc__gvariant *v = &c->vs.v[k];
	const struct pc_guard_seed *sd = &r->seeds[c->seed];
	const char *tool = v->tool ? v->tool : pc__guard_shape_tool(sd->shape);
	cJSON *args = v->args ? cJSON_Duplicate(v->args, 1)
			      : pc__guard_args(sd->shape, v->text);
	struct pc_guard_try *t = pc__guard_add_try(r, PC_GUARD_T_VARIANT,
						   c->seed, tool, v->text, args);

	t->family = c->f->name;
	t->rule = pc_xstrdup(v->rule);
	c->fc->tried++;
	cJSON_Delete(args);
}

/* Every rewrite of every denied seed, up to the budget, in rounds: the
 * first rewrite of each (family, seed) in family order, then the second,
 * ... - so that a small budget still tries every family, the likeliest
 * first. What did not fit is counted as planned. */
static void plan(struct pc__gsearch *S, size_t nseed_tries)
{
	struct pc_guard_result *r = S->r;
	const struct pc_guard_opts *o = S->o;
	struct cell *cells = NULL;
	size_t ncells = 0, most = 0, planned = 0;

	for (size_t fi = 0; fi < pc__guard_nfamilies; fi++) {
		const struct pc__gfamily *f = &pc__guard_families[fi];
		struct pc_guard_family_count *fc;

		if ((o->families && !listed(o->families, f->name)) ||
		    !family_applies(o, f) || !(fc = fam_count(r, f->name)))
			continue;
		for (size_t i = 0; i < nseed_tries; i++) {
			struct cell c = { f, fc, r->tries[i].seed, { 0 } };

			if (r->tries[i].role != PC_GUARD_T_SEED ||
			    !denied(r->tries[i].verdict))
				continue;
			family_variants(f, &r->seeds[c.seed], &S->ctx, &c.vs);
			fc->planned += (unsigned)c.vs.n;
			planned += c.vs.n;
			most = c.vs.n > most ? c.vs.n : most;
			cells = pc_xreallocarray(cells, ncells + 1, sizeof(*cells));
			cells[ncells++] = c;
		}
	}
	for (size_t k = 0; k < most; k++)
		for (size_t i = 0; i < ncells && r->ntries < r->budget; i++)
			if (k < cells[i].vs.n)
				add_variant(r, &cells[i], k);
	if (r->ntries - nseed_tries < planned && !r->stopped)
		r->stopped = pc_xasprintf(
			"the budget of %u inputs was spent before every rewrite was tried (--budget N)",
			r->budget);
	for (size_t i = 0; i < ncells; i++)
		pc__guard_variants_release(&cells[i].vs);
	free(cells);
}

static bool in_workspace(const char *p)
{
	return p[0] && p[0] != '/' && p[0] != '~' && !strstr(p, "..");
}

/* Tool bypasses of workspace files, shown with turns. */
static void demos(struct pc__gsearch *S)
{
	struct pc_guard_result *r = S->r;

	for (size_t i = 0; i < r->ntries && r->turns < PC_GUARD_MAX_TURNS; i++) {
		struct pc_guard_try *t = &r->tries[i];
		const struct pc_guard_seed *sd = &r->seeds[t->seed];

		if (t->role != PC_GUARD_T_VARIANT || t->verdict != PC_GUARD_ALLOW ||
		    strcmp(t->family, "tool") || !in_workspace(sd->text) ||
		    (S->o->stop && *S->o->stop))
			continue;
		pc__guard_demo(S, t, sd->shape, r->turns++);
	}
}

static void count_bypasses(struct pc_guard_result *r)
{
	for (size_t i = 0; i < r->ntries; i++) {
		const struct pc_guard_try *t = &r->tries[i];
		struct pc_guard_family_count *fc;

		if (t->role == PC_GUARD_T_VARIANT && t->verdict == PC_GUARD_ALLOW &&
		    (fc = fam_count(r, t->family)))
			fc->bypasses++;
	}
}

int pc_guard_run(const struct pc_guard_opts *o, struct pc_guard_result *r,
		 struct pc_err *err)
{
	struct pc__gsearch S;
	const struct pc_hook_cfg *h;
	size_t nseed_tries;
	int rc;

	if (!pc_guard_is_point(o->hook))
		return pc_err_set(err, PC_EUSAGE,
				  "the guard search runs at pre_bash, pre_write, pre_read and pre_tool");
	h = &o->plugin->hooks[o->hook];
	if (!h->present)
		return pc_err_set(err, PC_EUSAGE, "plugin '%s' registers no hook at '%s'",
				  o->plugin->name,
				  pc_hook_point_name((enum pc_hook_point)o->hook));
	if ((rc = pc_guard_families_check(o->families, err)))
		return rc;
	pc__guard_search_init(&S, o, r);
	r->point = pc_xstrdup(pc_hook_point_name((enum pc_hook_point)o->hook));
	r->hook = o->hook;
	r->pass_args = h->pass_args;
	r->workspace = pc_xstrdup(o->workspace);
	r->home = S.ctx.home ? pc_xstrdup(S.ctx.home) : NULL;
	r->budget = o->budget ? o->budget : PC_GUARD_BUDGET;
	collect_seeds(o, r, S.ctx.home);
	if (!o->plan_only && !preflight(&S))
		goto out;
	seed_tries(&S);
	nseed_tries = r->ntries;
	judge_seeds(&S, nseed_tries);
	if (r->inert || r->incomplete)
		goto out;
	if (!h->pass_args && !o->plan_only) {
		r->skipped = pc_xstrdup(
			"pass_args is not set: the host sends no args (R4.5), so every rewrite looks the same to the hook");
		goto out;
	}
	if (r->denies_all && !o->plan_only) {
		r->skipped = pc_xstrdup(
			"the hook denies every input, the benign look-alikes too: no rewrite can get through");
		goto out;
	}
	plan(&S, nseed_tries);
	if (!o->plan_only)
		pc__guard_execute(&S, nseed_tries, r->ntries, false);
	if (o->turns && !o->plan_only)
		demos(&S);
	count_bypasses(r);
out:
	r->wall_ms = pc__guard_elapsed(&S);
	pc__guard_search_release(&S);
	return 0;
}

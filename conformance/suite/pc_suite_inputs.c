/* pc_suite_inputs.c - robustness to ordinary inputs (issue 17): a hook or
 * a tool that answers its realistic input but fails on some other input
 * it will get - a command with `rm`, an unbalanced quote, a path with a
 * space, an empty string. The corpus is small and fixed: everyday
 * inputs, not a search for what a guard lets through. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_cause.h"
#include "pc_schema.h"
#include "pc_serde.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

#define MAX_TOOL_INPUTS	  8 /* firings per tool */
#define MAX_STRING_PARAMS 3
#define MAX_TOOL_HOOKS	  3 /* plugin tools pre_tool is fired for */
#define SLOW_MS                                            \
	2000 /* a firing this slow ends the corpus: a hook \
		near its timeout would cost it 8 times */

/* The args of a tool call a bash-like hook sees. */
static const char *const commands[] = {
	"{\"command\":\"rm -rf build\"}",
	"{\"command\":\"ls -la\"}",
	"{\"command\":\"echo \\\"unbalanced\"}",
	"{\"command\":\"git commit -m \\\"it's done\\\"\"}",
	"{\"command\":\"grep -rn 'TODO' src | head -5 > todo.txt\"}",
	"{\"command\":\"cat <<'EOF'\\nhello\\nEOF\"}",
	"{\"command\":\"echo $HOME `whoami` $(date)\"}",
	"{\"command\":\"\"}",
	NULL,
};

static const char *const writes[] = {
	"{\"content\":\"a \\\"quoted\\\" line\\n\",\"path\":\"my notes.txt\"}",
	"{\"content\":\"it's\\n\",\"path\":\"it's.txt\"}",
	"{\"content\":\"\",\"path\":\"empty.txt\"}",
	"{\"content\":\"int main(void) { return 0; }\\n\",\"path\":\"src/main.c\"}",
	"{\"content\":\"# Title\\n\\n- $x `y` \\\\ \\t\\n\",\"path\":\"docs/a b/readme.md\"}",
	NULL,
};

static const char *const reads[] = {
	"{\"path\":\"my notes.txt\"}",
	"{\"path\":\"it's.txt\"}",
	"{\"path\":\"src/main.c\"}",
	"{\"path\":\"docs/a b/readme.md\"}",
	"{\"path\":\"\"}",
	NULL,
};

static const char *const texts[] = {
	"{\"text\":\"\"}",
	"{\"text\":\"it's \\\"quoted\\\"\"}",
	"{\"text\":\"line one\\nline two\"}",
	"{\"text\":\"rm -rf build\"}",
	"{\"text\":\"`echo hi` $(date) $HOME \\\\n\"}",
	NULL,
};

/* Strings a tool's string parameter may well get. */
static const char *const strings[] = {
	"it's \"quoted\"",    "two words; and more", "",
	"line one\nline two", "$HOME `id` $(date)",  "a\\b",
};

static const char *const *corpus(int point)
{
	switch (point) {
	case PC_HOOK_PRE_BASH:
	case PC_HOOK_POST_BASH:
	case PC_HOOK_PRE_TOOL:
	case PC_HOOK_POST_TOOL:
		return commands;
	case PC_HOOK_PRE_WRITE:
	case PC_HOOK_POST_WRITE:
		return writes;
	case PC_HOOK_PRE_READ:
	case PC_HOOK_POST_READ:
		return reads;
	case PC_HOOK_PRE_INPUT:
		return texts;
	default:
		return NULL;
	}
}

/* A failure that is not the script's decision. */
static bool crashed(enum pc_outcome o)
{
	return o != PC_OUT_OK && o != PC_OUT_INPUT_TOO_LARGE;
}

/* Tell the pool what is being fired (a death is blamed on it). */
static void note(struct pc__suite *s, const char *cls, const char *label)
{
	if (s->w) {
		char *n = pc_xasprintf("%s: %s", cls, label);

		pc_pool_note(s->w, n);
		free(n);
	}
}

/* The failures found: their cases stay open (with their firings) until
 * the one finding naming them is on the first, since a worker sends a
 * case to the parent when it ends. */
struct failures {
	struct pc_buf list;
	size_t n, tried;
	size_t c[MAX_TOOL_INPUTS + 2];
	struct pc_fire f[MAX_TOOL_INPUTS + 2];
};

#define FAILURES_INIT                             \
	{                                         \
		.list = PC_BUF_INIT(PC_BUF_NOCAP) \
	}

/* Firing `f` failed on `input` as case `c`: keep both (f moved). */
static void failed(struct failures *fl, size_t c, const char *input,
		   const char *why, struct pc_fire *f)
{
	if (fl->n < 4)
		pc_buf_addf(&fl->list, "%s%s: %s", fl->n ? "; " : "", input,
			    why);
	fl->c[fl->n] = c;
	fl->f[fl->n] = *f;
	*f = (struct pc_fire)PC_FIRE_INIT;
	fl->n++;
}

/* The line of `script` the stderr of a failure names (the first that
 * names one). */
static struct pc_loc crash_line(const struct failures *fl, const char *script)
{
	struct pc_loc at = { 0, 0 };

	for (size_t i = 0; script && i < fl->n && !at.line; i++) {
		const struct pc_buf *err = &fl->f[i].x.proc.err;

		if (err->len)
			at.line = pc_cause_stderr_line(err->data, err->len,
						       script);
	}
	return at;
}

/* The finding on the first failure's case, placed in `script` (the
 * canonical path; at the line its stderr names), then every case ended. */
static void report(struct pc__suite *s, struct failures *fl, const char *id,
		   const char *where, const char *what, const char *script)
{
	if (fl->n)
		pc__suite_place(
			pc__suite_find(s, fl->c[0], id, where,
				       "%s on %zu of %zu %s: %s%s",
				       !strcmp(id, "PC-TOOL-023") ? "crashes"
								  : "fails",
				       fl->n, fl->tried, what,
				       pc_buf_cstr(&fl->list),
				       fl->n > 4 ? "; ..." : ""),
			pc__suite_rel(s, script), crash_line(fl, script));
	for (size_t i = 0; i < fl->n; i++) {
		pc__suite_end(s, fl->c[i], &fl->f[i]);
		pc_fire_release(&fl->f[i]);
	}
	pc_buf_release(&fl->list);
}

void pc__suite_hook_inputs(struct pc__suite *s, const struct pc_fire_point *pt)
{
	const char *const *in = corpus(pt->hook);
	const char *n = pc_hook_point_name((enum pc_hook_point)pt->hook);
	char *cls = pc_xasprintf("plugcheck.hook.%s", n);
	char *where = pc_xasprintf("hook %s", n);
	struct failures fl = FAILURES_INIT;
	bool blocking = pc_hook_is_blocking((enum pc_hook_point)pt->hook);

	for (size_t i = 0; in && in[i] && !pc__suite_stopped(s); i++) {
		struct pc_fire f = PC_FIRE_INIT;
		struct pc_fire_input fi = { .args = in[i] };
		char *label = pc_xasprintf("ordinary input %s", in[i]);
		bool slow;

		pc__suite_progress(s, "hook %s: ordinary input %zu", n, i + 1);
		note(s, cls, label);
		pc__suite_fire(s, pt, &fi, NULL, &f);
		fl.tried++;
		slow = f.x.proc.wall_ms > SLOW_MS;
		if (crashed(f.hook.outcome) && !pc__suite_stopped(s))
			failed(&fl, pc__suite_begin(s, cls, label), in[i],
			       f.hook.reason, &f);
		pc_fire_release(&f);
		free(label);
		if (slow)
			break;
	}
	report(s, &fl, blocking ? "PC-HOOK-024" : "PC-HOOK-025", where,
	       "ordinary inputs although it answers the realistic one",
	       s->p->hooks[pt->hook].script);
	free(cls);
	free(where);
}

/* The string parameters of `params` that `valid` holds. */
static size_t string_params(const cJSON *params, const cJSON *valid,
			    const char **out)
{
	const cJSON *e;
	size_t n = 0;

	cJSON_ArrayForEach(e, pc_serde_get(params, "properties"))
	{
		const cJSON *t = pc_serde_get(e, "type");

		if (n < MAX_STRING_PARAMS && cJSON_IsString(t) &&
		    !strcmp(t->valuestring, "string") &&
		    cJSON_IsString(pc_serde_get(valid, e->string)))
			out[n++] = e->string;
	}
	return n;
}

void pc__suite_tool_inputs(struct pc__suite *s, const struct pc_fire_point *pt,
			   const cJSON *valid)
{
	const struct pc_tool_cfg *t = pt->tool;
	char *cls = pc_xasprintf("plugcheck.tool.%s", t->name);
	char *where = pc_xasprintf("tool %s", t->name);
	struct failures fl = FAILURES_INIT;
	const char *names[MAX_STRING_PARAMS];
	size_t np = string_params(t->parameters, valid, names);

	for (size_t k = 0; k < sizeof(strings) / sizeof(*strings) * np &&
			   fl.tried < MAX_TOOL_INPUTS && !pc__suite_stopped(s);
	     k++) {
		cJSON *args = cJSON_Duplicate(valid, 1);
		struct pc_fire f = PC_FIRE_INIT;
		struct pc_fire_input fi = { .args_json = args };
		char *text, *label;
		bool slow;

		cJSON_ReplaceItemInObjectCaseSensitive(
			args, names[k % np],
			cJSON_CreateString(strings[k / np]));
		if (!pc_schema_validate(t->parameters, args, NULL)) {
			cJSON_Delete(args);
			continue;
		}
		text = pc_serde_to_string(args);
		label = pc_xasprintf("ordinary arguments %s", text);
		note(s, cls, label);
		pc__suite_fire(s, pt, &fi, NULL, &f);
		fl.tried++;
		slow = f.x.proc.wall_ms > SLOW_MS;
		if (crashed(f.call.outcome) && !pc__suite_stopped(s))
			failed(&fl, pc__suite_begin(s, cls, label), text,
			       f.call.output, &f);
		pc_fire_release(&f);
		free(label);
		free(text);
		cJSON_Delete(args);
		if (slow)
			break;
	}
	report(s, &fl, "PC-TOOL-023", where,
	       "valid arguments although it answers plain ones", t->script);
	free(cls);
	free(where);
}

void pc__suite_tool_hooks(struct pc__suite *s, const struct pc_fire_point *pt)
{
	for (size_t i = 0;
	     i < s->p->ntools && i < MAX_TOOL_HOOKS && !pc__suite_stopped(s);
	     i++) {
		const struct pc_tool_cfg *t = &s->p->tools[i];
		cJSON *args = pc_schema_valid_args(t->parameters, true);
		char *text, *label;
		struct pc_fire f = PC_FIRE_INIT;
		struct pc_fire_input in = { .tool = t->name };
		size_t c;

		if (!cJSON_IsObject(args)) {
			cJSON_Delete(args);
			continue;
		}
		text = pc_serde_to_string(args);
		in.args = text;
		label = pc_xasprintf("before a call of tool %s", t->name);
		c = pc__suite_fire_hook(s, pt, label, &in, false, &f);
		pc__suite_end(s, c, &f);
		pc_fire_release(&f);
		free(label);
		free(text);
		cJSON_Delete(args);
	}
}

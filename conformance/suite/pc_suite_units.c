/* pc_suite_units.c - the firing units of `plugcheck check`, run in worker
 * processes (pc_pool.h) and merged into the report in unit order.
 *
 * The units are independent: one hook point (realistic input, latency,
 * probes, and for a blocking pre hook the guard search), one tool, one command, the memory round trip, the OAuth
 * actions, and the skipped rest of the tools and commands. Each worker
 * keeps its own HOME, workspace and TMPDIR (inside the run's temporary
 * directory, emptied at the start of every unit by
 * pc__suite_fresh_dirs), builds each unit's cases in a report of its own
 * and sends every finished case to the parent at once. The parent merges
 * them with the once-per-(id, where) rule pc__suite_find applies, so the
 * report is the same, in the same order, whatever -j is; only times (and
 * temporary paths) differ.
 *
 * What a plugin does to its worker - the process it sees as its parent,
 * as the host is - becomes a case of that unit with finding PC-PROC-004;
 * a worker plugcheck lost for another reason, PC-INT-001.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

enum unit_kind {
	U_HOOK,
	U_TOOL,
	U_TOOLS_SKIPPED,
	U_COMMAND,
	U_COMMANDS_SKIPPED,
	U_MEMORY,
	U_OAUTH,
};

struct unit {
	enum unit_kind kind;
	size_t index; /* hook point, tool or command index */
};

struct units {
	struct pc__suite *s;
	struct unit *v;
	size_t n;
	char *parent_tmp; /* where workers make their directories */
};

static size_t make_units(const struct pc__suite *s, struct unit *u)
{
	const struct pc_plugin *p = s->p;
	size_t n = 0;

	for (size_t i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			u[n++] = (struct unit){ U_HOOK, i };
	for (size_t i = 0; i < p->ntools && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ U_TOOL, i };
	if (p->ntools > PC_SUITE_MAX_FIRED)
		u[n++] = (struct unit){ U_TOOLS_SKIPPED, 0 };
	for (size_t i = 0; i < p->ncommands && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ U_COMMAND, i };
	if (p->ncommands > PC_SUITE_MAX_FIRED)
		u[n++] = (struct unit){ U_COMMANDS_SKIPPED, 0 };
	if (p->memory)
		u[n++] = (struct unit){ U_MEMORY, 0 };
	if (p->oauth)
		u[n++] = (struct unit){ U_OAUTH, 0 };
	return n;
}

/* What unit `u` fires, as the progress line names it, and the class of
 * its cases. New strings. */
static char *unit_name(const struct pc__suite *s, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		return pc_xasprintf("hook %s",
				    pc_hook_point_name((enum pc_hook_point)u->index));
	case U_TOOL:
		return pc_xasprintf("tool %s", s->p->tools[u->index].name);
	case U_COMMAND:
		return pc_xasprintf("command %s", s->p->commands[u->index].name);
	case U_MEMORY:
		return pc_xstrdup("memory");
	case U_OAUTH:
		return pc_xstrdup("oauth");
	default:
		return pc_xstrdup("skipped entry points");
	}
}

static char *unit_class(const struct pc__suite *s, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		return pc_xasprintf("plugcheck.hook.%s",
				    pc_hook_point_name((enum pc_hook_point)u->index));
	case U_TOOL:
		return pc_xasprintf("plugcheck.tool.%s", s->p->tools[u->index].name);
	case U_COMMAND:
		return pc_xasprintf("plugcheck.command.%s",
				    s->p->commands[u->index].name);
	case U_MEMORY:
		return pc_xstrdup("plugcheck.memory");
	case U_OAUTH:
		return pc_xstrdup("plugcheck.oauth");
	case U_TOOLS_SKIPPED:
		return pc_xstrdup("plugcheck.tool");
	default:
		return pc_xstrdup("plugcheck.command");
	}
}

/* ---- in a worker ---- */

static int worker_init(void *ctx, struct pc_pool_worker *w)
{
	struct units *us = ctx;
	struct pc__suite *s = us->s;
	int rc;

	/* the copy of the parent's state at the fork: make it this
	 * worker's own, with directories of its own */
	s->env = (struct pc_strvec)PC_STRVEC_INIT;
	s->quiet = true;
	(void)us;
	if ((rc = pc__suite_dirs(s, NULL, NULL)))
		return rc;
	/* HOME and TMPDIR are inside it; the pool removes it */
	pc_pool_mark(w, s->tmp);
	return 0;
}

static void run_unit(void *ctx, struct pc_pool_worker *w, size_t i)
{
	struct units *us = ctx;
	struct pc__suite *s = us->s;
	struct pc_report r = PC_REPORT_INIT;
	const struct unit *u = &us->v[i];

	r.strict = s->run->strict;
	s->r = &r;
	s->w = w;
	s->sent = 0;
	free(s->done);
	s->done = NULL;
	s->ndone = 0;
	free(s->mem_timeout);
	s->mem_timeout = NULL;
	switch (u->kind) {
	case U_HOOK:
		pc__suite_hook(s, (int)u->index);
		break;
	case U_TOOL:
		pc__suite_tool(s, u->index);
		break;
	case U_TOOLS_SKIPPED:
		pc__suite_tools_skipped(s);
		break;
	case U_COMMAND:
		pc__suite_command(s, u->index);
		break;
	case U_COMMANDS_SKIPPED:
		pc__suite_commands_skipped(s);
		break;
	case U_MEMORY:
		pc__suite_memory(s);
		break;
	case U_OAUTH:
		pc__suite_oauth(s);
		break;
	}
	pc_report_release(&r);
	s->r = NULL;
}

/* ---- in the parent ---- */

static void started(void *ctx, size_t i)
{
	struct units *us = ctx;
	char *name = unit_name(us->s, &us->v[i]);

	pc__suite_progress(us->s, "%s", name);
	free(name);
}

static void merge(void *ctx, size_t i, const char *part, size_t len)
{
	struct units *us = ctx;

	(void)i;
	if (pc_report_merge(us->s->run, part, len, true) < 0) {
		size_t c = pc_report_add_case(us->s->run, PC_CASE_INTERNAL,
					      "a malformed result", NULL, 0.0);

		pc_report_find(us->s->run, c, "PC-INT-001", NULL, NULL,
			       "plugcheck: a worker sent a result that does not parse");
	}
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGTERM:
		return "SIGTERM";
	case SIGINT:
		return "SIGINT";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	case SIGUSR1:
		return "SIGUSR1";
	case SIGUSR2:
		return "SIGUSR2";
	case SIGALRM:
		return "SIGALRM";
	case SIGSTOP:
		return "SIGSTOP";
	default:
		return "a signal";
	}
}

/* The firing the worker was at: "realistic input" out of the note
 * "plugcheck.hook.pre_bash: realistic input". */
static const char *firing(const char *label, const char *cls)
{
	size_t n = strlen(cls);

	if (label && !strncmp(label, cls, n) && !strncmp(label + n, ": ", 2))
		return label + n + 2;
	return label ? label : "the first firing";
}

static void event(void *ctx, size_t i, const struct pc_pool_event *ev)
{
	struct units *us = ctx;
	struct pc_report *r = us->s->run;
	char *cls = unit_class(us->s, &us->v[i]);
	char *name = unit_name(us->s, &us->v[i]);
	const char *at = firing(ev->label, cls);
	size_t c;

	switch (ev->kind) {
	case PC_POOL_STOPPED:
		c = pc_report_add_case(r, cls, "the plugin stopped its host",
				       NULL, 0.0);
		pc_report_find(r, c, "PC-PROC-004", "plugin.json", name,
			       "a plugin process stopped its parent (as with `kill -STOP $PPID`) while plugcheck fired '%s': the real host would freeze there; plugcheck resumed its worker",
			       at);
		break;
	case PC_POOL_SIGNALLED:
		c = pc_report_add_case(r, cls, "the plugin killed its host",
				       NULL, 0.0);
		pc_report_find(r, c, "PC-PROC-004", "plugin.json", name,
			       "a plugin process (pid %d) sent %s to its parent while plugcheck fired '%s': the real host dies of it; the rest of %s did not run",
			       ev->sender, signame(ev->signo), at, name);
		break;
	case PC_POOL_KILLED:
		c = pc_report_add_case(r, cls, "the plugin killed its host",
				       NULL, 0.0);
		pc_report_find(r, c, "PC-PROC-004", "plugin.json", name,
			       "plugcheck's worker, the plugin's parent as the host is, was killed without a word (SIGKILL, as `kill -9 $PPID` sends, or a crash) while plugcheck fired '%s': the real host would die; the rest of %s did not run",
			       at, name);
		break;
	case PC_POOL_INTERRUPTED:
		r->incomplete = true;
		if (ev->started) {
			c = pc_report_add_case(r, cls, at, NULL, 0.0);
			pc_report_skip(r, c,
				       "interrupted: plugcheck was stopped during "
				       "this firing and killed the plugin; not judged");
		}
		break;
	case PC_POOL_FAILED:
		c = pc_report_add_case(r, PC_CASE_INTERNAL, name, NULL, 0.0);
		pc_report_find(r, c, "PC-INT-001", NULL, name,
			       "plugcheck: the worker process running %s could not be started or failed (%s); these cases are lost",
			       name, at);
		r->incomplete = true;
		break;
	}
	free(cls);
	free(name);
}

void pc__suite_units(struct pc__suite *s, unsigned jobs)
{
	static const struct pc_pool_ops ops = { .worker_init = worker_init,
						.run = run_unit,
						.started = started,
						.merge = merge,
						.event = event };
	struct unit *u = pc_xcalloc(PC_HOOK_COUNT + 2 * PC_SUITE_MAX_FIRED + 4,
				    sizeof(*u));
	struct units us = { .s = s, .v = u, .n = make_units(s, u) };
	struct pc_pool_opts po = { .jobs = jobs, .nunits = us.n, .ops = &ops,
				   .ctx = &us, .stop = s->o->stop,
				   .marker = s->tmp };
	struct pc_err err = PC_ERR_INIT;

	us.parent_tmp = pc_fs_join(s->tmp, "workers");
	pc_fs_mkdir_p(us.parent_tmp, NULL);
	if (pc_pool_run(&po, &err) < 0)
		s->run->incomplete = true;
	free(us.parent_tmp);
	free(u);
}

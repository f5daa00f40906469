/* pc_suite_jobs.c - `plugcheck check -j N`: the firing steps in N worker
 * processes, merged into the report in the order -j 1 gives.
 *
 * The work is cut into units whose firings depend on each other only
 * within the unit: one hook point (realistic input, latency, probes), one
 * tool, one command, the memory round trip, the OAuth actions. Each unit
 * runs in a forked worker with its own temporary HOME, workspace and
 * TMPDIR (the same layout as the run's own), records its cases and
 * findings in a report of its own, writes them to a file and exits. The
 * parent keeps at most N workers busy and merges finished units strictly
 * in unit order, applying the same once-per-(id, where) rule for findings
 * that pc__suite_find applies, so cases, findings and their order are
 * those of the sequential run; only times (and temporary paths) differ.
 *
 * Processes: plugcheck becomes a child subreaper here, so the plugins of
 * a worker killed by Ctrl-C re-parent to it; once every worker is gone it
 * kills whatever is still its child (and its process group).
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

enum unit_kind {
	U_HOOK,
	U_TOOL,
	U_TOOLS_SKIPPED, /* no process: done by the parent when merged */
	U_COMMAND,
	U_COMMANDS_SKIPPED,
	U_MEMORY,
	U_OAUTH,
};

enum unit_state { U_WAITING, U_RUNNING, U_DONE, U_MERGED };

struct unit {
	enum unit_kind kind;
	size_t index; /* hook point, tool or command index */
	enum unit_state state;
	pid_t pid;
	int status; /* waitpid status once U_DONE */
};

/* ---- the result file: a worker's findings, cases and ranges ---- */

#define NO_STR UINT32_MAX

static void put_u32(struct pc_buf *b, uint32_t v)
{
	pc_buf_add(b, &v, sizeof(v));
}

static void put_str(struct pc_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(b, s ? (uint32_t)n : NO_STR);
	pc_buf_add(b, s, n);
}

static void serialize(const struct pc__suite *c, struct pc_buf *b)
{
	const struct pc_findings *f = &c->r->findings;

	pc_buf_addch(b, (char)c->r->incomplete);
	put_u32(b, (uint32_t)f->nr);
	for (size_t i = 0; i < f->nr; i++) {
		put_str(b, f->v[i].rule->id);
		put_str(b, f->v[i].where);
		put_str(b, f->v[i].message);
	}
	put_u32(b, (uint32_t)c->r->ncases);
	for (size_t i = 0; i < c->r->ncases; i++) {
		const struct pc_case *k = &c->r->cases[i];

		put_str(b, k->classname);
		put_str(b, k->name);
		pc_buf_addch(b, (char)k->status);
		put_str(b, k->message);
		put_str(b, k->system_out);
		put_str(b, k->system_err);
		put_str(b, k->rule);
		pc_buf_add(b, &k->time_s, sizeof(k->time_s));
		/* units make one range per case, never a rule range */
		put_u32(b, (uint32_t)c->ranges[i].from);
		put_u32(b, (uint32_t)c->ranges[i].to);
	}
}

struct reader {
	const char *p, *end;
	bool bad;
};

static bool take(struct reader *r, void *out, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

static uint32_t get_u32(struct reader *r)
{
	uint32_t v;

	take(r, &v, sizeof(v));
	return v;
}

/* A malloc'd string, or NULL (a NULL was written, or the file is bad). */
static char *get_str(struct reader *r)
{
	uint32_t n = get_u32(r);
	char *s;

	if (r->bad || n == NO_STR)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	s = pc_xmalloc((size_t)n + 1);
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	return s;
}

static bool has_finding(const struct pc_findings *f, const char *id,
			const char *where)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id) && !strcmp(f->v[i].where, where))
			return true;
	return false;
}

/* Merge one unit's result into the run. A finding the run already has
 * (same id and where) is dropped, as pc__suite_find would have, and the
 * cases' finding ranges are moved to the kept findings' new indexes.
 * Returns false when the file is malformed (nothing half-merged stays
 * wrong: cases already added keep their ranges). */
static bool merge(struct pc__suite *s, const struct pc_buf *file)
{
	struct reader r = { file->data, file->data + file->len, false };
	struct pc_findings *f = &s->r->findings;
	size_t base = f->nr, nf, nc, *kept_before;
	char incomplete = 0;

	take(&r, &incomplete, 1);
	nf = get_u32(&r);
	if (r.bad || nf > file->len)
		return false;
	kept_before = pc_xcalloc(nf + 1, sizeof(*kept_before));
	for (size_t i = 0; i < nf && !r.bad; i++) {
		char *id = get_str(&r), *where = get_str(&r), *msg = get_str(&r);

		kept_before[i + 1] = kept_before[i];
		if (id && where && msg && pc_rule_find(id) &&
		    !has_finding(f, id, where)) {
			pc_findings_add_at(f, id, where, "%s", msg);
			kept_before[i + 1]++;
		} else if (!id || !where || !msg || !pc_rule_find(id)) {
			r.bad = true;
		}
		free(id);
		free(where);
		free(msg);
	}
	nc = r.bad ? 0 : get_u32(&r);
	for (size_t i = 0; i < nc && !r.bad; i++) {
		char *cls = get_str(&r), *name = get_str(&r), *msg, *out;
		char *serr, *rule;
		char status = 0;
		double t = 0;
		uint32_t from, to;
		struct pc_case *k;

		take(&r, &status, 1);
		msg = get_str(&r);
		out = get_str(&r);
		serr = get_str(&r);
		rule = get_str(&r);
		take(&r, &t, sizeof(t));
		from = get_u32(&r);
		to = get_u32(&r);
		if (r.bad || !cls || !name || from > to || to > nf ||
		    status < PC_CASE_PASS || status > PC_CASE_SKIP) {
			r.bad = true;
		} else {
			k = pc_report_add_case(s->r, cls, name,
					       (enum pc_case_status)status, msg,
					       out, t);
			k->system_err = serr;
			k->rule = rule;
			serr = rule = NULL;
			s->ranges = pc_xreallocarray(s->ranges, s->nranges + 1,
						     sizeof(*s->ranges));
			s->ranges[s->nranges].from = base + kept_before[from];
			s->ranges[s->nranges].to = base + kept_before[to];
			s->ranges[s->nranges].rule_id = NULL;
			s->nranges++;
		}
		free(cls);
		free(name);
		free(msg);
		free(out);
		free(serr);
		free(rule);
	}
	free(kept_before);
	if (incomplete)
		s->r->incomplete = true;
	return !r.bad;
}

/* ---- workers ---- */

static void run_unit(struct pc__suite *c, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		pc__suite_hook(c, (int)u->index);
		break;
	case U_TOOL:
		pc__suite_tool(c, u->index);
		break;
	case U_COMMAND:
		pc__suite_command(c, u->index);
		break;
	case U_MEMORY:
		pc__suite_memory(c);
		break;
	case U_OAUTH:
		pc__suite_oauth(c);
		break;
	case U_TOOLS_SKIPPED:
	case U_COMMANDS_SKIPPED:
		break;
	}
}

/* In the forked worker: run the unit with a HOME, workspace and report of
 * its own, write the result to `out`, and exit (never returns). */
static void worker(const struct pc__suite *s, const struct unit *u,
		   const char *out)
{
	struct pc_suite_opts o = *s->o;
	struct pc_report r = PC_REPORT_INIT;
	struct pc__suite c = { .o = &o, .r = &r, .p = s->p,
			       .env = PC_STRVEC_INIT };
	struct pc_err err = PC_ERR_INIT;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	int rc;

	o.progress = NULL; /* the parent shows which units run */
	r.strict = s->r->strict;
	if (pc__suite_dirs(&c, &err))
		_exit(1);
	/* Tell the parent where this worker's HOME/workspace/tmp are: a
	 * worker that Ctrl-C kills cannot remove them (sweep_dirs does). */
	{
		char *where = pc_xasprintf("%s.dir", out);

		pc_fs_write(where, c.tmp, strlen(c.tmp), NULL);
		free(where);
	}
	run_unit(&c, u);
	serialize(&c, &b);
	rc = pc_fs_write(out, b.data, b.len, NULL) == 0 ? 0 : 1;
	pc_fs_rm_rf(c.tmp);
	_exit(rc);
}

static char *result_path(const struct pc__suite *s, size_t i)
{
	return pc_xasprintf("%s/jobs/%zu", s->tmp, i);
}

static void progress(struct pc__suite *s, const struct unit *u)
{
	switch (u->kind) {
	case U_HOOK:
		pc__suite_progress(s, "hook %s",
				   pc_hook_point_name((enum pc_hook_point)u->index));
		break;
	case U_TOOL:
		pc__suite_progress(s, "tool %s", s->p->tools[u->index].name);
		break;
	case U_COMMAND:
		pc__suite_progress(s, "command %s", s->p->commands[u->index].name);
		break;
	case U_MEMORY:
		pc__suite_progress(s, "memory");
		break;
	case U_OAUTH:
		pc__suite_progress(s, "oauth");
		break;
	default:
		break;
	}
}

static bool start(struct pc__suite *s, struct unit *u, size_t i)
{
	char *out = result_path(s, i);

	progress(s, u);
	fflush(NULL);
	u->pid = fork();
	if (u->pid == 0)
		worker(s, u, out);
	free(out);
	if (u->pid < 0)
		return false;
	u->state = U_RUNNING;
	return true;
}

/* A worker that left no readable result: it crashed or was killed. */
static void lost(struct pc__suite *s, const struct unit *u)
{
	char *name, *msg;

	s->r->incomplete = true;
	if (s->o->stop && *s->o->stop)
		return; /* interrupted: the report just stops here */
	name = pc_xasprintf("worker for unit %d/%zu", (int)u->kind, u->index);
	msg = WIFSIGNALED(u->status)
		      ? pc_xasprintf("plugcheck: the worker process died of signal %d",
				     WTERMSIG(u->status))
		      : pc_xasprintf("plugcheck: the worker process exited %d without a result",
				     WEXITSTATUS(u->status));
	pc_report_add_case(s->r, "plugcheck.internal", name, PC_CASE_FAIL, msg,
			   NULL, 0.0);
	s->ranges = pc_xreallocarray(s->ranges, s->nranges + 1,
				     sizeof(*s->ranges));
	s->ranges[s->nranges].from = s->r->findings.nr;
	s->ranges[s->nranges].to = s->r->findings.nr;
	s->ranges[s->nranges].rule_id = NULL;
	s->nranges++;
	free(name);
	free(msg);
}

static void merge_unit(struct pc__suite *s, struct unit *u, size_t i)
{
	struct pc_buf b = PC_BUF_INIT((size_t)1 << 30);
	char *path;

	u->state = U_MERGED;
	if (u->kind == U_TOOLS_SKIPPED) {
		pc__suite_tools_skipped(s);
		return;
	}
	if (u->kind == U_COMMANDS_SKIPPED) {
		pc__suite_commands_skipped(s);
		return;
	}
	path = result_path(s, i);
	if (!WIFEXITED(u->status) || WEXITSTATUS(u->status) ||
	    pc_fs_read_capped(path, &b, NULL) < 0 || !merge(s, &b))
		lost(s, u);
	pc_buf_release(&b);
	free(path);
}


/* Remove the temporary directories of workers killed before they could
 * (each named in jobs/N.dir; a finished worker already removed its own). */
static void sweep_dirs(const struct pc__suite *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *where = pc_xasprintf("%s/jobs/%zu.dir", s->tmp, i);
		struct pc_buf b = PC_BUF_INIT(4096);

		if (pc_fs_read_capped(where, &b, NULL) == 0 && b.len)
			pc_fs_rm_rf(pc_buf_cstr(&b));
		pc_buf_release(&b);
		free(where);
	}
}

static size_t make_units(const struct pc__suite *s, struct unit *u)
{
	const struct pc_plugin *p = s->p;
	size_t n = 0;

	for (size_t i = 0; i < PC_HOOK_COUNT; i++)
		if (p->hooks[i].present)
			u[n++] = (struct unit){ .kind = U_HOOK, .index = i };
	for (size_t i = 0; i < p->ntools && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ .kind = U_TOOL, .index = i };
	u[n++] = (struct unit){ .kind = U_TOOLS_SKIPPED, .state = U_DONE };
	for (size_t i = 0; i < p->ncommands && i < PC_SUITE_MAX_FIRED; i++)
		u[n++] = (struct unit){ .kind = U_COMMAND, .index = i };
	u[n++] = (struct unit){ .kind = U_COMMANDS_SKIPPED, .state = U_DONE };
	if (p->memory)
		u[n++] = (struct unit){ .kind = U_MEMORY };
	if (p->oauth)
		u[n++] = (struct unit){ .kind = U_OAUTH };
	return n;
}

void pc__suite_parallel(struct pc__suite *s, unsigned jobs)
{
	struct unit *u = pc_xcalloc(PC_HOOK_COUNT + 2 * PC_SUITE_MAX_FIRED + 4,
				    sizeof(*u));
	size_t n = make_units(s, u), next = 0, merged = 0;
	unsigned running = 0;
	char *dir = pc_fs_join(s->tmp, "jobs");

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pc_fs_mkdir_p(dir, NULL) < 0)
		jobs = 0; /* cannot work: the report says incomplete */
	for (;;) {
		while (merged < n && u[merged].state == U_DONE)
			merge_unit(s, &u[merged], merged), merged++;
		while (next < n && u[next].state != U_WAITING)
			next++;
		while (running < jobs && next < n && !pc__suite_stopped(s)) {
			if (!start(s, &u[next], next))
				break;
			running++;
			while (++next < n && u[next].state != U_WAITING)
				;
		}
		if (!running)
			break;
		{
			int st;
			pid_t pid = waitpid(-1, &st, 0);

			if (pid < 0 && errno == ECHILD)
				break;
			for (size_t i = 0; pid > 0 && i < n; i++)
				if (u[i].state == U_RUNNING && u[i].pid == pid) {
					u[i].state = U_DONE;
					u[i].status = st;
					running--;
				}
		}
	}
	if (merged < n)
		s->r->incomplete = true;
	pc_proc_kill_orphans();
	sweep_dirs(s, n);
	pc_fs_rm_rf(dir);
	free(dir);
	free(u);
}

/* pc_suite_impl.h - private to conformance/suite: the state of one run. */
#ifndef PC_SUITE_IMPL_H
#define PC_SUITE_IMPL_H

#include "pc_host.h"
#include "pc_suite.h"

struct pc__range {
	size_t from, to;     /* findings [from, to) belong to the case */
	const char *rule_id; /* or: every finding with this rule id */
};

struct pc__suite {
	const struct pc_suite_opts *o;
	struct pc_report *r;
	struct pc_plugin *p;	  /* loaded from the plugin directory */
	struct pc_strvec env;	  /* the emulated host's environment */
	char *tmp;		  /* root of this run's temporary files */
	char *home, *ws, *session;
	struct pc__range *ranges; /* one per report case */
	size_t nranges;
	char *mem_timeout;	  /* the memory action that timed out, or
				     NULL: later actions are skipped */
};

/* True when the run was asked to stop (the report is then incomplete). */
bool pc__suite_stopped(struct pc__suite *s);
/* Announce a step to the progress callback. */
void pc__suite_progress(struct pc__suite *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Add a finding once per (id, where). */
void pc__suite_find(struct pc__suite *s, const char *id, const char *where,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Start a host with the run's environment, workspace and session. */
void pc__suite_host(struct pc__suite *s, struct pc_host *h);
/* Record a case whose findings are those added since `from`. `x` (may
 * be NULL) and `verdict` go to system-out. */
void pc__suite_case(struct pc__suite *s, const char *classname,
		    const char *name, size_t from,
		    const struct pc_exchange *x, const char *verdict);
/* Give the case just added its findings: [from, to) of s->r->findings,
 * or (rule_id not NULL) every finding of that rule. rule_id is borrowed
 * (a rule table string). */
void pc__suite_range(struct pc__suite *s, size_t from, size_t to,
		     const char *rule_id);
/* Record a skipped case with the reason `why` and no findings. */
void pc__suite_skip(struct pc__suite *s, const char *classname,
		    const char *name, const char *why);
/* Record a case covering every finding of rule `id` (static checks). */
void pc__suite_rule_case(struct pc__suite *s, const struct pc_rule *rule);
/* PC-SBX-*: what the script of `x` tried beyond its capabilities under
 * --sandbox (nothing without it). */
void pc__suite_sandbox(struct pc__suite *s, const char *where,
		       const struct pc_exchange *x);
/* The value of NAME in the run's environment, or NULL. */
const char *pc__suite_getenv(const struct pc__suite *s, const char *name);
/* Lossy-decoded, trimmed stdout of `x` parsed as JSON, or NULL. */
cJSON *pc__suite_answer(const struct pc_exchange *x);

/* pc__suite_fresh_dirs - empty the run's HOME, workspace (hello.txt
 * written again) and TMPDIR, keeping their paths. Called at the start of
 * every unit - one hook point, tool, command, the memory round trip, the
 * OAuth actions - so that no unit sees what another left, and the report
 * does not depend on the order or the worker (check -j) that ran them.
 * Best effort: a directory that cannot be made fails the firings that
 * need it. */
void pc__suite_fresh_dirs(struct pc__suite *s);

/* Create the run's temporary directory (s->tmp, home, ws, session) and
 * its environment (s->env, which must be empty). PC_EIO with err set when
 * no temporary directory can be made. */
int pc__suite_dirs(struct pc__suite *s, struct pc_err *err);

/* The firing steps. Each appends its cases and findings to s->r in the
 * same order whether it runs in plugcheck or in a -j worker. */
void pc__suite_hooks(struct pc__suite *s);
/* One present hook point `i`: realistic input, latency, probes. */
void pc__suite_hook(struct pc__suite *s, int i);
void pc__suite_tools(struct pc__suite *s);
/* Tool `i` (< PC_SUITE_MAX_FIRED): valid and invalid arguments. */
void pc__suite_tool(struct pc__suite *s, size_t i);
/* The skipped case for the tools past PC_SUITE_MAX_FIRED, if any. */
void pc__suite_tools_skipped(struct pc__suite *s);
void pc__suite_commands(struct pc__suite *s);
/* Command `i` (< PC_SUITE_MAX_FIRED): empty and two-word arguments. */
void pc__suite_command(struct pc__suite *s, size_t i);
void pc__suite_commands_skipped(struct pc__suite *s);
/* hooks, tools, commands, memory and oauth in `jobs` worker processes,
 * one unit (a hook point, a tool, a command, the memory round trip, the
 * OAuth actions) per fork; the results are merged in the sequential
 * order, so the report is the one -j 1 gives (pc_suite_jobs.c). */
void pc__suite_parallel(struct pc__suite *s, unsigned jobs);
void pc__suite_memory(struct pc__suite *s);
void pc__suite_oauth(struct pc__suite *s);
void pc__suite_static(struct pc__suite *s);
/* PC-ENV-002: environment variables the scripts read. */
void pc__suite_env_reads(struct pc__suite *s);

#endif

/* cli_chatcli.c - `plugcheck lint|check EXE|DIR` and `plugcheck fire call
 * EXE` for ChatCLI plugins (docs/chatcli.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli_cli.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_report.h"
#include "pc_chatcli_suite.h"
#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_fire.h"
#include "pc_fs.h"
#include "pc_xalloc.h"

char *pc_chatcli_default_keys(void)
{
	const char *home = getenv("HOME");

	return pc_fs_join(home ? home : "/", ".chatcli/trusted-keys");
}

struct copts {
	const char *path;
	char *keys;
	bool strict;
	struct pc_strvec ignore;
};

static void copts_from(const struct pc_args *a, struct copts *c)
{
	c->path = a->pos[0];
	c->keys = pc_args_value(a, "trusted-keys")
			  ? pc_xstrdup(pc_args_value(a, "trusted-keys"))
			  : pc_chatcli_default_keys();
	c->strict = pc_args_flag(a, "strict");
	pc_args_list(a, "ignore", &c->ignore);
}

static int run_suite(struct copts *c, bool calls, struct pc_chatcli_dir *d,
		     struct pc_report *r)
{
	struct pc_chatcli_suite_opts so = { 0 };
	struct pc_err err = PC_ERR_INIT;

	so.keys_dir = c->keys;
	so.allow_unsigned = pc_chatcli_unsigned_allowed(
		getenv("CHATCLI_ALLOW_UNSIGNED_PLUGINS"));
	so.run_calls = calls;
	so.stop = pc_cli_stop_flag();
	r->strict = c->strict;
	for (size_t i = 0; i < c->ignore.nr; i++)
		pc_strvec_push(&r->ignore, c->ignore.v[i]);
	if (pc_chatcli_suite_run(c->path, &so, d, r, &err)) {
		fprintf(stderr, "plugcheck: %s\n", err.msg);
		return PC_EXIT_NOLOAD;
	}
	return -1;
}

static cJSON *meta_json(const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_meta *m = &e->probe.meta;
	cJSON *o;

	if (!e->probe.loaded)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", m->name);
	cJSON_AddStringToObject(o, "description", m->description);
	cJSON_AddStringToObject(o, "usage", m->usage);
	cJSON_AddStringToObject(o, "version", m->version);
	return o;
}

static cJSON *schema_json(const struct pc_chatcli_entry *e)
{
	cJSON *s = e->probe.schema ? cJSON_Parse(e->probe.schema) : NULL;

	return s ? s : cJSON_CreateNull();
}

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *lint_json(const struct pc_chatcli_dir *d,
			const struct pc_report *r)
{
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_CreateArray();
	const struct pc_chatcli_entry *first = NULL;

	for (size_t i = 0; i < d->nr; i++) {
		const struct pc_chatcli_entry *e = &d->v[i];
		cJSON *p;

		if (e->skipped)
			continue;
		if (!first || (!first->probe.loaded && e->probe.loaded))
			first = e;
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "file", e->file);
		cJSON_AddBoolToObject(p, "loaded",
				      r->loads && r->nloads > 0 &&
					      e->probe.loaded);
		add_str_or_null(p, "name",
				e->probe.loaded ? e->probe.meta.name : NULL);
		cJSON_AddItemToObject(p, "metadata", meta_json(e));
		cJSON_AddItemToObject(p, "schema", schema_json(e));
		add_str_or_null(p, "replaced_by", e->replaced_by);
		cJSON_AddItemToArray(arr, p);
	}
	for (size_t i = 0; i < r->nloads; i++) {
		cJSON *p = cJSON_GetArrayItem(arr, (int)i);

		cJSON_ReplaceItemInObjectCaseSensitive(
			p, "loaded", cJSON_CreateBool(r->loads[i].loaded));
		add_str_or_null(p, "host_error",
				*r->loads[i].detail ? r->loads[i].detail
						    : NULL);
	}
	cJSON_AddStringToObject(o, "contract", "chatcli");
	cJSON_AddBoolToObject(o, "loaded", r->loaded);
	add_str_or_null(o, "host_error", r->loaded ? NULL : r->host_error);
	add_str_or_null(o, "name", r->loaded ? r->name : NULL);
	cJSON_AddItemToObject(o, "metadata",
			      first ? meta_json(first) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "schema",
			      first ? schema_json(first) : cJSON_CreateNull());
	{
		size_t n;
		const struct pc_finding **v = pc_report_findings(r, &n);
		cJSON *fs = cJSON_CreateArray();

		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(fs, pc_finding_json(v[i]));
		free(v);
		cJSON_AddItemToObject(o, "findings", fs);
	}
	cJSON_AddItemToObject(o, "plugins", arr);
	return o;
}

static void release(struct copts *c, struct pc_chatcli_dir *d,
		    struct pc_report *r)
{
	free(c->keys);
	pc_strvec_release(&c->ignore);
	pc_chatcli_dir_release(d);
	pc_report_release(r);
}

int pc_chatcli_lint(const struct pc_args *a)
{
	struct copts c = { .ignore = PC_STRVEC_INIT };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	const char *fmt = pc_args_value(a, "format");
	int rc;

	copts_from(a, &c);
	rc = run_suite(&c, false, &d, &r);
	if (rc < 0) {
		pc_report_finish(&r);
		if (fmt && !strcmp(fmt, "json"))
			pc_cli_print_json(lint_json(&d, &r));
		else
			pc_report_write(&r, PC_REPORT_HUMAN, stdout,
					pc_cli_color());
		rc = !r.loaded ? PC_EXIT_NOLOAD
		     : r.counts.errors ? PC_EXIT_FINDINGS
				       : PC_EXIT_OK;
	}
	release(&c, &d, &r);
	return rc;
}

int pc_chatcli_check(const struct pc_args *a)
{
	struct copts c = { .ignore = PC_STRVEC_INIT };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	struct pc_cli_out out;
	int rc;

	copts_from(a, &c);
	if ((rc = pc_cli_out_open(a, &out)))
		goto out;
	rc = run_suite(&c, true, &d, &r);
	if (rc >= 0) {
		pc_cli_out_close(&out);
		goto out;
	}
	rc = pc_cli_out_report(&out, &r);
out:
	pc_cli_out_close(&out);
	release(&c, &d, &r);
	return rc;
}

/* --- fire call ------------------------------------------------------------ */

static void live_line(void *ctx, bool is_err, const char *line, size_t n)
{
	(void)ctx;
	fprintf(stderr, "%s%.*s\n", is_err ? "ERR: " : "", (int)n, line);
}

/* What fire call ran: the parsed call (--call) and the verdict. */
struct fired {
	const struct pc_chatcli_tool_calls *calls; /* NULL: --args */
	const struct pc_strvec *argv;
	bool parsed;
	const struct pc_chatcli_call *c;
	const char *perr;
	bool compression;
};

static void print_call_json(const struct fired *f)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
	const struct pc_chatcli_call *c = f->c;

	if (f->calls) {
		cJSON *k = cJSON_CreateObject();

		if (f->calls->nr) {
			cJSON_AddStringToObject(k, "name", f->calls->v[0].name);
			cJSON_AddStringToObject(k, "args", f->calls->v[0].args);
			cJSON_AddStringToObject(k, "form", f->calls->v[0].form);
			cJSON_AddItemToObject(o, "call", k);
		} else {
			cJSON_Delete(k);
			cJSON_AddNullToObject(o, "call");
		}
		cJSON_AddNumberToObject(o, "calls", (double)f->calls->nr);
	}
	for (size_t i = 0; i < f->argv->nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->argv->v[i]));
	if (f->parsed)
		cJSON_AddItemToObject(o, "argv", a);
	else {
		cJSON_Delete(a);
		cJSON_AddNullToObject(o, "argv");
	}
	cJSON_AddStringToObject(o, "output", f->perr ? f->perr : c->output);
	add_str_or_null(o, "error",
			f->perr ? f->perr + strlen("Args parsing error: ")
				: c->error);
	cJSON_AddBoolToObject(o, "compression", f->compression);
	cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
	cJSON_AddNumberToObject(o, "leftover_processes", c->leftover_processes);
	cJSON_AddItemToObject(o, "signals",
			      pc_fire_sigs_json(f->parsed && !f->perr ? &c->sigs
								      : NULL));
	pc_cli_print_json(o);
}

static void print_call_human(const struct fired *f)
{
	cJSON *a = cJSON_CreateArray();
	const struct pc_chatcli_call *c = f->c;
	char *s;

	for (size_t i = 0; i < f->argv->nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->argv->v[i]));
	s = cJSON_PrintUnformatted(a);
	if (f->calls && f->calls->nr)
		printf("call: %s (%s) args: %s%s\n", f->calls->v[0].name,
		       f->calls->v[0].form, f->calls->v[0].args,
		       f->calls->nr > 1 ? " (the first of several; the host "
					  "runs them in order, stopping at "
					  "the first error)"
					: "");
	if (f->perr) {
		printf("not run: %s\n", f->perr);
	} else if (!f->parsed) {
		printf("not run: no tool call in the reply\n");
	} else {
		printf("argv: %s\n%s: %lld ms%s\n", f->parsed ? s : "-",
		       c->error ? c->error : "ok", (long long)c->duration_ms,
		       c->capped ? " (stopped at plugcheck's cap)" : "");
		if (c->leftover_processes)
			printf("leftover processes killed: %d\n",
			       c->leftover_processes);
		pc_fire_print_sigs(stdout, &c->sigs);
		if (f->compression)
			printf("note: %zu bytes reach the host's compression "
			       "threshold; the model may get a compressed view "
			       "(not reproduced) instead of the text below\n",
			       c->merged_len);
		printf("--- what the model receives (%zu bytes) ---\n%s\n",
		       c->output_len, c->output);
	}
	free(s);
	cJSON_Delete(a);
}

int pc_chatcli_fire(const struct pc_args *a)
{
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	struct pc_chatcli_tool_calls calls = PC_CHATCLI_TOOL_CALLS_INIT;
	struct pc_strvec av = PC_STRVEC_INIT;
	struct fired fd = { 0 };
	const char *args = "", *reply = NULL, *ws = pc_args_value(a, "workspace");
	const char *fmt_s = pc_args_value(a, "format");
	char *perr = NULL, *abs, *file = NULL;
	int fmt = fmt_s && !strcmp(fmt_s, "json") ? PC_FMT_JSON : PC_FMT_HUMAN;
	int rc = PC_EXIT_OK;
	bool ran = false;

	if (strcmp(a->pos[0], "call"))
		return pc_cli_usage_error("fire", "'%s' is a ChatCLI plugin: its only point is `call` (plugcheck fire call EXE --args TEXT)",
					  a->pos[1]);
	if (pc_args_value(a, "args"))
		args = pc_args_value(a, "args");
	if (pc_args_value(a, "call"))
		reply = pc_args_value(a, "call");
	if (pc_args_value(a, "args-file") || pc_args_value(a, "call-file")) {
		bool is_args = pc_args_value(a, "args-file") != NULL;

		file = pc_cli_read_arg_file(is_args ? "args-file" : "call-file",
					    pc_args_value(a, is_args ? "args-file"
								     : "call-file"));
		if (!file)
			return PC_EXIT_USAGE;
		*(is_args ? &args : &reply) = file;
	}
	abs = pc_fs_absolute(a->pos[1]);
	if (reply) {
		fd.calls = &calls;
		if (!pc_chatcli_parse_calls(reply, &calls))
			fprintf(stderr,
				"plugcheck: no tool call in the reply: the host "
				"runs nothing (spec chatcli.md A1)\n");
	}
	if ((!reply || calls.nr) &&
	    !(reply ? pc_chatcli_recovered_to_argv(calls.v[0].args, &av, &perr)
		    : pc_chatcli_args_to_argv(args, &av, &perr))) {
		o.path = abs;
		o.args = &av;
		o.cwd = ws;
		o.on_line = fmt == PC_FMT_HUMAN ? live_line : NULL;
		if (pc_chatcli_call(&o, &c, NULL))
			rc = PC_EXIT_INTERNAL;
		ran = true;
	}
	if (!c.output)
		c.output = pc_xstrdup("");
	if (rc == PC_EXIT_OK) {
		fd.argv = &av;
		fd.parsed = ran;
		fd.c = &c;
		fd.perr = perr;
		fd.compression =
			ran && !c.error &&
			pc_chatcli_compression_applies(
				c.merged_len, getenv("CHATCLI_COMPRESSION"),
				getenv("CHATCLI_COMPRESSION_THRESHOLD"));
		if (fmt == PC_FMT_JSON)
			print_call_json(&fd);
		else
			print_call_human(&fd);
		rc = !ran || c.error ? PC_EXIT_FINDINGS : PC_EXIT_OK;
	}
	free(perr);
	free(abs);
	free(file);
	pc_chatcli_call_release(&c);
	pc_chatcli_tool_calls_release(&calls);
	pc_strvec_release(&av);
	return rc;
}

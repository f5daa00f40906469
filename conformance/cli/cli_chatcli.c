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
	/* Go strings: a NUL inside a value is kept (M4) */
	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "name",
			      pc_chatcli_json_string(m->name, m->name_len));
	cJSON_AddItemToObject(o, "description",
			      pc_chatcli_json_string(m->description,
						     m->description_len));
	cJSON_AddItemToObject(o, "usage",
			      pc_chatcli_json_string(m->usage, m->usage_len));
	cJSON_AddItemToObject(o, "version",
			      pc_chatcli_json_string(m->version,
						     m->version_len));
	return o;
}

/* schema_json - the schema as the host keeps it (S2): its exact text,
 * which json.Valid accepted (1e400, big integers and lone surrogate
 * escapes stay as they are), or null. */
static cJSON *schema_json(const struct pc_chatcli_entry *e)
{
	const char *p = e->probe.schema;
	size_t n = p ? strlen(p) : 0;
	cJSON *raw;
	char *t;

	if (!p)
		return cJSON_CreateNull();
	while (n && strchr(" \t\r\n", p[n - 1]))
		n--;
	while (n && strchr(" \t\r\n", *p))
		p++, n--;
	t = pc_xmemdup(p, n);
	raw = cJSON_CreateRaw(t);
	free(t);
	return raw;
}

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* add_name - the registered name, a Go string, or null. */
static void add_name(cJSON *o, const struct pc_chatcli_entry *e)
{
	if (e->probe.loaded)
		cJSON_AddItemToObject(o, "name",
				      pc_chatcli_json_string(e->probe.meta.name,
							     e->probe.meta.name_len));
	else
		cJSON_AddNullToObject(o, "name");
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
		add_name(p, e);
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
	if (r->loaded && first)
		add_name(o, first);
	else
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

static int chatcli_lint(void *ctx)
{
	const struct pc_args *a = ctx;
	struct copts c = { .ignore = PC_STRVEC_INIT };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	const char *fmt = pc_args_value(a, "format");
	int rc;

	copts_from(a, &c);
	rc = run_suite(&c, false, &d, &r);
	if (rc < 0) {
		int f = fmt ? pc_report_format_parse(fmt)
			    : pc_cli_default_format();

		pc_report_finish(&r);
		if (f == PC_REPORT_JSON)
			pc_cli_print_json(lint_json(&d, &r));
		else
			pc_report_write(&r, (enum pc_report_format)f, stdout,
					f == PC_REPORT_HUMAN && pc_cli_color());
		rc = !r.loaded ? PC_EXIT_NOLOAD
		     : r.counts.errors ? PC_EXIT_FINDINGS
				       : PC_EXIT_OK;
	}
	release(&c, &d, &r);
	return rc;
}

static int chatcli_check(void *ctx)
{
	const struct pc_args *a = ctx;
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

/* --- fire call --remote (R1-R3) ------------------------------------------- */

/* fire_probe - the plugin's --metadata and --schema, as a host (the
 * local one, or the server) loaded it: its name and schema. */
static void fire_probe(const char *path, const char *cwd,
		       struct pc_chatcli_probe *p)
{
	if (pc_chatcli_probe(path, NULL, cwd, 10000, p, NULL)) {
		pc_chatcli_probe_release(p);
		*p = (struct pc_chatcli_probe)PC_CHATCLI_PROBE_INIT;
	}
}

/* fire_remote - the call through `chatcli connect` to a server that has
 * the plugin, as a user of `role` (NULL: admin). */
static int fire_remote(const struct pc_chatcli_call_opts *o,
		       const char *role, const struct pc_chatcli_probe *p,
		       struct pc_chatcli_call *c)
{
	struct pc_chatcli_remote_opts r = { role, p };

	return pc_chatcli_remote_call(o, &r, c, NULL);
}

static void fire_remote_json(cJSON *o, const struct pc_chatcli_call *c)
{
	cJSON *r = cJSON_CreateObject();

	add_str_or_null(r, "hidden", c->remote_hidden);
	add_str_or_null(r, "discovery_error", c->remote_detail);
	cJSON_AddItemToObject(o, "remote", r);
}

static void fire_remote_human(const struct pc_chatcli_call *c)
{
	if (c->remote_hidden)
		printf("remote: the client does not list the plugin: %s%s%s\n",
		       c->remote_hidden, c->remote_detail ? "; the host drops " : "",
		       c->remote_detail ? c->remote_detail : "");
}

/* --- fire call ------------------------------------------------------------ */

static void live_line(void *ctx, bool is_err, const char *line, size_t n)
{
	(void)ctx;
	if (is_err)
		fputs("ERR: ", stderr);
	fwrite(line, 1, n, stderr);
	fputc('\n', stderr);
}

/* What fire call ran: the parsed call (--call) and the verdict. */
struct fired {
	const struct pc_chatcli_tool_calls *calls; /* NULL: --args */
	const struct pc_chatcli_argv *argv;
	bool parsed;
	const struct pc_chatcli_call *c;
	const char *perr;
	bool remote;
};

static cJSON *go_string(const char *p, size_t n)
{
	return pc_chatcli_json_string(p, n);
}

static void print_call_json(const struct fired *f)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
	const struct pc_chatcli_call *c = f->c;

	if (f->calls) {
		cJSON *k = cJSON_CreateObject();
		const struct pc_chatcli_tool_call *t = &f->calls->v[0];

		if (f->calls->nr && !f->calls->panic) {
			cJSON_AddItemToObject(k, "name",
					      go_string(t->name, t->name_len));
			cJSON_AddItemToObject(k, "args",
					      go_string(t->args, t->args_len));
			cJSON_AddStringToObject(k, "form", t->form);
			cJSON_AddItemToObject(o, "call", k);
		} else {
			cJSON_Delete(k);
			cJSON_AddNullToObject(o, "call");
		}
		cJSON_AddNumberToObject(o, "calls", (double)f->calls->nr);
		add_str_or_null(o, "panic", f->calls->panic);
	}
	for (size_t i = 0; i < f->argv->nr; i++)
		cJSON_AddItemToArray(a, go_string(f->argv->v[i].p,
						  f->argv->v[i].n));
	if (f->parsed)
		cJSON_AddItemToObject(o, "argv", a);
	else {
		cJSON_Delete(a);
		cJSON_AddNullToObject(o, "argv");
	}
	if (f->perr)
		cJSON_AddStringToObject(o, "output", f->perr);
	else
		cJSON_AddItemToObject(o, "output",
				      go_string(c->output, c->output_len));
	add_str_or_null(o, "error",
			f->perr ? f->perr + strlen("Args parsing error: ")
				: c->error);
	cJSON_AddBoolToObject(o, "compression", c->compression_engaged);
	cJSON_AddStringToObject(o, "compressor",
				c->compression ? c->compression
					       : "passthrough");
	add_str_or_null(o, "ccr_key", *c->ccr_key ? c->ccr_key : NULL);
	if (f->remote)
		fire_remote_json(o, c);
	cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
	cJSON_AddNumberToObject(o, "leftover_processes", c->leftover_processes);
	cJSON_AddItemToObject(o, "signals",
			      pc_fire_sigs_json(f->parsed && !f->perr ? &c->sigs
								      : NULL));
	pc_cli_print_json(o);
}

static void print_call_human(const struct fired *f)
{
	const struct pc_chatcli_call *c = f->c;
	const struct pc_chatcli_tool_call *t =
		f->calls && f->calls->nr ? &f->calls->v[0] : NULL;
	cJSON *a = cJSON_CreateArray();
	char *s;

	for (size_t i = 0; i < f->argv->nr; i++)
		cJSON_AddItemToArray(a, go_string(f->argv->v[i].p,
						  f->argv->v[i].n));
	s = cJSON_PrintUnformatted(a);
	if (t && !f->calls->panic) {
		fputs("call: ", stdout);
		fwrite(t->name, 1, t->name_len, stdout);
		printf(" (%s) args: ", t->form);
		fwrite(t->args, 1, t->args_len, stdout);
		printf("%s\n", f->calls->nr > 1
				       ? " (the first of several; the host runs them in order, stopping at the first error)"
				       : "");
	}
	if (f->calls && f->calls->panic) {
		printf("not run: the host's tool-call parser panics (%s): ChatCLI crashes\n",
		       f->calls->panic);
	} else if (f->perr) {
		printf("not run: %s\n", f->perr);
	} else if (!f->parsed) {
		printf("not run: no tool call in the reply\n");
	} else {
		printf("argv: %s\n%s: %lld ms%s\n", s,
		       c->error ? c->error : "ok", (long long)c->duration_ms,
		       c->capped ? " (stopped at plugcheck's cap)" : "");
		if (f->remote)
			fire_remote_human(c);
		if (c->leftover_processes)
			printf("leftover processes killed: %d\n",
			       c->leftover_processes);
		pc_fire_print_sigs(stdout, &c->sigs);
		if (c->compression && strcmp(c->compression, "passthrough"))
			printf("compression: %zu bytes became %zu (%s%s%s%s)\n",
			       c->merged_len, c->output_len, c->compression,
			       *c->ccr_key ? ", the whole output is <<ccr:" : "",
			       c->ccr_key, *c->ccr_key ? ">> for @recall" : "");
		printf("--- what the model receives (%zu bytes) ---\n",
		       c->output_len);
		fwrite(c->output, 1, c->output_len, stdout);
		fputc('\n', stdout);
	}
	free(s);
	cJSON_Delete(a);
}

static int chatcli_fire(void *ctx)
{
	const struct pc_args *a = ctx;
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	struct pc_chatcli_tool_calls calls = PC_CHATCLI_TOOL_CALLS_INIT;
	struct pc_chatcli_argv av = PC_CHATCLI_ARGV_INIT;
	struct pc_chatcli_probe probe = PC_CHATCLI_PROBE_INIT;
	struct fired fd = { 0 };
	const char *args = "", *reply = NULL, *ws = pc_args_value(a, "workspace");
	const char *fmt_s = pc_args_value(a, "format");
	const char *role = pc_args_value(a, "role");
	size_t args_len = 0, reply_len = 0;
	char *perr = NULL, *abs, *file = NULL;
	int fmt = fmt_s && !strcmp(fmt_s, "json") ? PC_FMT_JSON : PC_FMT_HUMAN;
	int rc = PC_EXIT_OK;
	bool ran = false, remote = pc_args_flag(a, "remote");

	if (strcmp(a->pos[0], "call"))
		return pc_cli_usage_error("fire", "'%s' is a ChatCLI plugin: its only point is `call` (plugcheck fire call EXE --args TEXT)",
					  a->pos[1]);
	if (role && !remote)
		return pc_cli_usage_error("fire", "--role needs --remote (it is the role of a `chatcli connect` client)");
	if (pc_args_value(a, "args")) {
		args = pc_args_value(a, "args");
		args_len = strlen(args);
	}
	if (pc_args_value(a, "call")) {
		reply = pc_args_value(a, "call");
		reply_len = strlen(reply);
	}
	if (pc_args_value(a, "args-file") || pc_args_value(a, "call-file")) {
		bool is_args = pc_args_value(a, "args-file") != NULL;
		size_t n = 0;

		file = pc_cli_read_arg_file(is_args ? "args-file" : "call-file",
					    pc_args_value(a, is_args ? "args-file"
								     : "call-file"),
					    &n);
		if (!file)
			return PC_EXIT_USAGE;
		*(is_args ? &args : &reply) = file;
		*(is_args ? &args_len : &reply_len) = n;
	}
	abs = pc_fs_absolute(a->pos[1]);
	if (reply) {
		fd.calls = &calls;
		if (!pc_chatcli_parse_calls(reply, reply_len, &calls) &&
		    !calls.panic)
			fprintf(stderr,
				"plugcheck: no tool call in the reply: the host "
				"runs nothing (spec chatcli.md A1)\n");
	}
	/* the name the model calls it by: the call's, else the registered
	 * one (the compression layer routes by it; the remote client looks
	 * it up) */
	if (remote || !reply)
		fire_probe(abs, ws, &probe);
	if (reply && calls.nr && !calls.panic) {
		o.tool = calls.v[0].name;
		o.tool_len = calls.v[0].name_len;
	} else if (probe.loaded) {
		o.tool = probe.meta.name;
		o.tool_len = probe.meta.name_len;
	}
	if ((!reply || (calls.nr && !calls.panic)) &&
	    !(reply ? pc_chatcli_recovered_to_argv(calls.v[0].args,
						   calls.v[0].args_len, &av,
						   &perr)
		    : pc_chatcli_args_to_argv(args, args_len, &av, &perr))) {
		o.path = abs;
		o.args = &av;
		o.cwd = ws;
		o.on_line = fmt == PC_FMT_HUMAN ? live_line : NULL;
		if (remote ? fire_remote(&o, role, &probe, &c)
			   : pc_chatcli_call(&o, &c, NULL))
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
		fd.remote = remote;
		if (fmt == PC_FMT_JSON)
			print_call_json(&fd);
		else
			print_call_human(&fd);
		rc = !ran || c.error ? PC_EXIT_FINDINGS : PC_EXIT_OK;
	}
	free(perr);
	free(abs);
	free(file);
	pc_chatcli_probe_release(&probe);
	pc_chatcli_call_release(&c);
	pc_chatcli_tool_calls_release(&calls);
	pc_chatcli_argv_release(&av);
	return rc;
}

int pc_chatcli_fire(const struct pc_args *a)
{
	/* in a worker: `kill -9 $PPID` in the plugin reaches it, not us */
	return pc_cli_isolated("fire call", chatcli_fire, (void *)a);
}

/* The probes and calls run in a worker (pc_cli_isolated): a plugin that
 * kills or stops its parent reaches it, not plugcheck. */
int pc_chatcli_lint(const struct pc_args *a)
{
	return pc_cli_isolated("lint", chatcli_lint, (void *)a);
}

int pc_chatcli_check(const struct pc_args *a)
{
	return pc_cli_isolated("check", chatcli_check, (void *)a);
}

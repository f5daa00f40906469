/* cli_chatcli.c - `plugcheck lint|check EXE|DIR` and `plugcheck fire call
 * EXE` for ChatCLI plugins (docs/chatcli.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli_cli.h"
#include "pc_chatcli_suite.h"
#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_xalloc.h"

static const char lint_usage[] =
	"usage: plugcheck lint EXE|DIR [--host chatcli|catalyst] [--trusted-keys DIR] [--format human|json]\n\n"
	"Load a ChatCLI plugin (an executable, or a plugins directory) as the host\n"
	"does: signature, `--metadata`, `--schema`; report the registered name and\n"
	"the static findings. The probes run with a scratch HOME and working\n"
	"directory, bounded by plugcheck's own timeout.\n\n"
	"Exit: 0 loaded, 1 a finding of severity error, 2 usage, 3 not loaded.\n";

static const char check_usage[] =
	"usage: plugcheck check EXE|DIR [--host chatcli|catalyst] [--trusted-keys DIR]\n"
	"                      [--format human|json|junit|tap] [--output FILE]\n"
	"                      [--strict] [--ignore ID]\n\n"
	"The ChatCLI conformance suite: everything lint does, plus the probes'\n"
	"determinism and side effects and representative model calls generated\n"
	"from the schema (JSON form with cmd, text form).\n\n"
	"Exit: 0 clean, 1 errors (or warnings with --strict), 2 usage, 3 not loaded,\n"
	"70 interrupted (the report is marked incomplete).\n";

static const char fire_usage[] =
	"usage: plugcheck fire call EXE [--args TEXT | --args-file FILE |\n"
	"                                --call REPLY | --call-file FILE]\n"
	"                           [--workspace DIR] [--format human|json]\n"
	"                           [--remote [--role admin|user|readonly]]\n\n"
	"Run one model call as ChatCLI does: TEXT is the tool call's args value\n"
	"as the model wrote it (after attribute decoding); REPLY is the model's\n"
	"whole reply, e.g. '<tool_call name=\"@x\" args=\"run --n 1\" />', from\n"
	"which the host's parser takes the first call (spec §4 A1-A3). The args\n"
	"become argv (A4-A8), the plugin runs with stdin at EOF and the full\n"
	"environment (CHATCLI_AGENT_PLUGIN_TIMEOUT applies), and the merged\n"
	"stdout/stderr, after the host's compression and truncation, is what the\n"
	"model receives. --remote runs the call as `chatcli server` does for a\n"
	"client of `chatcli connect` with --role (default admin: no\n"
	"authentication or the shared token) and shows what the client gets.\n";

char *pc_chatcli_default_keys(void)
{
	const char *home = getenv("HOME");

	return pc_fs_join(home ? home : "/", ".chatcli/trusted-keys");
}

static bool takes_value(const char *opt)
{
	static const char *const v[] = { "--format", "--output", "--ignore",
					 "--repeat", "--trusted-keys", "-j",
					 "--jobs" };

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++)
		if (!strcmp(opt, v[i]))
			return true;
	return false;
}

struct copts {
	int fmt;
	const char *output, *path;
	char *keys;
	bool strict;
	struct pc_strvec ignore;
};

/* parse - the options of the ChatCLI lint/check; returns -1 to go on,
 * else an exit code. */
static int parse(int argc, char **argv, bool check, struct copts *c)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "host", required_argument, NULL, 'H' },
		{ "trusted-keys", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *usage = check ? check_usage : lint_usage;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return PC_EXIT_OK;
		} else if (ch == 'f' &&
			   (c->fmt = pc_report_format_parse(optarg)) >= 0 &&
			   (check || c->fmt <= PC_REPORT_JSON)) {
			continue;
		} else if (ch == 'k') {
			free(c->keys);
			c->keys = pc_xstrdup(optarg);
		} else if (ch == 'H' || (ch == 'r' && check)) {
			continue;
		} else if (check && ch == 'o') {
			c->output = pc_cli_output_path(optarg);
		} else if (check && ch == 's') {
			c->strict = true;
		} else if (check && ch == 'i' && pc_rule_find(optarg)) {
			pc_strvec_push(&c->ignore, optarg);
		} else {
			fputs(usage, stderr);
			return PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	c->path = argv[optind];
	if (!c->keys)
		c->keys = pc_chatcli_default_keys();
	return -1;
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
		pc_strvec_push(&r->suppressed_ids, c->ignore.v[i]);
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
	cJSON_AddItemToObject(o, "findings", pc_findings_json(&r->findings));
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

static int pc_chatcli_lint(int argc, char **argv)
{
	struct copts c = { .fmt = PC_REPORT_HUMAN, .ignore = PC_STRVEC_INIT };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	int rc = parse(argc, argv, false, &c);

	if (rc < 0)
		rc = run_suite(&c, false, &d, &r);
	if (rc < 0) {
		if (c.fmt == PC_REPORT_JSON)
			pc_cli_print_json(lint_json(&d, &r));
		else
			pc_report_write(&r, PC_REPORT_HUMAN, stdout,
					pc_cli_color());
		rc = !r.loaded ? PC_EXIT_NOLOAD
		     : pc_findings_count(&r.findings, PC_SEV_ERROR)
			     ? PC_EXIT_FINDINGS
			     : PC_EXIT_OK;
	}
	release(&c, &d, &r);
	return rc;
}

static int pc_chatcli_check(int argc, char **argv)
{
	struct copts c = { .fmt = PC_REPORT_HUMAN, .ignore = PC_STRVEC_INIT };
	struct pc_chatcli_dir d = PC_CHATCLI_DIR_INIT;
	struct pc_report r = PC_REPORT_INIT;
	int rc = parse(argc, argv, true, &c);
	FILE *f;

	if (rc < 0)
		rc = run_suite(&c, true, &d, &r);
	if (rc >= 0)
		goto out;
	if (c.output && (f = fopen(c.output, "w")) != NULL) {
		pc_report_write(&r, (enum pc_report_format)c.fmt, f, false);
		fclose(f);
		pc_report_write(&r, PC_REPORT_HUMAN, stdout, pc_cli_color());
	} else if (c.output) {
		perror(c.output);
		rc = PC_EXIT_INTERNAL;
		goto out;
	} else {
		pc_report_write(&r, (enum pc_report_format)c.fmt, stdout,
				c.fmt == PC_REPORT_HUMAN && pc_cli_color());
	}
	rc = !r.loaded && !r.name   ? PC_EXIT_NOLOAD
	     : pc_report_failed(&r) ? PC_EXIT_FINDINGS
				    : PC_EXIT_OK;
out:
	release(&c, &d, &r);
	return rc;
}

int pc_chatcli_cli_route(int *argc, char **argv, const char *cmd)
{
	const char *host = NULL, *path = NULL;
	bool sandbox = false, jobs = false;
	int w = 1, n = *argc;

	for (int i = 1; i < n; i++) {
		const char *a = argv[i];

		if (pc_cli_host_opt(argv, n, &i, &host))
			continue;
		argv[w++] = argv[i];
		if (!strncmp(a, "-j", 2) || !strncmp(a, "--jobs", 6))
			jobs = true;
		if (takes_value(a) && i + 1 < n)
			argv[w++] = argv[++i];
		else if (a[0] != '-' && !path)
			path = a;
		else if (!strcmp(a, "--sandbox"))
			sandbox = true;
	}
	*argc = w;
	argv[w] = NULL;
	if (host && strcmp(host, "chatcli") && strcmp(host, "catalyst")) {
		fprintf(stderr,
			"plugcheck: --host must be chatcli or catalyst\n");
		return PC_EXIT_USAGE;
	}
	if (host ? !strcmp(host, "catalyst")
		 : !path || pc_chatcli_detect(path) != PC_CONTRACT_CHATCLI)
		return -1;
	if (sandbox && !strcmp(cmd, "check")) {
		/* the sandbox enforces Catalyst capabilities (catalyst-code.md
		 * R3.1); an external ChatCLI plugin cannot declare any
		 * (chatcli.md C1), so there is nothing to enforce */
		fprintf(stderr,
			"plugcheck: %s: --sandbox is for Catalyst Code plugins only; '%s' is a ChatCLI plugin, which declares no capabilities to enforce; fix: drop --sandbox\n",
			cmd, path ? path : "PATH");
		return PC_EXIT_USAGE;
	}
	if (jobs && !strcmp(cmd, "check")) {
		/* the ChatCLI suite has no units to share out: its probes and
		 * calls run one at a time, as the host runs them (chatcli.md) */
		fprintf(stderr,
			"plugcheck: %s: -j/--jobs is for Catalyst Code plugins only; '%s' is a ChatCLI plugin, whose probes and calls run one at a time; fix: drop -j\n",
			cmd, path ? path : "PATH");
		return PC_EXIT_USAGE;
	}
	return !strcmp(cmd, "lint") ? pc_chatcli_lint(*argc, argv)
				    : pc_chatcli_check(*argc, argv);
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

int pc_chatcli_fire_call(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "args", required_argument, NULL, 'a' },
		{ "args-file", required_argument, NULL, 'A' },
		{ "call", required_argument, NULL, 'c' },
		{ "call-file", required_argument, NULL, 'C' },
		{ "workspace", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "sandbox", no_argument, NULL, 'X' },
		{ "remote", no_argument, NULL, 'R' },
		{ "role", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_buf file = PC_BUF_INIT(64 << 20);
	struct pc_chatcli_call_opts o = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call c = PC_CHATCLI_CALL_INIT;
	struct pc_chatcli_tool_calls calls = PC_CHATCLI_TOOL_CALLS_INIT;
	struct pc_chatcli_argv av = PC_CHATCLI_ARGV_INIT;
	struct pc_chatcli_probe probe = PC_CHATCLI_PROBE_INIT;
	struct fired fd = { 0 };
	const char *args = "", *reply = NULL, *ws = NULL, *role = NULL;
	size_t args_len = 0, reply_len = 0;
	char *perr = NULL, *abs;
	int fmt = PC_FMT_HUMAN, ch, rc = PC_EXIT_OK, sources = 0;
	bool ran = false, remote = false;

	optind = 2;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(fire_usage, stdout);
			return PC_EXIT_OK;
		} else if (ch == 'a' || ch == 'c') {
			*(ch == 'a' ? &args : &reply) = optarg;
			*(ch == 'a' ? &args_len : &reply_len) = strlen(optarg);
			sources++;
		} else if ((ch == 'A' || ch == 'C') && !file.len &&
			   !pc_fs_read_capped(optarg, &file, NULL)) {
			*(ch == 'A' ? &args : &reply) = pc_buf_cstr(&file);
			*(ch == 'A' ? &args_len : &reply_len) = file.len;
			sources++;
		} else if (ch == 'w') {
			ws = optarg;
		} else if (ch == 'R') {
			remote = true;
		} else if (ch == 'r') {
			role = optarg;
		} else if (ch == 'X') {
			/* as `check --sandbox` on a ChatCLI plugin (chatcli.md
			 * C1: nothing declared to enforce) */
			fputs("plugcheck: fire call: --sandbox is for Catalyst Code plugins only; a ChatCLI plugin declares no capabilities to enforce; fix: drop --sandbox\n",
			      stderr);
			pc_buf_release(&file);
			return PC_EXIT_USAGE;
		} else if (ch != 'f' || (fmt = pc_cli_format(optarg)) < 0) {
			if (ch == 'A' || ch == 'C')
				fprintf(stderr, "plugcheck: cannot read %s\n",
					optarg);
			fputs(fire_usage, stderr);
			pc_buf_release(&file);
			return PC_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || sources > 1 || (role && !remote)) {
		fputs(fire_usage, stderr);
		pc_buf_release(&file);
		return PC_EXIT_USAGE;
	}
	abs = pc_fs_absolute(argv[optind]);
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
	pc_chatcli_probe_release(&probe);
	pc_chatcli_call_release(&c);
	pc_chatcli_tool_calls_release(&calls);
	pc_chatcli_argv_release(&av);
	pc_buf_release(&file);
	return rc;
}

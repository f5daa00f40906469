#define _GNU_SOURCE /* memmem */
/* pc_chatcli_suite.c - the PC-CHAT-* checks over the ChatCLI reference
 * host. See pc_chatcli_suite.h; rule texts live in pc_finding.c. */
#include "pc_chatcli_suite.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_fs.h"
#include "pc_xalloc.h"

extern char **environ;

#define SLOW_MS 1000

enum pc_contract_kind pc_chatcli_detect(const char *path)
{
	struct stat st;
	enum pc_contract_kind c = PC_CONTRACT_CATALYST;
	char *manifest;
	DIR *d;
	struct dirent *de;

	if (stat(path, &st) < 0)
		return c;
	if (S_ISREG(st.st_mode))
		return st.st_mode & 0111 ? PC_CONTRACT_CHATCLI : c;
	manifest = pc_fs_join(path, "plugin.json");
	if (pc_fs_is_file(manifest) || !(d = opendir(path))) {
		free(manifest);
		return c;
	}
	free(manifest);
	while (c == PC_CONTRACT_CATALYST && (de = readdir(d))) {
		char *p = pc_fs_join(path, de->d_name);

		if (de->d_name[0] != '.' && stat(p, &st) == 0 &&
		    S_ISREG(st.st_mode) && (st.st_mode & 0111))
			c = PC_CONTRACT_CHATCLI;
		free(p);
	}
	closedir(d);
	return c;
}

/* --- helpers ------------------------------------------------------------ */

struct ctx {
	const struct pc_chatcli_suite_opts *o;
	struct pc_report *r;
	struct pc_strvec env; /* ours, with HOME moved to a scratch dir */
	char *tmp, *cwd, *home;
	size_t k; /* the open case (chat_begin), or PC_REPORT_NO_CASE */
};

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool empty = true;

	while (d && empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return empty;
}

static void scrub_dir(const char *path)
{
	pc_fs_rm_rf(path);
	pc_fs_mkdir_p(path, NULL);
}

static char *class_of(const char *file)
{
	return file ? pc_xasprintf("plugcheck.chatcli.%s", file)
		    : pc_xstrdup("plugcheck.chatcli");
}

/* A case of `file` for `what`; the findings chat_find adds go to it until
 * chat_end. Returns its index. */
static size_t chat_begin(struct ctx *c, const char *file, const char *what)
{
	char *cls = class_of(file);

	c->k = pc_report_add_case(c->r, cls, what, NULL, 0.0);
	free(cls);
	return c->k;
}

static void chat_end(struct ctx *c)
{
	c->k = PC_REPORT_NO_CASE;
}

/* A finding about `file`: in the open case, else in the case "<ID>
 * <title>" of the file's class. */
static void chat_find(struct ctx *c, const char *id, const char *file,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void chat_find(struct ctx *c, const char *id, const char *file,
		      const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	va_list ap;
	char *cls;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (c->k != PC_REPORT_NO_CASE) {
		pc_report_find(c->r, c->k, id, file, NULL, "%s", pc_buf_cstr(&b));
	} else {
		cls = class_of(file);
		pc_report_find_static(c->r, cls, id, file, NULL, "%s",
				      pc_buf_cstr(&b));
		free(cls);
	}
	pc_buf_release(&b);
}

/* True once the run was asked to stop: then `what` becomes a skipped
 * case and the report is incomplete (README "Ctrl-C"). */
static bool cut(struct ctx *c, const char *file, const char *what)
{
	char *cls;

	if (!c->o->stop || !*c->o->stop)
		return false;
	c->r->incomplete = true;
	cls = class_of(file);
	pc_report_skip(c->r, pc_report_add_case(c->r, cls, what, NULL, 0.0),
		       "interrupted: plugcheck was stopped before this ran");
	free(cls);
	return true;
}

static const cJSON *get_fold(const cJSON *o, const char *k)
{
	const cJSON *it, *found = NULL;

	cJSON_ArrayForEach(it, o)
	{
		if (!strcmp(it->string, k))
			return it;
		if (!found && !strcasecmp(it->string, k))
			found = it;
	}
	return found;
}

/* --- S4: what the prompt shows ------------------------------------------- */

static bool all_kind(const cJSON *arr, bool (*is)(const cJSON *))
{
	const cJSON *it;

	if (cJSON_IsNull(arr) || !arr)
		return true;
	if (!cJSON_IsArray(arr))
		return false;
	cJSON_ArrayForEach(it, arr)
	{
		if (!cJSON_IsNull(it) && !is(it))
			return false;
	}
	return true;
}

static bool str_or_null(const cJSON *v)
{
	return !v || cJSON_IsNull(v) || cJSON_IsString(v);
}

static bool is_str(const cJSON *v)
{
	return cJSON_IsString(v);
}

static bool flag_ok(const cJSON *f)
{
	const cJSON *req = get_fold(f, "required");

	return cJSON_IsObject(f) && str_or_null(get_fold(f, "name")) &&
	       str_or_null(get_fold(f, "description")) &&
	       str_or_null(get_fold(f, "type")) &&
	       str_or_null(get_fold(f, "default")) &&
	       (!req || cJSON_IsNull(req) || cJSON_IsBool(req));
}

static bool sub_ok(const cJSON *s)
{
	return cJSON_IsObject(s) && str_or_null(get_fold(s, "name")) &&
	       str_or_null(get_fold(s, "description")) &&
	       all_kind(get_fold(s, "examples"), is_str) &&
	       all_kind(get_fold(s, "flags"), flag_ok);
}

/* schema_subcommands - the decoded subcommands array, NULL (none) or
 * (const cJSON *)-1 when the host's decode fails (usage shown). */
static int schema_shape(const cJSON *s, const cJSON **subs)
{
	*subs = NULL;
	if (cJSON_IsNull(s))
		return 0;
	if (!cJSON_IsObject(s) || !str_or_null(get_fold(s, "argsFormat")) ||
	    !all_kind(get_fold(s, "subcommands"), sub_ok))
		return -1;
	*subs = get_fold(s, "subcommands");
	return cJSON_GetArraySize(*subs);
}

static void check_schema(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_probe *p = &e->probe;
	const struct pc_chatcli_run *sr = &p->schema_run;
	const cJSON *subs;
	cJSON *s;
	int n;

	if (sr->hung)
		chat_find(c, "PC-CHAT-010", e->file,
				"'%s --schema' did not finish within %lld ms",
				e->file, (long long)c->o->probe_timeout_ms);
	else if (sr->exit_code == 0 && sr->out_len &&
		 !pc_chatcli_json_check(sr->out, sr->out_len, NULL))
		chat_find(c, "PC-CHAT-014", e->file,
			"'%s --schema' exited 0 printing %zu bytes that are not JSON: it treated --schema as an argument",
			e->file, sr->out_len);
	if (!p->schema) {
		chat_find(c, "PC-CHAT-021", e->file,
			"'%s --schema' gives no JSON (exit %d): the model sees only usage \"%s\"",
			e->file, sr->exit_code, p->meta.usage);
		return;
	}
	s = cJSON_Parse(p->schema);
	n = schema_shape(s, &subs);
	if (n < 0)
		chat_find(c, "PC-CHAT-021", e->file,
			"the schema of '%s' does not decode into the host's argsFormat/subcommands shape: the model sees only the usage",
			e->file);
	else if (n == 0 && !get_fold(s, "argsFormat"))
		chat_find(c, "PC-CHAT-020", e->file,
			"the schema of '%s' decodes to no subcommands: the model sees an empty \"Subcomandos Disponíveis:\" and neither parameters nor usage",
			e->file);
	if (cJSON_IsObject(s) &&
	    cJSON_GetObjectItemCaseSensitive(s, "args_format"))
		chat_find(c, "PC-CHAT-022", e->file,
			"the schema of '%s' has args_format, which the host ignores",
			e->file);
	cJSON_Delete(s);
}

static bool mentions_stdin(const char *s)
{
	for (; *s; s++)
		if (!strncasecmp(s, "stdin", 5))
			return true;
	return false;
}

/* script_reads_stdin - for a script (a file starting with "#!", read up
 * to 1 MiB), the first of a few unambiguous ways of reading stdin that it
 * contains, or NULL. Compiled plugins are not inspected. */
static const char *script_reads_stdin(const char *path)
{
	static const char *const tokens[] = { "sys.stdin",     "/dev/stdin",
					      "process.stdin", "<STDIN>",
					      "$stdin",	       "io.stdin",
					      "os.Stdin",      NULL };
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	const char *found = NULL;

	if (!pc_fs_read_stream(path, &b, PC_FS_STREAM_MS, NULL) && b.len > 2 &&
	    !memcmp(b.data, "#!", 2))
		for (size_t i = 0; tokens[i] && !found; i++)
			if (memmem(b.data, b.len, tokens[i], strlen(tokens[i])))
				found = tokens[i];
	pc_buf_release(&b);
	return found;
}

/* --- metadata, names --------------------------------------------------- */

static void check_meta(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_meta *m = &e->probe.meta;
	const char *fields[] = { m->name, m->description, m->usage,
				 m->version };
	const char *names[] = { "name", "description", "usage", "version" };
	const char *nm = m->name, *tok;

	for (size_t i = 0; i < 4; i++)
		if (!*fields[i])
			chat_find(c, "PC-CHAT-002", e->file,
					"'%s --metadata' has no %s", e->file,
					names[i]);
	if (*nm && nm[0] != '@')
		chat_find(c, "PC-CHAT-003", e->file,
			"'%s' registers as \"%s\": the model's @%s does not find it",
			e->file, nm, nm);
	/* only the bare form: a call named "@mcp_x" is not routed to MCP */
	if (!strncmp(nm, "mcp_", 4))
		chat_find(c, "PC-CHAT-004", e->file,
			"'%s' registers as \"%s\": a call named %s goes to the MCP manager",
			e->file, nm, nm);
	if (nm[0] == '_')
		chat_find(c, "PC-CHAT-009", e->file,
			"'%s' registers as \"%s\": remote users who are not admins do not see it",
			e->file, nm);
	if (strchr(nm, ':'))
		chat_find(c, "PC-CHAT-005", e->file,
				"'%s' registers as \"%s\"", e->file, nm);
	if (*nm && strcmp(nm + (nm[0] == '@'), e->file))
		chat_find(c, "PC-CHAT-006", e->file,
				"'%s' registers as \"%s\"", e->file, nm);
	if (pc_chatcli_is_builtin(nm))
		chat_find(c, "PC-CHAT-007", e->file,
			"'%s' registers as \"%s\", a builtin of the interactive CLI",
			e->file, nm);
	if ((tok = script_reads_stdin(e->path)) != NULL)
		chat_find(c, "PC-CHAT-044", e->file,
			"the script '%s' reads stdin (%s): the host connects stdin to /dev/null",
			e->file, tok);
	else if (mentions_stdin(m->usage) || mentions_stdin(m->description))
		chat_find(c, "PC-CHAT-044", e->file,
				"the metadata of '%s' mentions stdin", e->file);
}

/* reload_cost - D4, M1, S1: what this plugin adds to every reload. */
static void reload_cost(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_probe *p = &e->probe;
	int64_t ms = p->metadata_run.ms + p->schema_run.ms;
	char *cls = pc_xasprintf("plugcheck.chatcli.%s", e->file);
	char *out = pc_xasprintf(
		"--metadata %lld ms + --schema %lld ms, run at every reload (startup, every debounced watcher event, /plugin install, uninstall and reload) with the plugin manager's lock held",
		(long long)p->metadata_run.ms, (long long)p->schema_run.ms);

	pc_report_add_case(c->r, cls, "reload cost", out, (double)ms / 1000.0);
	free(out);
	free(cls);
}

static void check_probe_runs(struct ctx *c, const struct pc_chatcli_entry *e,
			     const struct pc_chatcli_probe *again)
{
	const struct pc_chatcli_probe *p = &e->probe;
	int64_t ms = p->metadata_run.ms > p->schema_run.ms ? p->metadata_run.ms
							   : p->schema_run.ms;

	if (ms > SLOW_MS)
		chat_find(c, "PC-CHAT-011", e->file,
				"a probe of '%s' took %lld ms", e->file,
				(long long)ms);
	if (again->loaded &&
	    (strcmp(p->metadata_run.out, again->metadata_run.out) ||
	     strcmp(p->schema_run.out, again->schema_run.out)))
		chat_find(c, "PC-CHAT-012", e->file,
			"two runs of '%s --metadata'/'--schema' printed different output",
			e->file);
	if (!dir_is_empty(c->cwd) || !dir_is_empty(c->home) ||
	    p->metadata_run.leftover_processes ||
	    p->schema_run.leftover_processes)
		chat_find(c, "PC-CHAT-013", e->file,
			"'%s --metadata'/'--schema' created files in the working directory or HOME, or left processes",
			e->file);
}

/* --- G, P ------------------------------------------------------------------
 */

static void check_signature(struct ctx *c, const struct pc_chatcli_entry *e)
{
	char *err = NULL;
	size_t nk = 0;
	const char *id = NULL;

	pc_chatcli_sig_verify(e->path, c->o->keys_dir, false, &err, &nk);
	chat_begin(c, e->file, "signature");
	if (!err) {
		chat_end(c);
		return;
	}
	if (!strcmp(err, "plugin signature file not found"))
		id = "PC-CHAT-050";
	else if (!strncmp(err, "invalid signature", 17) ||
		 !strncmp(err, "failed to read", 14))
		id = "PC-CHAT-051";
	else if (!strcmp(err, "no trusted public keys found"))
		id = "PC-CHAT-053";
	else
		id = "PC-CHAT-052";
	/* the location already names the file; the message is the host's
	 * error text byte for byte (G5, D11) */
	chat_find(c, id, e->file, "%s", err);
	chat_end(c);
	free(err);
}

static void check_perms(struct ctx *c, const struct pc_chatcli_entry *e)
{
	struct stat st;
	char *dir = pc_xstrdup(e->path);

	if (stat(e->path, &st) == 0 && (st.st_mode & 022))
		chat_find(c, "PC-CHAT-060", e->file,
				"'%s' has mode %04o", e->file,
				(unsigned)(st.st_mode & 07777));
	*strrchr(dir, '/') = '\0';
	if (stat(dir, &st) == 0 && (st.st_mode & 022) &&
	    !pc_report_has(c->r, "PC-CHAT-061", NULL))
		chat_find(c, "PC-CHAT-061", NULL,
				"'%s' has mode %04o", dir,
				(unsigned)(st.st_mode & 07777));
	free(dir);
}

/* --- A7, A8, X, O: representative calls ------------------------------------
 */

/* utf8_cut - at most `max` bytes of s[0..n), backed off to the start of
 * a UTF-8 sequence so that a message never ends inside a character. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
	size_t cut = n < max ? n : max;

	while (cut > 0 && cut < n && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	return cut;
}

static void judge_call(struct ctx *c, const struct pc_chatcli_entry *e,
		       const char *form, const char *args, const char *id)
{
	struct pc_chatcli_call_opts co = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call call = PC_CHATCLI_CALL_INIT;
	struct pc_strvec argv = PC_STRVEC_INIT;
	char *perr = NULL, *what = pc_xasprintf("call %s: %s", form, args);

	if (cut(c, e->file, what))
		goto out;
	chat_begin(c, e->file, what);
	if (pc_chatcli_args_to_argv(args, &argv, &perr)) {
		chat_find(c, id, e->file, "args %s -> %s", args, perr);
		goto out;
	}
	co.path = e->path;
	co.args = &argv;
	co.env = &c->env;
	co.cwd = c->cwd;
	/* X5 as configured, bounded by plugcheck's own call timeout */
	co.timeout_ms =
		pc_chatcli_timeout_ms(getenv("CHATCLI_AGENT_PLUGIN_TIMEOUT"));
	if (co.timeout_ms > c->o->call_timeout_ms)
		co.timeout_ms = c->o->call_timeout_ms;
	co.hard_cap_ms = 10000;
	if (pc_chatcli_call(&co, &call, NULL)) {
		chat_find(c, "PC-INT-001", e->file,
			  "plugcheck could not run the plugin");
		goto out;
	}
	if (call.error)
		chat_find(c, id, e->file, "args %s -> %s; output: %.*s", args,
			call.error,
			(int)utf8_cut(call.merged, call.merged_len, 200),
			call.merged);
	if (call.timed_out)
		chat_find(c, "PC-CHAT-042", e->file,
				"args %s: the host would block %lld ms%s", args,
				(long long)call.duration_ms,
				call.capped ? " or more (plugcheck's cap)"
					    : "");
	if (call.leftover_processes)
		chat_find(c, "PC-CHAT-043", e->file,
				"args %s left %d process(es)", args,
				call.leftover_processes);
	/* O1 applies to successful results only: errors reach the model
	 * whole */
	if (!call.error && call.merged_len > PC_CHATCLI_TRUNC_CAP)
		chat_find(c, "PC-CHAT-041", e->file,
			"args %s printed %zu bytes: the model gets %zu of them",
			args, call.merged_len, call.output_len);
	else if (!call.error &&
		 pc_chatcli_compression_applies(
			 call.merged_len, getenv("CHATCLI_COMPRESSION"),
			 getenv("CHATCLI_COMPRESSION_THRESHOLD")))
		chat_find(c, "PC-CHAT-040", e->file,
			"args %s printed %zu bytes, at or over the compression threshold of %zu",
			args, call.merged_len,
			pc_chatcli_compress_threshold(
				getenv("CHATCLI_COMPRESSION_THRESHOLD")));
	pc_chatcli_call_release(&call);
	scrub_dir(c->cwd);
	scrub_dir(c->home);
out:
	chat_end(c);
	free(perr);
	free(what);
	pc_strvec_release(&argv);
}

static cJSON *sample(const cJSON *flag)
{
	const cJSON *t = get_fold(flag, "type"), *d = get_fold(flag, "default");
	const char *ty = cJSON_IsString(t) ? t->valuestring : "";

	if (strstr(ty, "bool"))
		return cJSON_CreateTrue();
	if (strstr(ty, "int") || strstr(ty, "num") || strstr(ty, "float"))
		return cJSON_CreateNumber(1);
	return cJSON_CreateString(
		cJSON_IsString(d) && *d->valuestring ? d->valuestring : "test");
}

static void call_subcommand(struct ctx *c, const struct pc_chatcli_entry *e,
			    const cJSON *sub)
{
	const cJSON *nm = get_fold(sub, "name"), *fl, *first = NULL;
	cJSON *obj = cJSON_CreateObject(), *args = cJSON_CreateObject();
	struct pc_buf text = PC_BUF_INIT(PC_BUF_NOCAP);
	char *json;

	if (!cJSON_IsString(nm) || !*nm->valuestring) {
		cJSON_Delete(obj);
		cJSON_Delete(args);
		return;
	}
	pc_buf_adds(&text, nm->valuestring);
	cJSON_ArrayForEach(fl, get_fold(sub, "flags"))
	{
		const cJSON *fn = get_fold(fl, "name"),
			    *rq = get_fold(fl, "required");
		const char *k;
		cJSON *v;

		if (!cJSON_IsString(fn) ||
		    !(cJSON_IsTrue(rq) || (!first && !fl->next)))
			continue;
		first = fl;
		for (k = fn->valuestring; *k == '-'; k++)
			;
		v = sample(fl);
		if (cJSON_IsString(v))
			pc_buf_addf(&text, " --%s '%s'", k, v->valuestring);
		else if (cJSON_IsNumber(v))
			pc_buf_addf(&text, " --%s 1", k);
		else
			pc_buf_addf(&text, " --%s", k);
		cJSON_AddItemToObject(args, k, v);
	}
	cJSON_AddStringToObject(obj, "cmd", nm->valuestring);
	cJSON_AddItemToObject(obj, "args", args);
	json = cJSON_PrintUnformatted(obj);
	judge_call(c, e, "json", json, "PC-CHAT-030");
	judge_call(c, e, "text", pc_buf_cstr(&text), "PC-CHAT-031");
	free(json);
	cJSON_Delete(obj);
	pc_buf_release(&text);
}

static void run_calls(struct ctx *c, const struct pc_chatcli_entry *e)
{
	cJSON *s = e->probe.schema ? cJSON_Parse(e->probe.schema) : NULL;
	const cJSON *subs = NULL, *it;
	int n = 0;

	if (s && schema_shape(s, &subs) > 0)
		cJSON_ArrayForEach(it, subs)
		{
			if (n++ < 3)
				call_subcommand(c, e, it);
		}
	if (!n)
		judge_call(c, e, "empty", "", "PC-CHAT-032");
	cJSON_Delete(s);
}

/* --- the run
 * -------------------------------------------------------------------- */

static void check_entry(struct ctx *c, struct pc_chatcli_entry *e)
{
	struct pc_chatcli_probe again = PC_CHATCLI_PROBE_INIT;
	const struct pc_chatcli_probe *p = &e->probe;

	check_signature(c, e);
	check_perms(c, e);
	chat_begin(c, e->file, "metadata");
	if (p->metadata_run.hung) {
		chat_find(c, "PC-CHAT-010", e->file,
				"'%s --metadata' did not finish within %lld ms",
				e->file, (long long)c->o->probe_timeout_ms);
	} else if (!p->loaded) {
		chat_find(c, "PC-CHAT-001", e->file,
				"the host skips '%s': %s", e->file,
				p->host_error ? p->host_error : "?");
	}
	chat_end(c);
	if (!p->loaded)
		return;
	check_meta(c, e);
	check_schema(c, e);
	if (cut(c, e->file, "probes run twice"))
		return;
	pc_chatcli_probe(e->path, &c->env, c->cwd, c->o->probe_timeout_ms,
			 &again, NULL);
	check_probe_runs(c, e, &again);
	reload_cost(c, e);
	pc_chatcli_probe_release(&again);
	scrub_dir(c->cwd);
	scrub_dir(c->home);
	if (e->replaced_by)
		chat_find(c, "PC-CHAT-008", e->file,
				"'%s' and '%s' both register \"%s\"; '%s' wins",
				e->file, e->replaced_by, p->meta.name,
				e->replaced_by);
	if (c->o->run_calls && e->registered)
		run_calls(c, e);
}

static void fill_summary(struct ctx *c, const struct pc_chatcli_dir *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		const struct pc_chatcli_entry *e = &d->v[i];
		char *serr = NULL;
		bool ok;

		if (e->skipped)
			continue;
		pc_chatcli_sig_verify(e->path, c->o->keys_dir,
				      c->o->allow_unsigned, &serr, NULL);
		ok = !serr && e->probe.loaded;
		pc_report_add_load(c->r, e->file, ok,
				   serr ? serr : e->probe.host_error);
		if (!c->r->name && e->probe.loaded) {
			c->r->name = pc_xstrdup(e->probe.meta.name);
			c->r->version = pc_xstrdup(e->probe.meta.version);
			c->r->loaded = ok;
			if (serr)
				c->r->host_error = pc_xstrdup(serr);
		} else if (!c->r->name && !c->r->host_error) {
			c->r->host_error = pc_xstrdup(
				serr		      ? serr
				: e->probe.host_error ? e->probe.host_error
						      : "");
		}
		free(serr);
	}
}

int pc_chatcli_suite_run(const char *path,
			 const struct pc_chatcli_suite_opts *o,
			 struct pc_chatcli_dir *d, struct pc_report *r,
			 struct pc_err *err)
{
	struct pc_chatcli_suite_opts def = *o;
	struct ctx c = { .o = &def, .r = r, .env = PC_STRVEC_INIT,
			 .k = PC_REPORT_NO_CASE };
	struct pc_chatcli_disc_opts dopt = { 0 };
	int rc;

	if (!def.probe_timeout_ms)
		def.probe_timeout_ms = 10000;
	if (!def.call_timeout_ms)
		def.call_timeout_ms = 20000;
	c.tmp = pc_fs_mkdtemp("chatcli");
	if (!c.tmp)
		return pc_err_set_errno(err, PC_EIO, 0,
					"cannot create a scratch directory");
	c.cwd = pc_fs_join(c.tmp, "cwd");
	c.home = pc_fs_join(c.tmp, "home");
	scrub_dir(c.cwd);
	scrub_dir(c.home);
	pc_strvec_env_with_home(&c.env, environ, c.home);
	dopt.keys_dir = def.keys_dir;
	dopt.env = &c.env;
	dopt.cwd = c.cwd;
	dopt.probe_timeout_ms = def.probe_timeout_ms;
	dopt.no_signatures = true; /* judged separately, probes still run */
	r->path = pc_xstrdup(path);
	r->contract = "chatcli";
	rc = pc_fs_is_dir(path) ? pc_chatcli_discover(path, &dopt, d, err)
				: pc_chatcli_discover_file(path, &dopt, d, err);
	for (size_t i = 0; !rc && i < d->nr; i++) {
		/* stopped during discovery: its --metadata and --schema
		 * probes were killed, nothing they gave can be judged */
		if (d->v[i].skipped || cut(&c, d->v[i].file, "metadata"))
			continue;
		check_entry(&c, &d->v[i]);
	}
	if (!rc)
		fill_summary(&c, d);
	pc_fs_rm_rf(c.tmp);
	free(c.tmp);
	free(c.cwd);
	free(c.home);
	pc_strvec_release(&c.env);
	return rc;
}

#define _GNU_SOURCE /* memmem */
/* pc_chatcli_suite.c - the PC-CHAT-* checks over the ChatCLI reference
 * host. See pc_chatcli_suite.h; rule texts live in pc_finding.c. */
#include "pc_chatcli_suite.h"

#include <sys/stat.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pc_chatcli_causes.h"
#include "pc_fs.h"
#include "pc_locate.h"
#include "pc_time.h"
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
	struct pc_strvec once; /* "ID file" of the findings made once per
				  plugin file */
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
static struct pc_finding *chat_find(struct ctx *c, const char *id,
				    const char *file, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Returns the finding, for its location. The message never shows the
 * value of a secret-shaped variable of the environment the plugin got
 * (X3): a plugin that prints its environment would put it in the report. */
static struct pc_finding *chat_find(struct ctx *c, const char *id,
				    const char *file, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_finding *f;
	va_list ap;
	char *cls, *msg;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	msg = pc_chatcli_redact(c->env.v, pc_buf_cstr(&b));
	pc_buf_release(&b);
	if (c->k != PC_REPORT_NO_CASE) {
		f = pc_report_find(c->r, c->k, id, file, NULL, "%s", msg);
	} else {
		cls = class_of(file);
		f = pc_report_find_static(c->r, cls, id, file, NULL, "%s", msg);
		free(cls);
	}
	free(msg);
	return f;
}

/* First time for (id, file)? Records it. */
static bool first_time(struct ctx *c, const char *id, const char *file)
{
	char *key = pc_xasprintf("%s %s", id, file);
	bool first = !pc_strvec_has(&c->once, key);

	if (first)
		pc_strvec_push(&c->once, key);
	free(key);
	return first;
}

static bool ident(char ch)
{
	return ch == '_' || (ch >= '0' && ch <= '9') ||
	       ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/* Part of a word, a name or a path around an identifier needle. */
static bool wordish(char ch)
{
	return ident(ch) || (ch && strchr("@.-/", ch));
}

/* `needle` at p (inside [line, end)) is a whole word, when it is an
 * identifier: `env | sort`, not environment, @env-dump or /usr/bin/env. */
static bool whole_word(const char *line, const char *end, const char *p,
		       const char *needle, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!ident(needle[i]))
			return true;
	return (p == line || !wordish(p[-1])) &&
	       (p + k == end || !wordish(p[k]));
}

/* The first line of text[0..n) that holds `needle` (a whole word when it
 * is an identifier) and is not a comment (#, / or * first), with the
 * column of the match. */
static struct pc_loc code_line(const char *text, size_t n, const char *needle)
{
	struct pc_loc l = { 0, 0 };
	size_t start = 0, k = strlen(needle);

	for (unsigned line = 1; start < n; line++) {
		const char *nl = memchr(text + start, '\n', n - start);
		size_t end = nl ? (size_t)(nl - text) : n, i = start;
		const char *hit;

		while (i < end && (text[i] == ' ' || text[i] == '\t'))
			i++;
		hit = memmem(text + start, end - start, needle, k);
		while (hit &&
		       !whole_word(text + start, text + end, hit, needle, k))
			hit = memmem(hit + 1, (size_t)(text + end - hit - 1),
				     needle, k);
		if (hit && i < end && !strchr("#/*", text[i])) {
			l.line = line;
			l.column = (unsigned)(hit - (text + start)) + 1;
			return l;
		}
		start = end + 1;
	}
	return l;
}

/* Point `f` at the first code line of the script `path` holding one of
 * the `needles` (tried in order; NULL or empty ones skipped), when the
 * plugin is a script ("#!", read up to 1 MiB). */
static void locate_in_script(struct pc_finding *f, const char *path,
			     const char *const *needles, size_t n)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20);

	if (f && !pc_fs_read_stream(path, &b, PC_FS_STREAM_MS, NULL) &&
	    b.len > 2 && !memcmp(b.data, "#!", 2))
		for (size_t i = 0; i < n && !f->line; i++) {
			struct pc_loc l;

			if (!needles[i] || !*needles[i])
				continue;
			l = code_line(b.data, b.len, needles[i]);
			f->line = l.line;
			f->column = l.column;
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

static bool is_null(const struct pc_chatcli_jv *v)
{
	return v && v->kind == PC_CHATCLI_JV_NULL;
}

static bool is_kind(const struct pc_chatcli_jv *v, enum pc_chatcli_jv_kind k)
{
	return v && v->kind == k;
}

static bool is_str(const struct pc_chatcli_jv *v)
{
	return is_kind(v, PC_CHATCLI_JV_STRING);
}

/* --- S4: what the prompt shows ------------------------------------------- */

/* all_kind - a slice field decodes: null, or an array whose items are
 * null or pass `is`. */
static bool all_kind(const struct pc_chatcli_jv *arr,
		     bool (*is)(const struct pc_chatcli_jv *))
{
	if (is_null(arr))
		return true;
	if (arr->kind != PC_CHATCLI_JV_ARRAY)
		return false;
	for (size_t i = 0; i < arr->nr; i++)
		if (!is_null(&arr->v[i]) && !is(&arr->v[i]))
			return false;
	return true;
}

/* fields_ok - every member of object o that sets scalar field `k` holds
 * null or `kind` (Go stores each one in turn and reports a bad one). */
static bool fields_ok(const struct pc_chatcli_jv *o, const char *k,
		      enum pc_chatcli_jv_kind kind)
{
	for (size_t i = 0; i < o->nr; i++)
		if (pc_chatcli_json_field_match(o->k[i].p, o->k[i].n, k) &&
		    !is_null(&o->v[i]) && o->v[i].kind != kind)
			return false;
	return true;
}

/* slices_ok - every member that sets slice field `k` decodes. */
static bool slices_ok(const struct pc_chatcli_jv *o, const char *k,
		      bool (*is)(const struct pc_chatcli_jv *))
{
	for (size_t i = 0; i < o->nr; i++)
		if (pc_chatcli_json_field_match(o->k[i].p, o->k[i].n, k) &&
		    !all_kind(&o->v[i], is))
			return false;
	return true;
}

static bool flag_ok(const struct pc_chatcli_jv *f)
{
	return is_kind(f, PC_CHATCLI_JV_OBJECT) &&
	       fields_ok(f, "name", PC_CHATCLI_JV_STRING) &&
	       fields_ok(f, "description", PC_CHATCLI_JV_STRING) &&
	       fields_ok(f, "type", PC_CHATCLI_JV_STRING) &&
	       fields_ok(f, "default", PC_CHATCLI_JV_STRING) &&
	       fields_ok(f, "required", PC_CHATCLI_JV_BOOL);
}

static bool sub_ok(const struct pc_chatcli_jv *s)
{
	return is_kind(s, PC_CHATCLI_JV_OBJECT) &&
	       fields_ok(s, "name", PC_CHATCLI_JV_STRING) &&
	       fields_ok(s, "description", PC_CHATCLI_JV_STRING) &&
	       slices_ok(s, "examples", is_str) &&
	       slices_ok(s, "flags", flag_ok);
}

/* schema_shape - S4: json.Unmarshal of the schema into the renderer's
 * struct. Returns -1 when it fails (the model sees the usage), else the
 * number of subcommands, *subs their array (NULL for none). */
static int schema_shape(const struct pc_chatcli_jv *s,
			const struct pc_chatcli_jv **subs)
{
	*subs = NULL;
	if (is_null(s))
		return 0;
	if (!is_kind(s, PC_CHATCLI_JV_OBJECT) ||
	    !fields_ok(s, "argsFormat", PC_CHATCLI_JV_STRING) ||
	    !slices_ok(s, "subcommands", sub_ok))
		return -1;
	*subs = pc_chatcli_jv_field(s, "subcommands");
	if (!is_kind(*subs, PC_CHATCLI_JV_ARRAY))
		*subs = NULL;
	return *subs ? (int)(*subs)->nr : 0;
}

/* parse_schema - the kept schema text (S2) as a value (null when none). */
static void parse_schema(const struct pc_chatcli_probe *p,
			 struct pc_chatcli_jv *s)
{
	*s = (struct pc_chatcli_jv)PC_CHATCLI_JV_INIT;
	if (p->schema)
		pc_chatcli_json_parse(p->schema, strlen(p->schema), s, NULL);
}

static void check_schema(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_probe *p = &e->probe;
	const struct pc_chatcli_run *sr = &p->schema_run;
	const struct pc_chatcli_jv *subs;
	struct pc_chatcli_jv s;
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
	parse_schema(p, &s);
	n = schema_shape(&s, &subs);
	if (n < 0)
		chat_find(c, "PC-CHAT-021", e->file,
			"the schema of '%s' does not decode into the host's argsFormat/subcommands shape: the model sees only the usage",
			e->file);
	else if (n == 0 && !pc_chatcli_jv_field(&s, "argsFormat"))
		chat_find(c, "PC-CHAT-020", e->file,
			"the schema of '%s' decodes to no subcommands: the model sees an empty \"Subcomandos Disponíveis:\" and neither parameters nor usage",
			e->file);
	if (pc_chatcli_jv_get(&s, "args_format", 11))
		chat_find(c, "PC-CHAT-022", e->file,
			"the schema of '%s' has args_format, which the host ignores",
			e->file);
	pc_chatcli_jv_release(&s);
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

/* --- R1-R3: served by `chatcli server` ------------------------------------ */

/* check_remote_plugin - what breaks every remote use of the plugin: its
 * name over the server's limit, a plugin list the server cannot encode
 * or the client cannot receive, a builtin it would replace. */
static void check_remote_plugin(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_probe *p = &e->probe;
	char *why = NULL;
	const char *hidden = pc_chatcli_remote_listed(p, "admin", &why);

	if (p->meta.name_len > 256)
		chat_find(c, "PC-CHAT-090", e->file,
			"'%s' registers a name of %zu bytes: remote ExecuteRemotePlugin failed: rpc error: code = InvalidArgument desc = validation: plugin_name exceeds maximum length of 256 characters",
			e->file, p->meta.name_len);
	if (hidden && why)
		chat_find(c,
				strstr(why, "UTF-8") ? "PC-CHAT-091"
						     : "PC-CHAT-092",
				e->file,
				"'%s': %s (%s); the client registers no remote plugin",
				e->file, hidden, why);
	free(why);
	if (pc_chatcli_is_builtin(p->meta.name))
		chat_find(c, "PC-CHAT-096", e->file,
			"'%s' registers as \"%s\": served remotely it replaces the client's builtin of that name until the next reload",
			e->file, p->meta.name);
}

/* check_remote_call - what a call with these argv and this result gets
 * through `chatcli connect` that it does not get locally. */
static void check_remote_call(struct ctx *c, const struct pc_chatcli_entry *e,
			      const char *args,
			      const struct pc_chatcli_argv *argv,
			      const struct pc_chatcli_call *call)
{
	struct pc_chatcli_str name = { e->probe.meta.name,
				       e->probe.meta.name_len };
	char *err;

	if (!name.n || name.n > 256) /* every call: PC-CHAT-090 */
		return;
	if ((err = pc_chatcli_remote_request_error(&name, argv)) != NULL) {
		chat_find(c, "PC-CHAT-093", e->file,
				"args %s -> remote ExecuteRemotePlugin failed: %s",
				args, err);
		free(err);
		return;
	}
	if (call->not_started)
		return;
	if ((err = pc_chatcli_remote_response_error(call)) != NULL) {
		chat_find(c,
				strstr(err, "UTF-8") ? "PC-CHAT-094"
						     : "PC-CHAT-095",
				e->file,
				"args %s printed %zu bytes -> remote ExecuteRemotePlugin failed: %s",
				args, call->merged_len, err);
		free(err);
	}
}

/* compressed_note - ": the host's search compressor gives the model 443
 * of them, citing the whole output as <<ccr:KEY>>" when step 1 changed
 * the output, else "". */
static const char *compressed_note(const struct pc_chatcli_call *call,
				   char *buf, size_t n)
{
	if (!strcmp(call->compression, "passthrough"))
		return "";
	snprintf(buf, n,
		 ": the host's %s compressor gives the model %zu of them%s%s%s",
		 call->compression, call->compressed_len,
		 *call->ccr_key ? ", citing the whole output as <<ccr:" : "",
		 call->ccr_key, *call->ccr_key ? ">>" : "");
	return buf;
}

/* The options of a call of `e` with `argv` as the host makes it. */
static void call_opts(struct ctx *c, const struct pc_chatcli_entry *e,
		      const struct pc_chatcli_argv *argv,
		      struct pc_chatcli_call_opts *co)
{
	co->path = e->path;
	co->args = argv;
	co->env = &c->env;
	co->cwd = c->cwd;
	/* the model calls it by its name; the compression layer routes by
	 * that name (O1) */
	co->tool = e->probe.meta.name;
	co->tool_len = e->probe.meta.name_len;
	/* X5 as configured, bounded by plugcheck's own call timeout */
	co->timeout_ms =
		pc_chatcli_timeout_ms(getenv("CHATCLI_AGENT_PLUGIN_TIMEOUT"));
	if (co->timeout_ms > c->o->call_timeout_ms)
		co->timeout_ms = c->o->call_timeout_ms;
	co->hard_cap_ms = 10000;
}

/* --- issue 17: the causes behind what the model receives ---------------- */

/* A literal of the script that likely printed `line`: its text up to
 * the first character that looks interpolated (a digit, %, {, $), when
 * at least 6 bytes are left. New string or NULL. */
static char *literal_of(const char *line)
{
	size_t n = 0;

	if (!line)
		return NULL;
	while (*line == ' ' || *line == '\t')
		line++;
	while (line[n] && !strchr("0123456789%{$\r\n\"'", line[n]))
		n++;
	while (n && line[n - 1] == ' ')
		n--;
	return n >= 6 ? pc_xmemdup(line, n) : NULL;
}

/* PC-CHAT-045: the lines the plugin wrote to stderr that the model reads
 * in a successful result (X7), and what they cost; once per plugin file. */
static void check_stderr(struct ctx *c, const struct pc_chatcli_entry *e,
			 const char *args, const struct pc_chatcli_call *call)
{
	struct pc_chatcli_stderr_use u = PC_CHATCLI_STDERR_USE_INIT;
	struct pc_buf list = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *needles[] = {
		NULL,	      ">&2",	       "file=sys.stderr",
		"sys.stderr", "console.error", "os.Stderr",
		"STDERR",     "stderr",	       "log.Print",
		"logging."
	};
	struct pc_finding *f;
	char *lit;

	/* a failed call's reason on stderr is what the model should read;
	 * on success stderr is noise in the result */
	if (call->error)
		return;
	pc_chatcli_stderr_use(call, &u);
	if (!u.lines || !first_time(c, "PC-CHAT-045", e->file))
		goto out;
	for (size_t i = 0; i < u.shown.nr; i++)
		pc_buf_addf(&list, "%s%s", i ? "; " : "", u.shown.v[i]);
	f = chat_find(
		c, "PC-CHAT-045", e->file,
		"args %s: %zu line(s) the plugin wrote to stderr reach the model inside its result, %zu byte(s) of its context (%s%s)",
		args, u.lines, u.bytes, pc_buf_cstr(&list),
		u.lines > u.shown.nr ? "; ..." : "");
	needles[0] = lit = literal_of(u.first);
	locate_in_script(f, e->path, needles,
			 sizeof(needles) / sizeof(*needles));
	free(lit);
out:
	pc_buf_release(&list);
	pc_chatcli_stderr_use_release(&u);
}

/* PC-CHAT-046: secret-shaped variables of the host's environment (X3;
 * plugcheck seeds canaries) whose values `what` puts in the model's
 * context; names only, once per plugin file. */
static void check_secrets(struct ctx *c, const struct pc_chatcli_entry *e,
			  const char *what, const char *text, size_t n)
{
	static const char *const dumps[] = { "printenv",    "os.environ",
					     "process.env", "os.Environ",
					     "ENV[",	    "environ",
					     "getenv",	    "env" };
	struct pc_strvec names = PC_STRVEC_INIT;
	struct pc_buf list = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *needles[16];
	size_t k = 0;
	struct pc_finding *f;

	if (!text || !pc_chatcli_printed_secrets(c->env.v, text, n, &names) ||
	    !first_time(c, "PC-CHAT-046", e->file))
		goto out;
	for (size_t i = 0; i < names.nr; i++) {
		pc_buf_addf(&list, "%s%s", i ? ", " : "", names.v[i]);
		if (k < 8)
			needles[k++] = names.v[i];
	}
	for (size_t i = 0; i < sizeof(dumps) / sizeof(*dumps); i++)
		needles[k++] = dumps[i];
	f = chat_find(
		c, "PC-CHAT-046", e->file,
		"%s: the model's context gets the value of %zu secret-shaped variable(s) of the host's environment: %s (values not shown)",
		what, names.nr, pc_buf_cstr(&list));
	locate_in_script(f, e->path, needles, k);
out:
	pc_buf_release(&list);
	pc_strvec_release(&names);
}

/* The model's call that sends `a` a value of `len` bytes: the flag of
 * its subcommand, or the property in a JSON object without cmd. New. */
static char *long_call(const struct pc_chatcli_long_arg *a, size_t len)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *k = a->name;
	char *v = pc_xmalloc(len + 1);

	memset(v, 'x', len);
	v[len] = '\0';
	while (!a->whole_json && *k == '-')
		k++;
	if (a->subcommand) {
		pc_buf_adds(&b, "{\"cmd\":");
		pc_chatcli_go_quote(&b, a->subcommand, strlen(a->subcommand));
		pc_buf_adds(&b, ",\"args\":{");
	} else {
		pc_buf_addch(&b, '{');
	}
	pc_chatcli_go_quote(&b, k, strlen(k));
	pc_buf_addf(&b, ":\"%s\"}%s", v, a->subcommand ? "}" : "");
	free(v);
	return pc_buf_detach(&b, NULL);
}

/* check: call `e` as the model would with a MAX_ARG_STRLEN-byte value
 * for `a`; what the host answered, for the finding. New string. */
static char *long_demo(struct ctx *c, const struct pc_chatcli_entry *e,
		       const struct pc_chatcli_long_arg *a)
{
	struct pc_chatcli_call_opts co = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call call = PC_CHATCLI_CALL_INIT;
	struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
	char *args = long_call(a, PC_CHATCLI_ARG_STRLEN_MAX), *perr = NULL;
	char *out;

	if (pc_chatcli_args_to_argv(args, strlen(args), &argv, &perr)) {
		out = pc_xasprintf(
			"; plugcheck's call with a %u-byte value was not run: %s",
			PC_CHATCLI_ARG_STRLEN_MAX, perr);
	} else {
		call_opts(c, e, &argv, &co);
		if (pc_chatcli_call(&co, &call, NULL))
			out = pc_xstrdup("");
		else
			out = pc_xasprintf(
				"; plugcheck's call with a %u-byte value got: %s",
				PC_CHATCLI_ARG_STRLEN_MAX,
				call.error ? call.error : "no error");
		pc_chatcli_call_release(&call);
		scrub_dir(c->cwd);
		scrub_dir(c->home);
	}
	free(perr);
	free(args);
	pc_chatcli_argv_release(&argv);
	return out;
}

/* PC-CHAT-047: string parameters of the schema that nothing bounds under
 * what one argument may hold (X1: argv only, the kernel's E2BIG); with
 * `check`, one call at the limit shows the host's answer. */
static void check_long_args(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const char *schema = e->probe.schema;
	struct pc_chatcli_long_args a = PC_CHATCLI_LONG_ARGS_INIT;
	struct pc_buf list = PC_BUF_INIT(PC_BUF_NOCAP);
	char *demo = NULL, *q1, *q2, *q3;
	struct pc_finding *f;

	if (!schema || !pc_chatcli_long_args(schema, strlen(schema), &a))
		return;
	for (size_t i = 0; i < a.nr && i < 5; i++) {
		pc_buf_addf(&list, "%s%s", i ? ", " : "", a.v[i].name);
		if (a.v[i].subcommand)
			pc_buf_addf(&list, " (%s)", a.v[i].subcommand);
		if (a.v[i].max_len >= 0)
			pc_buf_addf(&list, " (maxLength %lld)", a.v[i].max_len);
	}
	if (a.nr > 5)
		pc_buf_addf(&list, " and %zu more", a.nr - 5);
	if (c->o->run_calls && e->registered &&
	    !cut(c, e->file, "call at the argument limit")) {
		chat_begin(c, e->file, "call at the argument limit");
		demo = long_demo(c, e, &a.v[0]);
	}
	f = chat_find(
		c, "PC-CHAT-047", e->file,
		"the schema of '%s' takes text of any length in %s%s: the kernel refuses an argument of %u bytes or more (MAX_ARG_STRLEN, E2BIG), so the host's exec fails before the plugin runs and the model gets \"falha ao iniciar plugin: fork/exec %s: argument list too long\"; all arguments together with the plugin's path and the host's whole environment (%zu bytes now) must also fit in ARG_MAX (%zu bytes here)%s",
		e->file, pc_buf_cstr(&list),
		a.v[0].whole_json
			? " (sent as one JSON argument, every value counts)"
			: "",
		PC_CHATCLI_ARG_STRLEN_MAX, e->path,
		pc_chatcli_env_bytes(c->env.v), pc_chatcli_arg_max(0),
		demo ? demo : "");
	q1 = pc_xasprintf("\"%s\"", a.v[0].name);
	q2 = pc_xasprintf("'%s'", a.v[0].name);
	q3 = pc_xasprintf("\"%s\"", a.v[0].name + strspn(a.v[0].name, "-"));
	{
		const char *needles[] = { q1, q2, q3, a.v[0].name };

		locate_in_script(f, e->path, needles, 4);
	}
	if (demo)
		chat_end(c);
	free(q1);
	free(q2);
	free(q3);
	free(demo);
	pc_buf_release(&list);
	pc_chatcli_long_args_release(&a);
}

static void judge_call(struct ctx *c, const struct pc_chatcli_entry *e,
		       const char *form, const char *args, const char *id)
{
	char note[160];
	struct pc_chatcli_call_opts co = PC_CHATCLI_CALL_OPTS_INIT;
	struct pc_chatcli_call call = PC_CHATCLI_CALL_INIT;
	struct pc_chatcli_argv argv = PC_CHATCLI_ARGV_INIT;
	char *perr = NULL, *what = pc_xasprintf("call %s: %s", form, args);

	if (cut(c, e->file, what))
		goto out;
	chat_begin(c, e->file, what);
	if (pc_chatcli_args_to_argv(args, strlen(args), &argv, &perr)) {
		chat_find(c, id, e->file, "args %s -> %s", args, perr);
		goto out;
	}
	call_opts(c, e, &argv, &co);
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
	 * whole. Step 1 (compression) runs first, then step 2 truncates. */
	if (!call.error && call.compressed_len > PC_CHATCLI_TRUNC_CAP)
		chat_find(c, "PC-CHAT-041", e->file,
			"args %s printed %zu bytes: the model gets %zu of them",
			args, call.merged_len, call.output_len);
	else if (!call.error && call.compression_engaged)
		chat_find(c, "PC-CHAT-040", e->file,
			"args %s printed %zu bytes, at or over the compression threshold of %zu%s",
			args, call.merged_len,
			pc_chatcli_compress_threshold(getenv(
				"CHATCLI_COMPRESSION_THRESHOLD")),
			compressed_note(&call, note, sizeof(note)));
	check_remote_call(c, e, args, &argv, &call);
	check_stderr(c, e, args, &call);
	check_secrets(c, e, *args ? what : "called without arguments",
		      call.output, call.output_len);
	pc_chatcli_call_release(&call);
	scrub_dir(c->cwd);
	scrub_dir(c->home);
out:
	chat_end(c);
	free(perr);
	free(what);
	pc_chatcli_argv_release(&argv);
}

/* sample - a value for a flag of the schema: true for a bool type, 1 for
 * a number, else its default or "test"; appended to *json (as JSON) and
 * *text (as the text form " --k 'v'"). */
static void sample(const struct pc_chatcli_jv *flag, const char *k,
		   struct pc_buf *json, struct pc_buf *text)
{
	const struct pc_chatcli_jv *t = pc_chatcli_jv_field(flag, "type"),
				   *d = pc_chatcli_jv_field(flag, "default");
	const char *ty = is_str(t) ? t->s : "";

	if (strstr(ty, "bool")) {
		pc_buf_adds(json, "true");
		pc_buf_addf(text, " --%s", k);
	} else if (strstr(ty, "int") || strstr(ty, "num") ||
		   strstr(ty, "float")) {
		pc_buf_adds(json, "1");
		pc_buf_addf(text, " --%s 1", k);
	} else {
		const char *v = is_str(d) && d->n ? d->s : "test";

		pc_chatcli_go_quote(json, v, strlen(v));
		pc_buf_addf(text, " --%s '%s'", k, v);
	}
}

static void call_subcommand(struct ctx *c, const struct pc_chatcli_entry *e,
			    const struct pc_chatcli_jv *sub)
{
	const struct pc_chatcli_jv *nm = pc_chatcli_jv_field(sub, "name"),
				   *flags = pc_chatcli_jv_field(sub, "flags");
	struct pc_buf text = PC_BUF_INIT(PC_BUF_NOCAP),
		      json = PC_BUF_INIT(PC_BUF_NOCAP);
	bool first = true;

	if (!is_str(nm) || !nm->n)
		return;
	pc_buf_adds(&text, nm->s);
	pc_buf_adds(&json, "{\"cmd\":");
	pc_chatcli_go_quote(&json, nm->s, strlen(nm->s));
	pc_buf_adds(&json, ",\"args\":{");
	for (size_t i = 0; is_kind(flags, PC_CHATCLI_JV_ARRAY) && i < flags->nr;
	     i++) {
		const struct pc_chatcli_jv *fl = &flags->v[i],
					   *fn = pc_chatcli_jv_field(fl,
								     "name"),
					   *rq = pc_chatcli_jv_field(
						   fl, "required");
		const char *k;

		/* the required flags, or the only one */
		if (!is_str(fn) ||
		    !((is_kind(rq, PC_CHATCLI_JV_BOOL) && rq->b) ||
		      (first && i + 1 == flags->nr)))
			continue;
		for (k = fn->s; *k == '-'; k++)
			;
		if (!first)
			pc_buf_addch(&json, ',');
		first = false;
		pc_chatcli_go_quote(&json, k, strlen(k));
		pc_buf_addch(&json, ':');
		sample(fl, k, &json, &text);
	}
	pc_buf_adds(&json, "}}");
	judge_call(c, e, "json", json.data, "PC-CHAT-030");
	judge_call(c, e, "text", pc_buf_cstr(&text), "PC-CHAT-031");
	pc_buf_release(&json);
	pc_buf_release(&text);
}

static void run_calls(struct ctx *c, const struct pc_chatcli_entry *e)
{
	const struct pc_chatcli_jv *subs = NULL;
	struct pc_chatcli_jv s;
	int n = 0;

	parse_schema(&e->probe, &s);
	if (schema_shape(&s, &subs) > 0)
		for (size_t i = 0; i < subs->nr; i++)
			if (n++ < 3)
				call_subcommand(c, e, &subs->v[i]);
	if (!n)
		judge_call(c, e, "empty", "", "PC-CHAT-032");
	pc_chatcli_jv_release(&s);
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
	check_remote_plugin(c, e);
	/* the prompt carries the metadata and schema (S4) */
	check_secrets(
		c, e,
		"its --metadata and --schema, which the system prompt carries",
		p->metadata_run.out, p->metadata_run.out_len);
	if (p->schema)
		check_secrets(c, e,
			      "its --schema, which the system prompt carries",
			      p->schema, strlen(p->schema));
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
	check_long_args(c, e);
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
		if (e->probe.loaded)
			pc_report_load_names(c->r, e->probe.meta.name,
					     e->probe.meta.version);
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
	{
		/* X3: the host passes its whole environment; canaries make a
		 * plugin that prints it visible (PC-CHAT-046) */
		char *nonce = pc_xasprintf("%llx%lx",
					   (unsigned long long)pc_time_now_us(),
					   (long)getpid());

		pc_chatcli_seed_canaries(&c.env, nonce);
		free(nonce);
	}
	c.once = (struct pc_strvec)PC_STRVEC_INIT;
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
	pc_strvec_release(&c.once);
	return rc;
}

/* pc_chatcli_exec.c - running a ChatCLI plugin: `--metadata`/`--schema`
 * probes (M1-M5, S1-S2) and a call (X1-X8, O1), on pc_proc. */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_proc.h"
#include "pc_xalloc.h"

extern char **environ;

#define DEFAULT_CAP_MS	   10000
#define DEFAULT_OUTPUT_MAX ((size_t)64 << 20)
#define LINE_MAX_PENDING   4096
#define READ_SIZE	   4096

/* --- X5 ----------------------------------------------------------------- */

static double unit_ns(const char *u, size_t n)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = { { "ns", 1 },	    { "us", 1e3 },
		      { "\xc2\xb5s", 1e3 }, { "\xce\xbcs", 1e3 },
		      { "ms", 1e6 },	    { "s", 1e9 },
		      { "m", 60e9 },	    { "h", 3600e9 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (strlen(units[i].name) == n && !strncmp(u, units[i].name, n))
			return units[i].ns;
	return 0;
}

/* go_duration_ns - time.ParseDuration; false on a syntax error. */
static bool go_duration_ns(const char *s, double *ns)
{
	bool neg = false;
	double total = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!strcmp(s, "0")) {
		*ns = 0;
		return true;
	}
	if (!*s)
		return false;
	while (*s) {
		const char *start = s, *u;
		double v = 0, frac = 0, scale = 1, mul;
		bool digits = false;

		for (; isdigit((unsigned char)*s); s++, digits = true)
			v = v * 10 + (*s - '0');
		if (*s == '.')
			for (s++; isdigit((unsigned char)*s);
			     s++, digits = true)
				frac = frac * 10 + (*s - '0'), scale *= 10;
		if (!digits || s == start)
			return false;
		for (u = s; *s && *s != '.' && !isdigit((unsigned char)*s); s++)
			;
		if ((mul = unit_ns(u, (size_t)(s - u))) == 0)
			return false;
		total += (v + frac / scale) * mul;
	}
	*ns = neg ? -total : total;
	return true;
}

int64_t pc_chatcli_timeout_ms(const char *value)
{
	double ns;

	if (!value || !*value || !go_duration_ns(value, &ns) || ns <= 0)
		return PC_CHATCLI_DEFAULT_TIMEOUT_MS;
	return (int64_t)((ns + 999999) / 1e6);
}

/* --- O1 ------------------------------------------------------------------- */

char *pc_chatcli_truncate(const char *p, size_t n, size_t *out_len)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (n <= PC_CHATCLI_TRUNC_CAP) {
		pc_buf_add(&b, p, n);
	} else {
		pc_buf_add(&b, p, PC_CHATCLI_TRUNC_HEAD);
		pc_buf_addf(
			&b,
			"\n\n... [TRUNCATED %zu chars omitted, %d kept] ...\n\n",
			n - PC_CHATCLI_TRUNC_HEAD - PC_CHATCLI_TRUNC_TAIL,
			PC_CHATCLI_TRUNC_HEAD + PC_CHATCLI_TRUNC_TAIL);
		pc_buf_add(&b, p + n - PC_CHATCLI_TRUNC_TAIL,
			   PC_CHATCLI_TRUNC_TAIL);
	}
	if (!b.data)
		pc_buf_adds(&b, "");
	return pc_buf_detach(&b, out_len);
}

/* --- Go error texts ------------------------------------------------------- */

/* lower_first - Go's syscall texts are glibc's with a lower-case first
 * letter ("permission denied", "signal: killed"). */
static char *lower_first(const char *s)
{
	char *t = pc_xstrdup(s);

	t[0] = (char)tolower((unsigned char)t[0]);
	return t;
}

static char *go_wait_error(const struct pc_proc_result *r)
{
	char *sig, *e;

	if (r->term_signal) {
		sig = lower_first(strsignal(r->term_signal));
		e = pc_xasprintf("signal: %s%s", sig,
				 r->core_dumped ? " (core dumped)" : "");
		free(sig);
		return e;
	}
	return r->exit_code ? pc_xasprintf("exit status %d", r->exit_code)
			    : NULL;
}

static char *go_start_error(const char *path, int errnum)
{
	char *t = lower_first(strerror(errnum));
	char *e = pc_xasprintf("fork/exec %s: %s", path, t);

	free(t);
	return e;
}

static void fill_env(struct pc_strvec *dst, const struct pc_strvec *env)
{
	char **v = env ? env->v : environ;

	for (size_t i = 0; v && v[i]; i++)
		pc_strvec_push(dst, v[i]);
}

/* --- X7 merge ------------------------------------------------------------- */

struct merge {
	struct pc_buf all;
	struct pc_buf pending[2];
	pc_chatcli_line_fn on_line;
	void *ctx;
	struct pc_chatcli_span *err; /* the stderr lines of `all` */
	size_t nerr;
};

static void emit(struct merge *m, bool is_err, const char *p, size_t n,
		 bool delim)
{
	if (!n && !delim)
		return;
	if (m->on_line)
		m->on_line(m->ctx, is_err, p, n);
	if (is_err) {
		m->err = pc_xreallocarray(m->err, m->nerr + 1, sizeof(*m->err));
		m->err[m->nerr++] = (struct pc_chatcli_span){ m->all.len, n,
							      delim };
	}
	pc_buf_add(&m->all, p, n);
	if (delim)
		pc_buf_addch(&m->all, '\n');
}

/* on_read - one of readStream's reads in plugin.go: split at \r, \n or
 * \r\n within what is pending (a \r ending the read is a line end even
 * when the next read starts with \n), flush a fragment over 4096 bytes,
 * the rest at EOF (n == 0). */
static void on_read(struct merge *m, bool is_err, const char *p, size_t n)
{
	struct pc_buf *pend = &m->pending[is_err];
	size_t i = 0;

	if (!n) {
		emit(m, is_err, pend->data, pend->len, false);
		pc_buf_reset(pend);
		return;
	}
	pc_buf_add(pend, p, n);
	while (i < pend->len) {
		size_t j = i, skip;

		while (j < pend->len && pend->data[j] != '\r' &&
		       pend->data[j] != '\n')
			j++;
		if (j == pend->len)
			break;
		emit(m, is_err, pend->data + i, j - i, true);
		skip = pend->data[j] == '\r' && j + 1 < pend->len &&
				       pend->data[j + 1] == '\n'
			       ? 2
			       : 1;
		i = j + skip;
	}
	if (i) {
		memmove(pend->data, pend->data + i, pend->len - i);
		pend->len -= i;
		pend->data[pend->len] = '\0';
	}
	if (pend->len > LINE_MAX_PENDING) {
		emit(m, is_err, pend->data, pend->len, false);
		pc_buf_reset(pend);
	}
}

/* on_chunk - what pc_proc read from the pipe, as the host's reads of at
 * most 4096 bytes (bufio.Reader.Read into a 4096-byte buffer) would have
 * seen it: the same bytes cut at every 4096th. */
static void on_chunk(void *ctx, int fd, const char *p, size_t n)
{
	struct merge *m = ctx;

	if (!n) {
		on_read(m, fd == 2, p, 0);
		return;
	}
	for (size_t i = 0; i < n; i += READ_SIZE)
		on_read(m, fd == 2, p + i, n - i < READ_SIZE ? n - i : READ_SIZE);
}

/* --- X1-X8 ---------------------------------------------------------------- */

static void call_verdict(const struct pc_proc_result *r, const char *path,
			 struct pc_chatcli_call *c)
{
	char *werr;

	if (r->outcome == PC_PROC_SPAWN_ERROR) {
		char *e = go_start_error(path, r->spawn_errno);

		c->error = pc_xasprintf("falha ao iniciar plugin: %s", e);
		free(e);
		c->output = pc_xstrdup("");
		c->not_started = true;
		return;
	}
	werr = r->has_status ? go_wait_error(r) : pc_xstrdup("signal: killed");
	if (!werr && c->timed_out)
		werr = pc_xstrdup("context deadline exceeded");
	if (werr) {
		c->error = pc_xasprintf("plugin execution failed: %s", werr);
		c->output = pc_xmemdup(c->merged, c->merged_len);
		c->output_len = c->merged_len;
		free(werr);
		return;
	}
	c->output = pc_xmemdup(c->merged, c->output_len = c->merged_len);
}

void pc__chatcli_deliver(const char *tool, size_t tool_len,
			 const struct pc_chatcli_compress_env *env,
			 struct pc_chatcli_call *c)
{
	struct pc_chatcli_compressed z;

	c->compression = "passthrough";
	if (c->error)
		return; /* errors reach the model whole */
	pc_chatcli_compress(tool, tool_len, c->output, c->output_len, env, &z);
	free(c->output);
	c->output = pc_chatcli_truncate(z.text, z.len, &c->output_len);
	c->compressed_len = z.len;
	c->compression = z.strategy;
	c->compression_engaged = z.engaged;
	memcpy(c->ccr_key, z.key, sizeof(c->ccr_key));
	pc_chatcli_compressed_release(&z);
}

/* start_refused - X8 for a plugin Go's exec does not start: an argument
 * holding a NUL fails in syscall.StartProcess before any fork ("fork/exec
 * PATH: invalid argument"); nothing runs, no output. */
static int start_refused(const char *path, int errnum,
			 struct pc_chatcli_call *c)
{
	char *e = go_start_error(path, errnum);

	c->error = pc_xasprintf("falha ao iniciar plugin: %s", e);
	free(e);
	c->merged = pc_xstrdup("");
	c->output = pc_xstrdup("");
	c->not_started = true;
	c->compression = "passthrough";
	return 0;
}

int pc_chatcli_call(const struct pc_chatcli_call_opts *o,
		    struct pc_chatcli_call *c, struct pc_err *err)
{
	struct pc_proc_opts po = PC_PROC_OPTS_INIT;
	struct merge m = { .all = PC_BUF_INIT(PC_BUF_NOCAP),
			   .pending = { PC_BUF_INIT(PC_BUF_NOCAP),
					PC_BUF_INIT(PC_BUF_NOCAP) },
			   .on_line = o->on_line,
			   .ctx = o->line_ctx };
	size_t max = o->output_max ? o->output_max : DEFAULT_OUTPUT_MAX;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(max, max);
	struct pc_proc_sigs sigs;
	int rc;

	if (o->args && pc_chatcli_argv_has_nul(o->args))
		return start_refused(o->path, EINVAL, c);
	pc_strvec_push(&po.argv, o->path);
	for (size_t i = 0; o->args && i < o->args->nr; i++)
		pc_strvec_push(&po.argv, o->args->v[i].p);
	fill_env(&po.env, o->env);
	po.cwd = o->cwd;
	po.timeout_ms =
		o->timeout_ms ? o->timeout_ms
			      : pc_chatcli_timeout_ms(
					getenv("CHATCLI_AGENT_PLUGIN_TIMEOUT"));
	po.drain_max_ms = o->hard_cap_ms ? o->hard_cap_ms : DEFAULT_CAP_MS;
	po.stdout_max = po.stderr_max = max;
	po.flags = PC_PROC_STDIN_DEVNULL | PC_PROC_DRAIN_AFTER_KILL;
	po.on_output = on_chunk;
	po.output_ctx = &m;
	pc_proc_sigs_chatcli(&sigs); /* what Go's os/exec passes on */
	po.sigs = &sigs;
	rc = pc_proc_run(&po, &r, err);
	if (!rc) {
		c->sigs = r.sigs;
		c->timed_out = r.outcome == PC_PROC_TIMEOUT;
		c->capped = r.drain_capped;
		c->duration_ms = r.wall_ms;
		c->leftover_processes = r.leftover_processes;
		c->stderr_bytes = r.err.len;
		c->stdin_read_eof = true;
		if (!m.all.data)
			pc_buf_adds(&m.all, "");
		c->merged = pc_buf_detach(&m.all, &c->merged_len);
		c->err_lines = m.err;
		c->n_err_lines = m.nerr;
		m.err = NULL;
		call_verdict(&r, o->path, c);
		if (!o->raw) {
			struct pc_chatcli_compress_env env;

			pc_chatcli_compress_env_read(&env, o->env ? o->env->v
								  : NULL);
			pc__chatcli_deliver(o->tool, o->tool_len,
					    o->compress ? o->compress : &env, c);
		}
	}
	free(m.err);
	pc_buf_release(&m.all);
	pc_buf_release(&m.pending[0]);
	pc_buf_release(&m.pending[1]);
	pc_proc_result_release(&r);
	pc_proc_opts_release(&po);
	return rc;
}

void pc_chatcli_call_release(struct pc_chatcli_call *c)
{
	free(c->merged);
	free(c->err_lines);
	free(c->output);
	free(c->error);
	free(c->remote_detail);
	*c = (struct pc_chatcli_call)PC_CHATCLI_CALL_INIT;
}

/* --- M1-M5, S1-S2 -----------------------------------------------------------
 */

static int run_flag(const char *path, const char *flag,
		    const struct pc_strvec *env, const char *cwd,
		    int64_t timeout_ms, struct pc_chatcli_run *out,
		    char **go_err, struct pc_err *err)
{
	struct pc_proc_opts po = PC_PROC_OPTS_INIT;
	struct pc_proc_result r =
		PC_PROC_RESULT_INIT(DEFAULT_OUTPUT_MAX, DEFAULT_OUTPUT_MAX);
	struct pc_proc_sigs sigs;
	int rc;

	pc_strvec_push(&po.argv, path);
	pc_strvec_push(&po.argv, flag);
	fill_env(&po.env, env);
	po.cwd = cwd;
	po.timeout_ms = timeout_ms;
	po.stdout_max = po.stderr_max = DEFAULT_OUTPUT_MAX;
	po.flags = PC_PROC_STDIN_DEVNULL;
	pc_proc_sigs_chatcli(&sigs);
	po.sigs = &sigs;
	rc = pc_proc_run(&po, &r, err);
	*go_err = NULL;
	if (!rc) {
		out->ran = r.outcome != PC_PROC_SPAWN_ERROR;
		out->hung = r.outcome == PC_PROC_TIMEOUT;
		out->exit_code =
			r.has_status && !r.term_signal ? r.exit_code : -1;
		out->ms = r.wall_ms;
		out->leftover_processes = r.leftover_processes;
		out->out = pc_xmemdup(r.out.data ? r.out.data : "", r.out.len);
		out->out_len = r.out.len;
		out->err = pc_xmemdup(r.err.data ? r.err.data : "", r.err.len);
		if (!out->ran)
			*go_err = go_start_error(path, r.spawn_errno);
		else if (out->hung)
			*go_err = pc_xasprintf(
				"plugcheck: '%s %s' did not finish within %lld ms; the host has no timeout and would wait forever",
				path, flag, (long long)timeout_ms);
		else if (r.outcome != PC_PROC_EXITED)
			*go_err = pc_xasprintf("plugcheck: %s",
					       pc_proc_outcome_name(r.outcome));
		else
			*go_err = go_wait_error(&r);
	}
	pc_proc_result_release(&r);
	pc_proc_opts_release(&po);
	return rc;
}

int pc_chatcli_probe(const char *path, const struct pc_strvec *env,
		     const char *cwd, int64_t timeout_ms,
		     struct pc_chatcli_probe *p, struct pc_err *err)
{
	struct stat st;
	char *gerr = NULL;
	int rc;

	if (stat(path, &st) < 0 || S_ISDIR(st.st_mode)) {
		p->host_error = pc_xstrdup("invalid path");
		return 0;
	}
	if (!(st.st_mode & 0111)) {
		p->host_error = pc_xstrdup("not executable");
		return 0;
	}
	rc = run_flag(path, "--metadata", env, cwd, timeout_ms,
		      &p->metadata_run, &gerr, err);
	if (rc)
		return rc;
	if (gerr) {
		p->host_error = gerr;
		return 0;
	}
	if (pc_chatcli_meta_decode(p->metadata_run.out, p->metadata_run.out_len,
				   &p->meta, &p->host_error)) {
		pc_chatcli_meta_release(&p->meta);
		return 0;
	}
	rc = run_flag(path, "--schema", env, cwd, timeout_ms, &p->schema_run,
		      &gerr, err);
	if (rc)
		return rc;
	if (!gerr && pc_chatcli_json_check(p->schema_run.out,
					   p->schema_run.out_len, NULL))
		p->schema =
			pc_xmemdup(p->schema_run.out, p->schema_run.out_len);
	free(gerr);
	p->loaded = true;
	return 0;
}

static void run_release(struct pc_chatcli_run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

void pc_chatcli_probe_release(struct pc_chatcli_probe *p)
{
	free(p->host_error);
	free(p->schema);
	pc_chatcli_meta_release(&p->meta);
	run_release(&p->metadata_run);
	run_release(&p->schema_run);
	memset(p, 0, sizeof(*p));
}

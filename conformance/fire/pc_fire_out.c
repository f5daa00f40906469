/* pc_fire_out.c - the JSON and human forms of one firing. */
#include <stdlib.h>
#include <string.h>

#include "pc_fire.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* The bytes lossily decoded, NULs kept (a string node takes them as host
 * text, pc_serde.h). */
static cJSON *lossy(const struct pc_buf *b)
{
	struct pc_buf s = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v;

	pc_rust_lossy_utf8(&s, pc_buf_cstr(b), b->len);
	v = pc_serde_string_n(pc_buf_cstr(&s), s.len);
	pc_buf_release(&s);
	return v;
}

/* Write host text (pc_serde.h stored form) as the raw bytes it stands
 * for: a NUL in a reason or an output is written as the NUL byte the host
 * emits, not cut and not as C0 80. */
static void put_text(FILE *out, const char *text)
{
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_text_raw(&raw, text);
	fwrite(pc_buf_cstr(&raw), 1, raw.len, out);
	pc_buf_release(&raw);
}

/* "<label><text>\n" with the text as raw bytes. */
static void line(FILE *out, const char *label, const char *text)
{
	fputs(label, out);
	put_text(out, text);
	fputc('\n', out);
}

static cJSON *strvec(const struct pc_strvec *v)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < v->nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v->v[i]));
	return a;
}

cJSON *pc_fire_sigs_json(const struct pc_proc_sigs *sigs)
{
	struct pc_strvec ign = PC_STRVEC_INIT, blk = PC_STRVEC_INIT;
	cJSON *o;

	if (!sigs)
		return cJSON_CreateNull();
	pc_proc_sigs_names(&sigs->ignored, &ign);
	pc_proc_sigs_names(&sigs->blocked, &blk);
	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "ignored", strvec(&ign));
	cJSON_AddItemToObject(o, "blocked", strvec(&blk));
	pc_strvec_release(&ign);
	pc_strvec_release(&blk);
	return o;
}

void pc_fire_print_sigs(FILE *out, const struct pc_proc_sigs *sigs)
{
	const sigset_t *sets[] = { &sigs->ignored, &sigs->blocked };

	fputs("signals ", out);
	for (size_t k = 0; k < 2; k++) {
		struct pc_strvec v = PC_STRVEC_INIT;

		pc_proc_sigs_names(sets[k], &v);
		fprintf(out, "%s %s:", k ? ";" : "", k ? "blocked" : "ignored");
		if (!v.nr)
			fputs(" none", out);
		for (size_t i = 0; i < v.nr; i++)
			fprintf(out, " %s", v.v[i]);
		pc_strvec_release(&v);
	}
	fputc('\n', out);
}

static void add_facts(cJSON *o, const struct pc_exchange *x)
{
	const struct pc_proc_result *r = &x->proc;
	cJSON *ev = cJSON_CreateArray();

	if (x->spawned && r->has_status && !r->term_signal)
		cJSON_AddNumberToObject(o, "exit_code", r->exit_code);
	else
		cJSON_AddNullToObject(o, "exit_code");
	if (x->spawned && r->term_signal)
		cJSON_AddNumberToObject(o, "signal", r->term_signal);
	else
		cJSON_AddNullToObject(o, "signal");
	cJSON_AddNumberToObject(o, "duration_ms", (double)r->wall_ms);
	cJSON_AddNumberToObject(o, "stdout_bytes", (double)r->out.len);
	cJSON_AddNumberToObject(o, "stderr_bytes", (double)r->err.len);
	cJSON_AddNumberToObject(o, "leftover_processes", r->leftover_processes);
	cJSON_AddItemToObject(o, "signals",
			      pc_fire_sigs_json(x->spawned && r->pid > 0
							? &r->sigs
							: NULL));
	cJSON_AddBoolToObject(o, "spawned", x->spawned);
	cJSON_AddItemToObject(o, "argv", strvec(&x->argv));
	cJSON_AddItemToObject(o, "stdin", lossy(&x->stdin_json));
	cJSON_AddItemToObject(o, "stdout", lossy(&r->out));
	cJSON_AddItemToObject(o, "stderr", lossy(&r->err));
	for (size_t i = 0; i < x->events.nr; i++) {
		cJSON *e = NULL;

		if (pc_serde_parse(x->events.v[i], strlen(x->events.v[i]),
				   &e, NULL) == 0)
			cJSON_AddItemToArray(ev, e);
	}
	cJSON_AddItemToObject(o, "events", ev);
	cJSON_AddItemToObject(o, "host_log", strvec(&x->log));
	if (x->swapped)
		cJSON_AddStringToObject(o, "swapped_to", x->swapped);
	if (x->sandbox.active) {
		cJSON *sb = cJSON_AddObjectToObject(o, "sandbox");

		cJSON_AddItemToObject(sb, "network", strvec(&x->sandbox.net));
		cJSON_AddItemToObject(sb, "workspace_writes",
				      strvec(&x->sandbox.ws_writes));
		cJSON_AddItemToObject(sb, "outside_writes",
				      strvec(&x->sandbox.out_writes));
		if (x->sandbox.trace_error) /* only when the trace was not
						       read whole */
			cJSON_AddStringToObject(sb, "trace_error",
						x->sandbox.trace_error);
	}
}

static void add_hook(cJSON *o, const struct pc_hook_result *h)
{
	cJSON_AddStringToObject(o, "outcome", pc_outcome_name(h->outcome));
	cJSON_AddBoolToObject(o, "allow", h->allow);
	cJSON_AddStringToObject(o, "reason", h->reason ? h->reason : "");
	if (h->modify)
		cJSON_AddItemToObject(o, "modify", cJSON_Duplicate(h->modify, 1));
	if (h->notify)
		cJSON_AddStringToObject(o, "notify", h->notify);
	if (h->status)
		cJSON_AddStringToObject(o, "status", h->status);
}

static void add_oauth(cJSON *o, const struct pc_oauth_result *r)
{
	cJSON_AddStringToObject(o, "outcome", pc_outcome_name(r->outcome));
	cJSON_AddBoolToObject(o, "ok", r->ok);
	cJSON_AddStringToObject(o, "message", r->message ? r->message : "");
	if (r->flow)
		cJSON_AddStringToObject(o, "flow", r->flow);
	else
		cJSON_AddNullToObject(o, "flow");
	cJSON_AddItemToObject(o, "response",
			      r->response ? cJSON_Duplicate(r->response, 1)
					  : cJSON_CreateNull());
}

/* The whole /login or /oauth-code (PC_FIRE_OAUTH_FLOW): the host's final
 * state, its events, the loopback requests, and each script run. */
static void add_oauth_flow(cJSON *o, const struct pc_oauth_login *l)
{
	cJSON *a = cJSON_CreateArray(), *ev = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "mode", "flow");
	cJSON_AddBoolToObject(o, "ok", l->state != PC_OAUTH_LOGIN_FAILED);
	cJSON_AddStringToObject(o, "state", pc_oauth_login_state_name(l->state));
	cJSON_AddStringToObject(o, "message", l->message ? l->message : "");
	if (l->flow)
		cJSON_AddStringToObject(o, "flow", l->flow);
	else
		cJSON_AddNullToObject(o, "flow");
	if (l->redirect_uri)
		cJSON_AddStringToObject(o, "redirect_uri", l->redirect_uri);
	else
		cJSON_AddNullToObject(o, "redirect_uri");
	cJSON_AddItemToObject(o, "pending_state",
			      l->pending.provider_id
				      ? pc_oauth_pending_json(&l->pending)
				      : cJSON_CreateNull());
	for (size_t i = 0; i < l->events.nr; i++) {
		cJSON *e = NULL;

		if (pc_serde_parse(l->events.v[i], strlen(l->events.v[i]), &e,
				   NULL) == 0)
			cJSON_AddItemToArray(ev, e);
	}
	cJSON_AddItemToObject(o, "events", ev);
	for (size_t i = 0; i < l->nredirects; i++) {
		cJSON *r = cJSON_CreateObject();

		cJSON_AddStringToObject(r, "request_line",
					l->redirects[i].request_line);
		cJSON_AddStringToObject(r, "verdict",
					pc_oauth_redirect_verdict_name(
						l->redirects[i].verdict));
		cJSON_AddItemToArray(a, r);
	}
	cJSON_AddItemToObject(o, "redirects", a);
	a = cJSON_CreateArray();
	for (size_t i = 0; i < l->nsteps; i++) {
		cJSON *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "action", l->steps[i].action);
		add_oauth(s, &l->steps[i].r);
		add_facts(s, &l->steps[i].x);
		cJSON_AddItemToArray(a, s);
	}
	cJSON_AddItemToObject(o, "steps", a);
}

static void add_result(cJSON *o, const struct pc_fire *f)
{
	switch (f->kind) {
	case PC_FIRE_HOOK:
		add_hook(o, &f->hook);
		break;
	case PC_FIRE_TOOL:
	case PC_FIRE_COMMAND:
		cJSON_AddStringToObject(o, "outcome",
					pc_outcome_name(f->call.outcome));
		cJSON_AddBoolToObject(o, "ok", f->call.ok);
		cJSON_AddStringToObject(o, "output", f->call.output);
		break;
	case PC_FIRE_PROMPT:
		cJSON_AddStringToObject(o, "mode", "agent_turn");
		cJSON_AddBoolToObject(o, "ok", f->call.ok);
		if (f->call.ok)
			cJSON_AddStringToObject(o, "prompt", f->call.output);
		else
			cJSON_AddStringToObject(o, "error", f->call.output);
		break;
	case PC_FIRE_MEMORY:
		cJSON_AddStringToObject(o, "outcome",
					pc_outcome_name(f->mem.outcome));
		cJSON_AddBoolToObject(o, "ok", f->mem.ok);
		cJSON_AddStringToObject(o, "output", f->mem.output);
		cJSON_AddStringToObject(o, "injection", f->mem.injection);
		cJSON_AddStringToObject(o, "id", f->mem.id);
		cJSON_AddItemToObject(o, "entries",
				      cJSON_Duplicate(f->mem.entries, 1));
		break;
	case PC_FIRE_OAUTH:
		add_oauth(o, &f->oauth);
		break;
	case PC_FIRE_OAUTH_FLOW:
		add_oauth_flow(o, &f->login);
		break;
	}
}

cJSON *pc_fire_json(const struct pc_fire *f)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "point", f->point ? f->point : "");
	if (!f->plugin) {
		cJSON_AddBoolToObject(j, "loaded", false);
		cJSON_AddStringToObject(j, "host_error",
					f->host_error ? f->host_error : "");
		/* what the host logged before and at the rejection (R1.12,
		 * R1.11) */
		cJSON_AddItemToObject(j, "host_log", strvec(&f->x.log));
		return j;
	}
	cJSON_AddBoolToObject(j, "loaded", true);
	cJSON_AddStringToObject(j, "plugin", f->plugin->name);
	add_result(j, f);
	if (f->kind != PC_FIRE_PROMPT && f->kind != PC_FIRE_OAUTH_FLOW)
		add_facts(j, &f->x);
	else
		cJSON_AddItemToObject(j, "host_log", strvec(&f->x.log));
	return j;
}

static void verdict(FILE *out, const struct pc_fire *f, const char *g,
		    const char *r, const char *off)
{
	switch (f->kind) {
	case PC_FIRE_HOOK:
		fprintf(out, "verdict  %s%s%s (%s)\n", f->hook.allow ? g : r,
			f->hook.allow ? "ALLOW" : "DENY", off,
			pc_outcome_name(f->hook.outcome));
		line(out, "reason   ", *f->hook.reason ? f->hook.reason
						      : "(empty)");
		if (f->hook.modify) {
			char *m = pc_serde_to_string(f->hook.modify);

			fprintf(out, "modify   %s\n", m);
			free(m);
		}
		if (f->hook.notify)
			line(out, "notify   ", f->hook.notify);
		if (f->hook.status) {
			fputs("status   \"", out);
			put_text(out, f->hook.status);
			fputs("\"\n", out);
		}
		break;
	case PC_FIRE_TOOL:
	case PC_FIRE_COMMAND:
	case PC_FIRE_PROMPT:
		fprintf(out, "verdict  %s%s%s\n", f->call.ok ? g : r,
			f->call.ok ? "OK" : "FAILED", off);
		line(out,
		     f->kind == PC_FIRE_PROMPT && f->call.ok ? "prompt   "
							     : "output   ",
		     f->call.output);
		break;
	case PC_FIRE_MEMORY:
		fprintf(out, "verdict  %s%s%s\n", f->mem.ok ? g : r,
			f->mem.ok ? "OK" : "FAILED", off);
		line(out, "output   ", f->mem.output);
		if (*f->mem.injection)
			line(out, "inject   ", f->mem.injection);
		break;
	case PC_FIRE_OAUTH:
		fprintf(out, "verdict  %s%s%s%s%s\n", f->oauth.ok ? g : r,
			f->oauth.ok ? "OK" : "FAILED", off,
			f->oauth.flow ? "  next: " : "",
			f->oauth.flow ? f->oauth.flow : "");
		if (*f->oauth.message)
			line(out, "message  ", f->oauth.message);
		break;
	case PC_FIRE_OAUTH_FLOW: {
		const struct pc_oauth_login *l = &f->login;
		bool ok = l->state != PC_OAUTH_LOGIN_FAILED;

		for (size_t i = 0; i < l->nredirects; i++)
			fprintf(out, "redirect %s  (%s)\n",
				l->redirects[i].request_line,
				pc_oauth_redirect_verdict_name(
					l->redirects[i].verdict));
		for (size_t i = 0; i < l->events.nr; i++)
			fprintf(out, "event    %s\n", l->events.v[i]);
		fprintf(out, "verdict  %s%s%s  %s%s%s\n", ok ? g : r,
			ok ? "OK" : "FAILED", off,
			pc_oauth_login_state_name(l->state),
			l->flow ? "  flow: " : "", l->flow ? l->flow : "");
		if (*l->message)
			line(out, "message  ", l->message);
		break;
	}
	}
}

/* print_list - "sandbox WHAT: A B ..." on one line. */
static void print_list(FILE *out, const char *what,
		       const struct pc_strvec *v)
{
	fprintf(out, "sandbox  %s:", what);
	for (size_t i = 0; i < v->nr; i++)
		fprintf(out, " %s", v->v[i]);
	fputc('\n', out);
}

/* print_sandbox - what the script tried past its capabilities. */
static void print_sandbox(FILE *out, const struct pc_confine_obs *s)
{
	if (s->trace_error)
		fprintf(out, "sandbox  incomplete: %s\n", s->trace_error);
	else if (!s->net.nr && !s->ws_writes.nr && !s->out_writes.nr)
		fputs("sandbox  nothing beyond the declared capabilities\n", out);
	if (s->net.nr)
		print_list(out, "connected without access_network to", &s->net);
	if (s->ws_writes.nr)
		print_list(out, "wrote without write_workspace", &s->ws_writes);
	if (s->out_writes.nr)
		print_list(out, "wrote outside the workspace", &s->out_writes);
}

/* The host's stderr lines (host text), one "host log" line each. */
static void print_log(FILE *out, const struct pc_strvec *log)
{
	for (size_t i = 0; i < log->nr; i++)
		line(out, "host log ", log->v[i]);
}

/* print_x - the facts of one exchange, for people. */
static void print_x(FILE *out, const struct pc_exchange *x)
{
	const struct pc_proc_result *p = &x->proc;
	struct pc_buf st = PC_BUF_INIT(PC_BUF_NOCAP);

	fputs("argv    ", out);
	for (size_t i = 0; i < x->argv.nr; i++)
		fprintf(out, " %s", x->argv.v[i]);
	fputc('\n', out);
	pc_fire_show(out, "stdin", &x->stdin_json);
	if (x->swapped) {
		fprintf(out, "refused  the script is now a symlink to '%s', outside the plugin directory: the host (which checks the path only at load, R2.9) would run that file; plugcheck did not\n",
			x->swapped);
	} else if (!x->spawned) {
		fputs("(not spawned: the input is over the 1 MiB cap)\n", out);
	} else {
		pc_fire_show(out, "stdout", &p->out);
		pc_fire_show(out, "stderr", &p->err);
		if (p->has_status)
			pc_rust_exit_status(&st, p->term_signal != 0,
					    p->term_signal ? p->term_signal
							   : p->exit_code,
					    p->core_dumped);
		fprintf(out, "process  %s, %s after %lld ms, %d leftover process(es) killed\n",
			pc_proc_outcome_name(p->outcome),
			p->has_status ? pc_buf_cstr(&st) : "no status",
			(long long)p->wall_ms, p->leftover_processes);
		if (p->pid > 0)
			pc_fire_print_sigs(out, &p->sigs);
	}
	if (x->sandbox.active)
		print_sandbox(out, &x->sandbox);
	for (size_t i = 0; i < x->events.nr; i++)
		fprintf(out, "event    %s\n", x->events.v[i]);
	print_log(out, &x->log);
	pc_buf_release(&st);
}

void pc_fire_print(FILE *out, const struct pc_fire *f, bool color)
{
	const char *g = color ? "\033[32m" : "", *r = color ? "\033[31m" : "";
	const char *off = color ? "\033[0m" : "";

	fprintf(out, "%s -> plugin '%s' (%s)\n", f->point ? f->point : "",
		f->plugin->name, f->path ? f->path : "");
	if (f->kind == PC_FIRE_OAUTH_FLOW) {
		for (size_t i = 0; i < f->login.nsteps; i++) {
			fprintf(out, "-- step %zu: %s\n", i + 1,
				f->login.steps[i].action);
			print_x(out, &f->login.steps[i].x);
		}
	} else if (f->kind != PC_FIRE_PROMPT) {
		print_x(out, &f->x);
	}
	if (f->kind == PC_FIRE_PROMPT || f->kind == PC_FIRE_OAUTH_FLOW)
		print_log(out, &f->x.log);
	verdict(out, f, g, r, off);
}

void pc_fire_print_rejected(FILE *out, const struct pc_fire *f)
{
	fprintf(out, "%s: the host rejects the plugin: ", f->path);
	put_text(out, f->host_error ? f->host_error : "");
	fputc('\n', out);
	print_log(out, &f->x.log);
}

void pc_fire_show(FILE *out, const char *label, const struct pc_buf *b)
{
	size_t max = 4096, n = b->len < max ? b->len : max;

	if (!b->len) {
		fprintf(out, "%-8s (empty)\n", label);
		return;
	}
	fprintf(out, "%-8s %zu bytes\n  | ", label, b->len);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)b->data[i];

		if (c == '\n')
			fputs(i + 1 < n ? "\n  | " : "", out);
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('\n', out);
	if (n < b->len)
		fprintf(out, "  ... %zu more bytes not shown\n", b->len - n);
}

/* add_visible - append bytes [0, n) of `bytes` with each NUL as the four
 * characters \x00: a report keeps texts as C strings, and the JUnit form
 * shows every other control byte that way too. */
static void add_visible(struct pc_buf *b, const char *bytes, size_t n)
{
	for (size_t i = 0, run = 0; i <= n; i++) {
		if (i < n && bytes[i])
			continue;
		pc_buf_add(b, bytes + run, i - run);
		if (i < n)
			pc_buf_adds(b, "\\x00");
		run = i + 1;
	}
}

char *pc_fire_text(const struct pc_fire *f)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);

	if (!m)
		return pc_xstrdup("");
	pc_fire_print(m, f, false);
	fclose(m);
	add_visible(&b, text ? text : "", text ? n : 0);
	free(text);
	return pc_buf_detach(&b, NULL);
}

char *pc_fire_log_text(const struct pc_fire *f)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf raw = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < f->x.log.nr; i++) {
		pc_buf_reset(&raw);
		pc_serde_text_raw(&raw, f->x.log.v[i]);
		add_visible(&b, pc_buf_cstr(&raw), raw.len);
		pc_buf_adds(&b, "\n");
	}
	pc_buf_release(&raw);
	return pc_buf_detach(&b, NULL);
}

char *pc_fire_verdict(const struct pc_fire *f)
{
	switch (f->kind) {
	case PC_FIRE_HOOK:
		return pc_xasprintf("%s (%s) reason: %s",
				    f->hook.allow ? "allow" : "deny",
				    pc_outcome_name(f->hook.outcome),
				    f->hook.reason ? f->hook.reason : "");
	case PC_FIRE_TOOL:
	case PC_FIRE_COMMAND:
		return pc_xasprintf("%s (%s): %s", f->call.ok ? "ok" : "failed",
				    pc_outcome_name(f->call.outcome),
				    f->call.output ? f->call.output : "");
	case PC_FIRE_PROMPT:
		return pc_xasprintf("%s: %s", f->call.ok ? "ok" : "failed",
				    f->call.output ? f->call.output : "");
	case PC_FIRE_MEMORY:
		return pc_xasprintf("%s (%s): output \"%s\", injection \"%s\", id \"%s\"",
				    f->mem.ok ? "ok" : "failed",
				    pc_outcome_name(f->mem.outcome),
				    f->mem.output ? f->mem.output : "",
				    f->mem.injection ? f->mem.injection : "",
				    f->mem.id ? f->mem.id : "");
	case PC_FIRE_OAUTH:
		return pc_xasprintf("%s (%s)%s%s", f->oauth.ok ? "ok" : "failed",
				    pc_outcome_name(f->oauth.outcome),
				    f->oauth.message && *f->oauth.message ? ": "
									  : "",
				    f->oauth.message ? f->oauth.message : "");
	case PC_FIRE_OAUTH_FLOW:
		return pc_xasprintf("%s (%s)",
				    f->passed ? "ok" : "failed",
				    pc_oauth_login_state_name(f->login.state));
	}
	return pc_xstrdup("");
}

/* `w` shell-quoted for sh: as is when it is made of safe characters, else
 * in single quotes (each ' as '\''). */
static void quote(struct pc_buf *b, const char *w)
{
	bool plain = *w != 0;

	for (const char *p = w; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@,+%", *p) != NULL;
	pc_buf_adds(b, " ");
	if (plain) {
		pc_buf_adds(b, w);
		return;
	}
	pc_buf_adds(b, "'");
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			pc_buf_adds(b, "'\\''");
		else
			pc_buf_add(b, p, 1);
	pc_buf_adds(b, "'");
}

char *pc_fire_command(const struct pc_fire *f, bool sandbox)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool file = f->in_args && strlen(f->in_args) > PC_FIRE_COMMAND_ARGS_MAX;

	pc_buf_adds(&b, "plugcheck fire");
	quote(&b, f->point ? f->point : "");
	quote(&b, f->path ? f->path : "");
	if (f->in_tool) {
		quote(&b, "--tool");
		quote(&b, f->in_tool);
	}
	if (f->in_args && !file) {
		quote(&b, "--args");
		quote(&b, f->in_args);
	} else if (file) {
		pc_buf_adds(&b, " --args-file ARGS.json");
	}
	if (f->in_result) {
		quote(&b, "--result");
		quote(&b, f->in_result);
	}
	if (sandbox)
		pc_buf_adds(&b, " --sandbox");
	if (file)
		pc_buf_addf(&b, "  # ARGS.json: the %zu bytes of args sent (the stdin's \"args\")",
			    strlen(f->in_args));
	return pc_buf_detach(&b, NULL);
}

struct pc_xchg *pc_fire_xchg(const struct pc_fire *f, bool sandbox)
{
	const struct pc_exchange *e = &f->x;
	struct pc_xchg *x;

	/* a whole /login ran several scripts: the last one decided */
	if (f->kind == PC_FIRE_OAUTH_FLOW && f->login.nsteps)
		e = &f->login.steps[f->login.nsteps - 1].x;
	x = pc_xchg_from_exchange(e);
	if (f->kind == PC_FIRE_PROMPT) { /* the host renders it, R7.5 */
		free(x->process);
		x->process = pc_xstrdup("no process: a prompt-backed command");
	}
	x->point = pc_xstrdup(f->point ? f->point : "");
	x->command = pc_fire_command(f, sandbox);
	x->verdict = pc_fire_verdict(f);
	x->passed = f->passed;
	return x;
}

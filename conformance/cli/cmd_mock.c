/* cmd_mock.c - `plugcheck mock-model serve`: the scripted model as an
 * OpenAI-compatible HTTP server on 127.0.0.1 (docs/mock-model.md). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_opts.h"
#include "pc_buf.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_mock.h"
#include "pc_model_script.h"
#include "pc_mock_http.h"
#include "pc_time.h"

static const struct pc_opt opts[] = {
	{ .name = "port", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "TCP port on 127.0.0.1 (default 0: a free port)", .min = 0,
	  .max = 65535 },
	{ .name = "record", .kind = PC_OPT_VALUE, .metavar = "FILE",
	  .help = "rewrite FILE with every request received so far\n"
		  "(method, path, query, headers, body, status)" },
	{ .name = "max-requests", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "stop after answering N requests", .min = 0,
	  .max = 4294967295L },
	{ .name = "timeout", .kind = PC_OPT_VALUE, .metavar = "SECONDS",
	  .help = "stop after SECONDS seconds (default: never)", .min = 0,
	  .max = 86400L * 365 },
	{ .name = "require-auth", .kind = PC_OPT_FLAG,
	  .help = "/v1/... need a Bearer token issued by /oauth/token" },
	{ .name = "device-pending", .kind = PC_OPT_VALUE, .metavar = "N",
	  .help = "answer the first N device-code polls with\n"
		  "authorization_pending",
	  .min = 0, .max = 1000000 },
	{ .name = "model", .kind = PC_OPT_VALUE, .metavar = "ID",
	  .help = "the model id served (default plugcheck-mock)" },
	{ .name = "single-use-refresh", .kind = PC_OPT_FLAG,
	  .help = "a refresh token works once; presenting a spent one\n"
		  "revokes the login (OAuth 2.1 reuse detection)" },
	{ .name = "expire-at-once", .kind = PC_OPT_FLAG,
	  .help = "issue access tokens with expires_in 0" },
};

struct serve_opts {
	struct pc_mock_http_opts http;
	unsigned timeout_s;
	const char *script;
};

/* the one script loader: turn, mock-model serve, model_file */
static int load(const char *path, struct pc_mock **m)
{
	struct pc_err err = PC_ERR_INIT;
	int rc = pc_model_script_load(path, NULL, m, &err);

	if (rc)
		fprintf(stderr, "plugcheck: mock-model: %s\n", err.msg);
	return rc;
}

/* serve_until_stopped - a signal, the request budget or the timeout. */
static const char *serve_until_stopped(struct pc_mock_http *s,
				       const sigset_t *stop, unsigned timeout_s)
{
	const struct timespec zero = { 0, 0 };
	int64_t deadline = pc_time_now_ms() + (int64_t)timeout_s * 1000;

	for (;;) {
		int sig;

		if (pc_mock_http_wait(s, 100))
			return "the request budget is used up";
		sig = sigtimedwait(stop, NULL, &zero);
		if (sig == SIGINT)
			return "SIGINT";
		if (sig == SIGTERM)
			return "SIGTERM";
		if (timeout_s && pc_time_now_ms() >= deadline)
			return "--timeout reached";
	}
}

static int serve(struct serve_opts *o)
{
	struct pc_err err = PC_ERR_INIT;
	struct pc_mock *m = NULL;
	struct pc_mock_http *s = NULL;
	const char *why;
	char *unused = NULL;
	sigset_t stop, old;

	if (load(o->script, &m))
		return PC_EXIT_USAGE;
	/* Blocked before the server thread starts, so it inherits the mask
	 * and only sigtimedwait below ever takes SIGINT/SIGTERM. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	if (pc_mock_http_start(m, &o->http, &s, &err) < 0) {
		fprintf(stderr, "plugcheck: mock-model: %s\n", err.msg);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pc_mock_free(m);
		return PC_EXIT_INTERNAL;
	}
	printf("listening on http://127.0.0.1:%u\n", pc_mock_http_port(s));
	fflush(stdout);
	why = serve_until_stopped(s, &stop, o->timeout_s);
	fprintf(stderr,
		"plugcheck: mock-model: stopping (%s) after %u requests\n", why,
		pc_mock_http_count(s));
	pc_mock_http_stop(s);
	if (!pc_mock_consumed(m, &unused) && unused)
		fprintf(stderr, "plugcheck: mock-model: %s\n", unused);
	free(unused);
	pc_mock_free(m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return PC_EXIT_OK;
}

static int run(const struct pc_args *a)
{
	struct serve_opts o = { .http = PC_MOCK_HTTP_OPTS_INIT };

	if (strcmp(a->pos[0], "serve"))
		return pc_cli_usage_error("mock-model", "unknown subcommand '%s' (the one there is: serve)",
					  a->pos[0]);
	o.http.port = pc_args_uint(a, "port", 0);
	o.http.record_path = pc_args_value(a, "record");
	o.http.max_requests = pc_args_uint(a, "max-requests", 0);
	o.timeout_s = pc_args_uint(a, "timeout", 0);
	o.http.require_auth = pc_args_flag(a, "require-auth");
	o.http.device_pending_polls = pc_args_uint(a, "device-pending", 0);
	if (pc_args_value(a, "model"))
		o.http.model_id = pc_args_value(a, "model");
	o.http.single_use_refresh = pc_args_flag(a, "single-use-refresh");
	o.http.expire_at_once = pc_args_flag(a, "expire-at-once");
	o.script = a->pos[1];
	return serve(&o);
}

const struct pc_cmd pc_cmd_mock_model = {
	.name = "mock-model",
	.summary = "serve a scripted model over HTTP (OpenAI API, mock OAuth)",
	.synopsis = { "serve SCRIPT.json [options]", NULL },
	.description = {
		"Serve the scripted model SCRIPT.json (docs/mock-model.md) as an\n"
		"OpenAI-compatible chat-completions API on 127.0.0.1 only, with a mock\n"
		"OAuth authorization server under /oauth/. Prints\n"
		"`listening on http://127.0.0.1:PORT` on stdout once it accepts\n"
		"connections; SIGINT or SIGTERM stop it.\n",
		NULL },
	.exits = "Exit: 0 stopped cleanly, 2 usage or a bad script, 70 cannot serve.\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 2,
	.max_pos = 2,
	.run = run,
};

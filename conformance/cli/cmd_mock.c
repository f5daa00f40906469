/* cmd_mock.c - `plugcheck mock-model serve`: the scripted model as an
 * OpenAI-compatible HTTP server on 127.0.0.1 (docs/mock-model.md). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pc_buf.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_mock.h"
#include "pc_mock_http.h"
#include "pc_time.h"

static const char usage[] =
	"usage: plugcheck mock-model serve [options] SCRIPT.json\n\n"
	"Serve the scripted model SCRIPT.json (docs/mock-model.md) as an\n"
	"OpenAI-compatible chat-completions API on 127.0.0.1 only, with a mock\n"
	"OAuth authorization server under /oauth/. Prints\n"
	"`listening on http://127.0.0.1:PORT` on stdout once it accepts\n"
	"connections; SIGINT or SIGTERM stop it.\n\n"
	"Options:\n"
	"  --port N            TCP port on 127.0.0.1 (default 0: a free port)\n"
	"  --record FILE       rewrite FILE with every request received so far\n"
	"                      (method, path, query, headers, body, status)\n"
	"  --max-requests N    stop after answering N requests\n"
	"  --timeout SECONDS   stop after SECONDS seconds (default: never)\n"
	"  --require-auth      /v1/... need a Bearer token issued by /oauth/token\n"
	"  --device-pending N  answer the first N device-code polls with\n"
	"                      authorization_pending\n"
	"  --model ID          the model id served (default plugcheck-mock)\n"
	"  -h, --help          show this help\n\n"
	"Exit: 0 stopped cleanly, 2 usage or a bad script, 70 cannot serve.\n";

struct serve_opts {
	struct pc_mock_http_opts http;
	unsigned timeout_s;
	const char *script;
};

static int number(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > max) {
		fprintf(stderr,
			"plugcheck: mock-model: '%s' is not a number in 0..%u\n",
			s, max);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct serve_opts *o)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "record", required_argument, NULL, 'r' },
		{ "max-requests", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "require-auth", no_argument, NULL, 'a' },
		{ "device-pending", required_argument, NULL, 'd' },
		{ "model", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			rc = number(optarg, 65535, &o->http.port);
			break;
		case 'r':
			o->http.record_path = optarg;
			break;
		case 'n':
			rc = number(optarg, UINT_MAX, &o->http.max_requests);
			break;
		case 't':
			rc = number(optarg, 86400 * 365, &o->timeout_s);
			break;
		case 'a':
			o->http.require_auth = true;
			break;
		case 'd':
			rc = number(optarg, 1000000,
				    &o->http.device_pending_polls);
			break;
		case 'm':
			o->http.model_id = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			rc = -1;
		}
	}
	if (!rc && optind == argc - 1)
		o->script = argv[optind];
	else
		rc = -1;
	return rc;
}

static int load(const char *path, struct pc_mock **m)
{
	struct pc_buf b = PC_BUF_INIT((size_t)64 << 20);
	struct pc_err err = PC_ERR_INIT;
	int rc = pc_fs_read_capped(path, &b, &err);

	if (rc) /* the error names the file already */
		fprintf(stderr, "plugcheck: mock-model: %s\n", err.msg);
	else if ((rc = pc_mock_new_text(pc_buf_cstr(&b), b.len, m, &err)))
		fprintf(stderr, "plugcheck: mock-model: %s: %s\n", path,
			err.msg);
	pc_buf_release(&b);
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

static int run(int argc, char **argv)
{
	struct serve_opts o = { .http = PC_MOCK_HTTP_OPTS_INIT };
	int rc;

	if (argc >= 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return PC_EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "serve")) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	rc = parse_opts(argc - 1, argv + 1, &o);
	if (rc > 0)
		return PC_EXIT_OK;
	if (rc < 0) {
		fputs(usage, stderr);
		return PC_EXIT_USAGE;
	}
	return serve(&o);
}

const struct pc_cmd pc_cmd_mock_model = {
	.name = "mock-model",
	.summary = "serve a scripted model over HTTP (OpenAI API, mock OAuth)",
	.usage = usage,
	.run = run,
};

/* bench_turn.c - turns per second for a 10-tool-call turn with 3 plugins,
 * against the same hooks fired standalone, in the same run (issue 4).
 *
 * Three plugins each hook pre_read, pre_tool, post_read and post_tool with
 * the compiled trivial hook. The scripted model answers the first request
 * with ten read_file calls and the second with text, so one turn fires
 * 3 x 4 x 10 = 120 hooks plus ten built-in reads and two model replies.
 * The baseline fires the same 120 hooks through pc_host_run_hook with the
 * same arguments, without the turn engine. Each loop runs `reps` times,
 * interleaved; the table shows medians and the ratio turn/standalone.
 * Nothing asserts on time.
 *
 * Usage: bench_turn [-n TURNS] [-r REPS]   (defaults 20 and 5)
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_mock.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_turn.h"
#include "pc_xalloc.h"

extern char **environ;

#define NPLUG 3
#define NCALLS 10
#define MAX_REPS 99

static const int points[] = { PC_HOOK_PRE_READ, PC_HOOK_PRE_TOOL,
			      PC_HOOK_POST_READ, PC_HOOK_POST_TOOL };

static void die(const char *what)
{
	fprintf(stderr, "bench_turn: %s\n", what);
	exit(1);
}

static char *make_plugin(const char *root, int i)
{
	char *dir = pc_xasprintf("%s/p%d", root, i), *hooks, *hook, *mf;
	char *manifest = pc_xasprintf(
		"{\"name\":\"p%d\",\"version\":\"1\",\"hooks\":{"
		"\"pre_read\":{\"script\":\"hooks/h\"},"
		"\"pre_tool\":{\"script\":\"hooks/h\"},"
		"\"post_read\":{\"script\":\"hooks/h\"},"
		"\"post_tool\":{\"script\":\"hooks/h\"}}}",
		i);
	struct pc_buf bin = PC_BUF_INIT((size_t)64 << 20);

	hooks = pc_fs_join(dir, "hooks");
	hook = pc_fs_join(hooks, "h");
	mf = pc_fs_join(dir, "plugin.json");
	if (pc_fs_mkdir_p(hooks, NULL) || pc_fs_read_capped(TRIVIAL_HOOK, &bin, NULL) ||
	    pc_fs_write(hook, bin.data, bin.len, NULL) || chmod(hook, 0755) ||
	    pc_fs_write(mf, manifest, strlen(manifest), NULL))
		die("cannot write the plugins");
	pc_buf_release(&bin);
	free(hooks);
	free(hook);
	free(mf);
	free(manifest);
	return dir;
}

static int model(void *ctx, const cJSON *messages, const cJSON *tools,
		 cJSON **reply, struct pc_err *err)
{
	return pc_mock_reply(ctx, messages, tools, reply, NULL, err);
}

static char *script(void)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_buf_adds(&b, "{\"replies\":[{\"tool_calls\":[");
	for (int i = 0; i < NCALLS; i++)
		pc_buf_addf(&b, "%s{\"name\":\"read_file\",\"arguments\":{\"path\":\"hello.txt\"}}",
			    i ? "," : "");
	pc_buf_adds(&b, "]},{\"content\":\"done\"}]}");
	return pc_buf_detach(&b, NULL);
}

static double one_turn(struct pc_plugin **plugins, const char *ws)
{
	struct pc_host h = PC_HOST_INIT;
	struct pc_turn_opts o = PC_TURN_OPTS_INIT;
	struct pc_turn t = PC_TURN_INIT;
	struct pc_mock *m = NULL;
	char *text = script();
	int64_t t0;

	if (pc_mock_new_text(text, strlen(text), &m, NULL))
		die("bad script");
	pc_host_init(&h, environ, ws, "/tmp/bench.jsonl");
	o.host = &h;
	o.plugins = plugins;
	o.nplugins = NPLUG;
	o.model = model;
	o.model_ctx = m;
	t0 = pc_time_now_us();
	pc_turn_run(&t, &o, "read it ten times", NULL);
	t0 = pc_time_now_us() - t0;
	if (!t.completed)
		die("the turn did not complete");
	pc_turn_release(&t);
	pc_mock_free(m);
	pc_host_release(&h);
	free(text);
	return (double)t0 / 1000.0;
}

static double standalone(struct pc_plugin **plugins, const char *ws)
{
	struct pc_host h = PC_HOST_INIT;
	cJSON *args = cJSON_CreateObject(), *res = cJSON_CreateObject();
	int64_t t0;

	cJSON_AddStringToObject(args, "path", "hello.txt");
	cJSON_AddNullToObject(res, "diff");
	cJSON_AddBoolToObject(res, "ok", 1);
	cJSON_AddStringToObject(res, "output", "hello\n");
	pc_host_init(&h, environ, ws, "/tmp/bench.jsonl");
	t0 = pc_time_now_us();
	for (int c = 0; c < NCALLS; c++)
		for (size_t k = 0; k < 4; k++)
			for (int p = 0; p < NPLUG; p++) {
				struct pc_hook_result r;
				struct pc_exchange x;
				bool post = points[k] == PC_HOOK_POST_READ ||
					    points[k] == PC_HOOK_POST_TOOL;

				pc_exchange_init(&x);
				pc_host_run_hook(&h, plugins[p],
						 (enum pc_hook_point)points[k],
						 "read_file", args,
						 post ? res : NULL, &r, &x, NULL);
				pc_hook_result_release(&r);
				pc_exchange_release(&x);
			}
	t0 = pc_time_now_us() - t0;
	pc_host_release(&h);
	cJSON_Delete(args);
	cJSON_Delete(res);
	return (double)t0 / 1000.0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = 20, reps = 5, opt;
	char *root = pc_fs_mkdtemp("bench-turn"), *ws, *hello;
	struct pc_plugin *plugins[NPLUG];
	double turn_ms[MAX_REPS], solo_ms[MAX_REPS];

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		if (opt == 'n')
			n = (int)strtol(optarg, NULL, 10);
		else if (opt == 'r')
			reps = (int)strtol(optarg, NULL, 10);
	}
	if (!root || n < 1 || reps < 1 || reps > MAX_REPS)
		die("usage: bench_turn [-n TURNS] [-r REPS]");
	ws = pc_fs_join(root, "ws");
	hello = pc_fs_join(ws, "hello.txt");
	pc_fs_mkdir_p(ws, NULL);
	pc_fs_write(hello, "hello\n", 6, NULL);
	for (int i = 0; i < NPLUG; i++) {
		char *dir = make_plugin(root, i);

		if (pc_manifest_load(dir, &(struct pc_manifest_env){ 0 },
				     &plugins[i], NULL))
			die("a plugin does not load");
		free(dir);
	}
	for (int r = 0; r < reps; r++) {
		turn_ms[r] = solo_ms[r] = 0;
		for (int i = 0; i < n; i++) {
			turn_ms[r] += one_turn(plugins, ws);
			solo_ms[r] += standalone(plugins, ws);
		}
	}
	qsort(turn_ms, (size_t)reps, sizeof(double), cmp);
	qsort(solo_ms, (size_t)reps, sizeof(double), cmp);
	printf("turns: %d per run, %d hooks per turn, median of %d runs\n", n,
	       NPLUG * 4 * NCALLS, reps);
	printf("%-12s %12s %12s %8s\n", "", "ms/turn", "turns/s", "ratio");
	printf("%-12s %12.2f %12.2f %8s\n", "turn", turn_ms[reps / 2] / n,
	       1000.0 * n / turn_ms[reps / 2], "");
	printf("%-12s %12.2f %12.2f %8.3f\n", "standalone", solo_ms[reps / 2] / n,
	       1000.0 * n / solo_ms[reps / 2], turn_ms[reps / 2] / solo_ms[reps / 2]);
	printf("figure: turn of 120 hook firings vs the same hooks standalone\t%.1f ms\t%.1f ms\t%.3f\t-\n",
	       turn_ms[reps / 2] / n, solo_ms[reps / 2] / n,
	       turn_ms[reps / 2] / solo_ms[reps / 2]);
	for (int i = 0; i < NPLUG; i++)
		pc_plugin_free(plugins[i]);
	pc_fs_rm_rf(root);
	free(root);
	free(ws);
	free(hello);
	return 0;
}

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_cli.h"
#include "pc_exit.h"
#include "pc_serde.h"

int pc_cli_format(const char *s)
{
	if (!strcmp(s, "human"))
		return PC_FMT_HUMAN;
	if (!strcmp(s, "json"))
		return PC_FMT_JSON;
	return -1;
}

int pc_cli_bad_value(const char *cmd, const char *opt, const char *val,
		     const char *expect)
{
	fprintf(stderr,
		"plugcheck %s: --%s: invalid value '%s' (expected %s)\n"
		"Run `plugcheck %s --help` for usage.\n",
		cmd, opt, val, expect, cmd);
	return PC_EXIT_USAGE;
}

const char *pc_cli_output_path(const char *path)
{
	return path && strcmp(path, "-") ? path : NULL;
}

bool pc_cli_host_opt(char **argv, int n, int *i, const char **host)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--host") && *i + 1 < n) {
		*host = argv[++*i];
		return true;
	}
	if (!strncmp(a, "--host=", 7)) {
		*host = a + 7;
		return true;
	}
	return false;
}

void pc_cli_print_json(cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_print_pretty(v, &b);
	fwrite(pc_buf_cstr(&b), 1, b.len, stdout);
	fputc('\n', stdout);
	pc_buf_release(&b);
	cJSON_Delete(v);
}

struct pc_manifest_env pc_cli_manifest_env(void)
{
	struct pc_manifest_env e = { getenv("HOME"), getenv("CODEX_HOME") };

	if (!e.home)
		e.home = getenv("USERPROFILE");
	return e;
}

bool pc_cli_color(void)
{
	return isatty(1) && !getenv("NO_COLOR");
}


/* pc_cli_kill_children - SIGKILL every child of plugcheck's main thread and its
 * process group. Plugins lead their own groups (pc_proc.h), so a Ctrl-C
 * at the terminal never reaches them; without this the current firing
 * would run on to its timeout. Async-signal-safe: open, read, kill. */
void pc_cli_kill_children(void)
{
	char path[64] = "/proc/self/task/", buf[4096];
	char digits[24];
	int nd = 0, fd;
	ssize_t n;
	long pid = 0;
	size_t at = strlen(path);

	for (long v = (long)getpid(); v > 0 && nd < 20; v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	while (nd > 0)
		path[at++] = digits[--nd];
	memcpy(path + at, "/children", sizeof("/children"));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
				continue;
			}
			if (pid > 0) {
				kill((pid_t)-pid, SIGKILL);
				kill((pid_t)pid, SIGKILL);
			}
			pid = 0;
		}
	}
	if (pid > 0) {
		kill((pid_t)-pid, SIGKILL);
		kill((pid_t)pid, SIGKILL);
	}
	close(fd);
}

static volatile sig_atomic_t interrupted;

/* SIGINT/SIGTERM/SIGHUP/SIGQUIT: stop after the current step, which ends now because its
 * plugin tree is killed; the caller writes the report so far, incomplete. */
static void on_interrupt(int sig)
{
	int saved = errno;

	(void)sig;
	interrupted = 1;
	pc_cli_kill_children();
	errno = saved;
}

void pc_cli_trap_interrupts(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };

	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

volatile sig_atomic_t *pc_cli_stop_flag(void)
{
	return &interrupted;
}

bool pc_cli_interrupted(void)
{
	return interrupted != 0;
}

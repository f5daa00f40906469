/* bench_floor.c - the process-spawn floor and how it scales across cores:
 * the wall time of STREAMS parallel loops, each posix_spawning ARGV N
 * times (write INPUT to its stdin and close it, drain stdout and stderr to
 * EOF, wait), with nothing else in between.
 *
 * `-j 2` can only be as much faster than `-j 1` as two such loops are
 * faster than one doing all the work: bench_check.py and bench_run.py run
 * this beside plugcheck, in the same run, so the `-j 2` speed-up can be
 * read against what the machine itself allows. On the paravirtualised VMs
 * of docs/performance.md, two spawn loops take longer than one doing the
 * same number of spawns (page-table work traps to the hypervisor), which
 * no scheduler in plugcheck can beat.
 *
 * Usage: bench_floor [-n N] [-P STREAMS] [-i INPUT_FILE] [-C DIR] -- ARGV...
 *   N spawns per stream (default 100), STREAMS parallel loops (default 1),
 *   INPUT_FILE the bytes each process gets on stdin (default none: stdin
 *   is an empty pipe), DIR the working directory. Prints the wall time in
 *   milliseconds on one line. Exits 1 when a spawn fails or ARGV exits
 *   non-zero.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *input;
static size_t input_len;

static void die(const char *what)
{
	fprintf(stderr, "bench_floor: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void read_input(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096;

	if (!f)
		die(path);
	input = malloc(cap);
	for (;;) {
		size_t n;

		if (input_len == cap && !(input = realloc(input, cap *= 2)))
			die("realloc");
		n = fread(input + input_len, 1, cap - input_len, f);
		if (!n)
			break;
		input_len += n;
	}
	fclose(f);
}

/* One spawn: what any correct runner must do at least. */
static void once(char **argv)
{
	posix_spawn_file_actions_t fa;
	int in[2], out[2], err[2], status, open_fds = 2;
	struct pollfd pf[2];
	char buf[16384];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(err, O_CLOEXEC) < 0)
		die("pipe2");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	errno = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	if (errno)
		die(argv[0]);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (input_len && write(in[1], input, input_len) != (ssize_t)input_len)
		die("write to stdin");
	close(in[1]);
	pf[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	while (open_fds) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			die("poll");
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			n = read(pf[i].fd, buf, sizeof(buf));
			if (n <= 0 && !(n < 0 && errno == EINTR)) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_floor: %s did not exit 0\n", argv[0]);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long n = 100, streams = 1;
	int opt, failed = 0;
	double t0;

	while ((opt = getopt(argc, argv, "+n:P:i:C:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtol(optarg, NULL, 10);
			break;
		case 'P':
			streams = strtol(optarg, NULL, 10);
			break;
		case 'i':
			read_input(optarg);
			break;
		case 'C':
			if (chdir(optarg) < 0)
				die(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || n < 1 || streams < 1 || streams > 64)
		goto usage;
	t0 = now_ms();
	for (long s = 0; s < streams; s++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			for (long i = 0; i < n; i++)
				once(argv + optind);
			_exit(0);
		}
	}
	for (long s = 0; s < streams; s++) {
		int status;

		while (wait(&status) < 0)
			if (errno != EINTR)
				die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	}
	if (failed)
		return 1;
	printf("%.1f\n", now_ms() - t0);
	return 0;
usage:
	fprintf(stderr, "usage: bench_floor [-n N] [-P STREAMS] [-i INPUT_FILE] [-C DIR] -- ARGV...\n");
	return 2;
}

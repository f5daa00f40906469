#define _GNU_SOURCE /* pipe2 */
/* pc_fire_burst.c - several exchanges of one point at once (see
 * pc_fire.h). Each runs in a process of its own forked from this one:
 * pc_proc's sweep and its child subreaper are per process, so the
 * exchanges cannot sweep each other's plugins. */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_buf.h"
#include "pc_fire.h"
#include "pc_proc.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

#define BURST_OUT_MAX ((size_t)4 << 20)

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* In the child: wait for the release, fire, send the summary, exit. */
static void child(int barrier, int out, struct pc_host *h,
		  const struct pc_plugin *p, const struct pc_fire_point *pt,
		  const struct pc_fire_input *in)
{
	static const int sigs[] = { SIGTERM, SIGINT,  SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2, SIGALRM };
	struct pc_fire f = PC_FIRE_INIT;
	cJSON *j = cJSON_CreateObject();
	char c, *s;
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	/* the caller's process's hooks and handlers are not this one's */
	pc_proc_set_spawn_hook(NULL, NULL);
	sigemptyset(&dfl.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &dfl, NULL);
	while (read(barrier, &c, 1) < 0 && errno == EINTR)
		;
	close(barrier);
	cJSON_AddBoolToObject(j, "fired",
			      pc_fire_exchange(h, p, pt, in, &f, NULL) == 0);
	cJSON_AddBoolToObject(j, "passed", f.passed);
	cJSON_AddItemToObject(j, "fire", pc_fire_json(&f));
	s = pc_fire_text(&f);
	cJSON_AddStringToObject(j, "text", s);
	free(s);
	s = pc_serde_to_string(j);
	write_all(out, s, strlen(s));
	_exit(0);
}

static void summary_from(struct pc_fire_summary *o, struct pc_buf *b)
{
	cJSON *j = NULL;
	const cJSON *t;

	if (!b->len || pc_serde_parse(b->data, b->len, &j, NULL) < 0) {
		cJSON_Delete(j);
		return;
	}
	o->ran = cJSON_IsTrue(pc_serde_get(j, "fired"));
	o->passed = cJSON_IsTrue(pc_serde_get(j, "passed"));
	o->json = cJSON_DetachItemFromObjectCaseSensitive(j, "fire");
	t = pc_serde_get(j, "text");
	o->text = pc_xstrdup(cJSON_IsString(t) ? t->valuestring : "");
	cJSON_Delete(j);
}

/* Read every child's summary until all reached EOF or the deadline. */
static void collect(int *fds, struct pc_buf *bufs, size_t n, int64_t deadline)
{
	struct pollfd *pf = pc_xcalloc(n, sizeof(*pf));
	size_t open = n;

	while (open) {
		int left = pc_time_left_ms(deadline), k = 0;
		char chunk[16384];

		for (size_t i = 0; i < n; i++) {
			pf[i].fd = fds[i];
			pf[i].events = POLLIN;
		}
		if (left <= 0 || (k = poll(pf, n, left)) < 0) {
			if (k < 0 && errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			ssize_t r;

			if (fds[i] < 0 || !(pf[i].revents & (POLLIN | POLLHUP)))
				continue;
			r = read(fds[i], chunk, sizeof(chunk));
			if (r > 0 &&
			    pc_buf_add(&bufs[i], chunk, (size_t)r) == 0)
				continue;
			if (r < 0 && errno == EINTR)
				continue;
			close(fds[i]);
			fds[i] = -1;
			open--;
		}
	}
	free(pf);
}

int pc_fire_burst(struct pc_host *h, const struct pc_plugin *p,
		  const struct pc_fire_point *pt,
		  const struct pc_fire_input *in, size_t n, int64_t timeout_ms,
		  struct pc_fire_summary *out, struct pc_err *err)
{
	int barrier[2], *fds = pc_xcalloc(n, sizeof(int));
	pid_t *pids = pc_xcalloc(n, sizeof(pid_t));
	struct pc_buf *bufs = pc_xcalloc(n, sizeof(*bufs));
	size_t started = 0;
	int rc = 0;

	memset(out, 0, n * sizeof(*out));
	if (pipe2(barrier, O_CLOEXEC) < 0) {
		rc = pc_err_set_errno(err, PC_EIO, errno, "cannot make a pipe");
		goto out;
	}
	for (; started < n; started++) {
		int fd[2];

		bufs[started] = (struct pc_buf)PC_BUF_INIT(BURST_OUT_MAX);
		if (pipe2(fd, O_CLOEXEC) < 0)
			break;
		pids[started] = fork();
		if (pids[started] == 0) {
			close(barrier[1]);
			close(fd[0]);
			for (size_t i = 0; i < started; i++)
				close(fds[i]);
			child(barrier[0], fd[1], h, p, pt, in);
		}
		close(fd[1]);
		if (pids[started] < 0) {
			close(fd[0]);
			break;
		}
		fds[started] = fd[0];
	}
	/* release them together: each one's read of the barrier ends */
	close(barrier[0]);
	close(barrier[1]);
	if (started < n)
		rc = pc_err_set_errno(err, PC_EIO, errno,
				      "cannot start %zu exchanges at once", n);
	collect(fds, bufs, started, pc_time_now_ms() + timeout_ms);
	for (size_t i = 0; i < started; i++) {
		if (fds[i] >= 0) { /* past the deadline */
			kill(pids[i], SIGKILL);
			close(fds[i]);
		}
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
		summary_from(&out[i], &bufs[i]);
		pc_buf_release(&bufs[i]);
	}
out:
	free(fds);
	free(pids);
	free(bufs);
	return rc;
}

void pc_fire_summary_release(struct pc_fire_summary *s)
{
	cJSON_Delete(s->json);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

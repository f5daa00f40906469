#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli_opts.h"
#include "pc_cli.h"
#include "pc_report.h"
#include "pc_xalloc.h"
#include "pc_exit.h"
#include "pc_pool.h"
#include "pc_serde.h"

int pc_cli_format(const char *s)
{
	if (!strcmp(s, "human"))
		return PC_FMT_HUMAN;
	if (!strcmp(s, "json"))
		return PC_FMT_JSON;
	return -1;
}

int pc_cli_default_format(void)
{
	const char *gha = getenv("GITHUB_ACTIONS");

	/* as linters do: a workflow step gets annotations without asking */
	return gha && !strcmp(gha, "true") ? PC_REPORT_GITHUB : PC_REPORT_HUMAN;
}

#define STALL_MS 30000 /* a reader of a FIFO --output may pause this long */

/* open_file - open `f->path` for option --`opt` now and hold it open
 * (0), or print why not (2). */
static int open_file(const char *opt, struct pc_cli_file *f)
{
	struct stat st;
	int e;

	/* Opened now and held: a plugin that makes plugcheck's working
	 * directory mode 000 cannot keep the report from being written.
	 * O_NONBLOCK: a FIFO nobody reads fails (ENXIO) instead of hanging. */
	f->fd = open(f->path,
		     O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		     0666);
	e = errno;
	if (f->fd >= 0 && fstat(f->fd, &st) == 0 && S_ISSOCK(st.st_mode)) {
		close(f->fd);
		f->fd = -1;
		e = ENOTSUP;
	}
	if (f->fd < 0) {
		if (e == EISDIR)
			fprintf(stderr,
				"plugcheck: cannot write --%s '%s': it is a directory; fix: name a file, e.g. '%s/report'\n",
				opt, f->path, f->path);
		else if (e == ENXIO)
			fprintf(stderr,
				"plugcheck: cannot write --%s '%s': it is a FIFO that no process reads, so writing the report would block; fix: name a regular file, or start its reader first\n",
				opt, f->path);
		else if (e == ENOTSUP)
			fprintf(stderr,
				"plugcheck: cannot write --%s '%s': it is a socket; fix: name a regular file\n",
				opt, f->path);
		else
			fprintf(stderr, "plugcheck: cannot write --%s '%s': %s\n",
				opt, f->path, strerror(e));
		return PC_EXIT_USAGE;
	}
	if (S_ISREG(st.st_mode) && ftruncate(f->fd, 0) < 0) {
		fprintf(stderr, "plugcheck: cannot write --%s '%s': %s\n", opt,
			f->path, strerror(errno));
		close(f->fd);
		f->fd = -1;
		return PC_EXIT_USAGE;
	}
	/* rendered in memory first, written whole at the end */
	if (!(f->f = open_memstream(&f->buf, &f->len))) {
		close(f->fd);
		f->fd = -1;
		return PC_EXIT_INTERNAL;
	}
	return 0;
}

static void close_file(struct pc_cli_file *f)
{
	if (f->f)
		fclose(f->f);
	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	f->f = NULL;
	f->fd = -1;
	f->buf = NULL;
	f->len = 0;
}

int pc_cli_out_open(const struct pc_args *a, struct pc_cli_out *o)
{
	const char *path = pc_args_value(a, "output");
	const char *fmt = pc_args_value(a, "format");
	const char *html = pc_args_value(a, "html");
	int rc;

	/* a file named by --output keeps the human default; the GitHub
	 * default is for what the workflow log shows */
	o->fmt = fmt ? pc_report_format_parse(fmt)
		 : path && strcmp(path, "-") ? PC_REPORT_HUMAN
					     : pc_cli_default_format();
	o->cmd = a->cmd->name;
	o->report = (struct pc_cli_file){ .fd = -1 };
	o->html = (struct pc_cli_file){ .fd = -1 };
	o->report.path = path && strcmp(path, "-") ? path : NULL;
	if (html && o->fmt == PC_REPORT_HTML)
		return pc_cli_usage_error(o->cmd, "--html: --format html writes the page already; drop --html, or give another --format");
	if (html && !strcmp(html, "-"))
		return pc_cli_usage_error(o->cmd, "--html: name a file (standard output is for --format)");
	if (html && o->report.path && !strcmp(html, o->report.path))
		return pc_cli_usage_error(o->cmd, "--html '%s' is the --output file too; name another file", html);
	o->html.path = html;
	if (o->report.path && (rc = open_file("output", &o->report)))
		return rc;
	if (o->html.path && (rc = open_file("html", &o->html))) {
		close_file(&o->report);
		return rc;
	}
	return 0;
}

void pc_cli_out_close(struct pc_cli_out *o)
{
	close_file(&o->report);
	close_file(&o->html);
}

/* write_bounded - all of `p` to the non-blocking `fd`; a reader (of a
 * FIFO) that takes no byte for STALL_MS ends it with ETIMEDOUT. */
static int write_bounded(int fd, const char *p, size_t n)
{
	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t w = write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN)
			return -1;
		if (poll(&pfd, 1, STALL_MS) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
	return 0;
}

int pc_cli_stdout_failed(int err)
{
	static bool said;

	if (!said)
		fprintf(stderr, "plugcheck: cannot write standard output: %s\n",
			err == ETIMEDOUT ? "its reader stopped reading"
					 : strerror(err ? err : EIO));
	said = true;
	return PC_EXIT_INTERNAL;
}

/* A write that failed: say which file and why. */
static int write_failed(const char *what, int err)
{
	if (!strcmp(what, "standard output"))
		return pc_cli_stdout_failed(err);
	fprintf(stderr, "plugcheck: cannot write %s: %s\n", what,
		err == ETIMEDOUT ? "its reader stopped reading"
				 : strerror(err ? err : EIO));
	return PC_EXIT_INTERNAL;
}

/* Write what was rendered into file `f` (opened by open_file; `rc` the
 * rendering's own result, errno `e`) whole and close it. 0, or 70 after
 * saying what failed. */
static int flush_file(struct pc_cli_file *f, int rc, int e)
{
	char *what;

	if (fclose(f->f) != 0 && !rc) {
		rc = PC_EIO;
		e = errno;
	}
	f->f = NULL;
	if (!rc && write_bounded(f->fd, f->buf ? f->buf : "", f->len) < 0) {
		rc = PC_EIO;
		e = errno;
	}
	if (close(f->fd) < 0 && !rc) {
		rc = PC_EIO;
		e = errno;
	}
	f->fd = -1;
	close_file(f);
	if (!rc)
		return 0;
	what = pc_xasprintf("'%s'", f->path);
	rc = write_failed(what, e);
	free(what);
	return rc;
}

/* Render `r` in `fmt` into file `f` and write it (flush_file). */
static int write_file(struct pc_cli_file *f, const struct pc_report *r,
		      enum pc_report_format fmt)
{
	int rc;

	errno = 0;
	rc = pc_report_write(r, fmt, f->f, false);
	return flush_file(f, rc, errno);
}

int pc_cli_out_flush(struct pc_cli_out *o)
{
	if (!o->report.f)
		return fflush(stdout) ? write_failed("standard output", errno)
				      : 0;
	return flush_file(&o->report, ferror(o->report.f) ? PC_EIO : 0, EIO);
}

int pc_cli_out_write_html(struct pc_cli_out *o, const struct pc_report *r)
{
	if (!o->html.f)
		return 0;
	return write_file(&o->html, r, PC_REPORT_HTML);
}

int pc_cli_out_report(struct pc_cli_out *o, struct pc_report *r)
{
	bool human = o->fmt == PC_REPORT_HUMAN;
	int rc;

	if (pc_cli_interrupted())
		r->incomplete = true; /* README "Ctrl-C": whatever ran */
	pc_report_finish(r);
	if ((rc = pc_cli_out_write_html(o, r))) {
		pc_cli_out_close(o);
		return rc;
	}
	if (!o->report.f) {
		errno = 0;
		if (pc_report_write(r, (enum pc_report_format)o->fmt, stdout,
				    human && pc_cli_color()))
			return write_failed("standard output", errno);
		return pc_report_exit_code(r);
	}
	if ((rc = write_file(&o->report, r, (enum pc_report_format)o->fmt)))
		return rc;
	if (pc_report_write(r, (enum pc_report_format)pc_cli_default_format(),
			    stdout, pc_cli_color()))
		return write_failed("standard output", errno);
	return pc_report_exit_code(r);
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
	pc_pool_kill_all(); /* workers are not plugcheck's children */
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

bool cli_is_rule(const char *v)
{
	return pc_rule_find(v) != NULL;
}

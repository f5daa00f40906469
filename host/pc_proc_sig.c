/* pc_proc_sig.c - the signal state a plugin starts with, as each host's
 * runtime passes its own on (issue 18), and the kernel's "#!" parse that
 * lets pc_proc run the file it checked (issue 21). See pc_proc.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pc_proc.h"
#include "pc_proc_impl.h"
#include "pc_xalloc.h"

#define BINPRM_BUF 256 /* the bytes of a file the kernel looks at */

static struct pc_proc_sigs start;
static bool start_noted;

/* current - this process's ignored set and mask as they are now. */
static void current(struct pc_proc_sigs *s)
{
	sigemptyset(&s->ignored);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&s->ignored, sig); /* refuses glibc's own */
	}
	pthread_sigmask(SIG_BLOCK, NULL, &s->blocked);
}

void pc_proc_sigs_note_start(void)
{
	current(&start);
	start_noted = true;
}

void pc_proc_sigs_start(struct pc_proc_sigs *s)
{
	if (!start_noted)
		current(s);
	else
		*s = start;
}

void pc_proc_sigs_catalyst(struct pc_proc_sigs *s)
{
	/* Rust's std::process::Command (>= 1.66, both its posix_spawnp and
	 * its fork + execvp paths): SIGPIPE, which std ignores for itself,
	 * back to the default; every other ignored signal and the mask
	 * passed on. The host installs no handler of its own (no tokio or
	 * libc signal call in core/src), and tokio's SIGCHLD handler is a
	 * handler, reset by exec. */
	pc_proc_sigs_start(s);
	sigdelset(&s->ignored, SIGPIPE);
	sigdelset(&s->ignored, SIGCHLD);
}

void pc_proc_sigs_chatcli(struct pc_proc_sigs *s)
{
	/* Go's runtime puts its handler on every signal of its table at
	 * start, ignored or not, except SIGHUP and SIGINT when inherited as
	 * ignored and the job-control ones (SIGCONT, SIGTSTP, SIGTTIN,
	 * SIGTTOU) it leaves alone; os/exec's child resets handled signals
	 * to the default and restores the mask the process started with.
	 * ChatCLI calls signal.Notify for SIGINT and SIGTERM (main.go), which
	 * installs the handler on SIGINT even when it was ignored. */
	static const int kept[] = { SIGHUP, SIGCONT, SIGTSTP, SIGTTIN,
				    SIGTTOU };
	struct pc_proc_sigs st;

	pc_proc_sigs_start(&st);
	sigemptyset(&s->ignored);
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++)
		if (sigismember(&st.ignored, kept[i]))
			sigaddset(&s->ignored, kept[i]);
	s->blocked = st.blocked;
}

void pc_proc_sigs_names(const sigset_t *set, struct pc_strvec *out)
{
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbrev;

		if (sigismember(set, sig) != 1)
			continue;
		abbrev = sig < SIGRTMIN ? sigabbrev_np(sig) : NULL;
		if (abbrev)
			pc_strvec_pushf(out, "SIG%s", abbrev);
		else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
			pc_strvec_pushf(out, "SIGRTMIN+%d", sig - SIGRTMIN);
		else
			pc_strvec_pushf(out, "SIG%d", sig);
	}
}

/* keepable - a signal whose SIG_IGN a child may start with: not the two
 * nobody can ignore, not SIGCHLD (ignoring it in plugcheck would make
 * the kernel reap the plugin and lose its status). */
static bool keepable(int sig)
{
	return sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD;
}

void pc__proc_sig_attrs(const struct pc_proc_opts *o, sigset_t *def,
			sigset_t *mask)
{
	sigfillset(def); /* glibc leaves out its internal 32 and 33 */
	sigemptyset(mask);
	if (!o->sigs)
		return;
	*mask = o->sigs->blocked;
	for (int sig = 1; sig < NSIG; sig++)
		if (keepable(sig) && sigismember(&o->sigs->ignored, sig) == 1)
			sigdelset(def, sig);
}

void pc__proc_sig_swap_in(const struct pc_proc_opts *o,
			  struct pc__proc_swap *sw, struct pc_proc_sigs *given)
{
	static const struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t want, pending;

	sigemptyset(&sw->swapped);
	sigemptyset(&want);
	sigemptyset(&given->ignored);
	sigemptyset(&given->blocked);
	pthread_sigmask(SIG_BLOCK, NULL, &sw->oldmask);
	if (!o->sigs)
		return;
	given->blocked = o->sigs->blocked;
	sigdelset(&given->blocked, SIGKILL);
	sigdelset(&given->blocked, SIGSTOP);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		if (!keepable(sig) ||
		    sigismember(&o->sigs->ignored, sig) != 1 ||
		    sigaction(sig, NULL, &cur) < 0)
			continue;
		if (cur.sa_handler == SIG_IGN)
			sigaddset(&given->ignored, sig);
		else
			sigaddset(&want, sig);
	}
	/* Blocked, a signal stays pending even while ignored (Linux); but
	 * setting SIG_IGN discards one already pending, so those are left */
	pthread_sigmask(SIG_BLOCK, &want, NULL);
	sigpending(&pending);
	for (int sig = 1; sig < NSIG; sig++) {
		if (sigismember(&want, sig) != 1 || sigismember(&pending, sig))
			continue;
		if (sigaction(sig, &ign, &sw->old[sig]) == 0) {
			sigaddset(&sw->swapped, sig);
			sigaddset(&given->ignored, sig);
		}
	}
}

void pc__proc_sig_swap_out(struct pc__proc_swap *sw)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&sw->swapped, sig) == 1)
			sigaction(sig, &sw->old[sig], NULL);
	pthread_sigmask(SIG_SETMASK, &sw->oldmask, NULL);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int pc__proc_shebang(const char *head, size_t n, char **interp, char **arg)
{
	char buf[BINPRM_BUF + 1];
	char *end, *name, *sep, *a;

	*interp = *arg = NULL;
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return -1;
	if (n > BINPRM_BUF)
		n = BINPRM_BUF;
	memcpy(buf, head, n);
	memset(buf + n, 0, sizeof(buf) - n);
	end = memchr(buf, '\n', n);
	if (!end) {
		/* no newline in the buffer: fine only if the name ends in
		 * it (a blank or NUL after it), since a cut name must not
		 * be run; the argument may be cut */
		char *p = buf + 2, *lim = buf + BINPRM_BUF - 1;

		while (p <= lim && blank(*p))
			p++;
		if (p > lim)
			return ENOEXEC;
		while (p <= lim && *p && !blank(*p))
			p++;
		if (p > lim)
			return ENOEXEC;
		end = lim;
	}
	*end = '\0';
	while (end > buf + 2 && blank(end[-1]))
		*--end = '\0';
	for (name = buf + 2; blank(*name); name++)
		;
	if (!*name)
		return ENOEXEC;
	for (sep = name; *sep && !blank(*sep); sep++)
		;
	a = NULL;
	if (*sep) {
		*sep++ = '\0';
		while (blank(*sep))
			sep++;
		if (*sep)
			a = sep;
	}
	*interp = pc_xstrdup(name);
	*arg = a ? pc_xstrdup(a) : NULL;
	return 0;
}

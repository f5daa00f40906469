/* pc_proc_impl.h - private to host/: the parts of pc_proc that stand
 * apart from the spawn-and-pump loop of pc_proc.c (pc_proc_sig.c). */
#ifndef PC_PROC_IMPL_H
#define PC_PROC_IMPL_H

#include <signal.h>
#include <stddef.h>

#include "pc_proc.h"

/* The signals plugcheck ignored itself around one spawn, so that the
 * child starts with them ignored (posix_spawn can only reset a
 * disposition to the default, never set SIG_IGN). */
struct pc__proc_swap {
	sigset_t swapped;	    /* set to SIG_IGN for the spawn */
	sigset_t oldmask;	    /* plugcheck's mask before it */
	struct sigaction old[NSIG]; /* their dispositions before it */
};

/* pc__proc_sig_attrs - the child's signal attributes for `o`: `def` the
 * signals reset to the default (all but those o->sigs->ignored keeps),
 * `mask` the child's signal mask. */
void pc__proc_sig_attrs(const struct pc_proc_opts *o, sigset_t *def,
			sigset_t *mask);

/* pc__proc_sig_swap_in - just before the spawn: make plugcheck ignore each
 * signal of o->sigs->ignored that it handles (blocked meanwhile; one
 * already pending is left alone, it is an interrupt being delivered), and
 * fill `given` with what the child will start with. Async-signal-safe
 * calls only; never fails. */
void pc__proc_sig_swap_in(const struct pc_proc_opts *o,
			  struct pc__proc_swap *sw, struct pc_proc_sigs *given);

/* pc__proc_sig_swap_out - just after the spawn: put back what swap_in
 * changed (dispositions, then the mask, which delivers what came in). */
void pc__proc_sig_swap_out(struct pc__proc_swap *sw);

/* pc__proc_shebang - the kernel's "#!" parse (binfmt_script, Linux >= 5.1)
 * of the first `n` bytes of a file: 0 with *interp and *arg (new strings;
 * *arg NULL when there is none) when it runs through an interpreter,
 * ENOEXEC when it starts with "#!" but names no usable interpreter (only
 * blanks, or one cut by the 256-byte buffer), -1 when it does not start
 * with "#!". */
int pc__proc_shebang(const char *head, size_t n, char **interp, char **arg);

#endif

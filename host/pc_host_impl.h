/* pc_host_impl.h - private to host/: the shared steps of every runner. */
#ifndef PC_HOST_IMPL_H
#define PC_HOST_IMPL_H

#include "pc_host.h"

enum pc__verdict {
	PC__V_DONE,	/* exited, pipes at EOF */
	PC__V_TIMEOUT,	/* "timed out after" */
	PC__V_SPAWN,	/* "wait error: <msg>" (spawn or read) */
	PC__V_OVERFLOW, /* "wait error: <msg>" (cap) */
};

/* Fixed or real unix seconds for the `timestamp` fields. */
uint64_t pc__host_now(const struct pc_host *h);
/* R5.2 argv for `script` (canonical path). */
void pc__host_argv(struct pc_host *h, const char *script,
		   struct pc_strvec *argv);
/* plugin_run: spawn, stdin phase, wait (R5.1-R5.9); x->stdin_json must
 * hold the context. Under h->sandbox the script runs with the
 * capabilities of `p` and x->sandbox gets what it tried beyond them. */
int pc__host_run(struct pc_host *h, const struct pc_plugin *p,
		 const char *script, uint64_t timeout_ms,
		 const struct pc_strvec *extra_env, struct pc_exchange *x,
		 struct pc_err *err);
/* Classify x->proc; for spawn/overflow errors append the `<e>` text
 * (`failed to spawn <label> "<path>": <io error>` etc.) to msg. */
enum pc__verdict pc__host_verdict(const struct pc_exchange *x,
				  const char *script, const char *spawn_label,
				  struct pc_buf *msg);
/* For a non-success exit append "<ExitStatus>: <trimmed stderr>" to
 * status (host text: a NUL in stderr as C0 80, pc_serde.h) and return
 * true. */
bool pc__host_failed_exit(const struct pc_exchange *x, struct pc_buf *status);
/* Lossy-decoded, trimmed stdout as raw bytes (NULs kept), appended to out. */
void pc__host_trimmed_stdout(const struct pc_exchange *x, struct pc_buf *out);
/* The failure steps every runner shares (R4.3 steps 3-7, R6.2.2-4, R7.4,
 * R8.3, R9.4). Returns PC_OUT_OK with `out` (reset first) holding the
 * lossy, trimmed stdout as raw bytes - parse it with its length, turn it
 * into host text with pc_serde_text_new - when the script exited 0 with
 * something on stdout; otherwise the outcome and *msg (new host text)
 * "<prefix> timed out after <N>ms", "<prefix> wait error: <e>",
 * "<prefix> exited with <status>: <stderr>" or "<prefix> returned empty
 * stdout" (*msg NULL on PC_OUT_OK). */
enum pc_outcome pc__host_judge(const struct pc_exchange *x, const char *script,
			       const char *spawn_label, const char *prefix,
			       uint64_t timeout_ms, char **msg,
			       struct pc_buf *out);
/* R4.3.11 info / plugin_status events. */
void pc__host_side_effects(struct pc_exchange *x, const char *plugin,
			   const char *notify, const char *status);

#endif

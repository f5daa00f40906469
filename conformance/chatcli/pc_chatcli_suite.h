/* pc_chatcli_suite.h - the ChatCLI conformance checks (PC-CHAT-*).
 *
 * `plugcheck lint|check` on a ChatCLI plugin (an executable, or a plugins
 * directory of them) loads it through the reference host (pc_chatcli.h)
 * and judges what it saw: metadata and names (M5, M6, D5-D7), the probes'
 * speed, determinism and side effects (M1, S1), the schema's shape (S2,
 * S4), signatures (G3-G5) and permissions (P1); `check` also runs
 * representative calls generated from the schema (A7, A8) and judges
 * their outcome and output size (X5-X7, O1).
 *
 * Ownership: the caller owns *d and *r and releases them with
 * pc_chatcli_dir_release() and pc_report_release().
 */
#ifndef PC_CHATCLI_SUITE_H
#define PC_CHATCLI_SUITE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "pc_chatcli.h"
#include "pc_report.h"

enum pc_contract_kind { PC_CONTRACT_CATALYST, PC_CONTRACT_CHATCLI };

/* pc_chatcli_detect - the contract of `path`: a directory holding
 * plugin.json is Catalyst Code; an executable regular file, or a
 * directory whose entries include an executable regular file, is ChatCLI;
 * anything else is Catalyst (whose loader then explains the refusal). */
enum pc_contract_kind pc_chatcli_detect(const char *path);

struct pc_chatcli_suite_opts {
	const char *keys_dir;	  /* trusted keys (G4); NULL: none */
	bool allow_unsigned;	  /* G6 */
	bool run_calls;		  /* check: fire representative calls */
	int64_t probe_timeout_ms; /* 0: 10 s */
	int64_t call_timeout_ms;  /* 0: 20 s */
	/* stop - when it becomes non-zero (a signal handler sets it, after
	 * killing the running probe or call) no further probe or call
	 * starts: each one left is a skipped case "interrupted: ..." and
	 * the report is marked incomplete. NULL: never. */
	volatile sig_atomic_t *stop;
};

/* pc_chatcli_suite_run - load `path` (file or directory) as the host
 * does into *d, and fill *r (path, name, version, loaded, host_error, a
 * "chatcli" load, findings, cases). Blocks for the probes (twice each)
 * and, with run_calls, up to a few calls per plugin, each bounded by the
 * timeouts above, or until *o->stop is set. Returns 0, or PC_ENOENT/PC_EIO when `path` cannot be
 * read (err filled). */
int pc_chatcli_suite_run(const char *path,
			 const struct pc_chatcli_suite_opts *o,
			 struct pc_chatcli_dir *d, struct pc_report *r,
			 struct pc_err *err);

#endif

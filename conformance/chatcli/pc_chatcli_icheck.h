/* pc_chatcli_icheck.h - `plugcheck install-check GIT_DIR|URL` for ChatCLI:
 * install a plugin as `/plugin install` does, replay what the host's
 * watcher makes of the install, then check the result.
 *
 * pc_chatcli_icheck_run():
 *   1. makes a throwaway HOME (plugins dir $HOME/.chatcli/plugins, mode
 *      0700, D1) and watches the plugins dir with inotify (D9);
 *   2. runs the host's install (pc_chatcli_install: clone, name, go
 *      build, chmod 0755; I2-I5) with plugcheck's own environment, as the
 *      host passes its own; go missing: the build is skipped;
 *   3. replays the reloads on a virtual clock: the events the steps really
 *      produced (read from inotify) arm the 500 ms debounce (Chmod does
 *      not), each reload runs the host's Reload() on the real directory
 *      with the signature policy (G5, G6) and its real cost is measured
 *      (D4, M1, S1); events a reload itself causes re-arm the timer
 *      (reload loop, PC-CHAT-081);
 *      - host install: the reload /plugin install runs, then the
 *        watcher's at +500 ms;
 *      - a tree the host cannot build (not Go): the manual install a
 *        user falls back to - `make` when there is a Makefile, then `cp`
 *        of each top-level executable candidate (#! or ELF) with the mode
 *        git checked out, signed with a throwaway trusted key, and
 *        `chmod +x` 1 s later when the mode had no execute bit
 *        (PC-CHAT-080 when that leaves it rejected);
 *      - the signing fix: trust a throwaway key then sign (loads at the
 *        watcher's reload), and sign then trust (rejected until the next
 *        reload: trusted-keys changes are not watched);
 *   4. runs the ChatCLI suite (pc_chatcli_suite_run, with calls) on the
 *      plugins dir, with the trusted keys of the throwaway HOME (none)
 *      and the caller's unsigned policy;
 *   5. adds PC-CHAT-07x findings: the install is never signed (070,
 *      replacing the suite's PC-CHAT-050 for the installed file), the
 *      plain-URL temporary name (071), the host cannot build the tree
 *      (072), the clone or subdirectory fails (073).
 * Everything it creates is removed before it returns, including the clone
 * (the host removes it too) and any process a step left.
 */
#ifndef PC_CHATCLI_ICHECK_H
#define PC_CHATCLI_ICHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "pc_err.h"
#include "pc_report.h"
#include "pc_strvec.h"

struct pc_chatcli_icheck_opts {
	const char *source;	  /* borrowed; a git directory, path or URL
				     (a ".../tree/BRANCH/DIR" form too) */
	const char *go;		  /* borrowed; the go command, NULL: "go"
				     from PATH (skipped when absent) */
	bool allow_unsigned;	  /* G6, the caller's
				     CHATCLI_ALLOW_UNSIGNED_PLUGINS */
	int64_t build_timeout_ms; /* clone, make and go build each; 0: 600 s */
	int64_t probe_timeout_ms; /* 0: 10 s */
	/* NULL, or a flag a signal handler sets after killing git/go
	 * (README "Ctrl-C"): an install it cut short is not judged (no
	 * PC-CHAT-072); the report gets a skipped "install" case
	 * "interrupted: ..." and r->incomplete. */
	volatile sig_atomic_t *stop;
};

/* pc_chatcli_icheck_is_source - `src` is what install-check treats as a
 * ChatCLI git source: a URL ("scheme://", "git@host:"), a string with
 * "/tree/", or a local directory without plugin.json that is a git work
 * tree (holds .git) or a bare repository (HEAD and objects/). */
bool pc_chatcli_icheck_is_source(const char *src);

/* pc_chatcli_icheck_run - steps 1-5 into `r` (PC_REPORT_INIT; the caller
 * releases it) and `log` (human summary lines of the install and the
 * reloads, appended; the caller releases it). r->path is o->source;
 * r->loaded says whether the installed plugin loads under the signature
 * policy; r->name is NULL when nothing could be installed or placed.
 * Blocks for git, make, go and the suite, each bounded. Returns 0 whenever
 * a report was produced (install failures are findings), PC_EIO when no
 * temporary directory or watch can be made (err filled). */
int pc_chatcli_icheck_run(const struct pc_chatcli_icheck_opts *o,
			  struct pc_report *r, struct pc_strvec *log,
			  struct pc_err *err);

#endif

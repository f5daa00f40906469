/* pc_install_check.h - `plugcheck install-check`: install a plugin as the
 * Catalyst Code host's /plugin-install does, then check the copy.
 *
 * pc_install_check_run():
 *   1. creates a throwaway HOME and workspace; installs every `with`
 *      directory globally first (so name collisions can be tested);
 *   2. for a release zip, extracts it as the host does (pc_install.h),
 *      recording files without an execute bit and symlink entries;
 *   3. runs pc_install_run() with `scope`, writes the source sidecar for a
 *      zip, and removes the extract tree as the host does;
 *   4. rescans the registry (load entry `installed`) and runs pc_suite_run
 *      on the installed copy (on the source when the install failed);
 *   5. adds PC-INST-* findings for what differs from the source folder:
 *      scripts that lose (or never get) their execute bit, needed files the
 *      copy excludes, symlinks that break, name collisions, install errors.
 * Everything it creates is removed before it returns. Blocks for the
 * install plus the suite run (see pc_suite.h).
 */
#ifndef PC_INSTALL_CHECK_H
#define PC_INSTALL_CHECK_H

#include "pc_err.h"
#include "pc_install.h"
#include "pc_report.h"
#include "pc_strvec.h"
#include "pc_suite.h"

struct pc_install_check_opts {
	const char *source; /* a plugin directory or a .zip file */
	enum pc_install_scope scope;
	const struct pc_strvec *with;	/* directories installed globally
					   first, or NULL */
	const char *owner, *repo, *tag; /* sidecar fields for a zip (NULL:
					   "local", the zip's base name,
					   "local") */
	struct pc_suite_opts suite;	/* path is ignored (set to the copy) */
};

/* pc_install_check_run - steps 1-5 into `r` (PC_REPORT_INIT; release with
 * pc_report_release). r->path is o->source. Returns 0 whenever a report
 * was produced, even when the install fails (that is a finding);
 * PC_EINVAL when a `with` directory cannot be installed, PC_EIO when no
 * temporary directory can be made; err says why. Borrows `o`. */
int pc_install_check_run(const struct pc_install_check_opts *o,
			 struct pc_report *r, struct pc_err *err);

#endif

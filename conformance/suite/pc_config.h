/* pc_config.h - `.plugcheck.yaml`, the per-plugin settings file read by
 * `plugcheck check` from the plugin directory.
 *
 *   ignore:            # rule ids to suppress (shown as suppressed)
 *     - PC-MAN-002
 *   strict: true       # warnings fail the run
 *   guard_seeds:       # more seeds for the guard search (docs/guard.md)
 *     commands: ["terraform destroy -auto-approve"]
 *     paths: [config/production.yml]
 *
 * Unknown keys, wrong types and unknown rule ids are errors that name
 * file:line:column (libyaml marks). libyaml stays inside pc_config.c.
 */
#ifndef PC_CONFIG_H
#define PC_CONFIG_H

#include <stdbool.h>

#include "pc_err.h"
#include "pc_strvec.h"

struct pc_config {
	struct pc_strvec ignore;
	bool strict;
	bool present; /* the file exists */
	/* guard_seeds: commands the blocking pre_bash / pre_tool hooks must
	 * deny, and paths pre_write / pre_read / pre_tool must protect */
	struct pc_strvec guard_commands;
	struct pc_strvec guard_paths;
};

#define PC_CONFIG_INIT                                               \
	{ PC_STRVEC_INIT, false, false, PC_STRVEC_INIT, PC_STRVEC_INIT }

/* pc_config_load - read `path` (a missing file is not an error: present
 * stays false). Returns 0, or PC_EPARSE with "FILE:LINE:COL: what was
 * expected" in err->msg. The caller releases `c` either way. */
int pc_config_load(const char *path, struct pc_config *c, struct pc_err *err);
void pc_config_release(struct pc_config *c);

#endif

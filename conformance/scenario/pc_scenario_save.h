/* pc_scenario_save.h - `plugcheck fire ... --save FILE`: turn an exchange
 * just run into a regression scenario, observed values as expectations. */
#ifndef PC_SCENARIO_SAVE_H
#define PC_SCENARIO_SAVE_H

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_fire.h"

/* pc_scenario_save_fire - append to scenario file `file` one scenario
 * named "fire POINT #N" with one fire step: the point, the input
 * (o->args_text, as JSON when it parses, else as text), o->tool,
 * o->result_text, and as expectations the observed outcome, verdict,
 * reason, modify (strict), notify and status of a hook, ok and output of
 * a tool or command, ok/output/injection/id of a memory action, ok and
 * message of an OAuth action, and leftover_processes. `actual` is the
 * pc_fire_json() document of the run (borrowed).
 * A missing file is created with `plugcheck: 1`, the plugin directory
 * (omitted when it is the file's own directory) and `scenarios:`. An
 * existing file must load (pc_scenario_load) and must end with its
 * `scenarios:` list; the step names the plugin when it is not the file's
 * default. The result is loaded again; if it does not load, the file is
 * restored and PC_EPARSE returned. Returns 0, PC_EPARSE (located message)
 * or PC_EIO. */
int pc_scenario_save_fire(const char *file, const struct pc_fire_opts *o,
			  const cJSON *actual, struct pc_err *err);

#endif

/* pc_model_script.h - the one loader of mock-model script files: the
 * SCRIPT.json of `plugcheck turn` and `plugcheck mock-model serve`, and a
 * scenario's `model_file`. The checks are pc_mock_new_json's (unknown
 * keys and wrong types at every level), the same a scenario's inline
 * `model:` gets; this adds the file: its cap, serde_json's parse, and the
 * line and column of the offending member (pc_locate.h).
 *
 * Nothing here prints or exits.
 */
#ifndef PC_MODEL_SCRIPT_H
#define PC_MODEL_SCRIPT_H

#include <cjson/cJSON.h>

#include "pc_err.h"

struct pc_mock;

/* Script files larger than this are refused (bytes). */
#define PC_MODEL_SCRIPT_MAX ((size_t)64 << 20)

/* pc_model_script_load - read `path`, parse it as one JSON value and
 * build the model from it. Returns 0 with *m (pc_mock_free) and, when
 * `script` is not NULL, *script (the parsed script, caller deletes).
 * Errors: PC_EIO/PC_ENOENT/PC_EFBIG "cannot read 'PATH': ..." (over
 * PC_MODEL_SCRIPT_MAX bytes: PC_EFBIG); PC_EPARSE "PATH: <serde_json's
 * message with line and column>"; PC_EINVAL "PATH:LINE:COL: <pc_mock's
 * message>" pointing at the member at fault ("x.json:3:17: replies[0]:
 * unknown key 'contnt' in a model reply (expected one of: ...)"), or
 * "PATH: ..." when it cannot be located. Nothing is returned on error. */
int pc_model_script_load(const char *path, cJSON **script, struct pc_mock **m,
			 struct pc_err *err);

/* pc_model_script_locate - the line and column in the JSON text `text`
 * (`n` bytes) of the member named by a pc_mock error path ("replies[0]",
 * "rules[1].when.last_user_contains"; "" is the whole value): its key
 * when the path ends in a key. Returns 0 with *line, *col (1-based), or
 * -1 when it is not there. */
int pc_model_script_locate(const char *text, size_t n, const char *where,
			   unsigned *line, unsigned *col);

#endif

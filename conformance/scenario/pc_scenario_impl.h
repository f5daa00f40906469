/* pc_scenario_impl.h - private to conformance/scenario: the YAML node tree
 * the loader builds before checking it (no libyaml types here). */
#ifndef PC_SCENARIO_IMPL_H
#define PC_SCENARIO_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum pc__ynode_kind { PC__Y_SCALAR, PC__Y_SEQ, PC__Y_MAP };

struct pc__ynode {
	enum pc__ynode_kind kind;
	char *s;		 /* SCALAR: the text (NUL-free), else NULL */
	bool quoted;		 /* SCALAR: not plain (always a string) */
	bool tag_update;	 /* tagged !update */
	size_t line, col;	 /* 1-based */
	size_t el, ec;		 /* 0-based line, column (characters) just
				    past the node's end */
	struct pc__ynode **kids; /* SEQ: items; MAP: key, value, key, ... */
	size_t n, alloc;
};

/* pc__ynode_free - free a tree; NULL is a no-op. */
void pc__ynode_free(struct pc__ynode *n);

/* pc__scenario_json_get - the node at JSON path `path` ("$", "$.a.b",
 * "$.a[0]", "$['k']") in `doc`, or NULL when absent or malformed.
 * Borrowed from doc. */
const cJSON *pc__scenario_json_get(const cJSON *doc, const char *path);
/* pc__scenario_path_ok - `path` is a well-formed JSON path as above. */
bool pc__scenario_path_ok(const char *path);

#include "pc_err.h"

/* pc__scenario_yaml_read - parse the `len` bytes of `text` (the contents
 * of `path`, for messages) into a node tree: one document, no anchors or
 * aliases, at most PC_SCENARIO_MAX_NODES nodes nested at most
 * PC_SCENARIO_MAX_DEPTH deep, valid UTF-8, no NUL in scalars. Returns 0
 * with *out set (an empty document gives NULL), or PC_EPARSE with
 * "PATH:LINE:COL: ..." in err. The only user of libyaml. */
int pc__scenario_yaml_read(const char *path, const char *text, size_t len,
			   struct pc__ynode **out, struct pc_err *err);

#endif

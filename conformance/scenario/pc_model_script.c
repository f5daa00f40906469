/* pc_model_script.c - mock-model script files (pc_model_script.h). */
#include "pc_model_script.h"

#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_locate.h"
#include "pc_mock.h"
#include "pc_serde.h"
#include "pc_strvec.h"
#include "pc_xalloc.h"

int pc_model_script_locate(const char *text, size_t n, const char *where,
			   unsigned *line, unsigned *col)
{
	struct pc_strvec steps = PC_STRVEC_INIT;
	const char *p = where;
	struct pc_loc loc;
	int rc;

	/* "a[1].b" -> "a", "#1", "b" */
	while (*p) {
		size_t k = strcspn(p, ".[");

		if (k)
			pc_strvec_pushf(&steps, "%.*s", (int)k, p);
		p += k;
		if (*p == '[') {
			size_t d = strcspn(p + 1, "]");

			pc_strvec_pushf(&steps, "#%.*s", (int)d, p + 1);
			p += 1 + d + (p[1 + d] == ']');
		}
		if (*p == '.')
			p++;
	}
	if (steps.nr)
		rc = pc_json_locate(text, n, (const char *const *)steps.v, 0,
				    true, &loc);
	else
		rc = pc_json_locate(text, n, (const char *const[]){ NULL }, 0,
				    true, &loc);
	pc_strvec_release(&steps);
	if (rc)
		return -1;
	*line = loc.line;
	*col = loc.column;
	return 0;
}

int pc_model_script_load(const char *path, cJSON **script, struct pc_mock **m,
			 struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(PC_MODEL_SCRIPT_MAX);
	struct pc_err e = PC_ERR_INIT;
	cJSON *v = NULL;
	unsigned line, col;
	int rc;

	*m = NULL;
	if (script)
		*script = NULL;
	if ((rc = pc_fs_read_capped(path, &b, err)) < 0) {
		pc_buf_release(&b);
		return rc;
	}
	if ((rc = pc_serde_parse(pc_buf_cstr(&b), b.len, &v, &e)) < 0) {
		pc_err_set(err, PC_EPARSE, "%s: %s", path, e.msg);
	} else if ((rc = pc_mock_new_json(v, m, &e)) < 0) {
		if (pc_model_script_locate(pc_buf_cstr(&b), b.len, e.where,
					   &line, &col) == 0)
			pc_err_set(err, e.code, "%s:%u:%u: %s", path, line, col,
				   e.msg);
		else
			pc_err_set(err, e.code, "%s: %s", path, e.msg);
	}
	if (!rc && script)
		*script = v;
	else
		cJSON_Delete(v);
	pc_buf_release(&b);
	return rc;
}

/* pc_scenario_save.c - append an observed exchange as a scenario. */
#include "pc_scenario_save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_scenario.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

/* A JSON value as YAML flow text (JSON is YAML flow). An expectation's
 * string that would read as a regex is wrapped in {equals: ...}; input
 * values are never matchers and stay as they are. */
static void put_as(struct pc_buf *b, int indent, const char *key,
		   const cJSON *v, bool matcher)
{
	struct pc_buf t = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!v)
		return;
	pc_serde_print(v, &t);
	if (matcher && cJSON_IsString(v) && v->valuestring[0] == '/')
		pc_buf_addf(b, "%*s%s: { equals: %s }\n", indent, "", key,
			    pc_buf_cstr(&t));
	else
		pc_buf_addf(b, "%*s%s: %s\n", indent, "", key, pc_buf_cstr(&t));
	pc_buf_release(&t);
}

static void put(struct pc_buf *b, int indent, const char *key, const cJSON *v)
{
	put_as(b, indent, key, v, true);
}

/* A string as a YAML (JSON) double-quoted scalar, appended. */
static void put_str(struct pc_buf *b, const char *s)
{
	cJSON *j = cJSON_CreateString(s);

	pc_serde_print(j, b);
	cJSON_Delete(j);
}

/* An input key: the string `s`. */
static void put_input_str(struct pc_buf *b, const char *key, const char *s)
{
	pc_buf_addf(b, "        %s: ", key);
	put_str(b, s);
	pc_buf_adds(b, "\n");
}

static void put_expect(struct pc_buf *b, const cJSON *a)
{
	static const char *const keys[] = { "outcome",
					    "verdict",
					    "reason",
					    "notify",
					    "status",
					    "ok",
					    "output",
					    "injection",
					    "id",
					    "message",
					    "leftover_processes" };
	const cJSON *modify = cJSON_GetObjectItemCaseSensitive(a, "modify");
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(a, "verdict");

	pc_buf_adds(b, "        expect:\n");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, keys[i]);

		if (!strcmp(keys[i], "verdict") && v) {
			pc_buf_addf(b, "          verdict: %s\n",
				    v->valuestring);
			continue;
		}
		put(b, 10, keys[i], v);
	}
	if (verdict && !modify)
		pc_buf_adds(b, "          modify: null\n");
	if (modify) {
		pc_buf_adds(b, "          strict: true\n");
		put(b, 10, "modify", modify);
	}
}

static void put_step(struct pc_buf *b, const struct pc_fire_opts *o,
		     const char *plugin)
{
	cJSON *in = NULL;

	pc_buf_adds(b, "      - fire: ");
	put_str(b, o->point);
	pc_buf_adds(b, "\n");
	if (plugin)
		put_input_str(b, "plugin", plugin);
	if (o->in.args) {
		if (strncmp(o->point, "command:", 8) &&
		    pc_serde_parse(o->in.args, strlen(o->in.args), &in,
				   NULL) == 0)
			put_as(b, 8, "input", in, false);
		else
			put_input_str(b, "input", o->in.args);
		cJSON_Delete(in);
		in = NULL;
	}
	if (o->in.tool)
		put_input_str(b, "tool", o->in.tool);
	if (o->in.result &&
	    pc_serde_parse(o->in.result, strlen(o->in.result), &in, NULL) ==
		    0) {
		put_as(b, 8, "result", in, false);
		cJSON_Delete(in);
	}
}

int pc_scenario_save_fire(const char *file, const struct pc_fire_opts *o,
			  const cJSON *actual, struct pc_err *err)
{
	struct pc_scenario_file f = PC_SCENARIO_FILE_INIT;
	struct pc_buf old = PC_BUF_INIT(PC_SCENARIO_MAX_BYTES);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	char *plugin = pc_fs_absolute(o->path), *rel = NULL;
	const char *step_plugin = NULL;
	size_t n = 0;
	int rc;

	if (pc_fs_is_file(file)) {
		if ((rc = pc_scenario_load(file, &f, err)) < 0)
			goto out;
		n = f.nscenarios;
		/* relative to the file, as the loader resolves it, so the
		 * saved test works in any checkout */
		rel = pc_fs_relative(f.dir, plugin);
		if (strcmp(f.plugins.v[0], plugin))
			step_plugin = rel;
		if ((rc = pc_fs_read_capped(file, &old, err)) < 0)
			goto out;
		pc_buf_add(&b, old.data, old.len);
		if (b.len && b.data[b.len - 1] != '\n')
			pc_buf_addch(&b, '\n');
	} else {
		struct pc_scenario_file probe = PC_SCENARIO_FILE_INIT;
		char *dir;

		/* Only for the file's directory, to compare with the plugin. */
		pc_scenario_load(file, &probe, NULL);
		dir = pc_xstrdup(probe.dir);
		pc_scenario_file_release(&probe);
		pc_buf_adds(&b, "plugcheck: 1\n");
		rel = pc_fs_relative(dir, plugin);
		if (strcmp(rel, ".")) {
			pc_buf_adds(&b, "plugins: [");
			put_str(&b, rel);
			pc_buf_adds(&b, "]\n");
		}
		free(dir);
		pc_buf_adds(&b, "scenarios:\n");
	}
	{
		char *name = pc_xasprintf("fire %s #%zu", o->point, n + 1);

		pc_buf_adds(&b, "  - name: ");
		put_str(&b, name);
		pc_buf_adds(&b, "\n    steps:\n");
		free(name);
	}
	put_step(&b, o, step_plugin);
	put_expect(&b, actual);
	if ((rc = pc_fs_write(file, b.data, b.len, err)) < 0)
		goto out;
	pc_scenario_file_release(&f);
	if ((rc = pc_scenario_load(file, &f, err)) < 0) {
		if (old.len)
			pc_fs_write(file, old.data, old.len, NULL);
		else
			remove(file);
	}
out:
	pc_scenario_file_release(&f);
	pc_buf_release(&old);
	pc_buf_release(&b);
	free(plugin);
	free(rel);
	return rc;
}

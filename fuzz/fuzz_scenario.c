/* fuzz_scenario.c - the scenario loader (docs/scenarios.md): YAML through
 * libyaml into checked scenario structs. The input is written as
 * `s/f.plugcheck.yaml` in a temporary directory (removed at exit) that
 * also holds the directories the test scenarios name (`plugin`,
 * `turn/guard`, `turn/audit`) and a model script `turn/script.json`, so
 * seeds from tests/scenarios load past their plugin checks.
 *
 * Property: a refusal always has a "PATH:LINE:COL: ..." message naming
 * the file; a load that succeeds has at least one plugin and one
 * scenario, each with at least one step. Loading never runs a plugin or
 * writes a file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_fs.h"
#include "pc_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *path;

static const char script[] = "{\"replies\":[{\"content\":\"done\"}]}\n";

static void cleanup(void)
{
	pc_fs_rm_rf(dir);
	free(dir);
	free(path);
}

static void mk(const char *rel)
{
	char *d = pc_fs_join(dir, rel);

	if (pc_fs_mkdir_p(d, NULL))
		abort();
	free(d);
}

static void setup(void)
{
	char *s;

	if (!(dir = pc_fs_mkdtemp("fuzz-scenario")))
		abort();
	atexit(cleanup);
	mk("s");
	mk("plugin");
	mk("turn/guard");
	mk("turn/audit");
	s = pc_fs_join(dir, "turn/script.json");
	if (pc_fs_write(s, script, sizeof(script) - 1, NULL))
		abort();
	free(s);
	path = pc_fs_join(dir, "s/f.plugcheck.yaml");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_scenario_file f = PC_SCENARIO_FILE_INIT;
	struct pc_err err = PC_ERR_INIT;
	int rc;

	if (!dir)
		setup();
	if (pc_fs_write(path, data, size, NULL))
		abort();
	rc = pc_scenario_load(path, &f, &err);
	if (rc && strncmp(err.msg, path, strlen(path))) {
		fprintf(stderr, "error does not name the file: %s\n", err.msg);
		abort();
	}
	if (!rc && (!f.plugins.nr || !f.nscenarios)) {
		fprintf(stderr, "loaded without plugins or scenarios\n");
		abort();
	}
	for (size_t i = 0; !rc && i < f.nscenarios; i++)
		if (!f.scenarios[i].nsteps) {
			fprintf(stderr, "scenario %zu has no step\n", i);
			abort();
		}
	pc_scenario_file_release(&f);
	return 0;
}

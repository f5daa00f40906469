/* fuzz_manifest.c - manifest loading: serde derive's PluginManifest decode,
 * then the loader's own checks on a temporary plugin directory holding the
 * input as plugin.json (and one executable script "h"), removed at exit,
 * with the load's log and whole error text (pc_manifest_load_report). */
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_serde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *mpath;

static void cleanup(void)
{
	pc_fs_rm_rf(dir);
	free(dir);
	free(mpath);
}

static void setup(void)
{
	char *h;

	dir = pc_fs_mkdtemp("fuzz-manifest");
	if (!dir)
		abort();
	atexit(cleanup);
	mpath = pc_fs_join(dir, "plugin.json");
	h = pc_fs_join(dir, "h");
	pc_fs_write(h, "#!/bin/sh\n", 10, NULL);
	chmod(h, 0755);
	free(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_err err = PC_ERR_INIT;
	struct pc_manifest_env env = { "/nonexistent-home", NULL };
	struct pc_plugin *p = NULL;
	struct pc_strvec log = PC_STRVEC_INIT;
	char *msg = NULL;
	struct pc_manifest_report rep = { .log = &log, .error = &msg };
	cJSON *v = NULL;

	if (!dir)
		setup();
	if (!pc_serde_decode((const char *)data, size,
			     &pc_serde_plugin_manifest, &v, &err))
		cJSON_Delete(v);
	if (pc_fs_write(mpath, data, size, NULL))
		abort();
	if (!pc_manifest_load_report(dir, &env, &p, &rep, &err))
		pc_plugin_free(p);
	else if (!msg || !log.nr)
		__builtin_trap(); /* a rejection always has its text and line */
	free(msg);
	pc_strvec_release(&log);
	return 0;
}

/* fuzz_manifest.c - manifest loading: serde derive's PluginManifest decode,
 * then the loader's own checks on a temporary plugin directory holding the
 * input as plugin.json (and one executable script "h"), removed at exit,
 * with the load's log and whole error text (pc_manifest_load_report).
 * A rejection's member of plugin.json (error_at) is then located in the
 * text the loader read, by the indexed locator and by the scanning one
 * (conformance/report/pc_locate.h): on JSON serde accepted they must
 * agree (issue 19). */
#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_locate.h"
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
	char *msg = NULL, *text = NULL;
	size_t text_len = 0;
	struct pc_strvec at = PC_STRVEC_INIT;
	struct pc_manifest_report rep = { .log = &log, .error = &msg,
					  .error_at = &at, .text = &text,
					  .text_len = &text_len };
	cJSON *v = NULL;
	bool json = false;

	if (!dir)
		setup();
	if (!pc_serde_decode((const char *)data, size,
			     &pc_serde_plugin_manifest, &v, &err)) {
		cJSON_Delete(v);
		json = true;
	}
	if (pc_fs_write(mpath, data, size, NULL))
		abort();
	if (!pc_manifest_load_report(dir, &env, &p, &rep, &err))
		pc_plugin_free(p);
	else if (!msg || !log.nr)
		__builtin_trap(); /* a rejection always has its text and line */
	if (text) {
		struct pc_json_doc *d = pc_json_doc_new(text, text_len);
		const char **steps = calloc(at.nr + 1, sizeof(*steps));
		struct pc_loc a = { 0, 0 }, b = { 0, 0 };
		int ra, rb;

		for (size_t i = 0; steps && i < at.nr; i++)
			steps[i] = at.v[i];
		if (steps) {
			ra = pc_json_doc_locate(d, steps, 0, false, &a);
			rb = pc_json_locate(text, text_len, steps, 0, false, &b);
			if (json && (ra != rb || a.line != b.line ||
				     a.column != b.column))
				__builtin_trap(); /* the two locators disagree */
			if (json && !pc_json_doc_near(d, steps, true).line)
				__builtin_trap(); /* valid JSON has a place */
		}
		free(steps);
		pc_json_doc_free(d);
	}
	free(text);
	pc_strvec_release(&at);
	free(msg);
	pc_strvec_release(&log);
	return 0;
}

/* pc_guard_paths.c - the rewrite families for paths (pre_write, pre_read,
 * pre_tool on a file tool), and the inputs of each shape.
 *
 * The host's file tools resolve a relative path against the workspace and
 * take an absolute one as it is (workspace.rs resolve_unconfined, under
 * approval never); they do not expand "~". So the same file is the same
 * whatever spelling the kernel resolves to it, and whatever tool opens
 * it: a guard that looks at one spelling, or one tool, guards one door.
 */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_guard_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

const char *pc__guard_shape_tool(enum pc_guard_shape shape)
{
	return shape == PC_GUARD_CMD	 ? "bash"
	       : shape == PC_GUARD_WRITE ? "write_file"
					 : "read_file";
}

const char *pc_guard_shape_name(enum pc_guard_shape s)
{
	return s == PC_GUARD_CMD ? "command" : s == PC_GUARD_WRITE ? "write" : "read";
}

cJSON *pc__guard_args(enum pc_guard_shape shape, const char *text)
{
	cJSON *a = cJSON_CreateObject();

	if (shape == PC_GUARD_CMD) {
		cJSON_AddStringToObject(a, "command", text);
		return a;
	}
	if (shape == PC_GUARD_WRITE)
		cJSON_AddStringToObject(a, "content", PC_GUARD_MARK "\n");
	cJSON_AddStringToObject(a, "path", text);
	return a;
}

static void add(struct pc__gvariants *out, const char *seed, char *text,
		const char *rule)
{
	pc__guard_variant_add(out, seed, text, rule, NULL, NULL);
	free(text);
}

/* `to` (absolute) as a path relative to directory `from` (absolute,
 * no symlink): "../../home/u/.ssh/id_rsa". New string. */
static char *relative(const char *from, const char *to)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t common = 0, i;

	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if (!from[i] && (to[i] == '/' || !to[i]))
		common = i;
	for (const char *p = from + common; *p; p++)
		if (*p == '/' && p[1])
			pc_buf_adds(&b, "../");
	pc_buf_adds(&b, to[common] == '/' ? to + common + 1 : to + common);
	return pc_buf_detach(&b, NULL);
}

/* spelling - the same path named another way: ./ before a relative path,
 * a doubled slash, /./ inside, the workspace's absolute path for a
 * relative one, out of the workspace and back in (../WS/), and an
 * absolute path relative to the workspace (../../home/...). Equivalent:
 * the tools join a relative path to the workspace and the kernel treats
 * "//" and "/./" as "/" and ".." as the parent (path_resolution(7)); the
 * workspace's path has no symlink, so its ".." is its parent. */
void pc__guard_fam_spelling(const char *seed, const struct pc__gctx *c,
			    struct pc__gvariants *out)
{
	const char *ws = c->workspace, *slash;
	const char *base = ws ? strrchr(ws, '/') : NULL;

	if (!*seed || strstr(seed, ".."))
		return;
	if (seed[0] == '/') {
		slash = strchr(seed + 1, '/');
		add(out, seed, pc_xasprintf("/%s", seed), "a doubled leading slash");
		add(out, seed, pc_xasprintf("/.%s", seed), "a /./ after the root");
		if (ws)
			add(out, seed, relative(ws, seed),
			    "relative to the workspace (../../...)");
	} else {
		add(out, seed, pc_xasprintf("./%s", seed), "./ before the path");
		if (ws) {
			add(out, seed, pc_xasprintf("%s/%s", ws, seed),
			    "the workspace's absolute path");
			add(out, seed, pc_xasprintf("%s//%s", ws, seed),
			    "the workspace's path with a doubled slash");
			if (base && base[1])
				add(out, seed,
				    pc_xasprintf("../%s/%s", base + 1, seed),
				    "out of the workspace and back in (../WS/)");
		}
		slash = strchr(seed, '/');
	}
	if (slash && slash[1] && slash != seed) {
		add(out, seed,
		    pc_xasprintf("%.*s/./%s", (int)(slash - seed), seed, slash + 1),
		    "a /./ inside");
		add(out, seed,
		    pc_xasprintf("%.*s//%s", (int)(slash - seed), seed, slash + 1),
		    "a doubled slash inside");
	}
}

static cJSON *obj(const char *k1, cJSON *v1, const char *k2, cJSON *v2)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, k1, v1);
	if (k2)
		cJSON_AddItemToObject(o, k2, v2);
	return o;
}

static cJSON *str(const char *s)
{
	return cJSON_CreateString(s);
}

static cJSON *one(cJSON *item)
{
	cJSON *a = cJSON_CreateArray();

	cJSON_AddItemToArray(a, item);
	return a;
}

static cJSON *edits(void)
{
	return one(obj("replace", str(PC_GUARD_MARK), "search", str(PC_GUARD_OLD)));
}

static void tool(struct pc__gvariants *out, const char *seed,
		 const char *name, cJSON *args, const char *rule)
{
	pc__guard_variant_add(out, seed, seed, rule, name, args);
}

/* tool (writes) - the same file through every other built-in tool that
 * writes it: edit, patch, bulk_write, bulk_edit, rename (a file moved
 * onto it) and bash (a redirection). Equivalent: each leaves the file
 * holding the same line (tools.rs); only write_file and edit fire
 * pre_write (R4.6, R12.1.2), every one fires pre_tool. */
void pc__guard_fam_tools_write(const char *seed, const struct pc__gctx *c,
			       struct pc__gvariants *out)
{
	char *q = pc__guard_squote(seed);
	char *cmd = pc_xasprintf("printf '%%s\\n' %s > %s", PC_GUARD_MARK, q);
	char *patch = pc_xasprintf("@@ -1 +1 @@\n-%s\n+%s\n", PC_GUARD_OLD,
				   PC_GUARD_MARK);

	(void)c;
	tool(out, seed, "edit", obj("edits", edits(), "path", str(seed)),
	     "edit instead of write_file");
	tool(out, seed, "patch", obj("patch", str(patch), "path", str(seed)),
	     "patch (never fires pre_write)");
	tool(out, seed, "bulk_write",
	     obj("files",
		 one(obj("content", str(PC_GUARD_MARK "\n"), "path", str(seed))),
		 NULL, NULL),
	     "bulk_write (never fires pre_write)");
	tool(out, seed, "bulk_edit",
	     obj("edits", one(obj("edits", edits(), "path", str(seed))), NULL,
		 NULL),
	     "bulk_edit (never fires pre_write)");
	tool(out, seed, "rename",
	     obj("from", str("plugcheck-guard.tmp"), "to", str(seed)),
	     "rename a file onto it (never fires pre_write)");
	tool(out, seed, "bash", obj("command", str(cmd), NULL, NULL),
	     "a shell redirection (bash, never fires pre_write)");
	free(patch);
	free(cmd);
	free(q);
}

/* tool (reads) - the same file through every other built-in tool that
 * reads it: grep on it (path, and paths), and bash (cat). Equivalent:
 * each returns the file's content to the model; grep fires pre_read with
 * other arguments, bash fires pre_bash, not pre_read (R4.6). */
void pc__guard_fam_tools_read(const char *seed, const struct pc__gctx *c,
			      struct pc__gvariants *out)
{
	char *q = pc__guard_squote(seed);
	char *cmd = pc_xasprintf("cat %s", q);

	(void)c;
	tool(out, seed, "grep", obj("path", str(seed), "pattern", str("SECRET")),
	     "grep on the file");
	tool(out, seed, "grep",
	     obj("paths", one(str(seed)), "pattern", str("SECRET")),
	     "grep with the file in `paths`");
	tool(out, seed, "bash", obj("command", str(cmd), NULL, NULL),
	     "cat in bash (never fires pre_read)");
	free(cmd);
	free(q);
}

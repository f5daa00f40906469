/* pc_guard_cause.c - why a guard allowed every seed, when its script
 * shows it: it reads what another harness sends (tool_input, tool_name,
 * "Bash" as the tool's name), or it reads args that the host omits
 * because the manifest does not set pass_args (R4.5). As PC-ENV-002
 * does for environment variables, this reads the script's text (a
 * compiled guard's bytes too, without a line). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_locate.h"
#include "pc_xalloc.h"

/* Spellings of other harnesses' hook inputs (Claude Code's PreToolUse
 * sends tool_name/tool_input and names its tools Bash, Write, Edit,
 * Read); the host sends `tool` and `args` with the names bash,
 * write_file, edit, read_file (R4.5, R4.6). */
static const struct {
	const char *needle, *what;
} foreign[] = {
	{ "tool_input",
	  "reads `tool_input`, another harness's field: Catalyst Code sends the tool's arguments as `args` (R4.5)" },
	{ "tool_name",
	  "reads `tool_name`, another harness's field: Catalyst Code names the tool in `tool` (R4.5)" },
	{ "\"Bash\"",
	  "compares with \"Bash\": Catalyst Code's tool is \"bash\" (R4.6)" },
	{ "'Bash'",
	  "compares with 'Bash': Catalyst Code's tool is \"bash\" (R4.6)" },
	{ "\"Write\"",
	  "compares with \"Write\": Catalyst Code's tools are \"write_file\" and \"edit\" (R4.6)" },
	{ "'Write'",
	  "compares with 'Write': Catalyst Code's tools are \"write_file\" and \"edit\" (R4.6)" },
	{ "\"Read\"",
	  "compares with \"Read\": Catalyst Code's tool is \"read_file\" (R4.6)" },
	{ "'Read'",
	  "compares with 'Read': Catalyst Code's tool is \"read_file\" (R4.6)" },
	{ "PreToolUse",
	  "expects another harness's PreToolUse input: Catalyst Code sends {hook, tool, args, session_id, timestamp, workspace} (R4.5)" },
};

/* How scripts read the args (for a hook without pass_args). */
static const char *const args_reads[] = { "\"args\"", "'args'", ".args",
					  "[\"args\"]", "args." };

static void add(struct pc_guard_result *r, const char *what,
		const char *file, struct pc_loc loc, bool certain)
{
	r->causes = pc_xreallocarray(r->causes, r->ncauses + 1,
				     sizeof(*r->causes));
	r->causes[r->ncauses++] = (struct pc_guard_cause){
		pc_xstrdup(what), pc_xstrdup(file), loc.line, loc.column, certain
	};
}

/* Where the hook's entry is in plugin.json. */
static struct pc_loc manifest_loc(const struct pc_plugin *p, int point)
{
	const char *path[] = { "hooks", pc_hook_point_name((enum pc_hook_point)point),
			       NULL };
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	char *file = pc_fs_join(p->source_path ? p->source_path : p->dir,
				"plugin.json");
	struct pc_loc loc = { 0, 0 };

	if (pc_fs_read_capped(file, &b, NULL) == 0)
		pc_json_locate(b.data, b.len, path, 0, true, &loc);
	pc_buf_release(&b);
	free(file);
	return loc;
}

/* Where `needle` is in the script: located in a text, found (line 0) in
 * a binary. */
static bool find(const struct pc_buf *b, bool binary, const char *needle,
		 struct pc_loc *loc)
{
	*loc = (struct pc_loc){ 0, 0 };
	if (binary)
		return memmem(b->data, b->len, needle, strlen(needle)) != NULL;
	*loc = pc_text_find_line(b->data, b->len, needle);
	return loc->line > 0;
}

void pc__guard_causes(const struct pc_plugin *p, int point,
		      struct pc_guard_result *r)
{
	const struct pc_hook_cfg *h = &p->hooks[point];
	const char *rel = h->script_rel ? h->script_rel : h->script;
	struct pc_buf b = PC_BUF_INIT(1048576);
	struct pc_loc loc;
	bool binary, read_args = false;

	if (pc_fs_read_capped(h->script, &b, NULL) < 0 || !b.len) {
		pc_buf_release(&b);
		b = (struct pc_buf)PC_BUF_INIT(1);
	}
	binary = b.len && memchr(b.data, '\0', b.len);
	for (size_t i = 0; b.len && i < sizeof(foreign) / sizeof(*foreign); i++)
		if (find(&b, binary, foreign[i].needle, &loc))
			add(r, foreign[i].what, rel, loc, true);
	if (!h->pass_args) {
		char *what = NULL;

		for (size_t i = 0; b.len && !read_args &&
				   i < sizeof(args_reads) / sizeof(*args_reads);
		     i++)
			read_args = find(&b, binary, args_reads[i], &loc);
		if (read_args) {
			what = pc_xasprintf("reads `args`, but the manifest does not set pass_args for %s: the host omits args (R4.5), so the hook never sees the command or path",
					    pc_hook_point_name((enum pc_hook_point)point));
			add(r, what, rel, loc, true);
		} else {
			what = pc_xasprintf("the manifest does not set pass_args for %s: the host sends no args (R4.5), so the hook cannot see the command or path",
					    pc_hook_point_name((enum pc_hook_point)point));
			add(r, what, "plugin.json", manifest_loc(p, point), false);
		}
		free(what);
	}
	pc_buf_release(&b);
}

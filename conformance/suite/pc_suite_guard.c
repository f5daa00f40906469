/* pc_suite_guard.c - check's guard unit: the guard search of one blocking
 * pre hook (pc_guard.h) in the unit's own HOME and workspace, its cases
 * sent to the parent as they are made. */
#include <stdlib.h>

#include "pc_fs.h"
#include "pc_guard.h"
#include "pc_suite_impl.h"
#include "pc_xalloc.h"

void pc__suite_guard(struct pc__suite *s, int i)
{
	const char *n = pc_hook_point_name((enum pc_hook_point)i);
	char *cls = pc_xasprintf("plugcheck.guard.%s", n);
	char *ws, *tmp = pc_fs_join(s->tmp, "guard");
	struct pc_guard_opts o = PC_GUARD_OPTS_INIT;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;
	struct pc_err err = PC_ERR_INIT;
	size_t first;

	pc__suite_progress(s, "guard %s", n);
	pc__suite_fresh_dirs(s);
	pc_fs_mkdir_p(tmp, NULL);
	/* the rewrites name the workspace by its path: one without symlinks,
	 * so that its ".." is its parent */
	ws = pc_fs_realpath(s->ws);
	o.plugin = s->p;
	o.hook = i;
	o.envp = s->env.v;
	o.workspace = ws ? ws : s->ws;
	o.session = s->session;
	o.tmp = tmp;
	o.confine = s->o->sandbox ? &s->o->sandbox->confine : NULL;
	o.config_commands = s->o->guard_commands;
	o.config_paths = s->o->guard_paths;
	o.budget = s->o->guard_budget;
	o.stop = s->o->stop;
	o.worker = s->w;
	o.note_prefix = cls;
	if (pc_guard_run(&o, &r, &err) == 0) {
		first = pc_guard_report(&r, s->p, s->r, cls);
		for (size_t c = first; c < s->r->ncases; c++)
			pc__suite_end(s, c, NULL);
	}
	pc_guard_result_release(&r);
	pc_fs_rm_rf(tmp);
	free(tmp);
	free(ws);
	free(cls);
}

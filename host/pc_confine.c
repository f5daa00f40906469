/* pc_confine.c - one run under a confinement (pc_confine.h). */
#include "pc_confine.h"

#include <stdlib.h>

int pc_confine_run(const struct pc_confine *c, const struct pc_confine_spec *sp,
		   struct pc_proc_opts *o, struct pc_proc_result *r,
		   struct pc_confine_obs *obs, struct pc_err *err)
{
	struct pc_confine_obs scratch = PC_CONFINE_OBS_INIT;
	struct pc_strvec wrap = PC_STRVEC_INIT;
	const struct pc_strvec *old_wrap = o->wrap;
	const char *old_helper = o->wrap_helper, *helper = NULL;
	int rc;

	c->wrap(c->ctx, sp, &wrap, &helper);
	o->wrap = &wrap;
	o->wrap_helper = helper;
	rc = pc_proc_run(o, r, err);
	o->wrap = old_wrap;
	o->wrap_helper = old_helper;
	if (!rc && r->pid > 0)
		c->observe(c->ctx, sp, r, obs ? obs : &scratch);
	pc_confine_obs_release(&scratch);
	pc_strvec_release(&wrap);
	return rc;
}

void pc_confine_obs_release(struct pc_confine_obs *obs)
{
	pc_strvec_release(&obs->net);
	pc_strvec_release(&obs->ws_writes);
	pc_strvec_release(&obs->out_writes);
	free(obs->trace_error);
	*obs = (struct pc_confine_obs)PC_CONFINE_OBS_INIT;
}

#include "pc_strvec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_xalloc.h"

char *pc_strvec_empty[] = { NULL };

void pc_strvec_init(struct pc_strvec *sv)
{
	sv->v = pc_strvec_empty;
	sv->nr = 0;
	sv->alloc = 0;
}

void pc_strvec_release(struct pc_strvec *sv)
{
	if (sv->v != pc_strvec_empty) {
		for (size_t i = 0; i < sv->nr; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	pc_strvec_init(sv);
}

const char *pc_strvec_push_nodup(struct pc_strvec *sv, char *s)
{
	if (sv->v == pc_strvec_empty)
		sv->v = NULL;
	if (sv->nr + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 8;
		sv->v = pc_xreallocarray(sv->v, sv->alloc, sizeof(*sv->v));
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
	return s;
}

const char *pc_strvec_push(struct pc_strvec *sv, const char *s)
{
	return pc_strvec_push_nodup(sv, pc_xstrdup(s));
}

const char *pc_strvec_pushf(struct pc_strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = pc_xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	return pc_strvec_push_nodup(sv, s);
}

const char *pc_strvec_env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, n) && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

void pc_strvec_env_with_home(struct pc_strvec *env, char *const *envp,
			     const char *home)
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], "HOME=", 5))
			pc_strvec_push(env, envp[i]);
	pc_strvec_pushf(env, "HOME=%s", home);
}

bool pc_strvec_has(const struct pc_strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

/* pc_strvec.h - a NULL-terminated vector of owned strings (git strvec),
 * used to build argv and envp for posix_spawn.
 *
 * `v` is never NULL after PC_STRVEC_INIT: it points at a static empty
 * vector until the first push, so `v.v` can always be passed as argv.
 */
#ifndef PC_STRVEC_H
#define PC_STRVEC_H

#include <stdbool.h>
#include <stddef.h>

struct pc_strvec {
	char **v;     /* NULL-terminated; owned strings */
	size_t nr;    /* number of strings, not counting the NULL */
	size_t alloc; /* private */
};

extern char *pc_strvec_empty[];
#define PC_STRVEC_INIT { .v = pc_strvec_empty, .nr = 0, .alloc = 0 }

/* pc_strvec_env_get - the value of NAME in `envp` (NULL-terminated
 * "NAME=value" strings, e.g. a pc_strvec's v or environ; may be NULL),
 * the first match as getenv() in a process with that environment finds
 * it; NULL when absent. Borrowed from `envp`. */
const char *pc_strvec_env_get(char *const *envp, const char *name);
/* pc_strvec_env_with_home - append to `env` a copy of every entry of
 * `envp` (NULL-terminated "NAME=value" strings, e.g. environ) but HOME,
 * then "HOME=`home`": plugcheck's own environment with a throwaway HOME
 * for the plugin processes it runs. Borrows envp and home. */
void pc_strvec_env_with_home(struct pc_strvec *env, char *const *envp,
			     const char *home);
/* pc_strvec_init - make `sv` empty; never fails, never allocates. */
void pc_strvec_init(struct pc_strvec *sv);
/* pc_strvec_release - free every string and the vector; `sv` is empty. */
void pc_strvec_release(struct pc_strvec *sv);
/* pc_strvec_push - append a copy of `s`; returns the copy (owned by sv). */
const char *pc_strvec_push(struct pc_strvec *sv, const char *s);
/* pc_strvec_push_nodup - append `s`, taking ownership of it. */
const char *pc_strvec_push_nodup(struct pc_strvec *sv, char *s);
/* pc_strvec_pushf - append a printf-formatted string. */
const char *pc_strvec_pushf(struct pc_strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* pc_strvec_has - some string of `sv` equals `s` (strcmp). */
bool pc_strvec_has(const struct pc_strvec *sv, const char *s);

#endif

/* pc_chatcli_install.c - /plugin install from git (I2-I5): URL parsing,
 * the shallow clone, the derived binary name, `go build` and chmod. */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_chatcli.h"
#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_time.h"
#include "pc_xalloc.h"

extern char **environ;

#define OUTPUT_MAX (4u << 20)

void pc_chatcli_git_url_parse(const char *raw, struct pc_chatcli_git_url *u)
{
	const char *t = strstr(raw, "/tree/"), *rest, *slash;
	size_t n;

	if (!t) {
		u->clone_url = pc_xstrdup(raw);
		u->branch = pc_xstrdup("");
		u->subdir = pc_xstrdup("");
		return;
	}
	u->clone_url = pc_xasprintf("%.*s.git", (int)(t - raw), raw);
	rest = t + strlen("/tree/");
	slash = strchr(rest, '/');
	if (!slash) {
		u->branch = pc_xstrdup(rest);
		u->subdir = pc_xstrdup("");
		return;
	}
	u->branch = pc_xmemdup(rest, (size_t)(slash - rest));
	u->subdir = pc_xstrdup(slash + 1);
	n = strlen(u->subdir);
	while (n && u->subdir[n - 1] == '/')
		u->subdir[--n] = '\0';
}

void pc_chatcli_git_url_release(struct pc_chatcli_git_url *u)
{
	free(u->clone_url);
	free(u->branch);
	free(u->subdir);
	*u = (struct pc_chatcli_git_url)PC_CHATCLI_GIT_URL_INIT;
}

/* Go's filepath.Base: trailing slashes dropped, "" -> ".", "/" -> "/". */
char *pc_chatcli_install_name(const char *build_dir)
{
	size_t n = strlen(build_dir), m;
	const char *b;
	char *name;

	while (n > 1 && build_dir[n - 1] == '/')
		n--;
	if (!n)
		return pc_xstrdup(".");
	b = build_dir + n;
	while (b > build_dir && b[-1] != '/')
		b--;
	name = pc_xmemdup(b, (size_t)(build_dir + n - b));
	if (!*name) {
		free(name);
		return pc_xstrdup("/");
	}
	m = strlen(name);
	if (m >= 4 && !strcmp(name + m - 4, ".git"))
		name[m - 4] = '\0';
	return name;
}

char *pc_chatcli_find_program(const char *name, const struct pc_strvec *env)
{
	char **v = env ? env->v : environ;
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	char *copy, *save = NULL, *found = NULL;

	for (size_t i = 0; v && v[i]; i++)
		if (!strncmp(v[i], "PATH=", 5))
			path = v[i] + 5;
	copy = pc_xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = pc_fs_join(*d ? d : ".", name);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

/* make_clone_dir - os.MkdirTemp(dir, "chatcli-plugin-"): the pattern plus
 * a random uint32 in decimal, retried on collision. */
static char *make_clone_dir(const char *dir)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	for (int tries = 0; tries < 10000; tries++) {
		unsigned int rnd = 0;
		char *p;

		if (fd < 0 || read(fd, &rnd, sizeof(rnd)) != sizeof(rnd))
			rnd = (unsigned int)pc_time_now_ms() * 2654435761u +
			      (unsigned int)tries;
		p = pc_xasprintf("%s/chatcli-plugin-%u", dir, rnd);
		if (mkdir(p, 0700) == 0) {
			if (fd >= 0)
				close(fd);
			return p;
		}
		free(p);
		if (errno != EEXIST)
			break;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static bool has_go_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		found = n > 3 && !strcmp(de->d_name + n - 3, ".go") &&
			de->d_name[0] != '.' && de->d_name[0] != '_';
	}
	if (d)
		closedir(d);
	return found;
}

/* run_tool - exec.Command(argv...).CombinedOutput() in `cwd`: returns
 * NULL on success or Go's error text ("exit status N", "signal: killed",
 * exec's lookup error); *out gets both streams. */
static char *run_tool(const char *const *argv, const char *cwd,
		      const struct pc_strvec *env, int64_t timeout_ms,
		      char **out, int64_t *ms)
{
	struct pc_proc_opts po = PC_PROC_OPTS_INIT;
	struct pc_proc_result r = PC_PROC_RESULT_INIT(OUTPUT_MAX, OUTPUT_MAX);
	char **v = env ? env->v : environ;
	char *e = NULL;

	for (; *argv; argv++)
		pc_strvec_push(&po.argv, *argv);
	for (size_t i = 0; v && v[i]; i++)
		pc_strvec_push(&po.env, v[i]);
	po.cwd = cwd;
	po.timeout_ms = timeout_ms;
	po.stdout_max = po.stderr_max = OUTPUT_MAX;
	po.flags = PC_PROC_STDIN_DEVNULL;
	if (pc_proc_run(&po, &r, NULL))
		e = pc_xstrdup("plugcheck could not run it");
	else if (r.outcome == PC_PROC_SPAWN_ERROR)
		e = pc_xasprintf(
			r.spawn_errno == ENOENT
				? "exec: \"%s\": executable file not found in $PATH"
				: "exec: \"%s\": cannot start",
			po.argv.v[0]);
	else if (r.outcome == PC_PROC_TIMEOUT)
		e = pc_xasprintf(
			"plugcheck: stopped after %lld ms (the host has no timeout here)",
			(long long)timeout_ms);
	else if (r.outcome != PC_PROC_EXITED)
		e = pc_xasprintf("plugcheck: %s",
				 pc_proc_outcome_name(r.outcome));
	else if (r.term_signal) {
		e = pc_xasprintf("signal: %s", strsignal(r.term_signal));
		e[8] = (char)tolower((unsigned char)e[8]);
	} else if (r.exit_code)
		e = pc_xasprintf("exit status %d", r.exit_code);
	*out = pc_xasprintf("%s%s", pc_buf_cstr(&r.out), pc_buf_cstr(&r.err));
	*ms = r.wall_ms;
	pc_proc_result_release(&r);
	pc_proc_opts_release(&po);
	return e;
}

static int clone(const struct pc_chatcli_install_opts *o,
		 struct pc_chatcli_install *r)
{
	const char *argv[8];
	size_t n = 0;

	argv[n++] = "git";
	argv[n++] = "clone";
	argv[n++] = "--depth=1";
	if (*r->url.branch) {
		argv[n++] = "--branch";
		argv[n++] = r->url.branch;
	}
	argv[n++] = r->url.clone_url;
	argv[n++] = r->clone_dir;
	argv[n] = NULL;
	free(r->output);
	r->error = run_tool(argv, NULL, o->env,
			    o->clone_timeout_ms ? o->clone_timeout_ms : 300000,
			    &r->output, &r->clone_ms);
	return r->error ? -1 : 0;
}

static int build(const struct pc_chatcli_install_opts *o,
		 struct pc_chatcli_install *r)
{
	const char *argv[] = {
		o->go ? o->go : "go", "build", "-o", r->dest, ".", NULL
	};

	if (o->no_build) {
		free(r->output);
		r->output = pc_xstrdup("");
		r->build_skipped = true;
		r->error = pc_xasprintf(
			"exec: \"%s\": executable file not found in $PATH",
			argv[0]);
		return -1;
	}
	free(r->output);
	r->error = run_tool(argv, r->build_dir, o->env,
			    o->build_timeout_ms ? o->build_timeout_ms : 600000,
			    &r->output, &r->build_ms);
	return r->error ? -1 : 0;
}

int pc_chatcli_install(const struct pc_chatcli_install_opts *o,
		       struct pc_chatcli_install *r, struct pc_err *err)
{
	struct stat st;

	pc_chatcli_git_url_parse(o->source, &r->url);
	r->output = pc_xstrdup("");
	r->clone_dir = make_clone_dir(o->tmp_dir);
	if (!r->clone_dir)
		return pc_err_set_errno(err, PC_EIO, errno,
					"cannot create a directory in '%s'",
					o->tmp_dir);
	r->stage = PC_CHATCLI_INSTALL_CLONE;
	if (clone(o, r))
		return 0;
	r->stage = PC_CHATCLI_INSTALL_SUBDIR;
	r->build_dir = *r->url.subdir ? pc_fs_join(r->clone_dir, r->url.subdir)
				      : pc_xstrdup(r->clone_dir);
	if (stat(r->build_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		r->error = pc_xasprintf(
			"subdirectory '%s' not found in repository",
			r->url.subdir);
		return 0;
	}
	r->name = pc_chatcli_install_name(r->build_dir);
	r->dest = pc_fs_join(o->plugins_dir, r->name);
	r->go_tree = has_go_files(r->build_dir);
	r->stage = PC_CHATCLI_INSTALL_BUILD;
	if (build(o, r))
		return 0;
	r->stage = PC_CHATCLI_INSTALL_CHMOD;
	if (chmod(r->dest, 0755) < 0) {
		r->error =
			pc_xasprintf("chmod %s: %s", r->dest, strerror(errno));
		return 0;
	}
	r->stage = PC_CHATCLI_INSTALL_DONE;
	return 0;
}

void pc_chatcli_install_release(struct pc_chatcli_install *r)
{
	pc_chatcli_git_url_release(&r->url);
	free(r->clone_dir);
	free(r->build_dir);
	free(r->name);
	free(r->dest);
	free(r->error);
	free(r->output);
	*r = (struct pc_chatcli_install)PC_CHATCLI_INSTALL_INIT;
}

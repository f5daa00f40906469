/* pc_host.c - the host runtime: environment, program choice, one run. */
#define _GNU_SOURCE
#include "pc_host.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_fs.h"
#include "pc_host_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_time.h"
#include "pc_xalloc.h"

void pc_host_init(struct pc_host *h, char *const *envp, const char *workspace,
		  const char *session_path)
{
	pc_strvec_init(&h->env);
	for (size_t i = 0; envp && envp[i]; i++)
		pc_strvec_push(&h->env, envp[i]);
	h->workspace = pc_xstrdup(workspace);
	h->session_path = pc_xstrdup(session_path ? session_path : "");
	h->python = NULL;
	h->timestamp = 0;
	h->cwd = NULL;
	h->confine = NULL;
}

void pc_host_set_cwd(struct pc_host *h, const char *dir)
{
	free(h->cwd);
	h->cwd = dir ? pc_xstrdup(dir) : NULL;
}

void pc_host_release(struct pc_host *h)
{
	pc_strvec_release(&h->env);
	free(h->workspace);
	free(h->session_path);
	free(h->python);
	free(h->cwd);
	h->workspace = h->session_path = h->python = h->cwd = NULL;
}

const char *pc_host_getenv(const struct pc_host *h, const char *name)
{
	size_t n = strlen(name);
	const char *found = NULL;

	for (size_t i = 0; i < h->env.nr; i++)
		if (!strncmp(h->env.v[i], name, n) && h->env.v[i][n] == '=')
			found = h->env.v[i] + n + 1;
	return found;
}

const char *pc_host_env_var(const struct pc_host *h, const char *name)
{
	const char *v = pc_host_getenv(h, name);

	return v && pc_rust_is_utf8(v, strlen(v)) ? v : NULL;
}

const char *pc_host_session_file_name(const struct pc_host *h)
{
	const char *s = strrchr(h->session_path, '/');

	return s ? s + 1 : h->session_path;
}

uint64_t pc__host_now(const struct pc_host *h)
{
	return h->timestamp ? h->timestamp : pc_time_unix_s();
}

void pc_exchange_init(struct pc_exchange *x)
{
	struct pc_proc_result r = PC_PROC_RESULT_INIT(PC_MAX_IO_BYTES,
						      PC_MAX_IO_BYTES);

	pc_buf_init(&x->stdin_json, PC_BUF_NOCAP);
	pc_strvec_init(&x->argv);
	x->spawned = false;
	x->proc = r;
	pc_strvec_init(&x->events);
	pc_strvec_init(&x->log);
	x->sandbox = (struct pc_confine_obs)PC_CONFINE_OBS_INIT;
	x->swapped = NULL;
}

void pc_exchange_release(struct pc_exchange *x)
{
	pc_buf_release(&x->stdin_json);
	pc_strvec_release(&x->argv);
	pc_proc_result_release(&x->proc);
	pc_strvec_release(&x->events);
	pc_strvec_release(&x->log);
	pc_confine_obs_release(&x->sandbox);
	free(x->swapped);
	x->swapped = NULL;
}

const char *pc_outcome_name(enum pc_outcome o)
{
	static const char *const names[] = {
		"ok",		"timeout",	"exit",
		"spawn_error",	"empty_stdout", "invalid_json",
		"input_too_large", "output_too_large",
	};

	return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o]
							       : "unknown";
}

/* R5.3: the cleared environment, plus `extra` ("K=V" strings). */
static void child_env(const struct pc_host *h, const struct pc_strvec *extra,
		      struct pc_strvec *env)
{
	static const char *const keep[] = {
		"PATH", "HOME", "TMPDIR", "USER", "ENGRAPHIS_DB_PATH",
		"ENGRAPHIS_EMBED_MODEL", "ENGRAPHIS_EMBED_DIM",
		"ENGRAPHIS_EXTRACTOR", "ENGRAPHIS_WORKSPACES", "PYTHONPATH",
	};

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		const char *v = pc_host_env_var(h, keep[i]);

		if (v)
			pc_strvec_pushf(env, "%s=%s", keep[i], v);
	}
	for (size_t i = 0; extra && i < extra->nr; i++)
		pc_strvec_push(env, extra->v[i]);
}

/* The host's environment as one block (each entry with its NUL): the key
 * of the probe cache; its length in *n. */
static char *env_key(const struct pc_host *h, size_t *n)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t k = 0; k < h->env.nr; k++)
		pc_buf_add(&b, h->env.v[k], strlen(h->env.v[k]) + 1);
	return pc_buf_detach(&b, n);
}

/* R5.2: python3 if `python3 --version` succeeds, else python, else
 * python3; probed once with the host's full environment. The real host
 * probes once per process; plugcheck starts a fresh pc_host for every
 * firing of `check` and of a scenario, so the answer is also kept for the
 * process, keyed by the whole environment (plugcheck is single-threaded
 * where it fires plugins). */
static const char *python(struct pc_host *h)
{
	static const char *const cands[] = { "python3", "python" };
	static char *cached_env, *cached_python;
	static size_t cached_n;
	size_t n = 0;
	char *key = h->python ? NULL : env_key(h, &n);
	bool same = key && cached_env && n == cached_n &&
		    !memcmp(key, cached_env, n);

	if (same)
		h->python = pc_xstrdup(cached_python);
	for (size_t i = 0; !h->python && i < 2; i++) {
		struct pc_proc_opts o = PC_PROC_OPTS_INIT;
		struct pc_proc_result r = PC_PROC_RESULT_INIT(65536, 65536);

		pc_strvec_push(&o.argv, cands[i]);
		pc_strvec_push(&o.argv, "--version");
		for (size_t k = 0; k < h->env.nr; k++)
			pc_strvec_push(&o.env, h->env.v[k]);
		o.timeout_ms = 10000;
		o.flags = PC_PROC_STDIN_DEVNULL;
		if (pc_proc_run(&o, &r, NULL) == 0 &&
		    r.outcome == PC_PROC_EXITED && r.has_status &&
		    !r.term_signal && r.exit_code == 0)
			h->python = pc_xstrdup(cands[i]);
		pc_proc_result_release(&r);
		pc_proc_opts_release(&o);
	}
	if (!h->python)
		h->python = pc_xstrdup("python3");
	if (key && !same) {
		free(cached_env);
		free(cached_python);
		cached_env = key;
		cached_n = n;
		cached_python = pc_xstrdup(h->python);
		key = NULL;
	}
	free(key);
	return h->python;
}

/* Lower-cased extension of the last path component, as Path::extension
 * (none for a dotfile such as ".py"). */
static void extension(const char *path, char out[8])
{
	const char *base = strrchr(path, '/'), *dot;
	size_t i = 0;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	out[0] = '\0';
	if (!dot || dot == base)
		return;
	for (dot++; *dot && i < 7; dot++)
		out[i++] = (char)((*dot >= 'A' && *dot <= 'Z') ? *dot + 32 : *dot);
	out[i] = '\0';
	if (*dot)
		out[0] = '\0';
}

void pc__host_argv(struct pc_host *h, const char *script,
		   struct pc_strvec *argv)
{
	char ext[8];
	const char *shell;

	extension(script, ext);
	if (!strcmp(ext, "py")) {
		pc_strvec_push(argv, python(h));
	} else if (!strcmp(ext, "sh") || !strcmp(ext, "bash")) {
		shell = pc_host_env_var(h, "CATALYST_CODE_SHELL");
		pc_strvec_push(argv, shell ? shell : "bash");
	} else if (!strcmp(ext, "ps1")) {
		pc_strvec_push(argv, "pwsh");
		pc_strvec_push(argv, "-NoProfile");
		pc_strvec_push(argv, "-NonInteractive");
		pc_strvec_push(argv, "-ExecutionPolicy");
		pc_strvec_push(argv, "Bypass");
		pc_strvec_push(argv, "-File");
	}
	pc_strvec_push(argv, script);
}

static bool has_cap(const struct pc_plugin *p, const char *cap)
{
	for (size_t i = 0; i < p->capabilities.nr; i++)
		if (!strcmp(p->capabilities.v[i], cap))
			return true;
	return false;
}

/* confined - pc_proc_run under h->confine with the capabilities of `p`
 * (R3.3 effective list), then what the run tried beyond them. */
static int confined(struct pc_host *h, const struct pc_plugin *p,
		    struct pc_proc_opts *o, struct pc_exchange *x,
		    struct pc_err *err)
{
	char *cwd = h->cwd ? pc_xstrdup(h->cwd) : getcwd(NULL, 0);
	struct pc_confine_spec sp = {
		.workspace = h->workspace,
		.plugin_dir = p->source_path ? p->source_path : p->dir,
		.home = pc_strvec_env_get(o->env.v, "HOME"),
		.tmpdir = pc_strvec_env_get(o->env.v, "TMPDIR"),
		.cwd = cwd,
		.network = has_cap(p, "access_network"),
		.write_workspace = has_cap(p, "write_workspace"),
	};
	int rc = pc_confine_run(h->confine, &sp, o, &x->proc, &x->sandbox, err);

	free(cwd);
	return rc;
}

/* open_script - R2.9 once more, just before the run (the host checks only
 * at load): open `script`, a canonical path, below the plugin's canonical
 * directory without following a symlink. Returns the descriptor (caller
 * closes); -1 when it cannot be opened or is no regular file (the spawn
 * then meets the host's own error); -2 when the path now leads out of the
 * plugin directory through a symlink, with *outside (new string) where. */
static int open_script(const struct pc_plugin *p, const char *script,
		       char **outside)
{
	const char *root = p->source_path ? p->source_path : p->dir;
	size_t n = strlen(root);
	const char *rel = script + n;
	int fd, flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
	struct pc_err err = PC_ERR_INIT;
	struct stat st;
	char *real;

	*outside = NULL;
	if (!pc_fs_is_under(script, root) || rel[0] != '/')
		return -1;
	rel += strspn(rel, "/");
	fd = pc_fs_beneath_open(root, rel, flags, 0, 0, &err);
	if (fd < 0 && err.sys_errno == EACCES) /* executable, not readable */
		fd = pc_fs_beneath_open(root, rel, O_PATH, 0, 0, &err);
	if (fd < 0 && (err.sys_errno == ELOOP || err.sys_errno == EXDEV)) {
		real = pc_fs_realpath(script);
		if (real && !pc_fs_is_under(real, root)) {
			*outside = real;
			return -2;
		}
		if (real) /* a link that stays inside: the host runs it too */
			fd = open(real, flags | O_CLOEXEC);
		free(real);
	}
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int pc__host_run(struct pc_host *h, const struct pc_plugin *p,
		 const char *script, uint64_t timeout_ms,
		 const struct pc_strvec *extra_env, struct pc_exchange *x,
		 struct pc_err *err)
{
	struct pc_proc_opts o = PC_PROC_OPTS_INIT;
	struct pc_proc_sigs sigs;
	int rc, fd;

	pc__host_argv(h, script, &x->argv);
	fd = open_script(p, script, &x->swapped);
	if (fd == -2) {
		/* the host would run the file the link names; plugcheck
		 * reports it (PC-SCRIPT-005) and does not */
		x->spawned = true;
		x->proc.outcome = PC_PROC_SPAWN_ERROR;
		x->proc.spawn_errno = ELOOP;
		return 0;
	}
	pc_proc_sigs_catalyst(&sigs); /* what Rust's Command passes on */
	o.sigs = &sigs;
	/* a directly executed script runs from the descriptor just checked;
	 * through an interpreter it opens the path itself, as with the host
	 * (pc_proc.h "The file that runs") */
	if (x->argv.nr == 1)
		o.exec_fd = fd;
	for (size_t i = 0; i < x->argv.nr; i++)
		pc_strvec_push(&o.argv, x->argv.v[i]);
	child_env(h, extra_env, &o.env);
	o.stdin_data = x->stdin_json.data;
	o.stdin_len = x->stdin_json.len;
	o.timeout_ms = timeout_ms > INT64_MAX / 2 ? INT64_MAX / 2
						   : (int64_t)timeout_ms;
	o.stdin_timeout_ms = o.timeout_ms > 1000 ? o.timeout_ms : 1000;
	o.stdout_max = PC_MAX_IO_BYTES;
	o.stderr_max = PC_MAX_IO_BYTES;
	o.flags = PC_PROC_STDIN_FIRST;
	o.cwd = h->cwd; /* R5.4: the core's own working directory */
	x->spawned = true;
	rc = h->confine ? confined(h, p, &o, x, err)
			: pc_proc_run(&o, &x->proc, err);
	pc_proc_opts_release(&o);
	if (fd >= 0)
		close(fd);
	return rc;
}

enum pc__verdict pc__host_verdict(const struct pc_exchange *x,
				  const char *script, const char *spawn_label,
				  struct pc_buf *msg)
{
	const struct pc_proc_result *r = &x->proc;

	switch (r->outcome) {
	case PC_PROC_EXITED:
		return PC__V_DONE;
	case PC_PROC_TIMEOUT:
	case PC_PROC_STDIN_TIMEOUT:
		return PC__V_TIMEOUT;
	case PC_PROC_SPAWN_ERROR:
		pc_buf_addf(msg, "failed to spawn %s ", spawn_label);
		pc_rust_debug_path(msg, script, strlen(script));
		pc_buf_adds(msg, ": ");
		pc_rust_io_error(msg, r->spawn_errno);
		return PC__V_SPAWN;
	case PC_PROC_STDOUT_OVERFLOW:
		pc_buf_adds(msg, "plugin stdout exceeds the 1048576 byte limit");
		return PC__V_OVERFLOW;
	case PC_PROC_STDERR_OVERFLOW:
		pc_buf_adds(msg, "plugin stderr exceeds the 1048576 byte limit");
		return PC__V_OVERFLOW;
	case PC_PROC_READ_ERROR:
	default:
		pc_rust_io_error(msg, r->read_errno);
		return PC__V_SPAWN;
	}
}

/* String::from_utf8_lossy(bytes).trim(), raw bytes (NULs kept) into out. */
static void lossy_trimmed(const struct pc_buf *bytes, struct pc_buf *out)
{
	struct pc_buf lossy = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t start, n;

	pc_rust_lossy_utf8(&lossy, pc_buf_cstr(bytes), bytes->len);
	n = pc_rust_trim(pc_buf_cstr(&lossy), lossy.len, &start);
	pc_buf_add(out, pc_buf_cstr(&lossy) + start, n);
	pc_buf_release(&lossy);
}

bool pc__host_failed_exit(const struct pc_exchange *x, struct pc_buf *status)
{
	const struct pc_proc_result *r = &x->proc;
	struct pc_buf err = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!r->term_signal && r->exit_code == 0)
		return false;
	pc_rust_exit_status(status, r->term_signal != 0,
			    r->term_signal ? r->term_signal : r->exit_code,
			    r->core_dumped);
	pc_buf_adds(status, ": ");
	lossy_trimmed(&x->proc.err, &err);
	pc_serde_text_add(status, pc_buf_cstr(&err), err.len);
	pc_buf_release(&err);
	return true;
}

void pc__host_trimmed_stdout(const struct pc_exchange *x, struct pc_buf *out)
{
	lossy_trimmed(&x->proc.out, out);
}

enum pc_outcome pc__host_judge(const struct pc_exchange *x, const char *script,
			       const char *spawn_label, const char *prefix,
			       uint64_t timeout_ms, char **msg,
			       struct pc_buf *out)
{
	struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);
	enum pc_outcome o = PC_OUT_OK;

	*msg = NULL;
	pc_buf_reset(out);
	switch (pc__host_verdict(x, script, spawn_label, &e)) {
	case PC__V_TIMEOUT:
		o = PC_OUT_TIMEOUT;
		*msg = pc_xasprintf("%s timed out after %llums", prefix,
				    (unsigned long long)timeout_ms);
		break;
	case PC__V_OVERFLOW:
		o = PC_OUT_OUTPUT_TOO_LARGE;
		*msg = pc_xasprintf("%s wait error: %s", prefix, pc_buf_cstr(&e));
		break;
	case PC__V_SPAWN:
		o = PC_OUT_SPAWN_ERROR;
		*msg = pc_xasprintf("%s wait error: %s", prefix, pc_buf_cstr(&e));
		break;
	case PC__V_DONE:
		if (pc__host_failed_exit(x, &e)) {
			o = PC_OUT_EXIT;
			*msg = pc_xasprintf("%s exited with %s", prefix,
					    pc_buf_cstr(&e));
			break;
		}
		pc__host_trimmed_stdout(x, out);
		if (!out->len) {
			o = PC_OUT_EMPTY_STDOUT;
			*msg = pc_xasprintf("%s returned empty stdout", prefix);
		}
		break;
	}
	pc_buf_release(&e);
	return o;
}

void pc__host_side_effects(struct pc_exchange *x, const char *plugin,
			   const char *notify, const char *status)
{
	if (notify && *notify) {
		cJSON *e = cJSON_CreateObject();
		char *m = pc_xasprintf("[%s] %s", plugin, notify);

		cJSON_AddStringToObject(e, "type", "info");
		cJSON_AddStringToObject(e, "message", m);
		pc_strvec_push_nodup(&x->events, pc_serde_to_string(e));
		cJSON_Delete(e);
		free(m);
	}
	if (status) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "type", "plugin_status");
		cJSON_AddStringToObject(e, "plugin", plugin);
		cJSON_AddStringToObject(e, "text", status);
		pc_strvec_push_nodup(&x->events, pc_serde_to_string(e));
		cJSON_Delete(e);
	}
}

void pc_apply_modify(cJSON *args, const cJSON *modify)
{
	const cJSON *kv;

	if (!cJSON_IsObject(args) || !cJSON_IsObject(modify))
		return;
	cJSON_ArrayForEach(kv, modify)
	{
		cJSON *copy = cJSON_Duplicate(kv, 1);

		if (cJSON_GetObjectItemCaseSensitive(args, kv->string))
			cJSON_ReplaceItemInObjectCaseSensitive(args, kv->string,
							       copy);
		else
			cJSON_AddItemToObject(args, kv->string, copy);
	}
}

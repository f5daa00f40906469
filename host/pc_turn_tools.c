/* pc_turn_tools.c - the tool list (R2.15-R2.19, R6.3) and the built-in
 * tools plugcheck runs for real in the workspace. Outputs follow the
 * host's tools.rs shapes where cheap; docs/turn.md lists the shortcuts. */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_turn.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

/* The built-ins plugcheck implements, with their approval class
 * (policy.rs classify: reads are readonly, the rest destructive). */
static const struct {
	const char *name;
	bool destructive;
	const char *required; /* the schema's one required key, or NULL */
} builtins[] = {
	{ "bash", true, "command" },	{ "bulk", true, "calls" },
	{ "bulk_edit", true, "edits" }, { "bulk_write", true, "files" },
	{ "edit", true, "path" },	{ "finish", false, NULL },
	{ "glob", false, "pattern" },	{ "grep", false, "pattern" },
	{ "list_dir", false, "path" },	{ "patch", true, "path" },
	{ "read_file", false, "path" }, { "rename", true, "from" },
	{ "subagent", true, NULL },	{ "write_file", true, "path" },
};
#define NBUILTINS (sizeof(builtins) / sizeof(builtins[0]))

bool pc__turn_is_destructive(const char *name)
{
	for (size_t i = 0; i < NBUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].destructive;
	return true;
}

static const struct pc_tool_cfg *find_tool(const struct pc_plugin *p,
					   const char *name)
{
	for (size_t i = 0; i < p->ntools; i++)
		if (!strcmp(p->tools[i].name, name))
			return &p->tools[i];
	return NULL;
}

const struct pc_tool_cfg *pc__turn_plugin_tool(struct pc_plugin **ps, size_t n,
					       const char *name,
					       struct pc_plugin **owner)
{
	for (size_t i = 0; i < n; i++) {
		const struct pc_tool_cfg *t = find_tool(ps[i], name);

		/* R2.15: a colliding tool without override never dispatches */
		if (t && (t->override_builtin || !pc_is_builtin_tool(name))) {
			*owner = ps[i];
			return t;
		}
		if (t)
			return NULL;
	}
	return NULL;
}

static cJSON *def(const char *name, const char *desc, const cJSON *params)
{
	cJSON *d = cJSON_CreateObject(), *f = cJSON_CreateObject();

	cJSON_AddStringToObject(d, "type", "function");
	cJSON_AddStringToObject(f, "name", name);
	cJSON_AddStringToObject(f, "description", desc);
	cJSON_AddItemToObject(f, "parameters", cJSON_Duplicate(params, 1));
	cJSON_AddItemToObject(d, "function", f);
	return d;
}

static cJSON *builtin_params(size_t i)
{
	cJSON *p = cJSON_CreateObject(), *req = cJSON_CreateArray();

	cJSON_AddStringToObject(p, "type", "object");
	cJSON_AddItemToObject(p, "properties", cJSON_CreateObject());
	if (builtins[i].required)
		cJSON_AddItemToArray(req,
				     cJSON_CreateString(builtins[i].required));
	cJSON_AddItemToObject(p, "required", req);
	return p;
}

cJSON *pc__turn_builtin_def(const char *name)
{
	for (size_t i = 0; i < NBUILTINS; i++)
		if (!strcmp(builtins[i].name, name)) {
			cJSON *p = builtin_params(i), *d;

			d = def(name, "built-in tool", p);
			cJSON_Delete(p);
			return d;
		}
	return NULL;
}

cJSON *pc_turn_tool_defs(const struct pc_turn_opts *o, struct pc_strvec *log)
{
	size_t n;
	struct pc_plugin **ps = pc__turn_sorted(o, &n);
	struct pc_strvec disabled = PC_STRVEC_INIT, overridden = PC_STRVEC_INIT;
	struct pc_strvec custom = PC_STRVEC_INIT;
	cJSON *defs = cJSON_CreateArray(), *all = cJSON_CreateArray(), *d;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < ps[i]->disable_tools.nr; k++)
			pc_strvec_push(&disabled, ps[i]->disable_tools.v[k]);
		for (size_t k = 0; k < ps[i]->ntools; k++)
			if (ps[i]->tools[k].override_builtin &&
			    pc_is_builtin_tool(ps[i]->tools[k].name))
				pc_strvec_push(&overridden,
					       ps[i]->tools[k].name);
	}
	for (size_t i = 0; i < NBUILTINS; i++) {
		cJSON *p;

		if (pc_strvec_has(&overridden, builtins[i].name))
			continue;
		p = builtin_params(i);
		cJSON_AddItemToArray(all,
				     def(builtins[i].name, "built-in tool", p));
		cJSON_Delete(p);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ps[i]->ntools; k++) {
			const struct pc_tool_cfg *t = &ps[i]->tools[k];
			/* turn_loop.rs: by name - any enabled plugin's
			 * override:true claims the name for every tool so
			 * named, with or without its own override */
			bool ovr = pc_strvec_has(&overridden, t->name);

			if (!ovr && (pc_is_builtin_tool(t->name) ||
				     pc_strvec_has(&custom, t->name))) {
				if (log)
					pc_strvec_pushf(
						log,
						"[plugins] tool '%s' collides with a built-in or already-registered tool; skipping",
						t->name);
				continue;
			}
			if (!ovr)
				pc_strvec_push(&custom, t->name);
			cJSON_AddItemToArray(all, def(t->name, t->description,
						      t->parameters));
		}
	/* R2.19: disable_tools wins over everything */
	while ((d = cJSON_DetachItemFromArray(all, 0))) {
		const cJSON *nm =
			pc_serde_get(pc_serde_get(d, "function"), "name");

		if (pc_strvec_has(&disabled, nm->valuestring))
			cJSON_Delete(d);
		else
			cJSON_AddItemToArray(defs, d);
	}
	cJSON_Delete(all);
	pc_strvec_release(&disabled);
	pc_strvec_release(&overridden);
	pc_strvec_release(&custom);
	free(ps);
	return defs;
}

void pc__turn_set(struct pc__turn_outcome *oc, bool ok, char *text)
{
	oc->ok = ok;
	oc->output = text;
	oc->diff = NULL;
}

static const char *str_arg(const cJSON *args, const char *key)
{
	const cJSON *v = pc_serde_get(args, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* ---- under --sandbox (issue 21) ----
 * A turn's built-in tools act for the model, which the plugins steer
 * (modify, tool results), so under h->confine they keep to the rules of
 * the plugins' own processes: `bash` runs in the sandbox with what the
 * turn's enabled plugins may do together (their capabilities' union,
 * their directories read-only), and the file tools plugcheck runs itself
 * stay in the workspace without following a symlink a plugin planted
 * there (pc_fs_beneath_*), writing only with write_workspace. */

bool pc__turn_any_cap(const struct pc_turn_opts *o, const char *cap)
{
	for (size_t i = 0; i < o->nplugins; i++) {
		const struct pc_plugin *p = o->plugins[i];

		for (size_t k = 0; p->enabled && k < p->capabilities.nr; k++)
			if (!strcmp(p->capabilities.v[k], cap))
				return true;
	}
	return false;
}

/* pc__turn_confined_rel - under the sandbox, `in` as a path relative to the
 * workspace ("." for the workspace itself), or NULL (*why says why) when
 * it names something outside it. */
char *pc__turn_confined_rel(const struct pc_turn_opts *o, const char *in,
			    const char **why)
{
	char *ws = pc_fs_absolute(o->host->workspace), *abs = NULL, *rel;
	size_t n = strlen(ws);

	*why = "it is outside the workspace (--sandbox)";
	if (in[0] == '/') {
		abs = pc_fs_absolute(in);
		rel = pc_fs_is_under(abs, ws)
			      ? pc_xstrdup(abs[n] ? abs + n + (n > 1) : ".")
			      : NULL;
	} else {
		rel = strstr(in, "..") ? NULL : pc_xstrdup(*in ? in : ".");
	}
	free(abs);
	free(ws);
	return rel;
}

char *pc__turn_resolve(const struct pc_turn_opts *o, const char *in)
{
	if (strstr(in, ".."))
		return NULL;
	if (in[0] == '/')
		return pc_xstrdup(in);
	return pc_fs_join(o->host->workspace, *in ? in : ".");
}

/* Captured bytes as a tool's output text: lossy UTF-8, NULs kept (host
 * text, pc_serde.h). Empties `b`. */
static char *output_text(struct pc_buf *b)
{
	struct pc_buf lossy = PC_BUF_INIT(PC_BUF_NOCAP);
	char *t;

	pc_rust_lossy_utf8(&lossy, pc_buf_cstr(b), b->len);
	t = pc_serde_text_new(pc_buf_cstr(&lossy), lossy.len);
	pc_buf_release(&lossy);
	pc_buf_release(b);
	return t;
}

static void t_read(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	const char *in = str_arg(a, "path");
	char *p = pc__turn_resolve(o, in);
	struct pc_buf b = PC_BUF_INIT(PC_MAX_IO_BYTES);
	struct pc_err err = PC_ERR_INIT;

	int rc, en;

	if (o->host->confine && p) {
		const char *why;
		char *rel = pc__turn_confined_rel(o, in, &why);

		rc = rel ? pc_fs_beneath_read(o->host->workspace, rel, &b, &err)
			 : PC_EINVAL;
		free(rel);
	} else {
		rc = p ? pc_fs_read_capped(p, &b, &err) : PC_EINVAL;
	}
	en = rc == PC_ENOENT ? ENOENT : err.sys_errno;

	if (rc < 0)
		pc__turn_set(oc, false,
		    pc_xasprintf("read_file \"%s\" failed: %s (os error %d)",
				 in, strerror(en ? en : EINVAL), en));
	else
		pc__turn_set(oc, true, output_text(&b));
	pc_buf_release(&b);
	free(p);
}

/* pc__turn_confined_write - write_file and edit under the sandbox: NULL when `text`
 * was written to `in`, else the failure text (new string). */
char *pc__turn_confined_write(const struct pc_turn_opts *o, const char *in,
			      const char *text, const char *tool)
{
	struct pc_err err = PC_ERR_INIT;
	const char *why;
	char *rel = pc__turn_confined_rel(o, in, &why), *msg = NULL;

	if (rel && !pc__turn_any_cap(o, "write_workspace"))
		why = "the capabilities do not include write_workspace (--sandbox)";
	if (!rel || !pc__turn_any_cap(o, "write_workspace"))
		msg = pc_xasprintf("%s \"%s\" failed: the sandbox refused it: %s",
				   tool, in, why);
	else if (pc_fs_beneath_write(o->host->workspace, rel, text,
				     strlen(text), 0, &err) < 0)
		msg = pc_xasprintf("%s \"%s\" failed: %s", tool, in, err.msg);
	free(rel);
	return msg;
}

char *pc__turn_put(const struct pc_turn_opts *o, const char *in,
		   const char *text, const char *tool)
{
	char *p = pc__turn_resolve(o, in), *msg = NULL;
	struct pc_err err = PC_ERR_INIT;

	if (o->host->confine && p)
		msg = pc__turn_confined_write(o, in, text, tool);
	else if (!p || pc_fs_write(p, text, strlen(text), &err) < 0)
		msg = pc_xasprintf("%s \"%s\" failed: %s", tool, in,
				   p ? err.msg : "path escapes the workspace");
	free(p);
	return msg;
}

static void t_write(const struct pc_turn_opts *o, const cJSON *a,
		    struct pc__turn_outcome *oc)
{
	const char *in = str_arg(a, "path");
	const cJSON *c = pc_serde_get(a, "content");
	char *msg;

	if (!cJSON_IsString(c))
		pc__turn_set(oc, false,
			     pc_xstrdup("missing required string argument 'content'"));
	else if ((msg = pc__turn_put(o, in, c->valuestring, "write_file")))
		pc__turn_set(oc, false, msg);
	else
		pc__turn_set(oc, true,
			     pc_xasprintf("wrote %zu bytes to %s",
					  strlen(c->valuestring), in));
}

/* edit: each {search, replace} must match exactly once (replace_all
 * replaces every match), applied in order; nothing is written on error. */
static char *apply_edits(const char *in, const cJSON *edits, char **text)
{
	const cJSON *e;
	int i = 0;

	cJSON_ArrayForEach(e, edits)
	{
		const char *s = str_arg(e, "search"),
			   *rp = str_arg(e, "replace");
		char *hit = *s ? strstr(*text, s) : NULL;
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		if (!hit)
			return pc_xasprintf(
				"edit %d: search text not found in %s", i, in);
		if (!cJSON_IsTrue(pc_serde_get(e, "replace_all")) &&
		    strstr(hit + 1, s))
			return pc_xasprintf(
				"edit %d: search text is ambiguous in %s", i,
				in);
		for (const char *cur = *text; (hit = strstr(cur, s));
		     cur = hit + strlen(s)) {
			pc_buf_add(&b, cur, (size_t)(hit - cur));
			pc_buf_adds(&b, rp);
			if (!strstr(hit + strlen(s), s) ||
			    !cJSON_IsTrue(pc_serde_get(e, "replace_all"))) {
				pc_buf_adds(&b, hit + strlen(s));
				break;
			}
		}
		free(*text);
		*text = pc_buf_detach(&b, NULL);
		i++;
	}
	return NULL;
}

/* pc__turn_read_ws - the file an edit starts from (beneath the workspace under
 * the sandbox). */
int pc__turn_read_ws(const struct pc_turn_opts *o, const char *in,
		     const char *p, struct pc_buf *b)
{
	const char *why;
	char *rel;
	int rc;

	if (!o->host->confine)
		return pc_fs_read_capped(p, b, NULL);
	rel = pc__turn_confined_rel(o, in, &why);
	rc = rel ? pc_fs_beneath_read(o->host->workspace, rel, b, NULL)
		 : PC_EINVAL;
	free(rel);
	return rc;
}

void pc__turn_edit(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	const char *in = str_arg(a, "path");
	const cJSON *edits = pc_serde_get(a, "edits");
	char *p = pc__turn_resolve(o, in), *text, *msg;
	struct pc_buf b = PC_BUF_INIT(PC_MAX_IO_BYTES * 16);
	struct pc_err err = PC_ERR_INIT;

	if (cJSON_GetArraySize(edits) == 0) {
		pc__turn_set(oc, false,
		    pc_xstrdup("edit requires a non-empty 'edits' array"));
	} else if (!p || pc__turn_read_ws(o, in, p, &b) < 0) {
		pc__turn_set(oc, false, pc_xasprintf("edit: read \"%s\" failed", in));
	} else {
		text = pc_buf_detach(&b, NULL);
		msg = apply_edits(in, edits, &text);
		if (!msg && o->host->confine)
			msg = pc__turn_confined_write(o, in, text, "edit");
		else if (!msg && pc_fs_write(p, text, strlen(text), &err) < 0)
			msg = pc_xasprintf("edit: write \"%s\" failed: %s", in,
					   err.msg);
		if (msg)
			pc__turn_set(oc, false, msg);
		else
			pc__turn_set(oc, true,
			    pc_xasprintf("applied %d edit(s)",
					 cJSON_GetArraySize(edits)));
		free(text);
	}
	pc_buf_release(&b);
	free(p);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_vec(struct pc_strvec *v)
{
	if (v->nr)
		qsort(v->v, v->nr, sizeof(char *), cmp_str);
}

/* open_list - the directory list_dir reads: under the sandbox opened
 * beneath the workspace without a symlink on the way. */
static DIR *open_list(const struct pc_turn_opts *o, const char *in,
		      const char *p)
{
	const char *why;
	char *rel;
	int fd;

	if (!o->host->confine)
		return p ? opendir(p) : NULL;
	rel = pc__turn_confined_rel(o, in, &why);
	fd = rel ? pc_fs_beneath_open(o->host->workspace, rel,
				      O_RDONLY | O_DIRECTORY, 0, 0, NULL)
		 : -1;
	free(rel);
	if (fd < 0) {
		errno = EACCES;
		return NULL;
	}
	return fdopendir(fd);
}

/* is_dir_in - an entry of `d` is a directory (under the sandbox: itself,
 * not what a symlink names). */
static bool is_dir_in(const struct pc_turn_opts *o, DIR *d, const char *p,
		      const char *name)
{
	struct stat st;
	char *full;
	bool dir;

	if (o->host->confine)
		return fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       S_ISDIR(st.st_mode);
	full = pc_fs_join(p, name);
	dir = pc_fs_is_dir(full);
	free(full);
	return dir;
}

static void t_list(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	const char *in = str_arg(a, "path");
	char *p = pc__turn_resolve(o, in);
	DIR *d = open_list(o, in, p);
	struct pc_strvec names = PC_STRVEC_INIT;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct dirent *de;

	if (!d) {
		pc__turn_set(oc, false,
		    pc_xasprintf("list_dir \"%s\" failed: %s", in,
				 strerror(errno)));
		free(p);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		pc_strvec_pushf(&names, "%s%s", de->d_name,
				is_dir_in(o, d, p, de->d_name) ? "/" : "");
	}
	closedir(d);
	sort_vec(&names);
	for (size_t i = 0; i < names.nr; i++)
		pc_buf_addf(&b, "%s%s", i ? "\n" : "", names.v[i]);
	pc__turn_set(oc, true, pc_buf_detach(&b, NULL));
	pc_strvec_release(&names);
	free(p);
}

/* walk - every regular file under `dir` as a workspace-relative path
 * (`nofollow`, under the sandbox: symlinks neither entered nor listed). */
static void walk(const char *root, const char *rel, struct pc_strvec *out,
		 bool nofollow)
{
	char *dir = *rel ? pc_fs_join(root, rel) : pc_xstrdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct stat st;
		char *r, *full;

		if (de->d_name[0] == '.')
			continue;
		r = *rel ? pc_fs_join(rel, de->d_name) : pc_xstrdup(de->d_name);
		full = pc_fs_join(root, r);
		if (nofollow && (lstat(full, &st) < 0 || S_ISLNK(st.st_mode)))
			; /* a symlink a plugin may have planted */
		else if (pc_fs_is_dir(full))
			walk(root, r, out, nofollow);
		else if (pc_fs_is_file(full))
			pc_strvec_push(out, r);
		free(full);
		free(r);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void t_glob(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	const char *pat = str_arg(a, "pattern");
	struct pc_strvec files = PC_STRVEC_INIT;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t hits = 0;

	walk(o->host->workspace, "", &files, o->host->confine != NULL);
	sort_vec(&files);
	for (size_t i = 0; i < files.nr; i++) {
		const char *base = strrchr(files.v[i], '/');

		if (fnmatch(pat, files.v[i], 0) &&
		    fnmatch(pat, base ? base + 1 : files.v[i], 0))
			continue;
		pc_buf_addf(&b, "%s%s", hits++ ? "\n" : "", files.v[i]);
	}
	if (!hits)
		pc_buf_adds(&b, "(no matches)");
	pc__turn_set(oc, true, pc_buf_detach(&b, NULL));
	pc_strvec_release(&files);
}

static void grep_file(const char *root, const char *rel, const char *pat,
		      bool nofollow, struct pc_buf *b, size_t *hits)
{
	char *full = pc_fs_join(root, rel), *line, *save = NULL, *text;
	struct pc_buf in = PC_BUF_INIT(PC_MAX_IO_BYTES);
	int n = 0;

	if ((nofollow ? pc_fs_beneath_read(root, rel, &in, NULL)
		      : pc_fs_read_capped(full, &in, NULL)) == 0) {
		text = pc_buf_detach(&in, NULL);
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			n++;
			if (strstr(line, pat))
				pc_buf_addf(b, "%s%s:%d:%s",
					    (*hits)++ ? "\n" : "", rel, n,
					    line);
		}
		free(text);
	}
	pc_buf_release(&in);
	free(full);
}

/* grep: a fixed-string search (the host uses ripgrep regexes). */
static void t_grep(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	const char *pat = str_arg(a, "pattern");
	struct pc_strvec files = PC_STRVEC_INIT;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t hits = 0;

	walk(o->host->workspace, "", &files, o->host->confine != NULL);
	sort_vec(&files);
	for (size_t i = 0; i < files.nr; i++)
		grep_file(o->host->workspace, files.v[i], pat,
			  o->host->confine != NULL, &b, &hits);
	if (!hits)
		pc_buf_adds(&b, "(no matches)");
	pc__turn_set(oc, true, pc_buf_detach(&b, NULL));
	pc_strvec_release(&files);
}

/* run_bash - the bash tool's process: under the sandbox confined as the
 * turn's plugins are (their capabilities together, their directories
 * read-only; what it tries beyond them is not reported). */
static int run_bash(const struct pc_turn_opts *o, struct pc_proc_opts *po,
		    struct pc_proc_result *pr)
{
	struct pc_confine_spec sp = { .workspace = o->host->workspace,
				      .cwd = o->host->workspace };
	const char **dirs;
	int rc;

	if (!o->host->confine)
		return pc_proc_run(po, pr, NULL);
	dirs = pc_xcalloc(o->nplugins + 1, sizeof(*dirs));
	for (size_t i = 0; i < o->nplugins; i++)
		dirs[i] = o->plugins[i]->source_path ? o->plugins[i]->source_path
						     : o->plugins[i]->dir;
	sp.more_ro = dirs;
	sp.home = pc_strvec_env_get(po->env.v, "HOME");
	sp.tmpdir = pc_strvec_env_get(po->env.v, "TMPDIR");
	sp.network = pc__turn_any_cap(o, "access_network");
	sp.write_workspace = pc__turn_any_cap(o, "write_workspace");
	rc = pc_confine_run(o->host->confine, &sp, po, pr, NULL, NULL);
	free(dirs);
	return rc;
}

/* bash: /bin/sh -c COMMAND in the workspace, stdout then stderr. */
static void t_bash(const struct pc_turn_opts *o, const cJSON *a,
		   struct pc__turn_outcome *oc)
{
	struct pc_proc_sigs sigs;
	struct pc_proc_opts po = PC_PROC_OPTS_INIT;
	struct pc_proc_result pr = PC_PROC_RESULT_INIT(1 << 20, 1 << 20);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	int64_t ms = o->bash_timeout_ms > 0 ? o->bash_timeout_ms : 120000;

	pc_strvec_push(&po.argv, "/bin/sh");
	pc_strvec_push(&po.argv, "-c");
	pc_strvec_push(&po.argv, str_arg(a, "command"));
	for (size_t i = 0; i < o->host->env.nr; i++)
		pc_strvec_push(&po.env, o->host->env.v[i]);
	po.cwd = o->host->workspace;
	po.flags = PC_PROC_STDIN_DEVNULL;
	po.timeout_ms = ms;
	pc_proc_sigs_catalyst(&sigs); /* the host's Command, as for plugins */
	po.sigs = &sigs;
	if (run_bash(o, &po, &pr) < 0) {
		pc__turn_set(oc, false, pc_xstrdup("bash: could not start /bin/sh"));
		goto out;
	}
	pc_buf_add(&b, pr.out.data ? pr.out.data : "", pr.out.len);
	if (pr.err.len) {
		if (b.len)
			pc_buf_adds(&b, "\n--- stderr ---\n");
		pc_buf_add(&b, pr.err.data, pr.err.len);
	}
	if (!b.len)
		pc_buf_adds(&b, "(no output)");
	if (pr.outcome == PC_PROC_TIMEOUT) {
		char *s = output_text(&b);

		pc__turn_set(oc, false,
		    pc_xasprintf("bash timed out after %llds (killed)\n%s",
				 (long long)(ms / 1000), s));
		free(s);
	} else {
		pc__turn_set(oc,
		    pr.has_status && pr.term_signal == 0 && pr.exit_code == 0,
		    output_text(&b));
	}
out:
	pc_buf_release(&b);
	pc_proc_result_release(&pr);
	pc_proc_opts_release(&po);
}

bool pc__turn_builtin(const struct pc_turn_opts *o, const char *name,
		      const cJSON *args, struct pc__turn_outcome *oc)
{
	static const struct {
		const char *name;
		void (*fn)(const struct pc_turn_opts *, const cJSON *,
			   struct pc__turn_outcome *);
	} table[] = {
		{ "bash", t_bash },
		{ "bulk_edit", pc__turn_bulk_edit },
		{ "bulk_write", pc__turn_bulk_write },
		{ "edit", pc__turn_edit },
		{ "glob", t_glob },
		{ "grep", t_grep },
		{ "list_dir", t_list },
		{ "patch", pc__turn_patch },
		{ "read_file", t_read },
		{ "rename", pc__turn_rename },
		{ "write_file", t_write },
	};

	if (!strcmp(name, "finish")) {
		pc__turn_set(oc, true, pc_xstrdup("__finish__"));
		return true;
	}
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(name, table[i].name)) {
			table[i].fn(o, args, oc);
			return true;
		}
	pc__turn_set(oc, false, pc_xasprintf("unknown tool: %s", name));
	return false;
}

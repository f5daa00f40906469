/* pc_chatcli_disc.c - Reload() over a plugins directory (D1-D8) and the
 * builtin names (N1). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pc_chatcli.h"
#include "pc_fs.h"
#include "pc_xalloc.h"

/* N1, cli/cli.go:549-722 and cli/slash_tool_registry.go at HEAD. */
static const char *const builtins[] = {
	"@agents",
	"@api-explorer",
	"@ask",
	"@board",
	"@channels",
	"@cmd:help",
	"@cmd:session-list",
	"@cmd:version",
	"@coder",
	"@commands",
	"@compress",
	"@context",
	"@diagram",
	"@docs-flatten",
	"@embed",
	"@graphview",
	"@http",
	"@image",
	"@knowledge",
	"@lsp",
	"@mail",
	"@mcp-login",
	"@memory",
	"@moa",
	"@model",
	"@osv",
	"@park",
	"@proc",
	"@read",
	"@recall",
	"@registry-tags",
	"@scheduler",
	"@search",
	"@send",
	"@session",
	"@skill",
	"@speak",
	"@todo",
	"@tools",
	"@tree",
	"@voice",
	"@webfetch",
	"@websearch",
	"@wikipedia",
};

bool pc_chatcli_is_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(*builtins); i++)
		if (!strcmp(builtins[i], name))
			return true;
	return false;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static void load_entry(struct pc_chatcli_entry *e,
		       const struct pc_chatcli_disc_opts *o, struct pc_err *err)
{
	if (!o->no_signatures &&
	    pc_chatcli_sig_verify(e->path, o->keys_dir, o->allow_unsigned,
				  &e->sig_error, NULL))
		return;
	pc_chatcli_probe(e->path, o->env, o->cwd, o->probe_timeout_ms,
			 &e->probe, err);
}

/* mark_registered - D6: the later file wins a duplicate name. */
static void mark_registered(struct pc_chatcli_dir *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct pc_chatcli_entry *e = &d->v[i];

		e->registered = e->probe.loaded;
		for (size_t j = i + 1; e->registered && j < d->nr; j++) {
			const struct pc_chatcli_entry *l = &d->v[j];

			if (l->probe.loaded &&
			    l->probe.meta.name_len == e->probe.meta.name_len &&
			    !memcmp(l->probe.meta.name, e->probe.meta.name,
				    e->probe.meta.name_len)) {
				e->registered = false;
				free(e->replaced_by);
				e->replaced_by = pc_xstrdup(l->file);
			}
		}
	}
}

int pc_chatcli_discover(const char *dir, const struct pc_chatcli_disc_opts *o,
			struct pc_chatcli_dir *d, struct pc_err *err)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	if (!dp)
		return pc_err_set_errno(err,
					errno == ENOENT ? PC_ENOENT : PC_EIO,
					errno, "cannot read '%s'", dir);
	while ((de = readdir(dp))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = pc_xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = pc_xstrdup(de->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_names);
	d->v = pc_xcalloc(n ? n : 1, sizeof(*d->v));
	d->nr = n;
	for (size_t i = 0; i < n; i++) {
		struct pc_chatcli_entry *e = &d->v[i];
		char *joined = pc_fs_join(dir, names[i]);

		e->file = names[i];
		e->path = pc_fs_absolute(joined);
		free(joined);
		e->skipped = ends_with(e->file, ".sig") || e->file[0] == '.';
		if (!e->skipped)
			load_entry(e, o, err);
	}
	free(names);
	mark_registered(d);
	return 0;
}

int pc_chatcli_discover_file(const char *path,
			     const struct pc_chatcli_disc_opts *o,
			     struct pc_chatcli_dir *d, struct pc_err *err)
{
	const char *slash = strrchr(path, '/');
	struct pc_chatcli_entry *e;

	d->v = pc_xcalloc(1, sizeof(*d->v));
	d->nr = 1;
	e = &d->v[0];
	e->file = pc_xstrdup(slash ? slash + 1 : path);
	e->path = pc_fs_absolute(path);
	load_entry(e, o, err);
	mark_registered(d);
	return 0;
}

void pc_chatcli_dir_release(struct pc_chatcli_dir *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->v[i].file);
		free(d->v[i].path);
		free(d->v[i].sig_error);
		free(d->v[i].replaced_by);
		pc_chatcli_probe_release(&d->v[i].probe);
	}
	free(d->v);
	*d = (struct pc_chatcli_dir)PC_CHATCLI_DIR_INIT;
}

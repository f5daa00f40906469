#define _GNU_SOURCE /* memmem */
/* pc_lint_oauth.c - PC-OAUTH-011: an OAuth token script that rotates
 * refresh tokens and rewrites its token file in place, with neither a
 * lock nor a rename (spec catalyst-code.md R8.8: the host runs `token`
 * for every caller that finds its cache stale, and nothing serialises
 * them; R8.11: the file is the script's own). From the script's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_lint_impl.h"

/* Ways of writing a file whose target is not a fixed name. */
static const char *const writes[] = {
	"open(", /* with a "w" mode on the line (below) */
	".write_text(",
	".write_bytes(",
	"writeFileSync(",
	"writeFile(",
	"createWriteStream(",
	"os.WriteFile(",
	"ioutil.WriteFile(",
	"File.write(",
	"file_put_contents(",
	"> \"$",
	">\"$",
	"> $",
	">$",
	"| tee ",
	NULL
};
/* Ways of putting a finished file in place, or of serialising writers. */
static const char *const safe[] = {
	"os.replace(", "os.rename(",   "rename(",     "renameSync(",
	"Rename(",     "shutil.move(", "mv ",	      "mv\t",
	"flock",       "lockf",	       "fcntl.",      "msvcrt.locking",
	"FileLock",    "filelock",     "portalocker", "lockfile",
	"O_EXCL",      "Flock",	       NULL
};

static bool has(const char *p, size_t n, const char *s)
{
	return memmem(p, n, s, strlen(s)) != NULL;
}

static bool any(const char *p, size_t n, const char *const *set)
{
	for (size_t i = 0; set[i]; i++)
		if (has(p, n, set[i]))
			return true;
	return false;
}

/* A line writing a file: one of `writes`, open( only with a "w" mode. */
static bool write_line(const char *p, size_t n)
{
	for (size_t i = 0; writes[i]; i++) {
		if (!has(p, n, writes[i]))
			continue;
		if (strcmp(writes[i], "open("))
			return true;
		if (has(p, n, "\"w") || has(p, n, "'w") ||
		    has(p, n, "mode=\"w") || has(p, n, "mode='w"))
			return true;
	}
	return false;
}

static bool comment(const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	return n && (*p == '#' || *p == '/' || *p == '*');
}

bool pc_lint_token_script(const char *path, struct pc_loc *write)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	bool found = false;
	size_t start = 0;
	unsigned line = 1;

	*write = (struct pc_loc){ 0, 0 };
	if (pc_fs_read_stream(path, &b, PC_FS_STREAM_MS, NULL) < 0 || !b.len ||
	    memchr(b.data, '\0', b.len))
		goto out;
	if (!(has(b.data, b.len, "refresh_token") ||
	      has(b.data, b.len, "refreshToken")) ||
	    !has(b.data, b.len, "token_path") || any(b.data, b.len, safe))
		goto out;
	for (; start < b.len && !found; line++) {
		const char *nl = memchr(b.data + start, '\n', b.len - start);
		size_t end = nl ? (size_t)(nl - b.data) : b.len;
		const char *p = b.data + start;

		if (!comment(p, end - start) && write_line(p, end - start)) {
			size_t col = 0;

			while (p[col] == ' ' || p[col] == '\t')
				col++;
			*write = (struct pc_loc){ line, (unsigned)col + 1 };
			found = true;
		}
		start = end + 1;
	}
out:
	pc_buf_release(&b);
	return found;
}

void pc__lint_oauth_token(struct pc_lint *l)
{
	const struct pc_oauth_cfg *o = l->plugin->oauth;
	const char *script =
		o ? (o->token_script ? o->token_script : o->script) : NULL;
	const char *rel;
	struct pc_loc at;
	struct pc_finding *f;

	if (!script || !pc_lint_token_script(script, &at))
		return;
	rel = script;
	if (!strncmp(script, l->plugin->source_path,
		     strlen(l->plugin->source_path))) {
		rel += strlen(l->plugin->source_path);
		rel += *rel == '/';
	}
	pc_findings_add(
		&l->findings, "PC-OAUTH-011", rel,
		"the token script rotates refresh tokens and rewrites its token file in place (line %u) with neither a lock nor a rename: two token actions at once - the host runs one for every caller that finds its token stale - read the same single-use refresh token, and one of them can read a half-written file",
		at.line);
	f = &l->findings.v[l->findings.nr - 1];
	f->line = at.line;
	f->column = at.column;
}

/* pc_turn_files.c - the built-in file tools that write without firing
 * pre_write (R4.6, R12.1.2: only write_file and edit do): patch, rename,
 * bulk_write and bulk_edit, run for real in the workspace with the
 * host's argument shapes and output texts (tools.rs). Only pre_tool sees
 * them, so a guard on pre_write alone never does (docs/guard.md). */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_proc.h"
#include "pc_serde.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

static const char *str(const cJSON *a, const char *key)
{
	const cJSON *v = pc_serde_get(a, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* Rust's {:?} of a string, close enough for the messages here. */
static void debug_str(struct pc_buf *b, const char *s)
{
	pc_buf_addch(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			pc_buf_addf(b, "\\%c", c);
		else if (c == '\n')
			pc_buf_adds(b, "\\n");
		else if (c == '\t')
			pc_buf_adds(b, "\\t");
		else if (c == '\r')
			pc_buf_adds(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			pc_buf_addf(b, "\\u{%x}", c);
		else
			pc_buf_addch(b, (char)c);
	}
	pc_buf_addch(b, '"');
}

/* The lines of `text` as str::lines() gives them: split at "\n", one
 * trailing "\r" dropped from each, no empty last line for a final
 * newline. */
static void split_lines(const char *text, struct pc_strvec *out)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *l = pc_xmemdup(p, n);

		if (n && l[n - 1] == '\r')
			l[n - 1] = '\0';
		pc_strvec_push_nodup(out, l);
		p += n + (nl != NULL);
	}
}

static void vec_insert(struct pc_strvec *v, size_t at, const char *s)
{
	char *last;

	pc_strvec_push(v, s); /* grows; v->v[v->nr] stays NULL */
	last = v->v[v->nr - 1];
	memmove(&v->v[at + 1], &v->v[at], (v->nr - 1 - at) * sizeof(char *));
	v->v[at] = last;
}

static void vec_remove(struct pc_strvec *v, size_t at)
{
	free(v->v[at]);
	memmove(&v->v[at], &v->v[at + 1], (v->nr - at) * sizeof(char *));
	v->nr--;
}

/* "@@ -start[,count] ..." -> start and count (count 1 when absent). */
static bool hunk_header(const char *rest, size_t *start, size_t *count)
{
	for (const char *t = rest; t && *t; t = strchr(t, ' ')) {
		char *end;

		while (*t == ' ')
			t++;
		if (*t != '-' || t[1] < '0' || t[1] > '9')
			continue;
		*start = strtoul(t + 1, &end, 10);
		*count = 1;
		if (*end == ',') {
			if (end[1] < '0' || end[1] > '9')
				return false;
			*count = strtoul(end + 1, &end, 10);
		}
		return *end == ' ' || *end == '\0';
	}
	return false;
}

struct hunk {
	struct pc_strvec *lines;
	size_t target, consumed;
	struct pc_buf *err;
};

/* One line of a hunk body (context, removal, addition, blank); false with
 * h->err filled when it does not apply. */
static bool hunk_line(struct hunk *h, const char *pl)
{
	struct pc_strvec *L = h->lines;
	const char *what = pl[0] == ' ' ? "context" : "removal";

	if (pl[0] == ' ' || pl[0] == '-') {
		if (h->target >= L->nr) {
			pc_buf_addf(h->err, "%s past end of file at line %zu: ",
				    what, h->target + 1);
			debug_str(h->err, pl + 1);
			return false;
		}
		if (strcmp(L->v[h->target], pl + 1)) {
			pc_buf_addf(h->err, "%s mismatch at line %zu: ", what,
				    h->target + 1);
			if (pl[0] == ' ') {
				pc_buf_adds(h->err, "expected ");
				debug_str(h->err, L->v[h->target]);
				pc_buf_adds(h->err, ", got ");
				debug_str(h->err, pl + 1);
			} else {
				debug_str(h->err, pl + 1);
				pc_buf_adds(h->err, " not found");
			}
			return false;
		}
		if (pl[0] == ' ')
			h->target++;
		else
			vec_remove(L, h->target);
		h->consumed++;
	} else if (pl[0] == '+') {
		vec_insert(L, h->target < L->nr ? h->target : L->nr, pl + 1);
		h->target++;
	} else if (!pl[0]) {
		if (h->target < L->nr && L->v[h->target][0]) {
			pc_buf_addf(h->err, "context mismatch at line %zu: expected ",
				    h->target + 1);
			debug_str(h->err, L->v[h->target]);
			pc_buf_adds(h->err, ", got a blank (empty) context line");
			return false;
		}
		h->target++;
	}
	return true;
}

/* apply_unified_diff (tools.rs): the new text, or NULL with the reason in
 * `err`. */
static char *apply_diff(const char *original, const char *patch,
			struct pc_buf *err)
{
	struct pc_strvec lines = PC_STRVEC_INIT, pl = PC_STRVEC_INIT;
	struct pc_buf out = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t n = strlen(original), i = 0;
	char *res = NULL;

	split_lines(original, &lines);
	split_lines(patch, &pl);
	while (i < pl.nr) {
		const char *l = pl.v[i];
		size_t start, count;
		struct hunk h = { .lines = &lines, .err = err };

		if (strncmp(l, "@@", 2)) {
			i++;
			continue;
		}
		if (!hunk_header(l + 2, &start, &count)) {
			pc_buf_addf(err, "bad hunk header: %s", l);
			goto out;
		}
		h.target = count == 0 ? start : start ? start - 1 : 0;
		if (count == 0 && h.target > lines.nr) {
			pc_buf_addf(err, "zero-count hunk insertion position %zu is past end of file (%zu)",
				    h.target, lines.nr);
			goto out;
		}
		for (i++; i < pl.nr && strncmp(pl.v[i], "@@", 2); i++)
			if (!hunk_line(&h, pl.v[i]))
				goto out;
		if (count > 0 && h.consumed > count) {
			pc_buf_addf(err, "hunk @%zu,%zu consumed %zu source lines (over-consumption \xe2\x80\x94 malformed patch?)",
				    start, count, h.consumed);
			goto out;
		}
	}
	for (size_t k = 0; k < lines.nr; k++)
		pc_buf_addf(&out, "%s%s", k ? "\n" : "", lines.v[k]);
	if (n && original[n - 1] == '\n')
		pc_buf_addch(&out, '\n');
	res = pc_buf_detach(&out, NULL);
out:
	pc_buf_release(&out);
	pc_strvec_release(&lines);
	pc_strvec_release(&pl);
	return res;
}

void pc__turn_patch(const struct pc_turn_opts *o, const cJSON *a,
		    struct pc__turn_outcome *oc)
{
	const char *in = str(a, "path"), *patch = str(a, "patch");
	char *p = pc__turn_resolve(o, in), *orig, *next, *msg;
	struct pc_buf b = PC_BUF_INIT(PC_MAX_IO_BYTES * 16);
	struct pc_buf err = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!*in || !*patch) {
		pc__turn_set(oc, false,
			     pc_xstrdup("patch requires 'path' and 'patch'"));
		free(p);
		return;
	}
	/* a file that is not there patches as empty (read_to_string
	 * .unwrap_or_default()) */
	if (!p || pc__turn_read_ws(o, in, p, &b) < 0)
		pc_buf_reset(&b);
	orig = pc_buf_detach(&b, NULL);
	if (!orig)
		orig = pc_xstrdup("");
	if (!(next = apply_diff(orig, patch, &err)))
		pc__turn_set(oc, false,
			     pc_xasprintf("patch failed: %s", pc_buf_cstr(&err)));
	else if ((msg = pc__turn_put(o, in, next, "patch")))
		pc__turn_set(oc, false, msg);
	else
		pc__turn_set(oc, true,
			     pc_xasprintf("applied patch to %s (%zu -> %zu bytes)",
					  in, strlen(orig), strlen(next)));
	free(next);
	free(orig);
	free(p);
	pc_buf_release(&b);
	pc_buf_release(&err);
}

/* rename's refusal under --sandbox: NULL when both ends are workspace
 * files the plugins may write, else the message (new string). */
static char *confined_rename(const struct pc_turn_opts *o, const char *from,
			     const char *to)
{
	const char *why = "";
	char *rf = pc__turn_confined_rel(o, from, &why);
	char *rt = rf ? pc__turn_confined_rel(o, to, &why) : NULL;
	struct stat st;
	char *msg = NULL;

	if (rt && !pc__turn_any_cap(o, "write_workspace"))
		why = "the capabilities do not include write_workspace (--sandbox)";
	else if (rt && (pc_fs_beneath_lstat(o->host->workspace, rf, &st, NULL) ||
			!S_ISREG(st.st_mode)))
		why = "under --sandbox only a regular file is renamed";
	else if (rt)
		why = NULL;
	if (why)
		msg = pc_xasprintf("rename \"%s\" failed: the sandbox refused it: %s",
				   from, why);
	free(rf);
	free(rt);
	return msg;
}

void pc__turn_rename(const struct pc_turn_opts *o, const cJSON *a,
		     struct pc__turn_outcome *oc)
{
	const char *from = str(a, "from"), *to = str(a, "to");
	char *src = pc__turn_resolve(o, from), *dst = pc__turn_resolve(o, to);
	char *msg = NULL, *slash;
	struct stat st;

	if (!*from || !*to)
		msg = pc_xstrdup("rename requires non-empty 'from' and 'to'");
	else if (!src || !dst)
		msg = pc_xasprintf("rename \"%s\" failed: path escapes the workspace",
				   src ? to : from);
	else if (o->host->confine && (msg = confined_rename(o, from, to)))
		;
	else if (lstat(src, &st) < 0)
		msg = pc_xasprintf("rename \"%s\" failed: source does not exist",
				   from);
	if (!msg && (slash = strrchr(dst, '/')) && slash != dst) {
		*slash = '\0';
		pc_fs_mkdir_p(dst, NULL);
		*slash = '/';
	}
	if (!msg && rename(src, dst) < 0)
		msg = pc_xasprintf("rename \"%s\" \xe2\x86\x92 \"%s\" failed: %s (os error %d)",
				   from, to, strerror(errno), errno);
	if (msg)
		pc__turn_set(oc, false, msg);
	else
		pc__turn_set(oc, true,
			     pc_xasprintf("renamed %s \xe2\x86\x92 %s", from, to));
	free(src);
	free(dst);
}

void pc__turn_bulk_write(const struct pc_turn_opts *o, const cJSON *a,
			 struct pc__turn_outcome *oc)
{
	const cJSON *files = pc_serde_get(a, "files"), *f;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool ok = true;
	int i = 0;

	if (!cJSON_IsArray(files) || !cJSON_GetArraySize(files)) {
		pc__turn_set(oc, false,
			     pc_xstrdup(cJSON_IsArray(files)
						? "bulk_write requires a non-empty 'files' array"
						: "bulk_write requires a 'files' array"));
		return;
	}
	cJSON_ArrayForEach(f, files)
	{
		const char *path = str(f, "path");
		const cJSON *c = pc_serde_get(f, "content");
		char *msg;

		pc_buf_adds(&b, i ? "\n" : "");
		if (!*path) {
			ok = false;
			pc_buf_addf(&b, "[%d] error: missing 'path'", i++);
			continue;
		}
		if (!cJSON_IsString(c)) {
			ok = false;
			pc_buf_addf(&b, "[%d] %s: error: %s", i++, path,
				    c ? "'content' must be a string"
				      : "missing required 'content'");
			continue;
		}
		if ((msg = pc__turn_put(o, path, c->valuestring, "write_file"))) {
			ok = false;
			pc_buf_addf(&b, "[%d] %s: %s", i++, path, msg);
			free(msg);
			continue;
		}
		pc_buf_addf(&b, "[%d] %s: wrote %zu bytes to %s", i++, path,
			    strlen(c->valuestring), path);
	}
	pc__turn_set(oc, ok, pc_buf_detach(&b, NULL));
}

void pc__turn_bulk_edit(const struct pc_turn_opts *o, const cJSON *a,
			struct pc__turn_outcome *oc)
{
	const cJSON *edits = pc_serde_get(a, "edits"), *e;
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool ok = true;
	int i = 0;

	if (!cJSON_IsArray(edits) || !cJSON_GetArraySize(edits)) {
		pc__turn_set(oc, false,
			     pc_xstrdup(cJSON_IsArray(edits)
						? "bulk_edit requires a non-empty 'edits' array"
						: "bulk_edit requires an 'edits' array"));
		return;
	}
	cJSON_ArrayForEach(e, edits)
	{
		const char *path = str(e, "path");
		const cJSON *fe = pc_serde_get(e, "edits");
		struct pc__turn_outcome r = { 0 };
		cJSON *one;

		pc_buf_adds(&b, i ? "\n\n" : "");
		if (!*path || !cJSON_IsArray(fe) || !cJSON_GetArraySize(fe)) {
			ok = false;
			pc_buf_addf(&b, "### [%d] %s\nerror: %s", i++,
				    *path ? path : "<missing path>",
				    !*path ? "missing 'path'"
				    : !cJSON_IsArray(fe) ? "missing 'edits' array"
							 : "empty 'edits' array");
			continue;
		}
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "path", path);
		cJSON_AddItemToObject(one, "edits", cJSON_Duplicate(fe, 1));
		pc__turn_edit(o, one, &r);
		cJSON_Delete(one);
		ok = ok && r.ok;
		pc_buf_addf(&b, "### [%d] %s\n%s", i++, path,
			    r.output ? r.output : "");
		free(r.output);
		free(r.diff);
	}
	pc__turn_set(oc, ok, pc_buf_detach(&b, NULL));
}

/* pc_scaffold_impl.h - private to scaffold/: file plans and the JSON span
 * editor shared by pc_scaffold.c and pc_scaffold_json.c. */
#ifndef PC_SCAFFOLD_IMPL_H
#define PC_SCAFFOLD_IMPL_H

#include <stddef.h>

#include "pc_buf.h"
#include "pc_scaffold.h"

/* A planned file: relative path, content, executable or not. */
struct pc__scaffold_file {
	char *path;
	char *data;
	size_t len;
	bool exec;
};

struct pc__scaffold_plan {
	struct pc__scaffold_file *f;
	size_t n;
};

/* Add the script and scenario files of `p` to `plan`; the manifest
 * fragment for it is appended to *frag (no trailing newline). */
int pc__scaffold_plan_part(const struct pc_scaffold_opts *o, const char *plugin,
			   const struct pc_scaffold_part *p,
			   struct pc__scaffold_plan *plan, struct pc_buf *frag,
			   struct pc_err *err);
/* Write every file of `plan` under dir (refusing existing ones unless
 * force: all are checked first), recording their paths in *written. */
int pc__scaffold_plan_write(const struct pc__scaffold_plan *plan,
			    const char *dir, bool force,
			    struct pc_strvec *written, struct pc_err *err);
void pc__scaffold_plan_release(struct pc__scaffold_plan *plan);
/* Add a file to the plan, taking `data`. */
void pc__scaffold_plan_take(struct pc__scaffold_plan *plan, const char *path,
			    char *data, bool exec);

/* Render `text` (template `tmpl`, named in errors) into *out (a new
 * string): every {{KEY}} or {{KEY|f|g}} whose KEY is in the
 * NULL-terminated key/value list kv is replaced by its value passed
 * through the quoting filters f, then g (pc__scaffold_quote); other
 * braces are kept. One pass: text a value brings in is never scanned
 * again. A user-given key (PLUGIN, NAME, POINT, PROVIDER, SCRIPT) must
 * name a filter. Returns 0, or PC_EINVAL with err naming the template
 * and placeholder (no filter, an unknown filter) or the value a filter
 * cannot carry. */
int pc__scaffold_render(const char *tmpl, const char *text,
			const char *const *kv, char **out, struct pc_err *err);
/* pc__scaffold_quote - append `s` quoted by the filter named by the
 * n bytes at `filter` to *out: json (inside a JSON or YAML "..."), sh
 * (one shell word '...'), sq (inside sh '...'), dq (inside sh "..."),
 * py (inside a Python string literal), c (inside a C string literal),
 * pct (a printf format's literal text: % doubled), ccmt (inside a C
 * comment), cmt (inside a '#' comment: one line), code (a markdown code
 * span), md (markdown inline text), word (make targets, .gitignore lines: letters, digits, _ - . / @
 * only). Returns 0, -1 when `s` cannot be carried (word), -2 for an
 * unknown filter. */
int pc__scaffold_quote(const char *filter, size_t n, const char *s,
		       struct pc_buf *out);
/* Read template root/rel and render it into *out (new string). Returns 0
 * or PC_ENOENT naming the template. */
int pc__scaffold_render_template(const char *root, const char *rel,
				 const char *const *kv, char **out,
				 struct pc_err *err);
/* pc_scaffold_new for o->host == PC_SCAFFOLD_CHATCLI (o->nparts is 0). */
int pc__scaffold_new_chatcli(const struct pc_scaffold_opts *o,
			     struct pc_strvec *written, struct pc_err *err);

/* Edit the plugin.json text in *json (NUL-terminated) to hold the manifest
 * fragment `frag` of part `p`, plus `caps` when "capabilities" is
 * declared. Inserted and rewritten text takes the file's line ending
 * (CRLF when more line breaks are CRLF than bare LF, else LF); every other
 * byte is kept. Returns 0 or PC_EPARSE / PC_EINVAL with err set. */
int pc__scaffold_json_add(struct pc_buf *json, const struct pc_scaffold_part *p,
			  const char *frag, const struct pc_strvec *caps,
			  struct pc_err *err);
/* The string value of top-level key `key` (simple strings only), new,
 * or NULL. */
char *pc__scaffold_json_top_string(const char *json, const char *key);

#endif

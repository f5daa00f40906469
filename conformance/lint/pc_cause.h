/* pc_cause.h - the cause behind a fault, read from the bytes: what a
 * script printed, what a script's text does, what plugin.json says and
 * what a model provider will refuse (issue 17).
 *
 * The reference host reproduces what the Catalyst Code host does with a
 * plugin; these functions say WHY, so a finding can name the cause and
 * the line it is on instead of the symptom ("returned invalid JSON"). The
 * static checks (pc_lint) and the suite's judgments of firings
 * (conformance/suite) share them, so `lint` and `check` name a cause the
 * same way.
 *
 * Everything here is a pure function of its arguments except
 * pc_cause_relative_files(), which looks at the file system. Inputs are
 * borrowed; strings and arrays returned are new (the caller frees them as
 * each function says). Nothing prints, exits or runs a script.
 */
#ifndef PC_CAUSE_H
#define PC_CAUSE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_locate.h"
#include "pc_strvec.h"

/* ---- what a script printed (R4.3.7-8, R6.2, R8.3, R9.5) ---- */

/* pc_cause_bom - `s` (`n` bytes) has a UTF-8 byte order mark (EF BB BF)
 * before its first byte that is not ASCII whitespace; *at (may be NULL)
 * gets its offset. The host's JSON parser (serde_json) refuses a BOM
 * ("expected value at line 1 column 1") and its trim() keeps it: a JSON
 * answer or a plugin.json saved "with BOM" is not JSON to the host. */
bool pc_cause_bom(const char *s, size_t n, size_t *at);

/* pc_cause_bad_utf8 - the offset of the first byte of `s` (`n` bytes)
 * that is not part of valid UTF-8 (what the host's lossy decoding turns
 * into U+FFFD, R4.3.7), or (size_t)-1 when all of it is valid. *latin1
 * (may be NULL) gets the character a Latin-1 (ISO 8859-1) text meant
 * with that byte - U+00A0..U+00FF for bytes A0..FF that do not start a
 * valid sequence, as "caf\xe9" means "café" - or 0 when the byte is not
 * such a character. */
size_t pc_cause_bad_utf8(const char *s, size_t n, unsigned *latin1);

/* Where a JSON answer sits inside other text (pc_cause_embedded_json). */
struct pc_cause_embed {
	size_t start, end; /* the JSON value is bytes [start, end) */
	size_t before;	   /* bytes of text before it, the whitespace
			      around that text not counted */
	size_t after;	   /* the same after it */
	bool carriage;	   /* the text before it holds a '\r' that does not
			      end a line: a progress line redrawn in place */
};

/* pc_cause_embedded_json - `s` (`n` bytes: a script's stdout) is not one
 * JSON value, but holds a JSON object or array with other text before or
 * after it: log lines, a progress bar, "Result: {...}". Tries the starts
 * of lines (after '\n' or '\r', leading blanks skipped) that begin with
 * '{' or '[' and the first '{' of the text, at most 64 of them, and takes
 * the first whose value parses on its own (serde_json rules). Returns
 * true and fills *e then; false when `s` is JSON as a whole (after ASCII
 * whitespace is trimmed) or holds no such value. */
bool pc_cause_embedded_json(const char *s, size_t n, struct pc_cause_embed *e);

/* pc_cause_code_line - as pc_text_find_line (the first line of `s`, `n`
 * bytes, holding the plain substring `needle`, and the match's column),
 * but lines that are comments - their first non-blank character is '#'
 * (sh, Python) or they start with "//" - are passed over: a script names
 * what it prints or reads in its comments too. {0, 0} when none. */
struct pc_loc pc_cause_code_line(const char *s, size_t n, const char *needle);

/* pc_cause_printed_line - the line of `script` (`sn` bytes) that most
 * likely printed `printed` (`pn` bytes, the text a script wrote before
 * its answer): the first line of `printed` that is not blank, trimmed
 * and cut at 60 bytes, is searched as a plain substring; then shorter
 * prefixes of it, cut at a space, down to 5 bytes, and its text before
 * the first digit ("Loading 45%" printed by printf 'Loading %d%%'),
 * each with pc_cause_code_line. {0, 0} when no line has any of them. */
struct pc_loc pc_cause_printed_line(const char *script, size_t sn,
				    const char *printed, size_t pn);

/* pc_cause_stderr_line - the line of the script at `script` (its path as
 * the host ran it) that a crash report in `err` (`n` bytes of stderr)
 * names: the shells' "SCRIPT: line N:" (also "SCRIPT: eval: line N:"),
 * Python's innermost 'File "SCRIPT", line N', Node's "SCRIPT:N"; 0 when
 * it names none. */
unsigned pc_cause_stderr_line(const char *err, size_t n, const char *script);

/* ---- what a script's text does (R5.2, R5.5) ---- */

/* pc_cause_is_shell - the host runs the script at `path` (text `s`, `n`
 * bytes) with a POSIX shell: its extension is .sh or .bash (the host runs
 * `bash SCRIPT`, R5.2), or it is executed directly and its #! line names
 * sh, bash, dash, ash, ksh, mksh or zsh (also through /usr/bin/env). */
bool pc_cause_is_shell(const char *path, const char *s, size_t n);

/* pc_cause_crlf - the first line of `s` that ends in CR LF (its line,
 * column of the CR), or {0, 0}. bash reads the CR as the last character
 * of every word it ends ("$'\r': command not found"). */
struct pc_loc pc_cause_crlf(const char *s, size_t n);

/* How a shell script's `read` of its stdin fails on the host's input
 * (pc_cause_shell_read). */
enum pc_cause_read {
	PC_CAUSE_READ_NONE,
	PC_CAUSE_READ_LOOP,    /* while/until read: the body never runs */
	PC_CAUSE_READ_TEST,    /* if read, read || ..., read && ...: the
				  failure branch runs */
	PC_CAUSE_READ_ERREXIT, /* a plain read under set -e: the script
				  exits 1 */
};

/* pc_cause_shell_read - the first `read` builtin of shell script `s`
 * (`n` bytes) that reads the script's own stdin (not `read ... < FILE`,
 * `<<<`, `-u FD`, a loop fed by `done < FILE`, or a pipe from a command
 * other than cat) in a way that fails because the host writes its JSON
 * WITHOUT a trailing newline (R5.5, R4.5): read then returns 1 although
 * it stored the text. `|| [ -n "$x" ]`, `|| test -n ...`, `|| true` and
 * `|| :` after the read are the fix, not the fault. `shebang_flags`:
 * whether options on the #! line apply (the script is executed directly;
 * `bash SCRIPT` ignores them), for a `#!/bin/sh -e`. Fills *at with the
 * line and column of the `read` and *errexit_line (may be NULL) with the
 * line that set -e is on (ERREXIT only; else 0). */
enum pc_cause_read pc_cause_shell_read(const char *s, size_t n,
				       bool shebang_flags, struct pc_loc *at,
				       unsigned *errexit_line);

/* A file a script names, and where (pc_cause_relative_files). */
struct pc_cause_file {
	char *name;	  /* relative path as written, "./" dropped */
	struct pc_loc at; /* its first mention in the script */
};

/* pc_cause_relative_files - the relative paths `s` (`n` bytes, a
 * script's text) names that exist as regular files under `dir` (the
 * plugin directory), at most `max`, in order of first mention, each
 * once, into out[] (the caller frees each name, or calls
 * pc_cause_files_release). A path is a run of letters, digits and
 * "_.-/@+" with a '.' or '/' in it, not starting with '/', '-' or '~',
 * not part of a URL, and without a ".." component; text after a '#' that starts
 * a word (a sh or Python comment) is skipped. `self` (may be NULL), the
 * script's own relative path, is never listed. Returns how many were stored. */
size_t pc_cause_relative_files(const char *s, size_t n, const char *dir,
			       const char *self, struct pc_cause_file *out,
			       size_t max);
/* pc_cause_files_release - free the strings of the first `n` entries of
 * `f` (filled by pc_cause_relative_files); the array itself is the
 * caller's. */
void pc_cause_files_release(struct pc_cause_file *f, size_t n);

/* ---- what plugin.json says (R2.2) ---- */

/* pc_cause_near_key - the name in `known` (`n` names) that `key` most
 * likely misspells or renames, or NULL when none is close: the same name
 * ignoring ASCII case and '_', '-', ' ', '.' ("timeoutMs", "pass-args");
 * an edit (insertion, deletion, substitution or swap of two neighbours)
 * distance of 1 for names of up to 5 letters and 2 beyond ("hook",
 * "descripton", "scirpt"); a prefix of at least 4 letters ("timeout" of
 * "timeout_ms", "desc"); or a common other name for the field ("command",
 * "cmd", "run", "exec" for "script"; "input_schema", "schema",
 * "arguments" for "parameters"; "readonly", "read_only" for "kind";
 * "permissions" for "capabilities"; "args" for "pass_args", or for
 * "parameters" when there is no "pass_args"). The nearest wins; ties go
 * to the first in `known`. */
const char *pc_cause_near_key(const char *key, const char *const *known,
			      size_t n);

/* ---- what model providers refuse (the host sends every tool's name and
 * parameters with every model request, verbatim: R6.3, §2.4) ---- */

/* pc_cause_tool_name - what the model providers' APIs refuse in the tool
 * name `name`, as one new sentence (caller frees), or NULL when all three
 * families take it. OpenAI (function name) and Anthropic (tool name)
 * take only ASCII letters, digits, '_' and '-', 1 to 64 of them; Gemini
 * (function declaration name) also takes '.' and ':', at most 64, and
 * the name must start with a letter or '_'. */
char *pc_cause_tool_name(const char *name);

/* pc_cause_schema_refused - the problems of a tool's `parameters` (a
 * JSON object) that make OpenAI or Anthropic refuse the whole request:
 * the top level not `"type": "object"` (both), oneOf/anyOf/allOf at the
 * top level (both), enum or not at the top level (OpenAI), a top-level
 * property name other than letters, digits, '_', '.', '-' (1 to 64;
 * Anthropic), an array schema without "items" anywhere (OpenAI). One
 * message per problem into `msgs` and its JSON pointer into the schema
 * ("" for the top level; the keyword's own key where one is at fault)
 * into `ptrs`, in a fixed order. Returns how many were appended. */
size_t pc_cause_schema_refused(const cJSON *params, struct pc_strvec *msgs,
			       struct pc_strvec *ptrs);

/* pc_cause_schema_gemini - the same for Gemini, whose function
 * parameters are a subset of the OpenAPI 3.0 schema object: any keyword
 * outside type, format, title, description, nullable, enum, items,
 * minItems, maxItems, properties, required, minProperties,
 * maxProperties, minLength, maxLength, pattern, example, anyOf,
 * propertyOrdering, default, minimum, maximum (const, $ref, $defs, oneOf,
 * allOf, exclusiveMinimum, multipleOf, ...: "Unknown name ... Cannot find
 * field"; additionalProperties only where the object has no properties,
 * as beside them it is widespread), "type" given as a list, enum values
 * that are not strings, and a nested object type without properties (an
 * additionalProperties-only map). */
size_t pc_cause_schema_gemini(const cJSON *params, struct pc_strvec *msgs,
			      struct pc_strvec *ptrs);

/* ---- what a hook's modify does to a tool call (R4.8, R4.10) ---- */

/* pc_cause_builtin_params - the property names of built-in tool `name`
 * as the host declares them (schema.rs): bash, write_file, edit,
 * read_file, grep, glob; a NULL-terminated static list, or NULL for
 * other names. */
const char *const *pc_cause_builtin_params(const char *name);

/* pc_cause_modify_unknown - the keys of object `modify` that the tool
 * has no parameter for: not in `names` (NULL-terminated) nor, when
 * `params` is not NULL, in the `properties` of that schema. The host adds
 * them to the call's arguments and the tool ignores them. Appended to
 * `out` in modify's order; returns how many. */
size_t pc_cause_modify_unknown(const cJSON *modify, const char *const *names,
			       const cJSON *params, struct pc_strvec *out);

/* pc_cause_modify_nested - the keys whose value is an object both in
 * `modify` and in the call's `args`, where args' object has members
 * modify's lacks: the host replaces the whole value (the merge is
 * shallow), so those members are lost. One "KEY (drops a, b)" per key
 * into `out`; returns how many. */
size_t pc_cause_modify_nested(const cJSON *modify, const cJSON *args,
			      struct pc_strvec *out);

/* pc_cause_modify_changed - the first key of object `modify` whose value
 * differs from the one in `args` (or that args lacks), or NULL: what the
 * call runs with is then not what was approved (R4.8). Borrowed. */
const char *pc_cause_modify_changed(const cJSON *modify, const cJSON *args);

#endif

/* pc_locate.h - where a finding's cause is in a file: 1-based line and
 * column (bytes) of a byte offset, of a member of a JSON text such as
 * plugin.json (its key or its value, also the second of two repeated
 * keys), and of the first line of a script matching a pattern.
 *
 * These are for messages and report locations only: they never decide
 * what the host does (the host's own parser is pc_serde.h).
 */
#ifndef PC_LOCATE_H
#define PC_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

/* A place in a text file: 1-based line and column (the column counts
 * bytes, as compilers' "file:line:col:" do); 0, 0 when unknown. */
struct pc_loc {
	unsigned line;
	unsigned column;
};

/* pc_loc_of_offset - the line and column of byte `off` of `text` (`n`
 * bytes; `off` > n is taken as n). Lines end at '\n' only. */
struct pc_loc pc_loc_of_offset(const char *text, size_t n, size_t off);

/* pc_json_locate - find in the JSON text `text` (`n` bytes, UTF-8, a
 * leading BOM allowed) the member reached by `path`: a NULL-terminated
 * array of steps from the top-level value, each an object key (compared
 * after decoding its escapes) or "#N" for element N (0-based) of an
 * array. At the last step, `nth` picks among repeated keys of one object
 * (0: the first, 1: the second, ...; duplicate keys are legal JSON and
 * the host keeps the last, R2.1). Earlier steps take the last occurrence,
 * as the host does. `want_key`: the key's opening quote (the array
 * element itself for "#N"), else the first byte of the value. An empty
 * path means the top-level value. Returns 0 and fills *loc; -1 when the
 * member is not there or the text is not JSON up to it. Never reads past
 * `n`; nesting is bounded (deeper than 512 levels: -1). */
int pc_json_locate(const char *text, size_t n, const char *const *path,
		   unsigned nth, bool want_key, struct pc_loc *loc);

/* pc_json_key_count - how many times the last step of `path` (a key)
 * occurs in the object the earlier steps reach; 0 when that object is
 * not there. For naming the repeated keys of plugin.json (R2.1). */
unsigned pc_json_key_count(const char *text, size_t n,
			   const char *const *path);

/* A JSON text indexed once for many look-ups (lint points hundreds of
 * findings into one plugin.json): every member's key and value offsets
 * and the lines' starts, so a look-up costs the path's length, not the
 * text's. */
struct pc_json_doc;

/* PC_JSON_LAST - the `nth` that picks the last of repeated keys (the one
 * the host keeps, R2.1). */
#define PC_JSON_LAST ((unsigned)-1)

/* pc_json_doc_new - index the JSON text `text` (`n` bytes, borrowed only
 * during the call; a leading BOM allowed). A text that is not JSON is
 * indexed up to its first error (what comes before stays findable).
 * Never NULL; free with pc_json_doc_free. Nesting deeper than 512 levels
 * is not indexed. */
struct pc_json_doc *pc_json_doc_new(const char *text, size_t n);
/* pc_json_doc_locate - pc_json_locate on the indexed text; `nth` may be
 * PC_JSON_LAST. Returns 0 and fills *loc, or -1. */
int pc_json_doc_locate(const struct pc_json_doc *d, const char *const *path,
		       unsigned nth, bool want_key, struct pc_loc *loc);
/* pc_json_doc_near - the member `path` reaches, or when it is not there
 * the nearest enclosing one that is (its key; the top-level value for
 * none): for pointing at where a missing key belongs. Repeated keys
 * resolve to the last one at every step. Returns {0, 0} only for an
 * empty or non-JSON text. */
struct pc_loc pc_json_doc_near(const struct pc_json_doc *d,
			       const char *const *path, bool want_key);
/* pc_json_doc_line_col - the line and column of byte `off` (lines end at
 * '\n'), by binary search over the indexed line starts. */
struct pc_loc pc_json_doc_line_col(const struct pc_json_doc *d, size_t off);
/* pc_json_doc_free - free `d` (made by pc_json_doc_new; NULL is a no-op). */
void pc_json_doc_free(struct pc_json_doc *d);

/* pc_text_find_line - the first line of `text` (`n` bytes) containing
 * `needle` (a plain substring, not a pattern), its line and the column
 * of the match; {0, 0} when no line has it. For pointing a finding at
 * the line of a script that reads $VAR, prints to stdout, ... */
struct pc_loc pc_text_find_line(const char *text, size_t n,
				const char *needle);

/* pc_json_value_end - the offset just past the JSON value that starts at
 * byte `off` of `text` (`n` bytes; whitespace before it skipped), or
 * (size_t)-1 when no complete value starts there. Scans only as far as
 * the value goes, so it finds where a JSON answer ends inside text that
 * goes on ("{...}\nlog line"). Nesting deeper than 512: -1. */
size_t pc_json_value_end(const char *text, size_t n, size_t off);

/* One member of a JSON object as pc_json_walk reports it: the key
 * decoded (escapes resolved; borrowed, valid during the call)
 * and where the key and its value start (byte offsets into the text). */
struct pc_json_member {
	const char *key;
	size_t key_len;
	size_t key_off;	  /* the key's opening quote */
	size_t value_off; /* the value's first byte */
};

/* pc_json_object_fn - one object of the text: `path` is the
 * NULL-terminated list of steps from the top-level value to it (object
 * keys and "#N" array indexes, as pc_json_locate takes them), `m` its `n`
 * members in text order, repeated keys included. Everything is borrowed
 * for the call. */
typedef void (*pc_json_object_fn)(void *ctx, const char *const *path,
				  const struct pc_json_member *m, size_t n);

/* pc_json_doc_walk - call `fn` for every object of the indexed text `d`,
 * an object after the objects inside it. This sees what a parser that
 * keeps the last of repeated keys (the host, R2.1) throws away: every
 * occurrence, with its place. Returns 0, or -1 when the text is not one
 * JSON value (the well-formed objects before the error have been
 * reported). Nesting deeper than 512 levels: -1. */
int pc_json_doc_walk(const struct pc_json_doc *d, pc_json_object_fn fn,
		     void *ctx);
/* pc_json_walk - pc_json_doc_walk on the JSON text `text` (`n` bytes, a
 * leading BOM skipped), indexed for the one call. */
int pc_json_walk(const char *text, size_t n, pc_json_object_fn fn, void *ctx);

#endif

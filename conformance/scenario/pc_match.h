/* pc_match.h - the scenario runner's regular expressions: `/regex/flags`
 * in a scenario file, compiled once when the file is loaded and matched
 * many times. PCRE2 stays inside pc_match.c (STYLE §B 11).
 *
 * Semantics: PCRE2 (Perl-compatible) patterns over UTF-8 text, searched
 * anywhere in the subject (anchor with ^ and $ when needed). Flags: i
 * (caseless), m (multiline), s (dot matches newline), x (extended).
 * Invalid UTF-8 in a subject never matches past the bad bytes and never
 * errors. Matching runs under a match limit, so a catastrophic pattern
 * costs bounded time (it then counts as "no match").
 */
#ifndef PC_MATCH_H
#define PC_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_err.h"

struct pc_match;

/* pc_match_new - compile `pattern` with the flag letters in `flags` (any
 * of "imsx"; NULL is ""). On success stores a new matcher in *out (free
 * with pc_match_free) and returns 0. On failure returns PC_EINVAL with
 * "bad regex: <PCRE2 message> at offset N" (or "unknown regex flag 'c'")
 * in err->msg and *out NULL. Borrows both strings. */
int pc_match_new(const char *pattern, const char *flags, struct pc_match **out,
		 struct pc_err *err);

/* pc_match_test - true when the pattern matches somewhere in the `len`
 * bytes of `subject` (need not be NUL-terminated). */
bool pc_match_test(const struct pc_match *m, const char *subject, size_t len);

/* pc_match_source - the text "/pattern/flags" as written; owned by m. */
const char *pc_match_source(const struct pc_match *m);

/* pc_match_free - free `m`; NULL is a no-op. */
void pc_match_free(struct pc_match *m);

#endif

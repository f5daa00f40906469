/* pc_chatcli_impl.h - symbols shared by the files of pc_chatcli only (no
 * other folder includes this).
 *
 * The host is Go; these helpers reproduce the Go standard library pieces
 * it leans on, byte for byte: utf8 decoding (an invalid byte is one
 * U+FFFD), the unicode package's simple case mapping and classes (data
 * generated from Go 1.19, Unicode 13.0.0, in pc_chatcli_unitab.c),
 * strings.ToLower/ToUpper/TrimSpace/Fields, html.UnescapeString (data in
 * pc_chatcli_entities.c) and strconv.Unquote. Text is bytes plus a length
 * everywhere: a NUL is an ordinary byte. Returned strings are new heap
 * strings, NUL-terminated after their length, freed with free().
 */
#ifndef PC_CHATCLI_IMPL_H
#define PC_CHATCLI_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pc_buf.h"

#define PC__RUNE_ERROR 0xfffd

/* --- generated tables -------------------------------------------------- */

/* A run of runes: r in [lo, hi] with (r - lo) % step == 0; a case map
 * sends it to r + delta (the class tables have step 1, delta 0). */
struct pc__chatcli_run {
	int32_t lo, hi, step, delta;
};
struct pc__chatcli_entity {
	const char *name; /* "amp;" or a legacy "amp" */
	int32_t r1, r2;	  /* r2 is 0 for a one-rune reference */
};

extern const struct pc__chatcli_run pc__chatcli_lower_runs[];
extern const size_t pc__chatcli_lower_nruns;
extern const struct pc__chatcli_run pc__chatcli_upper_runs[];
extern const size_t pc__chatcli_upper_nruns;
extern const struct pc__chatcli_run pc__chatcli_space_ranges[];
extern const size_t pc__chatcli_space_nranges;
extern const struct pc__chatcli_run pc__chatcli_letter_ranges[];
extern const size_t pc__chatcli_letter_nranges;
extern const struct pc__chatcli_run pc__chatcli_digit_ranges[];
extern const size_t pc__chatcli_digit_nranges;
extern const struct pc__chatcli_entity pc__chatcli_entities[];
extern const size_t pc__chatcli_nentities;

/* --- utf8 and unicode (pc_chatcli_unicode.c) --------------------------- */

/* pc__chatcli_decode_rune - utf8.DecodeRune of p[0..n): the rune and its
 * size in *size; (U+FFFD, 1) for an invalid or truncated sequence
 * (surrogates and overlong forms included), (U+FFFD, 0) when n == 0. */
int32_t pc__chatcli_decode_rune(const char *p, size_t n, size_t *size);
/* pc__chatcli_add_rune - utf8.EncodeRune appended to b: a negative rune,
 * a surrogate or one past U+10FFFF is written as U+FFFD. */
void pc__chatcli_add_rune(struct pc_buf *b, int32_t r);
/* pc__chatcli_rune_len - the bytes pc__chatcli_add_rune writes for r. */
size_t pc__chatcli_rune_len(int32_t r);
int32_t pc__chatcli_to_lower(int32_t r); /* unicode.ToLower */
int32_t pc__chatcli_to_upper(int32_t r); /* unicode.ToUpper */
bool pc__chatcli_is_space(int32_t r);	 /* unicode.IsSpace */
bool pc__chatcli_is_letter(int32_t r);	 /* unicode.IsLetter */
bool pc__chatcli_is_digit(int32_t r);	 /* unicode.IsDigit */
/* pc__chatcli_hex - the value of ASCII hex digit c, or -1. */
int pc__chatcli_hex(unsigned c);

/* pc__chatcli_lower - strings.ToLower of s[0..n): every rune mapped, every
 * invalid byte replaced by U+FFFD (so the length may change: K U+212A
 * gives 1 byte for 3, an invalid byte 3 for 1). *out_n gets the length. */
char *pc__chatcli_lower(const char *s, size_t n, size_t *out_n);
/* pc__chatcli_upper - strings.ToUpper, as pc__chatcli_lower. */
char *pc__chatcli_upper(const char *s, size_t n, size_t *out_n);
/* pc__chatcli_trim_space - strings.TrimSpace: narrow s[0..*n) (pointer in
 * *s) past leading and trailing unicode.IsSpace runes (an invalid byte
 * is not a space). */
void pc__chatcli_trim_space(const char **s, size_t *n);
/* pc__chatcli_trim_dup - strings.TrimSpace as a new string. */
char *pc__chatcli_trim_dup(const char *s, size_t n, size_t *out_n);
/* pc__chatcli_utf8_valid - utf8.Valid. */
bool pc__chatcli_utf8_valid(const char *s, size_t n);
/* pc__chatcli_runes_string - string([]rune(s)): every invalid byte
 * becomes U+FFFD, valid text is unchanged. */
char *pc__chatcli_runes_string(const char *s, size_t n, size_t *out_n);
/* pc__chatcli_memmem - strings.Index of needle in hay (bytes), -1 if
 * absent; an empty needle is found at 0. */
long pc__chatcli_index(const char *hay, size_t hn, const char *needle,
		       size_t nn);
/* pc__chatcli_equal_fold_ascii - strings.EqualFold for an ASCII `b`
 * without k or s (the only case the host's callers need): byte lengths
 * equal and ASCII letters fold. */
bool pc__chatcli_equal_fold_ascii(const char *a, size_t an, const char *b);

/* --- html (pc_chatcli_html.c) ------------------------------------------ */

/* pc__chatcli_html_unescape - Go's html.UnescapeString of s[0..n): every
 * named reference of the HTML5 list (with ';', and the legacy ones also
 * without: "&amp", "&AMP;", "&notit;" is "¬it;"), numeric references
 * (decimal needs two digits or a ';' - "&#9x" stays, "&#x9x" does not;
 * 128-159 are Windows-1252, "&#128;" is "€"; 0, surrogates and values
 * past U+10FFFF are U+FFFD; the value wraps as Go's int32 rune does).
 * Returns a new string, its length in *out_n. */
char *pc__chatcli_html_unescape(const char *s, size_t n, size_t *out_n);

/* --- strconv and recovery (pc_chatcli_args.c) ------------------------- */

/* pc__chatcli_unquote - strconv.Unquote of s[0..n): a double-quoted Go
 * string literal (Go's escapes; \' refused; a raw newline refused) or a
 * single-quoted one-rune literal ('' is ""). An invalid UTF-8 byte
 * becomes U+FFFD unless the literal has no escape and is valid as it
 * stands. Returns a new string (length in *out_n), or NULL on ErrSyntax
 * (also when text follows the closing quote). */
char *pc__chatcli_unquote(const char *s, size_t n, size_t *out_n);

/* pc__chatcli_normalize - NormalizeToolArgs(tool, raw) (A3): the
 * recovered text (new string, length in *out_n; raw itself when
 * json.Unmarshal takes it, "{}" when blank), or NULL when no attempt
 * gives JSON (Go's ok == false). */
char *pc__chatcli_normalize(const char *tool, size_t tool_len,
			    const char *raw, size_t n, size_t *out_n);

/* --- delivery (pc_chatcli_exec.c) ------------------------------------- */

struct pc_chatcli_call;
struct pc_chatcli_compress_env;

/* pc__chatcli_deliver - what the host's agent loop does to a result
 * before the model sees it (O1): nothing for an error; for a success,
 * compression (by the call's name tool[0..tool_len)) then truncation of
 * c->output, noting the compressor in *c. */
void pc__chatcli_deliver(const char *tool, size_t tool_len,
			 const struct pc_chatcli_compress_env *env,
			 struct pc_chatcli_call *c);

#endif

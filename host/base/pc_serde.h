/* pc_serde.h - JSON with serde_json's semantics, on cJSON values.
 *
 * The Catalyst Code host is written in Rust and reads and writes JSON with
 * serde_json 1.0.150 (spec catalyst-code.md §0). Plugin authors need
 * plugcheck to accept, reject and print exactly what the host would, so
 * this module reproduces serde_json instead of using cJSON's parser:
 *
 *   - pc_serde_parse(): `serde_json::from_str::<Value>` - the whole text is
 *     one value; duplicate object keys keep the LAST value; a BOM, a second
 *     document or trailing text is an error; nesting deeper than 128 is
 *     "recursion limit exceeded"; error texts are serde's Display form,
 *     e.g. "expected value at line 1 column 1" (spec R4.3.8).
 *   - pc_serde_decode(): `serde_json::from_str::<T>` for a `#[derive(
 *     Deserialize)]` struct T described by a static shape table - serde
 *     derive's errors ("missing field `name`", "invalid type: integer `5`,
 *     expected a string", "duplicate field `name`", ...) at serde's line
 *     and column (spec R2.1, R2.3, R2.4).
 *   - pc_serde_print(): `serde_json::to_vec` of a Value - compact, object
 *     keys in byte-lexicographic order (serde_json without preserve_order),
 *     raw UTF-8, serde's string escapes and number formatting (§0).
 *
 * Numbers: every number node that pc_serde_parse() or pc_serde_decode()
 * creates is a cJSON number whose `valuedouble` is its f64 value and whose
 * `valuestring` holds the exact text serde_json would print for it
 * ("18446744073709551615", "-5", "1.5", "1e+20", "-0.0"), so u64/i64 values
 * round-trip without loss. Number nodes built elsewhere (valuestring NULL)
 * print as integers when integral and within +/-2^53, else as serde floats.
 *
 * Strings: cJSON strings end at NUL, so a U+0000 in a parsed string or key
 * ("\u0000") is stored as the two bytes C0 80 (Java's modified UTF-8);
 * pc_serde_print() writes C0 80 back as \u0000 and sorts it as U+0000.
 * Parsed text is otherwise copied byte for byte (invalid UTF-8, which the
 * host never passes to serde_json, is not checked).
 *
 * Ownership: every cJSON tree returned is new; the caller frees it with
 * cJSON_Delete() (number nodes' `valuestring` comes from malloc, so cJSON
 * must keep its default allocator hooks). Input text is borrowed and need
 * not be NUL-terminated.
 * Nothing here prints, exits, or keeps global state.
 */
#ifndef PC_SERDE_H
#define PC_SERDE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_err.h"

/* pc_serde_parse - parse `len` bytes of `text` as one serde_json::Value.
 * On success stores a new tree in *out and returns 0. On failure returns
 * PC_EPARSE, leaves *out NULL, and puts serde's exact error Display text
 * (e.g. "trailing characters at line 1 column 12") in err->msg. */
int pc_serde_parse(const char *text, size_t len, cJSON **out,
		   struct pc_err *err);

/* The shapes of serde-derived Rust types that pc_serde_decode() knows. */
enum pc_serde_kind {
	PC_SERDE_STRING,      /* String */
	PC_SERDE_BOOL,	      /* bool */
	PC_SERDE_U64,	      /* u64 */
	PC_SERDE_U32,	      /* u32 */
	PC_SERDE_VALUE,	      /* serde_json::Value (anything, null included) */
	PC_SERDE_SEQ,	      /* Vec<elem> */
	PC_SERDE_MAP,	      /* HashMap<String, elem>: repeated key keeps last */
	PC_SERDE_STRUCT,      /* #[derive(Deserialize)] struct */
	PC_SERDE_TUPLE_STR2,  /* (String, String) */
};

struct pc_serde_field;

struct pc_serde_shape {
	enum pc_serde_kind kind;
	bool option;				 /* Option<T>: null means absent */
	const struct pc_serde_shape *elem;	 /* SEQ and MAP elements */
	const char *name;			 /* STRUCT: Rust type name */
	const struct pc_serde_field *fields;	 /* STRUCT: in declaration order */
	size_t nfields;
};

struct pc_serde_field {
	const char *name;		    /* JSON key (after serde rename) */
	const struct pc_serde_shape *shape;
	bool has_default;		    /* #[serde(default)]: may be absent */
};

/* pc_serde_decode - deserialize `text` as the type `shape` describes,
 * reproducing serde_json + serde derive: unknown keys ignored, missing
 * required field, duplicate field, invalid type/value/length, trailing
 * characters, each with serde's message and position.
 *
 * On success *out is a new tree mirroring the input: a STRUCT becomes an
 * object holding only the fields present in the text (an Option field
 * whose value is null is left out; defaults are NOT filled in - the caller
 * applies them); a MAP becomes an object with unique keys (last wins);
 * a SEQ an array; TUPLE_STR2 an array of two strings; VALUE the value as
 * pc_serde_parse() would build it. A STRUCT given as a JSON array (serde
 * derive's visit_seq) also becomes an object keyed by field name; an
 * Option element or map value that is null stays null; a top-level Option
 * that is null gives a null node. Returns 0.
 * On failure returns PC_EPARSE with serde's Display text in err->msg,
 * *out NULL. */
int pc_serde_decode(const char *text, size_t len,
		    const struct pc_serde_shape *shape, cJSON **out,
		    struct pc_err *err);

/* pc_serde_decode_buf - as pc_serde_decode, and on failure also appends
 * serde's whole Display text to `msg` (when not NULL): err->msg holds at
 * most 1023 bytes, and "invalid type: string \"...\"" quotes the whole
 * offending string. */
int pc_serde_decode_buf(const char *text, size_t len,
			const struct pc_serde_shape *shape, cJSON **out,
			struct pc_err *err, struct pc_buf *msg);

/* The host's `PluginManifest` (core/src/plugins.rs 433-601) with all its
 * nested structs, for pc_serde_decode(): exactly what
 * `serde_json::from_str::<PluginManifest>` accepts and rejects, before
 * any of the host's own validation. */
extern const struct pc_serde_shape pc_serde_plugin_manifest;

/* pc_serde_print - append `v` to `out` as serde_json::to_vec would print
 * it (compact, sorted keys, no trailing newline). Returns 0, or PC_EFBIG
 * when `out` would pass its cap (contents then undefined but valid). */
int pc_serde_print(const cJSON *v, struct pc_buf *out);

/* pc_serde_to_string - pc_serde_print into a new string (uncapped);
 * caller frees with free(). */
char *pc_serde_to_string(const cJSON *v);

/* pc_serde_print_pretty - as serde_json::to_string_pretty: two-space
 * indent, sorted keys, `"key": value`. Returns 0 or PC_EFBIG. */
int pc_serde_print_pretty(const cJSON *v, struct pc_buf *out);

/* pc_serde_number_u64 - build a number node for `n` that prints exactly
 * (valuestring set). Returns new node, caller owns. */
cJSON *pc_serde_number_u64(unsigned long long n);

/* ---- host text: Rust Strings that may hold U+0000 ----
 *
 * Every piece of text the reference host hands out - results (reasons,
 * outputs, messages), log lines, event texts, cJSON strings - is a Rust
 * String in the stored form above: valid UTF-8 in which U+0000 is the two
 * bytes C0 80. Valid UTF-8 never holds C0 80, so the form is a lossless
 * encoding of (bytes, length) that survives every C-string step (strlen,
 * %s, strdup, cJSON). Convert at the edges: raw bytes in with
 * pc_serde_text_add / pc_serde_text_new / pc_serde_string_n; raw bytes out
 * with pc_serde_text_raw before a byte count, a Rust {:?} or a write. A NUL
 * the plugin wrote thus reaches the host's messages and plugcheck's output
 * whole (spec R4.3.6, R6.2, R5.12). Raw OS paths are not host text. */

/* pc_serde_text_add - append the `n` raw bytes of `bytes` to `out` in the
 * stored form (each NUL as C0 80; other bytes unchanged). Returns 0 or
 * PC_EFBIG from the buffer (contents then as pc_buf_add leaves them). */
int pc_serde_text_add(struct pc_buf *out, const char *bytes, size_t n);
/* pc_serde_text_new - the `n` raw bytes of `bytes` in the stored form, as
 * a new string; caller frees. */
char *pc_serde_text_new(const char *bytes, size_t n);
/* pc_serde_string_n - a new cJSON string node holding the `n` raw bytes
 * of `bytes` (a NUL included, stored as C0 80); caller owns. */
cJSON *pc_serde_string_n(const char *bytes, size_t n);
/* pc_serde_text_raw - append the raw bytes of the stored-form `text` to
 * `out` (each C0 80 as one NUL). Returns 0 or PC_EFBIG. */
int pc_serde_text_raw(struct pc_buf *out, const char *text);
/* pc_serde_text_cmp - Rust's String order (byte-wise on the raw bytes,
 * so U+0000 sorts first) of two stored-form texts: <0, 0, >0. */
int pc_serde_text_cmp(const char *a, const char *b);
/* pc_serde_text_len - the raw byte length of the stored-form `text`: what
 * Rust's str::len() says (C0 80 counts 1). */
size_t pc_serde_text_len(const char *text);

/* pc_serde_get - the value of key `key` in object `obj` (case-sensitive),
 * or NULL when `obj` is not an object or lacks the key. Borrowed. */
const cJSON *pc_serde_get(const cJSON *obj, const char *key);

#endif

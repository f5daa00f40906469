/* pc_serde_impl.h - private to the pc_serde module (pc_serde*.c only).
 *
 * struct pc__serde_de is serde_json's `Deserializer<StrRead>`: a byte
 * slice, an index, the recursion budget and a scratch buffer. Every
 * function that can fail returns 0 or -1; on -1 the error is recorded in
 * the deserializer. The FIRST recorded error wins: serde_json sometimes
 * runs `end_seq`/`end_map` after its visitor already failed and then
 * returns the visitor's error, and the setters below make that automatic.
 *
 * An error is either positioned (serde_json's Error::syntax, or a custom
 * error whose position fix_position() filled in) or not (line 0). Its
 * Display text is "<msg> at line <L> column <C>", or "<msg>" for line 0.
 */
#ifndef PC_SERDE_IMPL_H
#define PC_SERDE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_err.h"

/* serde_json ErrorCode Display texts (error.rs). */
#define PC__SERDE_EOF_LIST   "EOF while parsing a list"
#define PC__SERDE_EOF_OBJECT "EOF while parsing an object"
#define PC__SERDE_EOF_STRING "EOF while parsing a string"
#define PC__SERDE_EOF_VALUE  "EOF while parsing a value"
#define PC__SERDE_COLON	     "expected `:`"
#define PC__SERDE_LIST_END   "expected `,` or `]`"
#define PC__SERDE_OBJ_END    "expected `,` or `}`"
#define PC__SERDE_IDENT	     "expected ident"
#define PC__SERDE_VALUE	     "expected value"
#define PC__SERDE_ESCAPE     "invalid escape"
#define PC__SERDE_NUMBER     "invalid number"
#define PC__SERDE_RANGE	     "number out of range"
#define PC__SERDE_CONTROL \
	"control character (\\u0000-\\u001F) found while parsing a string"
#define PC__SERDE_KEY_STRING  "key must be a string"
#define PC__SERDE_LONE	      "lone leading surrogate in hex escape"
#define PC__SERDE_TRAIL_COMMA "trailing comma"
#define PC__SERDE_TRAILING    "trailing characters"
#define PC__SERDE_HEX_END     "unexpected end of hex escape"
#define PC__SERDE_RECURSION   "recursion limit exceeded"

/* serde_json's Deserializer::remaining_depth at the start. */
#define PC__SERDE_DEPTH 128

struct pc__serde_de {
	const unsigned char *s;
	size_t len;
	size_t i;	       /* SliceRead::index */
	unsigned depth;	       /* remaining_depth */
	struct pc_buf scratch; /* the unescaped bytes of the last string */
	bool failed;	       /* an error is recorded */
	bool positioned;       /* false: serde_json's line 0 */
	size_t line;
	size_t col;
	struct pc_buf msg; /* the error text, without the position */
};

/* serde_json's ParserNumber. */
enum pc__serde_numkind {
	PC__SERDE_U64,
	PC__SERDE_I64,
	PC__SERDE_F64,
};

struct pc__serde_num {
	enum pc__serde_numkind kind;
	uint64_t u;
	int64_t i;
	double f;
};

/* serde::de::Unexpected, the variants JSON can produce. */
enum pc__serde_unexp_kind {
	PC__SERDE_UNEXP_BOOL,
	PC__SERDE_UNEXP_NUM,
	PC__SERDE_UNEXP_STR,
	PC__SERDE_UNEXP_UNIT,
	PC__SERDE_UNEXP_SEQ,
	PC__SERDE_UNEXP_MAP,
};

struct pc__serde_unexp {
	enum pc__serde_unexp_kind kind;
	bool b;
	struct pc__serde_num num;
	const unsigned char *s; /* STR: borrowed bytes */
	size_t n;
};

/* Lifecycle and error reporting (pc_serde.c). */
void pc__serde_de_init(struct pc__serde_de *de, const char *text, size_t len);
void pc__serde_de_release(struct pc__serde_de *de);
int pc__serde_error(struct pc__serde_de *de, const char *code);
int pc__serde_peek_error(struct pc__serde_de *de, const char *code);
int pc__serde_custom(struct pc__serde_de *de, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int pc__serde_invalid(struct pc__serde_de *de, const char *what,
		      const struct pc__serde_unexp *u, const char *exp);
void pc__serde_fix_position(struct pc__serde_de *de);
int pc__serde_report(struct pc__serde_de *de, struct pc_err *err,
		     struct pc_buf *full);

/* Reading (pc_serde.c), each as serde_json's method of the same name. */
int pc__serde_whitespace(struct pc__serde_de *de);
int pc__serde_parse_ident(struct pc__serde_de *de, const char *rest);
int pc__serde_parse_integer(struct pc__serde_de *de, bool positive,
			    struct pc__serde_num *n);
int pc__serde_parse_str(struct pc__serde_de *de);
int pc__serde_ignore_value(struct pc__serde_de *de);
int pc__serde_peek_invalid_type(struct pc__serde_de *de, const char *exp);
int pc__serde_object_colon(struct pc__serde_de *de);
int pc__serde_end_seq(struct pc__serde_de *de);
int pc__serde_end_map(struct pc__serde_de *de);
int pc__serde_end(struct pc__serde_de *de);
int pc__serde_next_element(struct pc__serde_de *de, bool *first);
int pc__serde_next_key(struct pc__serde_de *de, bool *first);
int pc__serde_enter(struct pc__serde_de *de);
int pc__serde_value(struct pc__serde_de *de, cJSON **out);

/* Tree building (pc_serde.c). */
cJSON *pc__serde_new_string(const unsigned char *s, size_t n);
cJSON *pc__serde_new_number(const struct pc__serde_num *n);
cJSON *pc__serde_must(cJSON *item);
void pc__serde_add_member(cJSON *obj, const unsigned char *key, size_t n,
			  cJSON *item);
void pc__serde_sort_object(cJSON *obj);
int pc__serde_key_cmp(const char *a, const char *b);

/* Formatting (pc_serde_print.c, pc_serde_unicode.c). */
size_t pc__serde_fmt_f64(double v, char *buf, size_t size);
void pc__serde_debug_str(struct pc_buf *b, const unsigned char *s, size_t n);

#endif

/* pc_schema_impl.h - private to conformance/schema/: the evaluation
 * context the four pc_schema_* entry points share, and the helpers the
 * files of the module call across each other. No other folder includes
 * this header.
 *
 * Every walk over a schema carries a depth (the number of subschemas
 * entered, `$ref` hops included) and charges one step per node to a
 * budget kept in the context, so hostile schemas - deep nesting, `$ref`
 * loops, exponential anyOf trees over `$defs` - end with a message
 * instead of a crash or a hang.
 */
#ifndef PC_SCHEMA_IMPL_H
#define PC_SCHEMA_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"

/* Deepest schema nesting walked; deeper gives PC__SCHEMA_DEPTH_MSG. */
#define PC__SCHEMA_MAX_DEPTH 64
#define PC__SCHEMA_DEPTH_MSG "schema nesting exceeds 64 levels"
/* Evaluation steps one public call may spend. */
#define PC__SCHEMA_MAX_STEPS 1000000
/* Largest minLength / minItems the generators will build up to. */
#define PC__SCHEMA_MAX_BUILD 4096
/* Merged schema views one public call may build. */
#define PC__SCHEMA_MAX_VIEWS 20000

/* JSON Schema type names as a bit set; INTEGER is a subset of NUMBER. */
enum pc__schema_type {
	PC__T_NULL = 1 << 0,
	PC__T_BOOLEAN = 1 << 1,
	PC__T_OBJECT = 1 << 2,
	PC__T_ARRAY = 1 << 3,
	PC__T_NUMBER = 1 << 4,
	PC__T_STRING = 1 << 5,
	PC__T_INTEGER = 1 << 6,
};

struct pc__schema_re; /* regex cache, defined in pc_schema_regex.c */

struct pc__schema_ctx {
	const cJSON *root;	  /* borrowed: resolves local $ref */
	size_t steps;		  /* spent from PC__SCHEMA_MAX_STEPS */
	bool exhausted;		  /* the budget ran out */
	int quiet;		  /* > 0: validation records no message */
	struct pc_buf ptr;	  /* JSON pointer of the value being checked */
	char *why;		  /* first violation, "<pointer>: <text>" */
	size_t why_text;	  /* offset of <text> in why */
	struct pc__schema_re *re; /* compiled patterns of this call */
	cJSON *keep;		  /* owns every view made during the call */
	/* $ref targets being generated; a nested one is built minimally */
	const cJSON *expanding[PC__SCHEMA_MAX_DEPTH + 1];
	size_t nexpanding;
	size_t nviews; /* views made, at most PC__SCHEMA_MAX_VIEWS */
};

/* Lifecycle of the context; release frees `why` and the regex cache. */
void pc__schema_ctx_init(struct pc__schema_ctx *c, const cJSON *root);
void pc__schema_ctx_release(struct pc__schema_ctx *c);
/* Charge one step; false once the budget is spent. */
bool pc__schema_step(struct pc__schema_ctx *c);

/* JSON pointer building on a pc_buf: push returns the length to pop to. */
size_t pc__schema_ptr_push(struct pc_buf *b, const char *token);
size_t pc__schema_ptr_push_index(struct pc_buf *b, size_t i);
void pc__schema_ptr_pop(struct pc_buf *b, size_t len);
/* The pointer as messages print it: "(root)" for the empty pointer. */
const char *pc__schema_ptr_str(const struct pc_buf *b);

/* Types: the bit of one name (0 when unknown), the set a `type` keyword
 * allows (0 when absent or unusable), the type of a value, and the
 * names of a set ("string or null"). */
unsigned pc__schema_type_bit(const char *name);
unsigned pc__schema_type_mask(const cJSON *schema);
unsigned pc__schema_value_type(const cJSON *v);
bool pc__schema_type_allows(unsigned mask, const cJSON *v);
void pc__schema_type_names(unsigned mask, struct pc_buf *out);
const char *pc__schema_type_name(unsigned bit);

/* Values: integral finite numbers, bounded JSON equality, and a short
 * printed form for messages (new string, caller frees). */
bool pc__schema_is_integral(double d);
bool pc__schema_equal(const cJSON *a, const cJSON *b);
char *pc__schema_render(const cJSON *v);
/* Length of a UTF-8 string in code points. */
size_t pc__schema_strlen(const char *s);
/* The number a keyword holds, when it is a number. */
bool pc__schema_num(const cJSON *schema, const char *kw, double *out);
/* A count keyword (non-negative integer), when it is one. */
bool pc__schema_count(const cJSON *schema, const char *kw, double *out);

/* Schemas: false allows nothing; anything else but an object allows
 * everything (the problems pass reports it). */
bool pc__schema_is_false(const cJSON *schema);

/* $ref: 1 and *target for a local "#/$defs/x" or "#/definitions/x" that
 * resolves, 0 when the schema has no $ref, -1 for an unsupported form,
 * -2 for a local ref that does not resolve. */
int pc__schema_ref(const struct pc__schema_ctx *c, const cJSON *schema,
		   const cJSON **target);

/* Views: an object holding references to `a`'s members except `skip`,
 * with `b`'s members merged in (properties and required united, type
 * sets intersected, the stricter bound kept, annotations of `a` kept).
 * NULL when a keyword conflicts, `b` is false, or the view budget is
 * spent. `b` may be NULL. The view belongs to `c` (freed by release),
 * because views reference nodes of earlier views. */
const cJSON *pc__schema_merge(struct pc__schema_ctx *c, const cJSON *a,
			      const char *skip, const cJSON *b);
/* `schema` with its resolvable $ref and its allOf folded in: `schema`
 * itself when it has neither, else a view; NULL when that fails. */
const cJSON *pc__schema_flatten(struct pc__schema_ctx *c, const cJSON *schema,
				int depth);

/* Validation (pc_schema_validate.c): true when `v` satisfies `schema`.
 * On false, records c->why unless c->quiet. c->ptr is the value's
 * pointer on entry and is restored on return. */
bool pc__schema_check(struct pc__schema_ctx *c, const cJSON *schema,
		      const cJSON *v, int depth);
/* Quiet validation of `v` against `schema` from depth 0. */
bool pc__schema_accepts(struct pc__schema_ctx *c, const cJSON *schema,
			const cJSON *v);

/* Generation (pc_schema_gen.c): a new value for `schema`, or NULL. */
cJSON *pc__schema_gen(struct pc__schema_ctx *c, const cJSON *schema, bool full,
		      int depth);

/* Regexes (pc_schema_regex.c, the only file that sees PCRE2):
 * match returns 1 on a match, 0 on none, -1 when the pattern does not
 * compile, -2 when matching hit PCRE2's limits. check returns 0 when the
 * pattern compiles, else -1 with the reason in `msg`. */
int pc__schema_re_match(struct pc__schema_ctx *c, const char *pattern,
			const char *subject);
int pc__schema_re_check(const char *pattern, struct pc_buf *msg);
void pc__schema_re_free(struct pc__schema_re *re);

/* Put `item` under `key` in `obj`, consuming `item` even on failure. */
bool pc__schema_put(cJSON *obj, const char *key, cJSON *item);

#endif

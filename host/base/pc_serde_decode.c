/* pc_serde_decode.c - serde_json::from_str::<T> for #[derive(Deserialize)]
 * types described by a struct pc_serde_shape.
 *
 * Each function is the serde_json Deserializer method that T's
 * Deserialize impl calls (deserialize_str, deserialize_bool,
 * deserialize_number, deserialize_seq, deserialize_map,
 * deserialize_struct, deserialize_option) together with the visitor that
 * serde (serde_core/src/de/impls.rs) or serde_derive (de/struct_.rs)
 * supplies. Errors a visitor raises have no position until the innermost
 * deserialize_* method calls fix_position, after end_seq/end_map ran.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"
#include "pc_serde_impl.h"
#include "pc_xalloc.h"

static int de_shape(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		    cJSON **out);

/* Each visitor's `expecting` text. */
static const char *expecting(const struct pc_serde_shape *sh, char *buf,
			     size_t size)
{
	switch (sh->kind) {
	case PC_SERDE_STRING:
		return "a string";
	case PC_SERDE_BOOL:
		return "a boolean";
	case PC_SERDE_U64:
		return "u64";
	case PC_SERDE_U32:
		return "u32";
	case PC_SERDE_SEQ:
		return "a sequence";
	case PC_SERDE_MAP:
		return "a map";
	case PC_SERDE_TUPLE_STR2:
		return "a tuple of size 2";
	case PC_SERDE_STRUCT:
		snprintf(buf, size, "struct %s", sh->name ? sh->name : "");
		return buf;
	case PC_SERDE_VALUE:
		break;
	}
	return "any valid JSON value";
}

/* The byte that starts a value, or EOF while parsing a value. */
static int start(struct pc__serde_de *de)
{
	int c = pc__serde_whitespace(de);

	if (c < 0)
		pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
	return c;
}

/* deserialize_str with String's visitor. */
static int de_string(struct pc__serde_de *de, cJSON **out)
{
	int c = start(de);

	if (c < 0)
		return -1;
	if (c != '"')
		return pc__serde_peek_invalid_type(de, "a string");
	de->i++;
	if (pc__serde_parse_str(de) < 0)
		return -1;
	*out = pc__serde_new_string(
		(const unsigned char *)pc_buf_cstr(&de->scratch),
		de->scratch.len);
	return 0;
}

/* deserialize_bool with bool's visitor. */
static int de_bool(struct pc__serde_de *de, cJSON **out)
{
	int c = start(de);

	if (c < 0)
		return -1;
	if (c != 't' && c != 'f')
		return pc__serde_peek_invalid_type(de, "a boolean");
	de->i++;
	if (pc__serde_parse_ident(de, c == 't' ? "rue" : "alse") < 0)
		return -1;
	*out = pc__serde_must(cJSON_CreateBool(c == 't'));
	return 0;
}

/* deserialize_number with u64's or u32's PrimitiveVisitor: visit_u64
 * (u32 range check), visit_i64 (int_to_uint: every I64 is negative) and
 * the default visit_f64 (invalid type). */
static int de_number(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		     cJSON **out)
{
	const char *exp = sh->kind == PC_SERDE_U32 ? "u32" : "u64";
	struct pc__serde_unexp u = { .kind = PC__SERDE_UNEXP_NUM };
	int c = start(de);

	if (c < 0)
		return -1;
	if (c != '-' && !(c >= '0' && c <= '9'))
		return pc__serde_peek_invalid_type(de, exp);
	de->i += c == '-';
	if (pc__serde_parse_integer(de, c != '-', &u.num) < 0)
		return -1;
	if (u.num.kind == PC__SERDE_F64)
		pc__serde_invalid(de, "type", &u, exp);
	else if (u.num.kind == PC__SERDE_I64 ||
		 (sh->kind == PC_SERDE_U32 && u.num.u > UINT32_MAX))
		pc__serde_invalid(de, "value", &u, exp);
	if (de->failed) {
		pc__serde_fix_position(de);
		return -1;
	}
	*out = pc__serde_new_number(&u.num);
	return 0;
}

/* A Some(None) element or value is kept as null in arrays and maps. */
static cJSON *or_null(cJSON *item)
{
	return item ? item : pc__serde_must(cJSON_CreateNull());
}

/* VecVisitor::visit_seq, or the (String, String) TupleVisitor's. */
static void visit_seq(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		      cJSON *arr)
{
	bool first = true;
	size_t k;
	cJSON *item;

	for (k = 0; sh->kind == PC_SERDE_SEQ || k < 2; k++) {
		int r = pc__serde_next_element(de, &first);

		if (r < 0)
			return;
		if (r == 0) {
			if (sh->kind == PC_SERDE_TUPLE_STR2)
				pc__serde_custom(de,
						 "invalid length %zu, "
						 "expected a tuple of size 2",
						 k);
			return;
		}
		if (sh->kind == PC_SERDE_SEQ)
			r = de_shape(de, sh->elem, &item);
		else
			r = de_string(de, &item);
		if (r < 0)
			return;
		cJSON_AddItemToArray(arr, or_null(item));
	}
}

/* HashMap's MapVisitor::visit_map: String keys (MapKey parse_str); a
 * repeated key keeps the last value. */
static void visit_map(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		      cJSON *obj)
{
	bool first = true;
	cJSON *item;
	char *key;
	size_t n;

	while (pc__serde_next_key(de, &first) > 0) {
		de->i++;
		if (pc__serde_parse_str(de) < 0)
			return;
		n = de->scratch.len;
		key = pc_xmemdup(pc_buf_cstr(&de->scratch), n);
		if (pc__serde_object_colon(de) < 0 ||
		    de_shape(de, sh->elem, &item) < 0) {
			free(key);
			return;
		}
		pc__serde_add_member(obj, (const unsigned char *)key, n,
				     or_null(item));
		free(key);
	}
}

static int field_index(const struct pc_serde_shape *sh,
		       const struct pc_buf *key)
{
	size_t k;

	for (k = 0; k < sh->nfields; k++) {
		const char *name = sh->fields[k].name;

		if (strlen(name) == key->len &&
		    !memcmp(name, pc_buf_cstr(key), key->len))
			return (int)k;
	}
	return -1;
}

/* One key of the derived visit_map: unknown keys are IgnoredAny, a
 * second occurrence (even after null) is a duplicate field, checked
 * before the ':' is read. */
static int struct_entry(struct pc__serde_de *de,
			const struct pc_serde_shape *sh, bool *seen, cJSON *obj)
{
	const struct pc_serde_field *f;
	cJSON *item;
	int k;

	de->i++;
	if (pc__serde_parse_str(de) < 0)
		return -1;
	k = field_index(sh, &de->scratch);
	if (k < 0) {
		if (pc__serde_object_colon(de) < 0)
			return -1;
		return pc__serde_ignore_value(de);
	}
	f = &sh->fields[k];
	if (seen[k])
		return pc__serde_custom(de, "duplicate field `%s`", f->name);
	if (pc__serde_object_colon(de) < 0 || de_shape(de, f->shape, &item) < 0)
		return -1;
	seen[k] = true;
	if (item)
		pc__serde_add_member(obj, (const unsigned char *)f->name,
				     strlen(f->name), item);
	return 0;
}

/* The derived visit_map; then missing_field() for each absent field in
 * declaration order (an Option without default is None, not missing). */
static void struct_map(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		       cJSON *obj)
{
	bool *seen = pc_xcalloc(sh->nfields, sizeof(*seen));
	bool first = true;
	size_t k;

	while (pc__serde_next_key(de, &first) > 0) {
		if (struct_entry(de, sh, seen, obj) < 0)
			break;
	}
	for (k = 0; !de->failed && k < sh->nfields; k++) {
		const struct pc_serde_field *f = &sh->fields[k];

		if (!seen[k] && !f->has_default && !f->shape->option)
			pc__serde_custom(de, "missing field `%s`", f->name);
	}
	free(seen);
}

/* The derived visit_seq: fields in order; a missing element is the
 * default when the field has #[serde(default)], else invalid length. */
static void struct_seq(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		       cJSON *obj)
{
	bool first = true;
	size_t k;
	cJSON *item;

	for (k = 0; k < sh->nfields; k++) {
		const struct pc_serde_field *f = &sh->fields[k];
		int r = pc__serde_next_element(de, &first);

		if (r < 0)
			return;
		if (r == 0 && f->has_default)
			continue;
		if (r == 0) {
			pc__serde_custom(de,
					 "invalid length %zu, expected "
					 "struct %s with %zu elements",
					 k, sh->name, sh->nfields);
			return;
		}
		if (de_shape(de, f->shape, &item) < 0)
			return;
		if (item)
			pc__serde_add_member(obj,
					     (const unsigned char *)f->name,
					     strlen(f->name), item);
	}
}

/* deserialize_seq / deserialize_map / deserialize_struct around one
 * visitor: check_recursion!, the visitor, end_seq or end_map (also after
 * a failed visitor), fix_position. */
static int nested(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		  int c, cJSON **out)
{
	cJSON *v;

	if (pc__serde_enter(de) < 0)
		return -1;
	de->i++;
	v = pc__serde_must(c == '[' && sh->kind != PC_SERDE_STRUCT
				   ? cJSON_CreateArray()
				   : cJSON_CreateObject());
	if (sh->kind == PC_SERDE_STRUCT && c == '[')
		struct_seq(de, sh, v);
	else if (sh->kind == PC_SERDE_STRUCT)
		struct_map(de, sh, v);
	else if (c == '[')
		visit_seq(de, sh, v);
	else
		visit_map(de, sh, v);
	de->depth++;
	if (c == '[')
		(void)pc__serde_end_seq(de);
	else
		(void)pc__serde_end_map(de);
	if (de->failed) {
		cJSON_Delete(v);
		pc__serde_fix_position(de);
		return -1;
	}
	if (cJSON_IsObject(v))
		pc__serde_sort_object(v);
	*out = v;
	return 0;
}

static int de_nested(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		     cJSON **out)
{
	char buf[160];
	int c = start(de);

	if (c < 0)
		return -1;
	if ((c == '[' && sh->kind != PC_SERDE_MAP) ||
	    (c == '{' &&
	     (sh->kind == PC_SERDE_MAP || sh->kind == PC_SERDE_STRUCT)))
		return nested(de, sh, c, out);
	return pc__serde_peek_invalid_type(de, expecting(sh, buf, sizeof(buf)));
}

/* T::deserialize for the shape; Option<T> is deserialize_option: null
 * is None (*out stays NULL), anything else is T. */
static int de_shape(struct pc__serde_de *de, const struct pc_serde_shape *sh,
		    cJSON **out)
{
	*out = NULL;
	if (sh->option && pc__serde_whitespace(de) == 'n') {
		de->i++;
		return pc__serde_parse_ident(de, "ull");
	}
	switch (sh->kind) {
	case PC_SERDE_STRING:
		return de_string(de, out);
	case PC_SERDE_BOOL:
		return de_bool(de, out);
	case PC_SERDE_U64:
	case PC_SERDE_U32:
		return de_number(de, sh, out);
	case PC_SERDE_VALUE:
		return pc__serde_value(de, out);
	case PC_SERDE_SEQ:
	case PC_SERDE_MAP:
	case PC_SERDE_STRUCT:
	case PC_SERDE_TUPLE_STR2:
		return de_nested(de, sh, out);
	}
	return pc__serde_custom(de, "unknown shape");
}

int pc_serde_decode_buf(const char *text, size_t len,
			const struct pc_serde_shape *sh, cJSON **out,
			struct pc_err *err, struct pc_buf *msg)
{
	struct pc__serde_de de;
	cJSON *v = NULL;
	int rc = 0;

	*out = NULL;
	pc__serde_de_init(&de, text, len);
	if (de_shape(&de, sh, &v) < 0 || pc__serde_end(&de) < 0) {
		cJSON_Delete(v);
		rc = pc__serde_report(&de, err, msg);
	} else {
		*out = v ? v : pc__serde_must(cJSON_CreateNull());
	}
	pc__serde_de_release(&de);
	return rc;
}

int pc_serde_decode(const char *text, size_t len,
		    const struct pc_serde_shape *shape, cJSON **out,
		    struct pc_err *err)
{
	return pc_serde_decode_buf(text, len, shape, out, err, NULL);
}

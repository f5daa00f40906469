/* pc_schema.h - JSON Schema as plugin tools use it: is a tool's
 * `parameters` a usable schema, and what arguments may a model send.
 *
 * The Catalyst Code host passes a tool's `parameters` object to the model
 * verbatim and never validates it (spec §2.4); models then build calls
 * from it. plugcheck checks the schema (draft 2020-12 and draft-07
 * keywords as OpenAI-style function calling uses them: type, properties,
 * required, items, enum, const, minimum/maximum, exclusiveMinimum/Maximum,
 * minLength/maxLength, pattern, minItems/maxItems, additionalProperties,
 * oneOf/anyOf/allOf, default, description, format) and generates
 * deterministic arguments from it.
 *
 * Ownership: every cJSON returned is new (caller deletes); inputs are
 * borrowed. Nothing prints or exits. Deterministic: the same schema gives
 * the same values every run.
 *
 * Also understood: prefixItems (and draft-07 array-form items),
 * uniqueItems, minProperties/maxProperties, patternProperties, not,
 * $defs/definitions. `format`, `default`, `description`, `title` are
 * annotations: never used to reject a value. Other keywords are ignored.
 *
 * $ref: only "#/$defs/NAME" and "#/definitions/NAME" (one pointer token,
 * resolved against the schema given to the call). In 2020-12 style, the
 * keywords next to a $ref apply too. Any other $ref is an unknown
 * keyword: ignored by validation and generation, reported by
 * pc_schema_problems() as "unsupported $ref '...'".
 *
 * `pattern` is an ECMA-262 regex searched anywhere in the string,
 * evaluated with PCRE2 (UTF, `$` only at the very end, `[^]` as any
 * character, `\uXXXX`) under a match limit; a pattern PCRE2 cannot
 * compile is a problem, and a value checked against it fails.
 *
 * Messages are "<JSON pointer>: <text>"; the empty pointer (the whole
 * schema or value) prints as "(root)". pc_schema_problems() points into
 * the schema document, pc_schema_validate() into the value.
 *
 * Limits, for hostile schemas: nesting deeper than 64 subschemas ($ref
 * hops count) stops with "schema nesting exceeds 64 levels"; one call
 * spends at most 1,000,000 evaluation steps (then validation fails with
 * "(root): schema too complex to evaluate" and generation gives NULL);
 * generators build at most 4096 characters / items / properties per
 * minLength / minItems / minProperties.
 */
#ifndef PC_SCHEMA_H
#define PC_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_strvec.h"

/* pc_schema_problems - append to `out` one message per problem that makes
 * `schema` an invalid or unusable JSON Schema for tool parameters: a
 * keyword of the wrong type ("'required' must be an array of strings"),
 * an unknown `type` name, `required` naming a property not in
 * `properties`, a `pattern` that is not a valid regex, min > max,
 * a top-level type other than "object", an `enum` that is empty. Each
 * message names the JSON pointer, e.g. "/properties/n/type: unknown type
 * 'int'". Returns the number appended.
 *
 * Also reported: duplicate `type` names and `required` entries, enum
 * values outside `type`, a `default` its own schema rejects, $ref that
 * is unsupported, unresolved or a cycle of references, bounds that leave
 * no value ('minimum' 5 is not less than 'exclusiveMaximum' 5). A
 * `required` name missing from `properties` is reported only where
 * `properties` or type "object" is declared (not in a bare allOf/anyOf
 * branch). Keywords are checked in a fixed order, so the list is stable.
 * After 200 messages one last "(root): too many problems, stopping after
 * 200" is appended and later ones are dropped. `out` NULL: returns 0. */
size_t pc_schema_problems(const cJSON *schema, struct pc_strvec *out);

/* pc_schema_valid_args - a new JSON value satisfying `schema`: every
 * required property with its minimal valid value (first enum/const
 * value, default when valid, minimum, a string of minLength matching
 * `pattern` when it is a plain literal class, first oneOf branch...).
 * `full` also fills optional properties. Returns NULL when no value can be
 * built (e.g. contradictory constraints).
 *
 * The value returned always passes pc_schema_validate(): each candidate
 * is validated and the next one tried (next enum value, next type, next
 * oneOf/anyOf branch merged with its parent, allOf merged when the
 * branches do not conflict). Choices, in order: const; the first enum
 * value the schema accepts; a valid default (with `full`, not an object
 * or empty array default);
 * else by type, in the order `type` lists them (without `type`: the types
 * the keywords imply, then string, integer, boolean, object, array, null):
 * null; false; numbers from minimum, exclusiveMinimum + 1 (integers) or
 * the middle of an exclusive range, else 0 (or the maximum when it is
 * negative), rounded to multipleOf; strings from a `format` sample
 * ("2024-01-01", "user@example.com", ...), then "a", "0" or "A" repeated
 * minLength times, then "", "a", "x", "0", "abc", "example", "a@b.c",
 * "2024-01-01", "https://example.com" - a `pattern` none of these match
 * gives NULL; arrays of minItems elements of `items` (`full`: at least
 * one when maxItems allows), alternatives tried for uniqueItems; objects
 * with the `required` properties in that order (from additionalProperties
 * when not in `properties`), `full` adding every property, then optional
 * ones and "extra1", "extra2"... up to minProperties. A $ref already being
 * expanded is built without optional parts, so recursive schemas stay
 * small. patternProperties, `not` and oneOf exclusivity are only
 * checked, not used for construction. */
cJSON *pc_schema_valid_args(const cJSON *schema, bool full);

/* pc_schema_invalid_args - append to `out` (a JSON array) up to `max`
 * argument objects a model may still send although they violate `schema`
 * (a required property missing, a property of the wrong type, a value
 * outside enum, an extra property when additionalProperties is false,
 * an empty object), each as {"why": "<what is wrong>", "args": <value>}.
 * Returns the number appended.
 *
 * Each one is the full valid arguments (pc_schema_valid_args with `full`)
 * with one change, and "why" is pc_schema_validate()'s message for it; a
 * change the schema still accepts, or arguments equal to an entry already
 * in `out`, are skipped. Order: at the top level, each required property
 * removed (in `required` order), {}, an "extra" property; then for each
 * property (recursively, and the first element of arrays): the wrong
 * type (a string holding the valid value's JSON when strings are not
 * allowed, else 42, true, [], {} or null), a value outside enum / const
 * (upper-cased, "other", the largest number + 1), one below minimum /
 * at exclusiveMinimum, above maximum / at exclusiveMaximum, off
 * multipleOf, a fraction for integers, strings one shorter than
 * minLength or longer than maxLength or missing `pattern`, arrays one
 * item short of minItems, past maxItems or with a duplicate for
 * uniqueItems, and the same object changes inside nested objects. When
 * no valid arguments can be built, only {} is tried. `out` not an array
 * or `max` 0: returns 0. */
size_t pc_schema_invalid_args(const cJSON *schema, cJSON *out, size_t max);

/* pc_schema_validate - true when `value` satisfies `schema` (the keywords
 * listed above; unknown keywords are ignored). On false, *why (may be
 * NULL) gets a new string naming the first violation with its JSON
 * pointer; caller frees.
 *
 * E.g. "/edits/1: missing required property 'new'", "/n: 0 is less than
 * minimum 1", "/mode: \"x\" is not one of [\"read\",\"write\"]". On true
 * *why is set to NULL. Integers are numbers with no fraction (1.0 is
 * one); lengths count Unicode code points; numbers compare by value.
 * A schema that is not an object or boolean accepts everything; a NULL
 * `value` is invalid ("(root): no value"). */
bool pc_schema_validate(const cJSON *schema, const cJSON *value, char **why);

#endif

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
 * 'int'". Returns the number appended. */
size_t pc_schema_problems(const cJSON *schema, struct pc_strvec *out);

/* pc_schema_valid_args - a new JSON value satisfying `schema`: every
 * required property with its minimal valid value (first enum/const
 * value, default when valid, minimum, a string of minLength matching
 * `pattern` when it is a plain literal class, first oneOf branch...).
 * `full` also fills optional properties. Returns NULL when no value can be
 * built (e.g. contradictory constraints). */
cJSON *pc_schema_valid_args(const cJSON *schema, bool full);

/* pc_schema_invalid_args - append to `out` (a JSON array) up to `max`
 * argument objects a model may still send although they violate `schema`
 * (a required property missing, a property of the wrong type, a value
 * outside enum, an extra property when additionalProperties is false,
 * an empty object), each as {"why": "<what is wrong>", "args": <value>}.
 * Returns the number appended. */
size_t pc_schema_invalid_args(const cJSON *schema, cJSON *out, size_t max);

/* pc_schema_validate - true when `value` satisfies `schema` (the keywords
 * listed above; unknown keywords are ignored). On false, *why (may be
 * NULL) gets a new string naming the first violation with its JSON
 * pointer; caller frees. */
bool pc_schema_validate(const cJSON *schema, const cJSON *value, char **why);

#endif

/* test_schema.c - pc_schema: problems of a tool's `parameters` schema,
 * valid and invalid arguments generated from it, and validation.
 *
 * Schemas are JSON text parsed with pc_serde_parse and outputs are printed
 * with pc_serde_to_string (sorted keys), so every expectation is exact.
 * Validity of the expected generated values was also checked with
 * python3-jsonschema (Draft 2020-12) while writing the tables; the
 * property tests below re-check them against pc_schema_validate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_schema.h"
#include "pc_serde.h"
#include "pc_strvec.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static cJSON *parse(const char *text)
{
	struct pc_err err = PC_ERR_INIT;
	cJSON *v = NULL;

	if (pc_serde_parse(text, strlen(text), &v, &err))
		fail_msg("cannot parse %s: %s", text, err.msg);
	return v;
}

/* `want` is every message, in order, joined by newlines. */
struct problem_case {
	const char *schema;
	const char *want;
};

static const struct problem_case problem_cases[] = {
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"description\":\"file to read\"},\"limit\":{\"type\":\"integer\","
	  "\"minimum\":1,\"default\":10}},\"required\":[\"path\"],"
	  "\"additionalProperties\":false}",
	  "" },
	{ "[]", "(root): schema must be an object" },
	{ "true", "(root): schema must be an object" },
	{ "{\"properties\":{}}",
	  "(root): top-level 'type' is missing, must be 'object'" },
	{ "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
	  "/type: top-level type must be 'object'" },
	/* the host sends parameters verbatim: it must be one object type */
	{ "{\"type\":[\"object\",\"null\"]}",
	  "/type: top-level type must be 'object'" },
	{ "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"int\"}}}",
	  "/properties/n/type: unknown type 'int'" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\","
	  "\"string\",3,\"float\"]},\"b\":{\"type\":[]},\"c\":{\"type\":7}}}",
	  "/properties/a/type/1: duplicate type 'string'\n"
	  "/properties/a/type/2: type names must be strings\n"
	  "/properties/a/type/3: unknown type 'float'\n"
	  "/properties/b/type: 'type' must be a string or a non-empty array of strings\n"
	  "/properties/c/type: 'type' must be a string or a non-empty array of strings" },
	{ "{\"type\":\"object\",\"properties\":[]}",
	  "/properties: 'properties' must be an object" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":5,\"b\":true,"
	  "\"c\":false,\"d\":null}}",
	  "/properties/a: schema must be an object or a boolean\n"
	  "/properties/d: schema must be an object or a boolean" },
	{ "{\"type\":\"object\",\"required\":\"path\"}",
	  "/required: 'required' must be an array of strings" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{}},\"required\":[\"a\","
	  "1]}",
	  "/required: 'required' must be an array of strings" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{},\"b\":{}},"
	  "\"required\":[\"a\",\"x\",\"a\",\"b\"]}",
	  "/required/1: required property 'x' is not in 'properties'\n"
	  "/required/2: duplicate required property 'a'" },
	{ "{\"type\":\"object\",\"required\":[\"a\"]}",
	  "/required/0: required property 'a' is not in 'properties'" },
	/* a bare anyOf branch may require what the parent declares */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"anyOf\":[{\"required\":[\"x\"]},"
	  "{\"required\":[\"y\"]}]}}}",
	  "" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"enum\":[]},"
	  "\"b\":{\"enum\":\"x\"}}}",
	  "/properties/a/enum: 'enum' must not be empty\n"
	  "/properties/b/enum: 'enum' must be an array" },
	{ "{\"type\":\"object\",\"properties\":{\"u\":{\"type\":\"string\","
	  "\"enum\":[\"a\",3,null]},\"v\":{\"type\":[\"integer\","
	  "\"null\"],\"enum\":[1,null,1.5]}}}",
	  "/properties/u/enum/1: enum value 3 is not of type string\n"
	  "/properties/u/enum/2: enum value null is not of type string\n"
	  "/properties/v/enum/2: enum value 1.5 is not of type integer or null" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"minimum\":\"1\","
	  "\"maximum\":null,\"exclusiveMinimum\":true,\"exclusiveMaximum\":[1],"
	  "\"multipleOf\":0},\"b\":{\"multipleOf\":-2}}}",
	  "/properties/a/minimum: 'minimum' must be a number\n"
	  "/properties/a/maximum: 'maximum' must be a number\n"
	  "/properties/a/exclusiveMinimum: 'exclusiveMinimum' must be a number\n"
	  "/properties/a/exclusiveMaximum: 'exclusiveMaximum' must be a number\n"
	  "/properties/a/multipleOf: 'multipleOf' must be a number greater than 0\n"
	  "/properties/b/multipleOf: 'multipleOf' must be a number greater than 0" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"minLength\":-1,"
	  "\"maxLength\":1.5,\"minItems\":\"2\",\"maxItems\":true,"
	  "\"minProperties\":{},\"maxProperties\":null}}}",
	  "/properties/a/minProperties: 'minProperties' must be a non-negative integer\n"
	  "/properties/a/maxProperties: 'maxProperties' must be a non-negative integer\n"
	  "/properties/a/minItems: 'minItems' must be a non-negative integer\n"
	  "/properties/a/maxItems: 'maxItems' must be a non-negative integer\n"
	  "/properties/a/minLength: 'minLength' must be a non-negative integer\n"
	  "/properties/a/maxLength: 'maxLength' must be a non-negative integer" },
	{ "{\"type\":\"object\",\"properties\":{\"s\":{\"minLength\":5,"
	  "\"maxLength\":2},\"a\":{\"minItems\":3,\"maxItems\":1},"
	  "\"o\":{\"minProperties\":2,\"maxProperties\":1},\"n\":{\"minimum\":10,"
	  "\"maximum\":1},\"m\":{\"minimum\":5,\"exclusiveMaximum\":5},"
	  "\"x\":{\"exclusiveMinimum\":5,\"maximum\":5},\"y\":{\"exclusiveMinimum\":1,"
	  "\"exclusiveMaximum\":1},\"ok\":{\"minimum\":1,\"maximum\":1,"
	  "\"minLength\":0,\"maxLength\":0}}}",
	  "/properties/a/minItems: 'minItems' 3 is greater than 'maxItems' 1\n"
	  "/properties/m/minimum: 'minimum' 5 is not less than 'exclusiveMaximum' 5\n"
	  "/properties/n/minimum: 'minimum' 10 is greater than 'maximum' 1\n"
	  "/properties/o/minProperties: 'minProperties' 2 is greater than 'maxProperties' 1\n"
	  "/properties/s/minLength: 'minLength' 5 is greater than 'maxLength' 2\n"
	  "/properties/x/exclusiveMinimum: 'exclusiveMinimum' 5 is not less than 'maximum' 5\n"
	  "/properties/y/exclusiveMinimum: 'exclusiveMinimum' 1 is not less than 'exclusiveMaximum' 1" },
	/* PCRE2 compile errors, with the offset */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"pattern\":\"(\"},"
	  "\"b\":{\"pattern\":\"[a-\"},\"c\":{\"pattern\":\"a{2,"
	  "1}\"},\"d\":{\"pattern\":5}}}",
	  "/properties/a/pattern: invalid regex: missing closing parenthesis at offset 1\n"
	  "/properties/b/pattern: invalid regex: missing terminating ] for character class at offset 3\n"
	  "/properties/c/pattern: invalid regex: numbers out of order in {} quantifier at offset 5\n"
	  "/properties/d/pattern: 'pattern' must be a string" },
	/* ECMA-262 forms PCRE2 accepts with the options used */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"pattern\":\"^\\\\d{4}-\\\\d{2}$\"},"
	  "\"b\":{\"pattern\":\"[^]\"},\"c\":{\"pattern\":\"\\\\u0041+\"},"
	  "\"d\":{\"pattern\":\"^(?<y>[0-9]+)$\"}}}",
	  "" },
	{ "{\"type\":\"object\",\"additionalProperties\":\"no\","
	  "\"properties\":{\"a\":{\"additionalProperties\":{\"type\":\"nope\"}}}}",
	  "/properties/a/additionalProperties/type: unknown type 'nope'\n"
	  "/additionalProperties: 'additionalProperties' must be a schema (an object or a boolean)" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"items\":5},"
	  "\"b\":{\"items\":[{\"type\":\"string\"},7]},\"c\":{\"prefixItems\":[]}}}",
	  "/properties/a/items: 'items' must be a schema or an array of schemas\n"
	  "/properties/b/items/1: schema must be an object or a boolean\n"
	  "/properties/c/prefixItems: 'prefixItems' must be a non-empty array of schemas" },
	{ "{\"type\":\"object\",\"oneOf\":[],\"anyOf\":{\"type\":\"string\"},"
	  "\"allOf\":[{\"type\":\"object\"},[]]}",
	  "/allOf/1: schema must be an object or a boolean\n"
	  "/anyOf: 'anyOf' must be a non-empty array of schemas\n"
	  "/oneOf: 'oneOf' must be a non-empty array of schemas" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"not\":\"string\"},"
	  "\"b\":{\"not\":{\"type\":\"strin\"}}}}",
	  "/properties/a/not: 'not' must be a schema (an object or a boolean)\n"
	  "/properties/b/not/type: unknown type 'strin'" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"https://example.com/s.json\"},"
	  "\"b\":{\"$ref\":\"#/$defs/missing\"},\"c\":{\"$ref\":7},"
	  "\"d\":{\"$ref\":\"#/$defs/ok\"},\"e\":{\"$ref\":\"#/properties/a\"}},"
	  "\"$defs\":{\"ok\":{\"type\":\"string\"}}}",
	  "/properties/a/$ref: unsupported $ref 'https://example.com/s.json' (only '#/$defs/NAME' and '#/definitions/NAME')\n"
	  "/properties/b/$ref: unresolved $ref '#/$defs/missing'\n"
	  "/properties/c/$ref: '$ref' must be a string\n"
	  "/properties/e/$ref: unsupported $ref '#/properties/a' (only '#/$defs/NAME' and '#/definitions/NAME')" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/a\"}},"
	  "\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":\"#/definitions/c\"}},"
	  "\"definitions\":{\"c\":{\"$ref\":\"#/$defs/a\"}}}",
	  "/properties/a/$ref: $ref '#/$defs/a' is a cycle of references\n"
	  "/$defs/a/$ref: $ref '#/$defs/b' is a cycle of references\n"
	  "/$defs/b/$ref: $ref '#/definitions/c' is a cycle of references\n"
	  "/definitions/c/$ref: $ref '#/$defs/a' is a cycle of references" },
	{ "{\"type\":\"object\",\"$defs\":[],\"definitions\":{\"x\":3}}",
	  "/$defs: '$defs' must be an object\n"
	  "/definitions/x: schema must be an object or a boolean" },
	{ "{\"type\":\"object\",\"description\":5,\"title\":[\"t\"],"
	  "\"properties\":{\"d\":{\"format\":1,\"description\":\"ok\"}}}",
	  "/properties/d/format: 'format' must be a string\n"
	  "/description: 'description' must be a string\n"
	  "/title: 'title' must be a string" },
	{ "{\"type\":\"object\",\"properties\":{\"u\":{\"type\":\"array\","
	  "\"uniqueItems\":\"yes\"}}}",
	  "/properties/u/uniqueItems: 'uniqueItems' must be a boolean" },
	/* models copy defaults: a default its schema rejects is a problem */
	{ "{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\","
	  "\"properties\":{\"n\":{\"type\":\"integer\"}},\"default\":{\"n\":\"x\"}},"
	  "\"m\":{\"enum\":[\"a\",\"b\"],\"default\":\"c\"},\"k\":{\"type\":\"integer\","
	  "\"default\":3}}}",
	  "/properties/m/default: default does not match the schema: \"c\" is not one of [\"a\","
	  "\"b\"]\n"
	  "/properties/o/default/n: default does not match the schema: expected integer,"
	  " got string" },
	{ "{\"type\":\"object\",\"patternProperties\":{\"^x-\":{\"type\":\"string\"},"
	  "\"(\":{}}}",
	  "/patternProperties/(: invalid regex: missing closing parenthesis at offset 1" },
	/* pointer tokens escape ~ and / */
	{ "{\"type\":\"object\",\"properties\":{\"a~b/c\":{\"type\":\"strng\"}}}",
	  "/properties/a~0b~1c/type: unknown type 'strng'" },
};

/* `want` is the generated value printed, or "NULL". */
struct gen_case {
	const char *schema;
	bool full;
	const char *want;
};

static const struct gen_case gen_cases[] = {
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
	  "\"mode\":{\"type\":\"string\",\"enum\":[\"read\",\"write\"]},"
	  "\"verbose\":{\"type\":\"boolean\"}},\"required\":[\"path\","
	  "\"mode\"]}",
	  false, "{\"mode\":\"read\",\"path\":\"\"}" },
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
	  "\"mode\":{\"type\":\"string\",\"enum\":[\"read\",\"write\"]},"
	  "\"verbose\":{\"type\":\"boolean\"}},\"required\":[\"path\","
	  "\"mode\"]}",
	  true, "{\"mode\":\"read\",\"path\":\"\",\"verbose\":false}" },
	/* integers stay integral: 0.5 is the first multiple, 1 the first
	   integral one */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\","
	  "\"exclusiveMinimum\":0,\"multipleOf\":5},\"b\":{\"type\":\"integer\","
	  "\"maximum\":-3},\"c\":{\"type\":\"integer\",\"multipleOf\":0.5,"
	  "\"minimum\":0.2},\"d\":{\"type\":\"integer\",\"exclusiveMaximum\":0}},"
	  "\"required\":[\"a\",\"b\",\"c\",\"d\"]}",
	  false, "{\"a\":5,\"b\":-3,\"c\":1,\"d\":-1}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\","
	  "\"exclusiveMinimum\":0.5,\"exclusiveMaximum\":1},\"b\":{\"type\":\"number\","
	  "\"minimum\":-1.5,\"maximum\":-1.25},\"c\":{\"type\":\"number\","
	  "\"exclusiveMinimum\":2}},\"required\":[\"a\",\"b\","
	  "\"c\"]}",
	  false, "{\"a\":0.75,\"b\":-1.5,\"c\":3}" },
	{ "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\","
	  "\"minimum\":1.2,\"maximum\":1.5}},\"required\":[\"n\"]}",
	  false, "NULL" },
	{ "{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\","
	  "\"minLength\":3,\"pattern\":\"^[0-9]+$\"},\"url\":{\"type\":\"string\","
	  "\"pattern\":\"^https://\"},\"mail\":{\"type\":\"string\","
	  "\"pattern\":\"@\"},\"day\":{\"type\":\"string\",\"pattern\":\"^\\\\d{4}-\\\\d{2}-\\\\d{2}$\"}},"
	  "\"required\":[\"code\",\"url\",\"mail\",\"day\"]}",
	  false,
	  "{\"code\":\"000\",\"day\":\"2024-01-01\",\"mail\":\"a@b.c\","
	  "\"url\":\"https://example.com\"}" },
	/* documented limit: no candidate string matches, so no value */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
	  "\"pattern\":\"^[A-Z]{3}$\"}},\"required\":[\"a\"]}",
	  false, "NULL" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
	  "\"format\":\"date\"},\"b\":{\"type\":\"string\",\"format\":\"email\","
	  "\"maxLength\":5},\"c\":{\"type\":\"string\",\"format\":\"uuid\"},"
	  "\"d\":{\"type\":\"string\",\"format\":\"date-time\"}},"
	  "\"required\":[\"a\",\"b\",\"c\",\"d\"]}",
	  false,
	  "{\"a\":\"2024-01-01\",\"b\":\"\",\"c\":\"00000000-0000-4000-8000-000000000000\","
	  "\"d\":\"2024-01-01T00:00:00Z\"}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"null\","
	  "\"string\"]},\"b\":{\"type\":[\"string\",\"null\"]},"
	  "\"c\":{},\"d\":{\"type\":\"boolean\"},\"e\":{\"type\":\"null\"}},"
	  "\"required\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}",
	  false, "{\"a\":null,\"b\":\"\",\"c\":\"\",\"d\":false,\"e\":null}" },
	/* enum before default; an invalid default is skipped */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"const\":\"x\"},"
	  "\"b\":{\"enum\":[4,5,6],\"type\":\"integer\",\"minimum\":5},"
	  "\"c\":{\"type\":\"string\",\"enum\":[\"fast\",\"slow\"],"
	  "\"default\":\"slow\"},\"d\":{\"type\":\"integer\",\"default\":7},"
	  "\"e\":{\"type\":\"integer\",\"default\":\"bad\"}},\"required\":[\"a\","
	  "\"b\",\"c\",\"d\",\"e\"]}",
	  false, "{\"a\":\"x\",\"b\":5,\"c\":\"fast\",\"d\":7,\"e\":0}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"oneOf\":[{\"type\":\"string\","
	  "\"minLength\":2},{\"type\":\"integer\"}]},\"b\":{\"anyOf\":[{\"type\":\"integer\","
	  "\"minimum\":3},{\"type\":\"null\"}]}},\"required\":[\"a\","
	  "\"b\"]}",
	  false, "{\"a\":\"aa\",\"b\":3}" },
	/* documented limit: 0 matches both branches, oneOf wants exactly one */
	{ "{\"type\":\"object\",\"properties\":{\"c\":{\"oneOf\":[{\"type\":\"integer\","
	  "\"minimum\":0},{\"type\":\"integer\",\"maximum\":0}]}},"
	  "\"required\":[\"c\"]}",
	  false, "NULL" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"allOf\":[{\"type\":\"integer\","
	  "\"minimum\":3},{\"maximum\":10,\"multipleOf\":2},{\"type\":\"number\","
	  "\"minimum\":1}]}},\"required\":[\"a\"]}",
	  false, "{\"a\":4}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"allOf\":[{\"type\":\"string\"},"
	  "{\"type\":\"integer\"}]}},\"required\":[\"a\"]}",
	  false, "NULL" },
	{ "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"}},"
	  "\"required\":[\"kind\"],\"oneOf\":[{\"properties\":{\"kind\":{\"const\":\"file\"},"
	  "\"path\":{\"type\":\"string\",\"minLength\":1}},\"required\":[\"path\"]},"
	  "{\"properties\":{\"kind\":{\"const\":\"url\"},\"url\":{\"type\":\"string\","
	  "\"format\":\"uri\"}},\"required\":[\"url\"]}]}",
	  false, "{\"kind\":\"file\",\"path\":\"a\"}" },
	{ "{\"type\":\"object\",\"properties\":{\"p\":{\"$ref\":\"#/$defs/point\"},"
	  "\"q\":{\"$ref\":\"#/definitions/pos\"},\"r\":{\"$ref\":\"https://example.com/x.json\"}},"
	  "\"required\":[\"p\",\"q\",\"r\"],\"$defs\":{\"point\":{\"type\":\"object\","
	  "\"properties\":{\"x\":{\"type\":\"number\"},\"y\":{\"type\":\"number\","
	  "\"minimum\":1}},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}},"
	  "\"definitions\":{\"pos\":{\"type\":\"integer\",\"minimum\":1}}}",
	  false, "{\"p\":{\"x\":0,\"y\":1},\"q\":1,\"r\":\"\"}" },
	{ "{\"type\":\"object\",\"properties\":{\"t\":{\"type\":\"array\","
	  "\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}],"
	  "\"minItems\":2},\"u\":{\"type\":\"array\",\"items\":[{\"type\":\"boolean\"},"
	  "{\"type\":\"null\"}],\"minItems\":2},\"v\":{\"type\":\"array\","
	  "\"items\":{\"type\":\"integer\",\"minimum\":1},\"minItems\":3,"
	  "\"uniqueItems\":true},\"w\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\","
	  "\"b\",\"c\"]},\"minItems\":2,\"uniqueItems\":true}},"
	  "\"required\":[\"t\",\"u\",\"v\",\"w\"]}",
	  false,
	  "{\"t\":[\"\",0],\"u\":[false,null],\"v\":[1,2,3],\"w\":[\"a\","
	  "\"b\"]}" },
	{ "{\"type\":\"object\",\"properties\":{\"t\":{\"type\":\"array\","
	  "\"items\":{\"type\":\"string\",\"minLength\":1}},\"u\":{\"type\":\"array\","
	  "\"items\":false},\"v\":{\"type\":\"array\",\"maxItems\":0}}}",
	  true, "{\"t\":[\"a\"],\"u\":[],\"v\":[]}" },
	{ "{\"type\":\"object\",\"minProperties\":2,\"additionalProperties\":{\"type\":\"boolean\"}}",
	  false, "{\"extra1\":false,\"extra2\":false}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},"
	  "\"required\":[\"a\",\"b\"],\"additionalProperties\":{\"type\":\"integer\","
	  "\"minimum\":2}}",
	  false, "{\"a\":\"\",\"b\":2}" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"not\":{\"type\":\"string\"}},"
	  "\"b\":{\"not\":{\"type\":[\"string\",\"integer\"]}}},"
	  "\"required\":[\"a\",\"b\"]}",
	  false, "{\"a\":0,\"b\":false}" },
	/* a recursive $ref is built minimally the second time */
	{ "{\"type\":\"object\",\"properties\":{\"n\":{\"$ref\":\"#/$defs/node\"}},"
	  "\"required\":[\"n\"],\"$defs\":{\"node\":{\"type\":\"object\","
	  "\"properties\":{\"v\":{\"type\":\"integer\"},\"kids\":{\"type\":\"array\","
	  "\"items\":{\"$ref\":\"#/$defs/node\"}}},\"required\":[\"v\"]}}}",
	  true, "{\"n\":{\"kids\":[{\"v\":0}],\"v\":0}}" },
	/* every value would be infinite */
	{ "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}},"
	  "\"required\":[\"x\"],\"$defs\":{\"a\":{\"type\":\"object\","
	  "\"properties\":{\"y\":{\"$ref\":\"#/$defs/a\"}},\"required\":[\"y\"]}}}",
	  false, "NULL" },
	{ "{\"type\":\"object\"}", true, "{}" },
	{ "{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\","
	  "\"properties\":{\"deep\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}},"
	  "\"required\":[]}}}",
	  true, "{\"o\":{\"deep\":{\"x\":0}}}" },
	{ "{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\","
	  "\"properties\":{\"deep\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}},"
	  "\"required\":[]}}}",
	  false, "{}" },
	/* a required property that allows nothing: no valid arguments, and only
	   {} as invalid ones */
	{ "{\"type\":\"object\",\"properties\":{\"a\":false},\"required\":[\"a\"]}",
	  false, "NULL" },
	{ "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\","
	  "\"minLength\":5,\"maxLength\":2}},\"required\":[\"s\"]}",
	  false, "NULL" },
	/* lengths count code points: "\u00e9" is one */
	{ "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\","
	  "\"minLength\":2,\"enum\":[\"\\u00e9\",\"\\u00e9\\u00e9\"]},"
	  "\"t\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":2}},"
	  "\"required\":[\"s\",\"t\"]}",
	  false, "{\"s\":\"\303\251\303\251\",\"t\":\"aa\"}" },
	/* no type: the keywords say which */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"minimum\":4},"
	  "\"b\":{\"items\":{\"type\":\"integer\"},\"minItems\":1},"
	  "\"c\":{\"properties\":{\"x\":{\"type\":\"boolean\"}},"
	  "\"required\":[\"x\"]},\"d\":{\"maxLength\":3,\"pattern\":\"b\"}},"
	  "\"required\":[\"a\",\"b\",\"c\",\"d\"]}",
	  false, "{\"a\":4,\"b\":[0],\"c\":{\"x\":false},\"d\":\"abc\"}" },
	{ "{\"type\":\"object\",\"properties\":{\"when\":{\"type\":\"string\","
	  "\"format\":\"date\",\"default\":\"2025-06-30\"},\"tags\":{\"type\":\"array\","
	  "\"items\":{\"type\":\"string\"},\"default\":[\"x\"]}}}",
	  true, "{\"tags\":[\"x\"],\"when\":\"2025-06-30\"}" },
	/* allOf merged into the parent; same property in both becomes an allOf
	 */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
	  "\"allOf\":[{\"required\":[\"a\"]},{\"properties\":{\"a\":{\"minimum\":10}}}]}",
	  false, "{\"a\":10}" },
};

/* `want` is the whole output array printed. */
struct invalid_case {
	const char *schema;
	size_t max;
	const char *want;
};

static const struct invalid_case invalid_cases[] = {
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"minLength\":1},\"mode\":{\"type\":\"string\",\"enum\":[\"read\","
	  "\"write\"]}},\"required\":[\"path\",\"mode\"],\"additionalProperties\":false}",
	  20,
	  "[{\"args\":{\"mode\":\"read\"},"
	  "\"why\":\"(root): missing required property 'path'\"},"
	  "{\"args\":{\"path\":\"a\"},"
	  "\"why\":\"(root): missing required property 'mode'\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'path'\"},"
	  "{\"args\":{\"extra\":\"value\",\"mode\":\"read\",\"path\":\"a\"},"
	  "\"why\":\"/extra: additional property is not allowed\"},"
	  "{\"args\":{\"mode\":42,\"path\":\"a\"},"
	  "\"why\":\"/mode: expected string, got integer\"},"
	  "{\"args\":{\"mode\":\"READ\",\"path\":\"a\"},"
	  "\"why\":\"/mode: \\\"READ\\\" is not one of [\\\"read\\\",\\\"write\\\"]\"},"
	  "{\"args\":{\"mode\":\"read\",\"path\":42},"
	  "\"why\":\"/path: expected string, got integer\"},"
	  "{\"args\":{\"mode\":\"read\",\"path\":\"\"},"
	  "\"why\":\"/path: string has 0 characters, fewer than minLength 1\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"minLength\":1},\"mode\":{\"type\":\"string\",\"enum\":[\"read\","
	  "\"write\"]}},\"required\":[\"path\",\"mode\"],\"additionalProperties\":false}",
	  2,
	  "[{\"args\":{\"mode\":\"read\"},"
	  "\"why\":\"(root): missing required property 'path'\"},"
	  "{\"args\":{\"path\":\"a\"},"
	  "\"why\":\"(root): missing required property 'mode'\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\","
	  "\"minimum\":1,\"maximum\":5},\"x\":{\"type\":\"number\","
	  "\"exclusiveMinimum\":0,\"exclusiveMaximum\":1}},\"required\":[\"n\","
	  "\"x\"]}",
	  20,
	  "[{\"args\":{\"x\":0.5},"
	  "\"why\":\"(root): missing required property 'n'\"},"
	  "{\"args\":{\"n\":1},"
	  "\"why\":\"(root): missing required property 'x'\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'n'\"},"
	  "{\"args\":{\"n\":\"1\",\"x\":0.5},"
	  "\"why\":\"/n: expected integer, got string\"},"
	  "{\"args\":{\"n\":0,\"x\":0.5},"
	  "\"why\":\"/n: 0 is less than minimum 1\"},"
	  "{\"args\":{\"n\":6,\"x\":0.5},"
	  "\"why\":\"/n: 6 is greater than maximum 5\"},"
	  "{\"args\":{\"n\":1.5,\"x\":0.5},"
	  "\"why\":\"/n: expected integer, got number\"},"
	  "{\"args\":{\"n\":1,\"x\":\"0.5\"},"
	  "\"why\":\"/x: expected number, got string\"},"
	  "{\"args\":{\"n\":1,\"x\":0},"
	  "\"why\":\"/x: 0 is not greater than exclusiveMinimum 0\"},"
	  "{\"args\":{\"n\":1,\"x\":1},"
	  "\"why\":\"/x: 1 is not less than exclusiveMaximum 1\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"k\":{\"const\":\"v\"},"
	  "\"b\":{\"type\":\"boolean\"},\"z\":{\"enum\":[1,2]}},"
	  "\"required\":[\"k\",\"b\",\"z\"]}",
	  20,
	  "[{\"args\":{\"b\":false,\"z\":1},"
	  "\"why\":\"(root): missing required property 'k'\"},"
	  "{\"args\":{\"k\":\"v\",\"z\":1},"
	  "\"why\":\"(root): missing required property 'b'\"},"
	  "{\"args\":{\"b\":false,\"k\":\"v\"},"
	  "\"why\":\"(root): missing required property 'z'\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'k'\"},"
	  "{\"args\":{\"b\":\"false\",\"k\":\"v\",\"z\":1},"
	  "\"why\":\"/b: expected boolean, got string\"},"
	  "{\"args\":{\"b\":false,\"k\":\"V\",\"z\":1},"
	  "\"why\":\"/k: \\\"V\\\" is not the const value \\\"v\\\"\"},"
	  "{\"args\":{\"b\":false,\"k\":\"v\",\"z\":3},"
	  "\"why\":\"/z: 3 is not one of [1,2]\"}]" },
	/* the pattern miss keeps minLength, so the pattern is what fails */
	{ "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\","
	  "\"minLength\":2,\"maxLength\":3,\"pattern\":\"^[a-z]+$\"}},"
	  "\"required\":[\"s\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 's'\"},"
	  "{\"args\":{\"s\":42},"
	  "\"why\":\"/s: expected string, got integer\"},"
	  "{\"args\":{\"s\":\"a\"},"
	  "\"why\":\"/s: string has 1 character, fewer than minLength 2\"},"
	  "{\"args\":{\"s\":\"aaaa\"},"
	  "\"why\":\"/s: string has 4 characters, more than maxLength 3\"},"
	  "{\"args\":{\"s\":\"!!\"},"
	  "\"why\":\"/s: \\\"!!\\\" does not match pattern \\\"^[a-z]+$\\\"\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"opts\":{\"type\":\"object\","
	  "\"properties\":{\"depth\":{\"type\":\"integer\"}},\"required\":[\"depth\"],"
	  "\"additionalProperties\":false}},\"required\":[\"opts\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'opts'\"},"
	  "{\"args\":{\"opts\":\"{\\\"depth\\\":0}\"},"
	  "\"why\":\"/opts: expected object, got string\"},"
	  "{\"args\":{\"opts\":{}},"
	  "\"why\":\"/opts: missing required property 'depth'\"},"
	  "{\"args\":{\"opts\":{\"depth\":0,\"extra\":\"value\"}},"
	  "\"why\":\"/opts/extra: additional property is not allowed\"},"
	  "{\"args\":{\"opts\":{\"depth\":\"0\"}},"
	  "\"why\":\"/opts/depth: expected integer, got string\"},"
	  "{\"args\":{\"opts\":{\"depth\":0.5}},"
	  "\"why\":\"/opts/depth: expected integer, got number\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"tags\":{\"type\":\"array\","
	  "\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":2,"
	  "\"uniqueItems\":true}},\"required\":[\"tags\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'tags'\"},"
	  "{\"args\":{\"tags\":\"[\\\"\\\"]\"},"
	  "\"why\":\"/tags: expected array, got string\"},"
	  "{\"args\":{\"tags\":[]},"
	  "\"why\":\"/tags: array has 0 items, fewer than minItems 1\"},"
	  "{\"args\":{\"tags\":[\"\",\"\",\"\"]},"
	  "\"why\":\"/tags: array has 3 items, more than maxItems 2\"},"
	  "{\"args\":{\"tags\":[\"\",\"\"]},"
	  "\"why\":\"/tags: items 0 and 1 are equal (uniqueItems)\"},"
	  "{\"args\":{\"tags\":[42]},"
	  "\"why\":\"/tags/0: expected string, got integer\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"p\":{\"$ref\":\"#/$defs/point\"}},"
	  "\"required\":[\"p\"],\"$defs\":{\"point\":{\"type\":\"object\","
	  "\"properties\":{\"x\":{\"type\":\"number\"}},\"required\":[\"x\"]}}}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'p'\"},"
	  "{\"args\":{\"p\":\"{\\\"x\\\":0}\"},"
	  "\"why\":\"/p: expected object, got string\"},"
	  "{\"args\":{\"p\":{}},"
	  "\"why\":\"/p: missing required property 'x'\"},"
	  "{\"args\":{\"p\":{\"x\":\"0\"}},"
	  "\"why\":\"/p/x: expected number, got string\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"}},"
	  "\"required\":[\"kind\"],\"oneOf\":[{\"properties\":{\"kind\":{\"const\":\"file\"},"
	  "\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]},"
	  "{\"properties\":{\"kind\":{\"const\":\"url\"},\"url\":{\"type\":\"string\"}},"
	  "\"required\":[\"url\"]}]}",
	  20,
	  "[{\"args\":{\"path\":\"\"},"
	  "\"why\":\"(root): missing required property 'kind'\"},"
	  "{\"args\":{\"kind\":\"file\"},"
	  "\"why\":\"(root): value matches no schema in oneOf\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'kind'\"},"
	  "{\"args\":{\"kind\":42,\"path\":\"\"},"
	  "\"why\":\"/kind: expected string, got integer\"},"
	  "{\"args\":{\"kind\":\"FILE\",\"path\":\"\"},"
	  "\"why\":\"(root): value matches no schema in oneOf\"},"
	  "{\"args\":{\"kind\":\"file\",\"path\":42},"
	  "\"why\":\"(root): value matches no schema in oneOf\"}]" },
	/* no wrong type for b: every candidate matches a branch */
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\","
	  "\"null\"]},\"b\":{\"anyOf\":[{\"type\":\"string\"},"
	  "{\"type\":\"null\"}]}},\"required\":[\"a\",\"b\"]}",
	  20,
	  "[{\"args\":{\"b\":\"\"},"
	  "\"why\":\"(root): missing required property 'a'\"},"
	  "{\"args\":{\"a\":\"\"},"
	  "\"why\":\"(root): missing required property 'b'\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'a'\"},"
	  "{\"args\":{\"a\":42,\"b\":\"\"},"
	  "\"why\":\"/a: expected string or null, got integer\"},"
	  "{\"args\":{\"a\":\"\",\"b\":42},"
	  "\"why\":\"/b: value matches no schema in anyOf\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"},"
	  "\"limit\":{\"type\":\"integer\",\"default\":10}}}",
	  20,
	  "[{\"args\":{\"limit\":\"10\",\"q\":\"\"},"
	  "\"why\":\"/limit: expected integer, got string\"},"
	  "{\"args\":{\"limit\":10.5,\"q\":\"\"},"
	  "\"why\":\"/limit: expected integer, got number\"},"
	  "{\"args\":{\"limit\":10,\"q\":42},"
	  "\"why\":\"/q: expected string, got integer\"}]" },
	/* a required property that allows nothing: no valid arguments, and only
	   {} as invalid ones */
	{ "{\"type\":\"object\",\"properties\":{\"a\":false},\"required\":[\"a\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'a'\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"number\","
	  "\"multipleOf\":0.5},\"i\":{\"type\":\"integer\",\"multipleOf\":3}},"
	  "\"required\":[\"m\",\"i\"]}",
	  20,
	  "[{\"args\":{\"i\":0},"
	  "\"why\":\"(root): missing required property 'm'\"},"
	  "{\"args\":{\"m\":0},"
	  "\"why\":\"(root): missing required property 'i'\"},"
	  "{\"args\":{},"
	  "\"why\":\"(root): missing required property 'm'\"},"
	  "{\"args\":{\"i\":\"0\",\"m\":0},"
	  "\"why\":\"/i: expected integer, got string\"},"
	  "{\"args\":{\"i\":1,\"m\":0},"
	  "\"why\":\"/i: 1 is not a multiple of 3\"},"
	  "{\"args\":{\"i\":0.5,\"m\":0},"
	  "\"why\":\"/i: expected integer, got number\"},"
	  "{\"args\":{\"i\":0,\"m\":\"0\"},"
	  "\"why\":\"/m: expected number, got string\"},"
	  "{\"args\":{\"i\":0,\"m\":0.25},"
	  "\"why\":\"/m: 0.25 is not a multiple of 0.5\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"t\":{\"type\":\"array\","
	  "\"prefixItems\":[{\"type\":\"integer\"},{\"type\":\"string\"}],"
	  "\"minItems\":2}},\"required\":[\"t\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 't'\"},"
	  "{\"args\":{\"t\":\"[0,\\\"\\\"]\"},"
	  "\"why\":\"/t: expected array, got string\"},"
	  "{\"args\":{\"t\":[\"\"]},"
	  "\"why\":\"/t: array has 1 item, fewer than minItems 2\"},"
	  "{\"args\":{\"t\":[\"0\",\"\"]},"
	  "\"why\":\"/t/0: expected integer, got string\"},"
	  "{\"args\":{\"t\":[0.5,\"\"]},"
	  "\"why\":\"/t/0: expected integer, got number\"}]" },
	{ "{\"type\":\"object\",\"additionalProperties\":false}", 20,
	  "[{\"args\":{\"extra\":\"value\"},"
	  "\"why\":\"/extra: additional property is not allowed\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\","
	  "\"minProperties\":1,\"maxProperties\":1,\"additionalProperties\":{\"type\":\"integer\"}}},"
	  "\"required\":[\"o\"]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'o'\"},"
	  "{\"args\":{\"o\":\"{\\\"extra1\\\":0}\"},"
	  "\"why\":\"/o: expected object, got string\"},"
	  "{\"args\":{\"o\":{}},"
	  "\"why\":\"/o: object has 0 properties, fewer than minProperties 1\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
	  "\"allOf\":[{\"required\":[\"a\"]},{\"properties\":{\"a\":{\"maximum\":3}}}]}",
	  20,
	  "[{\"args\":{},"
	  "\"why\":\"(root): missing required property 'a'\"},"
	  "{\"args\":{\"a\":\"0\"},"
	  "\"why\":\"/a: expected integer, got string\"},"
	  "{\"args\":{\"a\":4},"
	  "\"why\":\"/a: 4 is greater than maximum 3\"},"
	  "{\"args\":{\"a\":0.5},"
	  "\"why\":\"/a: expected integer, got number\"}]" },
	{ "{\"type\":\"object\",\"properties\":{\"when\":{\"type\":\"string\","
	  "\"format\":\"date\"},\"n\":{\"type\":\"number\"}},\"required\":[\"when\"]}",
	  1,
	  "[{\"args\":{\"n\":0},"
	  "\"why\":\"(root): missing required property 'when'\"}]" },
};

/* `want` is NULL when `value` is valid, else the exact why. */
struct validate_case {
	const char *schema;
	const char *value;
	const char *want;
};

static const struct validate_case validate_cases[] = {
	{ "{\"type\":\"string\"}", "\"x\"", NULL },
	{ "{\"type\":\"string\"}", "1",
	  "(root): expected string, got integer" },
	{ "{\"type\":\"integer\"}", "1.0", NULL },
	{ "{\"type\":\"integer\"}", "1.5",
	  "(root): expected integer, got number" },
	{ "{\"type\":\"number\"}", "2", NULL },
	{ "{\"type\":[\"string\",\"null\"]}", "null", NULL },
	{ "{\"type\":[\"string\",\"integer\",\"null\"]}", "true",
	  "(root): expected string, integer or null, got boolean" },
	{ "{\"type\":\"object\"}", "[]", "(root): expected object, got array" },
	{ "{\"type\":\"array\"}", "{}", "(root): expected array, got object" },
	{ "{\"type\":\"boolean\"}", "0",
	  "(root): expected boolean, got integer" },
	{ "{\"type\":\"int\"}", "\"anything\"", NULL },
	{ "{\"enum\":[\"a\",1,null,{\"k\":[1]}]}", "{\"k\":[1.0]}", NULL },
	{ "{\"enum\":[\"a\",1,null]}", "\"b\"",
	  "(root): \"b\" is not one of [\"a\",1,null]" },
	{ "{\"const\":{\"a\":[1,2]}}", "{\"a\":[1,2]}", NULL },
	{ "{\"const\":{\"a\":[1,2]}}", "{\"a\":[2,1]}",
	  "(root): {\"a\":[2,1]} is not the const value {\"a\":[1,"
	  "2]}" },
	{ "{\"minimum\":1}", "0", "(root): 0 is less than minimum 1" },
	{ "{\"minimum\":1}", "\"0\"", NULL },
	{ "{\"maximum\":1.5}", "2", "(root): 2 is greater than maximum 1.5" },
	{ "{\"exclusiveMinimum\":0}", "0",
	  "(root): 0 is not greater than exclusiveMinimum 0" },
	{ "{\"exclusiveMaximum\":10}", "10",
	  "(root): 10 is not less than exclusiveMaximum 10" },
	{ "{\"exclusiveMaximum\":10}", "9.99", NULL },
	{ "{\"multipleOf\":0.1}", "0.3", NULL },
	{ "{\"multipleOf\":3}", "7", "(root): 7 is not a multiple of 3" },
	{ "{\"minLength\":2}", "\"\\u00e9\"",
	  "(root): string has 1 character, fewer than minLength 2" },
	{ "{\"minLength\":2}", "\"\\u00e9\\u00e9\"", NULL },
	{ "{\"maxLength\":1}", "\"ab\"",
	  "(root): string has 2 characters, more than maxLength 1" },
	{ "{\"pattern\":\"abc\"}", "\"xabcx\"", NULL },
	/* $ matches only at the very end, as in ECMA-262 */
	{ "{\"pattern\":\"^abc$\"}", "\"abc\\n\"",
	  "(root): \"abc\\n\" does not match pattern \"^abc$\"" },
	{ "{\"pattern\":\"^\\\\d+$\"}", "\"12a\"",
	  "(root): \"12a\" does not match pattern \"^\\\\d+$\"" },
	{ "{\"pattern\":\"(\"}", "\"x\"",
	  "(root): pattern \"(\" is not a valid regex" },
	/* a backtracking bomb ends at the match limit */
	{ "{\"pattern\":\"^(a+)+$\"}",
	  "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\"",
	  "(root): pattern \"^(a+)+$\" exceeds the match limit" },
	{ "{\"format\":\"email\"}", "\"not an email\"", NULL },
	{ "{\"items\":{\"type\":\"integer\"}}", "[1,2,\"3\"]",
	  "/2: expected integer, got string" },
	{ "{\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}],"
	  "\"items\":false}",
	  "[\"a\",1,2]", "/2: no value is allowed here (schema false)" },
	{ "{\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}",
	  "[\"a\",1,true]", NULL },
	{ "{\"items\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}",
	  "[\"a\",\"b\"]", "/1: expected integer, got string" },
	{ "{\"minItems\":2}", "[1]",
	  "(root): array has 1 item, fewer than minItems 2" },
	{ "{\"maxItems\":1}", "[1,2]",
	  "(root): array has 2 items, more than maxItems 1" },
	{ "{\"uniqueItems\":true}", "[1,{\"a\":1},2,{\"a\":1.0}]",
	  "(root): items 1 and 3 are equal (uniqueItems)" },
	{ "{\"uniqueItems\":true}", "[1,\"1\",true]", NULL },
	{ "{\"required\":[\"a\",\"b\"]}", "{\"a\":1}",
	  "(root): missing required property 'b'" },
	{ "{\"required\":[\"a\"]}", "[1]", NULL },
	{ "{\"minProperties\":1}", "{}",
	  "(root): object has 0 properties, fewer than minProperties 1" },
	{ "{\"maxProperties\":1}", "{\"a\":1,\"b\":2}",
	  "(root): object has 2 properties, more than maxProperties 1" },
	{ "{\"properties\":{\"a\":{\"properties\":{\"b\":{\"items\":{\"properties\":{\"c\":{\"type\":\"string\"}}}}}}}}",
	  "{\"a\":{\"b\":[{\"c\":\"x\"},{\"c\":5}]}}",
	  "/a/b/1/c: expected string, got integer" },
	{ "{\"properties\":{\"a/b\":{\"properties\":{\"m~n\":{\"type\":\"string\"}}}}}",
	  "{\"a/b\":{\"m~n\":1}}", "/a~1b/m~0n: expected string, got integer" },
	{ "{\"additionalProperties\":false,\"properties\":{\"a\":{}}}",
	  "{\"a\":1,\"b\":2}", "/b: additional property is not allowed" },
	{ "{\"additionalProperties\":{\"type\":\"integer\"},\"properties\":{\"a\":{}}}",
	  "{\"a\":\"x\",\"b\":\"y\"}", "/b: expected integer, got string" },
	{ "{\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},"
	  "\"additionalProperties\":false}",
	  "{\"x-a\":\"ok\",\"x-b\":1}", "/x-b: expected string, got integer" },
	{ "{\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},"
	  "\"additionalProperties\":false}",
	  "{\"x-a\":\"ok\",\"y\":1}",
	  "/y: additional property is not allowed" },
	{ "{\"allOf\":[{\"type\":\"integer\"},{\"minimum\":5}]}", "3",
	  "(root): 3 is less than minimum 5" },
	{ "{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"null\"}]}", "\"x\"",
	  "(root): value matches no schema in anyOf" },
	{ "{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"null\"}]}", "null",
	  NULL },
	{ "{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":0}]}", "5",
	  "(root): value matches oneOf schemas 0 and 1" },
	{ "{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":0}]}", "-1.5",
	  "(root): value matches no schema in oneOf" },
	{ "{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":0}]}", "-1", NULL },
	{ "{\"not\":{\"type\":\"string\"}}", "\"s\"",
	  "(root): value matches the schema in 'not'" },
	{ "{\"properties\":{\"p\":{\"$ref\":\"#/$defs/pos\"}},"
	  "\"$defs\":{\"pos\":{\"type\":\"integer\",\"minimum\":1}}}",
	  "{\"p\":0}", "/p: 0 is less than minimum 1" },
	{ "{\"properties\":{\"p\":{\"$ref\":\"#/definitions/pos\"}},"
	  "\"definitions\":{\"pos\":{\"type\":\"integer\"}}}",
	  "{\"p\":\"1\"}", "/p: expected integer, got string" },
	{ "{\"properties\":{\"p\":{\"$ref\":\"#/$defs/pos\",\"maximum\":3}},"
	  "\"$defs\":{\"pos\":{\"type\":\"integer\"}}}",
	  "{\"p\":4}", "/p: 4 is greater than maximum 3" },
	/* unsupported $ref: an unknown keyword, ignored */
	{ "{\"properties\":{\"p\":{\"$ref\":\"https://example.com/x.json\"}}}",
	  "{\"p\":4}", NULL },
	{ "{\"properties\":{\"p\":{\"$ref\":\"#/$defs/nope\"}}}", "{\"p\":4}",
	  NULL },
	{ "true", "{\"anything\":[1]}", NULL },
	{ "false", "1", "(root): no value is allowed here (schema false)" },
	{ "{\"properties\":{\"gone\":false}}", "{\"gone\":null}",
	  "/gone: no value is allowed here (schema false)" },
	/* annotations and unknown keywords never reject */
	{ "{\"title\":\"x\",\"description\":\"y\",\"examples\":[1],"
	  "\"x-custom\":{\"type\":\"string\"}}",
	  "5", NULL },
	{ "{\"type\":\"integer\",\"default\":\"not an integer\"}", "3", NULL },
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"minLength\":1},\"edits\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	  "\"properties\":{\"old\":{\"type\":\"string\"},\"new\":{\"type\":\"string\"}},"
	  "\"required\":[\"old\",\"new\"],\"additionalProperties\":false},"
	  "\"minItems\":1}},\"required\":[\"path\",\"edits\"],"
	  "\"additionalProperties\":false}",
	  "{\"path\":\"a.txt\",\"edits\":[{\"old\":\"a\",\"new\":\"b\"},"
	  "{\"old\":\"c\"}]}",
	  "/edits/1: missing required property 'new'" },
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"minLength\":1},\"edits\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	  "\"properties\":{\"old\":{\"type\":\"string\"},\"new\":{\"type\":\"string\"}},"
	  "\"required\":[\"old\",\"new\"],\"additionalProperties\":false},"
	  "\"minItems\":1}},\"required\":[\"path\",\"edits\"],"
	  "\"additionalProperties\":false}",
	  "{\"path\":\"a.txt\",\"edits\":[{\"old\":\"a\",\"new\":\"b\","
	  "\"why\":1}]}",
	  "/edits/0/why: additional property is not allowed" },
	{ "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
	  "\"minLength\":1},\"edits\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	  "\"properties\":{\"old\":{\"type\":\"string\"},\"new\":{\"type\":\"string\"}},"
	  "\"required\":[\"old\",\"new\"],\"additionalProperties\":false},"
	  "\"minItems\":1}},\"required\":[\"path\",\"edits\"],"
	  "\"additionalProperties\":false}",
	  "{\"path\":\"a.txt\",\"edits\":[{\"old\":\"a\",\"new\":\"b\"}]}",
	  NULL },
};

static char *join(const struct pc_strvec *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < v->nr; i++)
		(void)pc_buf_addf(&b, "%s%s", i ? "\n" : "", v->v[i]);
	return pc_buf_detach(&b, NULL);
}

static void problems_match_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(problem_cases); i++) {
		const struct problem_case *t = &problem_cases[i];
		struct pc_strvec out = PC_STRVEC_INIT;
		cJSON *s = parse(t->schema);
		size_t n = pc_schema_problems(s, &out);
		char *got = join(&out);

		if (strcmp(got, t->want))
			print_message("problem case %zu: %s\n", i, t->schema);
		assert_string_equal(got, t->want);
		assert_int_equal(n, out.nr);
		free(got);
		pc_strvec_release(&out);
		cJSON_Delete(s);
	}
}

/* {"type":"object","properties":{"x": <`levels` nested items>}} */
static cJSON *nested_items(size_t levels)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *s;

	(void)pc_buf_adds(&b, "{\"type\":\"object\",\"properties\":{\"x\":");
	for (size_t i = 0; i < levels; i++)
		(void)pc_buf_adds(&b, "{\"items\":");
	(void)pc_buf_adds(&b, "{\"type\":\"integer\"}");
	for (size_t i = 0; i < levels; i++)
		(void)pc_buf_addch(&b, '}');
	(void)pc_buf_adds(&b, "}}");
	s = parse(b.data);
	pc_buf_release(&b);
	return s;
}

static void problems_stop_at_depth_limit(void **state)
{
	struct pc_strvec out = PC_STRVEC_INIT;
	struct pc_buf want = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *s = nested_items(70);

	(void)state;
	/* the root is level 0, /properties/x level 1, each items one more */
	(void)pc_buf_adds(&want, "/properties/x");
	for (int i = 0; i < 64; i++)
		(void)pc_buf_adds(&want, "/items");
	(void)pc_buf_adds(&want, ": schema nesting exceeds 64 levels");
	assert_int_equal(pc_schema_problems(s, &out), 1);
	assert_string_equal(out.v[0], want.data);
	pc_strvec_release(&out);
	pc_buf_release(&want);
	cJSON_Delete(s);

	s = nested_items(63);
	assert_int_equal(pc_schema_problems(s, &out), 0);
	cJSON_Delete(s);
}

static void problems_are_capped(void **state)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_strvec out = PC_STRVEC_INIT;
	cJSON *s;

	(void)state;
	(void)pc_buf_adds(&b, "{\"type\":\"object\",\"properties\":{");
	for (int i = 0; i < 300; i++)
		(void)pc_buf_addf(&b, "%s\"p%03d\":{\"type\":\"int\"}",
				  i ? "," : "", i);
	(void)pc_buf_adds(&b, "}}");
	s = parse(b.data);
	assert_int_equal(pc_schema_problems(s, &out), 201);
	assert_string_equal(out.v[0],
			    "/properties/p000/type: unknown type 'int'");
	assert_string_equal(out.v[199],
			    "/properties/p199/type: unknown type 'int'");
	assert_string_equal(out.v[200],
			    "(root): too many problems, stopping after 200");
	assert_int_equal(pc_schema_problems(s, NULL), 0);
	pc_strvec_release(&out);
	pc_buf_release(&b);
	cJSON_Delete(s);
}

static char *gen_text(const cJSON *s, bool full)
{
	cJSON *v = pc_schema_valid_args(s, full);
	char *text = v ? pc_serde_to_string(v) : strdup("NULL");

	cJSON_Delete(v);
	return text;
}

static void valid_args_match_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(gen_cases); i++) {
		const struct gen_case *t = &gen_cases[i];
		cJSON *s = parse(t->schema);
		char *got = gen_text(s, t->full);

		if (strcmp(got, t->want))
			print_message("gen case %zu: %s\n", i, t->schema);
		assert_string_equal(got, t->want);
		free(got);
		cJSON_Delete(s);
	}
}

static void invalid_args_match_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(invalid_cases); i++) {
		const struct invalid_case *t = &invalid_cases[i];
		cJSON *s = parse(t->schema), *out = cJSON_CreateArray();
		size_t n = pc_schema_invalid_args(s, out, t->max);
		char *got = pc_serde_to_string(out);

		if (strcmp(got, t->want))
			print_message("invalid case %zu: %s\n", i, t->schema);
		assert_string_equal(got, t->want);
		assert_int_equal(n, cJSON_GetArraySize(out));
		free(got);
		cJSON_Delete(out);
		cJSON_Delete(s);
	}
}

static void invalid_args_append_and_respect_max(void **state)
{
	cJSON *s = parse("{\"type\":\"object\",\"properties\":{\"a\":"
			 "{\"type\":\"string\"}},\"required\":[\"a\"]}");
	cJSON *out = parse("[\"kept\"]"), *obj = cJSON_CreateObject();
	char *got;

	(void)state;
	assert_int_equal(pc_schema_invalid_args(s, out, 0), 0);
	assert_int_equal(pc_schema_invalid_args(s, obj, 5), 0);
	assert_int_equal(pc_schema_invalid_args(s, NULL, 5), 0);
	assert_int_equal(pc_schema_invalid_args(s, out, 1), 1);
	got = pc_serde_to_string(out);
	assert_string_equal(got, "[\"kept\",{\"args\":{},\"why\":\"(root): "
				 "missing required property 'a'\"}]");
	free(got);
	cJSON_Delete(obj);
	cJSON_Delete(out);
	cJSON_Delete(s);
}

static void validate_matches_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(validate_cases); i++) {
		const struct validate_case *t = &validate_cases[i];
		cJSON *s = parse(t->schema), *v = parse(t->value);
		char *why = (char *)"unset";
		bool ok = pc_schema_validate(s, v, &why);

		if (ok != !t->want || (t->want && strcmp(why, t->want)))
			print_message("validate case %zu: %s %s -> %s\n", i,
				      t->schema, t->value, ok ? "ok" : why);
		assert_int_equal(ok, !t->want);
		if (t->want)
			assert_string_equal(why, t->want);
		else
			assert_null(why);
		assert_true(pc_schema_validate(s, v, NULL) == ok);
		free(why);
		cJSON_Delete(v);
		cJSON_Delete(s);
	}
}

static void validate_stops_at_depth_limit(void **state)
{
	struct pc_buf want = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_buf val = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *s = nested_items(70), *v;
	char *why = NULL;

	(void)state;
	(void)pc_buf_adds(&val, "{\"x\":");
	for (int i = 0; i < 70; i++)
		(void)pc_buf_addch(&val, '[');
	(void)pc_buf_addch(&val, '1');
	for (int i = 0; i < 70; i++)
		(void)pc_buf_addch(&val, ']');
	(void)pc_buf_addch(&val, '}');
	v = parse(val.data);
	(void)pc_buf_adds(&want, "/x");
	for (int i = 0; i < 64; i++)
		(void)pc_buf_adds(&want, "/0");
	(void)pc_buf_adds(&want, ": schema nesting exceeds 64 levels");
	assert_false(pc_schema_validate(s, v, &why));
	assert_string_equal(why, want.data);
	free(why);
	/* generation stops filling at the limit, so its values still pass */
	for (int full = 0; full < 2; full++) {
		cJSON *g = pc_schema_valid_args(s, full);

		assert_non_null(g);
		assert_true(pc_schema_validate(s, g, NULL));
		cJSON_Delete(g);
	}
	pc_buf_release(&want);
	pc_buf_release(&val);
	cJSON_Delete(v);
	cJSON_Delete(s);
}

/* $defs d0 .. d39, each an anyOf of two references to the next and d40
 * false: 2^40 paths, every one failing. */
static cJSON *exponential_schema(void)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *s;

	(void)pc_buf_adds(&b, "{\"type\":\"object\",\"properties\":{\"x\":"
			      "{\"$ref\":\"#/$defs/d0\"}},\"required\":[\"x\"],"
			      "\"$defs\":{");
	for (int i = 0; i < 40; i++)
		(void)pc_buf_addf(
			&b,
			"\"d%d\":{\"anyOf\":[{\"$ref\":\"#/$defs/d%d\"},"
			"{\"$ref\":\"#/$defs/d%d\"}]},",
			i, i + 1, i + 1);
	(void)pc_buf_adds(&b, "\"d40\":false}}");
	s = parse(b.data);
	pc_buf_release(&b);
	return s;
}

static void hostile_schemas_end_within_budget(void **state)
{
	cJSON *s = exponential_schema(), *v = parse("{\"x\":1}");
	cJSON *out = cJSON_CreateArray();
	struct pc_strvec p = PC_STRVEC_INIT;
	char *why = NULL, *got;

	(void)state;
	assert_false(pc_schema_validate(s, v, &why));
	assert_string_equal(why, "(root): schema too complex to evaluate");
	assert_null(pc_schema_valid_args(s, true));
	assert_int_equal(pc_schema_invalid_args(s, out, 10), 1);
	got = pc_serde_to_string(out);
	assert_string_equal(got, "[{\"args\":{},\"why\":\"(root): missing "
				 "required property 'x'\"}]");
	assert_int_equal(pc_schema_problems(s, &p), 0);
	free(got);
	free(why);
	pc_strvec_release(&p);
	cJSON_Delete(out);
	cJSON_Delete(v);
	cJSON_Delete(s);
}

/* Odd schemas and values: each of the four calls must return without
 * crashing or leaking (ASan checks the rest). */
static const char *const odd_schemas[] = {
	"null",
	"1",
	"\"s\"",
	"[]",
	"{}",
	"true",
	"false",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/a\"}},"
	"\"required\":[\"a\"],\"$defs\":{\"a\":{\"allOf\":[{\"$ref\":"
	"\"#/$defs/a\"}]}}}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#\"}}}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/\"}},"
	"\"$defs\":{\"\":{\"type\":\"integer\"}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\","
	"\"minItems\":1e300}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"minProperties\":100000,\"maxProperties\":1}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
	"\"minLength\":4097}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
	"\"pattern\":\"\\u0000\"}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\","
	"\"minimum\":1e308,\"multipleOf\":1e-308}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"oneOf\":5,\"anyOf\":[],"
	"\"allOf\":{},\"not\":[],\"items\":\"x\",\"enum\":{}}}}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"allOf\":[{\"type\":"
	"\"integer\"},{\"type\":\"integer\",\"minimum\":2},{\"properties\":"
	"{\"z\":1}},{\"required\":5}]}},\"required\":[\"a\"]}",
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\","
	"\"uniqueItems\":true,\"minItems\":40,\"items\":{\"type\":\"boolean\"}}},"
	"\"required\":[\"a\"]}",
};

static const char *const odd_values[] = {
	"null",
	"0",
	"-0.0",
	"18446744073709551615",
	"\"\\u0000\"",
	"[]",
	"{}",
	"{\"a\":[[[[[[[[]]]]]]]]}",
	"{\"a\":\"\\u00e9\"}",
};

static void odd_inputs_do_not_crash(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(odd_schemas); i++) {
		cJSON *s = parse(odd_schemas[i]), *out = cJSON_CreateArray();
		struct pc_strvec p = PC_STRVEC_INIT;

		(void)pc_schema_problems(s, &p);
		cJSON_Delete(pc_schema_valid_args(s, false));
		cJSON_Delete(pc_schema_valid_args(s, true));
		(void)pc_schema_invalid_args(s, out, 50);
		for (size_t j = 0; j < ARRAY_SIZE(odd_values); j++) {
			cJSON *v = parse(odd_values[j]);
			char *why = NULL;

			if (!pc_schema_validate(s, v, &why))
				assert_non_null(why);
			free(why);
			cJSON_Delete(v);
		}
		pc_strvec_release(&p);
		cJSON_Delete(out);
		cJSON_Delete(s);
	}
	assert_true(pc_schema_validate(NULL, NULL, NULL) == false);
}

/* The properties that make the generators useful: every valid value
 * validates and every invalid one fails with the reason it carries. */
static void check_generators(const char *schema)
{
	cJSON *s = parse(schema), *out = cJSON_CreateArray(), *e;
	char *why;

	for (int full = 0; full < 2; full++) {
		cJSON *v = pc_schema_valid_args(s, full);

		why = NULL;
		if (v && !pc_schema_validate(s, v, &why))
			fail_msg("generated value invalid (%s): %s", why,
				 schema);
		cJSON_Delete(v);
	}
	(void)pc_schema_invalid_args(s, out, 100);
	cJSON_ArrayForEach(e, out)
	{
		const cJSON *args = pc_serde_get(e, "args");
		const cJSON *want = pc_serde_get(e, "why");

		why = NULL;
		assert_non_null(args);
		assert_true(cJSON_IsString(want));
		if (pc_schema_validate(s, args, &why))
			fail_msg("invalid value accepted: %s", schema);
		assert_string_equal(why, want->valuestring);
		free(why);
	}
	cJSON_Delete(out);
	cJSON_Delete(s);
}

static void generated_values_agree_with_validation(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(problem_cases); i++)
		check_generators(problem_cases[i].schema);
	for (size_t i = 0; i < ARRAY_SIZE(gen_cases); i++)
		check_generators(gen_cases[i].schema);
	for (size_t i = 0; i < ARRAY_SIZE(invalid_cases); i++)
		check_generators(invalid_cases[i].schema);
	for (size_t i = 0; i < ARRAY_SIZE(validate_cases); i++)
		check_generators(validate_cases[i].schema);
	for (size_t i = 0; i < ARRAY_SIZE(odd_schemas); i++)
		check_generators(odd_schemas[i]);
}

/* Same schema, same values: nothing depends on time or addresses. */
static void generation_is_deterministic(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(invalid_cases); i++) {
		cJSON *s = parse(invalid_cases[i].schema);
		cJSON *a = cJSON_CreateArray(), *b = cJSON_CreateArray();
		char *x, *y;

		(void)pc_schema_invalid_args(s, a, 100);
		(void)pc_schema_invalid_args(s, b, 100);
		x = pc_serde_to_string(a);
		y = pc_serde_to_string(b);
		assert_string_equal(x, y);
		free(x);
		free(y);
		cJSON_Delete(a);
		cJSON_Delete(b);
		cJSON_Delete(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(problems_match_table),
		cmocka_unit_test(problems_stop_at_depth_limit),
		cmocka_unit_test(problems_are_capped),
		cmocka_unit_test(valid_args_match_table),
		cmocka_unit_test(invalid_args_match_table),
		cmocka_unit_test(invalid_args_append_and_respect_max),
		cmocka_unit_test(validate_matches_table),
		cmocka_unit_test(validate_stops_at_depth_limit),
		cmocka_unit_test(hostile_schemas_end_within_budget),
		cmocka_unit_test(odd_inputs_do_not_crash),
		cmocka_unit_test(generated_values_agree_with_validation),
		cmocka_unit_test(generation_is_deterministic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

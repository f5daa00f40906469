/* pc_turn_msg.c - the host's typed conversation messages (message.rs):
 * what serde_json::from_value::<Message> accepts and how the accepted
 * message serializes again. The turn engine keeps every message in that
 * form, so a pre_context hook sees (and may replace) exactly the list the
 * host holds (spec R4.6). */
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"
#include "pc_turn_impl.h"
#include "pc_xalloc.h"

/* serde derive's variant identifier: the name, or its index as an
 * unsigned integer (__FieldVisitor::visit_u64). Returns -1 otherwise. */
static int variant(const cJSON *tag, const char *const *names, int n)
{
	if (cJSON_IsString(tag)) {
		for (int i = 0; i < n; i++)
			if (!strcmp(tag->valuestring, names[i]))
				return i;
		return -1;
	}
	if (cJSON_IsNumber(tag) && tag->valuestring &&
	    strspn(tag->valuestring, "0123456789") == strlen(tag->valuestring) &&
	    strlen(tag->valuestring) == 1 && tag->valuestring[0] - '0' < n)
		return tag->valuestring[0] - '0';
	return -1;
}

/* Option<String>: absent or null is None (nothing copied); a string is
 * copied into `out`; anything else fails. */
static bool opt_string(const cJSON *o, const char *key, cJSON *out,
		       const char *as)
{
	const cJSON *v = pc_serde_get(o, key);

	if (!v || cJSON_IsNull(v))
		return true;
	if (!cJSON_IsString(v))
		return false;
	cJSON_AddStringToObject(out, as, v->valuestring);
	return true;
}

/* String, required unless `def` is not NULL (#[serde(default)]). */
static bool req_string(const cJSON *o, const char *key, const char *def,
		       cJSON *out)
{
	const cJSON *v = pc_serde_get(o, key);

	if (!v && def) {
		cJSON_AddStringToObject(out, key, def);
		return true;
	}
	if (!cJSON_IsString(v))
		return false;
	cJSON_AddStringToObject(out, key, v->valuestring);
	return true;
}

/* ContentPart: {"type":"text","text"} | {"type":"image_url","image_url":
 * {"url","detail"?}}. */
static cJSON *content_part(const cJSON *p)
{
	static const char *const types[] = { "text", "image_url" };
	cJSON *out = cJSON_CreateObject(), *img;
	const cJSON *u;
	int t = cJSON_IsObject(p) ? variant(pc_serde_get(p, "type"), types, 2)
				  : -1;

	if (t < 0)
		goto fail;
	cJSON_AddStringToObject(out, "type", types[t]);
	if (t == 0) {
		if (!req_string(p, "text", NULL, out))
			goto fail;
		return out;
	}
	u = pc_serde_get(p, "image_url");
	img = cJSON_AddObjectToObject(out, "image_url");
	if (!cJSON_IsObject(u) || !req_string(u, "url", NULL, img) ||
	    !opt_string(u, "detail", img, "detail"))
		goto fail;
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

/* Content (untagged): a string, else an array of ContentPart. */
static bool content(const cJSON *v, cJSON *out)
{
	cJSON *parts;
	const cJSON *p;

	if (cJSON_IsString(v)) {
		cJSON_AddStringToObject(out, "content", v->valuestring);
		return true;
	}
	if (!cJSON_IsArray(v))
		return false;
	parts = cJSON_AddArrayToObject(out, "content");
	cJSON_ArrayForEach(p, v)
	{
		cJSON *cp = content_part(p);

		if (!cp)
			return false;
		cJSON_AddItemToArray(parts, cp);
	}
	return true;
}

/* coerce_optional_text: null/absent None; a string; an array's text parts
 * joined by '\n' ("[image]" for image_url parts); any other value as its
 * compact JSON text. */
static void optional_text(const cJSON *v, cJSON *out)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const cJSON *p;
	char *s;

	if (!v || cJSON_IsNull(v))
		return;
	if (cJSON_IsString(v)) {
		cJSON_AddStringToObject(out, "content", v->valuestring);
		return;
	}
	if (!cJSON_IsArray(v)) {
		s = pc_serde_to_string(v);
		cJSON_AddStringToObject(out, "content", s);
		free(s);
		return;
	}
	cJSON_ArrayForEach(p, v)
	{
		const cJSON *t = pc_serde_get(p, "type");
		const cJSON *x = pc_serde_get(p, "text");
		const char *text = "";

		if (cJSON_IsString(t) && !strcmp(t->valuestring, "text"))
			text = cJSON_IsString(x) ? x->valuestring : "";
		else if (cJSON_IsString(t) && !strcmp(t->valuestring, "image_url"))
			text = "[image]";
		if (!*text)
			continue;
		if (b.len)
			pc_buf_addch(&b, '\n');
		pc_buf_adds(&b, text);
	}
	cJSON_AddStringToObject(out, "content", pc_buf_cstr(&b));
	pc_buf_release(&b);
}

/* ToolCall {id: String (default), type: String (default), function:
 * FunctionCall {name (default), arguments: coerce_arguments}}. */
static cJSON *tool_call(const cJSON *c)
{
	cJSON *out = cJSON_CreateObject(), *fn;
	const cJSON *f = pc_serde_get(c, "function"), *a;

	if (!cJSON_IsObject(c) || !req_string(c, "id", "", out) ||
	    !req_string(c, "type", "", out) || !cJSON_IsObject(f))
		goto fail;
	fn = cJSON_AddObjectToObject(out, "function");
	if (!req_string(f, "name", "", fn))
		goto fail;
	a = pc_serde_get(f, "arguments");
	if (!a || cJSON_IsNull(a)) {
		cJSON_AddStringToObject(fn, "arguments", "{}");
	} else if (cJSON_IsString(a)) {
		cJSON_AddStringToObject(fn, "arguments", a->valuestring);
	} else {
		char *s = pc_serde_to_string(a);

		cJSON_AddStringToObject(fn, "arguments", s);
		free(s);
	}
	return out;
fail:
	cJSON_Delete(out);
	return NULL;
}

static bool assistant(const cJSON *m, cJSON *out)
{
	const cJSON *tc = pc_serde_get(m, "tool_calls"), *c;
	cJSON *calls;

	if (!opt_string(m, "name", out, "name"))
		return false;
	optional_text(pc_serde_get(m, "content"), out);
	if (!opt_string(m, "reasoning_content", out, "reasoning_content"))
		return false;
	if (!tc || cJSON_IsNull(tc))
		return true;
	if (!cJSON_IsArray(tc))
		return false;
	calls = cJSON_AddArrayToObject(out, "tool_calls");
	cJSON_ArrayForEach(c, tc)
	{
		cJSON *n = tool_call(c);

		if (!n)
			return false;
		cJSON_AddItemToArray(calls, n);
	}
	return true;
}

cJSON *pc__turn_message(const cJSON *m)
{
	static const char *const roles[] = { "system", "user", "assistant",
					     "tool" };
	cJSON *out = cJSON_CreateObject();
	int role = cJSON_IsObject(m) ? variant(pc_serde_get(m, "role"), roles, 4)
				     : -1;
	bool ok;

	if (role < 0) {
		cJSON_Delete(out);
		return NULL;
	}
	cJSON_AddStringToObject(out, "role", roles[role]);
	switch (role) {
	case 0:
	case 1:
		ok = opt_string(m, "name", out, "name") &&
		     content(pc_serde_get(m, "content"), out);
		break;
	case 2:
		ok = assistant(m, out);
		break;
	default:
		ok = req_string(m, "tool_call_id", NULL, out) &&
		     opt_string(m, "name", out, "name") &&
		     req_string(m, "content", NULL, out);
	}
	if (!ok) {
		cJSON_Delete(out);
		return NULL;
	}
	return out;
}

cJSON *pc__turn_messages(const cJSON *v)
{
	cJSON *out;
	const cJSON *m;

	if (!cJSON_IsArray(v))
		return NULL;
	out = cJSON_CreateArray();
	cJSON_ArrayForEach(m, v)
	{
		cJSON *n = pc__turn_message(m);

		if (!n) {
			cJSON_Delete(out);
			return NULL;
		}
		cJSON_AddItemToArray(out, n);
	}
	return out;
}

/* pc_mock.c - the scripted model (pc_mock.h). */
#include "pc_mock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define DEFAULT_CHUNK 16

struct pc_mock {
	cJSON *replies;	 /* array of validated reply objects */
	cJSON *rules;	 /* array of {when, reply}, or NULL */
	cJSON *fallback; /* reply object, or NULL for {"content": ""} */
	cJSON *requests; /* recorded requests */
	int next;	 /* index of the next unused reply */
	int last_chunk;	 /* chunk_size of the most recent reply */
};

static const char *const faults[] = { "empty", "http_500", "http_429",
				      "http_503" };
static const int fault_status[] = { 0, 500, 429, 503 };

static int fault_index(const char *s)
{
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (strcmp(s, faults[i]) == 0)
			return (int)i;
	return -1;
}

static const char *const script_keys[] = { "replies", "rules", "fallback",
					   NULL };
static const char *const reply_keys[] = { "content",	"tool_calls",
					  "fault",	"reasoning_content",
					  "chunk_size", NULL };
static const char *const call_keys[] = { "name", "arguments", "arguments_raw",
					 NULL };
static const char *const rule_keys[] = { "when", "reply", NULL };
static const char *const when_keys[] = { "last_user_contains",
					 "last_tool_contains", NULL };

/* Every member of object `o` is one of `keys`: a misspelled key would
 * otherwise be ignored and the script would mean something else. The
 * error's `where` is the path of the key itself. */
static int known_keys(const cJSON *o, const char *path, const char *what,
		      const char *const *keys, struct pc_err *err)
{
	const cJSON *k;

	cJSON_ArrayForEach(k, o)
	{
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
		size_t i = 0;

		while (keys[i] && strcmp(keys[i], k->string))
			i++;
		if (keys[i])
			continue;
		for (i = 0; keys[i]; i++)
			pc_buf_addf(&b, "%s%s", i ? ", " : "", keys[i]);
		pc_err_set(err, PC_EINVAL,
			   "%s%sunknown key '%s' in %s (expected one of: %s)",
			   path, *path ? ": " : "", k->string, what,
			   pc_buf_cstr(&b));
		snprintf(err->where, sizeof(err->where), "%s%s%s", path,
			 *path ? "." : "", k->string);
		pc_buf_release(&b);
		return PC_EINVAL;
	}
	return 0;
}

/* PC_EINVAL "PATH: MESSAGE" with `where` = PATH. */
static int bad(struct pc_err *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct pc_err *err, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pc_err_set(err, PC_EINVAL, "%s: %s", path, msg);
	snprintf(err->where, sizeof(err->where), "%s", path);
	return PC_EINVAL;
}

/* bad() for the member `key` of the object at `path`. */
static int member(struct pc_err *err, const char *path, const char *key,
		  const char *msg)
{
	char sub[256];

	snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
	return bad(err, sub, "%s", msg);
}

static int check_call(const cJSON *c, const char *path, struct pc_err *err)
{
	const cJSON *name = pc_serde_get(c, "name");
	const cJSON *raw = pc_serde_get(c, "arguments_raw");

	if (!cJSON_IsObject(c))
		return bad(err, path, "not an object");
	if (known_keys(c, path, "a tool call", call_keys, err))
		return PC_EINVAL;
	if (!cJSON_IsString(name))
		return bad(err, path, "missing \"name\"");
	if (raw && !cJSON_IsString(raw))
		return member(err, path, "arguments_raw", "not a string");
	if (raw && pc_serde_get(c, "arguments"))
		return bad(err, path, "both \"arguments\" and \"arguments_raw\"");
	return 0;
}

static int check_reply(const cJSON *r, const char *path, struct pc_err *err)
{
	const cJSON *content = pc_serde_get(r, "content");
	const cJSON *calls = pc_serde_get(r, "tool_calls");
	const cJSON *fault = pc_serde_get(r, "fault");
	const cJSON *reason = pc_serde_get(r, "reasoning_content");
	const cJSON *chunk = pc_serde_get(r, "chunk_size");
	char sub[256];
	int i = 0, rc;
	const cJSON *c;

	if (!cJSON_IsObject(r))
		return bad(err, path, "not an object");
	if (known_keys(r, path, "a model reply", reply_keys, err))
		return PC_EINVAL;
	if (content && !cJSON_IsString(content) && !cJSON_IsNull(content))
		return member(err, path, "content", "not a string");
	if (reason && !cJSON_IsString(reason))
		return member(err, path, "reasoning_content", "not a string");
	if (chunk && (!cJSON_IsNumber(chunk) || chunk->valuedouble < 1 ||
		      chunk->valuedouble > 1e6))
		return member(err, path, "chunk_size", "not a positive integer");
	if (fault &&
	    (!cJSON_IsString(fault) || fault_index(fault->valuestring) < 0))
		return member(
			err, path, "fault",
			"expected one of \"empty\", \"http_500\", \"http_429\", \"http_503\"");
	if (calls && !cJSON_IsArray(calls))
		return member(err, path, "tool_calls", "not an array");
	cJSON_ArrayForEach(c, calls)
	{
		snprintf(sub, sizeof(sub), "%s.tool_calls[%d]", path, i++);
		rc = check_call(c, sub, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_rule(const cJSON *rule, const char *path, struct pc_err *err)
{
	const cJSON *when = pc_serde_get(rule, "when");
	const cJSON *u, *t;
	char sub[256];

	if (!cJSON_IsObject(rule))
		return bad(err, path, "not an object");
	if (known_keys(rule, path, "a model rule", rule_keys, err))
		return PC_EINVAL;
	if (!cJSON_IsObject(when))
		return bad(err, path, "missing \"when\"");
	snprintf(sub, sizeof(sub), "%s.when", path);
	if (known_keys(when, sub, "a rule's 'when'", when_keys, err))
		return PC_EINVAL;
	u = pc_serde_get(when, "last_user_contains");
	t = pc_serde_get(when, "last_tool_contains");
	if ((u && !cJSON_IsString(u)) || (t && !cJSON_IsString(t)) ||
	    (!u && !t))
		return bad(err, sub,
			   "expected \"last_user_contains\" or \"last_tool_contains\" with a string");
	if (!pc_serde_get(rule, "reply"))
		return bad(err, path, "missing \"reply\"");
	snprintf(sub, sizeof(sub), "%s.reply", path);
	return check_reply(pc_serde_get(rule, "reply"), sub, err);
}

static int check_script(const cJSON *s, struct pc_err *err)
{
	const cJSON *replies = pc_serde_get(s, "replies");
	const cJSON *rules = pc_serde_get(s, "rules");
	const cJSON *fb = pc_serde_get(s, "fallback");
	const cJSON *x;
	char path[64];
	int i = 0, rc;

	if (!cJSON_IsObject(s))
		return pc_err_set(err, PC_EINVAL,
				  "the script is not a JSON object (replies, rules, fallback)");
	if (known_keys(s, "", "the script", script_keys, err))
		return PC_EINVAL;
	if (replies && !cJSON_IsArray(replies))
		return bad(err, "replies", "not an array");
	if (rules && !cJSON_IsArray(rules))
		return bad(err, "rules", "not an array");
	cJSON_ArrayForEach(x, replies)
	{
		snprintf(path, sizeof(path), "replies[%d]", i++);
		if ((rc = check_reply(x, path, err)))
			return rc;
	}
	i = 0;
	cJSON_ArrayForEach(x, rules)
	{
		snprintf(path, sizeof(path), "rules[%d]", i++);
		if ((rc = check_rule(x, path, err)))
			return rc;
	}
	return fb ? check_reply(fb, "fallback", err) : 0;
}

static cJSON *dup_or_null(const cJSON *v)
{
	return v ? cJSON_Duplicate(v, 1) : NULL;
}

int pc_mock_new_json(const cJSON *script, struct pc_mock **out,
		     struct pc_err *err)
{
	struct pc_mock *m;
	int rc;

	*out = NULL;
	rc = check_script(script, err);
	if (rc)
		return rc;
	m = pc_xcalloc(1, sizeof(*m));
	m->replies = dup_or_null(pc_serde_get(script, "replies"));
	if (!m->replies)
		m->replies = cJSON_CreateArray();
	m->rules = dup_or_null(pc_serde_get(script, "rules"));
	m->fallback = dup_or_null(pc_serde_get(script, "fallback"));
	m->requests = cJSON_CreateArray();
	m->last_chunk = DEFAULT_CHUNK;
	if (!m->replies || !m->requests) {
		pc_mock_free(m);
		return pc_err_set(err, PC_ENOMEM, "out of memory");
	}
	*out = m;
	return 0;
}

int pc_mock_new_text(const char *text, size_t len, struct pc_mock **out,
		     struct pc_err *err)
{
	cJSON *v = NULL;
	int rc;

	*out = NULL;
	rc = pc_serde_parse(text, len, &v, err);
	if (rc)
		return rc;
	rc = pc_mock_new_json(v, out, err);
	cJSON_Delete(v);
	return rc;
}

void pc_mock_free(struct pc_mock *m)
{
	if (!m)
		return;
	cJSON_Delete(m->replies);
	cJSON_Delete(m->rules);
	cJSON_Delete(m->fallback);
	cJSON_Delete(m->requests);
	free(m);
}

/* The text of a message's content: a string, or the "text" parts of an
 * OpenAI content array joined with newlines. Caller frees. */
static char *content_text(const cJSON *msg)
{
	const cJSON *c = pc_serde_get(msg, "content");
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const cJSON *part, *parts;

	if (cJSON_IsString(c))
		return pc_xstrdup(c->valuestring);
	parts = cJSON_IsArray(c) ? c : NULL;
	cJSON_ArrayForEach(part, parts)
	{
		const cJSON *t = pc_serde_get(part, "text");

		if (!cJSON_IsString(t))
			continue;
		if (b.len)
			pc_buf_addch(&b, '\n');
		pc_buf_adds(&b, t->valuestring);
	}
	return pc_buf_detach(&b, NULL);
}

static bool last_role_contains(const cJSON *messages, const char *role,
			       const char *needle)
{
	const cJSON *msg = NULL, *x;
	char *text;
	bool hit;

	cJSON_ArrayForEach(x, messages)
	{
		const cJSON *r = pc_serde_get(x, "role");

		if (cJSON_IsString(r) && strcmp(r->valuestring, role) == 0)
			msg = x;
	}
	if (!msg)
		return false;
	text = content_text(msg);
	hit = strstr(text, needle) != NULL;
	free(text);
	return hit;
}

static const cJSON *pick(struct pc_mock *m, const cJSON *messages)
{
	const cJSON *rule;

	if (m->next < cJSON_GetArraySize(m->replies))
		return cJSON_GetArrayItem(m->replies, m->next++);
	cJSON_ArrayForEach(rule, m->rules)
	{
		const cJSON *when = pc_serde_get(rule, "when");
		const cJSON *u = pc_serde_get(when, "last_user_contains");
		const cJSON *t = pc_serde_get(when, "last_tool_contains");

		if (u && !last_role_contains(messages, "user", u->valuestring))
			continue;
		if (t && !last_role_contains(messages, "tool", t->valuestring))
			continue;
		return pc_serde_get(rule, "reply");
	}
	return m->fallback;
}

static cJSON *build_call(const cJSON *c, int req, int idx)
{
	const cJSON *raw = pc_serde_get(c, "arguments_raw");
	const cJSON *args = pc_serde_get(c, "arguments");
	cJSON *call = cJSON_CreateObject(), *fn = cJSON_CreateObject();
	char id[64];
	char *text;

	snprintf(id, sizeof(id), "call_%d_%d", req, idx);
	cJSON_AddStringToObject(call, "id", id);
	cJSON_AddStringToObject(call, "type", "function");
	cJSON_AddStringToObject(fn, "name",
				pc_serde_get(c, "name")->valuestring);
	if (raw)
		text = pc_xstrdup(raw->valuestring);
	else if (args)
		text = pc_serde_to_string(args);
	else
		text = pc_xstrdup("{}");
	cJSON_AddStringToObject(fn, "arguments", text);
	free(text);
	cJSON_AddItemToObject(call, "function", fn);
	return call;
}

static cJSON *build_reply(const cJSON *r, int req)
{
	cJSON *msg = cJSON_CreateObject(), *calls;
	const cJSON *content = pc_serde_get(r, "content");
	const cJSON *reason = pc_serde_get(r, "reasoning_content");
	const cJSON *c;
	int i = 0;

	cJSON_AddStringToObject(msg, "role", "assistant");
	if (cJSON_IsString(content))
		cJSON_AddStringToObject(msg, "content", content->valuestring);
	else if (pc_serde_get(r, "tool_calls") || cJSON_IsNull(content))
		cJSON_AddNullToObject(msg, "content");
	else
		cJSON_AddStringToObject(msg, "content", "");
	if (reason)
		cJSON_AddStringToObject(msg, "reasoning_content",
					reason->valuestring);
	if (cJSON_GetArraySize(pc_serde_get(r, "tool_calls")) == 0)
		return msg;
	calls = cJSON_AddArrayToObject(msg, "tool_calls");
	cJSON_ArrayForEach(c, pc_serde_get(r, "tool_calls"))
	{
		cJSON_AddItemToArray(calls, build_call(c, req, i++));
	}
	return msg;
}

static void record(struct pc_mock *m, const cJSON *messages, const cJSON *tools)
{
	cJSON *rec = cJSON_CreateObject();

	cJSON_AddItemToObject(rec, "messages", cJSON_Duplicate(messages, 1));
	if (tools)
		cJSON_AddItemToObject(rec, "tools", cJSON_Duplicate(tools, 1));
	else
		cJSON_AddNullToObject(rec, "tools");
	cJSON_AddItemToArray(m->requests, rec);
}

int pc_mock_reply(struct pc_mock *m, const cJSON *messages, const cJSON *tools,
		  cJSON **reply, int *http_status, struct pc_err *err)
{
	const cJSON *r, *fault, *chunk;
	int req;

	*reply = NULL;
	if (http_status)
		*http_status = 200;
	if (!cJSON_IsArray(messages))
		return pc_err_set(err, PC_EINVAL, "messages: not an array");
	req = cJSON_GetArraySize(m->requests);
	record(m, messages, tools);
	r = pick(m, messages);
	chunk = pc_serde_get(r, "chunk_size");
	m->last_chunk = chunk ? (int)chunk->valuedouble : DEFAULT_CHUNK;
	fault = pc_serde_get(r, "fault");
	if (fault && fault_status[fault_index(fault->valuestring)] != 0) {
		if (http_status)
			*http_status =
				fault_status[fault_index(fault->valuestring)];
		return 0;
	}
	if (!r || fault) {
		*reply = cJSON_CreateObject();
		cJSON_AddStringToObject(*reply, "role", "assistant");
		cJSON_AddStringToObject(*reply, "content", "");
		return 0;
	}
	*reply = build_reply(r, req);
	return 0;
}

int pc_mock_turn_model(void *ctx, const cJSON *messages, const cJSON *tools,
		       cJSON **reply, struct pc_err *err)
{
	int status = 0;
	int rc = pc_mock_reply(ctx, messages, tools, reply, &status, err);

	if (rc == 0 && !*reply)
		return pc_err_set(err, PC_EIO,
				  "model request failed: HTTP status %d",
				  status);
	return rc;
}

bool pc_mock_consumed(const struct pc_mock *m, char **why)
{
	int total = cJSON_GetArraySize(m->replies);

	if (why)
		*why = NULL;
	if (m->next >= total)
		return true;
	if (why)
		*why = pc_xasprintf("%d of %d scripted replies were not used",
				    total - m->next, total);
	return false;
}

const cJSON *pc_mock_requests(const struct pc_mock *m)
{
	return m->requests;
}

void pc_mock_record_extra(struct pc_mock *m, const char *key, cJSON *value)
{
	int n = cJSON_GetArraySize(m->requests);
	cJSON *last;

	if (n == 0) {
		cJSON_Delete(value);
		return;
	}
	last = cJSON_GetArrayItem(m->requests, n - 1);
	cJSON_DeleteItemFromObjectCaseSensitive(last, key);
	cJSON_AddItemToObject(last, key, value);
}

int pc_mock_chunk_size(const struct pc_mock *m)
{
	return m->last_chunk;
}

/* pc_mock_http_sse.c - a scripted reply as OpenAI chat.completion.chunk
 * Server-Sent Events. */
#include <stdlib.h>
#include <string.h>

#include "pc_mock_http_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

struct sse {
	const struct pc__mock_completion *m;
	struct pc_strvec *out;
};

/* emit - one `data: {chunk}` event with `delta` (taken) and
 * `finish` (NULL: null). */
static void emit(const struct sse *s, cJSON *delta, const char *finish)
{
	cJSON *v = cJSON_CreateObject();
	cJSON *ch = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(v, "id", s->m->id);
	cJSON_AddStringToObject(v, "object", "chat.completion.chunk");
	cJSON_AddNumberToObject(v, "created", (double)s->m->created);
	cJSON_AddStringToObject(v, "model", s->m->model);
	cJSON_AddNumberToObject(ch, "index", 0);
	cJSON_AddItemToObject(ch, "delta", delta);
	if (finish)
		cJSON_AddStringToObject(ch, "finish_reason", finish);
	else
		cJSON_AddNullToObject(ch, "finish_reason");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(v, "choices"), ch);
	text = pc_serde_to_string(v);
	pc_strvec_push_nodup(s->out, pc_xasprintf("data: %s\n\n", text));
	free(text);
	cJSON_Delete(v);
}

/* piece - the length of the next piece of `s` of at most `n` bytes (at
 * least one character), never splitting a UTF-8 sequence. */
static size_t piece(const char *s, size_t n)
{
	size_t len = strlen(s);

	if (len <= n)
		return len;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	if (n == 0) {
		n = 1;
		while (s[n] && ((unsigned char)s[n] & 0xC0) == 0x80)
			n++;
	}
	return n;
}

static void text_deltas(const struct sse *s, const char *key, const char *text,
			size_t chunk)
{
	while (*text) {
		size_t n = piece(text, chunk);
		char *part = pc_xmemdup(text, n);
		cJSON *d = cJSON_CreateObject();

		cJSON_AddStringToObject(d, key, part);
		emit(s, d, NULL);
		free(part);
		text += n;
	}
}

/* tool_delta - {"tool_calls":[{"index":i, ...}]} with `call` (taken). */
static cJSON *tool_delta(int i, cJSON *call)
{
	cJSON *d = cJSON_CreateObject();

	cJSON_AddNumberToObject(call, "index", i);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "tool_calls"), call);
	return d;
}

static void tool_deltas(const struct sse *s, const cJSON *calls, size_t chunk)
{
	const cJSON *c;
	int i = 0;

	cJSON_ArrayForEach(c, calls)
	{
		const cJSON *fn = pc_serde_get(c, "function");
		const cJSON *name = pc_serde_get(fn, "name");
		const cJSON *args = pc_serde_get(fn, "arguments");
		const char *a = cJSON_IsString(args) ? args->valuestring : "";
		cJSON *call = cJSON_CreateObject(), *f;

		cJSON_AddItemToObject(
			call, "id", cJSON_Duplicate(pc_serde_get(c, "id"), 1));
		cJSON_AddStringToObject(call, "type", "function");
		f = cJSON_AddObjectToObject(call, "function");
		cJSON_AddStringToObject(f, "name",
					cJSON_IsString(name) ? name->valuestring
							     : "");
		cJSON_AddStringToObject(f, "arguments", "");
		emit(s, tool_delta(i, call), NULL);
		while (*a) {
			size_t n = piece(a, chunk);
			char *part = pc_xmemdup(a, n);

			call = cJSON_CreateObject();
			f = cJSON_AddObjectToObject(call, "function");
			cJSON_AddStringToObject(f, "arguments", part);
			emit(s, tool_delta(i, call), NULL);
			free(part);
			a += n;
		}
		i++;
	}
}

void pc__mock_sse_events(const cJSON *reply,
			 const struct pc__mock_completion *m,
			 size_t chunk_size, struct pc_strvec *out)
{
	const struct sse s = { .m = m, .out = out };
	const cJSON *content = pc_serde_get(reply, "content");
	const cJSON *reasoning = pc_serde_get(reply, "reasoning_content");
	const cJSON *calls = pc_serde_get(reply, "tool_calls");
	cJSON *d = cJSON_CreateObject();

	cJSON_AddStringToObject(d, "role", "assistant");
	cJSON_AddStringToObject(d, "content", "");
	emit(&s, d, NULL);
	if (cJSON_IsString(reasoning))
		text_deltas(&s, "reasoning_content", reasoning->valuestring,
			    chunk_size);
	if (cJSON_IsString(content))
		text_deltas(&s, "content", content->valuestring, chunk_size);
	tool_deltas(&s, calls, chunk_size);
	emit(&s, cJSON_CreateObject(),
	     cJSON_GetArraySize(calls) > 0 ? "tool_calls" : "stop");
	if (m->usage) {
		cJSON *v = cJSON_CreateObject();
		char *text;

		cJSON_AddStringToObject(v, "id", m->id);
		cJSON_AddStringToObject(v, "object", "chat.completion.chunk");
		cJSON_AddNumberToObject(v, "created", (double)m->created);
		cJSON_AddStringToObject(v, "model", m->model);
		cJSON_AddArrayToObject(v, "choices");
		cJSON_AddItemToObject(v, "usage", cJSON_Duplicate(m->usage, 1));
		text = pc_serde_to_string(v);
		pc_strvec_push_nodup(out, pc_xasprintf("data: %s\n\n", text));
		free(text);
		cJSON_Delete(v);
	}
	pc_strvec_push(out, "data: [DONE]\n\n");
}

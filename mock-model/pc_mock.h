/* pc_mock.h - a scripted model: the deterministic stand-in for an LLM that
 * drives whole agent turns through the reference host (in-process) and
 * serves an OpenAI-compatible chat-completions API (pc_mock_http.h).
 *
 * A script is a JSON object (scenario files give the same shape in YAML):
 *
 *   {
 *     "replies": [                    consumed in order, one per request
 *       {"content": "text"},
 *       {"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}},
 *                       {"name": "read_file", "arguments": {"path": "a"}}]},
 *       {"tool_calls": [{"name": "x", "arguments_raw": "{not json"}]},
 *       {"fault": "empty"}            an empty assistant message
 *       {"fault": "http_500"}         HTTP only: status 500 (also 429, 503)
 *     ],
 *     "rules": [                      tried when "replies" is exhausted,
 *       {"when": {"last_user_contains": "deploy"},      first match wins
 *        "reply": {"content": "no"}},
 *       {"when": {"last_tool_contains": "error"}, "reply": {...}}
 *     ],
 *     "fallback": {"content": "done"} otherwise (default: {"content": ""})
 *   }
 *
 * A reply may also carry "reasoning_content" (string) and, for SSE,
 * "chunk_size" (bytes of content per delta, default 16). Tool call ids are
 * generated deterministically: "call_<request index>_<call index>".
 *
 * Ownership: struct pc_mock is opaque; pc_mock_new_* returns a new one,
 * freed with pc_mock_free. cJSON arguments are borrowed; returned trees are
 * new and owned by the caller. Not thread-safe: one request at a time
 * (the HTTP server serialises). Nothing prints or exits.
 */
#ifndef PC_MOCK_H
#define PC_MOCK_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "pc_err.h"

struct pc_mock;

/* pc_mock_new_json - build a model from a script object (borrowed; copied).
 * Errors: PC_EINVAL with a message naming the JSON path of the bad part
 * ("replies[2].tool_calls[0]: missing \"name\"", "replies[0]: unknown key
 * 'contnt' in a model reply (expected one of: ...)": a key no level of
 * the script has is an error, so a typo cannot silently change what the
 * script means), and err->where the path of the offending member itself
 * ("replies[0].contnt") for callers that point at it in a file
 * (pc_model_script.h). The one set of errors for every loader. */
int pc_mock_new_json(const cJSON *script, struct pc_mock **out,
		     struct pc_err *err);
/* pc_mock_new_text - the same from JSON text (serde_json semantics). */
int pc_mock_new_text(const char *text, size_t len, struct pc_mock **out,
		     struct pc_err *err);
void pc_mock_free(struct pc_mock *m);

/* pc_mock_reply - the next assistant message for a request whose OpenAI
 * chat `messages` array and `tools` array (may be NULL) are given
 * (borrowed; both are recorded). *reply gets a new object in the host's
 * message shape: {"role":"assistant","content":<string|null>,
 * "tool_calls":[{"id","type":"function","function":{"name",
 * "arguments":"<JSON text>"}}]} (tool_calls omitted when none). When the
 * script asks for an HTTP fault, *reply is NULL and *http_status (may be
 * NULL) gets the status. Returns 0, or PC_EINVAL when `messages` is not an
 * array. */
int pc_mock_reply(struct pc_mock *m, const cJSON *messages, const cJSON *tools,
		  cJSON **reply, int *http_status, struct pc_err *err);

/* pc_mock_turn_model - pc_mock_reply shaped as the turn engine's model
 * callback (struct pc_turn_opts.model): `ctx` is the struct pc_mock.
 * A scripted HTTP fault becomes PC_EIO "model request failed: HTTP status
 * N"; other errors are pc_mock_reply's. *reply is new (caller frees). */
int pc_mock_turn_model(void *ctx, const cJSON *messages, const cJSON *tools,
		       cJSON **reply, struct pc_err *err);

/* pc_mock_consumed - true when every scripted reply was used; otherwise
 * *why (may be NULL) gets a new string such as "2 of 5 scripted replies
 * were not used". Caller frees. */
bool pc_mock_consumed(const struct pc_mock *m, char **why);

/* pc_mock_requests - the recorded requests, an array of
 * {"messages": [...], "tools": [...]|null} (plus whatever the HTTP layer
 * adds with pc_mock_record_extra). Borrowed; valid until the next call. */
const cJSON *pc_mock_requests(const struct pc_mock *m);

/* pc_mock_record_extra - attach `key`: `value` (taken) to the most recent
 * recorded request (the HTTP server records headers and the raw body). */
void pc_mock_record_extra(struct pc_mock *m, const char *key, cJSON *value);

/* pc_mock_chunk_size - the "chunk_size" (bytes of content per SSE delta)
 * of the reply chosen by the most recent pc_mock_reply, or 16 when it set
 * none or no reply was made yet. Never fails. */
int pc_mock_chunk_size(const struct pc_mock *m);

#endif

/* pc_chatcli_causes.h - the facts behind three ChatCLI faults whose cause
 * the bare symptom does not name (issue 17; spec chatcli.md X1, X3, X7,
 * O1):
 *   - stderr lines in what the model receives (X7 merges them into the
 *     result): which lines, and how many bytes of its context they take;
 *   - the host's whole environment (X3) printed into the model's context:
 *     which secret-shaped variables, by name only;
 *   - string parameters of the schema with no length bound: an argument
 *     of MAX_ARG_STRLEN bytes or more makes the kernel refuse the host's
 *     exec (E2BIG), and argv plus the environment must fit in ARG_MAX.
 * Pure functions over the host's facts (pc_chatcli.h); nothing runs a
 * plugin, prints or exits. Strings returned are new (caller frees);
 * vectors are appended to.
 */
#ifndef PC_CHATCLI_CAUSES_H
#define PC_CHATCLI_CAUSES_H

#include <stdbool.h>
#include <stddef.h>

#include "pc_chatcli.h"
#include "pc_strvec.h"

/* Linux MAX_ARG_STRLEN (32 pages of 4096 bytes): the longest argument
 * exec accepts, its terminating NUL included; one of this many bytes or
 * more fails with E2BIG. */
#define PC_CHATCLI_ARG_STRLEN_MAX 131072u
/* Secret-shaped values shorter than this are not looked for in output
 * (they would match by chance). */
#define PC_CHATCLI_SECRET_MIN 8u

/* --- stderr in the model's context (X7, O1) --------------------------- */

struct pc_chatcli_stderr_use {
	size_t lines; /* stderr lines that reach the model */
	size_t bytes; /* bytes of its context they take ('\n' counted) */
	struct pc_strvec shown; /* the first three of them: "line N: TEXT"
				   (N in the merged result, TEXT at most 80
				   bytes, control bytes as \xNN) */
	char *first;		/* the first such line's text, or NULL */
};

#define PC_CHATCLI_STDERR_USE_INIT         \
	{                                  \
		0, 0, PC_STRVEC_INIT, NULL \
	}

/* pc_chatcli_stderr_use - of call `c`'s stderr lines (c->err_lines), the
 * ones in c->output and the bytes they take there. An error's output is
 * the merged text whole; a success's went through O1: with passthrough
 * compression the 30000-byte truncation keeps the first 5000 and last
 * 1000 bytes, and exactly those parts count; when a compressor changed
 * the text, a line counts when its text is still in the output. Fills
 * *u (PC_CHATCLI_STDERR_USE_INIT; release with
 * pc_chatcli_stderr_use_release). */
void pc_chatcli_stderr_use(const struct pc_chatcli_call *c,
			   struct pc_chatcli_stderr_use *u);
void pc_chatcli_stderr_use_release(struct pc_chatcli_stderr_use *u);

/* --- the environment in the model's context (X3) ---------------------- */

/* pc_chatcli_secret_name - `name` looks like it holds a secret: one of
 * its '_'-separated parts (case-insensitive) is KEY, APIKEY, TOKEN,
 * SECRET, SECRETS, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
 * CREDENTIALS, PRIVATE or AUTH, and its last part is not FILE, PATH, DIR,
 * URL, URI, HOST, PORT, ID, NAME, USER, TYPE or MODE (OPENAI_API_KEY and
 * GITHUB_TOKEN are; OPENAI_MAX_TOKENS, XAUTHORITY and
 * AWS_ACCESS_KEY_ID are not). */
bool pc_chatcli_secret_name(const char *name, size_t n);

/* pc_chatcli_seed_canaries - add to `env` ("NAME=value" strings) the
 * secret-shaped variables a ChatCLI host has in its environment
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLEAI_API_KEY, XAI_API_KEY) that
 * `env` lacks, and PLUGCHECK_CANARY_SECRET, each with a value
 * "plugcheck-canary-<NAME>-<nonce>" that output never holds by chance.
 * `nonce` is borrowed. */
void pc_chatcli_seed_canaries(struct pc_strvec *env, const char *nonce);

/* pc_chatcli_printed_secrets - append to `names` (once each, in
 * environment order) every secret-shaped variable of `envp`
 * (NULL-terminated "NAME=value"; may be NULL) whose value, at least
 * PC_CHATCLI_SECRET_MIN bytes, occurs in text[0..n). Returns how many
 * were appended. */
size_t pc_chatcli_printed_secrets(char *const *envp, const char *text, size_t n,
				  struct pc_strvec *names);

/* pc_chatcli_redact - `text` (a C string) with every value of a
 * secret-shaped variable of `envp` (as above) replaced by
 * "[value of NAME]": what a report may show. New string. */
char *pc_chatcli_redact(char *const *envp, const char *text);

/* --- arguments the kernel refuses (X1, E2BIG) ------------------------- */

/* A string parameter of a schema that bounds its length nowhere under
 * MAX_ARG_STRLEN. */
struct pc_chatcli_long_arg {
	char *name;	   /* the flag ("--text") or property ("text") */
	char *subcommand;  /* its subcommand, or NULL */
	long long max_len; /* the maxLength it declares, or -1 */
	bool whole_json;   /* the model sends the whole object as ONE
			      argument (a JSON object without cmd, A7.3):
			      all its values share the limit */
};

struct pc_chatcli_long_args {
	struct pc_chatcli_long_arg *v;
	size_t nr;
};

#define PC_CHATCLI_LONG_ARGS_INIT \
	{                         \
		NULL, 0           \
	}

/* pc_chatcli_long_args - the string parameters of the schema text
 * schema[0..n) (the plugin's --schema output, Go JSON) without a
 * maxLength ("maxLength", "max_length", any case) under
 * PC_CHATCLI_ARG_STRLEN_MAX: the host's shape (subcommands[].flags[]
 * whose type is absent or not a number or boolean type; each value is an
 * argument of its own, A7.4), JSON Schema (properties with type string,
 * at the top or under parameters/input_schema/inputSchema; the object is
 * one argument) and the docs' parameters list (DOC3). Appends to *out;
 * returns the count. */
size_t pc_chatcli_long_args(const char *schema, size_t n,
			    struct pc_chatcli_long_args *out);
void pc_chatcli_long_args_release(struct pc_chatcli_long_args *a);

/* pc_chatcli_arg_max - the kernel's budget for argv and envp together
 * (fs/exec.c): the stack limit over 4, at most 6 MiB (3/4 of the 8 MiB
 * default stack), at least MAX_ARG_STRLEN; `stack_limit` in bytes, 0 for
 * this process's RLIMIT_STACK (unlimited counts as the 6 MiB cap). */
size_t pc_chatcli_arg_max(size_t stack_limit);

/* pc_chatcli_env_bytes - what `envp` (NULL-terminated) takes of that
 * budget: each string with its NUL, and a pointer each. */
size_t pc_chatcli_env_bytes(char *const *envp);

#endif

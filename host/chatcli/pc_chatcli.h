/* pc_chatcli.h - the reference host for ChatCLI executable plugins.
 *
 * The contract is ../shared/spec/chatcli.md at diillson/chatcli cda4157
 * ("HEAD"); rule ids (D, M, S, A, X, O, G) are cited per function. A
 * ChatCLI plugin is one executable: the host runs it with `--metadata` and
 * `--schema` at every reload (M1, S1), registers it under the metadata
 * name (D5), and runs it with argv built from the model's call (§4, X1).
 * Signatures are checked only at reload (G7).
 *
 * The model's side: pc_chatcli_parse_calls() takes the model's reply to
 * tool calls (A1-A3); each call's args then go through
 * pc_chatcli_recovered_to_argv() (A4-A8). pc_chatcli_args_to_argv() does
 * A3-A8 for an args value given directly.
 *
 * Caller protocol for one plugin file:
 *   1. pc_chatcli_sig_verify() - the G5 decision (may skip the file);
 *   2. pc_chatcli_probe() - `--metadata` then `--schema` (M1-M5, S1-S2);
 *   3. pc_chatcli_args_to_argv() - the model's `args` text to argv (§4);
 *   4. pc_chatcli_call() - run it as the host does (X1-X8) and deliver the
 *      result the model receives (O1: compression, then truncation), or
 *      pc_chatcli_remote_call() for a plugin served by `chatcli server`
 *      (R1-R3).
 * pc_chatcli_discover() does 1-2 over a whole plugins directory (D1-D8).
 *
 * Text is bytes plus a length, as the host's Go strings are: NUL bytes in
 * metadata, arguments and output are kept, and the Go library behaviour
 * the host leans on is reproduced (encoding/json's scanner, decoder and
 * marshaller; html.UnescapeString's whole table; the strings and unicode
 * packages of Go 1.19, Unicode 13.0.0; bufio's 4096-byte reads; the
 * cli/compress package).
 *
 * Where plugcheck differs from the host, on purpose:
 *   - probes are bounded by plugcheck's own timeout (the host has none,
 *     M1); a probe that passes it is reported as `hung`;
 *   - calls that a background process stretches past the deadline (X6)
 *     are followed up to a hard cap, then reported as capped;
 *   - every leftover process is killed after the verdict (pc_proc sweep);
 *   - the CCR store of O1 is not written: the key is computed only.
 * Not reproduced: the `/coder`-mode rules A5 and the @coder fixes of A4;
 * the code compressor of O1 (it needs a hint plugins cannot give); on
 * the remote path, transport failures, authentication, rate limiting and
 * the server's non-English messages.
 *
 * Strings returned by this module are new heap strings the caller frees
 * with free(); structs are released with their _release function. Nothing
 * here prints or exits.
 */
#ifndef PC_CHATCLI_H
#define PC_CHATCLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_proc.h"
#include "pc_strvec.h"

/* O1: the host's truncation cap and kept head/tail, in bytes. */
#define PC_CHATCLI_TRUNC_CAP  30000
#define PC_CHATCLI_TRUNC_HEAD 5000
#define PC_CHATCLI_TRUNC_TAIL 1000
/* O1: outputs at or over this many bytes go through compression. */
#define PC_CHATCLI_COMPRESS_MIN 4000
/* X5: the default plugin timeout, 15 minutes. */
#define PC_CHATCLI_DEFAULT_TIMEOUT_MS (15 * 60 * 1000)

/* --- Go strings -------------------------------------------------------- */

/* A Go string: `n` bytes at `p` (NUL bytes included), and a NUL after
 * them so that text without NULs also reads as a C string. */
struct pc_chatcli_str {
	char *p;
	size_t n;
};

/* The plugin's argv after argv[0], as Go strings (an argument may hold a
 * NUL: the host's exec then fails, X8). */
struct pc_chatcli_argv {
	struct pc_chatcli_str *v;
	size_t nr, alloc;
};

#define PC_CHATCLI_ARGV_INIT \
	{                    \
		NULL, 0, 0   \
	}

/* pc_chatcli_argv_push - append a copy of p[0..n). */
void pc_chatcli_argv_push(struct pc_chatcli_argv *a, const char *p, size_t n);
/* pc_chatcli_argv_has_nul - some argument holds a NUL byte (Go's exec
 * refuses such an argv with EINVAL before it forks). */
bool pc_chatcli_argv_has_nul(const struct pc_chatcli_argv *a);
/* pc_chatcli_argv_release - free every argument; *a becomes ARGV_INIT. */
void pc_chatcli_argv_release(struct pc_chatcli_argv *a);

/* pc_chatcli_json_string - a cJSON node that prints p[0..n) as a JSON
 * string the way cJSON prints its own strings, but with every byte kept:
 * a NUL is \u0000 (cJSON's strings end at NUL). A raw node: print it,
 * never read its valuestring. Returns a new node. */
cJSON *pc_chatcli_json_string(const char *p, size_t n);

/* --- Go encoding/json (M3, M4, S2, A3, A6, A7) ------------------------- */

/* pc_chatcli_json_check - Go's json.Valid of p[0..n) (borrowed), with the
 * error text json.Unmarshal gives for the first syntax error in byte
 * order ("invalid character 'x' looking for beginning of value"). The
 * end of the input is stepped as one space, as Go's scanner does: `{"a":"\`
 * is "invalid character ' ' in string escape code", `[1` "unexpected end
 * of JSON input". Nesting past 10000 is "invalid character '[' exceeded
 * max depth". Invalid UTF-8, lone surrogate escapes and numbers past
 * float64 (1e400) are valid. Returns true, or false with *errtext (new
 * string, when errtext is not NULL). */
bool pc_chatcli_json_check(const char *p, size_t n, char **errtext);

enum pc_chatcli_jv_kind {
	PC_CHATCLI_JV_NULL,
	PC_CHATCLI_JV_BOOL,
	PC_CHATCLI_JV_NUMBER,
	PC_CHATCLI_JV_STRING,
	PC_CHATCLI_JV_ARRAY,
	PC_CHATCLI_JV_OBJECT,
};

/* A decoded Go value (interface{}): members in document order, duplicate
 * keys kept (map semantics take the last, pc_chatcli_jv_get). Strings are
 * Go strings: escapes decoded, a lone or reversed surrogate escape and
 * each invalid UTF-8 byte replaced by U+FFFD, NUL kept. */
struct pc_chatcli_jv {
	enum pc_chatcli_jv_kind kind;
	bool b;		  /* BOOL */
	bool range_error; /* NUMBER past float64 (ParseFloat's ErrRange) */
	double num;	  /* NUMBER: strconv.ParseFloat(s, 64) */
	char *s;	  /* STRING: the bytes; NUMBER: the literal */
	size_t n;	  /* length of s */
	struct pc_chatcli_jv *v;    /* ARRAY items, OBJECT values */
	struct pc_chatcli_str *k;   /* OBJECT keys (decoded) */
	size_t nr, alloc;
};

#define PC_CHATCLI_JV_INIT \
	{                  \
		PC_CHATCLI_JV_NULL, false, false, 0, NULL, 0, NULL, NULL, 0, 0 \
	}

/* pc_chatcli_json_parse - the value of the Go-valid JSON p[0..n) into *v
 * (release with pc_chatcli_jv_release). A number past float64 is kept
 * with range_error set (json.Valid accepts it). Returns 0, or PC_EPARSE
 * with *errtext (new string, when not NULL) from pc_chatcli_json_check. */
int pc_chatcli_json_parse(const char *p, size_t n, struct pc_chatcli_jv *v,
			  char **errtext);

/* pc_chatcli_json_unmarshal - json.Unmarshal(p[0..n), &interface{}) (A3's
 * validity test, A6, A7): pc_chatcli_json_parse, then the first number
 * in document order past float64 fails the whole decode: "json: cannot
 * unmarshal number 1e400 into Go value of type float64". Returns 0 or
 * PC_EPARSE with *errtext (new string, when not NULL); *v is empty then. */
int pc_chatcli_json_unmarshal(const char *p, size_t n,
			      struct pc_chatcli_jv *v, char **errtext);

void pc_chatcli_jv_release(struct pc_chatcli_jv *v);
/* pc_chatcli_jv_copy - a deep copy of src into *dst (uninitialised). */
void pc_chatcli_jv_copy(struct pc_chatcli_jv *dst,
			const struct pc_chatcli_jv *src);
/* pc_chatcli_jv_set_string - make *v the string p[0..n) (copied). */
void pc_chatcli_jv_set_string(struct pc_chatcli_jv *v, const char *p,
			      size_t n);
/* pc_chatcli_jv_append - a new NULL member at the end of array or object
 * `c` (kind set by the caller), with key k[0..kn) for an object; the
 * pointer is valid until the next append. */
struct pc_chatcli_jv *pc_chatcli_jv_append(struct pc_chatcli_jv *c,
					   const char *k, size_t kn);
/* pc_chatcli_jv_get - Go map lookup: the value of the last member whose
 * key is exactly key[0..kn), or NULL (also when `o` is no object). */
const struct pc_chatcli_jv *pc_chatcli_jv_get(const struct pc_chatcli_jv *o,
					      const char *key, size_t kn);
/* pc_chatcli_jv_field - the value Go's decoder stores in the struct field
 * tagged `field` (ASCII) of a decoded object: the last member whose key
 * sets it (pc_chatcli_json_field_match: the exact name or Go 1.19's case
 * folding), or NULL (also when `o` is NULL or no object). */
const struct pc_chatcli_jv *pc_chatcli_jv_field(const struct pc_chatcli_jv *o,
						const char *field);
/* pc_chatcli_jv_kind_name - Go's name for the kind in UnmarshalTypeError
 * texts: "string", "number", "bool", "array", "object" (or "null"). */
const char *pc_chatcli_jv_kind_name(const struct pc_chatcli_jv *v);

/* pc_chatcli_json_field_match - whether JSON key key[0..kn) (decoded)
 * sets the struct field tagged `field` (ASCII) under Go 1.19's rules:
 * the exact name, else case folding - ASCII letters, and for a field
 * with k or s also KELVIN SIGN U+212A for k and LONG S U+017F for s
 * ({"uſage":"u"} sets usage). Byte lengths matter: "name\u0000" is not
 * name. */
bool pc_chatcli_json_field_match(const char *key, size_t kn,
				 const char *field);

/* pc_chatcli_jv_marshal - json.Marshal of a decoded value (A7.3, A7.6):
 * compact, object keys sorted bytewise with the last duplicate winning,
 * strings as pc_chatcli_go_quote, numbers as Go formats a float64 (-0 is
 * "-0", 1e21 "1e+21", 1e-7 "1e-07"). Returns a new string, its length in
 * *len (may be NULL). A non-finite number (never decoded) prints "+Inf". */
char *pc_chatcli_jv_marshal(const struct pc_chatcli_jv *v, size_t *len);

/* pc_chatcli_go_quote - json.Marshal of the Go string s[0..n), appended
 * to b: `<` `>` `&` U+2028 U+2029 and control bytes escaped (\b and \f as
 * Go 1.22 writes them), each invalid UTF-8 byte as \ufffd. */
void pc_chatcli_go_quote(struct pc_buf *b, const char *s, size_t n);

/* pc_chatcli_go_float - fmt's %v of a float64 (A7.6): shortest round-trip
 * digits, exponent form when the exponent is < -4 or >= 6 ("1e+06");
 * "+Inf", "-Inf", "NaN" for non-finite values. Returns a new string. */
char *pc_chatcli_go_float(double v);

/* The four string fields of plugins.Metadata (M3). Never NULL once
 * decoded: absent or null fields are "". Each is a Go string: the _len
 * field is its length (a NUL inside is kept; the C string view stops
 * there). */
struct pc_chatcli_meta {
	char *name;
	char *description;
	char *usage;
	char *version;
	size_t name_len, description_len, usage_len, version_len;
};

#define PC_CHATCLI_META_INIT                       \
	{                                          \
		NULL, NULL, NULL, NULL, 0, 0, 0, 0 \
	}

/* pc_chatcli_meta_decode - json.Unmarshal of `--metadata` stdout into
 * plugins.Metadata (M3, M4): keys matched as pc_chatcli_json_field_match
 * says (exact name first), null leaves a field alone, duplicate keys in
 * order (the last string wins), a non-string field fails the load after
 * the others are read ("json: cannot unmarshal number into Go struct field
 * Metadata.version of type string", the first such), a non-object
 * document fails ("... into Go value of type plugins.Metadata"), `null`
 * yields empty fields; a number past float64 is not an error here (no
 * field is a number). Returns 0, or PC_EPARSE with *errtext (new string)
 * set to Go's text. */
int pc_chatcli_meta_decode(const char *p, size_t n, struct pc_chatcli_meta *m,
			   char **errtext);
/* pc_chatcli_meta_release - free the fields; `m` becomes META_INIT. */
void pc_chatcli_meta_release(struct pc_chatcli_meta *m);

/* --- the model's call -> argv (§4) ------------------------------------ */

/* pc_chatcli_args_to_argv - the host's path from the `args` attribute
 * value args[0..len) (after A2 attribute decoding; borrowed) to the
 * plugin's argv after argv[0]: A3 JSON recovery, A4 sanitisation (agent
 * mode: html.UnescapeString with the whole HTML5 table, Go's rune steps
 * that turn each invalid UTF-8 byte into U+FFFD, strings.TrimSpace's
 * Unicode spaces), A6 dispatch, A7 JSON object rules, A8 text split.
 * Appends to `argv` and returns 0, or returns PC_EINVAL when the host
 * would not run the plugin, with *error (new string) set to what the
 * model receives, e.g. "Args parsing error: aspas não balanceadas nos
 * argumentos". An argument may hold a NUL (from "\u0000"): the host then
 * fails to start the plugin (pc_chatcli_call says so). */
int pc_chatcli_args_to_argv(const char *args, size_t len,
			    struct pc_chatcli_argv *argv, char **error);

/* pc_chatcli_recover_args - A3 JSON recovery as the tool-call parser
 * applies it to every call: args[0..len) (borrowed) is returned
 * unchanged when it is blank or json.Unmarshal accepts it (so 1e400 is
 * not valid: recovery runs); otherwise, in order, single quotes -> double
 * quotes, unquoted keys quoted, both, trailing commas removed,
 * plain-string wrapping ({"file":"main.go"}) when the call's name
 * tool[0..tool_len) is one of the host's builtin tool names, and the
 * "aggressive" `{key: value, ...}` rewrite (json.Marshal of the loose
 * pairs, so a value that json.Unmarshal refuses - an object with a raw
 * line break in a string, the number 1e400 - becomes a string). The
 * first candidate json.Unmarshal accepts wins; none: `args` unchanged.
 * Returns a new string, its length in *out_len (may be NULL). */
char *pc_chatcli_recover_args(const char *tool, size_t tool_len,
			      const char *args, size_t len, size_t *out_len);

/* pc_chatcli_recovered_to_argv - as pc_chatcli_args_to_argv without the
 * A3 recovery (for args that already went through it, e.g. from
 * pc_chatcli_parse_calls): A4, A6-A8. Same returns and errors. */
int pc_chatcli_recovered_to_argv(const char *args, size_t len,
				 struct pc_chatcli_argv *argv, char **error);

/* --- the model's text -> tool calls (A1, A2) -------------------------- */

/* One call the host extracts from the model's reply. Each string is a
 * Go string (its _len is the length; a NUL inside is kept). */
struct pc_chatcli_tool_call {
	char *name; /* the name attribute (trimmed), as the host looks it up */
	char *args; /* A2-decoded, then A3-recovered ("" when absent) */
	char *raw;  /* the text the call was read from */
	size_t name_len, args_len, raw_len;
	const char *form; /* static: "tag", "json", "fenced" or "bracket" */
};

struct pc_chatcli_tool_calls {
	struct pc_chatcli_tool_call *v;
	size_t nr;
	/* NULL, or the Go runtime error the host's parser panics with
	 * ("runtime error: slice bounds out of range [:40] with length
	 * 38"): the host then crashes and runs nothing; v holds the calls
	 * found before it. */
	char *panic;
};

#define PC_CHATCLI_TOOL_CALLS_INIT \
	{                          \
		NULL, 0, NULL      \
	}

/* pc_chatcli_parse_calls - ParseToolCalls (A1, A2, A3) over the model's
 * reply text[0..len) (borrowed): `<tool_call .../>`,
 * `<tool_call ...>...</tool_call>` and the `<tool>` alias (tag names
 * case-insensitive, attributes in any order, quoted with ' or " - a
 * backslash escapes only that quote or a backslash - or unquoted and then
 * HTML-unescaped; a call without a name attribute is skipped), then JSON
 * objects in the prose ({"tool_call"|"name"|"tool":"@x","args"|
 * "arguments":...}; objects with url, title+snippet or type+error are
 * ignored; a non-@ name only as "coder"; {"cmd":"read",...} as an
 * implicit @coder) unless they repeat an earlier call; when nothing
 * matched, ```-fenced blocks; when still nothing, `[tool: @x ARGS]` (an
 * @ is added). Every call's args then go through pc_chatcli_recover_args
 * with the call's name. Tags are found as the host finds them: the
 * position of "<tool" in strings.ToLower(text) is used in the original
 * text, so a character whose lower case has another UTF-8 length (K
 * U+212A, İ, Ω U+2126, ẞ, an invalid byte) before a tag moves the
 * position and the tag is usually missed; where Go's slicing then goes
 * out of range, out->panic says so. Appends to *out in document order of
 * each pass and returns the number of calls found (0: the host runs
 * nothing). Release with pc_chatcli_tool_calls_release. */
size_t pc_chatcli_parse_calls(const char *text, size_t len,
			      struct pc_chatcli_tool_calls *out);
/* pc_chatcli_tool_calls_release - free every call's strings and the
 * array; *c becomes PC_CHATCLI_TOOL_CALLS_INIT. */
void pc_chatcli_tool_calls_release(struct pc_chatcli_tool_calls *c);

/* --- execution (X1-X8, O1) -------------------------------------------- */

/* pc_chatcli_timeout_ms - X5: CHATCLI_AGENT_PLUGIN_TIMEOUT parsed as a Go
 * time.ParseDuration ("1m30s", "500ms", "1.5h"); NULL, unparsable or <= 0
 * gives PC_CHATCLI_DEFAULT_TIMEOUT_MS. */
int64_t pc_chatcli_timeout_ms(const char *value);

/* pc_chatcli_truncate - O1: the host's TruncateForLLM for externals.
 * Returns a new string of `n` bytes of `p` when n <= 30000, else head 5000
 * + "\n\n... [TRUNCATED N chars omitted, 6000 kept] ...\n\n" + tail 1000;
 * *out_len (may be NULL) gets its length. */
char *pc_chatcli_truncate(const char *p, size_t n, size_t *out_len);

/* --- O1 step 1: content-aware compression (cli/compress) -------------- */

/* pc_chatcli_compress_threshold - the byte count from which the host's
 * compression layer looks at a successful output, from
 * CHATCLI_COMPRESSION_THRESHOLD `value` (may be NULL): strconv.Atoi's
 * value when > 0; unset, unparsable, negative or 0 give 4000. */
size_t pc_chatcli_compress_threshold(const char *value);

enum pc_chatcli_compress_mode_kind {
	PC_CHATCLI_COMPRESS_OFF,      /* off, none, disabled */
	PC_CHATCLI_COMPRESS_LOSSLESS, /* lossless, lossless-only, safe */
	PC_CHATCLI_COMPRESS_LOSSY,    /* anything else: lossy-with-ccr */
};

/* pc_chatcli_compress_mode - ParseMode of CHATCLI_COMPRESSION `v` (may be
 * NULL). */
int pc_chatcli_compress_mode(const char *v);

/* pc_chatcli_compression_applies - true when the host hands a successful
 * output of `len` bytes to its compression layer (mode not off and len
 * >= the threshold). Whether that changes the text is
 * pc_chatcli_compress's answer. */
bool pc_chatcli_compression_applies(size_t len, const char *mode,
				    const char *threshold);

/* The host's compression settings, read from its environment; each may
 * be NULL (unset). Borrowed strings. */
struct pc_chatcli_compress_env {
	const char *mode;	/* CHATCLI_COMPRESSION */
	const char *profile;	/* CHATCLI_COMPRESSION_PROFILE */
	const char *threshold;	/* CHATCLI_COMPRESSION_THRESHOLD */
	const char *ccr_max_mb; /* CHATCLI_COMPRESSION_CCR_MAX_MB */
};

/* pc_chatcli_compress_env_read - the four variables from `envp`
 * (NULL-terminated "NAME=value" strings; NULL: plugcheck's environ). */
void pc_chatcli_compress_env_read(struct pc_chatcli_compress_env *e,
				  char *const *envp);

struct pc_chatcli_compressed {
	char *text; /* what goes on to truncation (a copy of the input when
		       nothing changed); never NULL */
	size_t len;
	const char *strategy; /* static: "passthrough", "search", "log",
				 "diff", "json-crush" or "prose" */
	char key[17];	      /* the <<ccr:KEY>> cited, or "" */
	bool engaged;	      /* the layer looked at it (mode on, not
				 @recall, no marker yet, at the threshold) */
};

/* pc_chatcli_compress - CompressToolOutput(tool, p[0..n)) of the host's
 * compression layer (O1 step 1) for a successful output: passthrough
 * when compression is off, for the @recall tool, for an output that
 * already holds a <<ccr:KEY>> marker and below the threshold; otherwise
 * the router picks the first highest-scoring compressor by content and
 * by the call's name `tool` (search for grep-like lines or @search,
 * grep, rg...; log; diff; json-crush for JSON; prose only for @webfetch,
 * @websearch, @wikipedia; code never: it needs a hint plugins cannot
 * give) and keeps its result when shorter. Lossy results cite the whole
 * output as <<ccr:KEY>> (16 hex digits of its SHA-256; the host stores it
 * for @recall, plugcheck stores nothing). `env` may be NULL (defaults).
 * Fills *out; release with pc_chatcli_compressed_release. */
void pc_chatcli_compress(const char *tool, size_t tool_len, const char *p,
			 size_t n, const struct pc_chatcli_compress_env *env,
			 struct pc_chatcli_compressed *out);
void pc_chatcli_compressed_release(struct pc_chatcli_compressed *c);

/* pc_chatcli_line_fn - a live line as the host's UI callback sees it
 * (X7): `is_err` lines are shown with "ERR: " by the host. */
typedef void (*pc_chatcli_line_fn)(void *ctx, bool is_err, const char *line,
				   size_t n);

struct pc_chatcli_call_opts {
	const char *path;	      /* borrowed; the absolute plugin path */
	const struct pc_chatcli_argv *args; /* borrowed; argv after argv[0] */
	const struct pc_strvec *env;  /* borrowed; the whole environment
					 (X3); NULL: plugcheck's own */
	const char *cwd;	      /* borrowed; NULL: plugcheck's (X4) */
	int64_t timeout_ms;	      /* X5 deadline; 0: from env as X5 */
	int64_t hard_cap_ms;	      /* plugcheck's cap on reading after the
					 deadline (X6); 0: 10 s */
	size_t output_max;	      /* cap on each stream; 0: 64 MiB */
	pc_chatcli_line_fn on_line;   /* NULL or live lines */
	void *line_ctx;
	const char *tool;	      /* borrowed; the call's name as the
					 model wrote it (the compression
					 layer routes by it, O1); NULL: "" */
	size_t tool_len;
	/* O1 compression settings; NULL: read from `env` (or plugcheck's
	 * environment) as the host reads its own */
	const struct pc_chatcli_compress_env *compress;
	bool raw; /* no O1 step: output is the merged text (the remote
		     server's side, pc_chatcli_remote_call) */
};

#define PC_CHATCLI_CALL_OPTS_INIT \
	{                         \
		0                 \
	}

/* A line of the merged result that came from stderr (X7):
 * merged[off..off+len), followed by the '\n' the host appends when `nl`
 * (a final fragment without a line end has none). */
struct pc_chatcli_span {
	size_t off, len;
	bool nl;
};

struct pc_chatcli_call {
	char *merged; /* X7: the merged result, raw (never NULL) */
	size_t merged_len;
	/* the lines of `merged` that came from stderr, in order (owned;
	 * NULL when none): facts for the report, the host keeps no such
	 * record */
	struct pc_chatcli_span *err_lines;
	size_t n_err_lines;
	char *output; /* what the model receives: on success the merged
			 text compressed (O1 step 1) then truncated (step
			 2); the merged text on error; "" on a start
			 failure */
	size_t output_len;
	const char *compression; /* static: the compressor that changed
				    the output ("search", "log", ...), or
				    "passthrough" */
	bool compression_engaged; /* the layer looked at the output */
	size_t compressed_len;	  /* the length after step 1 (before the
				     30000-byte truncation) */
	char ccr_key[17];	  /* the <<ccr:KEY>> it cites, or "" */
	char *error;		/* X8 error text, or NULL on success */
	int64_t duration_ms;	/* how long the host blocks (or the cap) */
	bool timed_out;		/* the X5 deadline passed */
	bool capped;		/* pipes still open at plugcheck's hard cap */
	bool stdin_read_eof;	/* informational: stdin was /dev/null (X2) */
	bool not_started;	/* the start failed (error says why) */
	int leftover_processes; /* killed by plugcheck afterwards */
	size_t stderr_bytes;	/* bytes that came on stderr */
	struct pc_proc_sigs sigs; /* the signal state the plugin started
				     with (Go's os/exec, issue 18) */
	/* pc_chatcli_remote_call only: why the client does not list the
	 * plugin (static text), or NULL; and the discovery's own gRPC error
	 * (the host drops it silently), or NULL */
	const char *remote_hidden;
	char *remote_detail;
};

#define PC_CHATCLI_CALL_INIT \
	{                    \
		0            \
	}

/* pc_chatcli_call - run the plugin once as ExecutablePlugin.Execute does:
 * exec(path, [path, args...]) with no shell, stdin at EOF, the given
 * environment and cwd; SIGKILL of the direct child at the deadline; both
 * pipes read to EOF; stdout and stderr merged line by line (X7); errors
 * "plugin execution failed: exit status N" / "...: signal: killed" /
 * "...: context deadline exceeded" / "falha ao iniciar plugin: <os
 * error>" (X8); the O1 truncation on success. Blocks at most timeout_ms +
 * hard_cap_ms plus the sweep. Returns 0 whenever a verdict was reached
 * (failures of the plugin are facts in *c), PC_EIO/PC_EINVAL when
 * plugcheck itself failed (err filled). Release *c with
 * pc_chatcli_call_release. */
int pc_chatcli_call(const struct pc_chatcli_call_opts *o,
		    struct pc_chatcli_call *c, struct pc_err *err);
void pc_chatcli_call_release(struct pc_chatcli_call *c);

/* --- remote plugins (R1-R3) -------------------------------------------- */

struct pc_chatcli_remote_opts {
	/* the connected user's role on the server: "admin" (also what no
	 * authentication and the shared token give; NULL means it), "user",
	 * "readonly" or any other JWT role */
	const char *role;
	/* the plugin as the server loaded it (its Reload: --metadata and
	 * --schema), borrowed: its name and schema are what the client
	 * discovers */
	const struct pc_chatcli_probe *plugin;
};

/* pc_chatcli_remote_listed - R2, R1: why ListRemotePlugins does not get
 * the plugin to a client with `role`, or NULL when it does: not loaded;
 * readonly users see none; names starting with `_` only for admins; a
 * schema with invalid UTF-8 (the server cannot encode the list: no remote
 * plugin at all reaches the client) or a list over the client's 4 MiB
 * receive limit (*why, new string: the gRPC error the client drops). */
const char *pc_chatcli_remote_listed(const struct pc_chatcli_probe *p,
				     const char *role, char **why);

/* pc_chatcli_remote_list_size - the encoded size in bytes of the
 * ListRemotePluginsResponse holding this one plugin (protobuf). */
size_t pc_chatcli_remote_list_size(const struct pc_chatcli_probe *p);

/* pc_chatcli_remote_request_error - the gRPC error text the client gets
 * for ExecuteRemotePlugin(name, args) before the plugin runs: a request
 * over the server's 50 MiB receive limit, then the validation interceptor
 * (name empty or over 256 bytes, over 100 arguments, an argument over
 * 10240 bytes: "rpc error: code = InvalidArgument desc = validation: too
 * many plugin arguments (max 100)"); NULL when it passes. New string. */
char *pc_chatcli_remote_request_error(const struct pc_chatcli_str *name,
				      const struct pc_chatcli_argv *args);

/* pc_chatcli_remote_response_error - the gRPC error text the client gets
 * instead of the server's response for call *c (its merged output and
 * error): invalid UTF-8 in either ("rpc error: code = Internal desc =
 * grpc: error while marshaling: string field contains invalid UTF-8"),
 * over the server's 50 MiB send limit, over the client's 4 MiB receive
 * limit; NULL when it arrives. New string. */
char *pc_chatcli_remote_response_error(const struct pc_chatcli_call *c);

/* pc_chatcli_remote_call - the call as ChatCLI makes it to a plugin
 * served by `chatcli server` and used through `chatcli connect` (R2, R3):
 * the client's discovery (pc_chatcli_remote_listed) and lookup of o->tool
 * (exact, then with "@"; NULL: the plugin's name) - a miss is the agent
 * loop's "Ferramenta 'NAME' não existe ou não está instalada." with error
 * "plugin não encontrado"; the request limits; a role below user gets
 * "rpc error: code = PermissionDenied desc = insufficient permissions:
 * role \"readonly\" cannot execute plugins" (a `_` name is not checked
 * again); the server runs the plugin as pc_chatcli_call does (o->path,
 * o->args, o->env, o->cwd; no live lines: o->on_line gets the whole
 * output once at the end); the response limits; the client's wrapping:
 * "remote plugin error: <server error>" keeping the output, or "remote
 * ExecuteRemotePlugin failed: <gRPC error>" with no output; then the
 * client's O1 delivery. Returns 0 with the outcome in *c (release with
 * pc_chatcli_call_release), or what pc_chatcli_call returns. */
int pc_chatcli_remote_call(const struct pc_chatcli_call_opts *o,
			   const struct pc_chatcli_remote_opts *r,
			   struct pc_chatcli_call *c, struct pc_err *err);

/* --- probing (M1-M5, S1-S2) ------------------------------------------- */

struct pc_chatcli_run {
	bool ran;      /* it started */
	bool hung;     /* passed plugcheck's probe timeout (the host would
			  hang its reload forever, M1/D4) */
	int exit_code; /* -1 when killed by a signal */
	int64_t ms;    /* wall time */
	char *out;     /* stdout (never NULL) */
	size_t out_len;
	char *err; /* stderr (never NULL) */
	int leftover_processes;
};

struct pc_chatcli_probe {
	bool loaded;	  /* the host registers the plugin */
	char *host_error; /* NULL, or the error the host logs (D11) */
	struct pc_chatcli_meta meta;
	char *schema; /* S2: verbatim stdout, or NULL (empty) */
	struct pc_chatcli_run metadata_run, schema_run;
};

#define PC_CHATCLI_PROBE_INIT \
	{                     \
		0             \
	}

/* pc_chatcli_probe - run `path --metadata` then `path --schema` as
 * NewPluginFromPath does, after the D3 file checks ("invalid path", "not
 * executable"). Environment `env` (borrowed; NULL: plugcheck's own), stdin
 * /dev/null, working directory `cwd` (NULL: plugcheck's, as the host's),
 * each run bounded by `timeout_ms` (plugcheck's bound; the host has none:
 * a run past it is `hung`). host_error is Go's text: "exit status N", the
 * M3/M4 JSON errors, or a start error "fork/exec PATH: permission
 * denied". Returns 0 with the verdict in *p; PC_EIO/PC_EINVAL when
 * plugcheck itself failed (err filled). */
int pc_chatcli_probe(const char *path, const struct pc_strvec *env,
		     const char *cwd, int64_t timeout_ms,
		     struct pc_chatcli_probe *p, struct pc_err *err);
void pc_chatcli_probe_release(struct pc_chatcli_probe *p);

/* --- signatures (G1-G7) ----------------------------------------------- */

/* pc_chatcli_unsigned_allowed - G6: CHATCLI_ALLOW_UNSIGNED_PLUGINS equals
 * "true" case-insensitively (`value` may be NULL). */
bool pc_chatcli_unsigned_allowed(const char *value);

/* pc_chatcli_sig_verify - the G5 decision for plugin file `path` whose
 * signature is `path`.sig, against the *.pub keys of `keys_dir` (G4).
 * Returns 0 when the host loads it (verified, or tolerated by
 * `allow_unsigned`), or PC_EINVAL with *error (new string) set to the
 * host's text ("plugin signature file not found", "invalid signature
 * size: expected 64, got N", "no trusted public keys found", "plugin
 * signature verification failed", ...). *nkeys (may be NULL) gets the
 * number of usable trusted keys. */
int pc_chatcli_sig_verify(const char *path, const char *keys_dir,
			  bool allow_unsigned, char **error, size_t *nkeys);

/* Which of the two on-disk `.sig` layouts a file uses. Both verify
 * identically: the HEAD verifier reads only the first line (G3). */
enum pc_chatcli_sig_format {
	PC_CHATCLI_SIG_HEAD,	 /* the signature line alone (G1's recipe) */
	PC_CHATCLI_SIG_UPSTREAM, /* + §6.B's three comment lines */
	PC_CHATCLI_SIG_OTHER	 /* further lines that are not §6.B's */
};

struct pc_chatcli_sig_info {
	enum pc_chatcli_sig_format format;
	char *plugin; /* §6.B "# plugin: NAME" value, or NULL */
	char *sha256; /* §6.B "# sha256: HEX" value, or NULL */
};

#define PC_CHATCLI_SIG_INFO_INIT                \
	{                                       \
		PC_CHATCLI_SIG_HEAD, NULL, NULL \
	}

/* pc_chatcli_sig_info_parse - classify `.sig` text (`n` bytes, borrowed;
 * may hold NULs) after the host's whitespace trim (G3): HEAD when nothing
 * follows the first line; UPSTREAM when exactly the lines "# chatcli
 * plugin signature (Ed25519 over SHA-256)", "# plugin: NAME" and "#
 * sha256: HEX" follow it (§6.B SignPlugin), with NAME and HEX copied
 * out; OTHER otherwise. Says nothing about validity (see
 * pc_chatcli_sig_verify). Release with pc_chatcli_sig_info_release. */
void pc_chatcli_sig_info_parse(const char *text, size_t n,
			       struct pc_chatcli_sig_info *i);
/* pc_chatcli_sig_info_release - free plugin and sha256 (set to NULL). */
void pc_chatcli_sig_info_release(struct pc_chatcli_sig_info *i);

/* pc_chatcli_sig_format_name - "head", "upstream" or "other". */
const char *pc_chatcli_sig_format_name(enum pc_chatcli_sig_format f);

/* pc_chatcli_key_format - how the HEAD verifier reads the trusted-key
 * file bytes text[0..n) (borrowed), G4, with Go's pem.Decode (BEGIN at
 * the start of the text or of a line, optional `Key: value` header lines,
 * an END line of the same type) and base64: "pkix-pem" (PEM PUBLIC KEY
 * holding the 44-byte Ed25519 SubjectPublicKeyInfo, what §6.B `trust`
 * writes), "pem" (PUBLIC KEY or ED25519 PUBLIC KEY of another DER length
 * >= 32: the last 32 bytes are used), "base64" (no PEM block: the
 * trimmed text is standard base64 of 32 bytes), or NULL when the host
 * skips the file. */
const char *pc_chatcli_key_format(const char *text, size_t n);

/* pc_chatcli_digest_hex - SHA-256 of the file `path` as 64 lower-case hex
 * digits (a new string), or NULL when it cannot be read (G1). */
char *pc_chatcli_digest_hex(const char *path);

/* pc_chatcli_sign_head - as pc_chatcli_sign but writes the HEAD layout:
 * the base64 line and a newline, no comment lines (G1's recipe). */
int pc_chatcli_sign_head(const char *path, const char *key_path,
			 const char *sig_path, struct pc_err *err);

/* pc_chatcli_sig_status - the newer upstream verifier's Inspect()
 * status (§6.B) for `path` against `keys_dir`: "verified", "unsigned"
 * (no .sig), "unverifiable" (a valid-looking .sig, no trusted key),
 * "untrusted" (fails against the trusted keys, or a malformed .sig) or
 * "error" (.sig or plugin unreadable). The mapping of a malformed .sig
 * with an empty trust store to "untrusted" is inferred (spec §16). Under
 * that verifier "verified" loads, "unsigned"/"unverifiable" load only
 * when unsigned plugins are allowed (then pass the quarantine gate), the
 * rest are skipped. Returns a static string. */
const char *pc_chatcli_sig_status(const char *path, const char *keys_dir);

/* pc_chatcli_keygen - §6.B GenerateSigningKeyPair: DIR/plugin-signing.key
 * (PKCS#8 PEM, 0600) and DIR/plugin-signing.pub (PKIX PEM, 0644), DIR made
 * 0700. Refuses an existing key: PC_EINVAL "a signing key already exists
 * at PATH". PC_EIO on file errors. */
int pc_chatcli_keygen(const char *dir, struct pc_err *err);

/* pc_chatcli_sign - §6.B SignPlugin: Ed25519 over SHA-256 of the file
 * (G1), written to `sig_path` (NULL: `path`.sig) as the base64 line plus
 * the three comment lines. `key_path` is a PKCS#8 PEM private key.
 * Errors: PC_EINVAL (bad key), PC_EIO. */
int pc_chatcli_sign(const char *path, const char *key_path,
		    const char *sig_path, struct pc_err *err);

/* pc_chatcli_trust - §6.B TrustPublicKey: re-encode the public key file
 * `pub_path` (PEM or base64, G4) as PKIX PEM into `keys_dir`/NAME.pub
 * (dir 0700, file 0644); `name` NULL: the key file's base name without
 * extension; names other than [A-Za-z0-9._-]+ or "."/".." are refused.
 * *written (may be NULL) gets the new path (caller frees). */
int pc_chatcli_trust(const char *pub_path, const char *keys_dir,
		     const char *name, char **written, struct pc_err *err);

/* --- discovery (D1-D8) ------------------------------------------------ */

struct pc_chatcli_entry {
	char *file;	 /* entry name in the directory */
	char *path;	 /* absolute path */
	bool skipped;	 /* D2: a .sig or dot file, never looked at */
	char *sig_error; /* G5 refusal, or NULL */
	struct pc_chatcli_probe probe; /* when the signature passed */
	bool registered;   /* loaded and not replaced by a later file */
	char *replaced_by; /* D6: the later file that took the name */
};

struct pc_chatcli_dir {
	struct pc_chatcli_entry *v;
	size_t nr;
};

#define PC_CHATCLI_DIR_INIT \
	{                   \
		NULL, 0     \
	}

struct pc_chatcli_disc_opts {
	const char *keys_dir;	     /* trusted keys (G4) */
	bool allow_unsigned;	     /* G6 */
	const struct pc_strvec *env; /* NULL: plugcheck's own */
	const char *cwd;	     /* probes' working directory; NULL: ours */
	int64_t probe_timeout_ms;    /* plugcheck's bound per probe */
	bool no_signatures;	     /* skip G5 (lint of a single file) */
};

/* pc_chatcli_discover - Reload() over `dir`: entries in file-name order,
 * .sig and dot files skipped, signature, then probe, later duplicates
 * replacing earlier ones (D2-D6). Returns 0, or PC_EIO/PC_ENOENT when
 * the directory cannot be read. Release with pc_chatcli_dir_release. */
int pc_chatcli_discover(const char *dir, const struct pc_chatcli_disc_opts *o,
			struct pc_chatcli_dir *d, struct pc_err *err);
/* pc_chatcli_discover_file - as pc_chatcli_discover for the one plugin
 * file `path` (its signature `path`.sig): a dir of one entry. */
int pc_chatcli_discover_file(const char *path,
			     const struct pc_chatcli_disc_opts *o,
			     struct pc_chatcli_dir *d, struct pc_err *err);
void pc_chatcli_dir_release(struct pc_chatcli_dir *d);

/* pc_chatcli_is_builtin - N1: `name` is a builtin of the interactive CLI
 * (an external of that name silently replaces it, D7). */
bool pc_chatcli_is_builtin(const char *name);

/* --- install from git (I2-I5) ----------------------------------------- */

/* What parseGitURL makes of the URL the user typed (I2). */
struct pc_chatcli_git_url {
	char *clone_url; /* what `git clone` gets */
	char *branch;	 /* "" for a plain URL */
	char *subdir;	 /* "" for a plain URL; trailing '/' trimmed */
};

#define PC_CHATCLI_GIT_URL_INIT  \
	{                        \
		NULL, NULL, NULL \
	}

/* pc_chatcli_git_url_parse - I2: the first "/tree/" splits `raw` into
 * clone URL (the part before it plus ".git"), branch (up to the next '/')
 * and subdirectory (the rest, trailing '/' trimmed); the GitLab "/-/tree/"
 * form therefore clones "<repo>/-.git" as the host does. Any other string
 * is cloned as given. Fills *u with new strings (never NULL). */
void pc_chatcli_git_url_parse(const char *raw, struct pc_chatcli_git_url *u);
void pc_chatcli_git_url_release(struct pc_chatcli_git_url *u);

/* pc_chatcli_install_name - I4: the file name the host gives the binary:
 * the last path element of `build_dir` with one trailing ".git" removed
 * (for a plain URL that is the temporary clone directory's name). Returns
 * a new string. */
char *pc_chatcli_install_name(const char *build_dir);

/* How far /plugin install got (I3-I5). */
enum pc_chatcli_install_stage {
	PC_CHATCLI_INSTALL_CLONE,  /* git clone failed */
	PC_CHATCLI_INSTALL_SUBDIR, /* the /tree/ subdirectory is missing */
	PC_CHATCLI_INSTALL_BUILD,  /* go build failed (or go is missing) */
	PC_CHATCLI_INSTALL_CHMOD,  /* chmod 0755 of the binary failed */
	PC_CHATCLI_INSTALL_DONE,   /* the binary is in the plugins dir */
};

struct pc_chatcli_install_opts {
	const char *source;	     /* borrowed; the argument of /plugin
					install */
	const char *plugins_dir;     /* borrowed; where the binary goes */
	const char *tmp_dir;	     /* borrowed; where the clone directory
					"chatcli-plugin-<digits>" is made
					(the host: os.TempDir()) */
	const struct pc_strvec *env; /* borrowed; git's and go's whole
					environment; NULL: plugcheck's */
	int64_t clone_timeout_ms;    /* plugcheck's bound; 0: 300 s */
	int64_t build_timeout_ms;    /* plugcheck's bound; 0: 600 s */
	const char *go;		     /* borrowed; the go command; NULL:
					"go" searched in PATH, as the host */
	bool no_build;		     /* do not run go (it is not on PATH):
					stop at the build stage with
					build_skipped set */
};

struct pc_chatcli_install {
	struct pc_chatcli_git_url url;
	char *clone_dir; /* the temporary clone; the caller removes it
			    (the host removes it when the install ends) */
	char *build_dir; /* clone_dir or clone_dir/subdir */
	char *name;	 /* I4 */
	char *dest;	 /* plugins_dir/name */
	bool go_tree;	 /* build_dir holds *.go files (informational:
			    the host runs go build regardless) */
	bool build_skipped;
	enum pc_chatcli_install_stage stage; /* the stage that failed, or
						DONE */
	char *error;  /* the failing step's error, or NULL */
	char *output; /* git's or go's combined output (never NULL) */
	int64_t clone_ms, build_ms;
};

#define PC_CHATCLI_INSTALL_INIT \
	{                       \
		0               \
	}

/* pc_chatcli_install - /plugin install after the confirmation (I3-I5):
 * parse the URL (I2); make tmp_dir/chatcli-plugin-<random uint32 in
 * decimal>; `git clone --depth=1 [--branch B] URL DIR`; check the
 * subdirectory; derive the name (I4); run `go build -o PLUGINS/NAME .` in
 * the build directory (o->go instead of "go" when set); chmod 0755. Each step
 * runs only when the one before succeeded; *r says which one failed and why
 * (git's or go's exit status and combined output; "subdirectory 'S' not found
 * in repository"; for a missing go, the text Go's exec gives: exec: "go":
 * executable file not found in $PATH). Does not reload (the caller does, D10),
 * does not remove clone_dir. Returns 0 whenever *r holds the outcome; PC_EIO
 * when no temporary directory can be made (err filled). Release with
 * pc_chatcli_install_release(). */
int pc_chatcli_install(const struct pc_chatcli_install_opts *o,
		       struct pc_chatcli_install *r, struct pc_err *err);
void pc_chatcli_install_release(struct pc_chatcli_install *r);

/* pc_chatcli_find_program - the first executable `name` in the PATH of
 * `env` (NULL: plugcheck's), as a new string, or NULL. */
char *pc_chatcli_find_program(const char *name, const struct pc_strvec *env);

/* --- the watcher (D9) ------------------------------------------------- */

/* fsnotify's event ops, as the host's watcher sees them. */
enum pc_chatcli_fsop {
	PC_CHATCLI_FS_CREATE = 1 << 0, /* IN_CREATE, IN_MOVED_TO */
	PC_CHATCLI_FS_WRITE = 1 << 1,  /* IN_MODIFY */
	PC_CHATCLI_FS_REMOVE = 1 << 2, /* IN_DELETE, IN_DELETE_SELF */
	PC_CHATCLI_FS_RENAME = 1 << 3, /* IN_MOVED_FROM, IN_MOVE_SELF */
	PC_CHATCLI_FS_CHMOD = 1 << 4,  /* IN_ATTRIB */
};

/* D9: the delay between the last qualifying event and the reload. */
#define PC_CHATCLI_DEBOUNCE_MS 500

/* The host's debounce timer, on a clock the caller supplies (ms). */
struct pc_chatcli_debounce {
	bool armed;
	int64_t due_ms;
};

#define PC_CHATCLI_DEBOUNCE_INIT \
	{                        \
		false, 0         \
	}

/* pc_chatcli_fsop_qualifies - D9: `ops` (enum pc_chatcli_fsop bits)
 * include Write, Create, Remove or Rename; Chmod alone does not count. */
bool pc_chatcli_fsop_qualifies(unsigned ops);

/* pc_chatcli_debounce_event - D9: an event with `ops` at `now_ms`; a
 * qualifying one stops the pending timer and arms a new one due at
 * now_ms + 500. Returns whether it qualified. */
bool pc_chatcli_debounce_event(struct pc_chatcli_debounce *d, unsigned ops,
			       int64_t now_ms);

/* pc_chatcli_debounce_fire - when the timer is armed and due at or before
 * `now_ms`: disarm it, store the due time in *at_ms (may be NULL) and
 * return true (the host calls Reload then). Otherwise false. */
bool pc_chatcli_debounce_fire(struct pc_chatcli_debounce *d, int64_t now_ms,
			      int64_t *at_ms);

/* One fsnotify event: the entry name in the watched directory and its
 * ops. */
struct pc_chatcli_fsevent {
	char *name;
	unsigned ops;
};

/* pc_chatcli_watch_open - an inotify watch on directory `dir` alone (not
 * recursive) with the event set fsnotify subscribes to (D9). Returns the
 * non-blocking, close-on-exec descriptor, or PC_EIO (err filled). Close
 * it with close(). */
int pc_chatcli_watch_open(const char *dir, struct pc_err *err);

/* pc_chatcli_watch_drain - read every event queued on watch `fd` without
 * blocking and append them, mapped to fsnotify ops, to *v (an array of
 * *nr events the caller frees with pc_chatcli_fsevents_free). Returns the
 * OR of all their ops (0: none). */
unsigned pc_chatcli_watch_drain(int fd, struct pc_chatcli_fsevent **v,
				size_t *nr);
void pc_chatcli_fsevents_free(struct pc_chatcli_fsevent *v, size_t nr);

/* pc_chatcli_fsops_str - "CREATE|WRITE" style text of `ops` into buf
 * (`n` bytes); returns buf. */
const char *pc_chatcli_fsops_str(unsigned ops, char *buf, size_t n);

#endif

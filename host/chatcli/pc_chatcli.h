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
 *   4. pc_chatcli_call() - run it as the host does (X1-X8) and post-process
 *      the result the model receives (O1 truncation).
 * pc_chatcli_discover() does 1-2 over a whole plugins directory (D1-D8).
 *
 * Where plugcheck differs from the host, on purpose:
 *   - probes are bounded by plugcheck's own timeout (the host has none,
 *     M1); a probe that passes it is reported as `hung`;
 *   - calls that a background process stretches past the deadline (X6)
 *     are followed up to a hard cap, then reported as capped;
 *   - every leftover process is killed after the verdict (pc_proc sweep).
 * Not reproduced: O1 content-aware compression (the spec leaves its
 * output undefined, §16; pc_chatcli_compression_applies says when it
 * would engage), the `/coder`-mode rules A5 and the @coder fixes of A4,
 * HTML named entities other than amp, lt, gt, quot, apos and nbsp (A2,
 * A4), Unicode case folding and Unicode letters in A1/A3 (ASCII only;
 * bytes >= 0x80 count as letters in A3 keys).
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

/* --- Go encoding/json (M3, M4, A6) ------------------------------------ */

/* pc_chatcli_json_check - Go's json.Valid, with the error text
 * json.Unmarshal prints for the first syntax error ("invalid character 'x'
 * looking for beginning of value", "unexpected end of JSON input", ...).
 * Returns true when `p` (`n` bytes, borrowed) is one JSON value with
 * optional surrounding whitespace; otherwise false and, when `errtext` is
 * not NULL, a new string the caller frees. */
bool pc_chatcli_json_check(const char *p, size_t n, char **errtext);

/* pc_chatcli_json_parse - parse Go-valid JSON into a new cJSON tree
 * (caller deletes), or NULL with *errtext (new string) set to Go's text.
 * Numbers are doubles, as Go's float64. Duplicate keys are kept in the
 * tree; users apply Go's "last wins" themselves. Nesting is limited only
 * as Go's scanner limits it (10000 open containers, "invalid character
 * '[' exceeded max depth"), not by cJSON's parser. A lone surrogate in a
 * string fails with "invalid character in string literal" (Go would
 * substitute U+FFFD: a known difference). */
cJSON *pc_chatcli_json_parse(const char *p, size_t n, char **errtext);

/* pc_chatcli_json_decode_any - json.Unmarshal into an interface{} (A6,
 * A7: the model's JSON args): pc_chatcli_json_parse(), and then a number
 * literal that overflows float64 fails the whole decode as Go's
 * strconv.ParseFloat range error does, with the first such literal:
 * "json: cannot unmarshal number 1e999 into Go value of type float64"
 * (Go's decoder text; not checked against the host binary). Returns a new
 * tree (caller deletes), or NULL with *errtext (new string, when
 * `errtext` is not NULL) set. Found by fuzz/fuzz_chatcli_args. */
cJSON *pc_chatcli_json_decode_any(const char *p, size_t n, char **errtext);

/* pc_chatcli_go_float - fmt's %v of a float64 (A7.6): shortest round-trip
 * digits, exponent form when the exponent is < -4 or >= 6 ("1e+06");
 * "+Inf", "-Inf", "NaN" for non-finite values. Returns a new string. */
char *pc_chatcli_go_float(double v);

/* pc_chatcli_go_marshal - json.Marshal of a decoded value (A7.3, A7.6):
 * compact, object keys sorted bytewise with the last duplicate winning,
 * `<` `>` `&` U+2028 U+2029 escaped, Go's float formatting. Returns a new
 * string. `v` is borrowed. A non-finite number (json.Marshal refuses it;
 * pc_chatcli_json_decode_any never yields one) prints as fmt's "+Inf". */
char *pc_chatcli_go_marshal(const cJSON *v);

/* The four string fields of plugins.Metadata (M3). Never NULL once
 * decoded: absent or null fields are "". */
struct pc_chatcli_meta {
	char *name;
	char *description;
	char *usage;
	char *version;
};

#define PC_CHATCLI_META_INIT           \
	{                              \
		NULL, NULL, NULL, NULL \
	}

/* pc_chatcli_meta_decode - json.Unmarshal of `--metadata` stdout into
 * plugins.Metadata (M3, M4): case-insensitive keys (exact match first),
 * null leaves a field alone, duplicate keys last wins, a non-string field
 * fails the load ("json: cannot unmarshal number into Go struct field
 * Metadata.version of type string"), a non-object document fails ("...
 * into Go value of type plugins.Metadata"), `null` yields empty fields.
 * Returns 0, or PC_EPARSE with *errtext (new string) set to Go's text. */
int pc_chatcli_meta_decode(const char *p, size_t n, struct pc_chatcli_meta *m,
			   char **errtext);
/* pc_chatcli_meta_release - free the fields; `m` becomes META_INIT. */
void pc_chatcli_meta_release(struct pc_chatcli_meta *m);

/* --- the model's call -> argv (§4) ------------------------------------ */

/* pc_chatcli_args_to_argv - the host's path from the `args` attribute
 * value (after A2 attribute decoding) to the plugin's argv after argv[0]:
 * A3 JSON recovery, A4 sanitisation (agent mode), A6 dispatch, A7 JSON
 * object rules, A8 text split. Appends to `argv` and returns 0, or returns
 * PC_EINVAL when the host would not run the plugin, with *error (new
 * string) set to what the model receives, e.g. "Args parsing error:
 * aspas não balanceadas nos argumentos". `args` is borrowed. */
int pc_chatcli_args_to_argv(const char *args, struct pc_strvec *argv,
			    char **error);

/* pc_chatcli_recover_args - A3 JSON recovery as the tool-call parser
 * applies it to every call: `args` (borrowed, NULL = "") is returned
 * unchanged when it is blank or valid JSON; otherwise, in order, single
 * quotes -> double quotes, unquoted keys quoted, both, trailing commas
 * removed, plain-string wrapping ({"file":"main.go"}) when `tool` (the
 * call's name, may be NULL) is one of the host's builtin tool names, and
 * the "aggressive" `{key: value, ...}` rewrite (json.Marshal of the loose
 * pairs, so a value that is not JSON - e.g. an object with a raw line
 * break in a string - becomes a string). The first candidate that is
 * valid JSON wins; none: `args` unchanged. Returns a new string. */
char *pc_chatcli_recover_args(const char *tool, const char *args);

/* pc_chatcli_recovered_to_argv - as pc_chatcli_args_to_argv without the
 * A3 recovery (for args that already went through it, e.g. from
 * pc_chatcli_parse_calls): A4, A6-A8. Same returns and errors. */
int pc_chatcli_recovered_to_argv(const char *args, struct pc_strvec *argv,
				 char **error);

/* --- the model's text -> tool calls (A1, A2) -------------------------- */

/* One call the host extracts from the model's reply. */
struct pc_chatcli_tool_call {
	char *name; /* the name attribute (trimmed), as the host looks it up */
	char *args; /* A2-decoded, then A3-recovered ("" when absent) */
	char *raw;  /* the text the call was read from */
	const char *form; /* static: "tag", "json", "fenced" or "bracket" */
};

struct pc_chatcli_tool_calls {
	struct pc_chatcli_tool_call *v;
	size_t nr;
};

#define PC_CHATCLI_TOOL_CALLS_INIT \
	{                          \
		NULL, 0            \
	}

/* pc_chatcli_parse_calls - ParseToolCalls (A1, A2, A3) over the model's
 * reply `text` (borrowed, NUL-terminated): `<tool_call .../>`,
 * `<tool_call ...>...</tool_call>` and the `<tool>` alias (tag names
 * case-insensitive, attributes in any order, quoted with ' or " - a
 * backslash escapes only that quote or a backslash - or unquoted and then
 * HTML-unescaped; a call without a name attribute is skipped), then JSON
 * objects in the prose ({"tool_call"|"name"|"tool":"@x","args"|
 * "arguments":...}; objects with url, title+snippet or type+error are
 * ignored; a non-@ name only as "coder"; {"cmd":"read",...} as an
 * implicit @coder) unless they repeat a tag call; when nothing matched,
 * ```-fenced blocks; when still nothing, `[tool: @x ARGS]` (an @ is
 * added). Every call's args then go through pc_chatcli_recover_args with
 * the call's name. Appends to *out in document order of each pass and
 * returns the number of calls found (0: the host runs nothing). ASCII
 * case folding only. Release with pc_chatcli_tool_calls_release. */
size_t pc_chatcli_parse_calls(const char *text,
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

/* pc_chatcli_compress_threshold - O1: the byte count from which the
 * host's compression layer looks at a successful output, from
 * CHATCLI_COMPRESSION_THRESHOLD `value` (may be NULL): a decimal integer
 * > 0 is used; unset, unparsable, negative or 0 give 4000. */
size_t pc_chatcli_compress_threshold(const char *value);

/* pc_chatcli_compression_applies - O1 step 1: true when the host hands a
 * successful output of `len` bytes to its content-aware compression
 * (CHATCLI_COMPRESSION `mode`, may be NULL: anything but off, none or
 * disabled enables it; `threshold` as above) - i.e. len >= threshold.
 * The compressed text itself is not reproduced (spec §16): the model
 * may then receive a reduced view with a <<ccr:KEY>> marker instead of
 * the bytes pc_chatcli_truncate gives. */
bool pc_chatcli_compression_applies(size_t len, const char *mode,
				    const char *threshold);

/* pc_chatcli_line_fn - a live line as the host's UI callback sees it
 * (X7): `is_err` lines are shown with "ERR: " by the host. */
typedef void (*pc_chatcli_line_fn)(void *ctx, bool is_err, const char *line,
				   size_t n);

struct pc_chatcli_call_opts {
	const char *path;	      /* borrowed; the absolute plugin path */
	const struct pc_strvec *args; /* borrowed; argv after argv[0] */
	const struct pc_strvec *env;  /* borrowed; the whole environment
					 (X3); NULL: plugcheck's own */
	const char *cwd;	      /* borrowed; NULL: plugcheck's (X4) */
	int64_t timeout_ms;	      /* X5 deadline; 0: from env as X5 */
	int64_t hard_cap_ms;	      /* plugcheck's cap on reading after the
					 deadline (X6); 0: 10 s */
	size_t output_max;	      /* cap on each stream; 0: 64 MiB */
	pc_chatcli_line_fn on_line;   /* NULL or live lines */
	void *line_ctx;
};

#define PC_CHATCLI_CALL_OPTS_INIT \
	{                         \
		0                 \
	}

struct pc_chatcli_call {
	char *merged; /* X7: the merged result, raw (never NULL) */
	size_t merged_len;
	char *output; /* what the model receives: O1-truncated on
			 success, the merged text on error, "" on a
			 start failure */
	size_t output_len;
	char *error;		/* X8 error text, or NULL on success */
	int64_t duration_ms;	/* how long the host blocks (or the cap) */
	bool timed_out;		/* the X5 deadline passed */
	bool capped;		/* pipes still open at plugcheck's hard cap */
	bool stdin_read_eof;	/* informational: stdin was /dev/null (X2) */
	int leftover_processes; /* killed by plugcheck afterwards */
	size_t stderr_bytes;	/* bytes that came on stderr */
	struct pc_proc_sigs sigs; /* the signal state the plugin started
				     with (Go's os/exec, issue 18) */
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
 * file text `text` (borrowed, NUL-terminated), G4: "pkix-pem" (PEM
 * PUBLIC KEY holding the 44-byte Ed25519 SubjectPublicKeyInfo, what §6.B
 * `trust` writes), "pem" (PUBLIC KEY or ED25519 PUBLIC KEY of another DER
 * length >= 32: the last 32 bytes are used), "base64" (bare standard
 * base64 of 32 bytes), or NULL when the host skips the file. */
const char *pc_chatcli_key_format(const char *text);

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

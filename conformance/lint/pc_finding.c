#include "pc_finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_xalloc.h"

/* Sorted by id. */
const struct pc_rule pc_rules[] = {
	{ "PC-CAP-001", PC_SEV_NOTE, "capabilities are not declared",
	  "declare \"capabilities\" with exactly the inferred list so a future host that requires declarations keeps loading the plugin",
	  "R3.3" },
	{ "PC-CAP-002", PC_SEV_NOTE, "a declared capability is not required by any feature",
	  "remove the capability, or keep it if a planned feature needs it",
	  "R3.4" },
	{ "PC-CHAT-001", PC_SEV_ERROR, "the host does not load the plugin",
	  "make `PLUGIN --metadata` exit 0 quickly and print exactly one JSON object whose name, description, usage and version are strings",
	  "M1-M4, D3" },
	{ "PC-CHAT-002", PC_SEV_WARNING, "a metadata field is missing or empty",
	  "give name, description, usage and version: the model learns the plugin only from them (and usage when there is no usable schema)",
	  "M5, S4" },
	{ "PC-CHAT-003", PC_SEV_WARNING, "metadata name does not start with @",
	  "name the plugin \"@name\": the model calls @name, and the host never strips the @ when looking it up",
	  "M6, D8" },
	{ "PC-CHAT-004", PC_SEV_ERROR, "metadata name starts with mcp_",
	  "rename it (\"@name\"): the agent routes calls named mcp_* to MCP servers, and the @mcp_* form does not find the plugin (D8), so it is never reached",
	  "M6" },
	{ "PC-CHAT-005", PC_SEV_WARNING, "metadata name contains ':'",
	  "remove the ':': such names are hidden from MCP, ACP and `chatcli tool` listings",
	  "M6" },
	{ "PC-CHAT-006", PC_SEV_NOTE, "metadata name differs from the file name",
	  "expect the command to be the metadata name, not the file name (the docs say otherwise)",
	  "D5, DOC1" },
	{ "PC-CHAT-007", PC_SEV_WARNING, "plugin replaces a builtin",
	  "rename it unless replacing the builtin is the point: the host silently prefers the external plugin",
	  "D7, N1" },
	{ "PC-CHAT-008", PC_SEV_WARNING, "two plugin files register the same name",
	  "remove one: the later file in name order silently replaces the earlier",
	  "D6" },
	{ "PC-CHAT-009", PC_SEV_NOTE, "metadata name starts with _",
	  "start the name with @ unless the plugin is meant to be internal: names starting with _ are hidden from non-admin remote users",
	  "M6, R2" },
	{ "PC-CHAT-010", PC_SEV_ERROR, "--metadata or --schema does not finish",
	  "answer --metadata and --schema at once: the host has no timeout and freezes every plugin lookup while it waits",
	  "M1, D4, S1" },
	{ "PC-CHAT-011", PC_SEV_WARNING, "--metadata or --schema is slow",
	  "answer --metadata and --schema in well under a second: they run at every reload, under the manager's lock",
	  "M1, D4" },
	{ "PC-CHAT-012", PC_SEV_WARNING, "--metadata or --schema output is not deterministic",
	  "print the same metadata and schema every time",
	  "M1" },
	{ "PC-CHAT-013", PC_SEV_ERROR, "--metadata or --schema has side effects",
	  "do not create files or leave processes when asked for --metadata or --schema",
	  "M1, S1" },
	{ "PC-CHAT-014", PC_SEV_ERROR, "--schema runs the plugin's main action",
	  "treat --schema as a request for the schema: print JSON and exit 0, or exit non-zero, with no side effects",
	  "S1" },
	{ "PC-CHAT-020", PC_SEV_WARNING, "the schema renders as nothing in the prompt",
	  "use {\"argsFormat\":…, \"subcommands\":[{\"name\",\"description\",\"flags\":[…],\"examples\":[…]}]}: other shapes hide both the parameters and the usage",
	  "S4, DOC3" },
	{ "PC-CHAT-021", PC_SEV_NOTE, "no usable schema",
	  "print a JSON schema for --schema, or rely on usage alone (the model sees only the usage string)",
	  "S2, S4" },
	{ "PC-CHAT-022", PC_SEV_NOTE, "schema key args_format is ignored",
	  "spell it argsFormat",
	  "S4" },
	{ "PC-CHAT-030", PC_SEV_WARNING, "fails on a JSON-form call built from its schema",
	  "accept argv as [cmd, --flag, value, ...] with flags sorted by key, booleans as bare flags and numbers in Go formatting",
	  "A7, A11" },
	{ "PC-CHAT-031", PC_SEV_WARNING, "fails on a text-form call built from its schema",
	  "accept \"cmd --flag value\" split as the host does",
	  "A8, A11" },
	{ "PC-CHAT-032", PC_SEV_NOTE, "fails when called without arguments",
	  "handle an empty argv (the model may send no args) with a short usage message and exit 0, or document the required form in usage",
	  "A6" },
	{ "PC-CHAT-040", PC_SEV_NOTE, "output reaches the compression threshold",
	  "keep results under 4000 bytes: larger ones may be replaced by a compressed view",
	  "O1" },
	{ "PC-CHAT-041", PC_SEV_WARNING, "output is truncated by the host",
	  "keep results under 30000 bytes: the model gets only the first 5000 and last 1000 bytes",
	  "O1" },
	{ "PC-CHAT-042", PC_SEV_WARNING, "a call passes the timeout or a background process holds its output",
	  "finish within the timeout and do not leave background processes holding stdout/stderr: the host waits for them",
	  "X5, X6" },
	{ "PC-CHAT-043", PC_SEV_WARNING, "processes are left running after a call",
	  "wait for every child before exiting",
	  "X6" },
	{ "PC-CHAT-044", PC_SEV_NOTE, "the plugin documents or reads input on stdin",
	  "take input from argv: the host connects stdin to /dev/null",
	  "X2, DOC5" },
	{ "PC-CHAT-050", PC_SEV_ERROR, "the plugin has no signature",
	  "sign it (`plugcheck sign PLUGIN --key KEY`) and trust the key; without a .sig the host skips it unless CHATCLI_ALLOW_UNSIGNED_PLUGINS=true",
	  "G5" },
	{ "PC-CHAT-051", PC_SEV_ERROR, "the signature file is malformed",
	  "write the .sig first line as padded standard base64 of the 64-byte Ed25519 signature",
	  "G3" },
	{ "PC-CHAT-052", PC_SEV_ERROR, "the signature does not verify under the trusted keys",
	  "re-sign the current file with a trusted key (the signature covers the SHA-256 of the whole file)",
	  "G1, G5" },
	{ "PC-CHAT-053", PC_SEV_WARNING, "no trusted keys",
	  "trust the signing key (`plugcheck trust KEY.pub`): with no keys the host loads nothing signed",
	  "G4, G5" },
	{ "PC-CHAT-060", PC_SEV_WARNING, "the plugin file is group- or world-writable",
	  "chmod go-w the plugin: the host does not check, so anyone who can write it runs code as you",
	  "P1" },
	{ "PC-CHAT-061", PC_SEV_WARNING, "the plugins directory is group- or world-writable",
	  "chmod go-w the plugins directory",
	  "P1" },
	{ "PC-CHAT-070", PC_SEV_ERROR, "/plugin install leaves the plugin unsigned, so the host never loads it",
	  "trust your key first (`plugcheck trust KEY.pub`; no reload follows), then sign the installed file (`plugcheck sign ~/.chatcli/plugins/NAME --key KEY`): the .sig write makes the watcher reload and load it. CHATCLI_ALLOW_UNSIGNED_PLUGINS=true loads it unsigned (development only)",
	  "I5, G5, G8, D9" },
	{ "PC-CHAT-071", PC_SEV_WARNING, "a plain-URL install names the binary after a temporary directory",
	  "tell users to install with a .../tree/BRANCH/DIR URL: the binary is then named DIR, and a reinstall replaces it instead of adding a chatcli-plugin-NNN copy",
	  "I2, I4, D6" },
	{ "PC-CHAT-072", PC_SEV_ERROR, "/plugin install cannot build the tree",
	  "the host only runs `go build -o PLUGINS/NAME .` in the cloned directory: put a Go main package there (with a go.mod at or above it that the user's go accepts), or document a manual install (build, then `install -m 0755 FILE ~/.chatcli/plugins/`)",
	  "I5, DOC10" },
	{ "PC-CHAT-073", PC_SEV_ERROR, "/plugin install cannot clone the source",
	  "give a URL git can clone; in a .../tree/BRANCH/DIR URL the branch ends at the first '/' and DIR must exist on it",
	  "I2, I3" },
	{ "PC-CHAT-080", PC_SEV_WARNING, "an install sequence leaves the plugin rejected until the next reload",
	  "commit the file with mode 0755 (git update-index --chmod=+x FILE) so cp keeps the bit, and document `install -m 0755 FILE ~/.chatcli/plugins/` (the watcher ignores chmod; /plugin reload fixes it by hand)",
	  "D9, D3" },
	{ "PC-CHAT-081", PC_SEV_ERROR, "every reload triggers another reload",
	  "write nothing into the plugins directory when asked for --metadata or --schema: each write there arms the watcher again, so the host reloads every 500 ms for ever, holding the plugin lock each time",
	  "D9, D4, M1" },
	{ "PC-CHAT-090", PC_SEV_WARNING, "served remotely, every call is refused: the name is over 256 bytes",
	  "use a metadata name of at most 256 bytes: `chatcli server` refuses longer plugin names before running anything",
	  "R2" },
	{ "PC-CHAT-091", PC_SEV_WARNING, "served remotely, the server cannot list its plugins: the schema is not valid UTF-8",
	  "print --schema as valid UTF-8: gRPC cannot encode the plugin list, so a client of that server gets no remote plugin at all (the error is dropped)",
	  "R1, R2, S2" },
	{ "PC-CHAT-092", PC_SEV_WARNING, "served remotely, the plugin list passes the client's 4 MiB limit",
	  "keep --metadata and --schema small: the client drops a plugin list over 4 MiB and registers no remote plugin",
	  "R1" },
	{ "PC-CHAT-093", PC_SEV_WARNING, "served remotely, a call's arguments break the server's limits",
	  "accept at most 100 arguments of at most 10 KiB each (take long text from a file path instead): the server refuses larger requests before running the plugin",
	  "R2" },
	{ "PC-CHAT-094", PC_SEV_WARNING, "served remotely, a call's output is not valid UTF-8 and is lost",
	  "print valid UTF-8 (encode binary data as base64 or hex): gRPC cannot encode the response, so the client gets an error and none of the output",
	  "R2, R3" },
	{ "PC-CHAT-095", PC_SEV_WARNING, "served remotely, a call's response passes the client's 4 MiB limit",
	  "keep results under 4 MiB: the client refuses larger responses and the model gets only the gRPC error",
	  "R3" },
	{ "PC-CHAT-096", PC_SEV_NOTE, "served remotely, the plugin replaces the client's builtin of the same name",
	  "pick a name no builtin has: on `chatcli connect` the remote plugin takes the builtin's place, and /disconnect removes it without bringing the builtin back until the next reload",
	  "R3, D7, N1" },
	{ "PC-CMD-001", PC_SEV_WARNING, "command name is handled by the TUI itself",
	  "rename the command: the TUI consumes this slash word before plugin commands are consulted",
	  "R2.8" },
	{ "PC-CMD-002", PC_SEV_WARNING, "two commands share a name",
	  "rename one: the host always runs the first declaration",
	  "R7.2" },
	{ "PC-CMD-010", PC_SEV_ERROR, "script command fails on a plain invocation",
	  "make the command exit 0 and print one JSON object (or plain text) for any argument text, including an empty one",
	  "R7.4" },
	{ "PC-CMD-011", PC_SEV_WARNING, "prompt-backed command cannot start a turn",
	  "keep the template under 256 KiB after rendering and give it text besides {{args}}",
	  "R7.5" },
	{ "PC-DOC-001", PC_SEV_NOTE, "session_start / session_stop fire at every turn",
	  "do per-session work idempotently: the host fires session_start before and session_stop after every turn, not once per session",
	  "R4.6, R12.1.3" },
	{ "PC-DOC-002", PC_SEV_NOTE, "pre_turn fires only for image turns",
	  "expect pre_turn only when the turn has images and vision handoff is enabled",
	  "R4.6, R12.1.3" },
	{ "PC-ENV-001", PC_SEV_WARNING, "fails on non-ASCII input in the host's environment",
	  "read stdin as UTF-8 bytes explicitly: the host clears LANG/LC_*, so the script runs in the C locale",
	  "R5.3" },
	{ "PC-ENV-002", PC_SEV_WARNING, "reads an environment variable the host never passes",
	  "pass configuration on stdin or a file under HOME: the host keeps only PATH, HOME, TMPDIR, USER (and a few named variables)",
	  "R5.3" },
	{ "PC-HOOK-001", PC_SEV_WARNING, "unknown hook point",
	  "use one of the 18 hook points; the host drops this entry with a warning",
	  "R1.12" },
	{ "PC-HOOK-002", PC_SEV_WARNING, "timeout_ms is 0",
	  "a zero timeout makes every call time out; raise timeout_ms or remove it to get the default",
	  "R5.11" },
	{ "PC-HOOK-003", PC_SEV_NOTE, "pre_write/pre_read cover fewer tools than the docs say",
	  "also register pre_tool if you must see patch, bulk_write, bulk_edit, delete, rename, mkdir, list_dir or bulk_read",
	  "R4.6, R12.1.2" },
	{ "PC-HOOK-004", PC_SEV_NOTE, "timeout_ms is over 10 minutes",
	  "a hung script blocks the turn for the whole timeout; keep hook timeouts short",
	  "R5.11" },
	{ "PC-HOOK-005", PC_SEV_NOTE, "pass_args on a hook point that never receives args",
	  "drop pass_args here: the host has no args to pass at this point, yet pass_args still makes it infer receive_tool_arguments",
	  "R3.5, R4.5" },
	{ "PC-HOOK-010", PC_SEV_ERROR, "blocking hook denies because it failed, not because it decided",
	  "make the hook exit 0 with {\"allow\":true|false,...} on every input; a crash, timeout, empty or invalid output denies the call",
	  "R4.4" },
	{ "PC-HOOK-011", PC_SEV_WARNING, "advisory hook fails",
	  "make the hook exit 0 with one JSON object; the host skips a failed advisory hook and shows post-hook failures to the model",
	  "R4.4, R4.9" },
	{ "PC-HOOK-012", PC_SEV_ERROR, "blocking hook's answer has no boolean allow",
	  "answer {\"allow\": true} to allow; a missing or non-boolean allow (\"true\", 1) denies",
	  "R4.3.9" },
	{ "PC-HOOK-013", PC_SEV_NOTE, "allow:false on a hook whose allow is ignored",
	  "drop allow:false here: post and lifecycle hooks cannot block; use the reason or modify instead",
	  "R4.2, R12.2.3" },
	{ "PC-HOOK-014", PC_SEV_NOTE, "denies without a reason",
	  "give a reason: the model sees \"... denied by plugin 'p' hook 'h': \" with nothing after it",
	  "R4.8" },
	{ "PC-HOOK-015", PC_SEV_WARNING, "modify is not an object",
	  "return modify as an object of the keys to replace; anything else is ignored",
	  "R4.10" },
	{ "PC-HOOK-016", PC_SEV_NOTE, "answer carries modify where the host ignores it",
	  "drop modify at this hook point: the host does not read it here",
	  "R4.6" },
	{ "PC-INST-001", PC_SEV_ERROR, "a script loses its execute bit in the release zip",
	  "store the script with mode 0755 in the zip (git update-index --chmod=+x), or move it directly under hooks/, tools/ or oauth/: the host adds +x only there",
	  "§11" },
	{ "PC-INST-002", PC_SEV_WARNING, "a helper with #! has no execute bit in the release zip",
	  "store it with mode 0755, or run it through its interpreter (python3 helper.py)",
	  "§11" },
	{ "PC-INST-003", PC_SEV_NOTE, "the release zip carries no execute bit; the host adds one",
	  "store scripts with mode 0755 so a plain unzip works too",
	  "§11" },
	{ "PC-INST-010", PC_SEV_ERROR, "a needed file is excluded by the install copy",
	  "rename or move it: the host never copies .git, .venv, venv, __pycache__, caches, .runtime, node_modules, .DS_Store, .tox, dist, build, .eggs, .env or .env.* (except .env.example), at any depth",
	  "§11" },
	{ "PC-INST-011", PC_SEV_WARNING, "a script mentions a file the install does not copy",
	  "ship what the script needs under a name the copy keeps, or create it at run time",
	  "§11" },
	{ "PC-INST-020", PC_SEV_ERROR, "a symlink breaks after the install",
	  "point symlinks at files inside the plugin with a relative target the copy keeps, or ship the file itself",
	  "§11" },
	{ "PC-INST-021", PC_SEV_WARNING, "a symlink resolves into the source folder",
	  "use a relative target inside the plugin: the copy keeps the link text, so it breaks when the source folder moves",
	  "§11" },
	{ "PC-INST-022", PC_SEV_WARNING, "the release zip stores a symlink",
	  "ship the file itself: the host extracts a zip symlink as a plain file holding the link text",
	  "§11" },
	{ "PC-INST-030", PC_SEV_ERROR, "the plugin name collides with an installed plugin",
	  "rename the plugin (manifest \"name\") or remove the installed one first",
	  "§11, R1.15" },
	{ "PC-INST-031", PC_SEV_WARNING, "the plugin name is one the host stages by default",
	  "rename the plugin: every host that has started once has a global plugin of this name, so /plugin-install refuses it",
	  "§11, R1.16" },
	{ "PC-INST-040", PC_SEV_ERROR, "the host's install fails",
	  "fix the reported problem; the host validates the whole plugin before copying anything",
	  "§11" },
	{ "PC-IO-001", PC_SEV_ERROR, "output over 1 MiB fails the call",
	  "keep stdout and stderr under 1 MiB each; the host fails the call instead of truncating",
	  "R5.7" },
	{ "PC-IO-002", PC_SEV_WARNING, "fails on a large input the host still sends",
	  "handle contexts up to 1 MiB: read all of stdin before answering and stay within the timeout",
	  "R5.8" },
	{ "PC-IO-003", PC_SEV_NOTE, "blocking hook with pass_args denies oversized calls",
	  "expect every call whose context exceeds 1 MiB to be denied without running the hook (e.g. large writes)",
	  "R5.8" },
	{ "PC-IO-004", PC_SEV_NOTE, "does not read its stdin",
	  "read all of stdin even if unused; a script that exits early is fine, one that blocks before reading stalls the host's stdin phase",
	  "R5.5" },
	{ "PC-LIFE-001", PC_SEV_NOTE, "the system prompt is stale after a plugin was disabled or enabled",
	  "do not rely on /plugin-disable to withdraw system_prompt text (or on /plugin-enable to add it): the host keeps the conversation's system prompt until a new conversation, /plugin-reload, a trust decision or a memory change; tell users to run /plugin-reload after toggling, or put text that must follow the plugin's state in a pre_agent_start hook",
	  "R10.3" },
	{ "PC-LOAD-001", PC_SEV_ERROR, "the host rejects the plugin",
	  "fix the manifest error the host reports (see the message)",
	  "R1.11" },
	{ "PC-LOAD-002", PC_SEV_ERROR, "the host does not see a plugin here",
	  "point plugcheck at a directory that holds plugin.json; the host silently skips anything else in a plugin root",
	  "R1.4" },
	{ "PC-MAN-001", PC_SEV_WARNING, "manifest name differs from the directory name",
	  "rename the directory or the plugin: install copies it to <root>/<name>, so paths differ after installation",
	  "R2.5" },
	{ "PC-MAN-002", PC_SEV_NOTE, "version is not a semantic version",
	  "use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver",
	  "§2.2, R12.2.1" },
	{ "PC-MAN-003", PC_SEV_WARNING, "disable_tools names a tool that does not exist",
	  "remove the entry or fix its spelling; the host does not validate these names",
	  "R2.19" },
	{ "PC-MEM-001", PC_SEV_ERROR, "a memory action the host sends fails",
	  "handle inject, save, list, forget and compact_append with one JSON object on stdout",
	  "R9.3, R9.5" },
	{ "PC-MEM-002", PC_SEV_ERROR, "memory provider implements only documented actions the host never sends",
	  "implement inject/save/list/forget/compact_append; standing_prompt, write and search are never sent",
	  "R9.3, R12.1.1" },
	{ "PC-MEM-003", PC_SEV_WARNING, "memory round trip loses data",
	  "return the saved id from save, list it in entries, include it in inject and drop it on forget",
	  "R9.3" },
	{ "PC-OAUTH-001", PC_SEV_WARNING, "an OAuth action fails as a script failure",
	  "exit 0 with one JSON object; report expected failures as {\"ok\":false,\"error\":...}",
	  "R8.3" },
	{ "PC-OAUTH-002", PC_SEV_WARNING, "login answer has neither a url nor a recognised flow",
	  "return {\"url\":...} (plus flow/pending) or {\"ok\":true,\"flow\":\"already_authenticated\"} or {\"ok\":false,\"error\":...}",
	  "R8.5" },
	{ "PC-PROC-001", PC_SEV_WARNING, "leaves processes running after answering",
	  "wait for or kill child processes before exiting; the host kills only the direct child",
	  "R5.9" },
	{ "PC-PROC-002", PC_SEV_WARNING, "slow: p95 latency over half the timeout",
	  "make the script faster or raise timeout_ms; under load it will time out",
	  "R5.11" },
	{ "PC-PROC-003", PC_SEV_ERROR, "a background process holds stdout or stderr open",
	  "close stdout/stderr in background children (or redirect them); the host waits for EOF and times out",
	  "R5.6" },
	{ "PC-SBX-001", PC_SEV_ERROR, "connects to the network without `access_network` (--sandbox)",
	  "declare \"access_network\" in capabilities, or stop the script (and every program it runs) from opening network connections",
	  "R3.1, R3.5" },
	{ "PC-SBX-002", PC_SEV_ERROR, "writes to the workspace without `write_workspace` (--sandbox)",
	  "declare \"write_workspace\" in capabilities, or keep the script's files in $TMPDIR or $HOME",
	  "R3.1, R3.5" },
	{ "PC-SBX-003", PC_SEV_ERROR, "writes outside the workspace (--sandbox)",
	  "write only to the workspace, $HOME and $TMPDIR (never to the plugin directory or system paths); no capability allows more",
	  "R3.1, R3.5" },
	{ "PC-SCRIPT-001", PC_SEV_WARNING, "script is empty or a directory",
	  "point the script at an executable file; this passes load and then fails every call with a spawn error",
	  "R2.11" },
	{ "PC-SCRIPT-002", PC_SEV_ERROR, "script's shebang line ends with a carriage return",
	  "convert the file to LF line endings (dos2unix); the kernel looks for an interpreter named with a trailing CR",
	  "R5.2" },
	{ "PC-SCRIPT-003", PC_SEV_WARNING, "script's interpreter is not on the host's PATH",
	  "install the interpreter or use an absolute path in the shebang",
	  "R5.2, R5.3" },
	{ "PC-SCRIPT-004", PC_SEV_WARNING, "directly executed script has no shebang",
	  "add a #! line (e.g. #!/bin/sh); the host executes files without a .sh/.bash/.py extension directly",
	  "R5.2" },
	{ "PC-TOOL-001", PC_SEV_WARNING, "tool name collides with a built-in tool",
	  "rename the tool, or set \"override\": true to replace the built-in on purpose",
	  "R2.15" },
	{ "PC-TOOL-002", PC_SEV_NOTE, "override on a name that is not a built-in tool",
	  "remove \"override\": it only has an effect on built-in names",
	  "R2.16" },
	{ "PC-TOOL-003", PC_SEV_WARNING, "two tools share a name",
	  "rename one: the host offers and dispatches only the first",
	  "R6.3" },
	{ "PC-TOOL-004", PC_SEV_NOTE, "tool parameters is not a JSON object",
	  "declare parameters as a JSON Schema object; the host replaces anything else with an empty object schema",
	  "§2.4" },
	{ "PC-TOOL-005", PC_SEV_WARNING, "parameters is not a usable JSON Schema",
	  "fix the schema so models can build valid calls",
	  "§2.4" },
	{ "PC-TOOL-010", PC_SEV_ERROR, "tool fails on valid arguments",
	  "make the tool answer ok for arguments its schema allows",
	  "R6.2" },
	{ "PC-TOOL-011", PC_SEV_WARNING, "tool crashes on invalid arguments",
	  "validate arguments and answer {\"ok\":false,\"output\":\"...\"} instead of crashing",
	  "R6.2" },
};
const size_t pc_nrules = sizeof(pc_rules) / sizeof(pc_rules[0]);

const struct pc_rule *pc_rule_find(const char *id)
{
	for (size_t i = 0; i < pc_nrules; i++)
		if (!strcmp(pc_rules[i].id, id))
			return &pc_rules[i];
	return NULL;
}

const char *pc_severity_name(enum pc_severity s)
{
	return s == PC_SEV_ERROR ? "error" : s == PC_SEV_WARNING ? "warning"
								   : "note";
}

static void vadd(struct pc_findings *f, const char *id, const char *file,
		 const char *where, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static void vadd(struct pc_findings *f, const char *id, const char *file,
		 const char *where, const char *fmt, va_list ap)
{
	const struct pc_rule *r = pc_rule_find(id);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!r) {
		fprintf(stderr, "plugcheck: BUG: unknown rule '%s'\n", id);
		abort();
	}
	pc_buf_vaddf(&b, fmt, ap);
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 8;
		f->v = pc_xreallocarray(f->v, f->alloc, sizeof(*f->v));
	}
	f->v[f->nr].rule = r;
	f->v[f->nr].message = pc_buf_detach(&b, NULL);
	f->v[f->nr].file = pc_xstrdup(file ? file : "");
	f->v[f->nr].where = pc_xstrdup(where ? where : "");
	f->v[f->nr].suppressed = false;
	f->nr++;
}

void pc_findings_add(struct pc_findings *f, const char *id, const char *file,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(f, id, file, NULL, fmt, ap);
	va_end(ap);
}

void pc_findings_add_at(struct pc_findings *f, const char *id,
			const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(f, id, "plugin.json", where, fmt, ap);
	va_end(ap);
}

bool pc_findings_has(const struct pc_findings *f, const char *id)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].rule->id, id))
			return true;
	return false;
}

void pc_findings_release(struct pc_findings *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		free(f->v[i].message);
		free(f->v[i].file);
		free(f->v[i].where);
	}
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

size_t pc_findings_count(const struct pc_findings *f, enum pc_severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr; i++)
		n += f->v[i].rule->severity == s && !f->v[i].suppressed;
	return n;
}

cJSON *pc_findings_json(const struct pc_findings *f)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < f->nr; i++) {
		cJSON *o = cJSON_CreateObject();
		const struct pc_rule *r = f->v[i].rule;

		cJSON_AddStringToObject(o, "id", r->id);
		cJSON_AddStringToObject(o, "severity",
					pc_severity_name(r->severity));
		cJSON_AddStringToObject(o, "message", f->v[i].message);
		cJSON_AddStringToObject(o, "fix", r->fix);
		cJSON_AddStringToObject(o, "rule", r->spec);
		cJSON_AddStringToObject(o, "file", f->v[i].file);
		cJSON_AddStringToObject(o, "where", f->v[i].where);
		cJSON_AddBoolToObject(o, "suppressed", f->v[i].suppressed);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

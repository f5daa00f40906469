"""plugcheck lint: the host's load verdict, byte for byte (spec §1-§3)."""
import json
import os
import subprocess

from e2e import eq

SH_ALLOW = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"


def host_error(ctx, manifest, files=None, dirname="p"):
    d = ctx.plugin("p", manifest, files, dirname=dirname)
    code, out = ctx.json("lint", d)
    return code, out


def rejected(ctx, manifest, expected, files=None):
    code, out = host_error(ctx, manifest, files)
    eq(out["host_error"], expected, "host_error")
    eq(out["loaded"], False, "loaded")
    eq(code, 3, "exit code")
    ids = [f["id"] for f in out["findings"]]
    eq(ids, ["PC-LOAD-001"], "findings")
    eq(out["findings"][0]["message"], 'failed to load plugin in "p": ' + expected, "log line")


def test_minimal_manifest_loads_with_no_capabilities(ctx):
    # spec §13 load_minimal_plugin
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0"})
    code, out = ctx.json("lint", d)
    eq(code, 0)
    eq(out["loaded"], True)
    eq(out["host_error"], None)
    eq(out["capabilities"], [])
    eq([f["id"] for f in out["findings"]], ["PC-CAP-001"])


def test_missing_name_is_a_serde_error(ctx):
    rejected(ctx, '{"version": "1"}', "plugin.json parse error: missing field `name` at line 1 column 16")


def test_bad_json_is_a_parse_error(ctx):
    # spec §13 load_rejects_bad_json
    rejected(ctx, "{nope", "plugin.json parse error: key must be a string at line 1 column 2")


def test_null_description_is_a_type_error(ctx):
    # R2.3: defaults only when absent; null is a type error for non-Option fields
    rejected(ctx, '{"name":"p","version":"1","description":null}',
             "plugin.json parse error: invalid type: null, expected a string at line 1 column 44")


def test_duplicate_top_level_key(ctx):
    # R2.4
    rejected(ctx, '{"name":"p","name":"q","version":"1"}',
             "plugin.json parse error: duplicate field `name` at line 1 column 18")


def test_negative_timeout(ctx):
    # R2.4: timeout_ms is u64
    rejected(ctx, '{"name":"p","version":"1","hooks":{"pre_bash":{"script":"h.sh","timeout_ms":-1}}}',
             "plugin.json parse error: invalid value: integer `-1`, expected u64 at line 1 column 78")


def test_empty_name(ctx):
    # R2.5, spec §13 load_rejects_empty_name
    rejected(ctx, {"name": "", "version": "1"}, "plugin name is empty")


def test_name_with_separator(ctx):
    rejected(ctx, {"name": "a/b", "version": "1"}, 'plugin name contains a path separator: "a/b"')
    rejected(ctx, {"name": "..", "version": "1"}, 'plugin name contains a path separator: ".."')


def test_future_protocol(ctx):
    # R2.6, spec §13 future_plugin_protocol_is_rejected
    rejected(ctx, {"name": "p", "version": "1", "protocol_version": 99},
             "plugin protocol version 99 is newer than supported (1)")


def test_protocol_zero_is_accepted(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "protocol_version": 0})
    code, out = ctx.json("lint", d)
    eq(out["loaded"], True)


def test_missing_capabilities(ctx):
    # R3.4, spec §13 explicit_capabilities_must_cover_registered_features
    rejected(ctx, {"name": "p", "version": "1", "capabilities": ["execute_subprocess"],
                   "tools": [{"name": "t", "script": "t.sh"}]},
             "plugin is denied because its manifest is missing required capabilities: register_tools, write_workspace",
             {"t.sh": SH_ALLOW})


def test_unknown_capability(ctx):
    rejected(ctx, {"name": "p", "version": "1", "capabilities": ["fly"]},
             "plugin declares unknown capabilities: fly")


def test_unknown_capability_wins_over_missing(ctx):
    # R3.4.1: unknown strings are checked before missing ones
    rejected(ctx, {"name": "p", "version": "1", "capabilities": ["fly"],
                   "tools": [{"name": "t", "script": "t.sh"}]},
             "plugin declares unknown capabilities: fly", {"t.sh": SH_ALLOW})


def test_pretty_manifest_error_position(ctx):
    # serde counts lines and byte columns of the text as written
    rejected(ctx, '{\n  "name": "p",\n  "version": "1",\n  "oauth": {}\n}\n',
             "plugin.json parse error: missing field `provider_id` at line 4 column 13")


def test_inferred_capabilities_sorted(ctx):
    # R3.2 / R3.3
    d = ctx.plugin("p", {"name": "p", "version": "1",
                         "hooks": {"pre_input": {"script": "h.sh", "pass_args": True},
                                   "post_tool": {"script": "h.sh"}},
                         "tools": [{"name": "t", "script": "h.sh", "kind": "readonly"}],
                         "commands": [{"name": "c", "script": "h.sh"}]},
                   {"h.sh": SH_ALLOW})
    code, out = ctx.json("lint", d)
    eq(out["capabilities"], ["execute_subprocess", "read_workspace", "receive_model_responses",
                             "receive_prompts", "receive_tool_arguments", "register_commands",
                             "register_tools"])


def test_empty_declared_capabilities_denies_any_feature(ctx):
    rejected(ctx, {"name": "p", "version": "1", "capabilities": [], "system_prompt": "x",
                   "commands": [{"name": "c", "prompt_file": "p.md"}]},
             "plugin is denied because its manifest is missing required capabilities: register_commands",
             {"p.md": "hi"})


def test_hook_script_missing(ctx):
    # R2.9, spec §13 load_rejects_missing_script
    rejected(ctx, {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "hooks/x.sh"}}},
             'hook script "hooks/x.sh" does not exist')


def test_hook_script_not_executable(ctx):
    # R2.10, spec §13 load_rejects_non_executable
    d = ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "x.sh"}}},
                   {"x.sh": SH_ALLOW})
    os.chmod(os.path.join(d, "x.sh"), 0o644)
    code, out = ctx.json("lint", d)
    eq(out["host_error"], 'hook script "x.sh" is not executable (try chmod +x)')


def test_hook_script_escape(ctx):
    # R2.9, spec §13 load_rejects_script_escape
    rejected(ctx, {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "../hooks/outside.sh"}}},
             'hook script "../hooks/outside.sh" escapes the plugin directory')


def test_symlink_escape(ctx):
    outside = os.path.join(ctx.tmp, "outside.sh")
    with open(outside, "w") as f:
        f.write(SH_ALLOW)
    os.chmod(outside, 0o755)
    d = ctx.plugin("p", {"name": "p", "version": "1", "tools": [{"name": "t", "script": "link.sh"}]})
    os.symlink(outside, os.path.join(d, "link.sh"))
    code, out = ctx.json("lint", d)
    eq(out["host_error"], 'script "link.sh" escapes the plugin directory')


def test_unknown_hook_point_is_skipped(ctx):
    # R1.12, spec §13 load_skips_unknown_hook
    d = ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_nothing": {"script": "x.sh"}}})
    code, out = ctx.json("lint", d)
    eq(out["loaded"], True)
    eq(out["host_log"], ["[plugins] unknown hook point 'pre_nothing' in plugin 'p'; skipping"])
    eq(out["capabilities"], ["execute_subprocess"])
    assert "PC-HOOK-001" in [f["id"] for f in out["findings"]]


def test_tool_empty_name(ctx):
    rejected(ctx, {"name": "p", "version": "1", "tools": [{"name": "", "script": "x"}]},
             "plugin declares a tool with an empty name")


def test_tool_invalid_kind_checked_after_script(ctx):
    rejected(ctx, {"name": "p", "version": "1", "tools": [{"name": "t", "script": "nope.sh", "kind": "x"}]},
             'script "nope.sh" does not exist')
    rejected(ctx, {"name": "p", "version": "1", "tools": [{"name": "t", "script": "t.sh", "kind": "ReadOnly"}]},
             "tool 't' has invalid kind 'ReadOnly' (use 'readonly' or 'destructive')", {"t.sh": SH_ALLOW})


def test_reserved_command(ctx):
    # R2.8, spec §13 load_rejects_reserved_command_name
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "/help", "script": "c.sh"}]},
             "command 'help' collides with a reserved builtin slash command")


def test_command_mode_matrix(ctx):
    files = {"c.sh": SH_ALLOW, "p.md": "x"}
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "script": "c.sh", "prompt_file": "p.md"}]},
             "command 'c' declares both `script` and `prompt_file`; use exactly one", files)
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "script": "  "}]},
             "command 'c' declares neither `script` nor `prompt_file`; set one", files)
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "script": "c.sh", "mode": "agent_turn"}]},
             'command \'c\' has `script` but mode="agent_turn" (expected "script")', files)
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "prompt_file": "p.md", "mode": "script"}]},
             'command \'c\' has `prompt_file` but mode="script" (expected "agent_turn")', files)


def test_empty_command_name_is_skipped_but_counts_for_capabilities(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [{"name": " / ", "script": "missing.sh"}]})
    code, out = ctx.json("lint", d)
    eq(out["loaded"], True)
    eq(out["capabilities"], ["execute_subprocess", "register_commands"])


def test_prompt_file_rules(ctx):
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "prompt_file": "/etc/passwd"}]},
             'prompt_file "/etc/passwd" must be relative to the plugin directory')
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "prompt_file": "a/../p.md"}]},
             'prompt_file "a/../p.md" escapes the plugin directory')
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "prompt_file": "none.md"}]},
             'prompt_file "none.md" does not exist or is unreadable')
    rejected(ctx, {"name": "p", "version": "1", "commands": [{"name": "c", "prompt_file": "dir"}]},
             'prompt_file "dir" is not a regular file', {"dir/x.txt": "x"})


def test_prompt_file_size_limit_edges(ctx):
    # R2.12: 262144 accepted, 262145 rejected
    for size, ok in ((262143, True), (262144, True), (262145, False)):
        d = ctx.plugin("p%d" % size, {"name": "p", "version": "1",
                                      "commands": [{"name": "c", "prompt_file": "p.md"}]},
                       {"p.md": "x" * size})
        code, out = ctx.json("lint", d)
        eq(out["loaded"], ok, "size %d" % size)
        if not ok:
            eq(out["host_error"], 'prompt_file "p.md" exceeds the 262144 byte limit')


def test_memory_provider_empty_script(ctx):
    rejected(ctx, {"name": "p", "version": "1", "memory_provider": {"script": " "}},
             "memory_provider.script is empty")


def test_oauth_rules(ctx):
    base = {"provider_id": "acme", "base_url": "https://x", "script": "o.sh"}
    files = {"o.sh": SH_ALLOW}

    def oauth(**kw):
        o = dict(base)
        o.update(kw)
        return {"name": "p", "version": "1", "oauth": {k: v for k, v in o.items() if v is not None}}

    rejected(ctx, oauth(provider_id=""), "oauth provider_id is empty", files)
    rejected(ctx, oauth(base_url=""), "oauth provider 'acme' has an empty base_url", files)
    rejected(ctx, oauth(kind="gemini"), "oauth provider 'acme' has invalid kind 'gemini' (use 'openai' or 'anthropic')", files)
    rejected(ctx, oauth(token_path="../t.json"), "oauth provider 'acme' token_path must be one relative filename", files)
    rejected(ctx, oauth(provider_id="a/b"), "oauth provider 'a/b' token_path must be one relative filename", files)
    rejected(ctx, oauth(script=None, login_script="o.sh"),
             "oauth provider 'acme' has no token script: set 'script' (handles all actions) or 'token_script'", files)
    rejected(ctx, oauth(env_passthrough=["ACME_API_KEY"]),
             "oauth provider 'acme' env_passthrough entry 'ACME_API_KEY' is invalid or secret-looking (KEY/TOKEN/SECRET/PASSWORD/CREDENTIAL names are not allowed)", files)
    rejected(ctx, oauth(detect_path="/etc/x"),
             "oauth detect_path '/etc/x' must be relative, $CODEX_HOME/auth.json, or ~/.codex/auth.json", files)
    rejected(ctx, oauth(detect_path="a/../b"), "oauth detect_path 'a/../b' may not contain '..'", files)
    rejected(ctx, oauth(detect_path="  "), "oauth detect_path must not be empty", files)


def test_oauth_capabilities(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1",
                         "oauth": {"provider_id": "acme", "base_url": "https://x", "script": "o.sh"}},
                   {"o.sh": SH_ALLOW})
    code, out = ctx.json("lint", d)
    eq(out["capabilities"], ["access_network", "access_secrets", "execute_subprocess", "register_providers"])


def test_empty_script_passes_load_and_is_flagged(ctx):
    # R2.11
    d = ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": ""}}})
    code, out = ctx.json("lint", d)
    eq(out["loaded"], True)
    assert "PC-SCRIPT-001" in [f["id"] for f in out["findings"]], out["findings"]


def test_builtin_collision_and_crlf(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1",
                         "tools": [{"name": "read_file", "script": "t"}]},
                   {"t": "#!/bin/sh\r\necho hi\r\n"})
    code, out = ctx.json("lint", d)
    ids = sorted(f["id"] for f in out["findings"])
    eq(ids, ["PC-CAP-001", "PC-MAN-002", "PC-SCRIPT-002", "PC-TOOL-001"])
    eq(code, 1)


def test_example_plugin_is_clean(ctx):
    d = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "secret-guard")
    code, out = ctx.json("lint", d)
    eq(out["loaded"], True)
    # the notes `check` used to find alone (issue 15): lint reports them too
    # (its guard runs at pre_bash and pre_tool, so no PC-HOOK-003: issue 16)
    eq([f["id"] for f in out["findings"]], ["PC-IO-003", "PC-IO-003"], "findings")
    eq(code, 0)


def test_non_object_parameters_is_a_note(ctx):
    # §2.4: replaced by {"type":"object","properties":{}}; absent is fine
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0", "capabilities": [
        "execute_subprocess", "register_tools", "write_workspace"],
        "tools": [{"name": "a", "script": "t.sh", "parameters": None},
                  {"name": "b", "script": "t.sh"}]}, {"t.sh": SH_ALLOW})
    code, out = ctx.json("lint", d)
    eq([(f["id"], f["message"]) for f in out["findings"]],
       [("PC-TOOL-004", "tool 'a': parameters is not an object; the model sees {\"properties\":{},\"type\":\"object\"}")])


def test_not_a_plugin_directory(ctx):
    # R1.4: the host ignores anything that is not a directory with plugin.json
    os.makedirs(os.path.join(ctx.tmp, "empty"))
    code, out = ctx.json("lint", os.path.join(ctx.tmp, "empty"))
    eq((code, out["loaded"], out["host_error"]), (3, False, None))
    eq([f["id"] for f in out["findings"]], ["PC-LOAD-002"])
    # a path that names nothing is a typo, said in one line (issue 20)
    for cmd in (["lint"], ["check"], [], ["fire", "pre_bash"], ["install-check"]):
        nope = os.path.join(ctx.tmp, "nope")
        code, stdout, stderr = ctx.run(*cmd, nope)
        name = (cmd or ["check"])[0]
        eq((code, stdout, stderr), (2, "", "plugcheck %s: '%s' does not exist\n"
                                    "Run `plugcheck %s --help` for usage.\n" % (name, nope, name)))
    code, stdout, stderr = ctx.run("install-check", "nonexist.zip")
    eq((code, stderr.split("\n")[0]), (2, "plugcheck install-check: 'nonexist.zip' does not exist"))


def test_rejected_human_output(ctx):
    d = ctx.plugin("p", {"name": "", "version": "1"})
    code, stdout, stderr = ctx.run("lint", d)
    eq(code, 3)
    eq(stdout.splitlines()[:2], ["%s: REJECTED by the host" % d, "  host error: plugin name is empty"])


def test_path_debug_quoting_in_log_line(ctx):
    # R1.11: the directory name is formatted as a Rust path ({:?}), which
    # escapes a single quote
    d = ctx.plugin("p", {"name": "", "version": "1"}, dirname="it's \"here\"")
    code, out = ctx.json("lint", d)
    eq(out["host_log"], ["[plugins] failed to load plugin in \"it\\'s \\\"here\\\"\": plugin name is empty"])


def test_unreadable_scripts_are_found_before_they_run(ctx):
    # issue 20: a script the user cannot read passed lint (the host checks
    # only the execute bit, R2.10) and every call then failed
    d = ctx.plugin("unread", {"name": "unread", "version": "1",
                              "hooks": {"pre_bash": {"script": "hooks/h.sh"}},
                              "tools": [{"name": "t", "description": "d", "kind": "readonly",
                                         "script": "bin/t"}]},
                   {"hooks/h.sh": "#!/bin/sh\necho '{\"allow\":true}'\n",
                    "bin/t": "#!/bin/sh\necho ok\n"})
    pre = None
    if os.geteuid() == 0:  # root reads everything: run as nobody, who owns it
        for root, ds, fs in os.walk(d):
            for n in ds + fs:
                os.chown(os.path.join(root, n), 65534, 65534)
        os.chown(d, 65534, 65534)
        os.chmod(ctx.tmp, 0o755)

        def pre():
            os.setgroups([])
            os.setresgid(65534, 65534, 65534)
            os.setresuid(65534, 65534, 65534)
    for rel in ("hooks/h.sh", "bin/t"):
        os.chmod(os.path.join(d, rel), 0o311)
    p = subprocess.run([ctx.plugcheck, "lint", d, "--format", "json"], capture_output=True,
                       timeout=60, preexec_fn=pre, env={"PATH": os.environ["PATH"],
                                                        "HOME": ctx.tmp})
    out = json.loads(p.stdout)
    eq((p.returncode, [(f["id"], f["file"], f["message"]) for f in out["findings"]
                       if f["id"].startswith("PC-SCRIPT")]),
       (1, [("PC-SCRIPT-006", "hooks/h.sh", 'script "hooks/h.sh" (mode 0311) is not readable by '
             "this user: the host's bash cannot read it, so every call fails"),
            ("PC-SCRIPT-007", "bin/t", 'script "bin/t" (mode 0311) is not readable by this user: '
             "unless it is a compiled binary, every call fails")]), p.stderr)

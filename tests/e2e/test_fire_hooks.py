"""plugcheck fire on hooks: the host's execute_hook, byte for byte
(spec §4.2-§4.4, §5; §13 execute_hook_* and build_context_* tests)."""
import json
import os

from e2e import eq

TS = "1700000000"
WS = "/work/space"
SESSION = "/home/u/.catalyst-code/sessions/1.jsonl"


def sh_echo(body, code=0):
    # The host's own test helper shape (spec §13 write_hook_script).
    return "#!/bin/sh\necho '%s'\nexit %d\n" % (body, code)


def hook_plugin(ctx, point, script, name="p", pass_args=False, timeout=None, rel="hooks/h"):
    entry = {"script": rel, "pass_args": pass_args}
    if timeout is not None:
        entry["timeout_ms"] = timeout
    files = {rel: script} if isinstance(script, (str, bytes)) else {}
    d = ctx.plugin(name, {"name": name, "version": "1.0.0", "hooks": {point: entry}}, files)
    if script is None:
        ctx.fake(d, rel)
    return d


def fire(ctx, point, d, *extra, env=None):
    return ctx.json("fire", point, d, "--timestamp", TS, "--workspace", WS,
                    "--session", SESSION, *extra, env=env)


def args_file(ctx, text):
    """Large inputs go through --args-file: one argv string is capped at
    128 KiB by the kernel."""
    p = os.path.join(ctx.tmp, "args-%d.json" % len(text))
    with open(p, "w") as f:
        f.write(text)
    return p


def test_allow_keeps_reason(ctx):
    # §13 execute_hook_allow
    d = hook_plugin(ctx, "pre_bash", sh_echo('{"allow":true,"reason":"all good"}'))
    code, out = fire(ctx, "pre_bash", d)
    eq((out["outcome"], out["allow"], out["reason"]), ("ok", True, "all good"))
    assert "modify" not in out and "notify" not in out and "status" not in out
    eq(out["exit_code"], 0)
    eq(out["leftover_processes"], 0)
    eq(code, 0)


def test_deny_on_pre_write(ctx):
    # §13 execute_hook_deny
    d = hook_plugin(ctx, "pre_write", sh_echo('{"allow":false,"reason":"blocked"}'))
    code, out = fire(ctx, "pre_write", d)
    eq((out["allow"], out["reason"]), (False, "blocked"))
    eq(code, 1)


def test_missing_allow_denies_blocking_hooks(ctx):
    # R4.3.9: allow missing or non-bool is false
    for body in ('{"reason":"r"}', '{"allow":"true"}', '{"allow":1}', 'true', '[]', '"x"'):
        d = hook_plugin(ctx, "pre_tool", sh_echo(body), name="p%d" % len(body))
        code, out = fire(ctx, "pre_tool", d)
        eq(out["allow"], False, body)
        eq(out["outcome"], "ok", body)


def test_post_hook_deny_is_prefixed_allow(ctx):
    # §13 execute_hook_post_always_allows_even_on_deny; R4.3.10
    d = hook_plugin(ctx, "post_write", sh_echo('{"allow":false,"reason":"nope"}'))
    code, out = fire(ctx, "post_write", d)
    eq((out["allow"], out["reason"]), (True, "[p] nope"))
    eq(code, 0)


def test_modify_returned_verbatim(ctx):
    # §13 execute_hook_with_modify: any JSON, incl. null, kept
    d = hook_plugin(ctx, "pre_bash", sh_echo('{"allow":true,"modify":{"command":"ls -la","n":18446744073709551615}}'))
    code, out = fire(ctx, "pre_bash", d)
    eq(out["modify"], {"command": "ls -la", "n": 18446744073709551615})
    d = hook_plugin(ctx, "pre_bash", sh_echo('{"allow":true,"modify":null}'), name="q")
    code, out = fire(ctx, "pre_bash", d)
    assert "modify" in out and out["modify"] is None


def test_nonzero_exit_pre_denies_post_skips(ctx):
    # §13 execute_hook_nonzero_exit_pre_denies / _post_skips; R4.3.6
    script = "#!/bin/sh\necho '{\"allow\":true}'\necho '  boom  ' >&2\nexit 1\n"
    d = hook_plugin(ctx, "pre_write", script)
    code, out = fire(ctx, "pre_write", d)
    eq((out["outcome"], out["allow"], out["reason"]),
       ("exit", False, "hook 'pre_write' exited with exit status: 1: boom"))
    d = hook_plugin(ctx, "post_bash", script, name="q")
    code, out = fire(ctx, "post_bash", d)
    eq((out["allow"], out["reason"]), (True, "[q] hook 'post_bash' exited with exit status: 1: boom"))
    assert "modify" not in out


def test_signal_death_status_text(ctx):
    # the C fixture: crash-segv is chosen through a wrapper script
    d = ctx.plugin("c", {"name": "c", "version": "1", "hooks": {"pre_read": {"script": "hooks/h.sh"}}},
                   {"hooks/h.sh": "#!/bin/sh\nexec \"$(dirname \"$0\")/fake\" crash-segv\n"})
    ctx.fake(d, "hooks/fake")
    code, out = fire(ctx, "pre_read", d)
    eq(out["outcome"], "exit")
    eq(out["reason"], "hook 'pre_read' exited with signal: 11 (SIGSEGV): ")


def test_bad_json_denies_with_serde_message(ctx):
    # §13 execute_hook_bad_json_pre_denies; R4.3.8
    cases = [
        ("NOT JSON", "expected value at line 1 column 1"),
        ('{"allow":true} {"allow":false}', "trailing characters at line 1 column 16"),
        ('log line\n{"allow":true}', "expected value at line 1 column 1"),
        ('{"allow":true,}', "trailing comma at line 1 column 15"),
    ]
    for i, (body, msg) in enumerate(cases):
        d = ctx.plugin("p%d" % i, {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "h.sh"}}},
                       {"h.sh": "#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n" + body + "\nEOF\n"})
        code, out = fire(ctx, "pre_bash", d)
        eq(out["reason"], "hook 'pre_bash' returned invalid JSON: " + msg, body)
        eq(out["outcome"], "invalid_json")


def test_bom_is_invalid_json(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\nprintf '\\357\\273\\277{\"allow\":true}'\n"})
    code, out = fire(ctx, "pre_bash", d)
    eq(out["reason"], "hook 'pre_bash' returned invalid JSON: expected value at line 1 column 1")


def test_duplicate_keys_keep_last(ctx):
    d = hook_plugin(ctx, "pre_bash", sh_echo('{"allow":false,"allow":true}'))
    code, out = fire(ctx, "pre_bash", d)
    eq(out["allow"], True)


def test_empty_stdout(ctx):
    # §13 execute_hook_empty_stdout_pre_denies; whitespace-only counts as empty
    d = hook_plugin(ctx, "pre_bash", "#!/bin/sh\nprintf '  \\n\\t'\n")
    code, out = fire(ctx, "pre_bash", d)
    eq((out["outcome"], out["allow"], out["reason"]), ("empty_stdout", False, "hook 'pre_bash' returned empty stdout"))


def test_timeout_denies(ctx):
    # §13 execute_hook_timeout_pre_denies
    d = hook_plugin(ctx, "pre_bash", "#!/bin/sh\nsleep 10\n", timeout=200)
    code, out = fire(ctx, "pre_bash", d)
    eq((out["outcome"], out["allow"], out["reason"]), ("timeout", False, "hook 'pre_bash' timed out after 200ms"))
    assert out["duration_ms"] < 5000


def test_background_child_holding_stdout_times_out_and_is_swept(ctx):
    # R5.6: completion needs EOF on both pipes
    d = hook_plugin(ctx, "session_start",
                    "#!/bin/sh\n(sleep 30) &\necho '{\"allow\":true}'\n", timeout=300)
    code, out = fire(ctx, "session_start", d)
    eq(out["reason"], "[p] hook 'session_start' timed out after 300ms")
    eq(out["leftover_processes"], 1)


def test_notify_and_status_events(ctx):
    # R4.3.11, R4.12
    d = hook_plugin(ctx, "post_tool", sh_echo('{"allow":true,"notify":"hi","status":5}'))
    code, out = fire(ctx, "post_tool", d)
    eq(out["notify"], "hi")
    eq(out["status"], "")
    eq(out["events"], [{"message": "[p] hi", "type": "info"},
                       {"plugin": "p", "text": "", "type": "plugin_status"}])


def test_context_structure(ctx):
    # §13 build_context_structure / _omits_args_when_pass_args_false; R4.5
    cat = "#!/bin/sh\ncat >&2\necho '{\"allow\":true}'\n"
    d = hook_plugin(ctx, "pre_bash", cat, pass_args=True)
    code, out = fire(ctx, "pre_bash", d, "--args", '{"command":"ls","z":1,"a":[]}')
    expected = ('{"args":{"a":[],"command":"ls","z":1},"hook":"pre_bash","session_id":"%s",'
                '"timestamp":%s,"tool":"bash","workspace":"%s"}' % (SESSION, TS, WS))
    eq(out["stdin"], expected)
    eq(out["stderr"], expected)
    d = hook_plugin(ctx, "pre_bash", cat, name="q", pass_args=False)
    code, out = fire(ctx, "pre_bash", d, "--args", '{"command":"ls"}')
    eq(out["stdin"], '{"hook":"pre_bash","session_id":"%s","timestamp":%s,"tool":"bash","workspace":"%s"}'
       % (SESSION, TS, WS))


def test_post_hook_context_has_result(ctx):
    d = hook_plugin(ctx, "post_read", sh_echo('{"allow":true}'))
    code, out = fire(ctx, "post_read", d, "--result", '{"ok":false,"output":"x","diff":null}')
    eq(json.loads(out["stdin"])["result"], {"diff": None, "ok": False, "output": "x"})
    assert "args" not in json.loads(out["stdin"])


def test_lifecycle_hook_gets_empty_tool(ctx):
    d = hook_plugin(ctx, "turn_end", sh_echo('{"allow":true}'), pass_args=True)
    code, out = fire(ctx, "turn_end", d)
    eq(json.loads(out["stdin"]), {"hook": "turn_end", "session_id": SESSION, "timestamp": int(TS),
                                  "tool": "", "workspace": WS})


def test_environment_is_cleared(ctx):
    # R5.3: PATH HOME TMPDIR USER (+ a few); nothing else
    d = hook_plugin(ctx, "pre_bash", "#!/bin/sh\ncat >/dev/null\nenv | sort >&2\necho '{\"allow\":true}'\n")
    env = {"PATH": os.environ["PATH"], "HOME": "/h", "TMPDIR": "/t", "USER": "u", "SECRET_API_KEY": "x",
           "LANG": "C.UTF-8", "PYTHONPATH": "/py", "CATALYST_CODE_SHELL": "bash"}
    code, out = fire(ctx, "pre_bash", d, env=env)
    names = sorted(l.split("=", 1)[0] for l in out["stderr"].splitlines())
    # sh itself adds PWD (and may add SHLVL/_); the host passes none of them
    names = [n for n in names if n not in ("PWD", "SHLVL", "_", "OLDPWD")]
    eq(names, ["HOME", "PATH", "PYTHONPATH", "TMPDIR", "USER"])


def test_python_hook_runs_through_python(ctx):
    d = hook_plugin(ctx, "pre_read",
                    "import json,sys\nctx=json.load(sys.stdin)\nprint(json.dumps({'allow':True,'reason':ctx['tool']}))\n",
                    rel="hooks/h.py")
    os.chmod(os.path.join(d, "hooks/h.py"), 0o755)
    code, out = fire(ctx, "pre_read", d)
    eq(out["reason"], "read_file")
    eq(out["argv"][0], "python3")


def test_spawn_error_for_directory_script(ctx):
    # R2.11: an empty script loads, then fails to spawn
    d = ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": ""}}})
    code, out = fire(ctx, "pre_bash", d)
    eq(out["outcome"], "spawn_error")
    real = os.path.realpath(d)
    eq(out["reason"], 'hook \'pre_bash\' wait error: failed to spawn script "%s": Permission denied (os error 13)' % real)


def test_c_fixture_hook(ctx):
    d = ctx.plugin("c", {"name": "c", "version": "1", "hooks": {"pre_tool": {"script": "bin/h.sh"}}},
                   {"bin/h.sh": "#!/bin/sh\nexec \"$(dirname \"$0\")/fake\" echo-json\n"})
    ctx.fake(d, "bin/fake")
    code, out = fire(ctx, "pre_tool", d)
    eq((out["outcome"], out["allow"]), ("ok", True))


def _stdout_plugin(ctx, name, n, stream="stdout"):
    mode = "print-bytes" if stream == "stdout" else "print-stderr-bytes"
    d = ctx.plugin(name, {"name": name, "version": "1", "hooks": {"post_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\nexec \"$(dirname \"$0\")/fake\" %s %d\n" % (mode, n)})
    ctx.fake(d, "fake")
    return d


def test_stdout_cap_edges(ctx):
    # R5.7: 1048576 accepted, 1048577 fails
    for n, outcome in ((1048575, "invalid_json"), (1048576, "invalid_json"), (1048577, "output_too_large")):
        d = _stdout_plugin(ctx, "s%d" % n, n)
        code, out = fire(ctx, "post_bash", d)
        eq(out["outcome"], outcome, "n=%d" % n)
        if n > 1048576:
            eq(out["reason"], "[s%d] hook 'post_bash' wait error: plugin stdout exceeds the 1048576 byte limit" % n)


def test_stderr_cap_edges(ctx):
    for n, outcome in ((1048575, "empty_stdout"), (1048576, "empty_stdout"), (1048577, "output_too_large")):
        d = _stdout_plugin(ctx, "e%d" % n, n, "stderr")
        code, out = fire(ctx, "post_bash", d)
        eq(out["outcome"], outcome, "n=%d" % n)
        if n > 1048576:
            eq(out["reason"], "[e%d] hook 'post_bash' wait error: plugin stderr exceeds the 1048576 byte limit" % n)


def test_input_cap_edges(ctx):
    # R5.8: the serialized context may be 1048576 bytes, not one more
    d = hook_plugin(ctx, "pre_write", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n", pass_args=True)
    base = ('{"args":{"content":""},"hook":"pre_write","session_id":"%s","timestamp":%s,'
            '"tool":"write_file","workspace":"%s"}' % (SESSION, TS, WS))
    for n, ok in ((1048575, True), (1048576, True), (1048577, False)):
        pad = "x" * (n - len(base))
        code, out = fire(ctx, "pre_write", d, "--args-file", args_file(ctx, json.dumps({"content": pad})))
        eq(len(out["stdin"].encode()), n)
        if ok:
            eq((out["outcome"], out["allow"]), ("ok", True), "n=%d" % n)
        else:
            eq((out["outcome"], out["allow"], out["reason"], out["spawned"]),
               ("input_too_large", False, "plugin hook input exceeds the 1048576 byte limit", False))


def test_stdin_deadline_is_separate(ctx):
    # R5.5: a script that never reads a large stdin times out in the stdin phase
    d = hook_plugin(ctx, "pre_write", "#!/bin/sh\nsleep 30\n", pass_args=True, timeout=300)
    code, out = fire(ctx, "pre_write", d, "--args-file", args_file(ctx, json.dumps({"content": "x" * 500000})))
    eq((out["outcome"], out["reason"]), ("timeout", "hook 'pre_write' timed out after 300ms"))
    assert out["duration_ms"] < 5000


def test_bad_option_values_are_named(ctx):
    # A usage error says which value was wrong instead of reprinting the
    # whole usage text (found in a fresh-user trial: `--timestamp abc` was
    # taken as 0 silently).
    d = hook_plugin(ctx, "pre_bash", sh_echo('{"allow":true}'))
    for opt, val, expect in [("--timestamp", "abc", "Unix seconds, a whole number >= 1"),
                             ("--timestamp", "-5", "Unix seconds, a whole number >= 1"),
                             ("--timestamp", "99999999999999999999", "Unix seconds, a whole number >= 1"),
                             ("--timestamp", "0", "Unix seconds, a whole number >= 1"),
                             ("--format", "xml", "human or json")]:
        code, out, err = ctx.run("fire", "pre_bash", d, opt, val)
        eq((code, out, err), (2, "", "plugcheck fire: %s: invalid value '%s' (expected %s)\n"
                                     "Run `plugcheck fire --help` for usage.\n" % (opt, val, expect)))
    code, out, err = ctx.run("fire", "pre_bash", d, "--timestamp", "1", "--format", "json")
    eq((code, json.loads(out)["stdin"].count('"timestamp":1,')), (0, 1))

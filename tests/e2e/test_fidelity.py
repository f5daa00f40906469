"""Issue 18 through the CLI: what `lint`, `fire` and `check` print for the
disagreement kinds, with the real host's bytes (spec catalyst-code.md
R4.3.6, R6.2, R2.1, R2.9, R1.11, R1.12, R7.2, R7.5)."""
import json
import os
import subprocess

from e2e import eq

TS = "1700000000"
WS = "/work/space"
SESSION = "/home/u/.catalyst-code/sessions/17.jsonl"
NUL_ERR = "#!/bin/sh\ncat >/dev/null\nprintf 'a\\000b' >&2\nexit 1\n"
NUL_OUT = "#!/bin/sh\ncat >/dev/null\nprintf 'a\\000b'\n"


def raw(ctx, *args):
    """plugcheck's exit code and stdout as bytes."""
    p = subprocess.run([ctx.plugcheck, *args], capture_output=True, cwd=ctx.tmp, timeout=120)
    return p.returncode, p.stdout


def fire_args(point, d, *extra):
    return ["fire", point, d, "--timestamp", TS, "--workspace", WS, "--session", SESSION, *extra]


def hook_plugin(ctx, body, point="pre_bash"):
    return ctx.plugin("p", {"name": "p", "version": "1", "hooks": {point: {"script": "h.sh"}}},
                      {"h.sh": body})


def test_hook_stderr_nul_in_reason(ctx):
    d = hook_plugin(ctx, NUL_ERR)
    code, out = raw(ctx, *fire_args("pre_bash", d, "--format", "json"))
    eq(code, 1)
    assert b'"reason": "hook \'pre_bash\' exited with exit status: 1: a\\u0000b"' in out, out
    eq(json.loads(out)["stderr"], "a\x00b")
    code, out = raw(ctx, *fire_args("pre_bash", d))
    assert b"\nreason   hook 'pre_bash' exited with exit status: 1: a\x00b\n" in out, out


def test_tool_stdout_nul_in_output(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "tools": [{"name": "t", "script": "t.sh"}]},
                   {"t.sh": NUL_OUT})
    code, out = raw(ctx, *fire_args("tool:t", d, "--format", "json"))
    eq(code, 0)
    assert b'"output": "a\\u0000b"' in out, out
    assert b'"stdout": "a\\u0000b"' in out, out
    code, out = raw(ctx, *fire_args("tool:t", d))
    assert b"\noutput   a\x00b\n" in out, out


def test_check_exchange_keeps_text_after_nul(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "tools": [{"name": "t", "script": "t.sh"}]},
                   {"t.sh": NUL_OUT})
    code, out = ctx.json("check", d, "--repeat", "1")
    # the case's exchange is fire's human form (one path, issue 15)
    outs = [c["system_out"] for c in out["cases"] if c.get("system_out") and "stdout   3 bytes" in c["system_out"]]
    assert outs, [c.get("system_out") for c in out["cases"]]
    assert "stdout   3 bytes\n  | a\\x00b\n" in outs[0], outs[0]
    assert "\noutput   a\\x00b\n" in outs[0], outs[0]


def test_nul_in_script_path_is_debug_quoted(ctx):
    d = ctx.plugin("p", '{"name":"p","version":"1","hooks":{"pre_bash":{"script":"h\\u0000"}}}')
    code, out = ctx.json("lint", d)
    eq((code, out["host_error"]), (3, 'hook script "h\\0" does not exist'))
    eq(out["host_log"], ['[plugins] failed to load plugin in "p": hook script "h\\0" does not exist'])


def test_manifest_directory_is_read_as_the_host_does(ctx):
    d = os.path.join(ctx.tmp, "p")
    os.makedirs(os.path.join(d, "plugin.json"))
    want = "cannot read plugin.json: Is a directory (os error 21)"
    code, out = ctx.json("lint", d)
    eq((code, out["host_error"], out["host_log"]),
       (3, want, ['[plugins] failed to load plugin in "p": ' + want]))
    code, out = ctx.json(*fire_args("pre_bash", d))
    eq((code, out["loaded"], out["host_error"]), (3, False, want))


def test_logs_before_a_load_error_are_kept(ctx):
    m = {"name": "p", "version": "1", "hooks": {"pre_foo": {"script": "h.sh"}},
         "tools": [{"name": "t", "script": "h.sh", "kind": "nope"}]}
    d = ctx.plugin("p", m, {"h.sh": "#!/bin/sh\n"})
    err = "tool 't' has invalid kind 'nope' (use 'readonly' or 'destructive')"
    log = ["[plugins] unknown hook point 'pre_foo' in plugin 'p'; skipping",
           '[plugins] failed to load plugin in "p": ' + err]
    code, out = ctx.json("lint", d)
    eq((code, out["host_error"], out["host_log"]), (3, err, log))
    eq(sorted(f["id"] for f in out["findings"]), ["PC-HOOK-001", "PC-LOAD-001"])
    code, out = ctx.json(*fire_args("pre_bash", d))
    eq((code, out["host_error"], out["host_log"]), (3, err, log))
    code, text = raw(ctx, *fire_args("pre_bash", d))
    eq(text.decode(), "%s: the host rejects the plugin: %s\nhost log %s\nhost log %s\n"
       % (d, err, log[0], log[1]))


def test_loaded_fire_shows_the_load_log_first(ctx):
    m = {"name": "p", "version": "1", "hooks": {"pre_foo": {"script": "h.sh"},
                                                "pre_bash": {"script": "h.sh"}}}
    d = ctx.plugin("p", m, {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    code, out = ctx.json(*fire_args("pre_bash", d))
    eq((code, out["host_log"]), (0, ["[plugins] unknown hook point 'pre_foo' in plugin 'p'; skipping"]))


def prompt_plugin(ctx, text):
    m = {"name": "p", "version": "1", "commands": [{"name": "go", "prompt_file": "p.md"}]}
    return ctx.plugin("p", m, {"p.md": text})


def test_prompt_file_not_utf8_fails_at_the_call(ctx):
    d = prompt_plugin(ctx, b"Request: \xff {{args}}")
    code, out = ctx.json(*fire_args("command:go", d, "--args", "x"))
    eq((code, out["ok"]), (1, False))
    eq(out["error"], 'prompt_file "%s/p.md" for command \'go\' could not be read: '
       'stream did not contain valid UTF-8' % os.path.realpath(d))


def test_command_sent_with_slash(ctx):
    d = prompt_plugin(ctx, "{{args}}")
    code, out = ctx.json(*fire_args("command:/go", d))
    eq((code, out["error"]), (1, "//go requires a request. Usage: //go <research request>"))
    code, out = ctx.json(*fire_args("command:go", d))
    eq(out["error"], "/go requires a request. Usage: /go <research request>")
    code, o, e = ctx.run(*fire_args("command://go", d))
    eq((code, e), (2, "plugcheck fire: unknown plugin command '//go'\n"
                      "Run `plugcheck fire --help` for usage.\n"))

"""plugcheck add: the manifest's line ending, and manifests the host rejects.

Line endings: the lines add inserts or rewrites take the manifest's ending
(CRLF when more line breaks are CRLF than bare LF; else LF, also for a tie
or a file without a line break); every other byte stays as it was.

Rejected manifests: add first judges plugin.json's text as the host does,
leaving out whether the files it names exist (pc_manifest_check_text). If
the host rejects it (R1.11), add writes nothing and exits 1 with the
host's message (lint's PC-LOAD-001). A missing script does not stop it:
the host would reject the plugin for that file, not for the manifest, and
add only warns afterwards (as before).
"""
import os

from run import eq

SCRIPT = "#!/bin/sh\ncat >/dev/null\n"

CRLF_IN = (
    b'{\r\n'
    b'  "name": "crlf",\r\n'
    b'  "version": "1.0.0",\r\n'
    b'  "capabilities": ["execute_subprocess"],\r\n'
    b'  "hooks": {\r\n'
    b'    "session_start": { "script": "hooks/s.sh" }\r\n'
    b'  },\r\n'
    b'  "tools": []\r\n'
    b'}\r\n')

TOOL = (b'{ "name": "look", "description": "Describe what look does for the model.", '
        b'"kind": "readonly", "parameters": { "type": "object", "properties": { "text": '
        b'{ "type": "string", "description": "Input text." } } }, "script": "tools/look.sh", '
        b'"timeout_ms": 30000 }')
COMMAND = (b'{ "name": "hello", "description": "Describe /hello.", '
           b'"script": "commands/hello.sh", "timeout_ms": 30000 }')

CRLF_OUT = (
    b'{\r\n'
    b'  "name": "crlf",\r\n'
    b'  "version": "1.0.0",\r\n'
    b'  "capabilities": ["execute_subprocess", "read_workspace", "register_commands", "register_tools"],\r\n'
    b'  "hooks": {\r\n'
    b'    "session_start": { "script": "hooks/s.sh" }\r\n'
    b'  },\r\n'
    b'  "tools": [\r\n'
    b'    ' + TOOL + b'\r\n'
    b'  ],\r\n'
    b'  "commands": [ ' + COMMAND + b' ]\r\n'
    b'}\r\n')


def read(d, rel="plugin.json"):
    with open(os.path.join(d, rel) if rel else d, "rb") as f:
        return f.read()


def tree(d):
    """Every file under d with its bytes and mode."""
    out = {}
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            out[os.path.relpath(p, d)] = (os.stat(p).st_mode,
                                          None if n in dirs else read(p, None))
    return out


def add_two(ctx, d):
    name = os.path.basename(d)
    code, out, err = ctx.run("add", "tool", "look", "--readonly", name)
    eq((code, out, err), (0, f"  wrote {name}/tools/look.sh\n"
                              f"  wrote {name}/tests/tool-look.plugcheck.yaml\n"
                              f"  wrote {name}/plugin.json\n", ""))
    code, out, err = ctx.run("add", "command", "hello", name)
    eq((code, out, err), (0, f"  wrote {name}/commands/hello.sh\n"
                              f"  wrote {name}/tests/command_script-hello.plugcheck.yaml\n"
                              f"  wrote {name}/plugin.json\n", ""))


def test_crlf_manifest_stays_crlf(ctx):
    d = ctx.plugin("crlf", CRLF_IN, {"hooks/s.sh": SCRIPT})
    add_two(ctx, d)
    eq(read(d), CRLF_OUT)
    code, out, err = ctx.run("lint", d)
    eq(code, 0, out + err)


def test_lf_manifest_unchanged_behaviour(ctx):
    d = ctx.plugin("lf", CRLF_IN.replace(b"\r\n", b"\n").replace(b'"crlf"', b'"lf"'),
                   {"hooks/s.sh": SCRIPT})
    add_two(ctx, d)
    eq(read(d), CRLF_OUT.replace(b"\r\n", b"\n").replace(b'"crlf"', b'"lf"'))


def test_mixed_manifest_follows_the_majority(ctx):
    # 8 CRLF, 1 LF (the "version" line): the new lines are CRLF, the LF
    # line is kept as it was.
    mixed = CRLF_IN.replace(b'"1.0.0",\r\n', b'"1.0.0",\n')
    d = ctx.plugin("crlf", mixed, {"hooks/s.sh": SCRIPT})
    add_two(ctx, d)
    eq(read(d), CRLF_OUT.replace(b'"1.0.0",\r\n', b'"1.0.0",\n'))
    # 4 CRLF, 5 LF: LF wins; a tie would too.
    lf_most = CRLF_IN.replace(b"\r\n", b"\n", 5)
    d = ctx.plugin("crlf", lf_most, {"hooks/s.sh": SCRIPT}, dirname="lfmost")
    code, out, err = ctx.run("add", "tool", "look", "--readonly", "lfmost")
    eq(code, 0, out + err)
    eq(read(d), lf_most.replace(b'  "tools": []', b'  "tools": [\n    ' + TOOL + b'\n  ]')
       .replace(b'["execute_subprocess"]',
                b'["execute_subprocess", "read_workspace", "register_tools"]'))


def test_no_line_break_stays_lf(ctx):
    d = ctx.plugin("flat", b'{"name": "flat", "version": "1", "tools": []}')
    code, out, err = ctx.run("add", "tool", "look", "--readonly", "flat")
    eq(code, 0, out + err)
    eq(read(d), b'{"name": "flat", "version": "1", "tools": [\n  ' + TOOL + b'\n]}')


def refused(ctx, name, manifest, files, want_err):
    d = ctx.plugin(name, manifest, files)
    before = tree(d)
    code, out, err = ctx.run("add", "tool", "look", name)
    eq((code, out, err), (1, "", want_err))
    eq(tree(d), before)
    return d


DUP = (b'{\n'
       b'  "name": "dup",\n'
       b'  "version": "1.0.0",\n'
       b'  "hooks": { "session_start": { "script": "hooks/s.sh" } },\n'
       b'  "hooks": { "turn_end": { "script": "hooks/s.sh" } }\n'
       b'}\n')


def test_duplicate_hooks_refused_nothing_written(ctx):
    host = ('failed to load plugin in "dup": plugin.json parse error: '
            'duplicate field `hooks` at line 5 column 9')
    d = refused(ctx, "dup", DUP, {"hooks/s.sh": SCRIPT},
                "plugcheck: not adding to 'dup/plugin.json': the host rejects it "
                f"(PC-LOAD-001 [R1.11]): {host}\n"
                '    fix: keep a single "hooks" in that object (the host refuses repeated '
                'fields, R2.4): merge the two or delete one; nothing was written\n')
    # the same words lint reports (one loader, not a second parser)
    code, out, err = ctx.run("lint", d)
    eq(code, 3, out + err)
    assert f"error PC-LOAD-001 [R1.11]: {host}\n" in out, out
    assert not os.path.exists(os.path.join(d, "tools"))
    assert not os.path.exists(os.path.join(d, "tests"))
    # --force overwrites files; it does not edit a manifest the host rejects
    code, out, err = ctx.run("add", "tool", "look", "dup", "--force")
    eq((code, out), (1, ""), err)
    eq(read(d), DUP)


def test_missing_capabilities_bad_kind_and_bad_json_refused(ctx):
    refused(ctx, "caps",
            b'{"name": "caps", "version": "1", "capabilities": ["execute_subprocess"],\n'
            b' "tools": [{"name": "t", "script": "t.sh"}]}\n', {"t.sh": SCRIPT},
            "plugcheck: not adding to 'caps/plugin.json': the host rejects it "
            '(PC-LOAD-001 [R1.11]): failed to load plugin in "caps": plugin is denied '
            "because its manifest is missing required capabilities: register_tools, "
            "write_workspace\n"
            '    fix: add them to "capabilities" (R3.4), or delete "capabilities" so that '
            "the host infers them (R3.3); nothing was written\n")
    refused(ctx, "kind",
            b'{"name": "kind", "version": "1", "tools": [{"name": "t", "kind": "ro", '
            b'"script": "missing.sh"}]}\n', {},
            "plugcheck: not adding to 'kind/plugin.json': the host rejects it "
            '(PC-LOAD-001 [R1.11]): failed to load plugin in "kind": tool \'t\' has '
            "invalid kind 'ro' (use 'readonly' or 'destructive')\n"
            "    fix: set the \"kind\" of tool 't' to \"readonly\" or \"destructive\" "
            "(exactly, in lower case), or delete it to get \"destructive\"; "
            "nothing was written\n")
    refused(ctx, "comma", b'{"name": "comma", "version": "1",}\n', {},
            "plugcheck: not adding to 'comma/plugin.json': the host rejects it "
            '(PC-LOAD-001 [R1.11]): failed to load plugin in "comma": plugin.json parse '
            "error: trailing comma at line 1 column 34\n"
            "    fix: delete the comma before line 1 column 34: JSON allows no comma "
            "after the last member of an object or the last element of an array; "
            "nothing was written\n")


def test_missing_script_does_not_block_add(ctx):
    # The host would reject this plugin for a file, not for plugin.json
    # (R2.9.3): add goes ahead and warns, as for a C plugin before `make`.
    d = ctx.plugin("miss", b'{"name": "miss", "version": "1", '
                           b'"hooks": {"session_start": {"script": "hooks/s.sh"}}}\n')
    code, out, err = ctx.run("add", "tool", "look", "--readonly", "miss")
    eq((code, err), (0, "plugcheck: warning: the host rejects 'miss': "
                        'hook script "hooks/s.sh" does not exist\n'), out)
    assert b'"name": "look"' in read(d)


def test_unbuilt_c_plugin_still_adds(ctx):
    # bin/ does not exist before `make` (R2.9.3 would reject the plugin);
    # only plugin.json's text is judged before add.
    code, out, err = ctx.run("new", "cc", "--lang", "c", "--hook", "pre_bash")
    eq(code, 0, out + err)
    assert not os.path.exists(os.path.join(ctx.tmp, "cc", "bin"))
    code, out, err = ctx.run("add", "tool", "look", "--readonly", "cc")
    eq((code, out, err), (0, "  wrote cc/src/tool_look.c\n"
                              "  wrote cc/tests/tool-look.plugcheck.yaml\n"
                              "  wrote cc/plugin.json\n", ""))

"""plugcheck add: the manifest's line ending.

Line endings: the lines add inserts or rewrites take the manifest's ending
(CRLF when more line breaks are CRLF than bare LF; else LF, also for a tie
or a file without a line break); every other byte stays as it was.
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

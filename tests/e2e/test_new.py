"""plugcheck new / add: refusals, no overwriting, and add's surgical edits.

The template matrix is in test_new_matrix_{sh,python,c}.py (newmatrix.py)
and the ChatCLI template in test_new_chatcli.py.
"""
import glob
import json
import os
import subprocess

from newmatrix import generate
from run import eq


def test_new_refuses_to_overwrite_and_bad_names(ctx):
    d = generate(ctx, "keep", "--hook", "pre_bash")
    with open(os.path.join(d, "hooks", "pre_bash.sh"), "a") as f:
        f.write("# mine\n")
    before = open(os.path.join(d, "hooks", "pre_bash.sh")).read()
    code, out, err = ctx.run("new", "keep", "--hook", "pre_bash")
    eq(code, 1, err)
    assert "already exists" in err, err
    eq(open(os.path.join(d, "hooks", "pre_bash.sh")).read(), before)
    code, _, _ = ctx.run("new", "keep", "--hook", "pre_bash", "--force")
    eq(code, 0)
    for args, msg in ((["a/b"], "path separator"), ([".."], "path separator"),
                      (["x", "--command", "help"], "reserved"),
                      (["x", "--tool", "read_file"], "built-in"),
                      (["x", "--hook", "pre_nothing"], "not a hook point")):
        code, out, err = ctx.run("new", *args)
        eq(code, 2, f"{args}: {err}")
        assert msg in err, err
    code, _, _ = ctx.run("new", "ovr", "--tool", "read_file", "--override")
    eq(code, 0)


MANIFEST = """{
    "name":   "handmade",
    "version": "1.2.3",
    "description": "kept  exactly\\u0021",
    "capabilities": [
        "execute_subprocess",
        "receive_tool_arguments"
    ],
    "hooks": {
        "pre_bash": {"script": "hooks/pre_bash.sh", "timeout_ms": 4000, "pass_args": true}
    },
    "disable_tools": ["bash"]   ,
    "x-extra": {"nested": [1, 2, {"a": null}]}
}
"""


def test_add_keeps_unrelated_manifest_bytes(ctx):
    d = generate(ctx, "handmade", "--hook", "pre_bash")
    with open(os.path.join(d, "plugin.json"), "w") as f:
        f.write(MANIFEST)
    code, out, err = ctx.run("add", "tool", "lookup", "--readonly", d)
    eq(code, 0, out + err)
    code, out, err = ctx.run("add", "hook", "turn_end", d)
    eq(code, 0, out + err)
    code, out, err = ctx.run("add", "command", "hello", d)
    eq(code, 0, out + err)
    text = open(os.path.join(d, "plugin.json")).read()
    m = json.loads(text)
    eq(m["capabilities"], sorted(["execute_subprocess", "read_workspace",
                                  "receive_model_responses", "receive_tool_arguments",
                                  "register_commands", "register_tools"]))
    # Every original line outside the capabilities array is still there.
    for line in MANIFEST.splitlines():
        if line.strip().startswith('"') and line.strip().rstrip(",").strip('"') in (
                "execute_subprocess", "receive_tool_arguments"):
            continue
        assert line in text, f"lost or changed: {line!r}\n{text}"
    assert text.startswith(MANIFEST[:MANIFEST.index('"capabilities"')])
    middle = MANIFEST[MANIFEST.index('    "hooks"'):MANIFEST.rindex("}")].rstrip()
    middle = middle.replace('true}\n    }', 'true},\n        "turn_end"')
    assert middle.split('"turn_end"')[0] in text, text
    rest = MANIFEST[MANIFEST.index('    },\n    "disable_tools"'):MANIFEST.rindex("}")].rstrip()
    assert rest in text, text
    code, out, err = ctx.run("add", "hook", "turn_end", d)
    eq(code, 1, err)
    code, out, err = ctx.run("check", d, "--repeat", "1", "--format", "json", timeout=280)
    eq(code, 0, out[-2000:])


def test_unknown_hook_point_lists_the_18(ctx):
    # The hint used to send the user to `new --help`, which does not list
    # them (found in a fresh-user trial).
    code, out, err = ctx.run("new", "x", "--hook", "pre_nothing")
    eq((code, err.split("\n")[0] + "\n"), (2, "plugcheck new: 'pre_nothing' is not a hook point; the 18 are: pre_bash, "
                        "pre_write, pre_read, post_bash, post_write, post_read, session_start, "
                        "session_stop, pre_compact, pre_turn, pre_input, pre_agent_start, "
                        "pre_context, turn_start, turn_end, session_shutdown, pre_tool, post_tool\n"))


def test_new_refuses_what_cannot_be_carried(ctx):
    # issue 20: a non-UTF-8 name used to exit 0 and write a plugin.json the
    # host rejects (R2.1); nothing may be written
    bad = b"\xff\xfe".decode("utf-8", "surrogateescape")
    p = subprocess.run([ctx.plugcheck, "new", bad], cwd=ctx.tmp, capture_output=True)
    eq((p.returncode, p.stdout, p.stderr.decode()),
       (2, b"", 'plugcheck new: plugin name "\\xff\\xfe" is not valid UTF-8: plugin.json must be '
                'UTF-8 JSON (R2.1), so the host would reject it; use a UTF-8 name\n'
                "Run `plugcheck new --help` for usage.\n"))
    eq(os.listdir(ctx.tmp), [])
    code, out, err = ctx.run("new", "two\nlines")
    eq((code, err.split("\n")[0]),
       (2, "plugcheck new: plugin name contains the control or line-break character U+000A: the "
           "name goes into one-line comments, messages and file names of the generated plugin; "
           "drop it"))
    eq(os.listdir(ctx.tmp), [])


def test_scaffolded_scenario_ids_have_one_slash(ctx):
    # issue 20: the id was "command_prompt-ask//ask renders its prompt"
    generate(ctx, "ids", "--command", "ask", "--prompt", "--command", "hello", "--tool", "t",
             "--hook", "pre_bash", "--oauth", "acme", "--memory")
    code, rep = ctx.json("run", *sorted(glob.glob(os.path.join(ctx.tmp, "ids", "tests", "*"))))
    eq((code, [s["id"] for s in rep["scenarios"]]),
       (0, ["command_prompt-ask/command /ask renders its prompt",
            "command_script-hello/command /hello runs with and without arguments",
            "hook-pre_bash/pre_bash decides on a realistic call",
            "memory-provider/memory round trip through every action the host sends",
            "oauth-acme/OAuth acme logs in, hands out a token and logs out",
            "tool-t/tool t answers a valid call"]))


def test_memory_template_quotes_the_plugin_name(ctx):
    # issue 20: the sh memory template wrote `store=.../.config/semi;colon/memory`,
    # which ran `colon/memory` as a command on every call (and a space broke it)
    trap = os.path.join(ctx.tmp, "colon", "memory")
    os.makedirs(os.path.dirname(trap))
    with open(trap, "w") as f:
        f.write("#!/bin/sh\ntouch %s/ran\n" % ctx.tmp)
    os.chmod(trap, 0o755)
    for name in ("semi;colon", "my plugin"):
        d = generate(ctx, name, "--memory")
        home = os.path.join(ctx.tmp, "home-" + name.split()[0].split(";")[0])
        p = subprocess.run([os.path.join(d, "memory", "provider.sh")],
                           input=b'{"action":"save","args":{"content":"x","name":"n"}}',
                           capture_output=True, cwd=ctx.tmp, timeout=30,
                           env={"PATH": os.environ["PATH"], "HOME": home})
        eq((p.returncode, json.loads(p.stdout)["ok"], p.stderr), (0, True, b""), name)
        eq(os.listdir(os.path.join(home, ".config")), [name])
        assert not os.path.exists(os.path.join(ctx.tmp, "ran")), name
        code, out, err = ctx.run("check", d, "--repeat", "1")
        eq(code, 0, out[-1500:])

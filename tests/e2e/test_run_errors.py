"""Scenario files as a new user writes and saves them (issue 20): fire
--save writes portable files and takes a second plugin; a misspelled point
or unknown tool is a located error (exit 2); a quoted "absent" says what
was compared; a --filter/--tags matching nothing and a baseline id naming
no scenario are errors; run's JSON is in check's style with the step's
exchange as an object."""
import json
import os
import shutil

from run import eq

HOOK = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"
TOOL = "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":true,\"output\":\"/done\"}'\n"


def plugins(ctx):
    ctx.plugin("guard", {"name": "guard", "version": "1.0.0",
                         "hooks": {"pre_bash": {"script": "h.sh", "pass_args": True}}},
               {"h.sh": HOOK})
    ctx.plugin("tools", {"name": "tools", "version": "1.0.0", "tools": [
        {"name": "say \"hi\"", "description": "d", "kind": "readonly", "script": "t.sh"}]},
               {"t.sh": TOOL})
    os.makedirs(os.path.join(ctx.tmp, "tests"))


def test_fire_save_is_portable_and_takes_a_second_plugin(ctx):
    plugins(ctx)
    saved = os.path.join("tests", "saved.plugcheck.yaml")
    code, out, err = ctx.run("fire", "pre_bash", "guard", "--args", '{"command":"ls"}',
                             "--save", saved)
    eq((code, err), (0, "plugcheck: saved the exchange as a scenario in %s\n" % saved))
    # used to fail: 'plugin' must be a string, not a mapping (an absolute
    # path starting with / was written as a regex guard {equals: ...})
    code, out, err = ctx.run("fire", 'tool:say "hi"', "tools", "--args", '{"text":"/x"}',
                             "--save", saved)
    eq((code, err), (0, "plugcheck: saved the exchange as a scenario in %s\n" % saved))
    eq(open(os.path.join(ctx.tmp, saved)).read(),
       'plugcheck: 1\nplugins: ["../guard"]\nscenarios:\n'
       '  - name: "fire pre_bash #1"\n    steps:\n      - fire: "pre_bash"\n'
       '        input: {"command":"ls"}\n        expect:\n          outcome: "ok"\n'
       '          verdict: allow\n          reason: ""\n          leftover_processes: 0\n'
       '          modify: null\n'
       '  - name: "fire tool:say \\"hi\\" #2"\n    steps:\n      - fire: "tool:say \\"hi\\""\n'
       '        plugin: "../tools"\n        input: {"text":"/x"}\n        expect:\n'
       '          outcome: "ok"\n          ok: true\n          output: { equals: "/done" }\n'
       '          leftover_processes: 0\n')
    # another checkout: the whole tree moved elsewhere still passes
    moved = os.path.join(ctx.tmp, "elsewhere")
    os.makedirs(moved)
    for d in ("guard", "tools", "tests"):
        shutil.move(os.path.join(ctx.tmp, d), moved)
    code, out, err = ctx.run("run", os.path.join(moved, saved))
    eq((code, out.splitlines()[-1]),
       (0, "2 scenarios: 2 passed, 0 failed, 0 skipped, 0 expected failures"), out + err)


def scn(ctx, name, body, plugin="../guard"):
    p = os.path.join(ctx.tmp, "tests", name + ".plugcheck.yaml")
    with open(p, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n%s" % (plugin, body))
    return os.path.join("tests", name + ".plugcheck.yaml")


def test_misspelled_point_or_tool_is_a_located_error(ctx):
    plugins(ctx)
    f = scn(ctx, "typo", "  - name: typo\n    steps:\n      - fire: pre_bsh\n")
    code, out, err = ctx.run("run", f)
    eq((code, out, err), (2, "", "plugcheck: tests/typo.plugcheck.yaml:6:9: step 'fire pre_bsh': "
       "'pre_bsh' is not a hook point (did you mean 'pre_bash'?); the 18 points are pre_bash, "
       "pre_write, pre_read, post_bash, post_write, post_read, session_start, session_stop, "
       "pre_compact, pre_turn, pre_input, pre_agent_start, pre_context, turn_start, turn_end, "
       "session_shutdown, pre_tool, post_tool, or use tool:NAME, command:NAME, oauth:ACTION, "
       "memory:ACTION\n"))
    f = scn(ctx, "tool", "  - name: tool\n    steps:\n      - write: { a: b }\n"
            "      - fire: tool:nosuch\n", plugin="../tools")
    code, out, err = ctx.run("run", f)
    eq((code, out, err), (2, "", "plugcheck: tests/tool.plugcheck.yaml:7:9: step 'fire tool:nosuch': "
                                 "plugin 'tools' has no tool 'nosuch'\n"))
    # a point no plugin can have is wrong even when the plugin does not load
    ctx.plugin("broken", {"name": "", "version": "1"})
    f = scn(ctx, "broken", "  - name: b\n    steps:\n      - fire: post_bsh\n", plugin="../broken")
    code, out, err = ctx.run("run", f)
    eq((code, err.split(": step")[0]), (2, "plugcheck: tests/broken.plugcheck.yaml:6:9"), err)


def test_quoted_absent_says_what_was_compared(ctx):
    plugins(ctx)
    f = scn(ctx, "files", '  - name: q\n    steps:\n      - files: { a.txt: "absent" }\n'
            '  - name: p\n    steps:\n      - files: { b.txt: present }\n')
    code, out, err = ctx.run("run", f)
    eq(code, 1, err)
    eq(out.split("\n")[1:11], [
        "  step 1. check files:",
        "    expect.files a.txt (line 6):",
        '      expected: the content "absent"',
        "      actual:   no file a.txt",
        '      ("absent" in quotes is compared as the file\'s content; write absent without '
        "quotes to expect the file not to exist)",
        "FAIL  files/p (%s" % out.split("FAIL  files/p (")[1].split("\n")[0],
        "  step 1. check files:",
        "    expect.files b.txt (line 9):",
        "      expected: a file (present)",
        "      actual:   no file b.txt"])


def test_selecting_nothing_is_an_error(ctx):
    plugins(ctx)
    f = scn(ctx, "s", "  - name: one\n    tags: [smoke]\n    steps:\n      - fire: pre_bash\n"
            "  - name: two\n    steps:\n      - fire: pre_bash\n")
    code, out, err = ctx.run("run", f, "--filter", "nomatch")
    eq((code, out, err), (2, "", "plugcheck run: no scenario matches --filter 'nomatch' of the 2 "
                                 "in the files given (--filter searches ids, FILE-STEM/NAME, as "
                                 "`run` prints them)\nRun `plugcheck run --help` for usage.\n"))
    code, out, err = ctx.run("run", f, "--tags", "nightly")
    eq((code, err.split("\n")[0]),
       (2, "plugcheck run: no scenario matches --tags nightly of the 2 in the files given"))
    # an empty shard of a non-empty selection is fine (a CI matrix)
    code, out, err = ctx.run("run", f, "--filter", "one", "--shard", "2/2")
    eq(code, 0, out + err)
    base = os.path.join(ctx.tmp, "known.txt")
    with open(base, "w") as b:
        b.write("# known failures\ns/one\n\ns/tow\n")
    code, out, err = ctx.run("run", f, "--baseline", base)
    eq((code, out, err), (2, "", "plugcheck run: --baseline: %s:4: 's/tow' names no scenario of "
                                 "the files given (ids are FILE-STEM/NAME, as `run` prints them): "
                                 "fix the id or remove the line\n" % base))
    with open(base, "w") as b:
        b.write("s/one\n")
    code, out, err = ctx.run("run", f, "--baseline", base)
    eq(code, 1, out + err)  # listed but passing: stale (PC-SCN-003)
    assert "listed in the baseline as failing, but it passes now" in out, out


def test_run_json_is_in_checks_style(ctx):
    plugins(ctx)
    f = scn(ctx, "j", "  - name: one\n    steps:\n      - fire: pre_bash\n"
            "      - files: { x: present }\n      - fire: pre_bash\n")
    code, text, err = ctx.run("run", f, "--format", "json")
    eq(code, 1, err)
    doc = json.loads(text)
    eq(text, json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    steps = doc["scenarios"][0]["steps"]
    # the exchange is the step's actual document as an object, not a string
    eq((steps[0]["exchange"]["point"], steps[0]["exchange"]["verdict"]), ("pre_bash", "allow"))
    eq(steps[2]["exchange"], None)  # skipped after the failed step
    eq(steps[2]["status"], "skip")

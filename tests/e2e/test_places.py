"""Every finding carries file, line and column (issue 19, item 1): exact
file:line:col for a finding of every kind - a manifest key, a manifest
value, a script line, a firing's entry point, a scenario step, a load
error - in the human form (the place first, as compilers print it) and
in the JSON form (line/column; null when there is none)."""
import json
import os
import shutil

from e2e import eq

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                       "plugins", "places")


def places(ctx):
    """A copy of the fixture as ctx.tmp/places (the tests run there)."""
    d = os.path.join(ctx.tmp, "places")
    shutil.copytree(FIXTURE, d)
    return d


def found(report):
    return sorted((f["id"], f["file"], f["line"], f["column"]) for f in report["findings"])


# The fixture's findings with their places (see its files).
STATIC = [
    ("PC-CAP-001", "plugin.json", 1, 1),        # where "capabilities" belongs
    ("PC-ENV-002", "tools/grep.sh", 3, 7),      # the ${GREP_LIMIT...} read
    ("PC-HOOK-001", "plugin.json", 6, 5),       # the key "pre_bsh"
    ("PC-HOOK-002", "plugin.json", 7, 66),      # the value 0 of timeout_ms
    ("PC-MAN-002", "plugin.json", 3, 14),       # the value "1.0"
    ("PC-TOOL-001", "plugin.json", 10, 15),     # the value "grep"
]
FIRED = [
    ("PC-HOOK-010", "plugin.json", 5, 5),       # the hook it fired: "pre_bash"
    ("PC-HOOK-011", "plugin.json", 7, 5),       # "post_bash"
    ("PC-SCN-001", "tests/deny.plugcheck.yaml", 6, 9),   # the failing step
    ("PC-SCN-002", "tests/typo.plugcheck.yaml", 7, 9),   # the unknown key
]


def test_lint_places_every_static_finding(ctx):
    places(ctx)
    code, out = ctx.json("lint", "places")
    eq(found(out), STATIC)
    code, text, _ = ctx.run("lint", "places")
    for rid, f, line, col in STATIC:
        assert "\nplaces/%s:%d:%d: " % (f, line, col) in text and (" %s [" % rid) in text, (rid, text)
    assert ("places/plugin.json:7:66: warning PC-HOOK-002 [R5.11]: hook 'post_bash' has "
            "timeout_ms 0: every call times out\n    fix: a zero timeout makes every call "
            "time out; raise timeout_ms or remove it to get the default (see `plugcheck "
            "explain PC-HOOK-002`)\n") in text, text


def test_check_places_firings_and_scenarios(ctx):
    places(ctx)
    code, out = ctx.json("check", "places", "--repeat", "1")
    eq(code, 1)
    eq(found(out), sorted(STATIC + FIRED))
    code, text, _ = ctx.run("check", "places", "--repeat", "1")
    lines = text.splitlines()
    for want in ["places/plugin.json:5:5: error PC-HOOK-010 [R4.4] hook pre_bash: hook "
                 "'pre_bash' exited with exit status: 1: no rules file",
                 "places/plugin.json:6:5: warning PC-HOOK-001 [R1.12] unknown hook point "
                 "'pre_bsh' in plugin 'places'; skipping",
                 "places/tools/grep.sh:3:7: warning PC-ENV-002 [R5.3] script tools/grep.sh "
                 "($GREP_LIMIT): 'tools/grep.sh' reads $GREP_LIMIT, which the host never "
                 "passes (its environment is cleared)",
                 "places/plugin.json:1:1: note PC-CAP-001 [R3.3] no \"capabilities\": the host "
                 "infers [\"execute_subprocess\", \"read_workspace\", \"register_tools\"]"]:
        assert want in lines, (want, text)
    assert any(ln.startswith("places/tests/deny.plugcheck.yaml:6:9: error PC-SCN-001 deny/")
               for ln in lines), text
    # the located message's own place is printed once, first
    assert any(ln.startswith("places/tests/typo.plugcheck.yaml:7:9: error PC-SCN-002 unknown key ")
               for ln in lines), text
    # `plugcheck .` in the plugin: the places are relative to it
    code, text, _ = ctx.run("lint", ".", cwd=os.path.join(ctx.tmp, "places"))
    assert "\nplugin.json:3:14: note PC-MAN-002 " in text, text
    code, text, _ = ctx.run("lint", os.path.join(ctx.tmp, "places"))
    assert "\n%s/places/tools/grep.sh:3:7: warning PC-ENV-002 " % ctx.tmp in text, text


def test_run_places_scenario_steps(ctx):
    d = places(ctx)
    scn = os.path.join(d, "tests", "deny.plugcheck.yaml")
    code, out = ctx.json("run", scn)
    eq(code, 1)
    eq([(f["id"], f["file"], f["line"], f["column"]) for f in out["findings"]],
       [("PC-SCN-001", scn, 6, 9)])


def test_load_errors_point_at_what_the_host_rejects(ctx):
    cases = [
        # a value the loader rejects: tools #0 kind
        ('{\n  "name": "k",\n  "version": "1.0.0",\n  "tools": [\n'
         '    { "name": "t", "script": "t.sh", "kind": "ro" }\n  ]\n}\n',
         {"t.sh": "#!/bin/sh\necho ok\n"}, 5, 46,
         "set the \"kind\" of tool 't' to \"readonly\" or \"destructive\" (exactly, in lower "
         "case), or delete it to get \"destructive\""),
        # serde's own line and column
        ('{\n  "name": "k",\n  "name": "k2",\n  "version": "1"\n}\n', {}, 3, 8,
         "keep a single \"name\" in that object (the host refuses repeated fields, R2.4): "
         "merge the two or delete one"),
        # a hook script that does not exist: its "script" value
        ('{ "name": "k", "version": "1",\n  "hooks": { "pre_bash": { "script": "nope.sh" } } }\n',
         {}, 2, 38,
         "create nope.sh relative to the plugin directory (not to the workspace), or correct "
         "the path; a symbolic link whose target is missing counts as missing"),
        # missing capabilities: the declared list
        ('{ "name": "k", "version": "1", "capabilities": [],\n'
         '  "tools": [{ "name": "t", "script": "t.sh" }] }\n',
         {"t.sh": "#!/bin/sh\necho ok\n"}, 1, 48,
         "add them to \"capabilities\" (R3.4), or delete \"capabilities\" so that the host "
         "infers them (R3.3)"),
        # the second command: the first (blank name) is skipped by the host
        ('{ "name": "k", "version": "1", "commands": [\n  { "name": " ", "script": "x" },\n'
         '  { "name": "help", "script": "c.sh" }\n] }\n', {"c.sh": "#!/bin/sh\necho ok\n"}, 3, 13,
         "rename the command 'help': help, new, abort, login, logout, models,"),
    ]
    for i, (manifest, files, line, col, fix) in enumerate(cases):
        d = ctx.plugin("k%d" % i, manifest, files, dirname="k")
        code, out = ctx.json("lint", "k")
        eq(code, 3, manifest)
        f = [x for x in out["findings"] if x["id"] == "PC-LOAD-001"]
        eq((len(f), f[0]["file"], f[0]["line"], f[0]["column"]), (1, "plugin.json", line, col),
           manifest)
        assert f[0]["fix"].startswith(fix), (f[0]["fix"], fix)
        code, text, _ = ctx.run("lint", "k")
        assert "\nk/plugin.json:%d:%d: error PC-LOAD-001 [R1.11]: " % (line, col) in text, text
        assert "\n    fix: " + fix in text, text
        shutil.rmtree(d)
    # unreadable: no line to point at
    d = ctx.plugin("u", {"name": "u", "version": "1"}, dirname="u")
    os.remove(os.path.join(d, "plugin.json"))
    os.mkdir(os.path.join(d, "plugin.json"))
    code, out = ctx.json("lint", "u")
    f = [x for x in out["findings"] if x["id"] == "PC-LOAD-001"][0]
    eq((f["file"], f["line"], f["column"]), ("plugin.json", None, None))
    assert f["fix"].startswith("make plugin.json a regular file your user can read"), f


def test_script_and_member_places(ctx):
    d = ctx.plugin("s", '{\n  "name": "s",\n  "version": "1.0.0",\n  "capabilities": '
                   '["execute_subprocess", "register_tools", "write_workspace", '
                   '"access_network"],\n  "hooks": {\n    "pre_bash": { "script": "crlf" },\n'
                   '    "pre_read": { "script": "noshebang" },\n'
                   '    "pre_write": { "script": "deno" },\n'
                   '    "post_bash": { "script": "a.sh", "timeout_ms": 1 },\n'
                   '    "post_bash": { "script": "a.sh", "timeout_ms": 0 }\n  },\n'
                   '  "tools": [\n    { "name": "t", "script": "a.sh" },\n'
                   '    { "name": "t", "script": "a.sh" }\n  ],\n'
                   '  "disable_tools": ["read_file", "nope"]\n}\n',
                   {"crlf": "#!/bin/sh\r\necho '{\"allow\":true}'\r\n",
                    "noshebang": "echo '{\"allow\":true}'\n",
                    "deno": "#!/usr/bin/env pc-no-such-interpreter-318\n",
                    "a.sh": "#!/bin/sh\ncat >/dev/null\necho '{}'\n"})
    code, out = ctx.json("lint", d)
    got = {(f["id"], f["file"], f["line"], f["column"]) for f in out["findings"]}
    for want in [("PC-SCRIPT-002", "crlf", 1, 10),       # the CR after #!/bin/sh
                 ("PC-SCRIPT-004", "noshebang", 1, 1),
                 ("PC-SCRIPT-003", "deno", 1, 16),       # the interpreter's name
                 ("PC-HOOK-002", "plugin.json", 10, 52),  # the second post_bash: the host keeps it
                 ("PC-TOOL-003", "plugin.json", 14, 15),  # the second "t"
                 ("PC-MAN-003", "plugin.json", 16, 34),   # "nope"
                 ("PC-CAP-002", "plugin.json", 4, 79)]:   # "access_network"
        assert want in got, (want, sorted(got))

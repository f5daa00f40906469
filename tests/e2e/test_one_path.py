"""Issue 15: one firing path, one result type, one worker pool, one option
table. What the redesign must guarantee, end to end: every command fires
with the same inputs and working directory, the static findings of lint
and check are the same, every format and the exit code agree for every
failing run, a malformed scenario does not lose the report, and a write
that fails is an error."""
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
import zipfile

from run import eq

# A post hook that says in its reason whether its stdin had a `result`,
# and any hook that says where it runs (R4.5, R5.4).
POST = ("#!/bin/sh\nin=$(cat)\n"
        "case \"$in\" in *'\"result\":{'*) r=result;; *) r=none;; esac\n"
        "echo \"{\\\"allow\\\":true,\\\"reason\\\":\\\"$r\\\"}\"\n")
PWD = ("#!/bin/sh\nin=$(cat)\n"
       "ws=$(printf '%s' \"$in\" | sed 's/.*\"workspace\":\"\\([^\"]*\\)\".*/\\1/')\n"
       "echo \"{\\\"allow\\\":true,\\\"reason\\\":\\\"cwd=$(pwd -P) ws=$(cd \"$ws\" && pwd -P)\\\"}\"\n")


def reasons(system_out):
    return re.findall(r"^reason   (.*)$", system_out or "", re.M)


def test_post_hook_gets_result_everywhere(ctx):
    # check fired post hooks without `result` (a 42-byte literal parsed
    # with length 40); fire and run sent it. Now all fire through pc_fire.
    d = ctx.plugin("post", {"name": "post", "version": "1.0.0",
                            "hooks": {"post_bash": {"script": "post.sh"}}}, {"post.sh": POST})
    code, rep = ctx.json("check", d, "--repeat", "1")
    got = {r for c in rep["cases"] if c["classname"] == "plugcheck.hook.post_bash"
           for r in reasons(c["system_out"])}
    eq(got, {"[post] result"}, "check")
    code, out = ctx.json("fire", "post_bash", d)
    eq(out["reason"], "[post] result", "fire")
    scn = os.path.join(ctx.tmp, "post.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n  - name: post\n    steps:\n"
                "      - fire: post_bash\n        expect: { reason: \"[post] result\" }\n" % d)
    code, out, err = ctx.run("run", scn)
    eq(code, 0, out + err)


def test_working_directory_is_the_workspace_everywhere(ctx):
    # R5.4: scripts inherit the core's working directory; plugcheck runs the
    # core in the workspace (as `catalyst-code` started in a project), so
    # check, fire, run and turn all give scripts cwd == workspace, never
    # plugcheck's own directory.
    d = ctx.plugin("pwd", {"name": "pwd", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "pwd.sh"}}}, {"pwd.sh": PWD})
    elsewhere = os.path.join(ctx.tmp, "elsewhere")
    os.mkdir(elsewhere)

    def same(reason, what):
        m = re.fullmatch(r"cwd=(\S+) ws=(\S+)", reason)
        assert m and m.group(1) == m.group(2), (what, reason)
        assert m.group(1) != os.path.realpath(elsewhere), (what, reason)

    code, rep = ctx.json("check", d, "--repeat", "1", cwd=elsewhere)
    rs = [r for c in rep["cases"] if c["classname"] == "plugcheck.hook.pre_bash"
          for r in reasons(c["system_out"])]
    assert rs, rep["cases"]
    for r in rs:
        same(r, "check")
    code, out = ctx.json("fire", "pre_bash", d, cwd=elsewhere)
    same(out["reason"], "fire")
    ws = os.path.join(ctx.tmp, "ws")
    os.mkdir(ws)
    code, out = ctx.json("fire", "pre_bash", d, "--workspace", ws, cwd=elsewhere)
    eq(out["reason"], "cwd=%s ws=%s" % (os.path.realpath(ws), os.path.realpath(ws)), "fire --workspace")
    scn = os.path.join(ctx.tmp, "pwd.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n  - name: pwd\n    steps:\n"
                "      - fire: pre_bash\n        save: { r: $.reason }\n" % d)
    code, out = ctx.json("run", scn, cwd=elsewhere)
    exch = out["scenarios"][0]["steps"][0]["exchange"]
    same(exch["reason"], "run")
    script = os.path.join(ctx.tmp, "bash.json")
    with open(script, "w") as f:
        json.dump({"replies": [{"tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]},
                               {"content": "done"}]}, f)
    code, out = ctx.json("turn", script, d, cwd=elsewhere)
    notes = [e["output"] for e in out["events"] if e["type"] == "tool_result"]
    assert notes and "pwd/pre_bash: cwd=" in notes[0], notes
    same(notes[0].split("pwd/pre_bash: ", 1)[1].strip(), "turn")


def test_lint_reports_every_static_finding_of_check(ctx):
    # lint and check disagreed: PC-HOOK-004, PC-DOC-001 and PC-IO-003 (and
    # PC-TOOL-005, PC-ENV-002) were check's alone.
    files = {"h.sh": "#!/bin/sh\ncat >/dev/null\necho \"$SECRET_TOKEN\" >/dev/null\necho '{\"allow\":true}'\n",
             "t.sh": "#!/bin/sh\ncat >/dev/null\necho ok\n"}
    d = ctx.plugin("statics", {"name": "statics-other", "version": "1",
                               "hooks": {"session_start": {"script": "h.sh"},
                                         "pre_bash": {"script": "h.sh", "pass_args": True,
                                                      "timeout_ms": 700000},
                                         "turn_end": {"script": "h.sh", "pass_args": True}},
                               "tools": [{"name": "t", "script": "t.sh",
                                          "parameters": {"type": "object",
                                                         "properties": {"n": {"type": "number",
                                                                              "minimum": "1"}}}}]},
                   files)
    code, lint = ctx.json("lint", d)
    code, chk = ctx.json("check", d, "--repeat", "1")
    statics = {c["name"].split()[0] for c in chk["cases"] if c["classname"] == "plugcheck.static"}
    got_check = sorted((f["id"], f["message"]) for f in chk["findings"] if f["id"] in statics)
    got_lint = sorted((f["id"], f["message"]) for f in lint["findings"])
    eq(got_lint, got_check)
    for want in ("PC-HOOK-004", "PC-DOC-001", "PC-IO-003", "PC-TOOL-005", "PC-ENV-002",
                 "PC-HOOK-005", "PC-MAN-001", "PC-MAN-002"):
        assert want in {i for i, _ in got_lint}, (want, got_lint)


def agree(code, formats, what):
    """JSON, JUnit, TAP and the exit code of one failing run agree."""
    js, junit, tap = formats["json"], formats["junit"], formats["tap"]
    root = ET.fromstring(junit)
    failures = int(root.get("failures"))
    failed_cases = [tc for tc in root.iter("testcase") if tc.find("failure") is not None]
    not_ok = [ln for ln in tap.splitlines() if ln.startswith("not ok") and "# TODO" not in ln]
    summary = js["summary"]
    eq(len(failed_cases), failures, what + ": junit failures attribute")
    eq(len(not_ok), failures, what + ": tap")
    eq(summary["failed_cases"], failures, what + ": json failed_cases")
    eq(summary["passed"], failures == 0, what + ": json passed")
    # 3 when the plugin could not be loaded at all (no name), else 1
    want = 3 if js.get("loaded") is False and js.get("name") is None else 1 if failures else 0
    eq(code, want, what + ": exit code")
    assert failures > 0, what + ": the run should fail"


def run_formats(ctx, *args):
    out = {}
    codes = set()
    for fmt in ("json", "junit", "tap"):
        code, text, err = ctx.run(*args, "--format", fmt, timeout=600)
        codes.add(code)
        out[fmt] = json.loads(text) if fmt == "json" else text
    eq(len(codes), 1, "one exit code for every format: %r" % codes)
    return codes.pop(), out


def test_every_format_and_the_exit_code_agree(ctx):
    # JUnit said failures="0" and TAP was all `ok` while check exited 1
    # (install-check on a zip): findings without a case.
    bad = ctx.plugin("bad", {"name": "bad", "version": "1.0.0",
                             "hooks": {"pre_bash": {"script": "h.sh"}}},
                     {"h.sh": "#!/bin/sh\ncat >/dev/null\nexit 3\n"})
    code, out = run_formats(ctx, "check", bad, "--repeat", "1")
    agree(code, out, "check")
    for exec_bits in (0o100755, 0o100644):  # loads; rejected (not executable)
        z = os.path.join(ctx.tmp, "bad%o.zip" % exec_bits)
        with zipfile.ZipFile(z, "w") as zf:
            for root, _, names in os.walk(bad):
                for n in names:
                    p = os.path.join(root, n)
                    zi = zipfile.ZipInfo("bad-1.0.0/" + os.path.relpath(p, bad))
                    zi.external_attr = exec_bits << 16
                    with open(p, "rb") as f:
                        zf.writestr(zi, f.read())
        code, out = run_formats(ctx, "install-check", z, "--repeat", "1")
        agree(code, out, "install-check zip %o" % exec_bits)
    scn = os.path.join(ctx.tmp, "s.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n  - name: a\n    steps:\n"
                "      - fire: pre_bash\n        expect: { verdict: allow }\n" % bad)
    code, out = run_formats(ctx, "run", scn)
    eq(out["json"]["scenarios"][0]["status"], "fail")
    agree(code, out, "run")
    # a warning fails only with --strict: every format follows
    # (PC-MAN-001, static: a timed-out hook is not deterministic enough to
    # compare three runs - timeout_ms 0 races the script's exit, and
    # PC-PROC-001/PC-IO-004 came and went between runs: a flaky test)
    warn = ctx.plugin("warn", {"name": "warn-renamed", "version": "1.0.0",
                               "hooks": {"pre_bash": {"script": "h.sh"}}},
                      {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    code, out = run_formats(ctx, "check", warn, "--repeat", "1", "--strict",
                            "--ignore", "PC-HOOK-010")
    eq(code, 1, "--strict fails on the PC-MAN-001 warning")
    agree(code, out, "check --strict")
    code, out = run_formats(ctx, "check", warn, "--repeat", "1", "--ignore", "PC-HOOK-010")
    eq((code, out["json"]["summary"]["failed_cases"]), (0, 0), "not strict")


def test_a_malformed_scenario_keeps_the_report(ctx):
    # One malformed file under tests/ threw the whole check report away (a
    # 0-byte --output, nothing on stdout). It is now a located error case;
    # the other files still run.
    d = ctx.plugin("scn", {"name": "scn", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n",
                    "tests/a-good.plugcheck.yaml": "plugcheck: 1\nplugins: [..]\nscenarios:\n"
                    "  - name: ok\n    steps:\n      - fire: pre_bash\n        expect: { verdict: allow }\n",
                    "tests/b-bad.plugcheck.yaml": "plugcheck: 1\nplugins: [..]\nscenarios:\n"
                    "  - name: typo\n    steps:\n      - fire: pre_bsh\n"})
    out_xml = os.path.join(ctx.tmp, "r.xml")
    code, stdout, stderr = ctx.run("check", d, "--repeat", "1", "--format", "junit",
                                   "--output", out_xml)
    eq(code, 1, stderr)
    root = ET.parse(out_xml).getroot()
    names = {(tc.get("classname"), tc.get("name")) for tc in root.iter("testcase")}
    assert ("plugcheck.scenario.a-good", "ok / 1. fire pre_bash") in names, names
    bad = [tc for tc in root.iter("testcase") if tc.get("classname") == "plugcheck.scenario.b-bad"]
    eq(len(bad), 1)
    f = bad[0].find("failure")
    eq(f.get("type"), "PC-SCN-002")
    assert re.search(r"b-bad\.plugcheck\.yaml:6:\d+: step 'fire pre_bsh': 'pre_bsh' is not a hook "
                     r"point \(did you mean 'pre_bash'\?\)", f.get("message")), f.get("message")
    assert "PASS  a-good/ok" in stdout and "FAIL  " not in stdout.split("PASS  a-good/ok")[0], stdout
    code, rep = ctx.json("check", d, "--repeat", "1")
    f = [x for x in rep["findings"] if x["id"] == "PC-SCN-002"]
    eq(len(f), 1)
    eq(rep["incomplete"], False)


def test_write_errors_are_loud(ctx):
    # check --output /dev/full exited 70 with no message; run --format json,
    # fire, lint, turn and rules writing to a full disk exited 0.
    d = ctx.plugin("w", {"name": "w", "version": "1.0.0",
                         "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    scn = os.path.join(ctx.tmp, "w.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n  - name: a\n    steps:\n"
                "      - fire: pre_bash\n" % d)
    script = os.path.join(ctx.tmp, "t.json")
    with open(script, "w") as f:
        json.dump({"replies": [{"content": "hi"}]}, f)
    for fmt in ("human", "json", "junit", "tap"):
        code, out, err = ctx.run("check", d, "--repeat", "1", "--format", fmt, "--output", "/dev/full")
        eq((code, err), (70, "plugcheck: cannot write '/dev/full': No space left on device\n"), fmt)
        code, out, err = ctx.run("run", scn, "--format", fmt, "--output", "/dev/full")
        eq((code, err), (70, "plugcheck: cannot write '/dev/full': No space left on device\n"), "run " + fmt)
    commands = [("check", d, "--repeat", "1"), ("check", d, "--repeat", "1", "--format", "json"),
                ("check", d, "--repeat", "1", "--format", "tap"), ("lint", d), ("lint", d, "--format", "json"),
                ("fire", "pre_bash", d), ("fire", "pre_bash", d, "--format", "json"),
                ("run", scn), ("run", scn, "--format", "json"), ("turn", script, d),
                ("turn", script, d, "--format", "json"), ("rules",), ("rules", "--format", "json"),
                ("--help",), ("check", "--help")]
    for args in commands:
        with open("/dev/full", "w") as full:
            p = subprocess.run([ctx.plugcheck, *args], stdout=full, stderr=subprocess.PIPE,
                               cwd=ctx.tmp, timeout=600)
        err = p.stderr.decode()
        assert p.returncode not in (0, 1), (args, p.returncode, err)
        assert "cannot write standard output: No space left on device" in err, (args, err)
        # said once, not by each layer that saw the failed write (trial)
        eq(err.count("cannot write standard output"), 1, (args, err))
    for bad in (os.path.join(ctx.tmp, "no", "such", "r.xml"), ctx.tmp):
        code, out, err = ctx.run("check", d, "--output", bad)
        eq(code, 2, err)
        assert err.startswith("plugcheck: cannot write --output '%s': " % bad), err
    fifo = os.path.join(ctx.tmp, "fifo")
    os.mkfifo(fifo)
    code, out, err = ctx.run("run", scn, "--output", fifo, timeout=30)
    eq((code, err), (2, "plugcheck: cannot write --output '%s': it is a FIFO that no process "
                        "reads, so writing the report would block; fix: name a regular file, or "
                        "start its reader first\n" % fifo))


def test_usage_errors_are_one_line(ctx):
    # each names what is wrong, then points at --help (issue 20 too)
    for args, msg in [(("fire", "pre_bash"), "missing arguments (usage: plugcheck fire POINT PATH)"),
                      (("check", "a", "b"), "unexpected argument 'b' (usage: plugcheck check PATH)"),
                      (("lint", "x", "--format", "junit"),
                       "--format: invalid value 'junit' (expected human, json, sarif or github)"),
                      (("turn", "s", "p", "--approval", "sometimes"),
                       "--approval: invalid value 'sometimes' (expected never, destructive or always)"),
                      (("check", "x", "--format", "json", "--format", "tap"), "--format given twice (keep one)"),
                      (("fire", "pre_bash", "p", "--args", "{}", "--args-file", "f"),
                       "--args and --args-file cannot go together (give one)"),
                      (("check", "x", "--bogus"), "unknown option '--bogus'")]:
        code, out, err = ctx.run(*args)
        eq((code, out, err), (2, "", "plugcheck %s: %s\nRun `plugcheck %s --help` for usage.\n"
                              % (args[0], msg, args[0])), args)
    code, out, err = ctx.run()
    eq((code, err), (2, "plugcheck: missing command: give one, or a plugin PATH to check\n"
                        "Run `plugcheck --help` for usage.\n"))


def test_odd_scenario_files_are_located_errors(ctx):
    # A FIFO, a directory, a dangling symlink or a device named
    # *.plugcheck.yaml under tests/ was skipped without a word (and `run`
    # on the FIFO said "the file is empty"): each is now a PC-SCN-002
    # case saying what it is (fresh-user trial).
    d = ctx.plugin("odd", {"name": "odd", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    t = os.path.join(d, "tests")
    os.makedirs(os.path.join(t, "dir.plugcheck.yaml"))
    os.mkfifo(os.path.join(t, "fifo.plugcheck.yaml"))
    os.symlink("/nonexistent", os.path.join(t, "dangling.plugcheck.yaml"))
    os.symlink("/dev/zero", os.path.join(t, "zero.plugcheck.yaml"))
    code, rep = ctx.json("check", d, "--repeat", "1", timeout=120)
    eq(code, 1)
    msgs = sorted(f["message"] for f in rep["findings"] if f["id"] == "PC-SCN-002")
    tail = ", not a regular file; fix: make it a file, or rename it so that it does not end in .yaml"
    eq(msgs, [t + "/dangling.plugcheck.yaml:1:1: cannot read the scenario file: No such file "
              "or directory (a dangling symlink)",
              t + "/dir.plugcheck.yaml:1:1: the scenario file is a directory" + tail,
              t + "/fifo.plugcheck.yaml:1:1: the scenario file is a FIFO" + tail,
              t + "/zero.plugcheck.yaml:1:1: the scenario file is a character device" + tail])
    code, out, err = ctx.run("run", os.path.join(t, "fifo.plugcheck.yaml"), timeout=30)
    eq((code, err), (2, "plugcheck: " + t + "/fifo.plugcheck.yaml:1:1: the scenario file is a "
                        "FIFO" + tail + "\n"))


def test_a_suppressed_scenario_failure_is_shown(ctx):
    # `run --ignore PC-SCN-001` printed a bare PASS and hid the step that
    # failed; README says suppressed findings are shown as suppressed.
    d = ctx.plugin("den", {"name": "den", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":false,\"reason\":\"no\"}'\n"})
    scn = os.path.join(ctx.tmp, "s.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [den]\nscenarios:\n  - name: a\n    steps:\n"
                "      - fire: pre_bash\n        expect: { verdict: allow }\n")
    code, out, err = ctx.run("run", scn, "--ignore", "PC-SCN-001")
    eq((code, out), (0, "PASS  s/a (%s ms)\n  step 1. fire pre_bash:\n"
                        "    suppressed PC-SCN-001: expect.verdict (line 7) at $.allow:\n"
                        "      expected: \"allow\"\n      actual:   \"deny\"\n"
                        "1 scenarios: 1 passed, 0 failed, 0 skipped, 0 expected failures\n"
                     % out.split("(")[1].split(" ms")[0]), err)

"""plugcheck check: the conformance suite. A well-behaved plugin comes out
clean; each misbehaving one produces its specific finding id."""
import json
import os
import subprocess
import xml.etree.ElementTree as ET

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "plugins")


def check(ctx, d, *extra):
    return ctx.json("check", d, "--repeat", "1", *extra)


def ids(out, severity=None):
    return sorted({f["id"] for f in out["findings"] if not f["suppressed"]
                   and (severity is None or f["severity"] == severity)})


def manifest(name, caps=None, **parts):
    m = {"name": name, "version": "1.0.0"}
    m.update(parts)
    return m


def test_good_sh_is_clean(ctx):
    code, out = check(ctx, os.path.join(FIX, "good-sh"))
    eq(ids(out, "error") + ids(out, "warning"), [], json.dumps(out["findings"], indent=1))
    eq(code, 0)
    eq(out["loaded"], True)
    eq([(l["as"], l["loaded"]) for l in out["loads"]],
       [("plugin_dir", True), ("global", True), ("project", False), ("project_trusted", True),
        ("project_over_global", True)])
    assert out["loads"][2]["detail"].startswith("[plugins] skipping project-scoped plugin 'good-sh' (in \"")
    assert out["summary"]["passed"] is True


def test_good_py_is_clean(ctx):
    code, out = check(ctx, os.path.join(FIX, "good-py"))
    eq(ids(out, "error") + ids(out, "warning"), [], json.dumps(out["findings"], indent=1))
    eq(code, 0)
    names = [c["name"] for c in out["cases"] if c["classname"] == "plugcheck.memory"]
    eq([n.split(" ")[0] for n in names], ["save", "list", "inject", "forget", "list", "compact_append"])


def test_example_is_clean(ctx):
    # PC-PROC-002 (p95 over half the timeout) measures the machine as much
    # as the plugin: at a load average of 19 on 2 cores python3 alone took
    # 1.5 s to start. It is only judged when the machine is not overloaded.
    busy = os.getloadavg()[0] > (os.cpu_count() or 1)
    extra = ["--ignore", "PC-PROC-002"] if busy else []
    # its guard's search in full is test_guard.py's; 40 inputs per point
    # keep this one short
    code, out = check(ctx, os.path.join(HERE, "..", "..", "examples", "secret-guard"),
                      "--guard-budget", "40", *extra)
    eq(ids(out, "error") + ids(out, "warning"), [])
    eq(code, 0)


def hook(ctx, name, point, body, **entry):
    e = {"script": "h.sh"}
    e.update(entry)
    return ctx.plugin(name, manifest(name, hooks={point: e}), {"h.sh": body})


def test_missing_allow_is_an_accidental_deny(ctx):
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":\"true\"}'\n")
    code, out = check(ctx, d)
    assert "PC-HOOK-012" in ids(out), ids(out)
    eq(code, 1)
    f = [f for f in out["findings"] if f["id"] == "PC-HOOK-012"][0]
    eq(f["message"], 'allow is "true": the host denies this call with reason ""')
    eq(f["where"], "hook pre_bash")


def test_crashing_guard_denies_by_failure(ctx):
    d = hook(ctx, "p", "pre_write", "#!/bin/sh\nexit 3\n")
    code, out = check(ctx, d)
    assert "PC-HOOK-010" in ids(out)
    f = [f for f in out["findings"] if f["id"] == "PC-HOOK-010"][0]
    eq(f["message"], "hook 'pre_write' exited with exit status: 3: ")


def test_failing_post_hook_is_a_warning(ctx):
    d = hook(ctx, "p", "post_bash", "#!/bin/sh\necho nope\n")
    code, out = check(ctx, d)
    eq(ids(out, "warning"), ["PC-HOOK-011"])
    eq(code, 0)
    code, out = check(ctx, d, "--strict")
    eq(code, 1)


def test_background_child_holds_stdout(ctx):
    d = hook(ctx, "p", "turn_end", "#!/bin/sh\ncat >/dev/null\n(sleep 20) &\necho '{\"allow\":true}'\n",
             timeout_ms=400)
    code, out = check(ctx, d)
    assert "PC-PROC-003" in ids(out), ids(out)


def test_detached_leftover_process(ctx):
    d = hook(ctx, "p", "turn_start",
             "#!/bin/sh\ncat >/dev/null\n(sleep 20 >/dev/null 2>&1 </dev/null &)\necho '{\"allow\":true}'\n")
    code, out = check(ctx, d)
    assert "PC-PROC-001" in ids(out), ids(out)


def test_slow_hook_latency(ctx):
    # every firing takes at least 1000 ms > 1900/2, so p95 is over half the
    # timeout whatever the load; 900 ms of slack before a real timeout
    d = hook(ctx, "p", "pre_tool", "#!/bin/sh\ncat >/dev/null\nsleep 1\necho '{\"allow\":true}'\n",
             timeout_ms=1900)
    code, out = check(ctx, d)
    assert "PC-PROC-002" in ids(out), ids(out)


def test_output_over_cap(ctx):
    d = hook(ctx, "p", "post_read", "#!/bin/sh\ncat >/dev/null\nhead -c 2000000 /dev/zero\n")
    code, out = check(ctx, d)
    assert "PC-IO-001" in ids(out), ids(out)


def test_fails_on_large_input(ctx):
    d = hook(ctx, "p", "pre_write",
             "#!/bin/sh\nn=$(wc -c)\nif [ \"$n\" -gt 500000 ]; then exit 1; fi\necho '{\"allow\":true}'\n",
             pass_args=True)
    code, out = check(ctx, d)
    assert "PC-IO-002" in ids(out), ids(out)
    assert "PC-IO-003" in ids(out), ids(out)


def test_fails_on_non_ascii(ctx):
    d = hook(ctx, "p", "pre_input",
             "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *\u00e9*) exit 1;; esac\necho '{\"allow\":true}'\n",
             pass_args=True)
    code, out = check(ctx, d)
    assert "PC-ENV-001" in ids(out), ids(out)


def test_answer_shape_notes(ctx):
    d = hook(ctx, "a", "post_tool", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":false,\"reason\":\"x\"}'\n")
    code, out = check(ctx, d)
    assert "PC-HOOK-013" in ids(out)
    d = hook(ctx, "b", "pre_read", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":false}'\n")
    code, out = check(ctx, d)
    assert "PC-HOOK-014" in ids(out)
    d = hook(ctx, "c", "pre_bash", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true,\"modify\":\"ls\"}'\n")
    code, out = check(ctx, d)
    assert "PC-HOOK-015" in ids(out)
    d = hook(ctx, "d", "session_start", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true,\"modify\":{}}'\n")
    code, out = check(ctx, d)
    assert {"PC-HOOK-016", "PC-DOC-001"} <= set(ids(out)), ids(out)


def test_env_var_never_passed(ctx):
    d = ctx.plugin("p", manifest("p", hooks={"pre_bash": {"script": "h.py"}}),
                   {"h.py": "#!/usr/bin/env python3\nimport os, sys\nsys.stdin.read()\n"
                            "m = os.environ.get('MY_GUARD_MODE', 'strict')\nprint('{\"allow\":true}')\n"})
    code, out = check(ctx, d)
    f = [f for f in out["findings"] if f["id"] == "PC-ENV-002"]
    eq([x["message"] for x in f], ["'h.py' reads $MY_GUARD_MODE, which the host never passes (its environment is cleared)"])


def tool(ctx, name, body, params=None):
    t = {"name": "t", "script": "t.sh"}
    if params is not None:
        t["parameters"] = params
    return ctx.plugin(name, manifest(name, tools=[t]), {"t.sh": body})


def test_tool_crashes_on_valid_args(ctx):
    d = tool(ctx, "p", "#!/bin/sh\nexit 2\n",
             {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    code, out = check(ctx, d)
    assert "PC-TOOL-010" in ids(out), ids(out)
    eq(code, 1)


def test_tool_crashes_on_invalid_args(ctx):
    body = "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *'\"q\":\"'*) echo ok;; *) exit 5;; esac\n"
    d = tool(ctx, "p", body, {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    code, out = check(ctx, d)
    eq(ids(out, "warning"), ["PC-TOOL-011"])


def test_bad_schema(ctx):
    d = tool(ctx, "p", "#!/bin/sh\ncat >/dev/null\necho ok\n", {"type": "object", "required": "q"})
    code, out = check(ctx, d)
    assert "PC-TOOL-005" in ids(out), ids(out)


def test_command_failure(ctx):
    d = ctx.plugin("p", manifest("p", commands=[{"name": "c", "script": "c.sh"}]),
                   {"c.sh": "#!/bin/sh\nexit 1\n"})
    code, out = check(ctx, d)
    assert "PC-CMD-010" in ids(out)


def test_memory_documented_actions_only(ctx):
    body = ("#!/usr/bin/env python3\nimport json,sys\nc=json.load(sys.stdin)\n"
            "a=c['action']\nprint(json.dumps({'ok':True,'output':'x'} if a in ('write','search','standing_prompt') "
            "else {'error':'unknown action '+a}))\n")
    d = ctx.plugin("m", manifest("m", memory_provider={"script": "m.py"}), {"m.py": body})
    code, out = check(ctx, d)
    assert {"PC-MEM-001", "PC-MEM-002"} <= set(ids(out)), ids(out)


def test_memory_loses_data(ctx):
    body = ("#!/usr/bin/env python3\nimport json,sys\nc=json.load(sys.stdin)\n"
            "print(json.dumps({'ok':True,'id':'1','entries':[],'injection':''}))\n")
    d = ctx.plugin("m", manifest("m", memory_provider={"script": "m.py"}), {"m.py": body})
    code, out = check(ctx, d)
    eq(ids(out, "warning"), ["PC-MEM-003"])


def test_oauth_findings(ctx):
    d = ctx.plugin("o", manifest("o", oauth={"provider_id": "acme", "base_url": "https://x", "script": "o.sh"}),
                   {"o.sh": "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *'\"action\":\"token\"'*) exit 9;; esac\necho '{\"flow\":\"web\"}'\n"})
    code, out = check(ctx, d)
    assert {"PC-OAUTH-001", "PC-OAUTH-002"} <= set(ids(out)), ids(out)


def test_rejected_plugin_exit_3(ctx):
    d = ctx.plugin("p", {"name": "p"})
    code, out = check(ctx, d)
    eq((code, out["loaded"], out["host_error"]), (3, False, "plugin.json parse error: missing field `version` at line 3 column 1"))


def test_ignore_and_config(ctx):
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\nexit 3\n")
    code, out = check(ctx, d, "--ignore", "PC-HOOK-010")
    eq(code, 0)
    assert any(f["id"] == "PC-HOOK-010" and f["suppressed"] for f in out["findings"])
    with open(os.path.join(d, ".plugcheck.yaml"), "w") as f:
        f.write("ignore:\n  - PC-HOOK-010\n")
    code, out = check(ctx, d)
    eq(code, 0)
    with open(os.path.join(d, ".plugcheck.yaml"), "w") as f:
        f.write("ignore:\n  - PC-NOPE-1\n")
    code, stdout, stderr = ctx.run("check", d)
    eq(code, 2)
    eq(stderr, "plugcheck: %s/.plugcheck.yaml:2:5: unknown rule id (see `plugcheck rules`)\n" % d)


def test_config_rejects_repeats_and_quoted_booleans(ctx):
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\nexit 3\n")
    for text, where, what in [
            ('strict: "true"\n', "1:9", "'strict' must be true or false (unquoted)"),
            ("strict: 'false'\n", "1:9", "'strict' must be true or false (unquoted)"),
            ("strict: false\nstrict: true\n", "2:1", "'strict' given twice (keep one)"),
            ("ignore: [PC-HOOK-010]\nignore: []\n", "2:1", "'ignore' given twice (merge the lists into one)")]:
        with open(os.path.join(d, ".plugcheck.yaml"), "w") as f:
            f.write(text)
        code, stdout, stderr = ctx.run("check", d)
        eq((code, stderr), (2, "plugcheck: %s/.plugcheck.yaml:%s: %s\n" % (d, where, what)))


def test_junit_and_tap(ctx):
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\nexit 3\n")
    junit = os.path.join(ctx.tmp, "r.xml")
    code, stdout, stderr = ctx.run("check", d, "--repeat", "1", "--format", "junit", "--output", junit)
    eq(code, 1)
    assert "PC-HOOK-010" in stdout  # the human summary still goes to the terminal
    root = ET.parse(junit).getroot()
    eq(root.tag, "testsuites")
    failed = [tc for tc in root.iter("testcase") if tc.find("failure") is not None]
    assert any("PC-HOOK-010" in tc.find("failure").get("message") for tc in failed)
    xsd = os.path.join(HERE, "..", "..", "docs", "junit.xsd")
    p = subprocess.run(["xmllint", "--noout", "--schema", xsd, junit], capture_output=True)
    eq(p.returncode, 0, p.stderr.decode())
    code, tap, stderr = ctx.run("check", d, "--repeat", "1", "--format", "tap")
    lines = tap.splitlines()
    eq(lines[0], "TAP version 13")
    assert any(l.startswith("not ok ") for l in lines)


def test_json_validates_against_schema(ctx):
    d = os.path.join(FIX, "good-sh")
    out = os.path.join(ctx.tmp, "r.json")
    code, stdout, stderr = ctx.run("check", d, "--repeat", "1", "--format", "json", "--output", out)
    schema = os.path.join(HERE, "..", "..", "docs", "check.schema.json")
    p = subprocess.run(["python3", "-c", "import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
                        out, schema], capture_output=True)
    eq(p.returncode, 0, p.stderr.decode())


def test_rules_lists_every_id(ctx):
    code, out = ctx.json("rules")
    got = [r["id"] for r in out]
    eq(got, sorted(got))
    assert {"PC-HOOK-012", "PC-MEM-002", "PC-LOAD-001"} <= set(got)


def test_bare_path_runs_check(ctx):
    code, stdout, stderr = ctx.run(os.path.join(FIX, "good-sh"), "--repeat", "1")
    eq(code, 0)
    assert "PASS" in stdout.splitlines()[-1], stdout


def test_good_c_is_clean(ctx):
    # the C fixture: compiled here so the repository carries no binary
    src = os.path.join(FIX, "good-c")
    d = os.path.join(ctx.tmp, "good-c")
    import shutil
    shutil.copytree(src, d)
    os.makedirs(os.path.join(d, "hooks"))
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", os.path.join(d, "hooks", "guard"),
                    os.path.join(d, "src", "guard.c")], check=True)
    code, out = check(ctx, d)
    eq(ids(out, "error") + ids(out, "warning"), [], json.dumps(out["findings"], indent=1))
    eq(code, 0)
    code, fired = ctx.json("fire", "pre_tool", d, "--args", '{"path":"/etc/shadow"}')
    eq((fired["allow"], fired["reason"]), (False, "good-c: /etc/shadow is off limits"))


def test_pass_args_on_argless_point(ctx):
    d = hook(ctx, "p", "turn_start", "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n", pass_args=True)
    code, out = check(ctx, d)
    assert "PC-HOOK-005" in ids(out), ids(out)
    eq(out["capabilities"], ["execute_subprocess", "receive_prompts", "receive_tool_arguments"])


def test_project_over_global(ctx):
    """R1.5: with a same-named global plugin, the trusted project copy wins;
    untrusted, it is skipped (the skip line) while the global one loads."""
    code, out = check(ctx, os.path.join(FIX, "good-sh"))
    l = [l for l in out["loads"] if l["as"] == "project_over_global"][0]
    eq(l["loaded"], True)
    assert l["detail"].startswith("[plugins] skipping project-scoped plugin 'good-sh' (in \""), l
    code, out = check(ctx, ctx.plugin("broken", {"name": "broken", "version": "1",
                                                 "hooks": {"pre_bash": {"script": "hooks/none.sh"}}}) or
                      os.path.join(ctx.tmp, "broken"))
    eq([l for l in out["loads"] if l["as"] == "project_over_global"], [])


def test_untrusted_project_skip_line_is_exact(ctx):
    """R1.7.6: the untrusted project scan logs the host's line verbatim,
    with the canonical plugin directory Rust-debug-quoted; the same line
    is the untrusted half of project_over_global (R1.5)."""
    code, out = check(ctx, os.path.join(FIX, "good-sh"))
    line = ("[plugins] skipping project-scoped plugin 'good-sh' (in \"%s\"); trust it with the "
            "plugin trust prompt (/plugin-trust), set --trust-project-plugins / "
            "CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or reinstall with `/plugin-install \u2026 "
            "workspace`" % os.path.realpath(os.path.join(FIX, "good-sh")))
    loads = {l["as"]: l for l in out["loads"]}
    eq(loads["project"], {"as": "project", "loaded": False, "detail": line})
    eq(loads["project_over_global"], {"as": "project_over_global", "loaded": True, "detail": line})
    eq(loads["global"], {"as": "global", "loaded": True, "detail": ""})
    eq(loads["project_trusted"], {"as": "project_trusted", "loaded": True, "detail": ""})


def test_dot_path_is_not_a_name_mismatch(ctx):
    # the fresh-user trial: `plugcheck .` from inside the plugin compared
    # the name with "."
    d = ctx.plugin("dotted", manifest("dotted"))
    code, out = ctx.json("lint", ".", cwd=d)
    assert "PC-MAN-001" not in ids(out), out["findings"]


def test_file_path_and_bad_output(ctx):
    d = ctx.plugin("p", manifest("p"))
    code, out = check(ctx, os.path.join(d, "plugin.json"))
    eq((code, ids(out, "error")), (3, ["PC-LOAD-002"]))
    code, stdout, stderr = ctx.run("check", d, "--output", os.path.join(ctx.tmp, "no", "such", "r.xml"))
    eq(code, 2)
    assert stderr.startswith("plugcheck: cannot write --output "), stderr


def test_strict_junit_shows_every_failing_warning(ctx):
    # PC-PROC-002 is found after the repeated firings; it belongs to the
    # hook's realistic-input case (issue 15: cases own their findings), so
    # JUnit shows it as that case's failure, of type PC-PROC-002
    d = hook(ctx, "p", "pre_tool", "#!/bin/sh\ncat >/dev/null\nsleep 1\necho '{\"allow\":true}'\n",
             timeout_ms=1900)
    junit = os.path.join(ctx.tmp, "r.xml")
    code, stdout, stderr = ctx.run("check", d, "--repeat", "1", "--strict", "--format", "junit", "--output", junit)
    eq(code, 1)
    failed = [(tc.get("classname"), tc.get("name"), tc.find("failure").get("type"))
              for tc in ET.parse(junit).getroot().iter("testcase") if tc.find("failure") is not None]
    eq(failed, [("plugcheck.hook.pre_tool", "realistic input", "PC-PROC-002")])


def test_interrupted_fire_leaves_nothing(ctx):
    import signal
    import time
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\ncat >/dev/null\nexec sleep 4711\n", timeout_ms=60000)
    p = subprocess.Popen([ctx.plugcheck, "fire", "pre_bash", d, "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    eq(json.loads(out)["signal"], 9)
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if f.read() == b"sleep\x004711\x00":
                    left.append(pid)
        except OSError:
            pass
    eq(left, [])


def test_output_dash_is_stdout(ctx):
    # `--output -` writes the report to standard output, not to a file
    # named "-" (found in a fresh-user trial).
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\necho '{\"allow\":true}'\n")
    code, stdout, stderr = ctx.run("check", d, "--repeat", "1", "--format", "json", "--output", "-")
    eq((code, json.loads(stdout)["loaded"], os.path.exists(os.path.join(ctx.tmp, "-"))), (0, True, False))


def test_bad_option_values_are_named(ctx):
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\necho '{\"allow\":true}'\n")
    for opt, val, expect in [("--format", "xml", "human, json, junit, tap, sarif, github or html"),
                             ("--repeat", "many", "a whole number 0..1000"),
                             ("--repeat", "1001", "a whole number 0..1000")]:
        code, stdout, stderr = ctx.run("check", d, opt, val)
        eq((code, stdout, stderr), (2, "", "plugcheck check: %s: invalid value '%s' (expected %s)\n"
                                           "Run `plugcheck check --help` for usage.\n" % (opt, val, expect)))


def test_memory_provider_timeout_is_paid_once(ctx):
    # A provider that never answers used to cost its timeout for each of
    # the nine memory firings; after the first timeout the rest are skipped.
    d = ctx.plugin("m", {"name": "m", "version": "1.0.0",
                         "memory_provider": {"script": "mem", "timeout_ms": 300}},
                   {"mem": "#!/bin/sh\nexec sleep 1000\n"})
    code, out = check(ctx, d)
    mem = [(c["name"].split(" ")[0], c["status"], c.get("message")) for c in out["cases"]
           if c["classname"] == "plugcheck.memory"]
    eq(mem[0], ("save", "fail", "PC-MEM-001: action 'save' failed: memory_provider 'm' timed out after 300ms"))
    eq(mem[1:], [(a, "skip", "skipped: the provider timed out on 'save'") for a in
                 ("list", "inject", "forget", "list", "compact_append", "standing_prompt", "write", "search")])
    eq(code, 1)


def test_unusable_tmpdir_is_named(ctx):
    # A fresh-user trial with TMPDIR=/nonexistent/x got "plugcheck: cannot
    # create a temporary directory: No such file or directory", naming
    # neither the directory nor TMPDIR.
    d = hook(ctx, "p", "pre_bash", "#!/bin/sh\necho '{\"allow\":true}'\n")
    afile = os.path.join(ctx.tmp, "afile")
    open(afile, "w").close()
    for tmpdir, why in (("/nonexistent/x", "No such file or directory"), (afile, "Not a directory")):
        for jobs in ("1", "2"):
            code, stdout, stderr = ctx.run("check", d, "-j", jobs, env={"TMPDIR": tmpdir})
            eq((code, stdout, stderr),
               (70, "", "plugcheck: cannot create a temporary directory in %s (TMPDIR; set it to a "
                        "writable directory): %s\n" % (tmpdir, why)))

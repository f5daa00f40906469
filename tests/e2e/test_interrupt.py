"""Ctrl-C / SIGTERM to `plugcheck run` (README "Ctrl-C"): the plugin tree
is killed, the scenario cut short is not judged, no later scenario runs,
the report says incomplete and the exit is 70."""
import json
import os
import signal
import subprocess
import time

from e2e import eq

CUT = "interrupted: plugcheck was stopped during this scenario and killed the plugin; not judged"
BEFORE = "interrupted: plugcheck was stopped before this scenario; not run"
LAST = "plugcheck: interrupted: the plugin tree was killed; the output above is incomplete"


def sleepers(mark):
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if f.read() == b"sleep\x00%d\x00" % mark:
                    found.append(pid)
        except OSError:
            pass
    return found


def sigint_once_started(ctx, args, started, env=None):
    """Run plugcheck ARGS, SIGINT it once the file `started` exists (the
    plugin is under way; generous on a loaded machine) and return the
    process, its stdout and stderr (bytes)."""
    p = subprocess.Popen([ctx.plugcheck, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not os.path.exists(started):
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return p, out, err


def run_interrupted(ctx, fmt, mark, *extra):
    started = os.path.join(ctx.tmp, "started-%s" % fmt)
    d = ctx.plugin("slow-%s" % fmt, {"name": "slow-%s" % fmt, "version": "1.0.0",
                                    "hooks": {"pre_bash": {"script": "h", "timeout_ms": 600000}}},
                   {"h": "#!/bin/sh\ncat >/dev/null\ntouch '%s'\nexec sleep %d\n" % (started, mark)})
    scn = os.path.join(ctx.tmp, "slow-%s.plugcheck.yaml" % fmt)
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n" % d)
        for name in ("first", "second"):
            f.write("  - name: %s\n    steps:\n      - fire: pre_bash\n"
                    "        input: { command: ls }\n        expect: { verdict: allow }\n" % name)
    tmpd = os.path.join(ctx.tmp, "tmp-%s" % fmt)
    os.mkdir(tmpd)
    p, out, err = sigint_once_started(ctx, ["run", scn, "--format", fmt, *extra], started,
                                      {"TMPDIR": tmpd})
    eq(p.returncode, 70, err)
    eq(err.decode().splitlines()[-1], LAST)
    eq(sleepers(mark), [])
    eq(os.listdir(tmpd), [])
    return out.decode()


def test_sigint_run_json(ctx):
    doc = json.loads(run_interrupted(ctx, "json", 4741))
    eq(doc["incomplete"], True)
    eq([(s["name"], s["status"], s["message"]) for s in doc["scenarios"]],
       [("first", "skip", CUT), ("second", "skip", BEFORE)])


def test_sigint_run_human(ctx):
    out = run_interrupted(ctx, "human", 4742)
    assert out.endswith("incomplete: the run was interrupted\n"), out
    assert "FAIL" not in out, out


def test_sigint_run_junit(ctx):
    out = run_interrupted(ctx, "junit", 4743)
    assert "interrupted" in out, out
    assert "<failure" not in out, out


def test_sigint_run_jobs(ctx):
    doc = json.loads(run_interrupted(ctx, "json", 4744, "-j", "2"))
    eq(doc["incomplete"], True)
    eq([(s["name"], s["status"], s["message"]) for s in doc["scenarios"]],
       [("first", "skip", CUT), ("second", "skip", CUT)])


def test_sigint_fire(ctx):
    # fire used to exit 1 (a DENY by signal 9) after Ctrl-C; now 70, and
    # stderr says the output is incomplete.
    started = os.path.join(ctx.tmp, "started-fire")
    d = ctx.plugin("fire-slow", {"name": "fire-slow", "version": "1.0.0",
                                 "hooks": {"pre_bash": {"script": "h", "timeout_ms": 600000}}},
                   {"h": "#!/bin/sh\ncat >/dev/null\ntouch '%s'\nexec sleep 4752\n" % started})
    p, out, err = sigint_once_started(ctx, ["fire", "pre_bash", d, "--format", "json"], started)
    eq((p.returncode, json.loads(out)["signal"]), (70, 9))
    eq(err.decode().splitlines()[-1], LAST)
    eq(sleepers(4752), [])


def test_sigint_chatcli_check_starts_no_further_call(ctx):
    # The ChatCLI check ran every call left after Ctrl-C (each bounded by
    # plugcheck's 10-20 s cap) before exiting 70. Now the call in progress
    # is killed and each one left is a skipped "interrupted" case.
    started = os.path.join(ctx.tmp, "started-chatcli")
    d = os.path.join(ctx.tmp, "chatcli-slow")
    os.makedirs(d)
    exe = os.path.join(d, "slowcli")
    schema = ('{"subcommands":[' + ",".join(
        '{"name":"%s","description":"x","flags":[]}' % n for n in ("a", "b", "c")) + ']}')
    with open(exe, "w") as f:
        f.write("#!/bin/sh\n"
                "[ \"$1\" = --metadata ] && { echo '{\"name\":\"@slowcli\",\"description\":\"d\","
                "\"usage\":\"u\",\"version\":\"1\"}'; exit 0; }\n"
                "[ \"$1\" = --schema ] && { printf '%%s' '%s'; exit 0; }\n"
                "touch '%s'\nexec sleep 4753\n" % (schema, started))
    os.chmod(exe, 0o755)
    p, out, err = sigint_once_started(ctx, ["check", exe, "--format", "json"], started,
                                      {"HOME": os.path.join(ctx.tmp, "home-chatcli"),
                                       "CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"})
    eq(p.returncode, 70, err)
    eq(err.decode().splitlines()[-1], LAST)
    rep = json.loads(out)
    eq(rep["incomplete"], True)
    calls = [(c["name"], c["status"], c["message"]) for c in rep["cases"] if c["name"].startswith("call ")]
    skipped = [c for c in calls if c[1] == "skip"]
    # 3 subcommands x 2 forms: the first was running, the other 5 never start
    eq(len(calls), 6, calls)
    eq(len(skipped), 5, calls)
    eq({c[2] for c in skipped}, {"interrupted: plugcheck was stopped before this ran"})
    eq(sleepers(4753), [])


def test_run_jobs_with_sigchld_ignored(ctx):
    # SIG_IGN for SIGCHLD survives exec: a launcher that ignores it hands
    # that on. The kernel then reaps the workers of `run -j 2` itself, and
    # waitpid() fails with ECHILD forever: a trial saw plugcheck spin at
    # 100% CPU, deaf to SIGTERM. Its workers' results are on disk by then.
    d = ctx.plugin("ign", {"name": "ign", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "h"}}},
                   {"h": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    scn = os.path.join(ctx.tmp, "ign.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n" % d)
        for name in ("a", "b", "c"):
            f.write("  - name: %s\n    steps:\n      - fire: pre_bash\n"
                    "        input: { command: ls }\n        expect: { verdict: allow }\n" % name)
    tmpd = os.path.join(ctx.tmp, "tmp-ign")
    os.mkdir(tmpd)
    p = subprocess.Popen([ctx.plugcheck, "run", scn, "--format", "json", "-j", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "TMPDIR": tmpd},
                         preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN))
    try:
        out, err = p.communicate(timeout=120)  # seconds when it works
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("plugcheck run -j 2 hung with SIGCHLD ignored")
    eq(p.returncode, 0, err)
    eq([(s["name"], s["status"]) for s in json.loads(out)["scenarios"]],
       [("a", "pass"), ("b", "pass"), ("c", "pass")])
    eq(os.listdir(tmpd), [])


def test_run_jobs_worker_killed_by_its_plugin_leaves_nothing(ctx):
    # A hook running `kill -9 $PPID` kills the `run -j 2` worker that fired
    # it. Its temporary HOME and workspace (plugcheck-scn-*) stayed in
    # TMPDIR: only an interrupt swept them (fresh-user trial). And every
    # scenario of that worker read "the worker process running this
    # scenario died", the one it had passed before and the one it never
    # started alike. Now the dead worker's scenario gets the plugin's
    # finding (PC-PROC-004: it killed its host) and a fresh worker runs the
    # rest (issue 21).
    d = ctx.plugin("k9", {"name": "k9", "version": "1.0.0",
                          "hooks": {"pre_bash": {"script": "ok"}, "pre_write": {"script": "k"}}},
                   {"ok": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n",
                    "k": "#!/bin/sh\ncat >/dev/null\nkill -9 $PPID\nexec sleep 4751\n"})
    scn = os.path.join(ctx.tmp, "k9.plugcheck.yaml")
    with open(scn, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n" % d)
        for name in ("a", "b", "c", "d", "e"):
            f.write("  - name: %s\n    steps:\n      - fire: %s\n        input: { command: ls }\n"
                    "        expect: { verdict: allow }\n" % (name, "pre_write" if name == "c" else "pre_bash"))
    tmpd = os.path.join(ctx.tmp, "tmp-k9")
    os.mkdir(tmpd)
    code, out, err = ctx.run("run", scn, "--format", "json", "-j", "2", env={"TMPDIR": tmpd}, timeout=120)
    eq(code, 1, err)
    st = [(s["name"], s["status"], s["message"]) for s in json.loads(out)["scenarios"]]
    eq(st, [("a", "pass", ""), ("b", "pass", ""),
            ("c", "fail", "PC-PROC-004: plugcheck's worker, the plugin's parent as the host is, was "
                          "killed without a word (SIGKILL, as `kill -9 $PPID` sends, or a crash) "
                          "during this scenario: the real host would die; the rest of the scenario "
                          "did not run"),
            ("d", "pass", ""), ("e", "pass", "")])
    eq(sleepers(4751), [])
    eq(os.listdir(tmpd), [])

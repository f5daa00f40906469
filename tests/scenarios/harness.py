#!/usr/bin/env python3
"""tests/scenarios/harness.py - run scenario files through the real CLI.

  harness.py PLUGCHECK pass FILE...   every file must pass (exit 0)
  harness.py PLUGCHECK fail FILE...   exit 1, and every "# expect-fail: TEXT"
                                      line of the files appears in stdout
  harness.py PLUGCHECK malformed DIR  each DIR/*.yaml exits 2 with exactly
                                      the stderr line in DIR/expected.tsv;
                                      plus a generated file over the 1 MiB cap
  harness.py PLUGCHECK options FILE   -j, --shard, --filter, --tags, --repeat,
                                      --baseline, --update, --format
Runs with the current directory set to this folder, so paths in
messages are relative ("malformed/01-bad-yaml.yaml:5:1: ...").
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# the default format is github under GitHub Actions (docs/cli.md)
os.environ.pop("GITHUB_ACTIONS", None)

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def run(pc, *args):
    p = subprocess.run([pc, "run", *args], cwd=HERE, capture_output=True,
                       text=True, errors="replace", timeout=600)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, out=""):
    if not cond:
        failures.append(what + ("\n" + out if out else ""))


def mode_pass(pc, files):
    rc, out, err = run(pc, *files)
    check(rc == 0, f"pass: exit {rc}, expected 0", out + err)


def mode_fail(pc, files):
    rc, out, err = run(pc, *files)
    check(rc == 1, f"fail: exit {rc}, expected 1", out + err)
    for f in files:
        for line in open(os.path.join(HERE, f), encoding="utf-8"):
            if line.startswith("# expect-fail: "):
                want = line[len("# expect-fail: "):].rstrip("\n")
                check(want in out, f"{f}: missing in output: {want!r}", out)


def mode_malformed(pc, d):
    n = 0
    for line in open(os.path.join(HERE, d, "expected.tsv"), encoding="utf-8"):
        name, want = line.rstrip("\n").split("\t", 1)
        rc, out, err = run(pc, f"{d}/{name}")
        check(rc == 2, f"{name}: exit {rc}, expected 2", err)
        check(err.rstrip("\n") == want, f"{name}: stderr {err!r}, expected {want!r}")
        n += 1
    check(n >= 20, f"only {n} malformed files")
    tmp = tempfile.mkdtemp()
    try:
        huge = os.path.join(tmp, "huge.plugcheck.yaml")
        with open(huge, "w") as f:
            f.write("plugcheck: 1\nscenarios:\n")
            f.write("# " + "x" * 100 + "\n" * 1)
            f.write(("#" + "y" * 99 + "\n") * 11000)
        rc, out, err = run(pc, huge)
        check(rc == 2, f"huge: exit {rc}", err)
        check(err.strip() == f"plugcheck: {huge}:1:1: file is larger than the 1 MiB cap for scenario files",
              f"huge: {err!r}")
    finally:
        shutil.rmtree(tmp)


def mode_options(pc, f):
    rc, out, _ = run(pc, f, "--format", "json", "-j", "2")
    doc = json.loads(out)
    ids = [s["id"] for s in doc["scenarios"]]
    check(rc == 0 and len(ids) == 5, f"options: -j 2 json: rc {rc} ids {ids}")
    rc1, out1, _ = run(pc, f, "--format", "json", "--shard", "1/2")
    rc2, out2, _ = run(pc, f, "--format", "json", "--shard", "2/2")
    s1 = [s["id"] for s in json.loads(out1)["scenarios"]]
    s2 = [s["id"] for s in json.loads(out2)["scenarios"]]
    check(sorted(s1 + s2) == sorted(ids) and not set(s1) & set(s2),
          f"options: shards {s1} {s2} do not partition {ids}")
    rc, out, _ = run(pc, f, "--filter", "sudo$", "--format", "tap")
    check(rc == 0 and "1..1" in out and "rewrites sudo" in out, "options: --filter", out)
    rc, out, _ = run(pc, f, "--tags", "smoke", "--format", "junit")
    check(rc == 0 and out.count("<testcase") == 1 and "denies rm -rf /" in out,
          "options: --tags with junit", out)
    rc, out, _ = run(pc, "fail/verdict.plugcheck.yaml", "--format", "tap")
    # each failed step is a finding of PC-SCN-001 (issue 15: one result type)
    check(rc == 1 and out.endswith("# plugcheck: cases: 4 run, 3 failed, 1 skipped\n"
                                   "# plugcheck: 3 errors, 0 warnings, 0 notes, 0 suppressed\n"),
          "options: tap summary counts failed scenarios", out)
    rc, out, _ = run(pc, f, "--filter", "rm -rf", "--repeat", "3")
    check(rc == 0 and "pass rate 3/3, p95" in out, "options: --repeat", out)
    tmp = tempfile.mkdtemp()
    try:
        base = os.path.join(tmp, "baseline")
        with open(base, "w") as b:
            b.write("# known failures\nverdict/wrong verdict\nguard/rewrites sudo\n")
        rc, out, _ = run(pc, "fail/verdict.plugcheck.yaml", f, "--baseline", base,
                         "--filter", "wrong verdict|sudo")
        check(rc == 1 and "XFAIL verdict/wrong verdict" in out and
              "listed in the baseline as failing, but it passes now" in out,
              "options: --baseline", out)
        # every id must name a scenario of the files given (issue 20)
        rc, out, err = run(pc, "fail/verdict.plugcheck.yaml", "--baseline", base,
                           "--filter", "wrong verdict")
        check(rc == 2 and err == (
            "plugcheck run: --baseline: %s:3: 'guard/rewrites sudo' names no scenario of the "
            "files given (ids are FILE-STEM/NAME, as `run` prints them): fix the id or remove "
            "the line\n" % base), "options: --baseline id of no scenario", out + err)
        with open(base, "w") as b:
            b.write("verdict/wrong verdict\n")
        rc, out, _ = run(pc, "fail/verdict.plugcheck.yaml", "--baseline", base,
                         "--filter", "wrong verdict")
        check(rc == 0, "options: --baseline xfail only", out)
        shutil.copytree(os.path.join(HERE, "plugin"), os.path.join(tmp, "plugin"))
        up = os.path.join(tmp, "up.plugcheck.yaml")
        with open(up, "w") as u:
            u.write('plugcheck: 1\nplugins: [plugin]\nscenarios:\n  - name: snap\n'
                    '    steps:\n      - fire: pre_bash\n        input: { command: "sudo ls" }\n'
                    '        expect:\n          verdict: "@update"\n          modify: "@update"\n'
                    '          notify: !update "old"\n')
        rc, out, err = run(pc, up, "--update")
        text = open(up).read()
        check(rc == 0 and 'modify: !update {"command":"ls","sudo":false}' in text and
              'notify: !update "dropped sudo"' in text and "verdict: !update allow" in text,
              "options: --update", text + err)
        rc, out, err = run(pc, up)
        check(rc == 0, "options: updated file passes", out + err)
        saved = os.path.join(tmp, "saved.plugcheck.yaml")
        for args in ('{"command":"sudo ls"}', '{"command":"rm -rf /"}'):
            subprocess.run([pc, "fire", "pre_bash", os.path.join(tmp, "plugin"), "--args", args,
                            "--save", saved], capture_output=True, timeout=120)
        rc, out, err = run(pc, saved)
        check(rc == 0 and "2 scenarios: 2 passed" in out and
              "reason: \"fixture: refusing rm -rf /\"" in open(saved).read(),
              "options: fire --save then run", out + err)
    finally:
        shutil.rmtree(tmp)
    p = subprocess.run([pc, "check", "plugin"], cwd=HERE, capture_output=True, text=True,
                       timeout=600)
    check(p.returncode in (0, 1) and
          "PASS  self/check runs the plugin's own scenarios" in p.stdout and
          "1 scenarios: 1 passed" in p.stdout,
          "options: check runs PATH/tests/*.plugcheck.yaml", p.stdout + p.stderr)


def main():
    pc, mode, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    {"pass": mode_pass, "fail": mode_fail, "malformed": lambda p, r: mode_malformed(p, r[0]),
     "options": lambda p, r: mode_options(p, r[0])}[mode](pc, rest)
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

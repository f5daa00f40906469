#!/usr/bin/env python3
"""bench/bench_run.py - scenario throughput: `plugcheck run -j 2` against
`-j 1` on a generated 200-scenario suite, in the same run
(docs/performance.md, issue 9 item 6).

usage: bench/bench_run.py PLUGCHECK [-n SCENARIOS] [-r ROUNDS]

Generates, in a temporary directory, a POSIX-sh plugin with a pre_bash
hook and a tool, and one scenario file with N scenarios of three steps
each (a denied and an allowed pre_bash firing, a tool call). Runs the
file with -j 1 and -j 2, interleaved, ROUNDS times each, and prints the
median wall time of each, scenarios per second, and the speed-up.
Nothing asserts on time.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HOOK = """#!/bin/sh
ctx=$(cat)
case "$ctx" in
*'rm -rf /'*) echo '{"allow":false,"reason":"no"}' ;;
*) echo '{"allow":true}' ;;
esac
"""
TOOL = """#!/bin/sh
cat >/dev/null
echo '{"ok":true,"output":"done"}'
"""
MANIFEST = """{
  "name": "bench-run", "version": "1.0.0", "description": "bench",
  "capabilities": ["execute_subprocess", "read_workspace", "receive_tool_arguments", "register_tools"],
  "hooks": { "pre_bash": { "script": "hooks/pre_bash.sh", "pass_args": true } },
  "tools": [ { "name": "t", "description": "t", "kind": "readonly",
    "parameters": { "type": "object", "properties": {} }, "script": "tools/t.sh" } ]
}
"""


def make(dir, n):
    os.makedirs(os.path.join(dir, "hooks"))
    os.makedirs(os.path.join(dir, "tools"))
    for path, text in (("plugin.json", MANIFEST), ("hooks/pre_bash.sh", HOOK),
                       ("tools/t.sh", TOOL)):
        with open(os.path.join(dir, path), "w") as f:
            f.write(text)
        if path.endswith(".sh"):
            os.chmod(os.path.join(dir, path), 0o755)
    lines = ["plugcheck: 1", "scenarios:"]
    for i in range(n):
        lines += [f"  - name: s{i:03d}", "    steps:",
                  "      - fire: pre_bash", '        input: { command: "rm -rf /" }',
                  "        expect: { verdict: deny, reason: no }",
                  "      - fire: pre_bash", '        input: { command: "ls" }',
                  "        expect: { verdict: allow }",
                  "      - fire: tool:t", "        expect: { ok: true, output: done }"]
    path = os.path.join(dir, "bench.plugcheck.yaml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def once(pc, path, jobs):
    t0 = time.monotonic()
    p = subprocess.run([pc, "run", path, "-j", str(jobs)], capture_output=True, text=True)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        raise SystemExit(f"plugcheck run -j {jobs} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugcheck")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-r", type=int, default=5)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-run-")
    try:
        path = make(tmp, a.n)
        t1, t2 = [], []
        for _ in range(a.r):
            t1.append(once(a.plugcheck, path, 1))
            t2.append(once(a.plugcheck, path, 2))
        m1, m2 = statistics.median(t1), statistics.median(t2)
        load = " ".join(open("/proc/loadavg").read().split()[:3])
        print(f"machine: nproc {os.cpu_count()}; load average {load}")
        print(f"scenarios: {a.n} x 3 steps, median of {a.r} interleaved rounds")
        print(f"-j 1  {m1 * 1000:9.1f} ms  {a.n / m1:7.1f} scenarios/s  ({', '.join(f'{x * 1000:.0f}' for x in t1)})")
        print(f"-j 2  {m2 * 1000:9.1f} ms  {a.n / m2:7.1f} scenarios/s  ({', '.join(f'{x * 1000:.0f}' for x in t2)})")
        print(f"speed-up -j 2 / -j 1: {m1 / m2:.2f}x")
        print(f"figure: run {a.n} scenarios -j 1, throughput\t{a.n / m1:.1f}/s\t-\t-\t-")
        print(f"figure: run {a.n} scenarios, -j 2 speed-up over -j 1\t{a.n / m2:.1f}/s\t{a.n / m1:.1f}/s\t{m1 / m2:.2f}\t-")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

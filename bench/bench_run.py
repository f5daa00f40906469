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

Beside it, in the same rounds, the process-spawn floor (bench_floor,
built beside plugcheck): the hook script spawned as many times as the
run started plugin processes (the scripts count themselves with a shell
redirection), in one loop and split over two parallel loops. Two loops
against one is the most any -j 2 can gain on the machine.
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
printf . >>"${0%/*}/../count"
ctx=$(cat)
case "$ctx" in
*'rm -rf /'*) echo '{"allow":false,"reason":"no"}' ;;
*) echo '{"allow":true}' ;;
esac
"""
TOOL = """#!/bin/sh
printf . >>"${0%/*}/../count"
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


def spawned(dir):
    try:
        return os.path.getsize(os.path.join(dir, "count"))
    except FileNotFoundError:
        return 0


def floor(bench_floor, dir, n, streams):
    ctx = os.path.join(dir, "context.json")
    if not os.path.exists(ctx):
        with open(ctx, "w") as f:
            f.write('{"hook":"pre_bash","args":{"command":"ls"}}')
    p = subprocess.run([bench_floor, "-n", str(max(1, n // streams)), "-P", str(streams), "-i", ctx,
                        "-C", dir, "--", "bash", os.path.join(dir, "hooks", "pre_bash.sh")],
                       capture_output=True, text=True, check=True)
    return float(p.stdout) / 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugcheck")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-r", type=int, default=5)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-run-")
    try:
        path = make(tmp, a.n)
        bench_floor = os.path.join(os.path.dirname(os.path.abspath(a.plugcheck)), "bench", "bench_floor")
        before = spawned(tmp)
        once(a.plugcheck, path, 1)  # warm up, and count the processes
        procs = spawned(tmp) - before
        t1, t2, f1, f2 = [], [], [], []
        for _ in range(a.r):
            f1.append(floor(bench_floor, tmp, procs, 1))
            t1.append(once(a.plugcheck, path, 1))
            f2.append(floor(bench_floor, tmp, procs, 2))
            t2.append(once(a.plugcheck, path, 2))
        m1, m2 = statistics.median(t1), statistics.median(t2)
        g1, g2 = statistics.median(f1), statistics.median(f2)
        load = " ".join(open("/proc/loadavg").read().split()[:3])
        print(f"machine: nproc {os.cpu_count()}; load average {load}")
        print(f"scenarios: {a.n} x 3 steps, median of {a.r} interleaved rounds")
        print(f"-j 1  {m1 * 1000:9.1f} ms  {a.n / m1:7.1f} scenarios/s  ({', '.join(f'{x * 1000:.0f}' for x in t1)})")
        print(f"-j 2  {m2 * 1000:9.1f} ms  {a.n / m2:7.1f} scenarios/s  ({', '.join(f'{x * 1000:.0f}' for x in t2)})")
        print(f"speed-up -j 2 / -j 1: {m1 / m2:.2f}x")
        print(f"spawn floor, {procs} spawns of the hook script: 1 loop {g1 * 1000:.1f} ms, "
              f"2 loops {g2 * 1000:.1f} ms, {g1 / g2:.2f}x")
        print(f"-j 1 against the 1-loop floor: {m1 / g1:.2f}x")
        print(f"figure: run {a.n} scenarios -j 1, throughput\t{a.n / m1:.1f}/s\t-\t-\t-")
        print(f"figure: run {a.n} scenarios, -j 2 speed-up over -j 1\t{a.n / m2:.1f}/s\t{a.n / m1:.1f}/s\t{m1 / m2:.2f}\t-")
        print(f"figure: run {a.n} scenarios ({procs} processes) -j 1 vs spawn floor\t{m1:.2f} s\t{g1:.2f} s\t{m1 / g1:.2f}\t-")
        print(f"figure: run {a.n} scenarios, spawn floor 2 loops vs 1 (machine)\t{g2:.2f} s\t{g1:.2f} s\t{g1 / g2:.2f}\t-")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bench_check: wall time of `plugcheck check` against the bare process
runs it makes, in the same run (issue 9 item 5).

Generates plugins with H hooks, T tools and C commands (all trivial
/bin/sh scripts that read stdin, answer, and append one byte to a counter
file with a shell redirection, so no extra process), and runs `plugcheck
check --format json --repeat 1` on each with -j 1 and with -j 2. The
counter says how many plugin processes plugcheck started (one check case
can fire a script more than once).

The baseline is the process-spawn floor, measured in the same run,
interleaved with plugcheck: bench_floor (built beside plugcheck) spawns
the same script through the same interpreter as many times as plugcheck
did, writing a hook context to its stdin, draining its output and
waiting, in one loop (the floor for -j 1) and split over two parallel
loops (the floor for -j 2). The figures, medians of the runs:

  -j 1 against the floor     plugcheck's whole cost per unit of
                             unavoidable process work (issue: <= 1.3)
  -j 2 speed-up over -j 1    (issue: >= 1.7 on 2 cores)
  the floor's own speed-up   two spawn loops against one: the most any
                             -j 2 can get on this machine
  -j 2 against the floor's   plugcheck's share of the difference
  ms per firing at -j 1      flat means linear growth

Also printed, for comparison with older figures: the sum of the case
times the report lists (spawn to verdict, measured by plugcheck).
plugcheck fires at most 32 tools and 32 commands (the rest are one
skipped case), so the 200-point plugin fires fewer processes than its
size suggests: the table shows the processes started.

usage: bench/bench_check.py PLUGCHECK [--runs 5] [--sizes 10,50,200]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HOOKS = ["pre_bash", "pre_write", "pre_read", "pre_tool", "post_tool", "post_bash",
         "post_write", "post_read", "session_start", "turn_end", "turn_start", "pre_compact"]
# ${0%/*}: the script's directory without a dirname process (the host
# runs scripts by absolute path, and so does bench_floor here).
SH = "#!/bin/sh\ncat >/dev/null\nprintf . >>\"${0%/*}/count\"\necho '{\"allow\":true}'\n"
TOOL = "#!/bin/sh\ncat >/dev/null\nprintf . >>\"${0%/*}/count\"\necho '{\"ok\":true,\"output\":\"x\"}'\n"
# What a pre_bash hook gets on stdin, about the size of the host's context.
CONTEXT = json.dumps({"hook": "pre_bash", "session_id": "0" * 36, "cwd": "/tmp/workspace",
                      "args": {"command": "ls -la " + "x" * 200}, "plugin": {"name": "p"}})


def make(root, hooks, tools, cmds):
    d = os.path.join(root, "p-%d-%d-%d" % (hooks, tools, cmds))
    os.makedirs(d)
    m = {"name": os.path.basename(d), "version": "1.0.0", "hooks": {}, "tools": [], "commands": []}
    for i in range(hooks):
        m["hooks"][HOOKS[i % len(HOOKS)]] = {"script": "h.sh"}
    for i in range(tools):
        m["tools"].append({"name": "t%d" % i, "kind": "readonly", "script": "t.sh",
                           "parameters": {"type": "object", "properties": {"q": {"type": "string"}},
                                          "required": ["q"]}})
    for i in range(cmds):
        m["commands"].append({"name": "c%d" % i, "script": "t.sh"})
    for name, body in (("h.sh", SH), ("t.sh", TOOL)):
        with open(os.path.join(d, name), "w") as f:
            f.write(body)
        os.chmod(os.path.join(d, name), 0o755)
    with open(os.path.join(d, "plugin.json"), "w") as f:
        json.dump(m, f)
    return d


def spawned(d):
    try:
        return os.path.getsize(os.path.join(d, "count"))
    except FileNotFoundError:
        return 0


def one(plugcheck, d, jobs):
    """(wall s, sum of case times s, processes started)"""
    before = spawned(d)
    t0 = time.monotonic()
    p = subprocess.run([plugcheck, "check", d, "--format", "json", "--repeat", "1",
                        "-j", str(jobs)], capture_output=True)
    wall = time.monotonic() - t0
    rep = json.loads(p.stdout)
    return wall, sum(c["time_s"] for c in rep["cases"]), spawned(d) - before


def floor(bench_floor, d, ctx, n, streams):
    """Wall s of n spawns of the hook script split over `streams` loops."""
    p = subprocess.run([bench_floor, "-n", str(max(1, n // streams)), "-P", str(streams),
                        "-i", ctx, "-C", d, "--", "bash", os.path.join(d, "h.sh")],
                       capture_output=True, text=True, check=True)
    return float(p.stdout) / 1000.0


def shape(n):
    """n entry points: up to 12 hooks, the rest split between tools and
    commands."""
    hooks = min(12, n // 3)
    tools = (n - hooks + 1) // 2
    return hooks, tools, n - hooks - tools


def main():
    plugcheck = os.path.abspath(sys.argv[1])
    bench_floor = os.path.join(os.path.dirname(plugcheck), "bench", "bench_floor")
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    sizes = [10, 50, 200]
    if "--sizes" in sys.argv:
        sizes = [int(x) for x in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
    if not os.access(bench_floor, os.X_OK):
        sys.exit("bench_check: %s is missing: build the preset's bench targets first" % bench_floor)
    root = tempfile.mkdtemp(prefix="bench-check-")
    ctx = os.path.join(root, "context.json")
    with open(ctx, "w") as f:
        f.write(CONTEXT)
    print("machine: nproc %d, %s; load average %s" % (os.cpu_count(), os.uname().release,
                                                     " ".join(open("/proc/loadavg").read().split()[:3])))
    print("median of %d interleaved runs; floor = bench_floor spawning the hook script as often" % runs)
    print("as plugcheck did, in 1 loop (for -j 1) and in 2 parallel loops (for -j 2)")
    print("%-6s %-9s %6s %7s %7s %6s %7s %7s %6s %6s %6s %7s %7s" % (
        "points", "h/t/c", "procs", "floor1", "-j1 s", "/floor", "floor2", "-j2 s", "-j1/-j2",
        "f1/f2", "eff", "ms/proc", "cases s"))
    figs = []
    try:
        for n in sizes:
            h, t, c = shape(n)
            d = make(root, h, t, c)
            r1, r2, f1, f2 = [], [], [], []
            procs = one(plugcheck, d, 1)[2]  # warm the page cache, count
            for _ in range(runs):
                f1.append(floor(bench_floor, d, ctx, procs, 1))
                r1.append(one(plugcheck, d, 1))
                f2.append(floor(bench_floor, d, ctx, procs, 2))
                r2.append(one(plugcheck, d, 2))
            if any(r[2] != procs for r in r1 + r2):
                print("note: the process count varied between runs: %s" %
                      ", ".join(str(r[2]) for r in r1 + r2))
            w1 = statistics.median(r[0] for r in r1)
            w2 = statistics.median(r[0] for r in r2)
            m1, m2 = statistics.median(f1), statistics.median(f2)
            cases = statistics.median(r[1] for r in r1)
            eff = (w1 / w2) / (m1 / m2)
            print("%-6d %-9s %6d %7.3f %7.3f %6.2f %7.3f %7.3f %6.2f %6.2f %6.2f %7.2f %7.3f" % (
                n, "%d/%d/%d" % (h, t, c), procs, m1, w1, w1 / m1, m2, w2, w1 / w2, m1 / m2, eff,
                w1 * 1000 / procs, cases))
            figs.append("figure: check %d points (%d processes) -j 1 vs spawn floor\t%.2f s\t%.2f s\t%.2f\t<= 1.3"
                        % (n, procs, w1, m1, w1 / m1))
            figs.append("figure: check %d points, -j 2 speed-up over -j 1\t%.2f s\t%.2f s\t%.2f\t>= 1.7"
                        % (n, w2, w1, w1 / w2))
            figs.append("figure: check %d points, spawn floor 2 loops vs 1 (machine)\t%.2f s\t%.2f s\t%.2f\t-"
                        % (n, m2, m1, m1 / m2))
            figs.append("figure: check %d points, -j 2 speed-up / floor's\t%.2f\t%.2f\t%.2f\t-"
                        % (n, w1 / w2, m1 / m2, eff))
            figs.append("figure: check %d points -j 1, per process\t%.1f ms\t-\t-\tflat"
                        % (n, w1 * 1000 / procs))
        for f in figs:
            print(f)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

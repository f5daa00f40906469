#!/usr/bin/env python3
"""bench_check: wall time of `plugcheck check` against the sum of the bare
process runs it makes, in the same run (issue: check benchmark).

Generates plugins with H hooks, T tools and C commands (all trivial
/bin/sh scripts that read stdin and answer), runs `plugcheck check
--format json --repeat R` on each, and compares plugcheck's wall time with
the sum of the per-firing durations the report lists (the time the plugin
processes themselves took, spawn to verdict). The ratio is plugcheck's
total cost per unit of unavoidable process time. No deliberate timeout
probes are involved: every script answers at once.

For 10, 50 and 200 entry points (hooks, tools and commands), runs
`check --repeat 1` with -j 1 and with -j 2, interleaved, and prints the
medians: -j 1 wall time against the bare sum, wall time per firing (flat
means linear growth), and the -j 1 / -j 2 speed-up. plugcheck fires at
most 32 tools and 32 commands (the rest are one skipped case), so the
200-point plugin fires fewer firings than its size suggests: the table
shows the firings made.

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
SH = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"
TOOL = "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":true,\"output\":\"x\"}'\n"


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


def one(plugcheck, d, repeat, jobs):
    t0 = time.monotonic()
    p = subprocess.run([plugcheck, "check", d, "--format", "json", "--repeat", str(repeat),
                        "-j", str(jobs)], capture_output=True)
    wall = time.monotonic() - t0
    rep = json.loads(p.stdout)
    bare = sum(c["time_s"] for c in rep["cases"])
    return wall, bare, len([c for c in rep["cases"] if c["time_s"] > 0])


def shape(n):
    """n entry points: up to 12 hooks, the rest split between tools and
    commands."""
    hooks = min(12, n // 3)
    tools = (n - hooks + 1) // 2
    return hooks, tools, n - hooks - tools


def main():
    plugcheck = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    sizes = [10, 50, 200]
    if "--sizes" in sys.argv:
        sizes = [int(x) for x in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
    root = tempfile.mkdtemp(prefix="bench-check-")
    print("machine: nproc %d, %s; load average %s" % (os.cpu_count(), os.uname().release,
                                                     " ".join(open("/proc/loadavg").read().split()[:3])))
    print("median of %d interleaved runs; bare = sum of the firings' spawn-to-verdict times" % runs)
    print("%-6s %-9s %7s %8s %8s %8s %9s %8s %8s" % ("points", "h/t/c", "firings", "bare s", "-j1 s",
                                                     "-j1/bare", "ms/firing", "-j2 s", "-j1/-j2"))
    figs = []
    try:
        for n in sizes:
            h, t, c = shape(n)
            d = make(root, h, t, c)
            r1, r2 = [], []
            for _ in range(runs):
                r1.append(one(plugcheck, d, 1, 1))
                r2.append(one(plugcheck, d, 1, 2))
            w1 = statistics.median(r[0] for r in r1)
            w2 = statistics.median(r[0] for r in r2)
            bare = statistics.median(r[1] for r in r1)
            fired = r1[0][2]
            print("%-6d %-9s %7d %8.3f %8.3f %8.2f %9.2f %8.3f %8.2f" % (
                n, "%d/%d/%d" % (h, t, c), fired, bare, w1, w1 / bare, w1 * 1000 / fired, w2, w1 / w2))
            figs.append("figure: check %d points (%d firings) -j 1 vs bare sum\t%.2f s\t%.2f s\t%.2f\t<= 1.3"
                        % (n, fired, w1, bare, w1 / bare))
            figs.append("figure: check %d points, -j 2 speed-up over -j 1\t%.2f s\t%.2f s\t%.2f\t>= 1.7"
                        % (n, w2, w1, w1 / w2))
            figs.append("figure: check %d points -j 1, per firing\t%.1f ms\t-\t-\tflat"
                        % (n, w1 * 1000 / fired))
        for f in figs:
            print(f)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

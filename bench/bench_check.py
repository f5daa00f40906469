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

usage: bench/bench_check.py PLUGCHECK [--runs 5]
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


def one(plugcheck, d, repeat):
    t0 = time.monotonic()
    p = subprocess.run([plugcheck, "check", d, "--format", "json", "--repeat", str(repeat)],
                       capture_output=True)
    wall = time.monotonic() - t0
    rep = json.loads(p.stdout)
    bare = sum(c["time_s"] for c in rep["cases"])
    return wall, bare, len([c for c in rep["cases"] if c["time_s"] > 0])


def main():
    plugcheck = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    root = tempfile.mkdtemp(prefix="bench-check-")
    shapes = [(5, 3, 1), (10, 6, 2), (12, 12, 6), (12, 24, 12)]
    print("machine: nproc %d, %s" % (os.cpu_count(), os.uname().release))
    print("%-12s %8s %12s %12s %8s" % ("hooks/tools/cmds", "firings", "wall s", "bare sum s", "ratio"))
    try:
        for h, t, c in shapes:
            d = make(root, h, t, c)
            res = [one(plugcheck, d, 1) for _ in range(runs)]
            wall = statistics.median(r[0] for r in res)
            bare = statistics.median(r[1] for r in res)
            print("%-16s %8d %12.3f %12.3f %8.2f" % ("%d/%d/%d" % (h, t, c), res[0][2], wall, bare, wall / bare))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

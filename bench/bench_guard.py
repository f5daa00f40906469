#!/usr/bin/env python3
"""bench_guard: what the guard search (`plugcheck guard`, docs/guard.md)
costs per guard, against the same number of bare hook runs measured in the
same run, and how it grows with the number of seeds (issue 16). Run by
hand; nothing here is a timed test.

For each guard (the naive sh guard, the regex Python guard and the robust
guard of examples/secret-guard) it runs `plugcheck guard pre_bash DIR
--format json` with a budget large enough for every rewrite, and then runs
the hook script itself, without plugcheck, as many times as the search
made hook exchanges: the way the host starts it (bash for .sh, python3
for .py, R5.2), with a hook context on stdin and the host's cleared
environment, output drained. Runs alternate (search, bare, search, ...);
the figures are medians:

  inputs, exchanges      what the search fired (an input may cost two)
  search s, bare s       wall time of the search, of the bare runs
  ratio                  search / bare: plugcheck's whole cost per unit of
                         unavoidable hook work (judging, rewriting, the
                         host's bookkeeping, the sweep after every run)

Then, for the robust guard, --seeds files of 1, 2, 4, 8 and 16 seeds it
denies (rm -rf of top-level directories): inputs and wall time by seed
count, and each against one seed. Linear growth keeps ms per input flat.

Use the system python3 (a version manager's shim adds its own start-up
to every hook run): PATH=/usr/bin:/bin bench/bench_guard.py build/release/plugcheck

usage: bench/bench_guard.py PLUGCHECK [--runs 3] [--seeds 1,2,4,8,16]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GUARDS = [("naive-sh", os.path.join(ROOT, "tests", "guards", "naive-sh")),
          ("regex-py", os.path.join(ROOT, "tests", "guards", "regex-py")),
          ("robust-py", os.path.join(ROOT, "examples", "secret-guard"))]
TOP = ["/", "/usr", "/etc", "/var", "/home", "/boot", "/opt", "/srv", "/root", "/lib",
       "/bin", "/sbin", "/mnt", "/media", "/tmp", "/dev", "/proc", "/sys"]


def search(plugcheck, d, *extra):
    t0 = time.perf_counter()
    p = subprocess.run([plugcheck, "guard", "pre_bash", d, "--format", "json",
                        "--budget", "100000", "--no-turns", *extra],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out = json.loads(p.stdout)
    if out["incomplete"] or out["stopped"]:
        sys.exit("bench_guard: the search stopped: %s" % out["stopped"])
    return out, wall


def hook_argv(d):
    m = json.load(open(os.path.join(d, "plugin.json")))
    script = os.path.realpath(os.path.join(d, m["hooks"]["pre_bash"]["script"]))
    ext = script.rsplit(".", 1)[-1]
    return ["bash", script] if ext in ("sh", "bash") else \
        ["python3", script] if ext == "py" else [script]


def bare(d, n, tmp):
    """n runs of the hook as the host starts it, in one loop; seconds."""
    argv = hook_argv(d)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "TMPDIR": tmp}
    ctx = json.dumps({"args": {"command": "rm -r -f /"}, "hook": "pre_bash",
                      "session_id": "", "timestamp": 1, "tool": "bash",
                      "workspace": tmp}).encode()
    t0 = time.perf_counter()
    for _ in range(n):
        p = subprocess.run(argv, input=ctx, env=env, cwd=tmp, capture_output=True)
        if p.returncode:
            sys.exit("bench_guard: the bare hook failed: %r" % p.stderr)
    return time.perf_counter() - t0


def per_guard(plugcheck, runs, tmp):
    print("%-10s %7s %9s %9s %8s %6s" % ("guard", "inputs", "exchanges", "search s",
                                         "bare s", "ratio"))
    for name, d in GUARDS:
        walls, bares, out = [], [], None
        for _ in range(runs):
            out, w = search(plugcheck, d)
            walls.append(w)
            bares.append(bare(d, out["exchanges"], tmp))
        w, b = statistics.median(walls), statistics.median(bares)
        print("%-10s %7d %9d %9.2f %8.2f %6.2f" % (name, out["inputs"], out["exchanges"],
                                                   w, b, w / b))


def growth(plugcheck, runs, sizes, tmp):
    d = GUARDS[2][1]
    print("\nseeds  inputs  search s  x one seed  ms/input")
    base = None
    for k in sizes:
        f = os.path.join(tmp, "seeds-%d" % k)
        with open(f, "w") as s:
            s.write("".join("rm -rf %s\n" % t for t in TOP[:k]))
        walls, out = [], None
        for _ in range(runs):
            out, w = search(plugcheck, d, "--seeds", f)
            walls.append(w)
        w = statistics.median(walls)
        base = base or w
        print("%5d  %6d  %8.2f  %10.2f  %8.1f" % (k, out["inputs"], w, w / base,
                                                 1000.0 * w / out["inputs"]))


def main():
    a = sys.argv[1:]
    if not a or a[0] in ("-h", "--help"):
        print(__doc__)
        return
    plugcheck, runs, sizes = os.path.abspath(a[0]), 3, [1, 2, 4, 8, 16]
    if "--runs" in a:
        runs = int(a[a.index("--runs") + 1])
    if "--seeds" in a:
        sizes = [int(x) for x in a[a.index("--seeds") + 1].split(",")]
    if max(sizes) > len(TOP):
        sys.exit("bench_guard: at most %d seeds" % len(TOP))
    tmp = tempfile.mkdtemp(prefix="bench-guard-")
    try:
        per_guard(plugcheck, runs, tmp)
        growth(plugcheck, runs, sizes, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

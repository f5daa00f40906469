#!/usr/bin/env python3
"""bench/report.py - run every benchmark of bench/ and print their own
tables, then one table of all figures (issue 9). Called by bench/run after
it built the release preset; every figure is a ratio against a baseline
measured in the same run, with the load average before and after each
benchmark beside it.

usage: bench/report.py BUILD_DIR [--quick | --light]
  --quick: fewer firings and runs (a smoke run; the figures are noisy)
  --light: bench_fire with 200 firings (20 of the Python hook) and
           bench_turn with 3 turns, still 5 runs each; everything else as
           by default (for a loaded machine, where a spawn takes 20 ms+)
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
    u = os.uname()
    return "nproc %d, %s, %s RAM, %s %s" % (os.cpu_count(), model, mem, u.sysname, u.release)


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        sys.stdout.write(__doc__[__doc__.index("usage:"):])
        sys.exit(0)
    if not args or args[0].startswith("-") or any(a not in ("--quick", "--light") for a in args[1:]):
        sys.stderr.write("usage: bench/report.py BUILD_DIR [--quick | --light]\n")
        sys.exit(2)
    build = args[0]
    quick = "--quick" in sys.argv
    light = "--light" in sys.argv
    pc = os.path.join(build, "plugcheck")
    b = os.path.join(build, "bench")
    benches = [
        ("fire", [os.path.join(b, "bench_fire")] + (["-n", "100", "-p", "10", "-r", "3"] if quick else
                                                   ["-n", "200", "-p", "20"] if light else [])),
        ("timeout", [os.path.join(b, "bench_timeout")] + (["-n", "20"] if quick else [])),
        ("memory", [sys.executable, os.path.join(HERE, "bench_mem.py"), pc] + (["-r", "3"] if quick else [])),
        ("check", [sys.executable, os.path.join(HERE, "bench_check.py"), pc] + (["--runs", "1"] if quick else [])),
        ("run", [sys.executable, os.path.join(HERE, "bench_run.py"), pc] + (["-n", "40", "-r", "1"] if quick else [])),
        ("turn", [os.path.join(b, "bench_turn")] + (["-n", "3", "-r", "3"] if quick else
                                                   ["-n", "3"] if light else [])),
    ]
    rows = []
    print("machine: %s" % machine())
    for name, argv in benches:
        l0, t0 = load(), time.monotonic()
        print("\n== %s: %s" % (name, " ".join(argv)), flush=True)
        p = subprocess.run(argv, stdout=subprocess.PIPE, text=True)
        l1 = load()
        for line in p.stdout.splitlines():
            if line.startswith("figure: "):
                rows.append(line[8:].split("\t") + ["%s-%s" % (l0, l1)])
            else:
                print(line)
        print("(%.0f s, load average %s -> %s%s)" % (time.monotonic() - t0, l0, l1,
                                                   "" if p.returncode == 0 else ", FAILED %d" % p.returncode),
              flush=True)
    print("\nAll figures (%s, load average = 1-minute load before-after each benchmark)" %
          time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    w = max(len(r[0]) for r in rows) if rows else 10
    print("%-*s %11s %11s %7s  %-20s %s" % (w, "figure", "measured", "baseline", "ratio", "target", "load"))
    for r in rows:
        print("%-*s %11s %11s %7s  %-20s %s" % (w, r[0], r[1], r[2], r[3], r[4], r[5]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bench/pyharness.py - what a scripted Python test harness pays to fire a
hook: N times subprocess.run(argv, input=stdin, env=env, capture_output=True),
checking the answer. Run by bench_fire, which writes SPEC (a JSON object
with argv, env as NAME=VALUE strings, and stdin) so the harness replays
exactly what the reference host sent. Prints the loop's milliseconds (the
interpreter's own start is not counted).

usage: bench/pyharness.py SPEC N
"""
import json
import subprocess
import sys
import time


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    n = int(sys.argv[2])
    argv = spec["argv"]
    env = dict(e.split("=", 1) for e in spec["env"])
    data = spec["stdin"].encode()
    t0 = time.perf_counter()
    for _ in range(n):
        p = subprocess.run(argv, input=data, env=env, capture_output=True)
        if p.returncode != 0 or p.stdout != b'{"allow":true}\n':
            sys.exit("pyharness: the hook did not allow: %r" % p.stdout)
    print("%.3f" % ((time.perf_counter() - t0) * 1000.0))


if __name__ == "__main__":
    main()

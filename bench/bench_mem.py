#!/usr/bin/env python3
"""bench/bench_mem.py - peak RSS of `plugcheck fire` against `plugcheck
--version`, in the same run (issue 9, item 4).

Two plugins, both of whose processes stay far smaller than plugcheck:
  flood  - a pre_bash hook that writes 1 GiB to stdout (`head -c 1G
           /dev/zero`); the host stops reading at the 1 MiB cap and kills it.
  slow   - a pre_bash hook with pass_args that reads its ~1 MiB stdin
           (the context of `--args-file` holding a 1,000,000-byte command)
           64 KiB at a time, sleeping 20 ms between reads, then allows.
Each `plugcheck fire` and each `plugcheck --version` runs as a child of
/usr/bin/time; its peak RSS is the ru_maxrss that wait4() reports for it
(the larger of plugcheck's own and that of any process it reaped, which
is why the plugin processes are kept small: head, sh, sleep and dd). Runs
are interleaved; the table shows medians in MiB and the difference.

usage: bench/bench_mem.py PLUGCHECK [-r RUNS]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

FLOOD = "#!/bin/sh\nexec head -c 1073741824 /dev/zero\n"
SLOW = """#!/bin/sh
i=0
while [ $i -lt 20 ]; do
	dd bs=65536 count=1 iflag=fullblock of=/dev/null 2>/dev/null
	sleep 0.02
	i=$((i + 1))
done
cat >/dev/null
echo '{"allow":true}'
"""


def plugin(root, name, body, pass_args):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "hooks"))
    hook = {"script": "hooks/h", "timeout_ms": 60000}
    if pass_args:
        hook["pass_args"] = True
    with open(os.path.join(d, "plugin.json"), "w") as f:
        json.dump({"name": name, "version": "1.0.0", "hooks": {"pre_bash": hook}}, f)
    with open(os.path.join(d, "hooks", "h"), "w") as f:
        f.write(body)
    os.chmod(os.path.join(d, "hooks", "h"), 0o755)
    return d


def peak(argv, cwd):
    """(peak RSS in KiB, exit status, seconds) of one run of argv, as
    /usr/bin/time reports it: starting plugcheck from Python directly would
    count Python's own pages, which the child holds until it execs."""
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "--"] + argv, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    kib = int(p.stderr.strip().splitlines()[-1])
    return kib, p.returncode, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugcheck")
    ap.add_argument("-r", type=int, default=5)
    a = ap.parse_args()
    pc = os.path.abspath(a.plugcheck)
    root = tempfile.mkdtemp(prefix="bench-mem-")
    try:
        flood = plugin(root, "flood", FLOOD, False)
        slow = plugin(root, "slow", SLOW, True)
        args = os.path.join(root, "args.json")
        with open(args, "w") as f:
            json.dump({"command": "x" * 1000000}, f)
        runs = {"--version": [], "flood": [], "slow": []}
        secs = {"flood": [], "slow": []}
        for _ in range(a.r):
            kib, code, _ = peak([pc, "--version"], root)
            runs["--version"].append(kib)
            kib, code, t = peak([pc, "fire", "pre_bash", flood, "--workspace", root], root)
            if code != 1:
                raise SystemExit("flood: plugcheck fire exited %d, expected 1 (a denial)" % code)
            runs["flood"].append(kib)
            secs["flood"].append(t)
            kib, code, t = peak([pc, "fire", "pre_bash", slow, "--workspace", root,
                                 "--args-file", args], root)
            if code != 0:
                raise SystemExit("slow: plugcheck fire exited %d, expected 0" % code)
            runs["slow"].append(kib)
            secs["slow"].append(t)
        base = statistics.median(runs["--version"]) / 1024
        figs = []
        print("peak RSS (/usr/bin/time %%M), median of %d runs, MiB" % a.r)
        print("%-34s %9s %9s %8s %8s" % ("run", "peak MiB", "+MiB", "ratio", "wall s"))
        print("%-34s %9.2f %9s %8s %8s" % ("plugcheck --version", base, "", "", ""))
        for k, label in (("flood", "fire: hook writes 1 GiB to stdout"),
                         ("slow", "fire: hook reads 1 MiB slowly")):
            m = statistics.median(runs[k]) / 1024
            print("%-34s %9.2f %9.2f %8.2f %8.2f" % (label, m, m - base, m / base,
                                                     statistics.median(secs[k])))
            figs.append("figure: peak RSS, %s, vs --version\t%.2f MiB\t%.2f MiB\t%.2f\t<= +8 MiB (+%.2f)"
                        % (label[6:], m, base, m / base, m - base))
        for f in figs:
            print(f)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Shared machinery of the hostile-plugin tests (tests/hostile/README.md).

Each hostile plugin is copied into the test's temporary directory (some
delete or rewrite themselves) and checked with `plugcheck check` under a
private, empty TMPDIR. Every run must:
  - finish within bound(manifest): the sum, over every firing the suite can
    make, of the host's stdin deadline plus the wait timeout, times 5 (CI
    has 2 cores and runs under ASan), plus 20 s of grace and 4 s per MiB of
    manifest (loading is not a firing);
  - report the specific finding id;
  - leave no process: none whose environment carries the private TMPDIR
    (the plugin's TMPDIR lies inside it) or whose argv names the copy, and
    no process group seen during the run may still exist;
  - leave the private TMPDIR empty;
  - write a complete report file (--output, JSON) that parses and is not
    marked incomplete.
"""
import json
import os
import shutil
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "hostile")

# Findings the suite can fire per entry point, worst case (pc_suite_fire.c,
# pc_suite_provider.c): hooks 1 + --repeat 1 + 2 probes with pass_args,
# tools 5 (two valid, three invalid), commands 2, memory 10, OAuth 4.
FIRINGS = {"hook": 4, "tool": 5, "command": 2, "memory": 10, "oauth": 4}
HOOK_POINTS = {"pre_bash", "pre_write", "pre_read", "post_bash", "post_write",
               "post_read", "session_start", "session_stop", "pre_compact",
               "pre_turn", "pre_input", "pre_agent_start", "pre_context",
               "turn_start", "turn_end", "session_shutdown", "pre_tool", "post_tool"}
MAX_FIRED = 32  # PC_SUITE_MAX_FIRED
OAUTH_CAP_MS = 15000  # PC_SUITE_OAUTH_CAP_MS

# The worst wall time seen against its bound, for the closing figures.
WORST = {"ratio": 0.0, "name": "", "wall": 0.0, "bound": 0.0}


def firing_ms(timeout_ms):
    """One firing: the stdin deadline max(timeout, 1000) plus the wait."""
    return max(timeout_ms, 1000) + timeout_ms


def bound(manifest, manifest_bytes=0):
    """Seconds within which `plugcheck check --repeat 1` must finish."""
    ms = 0
    if isinstance(manifest, dict):
        hooks = manifest.get("hooks") or {}
        for k, e in hooks.items():
            if isinstance(e, dict) and k in HOOK_POINTS:
                ms += FIRINGS["hook"] * firing_ms(e.get("timeout_ms", 30000))
        for t in (manifest.get("tools") or [])[:MAX_FIRED]:
            ms += FIRINGS["tool"] * firing_ms(t.get("timeout_ms", 30000))
        for c in (manifest.get("commands") or [])[:MAX_FIRED]:
            ms += FIRINGS["command"] * firing_ms(c.get("timeout_ms", 30000))
        m = manifest.get("memory_provider")
        if m:
            ms += FIRINGS["memory"] * firing_ms(m.get("timeout_ms", 30000))
        o = manifest.get("oauth")
        if o:
            login = min(o.get("login_timeout_ms", 120000), OAUTH_CAP_MS)
            ms += 2 * firing_ms(login)
            ms += 2 * firing_ms(o.get("token_timeout_ms", 30000))
    return 5 * ms / 1000.0 + 20.0 + 4.0 * manifest_bytes / (1 << 20)


def mark_of(ctx, name):
    """The marker directory name for plugin `name` in this test: unique per
    test (ctx.tmp is), so a concurrent test's clean-up, which kills every
    live process whose argv contains its marker, never matches ours."""
    return "hostile-mark-%s-%s" % (os.path.basename(ctx.tmp), name)


def copy(ctx, name):
    """A fresh copy of tests/hostile/NAME; the path carries a marker."""
    dst = os.path.join(ctx.tmp, mark_of(ctx, name), name)
    shutil.copytree(os.path.join(CORPUS, name), dst, symlinks=True)
    return dst


def manifest_of(d):
    p = os.path.join(d, "plugin.json")
    try:
        if not os.path.isfile(p):
            return None, 0
        with open(p, "rb") as f:
            raw = f.read()
        return json.loads(raw), len(raw)
    except (ValueError, UnicodeDecodeError, OSError, RecursionError):
        return None, os.path.getsize(p) if os.path.isfile(p) else 0


def marked(tmpd, mark):
    """pid -> pgid of live processes that belong to this run."""
    found = {}
    key = ("TMPDIR=" + tmpd).encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[0] == b"Z":
            continue
        if any(e.startswith(key) for e in env.split(b"\0")) or mark.encode() in cmd:
            found[int(pid)] = int(fields[2])
    return found


class Watch:
    """Samples the run's processes while plugcheck runs (for pgids)."""

    def __init__(self, tmpd, mark, exclude):
        self.tmpd, self.mark, self.exclude = tmpd, mark, exclude
        self.own = os.getpgrp()
        self.pgids = set()
        self.done = threading.Event()
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()

    def loop(self):
        while not self.done.wait(0.02):
            for pid, pgid in marked(self.tmpd, self.mark).items():
                if pid not in self.exclude() and pgid != self.own:
                    self.pgids.add(pgid)

    def stop(self):
        self.done.set()
        self.t.join()


def assert_clean(tmpd, mark, pgids, what):
    left = marked(tmpd, mark)
    if left:
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        raise AssertionError(f"{what}: processes left behind: {left}")
    for g in pgids:
        try:
            os.killpg(g, 0)
        except ProcessLookupError:
            continue
        except PermissionError:
            pass
        raise AssertionError(f"{what}: process group {g} still exists")
    files = os.listdir(tmpd)
    if files:
        raise AssertionError(f"{what}: temporary files left in TMPDIR: {files}")


def run_check(ctx, d, expect, absent=(), extra=(), loaded=True):
    """Check plugin dir `d` and assert everything in the module docstring.
    Returns the parsed report."""
    name = os.path.basename(d)
    mark = os.path.basename(os.path.dirname(d))
    tmpd = os.path.join(ctx.tmp, "tmp-" + name)
    os.mkdir(tmpd)
    man, size = manifest_of(d)
    limit = bound(man, size)
    report = os.path.join(ctx.tmp, name + ".report.json")
    env = dict(os.environ)
    env["TMPDIR"] = tmpd
    env.pop("NO_COLOR", None)
    t0 = time.monotonic()
    p = subprocess.Popen([ctx.plugcheck, "check", d, "--repeat", "1", "--format", "json",
                          "--output", report, *extra], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=ctx.tmp)
    w = Watch(tmpd, mark, lambda: {p.pid})
    try:
        out, err = p.communicate(timeout=limit + 30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError(f"{name}: plugcheck still running after {limit + 30:.0f} s")
    finally:
        w.stop()
    wall = time.monotonic() - t0
    if wall / limit > WORST["ratio"]:
        WORST.update(ratio=wall / limit, name=name, wall=wall, bound=limit)
    assert wall < limit, f"{name}: took {wall:.1f} s, bound {limit:.1f} s"
    assert p.returncode in (0, 1, 3), (name, p.returncode, err.decode(errors="replace")[-2000:])
    with open(report, "rb") as f:
        r = json.loads(f.read())
    assert r.get("incomplete") is not True, f"{name}: report marked incomplete"
    assert "summary" in r and "cases" in r, f"{name}: report lacks summary/cases"
    assert r["loaded"] is loaded, (name, r["loaded"], r.get("host_error"))
    ids = {f["id"] for f in r["findings"]}
    for e in expect:
        assert e in ids, f"{name}: expected {e}, got {sorted(ids)}"
    for a in absent:
        assert a not in ids, f"{name}: unexpected {a} in {sorted(ids)}"
    assert_clean(tmpd, mark, w.pgids, name)
    os.rmdir(tmpd)
    return r

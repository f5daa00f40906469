"""plugcheck check -j N: entry points fired in N worker processes give the
report -j 1 gives - the same cases and findings in the same order - and
leave no process behind (issue 9)."""
import json
import os
import re

from e2e import eq

ALLOW = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"
NO_ALLOW = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":\"yes\"}'\n"  # PC-HOOK-012
FAILS = "#!/bin/sh\ncat >/dev/null\nexit 3\n"                          # PC-TOOL-010
TOOL = "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":true,\"output\":\"x\"}'\n"
LEAVES = "#!/bin/sh\ncat >/dev/null\nsleep 300 >/dev/null 2>&1 &\necho '{\"ok\":true,\"output\":\"x\"}'\n"  # PC-PROC-001


# What a plugin that SIGKILLs its parent (the worker, as the host is its
# real parent) gets: a finding of its unit, not a lost report (issue 21).
def killed(unit, firing):
    return ("PC-PROC-004: plugcheck's worker, the plugin's parent as the host is, was killed "
            "without a word (SIGKILL, as `kill -9 $PPID` sends, or a crash) while plugcheck "
            "fired '%s': the real host would die; the rest of %s did not run" % (firing, unit))


def plugin(ctx, name, ntools=3):
    tool = lambda i, script: {"name": "t%d" % i, "description": "t", "kind": "readonly",
                              "script": script,
                              "parameters": {"type": "object", "properties": {"q": {"type": "string"}},
                                             "required": ["q"]}}
    m = {"name": name, "version": "1.0.0",
         "hooks": {"pre_bash": {"script": "allow.sh", "pass_args": True},
                   "pre_write": {"script": "deny.sh"},
                   "post_tool": {"script": "allow.sh"},
                   "session_start": {"script": "allow.sh"}},
         "tools": [tool(0, "fails.sh"), tool(1, "leaves.sh")] +
                  [tool(i, "tool.sh") for i in range(2, ntools)],
         "commands": [{"name": "c0", "description": "c", "script": "tool.sh"},
                      {"name": "c1", "description": "c", "script": "fails.sh"}]}
    return ctx.plugin(name, m, {"allow.sh": ALLOW, "deny.sh": NO_ALLOW, "fails.sh": FAILS,
                                "tool.sh": TOOL, "leaves.sh": LEAVES})


def norm(out):
    """The report without what differs between any two runs: times,
    timestamps and the temporary directories."""
    out.pop("duration_s", None)
    for c in out["cases"]:
        c.pop("time_s", None)
    text = json.dumps(out, indent=1, sort_keys=True)
    # each worker has its own directories: TMP/workers/w<pid>
    text = re.sub(r"/tmp/plugcheck-check-[A-Za-z0-9]+(/workers/w\d+)?", "TMP", text)
    text = re.sub(r'timestamp\\":\d+', 'timestamp\\":N', text)
    text = re.sub(r"after \d+ ms", "after N ms", text)
    return re.sub(r", \d+ ms, ", ", N ms, ", text)


def check(ctx, d, *extra):
    # --repeat 1 with a 10 minute timeout: no latency finding on a loaded machine
    return ctx.json("check", d, "--repeat", "1", *extra, timeout=600)


def test_jobs_2_gives_the_report_of_jobs_1(ctx):
    d = plugin(ctx, "jobs")
    code1, one = check(ctx, d, "-j", "1")
    code2, two = check(ctx, d, "-j", "2")
    code3, three = check(ctx, d, "--jobs", "3")
    eq(code1, 1)
    eq((code2, code3), (code1, code1))
    ids = [f["id"] for f in one["findings"] if f["severity"] != "note"]
    for want in ("PC-HOOK-012", "PC-TOOL-010", "PC-TOOL-011", "PC-PROC-001", "PC-CMD-010"):
        assert want in ids, ids
    eq(norm(two), norm(one))
    eq(norm(three), norm(one))


def test_jobs_past_the_fired_limit_keeps_the_skipped_case(ctx):
    # 34 tools with the plainest schema: few firings each, 2 past the limit
    t = {"description": "t", "kind": "readonly", "script": "tool.sh",
         "parameters": {"type": "object", "properties": {}}}
    d = ctx.plugin("many", {"name": "many", "version": "1.0.0",
                            "tools": [dict(t, name="t%02d" % i) for i in range(34)]},
                   {"tool.sh": TOOL})
    code1, one = check(ctx, d, "-j", "1")
    code2, two = check(ctx, d, "-j", "2")
    eq(code2, code1)
    skipped = [c["name"] for c in two["cases"] if c["status"] == "skip"]
    eq(skipped, ["2 more tools not fired"])
    eq(norm(two), norm(one))


def test_jobs_must_be_a_small_number(ctx):
    d = plugin(ctx, "bad")
    for bad in ("0", "65", "x", ""):
        code, stdout, stderr = ctx.run("check", d, "-j", bad)
        eq(code, 2, bad)
        eq(stderr, "plugcheck check: --jobs: invalid value '%s' (expected a whole number 1..64)\n"
                   "Run `plugcheck check --help` for usage.\n" % bad)
        eq(stdout, "")


def marked(marks):
    """Pids of processes whose command line is `sleep MARK`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if any(cmd == b"sleep\x00%d\x00" % m for m in marks):
            found.append(pid)
    return found


def interrupt(ctx, sig, mark):
    import signal  # noqa: F401
    import subprocess
    import time
    # Two slow hooks, each leaving an escapee in a session of its own: the
    # workers are killed mid-firing, so plugcheck itself must kill those.
    body = ("#!/bin/sh\ncat >/dev/null\nsetsid sleep %d </dev/null >/dev/null 2>&1 &\n"
            "exec sleep %d\n" % (mark + 1, mark))
    d = ctx.plugin("int%d" % mark, {"name": "int%d" % mark, "version": "1.0.0",
                                   "hooks": {"pre_bash": {"script": "s.sh", "timeout_ms": 600000},
                                             "pre_write": {"script": "s.sh", "timeout_ms": 600000}}},
                   {"s.sh": body})
    tmpd = os.path.join(ctx.tmp, "tmp%d" % mark)
    os.mkdir(tmpd)
    p = subprocess.Popen([ctx.plugcheck, "check", d, "-j", "2", "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "TMPDIR": tmpd})
    deadline = time.monotonic() + 120  # both firings under way; generous on a loaded machine
    while len(marked([mark, mark + 1])) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    eq(len(marked([mark, mark + 1])), 4)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    eq(p.returncode, 70, err)
    eq(json.loads(out)["incomplete"], True)
    eq(marked([mark, mark + 1]), [])
    # The killed workers' HOME/workspace/tmp are gone too (a fresh-user
    # trial found plugcheck-check-*/{workspace,tmp,home} left, 4 of 4 runs).
    eq(os.listdir(tmpd), [])


def test_sigint_with_jobs_leaves_nothing(ctx):
    import signal
    interrupt(ctx, signal.SIGINT, 4721)


def test_sigterm_with_jobs_leaves_nothing(ctx):
    import signal
    interrupt(ctx, signal.SIGTERM, 4731)


def test_python_is_probed_once_per_process_and_worker(ctx):
    # R5.2: the real host runs `python3 --version` once per process; check
    # starts a host per firing, and must not probe per firing (issue 9).
    # And a fork per unit cost a fifth of a trivial unit on a 2-vCPU VM and
    # made -j 2 slower than -j 1: N workers now run every unit, so the
    # probe runs once per worker: 4 units give 1 probe with -j 1, 2 with
    # -j 2, 3 with -j 3 (a fork per unit gave 4 for each -j above 1).
    import shutil
    fake = os.path.join(ctx.tmp, "fakebin")
    log = os.path.join(ctx.tmp, "probes.log")
    os.makedirs(fake)
    real = shutil.which("python3", path="/usr/bin:/bin")
    with open(os.path.join(fake, "python3"), "w") as f:
        f.write('#!/bin/sh\n[ "$1" = --version ] && echo probe >> %s\nexec %s "$@"\n' % (log, real))
    os.chmod(os.path.join(fake, "python3"), 0o755)
    py = "import sys\nsys.stdin.read()\nprint('{\"allow\":true}')\n"
    tool = "import sys\nsys.stdin.read()\nprint('{\"ok\":true,\"output\":\"x\"}')\n"
    t = {"description": "t", "kind": "readonly", "script": "t.py", "timeout_ms": 600000,
         "parameters": {"type": "object", "properties": {}}}
    d = ctx.plugin("py4", {"name": "py4", "version": "1.0.0",
                           "hooks": {"pre_bash": {"script": "h.py", "timeout_ms": 600000}},
                           "tools": [dict(t, name="t%d" % i) for i in range(3)]},
                   {"h.py": py, "t.py": tool})
    env = {"PATH": fake + ":" + os.environ["PATH"]}
    for jobs, probes in (("1", 1), ("2", 2), ("3", 3)):
        if os.path.exists(log):
            os.remove(log)
        code, out = ctx.json("check", d, "--repeat", "1", "-j", jobs, env=env, timeout=600)
        eq(code, 0, json.dumps(out["findings"]))
        fired = {c["classname"] for c in out["cases"] if c["classname"].startswith(("plugcheck.hook", "plugcheck.tool"))}
        eq(sorted(fired), ["plugcheck.hook.pre_bash", "plugcheck.tool.t0", "plugcheck.tool.t1",
                           "plugcheck.tool.t2"])
        with open(log) as f:
            eq(len(f.read().splitlines()), probes, "python3 --version runs with -j " + jobs)


def test_a_killed_worker_loses_only_its_unit(ctx):
    # A worker killed mid-unit (here by the test; a crash alike): its unit
    # becomes one internal failure case, a fresh worker runs the units
    # left, and nothing is left behind.
    import signal
    import subprocess
    import time
    mark = 5741  # unique across the e2e files (they run in parallel)
    slow = "#!/bin/sh\ncat >/dev/null\nexec sleep %d\n" % mark
    t = {"description": "t", "kind": "readonly", "script": "tool.sh",
         "parameters": {"type": "object", "properties": {}}}
    d = ctx.plugin("killw", {"name": "killw", "version": "1.0.0",
                             "hooks": {"pre_bash": {"script": "slow.sh", "timeout_ms": 600000}},
                             "tools": [dict(t, name="t%d" % i) for i in range(4)]},
                   {"slow.sh": slow, "tool.sh": TOOL})
    tmpd = os.path.join(ctx.tmp, "tmpkill")
    os.mkdir(tmpd)
    p = subprocess.Popen([ctx.plugcheck, "check", d, "-j", "2", "--repeat", "1", "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "TMPDIR": tmpd})
    deadline = time.monotonic() + 120
    while not marked([mark]) and time.monotonic() < deadline:
        time.sleep(0.05)
    pids = marked([mark])
    eq(len(pids), 1)
    with open("/proc/%s/stat" % pids[0]) as f:
        worker = int(f.read().rsplit(")", 1)[1].split()[1])  # the sleep's parent
    # The worker is no child of plugcheck: walking up from the plugin never
    # reaches the process that owns the report (issue 21).
    up = worker
    while up > 1:
        assert up != p.pid, "plugcheck is an ancestor of its plugin"
        with open("/proc/%d/stat" % up) as f:
            up = int(f.read().rsplit(")", 1)[1].split()[1])
    os.kill(worker, signal.SIGKILL)
    out, err = p.communicate(timeout=300)
    rep = json.loads(out)
    eq(rep["incomplete"], False)
    lost = [(c["classname"], c["name"], c["status"], c["message"]) for c in rep["cases"]
            if c["name"] == "the plugin killed its host"]
    eq(lost, [("plugcheck.hook.pre_bash", "the plugin killed its host", "fail",
               killed("hook pre_bash", "realistic input"))])
    tools = sorted({c["classname"] for c in rep["cases"] if c["classname"].startswith("plugcheck.tool")})
    eq(tools, ["plugcheck.tool.t%d" % i for i in range(4)])
    eq(p.returncode, 1, err)
    eq(err, b"")
    eq(marked([mark]), [])
    eq(os.listdir(tmpd), [])


def tools_plugin(ctx, name, tools, files):
    """A plugin of readonly tools without parameters: `tools` is a list
    of (name, script)."""
    t = {"description": "t", "kind": "readonly",
         "parameters": {"type": "object", "properties": {}}}
    return ctx.plugin(name, {"name": name, "version": "1.0.0",
                             "capabilities": ["execute_subprocess", "read_workspace", "register_tools"],
                             "tools": [dict(t, name=n, script=sc) for n, sc in tools]}, files)


def test_a_script_that_kills_its_parent_loses_only_its_tool(ctx):
    # `kill -9 $PPID` in a tool kills the worker that spawned it - the
    # process the plugin takes for its host. That is the plugin's fault,
    # reported as its finding in the human summary, in every format, with
    # -j 1 as with -j 2 (issue 21; before, -j 1 lost the whole report and
    # -j 2 called the run incomplete, exit 70).
    killer = "#!/bin/sh\ncat >/dev/null\nkill -9 $PPID\necho '{\"ok\":true,\"output\":\"x\"}'\n"
    d = tools_plugin(ctx, "killp", [("a", "tool.sh"), ("b", "killer.sh"), ("c", "tool.sh"),
                                    ("d", "tool.sh")],
                     {"tool.sh": TOOL, "killer.sh": killer})
    tmpd = os.path.join(ctx.tmp, "tmpkillp")
    os.mkdir(tmpd)
    for jobs in ("1", "2"):
        code, out, err = ctx.run("check", d, "-j", jobs, "--repeat", "1",
                                 env={"TMPDIR": tmpd}, timeout=600)
        eq((code, err), (1, ""), "-j " + jobs)
        assert ("error PC-PROC-004 [R5.4, R5.9] tool b: plugcheck's worker, the plugin's "
                "parent as the host is, was killed") in out, out
        tail = out[out.index("\ncases: "):]
        eq(tail, "\ncases: %s run, 1 failed, 0 skipped\n"
                 "1 error(s), 0 warning(s), 0 note(s), 0 suppressed \u2014 FAIL\n"
                 % tail.split()[1])
        code, rep = ctx.json("check", d, "-j", jobs, "--repeat", "1", env={"TMPDIR": tmpd},
                             timeout=600)
        eq((code, rep["incomplete"]), (1, False))
        b = [(c["name"], c["status"], c["message"]) for c in rep["cases"]
             if c["classname"] == "plugcheck.tool.b"]
        eq(b, [("the plugin killed its host", "fail",
                killed("tool b", "valid arguments {}"))], "-j " + jobs)
        tools = sorted({c["classname"] for c in rep["cases"] if c["classname"].startswith("plugcheck.tool")})
        eq(tools, ["plugcheck.tool.a", "plugcheck.tool.b", "plugcheck.tool.c", "plugcheck.tool.d"])
        eq(os.listdir(tmpd), [])


def test_a_script_that_signals_its_parent_is_a_finding(ctx):
    # `kill -TERM $PPID` reaches the worker, which dies of it as the host
    # would; the run goes on (before: -j 1 delivered it to plugcheck
    # itself and the run stopped as interrupted). The finding names the
    # signal and the pid that sent it.
    sigterm = "#!/bin/sh\ncat >/dev/null\nkill -TERM $PPID\necho '{\"ok\":true,\"output\":\"x\"}'\n"
    d = tools_plugin(ctx, "termp", [("a", "tool.sh"), ("b", "term.sh")] +
                     [("t%d" % i, "tool.sh") for i in range(6)],
                     {"tool.sh": TOOL, "term.sh": sigterm})
    tmpd = os.path.join(ctx.tmp, "tmpterm")
    os.mkdir(tmpd)
    for jobs in ("1", "2"):
        code, out, err = ctx.run("check", d, "-j", jobs, "--repeat", "1", "--format", "json",
                                 env={"TMPDIR": tmpd}, timeout=600)
        eq((code, err), (1, ""), "-j " + jobs)
        rep = json.loads(out)
        eq(rep["incomplete"], False)
        b = [c["message"] for c in rep["cases"] if c["classname"] == "plugcheck.tool.b"]
        eq(len(b), 1, "-j " + jobs)
        assert re.match(r"PC-PROC-004: a plugin process \(pid \d+\) sent SIGTERM to its parent "
                        r"while plugcheck fired 'valid arguments \{\}': the real host dies of it; "
                        r"the rest of tool b did not run$", b[0]), b[0]
        eq(len({c["classname"] for c in rep["cases"] if c["classname"].startswith("plugcheck.tool.t")}),
           6, "-j " + jobs)
        eq(os.listdir(tmpd), [])


def test_each_unit_starts_from_fresh_dirs(ctx):
    # A hook that leaves a file in HOME and a tool that reports whether it
    # is there. Workers kept one HOME for all their units, so with -j 2
    # the tool saw the file or not depending on which worker ran it, and
    # -j 1 (one HOME for the whole run) always saw it: three answers for
    # one plugin (fresh-user trial). Every hook point, tool, command,
    # memory and OAuth unit now starts from an empty HOME, workspace and
    # TMPDIR, whatever -j.
    hook = "#!/bin/sh\ncat >/dev/null\ntouch \"$HOME/seen\" \"$TMPDIR/seen\"\necho '{\"allow\":true}'\n"
    tool = ("#!/bin/sh\ncat >/dev/null\n"
            "if [ -e \"$HOME/seen\" ] || [ -e \"$TMPDIR/seen\" ]; then w=seen; else w=fresh; fi\n"
            "echo \"{\\\"ok\\\":true,\\\"output\\\":\\\"$w\\\"}\"\n")
    t = {"description": "t", "kind": "readonly", "script": "t.sh",
         "parameters": {"type": "object", "properties": {}}}
    d = ctx.plugin("statep", {"name": "statep", "version": "1.0.0",
                              "capabilities": ["execute_subprocess", "read_workspace", "register_tools"],
                              "hooks": {"session_start": {"script": "h.sh"}, "pre_bash": {"script": "h.sh"}},
                              "tools": [dict(t, name="t%d" % i) for i in range(4)]},
                   {"h.sh": hook, "t.sh": tool})
    reports = []
    for jobs in ("1", "2", "3", "2"):
        code, rep = check(ctx, d, "-j", jobs)
        eq(code, 0, jobs)
        seen = sorted(c["system_out"].count("seen") for c in rep["cases"]
                      if c["classname"].startswith("plugcheck.tool") and c["system_out"])
        eq(set(seen), {0}, "-j %s: a tool saw what a hook left" % jobs)
        reports.append(norm(rep))
    for r in reports[1:]:
        eq(r, reports[0])


def test_a_stopped_worker_is_resumed(ctx):
    # `kill -STOP $PPID` in a tool stops the worker that spawned it; the
    # parent waited for its answer for ever (fresh-user trial: still
    # waiting after 30 s, until Ctrl-C). The parent resumes a stopped
    # worker, -j 1 included (it fires through a worker too), and the stop
    # is a finding: the real host would freeze there (issue 21).
    stop = "#!/bin/sh\ncat >/dev/null\nkill -STOP $PPID\necho '{\"ok\":true,\"output\":\"x\"}'\n"
    t = {"description": "t", "kind": "readonly",
         "parameters": {"type": "object", "properties": {}}}
    d = ctx.plugin("stopp", {"name": "stopp", "version": "1.0.0",
                             "capabilities": ["execute_subprocess", "read_workspace", "register_tools"],
                             "tools": [dict(t, name="a", script="tool.sh"),
                                       dict(t, name="b", script="stop.sh"),
                                       dict(t, name="c", script="tool.sh")]},
                   {"tool.sh": TOOL, "stop.sh": stop})
    tmpd = os.path.join(ctx.tmp, "tmpstop")
    os.mkdir(tmpd)
    for jobs in ("1", "2"):
        code, rep = ctx.json("check", d, "-j", jobs, "--repeat", "1", env={"TMPDIR": tmpd},
                             timeout=120)
        eq((code, rep["incomplete"]), (1, False), "-j " + jobs)
        b = [(c["name"], c["status"]) for c in rep["cases"] if c["classname"] == "plugcheck.tool.b"]
        eq(b, [("valid arguments {}", "pass"), ("the plugin stopped its host", "fail")])
        eq([f["id"] for f in rep["findings"] if f["severity"] == "error"], ["PC-PROC-004"])
        # the firing is named by a copy of the worker's note: the resumed
        # worker's next note freed the one the event pointed at (ASan:
        # heap-use-after-free; garbage bytes in the name; fresh-user trial)
        eq([f["message"] for f in rep["findings"] if f["id"] == "PC-PROC-004"],
           ["a plugin process stopped its parent (as with `kill -STOP $PPID`) while "
            "plugcheck fired 'valid arguments {}': the real host would freeze there; "
            "plugcheck resumed its worker"], "-j " + jobs)
        tools = sorted({c["classname"] for c in rep["cases"] if c["classname"].startswith("plugcheck.tool")})
        eq(tools, ["plugcheck.tool.a", "plugcheck.tool.b", "plugcheck.tool.c"])
        eq(os.listdir(tmpd), [])

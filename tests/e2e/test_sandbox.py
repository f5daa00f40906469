"""plugcheck check --sandbox (issue 8, docs/sandbox.md): every plugin
process runs under bubblewrap with only the capabilities its manifest
declares (spec catalyst-code.md R3.1; the host itself never enforces them,
R3.5), and what it tries beyond them is a PC-SBX-* finding. The hostile
runs go through hostile.run_check, so they also prove the sandbox keeps
plugcheck's guarantees: within the bound, no process left (bwrap and the
strace tracer included), no temporary file, a complete report."""
import json
import os
import re
import shutil

from e2e import eq
from hostile import copy, run_check

# Both runs of a comparison see the same interpreters (and no pyenv shims,
# whose bash trampolines are slow under a tracer).
CLEAN_ENV = {"PATH": "/usr/bin:/bin"}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def finding(r, rule):
    got = [f for f in r["findings"] if f["id"] == rule]
    assert len(got) == 1, (rule, r["findings"])
    return got[0]


def sbx_ids(r):
    return sorted(f["id"] for f in r["findings"] if f["id"].startswith("PC-SBX-"))


def test_hostile_connects_network(ctx):
    d = copy(ctx, "connects-network")
    r = run_check(ctx, d, ["PC-SBX-001"], ["PC-HOOK-010", "PC-SBX-002", "PC-SBX-003"],
                  extra=("--sandbox",))
    f = finding(r, "PC-SBX-001")
    eq(f["message"], "connected to 127.0.0.1:9, but the capabilities do not include "
       "access_network (the sandbox refused it)", "message")
    eq((f["severity"], f["where"], f["rule"]), ("error", "hook pre_bash", "R3.1, R3.5"))
    code, out, err = ctx.run("check", "--sandbox", "--repeat", "1", d)
    eq(code, 1, err)
    assert "error PC-SBX-001 [R3.1, R3.5] hook pre_bash: connected to 127.0.0.1:9" in out, out


def relax_timeout(d, ms):
    """bubblewrap and the tracer add 0.1-0.3 s to each firing on a loaded
    2-core machine (docs/sandbox.md); the corpus's 500 ms is too tight."""
    p = os.path.join(d, "plugin.json")
    with open(p) as f:
        m = json.load(f)
    for h in m["hooks"].values():
        h["timeout_ms"] = ms
    with open(p, "w") as f:
        json.dump(m, f)


def test_hostile_writes_outside_workspace(ctx):
    d = copy(ctx, "writes-outside-workspace")
    relax_timeout(d, 5000)
    r = run_check(ctx, d, ["PC-SBX-003"], ["PC-HOOK-010", "PC-SBX-001", "PC-SBX-002"],
                  extra=("--sandbox",))
    f = finding(r, "PC-SBX-003")
    real = os.path.realpath(d)
    pat = (r"wrote (/\S+)/plugcheck-check-\w{6}/hostile-escaped, " + re.escape(real)
           + r"/hostile-written, outside the workspace, HOME and TMPDIR \(the sandbox refused it\)")
    m = re.fullmatch(pat, f["message"])
    assert m, f["message"]
    eq(os.path.realpath(m.group(1)), os.path.realpath(os.path.join(ctx.tmp, "tmp-writes-outside-workspace")))
    eq((f["severity"], f["where"]), ("error", "hook pre_bash"))
    assert not os.path.exists(os.path.join(d, "hostile-written")), "the write got through"
    code, _, err = ctx.run("check", "--sandbox", "--repeat", "1", d)
    eq(code, 1, err)


NET_AND_WRITE = r"""#!/usr/bin/python3
import json, os, socket, sys
ctx = json.load(sys.stdin)
s = socket.socket()
s.settimeout(0.5)
try:
    s.connect(("127.0.0.1", 9))
except OSError:
    pass
try:
    with open(os.path.join(ctx["workspace"], "plugin-wrote.txt"), "w") as f:
        f.write("x")
except OSError:
    pass
with open(os.path.join(os.environ["HOME"], "cache.txt"), "w") as f:
    f.write("home is writable")
with open(os.path.join(os.environ["TMPDIR"], "t.txt"), "w") as f:
    f.write("TMPDIR is writable")
with open("/tmp/private.txt", "w") as f:
    f.write("/tmp is private")
print('{"allow":true}')
"""


def net_and_write(ctx, name, caps):
    return ctx.plugin(name, {"name": name, "version": "1.0.0", "capabilities": caps,
                             "hooks": {"pre_bash": {"script": "h.py", "timeout_ms": 5000}}},
                      {"h.py": NET_AND_WRITE})


def test_undeclared_network_and_workspace_write(ctx):
    d = net_and_write(ctx, "undeclared", ["execute_subprocess"])
    code, r = ctx.json("check", "--sandbox", "--repeat", "1", d, env=CLEAN_ENV)
    eq(code, 1)
    eq(sbx_ids(r), ["PC-SBX-001", "PC-SBX-002"])
    eq(finding(r, "PC-SBX-001")["message"], "connected to 127.0.0.1:9, but the "
       "capabilities do not include access_network (the sandbox refused it)")
    m = finding(r, "PC-SBX-002")["message"]
    assert re.fullmatch(r"wrote /\S+/plugcheck-check-\w{6}/workspace/plugin-wrote\.txt, but the "
                        r"capabilities do not include write_workspace \(the sandbox refused it\)", m), m
    assert not os.path.exists("/tmp/private.txt")


def test_declared_capabilities_allow_it(ctx):
    d = net_and_write(ctx, "declared", ["access_network", "execute_subprocess", "write_workspace"])
    code, r = ctx.json("check", "--sandbox", "--repeat", "1", d, env=CLEAN_ENV)
    eq(sbx_ids(r), [])
    eq(code, 0, r["findings"])


def test_good_plugins_stay_clean(ctx):
    for rel in ("tests/fixtures/plugins/good-sh", "tests/fixtures/plugins/good-py",
                "examples/secret-guard"):
        src = os.path.join(ROOT, rel)
        d = os.path.join(ctx.tmp, os.path.basename(rel))
        shutil.copytree(src, d)
        # the guard search (issue 16) in full is test_guard.py's
        plain_code, plain = ctx.json("check", d, "--guard-budget", "30", env=CLEAN_ENV)
        code, r = ctx.json("check", "--sandbox", d, "--guard-budget", "30", env=CLEAN_ENV)
        eq(sorted(f["id"] for f in r["findings"]),
           sorted(f["id"] for f in plain["findings"]), rel)
        eq(sbx_ids(r), [], rel)
        eq((code, plain_code), (0, 0), rel)


GUARD = "plugin.json"


def guarded_plugin(ctx):
    """A plugin that leaves a marker if it ever runs."""
    marker = os.path.join(ctx.tmp, "ran")
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0",
                         "hooks": {"pre_bash": {"script": "h", "timeout_ms": 1000}}},
                   {"h": "#!/bin/sh\ntouch %s\necho '{\"allow\":true}'\n" % marker})
    return d, marker


def test_missing_bwrap_fails_clearly(ctx):
    d, marker = guarded_plugin(ctx)
    empty = os.path.join(ctx.tmp, "empty-bin")
    os.mkdir(empty)
    code, out, err = ctx.run("check", "--sandbox", d, env={"PATH": empty})
    eq((code, out), (2, ""))
    eq(err, "plugcheck: --sandbox: bubblewrap (bwrap) is not on PATH; fix: install it "
       "(Debian: apt-get install bubblewrap) or set PLUGCHECK_BWRAP to its path\n")
    code, out, err = ctx.run("check", "--sandbox", d,
                             env={"PLUGCHECK_BWRAP": "/nonexistent/bwrap"})
    eq((code, out), (2, ""))
    eq(err, "plugcheck: --sandbox: PLUGCHECK_BWRAP='/nonexistent/bwrap' is not an "
       "executable file; fix: point it at bubblewrap's bwrap, or unset it and install "
       "bubblewrap (Debian: apt-get install bubblewrap)\n")
    code, out, err = ctx.run("check", "--sandbox", d,
                             env={"PLUGCHECK_STRACE": "/nonexistent/strace"})
    eq((code, out), (2, ""))
    assert err.startswith("plugcheck: --sandbox: PLUGCHECK_STRACE='/nonexistent/strace' "
                          "is not an executable file; fix:"), err
    assert not os.path.exists(marker), "the plugin ran unsandboxed"


def test_bwrap_without_namespaces_fails_clearly(ctx):
    d, marker = guarded_plugin(ctx)
    fake = os.path.join(ctx.tmp, "bwrap")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, "
                "likely because the kernel does not allow non-privileged user namespaces.' >&2\n"
                "exit 1\n")
    os.chmod(fake, 0o755)
    code, out, err = ctx.run("check", "--sandbox", d, env={"PLUGCHECK_BWRAP": fake})
    eq((code, out), (2, ""))
    assert err.startswith("plugcheck: --sandbox: bubblewrap cannot build a sandbox on this "
                          "machine (%s " % fake), err
    assert "bwrap: No permissions to creating new namespace" in err, err
    assert "; fix: allow unprivileged user namespaces" in err, err
    assert not os.path.exists(marker), "the plugin ran unsandboxed"


def test_fire_sandbox_shows_the_attempts(ctx):
    d = copy(ctx, "connects-network")
    code, out = ctx.json("fire", "pre_bash", d, "--sandbox", env=CLEAN_ENV)
    eq((code, out["allow"], out["exit_code"]), (0, True, 0))
    eq(out["sandbox"], {"network": ["127.0.0.1:9"], "outside_writes": [], "workspace_writes": []})
    code, out = ctx.json("fire", "pre_bash", d, env=CLEAN_ENV)
    assert "sandbox" not in out, out
    d = copy(ctx, "writes-outside-workspace")
    code, out, err = ctx.run("fire", "pre_bash", d, "--sandbox", env=CLEAN_ENV)
    eq(code, 0, err)
    assert "\nsandbox  wrote outside the workspace: %s/hostile-written\n" % os.path.realpath(d) in out, out
    assert not os.path.exists(os.path.join(d, "hostile-written"))
    code, out, err = ctx.run("fire", "pre_bash", d, "--sandbox",
                             env={"PLUGCHECK_BWRAP": "/nonexistent/bwrap"})
    eq((code, out), (2, ""))
    assert err.startswith("plugcheck: --sandbox: PLUGCHECK_BWRAP="), err


def test_run_sandbox(ctx):
    scn = os.path.join(ROOT, "tests", "scenarios", "pass", "guard.plugcheck.yaml")
    code, out, err = ctx.run("run", "--sandbox", scn, env=CLEAN_ENV)
    eq(code, 0, out + err)
    assert "0 failed" in out, out
    code, out, err = ctx.run("run", "--sandbox", scn, env={"PLUGCHECK_BWRAP": "/nonexistent/bwrap"})
    eq((code, out), (2, ""))
    assert err.startswith("plugcheck: --sandbox: PLUGCHECK_BWRAP="), err


def test_daemon_is_not_a_timeout(ctx):
    # the tracer keeps stderr open while a tracee lives; plugcheck releases
    # it once bubblewrap exits, so the call ends as without the sandbox.
    # Whether the daemon is still alive to be counted (PC-PROC-001) is
    # not asserted: once strace is gone its traced calls fail with ENOSYS
    # and the daemon may die first (docs/sandbox.md; setsid-escapee had no
    # PC-PROC-001 in one CI run). run_check still asserts that nothing is
    # left behind.
    for name in ("setsid-escapee", "double-fork"):
        d = copy(ctx, name)
        relax_timeout(d, 5000)
        run_check(ctx, d, [], ["PC-PROC-003", "PC-HOOK-010"], extra=("--sandbox",))


def test_death_by_signal_is_the_plugins(ctx):
    # bubblewrap reports a death by signal N as exit 128 + N (R4.3 step 6)
    d = copy(ctx, "crash-segv")
    code, plain = ctx.json("fire", "pre_bash", d, env=CLEAN_ENV)
    code2, sbx = ctx.json("fire", "pre_bash", d, "--sandbox", env=CLEAN_ENV)
    eq((sbx["exit_code"], sbx["signal"], sbx["reason"], code2),
       (plain["exit_code"], plain["signal"], plain["reason"], code))
    eq(sbx["signal"], 11)


DETACHING = """#!/bin/sh
cat >/dev/null
nohup sleep 777 </dev/null >/dev/null 2>&1 &
echo '{"allow":true}'
"""


def test_detaching_hook_same_verdict_with_and_without_sandbox(ctx):
    # A child that detaches with all its fds on /dev/null holds no pipe:
    # the host sees EOF once sh exits (R5.6) and answers; the sandbox's
    # tracer, which keeps its own copy of the plugin's stdio while any
    # tracee lives, must not turn that into a timeout or a PC-PROC-003.
    # The leftover count may differ: a traced call the daemon has pending
    # when plugcheck releases the tracer fails with ENOSYS (docs/sandbox.md),
    # so under load nohup can die before the sweep sees it.
    d = ctx.plugin("detach", {"name": "detach", "version": "1.0.0",
                              "capabilities": ["execute_subprocess"],
                              "hooks": {"pre_bash": {"script": "h", "timeout_ms": 5000}}},
                   {"h": DETACHING})
    args = ("fire", "pre_bash", d, "--args", '{"command":"ls"}')
    code, plain = ctx.json(*args, env=CLEAN_ENV)
    code2, sbx = ctx.json(*args, "--sandbox", env=CLEAN_ENV)
    keys = ("outcome", "allow", "exit_code", "signal", "stdout", "reason")
    eq([sbx[k] for k in keys], [plain[k] for k in keys])
    eq((code2, code), (0, 0))
    eq((plain["outcome"], plain["allow"], plain["leftover_processes"]), ("ok", True, 1))
    assert sbx["leftover_processes"] in (0, 1), sbx["leftover_processes"]
    assert sbx["duration_ms"] < 4000, sbx["duration_ms"]  # not the 5 s timeout
    code, r = ctx.json("check", "--sandbox", "--repeat", "1", d, env=CLEAN_ENV)
    ids = sorted(f["id"] for f in r["findings"])
    assert "PC-PROC-003" not in ids and "PC-HOOK-010" not in ids, ids
    eq(code, 0, r["findings"])


def test_child_holding_a_pipe_still_found_under_sandbox(ctx):
    # the other side: a background child that really keeps stdout open
    # holds the host's call until the timeout (R5.6), sandbox or not
    for name in ("child-holds-stdout", "child-holds-stderr"):
        d = copy(ctx, name)
        relax_timeout(d, 2000)
        r = run_check(ctx, d, ["PC-PROC-003"], ["PC-HOOK-010"], extra=("--sandbox",))
        f = finding(r, "PC-PROC-003")
        eq((f["severity"], f["where"]), ("error", "hook pre_bash"), name)


def test_chatcli_plugin_is_told_the_sandbox_is_catalyst_only(ctx):
    # the sandbox enforces declared capabilities (R3.1); an external ChatCLI
    # plugin cannot declare any (chatcli.md C1): a usage error, not a run
    d = os.path.join(ctx.tmp, "plugins")
    os.mkdir(d)
    p = os.path.join(d, "@x")
    marker = os.path.join(ctx.tmp, "ran")
    with open(p, "w") as f:
        f.write("#!/bin/sh\ntouch %s\n[ \"$1\" = --metadata ] && { echo "
                "'{\"name\":\"@x\",\"description\":\"d\",\"usage\":\"u\",\"version\":\"1\"}'; "
                "exit 0; }\necho ok\n" % marker)
    os.chmod(p, 0o755)
    want = ("plugcheck check: --sandbox is for Catalyst Code plugins only; '%s' is a "
            "ChatCLI plugin, which declares no capabilities to enforce; fix: drop "
            "--sandbox\nRun `plugcheck check --help` for usage.\n" % p)
    for args in (("check", "--sandbox", p), ("check", p, "--format", "json", "--sandbox"),
                 ("check", "--host", "chatcli", "--sandbox", p)):
        code, out, err = ctx.run(*args, env={"HOME": ctx.tmp})
        eq((code, out, err), (2, "", want), args)
    code, out, err = ctx.run("fire", "call", p, "--sandbox", env={"HOME": ctx.tmp})
    # one option table for both contracts: the same message as check's
    eq((code, out, err), (2, "", want.replace("plugcheck check:", "plugcheck fire:")
                                 .replace("`plugcheck check --help`", "`plugcheck fire --help`")))
    assert not os.path.exists(marker), "the plugin ran"

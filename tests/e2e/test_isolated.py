"""fire, turn and guard run their plugins in a worker process (pc_cli_isolated):
a hook that kills, stops or signals its parent reaches the worker, never
plugcheck, which then says what happened, exits with a code that says
it, and leaves no process and no temporary directory behind (issue 21;
fresh-user trial: `fire` stayed stopped for ever after `kill -STOP $PPID`,
and `kill -9 $PPID` ended `fire` and `turn` with no output, exit 137 and
their workspaces left in TMPDIR)."""
import json
import os
import subprocess

from run import eq

HOOK = ("#!/bin/sh\ncat >/dev/null\nkill -%s $PPID\n"
        "echo '{\"allow\":true,\"reason\":\"after\"}'\n")
SCRIPT = ('{"replies":[{"tool_calls":[{"name":"bash","arguments":{"command":"true"}}]},'
          '{"content":"done"}]}')


def plugin(ctx, sig):
    return ctx.plugin("k" + sig.lower(), {"name": "k" + sig.lower(), "version": "1.0.0",
                                          "capabilities": ["execute_subprocess"],
                                          "hooks": {"pre_bash": {"script": "h.sh",
                                                                 "timeout_ms": 5000}}},
                      {"h.sh": HOOK % sig})


def run(ctx, tmpd, *args):
    p = subprocess.run([ctx.plugcheck, *args], capture_output=True, timeout=120,
                       cwd=ctx.tmp, env={**os.environ, "TMPDIR": tmpd})
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_a_hook_cannot_kill_stop_or_signal_fire_or_turn(ctx):
    script = os.path.join(ctx.tmp, "s.json")
    with open(script, "w") as f:
        f.write(SCRIPT)
    tmpd = os.path.join(ctx.tmp, "tmp")
    os.mkdir(tmpd)
    for sig, code, what in [
            ("STOP", 1, "a plugin process stopped its parent (as with `kill -STOP $PPID`): "
                        "the real host would freeze there; plugcheck resumed it"),
            ("9", 70, "the process running the plugin was killed (as with `kill -9 $PPID`): "
                      "the real host would die there; the exchange was cut short"),
            ("TERM", 70, "a plugin process sent SIGTERM to its parent (pid ")]:
        d = plugin(ctx, sig)
        for cmd, args in (("fire", ("fire", "pre_bash", d)), ("turn", ("turn", script, d))):
            rc, out, err = run(ctx, tmpd, *args)
            eq(rc, code, (sig, cmd, out, err))
            assert err.startswith("plugcheck: %s: %s" % (cmd, what)), (sig, cmd, err)
            if sig == "STOP":
                # the worker was resumed: the exchange went on to its answer
                assert "after" in out, (cmd, out)
            eq(os.listdir(tmpd), [], (sig, cmd))


def test_a_chatcli_plugin_cannot_kill_lint_or_check(ctx):
    # ChatCLI lint and check run the probes in a worker too: before, a
    # --metadata that ran `kill -9 $PPID` killed plugcheck (exit 137)
    d = os.path.join(ctx.tmp, "plugins")
    os.makedirs(d)
    p = os.path.join(d, "@k")
    with open(p, "w") as f:
        f.write("#!/bin/sh\nkill -9 $PPID\necho x\n")
    os.chmod(p, 0o755)
    tmpd = os.path.join(ctx.tmp, "tmp")
    os.mkdir(tmpd)
    for cmd in ("lint", "check"):
        rc, out, err = run(ctx, tmpd, cmd, p)
        eq((rc, err), (70, "plugcheck: %s: the process running the plugin was killed (as with "
                           "`kill -9 $PPID`): the real host would die there; the exchange was "
                           "cut short\n" % cmd), cmd)
        eq(os.listdir(tmpd), [], cmd)


GUARD = ("#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *'rm -rf /'*) kill -%s $PPID;; esac\n"
         "echo '{\"allow\":false,\"reason\":\"no\"}'\n")


def test_a_hook_cannot_kill_or_stop_guard(ctx):
    # plugcheck guard fires every input from a worker too (issue 16 on top
    # of issue 21): here the hook hits its parent on the seed `rm -rf /`
    tmpd = os.path.join(ctx.tmp, "tmp-guard")
    os.mkdir(tmpd)
    man = {"version": "1.0.0", "capabilities": ["execute_subprocess", "receive_tool_arguments"]}
    ds = {}
    for sig in ("9", "STOP"):
        ds[sig] = ctx.plugin("g" + sig.lower(), dict(man, name="g" + sig.lower(), hooks={
            "pre_bash": {"script": "h.sh", "timeout_ms": 5000, "pass_args": True}}),
            {"h.sh": GUARD % sig})
    rc, out, err = run(ctx, tmpd, "guard", "pre_bash", ds["9"], "--no-turns")
    eq((rc, out, err), (70, "", "plugcheck: guard: the process running the plugin was killed (as "
                                "with `kill -9 $PPID`): the real host would die there; the "
                                "exchange was cut short\n"))
    eq(os.listdir(tmpd), [])
    rc, out, err = run(ctx, tmpd, "guard", "pre_bash", ds["STOP"], "--no-turns")
    eq((rc, err), (1, "plugcheck: guard: a plugin process stopped its parent (as with `kill "
                      "-STOP $PPID`): the real host would freeze there; plugcheck resumed it\n"))
    assert "\n  deny     rm -rf /  (built-in)\n" in out, out  # the search went on
    eq(os.listdir(tmpd), [])
    # with -j the inputs run in workers of their own: the one lost is named,
    # the rest of the report is kept
    rc, out, err = run(ctx, tmpd, "guard", "pre_bash", ds["9"], "--no-turns", "-j", "2",
                       "--format", "json")
    tries = {t["text"]: (t["verdict"], t["reason"]) for t in json.loads(out)["tries"]}
    eq(tries["rm -rf /"], ("not_run", "the worker firing it was lost (the plugin killed or "
                                      "stopped its host)"))
    eq(tries["rm -rf ~"], ("deny", "no"))
    eq(os.listdir(tmpd), [])

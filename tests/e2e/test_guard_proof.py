"""The equivalence proof of the guard search's rewrite families (issue 16):
every rewrite `plugcheck guard --list` makes of the built-in seeds does
what its seed does.

Commands: seed and rewrite run through bash (`bash -c TEXT`, as the
host's bash tool runs them) inside a bubblewrap sandbox with a throwaway
root, in which /usr/bin holds bash, sh (dash), env, nice and xargs and,
for every program the seeds run (rm, git, chmod, dd, cat, curl,
mkfs.ext4), the recording shim tests/helpers/guard_shim.c: it parses its
argv with getopt_long over the program's table and records what the
program was asked to do (options by meaning, operands by the file they
name, the directory). Seed and rewrite must record the same.

Paths: each respelling of a path seed names the same file (cat in the
workspace, recorded by device and inode). Tools: each other tool's call
leaves the workspace file as write_file does (or returns its content as
read_file does): a scripted turn, plugcheck itself run in a sandbox too.

Nothing here runs a seed or a rewrite outside bubblewrap; none of them
runs a real rm, git, dd, ... at all.
"""
import json
import os
import shutil
import subprocess

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
GUARDS = os.path.join(HERE, "..", "guards")
PROGS = ["rm", "git", "chmod", "dd", "cat", "curl", "mkfs.ext4"]
REAL = ["bash", "env", "nice", "xargs"]
FAMILIES = {"flags", "long", "quote", "wrap", "chain", "target", "abspath", "prefix", "space",
            "endopts", "spelling", "tool"}
ENV = {"PATH": "/usr/bin:/bin"}


def shim(ctx):
    p = os.path.join(os.path.dirname(ctx.fake_plugin), "guard_shim")
    assert os.access(p, os.X_OK), "guard_shim is built beside fake_plugin: " + p
    return p


def listing(ctx, point, d, *extra):
    code, out = ctx.json("guard", point, d, "--list", "--budget", "100000", *extra, env=ENV)
    eq(code, 0, out)
    return out


def plugin(ctx, points):
    d = os.path.join(ctx.tmp, "p")
    os.makedirs(os.path.join(d, "hooks"), exist_ok=True)
    with open(os.path.join(d, "hooks", "g.sh"), "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n")
    os.chmod(os.path.join(d, "hooks", "g.sh"), 0o755)
    hooks = {p: {"script": "hooks/g.sh", "pass_args": True} for p in points}
    with open(os.path.join(d, "plugin.json"), "w") as f:
        json.dump({"name": "p", "version": "1.0.0", "hooks": hooks}, f)
    return d


def tree(ctx, out):
    """The files the seeds name, at the paths of the listing's HOME and
    workspace: bound into the sandbox."""
    root = os.path.join(ctx.tmp, "root")
    files = [("home", ".ssh/id_rsa"), ("home", ".ssh/authorized_keys"),
             ("home", ".aws/credentials"), ("home", ".bashrc"), ("ws", ".env"),
             ("ws", ".git/hooks/pre-commit"), ("etc", "passwd"), ("etc", "shadow")]
    for top, rel in files:
        p = os.path.join(root, top, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write("x\n")
    return root


def bwrap_base(ctx, out, root):
    a = ["bwrap", "--unshare-all", "--die-with-parent", "--clearenv",
         "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
         "--ro-bind", "/usr/lib", "/usr/lib", "--symlink", "usr/lib", "/lib",
         "--symlink", "usr/bin", "/bin", "--dir", "/usr/bin"]
    if os.path.isdir("/usr/lib64"):
        a += ["--ro-bind", "/usr/lib64", "/usr/lib64", "--symlink", "usr/lib64", "/lib64"]
    for p in REAL:
        a += ["--ro-bind", shutil.which(p, path="/usr/bin"), "/usr/bin/" + p]
    a += ["--ro-bind", "/usr/bin/dash", "/usr/bin/sh"]
    for p in PROGS:
        a += ["--ro-bind", shim(ctx), "/usr/bin/" + p]
    a += ["--bind", os.path.join(root, "home"), out["home"],
          "--bind", os.path.join(root, "ws"), out["workspace"],
          "--bind", os.path.join(root, "etc"), "/etc",
          "--setenv", "HOME", out["home"], "--setenv", "PATH", "/usr/bin:/bin",
          "--chdir", out["workspace"]]
    return a


DRIVER = r"""
for f in /cases/*; do
  n=${f##*/}
  IFS= read -r -d '' cmd < "$f"
  ( cd "$W" && PC_SHIM_LOG=/rec/$n bash -c "$cmd" ) </dev/null >/dev/null 2>&1
done
"""


def run_cases(ctx, out, texts):
    """Run each command text through bash in the sandbox; the records."""
    root = tree(ctx, out)
    cases = os.path.join(ctx.tmp, "cases")
    rec = os.path.join(ctx.tmp, "rec")
    os.makedirs(cases)
    os.makedirs(rec)
    for i, t in enumerate(texts):
        with open(os.path.join(cases, "%05d" % i), "w") as f:
            f.write(t)
    a = bwrap_base(ctx, out, root) + [
        "--ro-bind", cases, "/cases", "--bind", rec, "/rec",
        "--setenv", "W", out["workspace"], "/usr/bin/bash", "-c", DRIVER]
    p = subprocess.run(a, capture_output=True, text=True, timeout=280)
    eq(p.returncode, 0, p.stderr)
    got = []
    for i in range(len(texts)):
        f = os.path.join(rec, "%05d" % i)
        got.append(open(f).read() if os.path.exists(f) else "")
    return got


def prove(ctx, out, pairs):
    """pairs: (family, seed text, rewrite text); every rewrite records
    what its seed records, and every seed records something."""
    seeds = sorted({s for _, s, _ in pairs})
    texts = seeds + [v for _, _, v in pairs]
    got = run_cases(ctx, out, texts)
    rec = dict(zip(seeds, got))
    for s in seeds:
        assert rec[s].strip(), "the seed ran no shim: %r" % s
    bad = [(fam, s, v, rec[s], r) for (fam, s, v), r in zip(pairs, got[len(seeds):])
           if r != rec[s]]
    eq(bad, [], "rewrites that do not do what their seed does")
    return {fam for fam, _, _ in pairs}


def test_command_rewrites_do_what_their_seeds_do(ctx):
    d = plugin(ctx, ["pre_bash"])
    out = listing(ctx, "pre_bash", d)
    pairs = [(t["family"], t["seed"], t["text"]) for t in out["tries"] if t["role"] == "rewrite"]
    assert len(pairs) > 300, len(pairs)
    eq({p[1] for p in pairs}, {s["text"] for s in out["seeds"] if not s["benign"]})
    fams = prove(ctx, out, pairs)
    eq(fams, FAMILIES - {"spelling", "tool"})


def test_path_spellings_name_the_same_file(ctx):
    # the file tools join a relative path to the workspace and open an
    # absolute one as it is: what cat in the workspace opens
    d = plugin(ctx, ["pre_tool"])
    for i, tool in enumerate(("write_file", "read_file")):
        out = listing(ctx, "pre_tool", d, "--tool", tool, "--families", "spelling")
        pairs = [("spelling", "cat '%s'" % t["seed"], "cat '%s'" % t["text"])
                 for t in out["tries"] if t["role"] == "rewrite"]
        assert len(pairs) > 10, pairs
        sub = os.path.join(ctx.tmp, str(i))
        os.makedirs(sub)
        eq(prove(Sub(ctx, sub), out, pairs), {"spelling"})


class Sub:
    """ctx with its own temporary directory (one sandbox tree each)."""
    def __init__(self, ctx, tmp):
        self.tmp, self.fake_plugin = tmp, ctx.fake_plugin


def turn_in_sandbox(ctx, ws, tool, args, plugin_dir):
    script = os.path.join(ctx.tmp, "model.json")
    with open(script, "w") as f:
        json.dump({"replies": [{"tool_calls": [{"name": tool, "arguments": args}]},
                               {"content": "done"}]}, f)
    a = ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
         "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
         "--ro-bind", script, script, "--ro-bind", plugin_dir, plugin_dir,
         # the binary again: a checkout under /tmp is under the tmpfs
         "--ro-bind", ctx.plugcheck, ctx.plugcheck,
         "--bind", ws, ws, "--chdir", ws,
         ctx.plugcheck, "turn", script, plugin_dir, "--workspace", ws, "--format", "json"]
    p = subprocess.run(a, capture_output=True, text=True, timeout=120, env=ENV)
    eq(p.returncode, 0, p.stdout + p.stderr)
    return [e for e in json.loads(p.stdout)["events"] if e["type"] == "tool_result"][0]


def test_other_tools_write_and_read_the_same_file(ctx):
    d = plugin(ctx, ["pre_tool"])
    empty = os.path.join(ctx.tmp, "empty")
    os.makedirs(empty)
    with open(os.path.join(empty, "plugin.json"), "w") as f:
        json.dump({"name": "empty", "version": "1.0.0"}, f)
    seen = set()
    for shape, tool in (("write", "write_file"), ("read", "read_file")):
        out = listing(ctx, "pre_tool", d, "--tool", tool, "--families", "tool",
                      "--seed", ".env")
        calls = [(t["tool"], t["args"]) for t in out["tries"]
                 if t["role"] in ("seed", "rewrite")]
        results = {}
        for i, (name, args) in enumerate(calls):
            ws = os.path.join(ctx.tmp, "ws-%s-%d" % (shape, i))
            os.makedirs(ws)
            for rel, body in ((".env", "SECRET=plugcheck-guard\n" if shape == "read"
                               else "SECRET=old\n"),
                              ("plugcheck-guard.tmp", "SECRET=plugcheck-guard\n")):
                with open(os.path.join(ws, rel), "w") as f:
                    f.write(body)
            r = turn_in_sandbox(ctx, ws, name, args, empty)
            eq(r["ok"], True, (name, r))
            results[(name, json.dumps(args))] = (
                open(os.path.join(ws, ".env")).read() if shape == "write"
                else "SECRET=plugcheck-guard" in r["output"])
            seen.add(name)
        want = "SECRET=plugcheck-guard\n" if shape == "write" else True
        eq({k: v for k, v in results.items() if v != want}, {}, shape)
    eq(seen, {"write_file", "edit", "patch", "bulk_write", "bulk_edit", "rename", "bash",
              "read_file", "grep"})


def test_shim_tables_are_the_real_programs(ctx):
    # the programs whose long options the search abbreviates: the model's
    # long names are exactly those --help lists (getopt_long takes a
    # prefix only when it is unique among all of them)
    import re
    want = {"rm": {"force", "interactive", "one-file-system", "no-preserve-root",
                   "preserve-root", "recursive", "dir", "verbose", "help", "version"},
            "chmod": {"changes", "no-preserve-root", "preserve-root", "quiet", "silent",
                      "reference", "recursive", "verbose", "help", "version"}}
    for prog, longs in want.items():
        h = subprocess.run([prog, "--help"], capture_output=True, text=True, env=ENV).stdout
        listed = set(re.findall(r"(?<![\w-])--([a-z][a-z-]*)", h))
        eq(listed, longs, prog)
    # and the shim parses with the same tables (here outside any sandbox:
    # it only records)
    log = os.path.join(ctx.tmp, "log")
    exe = os.path.join(ctx.tmp, "rm")
    shutil.copy(shim(ctx), exe)
    for argv in (["-rf", "/"], ["--rec", "--f", "/"], ["/", "-r", "-f"], ["-Rf", "--", "/"]):
        subprocess.run([exe, *argv], env={"PC_SHIM_LOG": log}, check=True)
    lines = open(log).read().splitlines()
    eq(len(set(lines)), 1, lines)
    assert lines[0].startswith("rm opts=force,recursive ops=file:"), lines

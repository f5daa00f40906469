"""ChatCLI `plugcheck install-check GIT_DIR|URL` (spec chatcli.md I2-I5,
D9, D10, G5): fixture plugins in local git repositories made here are
installed as /plugin install does, the watcher's reloads are replayed and
the result is checked. Shell and C trees need no Go toolchain; the Go tree
is tested only when `go` is on PATH."""
import os
import re
import shutil
import subprocess

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "chatcli")
# modes below (0644 as checked out, no PC-CHAT-060) assume the usual umask
os.umask(0o022)
GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t",
       "-c", "init.defaultBranch=main"]


def repo(ctx, files, modes=None, name="repo"):
    """A git work tree with `files` (dest -> source fixture path) committed
    with `modes` (dest -> 0o755/0o644, default 0o644)."""
    d = os.path.join(ctx.tmp, name)
    os.makedirs(d)
    subprocess.run(GIT + ["init", "-q"], cwd=d, check=True)
    for dest, src in files.items():
        p = os.path.join(d, dest)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        shutil.copy(src, p)
        os.chmod(p, (modes or {}).get(dest, 0o644))
    subprocess.run(GIT + ["add", "-A"], cwd=d, check=True)
    subprocess.run(GIT + ["commit", "-qm", "fixture"], cwd=d, check=True)
    return d


def bare(ctx, work):
    """A bare clone WORK.git next to WORK, for .../tree/BRANCH/DIR URLs."""
    subprocess.run(GIT + ["clone", "-q", "--bare", work, work + ".git"], check=True)
    return work + ".git"


def ids(out):
    return sorted(f["id"] for f in out["findings"])


def case(out, name):
    m = [c for c in out["cases"] if c["name"] == name]
    assert len(m) == 1, (name, [c["name"] for c in out["cases"]])
    return m[0]


def unsigned_env(value):
    return {"CHATCLI_ALLOW_UNSIGNED_PLUGINS": value}


# --- shell and C trees: the host cannot build them --------------------------

def test_shell_committed_without_x(ctx):
    d = repo(ctx, {"hello": os.path.join(FIX, "install", "hello.sh")})
    code, out = ctx.json("install-check", d)
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-050", "PC-CHAT-072", "PC-CHAT-080"])
    f = {x["id"]: x for x in out["findings"]}
    assert "(the tree has no .go files there)" in f["PC-CHAT-072"]["message"], f
    eq(f["PC-CHAT-080"]["severity"], "warning")
    eq(f["PC-CHAT-080"]["file"], "hello")
    assert "leaves it rejected: not executable" in f["PC-CHAT-080"]["message"], f
    # a warning fails its case only with --strict (issue 15: case status,
    # JUnit and the exit code follow the same findings)
    eq(case(out, "cp, then chmod +x 1 s later")["status"], "pass")
    eq(case(out, "build")["status"], "fail")
    eq(case(out, "clone")["status"], "pass")
    eq(out["name"], "@hello")
    eq(out["path"], d)


def test_shell_committed_executable(ctx):
    d = repo(ctx, {"hello": os.path.join(FIX, "install", "hello.sh")}, {"hello": 0o755})
    code, out = ctx.json("install-check", d)
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-050", "PC-CHAT-072"])
    # the development policy loads it (the signature is still reported, as
    # `check` does); the host still cannot build the tree
    code, out = ctx.json("install-check", d, env=unsigned_env("true"))
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-050", "PC-CHAT-072"])
    eq(out["loaded"], True)
    code, out = ctx.json("install-check", d, "--ignore", "PC-CHAT-072", "--ignore",
                         "PC-CHAT-050", env=unsigned_env("TRUE"))
    eq(code, 0)
    code, out = ctx.json("install-check", d, env=unsigned_env("1"))
    eq(out["loaded"], False)


def test_shell_human_replay(ctx):
    d = repo(ctx, {"hello": os.path.join(FIX, "install", "hello.sh")})
    code, out, err = ctx.run("install-check", d)
    eq(code, 1, out + err)
    lines = out.split("\n")
    eq(lines[0], f"install: /plugin install {d}")
    assert re.match(r"  clone:  git clone --depth=1 \S+ <tmp>/chatcli-plugin-\d+ -> ok \(\d+ ms\)$",
                    lines[1]), lines[1]
    assert re.match(r"  name:   chatcli-plugin-\d+ \(the host's temporary clone directory: a plain URL\)$",
                    lines[2]), lines[2]
    i = lines.index("manual install (what a user falls back to; not the host's):")
    eq(lines[i + 1], "  cp:     hello -> $HOME/.chatcli/plugins/ (mode 0644 as checked out)")
    rest = "\n".join(lines[i + 2:])
    # the reload 500 ms after cp runs before the chmod; the chmod triggers none
    assert re.search(r"\n     500 ms  reload \(watcher, 500 ms after the last event\): \d+ ms with the manager lock held\n"
                     r"             hello: rejected: not executable\n"
                     r"    1000 ms  chmod \+x hello\n"
                     r"    1000 ms  CHMOD         hello  \(ignored: Chmod\)\n"
                     r"    2000 ms  reload \(/plugin reload\): \d+ ms with the manager lock held\n"
                     r"             hello: loaded as \"@hello\"\n", rest), rest
    assert re.search(r"\nreload cost: 3 reloads, \d+ ms at most and \d+ ms in all", rest), rest


def test_c_tree_built_with_make(ctx):
    d = repo(ctx, {"argv_echo.c": os.path.join(FIX, "argv_echo.c"),
                   "Makefile": os.path.join(FIX, "install", "Makefile.argv_echo")})
    code, out = ctx.json("install-check", d, env=unsigned_env("true"))
    eq(code, 1)
    # argv_echo writes "progress 50%" to stderr on every call (X7)
    eq(ids(out), ["PC-CHAT-045", "PC-CHAT-050", "PC-CHAT-072"])
    eq(case(out, "manual install: make")["status"], "pass")
    # documented as pass / fail; it was missing when it passed
    eq(case(out, "manual install: cp")["status"], "pass")
    eq(out["name"], "@argv-echo")
    eq([l["as"] for l in out["loads"]], ["argv-echo"])
    eq(out["loaded"], True)


def test_nothing_to_place(ctx):
    readme = os.path.join(ctx.tmp, "README.md")
    with open(readme, "w") as f:
        f.write("no plugin here\n")
    d = repo(ctx, {"README.md": readme})
    code, out = ctx.json("install-check", d)
    eq(code, 3)
    eq(ids(out), ["PC-CHAT-072"])
    # nothing to place is no fault of the plugin's: the case is skipped
    eq((case(out, "manual install: cp")["status"], case(out, "manual install: cp")["message"]),
       ("skip", "nothing to place: no top-level file starts with #! or is an ELF executable"))


def test_reload_loop(ctx):
    src = os.path.join(ctx.tmp, "loop.sh")
    with open(src, "w") as f:
        f.write("#!/bin/sh\n"
                "date +%s%N > \"$(dirname \"$0\")/.cache\"\n"
                "[ \"$1\" = --metadata ] && { echo '{\"name\":\"@loop\",\"description\":\"d\",\"usage\":\"u\",\"version\":\"1\"}'; exit 0; }\n"
                "exit 1\n")
    d = repo(ctx, {"loop": src}, {"loop": 0o755})
    code, out = ctx.json("install-check", d)
    eq(code, 1)
    assert "PC-CHAT-081" in ids(out), ids(out)
    f = [x for x in out["findings"] if x["id"] == "PC-CHAT-081"][0]
    assert "(.cache)" in f["message"], f


# --- cloning -----------------------------------------------------------------

def test_clone_fails(ctx):
    code, out = ctx.json("install-check", "file:///nonexistent/plugcheck-repo")
    eq(code, 3)
    eq(ids(out), ["PC-CHAT-073"])
    # the case fails with its finding (issue 15: every failure is a finding)
    eq(case(out, "clone")["message"],
       "PC-CHAT-073: git clone of 'file:///nonexistent/plugcheck-repo' fails: exit status 128: "
       "fatal: '/nonexistent/plugcheck-repo' does not appear to be a git repository")


def test_tree_url_subdir_missing(ctx):
    d = repo(ctx, {"hello": os.path.join(FIX, "install", "hello.sh")})
    bare(ctx, d)
    code, out = ctx.json("install-check", f"file://{d}/tree/main/plugins/nope")
    eq(code, 3)
    eq(ids(out), ["PC-CHAT-073"])
    eq(out["findings"][0]["message"], "subdirectory 'plugins/nope' not found in repository")


def test_tree_url_and_bare_repo(ctx):
    d = repo(ctx, {"plugins/hello/hello": os.path.join(FIX, "install", "hello.sh")},
             {"plugins/hello/hello": 0o755})
    b = bare(ctx, d)
    code, out, _ = ctx.run("install-check", f"file://{d}/tree/main/plugins/hello")
    eq(code, 1)
    assert "  clone:  git clone --depth=1 --branch main file://" + d + ".git <tmp>/" in out, out
    assert "  name:   hello (the last segment of the /tree/ path)\n" in out, out
    # a bare repository directory is a ChatCLI source too
    code, out = ctx.json("install-check", b)
    eq(code, 3)
    eq(ids(out), ["PC-CHAT-072"])


def test_host_option(ctx):
    code, out, _ = ctx.run("install-check", "--host", "chatcli", "--help")
    eq(code, 0)
    assert out.startswith("usage: plugcheck install-check GIT_DIR|URL"), out
    code, _, err = ctx.run("install-check", "--host", "other", "x")
    eq(code, 2)
    eq(err, "plugcheck install-check: --host: invalid value 'other' (expected catalyst or chatcli)\n"
            "Run `plugcheck install-check --help` for usage.\n")
    # without --host, the help shows both contracts (one option table)
    code, out, _ = ctx.run("install-check", "--help")
    assert out.startswith("usage: plugcheck install-check PATH|ZIP [options]\n"
                          "       plugcheck install-check GIT_DIR|URL [options]\n"), out


# --- the Go tree: only with a Go toolchain -----------------------------------

def go_repo(ctx):
    src = os.path.join(FIX, "install", "gohello")
    return repo(ctx, {"plugins/gohello/go.mod": os.path.join(src, "go.mod"),
                      "plugins/gohello/main.go": os.path.join(src, "main.go")})


def test_go_tree_without_go(ctx):
    d = go_repo(ctx)
    bare(ctx, d)
    code, out = ctx.json("install-check", f"file://{d}/tree/main/plugins/gohello",
                         "--go", os.path.join(ctx.tmp, "no-such-go"))
    eq(code, 3)
    eq(ids(out), [])
    eq(case(out, "build")["status"], "skip")
    assert case(out, "build")["message"].startswith("go is not available"), out


def test_go_tree(ctx):
    if not shutil.which("go"):
        print("skip: go is not on PATH; the Go install path is not tested")
        return
    d = go_repo(ctx)
    bare(ctx, d)
    url = f"file://{d}/tree/main/plugins/gohello"
    code, out = ctx.json("install-check", url, timeout=600)
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-070"])
    eq(case(out, "build")["status"], "pass")
    eq(case(out, "signing fix: trust the key, then sign")["system_out"], 'loaded as "@gohello"')
    eq(case(out, "signing fix: sign, then trust the key")["system_out"],
       "rejected: no trusted public keys found")
    code, out = ctx.json("install-check", url, env=unsigned_env("true"), timeout=600)
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-070"])
    assert "loads only because CHATCLI_ALLOW_UNSIGNED_PLUGINS=true" in out["findings"][0]["message"]
    eq(out["loaded"], True)
    code, out = ctx.json("install-check", url, "--ignore", "PC-CHAT-070",
                         env=unsigned_env("true"), timeout=600)
    eq(code, 0)
    # a plain URL builds the repository root, which has no Go files here
    code, out = ctx.json("install-check", f"file://{d}.git", timeout=600)
    eq(code, 3)
    eq(ids(out), ["PC-CHAT-072"])
    # with Go at the root, the binary is named after the temporary clone
    src = os.path.join(FIX, "install", "gohello")
    root = repo(ctx, {"go.mod": os.path.join(src, "go.mod"),
                      "main.go": os.path.join(src, "main.go")}, name="goroot")
    code, out = ctx.json("install-check", root, timeout=600)
    eq(code, 1)
    eq(ids(out), ["PC-CHAT-006", "PC-CHAT-070", "PC-CHAT-071"])
    f = {x["id"]: x for x in out["findings"]}
    assert re.match(r"chatcli-plugin-\d+$", f["PC-CHAT-071"]["file"]), f
    code, text, _ = ctx.run("install-check", f"file://{d}/tree/main/plugins/gohello", timeout=600)
    assert "    0 ms  reload (/plugin install)" in text, text
    assert "   500 ms  reload (watcher, 500 ms after the last event)" in text, text


def test_sigint_during_go_build(ctx):
    # README "Ctrl-C": a build plugcheck killed is not the plugin's fault
    # (fresh-user trial: PC-CHAT-072 "fails: signal: killed", exit 3).
    import json
    import signal
    import time
    d = go_repo(ctx)
    bare(ctx, d)
    started = os.path.join(ctx.tmp, "go-started")
    go = os.path.join(ctx.tmp, "slow-go")
    with open(go, "w") as f:
        f.write("#!/bin/sh\ntouch '%s'\nexec sleep 4761\n" % started)
    os.chmod(go, 0o755)
    tmpd = os.path.join(ctx.tmp, "tmp-int")
    os.mkdir(tmpd)
    p = subprocess.Popen([ctx.plugcheck, "install-check", f"file://{d}/tree/main/plugins/gohello",
                          "--go", go, "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "TMPDIR": tmpd})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not os.path.exists(started):
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    eq(p.returncode, 70, err)
    eq(err.decode().splitlines()[-1],
       "plugcheck: interrupted: the plugin tree was killed; the output above is incomplete")
    r = json.loads(out)
    eq((r["incomplete"], ids(r)), (True, []))
    eq((case(r, "install")["status"], case(r, "install")["message"]),
       ("skip", "interrupted: plugcheck was stopped during the install and killed git/go; not judged"))
    eq(os.listdir(tmpd), [])

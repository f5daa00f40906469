"""Shared by test_new_steps_{sh,python,c}.py (issue 20): a scaffold must
pass what it tells its author to run. For every language and a spread of
part combinations (none at all, a system prompt only, and two plugins that
hold every kind of part between them), run

- the "Next steps:" lines `plugcheck new` prints, verbatim, in one shell;
- every step of the generated .github/workflows/plugcheck.yml (its one
  use of plugcheck's action run through tests/e2e/action.py with this
  build as the installed plugcheck) and every command of .gitlab-ci.yml
  (after its checkout/bootstrap lines, which are asserted exactly and
  replaced by this build), as those runners would;

and for a name full of shell, Python, C, printf, YAML and template
metacharacters, check that every script still passes and says the name
exactly as given (no user string reaches generated code unquoted).
"""
import glob
import json
import os
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

import yaml

from action import Action
from run import eq

# Between them every part kind, each blocking/advisory, readonly/destructive
# and script/prompt variant.
COMBOS = [
    [],
    ["--system-prompt"],
    ["--hook", "pre_bash", "--tool", "lookup", "--readonly", "--command", "ask", "--prompt"],
    ["--hook", "turn_end", "--tool", "apply_change", "--command", "hello", "--oauth", "acme",
     "--memory"],
]
GITLAB_SETUP = ["apt-get update && apt-get install -y git",
                "git clone https://example.invalid/plugcheck.git /opt/plugcheck && "
                "/opt/plugcheck/bootstrap.sh"]
ACTION = Action(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                             "action.yml"))
# a name the host accepts (R2.5) that breaks every unquoted spot: shell
# quotes, command substitution, ';', a space, printf and Python '%',
# C trigraph '??=', template braces, a '#', non-ASCII
HOSTILE = "q'\"$(touch pwned)`touch pw2`;y z%s%n*??={{JSON_SH}}{{PLUGIN}} é #x"


def shell(cwd, script, env=None, timeout=280):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=e, capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def next_steps(out):
    """The command lines of the "Next steps:" block, comments dropped."""
    lines = out.split("\nNext steps:\n", 1)[1].split("\n")
    steps = []
    for line in lines:
        if not line.startswith("  "):
            break
        steps.append(line.split(" # ", 1)[0].strip())
    return steps


def github_steps(path, signing_key):
    """(env, steps) of the workflow: each step ("run", env, command) or
    ("action", with) for its one use of plugcheck's action, with its
    `if:` conditions evaluated."""
    doc = yaml.safe_load(open(path))
    (job,) = doc["jobs"].values()
    env = {k: (signing_key if "secrets.PLUGIN_SIGNING_KEY" in v else v)
           for k, v in (job.get("env") or {}).items()}
    steps = []
    for st in job["steps"]:
        cond = st.get("if")
        if cond == "env.PLUGIN_SIGNING_KEY != ''" and not env.get("PLUGIN_SIGNING_KEY"):
            continue
        assert cond in (None, "env.PLUGIN_SIGNING_KEY != ''", "always()"), cond
        if "run" in st:
            steps.append(("run", st.get("env") or {}, st["run"]))
        elif st["uses"].startswith("OWNER/plugcheck@"):
            steps.append(("action", {k: str(v) for k, v in (st.get("with") or {}).items()}))
        else:
            assert st["uses"].startswith(("actions/checkout@", "actions/upload-artifact@")), st
    eq(sum(1 for s in steps if s[0] == "action"), 1, path)
    return env, steps


def gitlab_commands(path):
    doc = yaml.safe_load(open(path))
    script = doc["plugcheck"]["script"]
    eq(script[:len(GITLAB_SETUP)], GITLAB_SETUP, path)
    return script[len(GITLAB_SETUP):]


def link_plugcheck(ctx, prefix):
    """prefix/build/dev/plugcheck -> this build's binary."""
    d = os.path.join(prefix, "build", "dev")
    os.makedirs(d, exist_ok=True)
    if not os.path.exists(os.path.join(d, "plugcheck")):
        os.symlink(ctx.plugcheck, os.path.join(d, "plugcheck"))


def junit_ok(path, what):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    cases = [c for s in suites for c in s.iter("testcase")]
    bad = [c.get("name") for c in cases if c.find("failure") is not None or
           c.find("error") is not None]
    eq(bad, [], what)
    return cases


def run_ci(ctx, d, signing_key=""):
    """Run both CI files' steps in the plugin directory d; return the
    JUnit cases of the GitLab run."""
    env, steps = github_steps(os.path.join(d, ".github", "workflows", "plugcheck.yml"),
                              signing_key)
    # combos run in threads: a runner of its own for each
    runner_temp = tempfile.mkdtemp(prefix="runner-temp-", dir=ctx.tmp)
    bindir = tempfile.mkdtemp(prefix="action-bin-", dir=ctx.tmp)
    os.symlink(ctx.plugcheck, os.path.join(bindir, "plugcheck"))
    junit = os.path.join(d, "plugcheck.xml")
    path = os.environ["PATH"]
    for st in steps:
        if st[0] == "action":
            # the action's install step pretended (test_dist runs it): this
            # build goes on PATH for the steps after it, as GITHUB_PATH does
            r = ACTION.run(st[1], workspace=d, runner_temp=runner_temp,
                           env={**env, "PATH": path},
                           replace={"install": {"bin": bindir, "from": "source"}})
            eq(r.failed, False, f"plugcheck's action in {d}: "
               + "\n".join(f"{x['name']}: {x.get('stdout', '')}{x.get('stderr', '')}"
                           for x in r.steps))
            path = bindir + os.pathsep + path
            if r.outputs.get("junit"):
                junit = r.outputs["junit"]
            continue
        code, out = shell(d, st[2], {**env, **st[1], "RUNNER_TEMP": runner_temp, "PATH": path})
        eq(code, 0, f"GitHub step in {d}: {st[2]}\n{out}")
    junit_ok(junit, f"GitHub JUnit of {d}")
    os.unlink(junit)
    opt = os.path.join(ctx.tmp, "opt-plugcheck")
    link_plugcheck(ctx, opt)
    script = "\n".join(gitlab_commands(os.path.join(d, ".gitlab-ci.yml")))
    code, out = shell(d, script.replace("/opt/plugcheck/", opt + "/"),
                      {"PLUGIN_SIGNING_KEY": signing_key} if signing_key else {})
    eq(code, 0, f"GitLab script in {d}:\n{script}\n{out}")
    return junit_ok(os.path.join(d, "plugcheck.xml"), f"GitLab JUnit of {d}")


def new_and_steps(ctx, name, *args, env=None):
    """`plugcheck new`, then its printed next steps run as printed."""
    code, out, err = ctx.run("new", name, *args, env=env)
    eq(code, 0, out + err)
    steps = next_steps(out)
    code, log = shell(ctx.tmp, "\n".join(steps), env)
    eq(code, 0, f"next steps of new {name} {args}:\n" + "\n".join(steps) + "\n" + log)
    return steps, os.path.join(ctx.tmp, name)


def one_combo(ctx, lang, i, parts):
    name = f"c{i}-{lang}"
    steps, d = new_and_steps(ctx, name, "--lang", lang, *parts)
    # plugcheck is not on PATH here: the steps name this binary
    eq([s for s in steps if s.endswith(" check .")], [f"{ctx.plugcheck} check ."], steps)
    scen = sorted(glob.glob(os.path.join(d, "tests", "*.plugcheck.yaml")))
    # `run` is printed only when there are scenarios to run
    eq(any(" run tests/" in s for s in steps), bool(scen), steps)
    cases = run_ci(ctx, d)
    # the CI's check ran the scenarios too: one case per step
    names = [c.get("classname") or "" for c in cases]
    eq(bool([n for n in names if "scenario" in n]), bool(scen), names)


def combos(ctx, lang):
    with ThreadPoolExecutor(max_workers=2) as ex:
        for f in [ex.submit(one_combo, ctx, lang, i, p) for i, p in enumerate(COMBOS)]:
            f.result()


def chatcli(ctx, lang):
    """A ChatCLI scaffold: its next steps (run.sh, keygen, sign) with a
    throwaway HOME, then both CI files with a release key, signing too."""
    home = os.path.join(ctx.tmp, "home")
    os.makedirs(home)
    name = f"cc-{lang}"
    # with this build on PATH as `plugcheck`, the steps say just that
    bindir = os.path.join(ctx.tmp, "bin")
    os.makedirs(bindir)
    os.symlink(ctx.plugcheck, os.path.join(bindir, "plugcheck"))
    steps, d = new_and_steps(ctx, name, "--host", "chatcli", "--lang", lang,
                             env={"HOME": home, "PATH": bindir + ":" + os.environ["PATH"]})
    eq(steps[-2:], ["plugcheck keygen", f"plugcheck sign bin/{name} --key "
                    "~/.chatcli/plugin-keys/plugin-signing.key"])
    assert os.path.exists(os.path.join(d, "bin", name + ".sig")), steps
    key = open(os.path.join(home, ".chatcli", "plugin-keys", "plugin-signing.key")).read()
    os.unlink(os.path.join(d, "bin", name + ".sig"))
    run_ci(ctx, d, signing_key=key)
    # the CI signed it with the release key
    assert os.path.exists(os.path.join(d, "bin", name + ".sig")), os.listdir(d + "/bin")


def run_script(path, stdin, home):
    p = subprocess.run([path], input=stdin.encode(), capture_output=True, timeout=60,
                       env={"PATH": os.environ["PATH"], "HOME": home})
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def said(stderr, prefix, what):
    """stderr is one line starting with prefix (the name kept whole)."""
    eq((stderr[:len(prefix)], stderr.count("\n"), stderr[-1:]), (prefix, 1, "\n"),
       f"{what}: {stderr!r}")


def hostile(ctx, lang):
    """Every part with HOSTILE as the plugin name: check passes, the
    scenarios pass, nothing ran that the name spells, and each script's
    messages carry the name exactly."""
    args = ["--lang", lang, "--hook", "pre_bash", "--hook", "turn_end", "--tool", "lookup",
            "--command", "hello", "--command", "ask", "--prompt", "--oauth", "acme",
            "--memory", "--system-prompt"]
    code, out, err = ctx.run("new", HOSTILE, *args)
    eq(code, 0, out + err)
    d = os.path.join(ctx.tmp, HOSTILE)
    eq(json.load(open(os.path.join(d, "plugin.json")))["name"], HOSTILE)
    if lang == "c":
        p = subprocess.run(["make", "-C", d, "CFLAGS=-std=c11 -Wall -Wextra -Werror -Wtrigraphs"],
                           capture_output=True, text=True)
        eq(p.returncode, 0, p.stdout + p.stderr)
    # the printed next steps quote the directory too: cd, make, check
    # (exit 0: no error), run (every scenario passes)
    steps = next_steps(out)
    eq(steps[0], "cd './q'\\''\"$(touch pwned)`touch pw2`;y z%s%n*??={{JSON_SH}}{{PLUGIN}} é #x'")
    code, log = shell(ctx.tmp, "\n".join(steps))
    eq(code, 0, "\n".join(steps) + "\n" + log)
    ids = [s["id"] for s in ctx.json("run", *sorted(glob.glob(d + "/tests/*.yaml")))[1]["scenarios"]]
    eq([i for i in ids if "//" in i], [], ids)
    m = json.load(open(os.path.join(d, "plugin.json")))
    home = os.path.join(ctx.tmp, "h")
    os.makedirs(home)
    for point, h in m["hooks"].items():
        code, so, se = run_script(os.path.join(d, h["script"]), "not json", home)
        said(se, f"{HOSTILE}: {point}: ", h["script"])
        if point == "pre_bash":
            eq(json.loads(so)["reason"], f"{HOSTILE}: could not read the hook input")
    for t in m["tools"]:
        code, so, se = run_script(os.path.join(d, t["script"]), "not json", home)
        said(se, f"{HOSTILE}: {t['name']}: ", t["script"])
        eq(json.loads(so)["output"], f"{t['name']}: could not read the tool input")
    for c in m["commands"]:
        if "script" in c:
            code, so, se = run_script(os.path.join(d, c["script"]), "not json", home)
            said(se, f"{HOSTILE}: /{c['name']}: ", c["script"])
    mem = os.path.join(d, m["memory_provider"]["script"])
    code, so, se = run_script(mem, "not json", home)
    said(se, f"{HOSTILE}: memory: ", mem)
    code, so, se = run_script(mem, '{"action":"save","args":{"content":"x","name":"n"}}', home)
    eq(json.loads(so)["ok"], True, se)
    store = os.path.join(home, ".config", HOSTILE)
    assert os.path.isdir(store), os.listdir(os.path.join(home, ".config"))
    oauth = os.path.join(d, m["oauth"]["script"])
    code, so, se = run_script(oauth, '{"action":"token","token_path":"%s/t.json"}' % home, home)
    eq(json.loads(so)["error"], "not logged in: run /login acme")
    if se:  # the sh and C scripts also say it on stderr
        said(se, f"{HOSTILE}: oauth: not logged in: run /login acme", oauth)
    for spelled in ("pwned", "pw2"):
        eq(glob.glob(os.path.join(ctx.tmp, "**", spelled), recursive=True), [], spelled)

"""plugcheck installed the ways CI installs tools (issue 19, item 5).

- action.yml: its run: steps run here (tests/e2e/action.py) with the inputs
  a workflow gives; the uses: steps (upload-sarif, upload-artifact) are
  not run, their if: and with: are asserted. The first test to need it
  builds plugcheck through the action's own from-source path (the dist
  preset) into BUILD/dist-test/build; later runs reuse that build
  incrementally (PLUGCHECK_BUILD_DIR), and the .deb is cpack'd from it.
- the .deb (cpack -G DEB): its control fields against what the binary
  links, unpacked into a throwaway root and run there on
  examples/secret-guard.
- cmake --install into a staged prefix (DESTDIR): the installed binary
  finds its own templates.
- the Dockerfile: its package lists against the .deb (no docker daemon is
  needed; the image is built only where one answers).
"""
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

from e2e import eq
from action import Action, evaluate

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXAMPLE = os.path.join(ROOT, "examples", "secret-guard")
VERSION = re.search(r"^project\(plugcheck VERSION ([0-9.]+)",
                    open(os.path.join(ROOT, "CMakeLists.txt")).read(), re.M).group(1)
ACTION = Action(os.path.join(ROOT, "action.yml"))
# the libraries CMakeLists.txt links (pkg_check_modules) and libc, as the
# Debian 12 packages that ship them
LINKED = {"libc6", "libcjson1", "libyaml-0-2", "libpcre2-8-0", "libsodium23",
          "libzip4"}

_memo = {}


def sh(*argv, ok=True, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, **kw)
    if ok and p.returncode:
        raise AssertionError(f"{argv} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def busy_args():
    # PC-PROC-002 (p95 latency over half the timeout) judges the machine
    # as much as the plugin (test_check.test_example_is_clean)
    return "--ignore PC-PROC-002" if os.getloadavg()[0] > (os.cpu_count() or 1) else ""


def cache(ctx):
    d = os.path.join(os.path.dirname(ctx.plugcheck), "dist-test")
    os.makedirs(d, exist_ok=True)
    return d


def workspace(ctx, *plugins):
    """A workspace holding copies of the given plugin directories."""
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws, exist_ok=True)
    for src in plugins:
        shutil.copytree(src, os.path.join(ws, os.path.basename(src)))
    return ws


def action(ctx, inputs, ws=None, runner="runner", env=None, **kw):
    e = {"PLUGCHECK_BUILD_DIR": os.path.join(cache(ctx), "build")}
    e.update(env or {})
    return ACTION.run(inputs, workspace=ws or workspace(ctx),
                      runner_temp=os.path.join(ctx.tmp, runner), env=e, **kw)


def ok_step(r, step):
    s = r.step(step)
    assert s["ran"] and s["rc"] == 0, f"{step}: rc {s.get('rc')}\n{s.get('stdout')}\n{s.get('stderr')}"
    return s


def dist(ctx):
    """The action's install step building from source: bin dir and the
    build dir (the dist preset), shared by every test of the module."""
    if "bin" not in _memo:
        r = action(ctx, {}, runner="dist-runner", stop_after="install")
        s = ok_step(r, "install")
        eq((s["outputs"]["from"], s["outputs"]["version"]), ("source", VERSION), s["stdout"])
        _memo["bin"] = s["outputs"]["bin"]
    return os.path.join(cache(ctx), "build")


def deb(ctx):
    """plugcheck_VERSION_ARCH.deb, cpack'd from the dist build."""
    if "deb" not in _memo:
        build = dist(ctx)
        out = os.path.join(cache(ctx), "deb")
        shutil.rmtree(out, ignore_errors=True)
        sh("cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B", out)
        arch = sh("dpkg", "--print-architecture").stdout.strip()
        _memo["deb"] = os.path.join(out, f"plugcheck_{VERSION}_{arch}.deb")
        assert os.path.isfile(_memo["deb"]), os.listdir(out)
    return _memo["deb"]


def fake_tools(ctx, **scripts):
    """A directory of stand-ins (name -> sh body) to put first on PATH;
    each logs its argv to LOG.name."""
    d = os.path.join(ctx.tmp, "fake")
    os.makedirs(d, exist_ok=True)
    for name, body in scripts.items():
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(f'#!/bin/sh\necho "$*" >> "{d}/LOG.{name}"\n{body}\n')
        os.chmod(p, 0o755)
    return d


def logged(fake, name):
    p = os.path.join(fake, "LOG." + name)
    return open(p).read().splitlines() if os.path.exists(p) else []


def with_path(fake):
    return {"PATH": fake + os.pathsep + os.environ["PATH"]}


def junit_counts(path):
    root = ET.parse(path).getroot()
    eq(root.tag, "testsuites")
    return {k: int(root.get(k)) for k in ("tests", "failures", "errors")}


def failing_plugin(ctx):
    """A plugin with one error (PC-HOOK-010: a guard that exits 3)."""
    return ctx.plugin("bad", {"name": "bad", "version": "1.0.0",
                              "hooks": {"pre_write": {"script": "h.sh"}}},
                      {"h.sh": "#!/bin/sh\nexit 3\n"}, dirname="ws/bad")


def repack(ctx, src, name, **fields):
    """A copy of the .deb `src` with control fields appended to."""
    d = os.path.join(ctx.tmp, "repack")
    sh("dpkg-deb", "-R", src, d)
    control = os.path.join(d, "DEBIAN", "control")
    text = open(control).read()
    for k, extra in fields.items():
        text = re.sub(rf"^{k}: (.*)$", lambda m: f"{k}: {m.group(1)}, {extra}", text, flags=re.M)
    open(control, "w").write(text)
    out = os.path.join(ctx.tmp, name)
    sh("dpkg-deb", "--root-owner-group", "-b", d, out)
    shutil.rmtree(d)
    return out


# ---- action.yml ----

def test_action_yml_passes_every_value_through_env(ctx):
    doc = ACTION.doc
    inputs = set(doc["inputs"])
    used = set()
    for step in doc["runs"]["steps"]:
        # script injection: no ${{ }} in any run:, values come in as env
        assert "${{" not in step.get("run", ""), step["name"]
        for v in list((step.get("env") or {}).values()) + list((step.get("with") or {}).values()) + [step.get("if", "")]:
            used |= set(re.findall(r"inputs\.([\w-]+)", str(v)))
        if "uses" in step:
            assert re.fullmatch(r"[\w-]+/[\w/-]+@v\d+", step["uses"]), step["uses"]
            assert step.get("if"), f"{step['name']}: an upload must be conditional"
    eq(used - inputs, set(), "inputs used but not declared")
    eq(inputs - used, set(), "inputs declared but never used")
    eq([s.get("uses") for s in doc["runs"]["steps"] if "uses" in s],
       ["github/codeql-action/upload-sarif@v3", "actions/upload-artifact@v4"])
    scripts = [os.path.join(ROOT, "tools", "action", n) for n in ("install.sh", "check.sh")]
    if shutil.which("shellcheck"):
        p = sh("shellcheck", *scripts, ok=False)
        eq(p.returncode, 0, p.stdout)


def test_workflows_we_ship_use_the_action_as_it_is(ctx):
    # the README's snippet and plugcheck new's workflows: the action at
    # this version, only inputs it declares
    import yaml
    readme = open(os.path.join(ROOT, "README.md")).read()
    docs = [yaml.safe_load(m) for m in re.findall(r"```yaml\n(jobs:.*?)```", readme, re.S)]
    for host in ("catalyst", "chatcli"):
        with open(os.path.join(ROOT, "scaffold", "templates", host, "ci", "github.yml")) as f:
            docs.append(yaml.safe_load(f))
    eq(len(docs), 3)
    for doc in docs:
        uses = [s for job in doc["jobs"].values() for s in job["steps"]
                if s.get("uses", "").startswith("OWNER/plugcheck")]
        eq(len(uses), 1, doc)
        eq(uses[0]["uses"], f"OWNER/plugcheck@v{VERSION}")
        eq(set(uses[0].get("with", {})) - set(ACTION.doc["inputs"]), set())
        assert not any("bootstrap.sh" in str(s.get("run", "")) for job in doc["jobs"].values()
                       for s in job["steps"]), "built from source in every job"


def test_expression_evaluator_follows_github(ctx):
    # the harness's own rules, so the if: results below mean something
    c = {"inputs": {"a": "true", "e": ""}, "github": {"event": {}}}
    eq(evaluate("inputs.a == 'TRUE'", c), True)          # strings: case-insensitive
    eq(evaluate("inputs.e != ''", c), False)
    eq(evaluate("github.event.pull_request.head.repo.fork != true", c), True)   # null vs true
    eq(evaluate("inputs.missing == ''", c), True)        # null == '' (both 0)
    eq(evaluate("inputs.a == 'true' && inputs.e", c), "")
    eq(evaluate("!(inputs.e || inputs.a == 'x')", c), True)


def test_action_builds_from_source_checks_and_uploads_junit(ctx):
    dist(ctx)
    ws = workspace(ctx, EXAMPLE)
    r = action(ctx, {"path": "secret-guard", "format": "junit", "args": busy_args()}, ws=ws)
    s = ok_step(r, "install")
    eq(s["outputs"]["from"], "source")
    binary = os.path.join(s["outputs"]["bin"], "plugcheck")
    eq(sh(binary, "--version").stdout, f"plugcheck {VERSION}\n")
    assert binary.startswith(os.path.join(ctx.tmp, "runner", "plugcheck", "usr", "bin")), binary
    eq(r.path, [s["outputs"]["bin"]], "GITHUB_PATH")
    c = ok_step(r, "check")
    reports = os.path.join(ctx.tmp, "runner", "plugcheck-reports")
    junit = os.path.join(reports, "plugcheck.xml")
    eq(c["outputs"], {"exit-code": "0", "sarif": "", "junit": junit, "reports": reports})
    eq(junit_counts(junit)["failures"], 0)
    assert junit_counts(junit)["tests"] > 40, junit_counts(junit)
    summary = [l for l in c["stdout"].splitlines() if l.endswith("— PASS") or l.endswith("— FAIL")]
    eq(len(summary), 1, c["stdout"])
    assert summary[0].startswith("0 error(s)"), summary
    up = r.step("Upload the reports")
    eq((up["ran"], up["with"]), (True, {"name": "plugcheck", "path": reports,
                                        "if-no-files-found": "warn"}))
    eq(r.step("Upload the SARIF report to code scanning")["ran"], False)
    ok_step(r, "Verdict")
    eq((r.failed, r.outputs["exit-code"], r.outputs["junit"]), (False, "0", junit))


def test_action_findings_fail_the_job_after_the_uploads(ctx):
    dist(ctx)
    failing_plugin(ctx)
    ws = os.path.join(ctx.tmp, "ws")
    r = action(ctx, {"path": "bad", "format": "junit", "reports": "out"}, ws=ws)
    c = ok_step(r, "check")
    eq(c["outputs"]["exit-code"], "1")
    junit = os.path.join(ws, "out", "plugcheck.xml")
    eq(c["outputs"]["junit"], junit)
    assert junit_counts(junit)["failures"] >= 1, junit_counts(junit)
    assert "PC-HOOK-010" in open(junit).read()
    eq(r.step("Upload the reports")["ran"], True)
    v = r.step("Verdict")
    eq((v["ran"], v["rc"], r.failed), (True, 1, True))
    assert v["stdout"].startswith("::error title=plugcheck::plugcheck check exited 1 "), v["stdout"]
    # args reach plugcheck check: the finding suppressed, the job passes
    r = action(ctx, {"path": "bad", "format": "junit", "args": "--ignore  PC-HOOK-010"},
               ws=ws, runner="runner2")
    eq((r.step("check")["outputs"]["exit-code"], r.failed), ("0", False))


def test_action_strict_makes_warnings_fail(ctx):
    dist(ctx)
    ctx.plugin("warn", {"name": "warn", "version": "1.0.0",
                        "hooks": {"post_bash": {"script": "h.sh"}}},
               {"h.sh": "#!/bin/sh\necho nope\n"}, dirname="ws/warn")
    ws = os.path.join(ctx.tmp, "ws")
    got = []
    for i, strict in enumerate(("false", "true")):
        r = action(ctx, {"path": "warn", "format": "", "strict": strict}, ws=ws,
                   runner=f"runner{i}")
        c = ok_step(r, "check")
        got.append((c["outputs"]["exit-code"], c["outputs"]["reports"], r.failed))
        assert "PC-HOOK-011" in c["stdout"], c["stdout"]
    eq(got, [("0", "", False), ("1", "", True)])


def test_action_defaults_write_sarif_and_junit(ctx):
    # the default format, "sarif junit", needs plugcheck's SARIF renderer
    # (issue 19 item 2, another branch): until it is in, say so and stop
    code, out, err = ctx.run("check", "--help")
    if not re.search(r"--format FMT .*\bsarif\b", out):
        print("note: plugcheck has no --format sarif yet: the default formats were not run")
        return
    dist(ctx)
    ws = workspace(ctx, EXAMPLE)
    r = action(ctx, {"path": "secret-guard", "args": busy_args()}, ws=ws)
    c = ok_step(r, "check")
    reports = os.path.join(ctx.tmp, "runner", "plugcheck-reports")
    eq(c["outputs"], {"exit-code": "0", "sarif": reports + "/plugcheck.sarif",
                      "junit": reports + "/plugcheck.xml", "reports": reports})
    sarif = json.load(open(reports + "/plugcheck.sarif"))
    eq((sarif["version"], len(sarif["runs"])), ("2.1.0", 1))
    eq(junit_counts(reports + "/plugcheck.xml")["failures"], 0)
    up = r.step("Upload the SARIF report to code scanning")
    eq((up["ran"], up["with"]["sarif_file"]), (True, reports + "/plugcheck.sarif"))
    eq(r.failed, False)


def stub_plugcheck(ctx, exits):
    """A stand-in plugcheck that logs its argv as JSON, writes a small
    report to --output and exits with exits[--format]."""
    d = os.path.join(ctx.tmp, "stub")
    os.makedirs(d)
    p = os.path.join(d, "plugcheck")
    with open(p, "w") as f:
        f.write(f"""#!/usr/bin/env python3
import json, sys
a = sys.argv[1:]
open({os.path.join(d, "argv")!r}, "a").write(json.dumps(a) + "\\n")
fmt = a[a.index("--format") + 1] if "--format" in a else ""
if "--output" in a:
    open(a[a.index("--output") + 1], "w").write('{{"version": "2.1.0", "runs": []}}' if fmt == "sarif" else "<testsuites/>")
print("summary of " + (fmt or "default"))
sys.exit({exits!r}.get(fmt, 0))
""")
    os.chmod(p, 0o755)
    return d


def test_action_runs_each_format_with_the_inputs_and_uploads_sarif(ctx):
    stub = stub_plugcheck(ctx, {"sarif": 0, "junit": 0, "json": 1})
    ws = workspace(ctx)
    inputs = {"path": "plugins/x", "format": "sarif, junit json", "strict": "true",
              "sandbox": "true", "args": "--ignore PC-MAN-002  -j 2 *",
              "reports": "r", "artifact-name": "pc"}
    r = action(ctx, inputs, ws=ws, replace={"install": {"bin": stub}})
    c = ok_step(r, "check")
    rep = os.path.join(ws, "r")
    base = ["check", "plugins/x", "--strict", "--sandbox", "--ignore", "PC-MAN-002", "-j", "2", "*"]
    eq([json.loads(l) for l in open(os.path.join(stub, "argv"))],
       [base + ["--format", "sarif", "--output", rep + "/plugcheck.sarif"],
        base + ["--format", "junit", "--output", rep + "/plugcheck.xml"],
        base + ["--format", "json", "--output", rep + "/plugcheck.json"]])
    # the first run's summary only; the exit status of the one that failed
    eq([l for l in c["stdout"].splitlines() if l.startswith("summary")], ["summary of sarif"])
    eq(c["outputs"], {"exit-code": "1", "sarif": rep + "/plugcheck.sarif",
                      "junit": rep + "/plugcheck.xml", "reports": rep})
    up = r.step("Upload the SARIF report to code scanning")
    eq((up["ran"], up["with"]), (True, {"sarif_file": rep + "/plugcheck.sarif",
                                        "category": "plugcheck"}))
    eq(r.step("Upload the reports")["with"]["name"], "pc")
    eq((r.step("Verdict")["rc"], r.outputs["exit-code"], r.outputs["sarif"]),
       (1, "1", rep + "/plugcheck.sarif"))
    # a fork's pull request cannot write code scanning alerts: no upload;
    # upload-sarif false: none either; github annotations go to the log
    fork = {"event": {"pull_request": {"head": {"repo": {"fork": True}}}}}
    r = action(ctx, dict(inputs, format="sarif"), ws=ws, runner="r2",
               replace={"install": {"bin": stub}}, github=fork)
    eq(r.step("Upload the SARIF report to code scanning")["ran"], False)
    r = action(ctx, dict(inputs, format="github sarif", **{"upload-sarif": "false"}),
               ws=ws, runner="r3", replace={"install": {"bin": stub}})
    eq(r.step("Upload the SARIF report to code scanning")["ran"], False)
    eq([l for l in r.step("check")["stdout"].splitlines() if l.startswith("summary")],
       ["summary of github"])


def test_action_rejects_a_bad_boolean_before_running(ctx):
    stub = stub_plugcheck(ctx, {})
    r = action(ctx, {"sandbox": "yes"}, replace={"install": {"bin": stub}})
    c = r.step("check")
    eq((c["rc"], c["stdout"]), (2, "::error title=plugcheck action::input sandbox must be true or false, not 'yes'\n"))
    eq([s["name"] for s in r.steps if s["ran"]], ["Install plugcheck", "Check the plugin"])
    eq(r.failed, True)
    assert not os.path.exists(os.path.join(stub, "argv"))


def test_action_with_an_empty_path_only_installs(ctx):
    # what plugcheck new's ChatCLI workflow uses: tests/run.sh checks a
    # signed copy with the plugcheck the action put on PATH
    stub = stub_plugcheck(ctx, {})
    r = action(ctx, {"path": ""}, replace={"install": {"bin": stub}})
    c = ok_step(r, "check")
    eq(c["stdout"], "plugcheck action: input path is empty: plugcheck is installed, nothing is checked\n")
    eq(c["outputs"], {"exit-code": "0", "sarif": "", "junit": "", "reports": ""})
    eq([s["name"] for s in r.steps if s["ran"]], ["Install plugcheck", "Check the plugin", "Verdict"])
    eq((r.failed, r.outputs["bin"]), (False, stub))
    assert not os.path.exists(os.path.join(stub, "argv"))


def test_action_installs_a_deb_and_its_missing_dependencies(ctx):
    pkg = deb(ctx)
    ws = workspace(ctx, EXAMPLE)
    fake = fake_tools(ctx, **{"apt-get": "exit 0", "sudo": "exit 1"})
    r = action(ctx, {"deb": pkg, "path": "secret-guard", "format": "", "args": busy_args()},
               ws=ws, env=with_path(fake))
    s = ok_step(r, "install")
    eq(s["outputs"]["from"], "deb")
    eq(logged(fake, "apt-get"), [], "every dependency is installed here")
    eq(ok_step(r, "check")["outputs"]["exit-code"], "0")
    # a dependency missing here: apt-get installs just that one
    extra = repack(ctx, pkg, "extra.deb", Depends="pc-missing-dep-604217 (>= 1.0)")
    r = action(ctx, {"deb": extra, "format": ""}, ws=ws, runner="r2", env=with_path(fake),
               stop_after="install")
    eq(ok_step(r, "install")["outputs"]["from"], "deb")
    eq(logged(fake, "apt-get"), ["update -qq", "install -y -qq --no-install-recommends pc-missing-dep-604217"])
    eq(logged(fake, "sudo"), [], "root needs no sudo")
    # apt-get cannot install it: a warning, and plugcheck built from source
    fake = fake_tools(ctx, **{"apt-get": "exit 100"})
    r = action(ctx, {"deb": extra}, ws=ws, runner="r3", env=with_path(fake), stop_after="install")
    s = ok_step(r, "install")
    eq(s["outputs"]["from"], "source")
    assert f"::warning title=plugcheck action::the deb input '{extra}' cannot be used here" in s["stdout"], s["stdout"]
    r = action(ctx, {"deb": os.path.join(ctx.tmp, "nope.deb")}, ws=ws, runner="r4", stop_after="install")
    eq((r.step("install")["rc"], r.step("install")["stdout"]),
       (1, f"::error title=plugcheck action::input deb: '{ctx.tmp}/nope.deb' is not a file\n"))


def test_action_takes_the_release_package_on_debian_12(ctx):
    pkg = deb(ctx)
    arch = sh("dpkg", "--print-architecture").stdout.strip()
    url = f"https://github.example.invalid/OWNER/plugcheck/releases/download/v{VERSION}/plugcheck_{VERSION}_{arch}.deb"
    fake = fake_tools(ctx, curl=f"""while [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done
[ "$1" = "{url}" ] && cp "{pkg}" "$out" && exit 0
exit 22""")
    gh = {"action_repository": "OWNER/plugcheck", "action_ref": f"v{VERSION}"}
    e = dict(with_path(fake), GITHUB_SERVER_URL="https://github.example.invalid")
    r = action(ctx, {}, github=gh, env=e, stop_after="install")
    debian12 = re.search(r'^VERSION_ID="?12"?$', open("/etc/os-release").read(), re.M) and \
        re.search(r"^ID=debian$", open("/etc/os-release").read(), re.M)
    if not debian12:
        eq((ok_step(r, "install")["outputs"]["from"], logged(fake, "curl")), ("source", []))
        return
    eq(ok_step(r, "install")["outputs"]["from"], "deb")
    eq(len(logged(fake, "curl")), 1)
    assert logged(fake, "curl")[0].endswith(" " + url), logged(fake, "curl")
    # no such release (a branch ref): built from source
    r = action(ctx, {}, github=dict(gh, action_ref="main"), env=e, runner="r2", stop_after="install")
    s = ok_step(r, "install")
    eq(s["outputs"]["from"], "source")
    assert f"plugcheck action: no release package at {url.replace(f'v{VERSION}', 'main')}" in s["stdout"]
    # used again in the same job: what is installed is kept
    r = action(ctx, {}, github=gh, env=e, runner="r2", stop_after="install")
    eq(ok_step(r, "install")["outputs"]["from"], "installed")


# ---- the .deb ----

def test_deb_depends_on_what_the_binary_links(ctx):
    pkg = deb(ctx)
    fields = {k: sh("dpkg-deb", "-f", pkg, k).stdout.strip()
              for k in ("Package", "Version", "Architecture", "Depends", "Recommends", "Suggests")}
    eq((fields["Package"], fields["Version"]), ("plugcheck", VERSION))
    root = os.path.join(ctx.tmp, "root")
    sh("dpkg-deb", "-x", pkg, root)
    binary = os.path.join(root, "usr", "bin", "plugcheck")
    # the packages that own the libraries the binary needs, found here
    # independently of dpkg-shlibdeps (readelf + ldconfig + dpkg -S)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", sh("readelf", "-d", binary).stdout)
    cache_ = sh("/sbin/ldconfig", "-p").stdout
    owners = set()
    for lib in needed:
        path = re.search(rf"^\s+{re.escape(lib)} \(libc6[^)]*\) => (\S+)$", cache_, re.M).group(1)
        real = os.path.realpath(path)
        p = sh("dpkg", "-S", real, ok=False)
        if p.returncode:   # merged /usr: dpkg knows the /lib path
            p = sh("dpkg", "-S", real.replace("/usr/lib/", "/lib/", 1))
        owners.add(p.stdout.split(":")[0])
    depends = {re.sub(r"\s*\(.*\)", "", d).strip() for d in fields["Depends"].split(",")}
    eq(depends, owners, fields["Depends"])
    eq(depends, LINKED, "the libraries of CMakeLists.txt and libc")
    # every dependency is satisfied on this Debian 12 machine
    for d in fields["Depends"].split(","):
        m = re.match(r"\s*(\S+)(?: \((\S+) (\S+)\))?", d)
        have = sh("dpkg-query", "-W", "-f=${Version}", m.group(1)).stdout
        if m.group(2):
            sh("dpkg", "--compare-versions", have, m.group(2), m.group(3))
    # Recommends: what plugcheck runs, the same list as bootstrap.sh's
    # run_pkgs and the Dockerfile's runtime stage
    run_pkgs = re.search(r'^run_pkgs="(.*)"$', open(os.path.join(ROOT, "bootstrap.sh")).read(), re.M).group(1)
    eq(fields["Recommends"], "bubblewrap, strace, python3")
    eq(run_pkgs.split(), ["bubblewrap", "strace", "python3"])
    eq(fields["Suggests"], "git, golang-go")


def hide_repo(argv):
    """argv run with the source tree hidden (bwrap, when it works here),
    so an installed plugcheck cannot lean on it."""
    bwrap = shutil.which("bwrap")
    if bwrap and subprocess.run([bwrap, "--dev-bind", "/", "/", "true"]).returncode == 0:
        return [bwrap, "--dev-bind", "/", "/", "--tmpfs", ROOT, "--"] + argv
    return argv


def installed_tree_works(ctx, binary, share):
    """`plugcheck new` takes the installed templates (a marker put into the
    installed copy shows up in the new plugin) and the new plugin and a
    copy of the example check clean."""
    readme = os.path.join(share, "plugcheck", "templates", "catalyst", "README.md")
    with open(readme, "a") as f:
        f.write("\ninstalled-template-marker-604217\n")
    work = os.path.join(ctx.tmp, "work")
    shutil.copytree(EXAMPLE, os.path.join(work, "secret-guard"))
    p = sh(*hide_repo([binary, "new", "demo", "--hook", "pre_bash"]), cwd=work)
    assert "installed-template-marker-604217" in open(os.path.join(work, "demo", "README.md")).read()
    args = busy_args().split()
    for plugin in ("demo", "secret-guard"):
        p = sh(*hide_repo([binary, plugin, "--repeat", "1"] + args), cwd=work, ok=False)
        eq(p.returncode, 0, p.stdout + p.stderr)
        assert re.search(r"^0 error\(s\), 0 warning\(s\), \d+ note\(s\), \d+ suppressed — PASS$",
                         p.stdout, re.M), p.stdout


def test_deb_unpacked_in_a_throwaway_root_checks_the_example(ctx):
    root = os.path.join(ctx.tmp, "root")
    sh("dpkg-deb", "-x", deb(ctx), root)
    files = sh("find", ".", "-type", "f", cwd=root).stdout.split()
    for f in ("./usr/bin/plugcheck", "./usr/share/man/man1/plugcheck.1",
              "./usr/share/plugcheck/templates/catalyst/manifest/hook.json",
              "./usr/share/plugcheck/templates/chatcli/ci/github.yml",
              "./usr/share/doc/plugcheck/README.md",
              "./usr/share/doc/plugcheck/docs/sandbox.md"):
        assert f in files, f
    assert not [f for f in files if "/docs/man/" in f], "the man page is installed once"
    if os.path.isdir(os.path.join(ROOT, "docs", "rules")):
        for md in os.listdir(os.path.join(ROOT, "docs", "rules")):
            assert f"./usr/share/doc/plugcheck/docs/rules/{md}" in files, md
    eq(open(os.path.join(root, "usr/share/man/man1/plugcheck.1")).read(),
       open(os.path.join(ROOT, "docs/man/plugcheck.1")).read())
    installed_tree_works(ctx, os.path.join(root, "usr", "bin", "plugcheck"),
                         os.path.join(root, "usr", "share"))


def test_cmake_install_to_a_staged_prefix(ctx):
    # the build under test (build/dev, build/asan), staged: nothing is
    # written outside DESTDIR, and /opt/pc-604217 itself never exists
    build = os.path.dirname(ctx.plugcheck)
    stage = os.path.join(ctx.tmp, "stage")
    prefix = "/opt/pc-604217"
    p = sh("cmake", "--install", build, "--prefix", prefix, env=dict(os.environ, DESTDIR=stage))
    top = os.path.join(stage, prefix.lstrip("/"))
    eq(sorted(os.listdir(top)), ["bin", "share"])
    eq(os.listdir(os.path.join(top, "bin")), ["plugcheck"])
    eq(sorted(os.listdir(os.path.join(top, "share"))), ["doc", "man", "plugcheck"])
    assert not os.path.exists(prefix)
    installed_tree_works(ctx, os.path.join(top, "bin", "plugcheck"), os.path.join(top, "share"))


# ---- the Dockerfile ----

def stages(path):
    """[(FROM line, [instructions])] with continuation lines joined."""
    text = re.sub(r"\\\n", " ", open(path).read())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("FROM "):
            out.append((line, []))
        else:
            out[-1][1].append(re.sub(r"\s+", " ", line))
    return out


def test_dockerfile_installs_the_package_with_its_recommends(ctx):
    st = stages(os.path.join(ROOT, "Dockerfile"))
    eq([f for f, _ in st], ["FROM debian:12-slim AS build", "FROM debian:12-slim"])
    build = " && ".join(i for i in st[0][1] if i.startswith("RUN "))
    for cmd in ("sh bootstrap.sh --package-deps", "cmake --preset dist -B /build",
                "cmake --build /build", "cpack -G DEB -B /pkg"):
        assert cmd in build, (cmd, build)
    runtime = st[1][1]
    eq(runtime[0], "COPY --from=build /pkg/plugcheck_*.deb /tmp/")
    install = re.search(r"apt-get install -y --no-install-recommends (.*?) &&", runtime[1]).group(1)
    pkgs = install.split()
    eq(pkgs[0], "/tmp/plugcheck_*.deb")   # apt installs its Depends
    recommends = sh("dpkg-deb", "-f", deb(ctx), "Recommends").stdout.strip()
    eq(pkgs[1:], recommends.split(", "))
    eq(runtime[-2:], ['ENTRYPOINT ["plugcheck"]', 'CMD ["--help"]'])
    # the build stage's bootstrap mode exists (and finds every package here)
    sh("sh", os.path.join(ROOT, "bootstrap.sh"), "--package-deps")
    docker = shutil.which("docker")
    if not docker or subprocess.run([docker, "info"], capture_output=True, timeout=60).returncode:
        print("note: no docker daemon here: the image was not built")
        return
    tag = "plugcheck-test-604217"
    sh(docker, "build", "-t", tag, ROOT, timeout=1800)
    p = sh(docker, "run", "--rm", "-v", f"{EXAMPLE}:/work:ro", tag, ".", "--repeat", "1", ok=False)
    sh(docker, "rmi", tag, ok=False)
    eq(p.returncode, 0, p.stdout + p.stderr)

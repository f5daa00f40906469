"""--format sarif (issue 19, item 2): SARIF 2.1.0 from a fixture plugin
with findings of every severity (and a suppressed one) - one run, the
rules with their descriptions, help and helpUri, results with locations
and partialFingerprints that stay the same across runs and directories -
validated by Microsoft's SARIF multitool with its SARIF and GitHub
ingestion rules (--rule-kind "Sarif;Gh").

The multitool comes from the npm registry (@microsoft/sarif-multitool,
pinned below) and is installed once into the build directory
(BUILD/sarif-multitool); the test skips, saying so, only when the
registry cannot be reached."""
import json
import os
import shutil
import subprocess
import urllib.request

from e2e import Skip, eq

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                       "plugins", "places")
MULTITOOL = "@microsoft/sarif-multitool@5.7.0"
REGISTRY = "https://registry.npmjs.org/"


def registry_reachable():
    try:
        urllib.request.urlopen(REGISTRY + "@microsoft%2fsarif-multitool", timeout=15).read(1)
        return True
    except Exception:
        return False


def multitool(ctx):
    """The multitool's binary, installed into the build directory once."""
    prefix = os.path.join(os.path.dirname(ctx.plugcheck), "sarif-multitool")
    exe = os.path.join(prefix, "node_modules", "@microsoft", "sarif-multitool-linux",
                       "Sarif.Multitool")
    if not os.path.exists(exe):
        npm = shutil.which("npm")
        assert npm, "npm is missing: ./bootstrap.sh --deps installs nodejs and npm"
        p = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", prefix,
                            MULTITOOL], capture_output=True, timeout=240)
        if p.returncode != 0 or not os.path.exists(exe):
            if not registry_reachable():
                raise Skip("the npm registry (%s) cannot be reached: the SARIF multitool "
                           "could not be installed, so its validation did not run" % REGISTRY)
            raise AssertionError("npm install %s failed:\n%s" % (
                MULTITOOL, (p.stdout + p.stderr).decode("utf-8", "replace")))
    os.chmod(exe, 0o755)  # npm may skip the package's chmod script
    return exe


def validate(ctx, files):
    """Run the multitool on `files`; return its own results (problems)."""
    exe = multitool(ctx)
    out = os.path.join(ctx.tmp, "validation.sarif")
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1",
               DOTNET_CLI_TELEMETRY_OPTOUT="1", HOME=ctx.tmp)
    p = subprocess.run([exe, "validate", *files, "--rule-kind", "Sarif;Gh", "--output", out,
                        "--log", "ForceOverwrite"], capture_output=True, env=env, timeout=240,
                       cwd=ctx.tmp)
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    eq(p.returncode, 0, text)
    with open(out) as f:
        log = json.load(f)
    return [r for run in log["runs"] for r in run.get("results", [])], text


def sarif(ctx, *args):
    code, out, err = ctx.run(*args, "--format", "sarif")
    eq(err, "", args)
    return code, json.loads(out)


def copy(ctx, where):
    d = os.path.join(ctx.tmp, where, "places")
    shutil.copytree(FIXTURE, d)
    return os.path.relpath(d, ctx.tmp)


def test_sarif_of_every_severity_validates(ctx):
    path = copy(ctx, "a")
    code, log = sarif(ctx, "check", path, "--repeat", "1", "--ignore", "PC-MAN-002")
    eq(code, 1)
    code, js = ctx.json("check", path, "--repeat", "1", "--ignore", "PC-MAN-002")
    eq(log["version"], "2.1.0")
    eq(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json")
    eq(len(log["runs"]), 1)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    eq((driver["name"], driver["version"]), ("plugcheck", js["plugcheck"]))
    rules = driver["rules"]
    eq([r["id"] for r in rules], sorted({f["id"] for f in js["findings"]}))
    for r in rules:
        code, md, _ = ctx.run("explain", r["id"], "--format", "markdown")
        eq(r["help"]["markdown"], md, r["id"])
        assert r["helpUri"].endswith("/blob/main/docs/rules/%s.md" % r["id"]), r["helpUri"]
        assert 0 < len(r["fullDescription"]["text"]) <= 1024, r["id"]
        assert r["shortDescription"]["text"] and r["help"]["text"], r["id"]
    results = run["results"]
    eq(len(results), len(js["findings"]))
    eq({r["level"] for r in results}, {"error", "warning", "note"})
    for res, f in zip(results, js["findings"]):
        eq(res["ruleId"], f["id"])
        eq(rules[res["ruleIndex"]]["id"], f["id"])
        eq(res["level"], f["severity"])
        loc = res["locations"][0]["physicalLocation"]
        eq(loc["artifactLocation"]["uri"], path + "/" + f["file"])
        eq(loc["region"]["startLine"], f["line"] or 1)
        eq(loc["region"].get("startColumn"), f["column"])
        eq("suppressions" in res, f["suppressed"], f["id"])
    sup = [r for r in results if r["ruleId"] == "PC-MAN-002"]
    eq(sup[0]["suppressions"], [{"justification": "suppressed by --ignore or .plugcheck.yaml",
                                 "kind": "external", "status": "accepted"}])
    eq(run["invocations"], [{"executionSuccessful": True}])
    # the other reports: no file (lint of a non-plugin), a scenario run
    os.makedirs(os.path.join(ctx.tmp, "nowhere"), exist_ok=True)   # no plugin.json
    code, lint = sarif(ctx, "lint", "nowhere")
    eq(lint["runs"][0]["results"][0]["locations"][0]["physicalLocation"],
       {"artifactLocation": {"uri": "nowhere"}, "region": {"startLine": 1, "endLine": 1}})
    code, scn = sarif(ctx, "run", path + "/tests/deny.plugcheck.yaml")
    eq([r["ruleId"] for r in scn["runs"][0]["results"]], ["PC-SCN-001"])
    files = []
    for name, doc in (("check", log), ("lint", lint), ("run", scn)):
        p = os.path.join(ctx.tmp, name + ".sarif")
        with open(p, "w") as f:
            json.dump(doc, f)
        files.append(p)
    problems, text = validate(ctx, files)
    bad = [p for p in problems if p.get("level", "warning") not in ("note", "none")]
    eq(bad, [], text)


def fingerprints(log):
    return [(r["ruleId"], r["partialFingerprints"]["plugcheck/v1"])
            for r in log["runs"][0]["results"]]


def test_fingerprints_are_stable_and_distinct(ctx):
    a, b = copy(ctx, "a"), copy(ctx, os.path.join("elsewhere", "deeper"))
    runs = [sarif(ctx, "check", p, "--repeat", "1")[1] for p in (a, a, b)]
    fps = [fingerprints(r) for r in runs]
    eq(fps[0], fps[1], "the same plugin twice")
    eq(fps[0], fps[2], "the same plugin in another directory")
    eq(len({fp for _, fp in fps[0]}), len(fps[0]), "one fingerprint per finding")
    # an absolute path: a file:// URI, the same fingerprints
    code, abs_log = sarif(ctx, "check", os.path.join(ctx.tmp, a), "--repeat", "1")
    uri = abs_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]
    assert uri.startswith("file://" + ctx.tmp + "/a/places/"), uri
    eq(fingerprints(abs_log), fps[0])

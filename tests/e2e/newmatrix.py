"""Shared by the test_new_matrix_*.py files (one per language, so ctest -j
runs them side by side): generate one Catalyst Code plugin with every
template (all 18 hook points, a readonly and a destructive tool, a script
and a prompt command, an OAuth provider, a memory provider and a system
prompt), check it with `plugcheck check --repeat 1` (zero errors, zero
warnings; the notes in ALLOWED_NOTES are inherent to the hook points), run
its tests/*.plugcheck.yaml (all pass) and lint or compile its sources.
"""
import glob
import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from run import eq

HOOKS = ["pre_bash", "pre_write", "pre_read", "post_bash", "post_write", "post_read",
         "session_start", "session_stop", "pre_compact", "pre_turn", "pre_input",
         "pre_agent_start", "pre_context", "turn_start", "turn_end", "session_shutdown",
         "pre_tool", "post_tool"]
# Notes that describe the host, not the plugin: unavoidable for these points;
# and PC-GUARD-001: a blocking template that is not filled in yet allows
# every dangerous seed (it guards nothing until its decide() does).
ALLOWED_NOTES = {"PC-IO-003", "PC-HOOK-003", "PC-DOC-001", "PC-DOC-002", "PC-GUARD-001"}
# Latency depends on the machine's load, not on the generated code.
LOAD_DEPENDENT = {"PC-PROC-002"}


def matrix_args(lang):
    a = ["--lang", lang]
    for h in HOOKS:
        a += ["--hook", h]
    return a + ["--tool", "lookup", "--readonly", "--tool", "apply_change",
                "--command", "hello", "--command", "ask", "--prompt", "--system-prompt",
                "--oauth", "acme", "--memory"]


def generate(ctx, name, *args):
    code, out, err = ctx.run("new", name, *args)
    eq(code, 0, f"new {name}: {out}{err}")
    d = os.path.join(ctx.tmp, name)
    if os.path.exists(os.path.join(d, "Makefile")):
        p = subprocess.run(["make", "-C", d], capture_output=True, text=True)
        eq(p.returncode, 0, p.stdout + p.stderr)
    return d


def check_clean(ctx, d):
    code, out, err = ctx.run("check", d, "--repeat", "1", "--format", "json", timeout=280)
    rep = json.loads(out)
    bad = []
    for f in rep.get("findings", []):
        rid, sev = f.get("id") or f.get("rule"), f.get("severity")
        if sev == "note" and rid in ALLOWED_NOTES:
            continue
        if sev == "warning" and rid in LOAD_DEPENDENT and os.getloadavg()[0] > os.cpu_count():
            continue
        bad.append(f)
    return code, bad


def run_scenarios(ctx, d):
    files = sorted(glob.glob(os.path.join(d, "tests", "*.plugcheck.yaml")))
    code, out, err = ctx.run("run", *files, "-j", "2", timeout=280)
    return code, out + err, len(files)


def check_and_run(ctx, lang):
    """The whole matrix for one language: check clean, scenarios pass."""
    d = generate(ctx, f"all-{lang}", *matrix_args(lang))
    with ThreadPoolExecutor(max_workers=2) as ex:
        check = ex.submit(check_clean, ctx, d)
        runs = ex.submit(run_scenarios, ctx, d)
        code, bad = check.result()
        eq(bad, [], f"check {lang}: findings beyond the allowed notes")
        eq(code, 0, f"check {lang} exit")
        code, out, n = runs.result()
        eq(code, 0, f"run {lang} scenarios:\n{out}")
        # one per hook, tool and command, plus OAuth and memory
        eq(n, len(HOOKS) + 2 + 2 + 2, out)


def lint(ctx, lang):
    """shellcheck, py_compile or cc -Wall -Wextra -Werror on every source."""
    d = generate(ctx, f"lint-{lang}", *matrix_args(lang))
    if lang == "sh":
        sh = glob.glob(os.path.join(d, "*", "*.sh"))
        eq(len(sh), len(HOOKS) + 2 + 1 + 2, sh)
        if shutil.which("shellcheck"):
            p = subprocess.run(["shellcheck", "--shell=sh", *sh], capture_output=True,
                               text=True)
            eq(p.returncode, 0, p.stdout)
    elif lang == "python":
        py = glob.glob(os.path.join(d, "*", "*.py"))
        eq(len(py), len(HOOKS) + 2 + 1 + 2, py)
        for f in py:
            p = subprocess.run(["python3", "-c", "import py_compile,sys; py_compile.compile("
                                "sys.argv[1], cfile=sys.argv[2], doraise=True)",
                                f, os.path.join(ctx.tmp, "x.pyc")],
                               capture_output=True, text=True)
            eq(p.returncode, 0, p.stderr)
    else:
        c = glob.glob(os.path.join(d, "src", "*.c"))
        eq(len(c), len(HOOKS) + 2 + 1 + 2, c)
        for f in c:
            p = subprocess.run(["cc", "-Wall", "-Wextra", "-Werror", "-o", os.devnull, f],
                               capture_output=True, text=True)
            eq(p.returncode, 0, f + ": " + p.stderr)

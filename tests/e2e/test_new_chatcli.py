"""plugcheck new --host chatcli: a ChatCLI plugin that passes plugcheck.

For each language the generated bin/NAME is signed (plugcheck keygen, sign,
trust in a temporary directory) and `plugcheck check --trusted-keys` must
report nothing at all; the generated tests/run.sh (check --strict plus
`fire call` in the JSON and text argument forms, chatcli.md A7/A8) must
pass; the sources must pass shellcheck, py_compile or -Werror.
"""
import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from run import eq

# Probe latency depends on the machine's load, not on the generated code
# (python3 alone takes over 1 s to start on a loaded 2-core machine).
LOAD_DEPENDENT = {"PC-CHAT-011"}


def loaded():
    return os.getloadavg()[0] > (os.cpu_count() or 1)


def generate(ctx, name, lang):
    code, out, err = ctx.run("new", name, "--host", "chatcli", "--lang", lang)
    eq(code, 0, out + err)
    d = os.path.join(ctx.tmp, name)
    if lang == "c":
        p = subprocess.run(["make", "-C", d], capture_output=True, text=True)
        eq(p.returncode, 0, p.stdout + p.stderr)
    return d


def signed_copy(ctx, d, name):
    """The plugin in a plugins directory with a .sig under a trusted key."""
    w = os.path.join(ctx.tmp, "sig-" + name)
    os.makedirs(os.path.join(w, "plugins"))
    exe = os.path.join(w, "plugins", name)
    shutil.copy(os.path.join(d, "bin", name), exe)
    for args in (["keygen", "--output", os.path.join(w, "keys")],
                 ["sign", exe, "--key", os.path.join(w, "keys", "plugin-signing.key")],
                 ["trust", os.path.join(w, "keys", "plugin-signing.pub"),
                  "--trusted-keys", os.path.join(w, "trusted")]):
        code, out, err = ctx.run(*args)
        eq(code, 0, f"{args}: {out}{err}")
    return exe, os.path.join(w, "trusted")


def check_and_run(ctx, lang):
    name = "gen-" + lang
    d = generate(ctx, name, lang)
    exe, trusted = signed_copy(ctx, d, name)
    code, out, err = ctx.run("check", exe, "--trusted-keys", trusted, "--format", "json",
                             timeout=280)
    rep = json.loads(out)
    bad = [f for f in rep.get("findings", [])
           if not (f.get("id") in LOAD_DEPENDENT and loaded())]
    env = dict(os.environ, PLUGCHECK=ctx.plugcheck)
    if loaded():
        env["PLUGCHECK_CHECK_ARGS"] = "--ignore PC-CHAT-011"
    p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                       text=True, env=env, timeout=280)
    return code, bad, p


def test_chatcli_every_language_checks_clean_and_its_tests_pass(ctx):
    langs = ["sh", "python", "c"]
    with ThreadPoolExecutor(max_workers=3) as ex:
        res = {l: ex.submit(check_and_run, ctx, l) for l in langs}
        for l in langs:
            code, bad, p = res[l].result()
            eq(bad, [], f"check {l}: findings")
            eq(code, 0, f"check {l} exit")
            eq(p.returncode, 0, f"tests/run.sh {l}:\n{p.stdout}{p.stderr}")
            assert p.stdout.count("\nok   ") == 8 and "all passed" in p.stdout, p.stdout


def test_chatcli_files_and_next_steps(ctx):
    code, out, err = ctx.run("new", "files", "--host", "chatcli", "--lang", "c")
    eq(code, 0, err)
    eq([l for l in out.splitlines() if l.startswith("  wrote ")],
       ["  wrote ./files/src/files.c", "  wrote ./files/Makefile",
        "  wrote ./files/tests/run.sh", "  wrote ./files/README.md",
        "  wrote ./files/.github/workflows/plugcheck.yml",
        "  wrote ./files/.gitlab-ci.yml", "  wrote ./files/.gitignore"])
    assert "plugcheck sign bin/files --key" in out, out
    d = os.path.join(ctx.tmp, "files")
    readme = open(os.path.join(d, "README.md")).read()
    for s in ("plugcheck keygen", "plugcheck sign bin/files", "plugcheck trust"):
        assert s in readme, s
    gh = open(os.path.join(d, ".github", "workflows", "plugcheck.yml")).read()
    assert "secrets.PLUGIN_SIGNING_KEY" in gh and "plugcheck sign bin/files" in gh, gh
    gl = open(os.path.join(d, ".gitlab-ci.yml")).read()
    assert "plugcheck sign bin/files" in gl and "junit: plugcheck.xml" in gl, gl
    # never overwrites
    code, out, err = ctx.run("new", "files", "--host", "chatcli", "--lang", "c")
    eq(code, 1)
    eq(err, "plugcheck: 'src/files.c' already exists (use --force to overwrite it)\n")


def test_chatcli_sources_lint_and_compile(ctx):
    for l in ("sh", "python", "c"):
        generate(ctx, "lint-" + l, l)
    sh = [os.path.join(ctx.tmp, "lint-sh", "bin", "lint-sh")] + [
        os.path.join(ctx.tmp, "lint-" + l, "tests", "run.sh") for l in ("sh", "python", "c")]
    if shutil.which("shellcheck"):
        p = subprocess.run(["shellcheck", "--shell=sh", *sh], capture_output=True, text=True)
        eq(p.returncode, 0, p.stdout)
    py = os.path.join(ctx.tmp, "lint-python", "bin", "lint-python")
    p = subprocess.run(["python3", "-c", "import py_compile,sys; py_compile.compile("
                        "sys.argv[1], cfile=sys.argv[2], doraise=True)",
                        py, os.path.join(ctx.tmp, "x.pyc")], capture_output=True, text=True)
    eq(p.returncode, 0, p.stderr)
    p = subprocess.run(["cc", "-Wall", "-Wextra", "-Werror", "-std=c11", "-pedantic",
                        "-D_POSIX_C_SOURCE=200809L", "-o", os.devnull,
                        os.path.join(ctx.tmp, "lint-c", "src", "lint-c.c")],
                       capture_output=True, text=True)
    eq(p.returncode, 0, p.stderr)


def test_chatcli_refuses_names_the_host_mishandles(ctx):
    for args, msg in (
            (["memory"], "plugcheck new: plugin name 'memory': @memory is a ChatCLI builtin that "
                         "the plugin would silently replace (D7, N1): rename it, or pass --override\n"),
            (["mcp_x"], "plugcheck new: plugin name 'mcp_x' starts with mcp_: ChatCLI routes such "
                        "calls to MCP, never to the plugin (M6); rename it\n"),
            (["_x"], "plugcheck new: plugin name '_x' starts with '_': ChatCLI hides it from remote "
                     "users (N3); rename it\n"),
            (["a:b"], "plugcheck new: plugin name 'a:b': use letters, digits, '_' and '-' only (it is "
                      "the file name and the @name the model calls)\n"),
            (["x", "--hook", "pre_bash"], "plugcheck new: a ChatCLI plugin is one executable: --hook, "
             "--tool, --command, --oauth, --memory and --system-prompt are for --host catalyst\n")):
        code, out, err = ctx.run("new", *args, "--host", "chatcli")
        eq((code, out, err), (2, "", msg + "Run `plugcheck new --help` for usage.\n"), str(args))
    code, out, err = ctx.run("new", "memory", "--host", "chatcli", "--override")
    eq(code, 0, err)


ARGVS = [["echo", "--repeat", "1e+00", "--text", "a b", "--upper", "c"],
         ["echo", "--text", "--looks-like-a-flag"], ["echo", "--text=x", "--", "--y"],
         ["echo"], ["echo", "--text"], ["echo", "--text", "x", "--repeat", "2.5"],
         ["echo", "--text", "x", "--repeat", "101"], ["echo", "--bogus"],
         ["list", "--item", "a", "--item", "b c", "d"], ["list", "--item=a", "--", "--item"],
         ["list"], ["list", "--item"], ['{"text":"x"}'], ["nope"], [],
         ["--metadata", "extra"]]


def test_chatcli_languages_answer_alike(ctx):
    """The three templates are one design: same exit status and the same
    stdout and stderr for the same argv (A7/A8 forms and refusals)."""
    got = {}
    for l in ("sh", "python", "c"):
        exe = os.path.join(generate(ctx, "same", l), "bin", "same")
        rows = []
        for argv in ARGVS + [["--metadata"], ["--schema"]]:
            p = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=60,
                               stdin=subprocess.DEVNULL)
            rows.append((argv, p.returncode, p.stdout, p.stderr))
        got[l] = rows
        shutil.rmtree(os.path.join(ctx.tmp, "same"))
    eq(got["python"], got["sh"], "python vs sh")
    eq(got["c"], got["sh"], "c vs sh")
    meta = json.loads(got["sh"][-2][2])
    eq(meta, {"name": "@same", "description": "Echoes text and lists items (replace with "
              "what same does).", "usage": "@same echo --text TEXT [--upper] [--repeat N] | "
              "@same list --item ITEM [--item ITEM]...", "version": "0.1.0"})
    schema = json.loads(got["sh"][-1][2])
    eq([s["name"] for s in schema["subcommands"]], ["echo", "list"])

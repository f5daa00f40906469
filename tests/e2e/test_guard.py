"""Guard assurance (issue 16): `plugcheck guard` and check's guard search
against the fixture guards of tests/guards/ - a naive substring guard
(sh), a regex (Python), a token splitter (C), a shlex parser (Python),
the robust guard of examples/secret-guard, the inert ones (no pass_args,
tool_input, "Bash") and the accidental deniers (crash on a quote, exit 1),
and the path guards (pre_write, pre_read). Each weak guard's bypasses are
asserted exactly, by family, tool and input; the robust one has none.
Every input goes to the hook as JSON: nothing here runs a rewrite."""
import json
import os
import re
import shlex
import shutil
import subprocess

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
GUARDS = os.path.join(HERE, "..", "guards")
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "secret-guard")
# python3 straight from /usr/bin: a version manager's shim on PATH costs
# 200 ms per hook run, and these tests fire hundreds
FAST = {"PATH": "/usr/bin:/bin"}


def fixture(ctx, name):
    d = os.path.join(ctx.tmp, name)
    shutil.copytree(os.path.join(GUARDS, name), d)
    if name == "token-c":
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
                        os.path.join(d, "hooks", "guard"), os.path.join(d, "hooks", "guard.c")],
                       check=True)
    if name == "robust-py":
        os.makedirs(os.path.join(d, "hooks"), exist_ok=True)
        shutil.copy(os.path.join(EXAMPLE, "hooks", "guard.py"), os.path.join(d, "hooks", "guard.py"))
    return d


def guard(ctx, point, d, *extra, timeout=280):
    return ctx.json("guard", point, d, *extra, env=FAST, timeout=timeout)


def found(out):
    """The bypasses as (family, tool, input), HOME and the workspace
    written $H and $W (they are this run's temporary directories)."""
    def norm(s):
        return s.replace(out["home"], "$H").replace(out["workspace"], "$W")
    return sorted((b["family"], b["tool"], norm(b["text"])) for b in out["bypasses"])


def verdicts(out, role):
    return [(t["text"], t["verdict"]) for t in out["tries"] if t["role"] == role]


RM = "rm -rf /"
HOMERM = "rm -rf ~"


def oracle(out, denies):
    """The bypasses the guard's own rule gives: every rewrite it lets
    through, as found() names them."""
    def norm(t):
        return t.replace(out["home"], "$H").replace(out["workspace"], "$W")
    return sorted((t["family"], t["tool"], norm(t["text"])) for t in out["tries"]
                  if t["role"] == "rewrite" and not denies(t["text"]))


def test_naive_substring_guard_falls_to_respellings(ctx):
    d = fixture(ctx, "naive-sh")
    code, out = guard(ctx, "pre_bash", d, "--budget", "1000")
    eq(out["stopped"], None, "every rewrite tried")
    # its rule: the text "rm -rf /" or "rm -rf ~" in the hook input (JSON)
    got = found(out)
    eq(got, oracle(out, lambda t: any(x in json.dumps(t) for x in (RM, HOMERM))))
    for b in [("flags", "bash", "rm -r -f /"), ("flags", "bash", "rm -fr ~"),
              ("flags", "bash", "rm -Rf /"), ("flags", "bash", "rm / -rf"),
              ("long", "bash", "rm --recursive --force /"), ("long", "bash", "rm --r --f ~"),
              ("quote", "bash", "'rm' -rf /"), ("quote", "bash", "rm -rf '/'"),
              ("quote", "bash", "r\\m -rf ~"), ("target", "bash", "rm -rf $HOME"),
              ("target", "bash", 'rm -rf "$HOME"'), ("space", "bash", "rm  -rf  /"),
              ("space", "bash", "rm\t-rf\t~"), ("endopts", "bash", "rm -rf -- /"),
              ("prefix", "bash", "printf '%s\\n' / | xargs rm -rf")]:
        assert b in got, b
    # what still contains the text it looks for is denied, however wrapped
    tried = dict(verdicts(out, "rewrite"))
    for t in ("rm -rf //", "bash -c 'rm -rf /'", "true && rm -rf /", "/usr/bin/rm -rf /",
              "rm -rf ~/"):
        eq(tried[t], "deny", t)
    eq(verdicts(out, "seed")[:2], [(RM, "deny"), (HOMERM, "deny")])
    eq(code, 1)


def test_regex_guard(ctx):
    # \brm\s+-rf\s+(/|~): blanks of any kind match \s+, a backslash-newline
    # does not
    d = fixture(ctx, "regex-py")
    code, out = guard(ctx, "pre_bash", d, "--budget", "1000")
    got = found(out)
    eq(got, oracle(out, lambda t: re.search(r"\brm\s+-rf\s+(/|~)", t)))
    for b in [("flags", "bash", "rm -r -f /"), ("long", "bash", "rm --recu --forc ~"),
              ("quote", "bash", "'rm' -rf /"), ("target", "bash", "rm -rf ${HOME}"),
              ("space", "bash", "rm \\\n-rf \\\n/"), ("endopts", "bash", "rm -rf -- ~")]:
        assert b in got, b
    tried = dict(verdicts(out, "rewrite"))
    for t in ("rm  -rf  /", "rm\t-rf\t/", "rm -rf //", "/bin/rm -rf /", "eval 'rm -rf /'"):
        eq(tried[t], "deny", t)
    eq(code, 1)


def test_token_guard_in_c(ctx):
    # words split at spaces: argv0 must be "rm", with a "-rf" word and a
    # "/" or "~" word. So every rewrite gets through but the three that
    # keep those words: two spaces, the options after the target, "--".
    d = fixture(ctx, "token-c")
    code, out = guard(ctx, "pre_bash", d, "--budget", "1000")
    eq(out["stopped"], None)
    kept = {"rm  -rf  /", "rm  -rf  ~", "rm / -rf", "rm ~ -rf", "rm -rf -- /", "rm -rf -- ~"}
    tried = dict(verdicts(out, "rewrite"))
    eq({t for t, v in tried.items() if v == "deny"}, kept)
    eq(len(out["bypasses"]), len(tried) - len(kept))
    got = found(out)
    for b in [("flags", "bash", "rm -r -f /"), ("abspath", "bash", "/bin/rm -rf ~"),
              ("wrap", "bash", "eval 'rm -rf ~'"), ("chain", "bash", "( rm -rf / )"),
              ("target", "bash", "rm -rf $H"), ("prefix", "bash", "exec rm -rf ~"),
              ("space", "bash", "rm\t-rf\t/"), ("quote", "bash", "\\rm -rf /")]:
        assert b in got, b
    eq(code, 1)


def shlex_denies(cmd, home):
    """shlex-py's own rule (tests/guards/shlex-py/hooks/guard.py)."""
    try:
        words = shlex.split(cmd)
    except ValueError:
        return False
    if not words or os.path.basename(words[0]) != "rm":
        return False
    flags = "".join(w[1:] for w in words[1:] if w.startswith("-") and not w.startswith("--"))
    targets = [w for w in words[1:] if not w.startswith("-")]
    return "r" in flags.lower() and "f" in flags and any(t in ("/", "~", home) for t in targets)


def test_shlex_guard_reads_quotes_but_not_wrappers(ctx):
    d = fixture(ctx, "shlex-py")
    code, out = guard(ctx, "pre_bash", d, "--budget", "1000")
    got = found(out)
    eq(got, oracle(out, lambda t: shlex_denies(t, out["home"])))
    for b in [("long", "bash", "rm --recursive --force /"), ("quote", "bash", "$'rm' -rf ~"),
              ("target", "bash", "rm -rf //"), ("target", "bash", "rm -rf ~/"),
              ("target", "bash", 'rm -rf "$HOME"'), ("wrap", "bash", "sh -c 'rm -rf /'"),
              ("chain", "bash", "true && rm -rf /"), ("chain", "bash", "{ rm -rf ~; }"),
              ("prefix", "bash", "env rm -rf /"), ("space", "bash", "rm \\\n-rf \\\n~")]:
        assert b in got, b
    tried = dict(verdicts(out, "rewrite"))
    # quotes, split flags and program paths are what shlex handles
    for t in ("'rm' -rf /", "r''m -rf /", "rm -r -f /", "rm -fr ~", "/usr/bin/rm -rf /",
              "rm\t-rf\t/", "rm -rf $H".replace("$H", out["home"])):
        eq(tried[t], "deny", t)
    eq(code, 1)


def test_robust_guard_has_no_bypass(ctx):
    # the guard of examples/secret-guard, every rewrite of every seed
    # (pre_tool runs the same code on bash calls: its writes and reads)
    d = fixture(ctx, "robust-py")
    for point, extra, seeds in (("pre_bash", [], {"deny"}),
                                ("pre_tool", ["--tool", "write_file"], {"deny"}),
                                ("pre_tool", ["--tool", "read_file"], {"allow"})):
        code, out = guard(ctx, point, d, "--budget", "2000", "-j", "2", *extra)
        what = (point, extra)
        eq((out["stopped"], out["incomplete"]), (None, False), what)
        eq(found(out), [], what)
        assert all(f["planned"] == f["tried"] for f in out["families"]), out["families"]
        eq({v for t, v in verdicts(out, "seed")}, seeds, what)
        eq({v for t, v in verdicts(out, "benign")}, {"allow"}, what)
        eq([f["id"] for f in out["findings"]], [] if seeds == {"deny"} else ["PC-GUARD-001"],
           what)  # it lets the file tools read secrets: a note says so
        eq(code, 0, what)
    eq(sum(f["tried"] for f in out["families"]), 0)


def test_example_is_clean_in_check(ctx):
    code, out = ctx.json("check", EXAMPLE, "--repeat", "1", env=FAST, timeout=280)
    guard_cases = [c for c in out["cases"] if c["classname"].startswith("plugcheck.guard.")]
    eq(sorted({c["classname"] for c in guard_cases}),
       ["plugcheck.guard.pre_bash", "plugcheck.guard.pre_tool"])
    eq([f["id"] for f in out["findings"] if f["id"].startswith("PC-GUARD")], [])
    eq(code, 0)


def check_guard_findings(ctx, d):
    code, out = ctx.json("check", d, "--repeat", "1", env=FAST, timeout=280)
    return code, [(f["id"], f["file"], f["where"], f["message"]) for f in out["findings"]
                  if f["id"].startswith("PC-GUARD")]


ALL11 = ("allowed all 11 dangerous seeds (rm -rf /, rm -rf ~, git push --force origin main, "
         "git reset --hard, ...)")


def test_guard_without_pass_args_cannot_see_the_command(ctx):
    d = fixture(ctx, "inert-noargs")
    code, f = check_guard_findings(ctx, d)
    eq(f, [("PC-GUARD-002", "hooks/guard.py", "hook pre_bash",
            "pre_bash " + ALL11 + ", and its script reads `args`, but the manifest does not "
            "set pass_args for pre_bash: the host omits args (R4.5), so the hook never sees "
            "the command or path")])
    eq(code, 1)
    code, out = guard(ctx, "pre_bash", d)
    eq([(c["file"], c["line"], c["column"], c["certain"]) for c in out["causes"]],
       [("hooks/guard.py", 7, 15, True)])  # ctx.get("args", ...)
    eq((out["inert"], out["skipped"], len(out["tries"])), (True, None, 18))


def test_guard_reading_tool_input(ctx):
    d = fixture(ctx, "inert-toolinput")
    code, f = check_guard_findings(ctx, d)
    eq(f, [("PC-GUARD-002", "hooks/guard.py", "hook pre_bash",
            "pre_bash " + ALL11 + ", and its script reads `tool_input`, another harness's "
            "field: Catalyst Code sends the tool's arguments as `args` (R4.5)")])
    code, out = guard(ctx, "pre_bash", d)
    eq([(c["line"], c["column"]) for c in out["causes"]], [(7, 16)])  # tool_input


def test_guard_comparing_with_Bash(ctx):
    d = fixture(ctx, "inert-bash")
    code, f = check_guard_findings(ctx, d)
    eq([x[:3] for x in f], [("PC-GUARD-002", "hooks/guard.sh", "hook pre_tool")])
    assert f[0][3].endswith("and its script compares with \"Bash\": Catalyst Code's tool is "
                            "\"bash\" (R4.6)"), f
    code, out = guard(ctx, "pre_tool", d)
    eq([(c["line"], c["column"]) for c in out["causes"]], [(5, 10)])


def test_guard_that_crashes_on_a_quote_denies_by_accident(ctx):
    d = fixture(ctx, "crash-quote")
    code, f = check_guard_findings(ctx, d)
    acc = [x for x in f if x[0] == "PC-GUARD-003"]
    eq(len(acc), 1)
    assert acc[0][3].startswith("1 input(s) were denied because a hook failed, not because it "
                                "decided: `echo don't panic` (a benign look-alike, pre_bash: "
                                "hook 'pre_bash' exited with exit status: 1: Traceback"), acc
    assert "ValueError: No closing quotation" in acc[0][3], acc
    eq(code, 1)  # and its bypasses (it splits words, but reads no wrapper)


def test_guard_that_exits_1_denies_by_accident(ctx):
    d = fixture(ctx, "exit1")
    code, out = guard(ctx, "pre_bash", d, "--budget", "1000")
    acc = [f for f in out["findings"] if f["id"] == "PC-GUARD-003"]
    eq(len(acc), 1)
    n = len([t for t in out["tries"] if t["verdict"] == "accident"])
    assert acc[0]["message"].startswith(
        "%d input(s) were denied because a hook failed, not because it decided: `rm -rf /` "
        "(a dangerous seed, pre_bash: hook 'pre_bash' exited with exit status: 1: exit1: "
        "refusing rm -rf)" % n), acc
    # and an ordinary command that mentions it fails the same way
    assert "`echo \"rm -rf /\"` (a benign look-alike, pre_bash: hook 'pre_bash' exited" in \
        acc[0]["message"], acc
    eq(verdicts(out, "seed")[:2], [(RM, "accident"), (HOMERM, "accident")])
    assert ("flags", "bash", "rm -r -f /") in found(out)


def test_pre_write_guard_never_sees_the_other_writers(ctx):
    d = fixture(ctx, "write-py")
    code, out = guard(ctx, "pre_write", d)
    eq(found(out), [("tool", t, ".env") for t in
                    ("bash", "bulk_edit", "bulk_write", "patch", "rename")])
    tried = {(t["tool"], t["text"]): t["verdict"] for t in out["tries"] if t["role"] == "rewrite"}
    eq(tried[("edit", ".env")], "deny")  # edit fires pre_write
    for t in ("./.env", "../workspace/.env"):
        eq(tried[("write_file", t)], "deny", t)
    for b in out["bypasses"]:
        eq(b["demo_done"], True, b["tool"])
        assert b["demo"].endswith('; .env now holds "SECRET=plugcheck-guard\\n"'), b["demo"]
    patch = [b for b in out["bypasses"] if b["tool"] == "patch"][0]
    eq(patch["decided_by"], "-")
    assert "hooks fired: none for this call" in patch["demo"], patch["demo"]
    eq(out["turns"], 5)
    eq(code, 1)


def test_pre_read_guard_that_matches_the_spelling(ctx):
    d = fixture(ctx, "read-sh")
    code, out = guard(ctx, "pre_read", d)
    eq(found(out), sorted([("spelling", "read_file", "./.env"),
                           ("spelling", "read_file", "$W/.env"),
                           ("spelling", "read_file", "$W//.env"),
                           ("spelling", "read_file", "../workspace/.env"),
                           ("tool", "grep", ".env"), ("tool", "bash", ".env")]))
    demos = {b["tool"]: b["demo"] for b in out["bypasses"] if b["family"] == "tool"}
    for t in ("grep", "bash"):
        assert demos[t].endswith("the model got the file's content"), demos[t]
    eq(code, 1)


def test_check_reports_each_bypass(ctx):
    d = fixture(ctx, "naive-sh")
    c, g = guard(ctx, "pre_bash", d)
    code, out = ctx.json("check", d, "--repeat", "1", env=FAST)
    bypass = [f for f in out["findings"] if f["id"] == "PC-GUARD-004"]
    # (reports name this run's HOME and workspace <HOME> and <WORKSPACE>)
    eq(sorted(f["where"] for f in bypass),
       sorted("hook pre_bash: " + b["text"].replace("\n", "\\n").replace("\t", "\\t")
              .replace(g["home"], "<HOME>") for b in g["bypasses"]))
    one = [f for f in bypass if f["where"] == "hook pre_bash: rm -r -f /"][0]
    eq(one["message"], "pre_bash allows `rm -r -f /` (family flags: one short option per word), "
       "a rewrite of `rm -rf /` (built-in), which it denies")
    eq(one["severity"], "error")
    names = [c["name"] for c in out["cases"] if c["classname"] == "plugcheck.guard.pre_bash"]
    # (the hook exchanges: the inputs and one ordinary call first)
    eq(names[:3], ["search: %d inputs, %d hook exchanges, 0 turns (budget 200)"
                   % (g["inputs"], g["inputs"] + 1),
                   "dangerous seeds (11)", "benign look-alikes (7)"])
    eq(names[3:], ["rewrites: %s (%d)" % (f["name"], f["tried"]) for f in g["families"]])
    eq(code, 1)


def test_findings_are_located_in_check_and_guard(ctx):
    # a guard finding points at the hook's key in plugin.json (main's
    # FILE:LINE:COL form); plugcheck guard prints its findings as check
    # does, the bypasses (listed above them) summed up in one
    d = fixture(ctx, "naive-sh")
    code, out = ctx.json("check", d, "--repeat", "1", env=FAST)
    places = {(f["id"], f["file"], f["line"], f["column"]) for f in out["findings"]
              if f["id"].startswith("PC-GUARD")}
    eq(places, {("PC-GUARD-004", "plugin.json", 6, 5), ("PC-GUARD-005", "plugin.json", 6, 5)})
    code, out, err = ctx.run("check", d, "--repeat", "1", env=FAST)
    assert ("\n%s/plugin.json:6:5: error PC-GUARD-004 [R4.6, R4.8, R12.1.2] hook pre_bash: "
            "rm -r -f /: pre_bash allows `rm -r -f /` (family flags: one short option per "
            "word), a rewrite of `rm -rf /` (built-in), which it denies\n    fix: judge what "
            "the call does" % d) in out, out
    code, out, err = ctx.run("guard", "pre_bash", d, "--families", "flags", "--seed", RM,
                             env=FAST)
    eq((code, err), (1, ""))
    tail = out[out.index("bypasses: 5\n"):]
    eq(tail.splitlines()[11:], [
        "%s/plugin.json:6:5: note PC-GUARD-005 [R4.2] hook pre_bash: echo \"rm -rf /\": "
        "pre_bash denies the benign look-alike `echo \"rm -rf /\"` (reason: \"naive-sh: "
        "refusing rm -rf of / or ~\")" % d,
        "    fix: match the action, not the text: a command that only mentions it (echo, "
        "grep), a safer form (--force-with-lease) or a file named like a secret "
        "(.env.example) is not the action (see `plugcheck explain PC-GUARD-005`)",
        "%s/plugin.json:6:5: error PC-GUARD-004 [R4.6, R4.8, R12.1.2] hook pre_bash: 5 "
        "bypasses (above)" % d,
        "    fix: judge what the call does, not how it is spelled: parse the command as the "
        "shell does (quotes, options, wrappers, chains, program paths) and resolve paths "
        "before comparing, and guard every tool that reaches the file (pre_write sees only "
        "write_file and edit; pre_tool sees every tool); `plugcheck guard POINT PATH --save "
        "FILE` keeps each bypass as a failing regression scenario (see `plugcheck explain "
        "PC-GUARD-004`)"])


def test_save_writes_failing_regression_scenarios(ctx):
    d = fixture(ctx, "naive-sh")
    tests = os.path.join(d, "tests")
    os.makedirs(tests)
    f = os.path.join(tests, "bypasses.plugcheck.yaml")
    code, out = guard(ctx, "pre_bash", d, "--save", f, "--families", "flags,target")
    n = len(out["bypasses"])
    assert n > 5, n
    code, o, e = ctx.run("run", f, env=FAST)
    eq(code, 1, o + e)
    line = "%d scenarios: 0 passed, %d failed" % (n, n)
    assert line in o, o
    # another checkout: the plugin and its tests elsewhere, unchanged
    other = os.path.join(ctx.tmp, "elsewhere", "naive-sh")
    shutil.copytree(d, other)
    code, o2, e = ctx.run("run", os.path.join(other, "tests", "bypasses.plugcheck.yaml"), env=FAST)
    eq(code, 1, o2 + e)
    assert line in o2, o2
    # fixed (a guard that refuses every rm), the same file passes
    shutil.copy(os.path.join(HERE, "..", "fixtures", "plugins", "good-sh", "hooks", "pre_bash.sh"),
                os.path.join(other, "hooks", "guard.sh"))
    code, o3, e = ctx.run("run", os.path.join(other, "tests", "bypasses.plugcheck.yaml"), env=FAST)
    eq(code, 0, o3 + e)


def test_save_turns_for_tools_the_point_never_sees(ctx):
    d = fixture(ctx, "write-py")
    f = os.path.join(ctx.tmp, "w.plugcheck.yaml")
    code, out = guard(ctx, "pre_write", d, "--save", f)
    text = open(f).read()
    eq(text.count("- turn:"), 5)
    eq(text.count("plugins: [\"write-py\"]"), 1)
    code, o, e = ctx.run("run", f, env=FAST)
    eq(code, 1, o + e)
    assert "5 scenarios: 0 passed, 5 failed" in o, o
    # the fix the finding names: pre_tool sees every writer
    m = json.load(open(os.path.join(d, "plugin.json")))
    m["hooks"]["pre_tool"] = {"script": "hooks/tool.py", "pass_args": True}
    json.dump(m, open(os.path.join(d, "plugin.json"), "w"))
    with open(os.path.join(d, "hooks", "tool.py"), "w") as t:
        t.write("import json, sys\nc = json.load(sys.stdin)\n"
                "print(json.dumps({'allow': '.env' not in json.dumps(c.get('args'))}))\n")
    os.chmod(os.path.join(d, "hooks", "tool.py"), 0o755)
    code, o, e = ctx.run("run", f, env=FAST)
    eq(code, 0, o + e)


def test_save_leaves_out_what_names_the_run_s_directories(ctx):
    # a rewrite naming this run's temporary workspace (by its path, or
    # ../NAME/) is another file in another run: not saved, counted
    d = fixture(ctx, "read-sh")
    f = os.path.join(ctx.tmp, "r.plugcheck.yaml")
    code, out = guard(ctx, "pre_read", d, "--save", f)
    eq(len(out["bypasses"]), 6)
    text = open(f).read()
    assert "# 3 more bypass(es) not saved: they name this run's temporary HOME or\n" in text, text
    eq(text.count("  - name: "), 3)
    code, o, e = ctx.run("run", f, env=FAST)
    assert "3 scenarios: 0 passed, 3 failed" in o, o + e


def test_seeds_from_config_and_scenarios(ctx):
    d = fixture(ctx, "naive-sh")
    with open(os.path.join(d, ".plugcheck.yaml"), "w") as f:
        f.write("guard_seeds:\n  commands: [\"rm -rf /srv\"]\n")
    os.makedirs(os.path.join(d, "tests"))
    with open(os.path.join(d, "tests", "deny.plugcheck.yaml"), "w") as f:
        f.write("plugcheck: 1\nplugins: [..]\nscenarios:\n  - name: home projects\n    steps:\n"
                "      - fire: pre_bash\n        input: { command: \"rm -rf ~/projects\" }\n"
                "        expect: { verdict: deny }\n"
                # an empty command is no seed (nothing to respell)
                "  - name: empty\n    steps:\n"
                "      - fire: pre_bash\n        input: { command: \"\" }\n"
                "        expect: { verdict: deny }\n")
    code, out = guard(ctx, "pre_bash", d, "--families", "flags", "--budget", "1000")
    seeds = [(s["text"], s["origin"]) for s in out["seeds"] if not s["benign"]]
    eq(seeds[-2:], [("rm -rf ~/projects", "tests/deny.plugcheck.yaml:6"),
                    ("rm -rf /srv", ".plugcheck.yaml")])
    eq([s for s in out["seeds"] if not s["text"]], [])
    got = found(out)
    for b in (("flags", "bash", "rm -r -f /srv"), ("flags", "bash", "rm -fr ~/projects")):
        assert b in got, got


def test_bad_guard_seeds_is_a_located_usage_error(ctx):
    d = fixture(ctx, "naive-sh")
    with open(os.path.join(d, ".plugcheck.yaml"), "w") as f:
        f.write("guard_seeds:\n  command: [x]\n")
    code, out, err = ctx.run("guard", "pre_bash", d)
    eq(code, 2)
    eq(err, "plugcheck: %s/.plugcheck.yaml:2:3: unknown key in 'guard_seeds' (expected "
        "'commands' or 'paths')\n" % d)
    code, out, err = ctx.run("check", d)
    eq(code, 2)


def test_budget_bounds_and_reports_the_search(ctx):
    d = fixture(ctx, "naive-sh")
    code, out = guard(ctx, "pre_bash", d, "--budget", "25")
    eq(out["inputs"], 25)
    eq(out["stopped"], "the budget of 25 inputs was spent before every rewrite was tried "
       "(--budget N)")
    # in rounds: the likeliest families first, but more than one tried
    eq([f["name"] for f in out["families"] if f["tried"]][:3], ["flags", "long", "quote"])


def test_a_slow_guard_stops_after_two_timeouts(ctx):
    d = ctx.plugin("slow", {"name": "slow", "version": "1.0.0", "hooks": {
        "pre_bash": {"script": "g.sh", "pass_args": True, "timeout_ms": 300}}},
        {"g.sh": "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *rm*) exec sleep 7391;; esac\n"
                 "echo '{\"allow\":true}'\n"})
    code, out = guard(ctx, "pre_bash", d)
    eq(out["stopped"], "the hook timed out 2 times (each costs its timeout_ms): the search "
       "stopped there")
    eq(out["inputs"], 2)


def test_list_fires_nothing(ctx):
    d = fixture(ctx, "naive-sh")
    code, out = guard(ctx, "pre_bash", d, "--list", "--budget", "100000")
    eq((out["inputs"], out["exchanges"]), (0, 0))
    rewrites = [t for t in out["tries"] if t["role"] == "rewrite"]
    eq({t["verdict"] for t in rewrites}, {"not_run"})
    eq(len(rewrites), sum(f["planned"] for f in out["families"]))
    eq(code, 0)


def test_jobs_give_the_same_search(ctx):
    d = fixture(ctx, "naive-sh")
    c1, one = guard(ctx, "pre_bash", d)
    c2, two = guard(ctx, "pre_bash", d, "-j", "2")
    eq(found(two), found(one))
    eq([t["verdict"] for t in two["tries"]], [t["verdict"] for t in one["tries"]])


def test_usage_errors(ctx):
    d = fixture(ctx, "naive-sh")
    cases = [
        (("pre_input", d), "plugcheck guard: 'pre_input': the guard search runs at pre_bash, "
         "pre_write, pre_read and pre_tool\nRun `plugcheck guard --help` for usage.\n"),
        (("pre_bash", d, "--tool", "bash"), "plugcheck guard: --tool is for pre_tool (pre_bash "
         "sees one tool's calls)\nRun `plugcheck guard --help` for usage.\n"),
        (("pre_write", d), "plugcheck: plugin 'naive-sh' registers no hook at 'pre_write'\n"),
        (("pre_bash", d, "--seed", "rm -rf /", "--seed", ""), "plugcheck guard: --seed: an "
         "empty seed (give a command or a path)\nRun `plugcheck guard --help` for usage.\n"),
    ]
    for args, err in cases:
        code, out, e = ctx.run("guard", *args)
        eq((code, e), (2, err), args)
    code, out, e = ctx.run("guard", "pre_bash", d, "--families", "flags,nope")
    eq(code, 2)
    assert e.startswith("plugcheck guard: --families: 'nope' is not a rewrite family; the "
                        "families are:\n  tool "), e
    # --help names the same families, in the same order, as the table
    table = [ln.split()[0] for ln in e.splitlines()[1:] if ln.startswith("  ")]
    code, h, _ = ctx.run("guard", "--help")
    text = " ".join(h.split("rewrite families (comma-separated:", 1)[1].split(";", 1)[0].split())
    eq((code, text.split(", ")), (0, table))
    code, out, e = ctx.run("guard", "pre_bash", os.path.join(ctx.tmp, "missing"))
    eq(code, 3, e)


def test_check_skips_the_search_of_a_slow_or_leaky_hook(ctx):
    # what the hook's own cases report already (PC-PROC-002, PC-PROC-001)
    # would be multiplied by every input: the search is a skipped case
    slow = ctx.plugin("slow", {"name": "slow", "version": "1.0.0", "hooks": {
        "pre_bash": {"script": "g.sh", "pass_args": True, "timeout_ms": 1000}}},
        {"g.sh": "#!/bin/sh\ncat >/dev/null\nsleep 0.6\necho '{\"allow\":false}'\n"})
    leaky = ctx.plugin("leaky", {"name": "leaky", "version": "1.0.0", "hooks": {
        "pre_bash": {"script": "g.sh", "pass_args": True}}},
        {"g.sh": "#!/bin/sh\ncat >/dev/null\nsetsid sleep 6283 </dev/null >/dev/null 2>&1 &\n"
                 "echo '{\"allow\":true}'\n"})
    for d, why in ((slow, r"not searched: the ordinary call took \d+ ms, over half the 1000 ms "
                          r"timeout; every input would take as long \(plugcheck guard searches "
                          r"it on demand\)"),
                   (leaky, r"not searched: the ordinary call left 1 process\(es\) running \(see "
                           r"the hook's cases\); every input of the search would start them "
                           r"again")):
        code, out = ctx.json("check", d, "--repeat", "1")
        cases = [(c["name"], c["status"], c["message"]) for c in out["cases"]
                 if c["classname"] == "plugcheck.guard.pre_bash"]
        eq([c[:2] for c in cases], [("search", "skip")], d)
        assert re.fullmatch(why, cases[0][2]), cases
        assert not any(f["id"].startswith("PC-GUARD") for f in out["findings"]), d


def test_explain_examples_of_the_guard_rules(ctx):
    # each failing plugin of `plugcheck explain PC-GUARD-00N` gets that
    # finding from the search; the fixed one (the same allowlist guard on
    # every page) gets no guard finding at all, every rewrite tried
    from test_explain import build, examples
    fixed = set()
    for n in range(1, 6):
        rid = "PC-GUARD-%03d" % n
        code, md, _ = ctx.run("explain", rid, "--format", "markdown")
        ex = examples(md)
        code, out = guard(ctx, "pre_bash", build(ctx, rid, ex["failing"]), "--no-turns")
        ids = {f["id"] for f in out["findings"]}
        assert rid in ids, (rid, ids)
        fixed.add(json.dumps(ex["fixed"], sort_keys=True))
    eq(len(fixed), 1)
    d = build(ctx, "fixed", json.loads(fixed.pop()))
    code, out = guard(ctx, "pre_bash", d, "--budget", "2000", "-j", "2")
    eq((code, out["stopped"], out["findings"]), (0, None, []))
    assert all(f["planned"] == f["tried"] for f in out["families"]), out["families"]

"""--format github (issue 19, item 3): one GitHub Actions workflow command
per unsuppressed finding, then the human report; the runner's escaping
(%, CR, LF in the message; also : and , in properties); the default
when GITHUB_ACTIONS=true and no --format is given. Asserted byte for
byte."""
import os
import re
import shutil

from e2e import eq

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                       "plugins", "places")

A_MAN = ("::notice file=places/plugin.json,line=3,col=14,title=PC-MAN-002%3A version is not a "
         "semantic version::version '1.0' is not MAJOR.MINOR.PATCH%0Afix: use MAJOR.MINOR.PATCH; "
         "the host accepts any string but the docs ask for semver%0A(see `plugcheck explain "
         "PC-MAN-002`)\n")
A_CAP = ("::notice file=places/plugin.json,line=1,col=1,title=PC-CAP-001%3A capabilities are "
         "not declared::no \"capabilities\": the host infers [\"execute_subprocess\", "
         "\"read_workspace\", \"register_tools\"]%0Afix: declare \"capabilities\" with exactly the "
         "inferred list so a future host that requires declarations keeps loading the "
         "plugin%0A(see `plugcheck explain PC-CAP-001`)\n")
A_HOOK2 = ("::warning file=places/plugin.json,line=7,col=66,title=PC-HOOK-002%3A timeout_ms is "
           "0::hook 'post_bash' has timeout_ms 0: every call times out%0Afix: a zero timeout "
           "makes every call time out; raise timeout_ms or remove it to get the default%0A(see "
           "`plugcheck explain PC-HOOK-002`)\n")
A_HOOK1 = ("::warning file=places/plugin.json,line=6,col=5,title=PC-HOOK-001%3A unknown hook "
           "point::unknown hook point 'pre_bsh' in plugin 'places'; skipping%0Afix: use one of "
           "the 18 hook points; the host drops this entry with a warning%0A(see `plugcheck "
           "explain PC-HOOK-001`)\n")
A_TOOL = ("::warning file=places/plugin.json,line=10,col=15,title=PC-TOOL-001%3A tool name "
          "collides with a built-in tool::tool 'grep' is a built-in name: the host loads it, "
          "logs a collision and never calls it%0Afix: rename the tool, or set \"override\": true "
          "to replace the built-in on purpose%0A(see `plugcheck explain PC-TOOL-001`)\n")
A_ENV = ("::warning file=places/tools/grep.sh,line=3,col=7,title=PC-ENV-002%3A reads an "
         "environment variable the host never passes::script tools/grep.sh ($GREP_LIMIT): "
         "'tools/grep.sh' reads $GREP_LIMIT, which the host never passes (its environment is "
         "cleared)%0Afix: pass configuration on stdin or a file under HOME: the host keeps only "
         "PATH, HOME, TMPDIR, USER (and a few named variables)%0A(see `plugcheck explain "
         "PC-ENV-002`)\n")
A_HOOK10 = ("::error file=places/plugin.json,line=5,col=5,title=PC-HOOK-010%3A blocking hook "
            "denies because it failed%2C not because it decided::hook pre_bash: hook 'pre_bash' "
            "exited with exit status: 1: no rules file%0Afix: make the hook exit 0 with "
            "{\"allow\":true|false,...} on every input; a crash, timeout, empty or invalid "
            "output denies the call%0A(see `plugcheck explain PC-HOOK-010`)\n")
A_HOOK11 = ("::warning file=places/plugin.json,line=7,col=5,title=PC-HOOK-011%3A advisory hook "
            "fails::hook post_bash: [places] hook 'post_bash' timed out after 0ms%0Afix: make "
            "the hook exit 0 with one JSON object; the host skips a failed advisory hook and "
            "shows post-hook failures to the model%0A(see `plugcheck explain PC-HOOK-011`)\n")
A_SCN2 = ("::error file=places/tests/typo.plugcheck.yaml,line=7,col=9,title=PC-SCN-002%3A a "
          "scenario file is invalid::places/tests/typo.plugcheck.yaml:7:9: unknown key 'inptu' "
          "in a step (expected one of: name, fire, turn, plugin, input, result, tool, expect, "
          "save, write, files, enable, disable, reload)%0Afix: fix the scenario file at the "
          "line and column given (docs/scenarios.md lists every key)%0A(see `plugcheck "
          "explain PC-SCN-002`)\n")
A_SCN1 = ("::error file=places/tests/deny.plugcheck.yaml,line=6,col=9,title=PC-SCN-001%3A a "
          "scenario step did not meet its expectations::deny/post_bash answers: expect.verdict "
          "(line 9) at $.allow:%0A      expected: \"deny\"%0A      actual:   \"allow\"%0Afix: fix "
          "the plugin, or the expectation if the plugin is right (plugcheck run --update "
          "rewrites values marked !update)%0A(see `plugcheck explain PC-SCN-001`)\n")

LINT_HUMAN = (
    "places: loaded 'places' 1.0\n"
    "  capabilities: execute_subprocess, read_workspace, register_tools\n"
    "  host log: [plugins] unknown hook point 'pre_bsh' in plugin 'places'; skipping\n"
    "places/plugin.json:3:14: note PC-MAN-002 [§2.2, R12.2.1]: version '1.0' is not "
    "MAJOR.MINOR.PATCH\n"
    "    fix: use MAJOR.MINOR.PATCH; the host accepts any string but the docs ask for semver "
    "(see `plugcheck explain PC-MAN-002`)\n"
    "places/plugin.json:1:1: note PC-CAP-001 [R3.3]: no \"capabilities\": the host infers "
    "[\"execute_subprocess\", \"read_workspace\", \"register_tools\"]\n"
    "    fix: declare \"capabilities\" with exactly the inferred list so a future host that "
    "requires declarations keeps loading the plugin (see `plugcheck explain PC-CAP-001`)\n"
    "places/plugin.json:7:66: warning PC-HOOK-002 [R5.11]: hook 'post_bash' has timeout_ms 0: "
    "every call times out\n"
    "    fix: a zero timeout makes every call time out; raise timeout_ms or remove it to get "
    "the default (see `plugcheck explain PC-HOOK-002`)\n"
    "places/plugin.json:6:5: warning PC-HOOK-001 [R1.12]: unknown hook point 'pre_bsh' in "
    "plugin 'places'; skipping\n"
    "    fix: use one of the 18 hook points; the host drops this entry with a warning (see "
    "`plugcheck explain PC-HOOK-001`)\n"
    "places/plugin.json:10:15: warning PC-TOOL-001 [R2.15]: tool 'grep' is a built-in name: "
    "the host loads it, logs a collision and never calls it\n"
    "    fix: rename the tool, or set \"override\": true to replace the built-in on purpose "
    "(see `plugcheck explain PC-TOOL-001`)\n"
    "places/tools/grep.sh:3:7: warning PC-ENV-002 [R5.3]: 'tools/grep.sh' reads $GREP_LIMIT, "
    "which the host never passes (its environment is cleared)\n"
    "    fix: pass configuration on stdin or a file under HOME: the host keeps only PATH, HOME, "
    "TMPDIR, USER (and a few named variables) (see `plugcheck explain PC-ENV-002`)\n"
    "0 error(s), 4 warning(s), 2 note(s)\n")

LINT_ANNOTATIONS = A_MAN + A_CAP + A_HOOK2 + A_HOOK1 + A_TOOL + A_ENV


def places(ctx):
    shutil.copytree(FIXTURE, os.path.join(ctx.tmp, "places"))


def test_lint_annotations_byte_for_byte(ctx):
    places(ctx)
    eq(ctx.run("lint", "places", "--format", "github"), (0, LINT_ANNOTATIONS + LINT_HUMAN, ""))
    # the default under GitHub Actions, and only there
    eq(ctx.run("lint", "places", env={"GITHUB_ACTIONS": "true"}),
       (0, LINT_ANNOTATIONS + LINT_HUMAN, ""))
    for env in ({"GITHUB_ACTIONS": "false"}, {"GITHUB_ACTIONS": "1"}, {}):
        eq(ctx.run("lint", "places", env=env), (0, LINT_HUMAN, ""), env)
    eq(ctx.run("lint", "places", "--format", "human", env={"GITHUB_ACTIONS": "true"}),
       (0, LINT_HUMAN, ""))
    # suppressed findings are not annotated (check's --ignore)
    code, out, _ = ctx.run("check", "places", "--repeat", "1", "--format", "github",
                           "--ignore", "PC-CAP-001", "--ignore", "PC-MAN-002")
    assert out.startswith(A_HOOK2 + A_HOOK1), out[:600]
    assert "PC-CAP-001%3A" not in out and "::notice" not in out, out


def test_check_annotations_then_the_human_report(ctx):
    places(ctx)
    code, out, err = ctx.run("check", "places", "--repeat", "1", "--format", "github")
    eq((code, err), (1, ""))
    want = LINT_ANNOTATIONS + A_HOOK10 + A_HOOK11 + A_SCN2 + A_SCN1
    eq(out[:len(want)], want)
    code, human, _ = ctx.run("check", "places", "--repeat", "1")
    ms = re.compile(r"\(\d+ ms\)")
    eq(ms.sub("(N ms)", out[len(want):]), ms.sub("(N ms)", human))
    # GITHUB_ACTIONS=true: --output FILE without --format keeps the human
    # file; the workflow log gets the annotations
    rep = os.path.join(ctx.tmp, "report.txt")
    code, out, _ = ctx.run("check", "places", "--repeat", "1", "--output", rep,
                           env={"GITHUB_ACTIONS": "true"})
    eq(code, 1)
    eq(out[:len(want)], want)
    with open(rep) as f:
        eq(ms.sub("(N ms)", f.read()), ms.sub("(N ms)", human))


def test_run_annotations(ctx):
    places(ctx)
    code, out, _ = ctx.run("run", "places/tests/deny.plugcheck.yaml", "--format", "github")
    eq(code, 1)
    eq(re.sub(r"\(\d+ ms\)", "(N ms)", out),
       A_SCN1 +
       "FAIL  deny/post_bash answers (N ms)\n"
       "  step 1. fire post_bash:\n"
       "    expect.verdict (line 9) at $.allow:\n"
       "      expected: \"deny\"\n"
       "      actual:   \"allow\"\n"
       "1 scenarios: 0 passed, 1 failed, 0 skipped, 0 expected failures\n")


def test_escaping_and_no_injected_commands(ctx):
    # a directory named with , and :, a hook key with % CR LF and a
    # workflow command of its own
    d = os.path.join(ctx.tmp, "e,s:c")
    os.makedirs(d)
    with open(os.path.join(d, "plugin.json"), "wb") as f:
        f.write(b'{"name": "e,s:c", "version": "1.0.0", "capabilities": ["execute_subprocess"],\n'
                b' "hooks": {"x%y\\r\\n::error::z,w:": {"script": "h.sh"}}}\n')
    with open(os.path.join(d, "h.sh"), "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\necho '{}'\n")
    os.chmod(os.path.join(d, "h.sh"), 0o755)
    code, out, err = ctx.run("lint", "e,s:c", "--format", "github")
    eq((code, err), (0, ""))
    eq(out,
       "::warning file=e%2Cs%3Ac/plugin.json,line=2,col=12,title=PC-HOOK-001%3A unknown hook "
       "point::unknown hook point 'x%25y%0D%0A::error::z,w:' in plugin 'e,s:c'; skipping%0Afix: "
       "use one of the 18 hook points; the host drops this entry with a warning%0A(see "
       "`plugcheck explain PC-HOOK-001`)\n"
       "e,s:c: loaded 'e,s:c' 1.0.0\n"
       "  capabilities: execute_subprocess\n"
       "  host log: [plugins] unknown hook point 'x%y\r\n"
       "| ::error::z,w:' in plugin 'e,s:c'; skipping\n"
       "e,s:c/plugin.json:2:12: warning PC-HOOK-001 [R1.12]: unknown hook point 'x%y\r\n"
       "| ::error::z,w:' in plugin 'e,s:c'; skipping\n"
       "    fix: use one of the 18 hook points; the host drops this entry with a warning (see "
       "`plugcheck explain PC-HOOK-001`)\n"
       "0 error(s), 1 warning(s), 0 note(s)\n")
    # no line of the output but the annotation is a workflow command
    cmds = [ln for ln in out.split("\n") if ln.lstrip().startswith(("::", "##["))]
    eq(len(cmds), 1)
    # a finding without a file: no file property
    os.makedirs(os.path.join(ctx.tmp, "nowhere"), exist_ok=True)   # no plugin.json
    code, out, _ = ctx.run("lint", "nowhere", "--format", "github")
    eq(code, 3)
    assert out.startswith("::error title=PC-LOAD-002%3A the host does not see a plugin "
                          "here::'nowhere' is not a directory holding plugin.json; the host "
                          "would skip it silently%0Afix: "), out

"""Error messages of the CLI for missing input files: each names the file
once, with the OS reason, and exits 2 (found in a fresh-user trial, where
the file name and "cannot read" were repeated twice in one line)."""
import os

from e2e import eq


def test_missing_scenario_file(ctx):
    code, out, err = ctx.run("run", "nope.plugcheck.yaml")
    eq((code, err), (2, "plugcheck: cannot open 'nope.plugcheck.yaml': No such file or directory\n"))


def test_missing_turn_script(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0"})
    code, out, err = ctx.run("turn", "nope.json", d)
    eq((code, err), (2, "plugcheck: cannot open 'nope.json': No such file or directory\n"))


def test_bad_turn_script_names_the_file(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0"})
    with open(os.path.join(ctx.tmp, "s.json"), "w") as f:
        f.write("{")
    code, out, err = ctx.run("turn", "s.json", d)
    eq(code, 2)
    assert err.startswith("plugcheck: s.json: ") and err.count("s.json") == 1, err


def test_missing_mock_model_script(ctx):
    code, out, err = ctx.run("mock-model", "serve", "nope.json")
    eq((code, err), (2, "plugcheck: mock-model: cannot open 'nope.json': No such file or directory\n"))

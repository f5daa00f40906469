"""The man page covers every command and option (issue 19, item 6).

docs/man/plugcheck.1 is `plugcheck --man`, generated from the command
table; these tests fail when the checked-in page is stale, when a command
or an option of any `plugcheck CMD --help` is missing from its section
(parsed from --help's own text, not from the table), and when groff
warns about the page.
"""
import os
import re
import shutil
import subprocess

from e2e import eq

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PAGE = os.path.join(ROOT, "docs", "man", "plugcheck.1")
REGEN = "regenerate it: build/dev/plugcheck --man > docs/man/plugcheck.1"


def commands(ctx):
    """(name, summary) of every command `plugcheck --help` lists."""
    code, out, err = ctx.run("--help")
    eq(code, 0, err)
    block = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [tuple(l.split(None, 1)) for l in block.splitlines()]


def help_options(ctx, cmd):
    """The option names (long form, with the short one if any) that
    `plugcheck CMD --help` lists."""
    code, out, err = ctx.run(cmd, "--help")
    eq(code, 0, err)
    opts = out.split("\nOptions:\n", 1)[1]
    return re.findall(r"^  ((?:-\w, )?--[\w-]+)", opts, re.M)


def sections(page):
    """{command: its .SS section's roff text}."""
    body = page.split("\n.SH COMMANDS\n", 1)[1].split("\n.SH ", 1)[0]
    out = {}
    for part in body.split(".SS ")[1:]:
        name, text = part.split("\n", 1)
        out[name.replace("\\-", "-")] = text
    return out


def man_options(section):
    """The option names of a section: the first line after each .TP."""
    names = []
    for head in re.findall(r"^\.TP\n(.*)$", section, re.M):
        plain = re.sub(r"\\f[BIR]", "", head).replace("\\-", "-")
        names.append(re.match(r"((?:-\w, )?--[\w-]+)", plain).group(1))
    return names


def test_checked_in_page_is_the_generated_one(ctx):
    code, out, err = ctx.run("--man")
    eq((code, err), (0, ""))
    with open(PAGE) as f:
        eq(out, f.read(), f"docs/man/plugcheck.1 is stale; {REGEN}")


def test_every_command_has_a_section_with_its_summary(ctx):
    with open(PAGE) as f:
        secs = sections(f.read())
    cmds = commands(ctx)
    assert len(cmds) >= 14, cmds
    eq(sorted(secs), sorted(n for n, _ in cmds), "man page sections")
    for name, summary in cmds:
        first = secs[name].split("\n", 1)[0].replace("\\-", "-")
        eq(first, summary + ".", f"summary of {name}")


def test_every_option_of_every_help_is_in_its_section(ctx):
    with open(PAGE) as f:
        secs = sections(f.read())
    total = 0
    for name, _ in commands(ctx):
        want = help_options(ctx, name)
        assert "-h, --help" in want, (name, want)
        eq(man_options(secs[name]), want, f"options of {name} ({REGEN})")
        total += len(want)
    # the 14 commands' tables hold well over 80 options (a parse that
    # found none would pass the comparison above)
    assert total > 80, total


def test_synopses_match_help(ctx):
    with open(PAGE) as f:
        secs = sections(f.read())
    for name, _ in commands(ctx):
        code, out, err = ctx.run(name, "--help")
        usage = [l.split("plugcheck " + name + " ", 1)[1]
                 for l in out.splitlines()[:2] if "plugcheck " + name + " " in l]
        text = re.sub(r"\\f[BIR]", "", secs[name]).replace("\\-", "-")
        for u in usage:
            assert re.search(r"^plugcheck " + re.escape(name + " " + u) + r"( \(|$)",
                             text, re.M), (name, u)


def test_groff_renders_the_page_without_warnings(ctx):
    groff = shutil.which("groff")
    assert groff, "groff is missing: ./bootstrap.sh --deps installs groff-base"
    p = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", PAGE],
                       capture_output=True, text=True)
    eq((p.returncode, p.stderr), (0, ""))
    p = subprocess.run([groff, "-man", "-Tutf8", "-P-cbou", PAGE],
                       capture_output=True, text=True)
    eq(p.returncode, 0, p.stderr)
    # the rendered page reads as --help does: an option with its help
    assert re.search(r"-j, --jobs N\n\s+fire entry points in N worker processes",
                     p.stdout), p.stdout[:2000]

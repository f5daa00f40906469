"""plugcheck install-check: the host's /plugin-install reproduced on a
directory and on release zips built here, with and without execute bits and
with files the copy excludes. Each case asserts its specific finding."""
import json
import os
import shutil
import stat
import zipfile

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = os.path.join(HERE, "..", "fixtures", "plugins", "good-sh")

OK_HOOK = '#!/bin/sh\ncat >/dev/null\necho \'{"allow":true}\'\n'
OK_CMD = '#!/bin/sh\ncat >/dev/null\necho \'{"ok":true,"output":"hi"}\'\n'


def manifest(name="inst-demo", cmd="commands/hi.sh"):
    return {"name": name, "version": "1.0.0", "description": "d",
            "capabilities": ["execute_subprocess", "register_commands"],
            "hooks": {"session_start": {"script": "hooks/start.sh"}},
            "commands": [{"name": "hi", "description": "say hi", "script": cmd}]}


def make(ctx, name="inst-demo", files=None, m=None):
    fs = {"hooks/start.sh": OK_HOOK, "commands/hi.sh": OK_CMD}
    fs.update(files or {})
    ctx.plugin(name, m or manifest(name), fs)
    d = os.path.join(ctx.tmp, name)
    for rel in fs:
        os.chmod(os.path.join(d, rel), 0o755)
    return d


def zip_dir(d, out, mode=None, top="owner-repo-abc123"):
    """A GitHub-style zipball: one top directory; `mode` overrides every
    file's Unix mode (None keeps the file's own)."""
    with zipfile.ZipFile(out, "w") as z:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                p = os.path.join(root, f)
                zi = zipfile.ZipInfo(top + "/" + os.path.relpath(p, d))
                zi.create_system = 3
                m = os.lstat(p).st_mode
                zi.external_attr = ((stat.S_IFREG | mode) if mode is not None else m) << 16
                z.writestr(zi, open(p, "rb").read())
    return out


def ic(ctx, src, *extra):
    return ctx.json("install-check", src, "--repeat", "1", *extra)


def ids(out, severity=None):
    return sorted({f["id"] for f in out["findings"] if not f["suppressed"]
                   and (severity is None or f["severity"] == severity)})


def loads(out):
    return {l["as"]: l for l in out["loads"]}


def test_directory_install_is_clean(ctx):
    code, out = ic(ctx, GOOD)
    eq(ids(out, "error") + ids(out, "warning"), [])
    eq(code, 0)
    eq(loads(out)["installed"]["loaded"], True)


def test_workspace_install_loads_without_trust(ctx):
    code, out = ic(ctx, GOOD, "--scope", "workspace")
    eq(code, 0)
    eq(loads(out)["installed"]["loaded"], True)


def test_unknown_scope_is_a_usage_error(ctx):
    code, _, err = ctx.run("install-check", GOOD, "--scope", "team")
    eq(code, 2)
    assert "unknown plugin scope 'team' (use 'global' or 'workspace')" in err, err


def test_zip_with_exec_bits_is_clean(ctx):
    z = zip_dir(make(ctx), os.path.join(ctx.tmp, "good.zip"))
    code, out = ic(ctx, z)
    eq(ids(out, "error") + ids(out, "warning"), [])
    eq(code, 0)


def test_zip_without_exec_bits_fails_outside_hooks(ctx):
    z = zip_dir(make(ctx), os.path.join(ctx.tmp, "noexec.zip"), mode=0o644)
    code, out = ic(ctx, z)
    eq(code, 3)
    assert "PC-INST-001" in ids(out, "error"), out["findings"]
    f = [f for f in out["findings"] if f["id"] == "PC-INST-001"][0]
    eq(f["file"], "commands/hi.sh")
    # hooks/ gets +x from the host: a note, not an error
    assert "PC-INST-003" in ids(out, "note")
    eq(loads(out)["installed"]["loaded"], False)
    assert "is not executable" in loads(out)["installed"]["detail"]


def test_zip_without_exec_bits_loads_when_scripts_are_under_hooks_tools(ctx):
    m = manifest(cmd="tools/hi.sh")
    d = make(ctx, files={"tools/hi.sh": OK_CMD}, m=m)
    os.remove(os.path.join(d, "commands", "hi.sh"))
    z = zip_dir(d, os.path.join(ctx.tmp, "tools.zip"), mode=0o644)
    code, out = ic(ctx, z)
    eq(ids(out, "error"), [])
    eq(code, 0)


def test_excluded_needed_file(ctx):
    d = make(ctx, files={"build/run.sh": OK_CMD}, m=manifest(cmd="build/run.sh"))
    code, out = ic(ctx, d)
    # the source is valid, but the copy drops build/ and the install fails
    assert "PC-INST-010" in ids(out, "error"), out["findings"]
    eq(loads(out)["installed"]["loaded"], False)


def test_excluded_file_mentioned_by_a_script(ctx):
    hi = OK_CMD.replace("cat >/dev/null", "cat >/dev/null; . lib/.env.local")
    d = make(ctx, files={"commands/hi.sh": hi, "lib/.env.local": "X=1\n",
                         "lib/.env.example": "X=\n"})
    code, out = ic(ctx, d)
    assert "PC-INST-011" in ids(out, "warning"), out["findings"]
    eq(code, 0)


def test_symlink_outside_breaks(ctx):
    d = make(ctx)
    with open(os.path.join(ctx.tmp, "shared.txt"), "w") as f:
        f.write("x\n")
    os.symlink("../shared.txt", os.path.join(d, "shared.txt"))
    code, out = ic(ctx, d)
    assert "PC-INST-020" in ids(out, "error"), out["findings"]
    eq(code, 1)


def test_zip_symlink_becomes_a_file(ctx):
    d = make(ctx)
    z = os.path.join(ctx.tmp, "link.zip")
    zip_dir(d, z)
    with zipfile.ZipFile(z, "a") as zf:
        zi = zipfile.ZipInfo("owner-repo-abc123/link")
        zi.create_system = 3
        zi.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(zi, "hooks/start.sh")
    code, out = ic(ctx, z)
    assert "PC-INST-022" in ids(out, "warning"), out["findings"]


def test_name_collision_with_installed_plugin(ctx):
    code, out = ic(ctx, GOOD, "--with", GOOD)
    f = [f for f in out["findings"] if f["id"] == "PC-INST-030"]
    eq(len(f), 1, out["findings"])
    eq(f[0]["message"], "plugin 'good-sh' is already installed; remove it first or use a different name")
    eq(code, 1)


def test_staged_default_name(ctx):
    d = make(ctx, name="telemetry")
    code, out = ic(ctx, d)
    assert "PC-INST-031" in ids(out, "warning"), out["findings"]


def test_unsafe_zip_path(ctx):
    z = os.path.join(ctx.tmp, "slip.zip")
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("../evil.sh", "x")
    code, out = ic(ctx, z)
    eq(loads(out)["installed"]["detail"], "zip entry '../evil.sh' has an unsafe path")
    assert "PC-INST-040" in ids(out, "error")


def test_zip_prompt_file_needs_no_execute_bit(ctx):
    # issue 20: commands/ask.md (mode 0644) was PC-INST-001 "has no execute
    # bit ... fails to load" while the same report said installed: loaded.
    # The host reads a prompt_file (R2.12) and executes only scripts (R2.10).
    m = manifest()
    m["commands"].append({"name": "ask", "description": "ask", "prompt_file": "commands/ask.md"})
    d = make(ctx, m=m)
    with open(os.path.join(d, "commands", "ask.md"), "w") as f:
        f.write("Answer: {{args}}\n")
    os.chmod(os.path.join(d, "commands", "ask.md"), 0o644)
    code, out = ic(ctx, zip_dir(d, os.path.join(ctx.tmp, "prompt.zip")))
    eq((code, ids(out, "error"), loads(out)["installed"]["loaded"]), (0, [], True))
    # the same zip with every file 0644: only the command script is reported
    code, out = ic(ctx, zip_dir(d, os.path.join(ctx.tmp, "noexec.zip"), mode=0o644))
    eq([f["file"] for f in out["findings"] if f["id"] == "PC-INST-001"], ["commands/hi.sh"])


def test_nonexistent_zip_says_so(ctx):
    # issue 20: it said "\"nonexist.zip\" is not a directory"
    code, out, err = ctx.run("install-check", "nonexist.zip")
    eq((code, out, err), (2, "", "plugcheck install-check: 'nonexist.zip' does not exist\n"
                                 "Run `plugcheck install-check --help` for usage.\n"))


def test_zip_load_failure_names_the_zip_entry(ctx):
    # issue 20: the report named plugcheck's extraction directory
    # (/tmp/plugcheck-install-XXXXXX/extract/...) instead of the zip entry
    d = make(ctx, files={"dist/run.sh": OK_CMD}, m=manifest(cmd="dist/run.sh"))
    z = zip_dir(d, os.path.join(ctx.tmp, "dist.zip"), top="owner-repo-abc123")
    code, text, err = ctx.run("install-check", z, "--repeat", "1", "--format", "json")
    assert "plugcheck-install" not in text and ctx.tmp + "/" not in text.replace(z, ""), text
    out = json.loads(text)
    eq(loads(out)["project"]["detail"],
       "[plugins] skipping project-scoped plugin 'inst-demo' (in \"%s:owner-repo-abc123\"); "
       "trust it with the plugin trust prompt (/plugin-trust), set --trust-project-plugins / "
       "CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or reinstall with `/plugin-install … workspace`"
       % z)
    eq(loads(out)["installed"], {"as": "installed", "loaded": False,
                                 "detail": 'script "dist/run.sh" does not exist'})

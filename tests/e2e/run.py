#!/usr/bin/env python3
"""Run one end-to-end test module against the real plugcheck binary.

usage: run.py TEST_MODULE.py PLUGCHECK FAKE_PLUGIN

The module's functions named test_* are called with a Ctx; each runs in a
fresh temporary directory that is removed afterwards. The last line printed
is "N passed, M failed"; the exit status is 1 when anything failed.
"""
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import traceback


# A CI job on GitHub Actions would switch plugcheck's default report
# format to github annotations (pc_cli_default_format): tests that want it
# ask for it, so no test depends on where it runs.
os.environ.pop("GITHUB_ACTIONS", None)

class Ctx:
    def __init__(self, plugcheck, fake_plugin, tmp):
        self.plugcheck = plugcheck
        self.fake_plugin = fake_plugin
        self.tmp = tmp
        self.fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")

    def run(self, *args, env=None, timeout=120, cwd=None):
        """Run plugcheck; return (exit code, stdout, stderr) as text."""
        e = dict(os.environ)
        e.pop("NO_COLOR", None)
        if env:
            e.update(env)
        p = subprocess.run([self.plugcheck, *args], capture_output=True, env=e,
                           timeout=timeout, cwd=cwd or self.tmp)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def json(self, *args, **kw):
        """Run plugcheck with --format json; return (exit code, parsed JSON)."""
        code, out, err = self.run(*args, "--format", "json", **kw)
        try:
            return code, json.loads(out)
        except ValueError:
            raise AssertionError(f"not JSON (exit {code}):\n{out}\nstderr:\n{err}")

    def plugin(self, name, manifest, files=None, dirname=None):
        """Write a plugin directory; files maps relative path -> text or
        bytes (executable unless the path ends in .txt/.md/.json)."""
        d = os.path.join(self.tmp, dirname or name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "plugin.json"), "w" if isinstance(manifest, str) else "wb") as f:
            if isinstance(manifest, (dict, list)):
                f.write(json.dumps(manifest, indent=2).encode())
            else:
                f.write(manifest)
        for rel, body in (files or {}).items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(body.encode() if isinstance(body, str) else body)
            if not rel.endswith((".txt", ".md", ".json")):
                os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return d

    def fake(self, plugin_dir, rel):
        """Copy the C fake plugin into plugin_dir/rel (executable)."""
        p = os.path.join(plugin_dir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        shutil.copy(self.fake_plugin, p)
        os.chmod(p, 0o755)
        return p


class Skip(Exception):
    """Raised by a test that cannot run here; the reason is printed as
    `ok - NAME # SKIP reason` (TAP)."""


def eq(actual, expected, what=""):
    if actual != expected:
        raise AssertionError(f"{what}\n  expected: {expected!r}\n  actual:   {actual!r}")


def main():
    mod_path, plugcheck, fake = sys.argv[1:4]
    spec = importlib.util.spec_from_file_location("e2e_mod", mod_path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["e2e"] = sys.modules[__name__]
    spec.loader.exec_module(mod)
    names = sorted(n for n in dir(mod) if n.startswith("test_"))
    only = os.environ.get("E2E_ONLY")
    passed = failed = 0
    for n in names:
        if only and only not in n:
            continue
        tmp = tempfile.mkdtemp(prefix="plugcheck-e2e-")
        try:
            getattr(mod, n)(Ctx(os.path.abspath(plugcheck), os.path.abspath(fake), tmp))
            passed += 1
            print(f"ok - {n}")
        except Skip as why:
            passed += 1
            print(f"ok - {n} # SKIP {why}")
        except Exception:
            failed += 1
            print(f"not ok - {n}")
            traceback.print_exc(file=sys.stdout)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""Hostile plugins (tests/hostile/): plugcheck check survives each one
within its bound, reports the specific finding, and leaves no process, no
temporary file and a complete report (see hostile.py for the checks)."""
import hostile
from hostile import copy, run_check

# name -> (findings that must be reported, findings that must not be)
CASES = {
    # processes
    "never-exits": (["PC-HOOK-010"], []),
    "ignores-sigterm": (["PC-HOOK-010"], []),
    "stops-itself": (["PC-HOOK-010"], []),
    "child-holds-stdout": (["PC-PROC-003"], []),
    "child-holds-stderr": (["PC-PROC-003"], []),
    "setsid-escapee": (["PC-PROC-001"], []),
    "double-fork": (["PC-PROC-001"], []),
    "fork-storm": (["PC-PROC-001"], []),
    "fork-tree": (["PC-PROC-001"], []),
    "new-pgroup-holds-stdout": (["PC-PROC-003"], []),
    "crash-segv": (["PC-HOOK-010"], []),
    "crash-abort": (["PC-HOOK-010"], []),
    "exit-255": (["PC-HOOK-010"], ["PC-IO-001"]),
    # I/O
    "flood-stdout": (["PC-IO-001"], []),
    "flood-stderr": (["PC-IO-001"], []),
    "flood-both": (["PC-IO-001"], []),
    "slow-drip": (["PC-HOOK-010"], []),
    "closes-stdout": (["PC-HOOK-010"], []),
    "exits-before-stdin": (["PC-IO-004"], ["PC-HOOK-010"]),
    "closes-stdin": (["PC-IO-004"], ["PC-HOOK-010"]),
    "byte-at-a-time": (["PC-IO-002"], []),
    "writes-before-reading": (["PC-IO-002"], []),
    "exactly-1mib": ([], ["PC-IO-001", "PC-HOOK-010"]),
    "one-byte-over": (["PC-IO-001"], []),
    # answers
    "nul-bytes": (["PC-HOOK-010", "PC-OUT-003"], []),
    "invalid-utf8": (["PC-HOOK-010", "PC-OUT-002"], []),
    "bom": (["PC-HOOK-010", "PC-OUT-001"], []),
    "number-1e999": (["PC-HOOK-010"], []),
    "duplicate-keys": (["PC-HOOK-012"], []),
    "second-document": (["PC-HOOK-010", "PC-OUT-003"], []),
    "lone-surrogate": (["PC-HOOK-010"], []),
    "raw-control-char": (["PC-HOOK-010"], []),
    "deep-nesting": (["PC-HOOK-010"], []),
    "huge-string": (["PC-HOOK-012"], []),
    "terminal-escapes": (["PC-HOOK-010"], []),
    # the plugin's own files and the machine
    "self-modifying": (["PC-HOOK-010"], []),
    "deletes-own-dir": (["PC-HOOK-010"], []),
    "leaves-tmp-files": ([], ["PC-HOOK-010"]),
    "writes-outside-workspace": ([], ["PC-HOOK-010"]),
    "connects-network": ([], ["PC-HOOK-010"]),
    # other entry points
    "tool-never-exits": (["PC-TOOL-010"], []),
    "tool-flood": (["PC-IO-001"], []),
    "command-never-exits": (["PC-CMD-010"], []),
    "memory-never-exits": (["PC-MEM-001"], []),
    "oauth-never-exits": (["PC-OAUTH-001"], []),
    "script-is-dir": (["PC-SCRIPT-001", "PC-HOOK-010"], []),
    # issue 21: what plugcheck itself must survive (test_hostile_escapes.py
    # adds the checks that need a terminal, another user or --sandbox)
    "swaps-script": (["PC-SCRIPT-005"], []),
    "chmods-dirs": ([], ["PC-HOOK-010"]),
    "deep-chain": ([], ["PC-HOOK-010"]),
    "fifo-prompt": (["PC-CMD-011"], []),
    "template-bomb": ([], ["PC-HOOK-010"]),
    "workspace-traps": ([], ["PC-HOOK-010"]),
    "tty-thief": ([], ["PC-HOOK-010"]),
}

# Plugins the host refuses to load: PC-LOAD-001 and nothing is run, with
# the finding naming the cause where plugcheck can tell it (issue 17).
CAUSE = {"manifest-bom": "PC-MAN-012"}
NOT_LOADED = ["manifest-bom", "manifest-dup-name", "manifest-invalid-utf8",
              "manifest-nul", "manifest-deep", "manifest-dev-zero",
              "symlink-escape", "path-traversal"]


def test_corpus_is_covered(ctx):
    import os
    names = sorted(n for n in os.listdir(hostile.CORPUS)
                   if os.path.isdir(os.path.join(hostile.CORPUS, n)))
    assert sorted(list(CASES) + NOT_LOADED) == names, \
        set(names) ^ set(list(CASES) + NOT_LOADED)
    assert len(names) >= 40


def test_hostile_plugins(ctx):
    failures = []
    for name, (expect, absent) in CASES.items():
        try:
            run_check(ctx, copy(ctx, name), expect, absent)
        except AssertionError as e:
            failures.append(f"{name}: {e}")
    for name in NOT_LOADED:
        try:
            expect = ["PC-LOAD-001"] + ([CAUSE[name]] if name in CAUSE else [])
            r = run_check(ctx, copy(ctx, name), expect, loaded=False)
            assert len(r["findings"]) == len(expect), r["findings"]
        except AssertionError as e:
            failures.append(f"{name}: {e}")
    w = hostile.WORST
    print(f"# worst wall time {w['wall']:.1f} s of bound {w['bound']:.1f} s ({w['name']})")
    assert not failures, "\n".join(failures)

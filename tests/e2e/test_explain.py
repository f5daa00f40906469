"""plugcheck explain ID and docs/rules/ (issue 19, item 4): every id
`plugcheck rules` prints is explained, docs/rules/ holds exactly one page
per id and is what the binary generates, and the examples of the static
rules really get (and, fixed, lose) their finding."""
import json
import os
import re

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS_RULES = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "rules"))


def rule_ids(ctx):
    code, rules = ctx.json("rules")
    eq(code, 0)
    return [(r["id"], r["severity"], r["title"], r["rule"], r["fix"]) for r in rules]


def test_every_rule_is_explained(ctx):
    ids = rule_ids(ctx)
    assert len(ids) >= 100, len(ids)
    for rid, sev, title, spec, fix in ids:
        code, out, err = ctx.run("explain", rid)
        eq((code, err), (0, ""), rid)
        head = "%s (%s): %s\nContract rule: %s\n\n" % (
            rid, sev, title, spec or "none (a check of plugcheck's own)")
        eq(out[:len(head)], head, rid)
        pos = [out.find(s) for s in ("\nWhat the host does\n", "\nA failing example\n",
                                      "\nThe fix\n", "\nFixed\n", "\nOnline: ")]
        assert -1 not in pos and pos == sorted(pos), (rid, pos, out)
        # the fix shown is the rule's fix (PC-LOAD-001: one per message)
        words = " ".join(out.split())
        if rid != "PC-LOAD-001":
            assert " ".join(fix.split()) in words, (rid, fix)
        assert out.endswith("/docs/rules/%s.md\n" % rid), out[-200:]
    # ids are case-insensitive; several at once, separated by a blank line
    code, one, _ = ctx.run("explain", "PC-HOOK-002")
    code2, two, _ = ctx.run("explain", "pc-hook-002", "PC-MAN-002")
    eq((code, code2), (0, 0))
    assert two.startswith(one + "\nPC-MAN-002 (note): "), two[:300]


def test_docs_rules_has_one_page_per_id_and_no_drift(ctx):
    ids = sorted(r[0] for r in rule_ids(ctx))
    eq(sorted(os.listdir(DOCS_RULES)), ["%s.md" % i for i in ids])
    code, out, err = ctx.run("explain", "--all", "--check", DOCS_RULES)
    eq((code, out, err), (0, "", ""),
       "docs/rules differs from the table: run plugcheck explain --all --markdown docs/rules")
    for rid in ids:
        code, out, _ = ctx.run("explain", rid, "--format", "markdown")
        with open(os.path.join(DOCS_RULES, rid + ".md")) as f:
            eq(f.read(), out, rid)


def test_check_names_each_difference(ctx):
    d = os.path.join(ctx.tmp, "rules")
    code, out, err = ctx.run("explain", "--all", "--markdown", d)
    eq((code, out, err), (0, "", ""))
    eq(ctx.run("explain", "--all", "--check", d), (0, "", ""))
    with open(os.path.join(d, "PC-HOOK-002.md"), "a") as f:
        f.write("edited\n")
    os.remove(os.path.join(d, "PC-MAN-002.md"))
    with open(os.path.join(d, "PC-OLD-001.md"), "w") as f:
        f.write("retired\n")
    code, out, err = ctx.run("explain", "--all", "--check", d)
    eq((code, err), (1, ""))
    eq(sorted(out.splitlines()), sorted([
        "%s/PC-HOOK-002.md: differs from `plugcheck explain --format markdown PC-HOOK-002`" % d,
        "%s/PC-MAN-002.md: missing (plugcheck explain --all --markdown %s writes it)" % (d, d),
        "%s/PC-OLD-001.md: not the page of a rule id (plugcheck rules lists them)" % d]))


def test_usage_errors(ctx):
    for args, msg in [((), "name a rule id (e.g. PC-HOOK-002), or give --all"),
                      (("PC-NOPE-001",), "'PC-NOPE-001' is not a rule id: `plugcheck rules` lists them"),
                      (("--all", "PC-HOOK-002"), "--all takes no rule id"),
                      (("PC-HOOK-002", "--format", "html"),
                       "--format: invalid value 'html' (expected text or markdown)")]:
        eq(ctx.run("explain", *args),
           (2, "", "plugcheck explain: %s\nRun `plugcheck explain --help` for usage.\n" % msg), args)


def test_help_and_findings_point_at_explain(ctx):
    code, out, _ = ctx.run("--help")
    assert "`plugcheck explain ID` explains the id a finding names." in out, out
    assert re.search(r"^  explain +explain a check id", out, re.M), out
    d = ctx.plugin("p", {"name": "p", "version": "1.0"})
    for cmd in ("lint", "check"):
        code, out, _ = ctx.run(cmd, d, "--repeat", "1") if cmd == "check" else ctx.run(cmd, d)
        assert "(see `plugcheck explain PC-MAN-002`)\n" in out, out


# The rules whose examples are whole plugins for lint: each failing example
# gets the finding, its fixed example does not. Scripts an example only
# names get a stub that answers every call.
STATIC = ["PC-CAP-001", "PC-CAP-002", "PC-CMD-001", "PC-CMD-002", "PC-DOC-001",
          "PC-DOC-002", "PC-HOOK-001", "PC-HOOK-002", "PC-HOOK-003", "PC-HOOK-004",
          "PC-HOOK-005", "PC-IO-003", "PC-LOAD-001", "PC-MAN-002", "PC-MAN-003",
          "PC-SCRIPT-001", "PC-TOOL-001", "PC-TOOL-002", "PC-TOOL-003", "PC-TOOL-004",
          "PC-TOOL-005", "PC-ENV-002"]

# notes about what the host does at a hook point: the fix is in how the
# script works, so the fixed plugin still declares the point and keeps the
# note
STAYS = {"PC-DOC-001", "PC-DOC-002", "PC-HOOK-003"}

STUB = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\": true}'\n"


def examples(md):
    """{"failing": {name: text}, "fixed": {...}} of a markdown page."""
    out = {}
    for part, title in (("failing", "## A failing example\n"), ("fixed", "## Fixed\n")):
        start = md.index(title) + len(title)
        end = md.find("\n## ", start)
        end = md.find("\n---\n", start) if end < 0 else end
        files = {}
        for m in re.finditer(r"`([^`]+)`:\n\n```[a-z]*\n(.*?)\n```\n", md[start:end], re.S):
            files[m.group(1)] = m.group(2) + "\n"
        out[part] = files
    return out


def build(ctx, name, files, base=None):
    d = os.path.join(ctx.tmp, name)
    merged = dict(base or {})
    merged.update(files)
    man = merged.get("plugin.json")
    assert man, name
    os.makedirs(d)
    for rel, text in merged.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        if rel != "plugin.json" and not rel.endswith(".md"):
            os.chmod(p, 0o755)
    m = json.loads(man)
    scripts = [h.get("script") for h in m.get("hooks", {}).values()]
    scripts += [t.get("script") for t in m.get("tools", [])]
    scripts += [c.get("script") for c in m.get("commands", [])]
    for s in scripts:
        p = os.path.join(d, s or "")
        if s and not os.path.exists(p):
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(STUB)
            os.chmod(p, 0o755)
    return d


def ids_of(ctx, d):
    code, out = ctx.json("lint", d)
    return {f["id"] for f in out["findings"]}


def test_static_examples_get_their_finding(ctx):
    for rid in STATIC:
        code, md, _ = ctx.run("explain", rid, "--format", "markdown")
        ex = examples(md)
        fail_files = ex["failing"]
        if "plugin.json" not in fail_files:  # a script example: a hook runs it
            rel = next(iter(fail_files))
            fail_files = dict(fail_files, **{"plugin.json": json.dumps(
                {"name": "x", "version": "1.0.0",
                 "hooks": {"pre_turn": {"script": rel}}})})
        bad = build(ctx, rid + "-bad", fail_files)
        assert rid in ids_of(ctx, bad), (rid, ids_of(ctx, bad))
        good = build(ctx, rid + "-good", ex["fixed"], fail_files)
        eq(rid in ids_of(ctx, good), rid in STAYS, (rid, ids_of(ctx, good)))

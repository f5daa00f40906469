"""The HTML page (issue 22, docs/report.md): `--format html` and `--html
FILE` for check, run and turn, opened in headless Chromium and asserted
on its DOM: the verdict and failures first, a finding's location and fix,
an exchange's stdin and stdout escaped (a hook printing <script> and
terminal escapes injects nothing), the turn timeline's one mark per hook
firing, the page's size bound for a hook flooding 1 GiB. The screenshots
stay under the build directory (report-artifacts/) as test artifacts.

Chromium is Debian's `chromium` (./bootstrap.sh --deps installs it); as
root it needs --no-sandbox. Each page costs about two browser starts.
"""
import base64
import hashlib
import html.parser
import json
import os
import re
import shutil
import subprocess

from run import eq

VOID = {"meta", "br", "input", "link", "img", "hr", "wbr", "source"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def all(self, pred):
        out = []
        for c in self.children:
            if isinstance(c, Node):
                if pred(c):
                    out.append(c)
                out.extend(c.all(pred))
        return out


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#root", [], None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(text):
    t = Tree()
    t.feed(text)
    return t.root


def by_class(root, cls, tag=None):
    return root.all(lambda n: cls in n.classes() and (tag is None or n.tag == tag))


def by_id(root, ident):
    hits = root.all(lambda n: n.attrs.get("id") == ident)
    assert len(hits) == 1, f"#{ident}: {len(hits)} elements"
    return hits[0]


def artifacts(ctx):
    d = os.path.join(os.path.dirname(ctx.plugcheck), "report-artifacts")
    os.makedirs(d, exist_ok=True)
    return d


def chromium(ctx, *args):
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: run ./bootstrap.sh --deps"
    p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-first-run", "--hide-scrollbars",
                        "--user-data-dir=" + os.path.join(ctx.tmp, "chromium"),
                        *args], capture_output=True, timeout=120)
    return p.stdout.decode("utf-8")


def open_page(ctx, path, shot):
    """The page as Chromium builds it (scripts run) and a screenshot of
    it kept as an artifact; also the raw bytes."""
    raw = open(path, "rb").read()
    url = "file://" + os.path.abspath(path)
    dom = parse(chromium(ctx, "--dump-dom", url))
    png = os.path.join(artifacts(ctx), shot)
    if os.path.exists(png):
        os.unlink(png)
    chromium(ctx, "--screenshot=" + png, "--window-size=1280,1600", url)
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "no screenshot " + png
    assert os.path.getsize(png) > 10000, png
    return raw, dom


def assert_self_contained(raw, dom):
    # one file: no fetch of anything, no control byte, the one script is
    # the page's own and runs (its CSP hash matches: the filters show)
    text = raw.decode("utf-8")
    for b in (b"\x1b", b"\x00", b"\r"):
        assert b not in raw, repr(b)
    assert not re.search(r"<(link|img|iframe|object|embed)\b", text)
    assert not re.search(r"\ssrc=", text)
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", text, re.S)
    eq(len(scripts), 1, "scripts")
    want = "sha256-" + base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src '{want}'" in text, "the CSP names the script's hash"
    eq(len(dom.all(lambda n: n.tag == "script")), 1, "scripts in the DOM")
    eq(by_id(dom, "filters").attrs.get("hidden"), None, "the script ran")
    # without JavaScript the filters stay hidden and nothing is missing
    eq("hidden" in by_id(parse(text), "filters").attrs, True)


def cases(dom):
    return by_class(by_id(dom, "cases"), "case", "details")


def assert_failures_first(dom):
    st = [c.attrs["data-status"] for c in cases(dom)]
    assert st and st[0] == "fail", st
    assert st == sorted(st, key=lambda s: 0 if s == "fail" else 1 if s == "xfail" else 2), st


def stream(node, name):
    hits = node.all(lambda n: n.tag == "pre" and n.attrs.get("data-stream") == name)
    assert hits, f"no {name} in {node.attrs.get('id')}"
    return hits[0].text()


HOSTILE = (b"<script>alert(1)</script>\x1b[31mred\x1b[0m\r\n\xef\xbb\xbf"
           b"\xff\x00end")


def hostile_plugin(ctx):
    # pre_bash answers bytes that are no JSON: the host fails the hook
    # (PC-HOOK-010); its scenario fails an expectation (PC-SCN-001, which
    # has a line and column)
    return ctx.plugin("hostile", {"name": "hostile", "version": "1.0.0",
                                  "hooks": {"pre_bash": {"script": "hooks/pre_bash", "pass_args": True}}},
                      {"hooks/pre_bash": "#!/bin/sh\ncat >/dev/null\nprintf '%s'\n" %
                       "".join("\\%03o" % b for b in HOSTILE),
                       "tests/guard.plugcheck.yaml":
                       "plugcheck: 1\nplugins: [..]\nscenarios:\n  - name: allows ls\n    steps:\n"
                       "      - fire: pre_bash\n        input: { command: ls }\n        expect: { verdict: allow }\n"})


def test_failing_check_page(ctx):
    d = hostile_plugin(ctx)
    page = os.path.join(ctx.tmp, "check.html")
    xml = os.path.join(ctx.tmp, "check.xml")
    code, out, err = ctx.run("check", d, "--repeat", "1", "--format", "junit",
                             "--output", xml, "--html", page)
    eq(code, 1, "exit")
    assert open(xml).read().startswith("<?xml"), "JUnit beside the page"
    raw, dom = open_page(ctx, page, "report-check.png")
    assert_self_contained(raw, dom)
    eq(by_id(dom, "verdict").text(), "FAIL")
    assert int(by_id(dom, "n-errors").text()) >= 2
    assert_failures_first(dom)
    # errors before notes, each with its location, fix and explanation
    fs = by_class(by_id(dom, "findings"), "finding", "article")
    sev = [f.attrs["data-severity"] for f in fs]
    eq(sev, sorted(sev, key=["error", "warning", "note"].index), "severity order")
    rules = {r["id"]: r for r in json.loads(ctx.run("rules", "--format", "json")[1])}
    scn = [f for f in fs if f.attrs["data-rule"] == "PC-SCN-001"]
    eq(len(scn), 1)
    eq(by_class(scn[0], "loc")[0].text(), os.path.join(d, "tests", "guard.plugcheck.yaml") + ":6:9")
    eq(by_class(scn[0], "fix")[0].text(), "fix: " + rules["PC-SCN-001"]["fix"])
    eq(scn[0].all(lambda n: n.tag == "a" and "rule" in n.classes())[0].attrs["href"],
       "docs/rules/PC-SCN-001.md")
    assert "plugcheck explain PC-SCN-001" in scn[0].text()
    hook = [f for f in fs if f.attrs["data-rule"] == "PC-HOOK-010"]
    eq(len(hook), 1)
    # its case: the exchange, escaped, every invisible byte visible
    case = by_id(dom, hook[0].all(lambda n: n.tag == "a" and n.attrs.get("href", "").startswith("#case-"))[0].attrs["href"][1:])
    eq(case.attrs["data-status"], "fail")
    stdin = json.loads(stream(case, "stdin"))
    eq((stdin["hook"], stdin["args"]["command"]), ("pre_bash", "echo hello"))
    eq(stream(case, "stdout"),
       "<script>alert(1)</script>ESC[31mredESC[0mCR\n[BOM]\\xffNULend")
    pre = case.all(lambda n: n.tag == "pre" and n.attrs.get("data-stream") == "stdout")[0]
    eq([v.text() for v in by_class(pre, "vis")], ["ESC", "ESC", "CR", "[BOM]", "\\xff", "NUL"])
    assert "plugcheck fire pre_bash " + d in by_class(case, "command")[0].text()
    eq(by_class(case, "leftover")[0].text(), "0")
    # the markup the hook printed is text, not an element
    eq(dom.all(lambda n: n.tag == "script" and "alert" in n.text()), [])


def test_flood_page_stays_small(ctx):
    # a hook that floods 1 GiB of stdout: the host stops it at its 1 MiB
    # cap (PC-IO-001); the page keeps 5 KiB of it (docs/report.md: under
    # 1 MiB for such a plugin)
    d = ctx.plugin("flood", {"name": "flood", "version": "1.0.0",
                             "hooks": {"pre_bash": {"script": "hooks/pre_bash"}}},
                   {"hooks/pre_bash": "#!/bin/sh\nhead -c 1073741824 /dev/zero | tr '\\0' x\n"})
    page = os.path.join(ctx.tmp, "flood.html")
    code, out, err = ctx.run("check", d, "--repeat", "1", "--format", "html", "--output", page)
    eq(code, 1, "exit")
    size = os.path.getsize(page)
    assert size < 1 << 20, size
    text = open(page, encoding="utf-8").read()
    assert "PC-IO-001" in text
    assert re.search(r"bytes not shown \(10\d{5} in all", text), "the cut is said"


def run_file(ctx, d):
    path = os.path.join(ctx.tmp, "s.plugcheck.yaml")
    with open(path, "w") as f:
        f.write("plugcheck: 1\nplugins: [%s]\nscenarios:\n"
                "  - name: passes\n    steps:\n      - fire: pre_bash\n        input: { command: ls }\n"
                "        expect: { verdict: deny }\n"
                "  - name: denies writes\n    steps:\n      - fire: pre_write\n"
                "        input: { path: a.txt, content: \"<b>x</b>\" }\n        expect: { verdict: allow }\n" % d)
    return path


GUARD = {"name": "g", "version": "1.0",
         "hooks": {"pre_bash": {"script": "hooks/pre_bash.sh", "pass_args": True},
                   "pre_write": {"script": "hooks/pre_write.sh", "pass_args": True},
                   "post_bash": {"script": "hooks/post_bash.sh", "pass_args": True}}}
GUARD_FILES = {
    "hooks/pre_bash.sh": "#!/bin/sh\ncat >/dev/null\nprintf '\\033[31mred <i>x</i>\\r\\n' >&2\n"
                         "echo '{\"allow\":true,\"reason\":\"rewrote\",\"modify\":{\"command\":\"echo safe\"}}'\n",
    "hooks/pre_write.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":false,\"reason\":\"no <b>writes</b>\"}'\n",
    "hooks/post_bash.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true,\"modify\":{\"output\":\"redacted\"}}'\n",
}


def test_scenario_run_page(ctx):
    d = ctx.plugin("g", GUARD, GUARD_FILES)
    page = os.path.join(ctx.tmp, "run.html")
    code, out, err = ctx.run("run", run_file(ctx, d), "-j", "2", "--format", "html", "--output", page)
    eq(code, 1, "exit")
    raw, dom = open_page(ctx, page, "report-run.png")
    assert_self_contained(raw, dom)
    eq(by_id(dom, "verdict").text(), "FAIL")
    assert_failures_first(dom)
    rows = by_id(dom, "scenarios").all(lambda n: n.tag == "tr" and "data-status" in n.attrs)
    eq([r.attrs["data-status"] for r in rows], ["fail", "fail"])
    first = [c for c in cases(dom) if "denies writes" in by_class(c, "name")[0].text()][0]
    eq(json.loads(stream(first, "stdin"))["args"]["content"], "<b>x</b>")
    eq(json.loads(stream(first, "stdout"))["reason"], "no <b>writes</b>")
    loc = by_class(by_id(dom, "findings"), "loc")
    eq(sorted(n.text() for n in loc), sorted([run_file(ctx, d) + ":6:9", run_file(ctx, d) + ":11:9"]))


def test_turn_page(ctx):
    d = ctx.plugin("g", GUARD, GUARD_FILES)
    script = os.path.join(ctx.tmp, "script.json")
    with open(script, "w") as f:
        json.dump({"replies": [{"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf /"}},
                                               {"name": "write_file", "arguments": {"path": "x.txt", "content": "1"}}]},
                               {"content": "done"}]}, f)
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    code, j = ctx.json("turn", script, d, "--workspace", ws)
    eq(code, 0)
    page = os.path.join(ctx.tmp, "turn.html")
    code, out, err = ctx.run("turn", script, d, "--workspace", ws, "--format", "html", "--output", page)
    eq(code, 0, "exit")
    assert "turn completed" in out, "the human form still on stdout"
    raw, dom = open_page(ctx, page, "report-turn.png")
    assert_self_contained(raw, dom)
    eq(by_id(dom, "verdict").text(), "PASS")
    svg = dom.all(lambda n: n.tag == "svg" and "timeline" in n.classes())
    eq(len(svg), 1)
    marks = by_class(svg[0], "hook", "rect")
    eq(len(marks), len(j["hooks"]), "one mark per hook firing")
    eq([m.attrs["data-verdict"] for m in marks],
       ["deny" if h.endswith(" deny") else "allow" for h in j["hooks"]])
    # in the host's order, and the modify merges as diffs
    entries = by_class(dom, "entry", "li")
    hooks = [e for e in entries if "hook" in e.classes()]
    eq([e.text().split()[1] for e in hooks], [h.split()[0] for h in j["hooks"]])
    diffs = by_class(dom, "diff", "pre")
    eq(len(diffs), 2)
    eq([n.text() for n in by_class(diffs[0], "del")], ['-   "command": "rm -rf /"'])
    eq([n.text() for n in by_class(diffs[0], "add")], ['+   "command": "echo safe"'])
    # the hook's stderr escape and markup are text in its exchange
    assert "ESC[31mred <i>x</i>CR" in stream(hooks[0], "stderr")
    # --html beside --format json: the same page
    page2 = os.path.join(ctx.tmp, "turn2.html")
    code, out, err = ctx.run("turn", script, d, "--workspace", ws, "--format", "json", "--html", page2)
    eq((code, json.loads(out)["hooks"]), (0, j["hooks"]))
    eq(len(re.findall(r'<rect class="mark hook ', open(page2).read())), len(j["hooks"]))


def test_html_option_errors(ctx):
    d = ctx.plugin("g", GUARD, GUARD_FILES)
    page = os.path.join(ctx.tmp, "p.html")
    for args, msg in [
            (["--format", "html", "--html", page],
             "--html: --format html writes the page already; drop --html, or give another --format"),
            (["--html", "-"], "--html: name a file (standard output is for --format)"),
            (["--format", "json", "--output", page, "--html", page],
             "--html '%s' is the --output file too; name another file" % page)]:
        code, out, err = ctx.run("check", d, *args)
        eq((code, out, err), (2, "", "plugcheck check: %s\nRun `plugcheck check --help` for usage.\n" % msg))
    code, out, err = ctx.run("run", run_file(ctx, d), "--html", ctx.tmp)
    eq((code, out, err), (2, "", "plugcheck: cannot write --html '%s': it is a directory; fix: name a file, e.g. '%s/report'\n"
                         % (ctx.tmp, ctx.tmp)))
    assert not os.path.exists(page), "nothing ran, nothing written"

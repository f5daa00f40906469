"""Issue 17, the subagent path (spec catalyst-code.md R2.18, R2.19, R4.6):
disable_tools and overrides take a built-in away from the main agent only;
a subagent the model delegates to runs the built-in. `lint` and `check`
name the cause (PC-SUB-001, PC-SUB-002) with the fix, and the reference
host still does exactly what the host does: the main agent is refused, the
child writes the file and runs the built-in bash."""
import json
import os
import shutil

from e2e import eq

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "causes",
                   "subagent-bypass")
HOW = "call `subagent` (or load and call `spawn`)"
WRITE = ("disable_tools removes 'write_file' from the main agent only (R2.18): the model can "
         "still " + HOW + ", and a subagent of agent context-builder, delegate, researcher, "
         "reviewer, scout or worker runs the built-in write_file")
EDIT = ("disable_tools removes 'edit' from the main agent only (R2.18): the model can still "
        + HOW + ", and a subagent of agent delegate, reviewer or worker runs the built-in edit")
BASH = ("tool 'bash' replaces the built-in for the main agent only (R2.18): the model can "
        + HOW + ", and a subagent of any built-in agent runs the built-in bash, not tools/bash.sh")


def sub_findings(d):
    return [(f["id"], f["message"]) for f in d["findings"] if f["id"].startswith("PC-SUB-")]


def test_lint_names_the_cause(ctx):
    code, d = ctx.json("lint", FIX)
    eq(code, 0)
    eq(sub_findings(d), [("PC-SUB-001", WRITE), ("PC-SUB-001", EDIT), ("PC-SUB-002", BASH)])
    fixes = {f["id"]: f["fix"] for f in d["findings"]}
    eq(fixes["PC-SUB-001"].startswith('add "subagent" and "spawn" to disable_tools'), True)


def test_check_reports_the_same(ctx):
    code, d = ctx.json("check", FIX)
    eq(sub_findings(d), [("PC-SUB-001", WRITE), ("PC-SUB-001", EDIT), ("PC-SUB-002", BASH)])
    eq(d["summary"]["warnings"] >= 3, True)


def test_host_behaviour_is_unchanged(ctx):
    # The main agent: write_file refused (R2.19), bash through the
    # override (which refuses rm). The worker subagent: the built-in
    # write_file writes, the built-in bash runs rm (R2.18).
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    with open(os.path.join(ws, "victim.txt"), "w") as f:
        f.write("x")
    script = os.path.join(ctx.tmp, "s.json")
    with open(script, "w") as f:
        json.dump({"replies": [
            {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "1"}},
                            {"name": "bash", "arguments": {"command": "rm victim.txt"}}]},
            {"tool_calls": [{"name": "subagent", "arguments": {"agent": "worker", "task": "go"}}]},
            {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "1"}},
                            {"name": "bash", "arguments": {"command": "rm victim.txt"}}]},
            {"content": "done"}, {"content": "ok"}]}, f)
    code, d = ctx.json("turn", script, FIX, "--workspace", ws)
    eq(code, 0)
    main = [(e["name"], e["ok"], e["output"]) for e in d["events"] if e["type"] == "tool_result"]
    eq(main[:2], [("write_file", False,
                   "tool 'write_file' is not available on this agent (not in the current tool list)."),
                  ("bash", False, "subagent-bypass: rm is not allowed")])
    child = [(e["name"], e["ok"], e["result"]) for e in d["events"]
             if e["type"] == "subagent_tool_result"]
    eq(child, [("write_file", True, "wrote 1 bytes to a.txt"), ("bash", True, "(no output)")])
    eq(os.path.exists(os.path.join(ws, "a.txt")), True)
    eq(os.path.exists(os.path.join(ws, "victim.txt")), False)
    names = [t["function"]["name"] for t in d["requests"][0]["tools"]]
    eq("write_file" in names or "edit" in names, False)
    eq(names.count("bash"), 1)


def test_closing_the_path_silences_it(ctx):
    # subagent and spawn disabled (or load_tools, which spawn needs): no
    # finding; subagent alone leaves spawn open, and the message says so.
    m = json.load(open(os.path.join(FIX, "plugin.json")))
    for extra, want in [(["subagent", "spawn"], []), (["subagent", "load_tools"], []),
                        (["subagent"], ["load `spawn` with load_tools and call it"] * 3),
                        (["spawn"], ["call `subagent`"] * 3)]:
        d = os.path.join(ctx.tmp, "p-" + "-".join(extra))
        shutil.copytree(FIX, d)
        mm = dict(m, disable_tools=m["disable_tools"] + extra)
        with open(os.path.join(d, "plugin.json"), "w") as f:
            json.dump(mm, f)
        code, out = ctx.json("lint", d)
        got = [msg.split("the model can ")[1].split(", and a subagent")[0].replace("still ", "")
               for _, msg in sub_findings(out)]
        eq(got, want, str(extra))


def test_a_hook_that_may_guard_it_is_named(ctx):
    d = os.path.join(ctx.tmp, "hooked")
    shutil.copytree(FIX, d)
    m = json.load(open(os.path.join(FIX, "plugin.json")))
    m["hooks"] = {"pre_bash": {"script": "tools/bash.sh"}}
    with open(os.path.join(d, "plugin.json"), "w") as f:
        json.dump(m, f)
    code, out = ctx.json("lint", d)
    eq([msg for _, msg in sub_findings(out)],
       [WRITE, EDIT, BASH + ", unless its pre_bash hook refuses it there (hooks fire inside "
        "subagents)"])


def test_tools_no_agent_has_are_not_reported(ctx):
    p = ctx.plugin("p", {"name": "p", "version": "1.0.0", "disable_tools": ["git_commit", "patch"],
                         "tools": [{"name": "git_diff", "script": "t.sh", "override": True}]},
                   {"t.sh": "#!/bin/sh\necho x\n"})
    code, d = ctx.json("lint", p)
    eq(sub_findings(d), [])

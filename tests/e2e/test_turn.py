"""plugcheck turn: whole agent turns, asserting the FULL ordered list of
hook firings (spec catalyst-code.md R4.6-R4.10, R6.3, R7.5, R10.1)."""
import json
import os

from run import eq

ALL = ["session_start", "pre_input", "turn_start", "pre_turn", "pre_compact",
       "pre_agent_start", "pre_context", "pre_bash", "pre_write", "pre_read",
       "pre_tool", "post_bash", "post_write", "post_read", "post_tool",
       "turn_end", "session_stop", "session_shutdown"]


def hook(answer):
    return "#!/bin/sh\ncat >/dev/null\necho '" + json.dumps(answer) + "'\n"


def plugin(ctx, name, answers=None, points=ALL, extra=None):
    """A plugin with a hook at every point in `points`; answers maps a
    point to its JSON answer (default allow)."""
    answers = answers or {}
    m = {"name": name, "version": "1.0", "hooks": {}}
    files = {}
    for p in points:
        m["hooks"][p] = {"script": f"hooks/{p}.sh", "pass_args": True}
        files[f"hooks/{p}.sh"] = hook(answers.get(p, {"allow": True}))
    m.update(extra or {})
    return ctx.plugin(name, m, files)


def turn(ctx, script, *args):
    path = os.path.join(ctx.tmp, "script.json")
    with open(path, "w") as f:
        json.dump(script, f)
    return ctx.json("turn", path, *args)


def results(d):
    return [e["output"] for e in d["events"] if e["type"] == "tool_result"]


START = ["session_start a", "pre_input a", "turn_start a"]
REQ = ["pre_agent_start a", "pre_context a"]
END = ["turn_end a", "session_stop a", "session_shutdown a"]


def test_plain_text_turn(ctx):
    # R4.6: lifecycle order of a turn without tools
    a = plugin(ctx, "a")
    code, d = turn(ctx, {"replies": [{"content": "hi"}]}, a)
    eq(code, 0, "exit")
    eq(d["hooks"], START + REQ + END, "hooks")
    eq(d["consumed"], True)


def test_one_tool_call(ctx):
    # R4.7: specific pre -> pre_tool -> execute -> specific post -> post_tool
    a = plugin(ctx, "a")
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]},
        {"content": "done"}]}, a, "--workspace", ws)
    eq(code, 0)
    eq(d["hooks"], START + REQ + ["pre_bash a bash", "pre_tool a bash",
                                  "post_bash a bash", "post_tool a bash"] + REQ + END)
    eq(results(d), ["hi\n"])


def test_denied_write_leaves_no_file(ctx):
    # R4.8: a deny stops pre_tool and the call; the host's exact text
    a = plugin(ctx, "a", {"pre_write": {"allow": False, "reason": "no"}})
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "x.txt", "content": "1"}}]},
        {"content": "ok"}]}, a, "--workspace", ws)
    eq(code, 0)
    eq(d["hooks"], START + REQ + ["pre_write a write_file deny"] + REQ + END)
    eq(results(d), ["tool call 'write_file' denied by plugin 'a' hook 'pre_write': no"])
    eq(os.path.exists(os.path.join(ws, "x.txt")), False, "file written")


def test_modified_call_and_notes(ctx):
    # R4.8/R4.10: modify rewrites the args the tool runs with; reasons
    # become notes appended as "\n\nPlugin hooks:\n- "
    a = plugin(ctx, "a", {"pre_write": {"allow": True, "reason": "redirected",
                                        "modify": {"path": "y.txt"}}},
               points=["pre_write"])
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "x.txt", "content": "1"}}]},
        {"content": "ok"}]}, a, "--workspace", ws)
    eq(d["hooks"], ["pre_write a write_file"])
    eq(results(d), ["wrote 1 bytes to y.txt\n\nPlugin hooks:\n- a/pre_write: redirected"])
    eq(os.path.exists(os.path.join(ws, "y.txt")), True)
    eq(os.path.exists(os.path.join(ws, "x.txt")), False)


def test_two_plugins_modify_keys(ctx):
    # R4.10: different keys compose; the same key: the later name wins
    a = plugin(ctx, "a", {"pre_bash": {"allow": True, "modify": {"command": "echo A", "x": 1}}},
               points=["pre_bash", "pre_tool"])
    b = plugin(ctx, "b", {"pre_bash": {"allow": True, "modify": {"command": "echo B"}},
                          "pre_tool": {"allow": True, "modify": {"y": 2}}},
               points=["pre_bash", "pre_tool"])
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo orig"}}]},
        {"content": "ok"}]}, b, a)
    eq(d["hooks"], ["pre_bash a bash", "pre_bash b bash", "pre_tool a bash", "pre_tool b bash"])
    eq(results(d), ["B\n"])


def test_bulk_inner_calls_get_pre_hooks_only(ctx):
    # R4.6 bulk: inner calls get specific pre + pre_tool (not finish), no post
    a = plugin(ctx, "a", points=["pre_bash", "pre_read", "pre_tool", "post_bash", "post_tool"])
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bulk", "arguments": {"calls": [
            {"name": "bash", "args": {"command": "echo 1"}},
            {"name": "glob", "args": {"pattern": "*.none"}}]}}]},
        {"content": "ok"}]}, a)
    eq(d["hooks"], ["pre_tool a bulk", "pre_bash a bash", "pre_tool a bash",
                    "pre_read a glob", "pre_tool a glob", "post_tool a bulk"])
    eq(results(d), ["### [0] bash\n1\n\n\n### [1] glob\n(no matches)"])


def test_finish_gets_no_pre_tool(ctx):
    # R4.6: finish gets no pre_tool/post_tool
    a = plugin(ctx, "a", points=["pre_tool", "post_tool"])
    code, d = turn(ctx, {"replies": [{"tool_calls": [{"name": "finish"}]}]}, a)
    eq(code, 0)
    eq(d["hooks"], [])
    eq(results(d), ["This turn has finished"])


def test_compaction(ctx):
    # R4.6: pre_compact before the compaction, before the request hooks
    a = plugin(ctx, "a")
    code, d = turn(ctx, {"replies": [{"content": "hi"}]}, a, "--compact")
    eq(d["hooks"], START + ["pre_compact a"] + REQ + END)


def test_image_turn_with_vision_handoff(ctx):
    # R4.6 pre_turn: only with images and vision; modify.model switches
    a = plugin(ctx, "a", {"pre_turn": {"allow": True, "reason": "needs eyes",
                                       "modify": {"model": "mock-vision"}}})
    code, d = turn(ctx, {"replies": [{"content": "hi"}]}, a, "--images", "1", "--vision")
    eq(d["hooks"], START + ["pre_turn a"] + REQ + END)
    infos = [e["message"] for e in d["events"] if e["type"] == "info"]
    eq(infos, ["vision handoff: mock-model \u2192 mock-vision ([a] needs eyes)"])
    req = [e for e in d["events"] if e["type"] == "request"][0]
    eq(req["model"], "mock-vision")
    code, d = turn(ctx, {"replies": [{"content": "hi"}]}, a, "--images", "1")
    eq(d["hooks"], START + REQ + END, "no vision: no pre_turn")


def test_prompt_backed_command_turn(ctx):
    # R7.5: the rendered prompt starts a normal turn with all its hooks
    a = plugin(ctx, "a", extra={"commands": [
        {"name": "ask", "description": "d", "mode": "agent_turn", "prompt_file": "p.md"}]})
    with open(os.path.join(a, "p.md"), "w") as f:
        f.write("Research {{args}}")
    code, d = turn(ctx, {"replies": [{"content": "hi"}]}, a, "--command", "ask", "--args", "cats")
    eq(code, 0)
    eq(d["hooks"], START + REQ + END)
    eq(d["events"][0], {"type": "info", "message": "/ask cats \u2014 starting agent turn"})
    eq(d["requests"][0]["messages"][1], {"role": "user", "content": "Research cats"})


def test_post_hook_rewrites_output(ctx):
    # R4.9: modify.output replaces the text the model sees; reason -> note
    a = plugin(ctx, "a", {"post_bash": {"allow": True, "reason": "redacted",
                                        "modify": {"output": "[hidden]"}}},
               points=["post_bash"])
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo secret"}}]},
        {"content": "ok"}]}, a)
    eq(results(d), ["[hidden]\n\nPlugin hooks:\n- a/post_bash: [a] redacted"])
    eq(d["requests"][1]["messages"][-1]["content"], "[hidden]\n\nPlugin hooks:\n- a/post_bash: [a] redacted")


def test_pre_input_deny_aborts_turn(ctx):
    # R4.6 pre_input: error event, done, then turn_end and session_stop
    a = plugin(ctx, "a", {"pre_input": {"allow": False, "reason": "nope"}})
    code, d = turn(ctx, {"replies": []}, a)
    eq(code, 1)
    eq(d["hooks"], ["session_start a", "pre_input a deny"] + END)
    errs = [e["message"] for e in d["events"] if e["type"] == "error"]
    eq(errs, ["input denied by plugin 'a' pre_input: nope"])


def test_disable_tools_and_collisions(ctx):
    # R2.19 refusal text; R2.15 collision log; R10.1 injection
    a = plugin(ctx, "a", points=[], extra={
        "disable_tools": ["bash"], "system_prompt": "  be nice \n",
        "tools": [{"name": "read_file", "description": "x", "script": "t.sh"}]})
    with open(os.path.join(a, "t.sh"), "w") as f:
        f.write("#!/bin/sh\necho plugin\n")
    os.chmod(os.path.join(a, "t.sh"), 0o755)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]},
        {"content": "ok"}]}, a)
    eq(results(d), ["tool 'bash' is not available on this agent (not in the current tool list)."])
    logs = [e["line"] for e in d["events"] if e["type"] == "log"]
    eq(logs, ["[plugins] tool 'read_file' collides with a built-in or already-registered tool; skipping"])
    sysmsg = d["requests"][0]["messages"][0]["content"]
    eq(sysmsg.endswith("\n\n## Plugin-injected context\n\n# Plugin: a (v1.0)\nbe nice"), True, sysmsg)
    names = [t["function"]["name"] for t in d["requests"][0]["tools"]]
    eq("bash" in names, False)


def test_unconsumed_script_exits_1(ctx):
    a = plugin(ctx, "a", points=[])
    code, d = turn(ctx, {"replies": [{"content": "a"}, {"content": "b"}]}, a)
    eq(code, 1)
    eq(d["unconsumed"], "1 of 2 scripted replies were not used")

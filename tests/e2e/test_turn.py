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


# ---- lifecycle between turns (R1.13-R1.15, R10.3, §11) ----

LIFE_POINTS = ["session_start", "turn_start", "pre_tool", "post_tool", "turn_end",
               "session_stop", "session_shutdown"]


def toggled(ctx, name="a", extra=None):
    """A plugin with lifecycle and tool hooks, a tool, an override of
    grep, a command, disable_tools and a system_prompt."""
    m = {"system_prompt": "Always answer in French.", "disable_tools": ["glob"],
         "tools": [{"name": "note", "description": "n", "script": "t.sh", "kind": "readonly"},
                   {"name": "grep", "description": "plugin grep", "script": "t.sh",
                    "override": True, "kind": "readonly"}],
         "commands": [{"name": "hi", "description": "d", "script": "t.sh"}]}
    m.update(extra or {})
    d = plugin(ctx, name, points=LIFE_POINTS, extra=m)
    with open(os.path.join(d, "t.sh"), "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\necho '{\"output\":\"from plugin\"}'\n")
    os.chmod(os.path.join(d, "t.sh"), 0o755)
    return d


def tool_names(d, i):
    return [t["function"]["name"] for t in d["requests"][i]["tools"]]


def sys_prompt(d, i):
    return d["requests"][i]["messages"][0]["content"]


def events(d, *types):
    return [e for e in d["events"] if e["type"] in types]


PART = "\n\n## Plugin-injected context\n\n# Plugin: a (v1.0)\nAlways answer in French."
BUILTINS = ["bash", "bulk", "bulk_edit", "bulk_write", "edit", "finish", "glob", "grep", "list_dir",
            "patch", "read_file", "rename", "subagent", "write_file"]
STALE_OFF = ("plugin 'a' is disabled, but the system prompt of this conversation still carries "
             "its system_prompt: the host rebuilds the prompt only for a new conversation, a "
             "plugin reload, a trust decision or a memory change, not when a plugin is disabled (R10.3)")


def test_disable_between_turns(ctx):
    # R1.15: no hooks, tools, override or disable_tools after the disable;
    # R10.3: the system prompt keeps the plugin's text (the trap), noted
    a = toggled(ctx)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "grep", "arguments": {"pattern": "x"}}]}, {"content": "1"},
        {"tool_calls": [{"name": "grep", "arguments": {"pattern": "x"}}]}, {"content": "2"}]},
        a, "--text", "one", "--disable", "a", "--text", "two")
    eq(code, 0)
    eq(d["hooks"], ["session_start a", "turn_start a", "pre_tool a grep", "post_tool a grep",
                    "turn_end a", "session_stop a"], "turn two and shutdown fire nothing")
    eq(tool_names(d, 0), ["bash", "bulk", "bulk_edit", "bulk_write", "edit", "finish", "list_dir",
                          "patch", "read_file", "rename", "subagent", "write_file", "note", "grep"])
    eq(tool_names(d, 2), BUILTINS, "the built-in grep and glob are back, note is gone")
    eq(results(d), ["from plugin", "(no matches)"], "the override, then the built-in grep")
    eq(sys_prompt(d, 0).endswith(PART), True)
    eq(sys_prompt(d, 2), sys_prompt(d, 0), "the disabled plugin's system_prompt stays (R10.3)")
    eq(events(d, "plugin_disabled"), [{"type": "plugin_disabled", "name": "a"}])
    eq(events(d, "stale_system_prompt"),
       [{"type": "stale_system_prompt", "plugin": "a", "enabled": False, "message": STALE_OFF}])
    eq([(f["id"], f["severity"], f["where"], f["message"]) for f in d["findings"]],
       [("PC-LIFE-001", "note", "plugin a", STALE_OFF)])


def test_reload_rebuilds_the_prompt_and_keeps_disabled(ctx):
    # R1.14: disabled by name across the reload; R10.3: reload rebuilds
    a = toggled(ctx)
    b = plugin(ctx, "b", points=["turn_start"])
    code, d = turn(ctx, {"replies": [{"content": "1"}, {"content": "2"}]},
                   a, b, "--text", "one", "--disable", "a", "--reload", "--text", "two")
    eq(code, 0)
    eq(d["hooks"], ["session_start a", "turn_start a", "turn_start b", "turn_end a",
                    "session_stop a", "turn_start b"])
    life = [e["type"] for e in d["events"] if e["type"] in
            ("plugin_disabled", "plugins_list", "plugin_commands", "info", "system_prompt", "turn")]
    eq(life, ["turn", "plugin_disabled", "plugins_list", "plugin_commands", "info",
              "system_prompt", "turn"])
    lst = events(d, "plugins_list")[0]["plugins"]
    eq([(p["name"], p["enabled"], p["has_system_prompt"], p["scope"]) for p in lst],
       [("a", False, True, "global"), ("b", True, False, "global")])
    eq(lst[0]["tools"], ["note", "grep"])
    eq(lst[0]["commands"], ["hi"])
    eq(lst[0]["disable_tools"], ["glob"])
    eq(lst[0]["hooks"], sorted(LIFE_POINTS))
    eq(lst[0]["path"], os.path.realpath(a))
    eq(events(d, "plugin_commands")[0]["commands"], [], "a disabled plugin's commands are gone")
    eq(events(d, "info")[0]["message"], "plugins reloaded: 2 loaded, 0 skipped, 0 errors")
    eq(events(d, "system_prompt"), [{"type": "system_prompt", "rebuilt": True}])
    eq(sys_prompt(d, 1).endswith(PART), False)
    eq(sys_prompt(d, 1), sys_prompt(d, 0)[:-len(PART)])
    eq(events(d, "stale_system_prompt"), [])
    eq(d["findings"], [])


def test_enable_without_reload_lacks_the_prompt(ctx):
    # R10.3 the other way: enabled again, hooks and tools are back at once,
    # the system_prompt only after a reload
    a = toggled(ctx)
    code, d = turn(ctx, {"replies": [{"content": "1"}, {"content": "2"}, {"content": "3"}]},
                   a, "--disable", "a", "--text", "one", "--enable", "a", "--text", "two",
                   "--reload", "--text", "three")
    eq(code, 0)
    eq(d["hooks"], ["session_start a", "turn_start a", "turn_end a", "session_stop a"] * 2 +
       ["session_shutdown a"])
    eq(sys_prompt(d, 0).endswith("Plugin-injected context"), False)
    eq(sys_prompt(d, 1), sys_prompt(d, 0), "enabling does not rebuild")
    eq("note" in tool_names(d, 1), True)
    eq(sys_prompt(d, 2).endswith(PART), True, "the reload adds it")
    stale = events(d, "stale_system_prompt")
    eq([(e["plugin"], e["enabled"]) for e in stale], [("a", True)])
    eq(stale[0]["message"], "plugin 'a' is enabled, but its system_prompt is not in the system "
       "prompt of this conversation: enabling a plugin does not rebuild the prompt; the text "
       "arrives with a new conversation, a plugin reload, a trust decision or a memory change (R10.3)")
    eq([f["id"] for f in d["findings"]], ["PC-LIFE-001"])


def test_commands_follow_the_flag(ctx):
    # R7.2: lookup among enabled plugins; unknown -> the host's error text
    a = toggled(ctx)
    code, d = turn(ctx, {"replies": [{"content": "1"}]}, a, "--command", "/hi",
                   "--disable", "a", "--command", "hi", "--enable", "a", "--text", "t")
    eq(code, 0)
    msgs = [(e["type"], e["message"]) for e in events(d, "info", "error")]
    eq(msgs, [("info", "from plugin"), ("error", "unknown plugin command 'hi'")])


def test_unknown_plugin_name(ctx):
    # R1.13: "plugin '<name>' not found", as plugin_error; exit 1
    a = toggled(ctx)
    code, d = turn(ctx, {"replies": [{"content": "1"}]}, a, "--disable", "nope")
    eq(code, 1)
    eq(events(d, "plugin_error"),
       [{"type": "plugin_error", "name": "nope", "message": "plugin 'nope' not found"}])
    eq(d["completed"], True)


def test_reload_reads_the_plugin_again(ctx):
    # R1.14 full rescan: the model edits the manifest with bash during turn
    # one; the reload takes the new system_prompt; a broken manifest on the
    # next reload is the host's load error and the plugin is gone (R1.11)
    a = toggled(ctx)
    mf = os.path.join(a, "plugin.json")
    with open(mf) as f:
        m = json.load(f)
    m["system_prompt"] = "Answer in German."
    new = os.path.join(ctx.tmp, "new.json")
    with open(new, "w") as f:
        json.dump(m, f)
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": f"cp {new} {mf}"}}]},
        {"content": "1"},
        {"tool_calls": [{"name": "bash", "arguments": {"command": f"echo '{{' > {mf}"}}]},
        {"content": "2"}, {"content": "3"}]},
        a, "--text", "one", "--reload", "--text", "two", "--reload", "--text", "three")
    eq(code, 0)
    eq(sys_prompt(d, 2).endswith("# Plugin: a (v1.0)\nAnswer in German."), True, sys_prompt(d, 2))
    infos = [e["message"] for e in events(d, "info")]
    eq(infos, ["plugins reloaded: 1 loaded, 0 skipped, 0 errors",
               "plugins reloaded: 0 loaded, 0 skipped, 1 errors"])
    logs = [e["line"] for e in events(d, "log")]
    eq(len(logs), 1, logs)
    eq(logs[0].startswith('[plugins] failed to load plugin in "a": '), True, logs[0])
    eq(sys_prompt(d, 4).endswith("Plugin-injected context"), False)
    eq(sys_prompt(d, 4).find("Answer in German"), -1, "the gone plugin's text is removed")
    eq([h for h in d["hooks"] if h.startswith("turn_start")], ["turn_start a", "turn_start a"])


def test_lifecycle_human_report(ctx):
    # the human transcript shows each lifecycle event and ends with the note
    a = toggled(ctx)
    path = os.path.join(ctx.tmp, "s.json")
    with open(path, "w") as f:
        json.dump({"replies": [{"content": "1"}, {"content": "2"}]}, f)
    code, out, err = ctx.run("turn", path, a, "--text", "one", "--disable", "a",
                             "--text", "two", "--reload")
    eq(code, 0, err)
    lines = out.splitlines()
    eq("plugin_disabled a" in lines, True, out)
    eq("  stale_system_prompt " + STALE_OFF in lines, True, out)
    eq("  plugins_list: a (disabled)" in lines, True, out)
    eq("  plugin_commands:" in lines, True, out)
    eq("  info plugins reloaded: 1 loaded, 0 skipped, 0 errors" in lines, True, out)
    eq("  system prompt rebuilt" in lines, True, out)
    eq(lines[-3:], ["note PC-LIFE-001 at plugin a: " + STALE_OFF,
                    "  fix: do not rely on /plugin-disable to withdraw system_prompt text (or on "
                    "/plugin-enable to add it): the host keeps the conversation's system prompt "
                    "until a new conversation, /plugin-reload, a trust decision or a memory change; "
                    "tell users to run /plugin-reload after toggling, or put text that must follow "
                    "the plugin's state in a pre_agent_start hook (see `plugcheck explain "
                    "PC-LIFE-001`)",
                    "turn completed; every scripted reply was used"])


def test_sigint_while_hook_runs(ctx):
    # README "Ctrl-C": the plugin tree is killed, the turn stops and says it
    # was interrupted, exit 70 (fresh-user trial: "turn completed", exit 0).
    import signal
    import subprocess
    import time
    mark = os.path.join(ctx.tmp, "hook-running")
    a = plugin(ctx, "a", points=["pre_bash"])
    with open(os.path.join(a, "hooks", "pre_bash.sh"), "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\ntouch '%s'\nexec sleep 4712\n" % mark)
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    path = os.path.join(ctx.tmp, "script.json")
    with open(path, "w") as f:
        json.dump({"replies": [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]},
            {"content": "done"}]}, f)
    p = subprocess.Popen([ctx.plugcheck, "turn", path, a, "--workspace", ws],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ctx.tmp)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not os.path.exists(mark):
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    eq(p.returncode, 70)
    eq(out.decode().splitlines()[-1],
       "turn interrupted: plugcheck was stopped and killed the plugin; not judged")
    eq(err.decode().splitlines()[-1],
       "plugcheck: interrupted: the plugin tree was killed; the output above is incomplete")
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if f.read() == b"sleep\x004712\x00":
                    left.append(pid)
        except OSError:
            pass
    eq(left, [])


# ---- the host's subagent tool (R2.18, R4.6) ----

def test_subagent_hooks_with_every_point(ctx):
    # The whole order of a turn that delegates: the main loop's gates and
    # pre_tool on `subagent`, then the child - no pre_agent_start or
    # pre_context there, its bash through pre_bash, pre_tool, post_bash,
    # post_tool; finish: post_tool only - then post_tool on `subagent`.
    a = plugin(ctx, "a")
    code, d = turn(ctx, {"replies": [
        {"tool_calls": [{"name": "subagent", "arguments": {"agent": "reviewer", "task": "t"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo child"}}]},
        {"tool_calls": [{"name": "finish", "arguments": {}}]},
        {"content": "parent done"}]}, a)
    eq(code, 0)
    eq(d["hooks"], START + REQ + ["pre_tool a subagent",
                                  "pre_bash a bash", "pre_tool a bash", "post_bash a bash",
                                  "post_tool a bash", "post_tool a finish",
                                  "post_tool a subagent"] + REQ + END)
    sub = [e["type"] for e in d["events"] if e["type"].startswith("subagent_")]
    eq(sub, ["subagent_start", "subagent_message", "subagent_tool_call",
             "subagent_tool_result", "subagent_tool_call", "subagent_tool_result",
             "subagent_done"])
    eq(results(d), ["(step finished with no written summary)"])
    # the child's requests are the model's too, with its own tool list
    eq([t["function"]["name"] for t in d["requests"][1]["tools"]],
       ["read_file", "grep", "glob", "list_dir", "bash", "edit", "write_file", "finish"])


def test_subagent_human_report(ctx):
    a = plugin(ctx, "a", {"pre_bash": {"allow": False, "reason": "not here"}},
               points=["pre_bash"])
    path = os.path.join(ctx.tmp, "script.json")
    with open(path, "w") as f:
        json.dump({"replies": [
            {"tool_calls": [{"name": "subagent", "arguments": {"agent": "scout", "task": "look"}}]},
            {"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]},
            {"content": "nothing"}, {"content": "ok"}]}, f)
    code, out, err = ctx.run("turn", path, a)
    eq(code, 0, err)
    lines = out.splitlines()
    for want in ["  subagent run-1 scout (depth 0): look",
                 "  [run-1] user: look",
                 "  [run-1] call bash",
                 "  [run-1]  hook pre_bash         a            bash       deny: not here",
                 "  [run-1] result bash (failed):",
                 "    tool call 'bash' denied by plugin 'a' hook 'pre_bash': not here",
                 "  subagent run-1 completed: nothing"]:
        eq(want in lines, True, want + "\n" + out)

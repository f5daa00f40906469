"""Issue 17, "name the cause": each fixture plugin tests/fixtures/plugins/cause-*
is a fault a new user meets. `check` (and `lint` where no script has to run)
reports a finding whose id names the cause, with the rule's fix, about the
file the cause is in; and the host's behaviour is exactly what it was
(`fire` and `lint` show the host's verdict byte for byte). The line and
column of each finding are asserted by tests/unit/test_cause.c."""
import json
import os

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "plugins")

_rules = {}


def fixture(name):
    return os.path.join(FIX, name)


def fix_of(ctx, rid):
    if not _rules:
        code, out = ctx.json("rules")
        _rules.update({r["id"]: r for r in out})
    return _rules[rid]["fix"]


def lint(ctx, name):
    return ctx.json("lint", fixture(name))


def check(ctx, name):
    return ctx.json("check", fixture(name), "--repeat", "1")


def fire(ctx, point, name, *args):
    code, out = ctx.json("fire", point, fixture(name), *args)
    return out


def found(ctx, out, rid, file, where=None, count=None):
    """The findings of rule `rid`: each about `file` (and `where`), with
    the rule's fix."""
    fs = [f for f in out["findings"] if f["id"] == rid and (where is None or f["where"] == where)]
    assert fs, f"no {rid} at {where} in {sorted({f['id'] for f in out['findings']})}"
    if count is not None:
        eq(len(fs), count, f"{rid} findings")
    for f in fs:
        eq(f["file"], file, f"{rid} file")
        eq(f["fix"], fix_of(ctx, rid), f"{rid} fix")
        if where is not None:
            eq(f["where"], where, f"{rid} where")
    return fs


# ---- the host accepts it, but it does not mean what the author wrote ----

def test_repeated_keys(ctx):
    code, out = lint(ctx, "cause-dup-keys")
    fs = found(ctx, out, "PC-MAN-010", "plugin.json", count=2)
    eq(fs[0]["message"], 'hooks has "pre_bash" twice (lines 6 and 7): the host keeps only the last, '
       'so the first registration (script "hooks/audit.sh") never runs')
    eq(fs[1]["message"], 'tools[0].parameters.properties has "who" twice (lines 17 and 18): '
       "the host keeps only the last value, and the first is lost")
    eq(code, 0)
    # the host: loads it and runs only the second registration
    out = fire(ctx, "pre_bash", "cause-dup-keys")
    assert out["argv"][-1].endswith("/hooks/guard.sh"), out["argv"]
    eq((out["allow"], out["reason"]), (True, ""))


def test_repeated_struct_field_is_the_hosts_error(ctx):
    # a repeated field of a struct the host decodes is its load error, not
    # a silent loss: PC-LOAD-001 stays the finding (its line is the second
    # key's, tests/unit/test_cause.c)
    d = ctx.plugin("p", '{"name":"p","version":"1","hooks":{},"hooks":{}}')
    code, out = ctx.json("lint", d)
    eq(out["host_error"], "plugin.json parse error: duplicate field `hooks` at line 1 column 44")
    eq([f["id"] for f in out["findings"]], ["PC-LOAD-001"])
    eq(code, 3)


def test_ignored_keys(ctx):
    code, out = lint(ctx, "cause-ignored-keys")
    fs = found(ctx, out, "PC-MAN-011", "plugin.json", count=2)
    eq(fs[0]["message"], 'hooks.pre_bash: the host ignores "timeout" (set to 60000; unknown keys are ignored): '
       'it is not "timeout_ms", so the default 5000 ms of pre_bash applies')
    assert fs[1]["message"].startswith('tools[0] ("count"): the host ignores "paramaters" (set to '), fs[1]
    assert fs[1]["message"].endswith('it is not "parameters", so the model sees '
                                     '{"type":"object","properties":{}}, a tool without parameters'), fs[1]
    eq(out["capabilities"], ["execute_subprocess", "read_workspace", "register_tools"])


def test_ignored_key_next_to_the_real_one_and_meaningful_keys(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0", "hook": {},
                         "hooks": {"pre_bash": {"script": "h.sh", "timeout_ms": 900,
                                                "timeoutMs": 60, "matcher": "Bash"}}},
                   {"h.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"})
    code, out = ctx.json("lint", d)
    msgs = [f["message"] for f in out["findings"] if f["id"] == "PC-MAN-011"]
    eq(msgs, ['the top level: the host ignores "hook" (set to {}; unknown keys are ignored): it is not '
              '"hooks", so the host reads "hooks" ({ "pre_bash": { "script": "h.sh", "timeo...) instead',
              'hooks.pre_bash: the host ignores "timeoutMs" (set to 60; unknown keys are ignored): it is not '
              '"timeout_ms", so the host reads "timeout_ms" (900) instead',
              'hooks.pre_bash: the host ignores "matcher" (set to "Bash"): the host has no matcher, so the '
              'hook runs at every firing of its point; filter inside the script'])


def test_modify_keys_the_tool_lacks_and_an_approved_call(ctx):
    code, out = check(ctx, "cause-modify-keys")
    f = found(ctx, out, "PC-HOOK-020", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    eq(f["message"], "modify sets cwd, which bash has no parameter for (its parameters: command, timeout): "
       "the host adds it to the call's arguments and the tool ignores it, so the change has no effect")
    f = found(ctx, out, "PC-HOOK-022", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    eq(f["message"], 'modify changes "command" of the bash call from "echo hello" to "echo hello --dry-run" '
       "after the user approved it: the host asks for approval of a destructive call before the pre hooks "
       "run, so what runs is not what was approved")
    # the host: allows, and passes the modify on verbatim
    out = fire(ctx, "pre_bash", "cause-modify-keys", "--args", '{"command":"echo hello"}')
    eq((out["allow"], out["modify"]), (True, {"command": "echo hello --dry-run", "cwd": "/tmp"}))


def test_modify_replaces_a_nested_object(ctx):
    code, out = check(ctx, "cause-modify-nested")
    f = found(ctx, out, "PC-HOOK-021", "hooks/pre_tool.sh", "hook pre_tool", 1)[0]
    eq(f["message"], "modify replaces options (drops case_sensitive): the host merges modify one level deep, "
       "so the nested object replaces the call's whole and the members it lacks are lost")
    # a readonly tool is not approved first: no PC-HOOK-022
    assert "PC-HOOK-022" not in {f["id"] for f in out["findings"]}
    case = [c for c in out["cases"] if c["name"] == "before a call of tool search"]
    eq(len(case), 1)
    out = fire(ctx, "pre_tool", "cause-modify-nested", "--tool", "search",
               "--args", '{"options":{"case_sensitive":true,"limit":1},"query":"x"}')
    eq(out["modify"], {"options": {"limit": 5}})


def test_tool_names_providers_refuse(ctx):
    code, out = lint(ctx, "cause-provider-names")
    fs = found(ctx, out, "PC-TOOL-020", "plugin.json", count=3)
    tail = ("; the host sends every tool with every model request, so each request to such a provider "
            "fails while the plugin is enabled")
    eq([f["message"] for f in fs], [
        "tool 'fs.read': OpenAI and Anthropic refuse '.' in a tool name (they take only letters, digits, "
        "'_' and '-'; Gemini takes it)" + tail,
        "tool 'read file': OpenAI, Anthropic and Gemini refuse ' ' in a tool name" + tail,
        "tool 'summarize_the_latest_repository_activity_for_the_weekly_status_mail': it is 67 characters "
        "long and OpenAI, Anthropic and Gemini take at most 64" + tail])
    eq(out["loaded"], True)
    assert "OpenAI's function-calling reference and Anthropic's tool-use reference" in fs[0]["fix"]


def test_schemas_providers_refuse(ctx):
    code, out = lint(ctx, "cause-provider-schema")
    f = found(ctx, out, "PC-TOOL-021", "plugin.json", "tool lookup", 1)[0]
    eq(f["message"], "tool 'lookup' parameters: (root): \"type\" is missing, not \"object\": OpenAI and "
       "Anthropic refuse parameters whose top level is not \"type\": \"object\"; /anyOf: anyOf at the top "
       "level: OpenAI and Anthropic refuse it there (nest it under a property)")
    f = found(ctx, out, "PC-TOOL-022", "plugin.json", "tool tag", 1)[0]
    assert f["message"].startswith("tool 'tag' parameters: /properties/labels/additionalProperties: Gemini "
                                   "does not know \"additionalProperties\""), f
    assert "/properties/weight/exclusiveMinimum" in f["message"], f
    eq(out["loaded"], True)


def test_session_start_reason_is_discarded(ctx):
    code, out = check(ctx, "cause-session-reason")
    f = found(ctx, out, "PC-HOOK-023", "hooks/session_start.sh", "hook session_start", 1)[0]
    eq(f["message"], "'session_start' answered reason \"welcome back: 3 open tasks\": the host discards it "
       "at this point; notify, when given, is shown as an info line")
    eq(code, 0)
    out = fire(ctx, "session_start", "cause-session-reason")
    eq((out["allow"], out["reason"], out["events"]),
       (True, "[cause-session-reason] welcome back: 3 open tasks", []))


# ---- the cause is visible in the bytes ----

def test_bom_before_plugin_json(ctx):
    code, out = lint(ctx, "cause-bom-manifest")
    eq(out["host_error"], "plugin.json parse error: expected value at line 1 column 1")
    f = found(ctx, out, "PC-MAN-012", "plugin.json", count=1)[0]
    eq(f["message"], "plugin.json starts with a UTF-8 byte order mark (bytes EF BB BF): the host's JSON "
       "parser refuses it (\"expected value at line 1 column 1\") and rejects the plugin")
    eq([f["id"] for f in out["findings"]], ["PC-LOAD-001", "PC-MAN-012"])
    eq(code, 3)


def test_bom_before_an_answer(ctx):
    code, out = check(ctx, "cause-bom-answer")
    f = found(ctx, out, "PC-OUT-001", "hooks/pre_bash.py", "hook pre_bash", 1)[0]
    eq(f["message"], "stdout starts with a UTF-8 byte order mark (EF BB BF at byte 0): the host's JSON "
       "parser stops at it (\"expected value at line 1 column 1\"), so the answer is not JSON to it")
    out = fire(ctx, "pre_bash", "cause-bom-answer")
    eq((out["outcome"], out["allow"], out["reason"]),
       ("invalid_json", False, "hook 'pre_bash' returned invalid JSON: expected value at line 1 column 1"))


def test_latin1_answer(ctx):
    code, out = check(ctx, "cause-latin1")
    f = found(ctx, out, "PC-OUT-002", "tools/menu.sh", "tool menu", 1)[0]
    eq(f["message"], "stdout byte 31 (0xe9, in \"day: caf\\xe9\") is not UTF-8; as Latin-1 it is 'é': the "
       "host decodes stdout lossily and shows U+FFFD in its place")
    out = fire(ctx, "tool:menu", "cause-latin1")
    eq((out["ok"], out["output"]), (True, "today: caf\ufffd au lait"))


def test_crlf_shell_script(ctx):
    code, out = lint(ctx, "cause-crlf")
    f = found(ctx, out, "PC-SCRIPT-010", "hooks/pre_bash.sh", "script hooks/pre_bash.sh", 1)[0]
    assert f["message"].startswith("'hooks/pre_bash.sh' has CRLF line endings (from line 1): bash, which "
                                   "the host runs it with, reads the CR"), f
    # the host: bash reads "then\r" as a command name, not the keyword
    out = fire(ctx, "pre_bash", "cause-crlf")
    eq((out["outcome"], out["allow"], out["exit_code"]), ("exit", False, 2))
    assert "syntax error" in out["reason"], out["reason"]


def test_read_without_trailing_newline(ctx):
    code, out = check(ctx, "cause-read-newline")
    f = found(ctx, out, "PC-IO-010", "hooks/pre_bash.sh", "script hooks/pre_bash.sh", 1)[0]
    eq(f["message"], "'hooks/pre_bash.sh' line 3 reads its stdin with `read` under set -e (line 2): the host "
       "writes its JSON without a trailing newline, so read returns 1 and the script exits 1 there")
    assert "PC-IO-010" in {f["id"] for f in lint(ctx, "cause-read-newline")[1]["findings"]}
    out = fire(ctx, "pre_bash", "cause-read-newline", "--args", '{"command":"ls"}')
    eq((out["outcome"], out["reason"]), ("exit", "hook 'pre_bash' exited with exit status: 1: "))
    assert not out["stdin"].endswith("\n")


def test_debug_text_before_the_json(ctx):
    code, out = check(ctx, "cause-debug-text")
    f = found(ctx, out, "PC-OUT-003", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    eq(f["message"], "stdout has 31 bytes of text before the JSON answer (\"loading rules from the cache...\"): "
       "the host parses all of stdout as one JSON value, so the call fails with invalid JSON")
    f = found(ctx, out, "PC-OUT-003", "memory/provider.sh", "memory_provider", 1)[0]
    assert "a progress line redrawn with \\r" in f["message"], f
    fs = [f for f in out["findings"] if f["id"] == "PC-OUT-003" and f["where"].startswith("oauth ")]
    eq(sorted(f["where"] for f in fs), ["oauth clear", "oauth complete", "oauth login", "oauth token"])
    eq({f["file"] for f in fs}, {"oauth/oauth.sh"})
    assert "DIAGNOSTICS" not in f["fix"] and "stderr" in f["fix"]
    # the host, for each kind
    out = fire(ctx, "pre_bash", "cause-debug-text")
    eq(out["reason"], "hook 'pre_bash' returned invalid JSON: expected value at line 1 column 1")
    out = fire(ctx, "memory:list", "cause-debug-text")
    assert out["output"].startswith("memory_provider returned non-JSON stdout: indexing 25%\r"), out
    out = fire(ctx, "oauth:token", "cause-debug-text")
    eq(out["outcome"], "invalid_json")


def test_tool_text_plus_json(ctx):
    code, out = check(ctx, "cause-tool-text")
    f = found(ctx, out, "PC-OUT-004", "tools/lookup.sh", "tool lookup", 1)[0]
    eq(f["message"], "stdout has 22 bytes of text before the JSON answer (\"Searching the index...\"): stdout "
       "is not one JSON value, so the host passes all of it, text included, to the model as the result")
    out = fire(ctx, "tool:lookup", "cause-tool-text")
    eq((out["ok"], out["output"]), (True, 'Searching the index...\n{"ok":true,"output":"3 matches"}'))


def test_text_around_other_json_is_just_text(ctx):
    # a tool whose text merely contains JSON (not its ok/output answer) is
    # fine: the model reads it as text
    d = ctx.plugin("p", {"name": "p", "version": "1.0.0",
                         "tools": [{"name": "show", "kind": "readonly", "script": "t.sh"}]},
                   {"t.sh": "#!/bin/sh\ncat >/dev/null\necho 'Config:'\necho '{\"debug\": true}'\n"})
    code, out = ctx.json("check", d, "--repeat", "1")
    eq([f["id"] for f in out["findings"] if f["id"].startswith("PC-OUT")], [])
    eq(code, 0)


def test_crashes_on_ordinary_inputs(ctx):
    code, out = check(ctx, "cause-input-crash")
    f = found(ctx, out, "PC-HOOK-024", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    assert f["message"].startswith("fails on 2 of 8 ordinary inputs although it answers the realistic one: "
                                   "{\"command\":\"rm -rf build\"}: hook 'pre_bash' exited with exit status: 1: "
                                   "rm is not supported; {\"command\":\"git commit -m \\\"it's done\\\"\"}: "
                                   "hook 'pre_bash' exited with exit status: 2: "), f
    f = found(ctx, out, "PC-TOOL-023", "tools/shout.sh", "tool shout", 1)[0]
    assert f["message"].startswith("crashes on 1 of 6 valid arguments although it answers plain ones: "
                                   "{\"text\":\"it's \\\"quoted\\\"\"}: plugin tool 'shout' handler exited "
                                   "with exit status: 2: "), f
    # every failing input is a case of its own, with the exchange
    names = sorted(c["name"] for c in out["cases"] if c["name"].startswith("ordinary "))
    eq(names, ['ordinary arguments {"text":"it\'s \\"quoted\\""}',
               'ordinary input {"command":"git commit -m \\"it\'s done\\""}',
               'ordinary input {"command":"rm -rf build"}'])
    eq(code, 1)
    out = fire(ctx, "pre_bash", "cause-input-crash", "--args", '{"command":"rm -rf build"}')
    eq(out["reason"], "hook 'pre_bash' exited with exit status: 1: rm is not supported")
    out = fire(ctx, "pre_bash", "cause-input-crash", "--args", '{"command":"ls"}')
    eq(out["allow"], True)


def test_well_behaved_plugins_get_none_of_these(ctx):
    new = {"PC-MAN-010", "PC-MAN-011", "PC-MAN-012", "PC-TOOL-020", "PC-TOOL-021", "PC-TOOL-022",
           "PC-TOOL-023", "PC-SCRIPT-010", "PC-IO-010", "PC-OUT-001", "PC-OUT-002", "PC-OUT-003",
           "PC-OUT-004", "PC-HOOK-020", "PC-HOOK-021", "PC-HOOK-022", "PC-HOOK-023", "PC-HOOK-024",
           "PC-HOOK-025"}
    for name in ("good-sh", "good-py"):
        code, out = check(ctx, name)
        eq(sorted(new & {f["id"] for f in out["findings"]}), [], name)
        eq(code, 0, name)


# ---- where it runs ----

def test_reads_a_file_relative_to_the_working_directory(ctx):
    code, out = check(ctx, "cause-cwd")
    f = found(ctx, out, "PC-ENV-003", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    eq(f["message"], "reads 'rules.json' (hooks/pre_bash.sh line 5) relative to its working directory: with the "
       "plugin directory as its working directory it passes, in the workspace it fails: cause-cwd: no "
       "rules.json; with only that file in its working directory it answers as in the plugin directory. The "
       "host never sets the working directory (R5.4): resolve it from the script's own path")
    # the host: the script inherits whatever directory the core runs in
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    out = fire(ctx, "pre_bash", "cause-cwd", "--workspace", ws)
    eq((out["allow"], out["reason"]), (False, "cause-cwd: no rules.json"))
    out = fire(ctx, "pre_bash", "cause-cwd", "--workspace", fixture("cause-cwd"))
    eq(out["allow"], True)


def test_fails_without_a_file_relative_to_the_working_directory(ctx):
    # the trial user's case: the script does not answer differently in the
    # workspace, it crashes there (set -e, a Python traceback) - PC-ENV-003
    # beside the failure, once per script, for hooks, memory and OAuth
    code, out = check(ctx, "cause-cwd-crash")
    tail = ("; with only that file in its working directory it answers as in the plugin directory. The "
            "host never sets the working directory (R5.4): resolve it from the script's own path")
    f = found(ctx, out, "PC-ENV-003", "hooks/pre_bash.sh", "hook pre_bash", 1)[0]
    eq(f["message"], "reads 'rules.json' (hooks/pre_bash.sh line 6) relative to its working directory: with the "
       "plugin directory as its working directory it passes, in the workspace it fails: hook 'pre_bash' "
       "exited with exit status: 1: cat: rules.json: No such file or directory" + tail)
    f = found(ctx, out, "PC-ENV-003", "memory/provider.py", "memory_provider", 1)[0]
    assert f["message"].startswith("reads 'settings.json' (memory/provider.py line 6) relative to its working "
                                   "directory: with the plugin directory as its working directory it passes, "
                                   "in the workspace it fails: memory_provider 'cause-cwd-crash' exited with "
                                   "exit status: 1: Traceback"), f["message"]
    assert f["message"].endswith("No such file or directory: 'settings.json'" + tail), f["message"]
    # one script serves every OAuth action: one finding, at the first
    fs = [f for f in out["findings"] if f["id"] == "PC-ENV-003" and f["where"].startswith("oauth")]
    eq([(f["where"], f["file"]) for f in fs], [("oauth token", "oauth/oauth.sh")])
    assert fs[0]["message"].startswith("reads 'oauth.conf' (oauth/oauth.sh line 6) relative to its working "
                                       "directory: "), fs[0]["message"]
    # the failures themselves are still reported as before
    eq(sorted({(f["id"], f["where"]) for f in out["findings"] if f["id"] in ("PC-HOOK-010", "PC-MEM-001")}),
       [("PC-HOOK-010", "hook pre_bash"), ("PC-MEM-001", "memory_provider")])
    # the host: it fails where the core's directory lacks the file, and
    # answers where it has it
    ws = os.path.join(ctx.tmp, "ws-crash")
    os.makedirs(ws)
    out = fire(ctx, "pre_bash", "cause-cwd-crash", "--workspace", ws)
    eq((out["allow"], out["reason"]),
       (False, "hook 'pre_bash' exited with exit status: 1: cat: rules.json: No such file or directory"))
    out = fire(ctx, "pre_bash", "cause-cwd-crash", "--workspace", fixture("cause-cwd-crash"))
    eq(out["allow"], True)
    out = fire(ctx, "memory:list", "cause-cwd-crash", "--workspace", ws)
    eq((out["ok"], out["outcome"]), (False, "exit"))
    out = fire(ctx, "memory:list", "cause-cwd-crash", "--workspace", fixture("cause-cwd-crash"))
    eq((out["ok"], out["entries"]), (True, []))

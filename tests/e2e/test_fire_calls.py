"""plugcheck fire on tools, commands, memory providers and OAuth actions
(spec §6-§9; §13 execute_plugin_tool_*, render_command_template_*,
execute_memory_provider_inject, oauth_*)."""
import json
import os

from e2e import eq

TS = "1700000000"
WS = "/work/space"
SESSION = "/home/u/.catalyst-code/sessions/17.jsonl"


def fire(ctx, point, d, *extra, env=None):
    return ctx.json("fire", point, d, "--timestamp", TS, "--workspace", WS,
                    "--session", SESSION, *extra, env=env)


def tool_plugin(ctx, body, name="p", timeout=None, lang="sh"):
    rel = "tools/t.py" if lang == "py" else "tools/t.sh"
    t = {"name": "t", "script": rel}
    if timeout is not None:
        t["timeout_ms"] = timeout
    return ctx.plugin(name, {"name": name, "version": "1", "tools": [t]}, {rel: body})


def sh_out(text, code=0):
    return "#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n%s\nEOF\nexit %d\n" % (text, code)


def test_tool_json_output(ctx):
    # §13 execute_plugin_tool_json_output
    d = tool_plugin(ctx, sh_out('{"ok":true,"output":"hi there"}'))
    code, out = fire(ctx, "tool:t", d, "--args", '{"q":1}')
    eq((out["outcome"], out["ok"], out["output"]), ("ok", True, "hi there"))
    eq(out["stdin"], '{"args":{"q":1},"session_id":"%s","timestamp":%s,"workspace":"%s"}' % (SESSION, TS, WS))
    eq(code, 0)


def test_tool_raw_output(ctx):
    # §13 execute_plugin_tool_raw_output; R6.2.6
    d = tool_plugin(ctx, sh_out("  hello  "))
    code, out = fire(ctx, "tool:t", d)
    eq((out["ok"], out["output"]), (True, "hello"))


def test_tool_error_output_and_field(ctx):
    # §13 execute_plugin_tool_error_output / _error_field
    d = tool_plugin(ctx, sh_out('{"ok":false,"output":"boom"}'))
    code, out = fire(ctx, "tool:t", d)
    eq((out["ok"], out["output"]), (False, "boom"))
    eq(code, 1)
    d = tool_plugin(ctx, sh_out('{"error":"bad input","ok":true}'), name="q")
    code, out = fire(ctx, "tool:t", d)
    eq((out["ok"], out["output"]), (False, "plugin tool 't': bad input"))


def test_tool_output_key_rules(ctx):
    # R6.2.5: output, else result; a non-string chosen value gives raw stdout
    cases = [('{"result":"r"}', "r"), ('{"output":5,"result":"r"}', '{"output":5,"result":"r"}'),
             ('{"ok":"no"}', '{"ok":"no"}'), ('[1,2]', "[1,2]")]
    for i, (body, text) in enumerate(cases):
        d = tool_plugin(ctx, sh_out(body), name="p%d" % i)
        code, out = fire(ctx, "tool:t", d)
        eq((out["ok"], out["output"]), (True, text), body)


def test_tool_nonzero_exit_and_timeout(ctx):
    # §13 execute_plugin_tool_nonzero_exit / _timeout
    d = tool_plugin(ctx, "#!/bin/sh\necho oops >&2\nexit 3\n")
    code, out = fire(ctx, "tool:t", d)
    eq(out["output"], "plugin tool 't' handler exited with exit status: 3: oops")
    d = tool_plugin(ctx, "#!/bin/sh\nsleep 10\n", name="q", timeout=300)
    code, out = fire(ctx, "tool:t", d)
    eq(out["output"], "plugin tool 't' handler timed out after 300ms")
    eq(out["outcome"], "timeout")


def test_tool_empty_stdout(ctx):
    d = tool_plugin(ctx, "#!/bin/sh\ncat >/dev/null\n")
    code, out = fire(ctx, "tool:t", d)
    eq(out["output"], "plugin tool 't' handler returned empty stdout")


def test_tool_output_limit(ctx):
    # §13 execute_plugin_tool_stops_reading_at_output_limit
    d = tool_plugin(ctx, "#!/bin/sh\nhead -c 1048577 /dev/zero | tr '\\0' a\n")
    code, out = fire(ctx, "tool:t", d)
    eq(out["output"], "plugin tool 't' handler wait error: plugin stdout exceeds the 1048576 byte limit")


def test_tool_notify_side_effects_even_with_error(ctx):
    d = tool_plugin(ctx, sh_out('{"error":"x","notify":"n","status":"s"}'))
    code, out = fire(ctx, "tool:t", d)
    eq(out["events"], [{"message": "[p] n", "type": "info"}, {"plugin": "p", "text": "s", "type": "plugin_status"}])


def test_python_tool(ctx):
    d = tool_plugin(ctx, "import json,sys\nc=json.load(sys.stdin)\nprint(json.dumps({'output':str(len(c['args']['s']))}))\n",
                    lang="py")
    code, out = fire(ctx, "tool:t", d, "--args", '{"s":"abcd"}')
    eq(out["output"], "4")


def test_unknown_tool_is_usage_error(ctx):
    d = tool_plugin(ctx, sh_out("x"))
    code, stdout, stderr = ctx.run("fire", "tool:nope", d)
    eq(code, 2)
    eq(stderr, "plugcheck fire: plugin 'p' has no tool 'nope'\n"
               "Run `plugcheck fire --help` for usage.\n")


def test_script_command(ctx):
    # R7.3 stdin: session_id is only the file name
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [{"name": "/hello", "script": "c.sh"}]},
                   {"c.sh": "#!/bin/sh\ncat >&2\necho '{\"output\":\"hi\"}'\n"})
    code, out = fire(ctx, "command:hello", d, "--args", "a b")
    eq(out["stdin"], '{"args":"a b","command":"hello","plugin":"p","session_id":"17.jsonl","timestamp":%s,"workspace":"%s"}'
       % (TS, WS))
    eq((out["ok"], out["output"]), (True, "hi"))


def test_command_messages(ctx):
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [{"name": "c", "script": "c.sh"}]},
                   {"c.sh": "#!/bin/sh\nexit 4\n"})
    code, out = fire(ctx, "command:c", d)
    eq(out["output"], "plugin command 'c' handler exited with exit status: 4: ")


def test_prompt_command_rendering(ctx):
    # R7.6: sequential replacement, one-space variants only
    tmpl = "A={{ args }} B={{args}} W={{workspace}} S={{ session_id }} T={{timestamp}} P={{plugin}} C={{command}} X={{  args }} U={{unknown}}"
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [{"name": "r", "prompt_file": "r.md"}]},
                   {"r.md": tmpl})
    code, out = fire(ctx, "command:r", d, "--args", "{{command}}")
    eq(out["mode"], "agent_turn")
    eq(out["prompt"], "A=r B=r W=%s S=17.jsonl T=%s P=p C=r X={{  args }} U={{unknown}}" % (WS, TS))


def test_prompt_command_empty(ctx):
    # §13 render_prompt_command_empty_args_substitutes_empty; R7.5
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [
        {"name": "r", "prompt_file": "r.md"}, {"name": "e", "prompt_file": "e.md"}]},
        {"r.md": "Request: [{{args}}]", "e.md": " {{args}} \n"})
    code, out = fire(ctx, "command:r", d)
    eq(out["prompt"], "Request: []")
    code, out = fire(ctx, "command:e", d)
    eq((out["ok"], out["error"]), (False, "/e requires a request. Usage: /e <research request>"))


def test_prompt_render_cap(ctx):
    # R7.5: rendered size 262144 ok, 262145 refused
    d = ctx.plugin("p", {"name": "p", "version": "1", "commands": [{"name": "r", "prompt_file": "r.md"}]},
                   {"r.md": "{{args}}"})
    for n, ok in ((262143, True), (262144, True), (262145, False)):
        path = os.path.join(ctx.tmp, "a%d" % n)
        with open(path, "w") as f:
            f.write("y" * n)
        code, out = fire(ctx, "command:r", d, "--args-file", path)
        eq(out["ok"], ok, "n=%d" % n)
        if not ok:
            eq(out["error"], "rendered prompt for command 'r' exceeds the 262144 byte limit")


def mem_plugin(ctx, body, name="m"):
    return ctx.plugin(name, {"name": name, "version": "1", "memory_provider": {"script": "mem.sh"}}, {"mem.sh": body})


def test_memory_inject(ctx):
    # §13 execute_memory_provider_inject; R9.2 stdin shape
    d = mem_plugin(ctx, "#!/bin/sh\ncat >&2\necho '{\"injection\":\"remember X\"}'\n")
    code, out = fire(ctx, "memory:inject", d)
    eq(out["stdin"], '{"action":"inject","args":{},"session_id":"","timestamp":%s,"workspace":"%s"}' % (TS, WS))
    eq((out["ok"], out["injection"]), (True, "remember X"))


def test_memory_model_action_gets_session_path(ctx):
    d = mem_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":false}'\n")
    code, out = fire(ctx, "memory:get", d, "--args", '{"action":"get","id":"1"}')
    eq(json.loads(out["stdin"])["session_id"], SESSION)
    eq((out["ok"], out["output"]), (False, "memory_provider failed (action response had ok=false)"))


def test_memory_non_json(ctx):
    # R9.5: bare text is not accepted; first 200 chars quoted
    d = mem_plugin(ctx, "#!/bin/sh\ncat >/dev/null\nprintf '%0300d' 0\n")
    code, out = fire(ctx, "memory:list", d)
    eq(out["output"], "memory_provider returned non-JSON stdout: " + "0" * 200)
    d = mem_plugin(ctx, "#!/bin/sh\nexit 2\n", name="n")
    code, out = fire(ctx, "memory:save", d, "--args", '{"content":"x"}')
    eq(out["output"], "memory_provider 'n' exited with exit status: 2: ")


def oauth_plugin(ctx, body, **extra):
    o = {"provider_id": "acme", "base_url": "https://api.acme.test/v1", "script": "o.sh"}
    o.update(extra)
    return ctx.plugin("o", {"name": "o", "version": "1", "oauth": o}, {"o.sh": body})


def test_oauth_token(ctx):
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >&2\necho '{\"access_token\":\"tok\",\"expires_at\":99}'\n")
    code, out = fire(ctx, "oauth:token", d, env={"HOME": "/h"})
    eq(out["stdin"], '{"action":"token","provider_id":"acme","timestamp":%s,"token_path":"/h/.config/catalyst-code/oauth/acme.json","workspace":"%s"}'
       % (TS, WS))
    eq(out["ok"], True)


def test_oauth_token_missing_access_token(ctx):
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"access_token\":null}'\n")
    code, out = fire(ctx, "oauth:token", d)
    eq(out["ok"], False)
    eq(out["host_log"], ["[plugins] oauth token script for 'acme' returned no access_token (re-login may be required)"])


def test_oauth_login_headless_flows(ctx):
    # R8.5; headless forced by CATALYST_CODE_NO_BROWSER
    env = {"CATALYST_CODE_NO_BROWSER": "1"}
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"flow\":\"poll\",\"url\":\"https://x\",\"pending\":{\"d\":1}}'\n")
    code, out = fire(ctx, "oauth:login", d, env=env)
    eq(json.loads(out["stdin"])["headless"], True)
    assert "redirect_uri" not in json.loads(out["stdin"])
    eq((out["ok"], out["flow"]), (True, "auto"))
    eq(out["events"], [{"code": None, "message": "Open the URL, approve, then paste the code via /oauth-code.",
                        "type": "oauth_prompt", "url": "https://x"}])


def test_oauth_login_errors(ctx):
    env = {"CATALYST_CODE_NO_BROWSER": "1"}
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":false,\"error\":\"denied\"}'\n")
    code, out = fire(ctx, "oauth:login", d, env=env)
    eq(out["message"], "OAuth login failed: OAuth login failed: denied")
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"flow\":\"manual\"}'\n")
    code, out = fire(ctx, "oauth:login", d, env=env)
    eq(out["message"], "OAuth login failed: login script did not return a url")
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":true,\"flow\":\" Already_Authenticated \"}'\n")
    code, out = fire(ctx, "oauth:login", d, env=env)
    eq((out["ok"], out["flow"]), (True, "existing"))


def test_oauth_login_web_has_redirect(ctx):
    env = {"CATALYST_CODE_NO_BROWSER": "0"}
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"url\":\"https://x\",\"state\":\"s\"}'\n")
    code, out = fire(ctx, "oauth:login", d, env=env)
    sent = json.loads(out["stdin"])
    eq(sent["headless"], False)
    assert sent["redirect_uri"].startswith("http://localhost:") and sent["redirect_uri"].endswith("/callback")
    eq(out["flow"], "web")


def test_oauth_complete(ctx):
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":\"yes\"}'\n")
    code, out = fire(ctx, "oauth:complete", d, "--args", '{"code":"c","pending":null}')
    sent = json.loads(out["stdin"])
    eq((sent["code"], sent["pending"]), ("c", None))
    eq(out["message"], "OAuth complete failed: unknown error")


def test_oauth_env_passthrough(ctx):
    d = oauth_plugin(ctx, "#!/bin/sh\ncat >/dev/null\nprintf '{\"access_token\":\"%s\"}' \"$ACME_HOST\"\n",
                     env_passthrough=["ACME_HOST"])
    code, out = fire(ctx, "oauth:token", d, env={"ACME_HOST": "h1"})
    eq(json.loads(out["stdout"])["access_token"], "h1")


def test_oauth_clear_needs_shared_script(ctx):
    d = ctx.plugin("o", {"name": "o", "version": "1", "oauth": {
        "provider_id": "acme", "base_url": "https://x", "token_script": "o.sh"}}, {"o.sh": "#!/bin/sh\n"})
    code, stdout, stderr = ctx.run("fire", "oauth:clear", d)
    eq(code, 2)
    eq(stderr, "plugcheck fire: 'acme' has no clear script\n"
               "Run `plugcheck fire --help` for usage.\n")


def test_spawn_error_texts_differ_for_oauth(ctx):
    # R5.2: .sh runs through $CATALYST_CODE_SHELL; a missing shell is a spawn
    # error. Hooks wrap it in "wait error"; OAuth scripts report it bare (R8.3).
    env = {"CATALYST_CODE_SHELL": "/nonexistent/sh"}
    d = oauth_plugin(ctx, "#!/bin/sh\necho '{}'\n")
    code, out = fire(ctx, "oauth:token", d, env=env)
    real = os.path.realpath(os.path.join(d, "o.sh"))
    eq(out["message"], "[plugins] oauth token script for 'acme' failed: failed to spawn oauth script \"%s\": "
       "No such file or directory (os error 2)" % real)
    eq(out["argv"], ["/nonexistent/sh", real])
    h = ctx.plugin("h", {"name": "h", "version": "1", "hooks": {"pre_bash": {"script": "h.sh"}}},
                   {"h.sh": "#!/bin/sh\necho '{}'\n"})
    code, out = fire(ctx, "pre_bash", h, env=env)
    eq(out["reason"], "hook 'pre_bash' wait error: failed to spawn script \"%s\": No such file or directory (os error 2)"
       % os.path.realpath(os.path.join(h, "h.sh")))

"""The host's whole OAuth /login and /oauth-code through `plugcheck fire
oauth:login --flow` and `fire oauth:code`, against plugcheck's mock
authorization server (issue 4; spec R8.5, R8.6, R8.8, R8.10): the web flow
with the loopback redirect and its state check, the manual flow with a
wrong then a right code, device/poll auto-complete, already_authenticated,
then token -> a real chat request with the Bearer token -> clear.
All traffic goes to 127.0.0.1; every server runs with --timeout, every curl
with --max-time, every process wait is bounded."""
import json
import os
import re
import select
import signal
import subprocess

from e2e import eq

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "plugins")
PLUGIN = os.path.join(FIX, "oauth-flows")
CHAT = '{"model":"x","messages":[{"role":"user","content":"hi"}]}'
RESTORED = " (pending login restored — try /oauth-code again with the correct code)"


class Server:
    def __init__(self, ctx, *opts):
        path = os.path.join(ctx.tmp, "script.json")
        with open(path, "w") as f:
            json.dump({"replies": [{"content": "authorized"}]}, f)
        self.record = os.path.join(ctx.tmp, "record.json")
        self.p = subprocess.Popen([ctx.plugcheck, "mock-model", "serve", "--port", "0",
                                   "--record", self.record, "--timeout", "120",
                                   "--require-auth", *opts, path],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.p.stdout.readline().decode()
        if not line.startswith("listening on http://127.0.0.1:"):
            self.p.kill()
            raise AssertionError("no listening line: %r %r" % (line, self.p.stderr.read()))
        self.url = line.split()[-1]

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        _, err = self.p.communicate(timeout=30)
        return self.p.returncode, err.decode()

    def requests(self):
        with open(self.record) as f:
            return json.load(f)


def curl(url, *args):
    p = subprocess.run(["curl", "-sS", "--noproxy", "*", "--max-time", "10",
                        "-w", "\n%{http_code}", *args, url],
                       capture_output=True, timeout=30)
    body, _, code = p.stdout.decode().rpartition("\n")
    return int(code), body


def env_for(ctx, s, flow, headless):
    return {"HOME": ctx.tmp, "MOCK_OAUTH_BASE_URL": s.url, "MOCK_OAUTH_FLOW": flow,
            "CATALYST_CODE_NO_BROWSER": "1" if headless else "0"}


def start_flow(ctx, env, *extra):
    e = dict(os.environ)
    e.update(env)
    return subprocess.Popen([ctx.plugcheck, "fire", "oauth:login", PLUGIN, "--flow",
                             "--format", "json", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, cwd=ctx.tmp)


def read_prompt(p, timeout=30):
    """The oauth_prompt line plugcheck prints on stderr before it waits."""
    r, _, _ = select.select([p.stderr], [], [], timeout)
    if not r:
        p.kill()
        raise AssertionError("no oauth_prompt line within %ds" % timeout)
    line = p.stderr.readline().decode()
    ev = json.loads(line)
    eq(ev["type"], "oauth_prompt", line)
    return ev


def finish(p, timeout=60):
    out, err = p.communicate(timeout=timeout)
    return p.returncode, json.loads(out.decode()), err.decode()


def token_chat_clear(ctx, s, env, expect_token):
    """token -> a chat request with what the host sends (R8.8) -> clear."""
    code, out = ctx.json("fire", "oauth:token", PLUGIN, env=env)
    eq(code, 0, out)
    tok = json.loads(out["stdout"])["access_token"]
    eq(tok, expect_token)
    code, body = curl(s.url + "/v1/chat/completions",
                      "-H", "Authorization: Bearer " + tok,
                      "-H", "X-Static: static-1", "-H", "x-org: plugin-org",
                      "-H", "X-Mock-Plugin: oauth-flows", "-d", CHAT)
    eq(code, 200, body)
    eq(json.loads(body)["choices"][0]["message"]["content"], "authorized")
    code, out = ctx.json("fire", "oauth:clear", PLUGIN, env=env)
    eq(code, 0, out)
    eq(os.path.exists(os.path.join(ctx.tmp, ".config/catalyst-code/oauth/mockflows.json")), False)
    eq(curl(s.url + "/v1/chat/completions", "-d", CHAT)[0], 401)


def assert_chat_headers(s, token):
    chats = [r for r in s.requests() if r["path"] == "/v1/chat/completions"]
    h = chats[0]["headers"]
    eq((h["authorization"], h["x-org"], h["x-static"], h["x-mock-plugin"]),
       ("Bearer " + token, "plugin-org", "static-1", "oauth-flows"))
    eq(chats[0]["status"], 200)


def test_web_flow_wrong_state_ignored_then_redirect(ctx):
    s = Server(ctx)
    env = env_for(ctx, s, "web", headless=False)
    try:
        p = start_flow(ctx, env, "--wait-ms", "30000")
        ev = read_prompt(p)
        url = ev["url"]
        eq((ev["code"], ev["message"]), (None, "Open the URL to log in."))
        state = re.search(r"[?&]state=([0-9a-f]+)", url).group(1)
        # A redirect with a WRONG state: answered with the host's page, ignored.
        code, body = curl(url.replace("state=" + state, "state=wrong"), "-L")
        eq(code, 200, body)
        assert "<h2>Login complete</h2>" in body, body
        # The real redirect.
        code, body = curl(url, "-L")
        eq(code, 200, body)
        rc, out, err = finish(p)
        eq((rc, out["state"], out["flow"], out["message"]), (0, "done", "web", ""), out)
        port = re.search(r"localhost:(\d+)/", out["redirect_uri"]).group(1)
        eq(out["redirect_uri"], "http://localhost:%s/callback" % port)
        eq([(r["verdict"], r["request_line"]) for r in out["redirects"]],
           [("ignored", "GET /callback?code=mock-auth-code&state=wrong HTTP/1.1"),
            ("code", "GET /callback?code=mock-auth-code&state=%s HTTP/1.1" % state)])
        eq([e["type"] for e in out["events"]], ["info", "oauth_prompt"])
        eq(out["events"][0]["message"], "starting OAuth login for Mock flows…")
        eq([st["action"] for st in out["steps"]], ["login", "complete"])
        login_in = json.loads(out["steps"][0]["stdin"])
        eq((login_in["headless"], login_in["redirect_uri"]), (False, out["redirect_uri"]))
        complete_in = json.loads(out["steps"][1]["stdin"])
        eq((complete_in["code"], complete_in["redirect_uri"], complete_in["pending"]),
           ("mock-auth-code", out["redirect_uri"],
            {"verifier": "v-" + state, "redirect_uri": out["redirect_uri"]}))
        # Logged in: a second /login is already_authenticated, no prompt.
        code, out = ctx.json("fire", "oauth:login", PLUGIN, "--flow", env=env)
        eq((code, out["state"], out["flow"]), (0, "done", "existing"), out)
        eq([e["type"] for e in out["events"]], ["info"])
        token_chat_clear(ctx, s, env, "mock-access-1")
    finally:
        rc, err = s.stop()
    eq(rc, 0, err)
    assert_chat_headers(s, "mock-access-1")
    eq([r["path"] for r in s.requests()][:3],
       ["/oauth/authorize", "/oauth/authorize", "/oauth/token"])


def test_web_flow_times_out_and_no_code(ctx):
    s = Server(ctx)
    env = env_for(ctx, s, "web", headless=False)
    try:
        p = start_flow(ctx, env, "--wait-ms", "300")
        read_prompt(p)
        rc, out, _ = finish(p)
        eq((rc, out["state"], out["message"]),
           (1, "failed", "OAuth login failed: timed out waiting for the browser redirect"))
        eq(out["events"][-1], {"type": "error", "message": out["message"]})
        # The matching state without a code ends the wait with an error.
        p = start_flow(ctx, env, "--wait-ms", "30000")
        ev = read_prompt(p)
        state = re.search(r"[?&]state=([0-9a-f]+)", ev["url"]).group(1)
        port = re.search(r"localhost%3A(\d+)", ev["url"]).group(1)
        code, body = curl("http://127.0.0.1:%s/callback?state=%s" % (port, state))
        eq(code, 200, body)
        rc, out, _ = finish(p)
        eq((rc, out["message"]), (1, "OAuth login failed: no code in redirect"))
        eq([st["action"] for st in out["steps"]], ["login"])
    finally:
        s.stop()


def test_manual_flow_wrong_code_then_right_code(ctx):
    s = Server(ctx)
    env = env_for(ctx, s, "manual", headless=False)
    sf = os.path.join(ctx.tmp, "pending.json")
    try:
        p = start_flow(ctx, env, "--state-file", sf)
        ev = read_prompt(p)
        rc, out, _ = finish(p)
        eq((rc, out["state"], out["flow"]), (0, "awaiting_code", "manual"), out)
        eq(out["events"][-1]["message"],
           "OAuth login awaiting a code. Open the URL above on any device, approve, then paste the code via /oauth-code <code>.")
        state = re.search(r"[?&]state=([0-9a-f]+)", ev["url"]).group(1)
        want = {"provider_id": "mockflows", "state": state, "pending": {"verifier": "v-" + state}}
        eq(out["pending_state"], want)
        with open(sf) as f:
            eq(json.load(f), want)
        # A wrong code: the exact host error, and the pending login restored.
        code, out = ctx.json("fire", "oauth:code", PLUGIN, "--args", '{"code":"nope"}',
                             "--state-file", sf, env=env)
        eq((code, out["state"]), (1, "failed"), out)
        eq(out["message"], "OAuth code exchange failed: OAuth complete failed: invalid_grant: unknown code" + RESTORED)
        eq(out["pending_state"], want)
        complete_in = json.loads(out["steps"][0]["stdin"])
        eq((complete_in["code"], complete_in["pending"], "redirect_uri" in complete_in),
           ("nope", want["pending"], False))
        with open(sf) as f:
            eq(json.load(f), want)
        # The right code.
        code, out = ctx.json("fire", "oauth:code", PLUGIN, "--args", '{"code":"mock-auth-code"}',
                             "--state-file", sf, env=env)
        eq((code, out["state"], out["message"]), (0, "done", ""), out)
        eq(os.path.exists(sf), False)
        # Nothing pending any more.
        code, out = ctx.json("fire", "oauth:code", PLUGIN, "--args", '{"code":"x"}',
                             "--state-file", sf, env=env)
        eq((code, out["message"]), (1, "No pending OAuth login. Run /login first — the no-browser flow prints a URL; paste its code here with /oauth-code <code>."))
        token_chat_clear(ctx, s, env, "mock-access-1")
    finally:
        rc, err = s.stop()
    eq(rc, 0, err)
    assert_chat_headers(s, "mock-access-1")


def test_headless_manual_with_pending_json(ctx):
    s = Server(ctx)
    env = env_for(ctx, s, "web", headless=True)
    try:
        code, out = ctx.json("fire", "oauth:login", PLUGIN, "--flow", env=env)
        eq((code, out["state"], out["flow"], out["redirect_uri"]),
           (0, "awaiting_code", "headless", None), out)
        eq(out["events"][1]["message"], "Open the URL, approve, then paste the code via /oauth-code.")
        eq(out["pending_state"]["state"], "")
        login_in = json.loads(out["steps"][0]["stdin"])
        eq((login_in["headless"], "redirect_uri" in login_in), (True, False))
        code, out = ctx.json("fire", "oauth:code", PLUGIN, "--args", '{"code":"mock-auth-code"}',
                             "--pending", json.dumps(out["pending_state"]["pending"]), env=env)
        eq((code, out["state"]), (0, "done"), out)
    finally:
        s.stop()


def test_device_poll_auto_completes(ctx):
    s = Server(ctx, "--device-pending", "2")
    env = env_for(ctx, s, "poll", headless=True)
    try:
        p = start_flow(ctx, env)
        ev = read_prompt(p)
        eq((ev["code"], ev["message"]), ("MOCK-0001", "Approve the mock login."))
        rc, out, _ = finish(p)
        eq((rc, out["state"], out["flow"], out["pending_state"]), (0, "done", "auto", None), out)
        eq([st["action"] for st in out["steps"]], ["login", "complete"])
        complete_in = json.loads(out["steps"][1]["stdin"])
        eq((complete_in["code"], complete_in["pending"], "redirect_uri" in complete_in),
           ("", {"device_code": "mock-device-1", "interval": 0}, False))
        token_chat_clear(ctx, s, env, "mock-access-1")
    finally:
        rc, err = s.stop()
    eq(rc, 0, err)
    eq([r["path"] for r in s.requests()][:4],
       ["/oauth/device", "/oauth/token", "/oauth/token", "/oauth/token"])
    assert_chat_headers(s, "mock-access-1")


def test_login_script_failure_is_wrapped_twice(ctx):
    env = {"HOME": ctx.tmp, "MOCK_OAUTH_BASE_URL": "", "CATALYST_CODE_NO_BROWSER": "1"}
    code, out = ctx.json("fire", "oauth:login", PLUGIN, "--flow", env=env)
    eq((code, out["state"], out["message"]),
       (1, "failed", "OAuth login failed: OAuth login failed: MOCK_OAUTH_BASE_URL is not set"))


def test_flow_usage_errors(ctx):
    eq(ctx.run("fire", "oauth:code", PLUGIN)[0], 2)
    eq(ctx.run("fire", "oauth:login", PLUGIN, "--flow", "--wait-ms", "0")[0], 2)
    eq(ctx.run("fire", "oauth:login", PLUGIN, "--flow", "--wait-ms", "300001")[0], 2)

"""plugcheck mock-model serve through the curl CLI, and an OAuth round trip
through `plugcheck fire oauth:*` against its mock authorization server
(issue 4; spec §8). All traffic goes to 127.0.0.1; every server runs with
--timeout and every curl with --max-time, so nothing can hang."""
import json
import os
import signal
import subprocess

from e2e import eq

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "plugins")


class Server:
    def __init__(self, ctx, script, *opts):
        path = os.path.join(ctx.tmp, "script.json")
        with open(path, "w") as f:
            json.dump(script, f)
        self.record = os.path.join(ctx.tmp, "record.json")
        self.p = subprocess.Popen([ctx.plugcheck, "mock-model", "serve", "--port", "0",
                                   "--record", self.record, "--timeout", "60", *opts, path],
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


CHAT = '{"model":"x","messages":[{"role":"user","content":"hi"}]}'


def test_serve_json_stream_models_and_faults(ctx):
    s = Server(ctx, {"replies": [
        {"content": "plain"},
        {"content": "streamed text", "chunk_size": 5,
         "tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]},
        {"fault": "http_500"}]})
    try:
        code, body = curl(s.url + "/v1/models")
        eq((code, json.loads(body)["data"][0]["id"]), (200, "plugcheck-mock"))
        code, body = curl(s.url + "/v1/chat/completions", "-H", "X-Trace: t1", "-d", CHAT)
        eq(code, 200)
        eq(json.loads(body)["choices"][0]["message"]["content"], "plain")
        code, body = curl(s.url + "/v1/chat/completions", "-N", "-d",
                          CHAT[:-1] + ',"stream":true}')
        eq(code, 200)
        events = [e[len("data: "):] for e in body.split("\n\n") if e]
        eq(events[-1], "[DONE]")
        chunks = [json.loads(e) for e in events[:-1]]
        text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
        args = "".join(t["function"].get("arguments", "") for c in chunks
                       for t in c["choices"][0]["delta"].get("tool_calls", []))
        eq((text, args), ("streamed text", '{"command":"ls"}'))
        eq(chunks[-1]["choices"][0]["finish_reason"], "tool_calls")
        code, _ = curl(s.url + "/v1/chat/completions", "-d", CHAT)
        eq(code, 500)
    finally:
        rc, err = s.stop()
    eq(rc, 0, err)
    assert "stopping (SIGTERM) after 4 requests" in err, err
    reqs = s.requests()
    eq([(r["method"], r["path"], r["status"]) for r in reqs],
       [("GET", "/v1/models", 200), ("POST", "/v1/chat/completions", 200),
        ("POST", "/v1/chat/completions", 200), ("POST", "/v1/chat/completions", 500)])
    eq(reqs[1]["headers"]["x-trace"], "t1")
    eq(reqs[1]["body"], CHAT)


def test_serve_stops_after_max_requests(ctx):
    s = Server(ctx, {"replies": []}, "--max-requests", "1")
    eq(curl(s.url + "/v1/models")[0], 200)
    _, err = s.p.communicate(timeout=30)
    eq(s.p.returncode, 0)
    assert "request budget" in err.decode(), err


def test_serve_usage_errors(ctx):
    eq(ctx.run("mock-model", "serve")[0], 2)
    eq(ctx.run("mock-model", "bogus", "x.json")[0], 2)
    eq(ctx.run("mock-model", "serve", "--port", "70000", "x.json")[0], 2)
    bad = os.path.join(ctx.tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"replies": [')
    code, _, err = ctx.run("mock-model", "serve", bad)
    eq(code, 2)
    assert "bad.json" in err, err


def test_oauth_round_trip_through_fire(ctx):
    s = Server(ctx, {"replies": [{"content": "authorized"}]}, "--require-auth",
                "--device-pending", "1")
    d = os.path.join(FIX, "oauth-mock")
    env = {"HOME": ctx.tmp, "MOCK_OAUTH_BASE_URL": s.url, "CATALYST_CODE_NO_BROWSER": "1"}
    try:
        code, out = ctx.json("fire", "oauth:login", d, env=env)
        eq((code, out["ok"]), (0, True), out)
        pending = json.loads(out["stdout"])["pending"]
        code, out = ctx.json("fire", "oauth:complete", d, "--args",
                             json.dumps({"code": "", "pending": pending}), env=env)
        eq((code, out["ok"]), (0, True), out)
        assert json.loads(out["stdin"])["pending"] == pending
        code, out = ctx.json("fire", "oauth:token", d, env=env)
        eq(code, 0, out)
        tok = json.loads(out["stdout"])
        eq(tok["access_token"], "mock-access-1")
        # What the host sends (R8.8): Bearer token, manifest headers with
        # the token's headers upserted case-insensitively.
        code, body = curl(s.url + "/v1/chat/completions",
                          "-H", "Authorization: Bearer " + tok["access_token"],
                          "-H", "X-Static: static-1", "-H", "x-org: plugin-org",
                          "-H", "X-Mock-Plugin: oauth-mock", "-d", CHAT)
        eq(code, 200, body)
        code, out = ctx.json("fire", "oauth:clear", d, env=env)
        eq(code, 0, out)
        code, _ = curl(s.url + "/v1/chat/completions", "-d", CHAT)
        eq(code, 401)
    finally:
        rc, err = s.stop()
    eq(rc, 0, err)
    reqs = s.requests()
    eq([r["path"] for r in reqs],
       ["/oauth/device", "/oauth/token", "/oauth/token", "/v1/chat/completions",
        "/v1/chat/completions"])
    eq(reqs[1]["body"].split("&")[0],
       "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code")
    h = reqs[3]["headers"]
    eq((h["authorization"], h["x-org"], h["x-static"], h["x-mock-plugin"]),
       ("Bearer mock-access-1", "plugin-org", "static-1", "oauth-mock"))
    eq(os.path.exists(os.path.join(ctx.tmp, ".config/catalyst-code/oauth/mockprov.json")), False)

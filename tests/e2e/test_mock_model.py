"""The mock model as a new user meets it (issue 20): one script loader
with located errors for `turn`, `mock-model serve` and a scenario's
model_file; real `created` and `usage`; OpenAI's error objects (code a
string or null); HTTP framing errors as single JSON answers, a declared
body over the limit refused before it is read; and the official `openai`
npm client against the server (installed under the build directory with
npm, test-only: bootstrap.sh --deps provides node and npm)."""
import json
import os
import socket
import subprocess
import time

from e2e import eq
from test_mock_http import Server, curl

OPENAI_VERSION = "4.104.0"
LIMIT = 8 << 20  # the server's request body limit (pc_mock_http.h)
HOOK = "#!/bin/sh\ncat >/dev/null\necho '{\"allow\":true}'\n"


def write(ctx, name, text):
    p = os.path.join(ctx.tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def test_one_loader_with_located_errors(ctx):
    # used to load silently and then report that every reply was used
    ctx.plugin("p", {"name": "p", "version": "1", "hooks": {"pre_bash": {"script": "h.sh"}}},
               {"h.sh": HOOK})
    bad = write(ctx, "bad.json", '{\n  "replys": [{"content": "hi"}]\n}\n')
    typo = write(ctx, "typo.json", '{"replies": [\n  {"content": "a"},\n  {"contnt": "b"}\n]}\n')
    want = ("typo.json:3:4: replies[1]: unknown key 'contnt' in a model reply (expected one of: "
            "content, tool_calls, fault, reasoning_content, chunk_size)")
    code, out, err = ctx.run("turn", "bad.json", "p")
    eq((code, out, err), (2, "", "plugcheck: bad.json:2:3: unknown key 'replys' in the script "
                                 "(expected one of: replies, rules, fallback)\n"))
    code, out, err = ctx.run("turn", "typo.json", "p")
    eq((code, out, err), (2, "", "plugcheck: %s\n" % want))
    code, out, err = ctx.run("mock-model", "serve", "--timeout", "5", "typo.json")
    eq((code, out, err), (2, "", "plugcheck: mock-model: %s\n" % want))
    # the same script as a scenario's model_file, and inline in YAML
    os.rename(typo, os.path.join(ctx.tmp, "p", "typo.json"))
    scn = write(ctx, os.path.join("p", "t.plugcheck.yaml"),
                "plugcheck: 1\nscenarios:\n  - name: a\n    steps:\n"
                "      - turn: { text: hi, model_file: typo.json }\n"
                "  - name: b\n    steps:\n"
                "      - turn: { text: hi, model: { replies: [{ content: a }, { contnt: b }] } }\n")
    code, out, err = ctx.run("run", scn)
    eq((code, err), (2, "plugcheck: %s:5:39: model_file 'typo.json': %s/p/%s\n" % (scn, ctx.tmp, want)))
    with open(scn) as f:
        text = f.read().replace("      - turn: { text: hi, model_file: typo.json }\n",
                                "      - turn: { text: hi, model: { replies: [{ content: a }] } }\n")
    write(ctx, scn, text)
    code, out, err = ctx.run("run", scn)
    eq((code, err), (2, "plugcheck: %s:8:64: 'model': replies[1]: unknown key 'contnt' in a model "
                        "reply (expected one of: content, tool_calls, fault, reasoning_content, "
                        "chunk_size)\n" % scn))


def raw(url, data, wait=10):
    """Send `data` on a fresh connection; all bytes until the server closes."""
    host, port = url.split("//")[1].split(":")
    s = socket.create_connection((host, int(port)), timeout=wait)
    s.sendall(data)
    got = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += d
    finally:
        s.close()
    return got


def one_answer(got):
    """(status, headers, JSON body) of the one HTTP answer in `got`."""
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    eq(head.count(b"HTTP/1.1 "), 1, got)
    headers = dict(l.split(": ", 1) for l in lines[1:])
    eq(int(headers["Content-Length"]), len(body), got)
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_framing_errors_are_single_json_answers(ctx):
    s = Server(ctx, {"replies": [{"content": "ok"}], "fallback": {"content": "ok"}})
    try:
        post = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
        for cl, status, msg in [
                (b"-5", 400, "Content-Length is not a non-negative decimal number"),
                (b"abc", 400, "Content-Length is not a non-negative decimal number"),
                (b"1, 2", 400, "Content-Length is not a non-negative decimal number"),
                (b"%d" % (LIMIT + 1), 413, "request body too large: the limit is 8388608 bytes"),
                (b"99999999999", 413, "request body too large: the limit is 8388608 bytes"),
                (b"9" * 30, 413, "request body too large: the limit is 8388608 bytes")]:
            t0 = time.monotonic()
            # the body is never sent: a 413 must come before reading it
            status_, headers, body = one_answer(raw(s.url, post + b"Content-Length: " + cl +
                                                    b"\r\n\r\n"))
            eq((status_, headers["Content-Type"], headers["Connection"], body),
               (status, "application/json", "close",
                {"error": {"message": msg, "type": "invalid_request_error", "param": None,
                           "code": None}}), cl)
            assert time.monotonic() - t0 < 5, cl
        for req, status in [(b"GARBAGE\r\n\r\n", 400), (b"GET /v1/models HTTP/2.0\r\n\r\n", 505),
                            (post + b"Transfer-Encoding: gzip\r\n\r\n", 501),
                            (post + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                            (post + b"Expect: wait\r\nContent-Length: 2\r\n\r\n", 417),
                            (b"GET / HTTP/1.1\r\nX: " + b"a" * (70 << 10) + b"\r\n\r\n", 431)]:
            eq(one_answer(raw(s.url, req))[0], status, req[:60])
        # at the limit and one below, the body is read and answered
        for n in (LIMIT - 1, LIMIT):
            pre = b'{"messages":[{"role":"user","content":"'
            body = pre + b"a" * (n - len(pre) - 4) + b'"}]}'
            eq(len(body), n)
            status_, _, ans = one_answer(raw(s.url, post + b"Content-Length: %d\r\n"
                                             b"Connection: close\r\n\r\n" % n + body))
            eq((status_, ans["choices"][0]["message"]["content"]), (200, "ok"), n)
        # a chunked body, and 100-continue, as curl sends them
        code, body = curl(s.url + "/v1/chat/completions", "-H", "Transfer-Encoding: chunked",
                          "-H", "Expect: 100-continue", "-d",
                          '{"messages":[{"role":"user","content":"hi"}]}')
        eq((code, json.loads(body)["choices"][0]["message"]["content"]), (200, "ok"))
    finally:
        s.stop()


def test_created_usage_and_error_codes(ctx):
    s = Server(ctx, {"replies": [{"content": "hi"}, {"fault": "http_429"}]}, "--require-auth")
    try:
        code, body = curl(s.url + "/v1/models")
        eq((code, json.loads(body)["error"]),
           (401, {"message": "missing or unknown Bearer token", "type": "invalid_request_error",
                  "param": None, "code": "invalid_api_key"}))
        code, body = curl(s.url.replace("/v1", "") + "/oauth/token", "-d",
                          "grant_type=authorization_code&code=mock-auth-code")
        auth = "Authorization: Bearer " + json.loads(body)["access_token"]
        t0 = int(time.time())
        code, body = curl(s.url + "/v1/chat/completions", "-H", auth, "-d",
                          '{"messages":[{"role":"user","content":"hello there"}]}')
        c = json.loads(body)
        # 4 bytes a token, rounded up, plus 4 per message: 4 + 3; "hi": 1
        eq((code, c["usage"]), (200, {"prompt_tokens": 7, "completion_tokens": 1,
                                      "total_tokens": 8}))
        assert t0 - 1 <= c["created"] <= time.time() + 1, c["created"]
        code, body = curl(s.url + "/v1/chat/completions", "-H", auth, "-d", '{"messages":[]}')
        eq((code, json.loads(body)["error"]["code"]), (429, "rate_limit_exceeded"))
        code, body = curl(s.url + "/v1/nope", "-H", auth)
        eq((code, json.loads(body)["error"]),
           (404, {"message": "no such endpoint", "type": "invalid_request_error", "param": None,
                  "code": None}))
    finally:
        s.stop()


CLIENT = r"""
const OpenAI = require("openai");
const client = new OpenAI({ baseURL: process.argv[2], apiKey: "k", maxRetries: 0 });
(async () => {
  const out = {};
  const c = await client.chat.completions.create({
    model: "m", messages: [{ role: "user", content: "hello there" }] });
  out.plain = { content: c.choices[0].message.content, usage: c.usage, created: c.created };
  const t = await client.chat.completions.create({
    model: "m", messages: [{ role: "user", content: "run" }] });
  out.tool = t.choices[0].message.tool_calls.map(x => [x.id, x.function.name, x.function.arguments]);
  const stream = await client.chat.completions.create({
    model: "m", messages: [{ role: "user", content: "hi" }], stream: true,
    stream_options: { include_usage: true } });
  let text = "", usage = null;
  for await (const ch of stream) {
    if (ch.choices.length) text += ch.choices[0].delta.content || "";
    if (ch.usage) usage = ch.usage;
  }
  out.stream = { text, usage };
  try {
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
  } catch (e) {
    out.error = { status: e.status, code: e.code, type: e.type, message: e.error && e.error.message };
  }
  const models = await client.models.list();
  out.models = models.data.map(m => m.id);
  console.log(JSON.stringify(out));
})().catch(e => { console.error(String(e)); process.exit(1); });
"""


def openai_client(ctx):
    """The build directory's node_modules with the `openai` client."""
    prefix = os.path.join(os.path.dirname(ctx.plugcheck), "npm")
    mod = os.path.join(prefix, "node_modules", "openai", "package.json")
    if not (os.path.exists(mod) and json.load(open(mod))["version"] == OPENAI_VERSION):
        p = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", prefix,
                            "openai@" + OPENAI_VERSION], capture_output=True, text=True,
                           timeout=280)
        eq(p.returncode, 0, "npm install openai (node and npm: ./bootstrap.sh --deps)\n" +
           p.stdout + p.stderr)
    return os.path.join(prefix, "node_modules")


def test_the_official_openai_client(ctx):
    modules = openai_client(ctx)
    s = Server(ctx, {"replies": [
        {"content": "hi"},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]},
        {"content": "streamed reply", "chunk_size": 3},
        {"fault": "http_429"}], "fallback": {"content": "fb"}})
    try:
        js = write(ctx, "client.js", CLIENT)
        t0 = int(time.time())
        p = subprocess.run(["node", js, s.url + "/v1"], capture_output=True, text=True,
                           timeout=60, env={**os.environ, "NODE_PATH": modules})
        eq(p.returncode, 0, p.stdout + p.stderr)
        out = json.loads(p.stdout)
        assert t0 - 1 <= out["plain"].pop("created") <= time.time() + 1, out
        eq(out, {"plain": {"content": "hi", "usage": {"prompt_tokens": 7, "completion_tokens": 1,
                                                      "total_tokens": 8}},
                 "tool": [["call_1_0", "bash", '{"command":"ls"}']],
                 "stream": {"text": "streamed reply",
                            "usage": {"prompt_tokens": 5, "completion_tokens": 4,
                                      "total_tokens": 9}},
                 "error": {"status": 429, "code": "rate_limit_exceeded",
                           "type": "rate_limit_error",
                           "message": "plugcheck mock-model: scripted HTTP 429 fault"},
                 "models": ["plugcheck-mock"]})
    finally:
        s.stop()

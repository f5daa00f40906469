"""Issue 18, ChatCLI: what the CLI prints for the host behaviours the
reference host reproduces from the host's Go code (chatcli.md): NUL bytes
in metadata, arguments and output (M4, X8, X7), the host's 4096-byte reads
(X7), the compression layer (O1), the tool-call parser's ToLower offsets
(A1), the schema's exact text (S2), trusted keys in dot files (G4), and
calls through `chatcli connect` (R2, R3). The expected bytes are those of
the host's functions built with Go 1.19 (see tests/unit/test_chatcli_go.c
and test_chatcli_out.c)."""
import json
import os

from e2e import eq


def script(ctx, name, meta, body, schema_cmd="exit 1"):
    d = os.path.join(ctx.tmp, "plugins")
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write("#!/bin/sh\n"
                f"[ \"$1\" = --metadata ] && {{ printf '%s' '{meta}'; exit 0; }}\n"
                f"[ \"$1\" = --schema ] && {{ {schema_cmd}; }}\n"
                f"{body}\n")
    os.chmod(p, 0o755)
    return p


def fire_json(ctx, exe, *args, env=None):
    code, out, err = ctx.run("fire", "call", exe, *args, "--format", "json", env=env)
    return code, json.loads(out), err


def test_output_and_arguments_keep_nul_bytes(ctx):
    exe = script(ctx, "nul", '{"name":"@nul"}', "printf 'a\\000b\\n'")
    code, out, _ = fire_json(ctx, exe, "--args", "x")
    eq(code, 0, out)
    eq(out["output"], "a\u0000b\n")
    # a raw NUL in the args text: Go's exec refuses the argv, nothing runs
    af = os.path.join(ctx.tmp, "args")
    with open(af, "wb") as f:
        f.write(b"x a\0b")
    mark = os.path.join(ctx.tmp, "ran")
    exe2 = script(ctx, "mark", '{"name":"@mark"}', f"touch '{mark}'")
    code, out, _ = fire_json(ctx, exe2, "--args-file", af)
    eq(code, 1, out)
    eq(out["argv"], ["x", "a\u0000b"])
    eq(out["error"], f"falha ao iniciar plugin: fork/exec {exe2}: invalid argument")
    eq(out["output"], "")
    assert not os.path.exists(mark)
    # the human form prints the bytes as they are
    code, text, _ = ctx.run("fire", "call", exe, "--args", "x")
    assert "a\0b\n" in text, repr(text)


def test_a_crlf_split_across_reads_gives_an_extra_line(ctx):
    data = os.path.join(ctx.tmp, "data")
    with open(data, "wb") as f:
        f.write(b"x" * 4095 + b"\r\ny\n")
    exe = script(ctx, "crlf", '{"name":"@crlf"}', f"cat '{data}'")
    code, out, _ = fire_json(ctx, exe, "--args", "", env={"CHATCLI_COMPRESSION": "off"})
    eq(code, 0, out)
    eq(len(out["output"]), 4099)
    eq(out["output"][-6:], "xxx\n\ny\n"[-6:])
    eq(out["output"][4095:], "\n\ny\n")


def test_compression_is_what_the_model_receives(ctx):
    exe = script(ctx, "grep", '{"name":"@grep"}',
                 'i=0; while [ $i -lt 300 ]; do echo "src/f$((i % 4)).go:$i: hit"; i=$((i+1)); done')
    code, out, _ = fire_json(ctx, exe, "--args", "")
    eq(code, 0, out)
    eq(out["compression"], True)
    eq(out["compressor"], "search")
    eq(len(out["ccr_key"]), 16)
    assert out["output"].startswith("src/f0.go\n  L0:  hit\n  L4:  hit\n"), out["output"][:80]
    assert out["output"].endswith(
        f"\n... [search: 280 matches omitted \u2014 recall full results with "
        f"@recall <<ccr:{out['ccr_key']}>>] ...\n"), out["output"][-160:]
    # off: the bytes as they are
    code, off, _ = fire_json(ctx, exe, "--args", "", env={"CHATCLI_COMPRESSION": "off"})
    eq(off["compressor"], "passthrough")
    eq(off["ccr_key"], None)
    eq(len(off["output"].encode()), sum(len(f"src/f{i % 4}.go:{i}: hit\n") for i in range(300)))
    # an output that already cites a <<ccr:KEY>> passes through
    exe2 = script(ctx, "marked", '{"name":"@marked"}',
                  'i=0; while [ $i -lt 200 ]; do echo "src/f$i.go:$i: x"; i=$((i+1)); done; '
                  'echo "<<ccr:0123456789abcdef>>"')
    code, out, _ = fire_json(ctx, exe2, "--args", "")
    eq(out["compression"], False)
    eq(out["compressor"], "passthrough")


def test_tags_after_a_kelvin_sign_are_missed(ctx):
    exe = script(ctx, "k", '{"name":"@k"}', "echo ran")
    code, out, err = fire_json(ctx, exe, "--call", "\u212a<tool_call name=\"@k\" args=\"a\"/>")
    eq(code, 1, out)
    eq(out["calls"], 0)
    eq(out["call"], None)
    assert "no tool call in the reply" in err, err
    code, out, _ = fire_json(ctx, exe, "--call", "K<tool_call name=\"@k\" args=\"a\"/>")
    eq(out["calls"], 1)
    eq(out["argv"], ["a"])


def test_the_parsers_panic_is_reported_as_the_hosts(ctx):
    exe = script(ctx, "p", '{"name":"@p"}', "echo ran")
    reply = os.path.join(ctx.tmp, "reply")
    with open(reply, "wb") as f:
        f.write(b'<tool name="@p">' + b"\xff" * 4 + b"</tool>")
    code, out, _ = fire_json(ctx, exe, "--call-file", reply)
    eq(code, 1, out)
    eq(out["panic"], "runtime error: slice bounds out of range [:35] with length 27")
    eq(out["argv"], None)
    code, text, _ = ctx.run("fire", "call", exe, "--call-file", reply)
    assert "not run: the host's tool-call parser panics (runtime error: slice bounds out of range [:35] with length 27): ChatCLI crashes" in text, text


def test_lint_keeps_nul_names_and_the_exact_schema(ctx):
    exe = script(ctx, "q", '{"name":"@a\\u0000b","u\u017fage":"u"}', "echo ok",
                 schema_cmd="printf '{\"n\":1e400,\"big\":123456789012345678901234567890}'; exit 0")
    code, out = ctx.json("lint", exe, env={"CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"})
    eq(out["name"], "@a\u0000b")
    eq(out["metadata"]["name"], "@a\u0000b")
    eq(out["metadata"]["usage"], "u")
    code, text, _ = ctx.run("lint", exe, "--format", "json", env={"CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"})
    assert '"schema": {"n":1e400,"big":123456789012345678901234567890}' in text, text


def test_verify_lists_hidden_key_files(ctx):
    exe = script(ctx, "h", '{"name":"@h"}', "echo ok")
    keys = os.path.join(ctx.tmp, "keys")
    os.makedirs(keys)
    with open(os.path.join(keys, ".dev.pub"), "w") as f:
        f.write("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n")
    with open(exe + ".sig", "w") as f:
        f.write("A\0B\n")
    code, out = ctx.json("verify", exe, "--trusted-keys", keys)
    eq(out["trusted_keys"], 1)
    eq(out["key_files"], [{"file": ".dev.pub", "format": "base64"}])
    eq(out["host_error"], "invalid signature encoding: illegal base64 data at input byte 1")


def test_fire_call_remote_shows_what_the_client_gets(ctx):
    exe = script(ctx, "r", '{"name":"@r"}', "echo partial; exit 2")
    code, out, _ = fire_json(ctx, exe, "--args", "x", "--remote")
    eq(code, 1, out)
    eq(out["error"], "remote plugin error: plugin execution failed: exit status 2")
    eq(out["output"], "partial\n")
    eq(out["remote"], {"hidden": None, "discovery_error": None})
    code, out, _ = fire_json(ctx, exe, "--args", "x", "--remote", "--role", "readonly")
    eq(out["error"], "plugin não encontrado")
    eq(out["output"], "Ferramenta '@r' não existe ou não está instalada.")
    eq(out["remote"]["hidden"], "readonly users see no remote plugin")
    # 101 arguments: the server's validation refuses the request
    args = " ".join(["a"] * 101)
    code, out, _ = fire_json(ctx, exe, "--args", args, "--remote")
    eq(out["error"], "remote ExecuteRemotePlugin failed: rpc error: code = InvalidArgument "
                     "desc = validation: too many plugin arguments (max 100)")
    eq(out["output"], "")
    code, out, _ = fire_json(ctx, exe, "--args", " ".join(["a"] * 100), "--remote")
    eq(out["error"], "remote plugin error: plugin execution failed: exit status 2")
    code, _, err = ctx.run("fire", "call", exe, "--args", "x", "--role", "user")
    eq(code, 2, err)


def test_check_reports_what_breaks_when_served_remotely(ctx):
    exe = script(ctx, "bin", '{"name":"@bin"}', "printf 'a\\377b\\n'",
                 schema_cmd="printf '{\"x\":\"\\377\"}'; exit 0")
    code, out = ctx.json("check", exe, env={"CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"})
    found = {f["id"]: f["message"] for f in out["findings"]}
    eq(found.get("PC-CHAT-091"),
       "'bin': the server cannot encode the plugin list (rpc error: code = Internal desc = grpc: "
       "error while marshaling: string field contains invalid UTF-8); the client registers no remote plugin")
    assert found.get("PC-CHAT-094", "").endswith(
        "-> remote ExecuteRemotePlugin failed: rpc error: code = Internal desc = grpc: error while "
        "marshaling: string field contains invalid UTF-8"), found

"""ChatCLI executable plugins (spec chatcli.md): lint, check, fire call,
keygen/sign/verify/trust, with shell and C fixture plugins. Signatures are
made with `plugcheck sign` and checked independently with openssl."""
import json
import os
import subprocess

from e2e import eq

HERE = os.path.dirname(os.path.abspath(__file__))
C_SRC = os.path.join(HERE, "..", "fixtures", "chatcli", "argv_echo.c")


def c_plugin(ctx, name="argv-echo"):
    d = os.path.join(ctx.tmp, "plugins")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, name)
    subprocess.run(["cc", "-O0", "-o", exe, C_SRC], check=True)
    return exe


def sh_plugin(ctx, name, metadata, schema="", body="echo ok", mode=0o755):
    d = os.path.join(ctx.tmp, "plugins")
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write("#!/bin/sh\n"
                f"[ \"$1\" = --metadata ] && {{ printf '%s\\n' '{metadata}'; exit 0; }}\n"
                f"[ \"$1\" = --schema ] && {{ printf '%s' '{schema}'; exit 0; }}\n"
                f"{body}\n")
    os.chmod(p, mode)
    return p


def env(ctx, **kw):
    e = {"HOME": os.path.join(ctx.tmp, "home")}
    e.update(kw)
    return e


def sign_and_trust(ctx, exe):
    e = env(ctx)
    eq(ctx.run("keygen", env=e)[0], 0, "keygen")
    key = os.path.join(ctx.tmp, "home/.chatcli/plugin-keys/plugin-signing.key")
    pub = os.path.join(ctx.tmp, "home/.chatcli/plugin-keys/plugin-signing.pub")
    eq(ctx.run("sign", exe, "--key", key, env=e)[0], 0, "sign")
    eq(ctx.run("trust", pub, env=e)[0], 0, "trust")
    return e, pub


def ids(out):
    return sorted(f["id"] for f in out["findings"])


def test_sign_is_verified_by_openssl(ctx):
    exe = c_plugin(ctx)
    e, pub = sign_and_trust(ctx, exe)
    code, _, err = ctx.run("keygen", env=e)
    eq(code, 1, "keygen refuses to overwrite")
    assert "a signing key already exists at" in err, err
    with open(exe + ".sig") as f:
        lines = f.read().split("\n")
    eq(lines[1], "# chatcli plugin signature (Ed25519 over SHA-256)")
    eq(lines[2], "# plugin: argv-echo")
    digest = os.path.join(ctx.tmp, "digest")
    sig = os.path.join(ctx.tmp, "sig.bin")
    subprocess.run(["openssl", "dgst", "-sha256", "-binary", "-out", digest, exe], check=True)
    subprocess.run(["sh", "-c", f"head -n1 '{exe}.sig' | base64 -d > '{sig}'"], check=True)
    v = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin",
                        "-in", digest, "-sigfile", sig], capture_output=True, text=True)
    eq(v.returncode, 0, v.stdout + v.stderr)
    # the raw file instead of its digest does not verify (G1)
    v = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin",
                        "-in", exe, "-sigfile", sig], capture_output=True, text=True)
    assert v.returncode != 0
    code, out, _ = ctx.run("verify", exe, env=e)
    eq(code, 0, out)
    assert "verified" in out, out


def test_lint_json_of_a_signed_c_plugin(ctx):
    exe = c_plugin(ctx)
    e, _ = sign_and_trust(ctx, exe)
    code, out = ctx.json("lint", exe, env=e)
    eq(code, 0, out)
    eq(out["contract"], "chatcli")
    eq(out["loaded"], True)
    eq(out["host_error"], None)
    eq(out["name"], "@argv-echo")
    eq(out["metadata"]["version"], "1.0.0")
    eq(out["schema"]["subcommands"][0]["name"], "show")
    eq(ids(out), [])


def test_unsigned_plugin_is_skipped_unless_allowed(ctx):
    exe = c_plugin(ctx)
    code, out = ctx.json("lint", exe, env=env(ctx))
    eq(code, 3)
    eq(out["loaded"], False)
    eq(out["host_error"], "plugin signature file not found")
    assert "PC-CHAT-050" in ids(out)
    code, out = ctx.json("lint", exe, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="TRUE"))
    eq(out["loaded"], True)
    eq(code, 1, "the missing signature is still an error finding")


def test_tampered_plugin_fails_verification(ctx):
    exe = c_plugin(ctx)
    e, _ = sign_and_trust(ctx, exe)
    with open(exe, "ab") as f:
        f.write(b"\0")
    code, out, _ = ctx.run("verify", exe, env=dict(e, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    eq(code, 1)
    eq(out.split("\n")[0], exe + ": plugin signature verification failed")
    assert "upstream-newer verifier (§6.B): untrusted -> skip\n" in out, out
    assert "signature file: upstream layout (plugin: argv-echo; sha256 does not match the file's)\n" in out, out


def test_fire_call_json_form(ctx):
    exe = c_plugin(ctx)
    code, out = ctx.json("fire", "call", exe, "--args",
                         '{"cmd":"show","args":{"text":"a b","n":1000000,"v":true}}')
    eq(code, 0, out)
    eq(out["argv"], ["show", "--n", "1e+06", "--text", "a b", "--v"])
    eq(out["error"], None)
    eq(sorted(out["output"].split("\n")),
       sorted(["progress 50%", '["show","--n","1e+06","--text","a b","--v"]', ""]))
    eq(out["leftover_processes"], 0)


def test_fire_call_text_form_and_errors(ctx):
    exe = c_plugin(ctx)
    code, out = ctx.json("fire", "call", exe, "--args", "show --text 'x y' C:\\a")
    eq(out["argv"], ["show", "--text", "x y", "C:a"])
    code, out = ctx.json("fire", "call", exe, "--args", '--q "abc')
    eq(code, 1)
    eq(out["argv"], None)
    eq(out["error"], "aspas não balanceadas nos argumentos")
    eq(out["output"], "Args parsing error: aspas não balanceadas nos argumentos")
    p = sh_plugin(ctx, "fails", '{"name":"@f"}', body="echo partial; echo oops >&2; exit 3")
    code, out = ctx.json("fire", "call", p, "--args", "")
    eq(code, 1)
    eq(out["argv"], [])
    eq(out["error"], "plugin execution failed: exit status 3")


def test_fire_call_truncates_like_the_host(ctx):
    p = sh_plugin(ctx, "big", '{"name":"@big"}',
                  body="head -c 40000 /dev/zero | tr '\\0' a")
    code, out = ctx.json("fire", "call", p, "--args", "x")
    eq(code, 0)
    eq(len(out["output"]), 6054)
    assert "[TRUNCATED 34000 chars omitted, 6000 kept]" in out["output"]


def test_check_reports_naming_schema_and_stdin(ctx):
    p = sh_plugin(ctx, "kind",
                  '{"name":"kind","description":"reads text on stdin","usage":"kind TEXT","version":"1"}',
                  schema='{"parameters":[{"name":"text","type":"string"}]}')
    code, out = ctx.json("check", p, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    got = ids(out)
    for want in ["PC-CHAT-003", "PC-CHAT-020", "PC-CHAT-044", "PC-CHAT-050"]:
        assert want in got, (want, got)
    assert "PC-CHAT-006" not in got, got
    eq(code, 1)
    # check's JSON names the contract it checked (it said "catalyst" here)
    eq(out["contract"], "chatcli")
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "check.schema.json")
    import jsonschema
    with open(schema) as f:
        jsonschema.validate(out, json.load(f))


def test_check_flags_schema_main_action_and_side_effects(ctx):
    p = sh_plugin(ctx, "lotus", '{"name":"@lotus","description":"d","usage":"u","version":"1"}',
                  body="touch created; echo scanning $1")
    with open(p, "w") as f:
        f.write("#!/bin/sh\n[ \"$1\" = --metadata ] && { echo '{\"name\":\"@lotus\",\"description\":\"d\",\"usage\":\"u\",\"version\":\"1\"}'; exit 0; }\n"
                "touch created; echo scanning $1\n")
    code, out = ctx.json("check", p, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    got = ids(out)
    assert "PC-CHAT-014" in got, got
    assert "PC-CHAT-013" in got, got


def test_directory_duplicates_and_builtins(ctx):
    sh_plugin(ctx, "a", '{"name":"@read","description":"d","usage":"u","version":"1"}')
    sh_plugin(ctx, "b", '{"name":"@read","description":"d","usage":"u","version":"2"}')
    d = os.path.join(ctx.tmp, "plugins")
    code, out = ctx.json("lint", d, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    got = ids(out)
    assert "PC-CHAT-007" in got and "PC-CHAT-008" in got, got
    eq([p["replaced_by"] for p in out["plugins"]], ["b", None])


def test_metadata_errors_are_go_texts(ctx):
    p = sh_plugin(ctx, "noisy", "starting...")
    code, out = ctx.json("lint", p, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    eq(code, 3)
    eq(out["host_error"], "invalid character 's' looking for beginning of value")
    p = sh_plugin(ctx, "typed", '{"name":"@t","version":1}')
    code, out = ctx.json("lint", p, env=env(ctx, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    eq(out["host_error"], "json: cannot unmarshal number into Go struct field Metadata.version of type string")


def test_host_flag_forces_the_contract(ctx):
    exe = c_plugin(ctx)
    code, out = ctx.json("lint", exe, "--host", "catalyst")
    eq(out["contract"], "catalyst")
    code, _, _ = ctx.run("lint", exe, "--host", "nope")
    eq(code, 2)
    d = ctx.plugin("cat", {"name": "cat", "version": "1.0.0"})
    code, out = ctx.json("lint", d)
    eq(out["contract"], "catalyst")


def test_signature_finding_names_the_file_once(ctx):
    # regression: the finding printed "hello: hello: plugin signature file
    # not found"; the location names the file, the message is the host's
    # G5 text byte for byte
    p = sh_plugin(ctx, "hello", '{"name":"@hello","description":"d","usage":"u","version":"1"}')
    code, out, _ = ctx.run("lint", p, env=env(ctx))
    eq(code, 3, out)
    assert "%s: error PC-CHAT-050 [G5] plugin signature file not found\n" % p in out, out
    assert "hello: hello:" not in out, out
    code, out = ctx.json("lint", p, env=env(ctx))
    f = [x for x in out["findings"] if x["id"] == "PC-CHAT-050"][0]
    eq(f["message"], "plugin signature file not found")


def test_fire_call_from_the_models_reply(ctx):
    # A1/A2: --call takes the model's whole reply; the attribute is decoded
    # as the host does (quoted values keep &quot; for A4 to unescape)
    exe = c_plugin(ctx)
    code, out = ctx.json("fire", "call", exe, "--call",
                         'Running it now.\n<tool_call name="@argv-echo" args="show --text &quot;a b&quot;" />')
    eq(code, 0, out)
    eq(out["call"], {"name": "@argv-echo", "args": "show --text &quot;a b&quot;", "form": "tag"})
    eq(out["calls"], 1)
    eq(out["argv"], ["show", "--text", "a b"])
    eq(out["compression"], False)
    # the bracket shorthand, with the @ the host adds
    code, out = ctx.json("fire", "call", exe, "--call", '[tool: argv-echo {"cmd":"show","args":{"n":1}}]')
    eq(out["call"]["name"], "@argv-echo")
    eq(out["argv"], ["show", "--n", "1"])
    # A3's aggressive rewrite: a raw line break drops the args object
    code, out = ctx.json("fire", "call", exe, "--call",
                         "<tool name='@argv-echo' args='{\"cmd\":\"show\",\"args\":{\"t\":\"l1\nl2\"}}'/>")
    eq(out["argv"], ["show"])
    # no call in the reply: nothing runs
    code, out = ctx.json("fire", "call", exe, "--call", "I would call <tool_caller> here")
    eq(code, 1)
    eq(out["call"], None)
    eq(out["argv"], None)
    code, _, err = ctx.run("fire", "call", exe, "--call", "x", "--args", "y")
    eq(code, 2, "--call and --args together")


def test_both_signature_layouts(ctx):
    # §6.B: sign writes the newer layout by default, --layout head the
    # signature line alone; the HEAD verifier, verify and openssl accept both
    exe = c_plugin(ctx)
    e, pub = sign_and_trust(ctx, exe)
    code, out = ctx.json("verify", exe, env=e)
    eq(code, 0, out)
    eq(out["loads"], True)
    eq(out["upstream_status"], "verified")
    eq(out["sig"]["format"], "upstream")
    eq(out["sig"]["sha256"], out["sha256"])
    eq(out["key_files"], [{"file": "plugin-signing.pub", "format": "pkix-pem"}])
    key = os.path.join(ctx.tmp, "home/.chatcli/plugin-keys/plugin-signing.key")
    code, _, err = ctx.run("sign", exe, "--key", key, "--layout", "head", env=e)
    eq(code, 0, err)
    with open(exe + ".sig") as f:
        text = f.read()
    eq(len(text), 89)
    eq(text.count("\n"), 1)
    digest = os.path.join(ctx.tmp, "digest")
    sig = os.path.join(ctx.tmp, "sig.bin")
    subprocess.run(["openssl", "dgst", "-sha256", "-binary", "-out", digest, exe], check=True)
    subprocess.run(["sh", "-c", f"base64 -d < '{exe}.sig' > '{sig}'"], check=True)
    v = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin",
                        "-in", digest, "-sigfile", sig], capture_output=True, text=True)
    eq(v.returncode, 0, v.stdout + v.stderr)
    code, out, _ = ctx.run("verify", exe, env=e)
    eq(code, 0, out)
    assert "signature file: head layout\n" in out, out
    # a key file the host skips is listed as such
    with open(os.path.join(ctx.tmp, "home/.chatcli/trusted-keys/ssh.pub"), "w") as f:
        f.write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEx user\n")
    code, out, _ = ctx.run("verify", exe, env=e)
    assert "trusted key ssh.pub: skipped by the host\n" in out, out
    code, _, _ = ctx.run("sign", exe, "--key", key, "--layout", "v2", env=e)
    eq(code, 2)
    # unsigned, allowed: HEAD loads it; the newer verifier too (then its
    # quarantine gate)
    os.unlink(exe + ".sig")
    code, out = ctx.json("verify", exe, env=dict(e, CHATCLI_ALLOW_UNSIGNED_PLUGINS="true"))
    eq((code, out["loads"], out["upstream_status"], out["upstream_loads"], out["sig"]),
       (0, True, "unsigned", True, None))


def test_verify_refuses_what_is_not_a_file(ctx):
    # A missing path was answered "allowed unsigned ... -> load" under
    # CHATCLI_ALLOW_UNSIGNED_PLUGINS=true (found in a fresh-user trial).
    e = dict(CHATCLI_ALLOW_UNSIGNED_PLUGINS="true")
    code, out, err = ctx.run("verify", os.path.join(ctx.tmp, "nope"), env=e)
    eq((code, out, err), (2, "", "plugcheck verify: '%s': No such file or directory\n"
                                 "Give the plugin executable; its signature is EXE.sig.\n"
                                 % os.path.join(ctx.tmp, "nope")))
    code, out, err = ctx.run("verify", ctx.tmp, env=e)
    eq((code, err), (2, "plugcheck verify: '%s': not a regular file\n"
                        "Give the plugin executable; its signature is EXE.sig.\n" % ctx.tmp))

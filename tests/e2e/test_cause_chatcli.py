"""Issue 17, ChatCLI (spec chatcli.md X1, X3, X7, O1): `check` names the
cause behind three faults the host shows without a word - stderr lines in
the result the model reads (PC-CHAT-045), secrets from the host's whole
environment printed into the model's context (PC-CHAT-046, names only),
string parameters an argument cannot hold (PC-CHAT-047, E2BIG) - and the
reference host still does what the host does: stderr is merged, the whole
environment is passed, the exec is refused."""
import json
import os
import re

from e2e import eq

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "causes",
                   "chatcli")
SECRET = "s3cr3t-value-for-plugcheck-e2e"


def findings(d, id):
    return [f["message"] for f in d["findings"] if f["id"] == id]


def script(ctx, name, schema_line, body):
    """A shell plugin `name`: its metadata, `schema_line` for --schema,
    `body` for a call."""
    p = os.path.join(ctx.tmp, name)
    with open(p, "w") as f:
        f.write("#!/bin/sh\ncase \"$1\" in\n"
                "--metadata) echo '{\"name\":\"@%s\",\"description\":\"d\",\"usage\":\"u\","
                "\"version\":\"1\"}'; exit 0;;\n--schema) %s;;\nesac\n%s" % (name, schema_line, body))
    os.chmod(p, 0o755)
    return p


def test_stderr_lines_are_named_with_their_bytes(ctx):
    code, d = ctx.json("check", os.path.join(FIX, "stderr-debug"))
    msgs = findings(d, "PC-CHAT-045")
    eq(len(msgs), 1)
    # the lines' places depend on which pipe the host reads first (X7)
    eq(re.sub(r"line \d+:", "line N:", msgs[0]),
       'args {"cmd":"count","args":{"text":"test"}}: 2 line(s) the plugin wrote to stderr '
       "reach the model inside its result, 52 byte(s) of its context (line N: DEBUG: loading "
       "the tokenizer; line N: DEBUG: tokenizer ready)")
    # the host merges them, as before
    code, out = ctx.json("fire", "call", os.path.join(FIX, "stderr-debug"),
                         "--args", "count --text a b c")
    eq(out["output"], "DEBUG: loading the tokenizer\nDEBUG: tokenizer ready\n3\n")
    eq(out["error"], None)


def test_stderr_of_a_failed_call_is_not_reported(ctx):
    # a refusal on stderr is what the model should read
    p = script(ctx, "fails", "exit 1", "echo 'fails: no such thing' >&2\nexit 2\n")
    code, d = ctx.json("check", p)
    eq(findings(d, "PC-CHAT-045"), [])
    eq(len(findings(d, "PC-CHAT-032")), 1)


def test_secrets_printed_are_named_never_shown(ctx):
    env = {"MY_SERVICE_TOKEN": SECRET, "OPENAI_MAX_TOKENS": "4096000000"}
    code, out, err = ctx.run("check", os.path.join(FIX, "env-dump"), "--format", "json",
                             env=env)
    d = json.loads(out)
    msgs = findings(d, "PC-CHAT-046")
    eq(len(msgs), 1, out)
    names = msgs[0].split("environment: ")[1].split(" (values")[0].split(", ")
    eq("MY_SERVICE_TOKEN" in names, True, msgs[0])
    for canary in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PLUGCHECK_CANARY_SECRET"]:
        eq(canary in names, True, msgs[0])
    eq("OPENAI_MAX_TOKENS" in names, False)
    eq(SECRET in out or SECRET in err, False, "a value reached the report")
    eq("plugcheck-canary-" in out or "plugcheck-canary-" in err, False)
    eq(d["summary"]["errors"] >= 1, True)
    # the host passes its whole environment, as before
    code, out, err = ctx.run("fire", "call", os.path.join(FIX, "env-dump"), env=env)
    eq("MY_SERVICE_TOKEN=" + SECRET in out, True, out)


def test_a_string_flag_without_a_bound(ctx):
    exe = os.path.join(FIX, "long-text")
    code, d = ctx.json("lint", exe)
    msgs = findings(d, "PC-CHAT-047")
    eq(len(msgs), 1)
    want = re.compile(
        r"the schema of 'long-text' takes text of any length in --text \(summarize\): the kernel "
        r"refuses an argument of 131072 bytes or more \(MAX_ARG_STRLEN, E2BIG\), so the host's "
        r"exec fails before the plugin runs and the model gets \"falha ao iniciar plugin: "
        r"fork/exec (.*): argument list too long\"; all arguments together with the plugin's "
        r"path and the host's whole environment \(\d+ bytes now\) must also fit in ARG_MAX "
        r"\(\d+ bytes here\)$")
    m = want.match(msgs[0])
    eq(bool(m), True, msgs[0])
    eq(m.group(1), os.path.realpath(exe))
    # check calls it at the limit: the host's own refusal
    code, d = ctx.json("check", exe)
    msgs = findings(d, "PC-CHAT-047")
    eq(len(msgs), 1)
    eq(msgs[0], m.group(0) + "; plugcheck's call with a 131072-byte value got: falha ao "
       "iniciar plugin: fork/exec %s: argument list too long" % m.group(1))


def test_a_bounded_flag_is_not_reported(ctx):
    p = script(ctx, "bounded",
               "echo '{\"subcommands\":[{\"name\":\"s\",\"flags\":[{\"name\":\"--q\","
               "\"type\":\"string\",\"maxLength\":131071},{\"name\":\"--n\",\"type\":\"int\"}]}]}';"
               " exit 0", "echo ok\n")
    code, d = ctx.json("lint", p)
    eq(findings(d, "PC-CHAT-047"), [])

"""The PC-CHAT-* checks of `plugcheck check` (spec chatcli.md §15 and the
issue's check list): each check fires on a shell fixture plugin built for
it, with its id, severity, fix and rule, and stays quiet on the plugin
next to it. Output sizes are tested at N-1, N and N+1 of each O1
threshold."""
import os
import subprocess
import time

from e2e import eq

META = '{"name":"@%s","description":"d","usage":"u","version":"1"}'
SCHEMA = ('{"argsFormat":"cmd --flag","subcommands":[{"name":"run","description":"r",'
          '"flags":[{"name":"--name","type":"string","maxLength":64,"required":true}]}]}')


def plugin(ctx, name, body="echo ok", metadata=None, schema=SCHEMA, mode=0o755, raw=None):
    d = os.path.join(ctx.tmp, "plugins")
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, name)
    with open(p, "w") as f:
        if raw is not None:
            f.write(raw)
        else:
            f.write("#!/bin/sh\n"
                    f"[ \"$1\" = --metadata ] && {{ printf '%s\\n' '{metadata or META % name}'; exit 0; }}\n"
                    f"[ \"$1\" = --schema ] && {{ printf '%s' '{schema}'; exit 0; }}\n"
                    f"{body}\n")
    os.chmod(p, mode)
    return p


def env(ctx, **kw):
    e = {"HOME": os.path.join(ctx.tmp, "home"), "CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"}
    e.update(kw)
    return e


def check(ctx, path, **kw):
    code, out = ctx.json("check", path, env=env(ctx, **kw))
    return code, out


def found(out, fid):
    return [f for f in out["findings"] if f["id"] == fid]


def ids(out):
    return sorted({f["id"] for f in out["findings"]} - {"PC-CHAT-050"})


def test_every_listed_check_has_id_severity_fix_and_rule(ctx):
    code, rules = ctx.json("rules")
    rules = {r["id"]: r for r in rules}
    want = {
        "PC-CHAT-001": "M1-M4, D3", "PC-CHAT-002": "M5, S4", "PC-CHAT-003": "M6, D8",
        "PC-CHAT-004": "M6", "PC-CHAT-005": "M6", "PC-CHAT-006": "D5, DOC1",
        "PC-CHAT-007": "D7, N1", "PC-CHAT-008": "D6", "PC-CHAT-009": "M6, R2",
        "PC-CHAT-010": "M1, D4, S1", "PC-CHAT-011": "M1, D4", "PC-CHAT-012": "M1",
        "PC-CHAT-013": "M1, S1", "PC-CHAT-014": "S1", "PC-CHAT-020": "S4, DOC3",
        "PC-CHAT-021": "S2, S4", "PC-CHAT-022": "S4", "PC-CHAT-030": "A7, A11",
        "PC-CHAT-031": "A8, A11", "PC-CHAT-032": "A6", "PC-CHAT-040": "O1",
        "PC-CHAT-041": "O1", "PC-CHAT-042": "X5, X6", "PC-CHAT-043": "X6",
        "PC-CHAT-044": "X2, DOC5", "PC-CHAT-050": "G5", "PC-CHAT-051": "G3",
        "PC-CHAT-052": "G1, G5", "PC-CHAT-053": "G4, G5", "PC-CHAT-060": "P1",
        "PC-CHAT-061": "P1",
    }
    for rid, rule in want.items():
        assert rid in rules, rid
        r = rules[rid]
        eq(r["rule"], rule, rid)
        assert r["severity"] in ("error", "warning", "note"), r
        assert r["fix"] and r["title"], r


def test_metadata_fields_and_names(ctx):
    p = plugin(ctx, "bare", metadata='{"name":"@bare"}')
    code, out = check(ctx, p)
    eq(sorted(f["message"] for f in found(out, "PC-CHAT-002")),
       ["'bare --metadata' has no description", "'bare --metadata' has no usage",
        "'bare --metadata' has no version"])
    eq(found(out, "PC-CHAT-002")[0]["severity"], "warning")
    for name, fid, sev in [("mcp_tool", "PC-CHAT-004", "error"), ("@a:b", "PC-CHAT-005", "warning"),
                           ("_internal", "PC-CHAT-009", "note")]:
        p = plugin(ctx, "n", metadata='{"name":"%s","description":"d","usage":"u","version":"1"}' % name)
        code, out = check(ctx, p)
        f = found(out, fid)
        eq(len(f), 1, (name, out["findings"]))
        eq(f[0]["severity"], sev)
        eq(f[0]["file"], "n")
    eq(code, 1)
    # @mcp_x is reached by its @ form: no PC-CHAT-004
    p = plugin(ctx, "mcp", metadata=META % "mcp_x")
    code, out = check(ctx, p)
    eq(found(out, "PC-CHAT-004"), [])
    eq(ids(out), ["PC-CHAT-006"])


def test_clean_plugin_has_no_findings_but_the_signature(ctx):
    p = plugin(ctx, "clean", body='[ "$1" = run ] && echo "ran $*" || { echo usage; exit 0; }')
    code, out = check(ctx, p)
    eq(ids(out), [])
    eq(code, 1, "the missing signature is an error")
    code, out = ctx.json("check", p, "--ignore", "PC-CHAT-050", env=env(ctx))
    eq(code, 0, out)


def test_probe_hang_slow_and_nondeterminism(ctx):
    p = plugin(ctx, "hang", raw="#!/bin/sh\nsleep 60\n")
    t = time.monotonic()
    code, out = check(ctx, p)
    took = time.monotonic() - t
    eq(code, 3)
    f = found(out, "PC-CHAT-010")
    eq([x["message"] for x in f], ["'hang --metadata' did not finish within 10000 ms"])
    eq(f[0]["severity"], "error")
    assert took < 50, took  # 10 s bound, 5x margin
    p = plugin(ctx, "slow", raw="#!/bin/sh\nsleep 1.5\n"
               f"[ \"$1\" = --metadata ] && echo '{META % 'slow'}'\nexit 0\n")
    code, out = check(ctx, p)
    assert found(out, "PC-CHAT-011"), out["findings"]
    assert found(out, "PC-CHAT-011")[0]["message"].startswith("a probe of 'slow' took ")
    p = plugin(ctx, "clock", raw="#!/bin/sh\n"
               "[ \"$1\" = --metadata ] && { echo \"{\\\"name\\\":\\\"@clock\\\",\\\"description\\\":\\\"$(date +%N)\\\",\\\"usage\\\":\\\"u\\\",\\\"version\\\":\\\"1\\\"}\"; exit 0; }\n"
               "exit 1\n")
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-012")],
       ["two runs of 'clock --metadata'/'--schema' printed different output"])


def test_schema_shapes(ctx):
    p = plugin(ctx, "noschema", schema="", body='[ "$1" = --schema ] && exit 1; echo ok')
    with open(p, "w") as f:
        f.write("#!/bin/sh\n"
                f"[ \"$1\" = --metadata ] && {{ echo '{META % 'noschema'}'; exit 0; }}\n"
                "[ \"$1\" = --schema ] && exit 1\necho ok\n")
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-021")],
       ["'noschema --schema' gives no JSON (exit 1): the model sees only usage \"u\""])
    p = plugin(ctx, "snake", schema='{"args_format":"x","subcommands":[{"name":"run"}]}')
    code, out = check(ctx, p)
    eq(len(found(out, "PC-CHAT-022")), 1)
    p = plugin(ctx, "typed", schema='{"subcommands":[{"name":"run","flags":[{"name":"--n","default":5}]}]}')
    code, out = check(ctx, p)
    eq(len(found(out, "PC-CHAT-021")), 1, out["findings"])


def test_argv_the_plugin_cannot_parse(ctx):
    # a Go-flag-style plugin: flags must come first, so ["run","--name",…]
    # (both the JSON form with cmd and the text form) fails
    p = plugin(ctx, "goflag", body='case "$1" in -*) echo ok;; *) echo "flag provided but not defined: $1" >&2; exit 2;; esac')
    code, out = check(ctx, p)
    j = found(out, "PC-CHAT-030")
    t = found(out, "PC-CHAT-031")
    eq(len(j), 1, out["findings"])
    eq(len(t), 1, out["findings"])
    eq(j[0]["message"],
       'args {"cmd":"run","args":{"name":"test"}} -> plugin execution failed: exit status 2; '
       "output: flag provided but not defined: run\n")
    eq(t[0]["message"],
       "args run --name 'test' -> plugin execution failed: exit status 2; "
       "output: flag provided but not defined: run\n")
    # no schema: one call without arguments
    p = plugin(ctx, "needargs", schema="[", body='[ $# -eq 0 ] && { echo "usage"; exit 1; }; echo ok')
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-032")],
       ["args  -> plugin execution failed: exit status 1; output: usage\n"])


def sized(ctx, name, n, **kw):
    p = plugin(ctx, name, schema="", body=f"head -c {n} /dev/zero | tr '\\0' a")
    return check(ctx, p, **kw)


def test_output_thresholds_n_minus_1_n_n_plus_1(ctx):
    # O1: compression looks at outputs >= 4000 bytes, truncation cuts
    # outputs > 30000 bytes
    for n, want in [(3999, []), (4000, ["PC-CHAT-040"]), (4001, ["PC-CHAT-040"]),
                    (29999, ["PC-CHAT-040"]), (30000, ["PC-CHAT-040"]), (30001, ["PC-CHAT-041"])]:
        code, out = sized(ctx, "s%d" % n, n)
        got = [i for i in ids(out) if i in ("PC-CHAT-040", "PC-CHAT-041")]
        eq(got, want, n)
    f = found(out, "PC-CHAT-041")[0]
    eq(f["message"], "args  printed 30001 bytes: the model gets 6054 of them")
    # the threshold follows CHATCLI_COMPRESSION_THRESHOLD, off disables it
    code, out = sized(ctx, "t", 4000, CHATCLI_COMPRESSION_THRESHOLD="4001")
    eq(found(out, "PC-CHAT-040"), [])
    code, out = sized(ctx, "u", 100, CHATCLI_COMPRESSION_THRESHOLD="100")
    eq([x["message"] for x in found(out, "PC-CHAT-040")],
       ["args  printed 100 bytes, at or over the compression threshold of 100"])
    code, out = sized(ctx, "v", 5000, CHATCLI_COMPRESSION="off")
    eq(found(out, "PC-CHAT-040"), [])


def test_fire_call_thresholds(ctx):
    for n, comp, outlen in [(3999, False, 3999), (4000, True, 4000), (4001, True, 4001),
                            (29999, True, 29999), (30000, True, 30000), (30001, True, 6054)]:
        p = plugin(ctx, "f", schema="", body=f"head -c {n} /dev/zero | tr '\\0' a")
        code, out = ctx.json("fire", "call", p, "--args", "")
        eq((code, out["compression"], len(out["output"])), (0, comp, outlen), n)
    eq(out["output"][5000:5054], "\n\n... [TRUNCATED 24001 chars omitted, 6000 kept] ...\n\n")
    code, out = ctx.json("fire", "call", p, "--args", "", env={"CHATCLI_COMPRESSION": "disabled"})
    eq(out["compression"], False)
    # errors are neither compressed nor truncated
    p = plugin(ctx, "g", schema="", body="head -c 30001 /dev/zero | tr '\\0' a; exit 1")
    code, out = ctx.json("fire", "call", p, "--args", "")
    eq((code, out["compression"], len(out["output"])), (1, False, 30001))


def test_timeout_background_holder_and_leftovers(ctx):
    p = plugin(ctx, "holder", schema="", body="(sleep 3; echo late) & echo started")
    code, out = check(ctx, p, CHATCLI_AGENT_PLUGIN_TIMEOUT="1s")
    f = found(out, "PC-CHAT-042")
    eq(len(f), 1, out["findings"])
    assert f[0]["message"].startswith("args : the host would block "), f
    p = plugin(ctx, "leaver", schema="", body="sleep 30 >/dev/null 2>&1 & echo started")
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-043")], ["args  left 1 process(es)"])
    eq(found(out, "PC-CHAT-042"), [])


def test_stdin_reliance(ctx):
    p = plugin(ctx, "py", raw="#!/usr/bin/env python3\nimport sys\n"
               "if sys.argv[1:] == ['--metadata']:\n"
               "    print('{\"name\":\"@py\",\"description\":\"d\",\"usage\":\"u\",\"version\":\"1\"}'); sys.exit(0)\n"
               "if sys.argv[1:] == ['--schema']: sys.exit(1)\n"
               "print(len(sys.stdin.read()))\n")
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-044")],
       ["the script 'py' reads stdin (sys.stdin): the host connects stdin to /dev/null"])
    p = plugin(ctx, "nostdin")
    code, out = check(ctx, p)
    eq(found(out, "PC-CHAT-044"), [])


def test_signature_checks(ctx):
    p = plugin(ctx, "signed", body='echo ok')
    e = {"HOME": os.path.join(ctx.tmp, "home")}
    eq(ctx.run("keygen", env=e)[0], 0)
    key = os.path.join(ctx.tmp, "home/.chatcli/plugin-keys/plugin-signing.key")
    pub = os.path.join(ctx.tmp, "home/.chatcli/plugin-keys/plugin-signing.pub")
    eq(ctx.run("sign", p, "--key", key, env=e)[0], 0)
    code, out = ctx.json("check", p, env=e)
    eq([(x["message"], x["severity"]) for x in found(out, "PC-CHAT-053")],
       [("no trusted public keys found", "warning")])
    eq(out["host_error"], "no trusted public keys found")
    eq(ctx.run("trust", pub, env=e)[0], 0)
    code, out = ctx.json("check", p, env=e)
    eq([f["id"] for f in out["findings"] if f["id"].startswith("PC-CHAT-05")], [])
    with open(p, "a") as f:
        f.write("# changed\n")
    code, out = ctx.json("check", p, env=e)
    eq([x["message"] for x in found(out, "PC-CHAT-052")], ["plugin signature verification failed"])
    with open(p + ".sig", "w") as f:
        f.write("not base64!\n")
    code, out = ctx.json("check", p, env=e)
    eq([x["message"] for x in found(out, "PC-CHAT-051")],
       ["invalid signature encoding: illegal base64 data at input byte 3"])
    eq((code, out["loaded"], out["host_error"]),
       (1, False, "invalid signature encoding: illegal base64 data at input byte 3"))


def test_world_writable_plugin_and_directory(ctx):
    p = plugin(ctx, "open", mode=0o777)
    code, out = check(ctx, p)
    eq([x["message"] for x in found(out, "PC-CHAT-060")], ["'open' has mode 0777"])
    eq(found(out, "PC-CHAT-061"), [])
    d = os.path.dirname(p)
    os.chmod(p, 0o755)
    os.chmod(d, 0o777)
    try:
        code, out = check(ctx, d)
        eq([x["message"] for x in found(out, "PC-CHAT-061")], ["'%s' has mode 0777" % d])
        eq(found(out, "PC-CHAT-060"), [])
    finally:
        os.chmod(d, 0o755)


def test_not_loaded_is_an_error_finding(ctx):
    p = plugin(ctx, "broken", raw="#!/bin/sh\necho starting\necho '{}'\n")
    code, out = check(ctx, p)
    eq(code, 3)
    eq([x["message"] for x in found(out, "PC-CHAT-001")],
       ["the host skips 'broken': invalid character 's' looking for beginning of value"])


def test_failure_output_is_cut_on_a_character_boundary(ctx):
    # the finding quotes at most 200 bytes of output, never half a character
    p = plugin(ctx, "utf", schema="", body="printf '%199s\\303\\251tail' x; exit 1")
    code, out = check(ctx, p)
    f = found(out, "PC-CHAT-032")
    eq([x["message"] for x in f],
       ["args  -> plugin execution failed: exit status 1; output: " + " " * 198 + "x"])


def test_jobs_is_catalyst_only(ctx):
    # A fresh-user trial got getopt's "check: invalid option -- 'j'" and the
    # usage text: the ChatCLI check has no units to share out. Now it says
    # so, before any probe runs.
    marker = os.path.join(ctx.tmp, "ran-j")
    p = plugin(ctx, "jobsx", body="echo ok", raw="#!/bin/sh\ntouch %s\necho ok\n" % marker)
    want = ("plugcheck check: -j/--jobs is for Catalyst Code plugins only; '%s' is a "
            "ChatCLI plugin, whose probes and calls run one at a time; fix: drop -j\n"
            "Run `plugcheck check --help` for usage.\n" % p)
    for args in (("check", "-j", "2", p), ("check", p, "--jobs", "2"), ("check", "-j2", p),
                 ("check", "--jobs=3", "--format", "json", p), ("check", "--host", "chatcli", "-j", "2", p)):
        code, out, err = ctx.run(*args, env=env(ctx))
        eq((code, out, err), (2, "", want), args)
    assert not os.path.exists(marker), "the plugin ran"

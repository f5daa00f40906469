"""What a new user reads on the command line (issue 20): the trust hint
once in check's header, every plugin of a ChatCLI directory named, turn's
human output showing each hook's modify and whether an approval was
granted, turn --workspace that does not exist refused."""
import json
import os

from e2e import eq

HINT = ("[plugins] skipping project-scoped plugin 'g' (in \"%s\"); trust it with the plugin "
        "trust prompt (/plugin-trust), set --trust-project-plugins / "
        "CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or reinstall with `/plugin-install … workspace`")
SUDO = ("#!/bin/sh\ncat >/dev/null\n"
        "echo '{\"allow\":true,\"reason\":\"dropped sudo\",\"modify\":{\"command\":\"ls\"}}'\n")


def test_trust_hint_once_in_the_header(ctx):
    d = ctx.plugin("g", {"name": "g", "version": "1",
                         "hooks": {"pre_bash": {"script": "h.sh"}}}, {"h.sh": SUDO})
    code, out, err = ctx.run("check", d, "--repeat", "1")
    head = out.split("\n\n")[0].split("\n")
    eq(head, ["host: loaded g 1 (%s)" % d,
              "  plugin_dir: loaded",
              "  global: loaded",
              "  project: not loaded: " + HINT % d,
              "  project_trusted: loaded",
              "  project_over_global: loaded (the host logs the same line as for project)"])
    eq(out.count("/plugin-trust"), 1)
    code, rep = ctx.json("check", d, "--repeat", "1")  # the JSON keeps every detail
    eq([l["detail"] for l in rep["loads"]][-1], HINT % d)


def test_chatcli_directory_names_every_plugin(ctx):
    plugins = os.path.join(ctx.tmp, "plugins")
    os.makedirs(plugins)
    for n in ("alpha", "beta", "gamma"):
        code, out, err = ctx.run("new", n, "--host", "chatcli")
        eq(code, 0, err)
        os.rename(os.path.join(ctx.tmp, n, "bin", n), os.path.join(plugins, n))
    env = {"CHATCLI_ALLOW_UNSIGNED_PLUGINS": "true"}
    code, out, err = ctx.run("check", plugins, env=env)
    eq(out.split("\n")[:4], ["host: loaded @alpha 0.1.0, @beta 0.1.0, @gamma 0.1.0 (%s)" % plugins,
                             "  alpha: loaded", "  beta: loaded", "  gamma: loaded"])
    code, rep = ctx.json("check", plugins, env=env)
    eq([(l["as"], l["name"], l["version"]) for l in rep["loads"]],
       [("alpha", "@alpha", "0.1.0"), ("beta", "@beta", "0.1.0"), ("gamma", "@gamma", "0.1.0")])


def test_turn_shows_modify_and_approvals(ctx):
    d = ctx.plugin("g", {"name": "g", "version": "1",
                         "hooks": {"pre_bash": {"script": "h.sh", "pass_args": True}}},
                   {"h.sh": SUDO})
    script = os.path.join(ctx.tmp, "s.json")
    with open(script, "w") as f:
        json.dump({"replies": [{"tool_calls": [{"name": "bash",
                                                "arguments": {"command": "sudo ls"}}]},
                               {"content": "done"}]}, f)
    ws = os.path.join(ctx.tmp, "ws")
    os.makedirs(ws)
    code, out, err = ctx.run("turn", script, d, "--approval", "always", "--workspace", ws)
    lines = out.split("\n")
    i = lines.index("  call bash {\"command\":\"sudo ls\"}")
    eq(lines[i + 1:i + 4], ["  approval bash: granted",
                            "  hook pre_bash         g            bash       allow: dropped sudo",
                            "    modify {\"command\":\"ls\"}"])
    code, out, err = ctx.run("turn", script, d, "--approval", "always", "--deny-approvals",
                             "--workspace", ws)
    assert "  approval bash: refused (the user said no)\n" in out, out
    code, out, err = ctx.run("turn", script, d, "--workspace", os.path.join(ctx.tmp, "nope"))
    eq((code, out, err), (2, "", "plugcheck turn: --workspace: '%s' is not a directory\n"
                                 "Run `plugcheck turn --help` for usage.\n"
                          % os.path.join(ctx.tmp, "nope")))

"""plugcheck new --lang sh: next steps and CI commands pass, for each part
combination and for ChatCLI; a hostile name is quoted everywhere
(newsteps.py, issue 20)."""
import newsteps


def test_combos_sh(ctx):
    newsteps.combos(ctx, "sh")


def test_chatcli_sh(ctx):
    newsteps.chatcli(ctx, "sh")


def test_hostile_name_sh(ctx):
    newsteps.hostile(ctx, "sh")

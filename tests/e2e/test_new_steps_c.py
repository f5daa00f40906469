"""plugcheck new --lang c: next steps and CI commands pass, for each part
combination and for ChatCLI; a hostile name is quoted everywhere
(newsteps.py, issue 20)."""
import newsteps


def test_combos_c(ctx):
    newsteps.combos(ctx, "c")


def test_chatcli_c(ctx):
    newsteps.chatcli(ctx, "c")


def test_hostile_name_c(ctx):
    newsteps.hostile(ctx, "c")

"""plugcheck new --lang python: next steps and CI commands pass, for each part
combination and for ChatCLI; a hostile name is quoted everywhere
(newsteps.py, issue 20)."""
import newsteps


def test_combos_python(ctx):
    newsteps.combos(ctx, "python")


def test_chatcli_python(ctx):
    newsteps.chatcli(ctx, "python")


def test_hostile_name_python(ctx):
    newsteps.hostile(ctx, "python")

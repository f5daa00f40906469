"""plugcheck new --lang sh: every Catalyst Code template at once checks
clean and its scenarios pass; every source passes its linter or compiler
(newmatrix.py)."""
import newmatrix


def test_matrix_sh(ctx):
    newmatrix.check_and_run(ctx, "sh")


def test_lint_sh(ctx):
    newmatrix.lint(ctx, "sh")

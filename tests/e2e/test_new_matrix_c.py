"""plugcheck new --lang c: every Catalyst Code template at once checks
clean and its scenarios pass; every source passes its linter or compiler
(newmatrix.py)."""
import newmatrix


def test_matrix_c(ctx):
    newmatrix.check_and_run(ctx, "c")


def test_lint_c(ctx):
    newmatrix.lint(ctx, "c")

"""plugcheck new --lang python: every Catalyst Code template at once checks
clean and its scenarios pass; every source passes its linter or compiler
(newmatrix.py)."""
import newmatrix


def test_matrix_python(ctx):
    newmatrix.check_and_run(ctx, "python")


def test_lint_python(ctx):
    newmatrix.lint(ctx, "python")

"""Run a composite GitHub Action (action.yml) on this machine, as the runner
would, for the end-to-end tests (test_dist.py).

Action.run(inputs, ...) takes the inputs a workflow's `with:` gives, fills
in the defaults, and walks runs.steps in order: a `run:` step is run with
`bash --noprofile --norc -eo pipefail` (the runner's `shell: bash`) in the
workspace, with its `env:` after ${{ }} substitution and the runner's
files (GITHUB_OUTPUT per step, GITHUB_PATH, GITHUB_ENV); a `uses:` step is
not run, only its `if:` is evaluated and its `with:` substituted, so a
test can assert whether and with what it would have run. A step's `if:`
(default success()) is evaluated with a small evaluator of GitHub's
expression syntax: literals, context properties (inputs, steps, github,
runner, env; a missing one is null), ! == != && || (), and the status
functions; == and != compare as GitHub does (strings case-insensitively,
values of different types as numbers).
"""
import os
import re
import subprocess

import yaml


# ---- expressions ----

TOKEN = re.compile(r"""\s*(?:
    (?P<str>'(?:[^']|'')*')
  | (?P<num>-?\d+(?:\.\d+)?)
  | (?P<op>==|!=|&&|\|\||!|\(|\)|,)
  | (?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*)
)""", re.X)


def tokens(expr):
    out, i = [], 0
    expr = expr.strip()
    while i < len(expr):
        m = TOKEN.match(expr, i)
        if not m or m.end() == i:
            raise ValueError(f"cannot parse expression at {expr[i:]!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        i = m.end()
    return out


def number(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, (int, float)):
        return v
    try:
        return float(v.strip()) if v.strip() else 0
    except (ValueError, AttributeError):
        return float("nan")


def equal(a, b):
    if type(a) is type(b) or (a is None and b is None):
        if isinstance(a, str):
            return a.lower() == b.lower()
        return a == b
    return number(a) == number(b)


def truthy(v):
    return not (v is None or v is False or v == 0 or v == "")


class Expr:
    def __init__(self, expr, ctx, status):
        self.t = tokens(expr)
        self.i = 0
        self.ctx = ctx
        self.status = status

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if want and tok[1] != want:
            raise ValueError(f"expected {want!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self):
        v = self.or_()
        if self.i != len(self.t):
            raise ValueError(f"trailing tokens {self.t[self.i:]}")
        return v

    def or_(self):
        v = self.and_()
        while self.peek()[1] == "||":
            self.take()
            w = self.and_()
            v = v if truthy(v) else w
        return v

    def and_(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            w = self.cmp()
            v = w if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek()[1] in ("==", "!="):
            op = self.take()[1]
            w = self.unary()
            v = equal(v, w) if op == "==" else not equal(v, w)
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.atom()

    def atom(self):
        kind, text = self.take()
        if text == "(":
            v = self.or_()
            self.take(")")
            return v
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "num":
            return float(text) if "." in text else int(text)
        if kind != "name":
            raise ValueError(f"unexpected {text!r}")
        if text in ("true", "false"):
            return text == "true"
        if text == "null":
            return None
        if self.peek()[1] == "(":
            self.take()
            self.take(")")
            if text not in self.status:
                raise ValueError(f"unknown function {text}()")
            return self.status[text]
        v = self.ctx
        for part in text.split("."):
            v = v.get(part) if isinstance(v, dict) else None
        return v


def evaluate(expr, ctx, status=None):
    """The value of a GitHub expression (without ${{ }})."""
    return Expr(expr, ctx, status or {}).parse()


def text_of(v):
    """A value as ${{ }} puts it into a string."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def substitute(s, ctx):
    if not isinstance(s, str):
        return s
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: text_of(evaluate(m.group(1), ctx)), s)


def condition(expr, ctx, failed):
    """A step's if: -> whether it runs. As on GitHub, an if: without a
    status function is ANDed with success()."""
    expr = (expr if isinstance(expr, str) else "success()").strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2]
    status = {"success": not failed, "failure": failed, "always": True,
              "cancelled": False}
    v = evaluate(expr, ctx, status)
    if not re.search(r"\b(success|failure|always|cancelled)\(", expr):
        v = v if failed is False else False
    return truthy(v)


# ---- files the runner gives a step ----

def read_outputs(path):
    """key=value lines and key<<DELIM heredocs of a GITHUB_OUTPUT file."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^([^=<]+)<<(.+)$", line)
        if m:
            key, delim, body = m.group(1), m.group(2), []
            i += 1
            while lines[i] != delim:
                body.append(lines[i])
                i += 1
            out[key] = "\n".join(body)
        elif "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
        i += 1
    return out


class Step(dict):
    """One step's record: name, id, kind ('run' or 'uses'), ran, and for a
    run step rc, stdout, stderr, outputs; for a uses step uses and with."""


class Run:
    def __init__(self):
        self.steps = []
        self.failed = False
        self.outputs = {}
        self.path = []

    def step(self, id_or_name):
        for s in self.steps:
            if s["id"] == id_or_name or s["name"] == id_or_name:
                return s
        raise KeyError(id_or_name)


class Action:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        with open(self.path) as f:
            self.doc = yaml.safe_load(f)
        assert self.doc["runs"]["using"] == "composite", self.doc["runs"]

    def run(self, inputs, *, workspace, runner_temp, github=None, env=None,
            replace=None, stop_after=None, timeout=900):
        """Run the action; `inputs` as a workflow's with: (strings),
        `github` extra github context (action_repository, event, ...),
        `env` the job's environment on top of this process's, `replace`
        {step id: outputs} for steps not to run but to pretend ran."""
        declared = self.doc.get("inputs") or {}
        unknown = set(inputs) - set(declared)
        assert not unknown, f"inputs the action does not declare: {unknown}"
        os.makedirs(runner_temp, exist_ok=True)
        gh = {"action_path": self.dir, "workspace": workspace,
              "action_repository": "", "action_ref": "", "event": {}}
        gh.update(github or {})
        ctx = {"inputs": {}, "steps": {}, "github": gh,
               "runner": {"temp": runner_temp, "os": "Linux"}, "env": {}}
        for name, spec in declared.items():
            v = inputs[name] if name in inputs else spec.get("default", "")
            ctx["inputs"][name] = substitute(text_of(v), ctx)
        base = dict(os.environ)
        base.update({"GITHUB_ACTIONS": "true", "CI": "true",
                     "GITHUB_WORKSPACE": workspace, "RUNNER_TEMP": runner_temp,
                     "GITHUB_ACTION_PATH": self.dir})
        base.update(env or {})
        path_file = os.path.join(runner_temp, "_github_path")
        env_file = os.path.join(runner_temp, "_github_env")
        open(path_file, "w").close()
        open(env_file, "w").close()
        r = Run()
        for n, spec in enumerate(self.doc["runs"]["steps"]):
            s = Step(name=spec.get("name", f"step {n}"), id=spec.get("id", f"__{n}"),
                     kind="uses" if "uses" in spec else "run", ran=False)
            r.steps.append(s)
            if not condition(spec.get("if"), ctx, r.failed):
                ctx["steps"][s["id"]] = {"outputs": {}, "outcome": "skipped",
                                         "conclusion": "skipped"}
                continue
            s["ran"] = True
            if replace and s["id"] in replace:
                s["outputs"] = dict(replace[s["id"]])
            elif s["kind"] == "uses":
                s["uses"] = spec["uses"]
                s["with"] = {k: substitute(text_of(v), ctx)
                             for k, v in (spec.get("with") or {}).items()}
                s["outputs"] = {}
            else:
                self._run_step(spec, s, ctx, base, r, path_file, env_file, timeout)
            ctx["steps"][s["id"]] = {
                "outputs": s["outputs"],
                "outcome": "failure" if s.get("rc") else "success",
                "conclusion": "failure" if s.get("rc") else "success"}
            if s.get("rc"):
                r.failed = True
            if stop_after and s["id"] == stop_after:
                break
        for name, spec in (self.doc.get("outputs") or {}).items():
            r.outputs[name] = substitute(spec["value"], ctx)
        return r

    def _run_step(self, spec, s, ctx, base, r, path_file, env_file, timeout):
        assert spec.get("shell") == "bash", f"{s['name']}: a composite run step needs shell: bash"
        n = len(r.steps)
        script = os.path.join(base["RUNNER_TEMP"], f"_step{n}.sh")
        with open(script, "w") as f:
            f.write(substitute(spec["run"], ctx))
        out_file = os.path.join(base["RUNNER_TEMP"], f"_output{n}")
        open(out_file, "w").close()
        e = dict(base)
        e.update(read_outputs(env_file))
        if r.path:
            e["PATH"] = os.pathsep.join(reversed(r.path)) + os.pathsep + e["PATH"]
        e.update({k: substitute(text_of(v), ctx) for k, v in (spec.get("env") or {}).items()})
        e.update({"GITHUB_OUTPUT": out_file, "GITHUB_PATH": path_file,
                  "GITHUB_ENV": env_file})
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                           cwd=spec.get("working-directory") or base["GITHUB_WORKSPACE"],
                           env=e, capture_output=True, text=True, timeout=timeout)
        s.update(rc=p.returncode, stdout=p.stdout, stderr=p.stderr,
                 outputs=read_outputs(out_file))
        with open(path_file) as f:
            r.path = [l for l in f.read().split("\n") if l]

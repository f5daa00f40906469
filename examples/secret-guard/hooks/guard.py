#!/usr/bin/env python3
"""secret-guard's guard, for pre_bash and pre_tool: refuses writes to files
that hold secrets or keys (by any tool) and obviously destructive shell
commands, judging what a call does, not how it is spelled.

Commands are split as bash splits them (quotes, backslashes, $'...',
line continuations, operators, redirections), wrappers are unwrapped
(bash -c, sh -c, eval, command, env, exec, nice, sudo, xargs, ...),
~, $HOME and $PWD are expanded, options are read as getopt reads them
(bundles, long names and their unique prefixes, --), and every path is
resolved against the workspace before it is compared. What it cannot
tell (another expansion, a glob, a command substitution) it refuses
when the command could be dangerous. pre_tool sees every tool, so the
paths of patch, bulk_write, bulk_edit, rename and delete are checked too:
pre_write alone never sees them (R4.6). A command that names a secret
file at all (cat .env, cp id_rsa ...) is refused; the file tools may
read them.

Contract: read all of stdin, print one JSON object, exit 0 on every
input. `plugcheck guard pre_bash .` and `plugcheck guard pre_tool .`
search it for bypasses (docs/guard.md).
"""
import json
import os
import posixpath
import sys

HOME = os.environ.get("HOME", "")
SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
WRAPPERS = {"command", "builtin", "exec", "nohup", "time", "nice", "env", "sudo",
            "doas", "xargs", "timeout", "stdbuf", "ionice"}
SEPARATORS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until",
              "{", "}", "!"}
UNPARSED = {"for", "case", "select", "function", "coproc"}
WORDS_OF_DANGER = ("rm", "git", "chmod", "dd", "mkfs", "curl", "wget", ".env",
                   ".ssh", ".aws", "passwd", "shadow", "eval", "bash", "sh")


class Unparsable(Exception):
    pass


UNKNOWN = None  # a word whose value the guard cannot know


# ---- the shell's words ----

def ansi_c(s, i):
    """$'...' from index i (at the quote): (text, next index)."""
    out, i = [], i + 1
    esc = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b",
           "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
    while i < len(s) and s[i] != "'":
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n in esc:
                out.append(esc[n])
                i += 2
            elif n == "x":
                j = i + 2
                while j < len(s) and j < i + 4 and s[j] in "0123456789abcdefABCDEF":
                    j += 1
                out.append(chr(int(s[i + 2:j], 16)) if j > i + 2 else "\\x")
                i = j
            elif n in "01234567":
                j = i + 1
                while j < len(s) and j < i + 4 and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i + 1:j], 8)))
                i = j
            else:
                out.append("\\" + n)
                i += 2
        else:
            out.append(c)
            i += 1
    if i >= len(s):
        raise Unparsable("unterminated $'")
    return "".join(out), i + 1


def substitution(s, i, inner):
    """$( ... ) from index i (at '$'): judge the inner command; next index."""
    depth, j, q = 0, i + 1, None
    while j < len(s):
        c = s[j]
        if q:
            if c == q:
                q = None
            elif c == "\\" and q == '"':
                j += 1
        elif c in "'\"":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                inner.append(s[i + 2:j])
                return j + 1
        j += 1
    raise Unparsable("unterminated $(")


def variable(s, i, env):
    """$NAME or ${NAME} at index i: (value or UNKNOWN, next index)."""
    if s.startswith("${", i):
        j = s.find("}", i)
        if j < 0:
            raise Unparsable("unterminated ${")
        name = s[i + 2:j]
        return env.get(name, UNKNOWN), j + 1
    j = i + 1
    while j < len(s) and (s[j].isalnum() or s[j] == "_"):
        j += 1
    if j == i + 1:
        return "$", i + 1
    return env.get(s[i + 1:j], UNKNOWN), j


class Lexer:
    def __init__(self, text, env, inner):
        self.s, self.env, self.inner = text, env, inner
        self.tokens = []  # ("w", value) | ("op", text) | ("redir", target)

    def run(self):
        s, i = self.s, 0
        word, known, started = [], True, False
        redir = False

        def end():
            nonlocal word, known, started, redir
            if started:
                v = "".join(word) if known else UNKNOWN
                self.tokens.append(("redir", v) if redir else ("w", v))
                redir = False
            word, known, started = [], True, False

        while i < len(s):
            c = s[i]
            if c in " \t":
                end()
                i += 1
            elif c == "\\" and i + 1 < len(s) and s[i + 1] == "\n":
                i += 2
            elif c == "\\":
                if i + 1 >= len(s):
                    raise Unparsable("trailing backslash")
                word.append(s[i + 1])
                started = True
                i += 2
            elif c == "\n" or c in ";&|()":
                end()
                op = s[i:i + 2] if s[i:i + 2] in ("&&", "||", "|&", ";;") else c
                if op == ";;":
                    raise Unparsable("case")
                self.tokens.append(("op", "\n" if c == "\n" else op))
                i += len(op)
            elif c in "<>":
                if s.startswith("<<", i) and not s.startswith("<<<", i):
                    raise Unparsable("here-document")
                if started and not all(ch.isdigit() for ch in word):
                    end()
                word, known, started = [], True, False
                while i < len(s) and s[i] in "<>&|":
                    i += 1
                while i < len(s) and s[i] in " \t":
                    i += 1
                redir = True
            elif c == "#" and not started:
                break
            elif c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    raise Unparsable("unbalanced quote")
                word.append(s[i + 1:j])
                started = True
                i = j + 1
            elif c == '"':
                i = self.dquote(i, word)
                started = True
                if self._unknown:
                    known = False
            elif c == "$" and s.startswith("$'", i):
                v, i = ansi_c(s, i + 1)
                word.append(v)
                started = True
            elif c == "$" and s.startswith("$(", i):
                i = substitution(s, i, self.inner)
                known, started = False, True
            elif c == "$":
                v, i = variable(s, i, self.env)
                if v is UNKNOWN:
                    known = False
                else:
                    word.append(v)
                started = True
            elif c == "`":
                j = s.find("`", i + 1)
                if j < 0:
                    raise Unparsable("unbalanced backquote")
                self.inner.append(s[i + 1:j])
                known, started, i = False, True, j + 1
            elif c == "~" and not started and (i + 1 == len(s) or s[i + 1] in "/ \t\n;&|"):
                word.append(self.env.get("HOME", "~"))
                started = True
                i += 1
            elif c in "*?[{}" and not (c in "{}" and not started and
                                       (i + 1 == len(s) or s[i + 1] in " \t\n;")):
                word.append(c)
                known, started = False, True
                i += 1
            else:
                word.append(c)
                started = True
                i += 1
        end()
        return self.tokens

    _unknown = False

    def dquote(self, i, word):
        s, j = self.s, i + 1
        self._unknown = False
        while j < len(s) and s[j] != '"':
            c = s[j]
            if c == "\\" and j + 1 < len(s) and s[j + 1] in '$`"\\\n':
                if s[j + 1] != "\n":
                    word.append(s[j + 1])
                j += 2
            elif c == "$" and s.startswith("$(", j):
                j = substitution(s, j, self.inner)
                self._unknown = True
            elif c == "$":
                v, j = variable(s, j, self.env)
                if v is UNKNOWN:
                    self._unknown = True
                else:
                    word.append(v)
            elif c == "`":
                k = s.find("`", j + 1)
                if k < 0:
                    raise Unparsable("unbalanced backquote")
                self.inner.append(s[j + 1:k])
                self._unknown, j = True, k + 1
            else:
                word.append(c)
                j += 1
        if j >= len(s):
            raise Unparsable("unbalanced quote")
        return j + 1


def pipelines(tokens):
    """[[simple command, ...] per pipeline]; a simple command is
    {"words": [...], "redirs": [...]}."""
    out, pipe, cmd = [], [], {"words": [], "redirs": []}

    def close_cmd():
        nonlocal cmd
        if cmd["words"] or cmd["redirs"]:
            pipe.append(cmd)
        cmd = {"words": [], "redirs": []}

    for kind, v in tokens:
        if kind == "redir":
            cmd["redirs"].append(v)
        elif kind == "w" and not cmd["words"] and v in UNPARSED:
            raise Unparsable(v)
        elif kind == "w" and not cmd["words"] and v in SEPARATORS:
            close_cmd()
        elif kind == "w":
            cmd["words"].append(v)
        elif v in ("|", "|&"):
            close_cmd()
        else:
            close_cmd()
            if pipe:
                out.append(pipe)
            pipe = []
    close_cmd()
    if pipe:
        out.append(pipe)
    return out


# ---- paths ----

def resolve(p, ws):
    if p is UNKNOWN:
        return UNKNOWN
    full = p if p.startswith("/") else posixpath.join(ws, p)
    full = posixpath.normpath(full)
    while full.startswith("//"):
        full = full[1:]
    return full


def under(p, d):
    return p == d or p.startswith(d.rstrip("/") + "/")


SECRET_NAMES = {".env", "id_rsa", "id_ed25519", "credentials.json"}
SECRET_SUFFIXES = (".pem", ".key", ".p12")
TEMPLATES = (".env.example", ".env.sample", ".env.template")


def protected_file(p, ws):
    """Why writing (or naming in a command) resolved path `p` is refused,
    or None."""
    base = posixpath.basename(p)
    if base in SECRET_NAMES or base.endswith(SECRET_SUFFIXES) or (
            base.startswith(".env.") and base not in TEMPLATES):
        return "a file that holds secrets (%s)" % base
    if HOME and (under(p, HOME + "/.ssh") or under(p, HOME + "/.aws") or
                 p in (HOME + "/.bashrc", HOME + "/.profile")):
        return "a key, credential or start-up file in the home directory"
    if p in ("/etc/passwd", "/etc/shadow", "/etc/sudoers"):
        return "a system account file"
    if under(p, posixpath.join(ws, ".git/hooks")):
        return "a git hook (code that runs on the next commit)"
    return None


def protected_tree(p, ws):
    if p is UNKNOWN:
        return "a target the guard cannot resolve"
    if p == "/" or p.count("/") == 1:
        return "the root or a top-level directory"
    if HOME and (p == HOME or under(HOME, p)):
        return "the home directory"
    if under(ws, p):
        return "the workspace or a directory above it"
    return None


# ---- programs ----

def long_option(word, names):
    """The long option `word` (--name or --prefix) names, or None."""
    name = word[2:].split("=", 1)[0]
    if name in names:
        return name
    hits = [n for n in names if n.startswith(name)]
    return hits[0] if len(hits) == 1 else None


def getopt(words, longs, shorts_with_arg=""):
    """(set of options, operands) as GNU getopt reads them (permuting)."""
    opts, ops, i = set(), [], 0
    while i < len(words):
        w = words[i]
        if w is UNKNOWN:
            ops.append(UNKNOWN)
        elif w == "--":
            ops.extend(words[i + 1:])
            break
        elif w.startswith("--"):
            o = long_option(w, longs)
            opts.add(o or w)
        elif w.startswith("-") and len(w) > 1:
            for k, c in enumerate(w[1:]):
                opts.add(c)
                if c in shorts_with_arg:
                    if k == len(w) - 2:
                        i += 1
                    break
        else:
            ops.append(w)
        i += 1
    return opts, ops


RM_LONGS = ["force", "interactive", "one-file-system", "no-preserve-root",
            "preserve-root", "-presume-input-tty", "recursive", "dir", "verbose",
            "help", "version"]
CHMOD_LONGS = ["changes", "no-preserve-root", "preserve-root", "quiet", "silent",
               "reference", "recursive", "verbose", "help", "version"]


def judge_rm(args, ws, from_stdin):
    opts, ops = getopt(args, RM_LONGS)
    if not ({"r", "R", "recursive"} & opts):
        return None
    if from_stdin:
        return "a recursive delete of targets read from stdin"
    for t in ops:
        why = protected_tree(resolve(t, ws), ws)
        if why:
            return "a recursive delete of " + why
    return None


def judge_git(args):
    i = 0
    while i < len(args) and args[i] is not UNKNOWN and args[i].startswith("-"):
        i += 2 if args[i] in ("-C", "-c") else 1
    if i >= len(args) or args[i] is UNKNOWN:
        return "a git command the guard cannot read" if i < len(args) else None
    sub, rest = args[i], args[i + 1:]
    words = [w for w in rest if w is not UNKNOWN]
    bundles = "".join(w[1:] for w in words if w.startswith("-") and not w.startswith("--"))
    if sub == "push":
        if "--force" in words or "f" in bundles or any(w.startswith("+") for w in words):
            return "a force push"
    elif sub == "reset":
        if any(w.startswith("--") and len(w) >= 4 and "--hard".startswith(w) for w in words):
            return "a hard reset"
    elif sub == "clean":
        if "--force" in words or "f" in bundles:
            return "a forced clean of untracked files"
    return None


def judge_chmod(args, ws, from_stdin):
    opts, ops = getopt(args, CHMOD_LONGS)
    if not ({"R", "recursive"} & opts) or not ops:
        return None
    if ops[0] in ("777", "0777", "a+rwx", "ugo+rwx") or ops[0] is UNKNOWN:
        if from_stdin:
            return "a world-writable tree over targets read from stdin"
        for t in ops[1:]:
            why = protected_tree(resolve(t, ws), ws)
            if why:
                return "a world-writable tree over " + why
    return None


def unwrap(words, ws, env, from_stdin):
    """(why refused, the words of the program that runs, whether its
    operands come from stdin): shells with -c, eval and the wrappers
    (command, env, nice, sudo, xargs, ...) taken off."""
    while words:
        w0 = words[0]
        if w0 is UNKNOWN:
            return "a program the guard cannot tell"
        name = posixpath.basename(w0)
        if name == "eval":
            if UNKNOWN in words[1:]:
                return "eval of text the guard cannot tell", [], from_stdin
            return judge_command(" ".join(words[1:]), ws, env), [], from_stdin
        if name in SHELLS:
            for k, w in enumerate(words[1:], 1):
                if w is not UNKNOWN and w.startswith("-") and not w.startswith("--") and "c" in w:
                    if k + 1 >= len(words) or words[k + 1] is UNKNOWN:
                        return "a shell command the guard cannot tell", [], from_stdin
                    return judge_command(words[k + 1], ws, env), [], from_stdin
            return None, words, from_stdin
        if name not in WRAPPERS:
            break
        rest, i = words[1:], 0
        with_arg = {"nice": {"-n"}, "sudo": {"-u", "-g", "-h", "-p"},
                    "xargs": {"-I", "-n", "-P", "-d", "-L", "-a", "-s", "-E"},
                    "env": {"-u", "-C"}, "exec": {"-a"}, "ionice": {"-c", "-n"},
                    "stdbuf": {"-o", "-e", "-i"}}.get(name, set())
        while i < len(rest) and rest[i] is not UNKNOWN and (
                rest[i].startswith("-") or (name == "env" and "=" in rest[i])):
            if rest[i] in ("-v", "-V") and name == "command":
                return None, [], from_stdin
            i += 2 if rest[i] in with_arg else 1
        if name == "timeout" and i < len(rest):
            i += 1
        from_stdin = from_stdin or name == "xargs"
        words = rest[i:]
    return None, words, from_stdin


def judge_program(words, ws, from_stdin):
    """Why running program words[0] with its arguments is refused."""
    name = posixpath.basename(words[0])
    args = words[1:]
    judge = {"rm": lambda: judge_rm(args, ws, from_stdin),
             "git": lambda: judge_git(args),
             "chmod": lambda: judge_chmod(args, ws, from_stdin)}.get(name)
    why = judge() if judge else None
    if why:
        return why
    if name == "dd":
        if from_stdin:
            return "a dd whose operands are read from stdin"
        for a in args:
            if a is UNKNOWN or (a.startswith("of=") and under(resolve(a[3:], ws), "/dev")):
                return "a raw write to a device"
    if name.startswith("mkfs"):
        return "making a file system"
    for a in args:
        why = a is not UNKNOWN and protected_file(resolve(a, ws), ws)
        if why:
            return name + " of " + why
    return None


def judge_command(text, ws, env=None):
    env = env or {"HOME": HOME, "PWD": ws}
    inner = []
    try:
        tokens = Lexer(text, env, inner).run()
        pipes = pipelines(tokens)
    except Unparsable as e:
        if any(w in text for w in WORDS_OF_DANGER):
            return "a command the guard cannot parse (%s)" % e
        return None
    for sub in inner:
        why = judge_command(sub, ws, env)
        if why:
            return why
    for pipe in pipes:
        fetch = False
        for cmd in pipe:
            words = cmd["words"]
            for t in cmd["redirs"]:
                why = t is UNKNOWN or protected_file(resolve(t, ws), ws)
                if why:
                    return "a redirection to " + (why if why is not True else "an unknown file")
            why, prog, stdin = unwrap(list(words), ws, env, False)
            why = why or (prog and judge_program(prog, ws, stdin))
            if why:
                return why
            name = posixpath.basename(prog[0]) if prog and prog[0] else ""
            if name in ("curl", "wget"):
                fetch = True
            elif fetch and name in SHELLS | {"python3", "python", "perl"}:
                return "network content piped into a shell"
    return None


# ---- file tools ----

WRITERS = {"write_file", "edit", "patch", "bulk_write", "bulk_edit", "rename",
           "delete", "mkdir"}


def tool_paths(tool, args):
    if tool == "rename":
        return [args.get("from"), args.get("to")]
    if tool == "bulk_write":
        return [f.get("path") for f in args.get("files") or [] if isinstance(f, dict)]
    if tool == "bulk_edit":
        return [e.get("path") for e in args.get("edits") or [] if isinstance(e, dict)]
    if tool == "grep" and isinstance(args.get("paths"), list):
        return list(args["paths"]) + [args.get("path")]
    return [args.get("path")]


def judge_call(tool, args, ws):
    if tool == "bash":
        return judge_command(str(args.get("command", "")), ws)
    if tool == "bulk":
        for c in args.get("calls") or []:
            if isinstance(c, dict) and isinstance(c.get("args"), dict):
                why = judge_call(str(c.get("name", "")), c["args"], ws)
                if why:
                    return why
        return None
    if tool not in WRITERS:
        return None  # the file tools may read secrets; commands may not
    for p in tool_paths(tool, args):
        if isinstance(p, str) and p:
            why = protected_file(resolve(p, ws), ws)
            if why:
                return "%s of %s" % (tool, why)
    return None


def main():
    try:
        ctx = json.loads(sys.stdin.buffer.read().decode("utf-8", "replace"))
    except ValueError:
        ctx = None
    if not isinstance(ctx, dict):
        print(json.dumps({"allow": False, "reason": "secret-guard: unreadable hook input"}))
        return
    args = ctx.get("args") if isinstance(ctx.get("args"), dict) else {}
    ws = str(ctx.get("workspace") or os.getcwd())
    why = judge_call(str(ctx.get("tool", "")), args, ws)
    if why:
        print(json.dumps({"allow": False, "reason": "secret-guard: refusing " + why}))
    else:
        print(json.dumps({"allow": True}))


if __name__ == "__main__":
    main()

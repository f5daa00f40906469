#!/usr/bin/env python3
"""A shlex guard: splits the command as the shell quotes it, then looks at
the program, its short flags and its targets."""
import json
import os
import shlex
import sys

ctx = json.load(sys.stdin)
cmd = str(ctx.get("args", {}).get("command", ""))
try:
    words = shlex.split(cmd)
except ValueError:
    words = []
deny = False
if words and os.path.basename(words[0]) == "rm":
    flags = "".join(w[1:] for w in words[1:] if w.startswith("-") and not w.startswith("--"))
    targets = [w for w in words[1:] if not w.startswith("-")]
    home = os.environ.get("HOME", "~")
    deny = "r" in flags.lower() and "f" in flags and any(t in ("/", "~", home) for t in targets)
if deny:
    print(json.dumps({"allow": False, "reason": "shlex-py: refusing rm -rf of / or ~"}))
else:
    print(json.dumps({"allow": True}))

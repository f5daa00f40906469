#!/usr/bin/env python3
"""A guard that crashes on an unbalanced quote (shlex raises)."""
import json
import shlex
import sys

ctx = json.load(sys.stdin)
words = shlex.split(ctx.get("args", {}).get("command", ""))
if words[:1] == ["rm"] and "-rf" in words:
    print(json.dumps({"allow": False, "reason": "crash-quote: refusing rm -rf"}))
else:
    print(json.dumps({"allow": True}))

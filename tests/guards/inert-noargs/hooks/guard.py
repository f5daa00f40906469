#!/usr/bin/env python3
"""A guard whose manifest lacks pass_args: the host never sends args."""
import json
import sys

ctx = json.load(sys.stdin)
cmd = ctx.get("args", {}).get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"allow": False, "reason": "inert-noargs: refusing rm -rf"}))
else:
    print(json.dumps({"allow": True}))

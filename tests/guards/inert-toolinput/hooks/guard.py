#!/usr/bin/env python3
"""A guard written for another harness's hook input."""
import json
import sys

ctx = json.load(sys.stdin)
cmd = ctx.get("tool_input", {}).get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"allow": False, "reason": "inert-toolinput: refusing rm -rf"}))
else:
    print(json.dumps({"allow": True}))

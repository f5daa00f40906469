#!/usr/bin/env python3
"""pre_tool: a subagent call is audited (its task is rewritten) unless it
delegates a secret, which is refused; every other tool is allowed."""
import json
import sys

ctx = json.loads(sys.stdin.buffer.read().decode("utf-8"))
args = ctx.get("args") or {}
if ctx.get("tool") == "subagent":
    task = args.get("task", "")
    if "secret" in task:
        answer = {"allow": False, "reason": "delegating secrets is refused"}
    else:
        answer = {"allow": True, "modify": {"task": "[audited] " + task},
                  "reason": "task audited"}
else:
    answer = {"allow": True}
sys.stdout.write(json.dumps(answer) + "\n")

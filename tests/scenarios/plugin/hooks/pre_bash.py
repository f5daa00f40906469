#!/usr/bin/env python3
"""pre_bash for the scenario tests: deny rm -rf /, rewrite sudo, note the rest."""
import json
import sys

ctx = json.load(sys.stdin)
cmd = str(ctx.get("args", {}).get("command", ""))
if "rm -rf /" in cmd:
    print(json.dumps({"allow": False, "reason": "fixture: refusing rm -rf /"}))
elif cmd.startswith("sudo "):
    print(json.dumps({"allow": True, "modify": {"command": cmd[5:], "sudo": False},
                      "notify": "dropped sudo"}))
else:
    print(json.dumps({"allow": True, "status": "checked " + cmd.split(" ")[0]}))

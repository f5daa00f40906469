#!/usr/bin/env python3
"""write_note: write NAME with TEXT in the current directory (the workspace)."""
import json
import os
import sys

ctx = json.load(sys.stdin)
args = ctx.get("args", ctx)
name = os.path.basename(str(args.get("name", "")))
if not name:
    print(json.dumps({"ok": False, "output": "write_note needs a name"}))
    sys.exit(0)
with open(os.path.join(str(ctx.get("workspace", ".")), name), "w") as f:
    f.write(str(args.get("text", "")))
print(json.dumps({"ok": True, "output": "wrote " + name}))

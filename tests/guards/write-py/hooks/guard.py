#!/usr/bin/env python3
"""A pre_write guard for .env: it compares the base name of args.path."""
import json
import os
import sys

ctx = json.load(sys.stdin)
path = str(ctx.get("args", {}).get("path", ""))
if os.path.basename(path) == ".env":
    print(json.dumps({"allow": False, "reason": "write-py: refusing to write .env"}))
else:
    print(json.dumps({"allow": True}))

#!/usr/bin/env python3
"""A regex guard: one pattern for a recursive forced delete of / or ~."""
import json
import re
import sys

ctx = json.load(sys.stdin)
cmd = str(ctx.get("args", {}).get("command", ""))
if re.search(r"\brm\s+-rf\s+(/|~)", cmd):
    print(json.dumps({"allow": False, "reason": "regex-py: refusing rm -rf of / or ~"}))
else:
    print(json.dumps({"allow": True}))

#!/usr/bin/env python3
"""Tool {{NAME|py}} of {{PLUGIN|py}}.

stdin: {"args": {...}, "session_id": ..., "timestamp": ..., "workspace": ...}
stdout: one JSON object {"ok": true|false, "output": "text for the model"}.
"""
import json
import sys


def run(args):
    """Return (ok, output) for the tool-call arguments."""
    return True, "{{NAME|py}}: done"


def main():
    try:
        req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        args = req.get("args") if isinstance(req, dict) else None
        ok, output = run(args if isinstance(args, dict) else {})
    except Exception as e:
        print("{{PLUGIN|pct|py}}: {{NAME|pct|py}}: %s" % e, file=sys.stderr)
        ok, output = False, "{{NAME|py}}: could not read the tool input"
    sys.stdout.write(json.dumps({"ok": bool(ok), "output": output}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

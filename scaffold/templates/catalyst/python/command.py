#!/usr/bin/env python3
"""Slash command /{{NAME|py}} of {{PLUGIN|py}}.

stdin: {"args": "<text after the command>", "command": "{{NAME|json|py}}",
"plugin": "{{PLUGIN|json|py}}", "session_id": ..., "timestamp": ..., "workspace": ...}
stdout: one JSON object {"ok": true|false, "output": "text for the user"}.
"""
import json
import sys


def run(text):
    """Return (ok, output) for the argument text (may be empty)."""
    return True, "/{{NAME|py}}: done"


def main():
    try:
        req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        text = req.get("args") if isinstance(req, dict) else None
        ok, output = run(text if isinstance(text, str) else "")
    except Exception as e:
        print("{{PLUGIN|pct|py}}: /{{NAME|pct|py}}: %s" % e, file=sys.stderr)
        ok, output = False, "/{{NAME|py}}: could not read the command input"
    sys.stdout.write(json.dumps({"ok": bool(ok), "output": output}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

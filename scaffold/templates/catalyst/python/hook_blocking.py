#!/usr/bin/env python3
"""{{POINT|py}} hook of {{PLUGIN|py}}.

Blocking: the host denies the call when this script fails, times out or
prints anything but one JSON object. Contract: read ALL of stdin, print ONE
JSON object on stdout, diagnostics on stderr only, exit 0 on a decision.
"""
import json
import sys


def decide(ctx):
    """Return (allow, reason). ctx has hook, tool, args (the tool's
    arguments), session_id, timestamp and workspace. Always give a reason
    when refusing."""
    return True, ""


def main():
    try:
        ctx = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        if not isinstance(ctx, dict):
            raise ValueError("the hook input is not a JSON object")
        allow, reason = decide(ctx)
    except Exception as e:  # fail closed: no context, no approval
        print("{{PLUGIN|pct|py}}: {{POINT|pct|py}}: %s" % e, file=sys.stderr)
        allow, reason = False, "{{PLUGIN|py}}: could not read the hook input"
    answer = {"allow": bool(allow)}
    if reason:
        answer["reason"] = reason
    sys.stdout.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""{{POINT|py}} hook of {{PLUGIN|py}}.

Advisory: the host ignores "allow" here and skips this hook when it fails.
Contract: read ALL of stdin, print ONE JSON object on stdout, diagnostics on
stderr only, exit 0. Stay well inside the timeout.
"""
import json
import sys


def observe(ctx):
    """Look at the context (hook, tool, args, result, session_id,
    timestamp, workspace)."""


def main():
    try:
        ctx = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        if isinstance(ctx, dict):
            observe(ctx)
    except Exception as e:
        print("{{PLUGIN|pct|py}}: {{POINT|pct|py}}: %s" % e, file=sys.stderr)
    sys.stdout.write(json.dumps({"allow": True}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

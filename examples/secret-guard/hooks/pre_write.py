#!/usr/bin/env python3
"""pre_write guard: refuse writes to files that usually hold secrets.

Reads the whole context from stdin, answers with exactly one JSON object on
stdout, and exits 0 on every decision. A malformed context is denied (fail
closed): a blocking hook that crashes would deny anyway, but with a less
useful reason.
"""
import json
import os
import sys

SECRET_NAMES = {".env", "id_rsa", "id_ed25519", "credentials.json"}
SECRET_SUFFIXES = (".pem", ".key", ".p12")


def decide(ctx):
    path = str(ctx.get("args", {}).get("path", ""))
    base = os.path.basename(path)
    if base in SECRET_NAMES or base.startswith(".env.") or base.endswith(SECRET_SUFFIXES):
        return {"allow": False, "reason": f"secret-guard: refusing to write {path}"}
    return {"allow": True}


def main():
    try:
        ctx = json.load(sys.stdin)
        answer = decide(ctx if isinstance(ctx, dict) else {})
    except ValueError as exc:
        print(f"secret-guard: bad context: {exc}", file=sys.stderr)
        answer = {"allow": False, "reason": "secret-guard: unreadable context"}
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

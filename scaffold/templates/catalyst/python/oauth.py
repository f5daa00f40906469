#!/usr/bin/env python3
"""OAuth provider {{PROVIDER|py}} of {{PLUGIN|py}}.

The host runs this script with {"action": "login"|"complete"|"token"|"clear",
"provider_id", "token_path", "timestamp", "workspace", ...} on stdin and
reads one JSON object from stdout. The host never writes the token file:
this script owns it (written atomically, under a lock) and must create
its directory. Replace the placeholder endpoints with your provider's.
"""
import fcntl
import json
import os
import sys
import tempfile
import time

AUTHORIZE_URL = "https://auth.example.invalid/device"


def locked(path):
    lock = open(path + ".lock", "a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def write_token(path, token):
    """Atomic: write a temporary file next to the target, then rename."""
    d = os.path.dirname(path) or "."
    os.makedirs(d, mode=0o700, exist_ok=True)
    with locked(path):
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".token-")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(token, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise


def read_token(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def handle(req):
    action = req.get("action")
    path = req.get("token_path") or ""
    if not path:
        return {"ok": False, "error": "no token_path"}
    if action == "login":
        if read_token(path):
            return {"ok": True, "flow": "already_authenticated"}
        return {"ok": True, "flow": "manual", "url": AUTHORIZE_URL,
                "code": "ABCD-1234", "pending": {"device_code": "placeholder"},
                "message": "Open the URL, approve, then paste the code via /oauth-code."}
    if action == "complete":
        code = req.get("code") or ""
        if not code:
            return {"ok": False, "error": "no code"}
        # Exchange `code` (and req.get("pending")) for a token here.
        write_token(path, {"access_token": "placeholder-" + code,
                           "expires_at": int(time.time()) + 3600})
        return {"ok": True}
    if action == "token":
        tok = read_token(path)
        if not tok or not tok.get("access_token"):
            return {"ok": False, "error": "not logged in: run /login {{PROVIDER|py}}"}
        return {"access_token": tok["access_token"], "expires_at": tok.get("expires_at", 0)}
    if action == "clear":
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        return {"ok": True}
    return {"ok": False, "error": "unknown action: %s" % action}


def main():
    try:
        req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        answer = handle(req if isinstance(req, dict) else {})
    except Exception as e:
        print("{{PLUGIN|pct|py}}: oauth: %s" % e, file=sys.stderr)
        answer = {"ok": False, "error": "oauth script failed: %s" % e}
    sys.stdout.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Memory provider of {{PLUGIN|py}}.

The host sends {"action", "args", "session_id", "timestamp", "workspace"}
with the actions inject, save, list, forget and compact_append (plus any
action the model passes to the memory tool) and expects one JSON object:
{"ok": bool, "output"?, "injection"?, "id"?, "entries"?}. Memories are kept
in a JSON file under $HOME, rewritten atomically under a lock.
"""
import fcntl
import json
import os
import sys
import tempfile
import time

STORE = os.path.join(os.environ.get("HOME") or ".", ".config", "{{PLUGIN|py}}", "memory.json")


def load():
    try:
        with open(STORE) as f:
            data = json.load(f)
        return data if isinstance(data, list) else []
    except (OSError, ValueError):
        return []


def store(entries):
    d = os.path.dirname(STORE)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".memory-")
    with os.fdopen(fd, "w") as f:
        json.dump(entries, f)
    os.replace(tmp, STORE)


def handle(action, args):
    if action == "inject":
        entries = load()
        text = "\n".join("- %s" % e.get("content", "") for e in entries[-20:])
        return {"ok": True, "injection": text}
    if action == "list":
        return {"ok": True, "entries": load()}
    os.makedirs(os.path.dirname(STORE), mode=0o700, exist_ok=True)
    with open(STORE + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        entries = load()
        if action in ("save", "append", "compact_append"):
            content = args.get("content")
            if not isinstance(content, str) or not content:
                return {"ok": False, "output": "%s needs a content string" % action}
            name = args.get("name") if isinstance(args.get("name"), str) else ""
            if action == "compact_append":
                entries = [e for e in entries if e.get("name") != name]
                cap = args.get("cap_bytes")
                if isinstance(cap, int) and cap > 0:
                    content = content.encode("utf-8")[:cap].decode("utf-8", "ignore")
            mid = "m%d-%d" % (int(time.time() * 1000), len(entries))
            entries.append({"id": mid, "name": name, "content": content,
                            "type": args.get("type", "note")})
            store(entries)
            return {"ok": True, "id": mid, "output": "saved %s" % mid}
        if action == "forget":
            mid = args.get("id")
            kept = [e for e in entries if e.get("id") != mid]
            if len(kept) == len(entries):
                return {"ok": False, "output": "no memory '%s'" % mid}
            store(kept)
            return {"ok": True, "output": "forgot %s" % mid}
    return {"ok": False, "output": "unknown action: %s" % action}


def main():
    try:
        req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        if not isinstance(req, dict):
            raise ValueError("the input is not a JSON object")
        args = req.get("args") if isinstance(req.get("args"), dict) else {}
        answer = handle(req.get("action"), args)
    except Exception as e:
        print("{{PLUGIN|pct|py}}: memory: %s" % e, file=sys.stderr)
        answer = {"ok": False, "output": "memory provider failed: %s" % e}
    sys.stdout.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

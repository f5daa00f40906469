#!/usr/bin/env python3
"""word_count tool: {"args":{"text":...}} -> {"ok":true,"output":"N words"}."""
import json
import sys


def main():
    ctx = json.load(sys.stdin)
    text = ctx.get("args", {}).get("text")
    if not isinstance(text, str):
        json.dump({"ok": False, "output": "word_count needs a string 'text'"}, sys.stdout)
        return
    n = len(text.split())
    json.dump({"ok": True, "output": f"{n} word{'s' if n != 1 else ''}"}, sys.stdout)


if __name__ == "__main__":
    main()

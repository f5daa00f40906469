#!/bin/sh
# /guard-status: read the context, answer with one JSON object.
cat >/dev/null
printf '{"ok":true,"output":"secret-guard blocks writes to .env, keys and certificates by any tool, and destructive commands (rm -rf of / or ~, force pushes, hard resets, disk writes, curl | sh)"}\n'

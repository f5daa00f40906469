#!/bin/sh
# /guard-status: read the context, answer with one JSON object.
cat >/dev/null
printf '{"ok":true,"output":"secret-guard blocks writes to .env, keys and certificates, and rm -rf of / or ~"}\n'

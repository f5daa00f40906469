#!/bin/sh
# {{POINT}} hook of {{PLUGIN}}. Advisory: the host ignores "allow" here and
# skips this hook when it fails, so it never blocks anything.
# Contract: read ALL of stdin, print ONE JSON object on stdout, write
# diagnostics to stderr only, exit 0.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*) echo "{{PLUGIN}}: {{POINT}}: the hook input is not a JSON object" >&2 ;;
esac

# Observe here ($input is the context object); keep it well inside the
# timeout and leave no background process behind.
printf '%s\n' '{"allow":true}'

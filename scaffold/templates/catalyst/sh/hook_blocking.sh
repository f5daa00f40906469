#!/bin/sh
# {{POINT|cmt}} hook of {{PLUGIN|cmt}}. Blocking: the host denies the call when this
# script fails, times out or prints anything but one JSON object.
# Contract: read ALL of stdin, print ONE JSON object on stdout, write
# diagnostics to stderr only, exit 0 whenever a decision was made.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*)
	# Fail closed: without the context we cannot judge the call.
	printf '%s\n' "{{PLUGIN|dq}}: {{POINT|dq}}: the hook input is not a JSON object" >&2
	printf '%s\n' '{"allow":false,"reason":"{{PLUGIN|json|sq}}: could not read the hook input"}'
	exit 0
	;;
esac

# Decide here. $input is one JSON object with hook, tool, args (the tool's
# arguments), session_id, timestamp and workspace. To refuse, print
# {"allow":false,"reason":"why"}; always give a reason.
printf '%s\n' '{"allow":true}'

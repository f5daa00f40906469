#!/bin/sh
# Tool {{NAME|cmt}} of {{PLUGIN|cmt}}. stdin: {"args":{...},"session_id":...,
# "timestamp":...,"workspace":...}. stdout: one JSON object
# {"ok":true|false,"output":"text for the model"}. Diagnostics on stderr.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*)
	printf '%s\n' "{{PLUGIN|dq}}: {{NAME|dq}}: the tool input is not a JSON object" >&2
	printf '%s\n' '{"ok":false,"output":"{{NAME|json|sq}}: could not read the tool input"}'
	exit 0
	;;
esac

printf '%s\n' '{"ok":true,"output":"{{NAME|json|sq}}: done"}'

#!/bin/sh
# Slash command /{{NAME|cmt}} of {{PLUGIN|cmt}}. stdin: {"args":"<text after the
# command>","command":"{{NAME|cmt}}","plugin":"{{PLUGIN|cmt}}","session_id":...,
# "timestamp":...,"workspace":...}. stdout: one JSON object
# {"ok":true|false,"output":"text shown to the user"}.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*)
	printf '%s\n' "{{PLUGIN|dq}}: /{{NAME|dq}}: the command input is not a JSON object" >&2
	printf '%s\n' '{"ok":false,"output":"/{{NAME|json|sq}}: could not read the command input"}'
	exit 0
	;;
esac

printf '%s\n' '{"ok":true,"output":"/{{NAME|json|sq}}: done"}'

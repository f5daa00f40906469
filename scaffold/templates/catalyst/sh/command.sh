#!/bin/sh
# Slash command /{{NAME}} of {{PLUGIN}}. stdin: {"args":"<text after the
# command>","command":"{{NAME}}","plugin":"{{PLUGIN}}","session_id":...,
# "timestamp":...,"workspace":...}. stdout: one JSON object
# {"ok":true|false,"output":"text shown to the user"}.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*)
	echo "{{PLUGIN}}: /{{NAME}}: the command input is not a JSON object" >&2
	printf '%s\n' '{"ok":false,"output":"/{{NAME}}: could not read the command input"}'
	exit 0
	;;
esac

printf '%s\n' '{"ok":true,"output":"/{{NAME}}: done"}'

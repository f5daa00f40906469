#!/bin/sh
# Tool {{NAME}} of {{PLUGIN}}. stdin: {"args":{...},"session_id":...,
# "timestamp":...,"workspace":...}. stdout: one JSON object
# {"ok":true|false,"output":"text for the model"}. Diagnostics on stderr.
set -u

input=$(cat) || input=""
case $input in
'{'*'}') ;;
*)
	echo "{{PLUGIN}}: {{NAME}}: the tool input is not a JSON object" >&2
	printf '%s\n' '{"ok":false,"output":"{{NAME}}: could not read the tool input"}'
	exit 0
	;;
esac

printf '%s\n' '{"ok":true,"output":"{{NAME}}: done"}'

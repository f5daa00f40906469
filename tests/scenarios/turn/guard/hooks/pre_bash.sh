#!/bin/sh
# pre_bash: drop a leading sudo.
cmd=$(sed -n 's/.*"command" *: *"\([^"]*\)".*/\1/p')
case "$cmd" in
"sudo "*) echo "{\"allow\": true, \"modify\": {\"command\": \"${cmd#sudo }\"}}" ;;
*) echo '{"allow": true}' ;;
esac

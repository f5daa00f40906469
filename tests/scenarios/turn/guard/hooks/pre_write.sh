#!/bin/sh
# pre_write: deny paths naming a secret, redirect *.tmp to *.txt.
path=$(sed -n 's/.*"path" *: *"\([^"]*\)".*/\1/p')
case "$path" in
*secret*) echo '{"allow": false, "reason": "guard: no secrets"}' ;;
*.tmp) echo "{\"allow\": true, \"reason\": \"renamed\", \"modify\": {\"path\": \"${path%.tmp}.txt\"}}" ;;
*) echo '{"allow": true}' ;;
esac

#!/bin/sh
# pre_bash: no rm, in the main agent and in subagents alike.
case "$(cat)" in
*'"command":"rm '*) echo '{"allow": false, "reason": "delegation: no rm"}' ;;
*) echo '{"allow": true}' ;;
esac

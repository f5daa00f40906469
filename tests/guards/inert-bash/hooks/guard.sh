#!/bin/sh
# A pre_tool guard that names the shell tool as another harness does.
ctx=$(cat)
case "$ctx" in
*'"tool":"Bash"'*'rm -rf'*)
	printf '{"allow":false,"reason":"inert-bash: refusing rm -rf"}\n'
	;;
*)
	printf '{"allow":true}\n'
	;;
esac

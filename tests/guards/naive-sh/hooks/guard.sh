#!/bin/sh
# A naive substring guard: it looks for the text of the commands it fears
# anywhere in the hook input.
ctx=$(cat)
case "$ctx" in
*'rm -rf /'* | *'rm -rf ~'*)
	printf '{"allow":false,"reason":"naive-sh: refusing rm -rf of / or ~"}\n'
	;;
*)
	printf '{"allow":true}\n'
	;;
esac

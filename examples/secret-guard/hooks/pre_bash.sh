#!/bin/sh
# pre_bash guard: refuse recursive deletes of / or ~. Reads all of stdin
# first, prints one JSON object, exits 0.
ctx=$(cat)
case "$ctx" in
*'rm -rf /"'* | *'rm -rf / '* | *'rm -rf ~'* | *'rm -rf /*'*)
	printf '{"allow":false,"reason":"secret-guard: refusing a recursive delete of / or ~"}\n'
	;;
*)
	printf '{"allow":true}\n'
	;;
esac

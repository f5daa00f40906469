#!/bin/sh
# A guard that "denies" by failing: exit 1 and no answer.
ctx=$(cat)
case "$ctx" in
*'rm -rf'*)
	echo "exit1: refusing rm -rf" >&2
	exit 1
	;;
esac
printf '{"allow":true}\n'

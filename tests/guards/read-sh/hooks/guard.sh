#!/bin/sh
# A pre_read guard for .env that matches the path as written.
ctx=$(cat)
case "$ctx" in
*'"path":".env"'*)
	printf '{"allow":false,"reason":"read-sh: refusing to read .env"}\n'
	;;
*)
	printf '{"allow":true}\n'
	;;
esac

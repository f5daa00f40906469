#!/bin/sh
# Tests of the ChatCLI plugin @{{PLUGIN|cmt}}, through plugcheck's reference
# host (plugcheck's scenario files are for Catalyst Code plugins; a ChatCLI
# plugin is tested with `plugcheck check` and `plugcheck fire call`).
#
# usage: sh tests/run.sh          (after `make` for a C plugin)
#   PLUGCHECK=/path/to/plugcheck  the binary to use (default: plugcheck)
#   PLUGCHECK_JUNIT=FILE          also write the check's JUnit report
#   PLUGCHECK_CHECK_ARGS='...'    more options for `plugcheck check`, such
#                                 as --ignore PC-CHAT-011 on a machine so
#                                 loaded that starting python3 takes 1 s
#
# ChatCLI loads only signed plugins (unless CHATCLI_ALLOW_UNSIGNED_PLUGINS
# is true), so this signs a copy with a throwaway key in a temporary
# directory and trusts that key for the check. Release signing is
# separate: see the README.
set -u

PLUGCHECK=${PLUGCHECK:-plugcheck}
root=$(cd "$(dirname "$0")/.." && pwd) || exit 1
plugin=$root/bin/{{PLUGIN|sh}}
failed=0

if [ ! -x "$plugin" ]; then
	echo "tests/run.sh: $plugin is missing or not executable (run make first for a C plugin)" >&2
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/plugins" && cp "$plugin" "$tmp/plugins/{{PLUGIN|dq}}" || exit 1
"$PLUGCHECK" keygen --output "$tmp/keys" >/dev/null &&
	"$PLUGCHECK" sign "$tmp/plugins/{{PLUGIN|dq}}" --key "$tmp/keys/plugin-signing.key" >/dev/null &&
	"$PLUGCHECK" trust "$tmp/keys/plugin-signing.pub" --trusted-keys "$tmp/trusted" >/dev/null ||
	exit 1

# The host's whole view: signature, --metadata, --schema, calls built from
# the schema. --strict: a warning fails too.
# shellcheck disable=SC2086 # PLUGCHECK_CHECK_ARGS is a list of words
if [ -n "${PLUGCHECK_JUNIT:-}" ]; then
	"$PLUGCHECK" check "$tmp/plugins/{{PLUGIN|dq}}" --trusted-keys "$tmp/trusted" \
		--strict ${PLUGCHECK_CHECK_ARGS:-} --format junit --output "$PLUGCHECK_JUNIT" || failed=1
else
	"$PLUGCHECK" check "$tmp/plugins/{{PLUGIN|dq}}" --trusted-keys "$tmp/trusted" \
		--strict ${PLUGCHECK_CHECK_ARGS:-} || failed=1
fi

# call ARGS WANT_EXIT LINE...: fire one call with the model's args text;
# the exit status and every expected line of what the model receives must
# match.
call() {
	args=$1 want=$2
	shift 2
	out=$("$PLUGCHECK" fire call "$tmp/plugins/{{PLUGIN|dq}}" --args "$args" \
		--workspace "$tmp" 2>/dev/null)
	got=$?
	if [ "$got" != "$want" ]; then
		printf 'FAIL %s: exit %s, wanted %s\n%s\n' "$args" "$got" "$want" "$out"
		failed=1
		return
	fi
	for line in "$@"; do
		if ! printf '%s\n' "$out" | grep -qxF -- "$line"; then
			printf 'FAIL %s: no line "%s" in:\n%s\n' "$args" "$line" "$out"
			failed=1
			return
		fi
	done
	printf 'ok   %s\n' "$args"
}

call '{"cmd":"echo","args":{"text":"hello world","upper":true,"repeat":2}}' 0 \
	'HELLO WORLD'
call "echo --text 'hello world' again" 0 'hello world again'
call '{"cmd":"echo","args":{"text":"--not-a-flag","repeat":1e6}}' 1 \
	'@{{PLUGIN|sq}}: echo: --repeat must be 1 to 100'
call '{"cmd":"list","args":{"item":["first","second one"],"nothing":null}}' 0 \
	'- first' '- second one'
call 'list --item=a b' 0 '- a' '- b'
call '{"text":"no cmd"}' 1 \
	'@{{PLUGIN|sq}}: one JSON argument without "cmd": call {"cmd":"echo","args":{"text":"..."}} or: echo --text "..."'
call 'echo --text x --repeat' 1 '@{{PLUGIN|sq}}: echo: --repeat needs a value'
call 'frobnicate' 1 "@{{PLUGIN|dq}}: unknown subcommand 'frobnicate'"

if [ "$failed" = 0 ]; then
	echo "tests/run.sh: all passed"
else
	echo "tests/run.sh: FAILED" >&2
fi
exit "$failed"

#!/bin/sh
# OAuth provider {{PROVIDER|cmt}} of {{PLUGIN|cmt}}.
#
# The host runs this script with {"action": "login"|"complete"|"token"|
# "clear", "provider_id", "token_path", "timestamp", "workspace", ...} on
# stdin and reads one JSON object from stdout. The host never writes the
# token file: this script owns it (written atomically under a lock) and
# creates its directory. Replace the placeholder endpoint and the token
# exchange with your provider's.
set -u
umask 077

AUTHORIZE_URL='https://auth.example.invalid/device'

{{JSON_SH}}
answer() {
	printf '%s\n' "$1"
	exit 0
}

fail() {
	printf '%s\n' "{{PLUGIN|dq}}: oauth: $1" >&2
	answer "{\"ok\":false,\"error\":$(json_str "$1")}"
}

# lock DIR: take the lock DIR (mkdir is atomic), waiting up to 5 s. A
# lock older than a minute was left by a killed run and is broken.
lock() {
	tries=0
	until mkdir "$1" 2>/dev/null; do
		if [ -n "$(find "$1" -maxdepth 0 -type d -mmin +1 2>/dev/null)" ]; then
			rmdir "$1" 2>/dev/null
		fi
		tries=$((tries + 1))
		[ "$tries" -lt 50 ] || return 1
		sleep 0.1
	done
}

# Atomic: write a temporary file next to the target, then rename it.
write_token() {
	tmp=$(mktemp "$dir/.token-XXXXXX") || return 1
	if printf '%s\n' "$1" >"$tmp" && mv -f "$tmp" "$path"; then
		return 0
	fi
	rm -f "$tmp"
	return 1
}

input=$(cat) || input=''
case $input in
'{'*'}') ;;
*) fail 'the input is not a JSON object' ;;
esac
action=$(printf '%s' "$input" | json_get action) || action=''
path=$(printf '%s' "$input" | json_get token_path) || path=''
[ -n "$path" ] || fail 'no token_path'
dir=$(dirname "$path")

token=''
if [ -f "$path" ]; then
	token=$(json_get access_token <"$path") || token=''
fi

case $action in
login)
	[ -z "$token" ] || answer '{"ok":true,"flow":"already_authenticated"}'
	answer "{\"ok\":true,\"flow\":\"manual\",\"url\":\"$AUTHORIZE_URL\",\"code\":\"ABCD-1234\",\"pending\":{\"device_code\":\"placeholder\"},\"message\":\"Open the URL, approve, then paste the code via /oauth-code.\"}"
	;;
complete)
	code=$(printf '%s' "$input" | json_get code) || code=''
	[ -n "$code" ] || fail 'no code'
	# Exchange $code (and the "pending" value) for a token here.
	expires=$(($(date +%s) + 3600))
	mkdir -p "$dir" || fail "cannot create $dir"
	lock "$path.lockdir" || fail "cannot take the lock $path.lockdir"
	trap 'rmdir "$path.lockdir"' EXIT
	write_token "{\"access_token\":$(json_str "placeholder-$code"),\"expires_at\":$expires}" ||
		fail "cannot write $path"
	answer '{"ok":true}'
	;;
token)
	[ -n "$token" ] || fail 'not logged in: run /login {{PROVIDER|sq}}'
	expires=$(json_get expires_at <"$path") || expires=0
	case $expires in
	'' | *[!0-9]*) expires=0 ;;
	esac
	answer "{\"access_token\":$(json_str "$token"),\"expires_at\":$expires}"
	;;
clear)
	rm -f "$path" || fail "cannot remove $path"
	answer '{"ok":true}'
	;;
*) fail "unknown action: $action" ;;
esac

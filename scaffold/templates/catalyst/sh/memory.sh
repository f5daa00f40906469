#!/bin/sh
# Memory provider of {{PLUGIN|cmt}}.
#
# The host sends {"action","args","session_id","timestamp","workspace"} with
# the actions inject, save, list, forget and compact_append, plus whatever
# action the model passes to its memory tool, and expects one JSON object
# {"ok": bool, "output"?, "injection"?, "id"?, "entries"?}. Memories are
# files under $HOME/.config/{{PLUGIN|cmt}}/memory (one JSON object each),
# written atomically while holding a lock (the directory memory.lockdir).
set -u
umask 077

store=${HOME:-.}/.config/{{PLUGIN|sh}}/memory

{{JSON_SH}}
answer() {
	printf '%s\n' "$1"
	exit 0
}

fail() {
	printf '%s\n' "{{PLUGIN|dq}}: memory: $1" >&2
	answer "{\"ok\":false,\"output\":$(json_str "$1")}"
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

arg() {
	printf '%s' "$input" | json_get "$1"
}

# save NAME CONTENT TYPE: one more memory, its id in $id: m + a counter
# kept in .seq, so ids sort in saving order and are never reused.
save() {
	seq=$(cat "$store/.seq" 2>/dev/null) || seq=0
	case $seq in
	'' | *[!0-9]*) seq=0 ;;
	esac
	seq=$((seq + 1))
	printf '%s\n' "$seq" >"$store/.seq" || return 1
	id=$(printf 'm%08d' "$seq")
	tmp=$(mktemp "$store/.new-XXXXXX") || return 1
	if printf '{"id":"%s","name":%s,"type":%s,"content":%s}\n' "$id" \
		"$(json_str "$1")" "$(json_str "$3")" "$(json_str "$2")" >"$tmp" &&
		mv -f "$tmp" "$store/$id.json"; then
		return 0
	fi
	rm -f "$tmp"
	return 1
}

# drop_named NAME: forget every memory called NAME (compact_append
# replaces the previous session extract).
drop_named() {
	for f in "$store"/m*.json; do
		[ -f "$f" ] || continue
		if [ "$(json_get name <"$f")" = "$1" ]; then
			rm -f "$f" || return 1
		fi
	done
}

input=$(cat) || input=''
case $input in
'{'*'}') ;;
*) fail 'the input is not a JSON object' ;;
esac
action=$(arg action) || action=''
mkdir -p "$store" || fail "cannot create $store"

case $action in
inject)
	text=''
	for f in "$store"/m*.json; do
		[ -f "$f" ] || continue
		line="- $(json_get content <"$f")"
		text=${text:+$text
}$line
	done
	answer "{\"ok\":true,\"injection\":$(json_str "$text")}"
	;;
list)
	entries=''
	for f in "$store"/m*.json; do
		[ -f "$f" ] || continue
		entries=${entries:+$entries,}$(cat "$f")
	done
	answer "{\"ok\":true,\"entries\":[$entries]}"
	;;
save | append | compact_append)
	content=$(arg content) || content=''
	[ -n "$content" ] || fail "$action needs a content string"
	name=$(arg name) || name=''
	type=$(arg type) || type='note'
	if [ "$action" = compact_append ]; then
		cap=$(arg cap_bytes) || cap=0
		case $cap in
		'' | *[!0-9]*) cap=0 ;;
		esac
		if [ "$cap" -gt 0 ]; then
			content=$(printf '%s' "$content" | head -c "$cap")
		fi
	fi
	lock "$store.lockdir" || fail "cannot take the lock $store.lockdir"
	trap 'rmdir "$store.lockdir"' EXIT
	if [ "$action" = compact_append ]; then
		drop_named "$name" || fail 'cannot drop the previous extract'
	fi
	save "$name" "$content" "$type" || fail "cannot write to $store"
	answer "{\"ok\":true,\"id\":\"$id\",\"output\":\"saved $id\"}"
	;;
forget)
	id=$(arg id) || id=''
	case $id in
	m*[!0-9]* | m) fail "no memory '$id'" ;;
	m*) ;;
	*) fail "no memory '$id'" ;;
	esac
	[ -f "$store/$id.json" ] || fail "no memory '$id'"
	lock "$store.lockdir" || fail "cannot take the lock $store.lockdir"
	trap 'rmdir "$store.lockdir"' EXIT
	rm -f "$store/$id.json" || fail "cannot remove $id"
	answer "{\"ok\":true,\"output\":\"forgot $id\"}"
	;;
*) fail "unknown action: $action" ;;
esac

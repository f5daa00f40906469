#!/bin/sh
# tools/check-banned.sh - STYLE §H 48: report every call of a banned
# function in plugcheck's C sources as "file:line: banned NAME()", and
# exit 1 if there is any. Names match whole words only (strtok_r, snprintf
# and cJSON_GetObjectItemCaseSensitive are fine); lines that are comments
# are skipped. signal/alarm/sleep are banned inside host/ only.
cd "$(dirname "$0")/.." || exit 2

everywhere='gets|strcpy|strcat|sprintf|vsprintf|strtok|atoi|atol|atof'
everywhere="$everywhere|system|popen|tmpnam|tempnam|mktemp"
everywhere="$everywhere|cJSON_GetObjectItem|cJSON_GetErrorPtr"
host_only='signal|alarm|sleep'

# scan PATTERN DIR... - print the hits of PATTERN( in the C files of DIRs.
scan() {
	pat=$1
	shift
	grep -rnE --include='*.c' --include='*.h' \
		"\\b($pat)[[:space:]]*\\(" "$@" 2>/dev/null |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)' |
		sed -E "s/^([^:]+:[0-9]+):.*\\b($pat)[[:space:]]*\\(.*/\\1: banned \\2()/"
}

dirs=
for d in host conformance mock-model scaffold tests bench; do
	[ -d "$d" ] && dirs="$dirs $d"
done
# shellcheck disable=SC2086 # $dirs is a list of plain folder names
hits=$({ scan "$everywhere" $dirs; [ -d host ] && scan "$host_only" host; } |
	sort -t: -k1,1 -k2,2n)
[ -z "$hits" ] && exit 0
printf '%s\n' "$hits"
exit 1

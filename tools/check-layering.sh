#!/bin/sh
# tools/check-layering.sh - STYLE §I: includes go one way only.
#   host/base (0) <- host (1) <- conformance/{lint,report,schema,suite} (2)
#   <- conformance/cli (3); tests/ and bench/ may include any public header.
#   scaffold/ (1) takes host/base only, and only conformance/cli includes it.
#   host/chatcli ranks with host but takes only pc_proc.h from host/, and
#   host/ never includes it. host/sandbox (plugcheck's own sandbox) ranks
#   with host too, and host/ never includes it: the host knows it only
#   through host/pc_confine.h. mock-model ranks with host but includes only
#   host/base headers and its own, and host/ never includes it.
# A folder may include headers of its own rank or lower; a *_impl.h only
# from its own folder (tests excepted: white-box unit tests); host/ never
# includes libyaml or PCRE2 (PCRE2 only in host/base/pc_match.c).
# Prints "file:line: reason" per violation; exit 1 if any.
cd "$(dirname "$0")/.." || exit 2

headers=$(find host conformance mock-model scaffold -name '*.h' 2>/dev/null | sort)
files=$(find host conformance mock-model scaffold tests bench -name '*.[ch]' 2>/dev/null | sort)
[ -z "$files" ] && exit 0
# shellcheck disable=SC2086 # the file names have no spaces
awk -v headers="$headers" '
function rank(d) {
	if (d == "host/base") return 0
	if (d == "host" || d == "host/chatcli" || d == "host/sandbox" ||
	    d == "mock-model") return 1
	if (d == "scaffold") return 1
	if (d == "conformance/cli") return 3
	if (d ~ /^conformance\//) return 2
	if (d ~ /^(tests|bench)(\/|$)/) return 9
	return 99
}
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p }
BEGIN {
	n = split(headers, h, "\n")
	for (i = 1; i <= n; i++) {
		b = h[i]; sub(/.*\//, "", b)
		if (!(b in where)) where[b] = dirname(h[i])
		have[h[i]] = 1
	}
}
/^#[ \t]*include[ \t]*[<"]/ {
	dir = dirname(FILENAME)
	inc = $0; sub(/^[^<"]*[<"]/, "", inc); sub(/[>"].*$/, "", inc)
	if ($0 ~ /</) {
		if (inc ~ /^(yaml|pcre2)\.h$/ && dir ~ /^host/ &&
		    FILENAME != "host/base/pc_match.c") {
			printf "%s:%d: host/ must not include <%s>\n", FILENAME, FNR, inc
			bad = 1
		}
		next
	}
	hdir = ((dir "/" inc) in have) ? dir : where[inc]
	if (hdir == "" || hdir == dir) next
	if ((dir == "host/chatcli" && hdir == "host" && inc != "pc_proc.h") ||
	    (dir == "host" && hdir == "host/chatcli")) {
		printf "%s:%d: host/chatcli shares only pc_proc.h with host/, not \"%s\"\n", FILENAME, FNR, inc
		bad = 1
	} else if (dir ~ /^host(\/chatcli)?$/ && hdir == "host/sandbox") {
		printf "%s:%d: %s knows the sandbox only through pc_confine.h, not \"%s\"\n", FILENAME, FNR, dir, inc
		bad = 1
	} else if (dir == "mock-model" && hdir != "host/base") {
		printf "%s:%d: mock-model includes only host/base headers and its own, not \"%s\" (%s)\n", FILENAME, FNR, inc, hdir
		bad = 1
	} else if (dir ~ /^host(\/|$)/ && hdir == "mock-model") {
		printf "%s:%d: host/ must not include \"%s\" (mock-model)\n", FILENAME, FNR, inc
		bad = 1
	} else if ((dir == "scaffold" && hdir != "host/base") ||
		   (hdir == "scaffold" && dir != "conformance/cli" && rank(dir) != 9)) {
		printf "%s:%d: scaffold/ links pc_base only: \"%s\" (%s)\n", FILENAME, FNR, inc, hdir
		bad = 1
	} else if (rank(hdir) > rank(dir)) {
		printf "%s:%d: %s must not include \"%s\" (%s)\n", FILENAME, FNR, dir, inc, hdir
		bad = 1
	} else if (inc ~ /_impl\.h$/ && rank(dir) != 9) {
		printf "%s:%d: \"%s\" is private to %s\n", FILENAME, FNR, inc, hdir
		bad = 1
	}
}
END { exit bad }
' $files

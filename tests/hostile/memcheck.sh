#!/bin/sh
# tests/hostile/memcheck.sh [PLUGCHECK] - valgrind memcheck of plugcheck on
# a subset of the hostile corpus (tests/hostile/README.md). PLUGCHECK is a
# build without sanitizers (default build/dev/plugcheck; valgrind cannot
# run an ASan binary). Only plugcheck is checked: the plugins it starts
# are not traced (--trace-children=no).
#
# Runs `plugcheck fire` on process-level and answer-level plugins and
# `plugcheck check --repeat 1` / `lint` on a few, one after the other.
# Prints one line per run; exits 1 when memcheck reports any error or a
# definite or indirect leak (logs kept in the printed directory), 0 when
# every run is clean. Valgrind 3.19 does not know pidfd_open (syscall
# 434) and warns about it ("--PID-- WARNING: unhandled ... syscall: 434");
# pc_proc then sweeps through its /proc scan instead of the pidfd fast
# path. Such warnings are not errors; memcheck's errors are "==PID==" lines.
set -eu
cd "$(dirname "$0")/../.."
pc=${1:-build/dev/plugcheck}
h=tests/hostile
tmp=$(mktemp -d)
python3 -c 'import json; print(json.dumps({"path": "a.txt", "content": "x" * 900 * 1024}))' >"$tmp/write.json"
bad=0
n=0

run() {
	name=$1
	shift
	n=$((n + 1))
	st=0
	valgrind -q --tool=memcheck --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--trace-children=no --log-file="$tmp/$name.vg" \
		"$pc" "$@" >"$tmp/$name.out" 2>&1 || st=$?
	if [ "$st" -eq 99 ] || grep -q '^==' "$tmp/$name.vg"; then
		echo "memcheck: $name: ERRORS (exit $st, see $tmp/$name.vg)"
		bad=$((bad + 1))
	else
		echo "memcheck: $name: clean (plugcheck exit $st)"
	fi
}

for p in flood-stdout child-holds-stdout never-exits crash-segv nul-bytes \
	invalid-utf8 deep-nesting number-1e999 huge-string duplicate-keys \
	lone-surrogate bom second-document ignores-sigterm fork-storm \
	setsid-escapee; do
	run "fire-$p" fire pre_bash "$h/$p" --format json
done
run fire-exits-before-stdin fire pre_write "$h/exits-before-stdin" \
	--args-file "$tmp/write.json" --format json
run fire-tool-flood fire tool:flood "$h/tool-flood" --args '{}'
run fire-memory-never-exits fire memory:inject "$h/memory-never-exits"
for p in never-exits deep-nesting child-holds-stdout; do
	run "check-$p" check "$h/$p" --repeat 1 --format json \
		--output "$tmp/check-$p.json"
done
run lint-manifest-deep lint "$h/manifest-deep"
run lint-manifest-nul lint "$h/manifest-nul"

echo "memcheck: $n runs, $bad with errors"
if [ "$bad" -eq 0 ]; then
	rm -rf "$tmp"
	exit 0
fi
echo "memcheck: logs in $tmp"
exit 1

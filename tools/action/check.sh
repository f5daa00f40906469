#!/bin/bash
# tools/action/check.sh - action.yml's "Check the plugin" step.
#
# Runs `plugcheck check PATH` once per report format of PC_FORMAT (space-
# or comma-separated), each report written to PC_REPORTS/plugcheck.EXT
# (sarif: .sarif, junit: .xml, human: .txt, any other: .FORMAT) except
# github, whose workflow commands (annotations) go to the log. The first
# run's standard output (the human summary) is printed, later ones' only
# for github. An empty PC_FORMAT is one run in plugcheck's default format,
# printed; an empty PC_PATH runs nothing (the action only installs). The
# exit status is the first run's, or the first non-zero one
# after it (no failure is hidden); it is written as the output exit-code,
# with sarif, junit (the report paths) and reports (the directory, when a
# file was written), and this step exits 0 so the uploads run first; the
# action's last step fails the job.
#
# Environment (from action.yml): PC_BIN (the install step's bin), PC_PATH,
# PC_FORMAT, PC_STRICT and PC_SANDBOX ("true" or "false"), PC_ARGS (more
# arguments, split into words as the shell does, without globbing),
# PC_REPORTS (default $RUNNER_TEMP/plugcheck-reports), GITHUB_OUTPUT.
set -euo pipefail

fail() {
	echo "::error title=plugcheck action::$*"
	exit 2
}

for b in strict:"$PC_STRICT" sandbox:"$PC_SANDBOX"; do
	case ${b#*:} in
	true | false) ;;
	*) fail "input ${b%%:*} must be true or false, not '${b#*:}'" ;;
	esac
done

if [ -z "$PC_PATH" ]; then
	echo "plugcheck action: input path is empty: plugcheck is installed, nothing is checked"
	printf '%s\n' exit-code=0 sarif= junit= reports= >>"$GITHUB_OUTPUT"
	exit 0
fi
argv=(check "$PC_PATH")
[ "$PC_STRICT" = true ] && argv+=(--strict)
if [ "$PC_SANDBOX" = true ]; then
	argv+=(--sandbox)
	# Ubuntu 24.04 lets no unprivileged process create user namespaces
	# (AppArmor); bubblewrap needs them. The runner is a throwaway VM.
	f=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
	if [ "$(id -u)" -ne 0 ] && [ -r "$f" ] && [ "$(cat "$f")" = 1 ]; then
		echo "plugcheck action: allowing unprivileged user namespaces for --sandbox (sysctl kernel.apparmor_restrict_unprivileged_userns=0)"
		sudo sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0
	fi
fi
set -f
# shellcheck disable=SC2206 # word splitting (not globbing) of args is meant
argv+=($PC_ARGS)
# shellcheck disable=SC2206
formats=(${PC_FORMAT//,/ })
set +f

reports=${PC_REPORTS:-$RUNNER_TEMP/plugcheck-reports}
mkdir -p "$reports"
reports=$(cd "$reports" && pwd)
[ ${#formats[@]} -gt 0 ] || formats=("")

code="" sarif="" junit="" wrote=""
for f in "${formats[@]}"; do
	file=""
	case $f in
	"" | github) ;;
	sarif) file=$reports/plugcheck.sarif ;;
	junit) file=$reports/plugcheck.xml ;;
	human) file=$reports/plugcheck.txt ;;
	*) file=$reports/plugcheck.$f ;;
	esac
	run=("${argv[@]}")
	[ -z "$f" ] || run+=(--format "$f")
	[ -z "$file" ] || run+=(--output "$file")
	echo "plugcheck action: plugcheck ${run[*]}"
	rc=0
	if [ -z "$code" ] || [ "$f" = github ]; then
		"$PC_BIN/plugcheck" "${run[@]}" || rc=$?
	else
		"$PC_BIN/plugcheck" "${run[@]}" >/dev/null || rc=$?
	fi
	if [ -z "$code" ] || { [ "$code" = 0 ] && [ "$rc" != 0 ]; }; then
		code=$rc
	fi
	if [ -n "$file" ] && [ -s "$file" ]; then
		wrote=$reports
		case $f in
		sarif) sarif=$file ;;
		junit) junit=$file ;;
		esac
	fi
done
{
	echo "exit-code=$code"
	echo "sarif=$sarif"
	echo "junit=$junit"
	echo "reports=$wrote"
} >>"$GITHUB_OUTPUT"

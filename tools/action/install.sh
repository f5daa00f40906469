#!/bin/bash
# tools/action/install.sh - action.yml's "Install plugcheck" step.
#
# Puts plugcheck under $RUNNER_TEMP/plugcheck/usr (bin/plugcheck and
# share/plugcheck/templates, which the binary finds relative to itself,
# the man page and the docs), appends its bin/ to $GITHUB_PATH and writes
# the step outputs bin, version and from (deb, source or installed).
#
# Where plugcheck comes from, in this order:
#   1. PC_DEB: a .deb path or http(s) URL (the `deb` input);
#   2. on Debian 12, the system the release package is built for: the
#      release asset plugcheck_VERSION_ARCH.deb of PC_REPOSITORY at PC_REF
#      (github.action_repository and github.action_ref);
#   3. a build of the action's own checkout PC_ACTION_PATH (dist preset,
#      after `bootstrap.sh --build-deps`) in $PLUGCHECK_BUILD_DIR (default
#      $RUNNER_TEMP/plugcheck-build; a directory actions/cache keeps makes
#      the build incremental).
# A package's Depends and Recommends (bubblewrap, strace, python3) are
# installed with apt when missing or too old; a package whose dependencies
# cannot be installed, or whose binary does not run here, falls back to 3.
# The same version installed by an earlier use in the job is kept.
set -euo pipefail

prefix=$RUNNER_TEMP/plugcheck
bin=$prefix/usr/bin
build=${PLUGCHECK_BUILD_DIR:-$RUNNER_TEMP/plugcheck-build}
version=$(sed -n 's/^project(plugcheck VERSION \([0-9.]*\).*/\1/p' \
	"$PC_ACTION_PATH/CMakeLists.txt")

say() { printf 'plugcheck action: %s\n' "$*"; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# satisfied NAME [OP VERSION] - the package is installed (in that version)
satisfied() {
	local have
	have=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null) || return 1
	case $have in
	"install ok installed "*) ;;
	*) return 1 ;;
	esac
	[ $# -lt 3 ] || dpkg --compare-versions "${have##* }" "$2" "$3"
}

# apt_install < LINES - install each "NAME [OP VERSION]" not satisfied
apt_install() {
	local missing=() name op ver
	while read -r name op ver; do
		[ -n "$name" ] || continue
		# shellcheck disable=SC2086 # op and ver are absent together
		satisfied "$name" $op $ver || missing+=("$name")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "apt-get install ${missing[*]}"
	as_root apt-get update -qq &&
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${missing[@]}"
}

# deb_needs DEB - its Depends and Recommends as "NAME [OP VERSION]" lines
# (the first of a set of alternatives)
deb_needs() {
	dpkg-deb -f "$1" Depends Recommends | sed 's/^[A-Za-z-]*: //' |
		tr ',' '\n' | sed 's/|.*//; s/[()]/ /g'
}

# runs [VERSION] - the installed binary runs (and is that version)
runs() {
	local v
	v=$("$bin/plugcheck" --version 2>&1) || return 1
	if [ -n "${1:-}" ]; then
		[ "$v" = "plugcheck $1" ]
	else
		case $v in "plugcheck "*) ;; *) return 1 ;; esac
	fi
}

from_deb() {
	rm -rf "$prefix"
	mkdir -p "$prefix"
	dpkg-deb -x "$1" "$prefix" || return 1
	if ! deb_needs "$1" | apt_install; then
		say "cannot install the dependencies of $1"
		return 1
	fi
	if ! runs; then
		say "the packaged plugcheck does not run here: $("$bin/plugcheck" --version 2>&1 | head -n 1)"
		return 1
	fi
}

from_source() {
	sh "$PC_ACTION_PATH/bootstrap.sh" --build-deps
	(cd "$PC_ACTION_PATH" && cmake --preset dist -B "$build" >/dev/null)
	cmake --build "$build" -j "$(nproc)"
	rm -rf "$prefix"
	cmake --install "$build" --prefix "$prefix/usr" --strip >/dev/null
}

debian12() {
	# shellcheck source=/dev/null
	(. /etc/os-release && [ "$ID" = debian ] && [ "${VERSION_ID:-}" = 12 ])
}

from=""
if [ -n "$PC_DEB" ]; then
	case $PC_DEB in
	http://* | https://*)
		deb=$RUNNER_TEMP/plugcheck-input.deb
		if ! curl -fsSL --retry 2 -o "$deb" "$PC_DEB"; then
			echo "::error title=plugcheck action::input deb: cannot download '$PC_DEB'"
			exit 1
		fi ;;
	*)
		deb=$PC_DEB
		if [ ! -f "$deb" ]; then
			echo "::error title=plugcheck action::input deb: '$PC_DEB' is not a file"
			exit 1
		fi ;;
	esac
	if from_deb "$deb"; then
		from=deb
	else
		echo "::warning title=plugcheck action::the deb input '$PC_DEB' cannot be used here; building plugcheck from source instead"
	fi
elif [ -x "$bin/plugcheck" ] && runs "$version"; then
	from=installed
elif [ -n "${PC_REPOSITORY:-}" ] && [ -n "${PC_REF:-}" ] && debian12; then
	url=${GITHUB_SERVER_URL:-https://github.com}/$PC_REPOSITORY/releases/download/$PC_REF/plugcheck_${version}_$(dpkg --print-architecture).deb
	deb=$RUNNER_TEMP/plugcheck-release.deb
	if curl -fsSL --retry 2 -o "$deb" "$url"; then
		from_deb "$deb" && from=deb
	else
		say "no release package at $url"
	fi
fi
if [ -z "$from" ]; then
	say "building plugcheck $version from $PC_ACTION_PATH"
	from_source
	from=source
fi
say "$("$bin/plugcheck" --version) from $from: $bin/plugcheck"
echo "$bin" >>"$GITHUB_PATH"
{
	echo "bin=$bin"
	echo "version=$("$bin/plugcheck" --version | sed 's/^plugcheck //')"
	echo "from=$from"
} >>"$GITHUB_OUTPUT"

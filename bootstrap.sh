#!/bin/sh
# bootstrap.sh - install plugcheck's dependencies (Debian 12 names, apt)
# and build it with the dev preset.
#   ./bootstrap.sh                 every dependency, then the dev build
#   ./bootstrap.sh --deps          every dependency only (CI, the tests)
#   ./bootstrap.sh --build-deps    what building and running plugcheck
#                                  needs (action.yml builds with this)
#   ./bootstrap.sh --package-deps  that plus what `cpack -G DEB` needs
#                                  (the Dockerfile's build stage)
set -eu
cd "$(dirname "$0")"
# compiling plugcheck: the libraries of CMakeLists.txt's pkg_check_modules
build_pkgs="cmake gcc make pkg-config libcjson-dev libyaml-dev libpcre2-dev libsodium-dev libzip-dev"
# what plugcheck runs: bwrap and strace for --sandbox (docs/sandbox.md),
# python3 for Python plugin scripts. The same three are the .deb's
# Recommends (CMakeLists.txt) and the Dockerfile's runtime packages.
run_pkgs="bubblewrap strace python3"
# cpack -G DEB: dpkg-shlibdeps (dpkg-dev) and file (CPackDeb)
package_pkgs="dpkg-dev file"
# the tests (python3-yaml: action.yml in test_dist; groff-base: the man
# page in test_man; chromium, headless: the HTML report in
# test_report_html), the benchmarks (time) and fuzz/run: clang,
# libclang-rt-14-dev (libFuzzer, sanitizer runtimes) and llvm-14
# (llvm-symbolizer)
test_pkgs="libcmocka-dev bash libxml2-utils python3-jsonschema python3-yaml libcurl4-openssl-dev curl openssl shellcheck git clang libclang-rt-14-dev llvm-14 time groff-base chromium"
# nodejs and npm: tests/e2e/test_sarif.py installs Microsoft's SARIF
# multitool from the npm registry into the build directory (a node and npm
# already on PATH, e.g. from NodeSource, are used as they are)
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
	test_pkgs="$test_pkgs nodejs npm"
case "${1:-}" in
"" | --deps) pkgs="$build_pkgs $run_pkgs $package_pkgs $test_pkgs" ;;
--build-deps) pkgs="$build_pkgs $run_pkgs" ;;
--package-deps) pkgs="$build_pkgs $run_pkgs $package_pkgs" ;;
*)
	echo "usage: ./bootstrap.sh [--deps | --build-deps | --package-deps]" >&2
	exit 2 ;;
esac
missing=""
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
# Test-only: the official `openai` npm client talks to `plugcheck
# mock-model serve` in tests/e2e/test_mock_model.py (it installs the
# client under build/ with npm). A node and npm from elsewhere (e.g.
# NodeSource, whose nodejs package bundles npm) are used as they are.
if [ "${1:-}" = "--deps" ]; then
	command -v node >/dev/null 2>&1 || missing="$missing nodejs"
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
if [ -n "$missing" ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	# shellcheck disable=SC2086 # word splitting of the lists is meant
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
[ -n "${1:-}" ] && exit 0
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$(nproc)"

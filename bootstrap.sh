#!/bin/sh
# bootstrap.sh - install plugcheck's build dependencies (Debian 12) and
# build it with the dev preset. `--deps` installs the dependencies only.
# clang, libclang-rt-14-dev (libFuzzer, sanitizer runtimes) and llvm-14
# (llvm-symbolizer) are for fuzz/run, which CI runs too; nodejs and npm
# (--deps only) for one end-to-end test.
set -eu
cd "$(dirname "$0")"
pkgs="cmake gcc make pkg-config libcjson-dev libyaml-dev libpcre2-dev libcmocka-dev python3 bash libxml2-utils python3-jsonschema python3-yaml libcurl4-openssl-dev curl libsodium-dev openssl shellcheck libzip-dev git clang libclang-rt-14-dev llvm-14 time bubblewrap strace"
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
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi
[ "${1:-}" = "--deps" ] && exit 0
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$(nproc)"

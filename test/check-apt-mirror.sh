#!/bin/sh
# toolchain/gpu-targets fetches Debian's sources from the mirror this
# machine's apt sources name (toolchain/apt-mirror), never from a host of
# its own: the mirror is found in deb822 .sources files (the first block
# that serves the release) and in one-line sources.list entries (options in
# brackets included), security suites passed by; no apt source for the
# release is an error; and no script under toolchain/ names a package host.
set -u
cd "$(dirname "$0")/.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
expect() { # name want etc
    got=$(sh toolchain/apt-mirror "$3" bookworm 2>/dev/null)
    [ "$got" = "$2" ] || { echo "FAIL: $1: got '$got', want '$2'"; fail=1; }
}
mkdir -p "$t/a/sources.list.d" "$t/b/sources.list.d" "$t/c/sources.list.d"
printf 'Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\n\nTypes: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n' \
    >"$t/a/sources.list.d/debian.sources"
expect "deb822, the security block first" http://mirror.example/debian "$t/a"
printf 'deb http://sec.example/debian-security bookworm-security main\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main\n' \
    >"$t/b/sources.list"
expect "one-line entries with options" http://one.example/debian "$t/b"
printf 'deb http://other.example/debian trixie main\n' >"$t/c/sources.list"
if sh toolchain/apt-mirror "$t/c" bookworm >/dev/null 2>&1; then
    echo "FAIL: no source for the release is an error"
    fail=1
fi
if grep -n 'deb\.debian\.org\|https\?://[a-z]' toolchain/gpu-targets; then
    echo "FAIL: toolchain/gpu-targets names a host: take the mirror from toolchain/apt-mirror"
    fail=1
fi
[ $fail = 0 ] && echo "apt mirror: taken from the machine's sources (deb822 and one-line), none named by gpu-targets"
exit $fail

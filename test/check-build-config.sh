#!/bin/sh
# Build configurations keep apart: after `make BOARD=B PORT=none`, a plain
# `make BOARD=B install` installs the GL port's archive (it loads libEGL with
# dlopen) and an edml.pc with -ldl, and PORT=none installs neither.
set -eu
cd "$(dirname "$0")/.."
board=${1:-rpi4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s --no-print-directory BOARD="$board" PORT=none lib
make -s --no-print-directory BOARD="$board" install DESTDIR="$tmp/linux" PREFIX=/usr
make -s --no-print-directory BOARD="$board" PORT=none install DESTDIR="$tmp/none" PREFIX=/usr
nm=$(sed -n 's/^BOARD_CROSS_COMPILE *:= *//p' "boards/$board/board.mk")nm
fail=0
"$nm" -u "$tmp/linux/usr/lib/libedml.a" | grep -qw dlopen || { echo "FAIL: the PORT=linux install lacks the GL port"; fail=1; }
if "$nm" -u "$tmp/none/usr/lib/libedml.a" | grep -qw dlopen; then echo "FAIL: the PORT=none install has the GL port"; fail=1; fi
grep -q '^Libs.private:.*-ldl' "$tmp/linux/usr/lib/pkgconfig/edml.pc" || { echo "FAIL: PORT=linux edml.pc lacks -ldl"; fail=1; }
if grep -q -- '-ldl' "$tmp/none/usr/lib/pkgconfig/edml.pc"; then echo "FAIL: PORT=none edml.pc has -ldl"; fail=1; fi
[ $fail = 0 ] && echo "$board: PORT=none and PORT=linux build and install apart"
exit $fail

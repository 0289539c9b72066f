#!/bin/sh
# examples/baremetal as the template it is: an edml for rpi4 with PORT=none
# installed into a staging folder, the folder copied out of the tree and
# built there by its own Makefile against the installed edml, then run under
# qemu-system-aarch64 (the command the Makefile's comment shows): the
# DirectML page's TopK answer on the reference backend and on NEON.
set -u
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make --no-print-directory BOARD=rpi4 PORT=none BUILD="$tmp/build" install DESTDIR="$tmp/edml" PREFIX= >"$tmp/log" 2>&1 ||
    { echo "FAIL: install"; tail -n 20 "$tmp/log"; exit 1; }
cp -r examples/baremetal "$tmp/app"
make --no-print-directory -C "$tmp/app" EDML="$tmp/edml" >>"$tmp/log" 2>&1 ||
    { echo "FAIL: the template's own Makefile"; tail -n 20 "$tmp/log"; exit 1; }
timeout 120 qemu-system-aarch64 -M virt -cpu cortex-a72 -m 256M -nodefaults -display none \
    -chardev stdio,id=out,signal=off -semihosting-config enable=on,target=native,chardev=out \
    -kernel "$tmp/app/app.elf" >"$tmp/out" 2>&1 </dev/null
n=$(grep -c "3.5@4 1.25@6 0.7@1" "$tmp/out")
if [ "$n" = 2 ]; then
    echo "PASS: examples/baremetal built out of the tree against an installed edml; TopK on ref and neon: 3.5@4 1.25@6 0.7@1"
else
    echo "FAIL: the template's program:"
    sed 's/^/    /' "$tmp/out"
    exit 1
fi

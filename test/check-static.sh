#!/bin/sh
# A fully static program (as firmware images often are) with the GL port:
# GLES is off with its reason instead of crashing in dlopen, and the CPU
# answers. For an ARM board it runs under qemu with the multiarch Mesa
# present (EDML_QEMU_SYSROOT=/), as a board with GL drivers would be.
set -u
cd "$(dirname "$0")/.."
board=${1:-host}
build=build/$board
# (the linker warns that dlopen in a static program needs the same glibc: the point of this test)
make -s --no-print-directory BOARD="$board" "$build/examples/topk-static" || exit 1
out=$(EDML_QEMU_SYSROOT=/ toolchain/run "$board" "$build/examples/topk-static" 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
echo "$out" | grep -q "GPU: no GLES: statically linked program" || { echo "FAIL: no reason for GLES being off"; exit 1; }
echo "$out" | grep -q "3.5@4 1.25@6 0.7@1" || { echo "FAIL: wrong answer"; exit 1; }

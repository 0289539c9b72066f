#!/bin/sh
# The NEON kernels' instructions per element, as make bench-insns counts them
# (the PORT=none firmware build under qemu with tools/insncount.c, at a
# reduced size: (instructions with 2 calls - with 0) / (2 x elements)),
# each (to two decimal places) at or under its ceiling in docs/bench.md's
# table, times LIMIT (1 for
# AArch64, 1.5 for ARMv7). Counted under the board's own core (-cpu), not
# qemu's default `max`, whose string routines differ.
# A workload whose program fails, or gives no count, fails.
# usage: test/check-insns.sh BOARD CPU [LIMIT]   e.g. rpi4 cortex-a72
set -eu
cd "$(dirname "$0")/.."
board=$1 cpu=$2 limit=${3:-1}
scale=${INSN_SCALE:-0.02}
mkdir -p build/insns
[ build/insns/libinsncount.so -nt tools/insncount.c ] ||
    gcc -O2 -shared -fPIC -fvisibility=hidden tools/insncount.c -o build/insns/libinsncount.so
build=build/$board/static # the test image's PORT=none build (make test-image)
make -s -j"${EDML_JOBS:-2}" BOARD="$board" PORT=none BUILD="$build" "$build/edml-bench" >/dev/null
prog=$build/edml-bench
count() { # workload calls -> instructions
    EDML_QEMU_FLAGS="-cpu $cpu -plugin build/insns/libinsncount.so" toolchain/run "$board" "$prog" --workload "$1" \
        --backend neon --scale "$scale" --calls "$2" 2>&1 >/dev/null | sed -n 's/^guest_insns //p'
}
ceilings=$(sed -n '/^## Instruction ceilings/,/^## /p' docs/bench.md | sed -n 's/^| \([a-z0-9_]*\) | \([0-9.]*\) |$/\1 \2/p')
[ -n "$ceilings" ] || { echo "FAIL: no ceilings in docs/bench.md"; exit 1; }
fail=0
echo "$ceilings" | {
    while read -r w ceiling; do
        n=$(toolchain/run "$board" "$prog" --workload "$w" --scale "$scale" --calls 0) || n=
        a=$(count "$w" 2) z=$(count "$w" 0)
        if [ -z "$n" ] || [ -z "$a" ] || [ -z "$z" ] || [ "$n" = 0 ]; then
            echo "FAIL $w: no count (the program failed under qemu -cpu $cpu)"
            fail=1
            continue
        fi
        line=$(awk -v a="$a" -v z="$z" -v n="$n" -v c="$ceiling" -v l="$limit" -v w="$w" 'BEGIN {
            v = int((a - z) / (2 * n) * 100 + 0.5) / 100; m = c * l  # to two places, as the ceilings are
            printf "%s %-15s %6.2f instructions an element, %s %.3g\n", (v <= m ? "PASS" : "FAIL"), w, v,
                   (l == 1 ? "ceiling" : "limit"), m }')
        echo "$line"
        case $line in FAIL*) fail=1 ;; esac
    done
    exit $fail
}

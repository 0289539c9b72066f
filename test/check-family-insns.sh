#!/bin/sh
# The NEON kernels' instructions per element on the shape families of
# `edml-bench --families`, as tools/family-insns.sh counts them (the
# PORT=none firmware build under qemu with tools/insncount.c, at scale
# 0.02: (instructions with 3 calls - with 1) / (2 x elements)), each at or
# under its ceiling in docs/bench.md's family table (its AArch64 column, or
# its ARMv7 one for an -armhf board) times LIMIT (default 1). A family whose program fails, or gives no count,
# fails.
# usage: test/check-family-insns.sh BOARD CPU [LIMIT]   e.g. rpi4 cortex-a72
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
count() { # family calls -> instructions
    EDML_QEMU_FLAGS="-cpu $cpu -plugin build/insns/libinsncount.so" toolchain/run "$board" "$prog" --families \
        --workload "$1" --backend neon --scale "$scale" --calls "$2" 2>&1 >/dev/null | sed -n 's/^guest_insns //p'
}
col=2 # the AArch64 column, or ARMv7's
case $board in *-armhf) col=3 ;; esac
ceilings=$(sed -n '/^## Family instruction ceilings/,/^## /p' docs/bench.md |
    sed -n 's/^| \([a-z0-9_]*\) | \([0-9.]*\) | \([0-9.]*\) |$/\1 \2 \3/p' | awk -v c=$col '{ print $1, $c }')
[ -n "$ceilings" ] || { echo "FAIL: no family ceilings in docs/bench.md"; exit 1; }
listed=$(toolchain/run "$board" "$prog" --families --list | sort)
[ "$listed" = "$(echo "$ceilings" | cut -d' ' -f1 | sort)" ] ||
    { echo "FAIL: docs/bench.md's family ceilings do not name edml-bench --families --list"; exit 1; }
fail=0
echo "$ceilings" | {
    while read -r f ceiling; do
        n=$(toolchain/run "$board" "$prog" --families --workload "$f" --scale "$scale" --calls 0) || n=
        a=$(count "$f" 2) z=$(count "$f" 0)
        if [ -z "$n" ] || [ -z "$a" ] || [ -z "$z" ] || [ "$n" = 0 ]; then
            echo "FAIL $f: no count (the program failed under qemu -cpu $cpu)"
            fail=1
            continue
        fi
        line=$(awk -v a="$a" -v z="$z" -v n="$n" -v c="$ceiling" -v l="$limit" -v f="$f" 'BEGIN {
            v = int((a - z) / (2 * n) * 100 + 0.5) / 100; m = c * l
            printf "%s %-24s %7.2f instructions an element, %s %.3g\n", (v <= m ? "PASS" : "FAIL"), f, v,
                   (l == 1 ? "ceiling" : "limit"), m }')
        echo "$line"
        case $line in FAIL*) fail=1 ;; esac
    done
    exit $fail
}

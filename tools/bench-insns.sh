#!/bin/sh
# make bench-insns: instructions executed per element under qemu-aarch64 (the
# qemu plugin tools/insncount.c), reference vs NEON, for each workload of
# docs/bench.md at a reduced size. Each figure is
# (instructions with N calls - with 0 calls) / (N x elements): repeatable,
# unlike wall time under emulation. Memory stalls are not in it. The
# figures also go to INSN_JSON (default build/insns/BOARD.json).
set -e
cd "$(dirname "$0")/.."
board=${BOARD:-rpi4}
# the board's own core, not qemu's default `max` (whose string routines differ)
case $board in
*-armhf) cpu=max ;; # qemu-arm models no ARMv8 core in AArch32 (the boards' -mcpu=cortex-a72)
*) cpu=$(sed -n 's/^#define EDML_BOARD_CPU "\(.*\)"/\1/p' "boards/$board/caps.h") ;;
esac
cpu=${INSN_CPU:-$cpu}
qemu=$(sed -n 's/^TOOLCHAIN_QEMU *:= *//p' "toolchain/$(sed -n 's/^BOARD_TRIPLE *:= *//p' "boards/$board/board.mk").mk")
"$qemu" -cpu help | grep -qw -- "$cpu" || cpu=max # a core qemu does not model (Jetson Orin's A78AE)
scale=${INSN_SCALE:-0.02}
calls=${INSN_CALLS:-2}
src=tools/insncount.c
mkdir -p build/insns
[ build/insns/libinsncount.so -nt "$src" ] || gcc -O2 -shared -fPIC -fvisibility=hidden "$src" -o build/insns/libinsncount.so
build=build/$board-insns # afresh: flags do not rebuild objects
rm -rf "$build"
make -s BOARD=$board PORT=none BUILD=$build $build/edml-bench >/dev/null
prog=$build/edml-bench
json=${INSN_JSON:-build/insns/$board.json} # every figure, for tools/perf_table.py insns
printf '{"board": "%s", "cpu": "%s", "scale": %s, "calls": %s, "results": [' "$board" "$cpu" "$scale" "$calls" >"$json"
sep=""
count() { # workload backend calls -> instructions
    EDML_QEMU_FLAGS="-cpu $cpu -plugin build/insns/libinsncount.so" toolchain/run $board $prog --workload $1 --backend $2 \
        --scale $scale --calls $3 2>&1 >/dev/null | sed -n 's/^guest_insns //p'
}
echo "$board, qemu -cpu $cpu, the PORT=none build at scale $scale"
printf '%-15s %12s %12s %8s\n' workload "ref ins/elem" "neon ins/elem" "ratio"
for w in $(toolchain/run $board $prog --list); do
    n=$(toolchain/run $board $prog --workload $w --scale $scale --calls 0)
    line="$w"
    r=""; ne=""
    for b in ref neon; do
        a=$(count $w $b $calls); z=$(count $w $b 0)
        v=$(awk -v a=$a -v z=$z -v c=$calls -v n=$n 'BEGIN { printf "%.2f", (a - z) / (c * n) }')
        [ $b = ref ] && r=$v || ne=$v
    done
    printf '%-15s %12s %12s %7.1fx\n' $w $r $ne $(awk -v r=$r -v n=$ne 'BEGIN { print (n > 0 ? r / n : 0) }')
    printf '%s\n  {"kind": "insns", "workload": "%s", "ref": %s, "neon": %s}' "$sep" $w $r $ne >>"$json"
    sep=,
done
printf '\n]}\n' >>"$json"
echo "wrote $json"

#!/bin/sh
# make bench-insns-families: instructions executed per element under qemu
# (the plugin tools/insncount.c) for each family of `edml-bench --families`
# at a reduced size (INSN_SCALE, default 0.02): the reference, NEON and the
# plain C loop of tools/bench/plain.c for the same work, each
# (instructions with N + 1 calls - with 1) / (N x elements). Figures also go
# to INSN_JSON (default build/insns/BOARD-families.json).
set -e
cd "$(dirname "$0")/.."
board=${BOARD:-rpi4}
case $board in
*-armhf) cpu=max ;;
*) cpu=$(sed -n 's/^#define EDML_BOARD_CPU "\(.*\)"/\1/p' "boards/$board/caps.h") ;;
esac
cpu=${INSN_CPU:-$cpu}
qemu=$(sed -n 's/^TOOLCHAIN_QEMU *:= *//p' "toolchain/$(sed -n 's/^BOARD_TRIPLE *:= *//p' "boards/$board/board.mk").mk")
"$qemu" -cpu help | grep -qw -- "$cpu" || cpu=max
scale=${INSN_SCALE:-0.02}
calls=${INSN_CALLS:-2}
only=${INSN_FAMILIES:-}
src=tools/insncount.c
mkdir -p build/insns
[ build/insns/libinsncount.so -nt "$src" ] || gcc -O2 -shared -fPIC -fvisibility=hidden "$src" -o build/insns/libinsncount.so
build=build/$board-insns
[ -n "$INSN_KEEP_BUILD" ] || rm -rf "$build"
make -s BOARD=$board PORT=none BUILD=$build $build/edml-bench >/dev/null
prog=$build/edml-bench
json=${INSN_JSON:-build/insns/$board-families.json}
printf '{"board": "%s", "cpu": "%s", "scale": %s, "calls": %s, "results": [' "$board" "$cpu" "$scale" "$calls" >"$json"
count() { # family backend calls -> instructions
    EDML_QEMU_FLAGS="-cpu $cpu -plugin build/insns/libinsncount.so" toolchain/run $board $prog --families \
        --workload $1 --backend $2 --scale $scale --calls $3 2>&1 >/dev/null | sed -n 's/^guest_insns //p'
}
echo "$board, qemu -cpu $cpu, the PORT=none build at scale $scale"
printf '%-24s %10s %10s %10s %8s\n' family "ref i/e" "neon i/e" "plain i/e" "neon/plain"
sep=""
for f in ${only:-$(toolchain/run $board $prog --families --list)}; do
    n=$(toolchain/run $board $prog --families --workload $f --scale $scale --calls 0)
    r="" ne="" pl=""
    for b in ref neon plain; do
        a=$(count $f $b $calls) z=$(count $f $b 0)
        v=$(awk -v a=$a -v z=$z -v c=$calls -v n=$n 'BEGIN { printf "%.2f", (a - z) / (c * n) }')
        case $b in ref) r=$v ;; neon) ne=$v ;; plain) pl=$v ;; esac
    done
    printf '%-24s %10s %10s %10s %8.2f\n' $f $r $ne $pl $(awk -v a=$ne -v b=$pl 'BEGIN { print (b > 0 ? a / b : 0) }')
    printf '%s\n  {"kind": "family_insns", "family": "%s", "elements": %s, "ref": %s, "neon": %s, "plain": %s}' \
        "$sep" $f $n $r $ne $pl >>"$json"
    sep=,
done
printf '\n]}\n' >>"$json"
echo "wrote $json"

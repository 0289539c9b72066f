#!/bin/sh
# tools/mca-hot.sh WORKLOAD [CPU] [BACKEND]: cycles per element estimated by
# llvm-mca for a workload on rpi4's AArch64 build: each hot block (the `hot`
# mode of tools/insncount.c, calls minus no calls) is run through
# llvm-mca -mcpu=CPU (default cortex-a72; LLVM 14 models the A72, A76 and
# Neoverse N1 alike, with its Cortex-A57 model) as a loop, and its cycles per pass
# times its passes are summed over the blocks that hold 95% of the
# instructions. Memory is assumed to hit L1 (llvm-mca's model): an
# estimate of the core's side, not of DRAM.
set -e
cd "$(dirname "$0")/.."
w=$1; cpu=${2:-cortex-a72}; backend=${3:-neon}
board=rpi4; calls=${INSN_CALLS:-2}; scale=${INSN_SCALE:-0.02}
prog=build/$board/static/edml-bench
make -s BOARD=$board PORT=none BUILD=build/$board/static $prog >/dev/null
mkdir -p build/insns
[ build/insns/libinsncount.so -nt tools/insncount.c ] ||
    gcc -O2 -shared -fPIC -fvisibility=hidden tools/insncount.c -o build/insns/libinsncount.so
base=0
aarch64-linux-gnu-readelf -h $prog | grep -q 'DYN' && base=${INSN_BASE:-0x5500000000}
hot() { # calls -> "addr insns" for every block (INSN_HOT_ALL)
    EDML_QEMU_FLAGS="-plugin build/insns/libinsncount.so,hot=on,all=on" toolchain/run $board $prog --workload $w \
        --backend $backend --scale $scale --calls $1 2>&1 >/dev/null | awk '$1 == "hot" { print $2, $3 }'
}
n=$(toolchain/run $board $prog --workload $w --scale $scale --calls 0)
tmp=$(mktemp -d)
hot 0 | awk '{ s[$1] += $2 } END { for (a in s) print a, s[a] }' | sort > $tmp/h0
hot $calls | awk '{ s[$1] += $2 } END { for (a in s) print a, s[a] }' | sort > $tmp/h1
join -a2 -e0 -o 0,1.2,2.2 $tmp/h0 $tmp/h1 | awk '{ d = $3 - $2; if (d > 0) print $1, d }' | sort -k2 -rn > $tmp/d
total=$(awk '{ t += $2 } END { print t }' $tmp/d)
cycles=0; covered=0
while read -r a d; do
    [ "$(awk -v c=$covered -v t=$total 'BEGIN { print (c < 0.95 * t) }')" = 1 ] || break
    start=$(printf '%#x' $((a - base)))
    # the block: from its address to its first branch, as llvm-mc text
    aarch64-linux-gnu-objdump -d --no-show-raw-insn --start-address=$start --stop-address=$((start + 1024)) $prog |
        awk '/^ *[0-9a-f]+:\t/ { sub(/^ *[0-9a-f]+:\t/, ""); sub(/ *\/\/.*/, ""); sub(/<.*>/, ""); print;
             if ($1 ~ /^(b|b\..*|bl|blr|br|ret|cbz|cbnz|tbz|tbnz)$/) exit }' |
        sed -E 's/^(b|b\.[a-z]+|bl|cbz|cbnz|tbz|tbnz)(\t.*)?\t?[0-9a-f]+ *$/\1\2 here/; s/^(b(\.[a-z]+)?|bl)\t[0-9a-f]+ *$/\1\there/' > $tmp/blk.s
    len=$(wc -l < $tmp/blk.s)
    [ "$len" -gt 0 ] || { covered=$((covered + d)); continue; }
    { echo "here:"; cat $tmp/blk.s; } > $tmp/blk2.s
    c=$(llvm-mca -mtriple=aarch64 -mcpu=$cpu -iterations=100 $tmp/blk2.s 2>/dev/null | awk '/^Total Cycles:/ { print $3 / 100 }')
    [ -n "$c" ] || c=$len
    cycles=$(awk -v s=$cycles -v c=$c -v d=$d -v l=$len 'BEGIN { print s + c * d / l }')
    covered=$((covered + d))
done < $tmp/d
awk -v c=$cycles -v cov=$covered -v t=$total -v n=$n -v k=$calls -v w=$w -v cpu=$cpu 'BEGIN {
    printf "%-15s %-11s %6.2f cycles/elem (%.0f%% of %.2f ins/elem modelled)\n", w, cpu, c / cov * t / (n * k), 100 * cov / t, t / (n * k) }'
rm -rf $tmp

#!/bin/sh
# tools/insn-hot.sh WORKLOAD [BACKEND] [BOARD]: where a workload's instructions
# go under qemu (the `hot` mode of tools/insncount.c): the hottest blocks by
# instructions executed, each with its function.
set -e
cd "$(dirname "$0")/.."
w=$1; backend=${2:-neon}; board=${3:-rpi4}
prog=build/$board/static/edml-bench
make -s BOARD=$board PORT=none BUILD=build/$board/static $prog >/dev/null
mkdir -p build/insns
[ build/insns/libinsncount.so -nt tools/insncount.c ] ||
    gcc -O2 -shared -fPIC -fvisibility=hidden tools/insncount.c -o build/insns/libinsncount.so
triple=$(sed -n 's/^BOARD_TRIPLE *:= *//p' boards/$board/board.mk)
# qemu-user loads a position-independent program at a fixed base
base=0
$triple-readelf -h $prog | grep -q 'DYN' && base=${INSN_BASE:-0x5500000000}
EDML_QEMU_FLAGS="-plugin build/insns/libinsncount.so,hot=on" toolchain/run $board $prog --workload $w \
    --backend $backend --scale ${INSN_SCALE:-0.02} --calls ${INSN_CALLS:-2} 2>&1 >/dev/null |
    while read -r tag a n; do
        case $tag in
        hot) printf '%12s %s %s\n' "$n" "$a" "$($triple-addr2line -f -e $prog $(printf '%#x' $((a - base))) | head -1)" ;;
        guest_insns) echo "total $a" ;;
        esac
    done

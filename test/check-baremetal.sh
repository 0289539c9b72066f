#!/bin/sh
# make test-baremetal: the AArch64 bare-metal programs (make baremetal) under
# qemu-system-aarch64 -M virt, Cortex-A72, no OS:
#  - examples/baremetal gives the DirectML page's TopK answer on ref and NEON,
#    started at EL1 and at EL2 (as a Raspberry Pi's firmware starts it);
#  - the test image: the start-up code's state (MMU, caches, FP, the map),
#    every embedded vector on ref and on NEON (60 or more each, none
#    failing), the differential test, the unit and misuse tests; started at
#    EL1, and shorter at EL2 and EL3;
#  - an access outside the memory map reaches the exception vectors, which
#    name it and end the program with status 128.
# usage: test/check-baremetal.sh BUILD (default build/baremetal)
set -u
cd "$(dirname "$0")/.."
bm=${1:-build/baremetal}
run=toolchain/run-baremetal
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

bad() {
    echo "FAIL $1"
    sed 's/^/    /' "$out" | tail -n 20
    fail=1
}

# run NAME MACHINE PROGRAM ARGS...: status 0 and output in $out
run() {
    name=$1 machine=$2
    shift 2
    EDML_BAREMETAL_MACHINE=$machine $run "$@" >"$out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && return 0
    bad "$name: exit status $rc under -M $machine"
    return 1
}

for machine in virt virt,virtualization=on; do
    if run "example" $machine $bm/example.elf; then
        if grep -qx 'top 3 on ref: 3.5@4 1.25@6 0.7@1' "$out" && grep -qx 'top 3 on neon: 3.5@4 1.25@6 0.7@1' "$out"; then
            echo "PASS example on ref and neon (-M $machine): $(grep -c '^top 3' "$out") answers, the page's"
        else
            bad "example (-M $machine): not the page's answer on ref and neon"
        fi
    fi
done

# image MACHINE EL ITERS: the test image's verdicts
image() {
    run "test image" "$1" $bm/edml-test.elf --backend ref --backend neon --iters "$3" --seed 11 || return
    for b in ref neon; do
        n=$(sed -n "s/^PASS vectors on $b (1 thread): \([0-9]*\) passed, 0 failed$/\1/p" "$out")
        [ "${n:-0}" -ge 60 ] || { bad "test image (-M $1): vectors on $b: ${n:-no} passes, 60 or more wanted"; return; }
    done
    grep -q "^PASS bare metal: started at EL$2, running at EL1$" "$out" || { bad "test image (-M $1): not started at EL$2"; return; }
    last=$(tail -n 1 "$out")
    if echo "$last" | grep -qx '[0-9]* passed, 0 failed' && ! grep -q '^FAIL' "$out"; then
        echo "PASS test image (-M $1, from EL$2, $3 differential cases a backend): $last"
    else
        bad "test image (-M $1): $last"
    fi
}
image virt 1 300
image virt,virtualization=on 2 50
image virt,secure=on 3 50

EDML_BAREMETAL_MACHINE=virt $run $bm/edml-test.elf --fault >"$out" 2>&1
rc=$?
if [ $rc -eq 128 ] && grep -q '^EXCEPTION synchronous .* address 0x80000000$' "$out"; then
    echo "PASS an access outside the map: $(grep '^EXCEPTION' "$out")"
else
    bad "an access outside the map: exit status $rc, not the exception vectors' report"
fi
exit $fail

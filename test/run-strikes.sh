#!/bin/sh
# Every test/cases vector with one GPU fault striking, as edml-run --strike
# runs it: named GLES must answer right or refuse with its outputs untouched
# (and refuse at least MIN cases: the fault reached them), AUTO on the GPU
# (every threshold 0) must answer right every time, one by one (a device a
# case, its second run struck) and as one command list (its first
# submission struck). Never OK with a wrong answer.
# usage: run-strikes.sh [RUNNER] EDML_RUN FAULT MIN   (RUNNER e.g. "toolchain/run rpi4")
set -u
if [ $# -eq 4 ]; then runner=$1; shift; else runner=; fi
run=$1 fault=$2 min=$3
rc=0
for mode in "" "--command-list"; do
    named=$($runner $run --check --backend gles --may-refuse --strike "$fault" $mode test/cases/*.case 2>/dev/null)
    printf '%s\n' "$named" | grep '^FAIL'
    last=$(printf '%s\n' "$named" | tail -n 1)
    echo "named gles, $fault ${mode:-one by one}: $last"
    refused=$(printf '%s\n' "$last" | sed -n 's/.* \([0-9][0-9]*\) refused.*/\1/p')
    case $last in "0 failed"* | *" 0 failed"*) ;; *) rc=1 ;; esac
    [ "${refused:-0}" -ge "$min" ] || { echo "only ${refused:-0} refused: the fault reached fewer than $min cases"; rc=1; }
    auto=$($runner $run --check --backend auto --gpu-always --strike "$fault" $mode test/cases/*.case 2>/dev/null)
    printf '%s\n' "$auto" | grep '^FAIL'
    last=$(printf '%s\n' "$auto" | tail -n 1)
    echo "auto on the GPU, $fault ${mode:-one by one}: $last"
    case $last in *" 0 failed"*refused*) rc=1 ;; *" 0 failed"*) ;; *) rc=1 ;; esac
done
exit $rc

#!/bin/sh
# Every test/cases vector with one GPU fault striking, as edml-run --strike
# runs it: named GLES must answer right or refuse with its outputs untouched
# (and refuse at least MIN cases: the fault reached them), AUTO on the GPU
# (every threshold 0) must answer right every time, one by one (a device a
# case, its second run struck) and as one command list (its first
# submission struck). Then in turn: every vector in order on one device,
# the struck submission each of the first 60 in a run of its own, so that
# what the struck call finds in the readback buffer is another operator's
# (a longer or shorter fetch): right or refused, never OK and wrong.
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
points=0 reached=0
for at in $(seq 1 60); do
    for b in gles auto; do
        if [ $b = gles ]; then opts="--may-refuse"; else opts="--gpu-always"; fi
        out=$($runner $run --check --backend $b $opts --strike "$fault" --in-turn --strike-at "$at" test/cases/*.case 2>/dev/null)
        last=$(printf '%s\n' "$out" | tail -n 1)
        case $last in *" 0 failed"*) ;; *)
            printf '%s\n' "$out" | grep '^FAIL'
            echo "in turn on $b, submission $at struck: $last"
            rc=1
            ;;
        esac
        points=$((points + 1))
        case $last in *refused*) reached=$((reached + 1)) ;; esac
    done
done
echo "in turn: $points struck points (submissions 1-60 on gles and on auto; the vectors make about 42), $reached refused on named gles, none OK and wrong"
[ "$reached" -ge 30 ] || { echo "the fault reached only $reached in-turn points"; rc=1; }
exit $rc

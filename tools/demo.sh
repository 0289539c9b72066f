#!/bin/sh
# make demo: the examples of the DirectML reference pages, run through
# edml-run on every backend this machine has, printed in the pages' notation.
set -e
cd "$(dirname "$0")/.."
run=build/host/edml-run
build/host/edml-demo
echo
backends=$($run --list-backends)
echo "edml demo: the DirectML pages' examples (test/cases/seed_*.case)"
echo "backends on this machine: $(echo $backends)"
for b in $backends; do
    echo
    echo "=============================== backend: $b ==============================="
    $run --backend "$b" test/cases/seed_*.case
    $run --check --backend "$b" test/cases/seed_*.case | tail -n 1 | sed "s/^/checked against the pages on $b: /"
done

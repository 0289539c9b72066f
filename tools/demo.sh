#!/bin/sh
# make demo: a detector's post-processing on every backend (edml-demo), then
# the examples of the DirectML reference pages checked on every backend this
# machine has, one row each, and one of them printed in the pages' notation.
set -e
cd "$(dirname "$0")/.."
run=build/host/edml-run
build/host/edml-demo
backends=$($run --list-backends)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for b in $backends; do
    $run --check --backend "$b" test/cases/seed_*.case >"$tmp/$b" || failed=1
done
echo
echo "The DirectML pages' examples (test/cases/seed_*.case), checked against the pages:"
printf '  %-34s' "example"
for b in $backends; do printf ' %-5s' "$b"; done
echo
for f in test/cases/seed_*.case; do
    printf '  %-34s' "$(basename "$f" .case)"
    for b in $backends; do
        v=$(grep -F " $f" "$tmp/$b" | cut -d' ' -f1)
        printf ' %-5s' "${v:-?}"
    done
    echo
done
echo
echo "One of them as edml-run prints it (the page's TopK1 example 1):"
$run test/cases/seed_topk1_ex1.case | sed 's/^/  /'
grep -q '^SKIP' "$tmp"/* && echo "SKIP: that backend has no kernel for the operator (the reference runs it)"
[ $failed = 0 ] && echo "every example gives the page's answer on: $(echo $backends)"
exit $failed

#!/bin/sh
# make demo as a new user sees it: it installs only the demo's packages (the
# host compiler, SIMDe, Mesa), and prints a compact report in which the
# detections agree on every backend and every page example passes.
set -u
cd "$(dirname "$0")/.."
fail=0
pkgs=$(sh toolchain/setup-host --list demo)
for p in $pkgs; do
    case $p in
    *cross* | *linux-gnu* | qemu* | clang* | valgrind | *:arm64) echo "FAIL: make demo would install $p"; fail=1 ;;
    esac
done
out=$(sh tools/demo.sh) || { echo "$out"; echo "FAIL: tools/demo.sh failed"; exit 1; }
echo "$out"
lines=$(echo "$out" | wc -l)
[ "$lines" -le 60 ] || { echo "FAIL: the demo prints $lines lines (at most 60)"; fail=1; }
echo "$out" | grep -q "detections identical on every backend: yes" || { echo "FAIL: detections differ"; fail=1; }
echo "$out" | grep -q "every example gives the page's answer on" || { echo "FAIL: a page example failed"; fail=1; }
[ $fail = 0 ] && echo "make demo: $lines lines; installs: $pkgs"
exit $fail

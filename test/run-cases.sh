#!/bin/sh
# Runs every test/cases vector on one backend through edml-run --check and
# checks that each `Expect: error` case failed with the message its
# `// message:` line names (not merely with some error).
# usage: run-cases.sh [RUNNER] EDML_RUN BACKEND   (RUNNER e.g. toolchain/run rpi4)
set -u
if [ $# -eq 3 ]; then runner=$1; shift; else runner=; fi
run=$1 backend=$2
out=$(mktemp)
$runner $run --check --backend "$backend" test/cases/*.case >"$out" 2>/dev/null
rc=$?
bad=0
for f in test/cases/*.case; do
    msg=$(sed -n 's|^// message: ||p' "$f" | head -n 1)
    [ -n "$msg" ] || continue
    line=$(grep -F "PASS $f (" "$out" || true)
    if [ -n "$line" ] && ! printf '%s' "$line" | grep -qF "$msg"; then
        echo "FAIL $f: rejected with another message than '$msg': $line"
        bad=1
    fi
done
grep '^FAIL' "$out"
summary=$(tail -n 1 "$out")
rm -f "$out"
if [ $rc -ne 0 ] || [ $bad -ne 0 ]; then
    echo "cases on $backend: $summary (exit $rc)"
    exit 1
fi
echo "cases on $backend: $summary"

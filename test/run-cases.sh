#!/bin/sh
# Runs every test/cases vector on one backend through edml-run --check (which
# also checks that each `Expect: error` case fails with its `// message:`).
# usage: run-cases.sh [RUNNER] EDML_RUN BACKEND   (RUNNER e.g. "toolchain/run rpi4")
# EDML_RUN_ARGS: more options for edml-run (e.g. "--threads 4 --small-parts").
set -u
if [ $# -eq 3 ]; then runner=$1; shift; else runner=; fi
run=$1 backend=$2
out=$($runner $run --check --backend "$backend" ${EDML_RUN_ARGS:-} test/cases/*.case 2>/dev/null)
rc=$?
printf '%s\n' "$out" | grep '^FAIL'
echo "cases on $backend${EDML_RUN_ARGS:+ ($EDML_RUN_ARGS)}: $(printf '%s\n' "$out" | tail -n 1)"
exit $rc

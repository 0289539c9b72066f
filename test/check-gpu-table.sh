#!/bin/sh
# docs/gpu-compilers.md's table of the boards' GPU compilers (make gpu-targets) names
# today's sources: each program's row carries the hash of what a device
# compiles for it (common.glsl, the GLSL libraries it includes, its .comp,
# main.glsl and the parameter structs the prelude declares), so a changed shader
# without a regenerated table fails here.
#   test/check-gpu-table.sh [--hash PROGRAM]
set -u
cd "$(dirname "$0")/.."
prelude=${EDML_GLES_PRELUDE:-build/host/gles-prelude}
[ -x "$prelude" ] || { echo "$prelude missing: make all first"; exit 1; }
hash_of() {
    line=$("$prelude" --list | awk -v p="$1" '$1 == p')
    [ -n "$line" ] || return 1
    set -- $line
    files="shaders/common.glsl shaders/params.h shaders/$2.comp shaders/main.glsl"
    shift 2
    for lib in "$@"; do files="$files shaders/$lib.glsl"; done
    cat $files | sha256sum | cut -c1-12
}
if [ "${1:-}" = --hash ]; then hash_of "$2"; exit; fi
fail=0 n=0
for p in $("$prelude" --list | awk '{print $1}'); do
    n=$((n + 1))
    want=$(hash_of "$p")
    row=$(grep "^| $p | \`" docs/gpu-compilers.md 2>/dev/null | head -n 1) # the compilers' table: hash first
    if [ -z "$row" ]; then
        echo "FAIL: docs/gpu-compilers.md has no row for $p: run make gpu-targets"
        fail=1
    elif ! echo "$row" | grep -q "\`$want\`"; then
        echo "FAIL: $p's sources changed since docs/gpu-compilers.md's table (hash $want): run make gpu-targets"
        fail=1
    fi
done
[ $fail = 0 ] && echo "docs/gpu-compilers.md: the GPU compilers' table names today's sources of all $n programs"
exit $fail

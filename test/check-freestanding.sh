#!/bin/sh
# PORT=none is freestanding: for each board given, builds libedml.a with
# PORT=none (the Makefile adds -ffreestanding) and checks what it needs from
# outside itself: memcpy, memset, memmove and memcmp, and the compiler's own
# runtime (the symbols its libgcc defines: __aeabi_uldivmod, the AArch64
# outline atomics), nothing else: no stdio, no libm, no errno, no clock, no
# allocator; and no thread-local storage.
# usage: test/check-freestanding.sh BOARD...
set -u
cd "$(dirname "$0")/.."
fail=0
for board in "$@"; do
    build=build/$board-freestanding
    if ! make -s -j"${EDML_JOBS:-2}" BOARD="$board" PORT=none BUILD="$build" "$build/libedml.a"; then
        echo "FAIL $board: PORT=none does not build"
        fail=1
        continue
    fi
    cc=$(make -s BOARD="$board" PORT=none --eval 'edml-print-cc: ; @echo $(CC)' edml-print-cc)
    nm=$(make -s BOARD="$board" PORT=none --eval 'edml-print-nm: ; @echo $(NM)' edml-print-nm)
    readelf=$(echo "$nm" | sed 's/nm$/readelf/')
    lib=$build/libedml.a
    "$nm" "$lib" | awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ {print $3}' | sort -u >"$build/defined.txt"
    "$nm" "$(${cc} -print-libgcc-file-name)" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TW]$/ {print $3}' | sort -u >"$build/libgcc.txt"
    "$nm" -u "$lib" | awk '$1 == "U" {print $2}' | sort -u | comm -23 - "$build/defined.txt" |
        comm -23 - "$build/libgcc.txt" | grep -vxE 'memcpy|memset|memmove|memcmp|_GLOBAL_OFFSET_TABLE_' >"$build/outside.txt"
    if [ -s "$build/outside.txt" ]; then
        echo "FAIL $board: PORT=none needs from outside: $(tr '\n' ' ' <"$build/outside.txt")"
        fail=1
    else
        echo "PASS $board: PORT=none needs $("$nm" -u "$lib" | awk '$1 == "U" {print $2}' | sort -u | comm -23 - "$build/defined.txt" | tr '\n' ' ')"
    fi
    if "$readelf" -S -W "$lib" | grep -qE '\.tdata|\.tbss'; then
        echo "FAIL $board: thread-local storage in the archive"
        fail=1
    fi
done
exit $fail

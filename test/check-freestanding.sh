#!/bin/sh
# PORT=none is freestanding: for each board given, builds libedml.a with
# PORT=none (the Makefile adds -ffreestanding) and checks what it needs from
# outside itself: memcpy, memset, memmove and memcmp, and the compiler's own
# runtime (the symbols its libgcc defines: __aeabi_uldivmod, the AArch64
# outline atomics), nothing else: no stdio, no libm, no errno, no clock, no
# allocator; and no thread-local storage. Then links the whole archive with
# only libgcc and those four functions (stubs here), so that what the libgcc
# helpers need in turn counts too (AArch64's outline atomics asked libc's
# getauxval() whether the core has LSE; PORT=none builds without them). On
# ARMv7 the stubs also define __aeabi_idiv0 and __aeabi_ldiv0: the Linux
# toolchain's libgcc has them call raise(SIGFPE) on a division by zero (edml
# never divides by zero); bare-metal firmware defines its own, as here.
# Each board's archive is built afresh (flags changed since count).
# usage: test/check-freestanding.sh BOARD...
set -u
cd "$(dirname "$0")/.."
fail=0
for board in "$@"; do
    build=build/$board/static # the test image's PORT=none library (make test-image)
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
    cat >"$build/stubs.c" <<'STUBS'
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n) { (void)s, (void)n; return d; }
void *memmove(void *d, const void *s, size_t n) { (void)s, (void)n; return d; }
void *memset(void *d, int c, size_t n) { (void)c, (void)n; return d; }
int memcmp(const void *a, const void *b, size_t n) { (void)a, (void)b, (void)n; return 0; }
void _start(void) {}
#ifdef __arm__
int __aeabi_idiv0(int r) { return r; }
long long __aeabi_ldiv0(long long r) { return r; }
#endif
STUBS
    cflags=$(make -s BOARD="$board" PORT=none --eval 'edml-print-cflags: ; @echo $(BOARD_CFLAGS)' edml-print-cflags)
    # shellcheck disable=SC2086 # the board's flags are words
    if ! $cc $cflags -ffreestanding -fno-builtin -nostdlib -static -o "$build/linked" "$build/stubs.c" \
        -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lgcc >"$build/link.txt" 2>&1; then
        echo "FAIL $board: the archive does not link with only libgcc and mem*: $(grep -o "undefined reference to .*" "$build/link.txt" | sort -u | tr '\n' ' ')"
        fail=1
    else
        echo "PASS $board: the whole archive links with only libgcc and mem*"
    fi
    if "$readelf" -S -W "$lib" | grep -qE '\.tdata|\.tbss'; then
        echo "FAIL $board: thread-local storage in the archive"
        fail=1
    fi
done
exit $fail

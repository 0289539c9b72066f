# AArch64 Linux (glibc): Debian's gcc-aarch64-linux-gnu; run under qemu-aarch64.
TOOLCHAIN_QEMU := qemu-aarch64
TOOLCHAIN_SYSROOT := /usr/aarch64-linux-gnu
TOOLCHAIN_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# PORT=none (freestanding): atomics inline, not libgcc's outline ones, whose
# start-up code asks the C library's getauxval() whether the core has LSE.
TOOLCHAIN_FREESTANDING_CFLAGS := -mno-outline-atomics

# ARMv7 hard-float Linux (glibc): Debian's gcc-arm-linux-gnueabihf; run under qemu-arm.
TOOLCHAIN_QEMU := qemu-arm
TOOLCHAIN_SYSROOT := /usr/arm-linux-gnueabihf
TOOLCHAIN_PACKAGES := gcc-arm-linux-gnueabihf libc6-dev-armhf-cross

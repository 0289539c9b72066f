# Raspberry Pi 4 (BCM2711, Cortex-A72, V3D 4.2 GLES 3.1), 64-bit OS
BOARD_DESCRIPTION := Raspberry Pi 4 (BCM2711, Cortex-A72, V3D 4.2 GLES 3.1), 64-bit OS
BOARD_TRIPLE := aarch64-linux-gnu
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
BOARD_TUNE := -mcpu=cortex-a72
BOARD_CFLAGS := $(BOARD_TUNE)
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=
include toolchain/aarch64-linux-gnu.mk

# Raspberry Pi 3 (BCM2837, Cortex-A53, VideoCore IV: no GLES 3.1), 64-bit OS
BOARD_DESCRIPTION := Raspberry Pi 3 (BCM2837, Cortex-A53, VideoCore IV: no GLES 3.1), 64-bit OS
BOARD_TRIPLE := aarch64-linux-gnu
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
BOARD_TUNE := -mcpu=cortex-a53
BOARD_CFLAGS := $(BOARD_TUNE)
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=
include toolchain/aarch64-linux-gnu.mk

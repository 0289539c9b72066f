# NVIDIA Jetson Orin (Cortex-A78AE, Ampere GPU, GLES 3.2)
BOARD_DESCRIPTION := NVIDIA Jetson Orin (Cortex-A78AE, Ampere GPU, GLES 3.2)
BOARD_TRIPLE := aarch64-linux-gnu
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
BOARD_TUNE := -mcpu=cortex-a78ae
BOARD_CFLAGS := $(BOARD_TUNE)
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=
include toolchain/aarch64-linux-gnu.mk

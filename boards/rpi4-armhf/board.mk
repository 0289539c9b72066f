# Raspberry Pi 4 on 32-bit Raspberry Pi OS (ARMv7 hard-float NEON, V3D 4.2)
BOARD_DESCRIPTION := Raspberry Pi 4 on 32-bit Raspberry Pi OS (ARMv7 hard-float NEON, V3D 4.2)
BOARD_TRIPLE := arm-linux-gnueabihf
BOARD_CROSS_COMPILE := arm-linux-gnueabihf-
BOARD_TUNE := -mcpu=cortex-a72 -mfpu=neon-fp-armv8 -mfloat-abi=hard
BOARD_CFLAGS := $(BOARD_TUNE) -mfp16-format=ieee
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=
include toolchain/arm-linux-gnueabihf.mk

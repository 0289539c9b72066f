# The machine you build on (x86-64 or Arm Linux). NEON kernels build against
# SIMDe on x86; the GLES backend is probed at run time.
BOARD_DESCRIPTION := the build machine
BOARD_TRIPLE :=
BOARD_CROSS_COMPILE :=
BOARD_TUNE :=
BOARD_CFLAGS := $(BOARD_TUNE)
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=

# The machine you build on (x86-64 or Arm Linux). NEON kernels build against
# SIMDe on x86; the GLES backend is probed at run time.
BOARD_DESCRIPTION := the build machine
BOARD_TRIPLE :=
BOARD_CROSS_COMPILE :=
# On x86-64, x86-64-v2 (SSE4.2: every x86-64 CPU since 2009), so that
# SIMDe has byte shuffles, blends and 32-bit MIN/MAX to build NEON's on.
BOARD_TUNE := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine 2>/dev/null)),-march=x86-64-v2)
BOARD_CFLAGS := $(BOARD_TUNE)
BOARD_PORT := linux
BOARD_NEON := 1
BOARD_LDLIBS :=

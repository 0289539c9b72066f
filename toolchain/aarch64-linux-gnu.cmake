# SPDX-License-Identifier: Apache-2.0
# CMake toolchain file for aarch64-linux-gnu (Debian's gcc-aarch64-linux-gnu), for applications
# that link edml:
#   cmake -DCMAKE_TOOLCHAIN_FILE=toolchain/aarch64-linux-gnu.cmake \
#         -DCMAKE_FIND_ROOT_PATH=/path/to/staging ..
# where edml was installed with `make BOARD=<board> install DESTDIR=/path/to/staging PREFIX=/usr`.
# Packages and libraries are looked for in the staging tree only, programs on
# the build machine.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

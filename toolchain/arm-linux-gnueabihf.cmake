# SPDX-License-Identifier: Apache-2.0
# CMake toolchain file for arm-linux-gnueabihf (Debian's gcc-arm-linux-gnueabihf), for applications
# that link edml:
#   cmake -DCMAKE_TOOLCHAIN_FILE=toolchain/arm-linux-gnueabihf.cmake \
#         -DCMAKE_FIND_ROOT_PATH=/path/to/staging ..
# where edml was installed with `make BOARD=<board> install DESTDIR=/path/to/staging PREFIX=/usr`.
# Packages and libraries are looked for in the staging tree only, programs on
# the build machine.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

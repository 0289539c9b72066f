#!/bin/sh
# An installed edml, found as applications find it. For each BOARD[:PORT]
# given: `make BOARD=<board> [PORT=<port>] install DESTDIR=<staging>
# PREFIX=/usr`, then
#   - CMake: test/cmake-consumer (find_package(edml CONFIG), edml::edml),
#     natively for host, with the example toolchain/<triple>.cmake and
#     CMAKE_FIND_ROOT_PATH=<staging> for a board;
#   - pkg-config: PKG_CONFIG_SYSROOT_DIR=<staging>, `--cflags --libs --static`;
# each builds examples/topk.c and runs it (under qemu for a board), and its
# answer must be the page's: top 3 = 3.5@4 1.25@6 0.7@1. A board's PORT=linux
# build is linked, not run: under qemu its GLES probe would find the arm64
# Mesa and compile every kernel on an emulated llvmpipe.
# usage: test/check-consumer.sh BOARD[:PORT]...
set -u
cd "$(dirname "$0")/.."
here=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want="3.5@4 1.25@6 0.7@1"
fail=0

# result WHAT BOARD PORT PROGRAM: runs it and checks the answer, or (a board's
# PORT=linux) checks that it links the GL port
result() {
    if [ "$2" != host ] && [ "$3" = linux ]; then
        if "$(sed -n 's/^BOARD_TRIPLE *:= *//p' "boards/$2/board.mk")-nm" "$4" | grep -q dlopen; then
            echo "PASS $1 (linked with the GL port)"
        else
            echo "FAIL $1: no GL port in the program"
            fail=1
        fi
        return
    fi
    toolchain/run "$2" "$4" >"$4.out" 2>&1
    if grep -q "$want" "$4.out"; then echo "PASS $1"; else echo "FAIL $1:"; sed 's/^/    /' "$4.out"; fail=1; fi
}

# consume BOARD PORT
consume() {
    board=$1 port=$2 stage=$tmp/$1-$2
    make -s --no-print-directory BOARD="$board" PORT="$port" install DESTDIR="$stage" PREFIX=/usr ||
        { echo "FAIL $board PORT=$port: make install"; fail=1; return; }
    triple=$(sed -n 's/^BOARD_TRIPLE *:= *//p' "boards/$board/board.mk")
    if [ -z "$triple" ]; then
        cmake_args="-DCMAKE_PREFIX_PATH=$stage/usr" cc=${CC:-cc}
    else
        cmake_args="-DCMAKE_TOOLCHAIN_FILE=$PWD/toolchain/$triple.cmake -DCMAKE_FIND_ROOT_PATH=$stage" cc=$triple-gcc
    fi
    # shellcheck disable=SC2086
    ver=$(sed -n 's/^#define EDML_VERSION_\(MAJOR\|MINOR\) \([0-9]*\).*/\2/p' include/edml.h | paste -sd.)
    if cmake -S test/cmake-consumer -B "$stage-cmake" $cmake_args -DEDML_WANT="$ver" >"$stage-cmake.log" 2>&1 &&
        cmake --build "$stage-cmake" >>"$stage-cmake.log" 2>&1; then
        result "$board PORT=$port: CMake find_package(edml), edml::edml" "$board" "$port" "$stage-cmake/edml-consumer"
    else
        echo "FAIL $board PORT=$port: the CMake consumer does not build:"
        tail -n 15 "$stage-cmake.log" | sed 's/^/    /'
        fail=1
    fi
    flags=$(PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_LIBDIR="$stage/usr/lib/pkgconfig" pkg-config --cflags --libs --static edml)
    case "$flags" in
    *"-I$stage/usr/include"*"-L$stage/usr/lib"*) ;;
    *) echo "FAIL $board PORT=$port: pkg-config with PKG_CONFIG_SYSROOT_DIR gives '$flags'"; fail=1; return ;;
    esac
    # shellcheck disable=SC2086
    if $cc -std=c11 examples/topk.c -o "$stage-pc" $flags >"$stage-pc.log" 2>&1; then
        result "$board PORT=$port: pkg-config --static" "$board" "$port" "$stage-pc"
    else
        echo "FAIL $board PORT=$port: pkg-config build:"
        tail -n 15 "$stage-pc.log" | sed 's/^/    /'
        fail=1
    fi
}

for spec in "$@"; do
    case $spec in
    *:*) consume "${spec%%:*}" "${spec#*:}" ;;
    *) consume "$spec" "$(sed -n 's/^BOARD_PORT *:= *//p' "boards/$spec/board.mk")" ;;
    esac
done
exit $fail

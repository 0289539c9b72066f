#!/bin/sh
# The variables Buildroot and Yocto set are honoured, for a cross build
# (BOARD, default rpi4):
#  - Buildroot style, on make's command line: CC, AR, CFLAGS, LDFLAGS;
#  - Yocto style, in the environment: CC and AR with flags in them
#    ("aarch64-...-gcc --sysroot=... -mcpu=..."), CFLAGS, LDFLAGS;
#  - DESTDIR and PREFIX for make install.
# CC and AR are wrappers that log each call; every compile must go through
# the given CC with the given CFLAGS, every link with the given LDFLAGS (a
# --defsym that must end up in the programs), the archive through the given
# AR; install puts every file under DESTDIR/PREFIX, and no installed file
# names DESTDIR (edml.pc and the CMake package say PREFIX).
set -u
cd "$(dirname "$0")/.."
board=${1:-rpi4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cross=$(sed -n 's/^BOARD_CROSS_COMPILE *:= *//p' "boards/$board/board.mk")
fail=0
bad() { echo "FAIL $*"; fail=1; }

# wrapper NAME TOOL: $tmp/bin/NAME logs its arguments to $tmp/NAME.log, runs TOOL
wrapper() {
    mkdir -p "$tmp/bin"
    printf '#!/bin/sh\necho "$*" >>"%s/%s.log"\nexec %s "$@"\n' "$tmp" "$1" "$2" >"$tmp/bin/$1"
    chmod +x "$tmp/bin/$1"
}
wrapper cc "${cross}gcc"
wrapper ar "${cross}ar"

# check STYLE BUILD: what the build at BUILD did through the wrappers
check() {
    style=$1 build=$2
    for src in src/core/device.c src/neon/neon_topk.c port/linux/port_linux.c tools/edml-run.c; do
        grep -- "-c $src" "$tmp/cc.log" | grep -q -- "-DEDML_PROBE_CFLAGS" ||
            bad "$style: $src not compiled by CC with CFLAGS"
    done
    grep -q "rcs $build/libedml.a" "$tmp/ar.log" || bad "$style: libedml.a not made by AR"
    for prog in edml-run edml-bench edml-demo; do
        "${cross}nm" "$build/$prog" 2>/dev/null | grep -q ' edml_probe_ldflags$' ||
            bad "$style: $prog not linked with LDFLAGS"
        grep -q -- "-o $build/$prog " "$tmp/cc.log" || bad "$style: $prog not linked by CC"
    done
    [ $fail = 0 ] && echo "PASS $style: CC, AR, CFLAGS and LDFLAGS honoured ($(wc -l <"$tmp/cc.log") compiler calls)"
}

probe_cflags="-O1 -g0 -DEDML_PROBE_CFLAGS=1"
probe_ldflags="-Wl,--defsym=edml_probe_ldflags=0"
make -s -j"${EDML_JOBS:-2}" BOARD="$board" BUILD="$tmp/br" CC="$tmp/bin/cc" AR="$tmp/bin/ar" \
    CFLAGS="$probe_cflags" LDFLAGS="$probe_ldflags" all >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "Buildroot: the build failed"; }
check Buildroot "$tmp/br"

# Yocto: CC carries flags, given in the environment
rm -f "$tmp/cc.log" "$tmp/ar.log"
sysroot=$("${cross}gcc" -print-sysroot)
env CC="$tmp/bin/cc --sysroot=$sysroot" AR="$tmp/bin/ar" CFLAGS="$probe_cflags" LDFLAGS="$probe_ldflags" \
    make -s -j"${EDML_JOBS:-2}" BOARD="$board" BUILD="$tmp/yocto" all >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "Yocto: the build failed"; }
grep -q -- "--sysroot=$sysroot -std=c11" "$tmp/cc.log" || bad "Yocto: the flags in CC were not kept"
check Yocto "$tmp/yocto"

# install: everything under DESTDIR/PREFIX, nothing that names DESTDIR
make -s BOARD="$board" BUILD="$tmp/br" CC="$tmp/bin/cc" AR="$tmp/bin/ar" CFLAGS="$probe_cflags" \
    install DESTDIR="$tmp/stage" PREFIX=/opt/edml >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "install failed"; }
for f in include/edml.h lib/libedml.a lib/pkgconfig/edml.pc lib/cmake/edml/edmlConfig.cmake lib/cmake/edml/edmlConfigVersion.cmake; do
    [ -f "$tmp/stage/opt/edml/$f" ] || bad "install: DESTDIR/PREFIX/$f missing"
done
others=$(cd "$tmp/stage" && find . -type f | grep -v '^\./opt/edml/')
[ -z "$others" ] || bad "install: files outside PREFIX: $others"
grep -rl "$tmp/stage" "$tmp/stage" >/dev/null && bad "install: an installed file names DESTDIR: $(grep -rl "$tmp/stage" "$tmp/stage")"
grep -qx 'prefix=/opt/edml' "$tmp/stage/opt/edml/lib/pkgconfig/edml.pc" || bad "install: edml.pc's prefix is not PREFIX"
cmp -s "$tmp/br/libedml.a" "$tmp/stage/opt/edml/lib/libedml.a" || bad "install: not the archive built with these variables"
# a distribution's layout (lib64): LIBDIR and INCLUDEDIR honoured by install, edml.pc and the CMake package
make -s BOARD="$board" BUILD="$tmp/br" CC="$tmp/bin/cc" AR="$tmp/bin/ar" CFLAGS="$probe_cflags" install \
    DESTDIR="$tmp/stage64" PREFIX=/usr LIBDIR=/usr/lib64 INCLUDEDIR=/usr/include/edml >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "install LIBDIR=/usr/lib64 failed"; }
for f in include/edml/edml.h lib64/libedml.a lib64/pkgconfig/edml.pc lib64/cmake/edml/edmlConfig.cmake; do
    [ -f "$tmp/stage64/usr/$f" ] || bad "install LIBDIR=/usr/lib64 INCLUDEDIR=/usr/include/edml: usr/$f missing"
done
[ -z "$(find "$tmp/stage64/usr/lib" -type f 2>/dev/null)" ] || bad "install LIBDIR=/usr/lib64: files in usr/lib"
grep -qx 'libdir=/usr/lib64' "$tmp/stage64/usr/lib64/pkgconfig/edml.pc" && grep -qx 'includedir=/usr/include/edml' \
    "$tmp/stage64/usr/lib64/pkgconfig/edml.pc" || bad "install LIBDIR=/usr/lib64: edml.pc names other folders"
grep -q '"${CMAKE_CURRENT_LIST_DIR}/../../../include/edml"' "$tmp/stage64/usr/lib64/cmake/edml/edmlConfig.cmake" ||
    bad "install INCLUDEDIR=/usr/include/edml: the CMake package does not find the header there"
[ $fail = 0 ] && echo "PASS install: DESTDIR=... PREFIX=/opt/edml: $(cd "$tmp/stage" && find . -type f | wc -l) files under DESTDIR/PREFIX, none naming DESTDIR; LIBDIR=/usr/lib64 and INCLUDEDIR=/usr/include/edml honoured"
exit $fail

#!/bin/sh
# edml built through Buildroot's own package infrastructure, offline, from
# its release archive (packaging/buildroot as BR2_EXTERNAL; the archive
# make dist makes of the commit meta-edml pins, fetched by Buildroot's own
# download step through EDML_SITE from a file:// site on this machine, as
# an integrator's mirror would serve it, checked against edml.hash),
# as an integrator's `make edml` would; its legal-info (the source saved
# is that archive, not a checkout's build/); then
# utils/check-package on the package's files, and edml-run (built by the
# package, installed into the target) and examples/topk (built against the
# staging directory through its pkg-config file) run right under qemu.
#   test/check-buildroot.sh BUILDROOT=<a Buildroot tree>   (or BUILDROOT in the environment)
# Test-only workarounds, said as they are taken (an integrator's machine
# and toolchain need neither):
#   - Buildroot wants GNU tar 1.35 on the host (else it builds host-tar,
#     fetching its source): Debian 12 has 1.34, so tar 1.35 is built from
#     Debian 13's source package (fetched through this machine's apt
#     mirror, toolchain/apt-mirror) and put first on PATH;
#   - Buildroot refuses a distribution's cross compiler (configured with
#     --with-sysroot=/): Debian's aarch64-linux-gnu-gcc is wrapped, its
#     cross libc laid out as a sysroot (links into /usr/aarch64-linux-gnu).
# The GLES option builds against a test-only stand-in for Mesa (test/buildroot-gl).
set -eu
cd "$(dirname "$0")/.."
for a in "$@"; do case $a in BUILDROOT=*) BUILDROOT=${a#BUILDROOT=} ;; esac; done
if [ -z "${BUILDROOT:-}" ] || [ ! -f "${BUILDROOT:-}/Makefile" ]; then
    echo "check-buildroot: not checked: give BUILDROOT=<a Buildroot tree> (git clone https://gitlab.com/buildroot.org/buildroot)"
    exit 0
fi
missing=
for t in cpio rsync file patch bc unzip perl qemu-aarch64 aarch64-linux-gnu-gcc; do command -v $t >/dev/null || missing="$missing $t"; done
[ -z "$missing" ] || { echo "FAIL: Buildroot's host tools are missing:$missing (apt-get install them)"; exit 1; }
here=$(pwd)
work=$here/build/buildroot-check
out=$work/out
mkdir -p "$work"
BUILDROOT=$(cd "$BUILDROOT" && pwd)

# 1. tar 1.35 where the host's is older
tar_ok() { "$1" --version 2>/dev/null | head -n 1 | awk '{split($NF, v, "."); exit !(v[1] > 1 || (v[1] == 1 && v[2] >= 35))}'; }
if ! tar_ok tar; then
    if [ ! -x "$work/tar/bin/tar" ]; then
        echo "check-buildroot: workaround: the host's tar is $(tar --version | head -n 1 | awk '{print $NF}'); building tar 1.35 from Debian 13's source"
        mirror=$(sh toolchain/apt-mirror)
        src=$work/tar-src
        rm -rf "$src" && mkdir -p "$src/lists/partial" "$src/cache/archives/partial"
        (cd "$src" && echo "deb-src [trusted=yes] $mirror trixie main" >sources.list &&
            apt-get -q -o Dir::Etc::SourceList="$src/sources.list" -o Dir::Etc::SourceParts=/dev/null \
                -o Dir::State::Lists="$src/lists" -o Dir::Cache="$src/cache" update >/dev/null &&
            apt-get -q -o Dir::Etc::SourceList="$src/sources.list" -o Dir::Etc::SourceParts=/dev/null \
                -o Dir::State::Lists="$src/lists" -o Dir::Cache="$src/cache" source --download-only tar >/dev/null)
        t=$(ls "$src"/tar_*.orig.tar.* | head -n 1)
        (cd "$src" && tar xf "$t" && cd tar-1.35* && FORCE_UNSAFE_CONFIGURE=1 ./configure -q --prefix="$work/tar" &&
            make -s -j"$(nproc)" && make -s install) >"$work/tar-build.log" 2>&1
    fi
    PATH=$work/tar/bin:$PATH
    export PATH
    tar_ok tar || { echo "FAIL: no tar 1.35 (build/buildroot-check/tar-build.log)"; exit 1; }
fi

# 2. Debian's cross compilers, wrapped so that Buildroot takes them:
#    wrap TRIPLE makes $work/toolchain-TRIPLE (its bin/) and sysroot-TRIPLE
wrap() {
    tc=$work/toolchain-$1
    sys=$work/sysroot-$1
    if [ ! -d "$sys/usr/lib" ]; then # a copy: Buildroot copies the sysroot's libraries into its own
        mkdir -p "$tc/bin" "$sys/usr/$1"
        cp -a "/usr/$1/include" "/usr/$1/lib" "$sys/usr/"
        ln -sfn usr/lib "$sys/lib"
        ln -sfn ../lib "$sys/usr/$1/lib" # libc.so's absolute paths, taken within the sysroot
    fi
    for t in gcc cpp ar as ld ld.bfd nm objcopy objdump ranlib readelf strip gcc-ar gcc-nm gcc-ranlib; do
        real=$(command -v "$1-$t") || continue
        if [ "$t" = gcc ] || [ "$t" = cpp ]; then
            cat >"$tc/bin/$1-$t" <<EOF
#!/bin/sh
# test-only: Debian's cross $t with its libc as a sysroot; -v without --with-sysroot=/
case " \$* " in *" --sysroot"*) exec $real "\$@" ;; esac
if [ "\$*" = -v ]; then $real -v 2>&1 | sed 's| --with-sysroot=/ | |' >&2; exit 0; fi
for a in "\$@"; do # the sysroot's files, where Buildroot looks for its libc
    case \$a in -print-sysroot) echo $sys; exit 0 ;; -print-file-name=*) f=$sys/usr/lib/\${a#-print-file-name=}; [ -e "\$f" ] && echo "\$f" && exit 0 ;; esac
done
exec $real --sysroot=$sys "\$@"
EOF
            chmod +x "$tc/bin/$1-$t"
        else
            ln -sfn "$real" "$tc/bin/$1-$t"
        fi
    done
    echo "check-buildroot: workaround: Debian's $1-gcc wrapped as an external toolchain ($tc), its libc as a sysroot"
}
wrap aarch64-linux-gnu

# build_variant NAME EXTERNALS LINE: make edml in $work/out-NAME ($bout) from
# $work/defconfig-NAME with the BR2_EXTERNAL trees EXTERNALS, its .config
# holding LINE, nothing downloaded but the release archive
no_downloads() {
    others=$(cd "$work/dl" && find . -type f ! -path "./edml/edml-$version.tar.gz" ! -name .lock)
    [ -z "$others" ] || { echo "FAIL: Buildroot downloaded: $others"; exit 1; }
}
build_variant() {
    bout=$work/out-$1
    mkdir -p "$bout"
    make -C "$BUILDROOT" O="$bout" BR2_EXTERNAL="$2" BR2_DEFCONFIG="$work/defconfig-$1" defconfig \
        >"$work/defconfig-$1.log" 2>&1 || { tail -n 20 "$work/defconfig-$1.log"; exit 1; }
    grep -qx "$3" "$bout/.config" || { echo "FAIL: the $1 configuration has no $3"; exit 1; }
    make -C "$BUILDROOT" O="$bout" BR2_EXTERNAL="$2" edml-dirclean >/dev/null 2>&1
    make -C "$BUILDROOT" O="$bout" BR2_EXTERNAL="$2" "$site" edml >"$work/make-edml-$1.log" 2>&1 ||
        { tail -n 30 "$work/make-edml-$1.log"; echo "FAIL: make edml ($1)"; exit 1; }
    no_downloads
}
# vectors NAME QEMU ROOT PROGRAM BACKEND: PROGRAM (an edml-run) checks every
# vector on BACKEND under QEMU (with its arguments) -L ROOT, none failed
# ($work/run-NAME.txt)
vectors() {
    $2 -L "$3" "$4" --check --backend "$5" test/cases/*.case | tail -n 1 | tee "$work/run-$1.txt" |
        grep -q " 0 failed" || { cat "$work/run-$1.txt"; echo "FAIL: edml-run on $5 ($1)"; exit 1; }
}

# 3. a configuration of edml alone on that toolchain, and make edml from
#    the release archive (what the download would bring, nothing else)
#    through EDML_SITE, from a site on this machine ($work/site)
rm -rf "$work/dl" "$work/site"
mkdir -p "$out" "$work/dl" "$work/site"
version=$(sed -n 's/^EDML_VERSION = //p' packaging/buildroot/package/edml/edml.mk)
srcrev=$(sed -n 's/^SRCREV = "\(.*\)"/\1/p' packaging/meta-edml/recipes-support/edml/edml_git.bb)
make -s --no-print-directory dist DIST_COMMIT="$srcrev" >/dev/null && cp "build/edml-$version.tar.gz" "$work/site/" ||
    { echo "FAIL: make dist DIST_COMMIT=$srcrev"; exit 1; }
site=EDML_SITE=file://$work/site
cat >"$work/defconfig" <<EOF
BR2_aarch64=y
BR2_cortex_a72=y
BR2_DL_DIR="$work/dl"
BR2_TOOLCHAIN_EXTERNAL=y
BR2_TOOLCHAIN_EXTERNAL_CUSTOM=y
BR2_TOOLCHAIN_EXTERNAL_PREINSTALLED=y
BR2_TOOLCHAIN_EXTERNAL_PATH="$work/toolchain-aarch64-linux-gnu"
BR2_TOOLCHAIN_EXTERNAL_CUSTOM_PREFIX="aarch64-linux-gnu"
BR2_TOOLCHAIN_EXTERNAL_GCC_12=y
BR2_TOOLCHAIN_EXTERNAL_HEADERS_6_1=y
BR2_TOOLCHAIN_EXTERNAL_CUSTOM_GLIBC=y
# BR2_TOOLCHAIN_EXTERNAL_CXX is not set
BR2_TOOLCHAIN_EXTERNAL_OPENMP=y
# BR2_TOOLCHAIN_EXTERNAL_INET_RPC is not set
BR2_INIT_NONE=y
BR2_SYSTEM_BIN_SH_NONE=y
# BR2_PACKAGE_BUSYBOX is not set
# BR2_TARGET_ROOTFS_TAR is not set
BR2_PACKAGE_EDML=y
BR2_PACKAGE_EDML_TOOLS=y
EOF
br() { make -C "$BUILDROOT" O="$out" BR2_EXTERNAL="$here/packaging/buildroot" "$site" "$@"; }
start=$(date +%s)
br BR2_DEFCONFIG="$work/defconfig" defconfig >"$work/defconfig.log" 2>&1 || { tail -n 20 "$work/defconfig.log"; exit 1; }
grep -q '^BR2_PACKAGE_EDML=y' "$out/.config" || { echo "FAIL: the configuration lost BR2_PACKAGE_EDML"; exit 1; }
board=$(sed -n 's/^BR2_PACKAGE_EDML_BOARD="\(.*\)"/\1/p' "$out/.config")
br edml-dirclean >/dev/null 2>&1 # a run before this one built it: fetched and built again
br edml >"$work/make-edml.log" 2>&1 || { tail -n 30 "$work/make-edml.log"; echo "FAIL: make edml"; exit 1; }
no_downloads
cmp -s "$work/site/edml-$version.tar.gz" "$work/dl/edml/edml-$version.tar.gz" ||
    { echo "FAIL: Buildroot's download step did not bring edml-$version.tar.gz from EDML_SITE"; exit 1; }
grep -q "Downloading" "$work/make-edml.log" && grep -q "$work/site/edml-$version.tar.gz" "$work/make-edml.log" ||
    { echo "FAIL: the download step did not fetch from the site ($work/make-edml.log)"; exit 1; }
echo "check-buildroot: make edml (board $board, from the target's Cortex-A72) from edml-$version.tar.gz (the archive of $srcrev, edml.hash's sha256, downloaded through EDML_SITE from file://$work/site) in $(($(date +%s) - start)) s; other downloads: 0"
br edml-legal-info >"$work/legal-info.log" 2>&1 || { tail -n 20 "$work/legal-info.log"; echo "FAIL: make edml-legal-info"; exit 1; }
saved=$(find "$out/legal-info/sources" -path "*edml*" -type f -name "*.tar*" | head -n 1)
[ -n "$saved" ] && [ "$(stat -c %s "$saved")" -lt 4000000 ] ||
    { echo "FAIL: legal-info saved no edml source, or one over 4 MB: ${saved:-none}"; exit 1; }
echo "check-buildroot: make edml-legal-info: $(basename "$saved"), $(($(stat -c %s "$saved") / 1024)) KiB, the licence in $(find "$out/legal-info/licenses" -path "*edml*" -name LICENSE | wc -l) place(s)"
staging=$(ls -d "$out"/host/*-buildroot-linux-*/sysroot | head -n 1) # the staging directory, before make's link to it
for f in usr/include/edml.h usr/lib/libedml.a usr/lib/pkgconfig/edml.pc usr/lib/cmake/edml/edmlConfig.cmake; do
    [ -f "$staging/$f" ] || { echo "FAIL: staging has no $f"; exit 1; }
done

# 3b. the GLES option on the same toolchain, against a stand-in provider of
#     libegl and libgles (test/buildroot-gl, a test-only BR2_EXTERNAL: no
#     Mesa fetched); edml-run from its target then runs every vector on
#     GLES under qemu with the host's arm64 Mesa (llvmpipe)
{ cat "$work/defconfig"; printf 'BR2_PACKAGE_EDML_TEST_GL=y\nBR2_PACKAGE_EDML_GLES=y\n'; } >"$work/defconfig-gles"
start=$(date +%s)
build_variant gles "$here/packaging/buildroot:$here/test/buildroot-gl" BR2_PACKAGE_EDML_GLES=y
grep -q libEGL.so.1 "$bout/target/usr/bin/edml-run" || { echo "FAIL: the GLES option did not build PORT=linux (no EGL loading)"; exit 1; }
if [ -e /lib/aarch64-linux-gnu/libc.so.6 ] && [ -e /usr/lib/aarch64-linux-gnu/libEGL.so.1 ]; then
    qemu-aarch64 -L / "$bout/target/usr/bin/edml-run" --list-backends >"$work/backends-gles.txt" 2>&1 || true
    grep -q gles "$work/backends-gles.txt" || { cat "$work/backends-gles.txt"; echo "FAIL: no gles under the arm64 Mesa"; exit 1; }
    vectors gles qemu-aarch64 / "$bout/target/usr/bin/edml-run" gles
    echo "check-buildroot: make edml with GLES (PORT=linux, the stand-in provider) in $(($(date +%s) - start)) s; edml-run on GLES under qemu with the arm64 Mesa: $(cat "$work/run-gles.txt")"
else
    echo "check-buildroot: make edml with GLES (PORT=linux, the stand-in provider) in $(($(date +%s) - start)) s; not run: no arm64 Mesa (toolchain/setup-host test installs it)"
fi

# 4. the package's own lint
if /usr/bin/python3 -c 'import magic, flake8' 2>/dev/null; then
    (cd packaging/buildroot && /usr/bin/python3 "$BUILDROOT/utils/check-package" -b package/edml/Config.in \
        package/edml/edml.mk package/edml/edml.hash Config.in) || { echo "FAIL: check-package"; exit 1; }
else
    echo "check-buildroot: not checked: utils/check-package needs python3-magic and flake8 (apt-get install python3-magic flake8)"
fi

# 5. the Raspberry Pi fragments over Buildroot's defconfigs: edml with its GPU path and Mesa's V3D
for pi in 4_64:rpi4 5:rpi5; do
    cfg=$work/raspberrypi${pi%%:*}
    rm -rf "$cfg" && mkdir -p "$cfg"
    make -s -C "$BUILDROOT" O="$cfg" BR2_EXTERNAL="$here/packaging/buildroot" "raspberrypi${pi%%:*}_defconfig" >"$cfg.log" 2>&1 &&
        (cd "$cfg" && "$BUILDROOT/support/kconfig/merge_config.sh" -m .config \
            "$here/packaging/buildroot/configs/edml_${pi#*:}.fragment" && make -s olddefconfig) >>"$cfg.log" 2>&1 ||
        { tail -n 10 "$cfg.log"; echo "FAIL: raspberrypi${pi%%:*}_defconfig with edml_${pi#*:}.fragment"; exit 1; }
    for o in BR2_PACKAGE_EDML_GLES=y BR2_PACKAGE_MESA3D_GALLIUM_DRIVER_V3D=y "BR2_PACKAGE_EDML_BOARD=\"${pi#*:}\"" \
        BR2_PACKAGE_RPI_FIRMWARE_INSTALL_DTB_OVERLAYS=y BR2_ROOTFS_DEVICE_CREATION_DYNAMIC_EUDEV=y \
        "BR2_PACKAGE_RPI_FIRMWARE_CONFIG_FILE=\"\$(BR2_EXTERNAL_EDML_PATH)/board/${pi#*:}/config.txt\""; do
        grep -qx "$o" "$cfg/.config" || { echo "FAIL: raspberrypi${pi%%:*}_defconfig with the fragment: no $o"; exit 1; }
    done
    grep -qx "dtoverlay=vc4-kms-v3d" "packaging/buildroot/board/${pi#*:}/config.txt" ||
        { echo "FAIL: ${pi#*:}'s config.txt has no vc4-kms-v3d overlay (no /dev/dri/renderD128)"; exit 1; }
done
echo "check-buildroot: raspberrypi4_64_defconfig and raspberrypi5_defconfig with edml's fragments: edml with GLES, Mesa's V3D, config.txt with vc4-kms-v3d, the overlays, eudev"

# 5b. ARMv7: Buildroot's default FPU for a Cortex-A72 in 32-bit mode (FP-ARMv8, no NEON) does not offer edml
#     (refused at configuration, not a compile error); with the NEON FPU it does, and builds on Debian's
#     arm-linux-gnueabihf-gcc, and its edml-run passes every vector under qemu-arm
for fpu in "" BR2_ARM_FPU_NEON_FP_ARMV8=y; do
    cfg=$work/armv7${fpu:+-neon}
    rm -rf "$cfg" && mkdir -p "$cfg"
    printf 'BR2_arm=y\nBR2_cortex_a72=y\nBR2_ARM_EABIHF=y\n%s\nBR2_PACKAGE_EDML=y\n' "$fpu" >"$cfg.defconfig"
    make -s -C "$BUILDROOT" O="$cfg" BR2_EXTERNAL="$here/packaging/buildroot" BR2_DEFCONFIG="$cfg.defconfig" defconfig \
        >"$cfg.log" 2>&1 || { tail -n 10 "$cfg.log"; echo "FAIL: an ARMv7 configuration"; exit 1; }
    if [ -z "$fpu" ]; then
        grep -q '^BR2_PACKAGE_EDML=y' "$cfg/.config" && { echo "FAIL: ARMv7 with FP-ARMv8 (no NEON) offers edml"; exit 1; }
    else
        grep -q '^BR2_PACKAGE_EDML=y' "$cfg/.config" || { echo "FAIL: ARMv7 with NEON/FP-ARMv8 does not offer edml"; exit 1; }
    fi
done
echo "check-buildroot: ARMv7 (Cortex-A72, 32-bit): Buildroot's default FPU does not offer edml, NEON/FP-ARMv8 does"
if command -v arm-linux-gnueabihf-gcc >/dev/null && command -v qemu-arm >/dev/null; then
    wrap arm-linux-gnueabihf
    sed -e 's/^BR2_aarch64=y/BR2_arm=y\nBR2_ARM_EABIHF=y\nBR2_ARM_FPU_NEON_FP_ARMV8=y/' \
        -e 's/aarch64-linux-gnu/arm-linux-gnueabihf/g' "$work/defconfig" >"$work/defconfig-armv7"
    start=$(date +%s)
    build_variant armv7 "$here/packaging/buildroot" BR2_PACKAGE_EDML=y
    vectors armv7 qemu-arm "$bout/target" "$bout/target/usr/bin/edml-run" neon
    echo "check-buildroot: make edml for ARMv7 (board $(sed -n 's/^BR2_PACKAGE_EDML_BOARD="\(.*\)"/\1/p' "$bout/.config"), NEON/FP-ARMv8) in $(($(date +%s) - start)) s; edml-run from its target under qemu-arm: $(cat "$work/run-armv7.txt")"
    # a Cortex-A8 with the plain NEON FPU (VFPv3, no half-float conversion)
    sed -e 's/^BR2_aarch64=y/BR2_arm=y\nBR2_ARM_EABIHF=y\nBR2_ARM_FPU_NEON=y/' -e 's/^BR2_cortex_a72=y/BR2_cortex_a8=y/' \
        -e 's/aarch64-linux-gnu/arm-linux-gnueabihf/g' "$work/defconfig" >"$work/defconfig-neon"
    start=$(date +%s)
    build_variant neon "$here/packaging/buildroot" BR2_ARM_FPU_NEON=y
    vectors neon "qemu-arm -cpu cortex-a8" "$bout/target" "$bout/target/usr/bin/edml-run" neon
    echo "check-buildroot: make edml for a Cortex-A8 (BR2_ARM_FPU_NEON: no half-float conversion) in $(($(date +%s) - start)) s; edml-run from its target under qemu-arm -cpu cortex-a8: $(cat "$work/run-neon.txt")"
else
    echo "check-buildroot: not checked: the ARMv7 build (arm-linux-gnueabihf-gcc or qemu-arm missing: toolchain/setup-host test)"
fi

# 6. what the package built, run under qemu
vectors aarch64 qemu-aarch64 "$out/target" "$out/target/usr/bin/edml-run" neon
pc="$(PKG_CONFIG_SYSROOT_DIR=$staging PKG_CONFIG_LIBDIR=$staging/usr/lib/pkgconfig pkg-config --cflags --libs --static edml)"
# shellcheck disable=SC2086
"$out/host/bin/aarch64-linux-gnu-gcc" -O2 -o "$work/topk" examples/topk.c $pc
qemu-aarch64 -L "$staging" "$work/topk" | tee "$work/topk.txt" | grep -q "3.5@4 1.25@6 0.7@1" ||
    { cat "$work/topk.txt"; echo "FAIL: examples/topk against the staging directory"; exit 1; }
echo "check-buildroot: edml-run from the target: $(cat "$work/run-aarch64.txt"); examples/topk built against staging: $(grep "^top" "$work/topk.txt")"
echo "check-buildroot: not checked: Mesa built by Buildroot (the stand-in provider stands for it), a Raspberry Pi image booted"

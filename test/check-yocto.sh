#!/bin/sh
# meta-edml in a poky build, offline (BB_NO_NETWORK): bitbake parses every
# recipe with the layer added (-p), prints edml's environment (-e: the
# board taken from the machine's tune, the machine's CPU flags in CC and
# none of edml's board's), writes its task graph (-g) and dry-runs its build
# (-n), as an integrator's first steps would, then fetches edml from a
# file:// clone of this repository and unpacks it (-c unpack): S and
# LIC_FILES_CHKSUM checked against the unpacked source.
#   test/check-yocto.sh POKY=<a poky tree, scarthgap>   (or POKY in the environment)
# bitbake refuses to run as root, and wants the en_US.UTF-8 locale and
# chrpath, diffstat and gawk on the host: run it as a normal user, or as
# root with EDML_YOCTO_USER naming an existing user to run bitbake as (it
# adds no user to the host). What it cannot check offline is printed at
# the end.
set -eu
cd "$(dirname "$0")/.."
for a in "$@"; do case $a in POKY=*) POKY=${a#POKY=} ;; esac; done
if [ -z "${POKY:-}" ] || [ ! -f "${POKY:-}/oe-init-build-env" ]; then
    echo "check-yocto: not checked: give POKY=<a poky tree> (git clone -b scarthgap https://git.yoctoproject.org/poky)"
    exit 0
fi
missing=
for t in chrpath diffstat gawk python3 git; do command -v $t >/dev/null || missing="$missing $t"; done
locale -a 2>/dev/null | grep -qi '^en_US.utf-\?8$' || missing="$missing en_US.UTF-8-locale"
[ -z "$missing" ] || { echo "FAIL: bitbake's host needs:$missing (apt-get install chrpath diffstat gawk locales; locale-gen)"; exit 1; }
here=$(pwd)
POKY=$(cd "$POKY" && pwd)
work=$here/build/yocto-check
mkdir -p "$work"
run=
if [ "$(id -u)" = 0 ]; then # bitbake refuses root; this script adds no user to the host
    user=${EDML_YOCTO_USER:-}
    [ -n "$user" ] && id "$user" >/dev/null 2>&1 || {
        echo "FAIL: bitbake does not run as root: run this as a normal user, or give EDML_YOCTO_USER=<an existing user> (with read access to POKY)"
        exit 1
    }
    chown -R "$user" "$work"
    run="runuser -u $user --"
fi
machine=${EDML_YOCTO_MACHINE:-qemuarm64}
# edml's source from a file:// clone of this repository (the network stays
# off for everything else): its unpacked tree is what S and
# LIC_FILES_CHKSUM are checked against
rm -rf "$work/edml.git" && git clone -q --bare "$here" "$work/edml.git"
[ -z "$run" ] || chown -R "$user" "$work"
cat >"$work/steps.sh" <<EOF
set -e
export LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8
cd "$POKY" # oe-init-build-env finds itself from there
. ./oe-init-build-env "$work/build" >/dev/null
grep -q meta-edml conf/bblayers.conf || bitbake-layers add-layer "$here/packaging/meta-edml" >/dev/null
grep -q BB_NO_NETWORK conf/local.conf || printf 'BB_NO_NETWORK = "1"\nMACHINE = "$machine"\nPACKAGECONFIG:pn-edml = "gles tools"\n' >>conf/local.conf
grep -q 'SRC_URI:pn-edml' conf/local.conf ||
    printf 'SRC_URI:pn-edml = "git://$work/edml.git;protocol=file;branch=main"\nBB_NO_NETWORK:pn-edml = "0"\n' >>conf/local.conf
bitbake -p >"$work/parse.log" 2>&1
bitbake -e edml >"$work/env.txt" 2>"$work/env.log"
bitbake -g edml >"$work/graph.log" 2>&1
bitbake -n edml >"$work/dry-run.log" 2>&1
bitbake -c unpack edml >"$work/unpack.log" 2>&1
bitbake -e edml | grep -E '^(S|LIC_FILES_CHKSUM)=' >"$work/unpacked-vars.txt"
cd "$POKY" # 32-bit ARM: poky's qemuarm, with the recipe's own PACKAGECONFIG
. ./oe-init-build-env "$work/build-qemuarm" >/dev/null
grep -q meta-edml conf/bblayers.conf || bitbake-layers add-layer "$here/packaging/meta-edml" >/dev/null
grep -q BB_NO_NETWORK conf/local.conf || printf 'BB_NO_NETWORK = "1"\nMACHINE = "qemuarm"\n' >>conf/local.conf
bitbake -e edml >"$work/env-qemuarm.txt" 2>"$work/env-qemuarm.log"
EOF
start=$(date +%s)
$run bash "$work/steps.sh" || {
    for l in parse env graph dry-run env-qemuarm; do [ -f "$work/$l.log" ] && tail -n 15 "$work/$l.log"; done
    echo "FAIL: bitbake (logs in build/yocto-check/)"
    exit 1
}
v() { sed -n "s/^\\(export \\)\\{0,1\\}$1=\"\\(.*\\)\"\$/\\2/p" "$work/env.txt" | head -n 1; }
board=$(v EDML_BOARD) tune=$(v TUNE_CCARGS) make_opts=$(v EXTRA_OEMAKE) cc=$(v CC) srcrev=$(v SRCREV)
fail=0
[ -n "$board" ] && [ -f "boards/$board/board.mk" ] || { echo "FAIL: EDML_BOARD '$board' is not a board of edml"; fail=1; }
case "$make_opts" in *"BOARD_TUNE= "*) ;; *) echo "FAIL: EXTRA_OEMAKE keeps the board's CPU flags: $make_opts"; fail=1 ;; esac
case "$cc" in *"$tune"*) ;; *) echo "FAIL: CC lacks the machine's tune ($tune): $cc"; fail=1 ;; esac
grep -q "edml.*do_compile" "$work/build/task-depends.dot" 2>/dev/null || { echo "FAIL: no task graph for edml"; fail=1; }
grep -q "edml" "$work/dry-run.log" || { echo "FAIL: the dry run did not reach edml"; fail=1; }
uv() { sed -n "s/^$1=\"\(.*\)\"\$/\1/p" "$work/unpacked-vars.txt" | head -n 1; }
src=$(uv S) lic=$(uv LIC_FILES_CHKSUM)
if [ -z "$src" ] || [ ! -f "$src/Makefile" ] || [ ! -f "$src/include/edml.h" ]; then
    echo "FAIL: S ($src) is not the unpacked edml source (unpack.log: $(tail -n 3 "$work/unpack.log" | tr '\n' ' '))"
    fail=1
fi
for entry in $lic; do
    f=${entry#file://} f=${f%%;*} want=${entry##*md5=}
    got=$(md5sum "$src/$f" 2>/dev/null | cut -d' ' -f1)
    [ "$got" = "$want" ] || { echo "FAIL: LIC_FILES_CHKSUM: $f in the unpacked source has md5 ${got:-none}, the recipe says $want"; fail=1; }
done
[ "$(git -c safe.directory="$src" -C "$src" rev-parse HEAD 2>/dev/null)" = "$srcrev" ] || { echo "FAIL: the unpacked source is not SRCREV $srcrev"; fail=1; }
# qemuarm, the default PACKAGECONFIG: the library built with the flags
# bitbake gives it (Debian's cross compiler standing for poky's)
qv() { sed -n "s/^\\(export \\)\\{0,1\\}$1=\"\\(.*\\)\"\$/\\2/p" "$work/env-qemuarm.txt" | head -n 1; }
qboard=$(qv EDML_BOARD) qtune=$(qv TUNE_CCARGS) qport=$(qv EDML_PORT) qpc=$(qv PACKAGECONFIG)
[ "$qboard" = rpi4-armhf ] || { echo "FAIL: qemuarm's EDML_BOARD is '$qboard', not rpi4-armhf"; fail=1; }
case "$qtune" in *neon*) ;; *) echo "FAIL: qemuarm's tune has no NEON: '$qtune'"; fail=1 ;; esac
if command -v arm-linux-gnueabihf-gcc >/dev/null; then
    # shellcheck disable=SC2086
    make -s --no-print-directory BOARD="$qboard" PORT="$qport" BOARD_TUNE= CC="arm-linux-gnueabihf-gcc $qtune" \
        BUILD=build/yocto-check/qemuarm lib >"$work/qemuarm-build.log" 2>&1 ||
        { tail -n 15 "$work/qemuarm-build.log"; echo "FAIL: the library with qemuarm's flags"; fail=1; }
fi
[ $fail = 0 ] || exit 1
echo "check-yocto: MACHINE qemuarm, the recipe's default PACKAGECONFIG '$qpc': EDML_BOARD $qboard, PORT=$qport, the tune '$qtune'; the library built with those flags"
poky=$(git -C "$POKY" describe --tags 2>/dev/null ||
    sed -n 's/^DISTRO_VERSION = "\(.*\)"/\1/p' "$POKY/meta-poky/conf/distro/poky.conf" 2>/dev/null)
echo "check-yocto: poky ${poky:-?}, MACHINE $machine: parsed, edml's environment, task graph and dry run in $(($(date +%s) - start)) s"
echo "check-yocto: EDML_BOARD $board from the tune '$tune'; SRCREV $srcrev; PACKAGECONFIG '$(v PACKAGECONFIG)'"
echo "check-yocto: edml unpacked from a file:// clone at SRCREV into S ($(echo "$src" | sed "s|$work|build/yocto-check|")); LIC_FILES_CHKSUM matches its $(echo "$lic" | wc -w) file(s)"
if [ "${EDML_YOCTO_CHECK_LAYER:-0}" = 1 ]; then # about 25 minutes: every recipe parsed and signed with and without the layer
    cat >"$work/check-layer.sh" <<EOF
set -e
export LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8
cd "$POKY"
. ./oe-init-build-env "$work/layer-build" >/dev/null # a build without the layer: its signatures before and after
grep -q BB_NO_NETWORK conf/local.conf || printf 'BB_NO_NETWORK = "1"\nMACHINE = "$machine"\n' >>conf/local.conf
yocto-check-layer --no-auto-dependency "$here/packaging/meta-edml" >"$work/check-layer.log" 2>&1 || true
EOF
    mkdir -p "$work/layer-build"
    [ -z "$run" ] || chown -R "$user" "$work/layer-build" "$work/check-layer.sh"
    # judged test by test (scarthgap marks test_patches_upstream_status an
    # expected failure: a layer with no patch is an "unexpected success")
    $run bash "$work/check-layer.sh"
    l=$work/check-layer.log
    if grep -q '^INFO:  \.\.\. \(FAIL\|ERROR\)' "$l" || ! grep -q '^INFO: Ran [0-9]* tests' "$l"; then
        grep -B 1 -A 8 '^INFO:  \.\.\. \(FAIL\|ERROR\)' "$l" | head -n 40
        echo "FAIL: yocto-check-layer (build/yocto-check/check-layer.log)"
        exit 1
    fi
    echo "check-yocto: yocto-check-layer: $(grep -c '^INFO:  \.\.\. ok$' "$l") tests ok, $(grep -c '^INFO:  \.\.\. skipped' "$l") skipped (not a BSP or distro layer), $(grep -c '^INFO:  \.\.\. unexpected success' "$l") unexpected success (test_patches_upstream_status: no patch), none failed"
else
    echo "check-yocto: not checked: yocto-check-layer (EDML_YOCTO_CHECK_LAYER=1 runs it, about 25 minutes)"
fi
echo "check-yocto: not checked: compiling through bitbake (BB_NO_NETWORK: its toolchain would be fetched and built; the library was compiled with qemuarm's flags by Debian's cross compiler)"

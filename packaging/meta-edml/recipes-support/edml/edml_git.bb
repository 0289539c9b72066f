# SPDX-License-Identifier: MIT
SUMMARY = "DirectML's tensor operators for ARM boards, with no heap"
DESCRIPTION = "TopK, GatherND, ArgMin/ArgMax and ElementWiseIf on NEON and, \
where the board has a GPU, OpenGL ES 3.1 compute shaders: a static library, \
its header, pkg-config and CMake packages."
HOMEPAGE = "https://github.com/edml/edml"
SECTION = "libs"
LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://LICENSE;md5=3b83ef96387f14655fc854ddc3c6bd57"

# edml's repository: a bbappend's SRC_URI points a build at a mirror of it;
# SRCREV is the release this layer builds (docs/integration.md).
SRC_URI = "git://github.com/edml/edml.git;protocol=https;branch=main"
SRCREV = "2baf2f5252b6d3a7687ce52b688f2b13d618ba65"
PV = "0.2.0+git"

# scarthgap (the series this layer was tried with) unpacks git into WORKDIR
S = "${WORKDIR}/git"

# little-endian AArch64, or 32-bit ARM with NEON and hard float
COMPATIBLE_HOST = "(aarch64|arm)-.*-linux.*"
COMPATIBLE_HOST:arm = "${@bb.utils.contains('TUNE_FEATURES', 'neon callconvention-hard', 'arm.*-linux.*', 'null', d)}"

# edml's board (boards/<board>/ of its source): the AUTO thresholds and the
# GPU's workgroup size it reads at run time, taken from the machine's tune.
# The CPU flags are the machine's own (BOARD_TUNE empty: TUNE_CCARGS in CC).
def edml_board(d):
    tune = (d.getVar('TUNE_FEATURES') or '').split()
    arm64 = d.getVar('TARGET_ARCH') == 'aarch64'
    if not arm64:
        return 'rpi4-armhf'
    for feature, board in (('cortexa76', 'rpi5'), ('cortexa72', 'rpi4'), ('cortexa78ae', 'jetson-orin'),
                           ('cortexa57', 'jetson-nano'), ('cortexa53', 'rpi3')):
        if feature in tune or any(t.startswith(feature) for t in tune):
            return board
    return 'rpi4'

EDML_BOARD ??= "${@edml_board(d)}"
# a machine may set its own EDML_BOARD: the package is the machine's
PACKAGE_ARCH = "${MACHINE_ARCH}"

PACKAGECONFIG ??= "${@bb.utils.filter('DISTRO_FEATURES', 'opengl', d) and 'gles' or ''}"
# the GPU path loads libEGL and libGLESv2 at run time (dlopen: nothing to
# build against, and shlibdeps cannot see them), recommended by the names
# every GL provider gives them; it needs a distro with OpenGL
PACKAGECONFIG[gles] = ",,,,libegl libgles2"
inherit features_check
REQUIRED_DISTRO_FEATURES = "${@bb.utils.contains('PACKAGECONFIG', 'gles', 'opengl', '', d)}"
PACKAGECONFIG[tools] = ""

EDML_PORT = "${@bb.utils.contains('PACKAGECONFIG', 'gles', 'linux', 'none', d)}"
EXTRA_OEMAKE = "BOARD=${EDML_BOARD} PORT=${EDML_PORT} BOARD_TUNE= \
    CC='${CC}' AR='${AR}' CFLAGS='${CFLAGS}' LDFLAGS='${LDFLAGS}' \
    PREFIX=${prefix} LIBDIR=${libdir} INCLUDEDIR=${includedir} BINDIR=${bindir} BUILD=build/yocto"

do_configure[noexec] = "1"

do_compile() {
    oe_runmake lib ${@bb.utils.contains('PACKAGECONFIG', 'tools', 'build/yocto/edml-run build/yocto/edml-bench build/yocto/edml-demo', '', d)}
}

do_install() {
    oe_runmake install ${@bb.utils.contains('PACKAGECONFIG', 'tools', 'install-tools', '', d)} DESTDIR=${D}
}

# the library is static: libedml.a in edml-staticdev, the header, edml.pc and
# the CMake package in edml-dev (bitbake.conf's own FILES); edml itself
# holds the tools, if built
ALLOW_EMPTY:${PN} = "1"
RDEPENDS:${PN}-dev = ""

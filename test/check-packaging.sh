#!/bin/sh
# What the packages for Buildroot and Yocto (packaging/) can be checked for
# without fetching anything: the licence (LICENSE is Apache-2.0's text, its
# checksums in the recipe and in Buildroot's hash file match it, SPDX lines
# in the installed files, the licence installed and in edml.pc); the
# recipe's required variables, a full SRCREV that names a commit of this
# repository whose LICENSE has the recipe's checksum; Buildroot's package
# variables, its boards edml's; both packages' version that of the pinned
# commit's edml.h, whose public declarations, like today's edml.h's, are
# their version's (packaging/abi.txt);
# no -Werror in a plain make or the packages.
# test/check-buildroot.sh and test/check-yocto.sh build and parse them
# with a Buildroot or poky tree.
set -u
cd "$(dirname "$0")/.."
fail=0
no() { echo "FAIL: $*"; fail=1; }
bb=packaging/meta-edml/recipes-support/edml/edml_git.bb
mk=packaging/buildroot/package/edml/edml.mk
version_of() { sed -n 's/^#define EDML_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' | paste -sd.; }
version=$(version_of <include/edml.h)
abi_of() { awk -v v="$1" '$1 == v { print $2 }' packaging/abi.txt; } # a version's digest
# one version, one set of public declarations: today's edml.h's are its version's
abi=$(sh tools/abi-digest.sh include/edml.h)
[ "$(abi_of "$version")" = "$abi" ] ||
    no "edml.h's public declarations (digest $abi) are not those of $version in packaging/abi.txt: a change to them is a new version (EDML_VERSION_*) with its line there"
# the licence
grep -q "Apache License" LICENSE && grep -q "Version 2.0, January 2004" LICENSE || no "LICENSE is not Apache-2.0's text"
md5=$(md5sum LICENSE | cut -d' ' -f1) sha=$(sha256sum LICENSE | cut -d' ' -f1)
grep -q "LIC_FILES_CHKSUM = \"file://LICENSE;md5=$md5\"" "$bb" || no "$bb: LIC_FILES_CHKSUM is not LICENSE's md5 ($md5)"
grep -q "^sha256  $sha  LICENSE$" packaging/buildroot/package/edml/edml.hash || no "edml.hash: not LICENSE's sha256 ($sha)"
for f in include/edml.h edml.pc.in cmake/edmlConfig.cmake.in cmake/edmlConfigVersion.cmake.in \
    toolchain/aarch64-linux-gnu.cmake toolchain/arm-linux-gnueabihf.cmake; do
    head -n 1 "$f" | grep -q "SPDX-License-Identifier: Apache-2.0" || no "$f: no SPDX line first"
done
d=$(mktemp -d)
make -s --no-print-directory BOARD=host PORT=none BUILD=build/host/static DESTDIR="$d" PREFIX=/usr install >/dev/null 2>&1 ||
    no "make install"
cmp -s LICENSE "$d/usr/share/doc/edml/LICENSE" || no "the licence is not installed (share/doc/edml/LICENSE)"
[ "$(PKG_CONFIG_PATH=$d/usr/lib/pkgconfig pkg-config --variable=license edml 2>/dev/null)" = Apache-2.0 ] ||
    no "edml.pc: no license variable"
grep -q 'edml_LICENSE "Apache-2.0"' "$d/usr/lib/cmake/edml/edmlConfig.cmake" || no "edmlConfig.cmake: no edml_LICENSE"
rm -rf "$d"
# the Yocto recipe
for v in SUMMARY LICENSE LIC_FILES_CHKSUM SRC_URI SRCREV PV S EXTRA_OEMAKE 'PACKAGECONFIG\[gles\]' 'PACKAGECONFIG\[tools\]'; do
    grep -q "^$v " "$bb" || no "$bb: no $v"
done
grep -q "^inherit pkgconfig" "$bb" && no "$bb: inherits pkgconfig, which it does not use"
grep -q "^HOMEPAGE " "$bb" || no "$bb: no HOMEPAGE"
[ -z "$(find packaging/meta-edml -name '*.bbappend')" ] || no "meta-edml appends to another layer's recipe"
[ -f packaging/meta-edml/COPYING.MIT ] && grep -q "^Maintainer:" packaging/meta-edml/README.md ||
    no "meta-edml: no layer licence (COPYING.MIT) or no maintainer in its README"
grep -q "BOARD_TUNE= " "$bb" || no "$bb: the board's CPU flags would override the machine's tune"
grep -q 'libegl-mesa\|libgles2-mesa' "$bb" && no "$bb: recommends Mesa's package names, not the generic libegl and libgles2"
grep -q 'virtual/egl\|virtual/libgles2' "$bb" && no "$bb: depends on GL at build time (edml loads it at run time)"
grep -q '^PACKAGE_ARCH = "${MACHINE_ARCH}"$' "$bb" || no "$bb: EDML_BOARD is the machine's, PACKAGE_ARCH is not"
grep -q '^python ()' "$bb" && no "$bb: anonymous python where COMPATIBLE_HOST and bb.utils.contains do"
for f in $(grep -rl SPDX-License-Identifier packaging/meta-edml); do
    grep -q "SPDX-License-Identifier: MIT" "$f" || no "$f: not under the layer's licence (MIT)"
done
srcrev=$(sed -n 's/^SRCREV = "\(.*\)"/\1/p' "$bb")
echo "$srcrev" | grep -Eqx '[0-9a-f]{40}' || no "$bb: SRCREV '$srcrev' is not a full hash (bitbake would go to the network to parse)"
if git rev-parse --git-dir >/dev/null 2>&1 && ! git rev-parse --is-shallow-repository 2>/dev/null | grep -q true; then
    if git cat-file -e "$srcrev^{commit}" 2>/dev/null; then
        [ "$(git show "$srcrev:LICENSE" 2>/dev/null | md5sum | cut -d' ' -f1)" = "$md5" ] ||
            no "$bb: LICENSE at SRCREV $srcrev does not have the recipe's checksum"
    else
        no "$bb: SRCREV $srcrev is no commit of this repository"
    fi
else
    echo "check-packaging: not a full git checkout: SRCREV's commit not checked"
fi
# the packages' version is that of the edml.h of the commit they pin, and
# that commit's declarations are that version's
pinned=$version
if git cat-file -e "$srcrev^{commit}" 2>/dev/null; then
    pinned=$(git show "$srcrev:include/edml.h" | version_of)
    pabi=$(git show "$srcrev:include/edml.h" | sh tools/abi-digest.sh -)
    [ "$(abi_of "$pinned")" = "$pabi" ] ||
        no "$bb: SRCREV $srcrev's edml.h says $pinned, but its public declarations (digest $pabi) are not $pinned's in packaging/abi.txt"
fi
case "$(sed -n 's/^PV = "\(.*\)"/\1/p' "$bb")" in "$pinned"+git*) ;; *) no "$bb: PV is not $pinned, the version of SRCREV's edml.h";; esac
grep -q '^LAYERSERIES_COMPAT_edml = "scarthgap"$' packaging/meta-edml/conf/layer.conf ||
    no "layer.conf: LAYERSERIES_COMPAT names series other than scarthgap, the one tried"
# the Buildroot package
for v in EDML_VERSION EDML_SITE EDML_LICENSE EDML_LICENSE_FILES EDML_INSTALL_STAGING EDML_MAKE_OPTS; do
    grep -q "^$v " "$mk" || no "$mk: no $v"
done
grep -q "^EDML_VERSION = $pinned$" "$mk" || no "$mk: EDML_VERSION is not $pinned, the version of the pinned commit's edml.h"
grep -q '^\$(eval \$(generic-package))$' "$mk" || no "$mk: not a generic-package"
grep -q "BOARD_TUNE= " "$mk" || no "$mk: the board's CPU flags would override Buildroot's"
for b in $(sed -n 's/^	default "\([a-z0-9-]*\)".*/\1/p' packaging/buildroot/package/edml/Config.in) \
    $(sed -n 's/.*EDML_BOARD ??= "\([a-z0-9-]*\)".*/\1/p; s/.*, *'"'"'\([a-z0-9-]*\)'"'"')[,)].*/\1/p' "$bb"); do
    [ -f "boards/$b/board.mk" ] || no "a package names board '$b', which edml does not have"
done
# Buildroot's board is a choice (a typo cannot reach the build): one entry a board but the host
for b in $(ls boards); do
    [ "$b" = host ] && continue
    sym=BR2_PACKAGE_EDML_BOARD_$(echo "$b" | tr 'a-z-' 'A-Z_')
    grep -q "^config $sym\$" packaging/buildroot/package/edml/Config.in &&
        grep -q "^	default \"$b\" if $sym\$" packaging/buildroot/package/edml/Config.in ||
        no "Config.in: board $b is not a choice ($sym, and BR2_PACKAGE_EDML_BOARD \"$b\" from it)"
done
grep -q '^config BR2_PACKAGE_EDML_BOARD$' packaging/buildroot/package/edml/Config.in &&
    sed -n '/^config BR2_PACKAGE_EDML_BOARD$/,/^$/p' packaging/buildroot/package/edml/Config.in | grep -q '^	string$' ||
    no "Config.in: BR2_PACKAGE_EDML_BOARD is not the hidden string the choice sets"
# a distribution's build has no -Werror (edml's own tests set WERROR=-Werror):
# neither a plain make nor what the packages run
(unset WERROR; make -n -B --no-print-directory BOARD=host BUILD=build/host/nowerror lib 2>/dev/null) | grep -q -- "-Werror" &&
    no "a plain make builds with -Werror (a newer compiler's warning would fail a distribution's build)"
grep -q "Werror" "$mk" "$bb" && no "a package sets -Werror"
# the release: make dist twice gives the same bytes, the tree of HEAD and no build/
if git rev-parse --git-dir >/dev/null 2>&1; then
    make -s --no-print-directory dist >/dev/null 2>&1 || no "make dist"
    a=build/edml-$version.tar.gz
    sum=$(cut -d' ' -f1 "$a.sha256" 2>/dev/null)
    [ "$(sha256sum "$a" | cut -d' ' -f1)" = "$sum" ] || no "make dist: the sha256 beside the archive is not its"
    make -s --no-print-directory dist >/dev/null 2>&1 && [ "$(cut -d' ' -f1 "$a.sha256")" = "$sum" ] ||
        no "make dist: two runs give different archives"
    tar tzf "$a" | grep -q "^edml-$version/build/" && no "make dist: the archive holds build/"
    [ "$(tar tzf "$a" | grep -vc '/$')" = "$(git ls-files | wc -l)" ] || no "make dist: not the files git tracks"
fi
# one release: Buildroot's hash of edml-<version>.tar.gz is that of the
# archive of the commit the recipe pins (both packages build the same code)
if git cat-file -e "$srcrev^{commit}" 2>/dev/null; then
    make -s --no-print-directory dist DIST_COMMIT="$srcrev" >/dev/null 2>&1 || no "make dist DIST_COMMIT=$srcrev"
    rel=$(cut -d' ' -f1 "build/edml-$pinned.tar.gz.sha256")
    grep -q "^sha256  $rel  edml-$pinned.tar.gz$" packaging/buildroot/package/edml/edml.hash ||
        no "edml.hash: edml-$pinned.tar.gz is not the archive of the recipe's SRCREV $srcrev (sha256 $rel)"
    grep -q "^EDML_SITE_METHOD" "$mk" && no "$mk: builds something other than the release archive"
fi
[ $fail = 0 ] && echo "packaging: LICENSE (Apache-2.0) and its checksums, SPDX lines, the installed licence, no -Werror in a distribution's build, make dist's archive; edml.h's declarations those of $version; the recipe (SRCREV $srcrev) and the Buildroot package ($pinned, the archive of that commit, its declarations $pinned's) as edml is"
exit $fail

#!/bin/sh
# abi-digest.sh [HEADER]: the sha256 of edml.h's public declarations, as
# read from HEADER (default include/edml.h; - for standard input): the
# header without its comments, its version's three numbers or its layout.
# Every struct, member, constant, type and prototype is in it, so a change
# to any of them changes the digest; packaging/abi.txt holds each
# version's (docs/integration.md: a change to the declarations is a new
# version), and test/check-packaging.sh compares them.
set -eu
h=${1:-include/edml.h}
[ "$h" = - ] && h=/dev/stdin
${CC_FOR_ABI:-cc} -fpreprocessed -dD -E -P -x c - <"$h" 2>/dev/null |
    grep -v '^#define EDML_VERSION_\(MAJOR\|MINOR\|PATCH\) ' | tr -s ' \t\n' '   ' | sha256sum | cut -d' ' -f1

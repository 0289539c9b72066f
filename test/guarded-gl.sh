#!/bin/sh
# test/guarded-gl.sh GUARD_DIR COMMAND...: runs COMMAND with the guarded
# GLES stand-in (test/guard/guard_gles.c, built as GUARD_DIR/libGLESv2.so.2)
# in place of libGLESv2.so.2: every mapping edml reads or writes is exactly
# the range it asked for, with an inaccessible page after it, so that a
# read past a mapping crashes as it did on NVIDIA's driver. Fails where the
# command fails, or where it guarded no mapping (the stand-in was not used).
set -u
dir=$1
shift
real=$(ldconfig -p | awk '/libGLESv2\.so\.2 .*x86-64/ { print $NF; exit }')
[ -n "$real" ] || real=$(ldconfig -p | awk '/libGLESv2\.so\.2 / { print $NF; exit }')
report=$(mktemp)
LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" EDML_GUARD_REAL_GLES=$real EDML_GUARD_REPORT=$report "$@"
rc=$?
guarded=$(awk '{ n += $1; if ($5 > big) big = $5 } END { print n + 0, big + 0 }' "$report")
rm -f "$report"
echo "guarded-gl: mappings guarded, largest bytes: $guarded" >&2
[ "$rc" -eq 0 ] || exit "$rc"
[ "${guarded%% *}" -gt 0 ] || { echo "guarded-gl: no mapping went through the guard" >&2; exit 1; }

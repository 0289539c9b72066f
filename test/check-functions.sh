#!/bin/sh
# No function over 80 lines in the library (src, port, boards), none over 120
# in tests and tools: a long function is split where it does two things.
set -u
cd "$(dirname "$0")/.."
command -v ctags >/dev/null || { echo "ctags missing: run toolchain/setup-host"; exit 1; }
ctags --version 2>/dev/null | grep -q Universal || { echo "ctags is not Universal Ctags"; exit 1; }
long() { # $1 limit, then folders
    limit=$1
    shift
    ctags -R --languages=C --kinds-C=f --fields=+ne -o - "$@" | awk -F'\t' -v limit="$limit" '
        { n = 0; e = 0
          for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) n = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
          if (e - n + 1 > limit) printf "%s: %s is %d lines (limit %d)\n", $2, $1, e - n + 1, limit }'
}
out=$( (long 80 src port boards; long 120 tools test examples) | sort)
if [ -n "$out" ]; then
    echo "$out"
    echo "FAIL: split the functions above"
    exit 1
fi
count=$(ctags -R --languages=C --kinds-C=f -o - src port boards tools test examples | wc -l)
echo "function length: $count functions, library ones within 80 lines, tests and tools within 120"

#!/bin/sh
# Each public call's worst-case stack depth (tools/stack-depth.sh) on
# AArch64 (rpi4) and ARMv7 (rpi4-armhf) is at most what docs/stack.md's
# table says, and within 512 bytes of it (so that the table stays true of
# today's code); a call of 256 bytes or more is in the table.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools/stack-depth.sh rpi4 >"$tmp/a64" || { echo "FAIL: tools/stack-depth.sh rpi4"; exit 1; }
tools/stack-depth.sh rpi4-armhf >"$tmp/a32" || { echo "FAIL: tools/stack-depth.sh rpi4-armhf"; exit 1; }
sed -n 's/^| `\{0,1\}\(edml_[a-z0-9_]*\|(a-part-on-a-worker)\)`\{0,1\} | \([0-9][0-9]*\) | \([0-9][0-9]*\) |$/\1 \2 \3/p' docs/stack.md | sort >"$tmp/doc"
join -a 1 -e 0 -o 0,1.2,2.2 "$tmp/a64" "$tmp/a32" >"$tmp/now"
join -a 1 -e - -o 0,1.2,1.3,2.2,2.3 "$tmp/now" "$tmp/doc" | awk '
    { n++ }
    $4 == "-" && ($2 >= 256 || $3 >= 256) { print "FAIL: " $1 " takes " $2 " / " $3 " bytes and is not in docs/stack.md'"'"'s table"; bad = 1; next }
    $4 == "-" { next }
    $2 > $4 || $3 > $5 { print "FAIL: " $1 " takes " $2 " / " $3 " bytes, docs/stack.md says " $4 " / " $5; bad = 1; next }
    $4 - $2 >= 512 || $5 - $3 >= 512 { print "FAIL: " $1 " takes " $2 " / " $3 " bytes, well under docs/stack.md'"'"'s " $4 " / " $5 ": lower the table"; bad = 1 }
    END { if (!bad) print "stack: " n " calls within docs/stack.md'"'"'s table (AArch64 / ARMv7)"; exit bad }'

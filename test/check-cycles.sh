#!/bin/sh
# No circles: the library's files depend on each other one way only. From
# the host build's objects (nm): file A depends on file B where A uses a
# symbol B defines; a pair that reaches each other, directly or around a
# loop, fails, named with a symbol of each step. A backend reached through
# a table of function pointers is not a call and is not seen here.
set -u
cd "$(dirname "$0")/.."
obj=${1:-build/host/obj}
[ -d "$obj/src" ] || { echo "$obj missing: make all first"; exit 1; }
find "$obj/src" "$obj/port" -name '*.o' | sort | while read -r o; do
    f=${o#"$obj"/}
    nm "$o" | awk -v f="${f%.o}.c" '$2 ~ /^[TDRB]$/ {print "def", $3, f} $1 == "U" {print "use", $2, f}'
done | awk '
$1 == "def" { def[$2] = $3; node[$3] = 1; next }
$1 == "use" { n++; user[n] = $3; sym[n] = $2 }
END {
    for (i = 1; i <= n; i++) {
        d = def[sym[i]]
        if (d == "" || d == user[i]) continue
        if (!((user[i], d) in step)) step[user[i], d] = sym[i]
        reach[user[i], d] = 1
    }
    for (k in node) for (a in node) if ((a, k) in reach) for (b in node) if ((k, b) in reach) reach[a, b] = 1
    for (e in step) {
        split(e, p, SUBSEP)
        if ((p[2], p[1]) in reach) { print "FAIL: " p[1] " -> " p[2] " (" step[e] "), and " p[2] " reaches " p[1] " back"; bad = 1 }
    }
    if (!bad) { c = 0; for (a in node) c++; print "no circles: " c " files depend on each other one way" }
    exit bad
}'

#!/bin/sh
# NEON never enters a reference kernel: over libedml.a's symbols, from every
# NEON object through every object whose functions it calls (and theirs), no
# call to a function of src/ref/ (edmli_ref_*), the oracle and nothing else.
# usage: check-neon-alone.sh NM libedml.a
nm_tool=$1 lib=$2
[ -f "$lib" ] || { echo "FAIL neon-alone: $lib not built"; exit 1; }
"$nm_tool" -A "$lib" 2>/dev/null | awk '
    { split($1, f, ":"); obj = f[2]; kind = $(NF - 1); sym = $NF }
    kind == "U" { use[obj] = use[obj] " " sym; next }
    kind ~ /^[TDRB]$/ { def[sym] = obj }
    END {
        for (o in use) if (o ~ /^neon_/) { todo[++n] = o; seen[o] = 1; via[o] = o }
        for (i = 1; i <= n; i++) {
            o = todo[i]; k = split(use[o], s, " ")
            for (j = 1; j <= k; j++) {
                if (s[j] ~ /^edmli_ref_/) { print "FAIL neon-alone: " via[o] " calls " s[j]; bad = 1; continue }
                d = def[s[j]]
                if (d != "" && !seen[d]) { seen[d] = 1; todo[++n] = d; via[d] = via[o] " -> " d }
            }
        }
        if (!bad) { printf "PASS neon-alone: %d objects reached from NEON'"'"'s, none calls the reference:", n; for (i = 1; i <= n; i++) printf " %s", todo[i]; print "" }
        exit bad
    }'

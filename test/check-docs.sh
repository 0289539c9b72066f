#!/bin/sh
# The README's C example (its first C block) and examples/topk.c say the
# same: each declaration of the README's (comments and spaces aside) is in
# examples/topk.c. `make help` lists the
# README's targets. The README's table of operators names every operator of
# the library's schema and the backends with a kernel for it
# (edml-run --list-operators). Nothing cites a path outside
# the project (../shared and the like): a clone holds all it refers to; and
# nothing speaks of how the project was developed.
set -u
cd "$(dirname "$0")/.."
norm() { sed -e 's|/\*[^*]*\*/||g' -e 's|//.*||' -e 's/[[:space:]]//g' | grep -v '^$'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the README's first C block is the example
awk '/^```c$/ && !on {on = 1; next} on && /^```$/ {exit} on {print}' README.md | grep -v '^#include' | norm >"$tmp/readme"
norm <examples/topk.c >"$tmp/example"
fail=0
grep ';$' "$tmp/readme" | grep -v '^if\|^puts\|^dd\.' | while read -r line; do
    grep -qxF "$line" "$tmp/example" || { echo "examples/topk.c lacks: $line"; echo x >>"$tmp/missing"; }
done
[ -f "$tmp/missing" ] && fail=1
# targets: the README's "Targets:" paragraph and `make help` name the same ones
readme_t=$(awk '/^Targets \(/ {on = 1; next} on && /^\| `/ {print} on && /^$/ && seen {exit} on && /^\|/ {seen = 1}' README.md |
    sed -n 's/^| `\([a-z-]*\)` |.*/\1/p' | sort -u)
help_t=$(make --no-print-directory help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | sort -u)
if [ "$readme_t" != "$help_t" ]; then
    echo "README targets: $(echo $readme_t)"
    echo "make help:      $(echo $help_t)"
    fail=1
fi
# operators: the README's table of operators and backends, and the library's
run=${EDML_RUN:-build/host/edml-run}
[ -x "$run" ] || { echo "$run missing: make all first"; exit 1; }
readme_ops=$(awk '/^Operators, each with the backends/ {on = 1} on && /^\| `/ {print} on && /^$/ && seen {exit} on && /^\|/ {seen = 1}' README.md |
    awk -F'|' '{n = split($2, ops, ","); b = $3; gsub(/[ ,]+/, " ", b); sub(/^ /, "", b); sub(/ $/, "", b)
                for (i = 1; i <= n; i++) { o = ops[i]; gsub(/[ `]/, "", o); print o ": " b } }' | sort)
schema_ops=$("$run" --list-operators | awk '/^[A-Z]/ {op = $1} /^  \(backends\)/ {$1 = ""; sub(/^ /, ""); print op ": " $0}' | sort)
if [ "$readme_ops" != "$schema_ops" ]; then
    echo "README's operators and backends:"
    echo "$readme_ops" | sed 's/^/  /'
    echo "the library's (edml-run --list-operators):"
    echo "$schema_ops" | sed 's/^/  /'
    fail=1
fi
# the project speaks of itself only: nothing tells how it was developed
# (the words of a development setup, issue numbers)
words=$(git grep -n -I -i -E -e '\bsessions?\b' -e '\bleases?\b' -e 'device tool' -e '\.devrun' -e 'issue #?[0-9]+' \
    -e 'development machine' -- . ':!test/check-docs.sh' 2>/dev/null)
if [ -n "$words" ]; then
    echo "$words"
    echo "the lines above speak of how the project was developed, not of the project"
    fail=1
fi
# paths outside the project
outside=$(git grep -n -I -e '\.\./shared' -e 'shared/spec' -e 'shared/seeds' -e 'shared/tools' -- . ':!test/check-docs.sh' 2>/dev/null)
if [ -n "$outside" ]; then
    echo "$outside"
    echo "the lines above cite paths outside the project"
    fail=1
fi
[ $fail = 0 ] && echo "README, examples/topk.c and make help agree; the README's operators and backends are the library's; no path outside the project"
exit $fail

#!/bin/sh
# The README's C example, the header's and examples/topk.c say the same: the
# README's statements (comments and spaces aside) are the header's, and each
# declaration among them is in examples/topk.c. `make help` lists the
# README's targets.
set -u
cd "$(dirname "$0")/.."
norm() { sed -e 's|/\*[^*]*\*/||g' -e 's|//.*||' -e 's/[[:space:]]//g' | grep -v '^$'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' | grep -v '^#include' | norm >"$tmp/readme"
sed -n '/@section example/,/@endcode/p' include/edml.h | sed '1,2d;$d' | sed 's/^ \*//' | norm >"$tmp/header"
norm <examples/topk.c >"$tmp/example"
fail=0
if ! diff -u "$tmp/readme" "$tmp/header"; then echo "README and edml.h examples differ"; fail=1; fi
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
[ $fail = 0 ] && echo "README, edml.h, examples/topk.c and make help agree"
exit $fail

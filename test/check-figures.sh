#!/bin/sh
# The docs' figures are the tables they quote: every table command in the
# docs (an indented `python3 tools/perf_table.py ...` line over files in
# docs/results) is run again, and each row and summary line it prints must
# be in that document, as printed; and docs/gpu.md's compile totals are the
# sums of docs/gpu-compilers.md's table (make gpu-targets).
set -u
cd "$(dirname "$0")/.."
fail=0
for doc in docs/*.md README.md; do
    grep -n '^    python3 tools/perf_table.py [a-z-]* \(docs/results/\|boards$\)' "$doc" | while IFS=: read -r line cmd; do
        out=$(eval "$cmd" 2>&1) || { echo "$doc:$line: $cmd failed: $out"; echo x >>/tmp/check-figures.$$; continue; }
        printf '%s\n' "$out" | grep -E '^(\| |- |[a-z-]+: )' | grep -v '^| ---' | while IFS= read -r row; do
            grep -qxF -- "$row" "$doc" || { echo "$doc:$line: $cmd prints a line the document lacks: $row"; echo x >>/tmp/check-figures.$$; }
        done
    done
done
[ -f /tmp/check-figures.$$ ] && fail=1 && rm -f /tmp/check-figures.$$
# docs/gpu.md's first-start totals: "N s for V3D 4.2 (Mesa 22.3; N s with Mesa 25.0, N s for V3D 7.1)"
totals=$(python3 - <<'PY'
import re
t = open('docs/gpu-compilers.md').read()
t = t[t.index('<!-- gpu-targets: begin -->'):t.index('<!-- gpu-targets: end -->')]
rows = [l for l in t.splitlines() if l.startswith('| ') and not l.startswith('| ---')]
head = [c.strip() for c in rows[0].split('|')[1:-1]]
tot = {h: 0.0 for h in head[2:]}
for l in rows[1:]:
    for h, c in zip(head[2:], [c.strip() for c in l.split('|')[1:-1]][2:]):
        m = re.search(r'([0-9.]+) s$', c)
        tot[h] += float(m.group(1)) if m else 0.0
print('%.1f s for V3D 4.2 (Mesa 22.3; %.1f s with Mesa 25.0, %.1f s for V3D\n7.1), %.1f s for Adreno 630 and %.1f-%.1f s for the Malis' % (
    tot['V3D-4.2'], tot['V3D-4.2/25'], tot['V3D-7.1/25'], tot['Adreno-630'],
    min(tot['Mali-G52'], tot['Mali-G57'], tot['Mali-G610/25']), max(tot['Mali-G52'], tot['Mali-G57'], tot['Mali-G610/25'])))
PY
)
if ! tr '\n' ' ' <docs/gpu.md | grep -qF -- "$(printf '%s' "$totals" | tr '\n' ' ')"; then
    echo "docs/gpu.md should give the table's compile totals: $totals"
    fail=1
fi
[ $fail = 0 ] && echo "the docs' tables and figures are what their commands print; docs/gpu.md's compile totals are docs/gpu-compilers.md's"
exit $fail

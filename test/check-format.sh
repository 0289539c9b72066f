#!/bin/sh
# Every C file of the tree is formatted as .clang-format says (120 columns).
set -u
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format missing: run toolchain/setup-host"; exit 1; }
files=$(find src port include tools test examples boards -name '*.[ch]' | sort)
if clang-format --dry-run --Werror $files 2>&1 | head -40 | grep .; then
    echo "FAIL: run clang-format -i on the files above"
    exit 1
fi
echo "clang-format: $(echo "$files" | wc -l) files as .clang-format says"

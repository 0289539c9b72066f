#!/bin/sh
# The no-heap proof on the archive: no undefined reference to an allocator.
# usage: check-nm.sh NM libedml.a
nm_tool=$1 lib=$2
[ -f "$lib" ] || { echo "FAIL nm: $lib not built"; exit 1; }
bad=$("$nm_tool" -u "$lib" | awk '$1 == "U" {print $2}' | grep -E '^(malloc|calloc|realloc|free|strdup|strndup|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|_Znwm|_Znam|_Znwj|_Znaj|alloca|__builtin_alloca)$' | sort -u | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "FAIL nm: $lib references $bad"
    exit 1
fi
echo "PASS nm: $lib references no allocator (external: $("$nm_tool" -u "$lib" | awk '$1 == "U" && $2 !~ /^edml/ {print $2}' | sort -u | tr '\n' ' '))"

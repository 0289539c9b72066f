#!/bin/sh
# tools/stack-depth.sh BOARD: the worst-case stack depth of every public call
# of BOARD's firmware build (PORT=none, -O2), from GCC's stack usage and
# call graphs (tools/stack-depth.awk), one "function bytes" a line. The
# frames of the caller's own log callback and parallel-for are not counted.
set -eu
cd "$(dirname "$0")/.."
board=${1:?usage: tools/stack-depth.sh BOARD}
b=build/stack-$board
make --no-print-directory BOARD="$board" PORT=none BUILD="$b" CFLAGS="-O2 -fstack-usage -fcallgraph-info=su" lib >/dev/null
facts=$b/calls.txt
{
    grep -n '[.>]log(' src/*/*.c src/*.c port/none/*.c | awk -F: '{print "user " $1 ":" $2}'
    grep -n 'par\.fn(' src/*/*.c | awk -F: '{print "parts " $1 ":" $2}'
    grep -h -e 'edmli_cpu_parallel(' -e 'edmli_cpu_gather_nd(op, ex, true' src/*/*.c | grep -o 'edmli_[a-z0-9_]*' |
        grep -v -e '^edmli_cpu_parallel$' -e '^edmli_cpu_gather_nd$' | sort -u | sed 's/^/task /'
    for h in kernels temp_bytes plan bake ready wants state_bytes open close info release_thread cache_used reserve mark release_to io \
        copy batch_begin batch_takes batch_flush batch_complete batch_clamped; do
        pat="->$h(" && [ $h = kernels ] && pat="->kernels["
        grep -n -F -e "$pat" src/core/*.c src/backends.c | awk -F: -v h=$h '{print "hook " $1 ":" $2 " " h}'
        grep -h "^ *\.$h = edmli_" src/*/*_backend.c | sed "s/.*= \(edmli_[a-z0-9_]*\).*/target $h \1/"
    done
    for k in topk gather_nd argreduce elementwise_if; do
        printf 'target kernels edmli_ref_%s\ntarget kernels edmli_neon_%s\ntarget kernels edmli_gles_%s_released\n' $k $k $k
    done
} >"$facts"
find "$b/obj" -name '*.ci' | sort | xargs cat | awk -f tools/stack-depth.awk "$facts" - | sort

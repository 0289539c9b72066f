#!/bin/sh
# Every kernel, as the GLES backend assembles it (prelude, common.glsl,
# output.glsl for kernels that write through it, the .comp), checked offline
# by glslangValidator as GLSL ES 3.10, for 256 and 1024 invocations.
set -e
command -v glslangValidator >/dev/null || { echo "glslangValidator missing: run toolchain/setup-host"; exit 1; }
t=$(mktemp -d)
n=0
for f in shaders/*.comp; do
    for local in 256 1024; do
        out=$t/$(basename "$f" .comp)_$local.comp
        printf '#version 310 es\nprecision highp float;\nprecision highp int;\n#define LOCAL %uu\n#define SORT_MAX 1024u\nlayout(local_size_x = %u) in;\n' $local $local > "$out"
        cat shaders/common.glsl >> "$out"
        grep -q '^uvec2 compute(' "$f" && cat shaders/output.glsl >> "$out"
        cat "$f" >> "$out"
        if ! glslangValidator -S comp "$out" > "$t/log" 2>&1; then
            echo "FAIL $f (LOCAL $local):"
            cat "$t/log"
            rm -rf "$t"
            exit 1
        fi
        n=$((n + 1))
    done
done
rm -rf "$t"
echo "glslangValidator: $n shader builds valid GLSL ES 3.10"

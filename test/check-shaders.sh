#!/bin/sh
# Every program (each kernel and its specializations), as the GLES backend
# assembles it (the prelude it writes, with SPECIALIZED and the accessors
# of the kernel's parameter struct: tools/gles-prelude;
# common.glsl; output.glsl and topk.glsl for the kernels that use them; the .comp;
# main.glsl, which runs the kernel and counts its workgroups),
# checked offline by glslangValidator as GLSL ES 3.10, for 256 and 1024
# invocations. A kernel whose EDMLI_PARAMS() names another struct than the
# one the backend fills for it does not compile. No numbered parameter
# slots: the shaders read the parameters by name only.
set -e
command -v glslangValidator >/dev/null || { echo "glslangValidator missing: run toolchain/setup-host"; exit 1; }
prelude=${1:-build/host/gles-prelude}
[ -x "$prelude" ] || { echo "$prelude missing: make it first"; exit 1; }
if grep -nE 'prm_(words\[|word\()[0-9]|p\[[0-9]' shaders/*.comp shaders/*.glsl; then
    echo "FAIL: numbered parameter words in shaders/ (read them by name, prm_<member>)"
    exit 1
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
"$prelude" --list > "$t/programs"
for f in shaders/*.comp; do   # every kernel is some program's
    awk '{print $2}' "$t/programs" | grep -qx "$(basename "$f" .comp)" || { echo "FAIL: $f is no program's (src/gles/gles.h)"; exit 1; }
done
while read -r name file libs; do
    f=shaders/$file.comp
    for local in 256 1024; do
        out=$t/${name}_$local.comp
        "$prelude" "$name" $local > "$out"
        cat shaders/common.glsl >> "$out"
        for lib in $libs; do cat shaders/$lib.glsl >> "$out"; done
        cat "$f" shaders/main.glsl >> "$out"
        if ! glslangValidator -S comp "$out" > "$t/log" 2>&1; then
            echo "FAIL $name: $f (LOCAL $local):"
            cat "$t/log"
            exit 1
        fi
        n=$((n + 1))
    done
done < "$t/programs"
echo "glslangValidator: $n shader builds valid GLSL ES 3.10, each reading the parameter struct its C side fills"

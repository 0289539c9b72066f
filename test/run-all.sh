#!/bin/sh
# Every test of edml, as `make test` runs it. One line per step, PASS or FAIL,
# and last `N passed, N failed`. Logs of each step: build/test-logs/.
# EDML_TEST_QUICK=1 skips the slow steps (sanitizers, ARM images, boards).
# The full run is two lanes at once, each a sequence of steps with its own
# build directories: the host's (its builds, tests, sanitizers, fuzzers) and
# the ARM boards' (qemu-user images, bare metal, the GL image, then the
# cross builds: build variables, stack depths, every other board), whose
# emulators each keep one core busy; their lines interleave.
set -u
cd "$(dirname "$0")/.."
logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
J=${EDML_JOBS:-$(nproc 2>/dev/null || echo 2)}
# edml's own builds: every warning an error (a plain make has no -Werror)
export WERROR=-Werror

# step NAME COMMAND...: runs the command, its output to the log
step() {
    name=$1
    shift
    log="$logs/$(echo "$name" | tr ' /:' '___' | cut -c1-120).log" # a file name fits any file system
    start=$(date +%s)
    if "$@" >"$log" 2>&1; then
        echo "PASS $name ($(( $(date +%s) - start ))s)"
    else
        echo "FAIL $name ($(( $(date +%s) - start ))s): last lines of $log:"
        tail -n 15 "$log" | sed 's/^/    /'
    fi
}

quick=${EDML_TEST_QUICK:-0}
H=build/host

host_suite() {
    # 1. Host build with gcc, warnings as errors; every test program.
    step "build host (gcc -Werror)" make -j"$J" BOARD=host all tests test-image
    step "no-allocation proof: nm over libedml.a" sh test/check-nm.sh nm $H/libedml.a
    step "NEON never enters a reference kernel (nm of libedml.a: what NEON's objects reach)" sh test/check-neon-alone.sh nm $H/libedml.a
    step "no-allocation proof: --wrap=malloc during create/execute" $H/test/noalloc
    step "unit tests (sizes, devices, arena exhaustion, bindings)" $H/test/unit
    step "every NEON kernel path against the reference (every type, short and long, packed, strided and transposed axes; parts counted)" $H/test/kernels
    step "misuse: stale and foreign handles, live arenas, re-entry, bindings, messages, GPU arena" $H/test/misuse
    step "command lists: every operator on every backend in one list, misuse refused recording nothing, GLES batches (chains, GatherND's counts, hazards, many ranges), a submission still running, a failed upload seen by the wait with an operator built between" $H/test/lists
    step "shaders: glslangValidator, GLSL ES 3.10" sh test/check-shaders.sh
    step "docs/gpu-compilers.md's table of the boards' GPU compilers (make gpu-targets) names today's shader sources" sh test/check-gpu-table.sh
    step "the docs' tables are what their commands print from docs/results, docs/gpu.md's compile totals the table's sums" sh test/check-figures.sh
    step "make gpu-targets fetches Debian's sources from the machine's own apt mirror (deb822 and one-line sources), naming no host" sh test/check-apt-mirror.sh
    step "GLES faults injected: fallback and statuses" $H/test/faults
    step "GLES known-answer tests: every program checked by its tests at each GPU's limits, an idle GPU fails them all, GatherND's skipped dispatch caught; the program cache" $H/test/kat
    step "program cache: loads on the next boot, refuses memory in the arena, damaged, overlong and refused entries replaced once, never written past its bytes, held by the last of two live devices given it" $H/test/cache
    step "V3D's watchdog: under V3D's limits each invocation's loops within the model's caps (more chunks, wider workgroups, TopK's lists for long rows, a refusal where none holds K), answers the reference's" $H/test/watchdog
    step "GPU work that did not run: dropped dispatches and GPU resets fail the call (never an answer), kernels whose tests could not run are not used, sizes never change" $H/test/dropped
    for f in partial-workgroup stale-readback dropped-copy stale-mapping dropped reset; do
        step "every vector with GPU fault $f striking (one by one, as a command list, and in turn on one device after other operators): named GLES right or refused, AUTO right, never OK and wrong" sh test/run-strikes.sh $H/edml-run $f 40
    done
    G="sh test/guarded-gl.sh $H/guard"
    for b in gles auto; do
        step "guarded mappings (each exactly its range, an inaccessible page after it): vectors on $b (every GPU threshold 0), one by one and as one command list" \
            sh -c 'EDML_RUN_ARGS=--gpu-always sh test/run-cases.sh "$1" $2 $3 && EDML_RUN_ARGS="--gpu-always --command-list" sh test/run-cases.sh "$1" $2 $3' sh "$G" $H/edml-run $b
    done
    step "guarded mappings: edml-bench's workloads on every backend (GPU buffers and mapped ones too), GPU buffers through the CPU's view, command lists" \
        sh -c '$1 $2/edml-bench --scale 0.001 --iters 2 && $1 $2/edml-bench --placement --scale 0.001 --iters 2 --rounds 1 && $1 $2/test/mapped && $1 $2/test/gpu && $1 $2/test/lists' sh "$G" $H
    step "GPU buffers: resident tensors, copies, the GPU arena" $H/test/gpu
    step "GPU buffers, the GL context kept current by one thread" $H/test/gpu --one-thread
    step "hostile review: odd and oversized GPU arenas, adjusted settings, AUTO's sizes, stale handles across devices, pool sizes, nested and failing parallel-fors, messages" $H/test/hostile
    step "GPU buffers, the GPU arena mapped persistently (gpu_arena_mapped)" $H/test/gpu --arena-mapped
    step "mapped GPU buffers: inputs and outputs through the CPU's view, persistent and range by range; NEON and the reference on GPU buffers" $H/test/mapped
    step "measured placement: every sample measured and placed as its own figures say (no expectation of the machine's speed), a GPU slowed by a fault loses every sample, a slowed side loses, GPU buffers decided apart, an operator run only in command lists measured there, AUTO by a cost model (stale after an update, said), every answer right" $H/test/placement
    step "the placement cache: used at once, another board's emptied, another GPU driver's or edml version's kept stale and measured again where the device measures, damaged entries dropped, full said, held by the last of two live devices given it" $H/test/placement_cache
    step "GL contexts: two devices and the application's context on one thread, both context modes" $H/test/glcontext
    step "GPU buffers, GatherND's status words copied back (as without GL_EXT_buffer_storage)" $H/test/gpu --no-buffer-storage
    for b in ref neon gles auto; do
        step "vectors on $b (test/cases)" sh test/run-cases.sh $H/edml-run $b
    done
    for b in ref neon gles auto; do
        step "vectors on $b through one command list (GPU kernels no barrier orders run backwards): the verdicts of one execute per case" env EDML_RUN_ARGS="--command-list --reorder" sh test/run-cases.sh $H/edml-run $b
    done
    step "differential test neon through command lists" $H/test/diff --backend neon --seed 24 --iters 2000 --command-list
    step "differential test gles through command lists, kernels no barrier orders run backwards (llvmpipe)" $H/test/diff --backend gles --seed 23 --iters 300 --command-list --reorder
    step "differential test gles (Mesa llvmpipe) vs oracle" $H/test/diff --backend gles --seed 5 --iters 600
    step "edml-bench: every workload at a thousandth of its size and one --topk shape, every backend's outputs equal to the reference's; --gpu-time on one" \
        sh -c '$1 --scale 0.001 --iters 4 && $1 --topk 300,64,20 --iters 4 && $1 --gpu-time --scale 0.001 --workload if_bcast' sh $H/edml-bench
    step "edml-bench --placement: NEON, GLES, AUTO by the board's model (else thresholds) and AUTO measured (and NEON and GLES on its device), host memory and GPU buffers, every answer the reference's, each AUTO's ratio to its backend" \
        $H/edml-bench --placement --scale 0.001 --iters 3 --rounds 1
    step "edml-bench --placement --cases: operators of .case files without their inputs' data (random, GatherND's indices in range), every backend's answer the reference's" \
        $H/edml-bench --placement --iters 2 --rounds 1 --cases tools/bench/cases/kws_topk3.case tools/bench/cases/det_boxes_gather.case tools/bench/cases/det_scores_argmax.case tools/bench/cases/vocab_argmax_f16.case tools/bench/cases/embed_gather.case
    step "the board report (make board-report's program with the GPU): every workload, measured placement, a cost model fitted and loaded, caps.h; its tables" \
        sh test/check-board-report.sh host gl
    step "differential test gles, every dispatch split in small pieces" $H/test/diff --backend gles --seed 13 --iters 300 --small-dispatches
    step "differential test gles, 256-invocation workgroups (the Raspberry Pi's V3D shape)" $H/test/diff --backend gles --seed 19 --iters 400 --workgroup 256
    for l in v3d mali adreno gles31; do
        step "vectors on gles under a small GPU's limits ($l)" env EDML_RUN_ARGS="--limits $l" sh test/run-cases.sh $H/edml-run gles
        step "differential test gles under a small GPU's limits ($l)" $H/test/diff --backend gles --seed 53 --iters 250 --limits $l
    done
    step "differential test gles, GatherND alone (slices of many 16-byte vectors, every remainder)" $H/test/diff --backend gles --seed 61 --iters 1500 --op gather_nd
    for b in ref neon; do
        for seed in 1 2 3; do
            step "differential test $b vs oracle, seed $seed" $H/test/diff --backend $b --seed $seed --iters 2000
        done
    done
    step "test image on host" $H/edml-test --iters 600
    # 2b. Several cores: the same answers for every thread count and part order.
    for b in neon auto; do
        step "vectors on $b, 4 threads of edml's pool, parts of 64 bytes: the 1-thread verdicts" env EDML_RUN_ARGS="--threads 4 --small-parts" sh test/run-cases.sh $H/edml-run $b
    done
    for w in 2 4 8; do
        step "differential test neon, edml's pool of $w, parts of 64 bytes" $H/test/diff --backend neon --seed $((30 + w)) --iters 1000 --parallel pool --workers $w --small-parts
    done
    for m in reverse random spawn; do
        step "differential test neon, parts run $m (5 workers)" $H/test/diff --backend neon --seed 41 --iters 1000 --parallel $m --workers 5 --small-parts
    done
    step "make demo: compact, identical detections, installs only the demo's packages" sh test/check-demo.sh
    step "threads: 4 devices at once (neon)" $H/test/threads --backend neon
    step "threads: 4 devices at once (gles)" $H/test/threads --backend gles --rounds 10
    for b in ref neon gles; do
        r=100; [ $b = gles ] && r=10
        step "threads: 2 threads on one device ($b): right or BUSY" $H/test/threads --shared --threads 2 --backend $b --rounds $r
    done
    step "threads: 12 threads on one device (gles): 8 keep a context, 4 run on transient ones" $H/test/threads --shared --threads 12 --backend gles --rounds 1
    step "threads: 12 threads one after another on one device (gles), each releasing its context as it ends" $H/test/threads --shared --relay --threads 12 --backend gles --rounds 1
    step "static program (host, Mesa present): GLES off with its reason, NEON answers" sh test/check-static.sh host
    step "README, examples/topk.c, make help and the schema agree; no path outside the project" sh test/check-docs.sh
    step "clang-format: the tree as .clang-format says" sh test/check-format.sh
    step "function length: library 80 lines, tests and tools 120" sh test/check-functions.sh
    step "no circles: the library's files depend on each other one way (nm of the host build)" sh test/check-cycles.sh
    for b in ref neon gles; do
        n=1000; [ $b = gles ] && n=150
        step "soak: $n cycles on $b, arena given back" $H/test/diff --soak --backend $b --iters $n --seed 21
    done
    step "edml.h as C99 -pedantic, C11, C++17" sh test/check-header.sh
    step "README example (examples/topk.c)" sh -c "$H/examples/topk | tee /dev/stderr | grep -q '3.5@4 1.25@6 0.7@1'"
    step "command list example (examples/command_list.c): one list, two submissions" sh -c "$H/examples/command_list | tee /dev/stderr | tr '\n' ' ' | grep -q 'round 0: argmax 1 2, chosen 1 -2 3 -4 round 1: argmax 3 2, chosen 1 2 3 4'"

    # 2. clang, warnings as errors.
    step "build host (clang -Werror; its tests under make sanitize, the kernels' at -O2 too)" make -j"$J" BOARD=host CC=clang BUILD=build/host-clang all build/host-clang/test/kernels build/host-clang/test/diff
    step "vectors on neon (clang build)" sh test/run-cases.sh build/host-clang/edml-run neon
    step "every NEON kernel against the reference (clang -O2 build)" build/host-clang/test/kernels
    step "differential test neon vs oracle (clang -O2 build)" build/host-clang/test/diff --backend neon --seed 31 --iters 2000
}

host_deep() {
    # 3. AddressSanitizer + UndefinedBehaviorSanitizer over the whole suite.
    # (make sanitize: on the objects the fuzzers link below)
    S=build/fuzz/lib
    step "build host (clang ASan+UBSan)" make -j"$J" sanitize
    step "unit tests (ASan+UBSan)" $S/test/unit
    step "every NEON kernel path (ASan+UBSan)" $S/test/kernels
    step "misuse (ASan+UBSan)" $S/test/misuse
    step "command lists (ASan+UBSan)" $S/test/lists
    step "measured placement (ASan+UBSan)" $S/test/placement
    step "the placement cache (ASan+UBSan): at every alignment, stale, damaged, full" $S/test/placement_cache
    step "10 threads on one GLES device, each releasing its context before it ends (ASan+UBSan: nothing leaks)" $S/test/threads --shared --threads 10 --backend gles --rounds 1
    for b in ref neon; do
        step "vectors on $b (ASan+UBSan)" sh test/run-cases.sh $S/edml-run $b
        step "differential test $b (ASan+UBSan)" $S/test/diff --backend $b --seed 7 --iters 1000
    done
    for b in gles auto; do
        step "vectors on $b (ASan+UBSan), one by one and as one command list (every GPU threshold 0)" \
            sh -c 'EDML_RUN_ARGS=--gpu-always sh test/run-cases.sh "$1" $2 && EDML_RUN_ARGS="--gpu-always --command-list" sh test/run-cases.sh "$1" $2' sh $S/edml-run $b
    done
    step "differential test neon, pool of 4 (ASan+UBSan)" $S/test/diff --backend neon --seed 8 --iters 800 --parallel pool --workers 4 --small-parts

    # ThreadSanitizer: several threads, each with its own device.
    T=build/host-tsan
    step "build host (clang ThreadSanitizer)" make -j"$J" BOARD=host CC=clang BUILD=$T CFLAGS="-O1 -g -fsanitize=thread" LDFLAGS="-fsanitize=thread" $T/test/threads $T/test/diff
    for b in ref neon; do
        step "threads under ThreadSanitizer ($b)" env TSAN_OPTIONS=halt_on_error=1 $T/test/threads --backend $b --rounds 50
        step "2 threads on one device under ThreadSanitizer ($b)" env TSAN_OPTIONS=halt_on_error=1 $T/test/threads --shared --threads 2 --backend $b --rounds 50
    done
    step "edml's pool of 4 under ThreadSanitizer (neon, parts of 64 bytes)" env TSAN_OPTIONS=halt_on_error=1 $T/test/diff --backend neon --seed 9 --iters 400 --parallel pool --workers 4 --small-parts

    # valgrind memcheck over the host suite (reference and NEON through SIMDe).
    V="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite"
    step "valgrind: unit tests" $V $H/test/unit --cpu-only
    for b in ref neon; do
        step "valgrind: vectors on $b" sh test/run-cases.sh "$V" $H/edml-run $b
        step "valgrind: differential test on $b" $V $H/test/diff --backend $b --iters 100 --seed 17
    done

    # libFuzzer, 20 s each over the committed seed corpus.
    step "build fuzz targets (clang, libFuzzer, ASan, UBSan; the library make sanitize built)" make -j"$J" fuzz-build
    for t in ops case; do
        c=$(mktemp -d)
        step "fuzz_$t for 20 s" build/fuzz/fuzz_$t -max_total_time=20 -timeout=30 -artifact_prefix=build/fuzz/ "$c" test/fuzz/$t
        rm -rf "$c"
    done
    c=$(mktemp -d)
    step "fuzz_api for 20 s: sequences of public calls over two devices (lifetimes, stale and foreign handles, GPU buffers and mappings, command lists with hazards, queries, a shared and damaged program cache, placement modes, placement caches and cost models (blobs and boards' lines, damaged or with NaN, infinite and negative figures), dropped dispatches and other faults, two threads) against the reference" \
        build/fuzz/fuzz_api -max_total_time=20 -max_len=4096 -timeout=30 -artifact_prefix=build/fuzz/ "$c" test/fuzz/api
    rm -rf "$c"
    step "installed edml found by CMake (find_package, edml::edml) and pkg-config: host" sh test/check-consumer.sh host
    step "packages for Buildroot and Yocto as far as nothing is fetched: the licence and its checksums, a full SRCREV with that LICENSE, required variables, versions and boards" sh test/check-packaging.sh
    step "PORT=none is freestanding: the archive needs only memcpy/memset/memmove/memcmp and libgcc (host)" sh test/check-freestanding.sh host
}

arm_suite() {
    # 4. ARM test images under qemu-user: AArch64 and ARMv7 hard-float NEON.
    for board in rpi4 rpi4-armhf; do
        step "build $board test image" make -j"$J" BOARD=$board all test-image
        # the reference backend as AArch64 code runs in the bare-metal images below
        # (the host lane's differential tests run NEON's code through SIMDe at
        # many more iterations; here the ARM compilers' code)
        backends="--backend neon" iters=400 iters4=300
        [ $board = rpi4-armhf ] && backends="--backend neon --backend ref" iters=600 iters4=300
        step "$board test image under qemu ($(echo $backends | sed 's/--backend //g; s/ /, /g'))" toolchain/run $board build/$board/edml-test $backends --iters $iters --seed 11
        step "$board edml-run vectors under qemu (neon)" sh test/run-cases.sh "toolchain/run $board" build/$board/edml-run neon
        step "$board edml-run vectors under qemu through one command list (neon)" env EDML_RUN_ARGS="--command-list" sh test/run-cases.sh "toolchain/run $board" build/$board/edml-run neon
        step "$board edml-run vectors under qemu, edml's pool of 4 (neon)" env EDML_RUN_ARGS="--threads 4 --small-parts" sh test/run-cases.sh "toolchain/run $board" build/$board/edml-run neon
        step "$board test image under qemu, 4 threads (neon)" toolchain/run $board build/$board/edml-test --backend neon --iters $iters4 --seed 12 --threads 4
        step "$board every NEON kernel path against the reference under qemu" sh -c 'make -j"$1" BOARD=$2 build/$2/test/kernels && toolchain/run $2 build/$2/test/kernels' sh "$J" $board
    done
    step "ARMv7 NEON without half-float conversion (Cortex-A8, -mfpu=neon): build the test image and the kernels test" \
        sh -c 'make -j"$1" BOARD=rpi4-armhf BUILD=build/rpi4-armhf-a8 BOARD_TUNE="-mcpu=cortex-a8 -mfpu=neon -mfloat-abi=hard" test-image build/rpi4-armhf-a8/test/kernels' sh "$J"
    step "ARMv7 NEON without half-float conversion: every vector on NEON under qemu-arm -cpu cortex-a8" \
        env EDML_QEMU_FLAGS="-cpu cortex-a8" toolchain/run rpi4-armhf build/rpi4-armhf-a8/edml-test --backend neon --iters 200 --seed 14
    step "ARMv7 NEON without half-float conversion: every NEON kernel path against the reference under qemu-arm -cpu cortex-a8" \
        env EDML_QEMU_FLAGS="-cpu cortex-a8" toolchain/run rpi4-armhf build/rpi4-armhf-a8/test/kernels
    step "PORT=none is freestanding: the archive needs only memcpy/memset/memmove/memcmp and libgcc (AArch64, ARMv7)" sh test/check-freestanding.sh rpi4 rpi4-armhf
    step "static AArch64 program under qemu, arm64 Mesa present: GLES off with its reason" sh test/check-static.sh rpi4
    step "PORT=none and PORT=linux build and install apart (rpi4)" sh test/check-build-config.sh rpi4
    step "installed edml found by CMake (toolchain file) and pkg-config (sysroot): rpi4 PORT=none under qemu, rpi4 PORT=linux linked" sh test/check-consumer.sh rpi4:none rpi4:linux
    step "instructions per element (rpi4, qemu -cpu cortex-a72, the firmware build): every NEON workload at or under its ceiling (docs/bench.md)" sh test/check-insns.sh rpi4 cortex-a72 1
    step "instructions per element (rpi4-armhf, 32-bit, qemu -cpu max: qemu-arm has no Cortex-A72): every NEON workload within 1.5x of its ceiling" sh test/check-insns.sh rpi4-armhf max 1.5
    step "instructions per element on the shape families (rpi4, qemu -cpu cortex-a72): every family at or under its ceiling (docs/bench.md)" sh test/check-family-insns.sh rpi4 cortex-a72 1
    step "instructions per element on the shape families (rpi4-armhf, 32-bit, qemu -cpu max): every family at or under its ARMv7 ceiling (docs/bench.md)" sh test/check-family-insns.sh rpi4-armhf max 1
    step "bare metal (make test-baremetal): AArch64 under qemu-system, no OS: start-up, MMU, vectors; the example; every vector on ref and NEON, differential, unit, misuse" make -j"$J" test-baremetal
    step "bare metal: examples/baremetal built out of the tree by its own Makefile against an installed edml (rpi4, PORT=none), run under qemu-system" sh test/check-baremetal-app.sh
    step "bare metal, rpi5's library (Cortex-A76) under qemu -cpu max: every vector on ref and NEON, differential, unit, misuse" \
        sh -c 'make -j"$1" baremetal BAREMETAL_BOARD=rpi5 && EDML_BAREMETAL_CPU=max toolchain/run-baremetal build/baremetal-rpi5/edml-test.elf --backend ref --backend neon --iters 150 --seed 12 | tee /dev/stderr | tail -n 1 | grep -qx "1[5-9][0-9] passed, 0 failed"' sh "$J"
    # the GL path as AArch64 code: arm64 Mesa (llvmpipe) under qemu-aarch64
    if [ "$(uname -m)" = x86_64 ]; then
        step "build rpi4 GL test image" make -j"$J" BOARD=rpi4 test-image-gl
        step "rpi4 GL test image under qemu (gles, arm64 Mesa)" toolchain/run rpi4 build/rpi4/edml-test-gl --backend gles --iters 100 --seed 13
        step "the board report as a Raspberry Pi 4 runs it (make board-report BOARD=rpi4, under qemu with the arm64 Mesa)" sh test/check-board-report.sh rpi4 gl
        # the GL path as ARMv7 code: armhf Mesa under qemu-arm, its softpipe
        # (llvmpipe's JIT jumps to address 0 under qemu-arm 7.2); softpipe
        # fails the ArgMin/ArgMax odometer's known answer, so named GLES may refuse those
        step "rpi4-armhf: every vector on gles (right or refused) and auto (every GPU threshold 0), one by one and as one command list, under qemu-arm with the armhf Mesa (softpipe)" \
            sh -c 'export GALLIUM_DRIVER=softpipe; r="toolchain/run rpi4-armhf"; e=build/rpi4-armhf/edml-run
                EDML_RUN_ARGS=--may-refuse sh test/run-cases.sh "$r" $e gles && EDML_RUN_ARGS="--may-refuse --command-list" sh test/run-cases.sh "$r" $e gles &&
                EDML_RUN_ARGS=--gpu-always sh test/run-cases.sh "$r" $e auto && EDML_RUN_ARGS="--gpu-always --command-list" sh test/run-cases.sh "$r" $e auto &&
                $r $e --list-backends 2>&1 | grep -q "GLES on softpipe"'
        step "rpi4-armhf: every vector struck by a dropped copy (named GLES right or refused, AUTO right), under qemu-arm (softpipe)" \
            sh -c 'export GALLIUM_DRIVER=softpipe; r="toolchain/run rpi4-armhf"; e=build/rpi4-armhf/edml-run
                EDML_RUN_ARGS="--may-refuse --strike dropped-copy" sh test/run-cases.sh "$r" $e gles &&
                EDML_RUN_ARGS="--gpu-always --strike dropped-copy" sh test/run-cases.sh "$r" $e auto'
    fi
    step "the board report's static program on ARMv7 (make board-report BOARD=rpi4-armhf, under qemu)" sh test/check-board-report.sh rpi4-armhf
    # cross builds of their own
    step "Buildroot and Yocto variables honoured: CC, AR, CFLAGS, LDFLAGS (on the command line, in the environment, CC with flags), DESTDIR, PREFIX (rpi4)" sh test/check-build-vars.sh rpi4
    step "stack: every public call's worst-case depth on AArch64 and ARMv7 (GCC's call graphs) within docs/stack.md's table" sh test/check-stack.sh
    # Every board builds.
    for board in $(ls boards); do
        case $board in host|rpi4|rpi4-armhf) continue ;; esac
        step "build $board" make -j"$J" BOARD=$board all
    done
}

# lane NAME FUNCTION...: the functions' steps in order, their lines shown and
# kept in the lane's file, from which the totals are counted
lane() {
    lane_file=$logs/.lane-$1
    shift
    for f in "$@"; do "$f"; done 2>&1 | tee "$lane_file"
}

if [ "$quick" = 1 ]; then
    lane host host_suite
else
    lane host host_suite host_deep &
    lane arm arm_suite &
    wait
fi
passed=$(cat "$logs"/.lane-* | grep -c '^PASS ')
failed=$(cat "$logs"/.lane-* | grep -c '^FAIL ')
echo "$passed passed, $failed failed" | tee "$logs/.summary"
[ "$failed" -eq 0 ]

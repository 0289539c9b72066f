#!/bin/sh
# make board-report BOARD=<board>'s program (with the GPU, or the static
# one), and the report run as a user runs it on
# the board (here under qemu-user, with the arm64 Mesa for rpi4's GL
# program), at a tiny scale: a JSON report with the board's identity, every
# workload on NEON at each thread count (and GLES where there is a GPU),
# measured placement, a cost model and a caps.h block, every answer
# right; and
# tools/perf_table.py makes its tables. So the report never rots between
# the boards that run it.
#   test/check-board-report.sh BOARD [gl]
set -u
cd "$(dirname "$0")/.."
board=$1 gl=${2:-}
dir=build/$board/board-report
prog=$dir/edml-board-report${gl:+-gl}
# the program this check runs (make board-report builds both)
make -s --no-print-directory BOARD="$board" "$prog" >/dev/null 2>&1 || { echo "FAIL: make BOARD=$board $prog"; exit 1; }
out=$dir/check.json
rm -f "$out" "$out.placement"
toolchain/run "$board" "$prog" --report "$out" --scale 0.0005 --iters 2 >"$dir/check.log" 2>&1 || {
    tail -n 20 "$dir/check.log"
    echo "FAIL: $prog --report"
    exit 1
}
python3 tools/perf_table.py report "$out" >"$dir/check.md" || { echo "FAIL: perf_table.py report"; exit 1; }
fail=0
check() { grep -q -- "$2" "$3" || { echo "FAIL: $1"; fail=1; }; }
check "no identity" "| CPU |" "$dir/check.md"
check "no caps.h block" "#define EDML_BOARD_CORES" "$dir/check.md"
[ "$(grep -c '^| [a-z_0-9]* | [0-9.]* ms |' "$dir/check.md")" -ge 16 ] || { echo "FAIL: not every workload timed"; fail=1; }
grep -q WRONG "$dir/check.md" && { echo "FAIL: a wrong answer"; fail=1; }
# what it says as it runs: its plan (scale, memory, duration) first, the
# board, a progress line after each workload, a summary, and the plan with
# the time it took in the JSON
check "no plan said before it starts" "^board report: scale .* MB .* about [0-9]* s" "$dir/check.log"
check "no identity printed" "^board: " "$dir/check.log"
[ "$(grep -c '^progress: ' "$dir/check.log")" -ge 16 ] || { echo "FAIL: no progress line after each workload"; fail=1; }
check "no summary" "^summary (" "$dir/check.log"
check "no progress line after the workloads" "^progress: the workloads done, .* about [0-9]* s more" "$dir/check.log"
# --help says what each file it writes serves, the model's included
toolchain/run "$board" "$prog" --help >"$dir/help.log" 2>&1 || { echo "FAIL: $prog --help"; fail=1; }
check "--help does not name FILE.model" "FILE.model .*cost_model" "$dir/help.log"
check "no plan in the JSON" '"plan": {"scale"' "$out"
if [ -n "$gl" ]; then
    check "no GPU start costs" "from the program cache" "$dir/check.md"
    # a progress line after each step, and a summary that says how each
    # placement was decided
    [ "$(grep -c '^progress: .* done, [0-9]* s so far (guessed [0-9]*); about [0-9]* s more' "$dir/check.log")" -ge 5 ] ||
        { echo "FAIL: no progress line after each step"; fail=1; }
    check "a summary that does not say how placements were decided" "^  TopK .*; decided by: " "$dir/check.log"
    # the caps.h block names the whole renderer (commas and brackets too)
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if "on GLES on %s */" % d["identity"]["gl"]["renderer"] in d["caps"] else 1)' "$out" ||
        { echo "FAIL: the caps.h block cuts the renderer's name"; fail=1; }
    # every placement measured, or, on a software GPU the board keeps from
    # work (gpu_software_ok 0: llvmpipe here), every one kept off it
    [ "$(grep -c '| measured with\|: measured with\|gpu_software_ok keeps from work' "$dir/check.md")" -ge 32 ] ||
        { echo "FAIL: not every placement measured (or kept off a software GPU)"; fail=1; }
    [ -s "$out.placement" ] || { echo "FAIL: no placement cache saved"; fail=1; }
    # AUTO's cost model: a fitted line a family, backend, kernel path, kind
    # of bindings and worker count, each with its error; the blob a device takes (AUTO
    # by it, every answer right) and the caps.h lines
    [ "$(grep -c '"median_error"' "$out")" -ge 16 ] || { echo "FAIL: no cost model fitted"; fail=1; }
    check "no cost model in the caps.h block" "EDML_BOARD_COST_MODEL {" "$out"
    [ -s "$out.model" ] || { echo "FAIL: no cost model saved"; fail=1; }
    toolchain/run "$board" "$prog" --placement --model "$out.model" --workload topk_cls --scale 0.001 --iters 2 \
        --rounds 1 >"$dir/model.log" 2>&1 || { tail -n 5 "$dir/model.log"; echo "FAIL: --placement --model"; fail=1; }
    check "the report's own cost model not taken" "^log: cost model: [0-9]* lines taken" "$dir/model.log"
    check "no AUTO by the model" " model .* round 1 " "$dir/model.log"
    # the crossovers as a picture (an SVG that parses, a line a backend and family)
    python3 tools/perf_table.py crossover-svg "$out" >"$dir/crossover.svg" &&
        python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if len(r.findall("{http://www.w3.org/2000/svg}polyline")) >= 3 else 1)' "$dir/crossover.svg" ||
        { echo "FAIL: perf_table.py crossover-svg"; fail=1; }
    # the model over its points as a picture (a dot and a ring a point), each
    # point's prediction its own line's (fixed + terms x figures)
    python3 tools/perf_table.py model-svg "$out" >"$dir/model.svg" &&
        python3 - "$out" "$dir/model.svg" <<'PY' || { echo "FAIL: model_points or perf_table.py model-svg"; fail=1; }
import json, sys, xml.etree.ElementTree as E
d = json.load(open(sys.argv[1]))
key = lambda m, path, elem: (m["family"], m["backend"], path, elem, m["binding"], m["workers"])
pts, lines = d["model_points"], {key(m, m["path_name"], m["elem_bytes"]): m for m in d["model"]}
assert len(pts) >= 16, "too few points"
assert len({m["path_name"] for m in d["model"]}) >= 8, "lines of too few kernel paths"
for p in pts:  # its path's line for its element bytes, else the path's for any, else its family's over every path
    m = lines.get(key(p, p["path"], p["elem_bytes"])) or lines.get(key(p, p["path"], 0)) or \
        lines[key(p, "every path", 0)]
    want = m["fixed_us"] + m["us_per_mib"] * p["mib"] + m["us_per_melement"] * p["melements"] + \
        m["us_per_mrow"] * p["mrows"] + m["us_per_mhalf"] * p["mhalves"] + m["us_per_mlong"] * p["mlong"] + \
        m["us_per_mstrided"] * p["mstrided"] + m["us_per_mkept"] * p["mkept"]
    assert abs(p["model_us"] - want) <= 0.01 + 1e-3 * want, (p, want)
circles = E.parse(sys.argv[2]).getroot().findall("{http://www.w3.org/2000/svg}circle")
gw = sorted({p["workers"] for p in pts if p["backend"] == "gles"})
drawn = sum(1 for p in pts if (p["backend"] == "neon" and p["binding"] == "host") or
            (p["backend"] == "gles" and p["workers"] in (gw[0], gw[-1])))
assert len(circles) >= 2 * drawn, (len(circles), drawn)
PY
    # the crossovers reach past the board's thresholds, or say where they ended
    check "crossovers that say nothing of their range" "GLES ahead on one core from\|from 4096 to [0-9]* elements" "$dir/check.log"
fi
# the truth about where it ran: under qemu (an Arm board's program on this
# x86 machine) emulated, no cores or clocks of the host's; natively not
case "$(uname -m):$board" in
x86_64:host | aarch64:rpi4 | aarch64:rpi5) emu=false ;;
x86_64:*) emu=true ;;
*) emu= ;;
esac
if [ -n "$emu" ]; then
    grep -q "\"emulated\": $emu," "$out" || { echo "FAIL: the report does not say emulated: $emu"; fail=1; }
    [ "$emu" = false ] || grep -q '"cores": null,' "$out" || { echo "FAIL: an emulated report gives the host's cores"; fail=1; }
    [ "$emu" = false ] || grep -q 'UNDER EMULATION' "$out" || { echo "FAIL: the caps.h block does not say it was emulated"; fail=1; }
fi
[ $fail = 0 ] && echo "board report ($board${gl:+, with the GPU}): $(grep -c '^| ' "$dir/check.md") table rows, $(sed -n 's/.*"cpu": "\(.*\)",/\1/p' "$out")"
exit $fail

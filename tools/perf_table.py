#!/usr/bin/env python3
"""docs/performance.md's tables, made from the JSON files of the runs.

    python3 tools/perf_table.py sweep EDML_SWEEP.json ORT.json
        edml-bench --sweep beside tools/ort-bench.py (ORT time over edml's:
        above 1, edml is faster), with each count's fraction of a copy
    python3 tools/perf_table.py gles EDML.json TORCH.json TORCH_EVICT.json
        edml-bench --backend gles (tensors in GPU buffers, the cache evicted
        between calls, and the same call repeated) beside tools/torch-bench.py
        (--evict, and calls back to back)
    python3 tools/perf_table.py boards boards
        what AUTO does by default on each board, from boards/*/caps.h
    python3 tools/perf_table.py figures FILE.json [KIND...]
        edml-bench's figures (--gpu-floor, --chain, --pipeline, --gpu-time)
    python3 tools/perf_table.py mapped FILE.json...
        edml-bench --mapped, one row a file
    python3 tools/perf_table.py insns AARCH64.json ARMV7.json
        make bench-insns's figures (INSN_JSON) beside docs/bench.md's ceilings
    python3 tools/perf_table.py family-insns FAMILIES-INSNS.json
        tools/family-insns.sh's figures: reference, NEON, the plain C loop,
        beside docs/bench.md's family ceilings
    python3 tools/perf_table.py families FAMILIES.json PEERS.json
        edml-bench --families beside tools/family-peers.py over it (the
        peer's time over NEON's: above 1, edml is faster)
    python3 tools/perf_table.py rounds FILE.json
        rows of several rounds ({"kind", "build", "workload", "round",
        "threads" or "mode", "median_ms"}): the median over the rounds, and
        each round
    python3 tools/perf_table.py compare FILE.json BUILD_A BUILD_B [MODE...]
        the same rows, two builds side by side: a row a workload and mode
        (those MODEs only, where named), the medians over the rounds and B's
        time over A's
    python3 tools/perf_table.py floor FILE.json
        edml-bench --gpu-floor --workload W of several builds and rounds
        ({"rounds": [{"build", "round", "figures", "results"}]}): for each
        build the bare GL steps and W on GLES with its tensors in GPU buffers
        called back to back, the medians over the rounds, and W over gl_floor
        in each round
    python3 tools/perf_table.py report FILE.json
        a board report (make board-report, edml-bench --report): the board,
        what the GPU's first start costs with and without the program cache,
        each workload on NEON at each thread count and on GLES, the
        crossovers, the cost model's lines and their errors, where measured
        placement puts each workload, caps.h
    python3 tools/perf_table.py model FILE.json
        a board report's cost model alone: each line and its median error
    python3 tools/perf_table.py crossover-svg FILE.json > crossover.svg
        a board report's crossovers as a picture: time against size, log-log,
        a panel a family, NEON on one thread and GLES
    python3 tools/perf_table.py placement FILE.json...
        edml-bench --placement (one file a thread count): a row a workload and
        binding, each variant's median over the rounds, the faster backend's
        time, and each AUTO variant's time over it (a * where it is more than
        1.10x) and over the backend it ran on, by name on its own device,
        timed in the same turns (a * over 1.05x); then how many rows each
        AUTO variant has within 10% (with edml-bench --model, AUTO by that
        cost model in place of the thresholds)
    python3 tools/perf_table.py predict FILE.json...
        edml-bench --predict: the cost model's time of each workload, backend
        and binding beside the measured, its kernel path and parts; how many
        within 25% and within 2x

Prints a Markdown table; docs/performance.md holds it below the command.
"""
import json
import os
import sys

WORKLOADS = ["topk_cls", "topk_det", "topk_vocab", "topk_vocab_f16", "topk_axis0", "topk_wide", "gather_rows",
             "gather_batch", "gather_points", "argmin_inner", "argmin_outer", "argmin_all", "argmax_seg", "if_f32",
             "if_u8", "if_bcast"]


def load(path):
    with open(path) as f:
        return json.load(f)


def row(cells):
    print("| " + " | ".join(cells) + " |")


def sweep_table(edml_rows, ort_rows):
    """ort_rows: {(workload, threads): ms}"""
    edml, copy = {}, {}
    for r in edml_rows:
        if r.get("available") and r.get("mode") == "sweep":
            edml[(r["workload"], r["threads"])] = r["median_ms"]
            copy[(r["workload"], r["threads"])] = r["ratio_to_copy"]
    ths = sorted({t for _, t in ort_rows})
    head = ["workload", "edml 1 thread"] + [f"edml {t}t" for t in ths if t != 1] + [f"ORT {t}t" for t in ths] + \
        [f"ORT/edml {t}t" for t in ths] + [f"edml % of {t}t copy" for t in ths if t != 1] + ["edml 16t/1t"]
    row(head)
    print("|" + " --- |" * len(head))
    for w in WORKLOADS:
        if (w, ths[0]) not in ort_rows:
            continue
        e = [edml.get((w, t)) for t in ths]
        o = [ort_rows[(w, t)] for t in ths]
        cells = [w, f"{edml.get((w, 1), float('nan')):.3f} ms"]
        cells += [f"{x:.3f}" if x else "-" for t, x in zip(ths, e) if t != 1]
        cells += [f"{x:.3f}" for x in o]
        cells += [(f"**{oo / ee:.2f}x**" if oo / ee < 1 else f"{oo / ee:.2f}x") if ee else "-" for oo, ee in zip(o, e)]
        cells += [f"{100 * copy[(w, t)]:.0f}%" if (w, t) in copy else "-" for t in ths if t != 1]
        e1, e16 = edml.get((w, 1)), edml.get((w, 16))
        cells.append(f"{e1 / e16:.2f}x" if e1 and e16 else "-")
        row(cells)


def gles_table(edml, torch_rep, torch_evict):
    mine = {(r["workload"], r["mode"]): r["median_ms"] for r in edml["results"]
            if r.get("available") and r["backend"] == "gles"}
    rep = {r["workload"]: r["median_ms"] for r in torch_rep["results"]}
    ev = {r["workload"]: r["median_ms"] for r in torch_evict["results"]}
    row(["workload", "edml, GPU buffers (evicted)", "torch CUDA (evicted)", "torch / edml", "edml, repeated",
         "torch CUDA, repeated", "torch / edml"])
    print("|" + " --- |" * 7)
    for w in WORKLOADS:
        a, b = mine.get((w, "gpu-resident")), mine.get((w, "gpu-repeated"))
        if a is None or w not in ev:
            continue
        row([w, f"{a:.3f} ms", f"{ev[w]:.3f} ms", f"{ev[w] / a:.2f}x", f"{b:.3f} ms" if b else "-",
             f"{rep[w]:.3f} ms", f"{rep[w] / b:.2f}x" if b else "-"])


def figures_table(doc, kinds):
    figs = [f for f in doc.get("figures", []) if not kinds or f["kind"] in kinds]
    keys = []
    for f in figs:
        keys += [k for k in f if k not in ("kind", "name") and k not in keys]
    row(["kind", "what"] + keys)
    print("|" + " --- |" * (2 + len(keys)))
    for f in figs:
        row([f["kind"], f["name"]] + [(f"{f[k]:.3f}" if k.endswith("ms") else f"{f[k]:.1f}") if k in f else ""
                                      for k in keys])


def mapped_table(paths):
    row(["GPU", "host memory", "GPU buffers", "mapped GPU buffers", "mapped / host"])
    print("| --- | --- | --- | --- | --- |")
    for p in paths:
        d = load(p)
        ms = {r["path"]: r["median_ms"] for r in d["results"]}
        gpu = d["gles"].split(" (")[0].replace("GLES on ", "")
        row([gpu, f"{ms['host']:.3f} ms", f"{ms['buffers']:.3f} ms", f"{ms['mapped']:.3f} ms",
             f"{ms['mapped'] / ms['host']:.2f}x"])


def rounds_table(doc):
    import statistics
    groups = {}
    for r in doc["results"]:
        who = r.get("build", "ONNX Runtime" if r["kind"] == "ort" else r["kind"])
        groups.setdefault((r["workload"], str(r.get("threads", r.get("mode"))), who), []).append(
            (r["round"], r["median_ms"]))
    row(["workload", "threads" if any("threads" in r for r in doc["results"]) else "mode", "what",
         "median of the rounds", "each round (ms)"])
    print("| --- | --- | --- | --- | --- |")
    def order(kv):
        w, t, who = kv[0]
        return (WORKLOADS.index(w), int(t) if t.isdigit() else t, who)

    for (w, t, who), v in sorted(groups.items(), key=order):
        v.sort()
        row([w, str(t), who, f"{statistics.median(m for _, m in v):.3f} ms", ", ".join(f"{m:.3f}" for _, m in v)])


def compare_table(doc, a, b, modes):
    import statistics
    ms = {}
    for r in doc["results"]:
        ms.setdefault((r["workload"], r["mode"], r["build"]), []).append(r["median_ms"])
    keys = sorted({(w, m) for w, m, _ in ms if not modes or m in modes})
    row(["workload", "mode", a, b, f"{b} / {a}"])
    print("| --- | --- | --- | --- | --- |")
    ratios = {}
    for w, m in keys:
        ta, tb = statistics.median(ms[(w, m, a)]), statistics.median(ms[(w, m, b)])
        row([w, m, f"{ta:.3f} ms", f"{tb:.3f} ms", f"{tb / ta:.2f}x"])
        ratios.setdefault(m, []).append((tb / ta, w))
    print()
    for m, rs in ratios.items():  # each mode: the median ratio over the workloads, and the largest
        top = max(rs)
        print(f"{m}: {b} / {a} median {statistics.median(r for r, _ in rs):.3f}x over {len(rs)} workloads, "
              f"largest {top[0]:.2f}x ({top[1]})")


FLOOR_STEPS = ["+ program, parameter range, 3 uniforms", "+ 1024 invocations, not 64",
               "instead, it writes a persistent coherent mapping", "+ 8 bytes copied to a buffer, mapped after"]


def floor_table(doc):
    import statistics
    builds = list(doc.get("builds", {}))
    for r in doc["rounds"]:
        if r["build"] not in builds:
            builds.append(r["build"])
    head = ["build", "gl_floor"] + FLOOR_STEPS + ["workload, GPU buffers, back to back", "over gl_floor, each round",
                                                   "median"]
    row(head)
    print("|" + " --- |" * len(head))
    for b in builds:
        rs = sorted((r for r in doc["rounds"] if r["build"] == b), key=lambda r: r["round"])
        def us(r, kind, name):
            return next(f["us"] for f in r["figures"] if f["kind"] == kind and f["name"] == name)
        floor = [us(r, "gl_floor", "one workgroup and a fence") for r in rs]
        steps = [statistics.median(us(r, "gl_step", n) for r in rs) for n in FLOOR_STEPS]
        wl = [next(x["median_ms"] * 1000 for x in r["results"] if x["mode"] == "gpu-repeated") for r in rs]
        over = [w / f for w, f in zip(wl, floor)]
        row([b, f"{statistics.median(floor):.1f} us"] + [f"{v:.1f} us" for v in steps] +
            [f"{statistics.median(wl):.1f} us", ", ".join(f"{o:.2f}x" for o in over),
             f"{statistics.median(over):.2f}x"])


def placement_table(docs):
    import statistics
    ms, placed, threads, model_said, errors = {}, {}, [], {}, {}
    for d in docs:
        for r in d["results"]:
            key = (r["threads"], r["workload"], r["binding"])
            if r["threads"] not in threads:
                threads.append(r["threads"])
            ms.setdefault(key + (r["variant"],), {})[r.get("round", len(ms.get(key + (r["variant"],), {})))] = \
                r["median_ms"]
            if r["placed"]:
                placed[key + (r["variant"],)] = r["placed"]
            if r["variant"] in ("neon", "gles") and r.get("predicted_ms", -1) >= 0:  # the model's time, by name
                model_said.setdefault(key, {})[r["variant"]] = r["predicted_ms"]
    own = any(k[-1] == "neon_m" for k in ms)  # NEON and GLES by name on the measuring device too
    a = "model" if any(k[-1] == "model" for k in ms) else "auto"  # edml-bench --model: AUTO by a cost model
    by = "model" if a == "model" else "thresholds"
    head = ["threads", "workload", "tensors", "NEON", "GLES", f"AUTO, {by}", "AUTO, measured",
            f"{by} / best", "measured / best"]
    if own:
        head += [f"{by} / its backend", "measured / its backend"]
    row(head)
    print("|" + " --- |" * len(head))
    within, costs = {}, {}
    names = []  # the built-in workloads' order, then the cases' as they came
    for d in docs:
        for r in d["results"]:
            if r["workload"] not in names:
                names.append(r["workload"])
    names.sort(key=lambda n: WORKLOADS.index(n) if n in WORKLOADS else len(WORKLOADS))
    for t in threads:
        for w in names:
            for b in ("host", "gpu"):
                k = (t, w, b)
                if k + ("neon",) not in ms:
                    continue
                r_ms = {v[-1]: ms[v] for v in ms if v[:3] == k}  # each variant's time, round by round
                m = {v: statistics.median(t.values()) for v, t in r_ms.items()}

                def paired(v, *others):
                    """v over the fastest of others, round by round (timed call for call in the same
                    turns, on one device), the median over the rounds: the rounds' drift cancels"""
                    rounds = [i for i in r_ms[v] if all(i in r_ms[o] for o in others)]
                    return statistics.median(r_ms[v][i] / min(r_ms[o][i] for o in others) for i in rounds)

                # each AUTO against the backends on its own device, timed in the same turns
                mine = {a: ("neon", "gles"), "measured": ("neon_m", "gles_m") if own else ("neon", "gles")}
                cells = [str(t), w, "host memory" if b == "host" else "GPU buffers"]
                cells += [f"{m[v]:.3f} ms" for v in ("neon", "gles")]
                cells += [f"{m[v]:.3f} ms ({placed.get(k + (v,), '?')})" for v in (a, "measured")]
                for side, said in model_said.get(k, {}).items():  # the model's prediction of each side, measured
                    errors.setdefault(t, []).append(abs(said / m[side] - 1.0) if m[side] > 0 else float("inf"))
                for v in (a, "measured"):
                    ratio = paired(v, *mine[v])
                    within.setdefault((t, v), [0, 0])
                    within[(t, v)][0] += ratio <= 1.10
                    within[(t, v)][1] += 1
                    cells.append(f"{ratio:.2f}x" + (" *" if ratio > 1.10 else ""))
                for v, suffix in ((a, ""), ("measured", "_m")) if own else ():
                    # AUTO alone beside its backend by name (edml-bench's pairs), else as the variants were timed
                    pair, named = (f"{v}_pair", f"{v}_named") if f"{v}_pair" in r_ms else \
                        (v, f"{placed.get(k + (v,))}{suffix}")
                    if named not in r_ms:
                        cells.append("?")
                        continue
                    ratio = paired(pair, named)
                    costs.setdefault((t, v), [0, 0, 0.0])
                    costs[(t, v)][0] += ratio <= 1.05
                    costs[(t, v)][1] += 1
                    costs[(t, v)][2] = max(costs[(t, v)][2], ratio)
                    cells.append(f"{ratio:.2f}x" + (" *" if ratio > 1.05 else ""))
                row(cells)
    print()
    for (t, v), (n, total) in sorted(within.items()):
        name = f"AUTO by {by}" if v == a else "AUTO measured"
        print(f"- {t} thread{'s' if t > 1 else ''}: {name} within 10% of the faster backend on {n} of {total}")
    for t, e in sorted(errors.items()):
        print(f"- {t} thread{'s' if t > 1 else ''}: the model's predictions within 25% of the measured time on "
              f"{sum(x <= 0.25 for x in e)} of {len(e)} (each side of each row; median error "
              f"{statistics.median(e) * 100:.0f}%, within 2x on {sum(x <= 1.0 for x in e)})")
    for (t, v), (n, total, top) in sorted(costs.items()):
        name = f"AUTO by {by}" if v == a else "AUTO measured"
        print(f"- {t} thread{'s' if t > 1 else ''}: {name} at most 1.05x the backend it ran on (by name on its "
              f"device, in the same turns) on {n} of {total} (largest {top:.2f}x)")


def predict_table(docs):
    """edml-bench --predict: the cost model's time beside the measured, a row a workload, backend and binding,
    then how many fall within 25% and within 2x (the larger of the two over the smaller), and the median error."""
    import statistics
    row(["threads", "workload", "backend", "tensors", "path", "parts", "measured", "predicted", "predicted / measured"])
    print("|" + " --- |" * 9)
    errors = {}
    for d in docs:
        for r in d["results"]:
            m, p = r["measured_ms"], r["predicted_ms"]
            ratio = p / m if m > 0 and p > 0 else float("inf") if p != 0 else 0.0
            errors.setdefault(r["threads"], []).append(ratio)
            row([str(r["threads"]), r["workload"], r["backend"], "host memory" if r["binding"] == "host" else
                 "GPU buffers", r["path"], str(r["parts"]), f"{m:.3f} ms", f"{p:.3f} ms" if p >= 0 else "no line",
                 f"{ratio:.2f}x" + (" *" if not 0.5 <= ratio <= 2 else "")])
    print()
    for t, e in sorted(errors.items()):
        off = [abs(x - 1) for x in e]
        print(f"- {t} thread{'s' if t > 1 else ''}: predictions within 25% of the measured time on "
              f"{sum(x <= 0.25 for x in off)} of {len(e)}, within 2x on {sum(0.5 <= x <= 2 for x in e)} "
              f"(median error {statistics.median(off) * 100:.0f}%)")


def model_table(d):
    """AUTO's cost model of a board report: each fitted line and its median error over its points."""
    row(["family", "backend", "path", "elements", "tensors", "workers", "fixed", "per MiB", "per M elements",
         "per M rows", "per M halves", "per M of a row", "per M down columns", "per M kept", "points", "median error"])
    print("|" + " --- |" * 16)
    for r in d["model"]:
        row([r["family"], r["backend"], r.get("path_name", "every path"),
             f"{r['elem_bytes']} bytes" if r.get("elem_bytes") else "any",
             "host memory" if r["binding"] == "host" else "GPU buffers", str(r["workers"]),
             f"{r['fixed_us']:.1f} us", f"{r['us_per_mib']:.1f} us", f"{r['us_per_melement']:.1f} us",
             f"{r['us_per_mrow']:.1f} us", f"{r.get('us_per_mhalf', 0):.1f} us",
             f"{r.get('us_per_mlong', 0):.1f} us", f"{r.get('us_per_mstrided', 0):.1f} us",
             f"{r.get('us_per_mkept', 0):.1f} us", str(r["points"]),
             f"{r['median_error'] * 100:.0f}%"])


def report_tables(d):
    ident, gl = d["identity"], d["identity"].get("gl", {})
    print(f"### {ident['model'] or ident['cpu']} ({d['board']} build, edml {d['library']})\n")
    heat = [d.get("heat_before", {}), d.get("heat_after", {})]
    row(["what", "the board said"])
    print("| --- | --- |")
    if ident.get("emulated"):  # the host's processor, not the board's: said, and no cores or clocks
        row(["emulated", f"{ident['emulation']}: the figures below are not the board's"])
    row(["CPU", f"{ident['cpu']}, {ident['cores'] if ident['cores'] is not None else 'unknown'} cores" +
         (f", up to {ident['max_mhz']} MHz" if ident.get("max_mhz") else "")])
    row(["kernel", ident["kernel"]])
    row(["GL", f"{gl['renderer']}, {gl['version']}" if "renderer" in gl else gl.get("none", "none")])
    if "renderer" in gl:
        row(["GL extensions", ", ".join(f"{k}: {'yes' if gl[k] else 'no'}"
                                        for k in ("robustness", "buffer_storage", "parallel_compile"))
             + f"; {gl['program_binary_formats']} program binary formats"])
    row(["temperature", " -> ".join("-" if h.get("celsius") is None else f"{h['celsius']:.1f} C" for h in heat)
         + ("; throttled" if any(h.get("throttled") for h in heat) else "")
         + ("; throttling unknown (nothing to read)" if all(h.get("throttled") is None for h in heat) else "")])
    print(f"\nscale {d['scale']}, median of {d['iterations']} calls\n")
    start = [r for r in d.get("start", []) if "workload" in r]
    if start:
        by = {(r["workload"], r["cache"]): r for r in start}
        totals = [r for r in d["start"] if "workload" not in r]
        # each workload's first start on a device of its own: its programs never shared
        row(["workload", "GLES operator created, nothing compiled", "from the program cache", "cache bytes"])
        print("| --- | --- | --- | --- |")
        for w in WORKLOADS:
            cold, warm = by.get((w, "empty")), by.get((w, "loaded"))
            if cold:
                progs = lambda r, what: f" ({r[what]} programs {what})" if what in r else ""
                row([w, f"{cold['create_ms']:.1f} ms" + progs(cold, "compiled"),
                     (f"{warm['create_ms']:.1f} ms" + progs(warm, "loaded")) if warm else "-",
                     str(cold.get("used_bytes", "-"))])
        for t in totals:
            if "cache" in t:
                print(f"- {t['cache']} cache: {t['compiled']} programs compiled, {t['loaded']} loaded, "
                      f"{t['used_bytes']} bytes of cache" + (f"; {t['gles']}" if t.get("gles") else ""))
            elif t.get("gles"):
                print(f"- {t['gles']}")
        print()
    threads = sorted({r["threads"] for r in d["results"] if r["backend"] == "neon"})
    row(["workload"] + [f"NEON, {t} thread{'s' if t > 1 else ''}" for t in threads] + ["GLES", "GLES, GPU buffers"])
    print("|" + " --- |" * (len(threads) + 3))
    ms = {(r["workload"], r["backend"], r["binding"], r["threads"]): r for r in d["results"]}
    def cell(r):
        if r is None or r["median_ms"] is None:
            return "-"
        return f"{r['median_ms']:.3f} ms" + ("" if r["correct"] else " WRONG") + (" (throttled)" if r["throttled"] else "")
    for w in WORKLOADS:
        row([w] + [cell(ms.get((w, "neon", "host", t))) for t in threads] +
            [cell(ms.get((w, "gles", "host", 1))), cell(ms.get((w, "gles", "gpu", 1)))])
    if d.get("crossover"):
        print()
        row(["operator", "elements", "NEON, 1 thread", "GLES"])
        print("| --- | --- | --- | --- |")
        for r in d["crossover"]:
            gles = f"{r['gles_ms']:.3f} ms" if r["gles_ms"] is not None else "n/a"
            row([r["family"], str(r["elements"]), f"{r['neon_ms']:.3f} ms", gles])
    if d.get("model"):
        print()
        model_table(d)
    if d.get("placement"):
        print()
        row(["workload", "tensors", "measured placement"])
        print("| --- | --- | --- |")
        for r in d["placement"]:
            row([r["workload"], "host memory" if r["binding"] == "host" else "GPU buffers", r["why"]])
    print("\n    " + d["caps"].replace("\n", "\n    ").rstrip())


def ceilings():
    import re
    text = open(__file__.rsplit("/tools/", 1)[0] + "/docs/bench.md").read() if "/tools/" in __file__ else \
        open("docs/bench.md").read()
    part = text.split("## Instruction ceilings", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^\| (\w+) \| ([0-9.]+) \|$", part, re.M)}


def insns_table(a64, a32):
    c = ceilings()
    n32 = {r["workload"]: r for r in a32["results"]}
    row(["workload", "reference (%s)" % a64["board"], "NEON (%s, -cpu %s)" % (a64["board"], a64["cpu"]), "ceiling",
         "NEON (%s, -cpu %s)" % (a32["board"], a32["cpu"]), "limit (1.5x)"])
    print("| --- | --- | --- | --- | --- | --- |")
    for r in a64["results"]:
        w = r["workload"]
        row([w, f"{r['ref']:.2f}", f"{r['neon']:.2f}", f"{c.get(w, 0):g}",
             f"{n32[w]['neon']:.2f}" if w in n32 else "-", f"{1.5 * c.get(w, 0):g}"])


def family_ceilings(board):
    """docs/bench.md's family ceilings: the AArch64 column, or ARMv7's for an -armhf board."""
    import re
    text = open(__file__.rsplit("/tools/", 1)[0] + "/docs/bench.md").read() if "/tools/" in __file__ else \
        open("docs/bench.md").read()
    part = text.split("## Family instruction ceilings", 1)[1].split("\n## ", 1)[0]
    col = 3 if board.endswith("-armhf") else 2
    return {m.group(1): float(m.group(col))
            for m in re.finditer(r"^\| (\w+) \| ([0-9.]+) \| ([0-9.]+) \|", part, re.M)}


def family_insns_table(d):
    """tools/family-insns.sh's JSON: reference, NEON and the plain C loop, with the ceilings."""
    c = family_ceilings(d["board"])
    row(["family", "reference", "NEON (-cpu %s)" % d["cpu"], "plain C loop", "NEON / plain", "ceiling"])
    print("| --- | --- | --- | --- | --- | --- |")
    third = 0
    for r in d["results"]:
        ratio = r["neon"] / r["plain"] if r["plain"] else 0
        third += ratio <= 1 / 3
        row([r["family"], f"{r['ref']:.2f}", f"{r['neon']:.2f}", f"{r['plain']:.2f}", f"{ratio:.2f}",
             f"{c.get(r['family'], 0):g}"])
    print(f"\nsummary: NEON at or under a third of the plain loop's instructions on {third} of {len(d['results'])}")


def families_table(fam, peers):
    """edml-bench --families' JSON and tools/family-peers.py's over it: a row a family and thread count."""
    p = {(r["family"], r["threads"]): r for r in peers["rows"]}
    row(["family", "threads", "NEON ms", "x floor", "parts", "numpy ms", "ONNX Runtime ms", "numpy / NEON",
         "ONNX Runtime / NEON"])
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    f = lambda v, fmt: fmt % v if v is not None else "-"
    wins = {}
    for r in fam["rows"]:
        q = p.get((r["family"], r["threads"]), {})
        row([r["family"], str(r["threads"]), f"{r['neon_ms']:.3f}", f"{r['ratio_to_floor']:.2f}", str(r["parts"]),
             f(q.get("numpy_ms"), "%.3f"), f(q.get("ort_ms"), "%.3f"), f(q.get("numpy_over_edml"), "%.2f"),
             f(q.get("ort_over_edml"), "%.2f")])
        for k in ("numpy_over_edml", "ort_over_edml"):
            if q.get(k) is not None:
                w = wins.setdefault((k, r["threads"]), [0, 0])
                w[0] += q[k] >= 1
                w[1] += 1
    print()
    for (k, t), (a, n) in sorted(wins.items()):
        print(f"summary: edml at least as fast as {'numpy' if k.startswith('numpy') else 'ONNX Runtime'} at {t} "
              f"thread{'s' if t > 1 else ''} on {a} of {n}")


def crossover_svg(d):
    """The report's crossovers as a picture: time against size, log-log,
    a panel a family (copy-like, reduction), NEON on one thread and GLES
    with host memory; an SVG on standard output."""
    import math
    rows = d.get("crossover", [])
    fams = [f for f in ("copy", "reduction") if any(r["family"] == f for r in rows)]
    W, H, M = 360, 260, 50
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W * max(len(fams), 1)}" height="{H + 30}" '
           'font-family="sans-serif" font-size="11">']
    for i, fam in enumerate(fams):
        pts = [r for r in rows if r["family"] == fam]
        xs = [r["elements"] for r in pts]
        ys = [v for r in pts for v in (r["neon_ms"], r["gles_ms"]) if v]
        x0, x1 = math.log10(min(xs)), math.log10(max(xs)) + 1e-9
        y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys))) + 1e-9
        X = lambda e: i * W + M + (math.log10(e) - x0) / (x1 - x0) * (W - M - 20)
        Y = lambda ms: 20 + (y1 - math.log10(ms)) / (y1 - y0) * (H - M)
        out.append(f'<text x="{i * W + M}" y="14">{fam}: time against elements (log-log)</text>')
        out.append(f'<rect x="{i * W + M}" y="20" width="{W - M - 20}" height="{H - M}" fill="none" stroke="#888"/>')
        for e in xs:
            out.append(f'<text x="{X(e):.0f}" y="{H - M + 34}" text-anchor="middle">{e:.0e}</text>')
        for k in range(int(y0), int(math.ceil(y1))):
            out.append(f'<text x="{i * W + M - 4}" y="{Y(10 ** k) + 4:.0f}" text-anchor="end">{10 ** k:g} ms</text>')
        for key, color, name in (("neon_ms", "#1f77b4", "NEON, 1 thread"), ("gles_ms", "#d62728", "GLES, host memory")):
            line = [(X(r["elements"]), Y(r[key])) for r in pts if r[key]]
            if line:
                out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="'
                           + " ".join(f"{x:.1f},{y:.1f}" for x, y in line) + '"/>')
            out.append(f'<text x="{i * W + M + 6}" y="{34 + (14 if key == "gles_ms" else 0)}" fill="{color}">{name}</text>')
    out.append("</svg>")
    print("\n".join(out))


def model_svg(d):
    """The board report's cost model over the points it was fitted to: a
    panel a family, time against the operator's MiB (log-log); NEON in
    host memory at each worker count and GLES with host memory and with
    GPU buffers beside the fewest workers and the most; a dot a point as
    measured, a ring where the model puts it, joined by a line (its
    error). An SVG on standard output."""
    import math
    pts = [p for p in d.get("model_points", []) if p["us"] > 0 and p["mib"] > 0]
    fams = [f for f in ("topk", "gather_nd", "argreduce", "elementwise_if") if any(p["family"] == f for p in pts)]
    workers = sorted({p["workers"] for p in pts if p["backend"] == "neon"})
    blues = ["#9ecae1", "#6baed6", "#3182bd", "#08519c", "#08306b", "#041a3a", "#020d1e", "#000000"]
    series = [("neon", "host", w, blues[i % len(blues)], f"NEON, {w} worker{'s' if w > 1 else ''}")
              for i, w in enumerate(workers)]
    gw = sorted({p["workers"] for p in pts if p["backend"] == "gles"})
    for w, shade in ((gw[0], 0), (gw[-1], 1)) if gw else ():  # beside the fewest workers' calls and the most
        who = f", {w} worker{'s' if w > 1 else ''}" if w else ""
        series += [("gles", "host", w, ("#d62728", "#8c1a1b")[shade], f"GLES, host memory{who}"),
                   ("gles", "gpu", w, ("#ff7f0e", "#a65a08")[shade], f"GLES, GPU buffers{who}")]
        if len(gw) == 1:
            break
    W, H, M, cols = 380, 300, 56, 2
    rows_n = (len(fams) + cols - 1) // cols
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W * cols + 170}" height="{H * rows_n + 10}" '
           'font-family="sans-serif" font-size="11">']
    for i, fam in enumerate(fams):
        ox, oy = (i % cols) * W, (i // cols) * H
        mine = [p for p in pts if p["family"] == fam and any(
            (p["backend"], p["binding"], p["workers"]) == sr[:3] for sr in series)]
        xs = [p["mib"] for p in mine]
        ys = [v for p in mine for v in (p["us"], p["model_us"]) if v > 0]
        x0, x1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs))) + 1e-9
        y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys))) + 1e-9

        def X(v):
            return ox + M + (math.log10(v) - x0) / (x1 - x0) * (W - M - 16)

        def Y(v):
            return oy + 24 + (y1 - math.log10(max(v, 10 ** y0))) / (y1 - y0) * (H - M - 24)

        out.append(f'<text x="{ox + M}" y="{oy + 16}">{fam}: time against MiB (log-log)</text>')
        out.append(f'<rect x="{ox + M}" y="{oy + 24}" width="{W - M - 16}" height="{H - M - 24}" fill="none" '
                   'stroke="#888"/>')
        for k in range(int(x0), int(math.ceil(x1))):
            out.append(f'<text x="{X(10 ** k):.0f}" y="{oy + H - M + 14}" text-anchor="middle">{10 ** k:g}</text>')
        for k in range(int(y0), int(math.ceil(y1))):
            out.append(f'<text x="{ox + M - 4}" y="{Y(10 ** k) + 4:.0f}" text-anchor="end">{10 ** k:g} us</text>')
        for be, bind, w, color, _ in series:
            for p in (q for q in mine if (q["backend"], q["binding"], q["workers"]) == (be, bind, w)):
                x, y, ym = X(p["mib"]), Y(p["us"]), Y(p["model_us"])
                out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x:.1f}" y2="{ym:.1f}" stroke="{color}"/>')
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{color}"/>')
                out.append(f'<circle cx="{x:.1f}" cy="{ym:.1f}" r="3" fill="none" stroke="{color}"/>')
    for j, (_, _, _, color, name) in enumerate(series):
        out.append(f'<circle cx="{W * cols + 12}" cy="{30 + 16 * j}" r="3" fill="{color}"/>')
        out.append(f'<text x="{W * cols + 20}" y="{34 + 16 * j}">{name}</text>')
    j = len(series) + 1
    out.append(f'<text x="{W * cols + 6}" y="{34 + 16 * j}">dot: measured</text>')
    out.append(f'<text x="{W * cols + 6}" y="{50 + 16 * j}">ring: the model</text>')
    out.append("</svg>")
    print("\n".join(out))


def count_words(n):
    """4194304 -> 4M, 262144 -> 256K, 200000 -> 200000"""
    for unit, name in ((1 << 20, "M"), (1 << 10, "K")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, name)
    return str(n)


def boards_table(root):
    """What AUTO does by default on each board, from boards/<board>/caps.h
    (and its description from board.mk): the docs' board table."""
    import glob
    import re
    print("| board | what it is (`board.mk`) | what `AUTO` does by default (`caps.h`) |")
    print("| --- | --- | --- |")
    never = 0xFFFFFFFF
    for caps_path in sorted(glob.glob(os.path.join(root, "*", "caps.h"))):
        folder = os.path.dirname(caps_path)
        caps, mk = open(caps_path).read(), open(os.path.join(folder, "board.mk")).read()

        def num(name):
            m = re.search(r"#define EDML_BOARD_%s (0x[0-9a-fA-F]+|[0-9]+)u?\b" % name, caps)
            return int(m.group(1), 0) if m else 0

        desc = re.search(r"^BOARD_DESCRIPTION := (.*)$", mk, re.M).group(1)
        red, copy, row = num("GPU_MIN_ELEMENTS"), num("GPU_MIN_ELEMENTS_COPY"), num("GPU_TOPK_MIN_ROW")
        if not num("HAS_GPU") or (red >= never and copy >= never):
            auto = "NEON, always"
        else:
            parts = ["NEON"]
            if red < never:
                parts.append("the GPU for reductions from %s elements a worker" % count_words(red) +
                             (" (TopK rows under %s stay on NEON)" % count_words(row) if row else ""))
            parts.append("copy-like work (ElementWiseIf, row gathers) never" if copy >= never else
                         "copy-like work from %s elements a worker" % count_words(copy))
            if "EDML_BOARD_COST_MODEL {" in caps:
                parts.append("a cost model of both sides first")
            if not num("GPU_SOFTWARE_OK"):
                parts.append("a software GPU never")
            auto = "; ".join(parts)
        print("| %s | %s | %s |" % (os.path.basename(folder), desc, auto))


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    what, files = argv[1], argv[2:]
    if what == "sweep":
        ort_rows = {(r["workload"], r["threads"]): r["median_ms"] for r in load(files[1])}
        sweep_table(load(files[0])["results"], ort_rows)
    elif what == "gles":
        gles_table(load(files[0]), load(files[1]), load(files[2]))
    elif what == "figures":
        figures_table(load(files[0]), files[1:])
    elif what == "mapped":
        mapped_table(files)
    elif what == "insns":
        insns_table(load(files[0]), load(files[1]))
    elif what == "family-insns":
        family_insns_table(load(files[0]))
    elif what == "families":
        families_table(load(files[0]), load(files[1]))
    elif what == "rounds":
        rounds_table(load(files[0]))
    elif what == "floor":
        floor_table(load(files[0]))
    elif what == "report":
        report_tables(load(files[0]))
    elif what == "model":
        model_table(load(files[0]))
    elif what == "crossover-svg":
        crossover_svg(load(files[0]))
    elif what == "model-svg":
        model_svg(load(files[0]))
    elif what == "placement":
        placement_table([load(f) for f in files])
    elif what == "predict":
        predict_table([load(f) for f in files])
    elif what == "boards":
        boards_table(files[0])
    elif what == "compare":
        compare_table(load(files[0]), files[1], files[2], files[3:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

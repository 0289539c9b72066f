#!/usr/bin/env python3
"""numpy and ONNX Runtime (CPU) on the rows of `edml-bench --families --json`.

    python3 tools/family-peers.py FAMILIES.json [--iters N] [--json OUT] [--ort ORT.json]

For each row (a family at a thread count) the same shapes and types:
numpy's usual expression (argmax, argpartition then a sort of the K,
fancy indexing, where), on one thread; ONNX Runtime's one-node model
(ArgMax/ArgMin, TopK, GatherND, Where) with intra_op_num_threads as the
row's threads. ONNX takes INT64 indices and a boolean condition; a
transposed view is given to ONNX Runtime as the packed tensor it views,
reduced along the other axis (ONNX has no strided inputs). A type or
operator a peer lacks is said (null). Each time is the median of N calls
after a warm-up; ratios are the peer's time over edml's (above 1: edml
is faster). Without the onnx module (PyPI out of reach), --ort takes
ONNX Runtime's times from tools/family-ort.js (its npm package) over the
same FAMILIES.json; with neither, ONNX Runtime is left out and said so.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

try:
    import onnx
    from onnx import TensorProto, helper
    import onnxruntime as ort
except ImportError as e:  # numpy alone
    ort = None
    ORT_WHY = str(e)

NP = {"FLOAT32": np.float32, "FLOAT64": np.float64, "FLOAT16": np.float16, "INT64": np.int64, "UINT64": np.uint64,
      "INT32": np.int32, "UINT32": np.uint32, "INT16": np.int16, "UINT16": np.uint16, "INT8": np.int8,
      "UINT8": np.uint8}


def median_ms(fn, iters):
    fn()
    t = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return statistics.median(t) * 1e3


def data(row, rng):
    """The row's input arrays: x (as edml sees it), and what the op needs."""
    dt = NP[row["dtype"]]
    s = row["sizes"]
    if row["op"] == "gather_nd":
        x = rng.random(s, dtype=np.float32)
        k, t = row["k"], row["axis"]
        ix = np.stack([rng.integers(0, s[j], k) for j in range(t)], axis=1)
        return {"x": x, "ix": ix.astype(NP[row["index_type"]])}
    if np.issubdtype(dt, np.floating):
        base = (rng.random(s[::-1] if row["view"] == "transposed" else s) * 2 - 1).astype(dt)
    else:
        info = np.iinfo(dt)
        base = rng.integers(info.min, info.max, s[::-1] if row["view"] == "transposed" else s, dtype=dt,
                            endpoint=True)
    if row["op"] == "where":
        c = rng.integers(0, 2, s[:-1] + [1] if row["view"] == "mask_channels" else s, dtype=np.uint8)
        return {"c": c, "a": base, "b": base[::-1].copy()}
    return {"x": base, "packed": base}


def numpy_fn(row, d):
    op, ax, k = row["op"], row["axis"], row["k"]
    if op in ("argmax", "argmin"):
        x = d["x"].T if row["view"] == "transposed" else d["x"]
        f = np.argmax if op == "argmax" else np.argmin
        return lambda: f(x, axis=ax)
    if op == "topk":
        x = d["x"]

        def topk():
            part = np.argpartition(-x, k - 1, axis=ax)
            idx = np.take(part, np.arange(k), axis=ax)
            vals = np.take_along_axis(x, idx, axis=ax)
            order = np.argsort(-vals, axis=ax, kind="stable")
            return np.take_along_axis(idx, order, axis=ax)
        return topk
    if op == "gather_nd":
        x, ix = d["x"], d["ix"]
        if ix.shape[1] == 2:
            return lambda: x[ix[:, 0], ix[:, 1]]
        return lambda: x[ix[:, 0]]
    c, a, b = d["c"], d["a"], d["b"]
    cb = c.astype(bool)
    return lambda: np.where(cb, a, b)


ONNX_TYPES = {} if ort is None else {
    "FLOAT32": TensorProto.FLOAT, "FLOAT64": TensorProto.DOUBLE, "FLOAT16": TensorProto.FLOAT16,
    "INT64": TensorProto.INT64, "UINT64": TensorProto.UINT64, "INT32": TensorProto.INT32,
    "UINT32": TensorProto.UINT32, "INT16": TensorProto.INT16, "UINT16": TensorProto.UINT16,
    "INT8": TensorProto.INT8, "UINT8": TensorProto.UINT8}


def onnx_model(row, d):
    """A one-node model and its feeds."""
    op, t = row["op"], ONNX_TYPES[row["dtype"]]
    vi = helper.make_tensor_value_info
    if op in ("argmax", "argmin"):
        x = d["packed"]
        axis = (1 - row["axis"]) if row["view"] == "transposed" else row["axis"]
        node = helper.make_node("ArgMax" if op == "argmax" else "ArgMin", ["x"], ["y"], axis=axis, keepdims=1)
        ins, outs, feeds, inits = [vi("x", t, x.shape)], [vi("y", TensorProto.INT64, None)], {"x": x}, []
    elif op == "topk":
        x = d["x"]
        inits = [helper.make_tensor("k", TensorProto.INT64, [1], [row["k"]])]
        node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=row["axis"], largest=1, sorted=1)
        ins, outs, feeds = [vi("x", t, x.shape)], [vi("v", t, None), vi("i", TensorProto.INT64, None)], {"x": x}
    elif op == "gather_nd":
        x, ix = d["x"], d["ix"].astype(np.int64)
        node = helper.make_node("GatherND", ["x", "ix"], ["y"])
        ins = [vi("x", TensorProto.FLOAT, x.shape), vi("ix", TensorProto.INT64, ix.shape)]
        outs, feeds, inits = [vi("y", TensorProto.FLOAT, None)], {"x": x, "ix": ix}, []
    else:
        c = d["c"].astype(bool)
        node = helper.make_node("Where", ["c", "a", "b"], ["y"])
        ins = [vi("c", TensorProto.BOOL, c.shape), vi("a", t, d["a"].shape), vi("b", t, d["b"].shape)]
        outs, feeds, inits = [vi("y", t, None)], {"c": c, "a": d["a"], "b": d["b"]}, []
    g = helper.make_graph([node], "family", ins, outs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString(), feeds


def ort_ms(row, d, iters):
    if ort is None:
        return None, "no onnx module: " + ORT_WHY
    try:
        model, feeds = onnx_model(row, d)
        so = ort.SessionOptions()
        so.intra_op_num_threads = row["threads"]
        so.inter_op_num_threads = 1
        s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
        return median_ms(lambda: s.run(None, feeds), iters), ""
    except Exception as e:  # a type or operator ONNX Runtime lacks
        return None, str(e).splitlines()[0][:160]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("families")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--json")
    ap.add_argument("--ort", help="tools/family-ort.js's JSON: ONNX Runtime's times from its npm package")
    a = ap.parse_args()
    given = {(r["family"], r["threads"]): r for r in json.load(open(a.ort))["rows"]} if a.ort else None
    ort_version = json.load(open(a.ort))["onnxruntime"] + " (npm)" if a.ort else ort.__version__ if ort else None
    rows = json.load(open(a.families))["rows"]
    rng = np.random.default_rng(62)
    out, cache = [], {}
    print(f"numpy {np.__version__}, ONNX Runtime {ort_version or 'absent'}")
    print(f"{'family':24} {'thr':>3} {'edml':>9} {'numpy':>9} {'ort':>9} {'np/edml':>8} {'ort/edml':>8}")
    for r in rows:
        d = cache.get(r["family"]) or data(r, rng)
        cache = {r["family"]: d}
        npm = median_ms(numpy_fn(r, d), a.iters) if r["threads"] == 1 else None
        if given is not None:
            g = given.get((r["family"], r["threads"]), {})
            om, why = g.get("ort_ms"), g.get("ort_note", "not timed")
        else:
            om, why = ort_ms(r, d, a.iters)
        e = r["neon_ms"]
        res = dict(family=r["family"], threads=r["threads"], edml_ms=e, numpy_ms=npm, ort_ms=om, ort_note=why,
                   numpy_over_edml=npm / e if npm else None, ort_over_edml=om / e if om else None)
        out.append(res)
        f = lambda v: f"{v:9.3f}" if v is not None else f"{'-':>9}"
        g = lambda v: f"{v:8.2f}" if v is not None else f"{'-':>8}"
        print(f"{r['family']:24} {r['threads']:3} {f(e)} {f(npm)} {f(om)} {g(res['numpy_over_edml'])} "
              f"{g(res['ort_over_edml'])}")
        sys.stdout.flush()
    if a.json:
        json.dump({"numpy": np.__version__, "onnxruntime": ort_version, "rows": out},
                  open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()

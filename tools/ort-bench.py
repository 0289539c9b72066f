#!/usr/bin/env python3
"""ONNX Runtime (CPU) on the workloads of docs/bench.md, beside edml.

    python3 tools/ort-bench.py [--threads 1,4,16] [--iters N] [--json FILE]
                               [--edml SWEEP.json] [--workload NAME]

Each workload is a one-node ONNX model of the same shapes and data kinds
(TopK, GatherND, ArgMin/ArgMax, Where), run by ONNX Runtime with
intra_op_num_threads = N and inter_op_num_threads = 1: the median of N
calls after a warm-up. ONNX asks for INT64 indices (GatherND), a boolean
condition (Where) and gives INT64 ArgMin/ArgMax indices, where edml's
workloads use INT32/UINT32 and UINT8; argmin_all reduces the flattened
tensor (ONNX's ArgMin takes one axis). With --edml, the JSON of
`edml-bench --sweep --json` from the same machine: prints the side-by-side
table (ratios are ORT time over edml time: above 1, edml is faster).
"""
import argparse
import json
import statistics
import time

import numpy as np
import onnx
from onnx import TensorProto, helper
import onnxruntime as ort

F32, F16, U8, I64, BOOL = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.UINT8, TensorProto.INT64, TensorProto.BOOL
NP = {F32: np.float32, F16: np.float16, U8: np.uint8, I64: np.int64, BOOL: np.bool_}


def model(node, inputs, outputs, inits=()):
    g = helper.make_graph([node], "w", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                          [helper.make_tensor_value_info(n, t, None) for n, t in outputs], list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString()


def topk(rows, cols, axis, k, largest, t=F32):
    shape = [rows, cols]
    kt = helper.make_tensor("k", I64, [1], [k])
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest, sorted=1)
    return model(node, [("x", t, shape)], [("v", t), ("i", I64)], [kt]), {"x": shape}, {"x": t}


def gather(in_shape, ix_shape, batch):
    node = helper.make_node("GatherND", ["x", "ix"], ["y"], batch_dims=batch)
    return model(node, [("x", F32, in_shape), ("ix", I64, ix_shape)], [("y", F32)]), \
        {"x": in_shape, "ix": ix_shape}, {"x": F32, "ix": I64}


def argreduce(op, shape, axis):
    node = helper.make_node(op, ["x"], ["y"], axis=axis, keepdims=1)
    return model(node, [("x", F32, shape)], [("y", I64)]), {"x": shape}, {"x": F32}


def where(shape, t, cond_shape=None):
    cs = cond_shape or shape
    node = helper.make_node("Where", ["c", "a", "b"], ["y"])
    return model(node, [("c", BOOL, cs), ("a", t, shape), ("b", t, shape)], [("y", t)]), \
        {"c": cs, "a": shape, "b": shape}, {"c": BOOL, "a": t, "b": t}


WORKLOADS = {
    "topk_cls": lambda: topk(1, 1000, 1, 5, 1),
    "topk_det": lambda: topk(1, 25200, 1, 300, 1),
    "topk_vocab": lambda: topk(8, 32000, 1, 40, 1),
    "topk_vocab_f16": lambda: topk(8, 32000, 1, 40, 1, F16),
    "topk_axis0": lambda: topk(4096, 1024, 0, 8, 0),
    "topk_wide": lambda: topk(256, 65536, 1, 16, 1),
    "gather_rows": lambda: gather([32000, 512], [8192, 1], 0),
    "gather_batch": lambda: gather([16, 4096, 256], [16, 1024, 1], 1),
    "gather_points": lambda: gather([1024, 1024], [1048576, 2], 0),
    "argmin_inner": lambda: argreduce("ArgMin", [4096, 4096], 1),
    "argmin_outer": lambda: argreduce("ArgMin", [4096, 4096], 0),
    "argmin_all": lambda: argreduce("ArgMin", [4096 * 4096], 0),
    "argmax_seg": lambda: argreduce("ArgMax", [1, 21, 512, 512], 1),
    "if_f32": lambda: where([16777216], F32),
    "if_u8": lambda: where([67108864], U8),
    "if_bcast": lambda: where([1, 3, 1024, 1024], F16, [1, 1, 1024, 1024]),
}


def data(name, shapes, types, rng):
    feeds = {}
    for n, shape in shapes.items():
        t = types[n]
        if t == BOOL:
            feeds[n] = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif t == I64:  # indices over the input's dims that the tuple addresses
            x = shapes["x"]
            batch = 1 if name == "gather_batch" else 0
            tup = shape[-1]
            cols = [rng.integers(0, x[batch + j], size=shape[:-1]) for j in range(tup)]
            feeds[n] = np.stack(cols, axis=-1).astype(np.int64)
        elif t == U8:
            feeds[n] = rng.integers(0, 256, size=shape, dtype=np.uint8)
        else:
            feeds[n] = rng.uniform(-1, 1, size=shape).astype(NP[t])
    return feeds


def run(name, threads, iters):
    blob, shapes, types = WORKLOADS[name]()
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(blob, so, providers=["CPUExecutionProvider"])
    feeds = data(name, shapes, types, np.random.default_rng(1))
    sess.run(None, feeds)
    t = []
    for _ in range(iters):
        t0 = time.perf_counter()
        sess.run(None, feeds)
        t.append(time.perf_counter() - t0)
    return statistics.median(t)


def table(rows, edml_json):
    """The side-by-side table, as tools/perf_table.py makes it from the JSON files."""
    from perf_table import sweep_table
    sweep_table(json.load(open(edml_json))["results"], rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,4,16")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--edml")
    ap.add_argument("--workload")
    a = ap.parse_args()
    ths = [int(x) for x in a.threads.split(",")]
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}; median of {a.iters} calls after a warm-up")
    rows = {}
    for w in WORKLOADS:
        if a.workload and w != a.workload:
            continue
        for t in ths:
            rows[(w, t)] = run(w, t, a.iters) * 1e3
            print(f"{w:15s} ORT {t:2d} threads {rows[(w, t)]:10.3f} ms", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"workload": w, "threads": t, "median_ms": ms} for (w, t), ms in rows.items()], f, indent=1)
    if a.edml:
        table(rows, a.edml)


if __name__ == "__main__":
    main()

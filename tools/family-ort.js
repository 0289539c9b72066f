#!/usr/bin/env node
// ONNX Runtime (CPU) through its npm package on the rows of
// `edml-bench --families --json`, where Python's onnx module is out of
// reach: each row's one-node model (ArgMax/ArgMin, TopK, GatherND, Where)
// built with onnx-proto, run with intraOpNumThreads as the row's threads;
// the median of N runs after a warm-up. ONNX takes INT64 indices and a
// boolean condition; a transposed view is given as the packed tensor it
// views, reduced along the other axis. A type or operator ONNX Runtime
// lacks is said (null). Its JSON feeds tools/family-peers.py --ort.
//
//   npm install --prefix build/ort-node onnxruntime-node onnx-proto
//       (ONNXRUNTIME_NODE_INSTALL_CUDA=skip: the CPU library only)
//   NODE_PATH=build/ort-node/node_modules node tools/family-ort.js FAMILIES.json [--iters N] [--json OUT]
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');
const { onnx } = require('onnx-proto');

const T = onnx.TensorProto.DataType;
const TYPES = {
  FLOAT32: [T.FLOAT, 'float32', Float32Array], FLOAT64: [T.DOUBLE, 'float64', Float64Array],
  INT64: [T.INT64, 'int64', BigInt64Array], UINT64: [T.UINT64, 'uint64', BigUint64Array],
  INT32: [T.INT32, 'int32', Int32Array], UINT32: [T.UINT32, 'uint32', Uint32Array],
  INT16: [T.INT16, 'int16', Int16Array], UINT16: [T.UINT16, 'uint16', Uint16Array],
  INT8: [T.INT8, 'int8', Int8Array], UINT8: [T.UINT8, 'uint8', Uint8Array],
};

let seed = 62n;
function rnd() { // xorshift64*, as numbers in [0, 1)
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return Number(((seed * 2685821657736338717n) & 0xffffffffffffffffn) >> 11n) / 9007199254740992;
}

function filled(dtype, n) {
  const [, , A] = TYPES[dtype], a = new A(n);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (A === Float32Array || A === Float64Array) a[i] = r * 2 - 1;
    else if (A === BigInt64Array) a[i] = BigInt(Math.floor((r - 0.5) * 2 ** 52));
    else if (A === BigUint64Array) a[i] = BigInt(Math.floor(r * 2 ** 52));
    else a[i] = Math.floor(r * 65536) - (A === Int8Array || A === Int16Array || A === Int32Array ? 32768 : 0);
  }
  return a;
}

const vi = (name, elemType, dims) => ({ name, type: { tensorType: { elemType, shape: dims ? { dim: dims.map(d => ({ dimValue: d })) } : undefined } } });
const attr = (name, i) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const prod = s => s.reduce((a, b) => a * b, 1);

// A row's model bytes and feeds.
function build(r) {
  const s = r.sizes, op = r.op;
  let node, inputs, outputs, inits = [], feeds = {};
  if (op === 'argmax' || op === 'argmin') {
    const [et, name] = TYPES[r.dtype], shape = r.view === 'transposed' ? [...s].reverse() : s;
    const axis = r.view === 'transposed' ? 1 - r.axis : r.axis;
    feeds.x = new ort.Tensor(name, filled(r.dtype, prod(shape)), shape);
    node = { input: ['x'], output: ['y'], opType: op === 'argmax' ? 'ArgMax' : 'ArgMin', attribute: [attr('axis', axis), attr('keepdims', 1)] };
    inputs = [vi('x', et, shape)]; outputs = [vi('y', T.INT64)];
  } else if (op === 'topk') {
    const [et, name] = TYPES[r.dtype];
    feeds.x = new ort.Tensor(name, filled(r.dtype, prod(s)), s);
    inits = [{ name: 'k', dataType: T.INT64, dims: [1], int64Data: [r.k] }];
    node = { input: ['x', 'k'], output: ['v', 'i'], opType: 'TopK', attribute: [attr('axis', r.axis), attr('largest', 1), attr('sorted', 1)] };
    inputs = [vi('x', et, s)]; outputs = [vi('v', et), vi('i', T.INT64)];
  } else if (op === 'gather_nd') {
    const t = r.axis, n = r.k, ix = new BigInt64Array(n * t);
    for (let i = 0; i < n * t; i++) ix[i] = BigInt(Math.floor(rnd() * s[i % t]));
    feeds.x = new ort.Tensor('float32', filled('FLOAT32', prod(s)), s);
    feeds.ix = new ort.Tensor('int64', ix, [n, t]);
    node = { input: ['x', 'ix'], output: ['y'], opType: 'GatherND' };
    inputs = [vi('x', T.FLOAT, s), vi('ix', T.INT64, [n, t])]; outputs = [vi('y', T.FLOAT)];
  } else {
    const [et, name] = TYPES[r.dtype], cs = r.view === 'mask_channels' ? [...s.slice(0, -1), 1] : s;
    const c = new Uint8Array(prod(cs));
    for (let i = 0; i < c.length; i++) c[i] = rnd() < 0.5 ? 1 : 0;
    feeds.c = new ort.Tensor('bool', c, cs);
    feeds.a = new ort.Tensor(name, filled(r.dtype, prod(s)), s);
    feeds.b = new ort.Tensor(name, filled(r.dtype, prod(s)), s);
    node = { input: ['c', 'a', 'b'], output: ['y'], opType: 'Where' };
    inputs = [vi('c', T.BOOL, cs), vi('a', et, s), vi('b', et, s)]; outputs = [vi('y', et)];
  }
  const model = onnx.ModelProto.create({
    irVersion: 8, opsetImport: [{ domain: '', version: 13 }],
    graph: { name: 'family', node: [node], input: inputs, output: outputs, initializer: inits },
  });
  return { bytes: onnx.ModelProto.encode(model).finish(), feeds };
}

async function timeRow(r, iters) {
  try {
    const { bytes, feeds } = build(r);
    const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: r.threads, interOpNumThreads: 1, executionProviders: ['cpu'] });
    await s.run(feeds);
    const t = [];
    for (let i = 0; i < iters; i++) {
      const t0 = process.hrtime.bigint();
      await s.run(feeds);
      t.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    t.sort((a, b) => a - b);
    return { ms: t[Math.floor(t.length / 2)], note: '' };
  } catch (e) {
    return { ms: null, note: String(e.message || e).split('\n')[0].slice(0, 160) };
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const file = argv[0], at = k => argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined;
  const iters = Number(at('--iters') || 10), out = at('--json');
  const rows = JSON.parse(fs.readFileSync(file)).rows, res = [];
  console.log(`ONNX Runtime ${ort.env.versions.common} (npm)`);
  for (const r of rows) {
    const t = await timeRow(r, iters);
    res.push({ family: r.family, threads: r.threads, ort_ms: t.ms, ort_note: t.note });
    console.log(`${r.family.padEnd(24)} ${String(r.threads).padStart(3)} ${t.ms === null ? '-' : t.ms.toFixed(3)} ${t.note}`);
  }
  if (out) fs.writeFileSync(out, JSON.stringify({ onnxruntime: ort.env.versions.common, rows: res }, null, 1));
}
main();

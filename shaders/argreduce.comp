// ArgMin/ArgMax, first pass for reductions along a strided axis: one
// invocation per (output, chunk of its reduced set), neighbouring invocations
// on neighbouring outputs (so neighbouring elements), each walking its chunk
// with an odometer over the reduced dims. Writes (key high, key low, index)
// to scratch; argreduce_final.comp merges the chunks in order.
// Input tensor 0. p[40] reduced dims R; p[41+d] their sizes; p[49+d] their
// input strides; p[57] kept dims; p[58+d] sizes; p[66+d] input strides;
// p[74] 1 for ArgMax; p[75] 1 to keep the last of equals; p[76] elements per
// set; p[77] chunks per output; p[78] elements per chunk; p[79] scratch byte
// offset; p[81] outputs.
void main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint outs = p[81], o = u % outs, c = u / outs;
    uint base = 0u, rem = o;
    for (uint d = p[57]; d-- > 0u;) {
        uint s = p[58u + d];
        base += (rem % s) * p[66u + d];
        rem /= s;
    }
    uint dt = t_dtype(0u), es = t_es(0u);
    bool invert = p[74] == 0u, last = p[75] != 0u;
    uint R = p[40];
    uint begin = c * p[78], end = min(p[76], begin + p[78]);
    uint idx[8];
    uint off = base, r = begin;
    for (uint d = 8u; d-- > 0u;) {
        idx[d] = 0u;
        if (d < R) {
            uint sz = p[41u + d];
            idx[d] = r % sz;
            off += idx[d] * p[49u + d];
            r /= sz;
        }
    }
    uvec2 best = uvec2(0u);
    uint best_i = begin;
    for (uint s = begin; s < end; s++) {
        uvec2 k = key_of(dt, ld_elem(t_base(0u) + off * es, es));
        if (invert && !key_is_nan(dt, k)) { k = ~k; if (es < 8u) k.x = 0u; }
        if (s == begin || key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = s; }
        for (uint d = R; d-- > 0u;) {
            off += p[49u + d];
            if (++idx[d] < p[41u + d]) break;
            off -= p[49u + d] * p[41u + d];
            idx[d] = 0u;
        }
    }
    uint w = (p[79] >> 2) + (o * p[77] + c) * 3u;
    m[w] = best.x;
    m[w + 1u] = best.y;
    m[w + 2u] = best_i;
}

// ArgMin/ArgMax, one invocation per output element, over its whole reduced
// set (an odometer over the reduced dims). Suits reductions along a strided
// axis, where neighbouring invocations read neighbouring elements.
// Tensors: input 0, output 20. p[40] reduced dims R; p[41+d] their sizes;
// p[49+d] their input strides; p[57] kept dims; p[58+d] sizes; p[66+d] input
// strides; p[74] 1 for ArgMax; p[75] 1 to keep the last of equals; p[76]
// elements per reduced set.
uvec2 compute(uint li) {
    uint base = 0u, rem = li;
    for (uint d = p[57]; d-- > 0u;) {
        uint s = p[58u + d];
        base += (rem % s) * p[66u + d];
        rem /= s;
    }
    uint dt = t_dtype(0u), es = t_es(0u);
    bool invert = p[74] == 0u, last = p[75] != 0u;
    uint R = p[40];
    uint idx[8];
    for (uint d = 0u; d < 8u; d++) idx[d] = 0u;
    uint off = base;
    uvec2 best = uvec2(0u);
    uint best_i = 0u;
    for (uint s = 0u; s < p[76]; s++) {
        uvec2 k = key_of(dt, ld_elem(t_base(0u) + off * es, es));
        if (invert && !key_is_nan(dt, k)) { k = ~k; if (es < 8u) k.x = 0u; }
        if (s == 0u || key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = s; }
        for (uint d = R; d-- > 0u;) {
            off += p[49u + d];
            if (++idx[d] < p[41u + d]) break;
            off -= p[49u + d] * p[41u + d];
            idx[d] = 0u;
        }
    }
    return uvec2(best_i, 0u);
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    write_output(20u, 0u, u, 0u, true);
}

// ArgMin/ArgMax along a strided axis: one invocation per (output, chunk of
// its reduced set), neighbouring invocations on neighbouring outputs (so
// neighbouring elements), each walking its chunk with an odometer over the
// reduced dims. With one chunk per output the result is the output element;
// otherwise (key high, key low, index) goes to scratch for
// argreduce_final.comp.
// Input tensor 0, output 20. p[40] reduced dims R; p[41+d] their sizes;
// p[49+d] their input strides; p[57] kept dims; p[58+d] sizes; p[66+d]
// input strides; p[74] 1 for ArgMax; p[75] 1 to keep the last of equals;
// p[76] elements per set; p[77] chunks per output; p[78] elements per chunk;
// p[79] scratch byte offset; p[81] outputs; p[84] 1: an invocation takes four
// neighbouring outputs with 16-byte loads (32-bit elements, the innermost
// kept dim packed and a multiple of 4, every other stride a multiple of 4).
uint g_result;
uvec2 compute(uint li) { return uvec2(g_result, 0u); }

uvec4 best, best_i;   // lanes' keys (vectors) or (high, low) in .xy

void take4(uvec4 k, uint s, uint begin, bool last) {
    bvec4 t = s == begin ? bvec4(true) : last ? greaterThanEqual(k, best) : greaterThan(k, best);
    best = mix(best, k, t);
    best_i = mix(best_i, uvec4(s), t);
}

// element(s) s of the set, at input element offset off
void take(uint s, uint off, uint begin, uint dt, uint es, bool invert, bool last, uint lanes) {
    if (lanes == 4u) {
        take4(key4(dt, invert, m4[(t_base(0u) >> 4) + (off >> 2)]), s, begin, last);
        return;
    }
    uvec2 k = min_key(dt, invert, ld_elem(t_base(0u) + off * es, es));
    if (s == begin || key_gt(k, best.xy) || (last && key_eq(k, best.xy))) { best.xy = k; best_i.x = s; }
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint lanes = p[84] != 0u ? 4u : 1u, units = p[81] / lanes;
    uint o = (u % units) * lanes, c = u / units, chunks = p[77];
    uint base = arg_set_base(o);
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
    best = uvec4(0u);
    best_i = uvec4(begin);
    if (R == 1u) {   // one reduced dim: a plain stride
        uint st = p[49];
        uint s = begin;
        if (lanes == 4u) {
            for (; s + 1u < end; s += 2u, off += 2u * st) {   // two loads in flight
                uvec4 v0 = m4[(t_base(0u) >> 4) + (off >> 2)], v1 = m4[(t_base(0u) >> 4) + ((off + st) >> 2)];
                take4(key4(dt, invert, v0), s, begin, last);
                take4(key4(dt, invert, v1), s + 1u, begin, last);
            }
        }
        for (; s < end; s++, off += st) take(s, off, begin, dt, es, invert, last, lanes);
    } else {
        for (uint s = begin; s < end; s++) {
            take(s, off, begin, dt, es, invert, last, lanes);
            for (uint d = R; d-- > 0u;) {
                off += p[49u + d];
                if (++idx[d] < p[41u + d]) break;
                off -= p[49u + d] * p[41u + d];
                idx[d] = 0u;
            }
        }
    }
    for (uint j = 0u; j < lanes; j++) {
        if (chunks == 1u) {
            g_result = best_i[j];
            write_output(20u, 0u, o + j, 0u, true);
            continue;
        }
        uint w = (p[79] >> 2) + ((o + j) * chunks + c) * 3u;
        m[w] = lanes == 4u ? 0u : best.x;
        m[w + 1u] = lanes == 4u ? best[j] : best.y;
        m[w + 2u] = best_i[j];
    }
}

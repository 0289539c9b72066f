// ArgMin/ArgMax, first pass for large reduced sets: a workgroup per (output,
// chunk of the set) reduces its chunk in shared memory and writes (key high,
// key low, index) to scratch. argreduce_final.comp merges the chunks.
// Input tensor 0. p[40] reduced dims R; p[41+d] sizes; p[49+d] input
// strides; p[57] kept dims; p[58+d] sizes; p[66+d] input strides; p[74]
// ArgMax; p[75] keep last; p[76] elements per set; p[77] chunks per output;
// p[78] elements per chunk; p[79] scratch byte offset; p[80] 1 when the set
// is one dense run (index * element size).
shared uvec2 s_key[LOCAL];
shared uint s_idx[LOCAL];
shared bool s_any[LOCAL];

bool better(uvec2 ka, uint ia, uvec2 kb, uint ib, bool last) {
    return key_gt(ka, kb) || (key_eq(ka, kb) && (last ? ia > ib : ia < ib));
}

void main() {
    uint g = group_id();
    if (g == NONE) return;
    uint chunks = p[77], o = g / chunks, c = g % chunks;
    uint base = 0u, rem = o;
    for (uint d = p[57]; d-- > 0u;) {
        uint s = p[58u + d];
        base += (rem % s) * p[66u + d];
        rem /= s;
    }
    uint dt = t_dtype(0u), es = t_es(0u);
    bool invert = p[74] == 0u, last = p[75] != 0u, dense = p[80] != 0u;
    uint begin = c * p[78], end = min(p[76], begin + p[78]);
    uint t = gl_LocalInvocationID.x;
    uvec2 best = uvec2(0u);
    uint best_i = 0u;
    bool any = false;
    for (uint s = begin + t; s < end; s += LOCAL) {
        uint off;
        if (dense) off = base + s;
        else {
            off = base;
            uint r = s;
            for (uint d = p[40]; d-- > 0u;) {
                uint sz = p[41u + d];
                off += (r % sz) * p[49u + d];
                r /= sz;
            }
        }
        uvec2 k = key_of(dt, ld_elem(t_base(0u) + off * es, es));
        if (invert && !key_is_nan(dt, k)) { k = ~k; if (es < 8u) k.x = 0u; }
        if (!any || key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = s; any = true; }
    }
    s_key[t] = best;
    s_idx[t] = best_i;
    s_any[t] = any;
    barrier();
    for (uint h = LOCAL / 2u; h > 0u; h >>= 1) {
        if (t < h && s_any[t + h] && (!s_any[t] || better(s_key[t + h], s_idx[t + h], s_key[t], s_idx[t], last))) {
            s_key[t] = s_key[t + h];
            s_idx[t] = s_idx[t + h];
            s_any[t] = true;
        }
        barrier();
    }
    if (t == 0u) {
        uint w = (p[79] >> 2) + g * 3u;
        m[w] = s_key[0].x;
        m[w + 1u] = s_key[0].y;
        m[w + 2u] = s_idx[0];
    }
}

// TopK, selection along a strided axis with a small K (at most 16): one
// invocation per row, neighbouring invocations on neighbouring rows (so
// neighbouring elements), each keeping its best K, best first, in registers.
// Same parameters as topk_select.comp.
void main() {
    uint row = unit_id();
    if (row == NONE) return;
    uint base = 0u, rem = row;
    for (uint d = p[40]; d-- > 0u;) {
        uint s = p[41u + d];
        base += (rem % s) * p[49u + d];
        rem /= s;
    }
    uint n = p[57], K = p[59], stride = p[58], dt = t_dtype(0u), es = t_es(0u);
    bool flip = p[60] != 0u, wide = p[62] != 0u;
    uvec2 key[16];
    uint idx[16];
    uint count = 0u;
    for (uint i = 0u; i < n; i++) {
        uvec2 k = key_of(dt, ld_elem(t_base(0u) + (base + i * stride) * es, es));
        if (flip) k = ~k;
        if (!wide) k.x = 0u;
        if (count == K && !key_gt(k, key[K - 1u])) continue;   // equal keys: the earlier index stays
        uint j = count < K ? count++ : K - 1u;
        while (j > 0u && key_gt(k, key[j - 1u])) {
            key[j] = key[j - 1u];
            idx[j] = idx[j - 1u];
            j--;
        }
        key[j] = k;
        idx[j] = i;
    }
    uint w = (p[61] >> 2) + row * K;
    for (uint j = 0u; j < K; j++) m[w + j] = idx[j];
}

// TopK, selection with a small K (at most 16) along a strided axis, or a
// packed one of short rows: one invocation per (row, chunk of the row),
// neighbouring invocations on neighbouring rows (so neighbouring elements
// along a strided axis), each keeping its best K, best first, in registers. With several chunks, merge passes (p[63] = 1) fold
// each row's lists in groups of p[68], in index order, until one is left.
// As topk_select.comp, and: p[63] pass; p[64] rows; p[65] chunks; p[66]
// elements per chunk; p[67] byte offset of the chunk lists: entry j of chunk
// c of a row is (key high, key low, index) in three planes of `rows` words,
// plane (c * K + j) * 3 + w, so that neighbouring rows' words are neighbours.
// With one chunk the first pass writes the winners directly. A merge pass:
// p[65] lists a row in, each covering p[66] elements; invocation (row,
// group) folds lists group * p[68] .. into list `group` at p[69], or into
// the winners when it is the only group.
uvec2 key_at(uint base, uint i) {
    uint dt = t_dtype(0u), es = t_es(0u);
    uvec2 k = key_of(dt, ld_elem(t_base(0u) + (base + i * p[58]) * es, es));
    if (p[60] != 0u) k = ~k;
    if (p[62] == 0u) k.x = 0u;
    return k;
}

uvec2 g_key[16];
uint g_idx[16];
uint g_count;

void offer(uvec2 k, uint i, uint K) {   // later indices come last: equal keys keep the earlier
    if (g_count == K && !key_gt(k, g_key[K - 1u])) return;
    uint j = g_count < K ? g_count++ : K - 1u;
    while (j > 0u && key_gt(k, g_key[j - 1u])) {
        g_key[j] = g_key[j - 1u];
        g_idx[j] = g_idx[j - 1u];
        j--;
    }
    g_key[j] = k;
    g_idx[j] = i;
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint rows = p[64], chunks = p[65], K = p[59];
    uint row = u % rows, c = u / rows;
    uint base = 0u, rem = row;
    for (uint d = p[40]; d-- > 0u;) {
        uint s = p[41u + d];
        base += (rem % s) * p[49u + d];
        rem /= s;
    }
    g_count = 0u;
    uint lists = p[67] >> 2;
    if (p[63] == 0u) {
        uint begin = c * p[66], end = min(p[57], begin + p[66]);
        for (uint i = begin; i < end; i++) offer(key_at(base, i), i, K);
        if (chunks == 1u) {
            uint w = (p[61] >> 2) + row * K;
            for (uint j = 0u; j < K; j++) m[w + j] = g_idx[j];
            return;
        }
        for (uint j = 0u; j < K; j++) {
            uint w = lists + (c * K + j) * 3u * rows + row;
            m[w] = g_key[j].x;
            m[w + rows] = g_key[j].y;
            m[w + 2u * rows] = g_idx[j];
        }
    } else {
        uint M = p[68], first = c * M, stop = min(chunks, first + M);
        for (uint cc = first; cc < stop; cc++) {
            uint n = min(K, p[57] - cc * p[66]);   // a short last list holds fewer
            for (uint j = 0u; j < n; j++) {
                uint w = lists + (cc * K + j) * 3u * rows + row;
                offer(uvec2(m[w], m[w + rows]), m[w + 2u * rows], K);
            }
        }
        if (chunks <= M) {
            uint w = (p[61] >> 2) + row * K;
            for (uint j = 0u; j < K; j++) m[w + j] = g_idx[j];
            return;
        }
        for (uint j = 0u; j < g_count; j++) {
            uint w = (p[69] >> 2) + (c * K + j) * 3u * rows + row;
            m[w] = g_key[j].x;
            m[w + rows] = g_key[j].y;
            m[w + 2u * rows] = g_idx[j];
        }
    }
}

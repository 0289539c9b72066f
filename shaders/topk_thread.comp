// TopK, selection with a small K (at most 16) along a strided axis, or a
// packed one of short rows: one invocation per (row, chunk of the row),
// neighbouring invocations on neighbouring rows (so neighbouring elements
// along a strided axis), each keeping its best K, best first, in registers.
// With one chunk the first pass writes the winners directly. With several,
// each chunk's list goes to prm_lists_offset: entry j of chunk c of a row is
// (key high, key low, index) in three planes of `rows` words, plane
// (c * K + j) * 3 + w, so that neighbouring rows' words are neighbours; then
// merge passes (prm_merge_pass) fold each row's prm_chunks lists, each
// covering prm_chunk_elements elements, in groups of prm_fold in index order:
// invocation (row, group) folds lists group * fold .. into list `group` at
// prm_merged_offset, or into the winners when it is the only group.
EDMLI_PARAMS(edmli_topk_prm);

uvec2 key_at(uint base, uint i) {
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    uvec2 k = key_of(dt, ld_elem(prm_data_offset + (base + i * prm_axis_stride) * es, es));
    if (prm_increasing != 0u) k = ~k;
    if (prm_wide_keys == 0u) k.x = 0u;
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
    uint rows = prm_rows, chunks = prm_chunks, K = prm_k;
    uint row = u % rows, c = u / rows;
    uint base = dims_offset(prm_kept_at, row);
    g_count = 0u;
    uint lists = prm_lists_offset >> 2;
    if (prm_merge_pass == 0u) {
        uint begin = c * prm_chunk_elements, end = min(prm_axis_size, begin + prm_chunk_elements);
        for (uint i = begin; i < end; i++) offer(key_at(base, i), i, K);
        if (chunks == 1u) {
            uint w = (prm_winners_offset >> 2) + row * K;
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
        uint M = prm_fold, first = c * M, stop = min(chunks, first + M);
        for (uint cc = first; cc < stop; cc++) {
            uint n = min(K, prm_axis_size - cc * prm_chunk_elements);   // a short last list holds fewer
            for (uint j = 0u; j < n; j++) {
                uint w = lists + (cc * K + j) * 3u * rows + row;
                offer(uvec2(m[w], m[w + rows]), m[w + 2u * rows], K);
            }
        }
        if (chunks <= M) {
            uint w = (prm_winners_offset >> 2) + row * K;
            for (uint j = 0u; j < K; j++) m[w + j] = g_idx[j];
            return;
        }
        for (uint j = 0u; j < g_count; j++) {
            uint w = (prm_merged_offset >> 2) + (c * K + j) * 3u * rows + row;
            m[w] = g_key[j].x;
            m[w + rows] = g_key[j].y;
            m[w + 2u * rows] = g_idx[j];
        }
    }
}

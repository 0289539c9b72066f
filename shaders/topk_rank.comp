// TopK of short rows (at most RANK_MAX_ROW elements, src/gles/gles_shapes.h)
// that topk_thread does not take (a K above its lists, or few rows): an
// invocation an element, which ranks it against its row (read again from
// memory: no shared memory, no barrier, so rows of a few elements keep every
// invocation busy on any GPU). Its rank is the number of the row's elements
// that beat it (the larger key, then the smaller index): distinct, so the
// element of rank q < K alone writes the row's q-th winner at
// prm_winners_offset. An element stops counting once K beat it. Packed
// rows of 32-bit elements are read four keys a 16-byte load.
EDMLI_PARAMS(edmli_topk_prm);

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint n = prm_axis_size, K = prm_k, row = u / n, j = u % n;
    uint base = dims_offset(prm_kept_at, row);
    uvec2 k = topk_key(base, j);
    uint rank = 0u, es = prm_data_elem_size, at = prm_data_offset + base * es;
    if (prm_axis_stride == 1u && es == 4u && n % 4u == 0u && (at & 15u) == 0u) {
        // 32-bit elements along a packed, aligned row: four keys a load
        for (uint q = 0u; q < n && rank < K; q += 4u) {
            uvec4 kq = topk_key4(m4[(at >> 4) + (q >> 2)]);
            uvec4 first = uvec4(lessThan(uvec4(q) + uvec4(0u, 1u, 2u, 3u), uvec4(j)));
            uvec4 beats = uvec4(greaterThan(kq, uvec4(k.y))) | (uvec4(equal(kq, uvec4(k.y))) & first);
            rank += beats.x + beats.y + beats.z + beats.w;
        }
    } else {
        for (uint q = 0u; q < n && rank < K; q++) {
            uvec2 kq = topk_key(base, q);
            if (key_gt(kq, k) || (key_eq(kq, k) && q < j)) rank++;
        }
    }
    if (rank < K) m[(prm_winners_offset >> 2) + row * K + rank] = j;
}

// TopK of many short rows with a K above what topk_thread holds: an
// invocation an element, which ranks it against its row (read again from
// memory: no shared memory, no barrier, so rows of a few elements keep every
// invocation busy on any GPU). Its rank is the number of the row's elements
// that beat it (the larger key, then the smaller index): distinct, so the
// element of rank q < K alone writes the row's q-th winner at
// prm_winners_offset. An element stops counting once K beat it.
EDMLI_PARAMS(edmli_topk_prm);

uvec2 key_at(uint base, uint i) {
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    uvec2 k = key_of(dt, ld_elem(prm_data_offset + (base + i * prm_axis_stride) * es, es));
    if (prm_increasing != 0u) k = ~k;
    if (prm_wide_keys == 0u) k.x = 0u;
    return k;
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint n = prm_axis_size, K = prm_k, row = u / n, j = u % n;
    uint base = dims_offset(prm_kept_at, row);
    uvec2 k = key_at(base, j);
    uint rank = 0u;
    for (uint q = 0u; q < n && rank < K; q++) {
        uvec2 kq = key_at(base, q);
        if (key_gt(kq, k) || (key_eq(kq, k) && q < j)) rank++;
    }
    if (rank < K) m[(prm_winners_offset >> 2) + row * K + rank] = j;
}

// Output-driven writing, for kernels that define compute(): write_output(O,
// u, dense) writes unit u of the output whose parameters are at word O
// (prm_result_at). The unit is a logical element when elements are 4 or 8
// bytes, else one 32-bit word of the output buffer, all of whose elements
// this invocation owns. Where the output is strided, the word's slots are
// mapped back to logical indices through its dims sorted by falling stride
// (inverse_map); slots no element maps to keep their bytes. A caller that
// knows the output is dense passes true and the compiler drops the mapping
// (llvmpipe runs both sides of a branch: it costs there even when not
// taken); else prm_result_dense != 0u.
uvec2 compute(uint li);   // the element bits (low, high) of output element `li`; per kernel

uint inverse_map(uint O, uint e) {   // e: element slot -> logical li or NONE
    uint T = O + OUTPUT_t;
    uint coord[8];
    for (uint d = 0u; d < 8u; d++) coord[d] = 0u;
    uint rem = e;
    for (uint k = 0u; k < prm_word(O + OUTPUT_order_count); k++) {
        uint d = prm_word(O + OUTPUT_order + k);
        uint s = prm_word(T + TENSOR_strides + d);
        uint c = rem / s;
        if (c >= prm_word(T + TENSOR_sizes + d)) return NONE;
        coord[d] = c;
        rem -= c * s;
    }
    if (rem != 0u) return NONE;
    uint li = 0u;
    for (uint d = 0u; d < prm_word(T + TENSOR_rank); d++) li = li * prm_word(T + TENSOR_sizes + d) + coord[d];
    return li;
}

void write_output(uint O, uint u, bool dense) {
    uint T = O + OUTPUT_t, es = prm_word(T + TENSOR_elem_size);
    if (es >= 4u) {   // a packed output's element u is u elements in, without the walk over its dims
        uint off = prm_word(O + OUTPUT_dense) != 0u ? t_base(T) + u * es : t_offset(T, u);
        uvec2 b = compute(u);
        m[off >> 2] = b.x;
        if (es == 8u) m[(off >> 2) + 1u] = b.y;
        return;
    }
    uint w = (t_base(T) >> 2) + u;
    uint word = m[w];
    uint per = 4u / es;
    for (uint s = 0u; s < per; s++) {
        uint e = u * per + s;
        uint li = dense ? (e < prm_word(O + OUTPUT_elements) ? e : NONE) : inverse_map(O, e);
        if (li == NONE) continue;
        uint sh = s * es * 8u;
        uint mask = (es == 1u ? 0xffu : 0xffffu) << sh;
        word = (word & ~mask) | ((compute(li).x << sh) & mask);
    }
    m[w] = word;
}

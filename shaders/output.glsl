// Output-driven writing, for kernels that define compute(): the unit is a
// logical element when elements are 4 or 8 bytes, else one 32-bit word of the
// output buffer, all of whose elements the invocation owns (see inverse_map).
uvec2 compute(uint li);   // the element bits (low, high) of output element `li`; per kernel

// Writes unit u of output tensor OUT (INV: its sorted dims; count: its
// elements; dense: no strides to map back through).
void write_output(uint OUT, uint INV, uint u, uint count, bool dense) {
    uint es = t_es(OUT);
    if (es >= 4u) {
        uint off = t_offset(OUT, u);
        uvec2 b = compute(u);
        m[off >> 2] = b.x;
        if (es == 8u) m[(off >> 2) + 1u] = b.y;
        return;
    }
    uint w = (t_base(OUT) >> 2) + u;
    uint word = m[w];
    uint per = 4u / es;
    for (uint s = 0u; s < per; s++) {
        uint e = u * per + s;
        uint li = dense ? (e < count ? e : NONE) : inverse_map(OUT, INV, e);
        if (li == NONE) continue;
        uint sh = s * es * 8u;
        uint mask = (es == 1u ? 0xffu : 0xffffu) << sh;
        word = (word & ~mask) | ((compute(li).x << sh) & mask);
    }
    m[w] = word;
}

// TopK, output: writes one output tensor (values or indices) from the
// winners. Tensors: input 0, this output 20; its sorted dims at 40; p[49]
// dense; p[50] elements; p[51] axis; p[52] K; p[53] winners byte offset;
// p[54] 1 when this output holds the indices.
uvec2 compute(uint li) {
    uint rank = t_rank(20u), axis = p[51];
    uint c[8];
    uint rem = li;
    for (uint d = rank; d-- > 0u;) {
        uint s = t_size(20u, d);
        c[d] = rem % s;
        rem /= s;
    }
    uint row = 0u, off = 0u;
    for (uint d = 0u; d < rank; d++) {
        if (d == axis) continue;
        row = row * t_size(20u, d) + c[d];
        off += c[d] * t_stride(0u, d);
    }
    uint idx = m[(p[53] >> 2) + row * p[52] + c[axis]];
    if (p[54] != 0u) return uvec2(idx, 0u);
    uint es = t_es(0u);
    return ld_elem(t_base(0u) + (off + idx * t_stride(0u, axis)) * es, es);
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    write_output(20u, 40u, u, p[50], p[49] != 0u);
}

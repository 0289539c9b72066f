// TopK, output: writes one output tensor (values or indices) from the
// winners at prm_winners_offset_
EDMLI_PARAMS(edmli_topk_out_prm);

uvec2 compute(uint li) {
    uint rank = prm_result_t_rank, axis = prm_axis;
    uint c[8];
    uint rem = li;
    for (uint d = rank; d-- > 0u;) {
        uint s = prm_result_t_sizes(d);
        c[d] = rem % s;
        rem /= s;
    }
    uint row = 0u, off = 0u;
    for (uint d = 0u; d < rank; d++) {
        if (d == axis) continue;
        row = row * prm_result_t_sizes(d) + c[d];
        off += c[d] * prm_data_strides(d);
    }
    uint idx = m[(prm_winners_offset >> 2) + row * prm_k + c[axis]];
    if (prm_indices != 0u) return uvec2(idx, 0u);
    uint es = prm_data_elem_size;
    return ld_elem(prm_data_offset + (off + idx * prm_data_strides(axis)) * es, es);
}

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    write_output(prm_result_at, u, prm_result_dense != 0u);
}

// Shared by the TopK kernels (the programs whose libs name TOPK, after
// common.glsl), which read edmli_topk_prm or edmli_topk_small_prm: both
// have these members.

// Element i of the row whose first element is `base` elements into the
// data, as an order key: the larger key wins (INCREASING inverts it), the
// high word zero where the type's keys fit 32 bits (prm_wide_keys 0).
uvec2 topk_key(uint base, uint i) {
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    uvec2 k = key_of(dt, ld_elem(prm_data_offset + (base + i * prm_axis_stride) * es, es));
    if (prm_increasing != 0u) k = ~k;
    if (prm_wide_keys == 0u) k.x = 0u;
    return k;
}

// Four 32-bit elements (one 16-byte load) as topk_key's low words.
uvec4 topk_key4(uvec4 v) {
    uvec4 k = key4(prm_data_dtype, false, v);
    return prm_increasing != 0u ? ~k : k;
}

// GatherND: output element -> (batch, position, slice) coordinates -> index
// tuple -> clamped input coordinates. Out-of-range coordinates are counted
// once per tuple (by the slice's first element) with the first one's
// position, at byte prm_status_offset of the status block (binding 2: a
// buffer the host reads through a persistent mapping, or the GPU arena),
// for the host to report as the reference backend does. prm_dims walks the
// output: each dim's size, its stride in the indices and in the data, and
// its kind (0 batch, 1 index position, 2 slice). With prm_vectors (the output packed, slices contiguous, every
// slice start 16-byte aligned) an invocation copies up to VEC_RUN vectors of
// 16 bytes of one slice, whose start it finds by walking the outer dims only.
EDMLI_PARAMS(edmli_gather_nd_prm);

// The data element offset the index tuple at `q` (bytes) adds; counts its
// clamped coordinates when `first` (the slice's first element) with `pos`,
// the tuple's position.
uint tuple_index(uint q, uint pos, bool first) {
    uint ies = prm_indices_elem_size, dt = prm_indices_dtype, ino = 0u;
    for (uint k = 0u; k < prm_tuple; k++, q += prm_tuple_stride * ies) {
        uint size = prm_coord_sizes(k);
        uint lo = m[q >> 2], hi = ies == 8u ? m[(q >> 2) + 1u] : 0u;
        uint w;
        bool bad;
        if (dt == DT_INT32) {
            int v = int(lo);
            if (v < 0) v += int(size);
            bad = v < 0 || v >= int(size);
            w = bad ? (v < 0 ? 0u : size - 1u) : uint(v);
        } else if (dt == DT_INT64) {
            if (hi == 0u) { bad = lo >= size; w = bad ? size - 1u : lo; }
            else if (hi == NONE && lo >= 0u - size) { bad = false; w = lo + size; }
            else { bad = true; w = hi >= 0x80000000u ? 0u : size - 1u; }
        } else {   // UINT32, UINT64
            bad = hi != 0u || lo >= size;
            w = bad ? size - 1u : lo;
        }
        if (bad && first) {
            uint w0 = prm_status_offset >> 2;
            atomicAdd(st[w0], 1u);
            atomicMin(st[w0 + 1u], pos * prm_tuple + k);
        }
        ino += w * prm_coord_strides(k);
    }
    return ino;
}

// Data element index of output element `li`; counts clamped coordinates.
uint input_index(uint li) {
    uint rem = li, ixo = 0u, ino = 0u;
    bool first = true;
    for (uint j = prm_dim_count; j-- > 0u;) {
        uint s = prm_dims_size(j);
        uint c = rem % s;
        rem /= s;
        ixo += c * prm_dims_indices_stride(j);
        ino += c * prm_dims_data_stride(j);
        if (prm_dims_kind(j) == 2u && c != 0u) first = false;
    }
    return ino + tuple_index(prm_indices_offset + ixo * prm_indices_elem_size, li / prm_slice_elements, first);
}

// Data element index of slice `slice`'s first element (the slice dims,
// last in prm_dims, are all zero there: only the outer ones are walked).
uint slice_index(uint slice, bool first) {
    uint rem = slice, ixo = 0u, ino = 0u;
    for (uint j = prm_dim_count; j-- > 0u;) {
        if (prm_dims_kind(j) == 2u) continue;
        uint s = prm_dims_size(j);
        uint c = rem % s;
        rem /= s;
        ixo += c * prm_dims_indices_stride(j);
        ino += c * prm_dims_data_stride(j);
    }
    return ino + tuple_index(prm_indices_offset + ixo * prm_indices_elem_size, slice, first);
}

uvec2 compute(uint li) { return ld_elem(prm_data_offset + input_index(li) * prm_data_elem_size, prm_data_elem_size); }

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    if (prm_vectors != 0u) {   // slices of whole vectors: one division finds the slice
        // tps invocations a slice, each up to VEC_RUN of its vectors, tps apart
        uint es = prm_data_elem_size, per = prm_slice_elements * es / 16u, tps = (per + VEC_RUN - 1u) / VEC_RUN;
        uint slice = u / tps, t = u - slice * tps;
        uint src = (prm_data_offset + slice_index(slice, t == 0u) * es) >> 4, dst = (prm_result_t_offset >> 4) + slice * per;
        // four guarded loads, then four guarded stores (VEC_RUN is 4): no
        // local array filled and drained by data-dependent loops, which
        // Mesa's V3D compiler spills and retries for minutes. The first
        // vector always exists (t < tps <= per).
        bool has1 = t + tps < per, has2 = t + 2u * tps < per, has3 = t + 3u * tps < per;
        uvec4 v0 = m4[src + t], v1 = uvec4(0u), v2 = uvec4(0u), v3 = uvec4(0u);
        if (has1) v1 = m4[src + t + tps];
        if (has2) v2 = m4[src + t + 2u * tps];
        if (has3) v3 = m4[src + t + 3u * tps];
        m4[dst + t] = v0;
        if (has1) m4[dst + t + tps] = v1;
        if (has2) m4[dst + t + 2u * tps] = v2;
        if (has3) m4[dst + t + 3u * tps] = v3;
        return;
    }
    write_output(prm_result_at, u, prm_result_dense != 0u);
}

// GatherND: output element -> (batch, position, slice) coordinates -> index
// tuple -> clamped input coordinates. Out-of-range coordinates are counted
// once per tuple (by the slice's first element) with the first one's
// position, for the host to report as the reference backend does.
// Tensors: input 0, indices 20, output 40; output's sorted dims at 60; p[69]
// dense; p[70] elements; p[71] list length L; p[72 + 4j ..]: size, indices
// stride, input stride, kind (0 batch, 1 position, 2 slice) of entry j;
// p[170] tuple size T; p[171] tuple stride; p[172+j] coordinate sizes;
// p[180+j] coordinate input strides; p[188] status byte offset; p[189]
// elements per slice; p[190] 1: vectors (output packed, slices contiguous,
// every slice start 16-byte aligned: an invocation copies 16 bytes).

// Input element index of output element `li`; counts clamped coordinates.
uint input_index(uint li) {
    uint rem = li, ixo = 0u, ino = 0u;
    bool first = true;
    for (uint j = p[71]; j-- > 0u;) {
        uint s = p[72u + 4u * j];
        uint c = rem % s;
        rem /= s;
        ixo += c * p[73u + 4u * j];
        ino += c * p[74u + 4u * j];
        if (p[75u + 4u * j] == 2u && c != 0u) first = false;
    }
    uint ies = t_es(20u), dt = t_dtype(20u);
    uint q = t_base(20u) + ixo * ies;
    uint pos = li / p[189];
    for (uint k = 0u; k < p[170]; k++, q += p[171] * ies) {
        uint size = p[172u + k];
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
            uint st = p[188] >> 2;
            atomicAdd(m[st], 1u);
            atomicMin(m[st + 1u], pos * p[170] + k);
        }
        ino += w * p[180u + k];
    }
    return ino;
}

uvec2 compute(uint li) { return ld_elem(t_base(0u) + input_index(li) * t_es(0u), t_es(0u)); }

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    if (p[190] != 0u) {
        uint ino = input_index(u * (16u / t_es(0u)));
        m4[(t_base(40u) >> 4) + u] = m4[(t_base(0u) + ino * t_es(0u)) >> 4];
        return;
    }
    write_output(40u, 60u, u, p[70], p[69] != 0u);
}

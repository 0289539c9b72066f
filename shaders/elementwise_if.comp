// ElementWiseIf: Output = Condition != 0 ? A : B, bit for bit, over the
// core's coalesced dims. With prm_vectors, A, B and the output are packed and
// 16-byte aligned; each invocation writes 16 bytes (16 / element size
// elements) by masking A's and B's words with its condition bytes, which are
// packed too or repeat with period prm_cond_period (condition strides
// {0, 1}). The last, partial vector falls back to one element (or one output
// word) at a time. SPECIALIZED (program elementwise_if_vec): the host
// promises prm_vectors and no partial vector, and the element path, with
// the registers it holds, is compiled out.
EDMLI_PARAMS(edmli_elementwise_if_prm);

uvec2 compute(uint li) {
    uint c = ld_bits(t_offset(prm_cond_at, li), 1u);
    uint T = c != 0u ? prm_a_at : prm_b_at;   // one walk of A's or B's strides, not both
    return ld_elem(t_offset(T, li), prm_word(T + TENSOR_elem_size));
}

// 0xff in each byte of c that is not zero
uint nonzero_bytes(uint c) {
    uint t = ((c & 0x7f7f7f7fu) + 0x7f7f7f7fu) | c;
    return ((t & 0x80808080u) >> 7) * 0xffu;
}
uint byte_mask(uint c, uint b) { return ((c >> (b * 8u)) & 0xffu) != 0u ? 0xffffffffu : 0u; }

// the 16 bytes of output vector u: es-byte elements e0 .. e0 + 16 / es - 1
void vector_unit(uint u, uint es, uint e0) {
    uint ci = prm_cond_offset + e0;
    if (prm_cond_period != 0u) ci = prm_cond_offset + e0 % prm_cond_period;
    uvec4 mask;
    if (es == 1u) {
        uvec4 cv = m4[ci >> 4];
        mask = uvec4(nonzero_bytes(cv.x), nonzero_bytes(cv.y), nonzero_bytes(cv.z), nonzero_bytes(cv.w));
    } else if (es == 2u) {
        uvec2 cv = uvec2(m[ci >> 2], m[(ci >> 2) + 1u]);
        uvec4 lo = uvec4(cv.x, cv.x >> 16, cv.y, cv.y >> 16);   // two condition bytes an output word
        uvec4 a = uvec4(notEqual(lo & 0xffu, uvec4(0u))), b = uvec4(notEqual((lo >> 8) & 0xffu, uvec4(0u)));
        mask = a * 0xffffu | b * 0xffff0000u;
    } else {
        uint c = m[ci >> 2];
        if (es == 8u) c >>= (ci & 3u) * 8u;
        mask = es == 4u ? uvec4(byte_mask(c, 0u), byte_mask(c, 1u), byte_mask(c, 2u), byte_mask(c, 3u))
                        : uvec4(byte_mask(c, 0u), byte_mask(c, 0u), byte_mask(c, 1u), byte_mask(c, 1u));
    }
    uvec4 a = m4[(prm_a_offset >> 4) + u], b = m4[(prm_b_offset >> 4) + u];
    m4[(prm_result_t_offset >> 4) + u] = (a & mask) | (b & ~mask);
}

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint es = prm_result_t_elem_size, e0 = u * (16u >> findLSB(es));
    if (SPECIALIZED) {
        vector_unit(u, es, e0);
        return;
    }
    uint n = prm_result_elements, first = u, end = u + 1u;   // output units written one at a time
    if (prm_vectors != 0u) {
        if (e0 + (16u >> findLSB(es)) <= n) {
            vector_unit(u, es, e0);
            return;
        }
        // the tail: output units as in the element path (the output is dense)
        first = es >= 4u ? e0 : e0 * es / 4u;
        end = es >= 4u ? n : (n * es + 3u) / 4u;
    }
    for (uint v = first; v < end; v++) write_output(prm_result_at, v, prm_vectors != 0u || prm_result_dense != 0u);
}

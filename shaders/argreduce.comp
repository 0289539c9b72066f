// ArgMin/ArgMax along a strided axis: one invocation per (output, chunk of
// its reduced set), neighbouring invocations on neighbouring outputs (so
// neighbouring elements), each walking its chunk with an odometer over the
// reduced dims. With one chunk per output the result is the output element;
// otherwise (key high, key low, index) goes to scratch for
// argreduce_final.comp. With prm_four_outputs an invocation takes four
// neighbouring outputs with 16-byte loads (32-bit elements, the innermost
// kept dim packed and a multiple of 4, every other stride a multiple of 4).
EDMLI_PARAMS(edmli_argreduce_prm);

uint g_result;
uvec2 compute(uint li) { return uvec2(g_result, 0u); }

uvec4 best, best_i;   // lanes' keys (vectors) or (high, low) in .xy

void take4(uvec4 k, uint s, uint begin, bool last) {
    bvec4 t = s == begin ? bvec4(true) : last ? greaterThanEqual(k, best) : greaterThan(k, best);
    best = mix(best, k, t);
    best_i = mix(best_i, uvec4(s), t);
}

// element(s) s of the set, at input element offset off
void take(uint s, uint off, uint begin, uint dt, uint es, bool invert, bool last, uint lanes) {
    if (lanes == 4u) {
        take4(key4(dt, invert, m4[(prm_data_offset >> 4) + (off >> 2)]), s, begin, last);
        return;
    }
    uvec2 k = min_key(dt, invert, ld_elem(prm_data_offset + off * es, es));
    if (s == begin || key_gt(k, best.xy) || (last && key_eq(k, best.xy))) { best.xy = k; best_i.x = s; }
}

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    uint lanes = prm_four_outputs != 0u ? 4u : 1u, units = prm_outputs / lanes;
    uint o = (u % units) * lanes, c = u / units, chunks = prm_chunks;
    uint base = dims_offset(prm_kept_at, o);
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    bool invert = prm_is_max == 0u, last = prm_keep_last != 0u;
    uint R = prm_reduced_count;
    uint begin = c * prm_chunk_elements, end = min(prm_set_elements, begin + prm_chunk_elements);
    uint idx[8];
    uint off = base, r = begin;
    for (uint d = 8u; d-- > 0u;) {
        idx[d] = 0u;
        if (d < R) {
            uint sz = prm_reduced_sizes(d);
            idx[d] = r % sz;
            off += idx[d] * prm_reduced_strides(d);
            r /= sz;
        }
    }
    best = uvec4(0u);
    best_i = uvec4(begin);
    if (R == 1u) {   // one reduced dim: a plain stride
        uint st = prm_reduced_strides(0u);
        uint s = begin;
        if (lanes == 4u) {
            for (; s + 1u < end; s += 2u, off += 2u * st) {   // two loads in flight
                uvec4 v0 = m4[(prm_data_offset >> 4) + (off >> 2)], v1 = m4[(prm_data_offset >> 4) + ((off + st) >> 2)];
                take4(key4(dt, invert, v0), s, begin, last);
                take4(key4(dt, invert, v1), s + 1u, begin, last);
            }
        }
        for (; s < end; s++, off += st) take(s, off, begin, dt, es, invert, last, lanes);
    } else {
        for (uint s = begin; s < end; s++) {
            take(s, off, begin, dt, es, invert, last, lanes);
            for (uint d = R; d-- > 0u;) {
                off += prm_reduced_strides(d);
                if (++idx[d] < prm_reduced_sizes(d)) break;
                off -= prm_reduced_strides(d) * prm_reduced_sizes(d);
                idx[d] = 0u;
            }
        }
    }
    uint T = prm_result_at + OUTPUT_t;   // four packed 32-bit outputs, 16-byte aligned: one store
    if (chunks == 1u && lanes == 4u && prm_result_dense != 0u && prm_result_t_elem_size == 4u && (t_base(T) & 15u) == 0u) {
        m4[(t_base(T) >> 4) + (o >> 2)] = best_i;
        return;
    }
    for (uint j = 0u; j < lanes; j++) {
        if (chunks == 1u) {
            g_result = best_i[j];
            write_output(prm_result_at, o + j, true);
            continue;
        }
        uint w = (prm_scratch_offset >> 2) + ((o + j) * chunks + c) * 3u;
        m[w] = lanes == 4u ? 0u : best.x;
        m[w + 1u] = lanes == 4u ? best[j] : best.y;
        m[w + 2u] = best_i[j];
    }
}

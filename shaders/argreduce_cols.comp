// ArgMin/ArgMax along a strided axis (one reduced dim) of 32-bit elements,
// with 16-byte loads: a unit is four neighbouring outputs, a 16-byte vector
// a row. A workgroup holds U units (prm_units) side by side (its neighbouring
// invocations read neighbouring vectors of a row) and G invocations
// (prm_group_threads) a unit, each taking four rows a batch, two pairs of
// loads, for B batches (prm_batches): a workgroup covers 4 * G * B rows
// (a chunk) of its units. Its invocations then meet in two rounds of
// shared-memory atomics (the best key, then the first or last row holding
// it), not a tree. With several chunks (at most LOCAL / (4 U)) each
// workgroup writes its (key, index) pairs to scratch and the last of a unit
// group's workgroups to finish (counted at prm_counter_offset) merges them
// in the same pass, and sets its counter to zero again (the counters are the
// operator's own, kept from one run to the next); neighbouring workgroups take neighbouring units of the
// same rows. G and U are powers of two, G * U is LOCAL and G >= 4.
EDMLI_PARAMS(edmli_argreduce_prm);

shared uint s_top[LOCAL];
shared uint s_idx[LOCAL];
shared bool s_merge;

uint g_result;
uvec2 compute(uint li) { return uvec2(g_result, 0u); }

// The lanes' candidate rows: those holding `top`, the smallest (the
// largest with `last`); a lane without it never wins.
uvec4 pick(uvec4 k, uvec4 top, uint row, bool last) {
    return mix(uvec4(last ? 0u : NONE), uvec4(row), equal(k, top));
}
uvec4 better_idx(uvec4 a, uvec4 b, bool last) { return last ? max(a, b) : min(a, b); }

void slots_reset(uint l, uint nslots, bool last) {
    if (l < nslots) {
        s_top[l] = 0u;
        s_idx[l] = last ? 0u : NONE;
    }
}
// Slot q takes the best of every invocation's (key, index) offered to it.
// Callers put a barrier() before (slots reset); this ends with one.
void slots_offer(uint q, uint key, uint idx, bool live, bool last) {
    if (live) atomicMax(s_top[q], key);
    barrier();
    if (live && key == s_top[q]) {
        if (last) atomicMax(s_idx[q], idx);
        else atomicMin(s_idx[q], idx);
    }
    barrier();
}

void kernel_main() {
    uint l = gl_LocalInvocationID.x, G = prm_group_threads, U = prm_units, chunks = prm_chunks;
    uint groups = prm_unit_groups;
    bool last = prm_keep_last != 0u, invert = prm_is_max == 0u;
    uint nslots = U * 4u, units = prm_outputs / 4u;
    uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    bool live_wg = gid < u_count;
    uint wg = u_base + gid, ug = wg % groups, c = wg / groups;
    uint slot = l % U, t = l / U;
    uint unit = ug * U + slot;
    bool live = live_wg && unit < units;
    slots_reset(l, nslots, last);

    uint dt = prm_data_dtype, o = (live ? unit : 0u) * 4u, st = prm_reduced_strides(0u);
    uint a = (prm_data_offset >> 4) + (dims_offset(prm_kept_at, o) >> 2);
    uint begin = c * prm_chunk_elements, end = min(prm_set_elements, begin + prm_chunk_elements);
    uvec4 top = uvec4(0u), idx = uvec4(last ? 0u : NONE);
    for (uint b = 0u; b < prm_batches; b++) {
        // rows begin + 4 G b + t + k G, k < 4, as two pairs, each folded
        // into (top, idx) before the next is keyed: fewer values live at
        // once (V3D's and Mali's compilers spilled the four at once); past
        // the end, the chunk's last row again (a duplicate never changes
        // the result)
        for (uint h = 0u; h < 2u; h++) {
            uint r0 = min(begin + 4u * G * b + t + 2u * h * G, end - 1u), r1 = min(r0 + G, end - 1u);
            uvec4 k0 = key4(dt, invert, m4[a + ((r0 * st) >> 2)]), k1 = key4(dt, invert, m4[a + ((r1 * st) >> 2)]);
            uvec4 tp = max(k0, k1);
            uvec4 ix = better_idx(pick(k0, tp, r0, last), pick(k1, tp, r1, last), last);
            // later pairs hold later rows
            bvec4 w = b == 0u && h == 0u ? bvec4(true) : last ? greaterThanEqual(tp, top) : greaterThan(tp, top);
            top = mix(top, tp, w);
            idx = mix(idx, ix, w);
        }
    }
    barrier();   // slots reset
    for (uint j = 0u; j < 4u; j++) slots_offer(slot * 4u + j, top[j], idx[j], live, last);
    if (chunks == 1u) {
        if (t == 0u && live) {
            for (uint j = 0u; j < 4u; j++) {
                g_result = s_idx[slot * 4u + j];
                write_output(prm_result_at, o + j, true);
            }
        }
        return;
    }
    // Several chunks: this chunk's pairs to scratch; the unit group's last
    // workgroup to finish (counted at prm_counter_offset) merges every chunk's.
    uint scr = prm_scratch_offset >> 2;
    if (t == 0u && live) {
        for (uint j = 0u; j < 4u; j++) {
            uint e = scr + ((ug * chunks + c) * nslots + slot * 4u + j) * 2u;
            mc[e] = s_top[slot * 4u + j];
            mc[e + 1u] = s_idx[slot * 4u + j];
        }
    }
    memoryBarrierBuffer();
    barrier();
    if (l == 0u) {
        s_merge = live_wg && atomicAdd(m[(prm_counter_offset >> 2) + ug], 1u) == chunks - 1u;
        if (s_merge) atomicExchange(m[(prm_counter_offset >> 2) + ug], 0u);   // zero again for the next run
    }
    barrier();
    if (!s_merge) return;
    slots_reset(l, nslots, last);
    // invocation l: slot l % nslots of chunk l / nslots (chunks <= LOCAL / nslots)
    uint q = l % nslots, cc = l / nslots;
    bool mine = ug * U + q / 4u < units, has = mine && cc < chunks;
    uint e = scr + ((ug * chunks + cc) * nslots + q) * 2u;
    uint bk = has ? mc[e] : 0u, bi = has ? mc[e + 1u] : 0u;
    barrier();   // slots reset
    slots_offer(q, bk, bi, has, last);
    if (l < nslots && mine) {
        g_result = s_idx[q];
        write_output(prm_result_at, (ug * U + q / 4u) * 4u + q % 4u, true);
    }
}

// ArgMin/ArgMax along the packed last axis, large reduced sets: G threads
// (prm_group_threads, a power of two dividing LOCAL) per (output, chunk of
// its set) reduce the chunk in shared memory; a workgroup holds LOCAL / G
// such pairs. With one chunk per output the result is the output element;
// otherwise each chunk's (key high, key low, index) goes to scratch and the
// output's last chunk to finish (counted at prm_counter_offset) merges them
// (one pass, no argreduce_final.comp) and sets its counter to zero again (the
// counters are the operator's own, kept from one run to the next). The
// program argreduce_partial reads element by element; with prm_vectors
// (32-bit elements, sets and chunks whole 16-byte vectors, aligned) the host
// runs its specialization, argreduce_partial_vec (SPECIALIZED), which reads
// 16-byte vectors, and, its keys being 32-bit (high word 0), folds one key
// word a slot: a thread that found nothing offers key 0 with an index that
// loses its ties (or, keeping the last, ties index 0 to the same result),
// so no slot says whether it found anything.
EDMLI_PARAMS(edmli_argreduce_prm);

shared uvec2 s_key[SPECIALIZED ? 1u : LOCAL];
shared uint s_key32[SPECIALIZED ? LOCAL : 1u];
shared uint s_idx[LOCAL];
shared bool s_any[SPECIALIZED ? 1u : LOCAL];

uint g_result;
uvec2 compute(uint li) { return uvec2(g_result, 0u); }

uvec2 best;
uint best_i;
bool found;

void offer(uvec2 k, uint s, bool last) {
    if (!found || key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = s; found = true; }
}
// elements s .. s + 3 (32-bit keys): their best first, the lane only when
// it wins (rarely, after the first few)
void offer4(uvec4 k, uint s, bool last) {
    uint top = max(max(k.x, k.y), max(k.z, k.w));
    if (found && (top < best.y || (top == best.y && !last))) return;
    uint j = last ? (k.w == top ? 3u : k.z == top ? 2u : k.y == top ? 1u : 0u)
                  : (k.x == top ? 0u : k.y == top ? 1u : k.z == top ? 2u : 3u);
    best = uvec2(0u, top);
    best_i = s + j;
    found = true;
}

// reduce_pairs with 32-bit keys (SPECIALIZED)
void reduce_pairs32(uint l, uint t, uint G, bool last) {
    s_key32[l] = found ? best.y : 0u;
    s_idx[l] = found ? best_i : (last ? 0u : NONE);
    barrier();
    for (uint h = G / 2u; h > 0u; h >>= 1) {
        if (t < h) {
            uint k = s_key32[l + h], i = s_idx[l + h], kb = s_key32[l], ib = s_idx[l];
            if (k > kb || (k == kb && (last ? i > ib : i < ib))) { s_key32[l] = k; s_idx[l] = i; }
        }
        barrier();
    }
}

// The G threads of each pair fold their (best, best_i, found) into the
// pair's first slot, in shared memory.
void reduce_pairs(uint l, uint t, uint G, bool last) {
    if (SPECIALIZED) {
        reduce_pairs32(l, t, G, last);
        return;
    }
    s_key[l] = best;
    s_idx[l] = best_i;
    s_any[l] = found;
    barrier();
    for (uint h = G / 2u; h > 0u; h >>= 1) {
        if (t < h && s_any[l + h] && (!s_any[l] || arg_better(s_key[l + h], s_idx[l + h], s_key[l], s_idx[l], last))) {
            s_key[l] = s_key[l + h];
            s_idx[l] = s_idx[l + h];
            s_any[l] = true;
        }
        barrier();
    }
}

void kernel_main() {
    uint G = prm_group_threads, per_group = LOCAL / G;
    uint t = gl_LocalInvocationID.x % G, slot = gl_LocalInvocationID.x / G;
    uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint g = (u_base + gid) * per_group + slot;          // the (output, chunk) pair
    bool live = gid < u_count && g < prm_pairs;
    uint chunks = prm_chunks, o = live ? g / chunks : 0u, c = live ? g % chunks : 0u;
    uint base = dims_offset(prm_kept_at, o);
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    bool invert = prm_is_max == 0u, last = prm_keep_last != 0u, dense = prm_dense != 0u;
    uint begin = c * prm_chunk_elements, end = live ? min(prm_set_elements, begin + prm_chunk_elements) : 0u;
    found = false;
    best = uvec2(0u);
    best_i = 0u;
    if (SPECIALIZED) {
        uint a = (prm_data_offset >> 4) + (base >> 2), s = begin + 4u * t, step = 4u * G;
        for (; s + step < end; s += 2u * step) {   // two loads in flight
            uvec4 v0 = m4[a + (s >> 2)], v1 = m4[a + ((s + step) >> 2)];
            offer4(key4(dt, invert, v0), s, last);
            offer4(key4(dt, invert, v1), s + step, last);
        }
        if (s < end) offer4(key4(dt, invert, m4[a + (s >> 2)]), s, last);
    } else {
        for (uint s = begin + t; s < end; s += G) {
            uint off = dense ? base + s : base + dims_offset(prm_reduced_at, s);
            offer(min_key(dt, invert, ld_elem(prm_data_offset + off * es, es)), s, last);
        }
    }
    uint l = gl_LocalInvocationID.x;
    reduce_pairs(l, t, G, last);
    if (chunks == 1u) {
        if (t == 0u && live) {
            g_result = s_idx[l];
            write_output(prm_result_at, o, true);
        }
        return;
    }
    // Several chunks: each writes its result; the output's last chunk to
    // finish (counted at prm_counter_offset) merges them all, so no second
    // pass is needed.
    uint w = (prm_scratch_offset >> 2) + g * 3u;
    if (t == 0u && live) {
        mc[w] = SPECIALIZED ? 0u : s_key[l].x;
        mc[w + 1u] = SPECIALIZED ? s_key32[l] : s_key[l].y;
        mc[w + 2u] = s_idx[l];
        memoryBarrierBuffer();
        bool merges = atomicAdd(m[(prm_counter_offset >> 2) + o], 1u) == chunks - 1u;
        if (merges) atomicExchange(m[(prm_counter_offset >> 2) + o], 0u);   // zero again for the next run
        if (SPECIALIZED) s_idx[l] = merges ? 1u : 0u;   // for the pair's threads (its result is in scratch)
        else s_any[l] = merges;
    }
    barrier();
    bool mine = live && (SPECIALIZED ? s_idx[l - t] != 0u : s_any[l - t]);
    barrier();
    best = uvec2(0u);
    best_i = 0u;
    found = false;
    for (uint cc = t; mine && cc < chunks; cc += G) {
        uint x = (prm_scratch_offset >> 2) + (o * chunks + cc) * 3u;
        uvec2 k = uvec2(mc[x], mc[x + 1u]);
        uint i = mc[x + 2u];
        if (!found || arg_better(k, i, best, best_i, last)) { best = k; best_i = i; found = true; }
    }
    reduce_pairs(l, t, G, last);
    if (t == 0u && mine) {
        g_result = s_idx[l];
        write_output(prm_result_at, o, true);
    }
}

// ArgMin/ArgMax, second pass: prm_merge_threads threads (G, a power of two
// dividing LOCAL) per output merge its chunks' results in shared memory,
// each thread walking its chunks in order; a workgroup holds LOCAL / G
// outputs.
EDMLI_PARAMS(edmli_argreduce_prm);

shared uvec2 s_key[LOCAL];
shared uint s_idx[LOCAL];

uint g_result;
uvec2 compute(uint li) { return uvec2(g_result, 0u); }

void kernel_main() {
    uint G = prm_merge_threads, per_group = LOCAL / G;
    uint t = gl_LocalInvocationID.x % G, l = gl_LocalInvocationID.x;
    uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint o = (u_base + gid) * per_group + l / G;
    bool live = gid < u_count && o < prm_outputs, last = prm_keep_last != 0u;
    uint chunks = prm_chunks;
    uvec2 best = uvec2(0u);
    uint best_i = NONE;   // no chunk yet (every thread of a live output gets one)
    if (live) {
        for (uint c = t; c < chunks; c += G) {
            uint w = (prm_scratch_offset >> 2) + (o * chunks + c) * 3u;
            uvec2 k = uvec2(m[w], m[w + 1u]);
            if (best_i == NONE || key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = m[w + 2u]; }
        }
    }
    s_key[l] = best;
    s_idx[l] = best_i;
    barrier();
    for (uint h = G / 2u; h > 0u; h >>= 1) {
        if (t < h && arg_better(s_key[l + h], s_idx[l + h], s_key[l], s_idx[l], last)) {
            s_key[l] = s_key[l + h];
            s_idx[l] = s_idx[l + h];
        }
        barrier();
    }
    if (t == 0u && live) {
        g_result = s_idx[l];
        write_output(prm_result_at, o, true);
    }
}

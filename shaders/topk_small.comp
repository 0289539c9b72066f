// TopK of one row of at most SORT_MAX elements with a small K, in one
// dispatch of one workgroup: K rounds, each taking the best element left
// (the largest key, then the smallest index) through shared atomics, then
// both outputs written from the winners. Each invocation owns the elements
// t + j LOCAL (j < 32: bit j of its mask marks one taken) and keeps the best
// of those not yet taken.
EDMLI_PARAMS(edmli_topk_small_prm);

shared uvec2 s_key[SORT_MAX];
shared uint s_win[TOPK_SMALL_K];
shared uint s_round[3 * 3];   // rounds rotate over three sets: high key, low key, index
uint g_taken;                 // this invocation's elements taken, bit j for t + j LOCAL

uvec2 rkey(uint i) { return topk_key(0u, i); }   // element i of the row

// this invocation's best element not taken (NONE: none left)
uint own_best(uint t, uint n) {
    uint b = NONE;
    for (uint i = t, j = 0u; i < n; i += LOCAL, j++)
        if ((g_taken & (1u << j)) == 0u && (b == NONE || key_gt(s_key[i], s_key[b]))) b = i;
    return b;
}

bool g_indices;   // which output compute() serves

uvec2 compute(uint li) {   // one row: the output's logical index is its place along the axis
    uint idx = s_win[li];
    if (g_indices) return uvec2(idx, 0u);
    uint es = prm_data_elem_size;
    return ld_elem(prm_data_offset + idx * prm_axis_stride * es, es);
}

void kernel_main() {
    uint t = gl_LocalInvocationID.x, n = prm_axis_size, K = prm_k;
    for (uint i = t; i < n; i += LOCAL) s_key[i] = rkey(i);
    g_taken = 0u;
    if (t < 6u) s_round[t] = t % 3u == 2u ? NONE : 0u;
    barrier();
    uint b = own_best(t, n);
    for (uint r = 0u; r < K; r++) {
        uint v = (r % 3u) * 3u, nxt = ((r + 1u) % 3u) * 3u;
        if (t < 3u) s_round[nxt + t] = t == 2u ? NONE : 0u;   // its set was last read two rounds ago
        uvec2 k = b == NONE ? uvec2(0u) : s_key[b];
        if (prm_wide_keys != 0u) {
            if (b != NONE) atomicMax(s_round[v], k.x);
            barrier();
        }
        if (b != NONE && k.x == s_round[v]) atomicMax(s_round[v + 1u], k.y);
        barrier();
        if (b != NONE && k.x == s_round[v] && k.y == s_round[v + 1u]) atomicMin(s_round[v + 2u], b);
        barrier();
        uint w = s_round[v + 2u];
        if (t == 0u) s_win[r] = w;
        if (w == b) { g_taken |= 1u << (b / LOCAL); b = own_best(t, n); }
    }
    barrier();
    g_indices = false;
    for (uint u = t; u < prm_values_units; u += LOCAL) write_output(prm_values_at, u, prm_values_dense != 0u);
    g_indices = true;
    for (uint u = t; u < prm_indices_units; u += LOCAL) write_output(prm_indices_at, u, prm_indices_dense != 0u);
}

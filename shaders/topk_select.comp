// TopK, selection: a workgroup per row writes the row's K winning indices,
// best first (larger key, then smaller index), at prm_winners_offset_
// Rows up to SORT_MAX long: a bitonic sort in shared memory; rows of at
// most SORT_MAX / 2, prm_rows_per_group of them a workgroup, sorted side by
// side (short_rows). Longer rows:
// first a threshold, the K-th best of the threads' own best keys (at least
// K elements reach it: those threads' bests); when at most SORT_MAX elements
// reach it they are gathered and sorted as above. Otherwise (many ties,
// adversarial orders) a radix select (8-bit digits of the 64-bit key; 4
// digits for types of at most 32 bits) finds the K-th key, the elements
// above it and the first ties (in index order) are gathered, then sorted.
// K <= SORT_MAX. Rows of 32- or 16-bit elements along a packed axis are
// read as 16-byte vectors where aligned.
EDMLI_PARAMS(edmli_topk_prm);

shared uvec2 s_key[SORT_MAX];
shared uint s_idx[SORT_MAX];
shared uint s_hist[256 * 8];   // 8 copies of the histogram: fewer threads on one counter
shared uint s_cnt[LOCAL];
shared uint s_var[4];

uint g_base;

uvec2 rkey(uint i) { return topk_key(g_base, i); }   // element i of this workgroup's row

// Keys of the row's q-th 16-byte vector (vector reads: see main): 32-bit
// elements 4q + j in lo[j] (hi the lowest key); 16-bit elements 8q + 2j in
// lo[j] and 8q + 2j + 1 in hi[j].
void rkeys_vec(uint q, out uvec4 lo, out uvec4 hi) {
    uint dt = prm_data_dtype, es = prm_data_elem_size;
    uvec4 v = m4[((prm_data_offset + g_base * es) >> 4) + q];
    if (es == 4u) {
        lo = topk_key4(v);
        hi = uvec4(0u);
    } else {
        lo = key16(dt, v & 0xffffu);
        hi = key16(dt, v >> 16);
        if (prm_increasing != 0u) { lo = ~lo; hi = ~hi; }
    }
}

// A candidate at or above the threshold: the next sort entry (counted past
// SORT_MAX, when the radix select takes over).
void take(uvec2 k, uint i) {
    uint slot = atomicAdd(s_var[2], 1u);
    if (slot < uint(SORT_MAX)) { s_key[slot] = k; s_idx[slot] = i; }
}

bool better(uint a, uint b) {   // shared entries a and b
    return key_gt(s_key[a], s_key[b]) || (key_eq(s_key[a], s_key[b]) && s_idx[a] < s_idx[b]);
}

// sorts each segment of `seg` entries of s_key/s_idx[0, n2) best first
// (the stages stop at the segment's size, the last one the same way up in
// every segment); n2 and seg powers of two
void bitonic(uint n2, uint seg) {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 2u; k <= seg; k <<= 1) {
        for (uint j = k >> 1; j > 0u; j >>= 1) {
            for (uint i = t; i < n2; i += LOCAL) {
                uint l = i ^ j;
                if (l > i) {
                    bool up = (i & k & (seg - 1u)) == 0u;
                    if (up ? better(l, i) : better(i, l)) {
                        uvec2 tk = s_key[i]; s_key[i] = s_key[l]; s_key[l] = tk;
                        uint ti = s_idx[i]; s_idx[i] = s_idx[l]; s_idx[l] = ti;
                    }
                }
            }
            barrier();
        }
    }
}

uint pow2_at_least(uint n) {
    uint r = 1u;
    while (r < n) r <<= 1;
    return r;
}

// Rows of at most SORT_MAX elements, R a workgroup (1 for rows over
// SORT_MAX / 2): each row in P (a power of two) slots, padded with entries
// that sort last, every row sorted at once; the first K slots of each are
// its winners.
void short_rows(uint R) {
    uint g = group_id();
    if (g == NONE) return;
    uint t = gl_LocalInvocationID.x, n = prm_axis_size, K = prm_k, P = pow2_at_least(n);
    uint first = g * R, rows = prm_rows;
    for (uint i = t; i < R * P; i += LOCAL) {
        uint row = first + i / P, j = i % P;
        bool real = row < rows && j < n;
        if (real) g_base = dims_offset(prm_kept_at, row);
        s_key[i] = real ? rkey(j) : uvec2(0u);
        s_idx[i] = real ? j : NONE;
    }
    barrier();
    bitonic(R * P, P);
    for (uint i = t; i < R * K; i += LOCAL)
        if (first + i / K < rows) m[(prm_winners_offset >> 2) + first * K + i] = s_idx[(i / K) * P + i % K];
}

void kernel_main() {
    if (prm_axis_size <= uint(SORT_MAX)) {
        short_rows(max(prm_rows_per_group, 1u));
        return;
    }
    uint row = group_id();
    if (row == NONE) return;
    uint t = gl_LocalInvocationID.x;
    g_base = dims_offset(prm_kept_at, row);
    uint n = prm_axis_size, K = prm_k;
    // a row longer than SORT_MAX: a threshold first, then the elements that
    // reach it sorted where at most SORT_MAX do (filled), else a radix select
    uint filled = NONE;
    // vectors: 32- or 16-bit elements along a packed axis, the row 16-byte aligned
    uint es = prm_data_elem_size, per = 16u / es;
    bool vec = prm_axis_stride == 1u && (es == 4u || es == 2u) && ((prm_data_offset + g_base * es) & 15u) == 0u;
    uint nv = vec ? n / per : 0u;
    if (K <= LOCAL && LOCAL <= uint(SORT_MAX)) {
        uvec2 top = uvec2(0u);   // no element: the lowest key, which every element reaches
        uvec4 lo, hi;
        for (uint q = t; q < nv; q += LOCAL) {
            rkeys_vec(q, lo, hi);
            uvec4 k = max(lo, hi);
            top.y = max(top.y, max(max(k.x, k.y), max(k.z, k.w)));
        }
        for (uint i = per * nv + t; i < n; i += LOCAL) {
            uvec2 k = rkey(i);
            if (key_gt(k, top)) top = k;
        }
        s_key[t] = top;
        s_idx[t] = t;
        barrier();
        bitonic(LOCAL, LOCAL);
        uvec2 tau = s_key[K - 1u];
        if (t == 0u) s_var[2] = 0u;
        barrier();
        for (uint q = t; q < nv; q += LOCAL) {
            rkeys_vec(q, lo, hi);
            for (uint j = 0u; j < 4u; j++) {
                if (lo[j] >= tau.y) take(uvec2(0u, lo[j]), es == 4u ? 4u * q + j : 8u * q + 2u * j);
                if (es == 2u && hi[j] >= tau.y) take(uvec2(0u, hi[j]), 8u * q + 2u * j + 1u);
            }
        }
        for (uint i = per * nv + t; i < n; i += LOCAL) {
            uvec2 k = rkey(i);
            if (!key_gt(tau, k)) take(k, i);
        }
        barrier();
        if (s_var[2] <= uint(SORT_MAX)) filled = s_var[2];
        barrier();
    }
    if (filled == NONE) {
        uvec2 prefix = uvec2(0u), mask = uvec2(0u);
        uint need = K;
        for (uint pass = prm_wide_keys != 0u ? 0u : 4u; pass < 8u; pass++) {
            for (uint i = t; i < 2048u; i += LOCAL) s_hist[i] = 0u;
            barrier();
            uint sh = (3u - (pass & 3u)) * 8u;
            for (uint i = t; i < n; i += LOCAL) {
                uvec2 k = rkey(i);
                if ((k.x & mask.x) == prefix.x && (k.y & mask.y) == prefix.y)
                    atomicAdd(s_hist[(t & 7u) * 256u + (((pass < 4u ? k.x : k.y) >> sh) & 0xffu)], 1u);
            }
            barrier();
            for (uint b = t; b < 256u; b += LOCAL) {   // fold the copies into the first
                uint sum = 0u;
                for (uint j = 0u; j < 8u; j++) sum += s_hist[j * 256u + b];
                s_hist[b] = sum;
            }
            barrier();
            if (t == 0u) {
                uint cum = 0u, d = 255u;
                for (;; d--) {
                    uint h = s_hist[d];
                    if (cum + h >= need || d == 0u) break;
                    cum += h;
                }
                s_var[0] = d;
                s_var[1] = need - cum;
            }
            barrier();
            uint d = s_var[0];
            need = s_var[1];
            if (pass < 4u) { prefix.x |= d << sh; mask.x |= 0xffu << sh; }
            else { prefix.y |= d << sh; mask.y |= 0xffu << sh; }
            barrier();
        }
        // elements above the K-th key, in any order, and those equal to it
        // counted, the first `need` of them then taken in index order: a
        // chunk of the row an invocation
        if (t == 0u) s_var[2] = 0u;
        barrier();
        uint chunk = (n + LOCAL - 1u) / LOCAL;
        uint lo = min(n, t * chunk), hi = min(n, lo + chunk), c = 0u;
        for (uint i = lo; i < hi; i++) {
            uvec2 k = rkey(i);
            if (key_gt(k, prefix)) {
                uint slot = atomicAdd(s_var[2], 1u);
                s_key[slot] = k;
                s_idx[slot] = i;
            } else if (key_eq(k, prefix)) {
                c++;
            }
        }
        s_cnt[t] = c;
        barrier();
        if (t == 0u) {
            uint run = 0u;
            for (uint i = 0u; i < LOCAL; i++) { uint x = s_cnt[i]; s_cnt[i] = run; run += x; }
        }
        barrier();
        uint rank = s_cnt[t], greater = K - need;
        for (uint i = lo; i < hi && rank < need; i++) {
            uvec2 k = rkey(i);
            if (key_eq(k, prefix)) {
                s_key[greater + rank] = k;
                s_idx[greater + rank] = i;
                rank++;
            }
        }
        filled = K;
    }
    uint n2 = pow2_at_least(filled);
    for (uint i = filled + t; i < n2; i += LOCAL) { s_key[i] = uvec2(0u); s_idx[i] = NONE; }
    barrier();
    bitonic(n2, n2);
    uint w = (prm_winners_offset >> 2) + row * K;
    for (uint j = t; j < K; j += LOCAL) m[w + j] = s_idx[j];
}

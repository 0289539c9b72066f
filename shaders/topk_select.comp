// TopK, selection: a workgroup per row writes the row's K winning indices,
// best first (larger key, then smaller index), to scratch.
// Rows up to SORT_MAX long: a bitonic sort in shared memory. Longer rows:
// first a threshold, the K-th best of the threads' own best keys (at least
// K elements reach it: those threads' bests); when at most SORT_MAX elements
// reach it they are gathered and sorted as above. Otherwise (many ties,
// adversarial orders) a radix select (8-bit digits of the 64-bit key; 4
// digits for types of at most 32 bits) finds the K-th key, the elements
// above it and the first ties (in index order) are gathered, then sorted.
// K <= SORT_MAX. Rows of 32-bit elements along a packed axis are read as
// 16-byte vectors where aligned.
// Input tensor 0. p[40] kept dims; p[41+d] sizes; p[49+d] input strides;
// p[57] axis size n; p[58] axis stride; p[59] K; p[60] 1 for INCREASING;
// p[61] winners byte offset; p[62] 1 for 64-bit keys.
shared uvec2 s_key[SORT_MAX];
shared uint s_idx[SORT_MAX];
shared uint s_hist[256 * 8];   // 8 copies of the histogram: fewer threads on one counter
shared uint s_cnt[LOCAL];
shared uint s_var[4];

uint g_base;

uvec2 rkey(uint i) {
    uint dt = t_dtype(0u), es = t_es(0u);
    uvec2 k = key_of(dt, ld_elem(t_base(0u) + (g_base + i * p[58]) * es, es));
    if (p[60] != 0u) k = ~k;
    if (p[62] == 0u) k.x = 0u;
    return k;
}

// Keys of the row's elements 4q .. 4q + 3 (vector reads: see main).
uvec4 rkey4(uint q) {
    uvec4 k = key4(t_dtype(0u), false, m4[((t_base(0u) >> 2) + g_base) / 4u + q]);
    return p[60] != 0u ? ~k : k;
}

bool better(uint a, uint b) {   // shared entries a and b
    return key_gt(s_key[a], s_key[b]) || (key_eq(s_key[a], s_key[b]) && s_idx[a] < s_idx[b]);
}

// sorts s_key/s_idx[0, n2) best first; n2 a power of two
void bitonic(uint n2) {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 2u; k <= n2; k <<= 1) {
        for (uint j = k >> 1; j > 0u; j >>= 1) {
            for (uint i = t; i < n2; i += LOCAL) {
                uint l = i ^ j;
                if (l > i) {
                    bool up = (i & k) == 0u;
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

void main() {
    uint row = group_id();
    if (row == NONE) return;
    uint t = gl_LocalInvocationID.x;
    uint rem = row;
    g_base = 0u;
    for (uint d = p[40]; d-- > 0u;) {
        uint s = p[41u + d];
        g_base += (rem % s) * p[49u + d];
        rem /= s;
    }
    uint n = p[57], K = p[59];
    uint filled;
    if (n <= uint(SORT_MAX)) {
        for (uint i = t; i < n; i += LOCAL) { s_key[i] = rkey(i); s_idx[i] = i; }
        filled = n;
    } else {
        filled = NONE;
        // vectors: 32-bit elements along a packed axis, the row 16-byte aligned
        bool vec = p[58] == 1u && t_es(0u) == 4u && (((t_base(0u) >> 2) + g_base) & 3u) == 0u;
        uint nv = vec ? n / 4u : 0u;
        if (K <= LOCAL && LOCAL <= uint(SORT_MAX)) {
            uvec2 top = uvec2(0u);   // no element: the lowest key, which every element reaches
            for (uint q = t; q < nv; q += LOCAL) {
                uvec4 k = rkey4(q);
                top.y = max(top.y, max(max(k.x, k.y), max(k.z, k.w)));
            }
            for (uint i = 4u * nv + t; i < n; i += LOCAL) {
                uvec2 k = rkey(i);
                if (key_gt(k, top)) top = k;
            }
            s_key[t] = top;
            s_idx[t] = t;
            barrier();
            bitonic(LOCAL);
            uvec2 tau = s_key[K - 1u];
            if (t == 0u) s_var[2] = 0u;
            barrier();
            for (uint q = t; q < nv; q += LOCAL) {
                uvec4 k = rkey4(q);
                for (uint j = 0u; j < 4u; j++) {
                    if (k[j] < tau.y) continue;
                    uint slot = atomicAdd(s_var[2], 1u);
                    if (slot < uint(SORT_MAX)) { s_key[slot] = uvec2(0u, k[j]); s_idx[slot] = 4u * q + j; }
                }
            }
            for (uint i = 4u * nv + t; i < n; i += LOCAL) {
                uvec2 k = rkey(i);
                if (key_gt(tau, k)) continue;
                uint slot = atomicAdd(s_var[2], 1u);
                if (slot < uint(SORT_MAX)) { s_key[slot] = k; s_idx[slot] = i; }
            }
            barrier();
            if (s_var[2] <= uint(SORT_MAX)) filled = s_var[2];
            barrier();
        }
    }
    if (filled == NONE) {
        uvec2 prefix = uvec2(0u), mask = uvec2(0u);
        uint need = K;
        for (uint pass = p[62] != 0u ? 0u : 4u; pass < 8u; pass++) {
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
        // elements above the K-th key, in any order
        if (t == 0u) s_var[2] = 0u;
        barrier();
        for (uint i = t; i < n; i += LOCAL) {
            uvec2 k = rkey(i);
            if (key_gt(k, prefix)) {
                uint slot = atomicAdd(s_var[2], 1u);
                s_key[slot] = k;
                s_idx[slot] = i;
            }
        }
        // the first `need` elements equal to it, in index order: chunked
        uint chunk = (n + LOCAL - 1u) / LOCAL;
        uint lo = min(n, t * chunk), hi = min(n, lo + chunk), c = 0u;
        for (uint i = lo; i < hi; i++) if (key_eq(rkey(i), prefix)) c++;
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
    bitonic(n2);
    uint w = (p[61] >> 2) + row * K;
    for (uint j = t; j < K; j += LOCAL) m[w + j] = s_idx[j];
}

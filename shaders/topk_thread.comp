// TopK, selection with a small K along a strided axis, or a packed one of
// short rows: one invocation per (row, chunk of the row), neighbouring
// invocations on neighbouring rows (so neighbouring elements along a strided
// axis), each keeping the best K it has seen in a list of W places in
// registers, best first (the larger key, then the smaller index), no array
// indexed by a variable (one that is goes to memory on some GPUs). Two
// ways of keeping it:
// - topk_thread (K <= 16): 16 places of 64-bit keys, the best K first;
//   elements come in blocks of 16 (loaded together), sorted by a bitonic
//   network and merged into the list by another, so that no invocation
//   waits on another's branch;
// - topk_thread_8 (SPECIALIZED; K <= 8, elements of at most 32 bits):
//   8 places of 32-bit keys, the best K in the last K places, those before
//   them holding a key no element beats; an element that beats the last
//   place is inserted (each place takes the one before it, the element or
//   itself: a compare a place), so one the list does not take costs a
//   compare. A third of the registers of a list of 16, and no block: V3D's
//   32 registers a thread hold it without spilling (docs/gpu.md).
// With one chunk the first pass writes the winners directly. With several,
// each chunk's best K go to prm_lists_offset: entry j of chunk c of a row
// is (key high, key low, index) in three planes of `rows` words, plane
// (c * K + j) * 3 + w, so that neighbouring rows' words are neighbours; then
// the fold pass (prm_fold_pass), a workgroup a row: invocation t takes the
// lists of chunks t, t + LOCAL, ... (each covering prm_chunk_elements
// elements), then the invocations' lists are merged pairwise through shared
// memory, a tree of log2(LOCAL) levels, and invocation 0 writes the
// winners. Free places hold key 0 with index NONE, which every element
// beats.
EDMLI_PARAMS(edmli_topk_prm);

#if SPECIALIZED_PP
#define W 8u
#define EACHW(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define KEY uint
#define KEY_OF(k) (k).y
#define KEY_HIGH(k) 0u
#define KEY_LOW(k) (k)
#define KEY_MAKE(high, low) (low)
#define KEY_GT(a, b) ((a) > (b))
#define KEY_EQ(a, b) ((a) == (b))
#define FIRST (W - K)   // the list's first place
#else
#define W 16u
#define EACHW(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define KEY uvec2
#define KEY_OF(k) (k)
#define KEY_HIGH(k) (k).x
#define KEY_LOW(k) (k).y
#define KEY_MAKE(high, low) uvec2(high, low)
#define KEY_GT key_gt
#define KEY_EQ key_eq
#define FIRST 0u
#endif

KEY g_key[W];   // the list
uint g_idx[W];
shared KEY s_key[LOCAL / 2u * W];   // the fold's lists handed over, W places each
shared uint s_idx[LOCAL / 2u * W];

bool better(KEY a, uint ia, KEY b, uint ib) { return KEY_GT(a, b) || (KEY_EQ(a, b) && ia < ib); }

#if SPECIALIZED_PP
// (k, i) into the list where it beats the last place: from the end, place j
// takes place j - 1 where (k, i) beats that too, else (k, i) where it beat
// place j (`beats`), else keeps its own
#define INS(j, before)                                                  \
    {                                                                   \
        bool beats_before = better(k, i, g_key[before], g_idx[before]); \
        if (beats_before) {                                             \
            g_key[j] = g_key[before];                                   \
            g_idx[j] = g_idx[before];                                   \
        } else if (beats) {                                             \
            g_key[j] = k;                                               \
            g_idx[j] = i;                                               \
        }                                                               \
        beats = beats_before;                                           \
    }
void insert(KEY k, uint i) {
    if (!better(k, i, g_key[W - 1u], g_idx[W - 1u])) return;
    bool beats = true;
    INS(7, 6) INS(6, 5) INS(5, 4) INS(4, 3) INS(3, 2) INS(2, 1) INS(1, 0)
    if (beats) {
        g_key[0] = k;
        g_idx[0] = i;
    }
}

// elements begin .. end - 1 of the row whose first element is `base`
void offer_elements(uint base, uint begin, uint end) {
    for (uint i = begin; i < end; i++) insert(KEY_OF(topk_key(base, i)), i);
}
// the n entries of a list whose first key word is word w
void offer_list(uint w, uint n, uint rows) {
    for (uint j = 0u; j < n; j++, w += 3u * rows) insert(KEY_MAKE(m[w], m[w + rows]), m[w + 2u * rows]);
}
// the list in slot `slot` of shared memory
void merge_shared(uint slot, uint K) {
    for (uint j = W - K; j < W; j++) insert(s_key[slot * W + j], s_idx[slot * W + j]);
}
#define EMPTY(j) g_key[j] = uint(j) < FIRST ? ~0u : 0u; g_idx[j] = uint(j) < FIRST ? 0u : NONE;
#else
KEY b_key[W];   // the block
uint b_idx[W];

// the better of places a and b of the block into a
void ce(inout uvec2 ka, inout uint ia, inout uvec2 kb, inout uint ib) {
    if (better(kb, ib, ka, ia)) {
        uvec2 k = ka; ka = kb; kb = k;
        uint i = ia; ia = ib; ib = i;
    }
}
#define CE(a, b) ce(b_key[a], b_idx[a], b_key[b], b_idx[b]);

// the block sorted, best first (bitonic: 10 stages of 8)
void sort_block() {
    CE(0, 1) CE(3, 2) CE(4, 5) CE(7, 6) CE(8, 9) CE(11, 10) CE(12, 13) CE(15, 14)
    CE(0, 2) CE(1, 3) CE(6, 4) CE(7, 5) CE(8, 10) CE(9, 11) CE(14, 12) CE(15, 13)
    CE(0, 1) CE(2, 3) CE(5, 4) CE(7, 6) CE(8, 9) CE(10, 11) CE(13, 12) CE(15, 14)
    CE(0, 4) CE(1, 5) CE(2, 6) CE(3, 7) CE(12, 8) CE(13, 9) CE(14, 10) CE(15, 11)
    CE(0, 2) CE(1, 3) CE(4, 6) CE(5, 7) CE(10, 8) CE(11, 9) CE(14, 12) CE(15, 13)
    CE(0, 1) CE(2, 3) CE(4, 5) CE(6, 7) CE(9, 8) CE(11, 10) CE(13, 12) CE(15, 14)
    CE(0, 8) CE(1, 9) CE(2, 10) CE(3, 11) CE(4, 12) CE(5, 13) CE(6, 14) CE(7, 15)
    CE(0, 4) CE(1, 5) CE(2, 6) CE(3, 7) CE(8, 12) CE(9, 13) CE(10, 14) CE(11, 15)
    CE(0, 2) CE(1, 3) CE(4, 6) CE(5, 7) CE(8, 10) CE(9, 11) CE(12, 14) CE(13, 15)
    CE(0, 1) CE(2, 3) CE(4, 5) CE(6, 7) CE(8, 9) CE(10, 11) CE(12, 13) CE(14, 15)
}

// the list becomes the best W of the list and the sorted block: place j
// takes the better of list j and block W - 1 - j (a bitonic sequence
// holding the best W), sorted by a bitonic merge (4 stages)
#define TAKE(j) if (better(b_key[W - 1u - uint(j)], b_idx[W - 1u - uint(j)], g_key[j], g_idx[j])) { g_key[j] = b_key[W - 1u - uint(j)]; g_idx[j] = b_idx[W - 1u - uint(j)]; }
#define BACK(j) b_key[j] = g_key[j]; b_idx[j] = g_idx[j];
#define KEEP(j) g_key[j] = b_key[j]; g_idx[j] = b_idx[j];
void merge_block() {
    EACHW(TAKE)
    EACHW(BACK)
    CE(0, 8) CE(1, 9) CE(2, 10) CE(3, 11) CE(4, 12) CE(5, 13) CE(6, 14) CE(7, 15)
    CE(0, 4) CE(1, 5) CE(2, 6) CE(3, 7) CE(8, 12) CE(9, 13) CE(10, 14) CE(11, 15)
    CE(0, 2) CE(1, 3) CE(4, 6) CE(5, 7) CE(8, 10) CE(9, 11) CE(12, 14) CE(13, 15)
    CE(0, 1) CE(2, 3) CE(4, 5) CE(6, 7) CE(8, 9) CE(10, 11) CE(12, 13) CE(14, 15)
    EACHW(KEEP)
}

// elements i0 .. i0 + W - 1 of the row (those before `end`) as the block
#define LOAD(j) b_key[j] = i0 + uint(j) < end ? topk_key(base, i0 + uint(j)) : uvec2(0u); b_idx[j] = i0 + uint(j) < end ? i0 + uint(j) : NONE;
void offer_elements(uint base, uint begin, uint end) {
    for (uint i0 = begin; i0 < end; i0 += W) {
        EACHW(LOAD)
        sort_block();
        merge_block();
    }
}
// the n entries of a list whose first key word is word w, as the block
#define LIST(j) b_key[j] = uint(j) < n ? uvec2(m[w + uint(j) * 3u * rows], m[w + uint(j) * 3u * rows + rows]) : uvec2(0u); b_idx[j] = uint(j) < n ? m[w + uint(j) * 3u * rows + 2u * rows] : NONE;
void offer_list(uint w, uint n, uint rows) {
    EACHW(LIST)
    merge_block();
}
// the list in slot `slot` of shared memory, as the block
#define GET(j) b_key[j] = uint(j) < K ? s_key[slot * W + uint(j)] : uvec2(0u); b_idx[j] = uint(j) < K ? s_idx[slot * W + uint(j)] : NONE;
void merge_shared(uint slot, uint K) {
    EACHW(GET)
    merge_block();
}
#define EMPTY(j) g_key[j] = uvec2(0u); g_idx[j] = NONE;
#endif

// the list's K (places FIRST ...) to slot `slot` of shared memory, to the winners, to a list in memory
#define PUT(j) if (uint(j) >= FIRST && uint(j) < FIRST + K) { s_key[slot * W + uint(j)] = g_key[j]; s_idx[slot * W + uint(j)] = g_idx[j]; }
#define WINNER(j) if (uint(j) >= FIRST && uint(j) < FIRST + K) m[w + uint(j) - FIRST] = g_idx[j];
#define ENTRY(j) if (uint(j) >= FIRST && uint(j) < FIRST + K) { uint o = w + (uint(j) - FIRST) * 3u * rows; m[o] = KEY_HIGH(g_key[j]); m[o + rows] = KEY_LOW(g_key[j]); m[o + 2u * rows] = g_idx[j]; }
void put_list(uint slot, uint K) { EACHW(PUT) }
void write_winners(uint row, uint K) {
    uint w = (prm_winners_offset >> 2) + row * K;
    EACHW(WINNER)
}
void write_list(uint w, uint K, uint rows) { EACHW(ENTRY) }

// The fold: a workgroup a row (every invocation reaches each barrier).
void fold(uint row, uint rows, uint K) {
    uint t = gl_LocalInvocationID.x, lists = prm_lists_offset >> 2;
    for (uint c = t; c < prm_chunks; c += LOCAL)   // a short last list holds fewer
        offer_list(lists + c * K * 3u * rows + row, min(K, prm_axis_size - c * prm_chunk_elements), rows);
    for (uint s = 1u; s < LOCAL; s <<= 1) {   // t takes t + s's list at level s
        if ((t & (2u * s - 1u)) == s) put_list(t >> 1, K);
        barrier();
        if ((t & (2u * s - 1u)) == 0u) merge_shared((t + s) >> 1, K);
        barrier();
    }
    if (t == 0u) write_winners(row, K);
}

void kernel_main() {
    uint rows = prm_rows, K = prm_k;
    EACHW(EMPTY)
    if (prm_fold_pass != 0u) {
        uint row = group_id();
        if (row != NONE) fold(row, rows, K);   // the same for the whole workgroup
        return;
    }
    uint u = unit_id();
    if (u == NONE) return;
    uint row = u % rows, c = u / rows, begin = c * prm_chunk_elements;
    offer_elements(dims_offset(prm_kept_at, row), begin, min(prm_axis_size, begin + prm_chunk_elements));
    if (prm_chunks == 1u) write_winners(row, K);
    else write_list((prm_lists_offset >> 2) + c * K * 3u * rows + row, K, rows);
}

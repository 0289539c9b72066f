/* TopK, NEON, with 64-bit keys: INT64, UINT64 and FLOAT64, and floats where
 * FPCR.AH changes how NaN compares (the 32-bit kernels of neon_topk.c take
 * the rest). A sequence goes 32 elements at a time: converted to keys
 * (packed 64-bit integers straight from their loads), compared two lanes at
 * a time with the heap's worst once the heap is full; only a step with a
 * key above it is offered to the bounded heap of K (src/cpu/cpu_topk.c),
 * whose order is (key, earlier index). Packed INT64 and UINT64 go 16 a
 * block once the heap is full, compared as loaded, only the elements that
 * pass offered. Parts: over sequences, a heap each
 * in scratch; with fewer sequences than parts and long rows, each row in
 * ranges, a heap each, merged on the calling thread under the same order,
 * so that any thread count gives the same answer. */
#include "neon.h"

typedef struct edmli_neon_topk_wjob {
    const edml_operator *op;
    const edmli_exec *ex;
    edmli_odo rows; /* every dim but the axis: input, values, indices */
    edmli_keys_fn keys;
    EDML_TENSOR_DATA_TYPE dtype;
    int64_t step; /* bytes between elements of the axis */
    uint64_t flip;
    uint32_t parts, sub; /* sub: ranges a row (split), else 1 */
} edmli_neon_topk_wjob;

/* A part's heap in scratch: a cache line apart from the next part's, so
 * that the workers' hot roots do not share one. At least 64 bytes past
 * the K entries: a sorted array (edmli_neon_topk_i64_sorted) has room for
 * its sentinel entry before it. */
static uint64_t edmli_neon_topk_wide_stride(const edml_operator *op)
{
    return (edmli_topk_heap_bytes(op) + 127u) & ~(uint64_t)63u;
}

static edmli_topk_entry *edmli_neon_topk_wide_heap(const edmli_neon_topk_wjob *w, uint32_t part)
{
    return (edmli_topk_entry *)(void *)(w->ex->scratch + (uint64_t)part * edmli_neon_topk_wide_stride(w->op));
}

/* Whether any of n keys, flipped, is above thr: whether the step can enter
 * a full heap whose worst key is thr (an equal key comes later: it cannot). */
static bool edmli_neon_topk_wide_enters(const uint64_t *k, uint32_t n, uint64_t flip, uint64_t thr)
{
    const uint64x2_t f = vdupq_n_u64(flip), t = vdupq_n_u64(thr);
    uint32x4_t any = vdupq_n_u32(0);
    uint32_t i = 0;
    for (; i + 2 <= n; i += 2)
        any = vorrq_u32(any, vreinterpretq_u32_u64(edmli_neon_gt_u64(veorq_u64(vld1q_u64(k + i), f), t)));
    bool hit = vgetq_lane_u32(any, 0) | vgetq_lane_u32(any, 2);
    for (; i < n; i++) hit |= (k[i] ^ flip) > thr;
    return hit;
}

#define EDMLI_NEON_TOPK_SORTED 16u /* a K up to this kept sorted, not in a heap */
#define EDMLI_NEON_TOPK_FLOOR 512u /* elements a row's floor is taken from */

/* The best K so far: a heap of K (count is K), or count entries kept
 * sorted, best first (earlier index first on ties). The flipped key e at
 * index i goes in where it beats the worst (an equal key comes later: it
 * does not), or, with fewer than K in a sorted array, goes in at its
 * place. */
typedef struct edmli_neon_topk_best {
    edmli_topk_entry *h;
    uint32_t k, count;
    uint64_t floor; /* with count < K, no key below it is offered */
    bool sorted;
} edmli_neon_topk_best;

/* The key a block's elements must be above to be offered. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_topk_bar(const edmli_neon_topk_best *b)
{
    if (b->count < b->k) return b->floor - 1; /* the floor is above 0 */
    return b->sorted ? b->h[b->k - 1].key : b->h[0].key;
}

EDMLI_ALWAYS_INLINE void edmli_neon_topk_put(const edmli_neon_topk_wjob *w, edmli_neon_topk_best *b, uint64_t e,
                                             uint32_t i)
{
    edmli_topk_entry *const h = b->h;
    const uint32_t k = b->k;
    if (!b->sorted) {
        if (e <= h[0].key) return;
        const uint64_t key = e ^ w->flip;
        edmli_topk_select(h, k, k, &key, 1, i, w->flip);
        return;
    }
    uint32_t j = b->count;
    if (j == k) {
        if (e <= h[k - 1].key) return;
        j = k - 1;
    } else {
        b->count = j + 1;
    }
    edmli_topk_entry *at = h + j; /* h[-1] is a sentinel of the highest key */
    for (; e > at[-1].key; at--) at[0] = at[-1];
    *at = (edmli_topk_entry){e, i, 0};
}

/* The elements of 16 at s (index i) whose compare lanes c0-c7 are set, put
 * in the best K one by one, each against the worst as it is then. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_i64_enter(const edmli_neon_topk_wjob *w, edmli_neon_topk_best *b,
                                                   const uint64_t *s, uint32_t i, uint64_t inv, const uint64x2_t c[8])
{
    /* a byte an element: 0xff where it passed */
    const uint16x8_t h0 = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(c[0]), vmovn_u64(c[1]))),
                                       vmovn_u32(vcombine_u32(vmovn_u64(c[2]), vmovn_u64(c[3]))));
    const uint16x8_t h1 = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(c[4]), vmovn_u64(c[5]))),
                                       vmovn_u32(vcombine_u32(vmovn_u64(c[6]), vmovn_u64(c[7]))));
    const uint64x2_t bytes = vreinterpretq_u64_u8(vcombine_u8(vmovn_u16(h0), vmovn_u16(h1)));
    for (uint32_t half = 0; half < 2; half++) {
        uint64_t m = half ? vgetq_lane_u64(bytes, 1) : vgetq_lane_u64(bytes, 0);
        while (m) {
            const uint32_t c = (uint32_t)__builtin_ctzll(m) / 8, j = 8 * half + c;
            m &= ~(0xffull << (8 * c));
            edmli_neon_topk_put(w, b, s[j] ^ inv, i + j);
        }
    }
}

/* The 16 compare lanes of the elements at s against the bar t (in the
 * elements' own bits): whether any passed. */
EDMLI_ALWAYS_INLINE uint64x2_t edmli_neon_topk_i64_test(const uint64_t *s, uint64x2_t t, uint64x2_t iv, bool sgn,
                                                        bool smallest, uint64x2_t c[8])
{
#define EDMLI_NEON_UP(v) c[v] = edmli_neon_better64(vld1q_u64(s + 2 * (v)), t, iv, sgn, smallest)
    EDMLI_NEON_UP(0), EDMLI_NEON_UP(1), EDMLI_NEON_UP(2), EDMLI_NEON_UP(3);
    EDMLI_NEON_UP(4), EDMLI_NEON_UP(5), EDMLI_NEON_UP(6), EDMLI_NEON_UP(7);
#undef EDMLI_NEON_UP
    return vorrq_u64(vorrq_u64(vorrq_u64(c[0], c[1]), vorrq_u64(c[2], c[3])),
                     vorrq_u64(vorrq_u64(c[4], c[5]), vorrq_u64(c[6], c[7])));
}

/* Packed INT64 (sgn) and UINT64, 32 then 16 elements a block: each
 * compared as it is loaded with the bar (its key back to the element's own
 * bits: e > bar where the largest are kept, < where the smallest are), a
 * block none of whose elements passes skipped; in one that passes, the
 * elements that did are put in the best K. */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_topk_i64_blocks(const edmli_neon_topk_wjob *w, const uint64_t *q, uint32_t i,
                                                        uint32_t i1, edmli_neon_topk_best *b, bool sgn, bool smallest)
{
    const uint64_t inv = (sgn ? 0x8000000000000000u : 0) ^ w->flip;
    const uint64x2_t iv = vdupq_n_u64(inv);
    uint64x2_t c[8], d[8];
    uint64x2_t t = vdupq_n_u64(edmli_neon_topk_bar(b) ^ inv);
    const uint64_t *s = q + i;
    for (const uint64_t *const end = q + (i1 - i >= 32 ? i1 - 31 : i); s < end; s += 32) {
        const uint64x2_t lo = edmli_neon_topk_i64_test(s, t, iv, sgn, smallest, c);
        const uint64x2_t hi = edmli_neon_topk_i64_test(s + 16, t, iv, sgn, smallest, d);
        if (!edmli_neon_any_u32(vreinterpretq_u32_u64(vorrq_u64(lo, hi)))) continue;
        const uint32_t at = (uint32_t)(s - q);
        if (edmli_neon_any_u32(vreinterpretq_u32_u64(lo))) edmli_neon_topk_i64_enter(w, b, s, at, inv, c);
        if (edmli_neon_any_u32(vreinterpretq_u32_u64(hi))) edmli_neon_topk_i64_enter(w, b, s + 16, at + 16, inv, d);
        t = vdupq_n_u64(edmli_neon_topk_bar(b) ^ inv);
    }
    i = (uint32_t)(s - q);
    if (i + 16 <= i1) {
        if (edmli_neon_any_u32(vreinterpretq_u32_u64(edmli_neon_topk_i64_test(q + i, t, iv, sgn, smallest, c))))
            edmli_neon_topk_i64_enter(w, b, q + i, i, inv, c);
        i += 16;
    }
    return i;
}

/* f(sgn, smallest) for w's type and direction: the block kernel compiled
 * for each of the four orders. */
#define EDMLI_NEON_BY_ORDER(w, f)                                                             \
    ((w)->flip ? ((w)->dtype == EDML_TENSOR_DATA_TYPE_INT64 ? f(true, true) : f(false, true)) \
               : ((w)->dtype == EDML_TENSOR_DATA_TYPE_INT64 ? f(true, false) : f(false, false)))

static uint32_t edmli_neon_topk_i64_run(const edmli_neon_topk_wjob *w, const uint64_t *q, uint32_t i, uint32_t i1,
                                        edmli_topk_entry *heap)
{
    edmli_neon_topk_best b = {.h = heap, .k = w->op->plan.topk.k, .count = w->op->plan.topk.k};
#define EDMLI_NEON_RUN(sgn, smallest) edmli_neon_topk_i64_blocks(w, q, i, i1, &b, sgn, smallest)
    return EDMLI_NEON_BY_ORDER(w, EDMLI_NEON_RUN);
#undef EDMLI_NEON_RUN
}

/* A floor for a row's best K (K up to 16) from its first p elements (p a
 * multiple of 16): 16 lanes' bests, their K-th best key. K elements have
 * a key at or above it, so no element below it is among the row's best. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_topk_i64_floor(const uint64_t *q, uint32_t p, uint32_t k, uint64_t inv,
                                                       bool sgn, bool smallest)
{
    const uint64x2_t iv = vdupq_n_u64(inv);
    uint64x2_t b0 = vld1q_u64(q), b1 = vld1q_u64(q + 2), b2 = vld1q_u64(q + 4), b3 = vld1q_u64(q + 6);
    uint64x2_t b4 = vld1q_u64(q + 8), b5 = vld1q_u64(q + 10), b6 = vld1q_u64(q + 12), b7 = vld1q_u64(q + 14);
    for (uint32_t i = 16; i < p; i += 16) {
#define EDMLI_NEON_KEEP(v)                                                            \
    do {                                                                              \
        const uint64x2_t x_ = vld1q_u64(q + i + 2 * (v));                             \
        b##v = vbslq_u64(edmli_neon_better64(x_, b##v, iv, sgn, smallest), x_, b##v); \
    } while (0)
        EDMLI_NEON_KEEP(0);
        EDMLI_NEON_KEEP(1);
        EDMLI_NEON_KEEP(2);
        EDMLI_NEON_KEEP(3);
        EDMLI_NEON_KEEP(4);
        EDMLI_NEON_KEEP(5);
        EDMLI_NEON_KEEP(6);
        EDMLI_NEON_KEEP(7);
#undef EDMLI_NEON_KEEP
    }
    const uint64x2_t b[8] = {b0, b1, b2, b3, b4, b5, b6, b7};
    uint64_t top[17] = {UINT64_MAX}; /* top[0]: a sentinel; then the lanes' keys, sorted in place, best first */
    for (uint32_t v = 0; v < 8; v++) vst1q_u64(top + 1 + 2 * v, veorq_u64(b[v], iv));
    for (uint32_t j = 2; j <= 16; j++) {
        const uint64_t x = top[j];
        uint64_t *at = top + j;
        for (; x > at[-1]; at--) at[0] = at[-1];
        *at = x;
    }
    return top[k];
}

/* A K of up to EDMLI_NEON_TOPK_SORTED along a whole packed row of INT64 or
 * UINT64: the best K kept sorted, best first, each entry put in place by
 * moving the worse ones down a slot, then written as it is. A floor from
 * the row's first elements keeps all but the few above it from being put
 * in at all before the array is full; without one (a floor of the lowest
 * key) the first K go in in order. */
static void edmli_neon_topk_i64_sorted(const edmli_neon_topk_wjob *w, const uint64_t *q, edmli_topk_entry *best)
{
    const uint32_t k = w->op->plan.topk.k, n = w->op->plan.topk.axis_size;
    const uint64_t inv = (w->dtype == EDML_TENSOR_DATA_TYPE_INT64 ? 0x8000000000000000u : 0) ^ w->flip;
    const uint32_t p = (n < EDMLI_NEON_TOPK_FLOOR ? n : EDMLI_NEON_TOPK_FLOOR) & ~15u;
    best[0] = (edmli_topk_entry){UINT64_MAX, 0, 0}; /* the sentinel: the array is best + 1 */
    edmli_neon_topk_best b = {.h = best + 1, .k = k, .sorted = true};
    uint32_t i = 0;
#define EDMLI_NEON_FLOOR(sgn, smallest) edmli_neon_topk_i64_floor(q, p, k, inv, sgn, smallest)
    if (p >= 16) b.floor = EDMLI_NEON_BY_ORDER(w, EDMLI_NEON_FLOOR);
#undef EDMLI_NEON_FLOOR
    if (b.floor == 0)
        for (; i < k; i++) edmli_neon_topk_put(w, &b, q[i] ^ inv, i);
#define EDMLI_NEON_SORTED(sgn, smallest) edmli_neon_topk_i64_blocks(w, q, i, n, &b, sgn, smallest)
    i = EDMLI_NEON_BY_ORDER(w, EDMLI_NEON_SORTED);
#undef EDMLI_NEON_SORTED
    for (; i < n; i++) edmli_neon_topk_put(w, &b, q[i] ^ inv, i);
}

/* The best K of elements [i0, i1) of the sequence at in, into heap. */
static void edmli_neon_topk_wide_range(const edmli_neon_topk_wjob *w, const uint8_t *in, uint32_t i0, uint32_t i1,
                                       edmli_topk_entry *heap)
{
    const uint32_t k = w->op->plan.topk.k;
    uint64_t keys[EDMLI_NEON_WIDE_CHUNK];
    uint32_t count = 0;
    const bool packed = w->step == 8 && w->dtype != EDML_TENSOR_DATA_TYPE_FLOAT64;
    for (uint32_t i = i0; i < i1;) {
        if (packed && count == k) { /* full: the rest by blocks, the last few below */
            i = edmli_neon_topk_i64_run(w, (const uint64_t *)(const void *)in, i, i1, heap);
            if (i == i1) break;
        }
        uint32_t n = i1 - i < EDMLI_NEON_WIDE_CHUNK ? i1 - i : EDMLI_NEON_WIDE_CHUNK;
        if (packed && count < k && n > k - count) n = k - count; /* to full, then blocks */
        edmli_neon_keys64(w->dtype, w->keys, in + (int64_t)i * w->step, w->step, n, keys);
        if (count < k || edmli_neon_topk_wide_enters(keys, n, w->flip, heap[0].key))
            count = edmli_topk_select(heap, k, count, keys, n, i, w->flip);
        i += n;
    }
}

/* Part `part`: whole sequences, or (split) one range of a row. */
static void edmli_neon_topk_wide_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_topk_wjob *w = arg;
    const edmli_topk_plan *p = &w->op->plan.topk;
    edmli_topk_entry *heap = edmli_neon_topk_wide_heap(w, part);
    edmli_odo o = w->rows;
    uint64_t u0, u1;
    if (w->sub > 1) {
        edmli_cpu_range(p->axis_size, w->sub, part % w->sub, 1, &u0, &u1);
        edmli_odo_seek(&o, part / w->sub);
        edmli_neon_topk_wide_range(w, w->ex->in[0] + o.off[0], (uint32_t)u0, (uint32_t)u1, heap);
        return;
    }
    edmli_cpu_range(edmli_odo_count(&o), w->parts, part, 1, &u0, &u1);
    edmli_odo_seek(&o, u0);
    const bool sorted = w->step == 8 && p->k <= EDMLI_NEON_TOPK_SORTED && p->axis_size > p->k &&
                        (w->dtype == EDML_TENSOR_DATA_TYPE_INT64 || w->dtype == EDML_TENSOR_DATA_TYPE_UINT64);
    for (uint64_t u = u0; u < u1; u++, edmli_odo_next(&o)) {
        const uint8_t *in = w->ex->in[0] + o.off[0];
        if (sorted) {
            edmli_neon_topk_i64_sorted(w, (const uint64_t *)(const void *)in, heap);
            edmli_topk_write(w->op, heap + 1, in, w->ex->out[0] + o.off[1], w->ex->out[1] + o.off[2]);
            continue;
        }
        edmli_neon_topk_wide_range(w, in, 0, p->axis_size, heap);
        edmli_topk_drain(heap, p->k);
        edmli_topk_write(w->op, heap, in, w->ex->out[0] + o.off[1], w->ex->out[1] + o.off[2]);
    }
}

/* Split rows: each row's ranges' heaps merged into its first, written. */
static void edmli_neon_topk_wide_merge(const edmli_neon_topk_wjob *w)
{
    const uint32_t k = w->op->plan.topk.k;
    edmli_odo o = w->rows;
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o)) {
        edmli_topk_entry *best = edmli_neon_topk_wide_heap(w, (uint32_t)r * w->sub);
        for (uint32_t s = 1; s < w->sub; s++)
            edmli_topk_merge(best, k, edmli_neon_topk_wide_heap(w, (uint32_t)r * w->sub + s), k);
        edmli_topk_drain(best, k);
        edmli_topk_write(w->op, best, w->ex->in[0] + o.off[0], w->ex->out[0] + o.off[1], w->ex->out[1] + o.off[2]);
    }
}

uint64_t edmli_neon_topk_wide_temp_bytes(const edml_operator *op)
{
    return (uint64_t)(op->workers ? op->workers : 1) * edmli_neon_topk_wide_stride(op);
}

edml_status edmli_neon_topk_wide(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    const uint32_t elem[3] = {ti->elem_size, tv->elem_size, tx->elem_size};
    edmli_neon_topk_wjob w = {.op = op,
                              .ex = ex,
                              .keys = edmli_keys_for(ti->dtype),
                              .dtype = ti->dtype,
                              .step = (int64_t)ti->strides[p->axis] * ti->elem_size,
                              .flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT64_MAX : 0,
                              .sub = 1};
    edmli_odo_init(&w.rows, 3);
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis) continue;
        const uint32_t st[3] = {ti->strides[d], tv->strides[d], tx->strides[d]};
        edmli_odo_dim(&w.rows, ti->sizes[d], st, elem);
    }
    const uint64_t rows = edmli_odo_count(&w.rows), bytes = ti->elem_count * ti->elem_size;
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, bytes);
    w.parts = edmli_cpu_parts(op, rows, bytes);
    if (rows < most) { /* each range keeps 64 K elements or more (the heap's cost is about log K each) */
        const uint64_t sub = most / rows, longest = p->axis_size / (64u * (uint64_t)p->k);
        w.sub = (uint32_t)(sub < longest ? sub : longest ? longest : 1);
    }
    if (w.sub == 1) return edmli_cpu_parallel(ex, w.parts, edmli_neon_topk_wide_part, &w);
    edml_status s = edmli_cpu_parallel(ex, (uint32_t)rows * w.sub, edmli_neon_topk_wide_part, &w);
    if (s) return s; /* nothing written yet */
    edmli_neon_topk_wide_merge(&w);
    return EDML_STATUS_OK;
}

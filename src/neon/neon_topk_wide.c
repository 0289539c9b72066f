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
 * that the workers' hot roots do not share one. */
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

/* The worst of the best K so far: a heap's root, or a sorted array's last. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_topk_worst(const edmli_topk_entry *h, uint32_t k, bool sorted)
{
    return sorted ? h[k - 1].key : h[0].key;
}

/* key (the element's, before the direction's flip) at index i offered to a
 * full heap, or to a full sorted array: in where it beats the worst (an
 * equal key comes later: it does not). */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_offer(const edmli_neon_topk_wjob *w, edmli_topk_entry *h, uint64_t key,
                                               uint32_t i, bool sorted)
{
    const uint32_t k = w->op->plan.topk.k;
    const uint64_t e = key ^ w->flip;
    if (e <= edmli_neon_topk_worst(h, k, sorted)) return;
    if (!sorted) {
        edmli_topk_select(h, k, k, &key, 1, i, w->flip);
        return;
    }
    uint32_t j = k - 1;
    for (; j > 0 && e > h[j - 1].key; j--) h[j] = h[j - 1];
    h[j] = (edmli_topk_entry){e, i, 0};
}

/* Packed INT64 (sgn) and UINT64 once the heap is full, 16 elements a
 * block: each compared as it is loaded with the heap's worst (its key back
 * to the element's own bits: e > worst where the largest are kept, < where
 * the smallest are), a block none of whose elements enters skipped; in one
 * that passes, the elements that did are offered to the heap one by one
 * (each against the heap's worst as it is then). */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_topk_i64_blocks(const edmli_neon_topk_wjob *w, const uint64_t *q, uint32_t i,
                                                        uint32_t i1, edmli_topk_entry *heap, bool sgn, bool smallest,
                                                        bool sorted)
{
    const uint32_t k = w->op->plan.topk.k;
    const uint64_t sign = sgn ? 0x8000000000000000u : 0, inv = sign ^ w->flip;
    const uint64x2_t iv = vdupq_n_u64(inv);
    for (; i + 16 <= i1; i += 16) {
        const uint64x2_t t = vdupq_n_u64(edmli_neon_topk_worst(heap, k, sorted) ^ inv);
        const uint64_t *s = q + i;
#define EDMLI_NEON_UP(v) edmli_neon_better64(vld1q_u64(s + v), t, iv, sgn, smallest)
        const uint64x2_t c0 = EDMLI_NEON_UP(0), c1 = EDMLI_NEON_UP(2), c2 = EDMLI_NEON_UP(4), c3 = EDMLI_NEON_UP(6);
        const uint64x2_t c4 = EDMLI_NEON_UP(8), c5 = EDMLI_NEON_UP(10), c6 = EDMLI_NEON_UP(12), c7 = EDMLI_NEON_UP(14);
#undef EDMLI_NEON_UP
        const uint64x2_t any =
            vorrq_u64(vorrq_u64(vorrq_u64(c0, c1), vorrq_u64(c2, c3)), vorrq_u64(vorrq_u64(c4, c5), vorrq_u64(c6, c7)));
        if (!edmli_neon_any_u32(vreinterpretq_u32_u64(any))) continue;
        /* a byte an element: 0xff where it passed */
        const uint16x8_t h0 = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(c0), vmovn_u64(c1))),
                                           vmovn_u32(vcombine_u32(vmovn_u64(c2), vmovn_u64(c3))));
        const uint16x8_t h1 = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(c4), vmovn_u64(c5))),
                                           vmovn_u32(vcombine_u32(vmovn_u64(c6), vmovn_u64(c7))));
        const uint64x2_t bytes = vreinterpretq_u64_u8(vcombine_u8(vmovn_u16(h0), vmovn_u16(h1)));
        for (uint32_t half = 0; half < 2; half++) {
            uint64_t m = half ? vgetq_lane_u64(bytes, 1) : vgetq_lane_u64(bytes, 0);
            while (m) {
                const uint32_t b = (uint32_t)__builtin_ctzll(m) / 8, j = 8 * half + b;
                m &= ~(0xffull << (8 * b));
                edmli_neon_topk_offer(w, heap, s[j] ^ sign, i + j, sorted);
            }
        }
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
#define EDMLI_NEON_RUN(sgn, smallest) edmli_neon_topk_i64_blocks(w, q, i, i1, heap, sgn, smallest, false)
    return EDMLI_NEON_BY_ORDER(w, EDMLI_NEON_RUN);
#undef EDMLI_NEON_RUN
}

/* A K of up to EDMLI_NEON_TOPK_SORTED along a whole packed row of INT64 or
 * UINT64: the best K kept sorted, best first (earlier index first on ties),
 * each entry put in place by moving the worse ones down a slot, then
 * written as it is. */
static void edmli_neon_topk_i64_sorted(const edmli_neon_topk_wjob *w, const uint64_t *q, edmli_topk_entry *best)
{
    const uint32_t k = w->op->plan.topk.k, n = w->op->plan.topk.axis_size;
    const uint64_t sign = w->dtype == EDML_TENSOR_DATA_TYPE_INT64 ? 0x8000000000000000u : 0;
    for (uint32_t i = 0; i < k; i++) { /* the first K in order */
        const edmli_topk_entry x = {q[i] ^ sign ^ w->flip, i, 0};
        uint32_t j = i;
        for (; j > 0 && x.key > best[j - 1].key; j--) best[j] = best[j - 1];
        best[j] = x;
    }
#define EDMLI_NEON_SORTED(sgn, smallest) edmli_neon_topk_i64_blocks(w, q, k, n, best, sgn, smallest, true)
    uint32_t i = EDMLI_NEON_BY_ORDER(w, EDMLI_NEON_SORTED);
#undef EDMLI_NEON_SORTED
    for (; i < n; i++) edmli_neon_topk_offer(w, best, q[i] ^ sign, i, true);
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
        } else {
            edmli_neon_topk_wide_range(w, in, 0, p->axis_size, heap);
            edmli_topk_drain(heap, p->k);
        }
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

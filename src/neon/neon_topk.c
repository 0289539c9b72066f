/* TopK, NEON: the reference's bounded heap, behind a vector threshold test.
 * Once the heap holds K entries its worst key is a threshold that only rises;
 * 4 or 8 keys at a time are compared with it and only the rare element above
 * it goes to the heap. For a packed axis one row runs at a time; for a strided
 * axis whose neighbouring rows are packed (Axis 0 of a matrix), 4 rows run
 * side by side, a lane and a heap each. 64-bit types take the reference. */
#include "neon.h"

/* the heap's threshold in the 32-bit key space (see edmli_neon_load_keys) */
static inline uint32_t edmli_neon_thr32(const edmli_topk_entry *heap) { return (uint32_t)heap[0].key; }

static inline void edmli_neon_offer(edmli_topk_entry *heap, uint32_t k, edmli_keys_fn keys_of, const uint8_t *p,
                                    uint32_t idx, uint64_t flip)
{
    uint64_t key;
    keys_of(p, 0, 1, &key);
    edmli_topk_select(heap, k, k, &key, 1, idx, flip);
}

/* Fills a heap with the first k elements (stride in bytes). */
static void edmli_neon_topk_fill(edmli_topk_entry *heap, uint32_t k, edmli_keys_fn keys_of, const uint8_t *p,
                                 int64_t stride, uint64_t flip)
{
    uint64_t keys[EDMLI_CPU_CHUNK];
    for (uint32_t i = 0, count = 0; i < k;) {
        uint32_t m = k - i < EDMLI_CPU_CHUNK ? k - i : EDMLI_CPU_CHUNK;
        keys_of(p + (int64_t)i * stride, stride, m, keys);
        count = edmli_topk_select(heap, k, count, keys, m, i, flip);
        i += m;
    }
}

/* One packed row. Always inlined into a function per data type (below), so
 * that the key conversion is straight-line code. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_row(const edml_operator *op, const uint8_t *in, edmli_topk_entry *heap,
                                             EDML_TENSOR_DATA_TYPE t)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint32_t es = op->inputs[0].elem_size, n = p->axis_size, k = p->k;
    const edmli_keys_fn keys_of = edmli_keys_for(t);
    const uint64_t flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT64_MAX : 0;
    const uint32x4_t flip32 = vdupq_n_u32((uint32_t)flip);
    uint32_t i = k;
    edmli_neon_topk_fill(heap, k, keys_of, in, es, flip);
    uint32x4_t thr = vdupq_n_u32(edmli_neon_thr32(heap));
    for (; i + 8 <= n; i += 8) {
        uint32x4_t k0 = veorq_u32(edmli_neon_load_keys(t, in + (uint64_t)i * es), flip32);
        uint32x4_t k1 = veorq_u32(edmli_neon_load_keys(t, in + (uint64_t)(i + 4) * es), flip32);
        uint32x4_t m = vorrq_u32(vcgtq_u32(k0, thr), vcgtq_u32(k1, thr));
        if (!edmli_neon_any_u32(m)) continue;
        uint32_t kk[8], t32 = edmli_neon_thr32(heap);
        vst1q_u32(kk, k0);
        vst1q_u32(kk + 4, k1);
        for (uint32_t j = 0; j < 8; j++) { /* only the lanes above the threshold, as it rises */
            if (kk[j] <= t32) continue;
            edmli_neon_offer(heap, k, keys_of, in + (uint64_t)(i + j) * es, i + j, flip);
            t32 = edmli_neon_thr32(heap);
        }
        thr = vdupq_n_u32(edmli_neon_thr32(heap));
    }
    for (; i < n; i++) edmli_neon_offer(heap, k, keys_of, in + (uint64_t)i * es, i, flip);
}

/* 4 rows side by side: element i of row j at in + i * step + j * es. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_rows4(const edml_operator *op, const uint8_t *in, int64_t step,
                                               edmli_topk_entry *heaps, EDML_TENSOR_DATA_TYPE t)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint32_t es = op->inputs[0].elem_size, n = p->axis_size, k = p->k;
    const edmli_keys_fn keys_of = edmli_keys_for(t);
    const uint64_t flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT64_MAX : 0;
    const uint32x4_t flip32 = vdupq_n_u32((uint32_t)flip);
    uint32_t th[4];
    for (uint32_t j = 0; j < 4; j++) { /* fill the heaps */
        edmli_neon_topk_fill(heaps + (uint64_t)j * k, k, keys_of, in + j * es, step, flip);
        th[j] = edmli_neon_thr32(heaps + (uint64_t)j * k);
    }
    uint32x4_t thr = vld1q_u32(th);
    for (uint32_t i = k; i < n; i++) {
        const uint8_t *row = in + (int64_t)i * step;
        uint32x4_t m = vcgtq_u32(veorq_u32(edmli_neon_load_keys(t, row), flip32), thr);
        if (!edmli_neon_any_u32(m)) continue;
        uint32_t mb[4];
        vst1q_u32(mb, m);
        for (uint32_t j = 0; j < 4; j++) {
            if (!mb[j]) continue;
            edmli_neon_offer(heaps + (uint64_t)j * k, k, keys_of, row + j * es, i, flip);
            th[j] = edmli_neon_thr32(heaps + (uint64_t)j * k);
        }
        thr = vld1q_u32(th);
    }
}

#define EDMLI_NEON_TOPK_TYPE(T, DT)                                                                         \
    static void edmli_neon_topk_row_##T(const edml_operator *op, const uint8_t *in, edmli_topk_entry *heap) \
    {                                                                                                       \
        edmli_neon_topk_row(op, in, heap, DT);                                                              \
    }                                                                                                       \
    static void edmli_neon_topk_rows4_##T(const edml_operator *op, const uint8_t *in, int64_t step,         \
                                          edmli_topk_entry *heaps)                                          \
    {                                                                                                       \
        edmli_neon_topk_rows4(op, in, step, heaps, DT);                                                     \
    }
EDMLI_NEON_TOPK_TYPE(f32, EDML_TENSOR_DATA_TYPE_FLOAT32)
EDMLI_NEON_TOPK_TYPE(f16, EDML_TENSOR_DATA_TYPE_FLOAT16)
EDMLI_NEON_TOPK_TYPE(u32, EDML_TENSOR_DATA_TYPE_UINT32)
EDMLI_NEON_TOPK_TYPE(i32, EDML_TENSOR_DATA_TYPE_INT32)
EDMLI_NEON_TOPK_TYPE(u16, EDML_TENSOR_DATA_TYPE_UINT16)
EDMLI_NEON_TOPK_TYPE(i16, EDML_TENSOR_DATA_TYPE_INT16)
EDMLI_NEON_TOPK_TYPE(u8, EDML_TENSOR_DATA_TYPE_UINT8)
EDMLI_NEON_TOPK_TYPE(i8, EDML_TENSOR_DATA_TYPE_INT8)

typedef void (*edmli_neon_row_fn)(const edml_operator *op, const uint8_t *in, edmli_topk_entry *heap);
typedef void (*edmli_neon_rows4_fn)(const edml_operator *op, const uint8_t *in, int64_t step, edmli_topk_entry *heaps);

static void edmli_neon_topk_fns(EDML_TENSOR_DATA_TYPE t, edmli_neon_row_fn *row, edmli_neon_rows4_fn *rows4)
{
#define EDMLI_NEON_TOPK_CASE(T, DT) \
    case DT: *row = edmli_neon_topk_row_##T, *rows4 = edmli_neon_topk_rows4_##T; break;
    switch (t) {
        EDMLI_NEON_TOPK_CASE(f32, EDML_TENSOR_DATA_TYPE_FLOAT32)
        EDMLI_NEON_TOPK_CASE(f16, EDML_TENSOR_DATA_TYPE_FLOAT16)
        EDMLI_NEON_TOPK_CASE(u32, EDML_TENSOR_DATA_TYPE_UINT32)
        EDMLI_NEON_TOPK_CASE(i32, EDML_TENSOR_DATA_TYPE_INT32)
        EDMLI_NEON_TOPK_CASE(u16, EDML_TENSOR_DATA_TYPE_UINT16)
        EDMLI_NEON_TOPK_CASE(i16, EDML_TENSOR_DATA_TYPE_INT16)
        EDMLI_NEON_TOPK_CASE(u8, EDML_TENSOR_DATA_TYPE_UINT8)
    default: *row = edmli_neon_topk_row_i8, *rows4 = edmli_neon_topk_rows4_i8; break;
    }
#undef EDMLI_NEON_TOPK_CASE
}

edml_status edmli_neon_topk(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    if (!edmli_neon_key32(ti->dtype)) return edmli_ref_topk(op, ex);
    const uint32_t last = ti->rank - 1;
    const bool packed_axis = ti->strides[p->axis] == 1;
    /* side by side: the axis is not last, the last dim is packed */
    const bool side = !packed_axis && p->axis != last && ti->strides[last] == 1 && ti->sizes[last] >= 4;
    if (!packed_axis && !side) return edmli_ref_topk(op, ex);
    const uint32_t elem[3] = {ti->elem_size, tv->elem_size, tx->elem_size};
    edmli_odo o;
    edmli_odo_init(&o, 3);
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis || (side && d == last)) continue;
        const uint32_t st[3] = {ti->strides[d], tv->strides[d], tx->strides[d]};
        edmli_odo_dim(&o, ti->sizes[d], st, elem);
    }
    edmli_topk_entry *heap = (edmli_topk_entry *)ex->scratch;
    edmli_neon_row_fn topk_row;
    edmli_neon_rows4_fn topk_rows4;
    edmli_neon_topk_fns(ti->dtype, &topk_row, &topk_rows4);
    const int64_t step = (int64_t)ti->strides[p->axis] * ti->elem_size;
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o)) {
        const uint8_t *in = ex->in[0] + o.off[0];
        uint8_t *val = ex->out[0] + o.off[1], *idx = ex->out[1] + o.off[2];
        if (!side) {
            topk_row(op, in, heap);
            edmli_topk_drain(heap, p->k);
            edmli_topk_write(op, heap, in, val, idx);
            continue;
        }
        const uint32_t cols = ti->sizes[last];
        const int64_t vs = (int64_t)tv->strides[last] * tv->elem_size, xs = (int64_t)tx->strides[last] * tx->elem_size;
        for (uint32_t c = 0; c < cols; c += 4) {
            uint32_t c0 = c + 4 <= cols ? c : cols - 4; /* the last group overlaps the one before */
            const uint8_t *col = in + (uint64_t)c0 * ti->elem_size;
            topk_rows4(op, col, step, heap);
            for (uint32_t j = 0; j < 4; j++) {
                edmli_topk_entry *h = heap + (uint64_t)j * p->k;
                edmli_topk_drain(h, p->k);
                edmli_topk_write(op, h, col + j * ti->elem_size, val + (c0 + j) * vs, idx + (c0 + j) * xs);
            }
        }
    }
    return EDML_STATUS_OK;
}

/* TopK, NEON: the reference's bounded heap, behind a vector threshold test.
 * Once the heap holds K entries its worst key is a threshold that only rises;
 * 4 or 8 keys at a time are compared with it and only the rare element above
 * it goes to the heap. For a packed axis one row runs at a time; for a strided
 * axis whose neighbouring rows are packed (Axis 0 of a matrix), 4 rows run
 * side by side, a lane and a heap each. 64-bit types take the reference.
 * Parts: over rows (or groups of 4 rows side by side), a part's heaps in its
 * own slot of scratch; with fewer rows than parts, within each row too: each
 * part keeps the top K of a range of the row, and the calling thread merges
 * a row's heaps under the same (key, index) order, so the answer is the
 * serial one for any thread count. */
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

/* Fills a heap with k elements from p, the first index `first` (stride in bytes). */
static void edmli_neon_topk_fill(edmli_topk_entry *heap, uint32_t k, edmli_keys_fn keys_of, const uint8_t *p,
                                 int64_t stride, uint32_t first, uint64_t flip)
{
    uint64_t keys[EDMLI_CPU_CHUNK];
    for (uint32_t i = 0, count = 0; i < k;) {
        uint32_t m = k - i < EDMLI_CPU_CHUNK ? k - i : EDMLI_CPU_CHUNK;
        keys_of(p + (int64_t)i * stride, stride, m, keys);
        count = edmli_topk_select(heap, k, count, keys, m, first + i, flip);
        i += m;
    }
}

/* Elements [i0, n) of one packed row, at least k of them. Always inlined
 * into a function per data type (below), so that the key conversion is
 * straight-line code. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_row(const edml_operator *op, const uint8_t *in, uint32_t i0, uint32_t n,
                                             edmli_topk_entry *heap, EDML_TENSOR_DATA_TYPE t)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint32_t es = op->inputs[0].elem_size, k = p->k;
    const edmli_keys_fn keys_of = edmli_keys_for(t);
    const uint64_t flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT64_MAX : 0;
    const uint32x4_t flip32 = vdupq_n_u32((uint32_t)flip);
    uint32_t i = i0 + k;
    edmli_neon_topk_fill(heap, k, keys_of, in + (uint64_t)i0 * es, es, i0, flip);
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
        edmli_neon_topk_fill(heaps + (uint64_t)j * k, k, keys_of, in + j * es, step, 0, flip);
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

#define EDMLI_NEON_TOPK_TYPE(T, DT)                                                                          \
    static void edmli_neon_topk_row_##T(const edml_operator *op, const uint8_t *in, uint32_t i0, uint32_t n, \
                                        edmli_topk_entry *heap)                                              \
    {                                                                                                        \
        edmli_neon_topk_row(op, in, i0, n, heap, EDML_TENSOR_DATA_TYPE_##DT);                                \
    }                                                                                                        \
    static void edmli_neon_topk_rows4_##T(const edml_operator *op, const uint8_t *in, int64_t step,          \
                                          edmli_topk_entry *heaps)                                           \
    {                                                                                                        \
        edmli_neon_topk_rows4(op, in, step, heaps, EDML_TENSOR_DATA_TYPE_##DT);                              \
    }
EDMLI_NEON_KEY32_TYPES(EDMLI_NEON_TOPK_TYPE)

typedef void (*edmli_neon_row_fn)(const edml_operator *op, const uint8_t *in, uint32_t i0, uint32_t n,
                                  edmli_topk_entry *heap);
typedef void (*edmli_neon_rows4_fn)(const edml_operator *op, const uint8_t *in, int64_t step, edmli_topk_entry *heaps);

static void edmli_neon_topk_fns(EDML_TENSOR_DATA_TYPE t, edmli_neon_row_fn *row, edmli_neon_rows4_fn *rows4)
{
#define EDMLI_CASE(T, DT) \
    case EDML_TENSOR_DATA_TYPE_##DT: *row = edmli_neon_topk_row_##T, *rows4 = edmli_neon_topk_rows4_##T; break;
    switch (t) {
        EDMLI_NEON_KEY32_TYPES(EDMLI_CASE)
    default: *row = NULL, *rows4 = NULL; break; /* the caller took the reference for other types */
    }
#undef EDMLI_CASE
}

/* One call's work: units are rows, or (side by side) per row of the other
 * dims, groups of 4 columns; `sub` parts a row when split within rows. */
typedef struct edmli_neon_topk_job {
    const edml_operator *op;
    const edmli_exec *ex;
    edmli_odo rows; /* over the dims but the axis (and, side by side, the last) */
    edmli_neon_row_fn row;
    edmli_neon_rows4_fn rows4;
    bool side;
    uint32_t cols, groups, parts, sub;
    int64_t step; /* bytes between elements of the axis */
    uint64_t units;
} edmli_neon_topk_job;

static edmli_topk_entry *edmli_neon_topk_slot(const edmli_neon_topk_job *j, uint32_t part)
{
    return (edmli_topk_entry *)(void *)j->ex->scratch + (uint64_t)part * 4 * j->op->plan.topk.k;
}

/* Group g of 4 columns side by side at the row o: columns [4g, cols), at
 * most 4; the last group starts at cols - 4 and writes only its own. */
static void edmli_neon_topk_group(const edmli_neon_topk_job *j, const edmli_odo *o, uint32_t g, edmli_topk_entry *heap)
{
    const edmli_tensor *ti = &j->op->inputs[0], *tv = &j->op->outputs[0], *tx = &j->op->outputs[1];
    const uint32_t last = ti->rank - 1, k = j->op->plan.topk.k, c = 4 * g, c0 = c + 4 <= j->cols ? c : j->cols - 4;
    const int64_t vs = (int64_t)tv->strides[last] * tv->elem_size, xs = (int64_t)tx->strides[last] * tx->elem_size;
    const uint8_t *col = j->ex->in[0] + o->off[0] + (uint64_t)c0 * ti->elem_size;
    j->rows4(j->op, col, j->step, heap);
    for (uint32_t q = c - c0; q < 4; q++) {
        edmli_topk_entry *h = heap + (uint64_t)q * k;
        edmli_topk_drain(h, k);
        edmli_topk_write(j->op, h, col + q * ti->elem_size, j->ex->out[0] + o->off[1] + (c0 + q) * vs,
                         j->ex->out[1] + o->off[2] + (c0 + q) * xs);
    }
}

/* Part `part` of the units, each whole. */
static void edmli_neon_topk_units(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_topk_job *j = arg;
    const edmli_topk_plan *p = &j->op->plan.topk;
    edmli_topk_entry *heap = edmli_neon_topk_slot(j, part);
    edmli_odo o = j->rows;
    uint64_t u0, u1;
    edmli_cpu_range(j->units, j->parts, part, 1, &u0, &u1);
    edmli_odo_seek(&o, u0 / j->groups);
    for (uint64_t u = u0, g = u0 % j->groups; u < u1; u++) {
        if (j->side) {
            edmli_neon_topk_group(j, &o, (uint32_t)g, heap);
        } else {
            const uint8_t *in = j->ex->in[0] + o.off[0];
            j->row(j->op, in, 0, p->axis_size, heap);
            edmli_topk_drain(heap, p->k);
            edmli_topk_write(j->op, heap, in, j->ex->out[0] + o.off[1], j->ex->out[1] + o.off[2]);
        }
        if (++g == j->groups) g = 0, edmli_odo_next(&o);
    }
}

/* Part `part` of rows split `sub` ways: the top K of its range of its row. */
static void edmli_neon_topk_range(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_topk_job *j = arg;
    edmli_odo o = j->rows;
    uint64_t i0, i1;
    edmli_cpu_range(j->op->plan.topk.axis_size, j->sub, part % j->sub, 1, &i0, &i1);
    edmli_odo_seek(&o, part / j->sub);
    j->row(j->op, j->ex->in[0] + o.off[0], (uint32_t)i0, (uint32_t)i1, edmli_neon_topk_slot(j, part));
}

/* Few long packed rows: each in `sub` ranges at once, then on this thread
 * each row's heaps merged in part order, sorted and written. */
static void edmli_neon_topk_split(edmli_neon_topk_job *j)
{
    const uint32_t k = j->op->plan.topk.k;
    j->parts = (uint32_t)j->units * j->sub;
    edmli_cpu_parallel(j->ex, j->parts, edmli_neon_topk_range, j);
    edmli_odo o = j->rows;
    for (uint32_t r = 0; r < j->units; r++, edmli_odo_next(&o)) {
        edmli_topk_entry *heap = edmli_neon_topk_slot(j, r * j->sub);
        for (uint32_t s = 1; s < j->sub; s++) edmli_topk_merge(heap, k, edmli_neon_topk_slot(j, r * j->sub + s), k);
        edmli_topk_drain(heap, k);
        edmli_topk_write(j->op, heap, j->ex->in[0] + o.off[0], j->ex->out[0] + o.off[1], j->ex->out[1] + o.off[2]);
    }
}

/* Ways to split each of `rows` rows so that `parts` are busy: none (1)
 * unless every range keeps 64 K elements or more (filling a heap costs
 * about log K a element, scanning well under one). */
static uint32_t edmli_neon_topk_sub(const edmli_topk_plan *p, uint64_t rows, uint32_t parts)
{
    if (rows >= parts) return 1;
    uint64_t sub = parts / rows, most = p->axis_size / (64u * (uint64_t)p->k);
    return (uint32_t)(sub < most ? sub : most ? most : 1);
}

uint64_t edmli_neon_topk_temp_bytes(const edml_operator *op)
{
    return (uint64_t)(op->workers ? op->workers : 1) * 4u * edmli_topk_heap_bytes(op);
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
    edmli_neon_topk_job j = {.op = op, .ex = ex, .side = side, .cols = ti->sizes[last], .groups = 1};
    j.step = (int64_t)ti->strides[p->axis] * ti->elem_size;
    edmli_odo_init(&j.rows, 3);
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis || (side && d == last)) continue;
        const uint32_t st[3] = {ti->strides[d], tv->strides[d], tx->strides[d]};
        edmli_odo_dim(&j.rows, ti->sizes[d], st, elem);
    }
    if (side) j.groups = (j.cols + 3) / 4;
    edmli_neon_topk_fns(ti->dtype, &j.row, &j.rows4);
    const uint64_t rows = edmli_odo_count(&j.rows);
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, ti->elem_count * ti->elem_size);
    j.units = rows * j.groups;
    j.sub = side ? 1 : edmli_neon_topk_sub(p, rows, most);
    if (j.sub > 1) {
        edmli_neon_topk_split(&j);
        return EDML_STATUS_OK;
    }
    j.parts = j.units < most ? (uint32_t)j.units : most;
    edmli_cpu_parallel(ex, j.parts, edmli_neon_topk_units, &j);
    return EDML_STATUS_OK;
}

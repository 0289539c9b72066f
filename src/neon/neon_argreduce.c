/* ArgMin and ArgMax, NEON: 32-bit order keys in lanes with a best key and
 * its index per lane. Two shapes are vectorized:
 *  - horizontal: the innermost input dim is reduced and packed: each lane
 *    walks every 4th element and the lanes are merged at the end;
 *  - vertical: the innermost input dim is kept and packed: 4 neighbouring
 *    outputs at once, one lane each, over the whole reduced set.
 * A lane takes a new element on > (first index wins) or >= (last wins); lanes
 * merge by key, then by index, so ties resolve exactly as the reference does.
 * 64-bit types and other layouts take the reference kernel. */
#include "neon.h"

typedef struct edmli_neon_red {
    edmli_odo outer;  /* over kept dims (input, output) */
    edmli_odo inner;  /* over reduced dims but the run (input) */
    uint32_t run;     /* elements of the innermost reduced dim */
    int64_t run_step; /* its stride, bytes */
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t es;
    uint32_t invert; /* ArgMin: ~key, NaN kept on top */
    bool is_float, take_last;
} edmli_neon_red;

/* a (key, index) better than b under the tie rule */
static inline bool edmli_neon_better(uint32_t ka, uint32_t ia, uint32_t kb, uint32_t ib, bool take_last)
{
    return ka > kb || (ka == kb && (take_last ? ia > ib : ia < ib));
}

/* ArgMin reverses the order but keeps NaN on top, without branches:
 * inv is all ones for ArgMin, keepnan all ones for ArgMin of a float type. */
static inline uint32x4_t edmli_neon_red_adjust(uint32x4_t k, uint32x4_t inv, uint32x4_t keepnan)
{
    uint32x4_t nan = vandq_u32(vceqq_u32(k, vdupq_n_u32(0xffffffffu)), keepnan);
    return vorrq_u32(veorq_u32(k, inv), nan);
}

static inline uint32_t edmli_neon_red_key1(const edmli_neon_red *r, const uint8_t *p)
{
    uint64_t k;
    edmli_keys_for(r->dtype)(p, 0, 1, &k);
    uint32_t k32 = k == EDMLI_NAN_KEY ? 0xffffffffu : (uint32_t)k;
    if (r->invert && !(r->is_float && k32 == 0xffffffffu)) k32 = ~k32;
    return k32;
}

/* Merges the lanes (best key, then first or last index) with a scalar candidate. */
static uint32_t edmli_neon_merge(uint32x4_t best, uint32x4_t bidx, bool any_v, uint32_t sbest, uint32_t sidx,
                                 bool any_s, bool take_last)
{
    uint32_t kb[4], ib[4];
    vst1q_u32(kb, best);
    vst1q_u32(ib, bidx);
    uint32_t bk = sbest, bi = sidx;
    bool have = any_s;
    for (int j = 0; j < 4 && any_v; j++)
        if (!have || edmli_neon_better(kb[j], ib[j], bk, bi, take_last)) bk = kb[j], bi = ib[j], have = true;
    return bi;
}

/* One reduced set, horizontally. Always inlined into a function per data
 * type and tie rule (below), so that the key conversion and the compare are
 * straight-line code. */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_reduce_set(edmli_neon_red *r, const uint8_t *base, EDML_TENSOR_DATA_TYPE dt,
                                                   bool last)
{
    static const uint32_t lanes[4] = {0, 1, 2, 3};
    const uint32x4_t lane = vld1q_u32(lanes), four = vdupq_n_u32(4);
    const uint32x4_t inv = vdupq_n_u32(r->invert ? 0xffffffffu : 0);
    const uint32x4_t keepnan = vdupq_n_u32(r->invert && r->is_float ? 0xffffffffu : 0);
    const uint32_t es = edml_data_type_size(dt);
    uint32x4_t best = vdupq_n_u32(0), bidx = vdupq_n_u32(0);
    uint32_t sbest = 0, sidx = 0, flat = 0;
    bool any_v = false, any_s = false;
    const uint64_t sets = edmli_odo_count(&r->inner);
    r->inner.off[0] = 0;
    for (uint64_t s = 0; s < sets; s++, edmli_odo_next(&r->inner)) {
        const uint8_t *p = base + r->inner.off[0];
        uint32_t i = 0;
        if (r->run >= 4) {
            uint32x4_t idx = vaddq_u32(lane, vdupq_n_u32(flat));
            if (!any_v) {
                best = edmli_neon_red_adjust(edmli_neon_load_keys(dt, p), inv, keepnan);
                bidx = idx;
                idx = vaddq_u32(idx, four);
                i = 4;
                any_v = true;
            }
            for (; i + 4 <= r->run; i += 4, idx = vaddq_u32(idx, four)) {
                uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, p + (uint64_t)i * es), inv, keepnan);
                uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
                best = vbslq_u32(m, k, best);
                bidx = vbslq_u32(m, idx, bidx);
            }
        }
        for (; i < r->run; i++) {
            uint32_t k = edmli_neon_red_key1(r, p + (uint64_t)i * es);
            if (!any_s || k > sbest || (last && k == sbest)) sbest = k, sidx = flat + i, any_s = true;
        }
        flat += r->run;
    }
    return edmli_neon_merge(best, bidx, any_v, sbest, sidx, any_s, last);
}

#define EDMLI_NEON_REDUCE_SETS(T, DT)                                                \
    static uint32_t edmli_neon_reduce_first_##T(edmli_neon_red *r, const uint8_t *b) \
    {                                                                                \
        return edmli_neon_reduce_set(r, b, DT, false);                               \
    }                                                                                \
    static uint32_t edmli_neon_reduce_last_##T(edmli_neon_red *r, const uint8_t *b)  \
    {                                                                                \
        return edmli_neon_reduce_set(r, b, DT, true);                                \
    }
EDMLI_NEON_REDUCE_SETS(f32, EDML_TENSOR_DATA_TYPE_FLOAT32)
EDMLI_NEON_REDUCE_SETS(f16, EDML_TENSOR_DATA_TYPE_FLOAT16)
EDMLI_NEON_REDUCE_SETS(u32, EDML_TENSOR_DATA_TYPE_UINT32)
EDMLI_NEON_REDUCE_SETS(i32, EDML_TENSOR_DATA_TYPE_INT32)
EDMLI_NEON_REDUCE_SETS(u16, EDML_TENSOR_DATA_TYPE_UINT16)
EDMLI_NEON_REDUCE_SETS(i16, EDML_TENSOR_DATA_TYPE_INT16)
EDMLI_NEON_REDUCE_SETS(u8, EDML_TENSOR_DATA_TYPE_UINT8)
EDMLI_NEON_REDUCE_SETS(i8, EDML_TENSOR_DATA_TYPE_INT8)

typedef uint32_t (*edmli_neon_reduce_fn)(edmli_neon_red *r, const uint8_t *base);

static edmli_neon_reduce_fn edmli_neon_reduce_for(EDML_TENSOR_DATA_TYPE t, bool last)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return last ? edmli_neon_reduce_last_f32 : edmli_neon_reduce_first_f32;
    case EDML_TENSOR_DATA_TYPE_FLOAT16: return last ? edmli_neon_reduce_last_f16 : edmli_neon_reduce_first_f16;
    case EDML_TENSOR_DATA_TYPE_UINT32: return last ? edmli_neon_reduce_last_u32 : edmli_neon_reduce_first_u32;
    case EDML_TENSOR_DATA_TYPE_INT32: return last ? edmli_neon_reduce_last_i32 : edmli_neon_reduce_first_i32;
    case EDML_TENSOR_DATA_TYPE_UINT16: return last ? edmli_neon_reduce_last_u16 : edmli_neon_reduce_first_u16;
    case EDML_TENSOR_DATA_TYPE_INT16: return last ? edmli_neon_reduce_last_i16 : edmli_neon_reduce_first_i16;
    case EDML_TENSOR_DATA_TYPE_UINT8: return last ? edmli_neon_reduce_last_u8 : edmli_neon_reduce_first_u8;
    default: return last ? edmli_neon_reduce_last_i8 : edmli_neon_reduce_first_i8;
    }
}

/* Four neighbouring outputs (columns c .. c + 3 of a kept, packed last dim)
 * over their whole reduced set, a lane each; writes their indices. Always
 * inlined into a function per data type and tie rule, like the sets above. */
EDMLI_ALWAYS_INLINE void edmli_neon_reduce_cols4(edmli_neon_red *r, const uint8_t *col, uint8_t *out, int64_t ostep,
                                                 EDML_TENSOR_DATA_TYPE index_type, EDML_TENSOR_DATA_TYPE dt, bool last)
{
    const uint32x4_t inv = vdupq_n_u32(r->invert ? 0xffffffffu : 0);
    const uint32x4_t keepnan = vdupq_n_u32(r->invert && r->is_float ? 0xffffffffu : 0);
    const uint64_t sets = edmli_odo_count(&r->inner);
    r->inner.off[0] = 0;
    uint32x4_t best = edmli_neon_red_adjust(edmli_neon_load_keys(dt, col), inv, keepnan), bidx = vdupq_n_u32(0);
    if (r->inner.rank == 1) { /* one reduced dim: a plain stride */
        const int64_t step = r->inner.step[0][0];
        const uint8_t *q = col;
        uint32x4_t sv = vdupq_n_u32(0);
        const uint32x4_t one = vdupq_n_u32(1);
        for (uint64_t s = 1; s < sets; s++) {
            q += step;
            sv = vaddq_u32(sv, one);
            uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, q), inv, keepnan);
            uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
            best = vbslq_u32(m, k, best);
            bidx = vbslq_u32(m, sv, bidx);
        }
    } else {
        edmli_odo_next(&r->inner);
        for (uint64_t s = 1; s < sets; s++, edmli_odo_next(&r->inner)) {
            uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, col + r->inner.off[0]), inv, keepnan);
            uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
            best = vbslq_u32(m, k, best);
            bidx = vbslq_u32(m, vdupq_n_u32((uint32_t)s), bidx);
        }
        if (sets == 1) r->inner.off[0] = 0;
    }
    uint32_t ib[4];
    vst1q_u32(ib, bidx);
    for (int j = 0; j < 4; j++) edmli_store_index(out + j * ostep, index_type, ib[j]);
}

typedef void (*edmli_neon_cols4_fn)(edmli_neon_red *r, const uint8_t *col, uint8_t *out, int64_t ostep,
                                    EDML_TENSOR_DATA_TYPE index_type);

#define EDMLI_NEON_COLS4(T, DT)                                                                         \
    static void edmli_neon_cols4_first_##T(edmli_neon_red *r, const uint8_t *c, uint8_t *o, int64_t os, \
                                           EDML_TENSOR_DATA_TYPE it)                                    \
    {                                                                                                   \
        edmli_neon_reduce_cols4(r, c, o, os, it, DT, false);                                            \
    }                                                                                                   \
    static void edmli_neon_cols4_last_##T(edmli_neon_red *r, const uint8_t *c, uint8_t *o, int64_t os,  \
                                          EDML_TENSOR_DATA_TYPE it)                                     \
    {                                                                                                   \
        edmli_neon_reduce_cols4(r, c, o, os, it, DT, true);                                             \
    }
EDMLI_NEON_COLS4(f32, EDML_TENSOR_DATA_TYPE_FLOAT32)
EDMLI_NEON_COLS4(f16, EDML_TENSOR_DATA_TYPE_FLOAT16)
EDMLI_NEON_COLS4(u32, EDML_TENSOR_DATA_TYPE_UINT32)
EDMLI_NEON_COLS4(i32, EDML_TENSOR_DATA_TYPE_INT32)
EDMLI_NEON_COLS4(u16, EDML_TENSOR_DATA_TYPE_UINT16)
EDMLI_NEON_COLS4(i16, EDML_TENSOR_DATA_TYPE_INT16)
EDMLI_NEON_COLS4(u8, EDML_TENSOR_DATA_TYPE_UINT8)
EDMLI_NEON_COLS4(i8, EDML_TENSOR_DATA_TYPE_INT8)

static edmli_neon_cols4_fn edmli_neon_cols4_for(EDML_TENSOR_DATA_TYPE t, bool last)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return last ? edmli_neon_cols4_last_f32 : edmli_neon_cols4_first_f32;
    case EDML_TENSOR_DATA_TYPE_FLOAT16: return last ? edmli_neon_cols4_last_f16 : edmli_neon_cols4_first_f16;
    case EDML_TENSOR_DATA_TYPE_UINT32: return last ? edmli_neon_cols4_last_u32 : edmli_neon_cols4_first_u32;
    case EDML_TENSOR_DATA_TYPE_INT32: return last ? edmli_neon_cols4_last_i32 : edmli_neon_cols4_first_i32;
    case EDML_TENSOR_DATA_TYPE_UINT16: return last ? edmli_neon_cols4_last_u16 : edmli_neon_cols4_first_u16;
    case EDML_TENSOR_DATA_TYPE_INT16: return last ? edmli_neon_cols4_last_i16 : edmli_neon_cols4_first_i16;
    case EDML_TENSOR_DATA_TYPE_UINT8: return last ? edmli_neon_cols4_last_u8 : edmli_neon_cols4_first_u8;
    default: return last ? edmli_neon_cols4_last_i8 : edmli_neon_cols4_first_i8;
    }
}

/* The odometers: `outer` over the kept dims (but, vertically, the last),
 * `inner` over the reduced dims (but, horizontally, the last: the run). */
static void edmli_neon_red_init(edmli_neon_red *r, const edml_operator *op, bool horizontal)
{
    const edmli_argreduce_plan *p = &op->plan.argreduce;
    const edmli_tensor *ti = &op->inputs[0], *to = &op->outputs[0];
    const uint32_t last_dim = ti->rank - 1, elem2[2] = {ti->elem_size, to->elem_size};
    r->dtype = ti->dtype;
    r->es = ti->elem_size;
    r->invert = !p->is_max;
    r->is_float = edmli_dtype_is_float(ti->dtype);
    r->take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING;
    edmli_odo_init(&r->outer, 2);
    edmli_odo_init(&r->inner, 1);
    for (uint32_t d = 0; d < ti->rank; d++) {
        const bool reduced = (p->axis_mask >> d) & 1;
        if (!reduced && (horizontal || d != last_dim)) {
            const uint32_t st[2] = {ti->strides[d], to->strides[d]};
            edmli_odo_dim(&r->outer, ti->sizes[d], st, elem2);
        } else if (reduced && d != last_dim) {
            edmli_odo_dim(&r->inner, ti->sizes[d], &ti->strides[d], elem2);
        }
    }
    r->run = horizontal ? ti->sizes[last_dim] : 1;
}

edml_status edmli_neon_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_tensor *ti = &op->inputs[0], *to = &op->outputs[0];
    const uint32_t last_dim = ti->rank - 1;
    if (!edmli_neon_key32(ti->dtype) || ti->strides[last_dim] != 1 || ti->sizes[last_dim] < 4)
        return edmli_ref_argreduce(op, ex);
    const bool horizontal = (op->plan.argreduce.axis_mask >> last_dim) & 1;
    edmli_neon_red r;
    edmli_neon_red_init(&r, op, horizontal);
    const edmli_neon_reduce_fn reduce_set = edmli_neon_reduce_for(ti->dtype, r.take_last);
    const edmli_neon_cols4_fn cols4 = edmli_neon_cols4_for(ti->dtype, r.take_last);
    if (horizontal) {
        for (uint64_t o = 0, n = edmli_odo_count(&r.outer); o < n; o++, edmli_odo_next(&r.outer))
            edmli_store_index(ex->out[0] + r.outer.off[1], to->dtype, reduce_set(&r, ex->in[0] + r.outer.off[0]));
        return EDML_STATUS_OK;
    }
    /* vertical: the last dim is kept; every reduced dim is in `inner` */
    const uint32_t cols = ti->sizes[last_dim];
    const int64_t ostep = (int64_t)to->strides[last_dim] * to->elem_size;
    for (uint64_t o = 0, n = edmli_odo_count(&r.outer); o < n; o++, edmli_odo_next(&r.outer)) {
        const uint8_t *base = ex->in[0] + r.outer.off[0];
        uint8_t *out = ex->out[0] + r.outer.off[1];
        uint32_t c = 0;
        for (; c + 4 <= cols; c += 4) cols4(&r, base + (uint64_t)c * r.es, out + c * ostep, ostep, to->dtype);
        for (; c < cols; c++) /* the last columns, one set each */
            edmli_store_index(out + c * ostep, to->dtype, reduce_set(&r, base + (uint64_t)c * r.es));
    }
    return EDML_STATUS_OK;
}

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
    edmli_odo outer;        /* over kept dims (input, output) */
    edmli_odo inner;        /* over reduced dims but the run (input) */
    uint32_t run;           /* elements of the innermost reduced dim */
    int64_t run_step;       /* its stride, bytes */
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t es;
    uint32_t invert;        /* ArgMin: ~key, NaN kept on top */
    bool is_float, take_last;
} edmli_neon_red;

/* a (key, index) better than b under the tie rule */
static inline bool edmli_neon_better(uint32_t ka, uint32_t ia, uint32_t kb, uint32_t ib, bool take_last)
{
    return ka > kb || (ka == kb && (take_last ? ia > ib : ia < ib));
}

static inline uint32x4_t edmli_neon_red_keys(const edmli_neon_red *r, const uint8_t *p)
{
    uint32x4_t k = edmli_neon_load_keys(r->dtype, p);
    if (r->invert) {
        uint32x4_t keep = r->is_float ? vceqq_u32(k, vdupq_n_u32(0xffffffffu)) : vdupq_n_u32(0);
        k = vorrq_u32(vmvnq_u32(k), keep);
    }
    return k;
}

static inline uint32_t edmli_neon_red_key1(const edmli_neon_red *r, const uint8_t *p)
{
    uint64_t k;
    edmli_keys_for(r->dtype)(p, 0, 1, &k);
    uint32_t k32 = k == EDMLI_NAN_KEY ? 0xffffffffu : (uint32_t)k;
    if (r->invert && !(r->is_float && k32 == 0xffffffffu)) k32 = ~k32;
    return k32;
}

/* One reduced set, horizontally. */
static uint32_t edmli_neon_reduce_set(edmli_neon_red *r, const uint8_t *base)
{
    uint32x4_t best = vdupq_n_u32(0), bidx = vdupq_n_u32(0);
    uint32_t sbest = 0, sidx = 0;
    bool any_v = false, any_s = false;
    static const uint32_t lanes[4] = {0, 1, 2, 3};
    const uint32x4_t lane = vld1q_u32(lanes);
    uint32_t flat = 0;
    uint64_t sets = edmli_odo_count(&r->inner);
    r->inner.off[0] = 0;
    for (uint64_t s = 0; s < sets; s++, edmli_odo_next(&r->inner)) {
        const uint8_t *p = base + r->inner.off[0];
        uint32_t i = 0;
        if (r->run >= 4) {
            if (!any_v) {
                best = edmli_neon_red_keys(r, p);
                bidx = vaddq_u32(lane, vdupq_n_u32(flat));
                i = 4;
                any_v = true;
            }
            for (; i + 4 <= r->run; i += 4) {
                uint32x4_t k = edmli_neon_red_keys(r, p + (uint64_t)i * r->es);
                uint32x4_t m = r->take_last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
                best = vbslq_u32(m, k, best);
                bidx = vbslq_u32(m, vaddq_u32(lane, vdupq_n_u32(flat + i)), bidx);
            }
        }
        for (; i < r->run; i++) {
            uint32_t k = edmli_neon_red_key1(r, p + (uint64_t)i * r->es);
            if (!any_s || k > sbest || (r->take_last && k == sbest)) sbest = k, sidx = flat + i, any_s = true;
        }
        flat += r->run;
    }
    uint32_t kb[4], ib[4];
    vst1q_u32(kb, best);
    vst1q_u32(ib, bidx);
    uint32_t bk = sbest, bi = sidx;
    bool have = any_s;
    for (int j = 0; j < 4 && any_v; j++)
        if (!have || edmli_neon_better(kb[j], ib[j], bk, bi, r->take_last)) bk = kb[j], bi = ib[j], have = true;
    return bi;
}

edml_status edmli_neon_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_argreduce_plan *p = &op->plan.reduce;
    const edmli_tensor *ti = &op->inputs[0], *to = &op->outputs[0];
    const uint32_t last_dim = ti->rank - 1;
    if (!edmli_neon_key32(ti->dtype) || ti->strides[last_dim] != 1 || ti->sizes[last_dim] < 4)
        return edmli_ref_argreduce(op, ex);
    edmli_neon_red r;
    r.dtype = ti->dtype;
    r.es = ti->elem_size;
    r.invert = !p->is_max;
    r.is_float = edmli_dtype_is_float(ti->dtype);
    r.take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING;
    const bool horizontal = (p->axis_mask >> last_dim) & 1;
    const uint32_t elem2[2] = {ti->elem_size, to->elem_size};
    edmli_odo_init(&r.outer, 2);
    edmli_odo_init(&r.inner, 1);
    for (uint32_t d = 0; d < ti->rank; d++) {
        bool reduced = (p->axis_mask >> d) & 1;
        if (!reduced && (horizontal || d != last_dim)) {
            const uint32_t st[2] = {ti->strides[d], to->strides[d]};
            edmli_odo_dim(&r.outer, ti->sizes[d], st, elem2);
        } else if (reduced && d != last_dim) {
            edmli_odo_dim(&r.inner, ti->sizes[d], &ti->strides[d], elem2);
        }
    }
    if (horizontal) {
        r.run = ti->sizes[last_dim];
        for (uint64_t o = 0, n = edmli_odo_count(&r.outer); o < n; o++, edmli_odo_next(&r.outer))
            edmli_store_index(ex->out[0] + r.outer.off[1], to->dtype,
                              edmli_neon_reduce_set(&r, ex->in[0] + r.outer.off[0]));
        return EDML_STATUS_OK;
    }
    /* vertical: the last dim is kept; the reduced set walks the inner odometer
     * plus, as its run, nothing (every reduced dim is in `inner`) */
    const uint32_t cols = ti->sizes[last_dim];
    const int64_t ostep = (int64_t)to->strides[last_dim] * to->elem_size;
    const uint64_t sets = edmli_odo_count(&r.inner);
    r.run = 1;
    for (uint64_t o = 0, n = edmli_odo_count(&r.outer); o < n; o++, edmli_odo_next(&r.outer)) {
        const uint8_t *base = ex->in[0] + r.outer.off[0];
        uint8_t *out = ex->out[0] + r.outer.off[1];
        uint32_t c = 0;
        for (; c + 4 <= cols; c += 4) {
            const uint8_t *col = base + (uint64_t)c * r.es;
            r.inner.off[0] = 0;
            uint32x4_t best = edmli_neon_red_keys(&r, col), bidx = vdupq_n_u32(0);
            edmli_odo_next(&r.inner);
            for (uint64_t s = 1; s < sets; s++, edmli_odo_next(&r.inner)) {
                uint32x4_t k = edmli_neon_red_keys(&r, col + r.inner.off[0]);
                uint32x4_t m = r.take_last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
                best = vbslq_u32(m, k, best);
                bidx = vbslq_u32(m, vdupq_n_u32((uint32_t)s), bidx);
            }
            if (sets == 1) r.inner.off[0] = 0;
            uint32_t ib[4];
            vst1q_u32(ib, bidx);
            for (int j = 0; j < 4; j++) edmli_store_index(out + (c + (uint32_t)j) * ostep, to->dtype, ib[j]);
        }
        for (; c < cols; c++) /* the last columns, one set each */
            edmli_store_index(out + c * ostep, to->dtype, edmli_neon_reduce_set(&r, base + (uint64_t)c * r.es));
    }
    return EDML_STATUS_OK;
}

/* ArgMin and ArgMax, reference: one pass over each reduced set with keys. */
#include "ref.h"

edml_status edmli_ref_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_argreduce_plan *p = &op->plan.argreduce;
    const edmli_tensor *ti = &op->inputs[0], *to = &op->outputs[0];
    const uint32_t elem2[2] = {ti->elem_size, to->elem_size};
    edmli_odo outer, inner;
    edmli_odo_init(&outer, 2);
    edmli_odo_init(&inner, 1);
    uint32_t last = 0; /* innermost reduced dim, walked as a run */
    for (uint32_t d = 0; d < ti->rank; d++)
        if (p->axis_mask & (1u << d)) last = d;
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (!(p->axis_mask & (1u << d))) {
            const uint32_t st[2] = {ti->strides[d], to->strides[d]};
            edmli_odo_dim(&outer, ti->sizes[d], st, elem2);
        } else if (d != last) {
            edmli_odo_dim(&inner, ti->sizes[d], &ti->strides[d], elem2);
        }
    }
    const edmli_keys_fn keys_of = edmli_keys_for(ti->dtype);
    const bool is_float = edmli_dtype_is_float(ti->dtype);
    const bool take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING;
    const uint32_t run = ti->sizes[last];
    const int64_t step = (int64_t)ti->strides[last] * ti->elem_size;
    const uint64_t inner_n = edmli_odo_count(&inner);
    uint64_t keys[EDMLI_CPU_CHUNK];
    for (uint64_t r = 0, rows = edmli_odo_count(&outer); r < rows; r++, edmli_odo_next(&outer)) {
        const uint8_t *base = ex->in[0] + outer.off[0];
        uint64_t best = 0, best_i = 0, flat = 0;
        bool first = true;
        inner.off[0] = 0;
        for (uint32_t d = 0; d < inner.rank; d++) inner.idx[d] = 0;
        for (uint64_t s = 0; s < inner_n; s++, edmli_odo_next(&inner)) {
            const uint8_t *p0 = base + inner.off[0];
            for (uint32_t i = 0; i < run; i += EDMLI_CPU_CHUNK) {
                uint32_t n = run - i < EDMLI_CPU_CHUNK ? run - i : EDMLI_CPU_CHUNK;
                keys_of(p0 + i * step, step, n, keys);
                for (uint32_t j = 0; j < n; j++, flat++) {
                    uint64_t k = keys[j];
                    /* ArgMin: reverse the order but keep NaN on top */
                    if (!p->is_max && !(is_float && k == EDMLI_NAN_KEY)) k = ~k;
                    if (first || k > best || (take_last && k == best)) {
                        best = k;
                        best_i = flat;
                        first = false;
                    }
                }
            }
        }
        edmli_store_index(ex->out[0] + outer.off[1], to->dtype, best_i);
    }
    return EDML_STATUS_OK;
}

/* TopK, reference: each sequence's keys offered to a bounded heap of K
 * (src/cpu/cpu_topk.c), drained best first. */
#include "ref.h"

edml_status edmli_ref_topk(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    const uint32_t elem[3] = {ti->elem_size, tv->elem_size, tx->elem_size};
    edmli_odo o;
    edmli_odo_init(&o, 3);
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis) continue;
        const uint32_t st[3] = {ti->strides[d], tv->strides[d], tx->strides[d]};
        edmli_odo_dim(&o, ti->sizes[d], st, elem);
    }
    const edmli_keys_fn keys_of = edmli_keys_for(ti->dtype);
    const int64_t in_step = (int64_t)ti->strides[p->axis] * ti->elem_size;
    const uint64_t flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT64_MAX : 0;
    edmli_topk_entry *heap = (edmli_topk_entry *)ex->scratch;
    uint64_t keys[EDMLI_CPU_CHUNK];
    for (uint64_t row = 0, rows = edmli_odo_count(&o); row < rows; row++, edmli_odo_next(&o)) {
        const uint8_t *in = ex->in[0] + o.off[0];
        uint32_t count = 0;
        for (uint32_t i = 0; i < p->axis_size; i += EDMLI_CPU_CHUNK) {
            uint32_t n = p->axis_size - i < EDMLI_CPU_CHUNK ? p->axis_size - i : EDMLI_CPU_CHUNK;
            keys_of(in + i * in_step, in_step, n, keys);
            count = edmli_topk_select(heap, p->k, count, keys, n, i, flip);
        }
        edmli_topk_drain(heap, p->k);
        edmli_topk_write(op, heap, in, ex->out[0] + o.off[1], ex->out[1] + o.off[2]);
    }
    return EDML_STATUS_OK;
}

/* ElementWiseIf, reference: a copy of A's or B's element per condition byte. */
#include "ref.h"

edml_status edmli_ref_elementwise_if(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    const uint32_t es = op->inputs[1].elem_size, last = p->rank - 1, n = p->sizes[last];
    const int64_t st[4] = {p->strides[0][last], (int64_t)p->strides[1][last] * es, (int64_t)p->strides[2][last] * es,
                           (int64_t)p->strides[3][last] * es};
    const edmli_elementwise_if_run_fn run = edmli_elementwise_if_run_for(es);
    edmli_odo o;
    edmli_elementwise_if_outer(op, &o);
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o))
        run(ex->in[0] + o.off[0], ex->in[1] + o.off[1], ex->in[2] + o.off[2], ex->out[0] + o.off[3], n, st);
    return EDML_STATUS_OK;
}

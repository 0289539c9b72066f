/* ElementWiseIf, reference: a copy of A's or B's element per condition byte. */
#include "../core/internal.h"
#include "../core/iter.h"
#include "ref.h"

#include <string.h>

#define EDMLI_REF_IF_RUN(name, T)                                                                  \
    static void name(const uint8_t *c, const uint8_t *a, const uint8_t *b, uint8_t *o, uint32_t n, \
                     const int64_t *st)                                                            \
    {                                                                                               \
        for (uint32_t i = 0; i < n; i++, c += st[0], a += st[1], b += st[2], o += st[3]) {         \
            T v;                                                                                    \
            memcpy(&v, *c ? a : b, sizeof v);                                                       \
            memcpy(o, &v, sizeof v);                                                                \
        }                                                                                           \
    }
EDMLI_REF_IF_RUN(edmli_ref_if_1, uint8_t)
EDMLI_REF_IF_RUN(edmli_ref_if_2, uint16_t)
EDMLI_REF_IF_RUN(edmli_ref_if_4, uint32_t)
EDMLI_REF_IF_RUN(edmli_ref_if_8, uint64_t)

void edmli_if_outer(const edml_operator *op, edmli_odo *o)
{
    const edmli_if_plan *p = &op->plan.iff;
    const uint32_t es = op->inputs[1].elem_size;
    const uint32_t elem[4] = {1, es, es, es};
    edmli_odo_init(o, 4);
    for (uint32_t d = 0; d + 1 < p->rank; d++) {
        const uint32_t st[4] = {p->strides[0][d], p->strides[1][d], p->strides[2][d], p->strides[3][d]};
        edmli_odo_dim(o, p->sizes[d], st, elem);
    }
}

edmli_if_run_fn edmli_if_run_for(uint32_t es)
{
    return es == 1 ? edmli_ref_if_1 : es == 2 ? edmli_ref_if_2 : es == 4 ? edmli_ref_if_4 : edmli_ref_if_8;
}

edml_status edmli_ref_if(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_if_plan *p = &op->plan.iff;
    const uint32_t es = op->inputs[1].elem_size, last = p->rank - 1, n = p->sizes[last];
    const int64_t st[4] = {p->strides[0][last], (int64_t)p->strides[1][last] * es, (int64_t)p->strides[2][last] * es,
                           (int64_t)p->strides[3][last] * es};
    const edmli_if_run_fn run = edmli_if_run_for(es);
    edmli_odo o;
    edmli_if_outer(op, &o);
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o))
        run(ex->in[0] + o.off[0], ex->in[1] + o.off[1], ex->in[2] + o.off[2], ex->out[0] + o.off[3], n, st);
    return EDML_STATUS_OK;
}

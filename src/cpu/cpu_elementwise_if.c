/* ElementWiseIf on the CPU: the scalar runs and the odometer over the plan's
 * outer dims, shared by the reference and NEON. */
#include "cpu.h"

#include <string.h>

#define EDMLI_CPU_IF_RUN(name, T)                                                                                     \
    static void name(const uint8_t *c, const uint8_t *a, const uint8_t *b, uint8_t *o, uint32_t n, const int64_t *st) \
    {                                                                                                                 \
        for (uint32_t i = 0; i < n; i++, c += st[0], a += st[1], b += st[2], o += st[3]) {                            \
            T v;                                                                                                      \
            memcpy(&v, *c ? a : b, sizeof v);                                                                         \
            memcpy(o, &v, sizeof v);                                                                                  \
        }                                                                                                             \
    }
EDMLI_CPU_IF_RUN(edmli_cpu_if_1, uint8_t)
EDMLI_CPU_IF_RUN(edmli_cpu_if_2, uint16_t)
EDMLI_CPU_IF_RUN(edmli_cpu_if_4, uint32_t)
EDMLI_CPU_IF_RUN(edmli_cpu_if_8, uint64_t)

void edmli_elementwise_if_outer(const edml_operator *op, edmli_odo *o)
{
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    const uint32_t es = op->inputs[1].elem_size;
    const uint32_t elem[4] = {1, es, es, es};
    edmli_odo_init(o, 4);
    for (uint32_t d = 0; d + 1 < p->rank; d++) {
        const uint32_t st[4] = {p->strides[0][d], p->strides[1][d], p->strides[2][d], p->strides[3][d]};
        edmli_odo_dim(o, p->sizes[d], st, elem);
    }
}

edmli_elementwise_if_run_fn edmli_elementwise_if_run_for(uint32_t es)
{
    return es == 1 ? edmli_cpu_if_1 : es == 2 ? edmli_cpu_if_2 : es == 4 ? edmli_cpu_if_4 : edmli_cpu_if_8;
}

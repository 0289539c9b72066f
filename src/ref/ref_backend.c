/* The reference backend's table: a kernel for every operator of the list
 * (src/core/ops.h), the oracle that every other backend matches. */
#include "ref.h"

static uint64_t edmli_ref_temp_bytes(const edml_operator *op)
{
    return op->kind == EDMLI_OP_TOPK ? edmli_topk_heap_bytes(op) : 0;
}

const edmli_backend edmli_ref_backend = {
    .on_cpu = true,
    .kernels =
        {
#define EDMLI_REF_KERNEL(KIND, name) [EDMLI_OP_##KIND] = edmli_ref_##name,
            EDMLI_OPS(EDMLI_REF_KERNEL)
#undef EDMLI_REF_KERNEL
        },
    .temp_bytes = edmli_ref_temp_bytes,
};

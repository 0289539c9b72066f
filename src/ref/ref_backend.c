/* The reference backend's table. */
#include "ref.h"

static uint64_t edmli_ref_temp_bytes(const edml_operator *op)
{
    return op->kind == EDMLI_OP_TOPK ? edmli_topk_heap_bytes(op) : 0;
}

const edmli_backend_ops edmli_ref_backend = {
    .name = "ref",
    .kernels = {
        [EDMLI_OP_TOPK] = edmli_ref_topk,
        [EDMLI_OP_GATHER_ND] = edmli_ref_gather_nd,
        [EDMLI_OP_ARGREDUCE] = edmli_ref_argreduce,
        [EDMLI_OP_ELEMENTWISE_IF] = edmli_ref_elementwise_if,
    },
    .temp_bytes = edmli_ref_temp_bytes,
};

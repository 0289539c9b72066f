/* The reference backend's table. */
#include "ref.h"

uint64_t edmli_ref_temp_bytes(const edml_operator *op)
{
    if (op->kind == EDMLI_OP_TOPK) return (uint64_t)op->plan.topk.k * sizeof(edmli_topk_entry);
    return 0;
}

const edmli_backend_ops edmli_ref_backend = {
    .name = "ref",
    .kernels = {
        [EDMLI_OP_TOPK] = edmli_ref_topk,
        [EDMLI_OP_GATHER_ND] = edmli_ref_gather_nd,
        [EDMLI_OP_ARGREDUCE] = edmli_ref_argreduce,
        [EDMLI_OP_IF] = edmli_ref_if,
    },
    .temp_bytes = edmli_ref_temp_bytes,
};

/* The NEON backend's table. GatherND is row copies: the reference's loop,
 * whose packed runs go through memcpy (NEON in every Arm C library). */
#include "neon.h"

edml_status edmli_neon_gather_nd(const edml_operator *op, const edmli_exec *ex) { return edmli_cpu_gather_nd(op, ex); }

static uint64_t edmli_neon_temp_bytes(const edml_operator *op)
{
    /* TopK: 4 heaps for rows side by side */
    if (op->kind == EDMLI_OP_TOPK) return 4u * edmli_topk_heap_bytes(op);
    return 0;
}

const edmli_backend_ops edmli_neon_backend = {
    .name = "neon",
    .kernels = {
        [EDMLI_OP_TOPK] = edmli_neon_topk,
        [EDMLI_OP_GATHER_ND] = edmli_neon_gather_nd,
        [EDMLI_OP_ARGREDUCE] = edmli_neon_argreduce,
        [EDMLI_OP_ELEMENTWISE_IF] = edmli_neon_elementwise_if,
    },
    .temp_bytes = edmli_neon_temp_bytes,
};
